"""Service settings, read once from environment variables (prefix ``MAHJONG_``).

Every knob has a default that suits one tablet-facing box; override per deployment, e.g.
``MAHJONG_API_KEY=secret MAHJONG_CORS_ORIGINS=https://club.example make serve``.
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[1]
ENV_PREFIX = "MAHJONG_"

# The least each number may be. 0 means "off" or "the default" only where the README says so (overlay, threads; no
# workers is one); elsewhere it would refuse every request (no bytes, no pending body, no time), so it is refused.
_MINIMUM = {"max_upload_bytes": 1, "max_json_bytes": 1, "max_image_pixels": 1, "inference_workers": 0,
            "inference_threads": 0, "queue_size": 0, "max_pending_requests": 1, "overlay_max_side": 0}
_POSITIVE_SECONDS = ("body_timeout_s", "request_timeout_s")


@dataclass(frozen=True)
class Settings:
    # Where the committed ONNX models live; loaded once at start-up.
    models_dir: Path = ROOT / "models"
    # Uploads: a 12 MP phone JPEG is 3-8 MB, a HEIC less; 25 MB leaves room for PNG screenshots.
    max_upload_bytes: int = 25 * 1024 * 1024
    # Bodies of every other call (JSON: /v1/hands/score, /v1/tiles/score). The largest a client sends, 80 tiles each
    # with its top-8 faces, is about 50 KB; 25 MB of JSON (a million unknown keys, melds or meld tokens) took 7-15 s
    # of CPU to parse and refuse, on the event loop's own thread pool.
    max_json_bytes: int = 1024 * 1024
    # Decoded pixel count: 50 MP covers every phone camera; a 20000 x 20000 image (400 MP, 1.2 GB as RGB) does not.
    max_image_pixels: int = 50_000_000
    # Inference threads. onnxruntime releases the GIL and uses its own intra-op threads, so 1-2 saturate a small box.
    inference_workers: int = 2
    # onnxruntime intra-op threads per model session; 0 = its default (all cores). On a small box, workers x
    # threads near the core count avoids oversubscription.
    inference_threads: int = 0
    # Requests allowed to wait for a worker; beyond this the service answers 503 + Retry-After instead of queueing
    # without bound (a tablet retrying beats a server swapping).
    queue_size: int = 8
    # Requests whose bodies are being received or parsed at once. Each holds its upload in memory (up to
    # max_upload_bytes, ~3x while parsed), so this bounds memory under a flood of uploads; beyond it: 503.
    max_pending_requests: int = 32
    # Seconds a client may take to send its request body (a stalled upload gets 408 and frees its slot).
    body_timeout_s: float = 60.0
    # Seconds a request may wait for and run inference before it gets 503 inference_timeout.
    request_timeout_s: float = 30.0
    # Longest side of the annotated overlay image returned in responses (pixels); 0 disables the overlay. 1000 lets
    # a 4000 x 3000 JPEG decode at 1/4 scale (a tablet shows ~1000 px of it anyway).
    overlay_max_side: int = 1000
    # Comma-separated origins for CORS ("*" for any); empty = no CORS headers (same-origin page only).
    cors_origins: tuple[str, ...] = ()
    # When set, every /v1/ call needs header "X-API-Key: <key>" (or "Authorization: Bearer <key>").
    api_key: str | None = None
    log_level: str = "INFO"
    # JSON lines (one object per request) suit log collectors; set false for plain text on a terminal.
    log_json: bool = True
    # Run a dummy inference at start-up so the first real request does not pay for lazy initialisation.
    warmup: bool = True

    def __post_init__(self) -> None:
        # A value that parses but cannot work (MAHJONG_MAX_PENDING_REQUESTS=0 refused every POST with 503, a NaN
        # timeout, a log level logging does not know) is refused at start-up, naming its variable.
        for name, least in _MINIMUM.items():
            if getattr(self, name) < least:
                _refuse(name, getattr(self, name), f"must be at least {least}")
        for name in _POSITIVE_SECONDS:
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                _refuse(name, value, "must be a finite number of seconds above 0")
        if not isinstance(logging.getLevelName(str(self.log_level).upper()), int):
            _refuse("log_level", self.log_level, "must be DEBUG, INFO, WARNING, ERROR or CRITICAL")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides) -> "Settings":
        environ = os.environ if environ is None else environ
        values: dict = {}
        for f in fields(cls):
            raw = environ.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _parse(f.name, f.type, raw)
        values.update(overrides)
        return cls(**values)


def _refuse(name: str, value, why: str):
    raise ValueError(f"environment variable {ENV_PREFIX}{name.upper()}={value!r} {why}")


def _parse(name: str, type_name: str, raw: str):
    raw = raw.strip()
    try:
        if type_name == "int":
            return int(raw)
        if type_name == "float":
            return float(raw)
        if type_name == "bool":
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(raw)
        if type_name == "Path":
            return Path(raw)
        if type_name.startswith("tuple"):
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if type_name.startswith("str | None"):
            return raw or None
        return raw
    except ValueError:
        raise ValueError(f"environment variable {ENV_PREFIX}{name.upper()}={raw!r} is not a valid {type_name}") from None
