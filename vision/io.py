"""Image loading for recognition: format sniffing, header-only size checks, reduced-size JPEG decoding, EXIF orientation.

``load_image(data)`` returns a BGR ``uint8`` array (H, W, 3) of the EXIF-oriented image, or raises
:class:`vision.errors.ImageError` with a stable code. ``decode_image(data, min_side=...)`` is the fast path used by the
recogniser: a JPEG is decoded by libjpeg at 1/2, 1/4 or 1/8 scale when that still leaves ``min_side`` pixels on the
long side (a 12 MP photo is never fully decoded), and the scale factor back to the oriented original is returned.

Accepted: PNG, JPEG, WebP, HEIC/HEIF. Everything else (text, GIF, PDF, ...) is ``unsupported_format``. Pixel counts
above ``max_pixels`` are refused from the header, before any pixel buffer is allocated.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageError

DEFAULT_MAX_PIXELS = 64_000_000  # 64 MP: every phone camera in 2026 fits (incl. 50 MP modes); 20000x20000 does not
MAX_FILE_BYTES = 100 * 1024 * 1024
MIN_SIDE = 16

_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis"}


@dataclass(frozen=True)
class LoadedImage:
    """A decoded image plus its geometry.

    ``image``: (h, w, 3) BGR uint8, EXIF orientation applied, possibly reduced. ``width``/``height``: size of the full
    oriented image on disk. ``scale``: multiply pixel coordinates in ``image`` by this to get full-image coordinates.
    """

    image: np.ndarray
    width: int
    height: int
    scale: float
    format: str


def sniff_format(data: bytes) -> str:
    """'jpeg' | 'png' | 'webp' | 'heif', or raise ``unsupported_format`` / ``empty_file``."""
    if len(data) == 0:
        raise ImageError("empty_file", "the file is empty (0 bytes)")
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "heif"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        raise ImageError("unsupported_format", "GIF images are not supported; send a PNG, JPEG, WebP or HEIC photo")
    raise ImageError("unsupported_format", "not a PNG, JPEG, WebP or HEIC image")


def _read_bytes(data: bytes | bytearray | memoryview | str | Path) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    path = Path(data)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError("image_too_large", f"file of {size} bytes exceeds {MAX_FILE_BYTES} bytes")
        with path.open("rb") as handle:  # a device or a pipe says 0 bytes: read no more than the limit
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise ImageError("image_too_large", f"{str(path)!r} holds more than {MAX_FILE_BYTES} bytes")
        return data
    except ImageError:
        raise
    except (OSError, ValueError) as exc:
        raise ImageError("file_not_found", f"cannot read {str(path)!r}: {exc.__class__.__name__}") from None


def read_header(data: bytes) -> tuple[str, int, int, int]:
    """(format, width, height, exif_orientation) without decoding pixels; :class:`ImageError` when unusable."""
    fmt = sniff_format(data)
    return (fmt, *_header(data, fmt))


def _header(data: bytes, fmt: str, max_pixels: int | None = None):
    """(width, height, exif_orientation) from the header only, via Pillow's lazy open (no pixel decoding); with
    ``max_pixels``, ``image_too_large`` for more pixels than that."""
    from PIL import Image

    if fmt == "heif":
        _register_heif()
    try:
        with Image.open(io.BytesIO(data)) as im:
            width, height = im.size
            if max_pixels is not None and width * height > max_pixels:  # before the EXIF, which may decode (below)
                raise ImageError("image_too_large", f"{width}x{height} = {width * height} pixels exceeds {max_pixels}")
            orientation = 1
            # Pillow's getexif() on a PNG with no eXIf chunk before its pixels decodes them all to look for one after
            # (0.8 s for 12 MP, before the pixel limit was checked, and again by OpenCV): only where one is there
            if fmt != "png" or "exif" in im.info or b"eXIf" in data or b"Raw profile type exif" in data:
                try:
                    orientation = int(im.getexif().get(0x0112, 1) or 1)
                except Exception:  # malformed EXIF: ignore orientation, not fatal
                    orientation = 1
    except ImageError:
        raise
    except Image.DecompressionBombError:
        raise ImageError("image_too_large", "image header declares too many pixels") from None
    except Exception as exc:
        if fmt == "png" and len(data) < 33:
            raise ImageError("truncated_image", "PNG file ends inside its header") from None
        if fmt == "webp" and len(data) < 8 + int.from_bytes(data[4:8], "little"):
            raise ImageError("truncated_image", f"WebP file of {len(data)} bytes ends before the "
                                                f"{8 + int.from_bytes(data[4:8], 'little')} its RIFF header declares") from None
        raise ImageError("unreadable_image", f"cannot read the {fmt} header: {exc.__class__.__name__}") from None
    return width, height, orientation if 1 <= orientation <= 8 else 1


def _register_heif() -> None:
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:  # pragma: no cover - pillow-heif is a base dependency
        raise ImageError("unsupported_format", "HEIC support (pillow-heif) is not installed") from None


def _orient(image: np.ndarray, orientation: int) -> np.ndarray:
    """Apply an EXIF orientation (1..8) to a decoded array."""
    if orientation == 2:
        return image[:, ::-1]
    if orientation == 3:
        return image[::-1, ::-1]
    if orientation == 4:
        return image[::-1]
    if orientation == 5:
        return image.transpose(1, 0, 2)
    if orientation == 6:
        return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return image.transpose(1, 0, 2)[::-1, ::-1]
    if orientation == 8:
        return cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return image


def _jpeg_complete(data: bytes) -> bool:
    """True when an end-of-image marker follows the main image's first start-of-scan marker.

    The segments before the scans are walked by their lengths, so a thumbnail inside APP1 (a whole JPEG, with its
    own scan and end) is skipped, and bytes after the image's end are never taken for its scans: a motion photo
    (Pixel, Samsung) carries a video or trailer there, whose bytes hold FF DA without a later FF D9 about half the
    time. Entropy-coded data holds no FF D9 (an FF in it is followed by 00 or a restart marker), so the first one
    after the scans begin ends the image."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:  # stray bytes between segments: skipped to the next marker, as libjpeg does
            pos = data.find(b"\xff", pos)
            if pos < 0:
                return False
            continue
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte before a marker
            pos += 1
        elif marker == 0xDA:
            return data.find(b"\xff\xd9", pos + 2) >= 0
        elif marker == 0xD9:  # the end before any scan: no image data
            return False
        elif marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            pos += 2
        else:
            pos += 2 + int.from_bytes(data[pos + 2:pos + 4], "big")
    return False


def decode_image(data: bytes | str | Path, *, min_side: int | None = None,
                 max_pixels: int = DEFAULT_MAX_PIXELS) -> LoadedImage:
    """Decode ``data`` (bytes or a path). With ``min_side``, a JPEG may be decoded reduced (1/2, 1/4, 1/8) as long as
    its long side keeps at least ``min_side`` pixels; other formats are decoded fully."""
    raw = _read_bytes(data)
    fmt = sniff_format(raw)
    width, height, orientation = _header(raw, fmt, max_pixels)
    if min(width, height) < MIN_SIDE:
        raise ImageError("image_too_small", f"{width}x{height} is smaller than {MIN_SIDE} pixels on a side")
    stored_width, stored_height = width, height
    if orientation in (5, 6, 7, 8):
        width, height = height, width

    image = None
    scale = None
    if fmt == "jpeg":
        if not _jpeg_complete(raw):
            raise ImageError("truncated_image", "JPEG data ends before the end-of-image marker")
        factor = 1
        if min_side:
            while factor < 8 and max(width, height) // (factor * 2) >= min_side:
                factor *= 2
        flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}[factor] | cv2.IMREAD_IGNORE_ORIENTATION
        image = cv2.imdecode(np.frombuffer(raw, np.uint8), flags)
        if image is not None and factor > 1:
            # libjpeg's last column and row at 1/f stand for what is left of the picture, 1 to f pixels: cut where
            # partial, so that pixel i is the picture's [i f, (i + 1) f) and no box scaled by f reaches past its edge
            # (a 4000 x 2250 photo read at 1/8 had boxes down to y = 2256)
            image, scale = image[:stored_height // factor, :stored_width // factor], float(factor)
    elif fmt in ("png", "webp"):
        image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if image is None and fmt == "png" and b"IEND" not in raw[-16:]:
            raise ImageError("truncated_image", "PNG data ends before the IEND chunk")
    if image is None:  # HEIF, or a file OpenCV refused: try Pillow (it also reports truncation)
        image = _decode_pillow(raw, fmt)
    else:
        image = _orient(image, orientation)
    if image is None or image.ndim != 3 or image.size == 0:
        raise ImageError("unreadable_image", f"the {fmt} data could not be decoded")
    image = np.ascontiguousarray(image)
    h, w = image.shape[:2]
    if scale is None:  # decoded whole
        scale = max(width / w, height / h)
    return LoadedImage(image=image, width=width, height=height, scale=float(scale), format=fmt)


def _decode_pillow(raw: bytes, fmt: str) -> np.ndarray:
    from PIL import Image, ImageOps

    if fmt == "heif":
        _register_heif()
    try:
        with Image.open(io.BytesIO(raw)) as im:
            im = ImageOps.exif_transpose(im.convert("RGB") if im.mode not in ("RGB",) else im)
            arr = np.asarray(im.convert("RGB"))
    except (OSError, SyntaxError) as exc:
        text = str(exc).lower()
        code = "truncated_image" if "truncat" in text or "end of" in text else "unreadable_image"
        raise ImageError(code, f"the {fmt} data could not be decoded ({exc.__class__.__name__})") from None
    except Exception as exc:
        raise ImageError("unreadable_image", f"the {fmt} data could not be decoded ({exc.__class__.__name__})") from None
    return cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)


def load_image(data: bytes | str | Path, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """Full-resolution BGR uint8 (H, W, 3), EXIF orientation applied; raises :class:`ImageError`."""
    return decode_image(data, max_pixels=max_pixels).image
