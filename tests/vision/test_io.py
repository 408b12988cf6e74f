"""vision.io: formats, EXIF orientation, reduced decoding and hostile files with stable error codes."""

import io
import zlib
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.errors import IMAGE_ERROR_CODES, ImageError
from vision.io import decode_image, load_image


def _pattern(w=64, h=48):
    img = np.zeros((h, w, 3), np.uint8)
    img[: h // 2, : w // 2] = (0, 0, 255)  # red top-left quadrant (BGR)
    img[h // 2:, w // 2:] = (255, 0, 0)
    return img


def _encode(img, ext, **params):
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("ext", [".png", ".jpg", ".webp"])
def test_formats_decode_to_bgr(ext):
    img = _pattern()
    out = load_image(_encode(img, ext))
    assert out.shape == img.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - img).mean() < 12


def test_heic_decodes():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    Image.fromarray(_pattern()[:, :, ::-1]).save(buf, format="HEIF")
    out = load_image(buf.getvalue())
    assert out.shape == (48, 64, 3)
    assert out[5, 5, 2] > 150 and out[5, 5, 0] < 100  # red stays red (RGB -> BGR handled)


def _jpeg_with_orientation(img_bgr, orientation):
    pil = Image.fromarray(img_bgr[:, :, ::-1])
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    pil.save(buf, format="JPEG", exif=exif.tobytes(), quality=95)
    return buf.getvalue()


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_matches_pillow(orientation):
    data = _jpeg_with_orientation(_pattern(), orientation)
    from PIL import ImageOps

    ref = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))[:, :, ::-1]
    out = decode_image(data)
    assert out.image.shape == ref.shape
    assert (out.width, out.height) == (ref.shape[1], ref.shape[0])
    assert np.abs(out.image.astype(int) - ref).mean() < 3


def test_reduced_jpeg_decoding_keeps_original_geometry():
    img = cv2.resize(_pattern(), (1600, 1200), interpolation=cv2.INTER_NEAREST)
    out = decode_image(_encode(img, ".jpg"), min_side=400)
    assert out.image.shape[:2] == (300, 400)  # decoded at 1/4
    assert (out.width, out.height) == (1600, 1200) and out.scale == pytest.approx(4.0)


@pytest.mark.parametrize("orientation", [1, 3, 6])
def test_reduced_jpeg_pixels_stand_for_factor_times_their_place_in_a_size_the_factor_does_not_divide(orientation):
    # 1603 x 1202 at 1/4: libjpeg gives 401 x 301, its last column and row standing for 3 and 2 pixels. The scale
    # back was 1603 / 401 (3.998) and boxes ran past the picture's edge; pixel i is the picture's [4 i, 4 i + 4).
    img = np.zeros((1202, 1603, 3), np.uint8)
    img[400:800, 800:1200] = 255  # a white square, as displayed
    stored = {1: img, 3: img[::-1, ::-1], 6: cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)}[orientation]
    out = decode_image(_jpeg_with_orientation(stored, orientation), min_side=400)
    assert (out.width, out.height) == (1603, 1202) and out.scale == 4.0
    h, w = out.image.shape[:2]
    assert w * out.scale <= 1603 and h * out.scale <= 1202
    white = np.argwhere(out.image.mean(axis=2) > 128)
    (y1, x1), (y2, x2) = white.min(axis=0) * out.scale, (white.max(axis=0) + 1) * out.scale
    assert abs(x1 - 800) <= 4 and abs(x2 - 1200) <= 4 and abs(y1 - 400) <= 4 and abs(y2 - 800) <= 4


def _png_header_only(w, h):
    sig = b"\x89PNG\r\n\x1a\n"
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    idat = zlib.compress(b"\x00" * 100)
    chunk2 = struct.pack(">I", len(idat)) + b"IDAT" + idat + struct.pack(">I", zlib.crc32(b"IDAT" + idat))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return sig + chunk + chunk2 + end


def _gif():
    buf = io.BytesIO()
    Image.fromarray(_pattern()).save(buf, format="GIF")
    return buf.getvalue()


@pytest.mark.parametrize("data, code", [
    (b"", "empty_file"),
    (b"hello, this is not an image\n" * 10, "unsupported_format"),
    (_gif(), "unsupported_format"),
    (b"%PDF-1.4\n%....", "unsupported_format"),
    (_png_header_only(20000, 20000), "image_too_large"),
    (_encode(_pattern(), ".jpg")[:-200], "truncated_image"),
    (_encode(np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8), ".png")[:2000],
     "truncated_image"),
    (_encode(np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8), ".webp")[:2000],
     "truncated_image"),  # shorter than its RIFF header says
    (b"\xff\xd8\xff\xe0" + b"\x00" * 50, "unreadable_image"),
    (_encode(np.zeros((8, 8, 3), np.uint8), ".png"), "image_too_small"),
])
def test_hostile_files_give_stable_codes(data, code):
    with pytest.raises(ImageError) as err:
        load_image(data)
    assert err.value.code == code
    assert code in IMAGE_ERROR_CODES
    assert isinstance(err.value, ValueError)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_read_only_up_to_the_size_limit():
    # stat() says 0 bytes for a device or a pipe: reading it all ran out of memory (MemoryError, the CLI stopped)
    with pytest.raises(ImageError) as err:
        load_image("/dev/zero")
    assert err.value.code == "image_too_large"


def test_missing_path(tmp_path):
    with pytest.raises(ImageError) as err:
        load_image(tmp_path / "nope.jpg")
    assert err.value.code == "file_not_found"


def _jpeg_segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


# What a Pixel or Samsung motion photo appends after the picture's end-of-image marker: an MP4 (here its first
# bytes) whose data, like any compressed stream, holds FF DA without a later FF D9 about half the time.
_MOTION_TRAILER = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00\xff\xda\x00\x10" + bytes(range(256)) * 4


def test_a_motion_photo_reads_as_its_picture():
    # The file is a complete JPEG followed by a video; every viewer shows the picture. It was refused as
    # truncated_image: the check looked for an end marker after the file's last FF DA, which lay in the video.
    img = cv2.resize(_pattern(), (640, 480), interpolation=cv2.INTER_NEAREST)
    plain = _encode(img, ".jpg")
    for data in (plain + _MOTION_TRAILER, _jpeg_with_orientation(img, 6) + _MOTION_TRAILER):
        out = decode_image(data, min_side=200)
        ref = decode_image(data[:len(data) - len(_MOTION_TRAILER)], min_side=200)
        assert out.image.shape == ref.image.shape and (out.width, out.height) == (ref.width, ref.height)
        assert np.array_equal(out.image, ref.image)


def test_a_jpeg_cut_inside_its_scan_is_truncated_even_with_a_thumbnail_before_it():
    # A thumbnail (a whole JPEG, with its own scan and end marker) in a segment before the picture's scan must not
    # make a picture cut short look complete; nor an end marker of the thumbnail's before the cut.
    img = cv2.resize(_pattern(), (640, 480), interpolation=cv2.INTER_NEAREST)
    photo = _encode(img, ".jpg")
    thumbnail = _encode(cv2.resize(img, (64, 48)), ".jpg")
    with_thumbnail = photo[:2] + _jpeg_segment(0xE1, b"Exif\x00\x00" + thumbnail) + photo[2:]
    assert decode_image(with_thumbnail).image.shape == img.shape  # whole: reads
    with pytest.raises(ImageError) as err:
        decode_image(with_thumbnail[:-300])
    assert err.value.code == "truncated_image"


def _count_png_loads(monkeypatch) -> list:
    from PIL import PngImagePlugin

    calls = []
    load = PngImagePlugin.PngImageFile.load

    def counted(self):
        calls.append(self.size)
        return load(self)

    monkeypatch.setattr(PngImagePlugin.PngImageFile, "load", counted)
    return calls


def test_a_png_over_the_pixel_limit_is_refused_before_its_pixels_are_decoded(monkeypatch):
    # The module's promise: pixel counts over the limit are refused from the header. Pillow's EXIF lookup on a PNG
    # decoded the whole 81 MP first (it looks for an eXIf chunk after the pixels), then the limit refused it.
    data = _encode(np.zeros((9000, 9000), np.uint8), ".png")
    calls = _count_png_loads(monkeypatch)
    with pytest.raises(ImageError) as err:
        decode_image(data)
    assert err.value.code == "image_too_large"
    assert calls == []


def test_a_png_without_exif_is_decoded_once(monkeypatch):
    # OpenCV decodes it; Pillow only reads its header (it decoded every PNG a second time: 0.8 s for 12 MP)
    img = cv2.resize(_pattern(), (1200, 900), interpolation=cv2.INTER_NEAREST)
    calls = _count_png_loads(monkeypatch)
    out = decode_image(_encode(img, ".png"))
    assert np.array_equal(out.image, img) and calls == []


def _png_exif_after_pixels(png: bytes) -> bytes:
    """The eXIf chunk moved after IDAT, where PNG allows it."""
    start = png.find(b"eXIf") - 4
    size = struct.unpack(">I", png[start:start + 4])[0] + 12
    chunk, rest = png[start:start + size], png[:start] + png[start + size:]
    end = rest.rfind(b"IEND") - 4
    return rest[:end] + chunk + rest[end:]


@pytest.mark.parametrize("fmt", ["PNG", "PNG after IDAT", "WEBP"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_of_png_and_webp_matches_pillow(fmt, orientation):
    from PIL import ImageOps

    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(_pattern()[:, :, ::-1]).save(buf, format=fmt.split()[0], exif=exif.tobytes(),
                                                 **({"lossless": True} if fmt == "WEBP" else {}))
    data = _png_exif_after_pixels(buf.getvalue()) if fmt == "PNG after IDAT" else buf.getvalue()
    ref = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))[:, :, ::-1]
    out = decode_image(data)
    assert (out.width, out.height) == (ref.shape[1], ref.shape[0])
    assert np.array_equal(out.image, ref)


# ---- files whose structure costs far more than their pixels (vision.io's MAX_* limits) ---------------------------
def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _png(width=64, height=48, excess=0, before=b"", after=b"") -> bytes:
    inflater = zlib.compressobj(9)
    stream = inflater.compress((b"\x00" + b"\x40" * width * 3) * height)
    for _ in range(excess):  # pixel data past the picture, in the same zlib stream
        stream += inflater.compress(b"\x00" * (1 << 20))
    stream += inflater.flush()
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + before + _png_chunk(b"IDAT", stream) + after + _png_chunk(b"IEND", b""))


def _progressive_with_scans(extra: int, size=(1024, 1024)) -> bytes:
    """A progressive JPEG with its last scan repeated: libjpeg reads each over the whole picture."""
    buffer = io.BytesIO()
    Image.new("L", size, 128).save(buffer, "JPEG", progressive=True)
    data = buffer.getvalue()
    last = data.rindex(b"\xff\xda")
    end = data.rindex(b"\xff\xd9")
    return data[:end] + data[last:end] * extra + data[end:]


def test_a_progressive_jpeg_of_many_scans_is_refused_before_decoding():
    # 300 copies of a scan (214 KB) took 10 s of CPU at 49 MP; a photo has at most about a dozen
    assert decode_image(_progressive_with_scans(80)).width == 1024  # within the limit: read
    with pytest.raises(ImageError) as error:
        decode_image(_progressive_with_scans(150))
    assert error.value.code == "unreadable_image" and "scans" in error.value.message


@pytest.mark.parametrize("filler, what", [(b"\xff\xfe\x00\x02" * 5000, "segments"),  # empty comments
                                          (b"\xff" * 100_000, "stray bytes"),            # fill bytes
                                          ((b"\xff\x00" + b"\x01" * 30_000) * 4, "stray bytes")])
def test_a_jpeg_padded_before_its_scan_is_refused_unwalked(filler, what):
    # Pillow walks these in Python, a stray byte at a time, on the event loop's thread: 2 MB took 1.2 s
    data = _encode(_pattern(), ".jpg")
    padded = data[:2] + data[2:20] + filler + data[20:] if data[2:4] == b"\xff\xe0" else data[:2] + filler + data[2:]
    with pytest.raises(ImageError) as error:
        decode_image(padded)
    assert error.value.code == "unreadable_image" and what in error.value.message


def test_png_pixel_data_past_the_picture_is_not_inflated():
    # libpng inflates the whole stream: 2 MB inflating to 2 GB past a 640 x 480 picture took 3 s
    assert decode_image(_png(excess=0)).width == 64
    with pytest.raises(ImageError) as error:
        decode_image(_png(excess=40))  # 40 KB of file, 40 MB past the picture
    assert error.value.code == "unreadable_image" and "inflating past" in error.value.message


def test_png_compressed_text_and_chunks_are_bounded():
    text = _png_chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"a" * 8_000_000, 9))
    assert decode_image(_png(after=text)).width == 64
    with pytest.raises(ImageError) as error:
        decode_image(_png(after=text * 3))
    assert "compressed text" in error.value.message
    with pytest.raises(ImageError) as error:
        decode_image(_png(before=_png_chunk(b"abCd", b"") * 1500))
    assert "chunks before its pixels" in error.value.message


def test_interlaced_and_every_kind_of_png_pass_the_structure_check():
    for mode in ("RGB", "RGBA", "L", "LA", "P", "I;16", "1"):
        buffer = io.BytesIO()
        Image.new(mode, (61, 47)).save(buffer, "PNG")
        assert decode_image(buffer.getvalue()).width == 61, mode
    rows = b""
    for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)):
        width, height = -(-(61 - x0) // dx), -(-(47 - y0) // dy)
        rows += (b"\x00" + b"\x7f" * width * 3) * height
    interlaced = (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 61, 47, 8, 2, 0, 0, 1))
                  + _png_chunk(b"IDAT", zlib.compress(rows)) + _png_chunk(b"IEND", b""))
    assert decode_image(interlaced).width == 61


# ---- transparency ------------------------------------------------------------------------------------------------
def _cut_out(w=64, h=48):
    """RGBA (Pillow order): the top third transparent with black stored under it, as cut-out tools write it, a
    half-transparent band, then the opaque pattern."""
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[..., :3] = _pattern(w, h)[:, :, ::-1]
    rgba[..., 3] = 255
    rgba[: h // 3] = 0
    rgba[h // 3: h // 2, :, 3] = 128
    return rgba


def _save(array, fmt, mode=None, **params):
    buffer = io.BytesIO()
    image = Image.fromarray(array)
    (image.convert(mode) if mode else image).save(buffer, fmt, **params)
    return buffer.getvalue()


def _over_white(rgba):
    """The "over" operator on white, in floating point: colour x alpha + white x (1 - alpha), as BGR."""
    a = rgba[..., 3:].astype(float) / 255
    return np.rint(rgba[..., :3] * a + 255 * (1 - a))[:, :, ::-1]


@pytest.mark.parametrize("fmt, mode, params", [
    ("PNG", None, {}), ("WEBP", None, {"lossless": True}), ("PNG", "LA", {}),
])
def test_transparent_pixels_decode_as_white_not_the_black_stored_under_them(fmt, mode, params):
    # a hand cut out of its photo (a phone's "lift subject") lay on black, the colour stored under the transparency:
    # the localiser found no tile at all in some such scenes. It is shown on white, as a viewer shows it.
    rgba = _cut_out()
    if mode == "LA":  # grey + alpha: the grey of the pattern
        grey = np.asarray(Image.fromarray(rgba).convert("LA"))
        rgba = np.dstack([grey[..., :1]] * 3 + [grey[..., 1:]])
    out = load_image(_save(rgba, fmt, mode, **params))
    assert out.shape == (48, 64, 3)
    assert (out[:16] == 255).all()  # fully transparent: white
    assert np.abs(out.astype(int) - _over_white(rgba)).max() <= 1
    assert np.array_equal(out[24:], rgba[24:, :, 2::-1])  # opaque: its own colour


def test_a_palette_png_with_a_transparent_index_and_a_16_bit_rgba_png_decode_on_white():
    # a palette PNG's transparency is its tRNS chunk: index 0 transparent here, the top third
    quantized = Image.fromarray(_pattern()[:, :, ::-1]).quantize(8)
    index = np.asarray(quantized).copy()
    index[:16] = 0
    indexed = Image.fromarray(index, "P")
    indexed.putpalette(quantized.getpalette())
    colours = np.asarray(indexed.convert("RGB"))[:, :, ::-1]
    buffer = io.BytesIO()
    indexed.save(buffer, "PNG", transparency=0)
    out = load_image(buffer.getvalue())
    assert (out[:16] == 255).all()
    shown = index != 0
    assert np.array_equal(out[shown], colours[shown])
    # 16 bits a channel (OpenCV writes BGRA): the alpha's high byte, as the colour's
    wide = cv2.cvtColor(_cut_out(), cv2.COLOR_RGBA2BGRA).astype(np.uint16) * 257
    out = load_image(_encode(wide, ".png"))
    assert (out[:16] == 255).all() and np.abs(out.astype(int) - _over_white(_cut_out())).max() <= 1


@pytest.mark.parametrize("fmt, params", [("PNG", {}), ("WEBP", {"lossless": True})])
def test_an_opaque_rgba_picture_decodes_to_the_pixels_of_its_rgb_version(fmt, params):
    rgba = np.dstack([_pattern()[:, :, ::-1], np.full((48, 64), 255, np.uint8)])
    rgba[5:9, 7:30, :3] = (10, 200, 30)
    assert np.array_equal(load_image(_save(rgba, fmt, **params)), load_image(_save(rgba[..., :3].copy(), fmt, **params)))
    assert np.array_equal(load_image(_save(rgba, fmt, **params)), rgba[..., 2::-1])


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_a_transparent_png_is_turned_by_its_exif_then_shown_on_white(orientation):
    from PIL import ImageOps

    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _save(_cut_out(), "PNG", exif=exif.tobytes())
    with Image.open(io.BytesIO(data)) as image:  # Pillow's own turn and compositing, as the reference
        turned = ImageOps.exif_transpose(image.convert("RGBA"))
        ref = np.asarray(Image.alpha_composite(Image.new("RGBA", turned.size, (255, 255, 255, 255)), turned)
                         .convert("RGB"))[:, :, ::-1]
    out = decode_image(data)
    assert out.image.shape == ref.shape and np.abs(out.image.astype(int) - ref).max() <= 1


def test_a_heif_with_alpha_decodes_on_white():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    rgba = _cut_out()
    rgba[16:24, :, 3] = 255
    try:
        data = _save(rgba, "HEIF", quality=-1)
    except (OSError, ValueError) as error:  # an encoder without alpha
        pytest.skip(f"no HEIF alpha encoder here: {error}")
    out = load_image(data)
    assert (out[:16] > 245).all()  # lossy: near white, where it was black


@pytest.mark.parametrize("width, height, min_side, factor", [
    (4000, 3000, 1000, 4),  # a 12 MP phone photo is read at 1000 x 750
    (3000, 4000, 1000, 4),  # either way round
    (1999, 1500, 1000, 1),  # halving would leave 999 px
    (2000, 1500, 1000, 2),
    (16000, 12000, 1000, 8),  # never past an eighth
    (4000, 3000, None, 1),  # no reduction asked
])
def test_the_reduced_decode_factor_keeps_min_side_pixels(width, height, min_side, factor):
    from vision.io import reduced_decode_factor

    assert reduced_decode_factor(width, height, min_side) == factor


def _heic() -> bytes:
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)).save(buf, format="HEIF")
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["jpeg", "png", "heif"])
def test_a_file_cut_anywhere_is_truncated_image(fmt):
    # a JPEG cut inside its header (the first ~600 bytes), a PNG cut right after IHDR and a HEIC cut anywhere were
    # `unreadable_image` with an exception's class name (session 56's audit): the README promises truncated_image
    # for a JPEG, PNG, WebP or HEIC cut short
    pixels = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    data = _heic() if fmt == "heif" else _encode(pixels, ".jpg" if fmt == "jpeg" else ".png")
    cuts = sorted({*range(12, 700, 11), 33, *range(700, len(data), max(1, len(data) // 25))})  # past the magic bytes
    codes = {}
    for cut in cuts:
        with pytest.raises(ImageError) as err:
            load_image(data[:cut])
        codes[cut] = err.value.code
    assert set(codes.values()) == {"truncated_image"}, {c: v for c, v in codes.items() if v != "truncated_image"}
    assert load_image(data).shape[:2] == (120, 160)


@pytest.mark.parametrize("data", [b"\xff\xd8\xff\xe0" + b"\x00" * 50,  # a segment of no length
                                  # an end-of-image marker before any scan
                                  b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9",
                                  b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0d" + b"\x01\x02\x03\x04" + b"\x00" * 30])
def test_a_header_garbled_on_the_way_stays_unreadable(data):
    with pytest.raises(ImageError) as err:
        load_image(data)
    assert err.value.code == "unreadable_image"


def test_a_heic_cut_between_its_boxes_is_truncated_and_the_walk_is_bounded():
    import time

    from vision.io import _cut_short

    data = _heic()
    at, ends = 0, []
    while at < len(data):
        at += int.from_bytes(data[at:at + 4], "big")
        ends.append(at)
    for end in ends[:-1]:  # before the media data
        with pytest.raises(ImageError) as err:
            load_image(data[:end])
        assert err.value.code == "truncated_image", end
    # a file of three million empty boxes: the walk stops early (it may run on the service's event loop)
    boxes = data[:ends[0]] + b"\x00\x00\x00\x08free" * 3_000_000
    started = time.perf_counter()
    assert _cut_short(boxes, "heif") is False and time.perf_counter() - started < 0.1
