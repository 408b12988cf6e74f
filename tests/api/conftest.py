"""Fixtures for the API tests: apps with test settings, a live uvicorn server, fixture photos, bad inputs."""

from __future__ import annotations

import importlib.util
import io
import os
import socket
import struct
import threading
import time
import zlib
from pathlib import Path
from typing import Iterator

import pytest

from api.app import create_app
from api.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PHOTOS = sorted(FIXTURES.glob("hk_valid_*.jpg"))
# The committed models by default; MAHJONG_MODELS_DIR points the tests at another set (e.g. a candidate export).
MODELS_DIR = Path(os.environ.get("MAHJONG_MODELS_DIR") or ROOT / "models")

# hk-photos data.yaml class order (see fixtures/SOURCE.md); vision.classes.hk_name_to_code maps them to our codes.
HK_NAMES = ['bs1', 'sc1', 'sd1', 'sb1', 'hwe', 'bs2', 'sc2', 'sd2', 'sb2', 'hws', 'bs3', 'sc3', 'sd3', 'sb3', 'hww',
            'bs4', 'sc4', 'sd4', 'sb4', 'hwn', 'bf1', 'sc5', 'sd5', 'sb5', 'hdw', 'bf2', 'sc6', 'sd6', 'sb6', 'hdg',
            'bf3', 'sc7', 'sd7', 'sb7', 'hdr', 'bf4', 'sc8', 'sd8', 'sb8', 'sc9', 'sd9', 'sb9']


def models_present() -> bool:
    """Real-model tests run once models/ holds ONNX files and the recogniser that loads them exists."""
    return any(MODELS_DIR.glob("*.onnx")) and importlib.util.find_spec("vision.recognize") is not None


requires_models = pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")


def make_settings(**overrides) -> Settings:
    base = dict(log_level="WARNING", warmup=False, inference_workers=1, queue_size=4, request_timeout_s=60.0,
                models_dir=MODELS_DIR)
    base.update(overrides)
    return Settings.from_env(environ={}, **base)


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    with TestClient(create_app(make_settings()), raise_server_exceptions=False) as test_client:
        yield test_client


# spare_5151_113 (tests/fixtures/images): a hand tile that train10 (``localizer_squeezed.onnx``, the localiser of
# sessions 6-12) boxes only below its threshold, so that one of its spare boxes completes the hand. The committed
# localiser boxes that tile since session 42 (R68c), so the photo is read with train10 as the localiser, the other
# committed files as they are: the spare stage itself is the committed one.
SPARE_PHOTO = ROOT / "tests" / "fixtures" / "images" / "spare_5151_113.jpg"


@pytest.fixture(scope="session")
def spare_models_dir(tmp_path_factory) -> Path:
    """A models folder with train10 as ``localizer.onnx`` beside the committed classifier and lift files."""
    folder = tmp_path_factory.mktemp("spare_models")
    (folder / "localizer.onnx").symlink_to(MODELS_DIR / "localizer_squeezed.onnx")
    for name in ("classifier.onnx", "lift.onnx"):
        (folder / name).symlink_to(MODELS_DIR / name)
    return folder


@pytest.fixture(scope="module")
def spare_client(spare_models_dir):
    """The service reading with ``spare_models_dir``'s files (see SPARE_PHOTO)."""
    from fastapi.testclient import TestClient

    app = create_app(make_settings(models_dir=spare_models_dir))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """uvicorn serving create_app() in a background thread, for clients that need a real socket."""

    def __init__(self, settings: Settings) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.time() + 60
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    with LiveServer(make_settings()) as server:
        yield server


# ---- bad inputs -------------------------------------------------------------------------------------------------
def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def huge_png(width: int = 20000, height: int = 20000) -> bytes:
    """A genuine, fully decodable 1-bit PNG of width x height (all black), ~100 KB on disk, 400 MP when decoded."""
    row = b"\x00" + b"\x00" * ((width + 7) // 8)  # filter byte + packed pixels
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", body) + _png_chunk(b"IEND", b"")


def small_image(fmt: str, size=(64, 48)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format=fmt)
    return buffer.getvalue()


def _cut(data: bytes) -> bytes:
    return data[: len(data) // 2]


@pytest.fixture(scope="session")
def bad_images() -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, content type) for every kind of upload the service must refuse with a 4xx."""
    photo = PHOTOS[0].read_bytes()
    return {
        "zero_bytes": (b"", "image/jpeg"),
        "text": (b"this is not an image, just some text\n" * 20, "text/plain"),
        "truncated_jpeg": (photo[: len(photo) // 2], "image/jpeg"),
        "truncated_webp": (_cut(small_image("WEBP")), "image/webp"),
        "truncated_png_header": (small_image("PNG")[:20], "image/png"),  # cut inside IHDR: Pillow cannot open it
        "huge_png": (huge_png(), "image/png"),
        "gif": (small_image("GIF"), "image/gif"),
    }


# The one status and code each bad input must get (truncation may be reported either way by the decoder).
BAD_IMAGE_EXPECTED = {
    "zero_bytes": (400, {"empty_file"}),
    "text": (415, {"unsupported_format"}),
    "truncated_jpeg": (400, {"truncated_image", "unreadable_image"}),
    # Pillow cannot even open these; they are still an accepted format cut short, not an unsupported one (was 415)
    "truncated_webp": (400, {"truncated_image"}),
    "truncated_png_header": (400, {"truncated_image"}),
    "huge_png": (413, {"image_too_large"}),
    "gif": (415, {"unsupported_format"}),
}
