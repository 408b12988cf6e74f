"""Angles read from a rendered scene's truth (``scenes.jsonl``): each tile's ``quad`` holds its face corners TL, TR,
BR, BL in picture pixels (y down), so perspective is in them. Used by the orientation checks that judge the recogniser
against the renderer (``bench/eval_turned_orientation.py``, ``tests/vision/test_rows_turned.py``)."""

from __future__ import annotations

import math

import numpy as np

# Degrees from the nearest quarter turn of its row within which a tile's quarter turn is taken as defined: perspective
# shears flat tiles against a standing row, and one lying 25-45 degrees off has no clear quarter (docs/rules-session59.md,
# R60 in docs/rules-session60.md).
QUARTER_DEFINED_WITHIN = 25.0


def face_up_angle(quad) -> float:
    """The face's up direction in degrees (y down) from a rendered tile's quad."""
    q = np.asarray(quad, np.float64)
    v = q[0] - q[3]
    return math.degrees(math.atan2(v[1], v[0]))


def row_up_angle(scene: dict) -> float | None:
    """The mean up direction (degrees) of the scene's face-up concealed tiles; None where there is none."""
    ups = np.radians([face_up_angle(t["quad"]) for t in scene["tiles"]
                      if t["role"] == "concealed" and not t["face_down"]])
    if len(ups) == 0:
        return None
    return math.degrees(math.atan2(np.mean(np.sin(ups)), np.mean(np.cos(ups))))


def degrees_off_quarter(angle: float) -> float:
    """How far ``angle`` (degrees) lies from the nearest multiple of 90, 0..45."""
    return abs((angle + 45.0) % 90.0 - 45.0)
