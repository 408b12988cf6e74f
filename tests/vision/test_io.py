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
