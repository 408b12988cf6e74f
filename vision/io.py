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
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageError

DEFAULT_MAX_PIXELS = 64_000_000  # 64 MP: every phone camera in 2026 fits (incl. 50 MP modes); 20000x20000 does not
MAX_FILE_BYTES = 100 * 1024 * 1024
MIN_SIDE = 16

# What opening and decoding a file may cost beyond its pixel count (README "Service"). libjpeg reads every scan of a
# progressive JPEG over the whole picture, whatever the reduced size asked for: 300 copies of a scan (214 KB) took
# 10 s of CPU for a 49 MP picture; a photo has 1 (baseline) to about 12. Pillow walks the segments before the first
# scan (and the chunks before a PNG's pixels) in Python, one stray byte at a time: 2 MB of empty segments took 1.2 s
# on the event loop's thread. libpng inflates all of a PNG's pixel stream, also what lies past the picture (2 MB of
# it inflating to 2 GB took 3 s), and every compressed text chunk up to 8 MB each.
MAX_JPEG_SCANS = 100
MAX_JPEG_SEGMENTS = 1000     # segments before the first scan (a phone photo has about 10-20)
MAX_STRAY_BYTES = 64 * 1024  # bytes between JPEG segments before the first scan (libjpeg warns on any)
MAX_PNG_CHUNKS = 100_000     # all chunks (a 25 MB PNG written in 8 KB IDAT chunks has about 3,200)
MAX_PNG_CHUNKS_BEFORE_IDAT = 1000
MAX_PNG_TEXT_BYTES = 16 * 1024 * 1024  # zTXt, compressed iTXt and iCCP, inflated, all together
PNG_EXCESS_BYTES = 1024 * 1024         # pixel data past what the header's picture holds (a clean PNG has none)

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
        if _cut_short(data, fmt):
            raise ImageError("truncated_image", f"{fmt.upper()} file of {len(data)} bytes ends inside its header") \
                from None
        raise ImageError("unreadable_image", f"cannot read the {fmt} header: {exc.__class__.__name__}") from None
    return width, height, orientation if 1 <= orientation <= 8 else 1


# _cut_short walks at most this many JPEG segments, PNG chunks or HEIF boxes (a photo has a few dozen at most)
CUT_WALK_STEPS = 1000


def _cut_short(data: bytes, fmt: str) -> bool:
    """Whether a header that could not be read runs off the file's end: its structure whole up to there (JPEG segments
    before the first scan, PNG chunks before IEND, HEIF boxes), the last one cut or the file ending between two. Such a
    file is ``truncated_image``, as one cut later is; a header garbled on the way (a segment of no length, a chunk
    named in no letters, a JPEG whose end-of-image marker is there) stays ``unreadable_image``. Only read where the
    header failed, and at most CUT_WALK_STEPS segments, chunks or boxes (a file of millions of tiny boxes is no photo,
    and this may run on the event loop)."""
    walk = _CUT_WALKS.get(fmt)
    return walk is not None and walk(data)


def _jpeg_cut_short(data: bytes) -> bool:
    """``_cut_short`` of a JPEG: its segments walked from after SOI to the first scan."""
    if data.endswith(b"\xff\xd9"):  # whole to its end-of-image marker: garbled, not cut
        return False
    at = 2  # after SOI
    for _ in range(CUT_WALK_STEPS):
        if at >= len(data):
            return True
        if data[at] != 0xFF:  # stray bytes between segments, which decoders skip
            at = data.find(b"\xff", at)
            if at < 0:
                return True
        while at < len(data) and data[at] == 0xFF:  # fill bytes
            at += 1
        if at >= len(data):
            return True
        marker = data[at]
        at += 1
        if marker == 0xD9:  # end of image before any scan: garbled
            return False
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers with no length
            continue
        if at + 2 > len(data):
            return True
        length = int.from_bytes(data[at:at + 2], "big")
        if length < 2:
            return False
        if marker == 0xDA:  # a scan begins: the header was whole, if the scan's own header is and data follow
            return at + length >= len(data)
        at += length
    return False


def _png_cut_short(data: bytes) -> bool:
    """``_cut_short`` of a PNG: its chunks walked from after the signature to IEND."""
    at = 8  # after the signature
    for _ in range(CUT_WALK_STEPS):
        if at + 8 > len(data):
            return True
        kind = data[at + 4:at + 8]
        if not kind.isalpha() or kind == b"IEND":
            return False
        at += 12 + int.from_bytes(data[at:at + 4], "big")
    return False


def _heif_cut_short(data: bytes) -> bool:
    """``_cut_short`` of a HEIF file: its top-level boxes walked; one ending between two is cut if no media data
    came."""
    at, media = 0, False
    for _ in range(CUT_WALK_STEPS):
        if at == len(data):  # ends between two boxes: cut there if the media data never came
            return not media
        if at + 8 > len(data):
            return True
        size = int.from_bytes(data[at:at + 4], "big")
        media = media or data[at + 4:at + 8] == b"mdat"
        if size == 1:  # a 64-bit size follows the type
            if at + 16 > len(data):
                return True
            size = int.from_bytes(data[at + 8:at + 16], "big")
        if size == 0:  # the last box, to the end of the file
            return False
        if size < 8:
            return False
        if at + size > len(data):
            return True
        at += size
    return False


_CUT_WALKS = {"jpeg": _jpeg_cut_short, "png": _png_cut_short, "heif": _heif_cut_short}


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


def check_structure(data: bytes, *, whole: bool = True) -> bool | None:
    """``unreadable_image`` for a JPEG or PNG whose structure would cost far more to open or decode than its pixel
    count says (the limits above); other formats pass. ``whole=False`` checks only what Pillow reads to open the
    file (before the first scan or pixel chunk), with no inflating of the pixel data: cheap enough for the event loop.
    Returns, for a JPEG, whether it is complete (``_jpeg_structure``: the same walk), else None."""
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_structure(data)[0]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        _png_structure(data, whole)
    return None


def _too_costly(fmt: str, what: str) -> ImageError:
    return ImageError("unreadable_image", f"the {fmt} file {what}: it is not read")


def _jpeg_structure(data: bytes) -> tuple[bool, int]:
    """(complete, scans): complete when an end-of-image marker follows the main image's first start-of-scan marker;
    scans, the start-of-scan markers up to that end. ImageError past the limits on scans, segments or stray bytes.

    The segments before the scans are walked by their lengths, so a thumbnail inside APP1 (a whole JPEG, with its
    own scan and end) is skipped, and bytes after the image's end are never taken for its scans: a motion photo
    (Pixel, Samsung) carries a video or trailer there, whose bytes hold FF DA without a later FF D9 about half the
    time. Entropy-coded data holds no FF D9 or FF DA (an FF in it is followed by 00 or a restart marker), so the
    first FF D9 after the scans begin ends the image and every FF DA before it starts a scan."""
    pos = 2
    segments = stray = 0
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:  # stray bytes between segments: skipped to the next marker, as libjpeg does
            found = data.find(b"\xff", pos)
            if found < 0:
                return False, 0
            stray += found - pos
            pos = found
        else:
            marker = data[pos + 1]
            if marker in (0xFF, 0x00):  # a fill byte before a marker; FF 00 outside a scan is stray data
                stray += 1 if marker == 0xFF else 2
                pos += 1 if marker == 0xFF else 2
            elif marker == 0xDA:
                end = data.find(b"\xff\xd9", pos + 2)
                if end < 0:
                    return False, 0
                scans = data.count(b"\xff\xda", pos, end)
                if scans > MAX_JPEG_SCANS:
                    raise _too_costly("JPEG", f"has {scans} scans (at most {MAX_JPEG_SCANS})")
                return True, scans
            elif marker == 0xD9:  # the end before any scan: no image data
                return False, 0
            elif marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
                pos += 2
                segments += 1
            else:
                pos += 2 + int.from_bytes(data[pos + 2:pos + 4], "big")
                segments += 1
        if segments > MAX_JPEG_SEGMENTS:
            raise _too_costly("JPEG", f"has over {MAX_JPEG_SEGMENTS} segments before its first scan")
        if stray > MAX_STRAY_BYTES:
            raise _too_costly("JPEG", f"has over {MAX_STRAY_BYTES} stray bytes between its segments")
    return False, 0


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def _png_raw_bytes(width: int, height: int, depth: int, colour: int, interlace: int) -> int | None:
    """The bytes a PNG's pixel stream inflates to (a filter byte a row, per Adam7 pass), from its header."""
    if colour not in _PNG_CHANNELS or depth not in (1, 2, 4, 8, 16):
        return None
    bits = depth * _PNG_CHANNELS[colour]
    if interlace == 0:
        return height * (1 + (width * bits + 7) // 8)
    total = 0
    for x0, y0, dx, dy in _ADAM7:
        pass_w, pass_h = max(0, -(-(width - x0) // dx)), max(0, -(-(height - y0) // dy))
        if pass_w and pass_h:
            total += pass_h * (1 + (pass_w * bits + 7) // 8)
    return total


def _inflated_size(stream: bytes, limit: int) -> int | None:
    """Bytes ``stream`` inflates to, counting at most ``limit`` + 1 (fed in pieces: nothing big is held or copied);
    None where it is not a zlib stream (the decoder reports that)."""
    inflater = zlib.decompressobj()
    total = 0
    try:
        for start in range(0, len(stream), 1 << 16):
            piece = stream[start:start + (1 << 16)]
            while piece and not inflater.eof:
                total += len(inflater.decompress(piece, min(1 << 22, limit + 1 - total)))
                if total > limit:
                    return total
                piece = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:
        return None
    return total


def _png_structure(data: bytes, whole: bool) -> None:
    pos, chunks, before_idat, text = 8, 0, 0, 0
    header = None
    pixels: list[bytes] = []
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        chunks += 1
        if chunks > MAX_PNG_CHUNKS:
            raise _too_costly("PNG", f"has over {MAX_PNG_CHUNKS} chunks")
        if kind == b"IDAT":
            if not whole:
                return
            pixels.append(body)
        else:
            before_idat += not pixels
            if before_idat > MAX_PNG_CHUNKS_BEFORE_IDAT:
                raise _too_costly("PNG", f"has over {MAX_PNG_CHUNKS_BEFORE_IDAT} chunks before its pixels")
        if kind == b"IHDR" and len(body) >= 13:
            header = (int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big"), body[8], body[9], body[12])
        elif kind in (b"zTXt", b"iCCP", b"iTXt"):
            name_end = body.find(b"\x00")
            compressed = None
            if kind == b"iTXt":
                if name_end >= 0 and body[name_end + 1:name_end + 2] == b"\x01":
                    rest = body.find(b"\x00", body.find(b"\x00", name_end + 3) + 1)
                    compressed = body[rest + 1:] if rest >= 0 else None
            elif name_end >= 0:
                compressed = body[name_end + 2:]
            if compressed:
                text += _inflated_size(compressed, MAX_PNG_TEXT_BYTES - text) or 0
                if text > MAX_PNG_TEXT_BYTES:
                    raise _too_costly("PNG", f"has compressed text and profiles inflating past {MAX_PNG_TEXT_BYTES} bytes")
        elif kind == b"IEND":
            break
        pos += 12 + length
    if whole and header is not None and pixels:
        expected = _png_raw_bytes(*header)
        if expected is not None:
            found = _inflated_size(b"".join(pixels), expected + PNG_EXCESS_BYTES)
            if found is not None and found > expected + PNG_EXCESS_BYTES:
                raise _too_costly("PNG", f"holds pixel data inflating past the {expected} bytes of its "
                                         f"{header[0]} x {header[1]} picture")


def reduced_decode_factor(width: int, height: int, min_side: int | None) -> int:
    """1, 2, 4 or 8: how much :func:`decode_image` reduces a JPEG of ``width`` x ``height`` as it decodes it (the
    largest factor that leaves ``min_side`` pixels on the long side; 1 without ``min_side``)."""
    factor = 1
    if min_side:
        while factor < 8 and max(width, height) // (factor * 2) >= min_side:
            factor *= 2
    return factor


def decode_image(data: bytes | str | Path, *, min_side: int | None = None,
                 max_pixels: int = DEFAULT_MAX_PIXELS) -> LoadedImage:
    """Decode ``data`` (bytes or a path). With ``min_side``, a JPEG may be decoded reduced (1/2, 1/4, 1/8) as long as
    its long side keeps at least ``min_side`` pixels; other formats are decoded fully."""
    raw = _read_bytes(data)
    fmt = sniff_format(raw)
    complete = check_structure(raw)  # for a JPEG, whether it is complete: one walk of its segments serves both
    width, height, orientation = _header(raw, fmt, max_pixels)
    if min(width, height) < MIN_SIDE:
        raise ImageError("image_too_small", f"{width}x{height} is smaller than {MIN_SIDE} pixels on a side")
    stored_width, stored_height = width, height
    if orientation in (5, 6, 7, 8):
        width, height = height, width

    image = None
    scale = None
    if fmt == "jpeg":
        if not complete:
            raise ImageError("truncated_image", "JPEG data ends before the end-of-image marker")
        factor = reduced_decode_factor(width, height, min_side)
        flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}[factor] | cv2.IMREAD_IGNORE_ORIENTATION
        image = cv2.imdecode(np.frombuffer(raw, np.uint8), flags)
        if image is not None and factor > 1:
            # libjpeg's last column and row at 1/f stand for what is left of the picture, 1 to f pixels: cut where
            # partial, so that pixel i is the picture's [i f, (i + 1) f) and no box scaled by f reaches past its edge
            # (a 4000 x 2250 photo read at 1/8 had boxes down to y = 2256)
            image, scale = image[:stored_height // factor, :stored_width // factor], float(factor)
    elif fmt in ("png", "webp"):
        image = _decode_opaque(raw, fmt)
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


# What transparent pixels of a PNG, WebP or HEIF are shown on. Decoders drop the alpha and keep the colour stored
# under it, black in most files, so a hand cut out of its photo (a phone's "lift subject", a tile picture on a
# transparent background) lay on a black table the localiser did not know. On the 12 fixture scenes with truth
# (tests/fixtures/images, tests/api/fixtures) cut out at their tiles' boxes, of 239 tiles the committed models read
# 134 right on black, 225 on white (a photo viewer's backdrop, and the light desk of the synthetic scenes' "plain"
# surfaces), 224 on mid grey, 217 on green felt: as many as in the photos themselves (225). With 10 % around each box
# kept: black 145, white 224, grey 224, felt 227. White is as good as any table colour, and what the client sees.
BACKDROP_BGR = (255, 255, 255)
_STRIP_ROWS = 512  # rows composited at a time: the uint16 arithmetic of a 50 MP picture would be 300 MB at once


def _on_backdrop(colour: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """BGR uint8 ``colour`` over :data:`BACKDROP_BGR` by uint8 ``alpha`` (rounded; an opaque pixel keeps its colour)."""
    if alpha.min() == 255:
        return np.ascontiguousarray(colour)
    out = np.empty(colour.shape, np.uint8)
    back = np.array(BACKDROP_BGR, np.uint16)
    for y in range(0, colour.shape[0], _STRIP_ROWS):
        a = alpha[y:y + _STRIP_ROWS, :, None].astype(np.uint16)
        # at most 255 x 255 + 127 = 65,152: uint16 holds it
        out[y:y + _STRIP_ROWS] = (colour[y:y + _STRIP_ROWS].astype(np.uint16) * a + back * (255 - a) + 127) // 255
    return out


def _may_be_transparent(raw: bytes, fmt: str) -> bool:
    """Whether a PNG or WebP can hold transparent pixels, from its header: a PNG of colour type 4 or 6 (grey or colour
    with alpha, IHDR's byte 25) or with a tRNS chunk before its first IDAT; a WebP that is lossless (VP8L) or extended
    with its alpha flag (VP8X). Others are decoded once, straight to 8-bit colour, as before transparency was read."""
    if fmt == "png":
        if len(raw) > 25 and raw[25] in (4, 6):
            return True
        first_data = raw.find(b"IDAT")
        return b"tRNS" in (raw[:first_data] if first_data > 0 else raw)
    if fmt == "webp":
        chunk = raw[12:16]
        return chunk == b"VP8L" or (chunk == b"VP8X" and len(raw) > 20 and bool(raw[20] & 0x10))
    return True


def _decode_opaque(raw: bytes, fmt: str) -> np.ndarray | None:
    """A PNG or WebP as BGR uint8, transparent pixels over :data:`BACKDROP_BGR`; None where OpenCV refuses it. A file
    whose header allows no transparency is decoded once with IMREAD_COLOR, as before; one that may hold some is decoded
    once with IMREAD_UNCHANGED, and its colour (16-bit: the high byte) and alpha both come from that decode."""
    buffer = np.frombuffer(raw, np.uint8)
    if not _may_be_transparent(raw, fmt):
        return cv2.imdecode(buffer, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    image = cv2.imdecode(buffer, cv2.IMREAD_UNCHANGED)  # never applies EXIF orientation: decode_image does
    if image is None:
        return None
    if image.dtype != np.uint8:  # 16-bit: its high byte, in place (a 50 MP RGBA picture is 400 MB already)
        image = np.right_shift(image, 8, out=image).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    channels = image.shape[2]
    if channels == 4:  # OpenCV gives grey + alpha, and tRNS, as four channels too
        return _on_backdrop(image[..., :3], image[..., 3])
    if channels == 2:
        return _on_backdrop(cv2.cvtColor(np.ascontiguousarray(image[..., 0]), cv2.COLOR_GRAY2BGR), image[..., 1])
    return image if channels == 3 else None


def _decode_pillow(raw: bytes, fmt: str) -> np.ndarray:
    from PIL import Image, ImageOps

    if fmt == "heif":
        _register_heif()
    try:
        with Image.open(io.BytesIO(raw)) as im:
            if "A" in im.getbands() or "transparency" in im.info:  # over the backdrop, as _decode_opaque does
                rgba = np.asarray(ImageOps.exif_transpose(im.convert("RGBA")))
                return _on_backdrop(cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGR), rgba[..., 3])
            im = ImageOps.exif_transpose(im.convert("RGB") if im.mode not in ("RGB",) else im)
            arr = np.asarray(im.convert("RGB"))
    except (OSError, SyntaxError) as exc:
        text = str(exc).lower()
        cut = "truncat" in text or "end of" in text or _cut_short(raw, fmt)
        code = "truncated_image" if cut else "unreadable_image"
        raise ImageError(code, f"the {fmt} data could not be decoded ({exc.__class__.__name__})") from None
    except Exception as exc:
        # (pillow-heif raises ValueError for a file cut short: its boxes say so)
        code = "truncated_image" if fmt == "heif" and _cut_short(raw, fmt) else "unreadable_image"
        raise ImageError(code, f"the {fmt} data could not be decoded ({exc.__class__.__name__})") from None
    return cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)


def load_image(data: bytes | str | Path, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """Full-resolution BGR uint8 (H, W, 3), EXIF orientation applied; raises :class:`ImageError`."""
    return decode_image(data, max_pixels=max_pixels).image
