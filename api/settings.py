"""Service settings, read once from environment variables (prefix ``MAHJONG_``).

Every knob has a default that suits one tablet-facing box; override per deployment, e.g.
``MAHJONG_API_KEY=secret MAHJONG_CORS_ORIGINS=https://club.example make serve``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[1]
ENV_PREFIX = "MAHJONG_"


@dataclass(frozen=True)
class Settings:
    # Where the committed ONNX models live; loaded once at start-up.
    models_dir: Path = ROOT / "models"
    # Uploads: a 12 MP phone JPEG is 3-8 MB, a HEIC less; 25 MB leaves room for PNG screenshots.
    max_upload_bytes: int = 25 * 1024 * 1024
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
