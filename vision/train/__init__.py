"""Training recipes (the only place torch / ultralytics are imported). Needs the ``train`` extra (.venv-train).

- ``python -m vision.train.localizer``  — YOLO11n tile / face-down localiser (initialised from mahjong-detector).
- ``python -m vision.train.classifier`` — crop classifier (42 faces + back, upright / upside-down head).
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Ultralytics must never reach the network (fonts, weights, hub, telemetry): settings live under out/, offline mode.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_CONFIG_DIR", str(ROOT / "out" / "ultralytics_config"))
