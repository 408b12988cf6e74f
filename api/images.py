"""Cheap checks on an upload before it reaches a worker, and the annotated overlay image.

The header probe reads only the first bytes Pillow needs for format and size, so a 400-megapixel PNG is refused
in microseconds instead of after a 1.2 GB decode. Codes match ``vision.errors`` so a client sees the same code
whichever layer noticed the problem.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from typing import Any, Sequence

from PIL import Image, ImageDraw, ImageFont, ImageOps

from .errors import ApiError

try:  # HEIC/HEIF (iPhone photos); optional at import so the API still starts without it.
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a base dependency
    pass

# Pillow format names the recogniser reads (vision.errors: PNG, JPEG, WebP, HEIC/HEIF).
ACCEPTED_FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "HEIF", "HEIC", "AVIF"}
MIN_SIDE = 16


def probe_image(data: bytes, max_pixels: int) -> tuple[str, int, int]:
    """(format, width, height) from the header; ApiError with the vision code for anything unusable."""
    if not data:
        raise ApiError("empty_file", "the uploaded image has zero bytes")
    try:
        from vision.errors import ImageError
        from vision.io import check_structure
    except ImportError:  # pragma: no cover - vision is part of the package
        pass
    else:
        try:
            # before Pillow walks the file in Python on the event loop's thread (vision.io's limits)
            check_structure(data, whole=False)
        except ImageError as error:
            raise ApiError(error.code, error.message) from None
    try:
        with warnings.catch_warnings():
            # Pillow warns (and past 2x raises) on decompression bombs; our own limit below decides instead.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                fmt = (image.format or "").upper()
                width, height = image.size
    except Image.DecompressionBombError as error:
        # Pillow refuses to even open images past twice its own limit; its message carries the pixel count.
        found = re.search(r"\((\d+) pixels\)", str(error))
        details = {"pixels": int(found.group(1))} if found else {}
        raise ApiError("image_too_large", f"the image is far over the pixel limit of {max_pixels}: {error}",
                       details={**details, "max_pixels": max_pixels}) from None
    except Exception as error:  # noqa: BLE001 - Pillow raises many types for bytes that are not an image
        raise _unopenable(data, error) from None
    if fmt not in ACCEPTED_FORMATS:
        raise ApiError("unsupported_format", f"{fmt or 'unknown'} images are not accepted (JPEG, PNG, WebP or HEIC)")
    if width * height > max_pixels:
        raise ApiError("image_too_large",
                       f"{width} x {height} = {width * height} pixels exceeds the limit of {max_pixels}",
                       details={"pixels": width * height, "width": width, "height": height, "max_pixels": max_pixels})
    if min(width, height) < MIN_SIDE:
        raise ApiError("image_too_small", f"{width} x {height} is smaller than {MIN_SIDE} pixels on a side")
    return fmt, width, height


def _unopenable(data: bytes, error: Exception) -> ApiError:
    """Bytes Pillow cannot open. A JPEG, PNG, WebP or HEIC cut short or corrupt gets vision's code for it (400
    truncated_image / unreadable_image, as the recogniser would say), not 415: only other bytes are unsupported."""
    try:
        from vision.errors import ImageError
        from vision.io import read_header

        read_header(data)
    except ImportError:
        pass
    except ImageError as image_error:
        return ApiError(image_error.code, image_error.message)
    return ApiError("unsupported_format",
                    f"not a readable image (JPEG, PNG, WebP or HEIC expected): {type(error).__name__}")


def decode_check(data: bytes) -> None:
    """Decode fully (used only when no recogniser will): truncated or corrupt files become 4xx codes."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except OSError as error:
        text = str(error).lower()
        code = "truncated_image" if "truncat" in text or "end of file" in text or "broken" in text else "unreadable_image"
        raise ApiError(code, f"the image cannot be decoded: {error}") from None
    except Exception as error:  # noqa: BLE001
        raise ApiError("unreadable_image", f"the image cannot be decoded: {type(error).__name__}: {error}") from None


def _confidence_colour(confidence: float | None) -> tuple[int, int, int]:
    if confidence is None:
        return (120, 120, 120)
    if confidence >= 0.9:
        return (20, 200, 80)
    if confidence >= 0.6:
        return (250, 180, 0)
    return (235, 40, 40)


def render_overlay(data: bytes, tiles: Sequence[dict[str, Any]], oriented_size: tuple[int, int],
                   max_side: int, decoded: Any = None) -> str | None:
    """A JPEG data URL: the photo (EXIF-oriented, longest side <= max_side) with each tile boxed and labelled.

    Box colour encodes confidence (green >= 0.9, amber >= 0.6, red below) so a referee sees at a glance which
    tiles to check. Returns None when disabled or when the image cannot be re-read.
    """
    if max_side <= 0:
        return None
    if decoded is not None:
        # Pixels the recogniser already decoded (BGR, EXIF-oriented, maybe reduced): no second decode.
        image = Image.fromarray(decoded[:, :, ::-1])
        image.thumbnail((max_side, max_side))
        return _draw_tiles(image, tiles, oriented_size)
    try:
        image = Image.open(io.BytesIO(data))
        # JPEG draft mode decodes at 1/2, 1/4 or 1/8 scale directly (a 12 MP photo at 1/4 costs ~1/16 of a full
        # decode). Pillow picks the scale from the smaller of the two side ratios, so ask for the photo's own aspect.
        stored_w, stored_h = image.size
        fit = max_side / max(stored_w, stored_h)
        image.draft("RGB", (max(1, int(stored_w * fit)), max(1, int(stored_h * fit))))
        image = ImageOps.exif_transpose(image).convert("RGB")
        image.thumbnail((max_side, max_side))
    except Exception:  # noqa: BLE001 - the overlay is a convenience; the tiles JSON carries the same facts
        return None
    return _draw_tiles(image, tiles, oriented_size)


def _draw_tiles(image: Image.Image, tiles: Sequence[dict[str, Any]], oriented_size: tuple[int, int]) -> str:
    scale = image.width / max(oriented_size[0], 1)
    draw = ImageDraw.Draw(image)
    font_size = max(12, round(image.width / 70))
    try:
        font = ImageFont.load_default(size=font_size)
    except TypeError:  # Pillow < 10.1
        font = ImageFont.load_default()
    line = max(2, round(image.width / 500))
    for tile in tiles:
        x1, y1, x2, y2 = (float(v) * scale for v in tile["box"])
        colour = _confidence_colour(tile.get("confidence"))
        draw.rectangle((x1, y1, x2, y2), outline=colour, width=line)
        label = "back" if tile.get("face_down") else str(tile.get("code"))
        if tile.get("confidence") is not None:
            label += f" {float(tile['confidence']):.2f}"
        left, top, right, bottom = draw.textbbox((x1, y1), label, font=font)
        text_y = max(0.0, y1 - (bottom - top) - 4)
        draw.rectangle((x1, text_y, x1 + (right - left) + 4, text_y + (bottom - top) + 4), fill=colour)
        draw.text((x1 + 2, text_y + 2 - (top - y1)), label, fill=(0, 0, 0), font=font)
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
