"""Sideways-or-not of each face-up tile in photos whose rows lie turned off the picture's axes, as read against the truth.

    .venv/bin/python bench/eval_turned_orientation.py SCENES_DIR... [--models DIR] [--cache DIR]

Each ``SCENES_DIR`` is a ``python -m vision.synth generate`` folder. The photos counted are those whose rows
(``vision.recognize.rows_direction`` of the detected boxes) lie ``ROWS_TURNED_FROM`` degrees or more off the
picture's axes, where the recogniser reads orientations from crops turned to the rows. In each, every face-up tile
that is not clutter, matched to a box (IoU >= 0.5) not read a back, has its quarter turn relative to the scene's
concealed row compared, modulo a half turn (sideways or not), with the turn the pipeline reports. The truth is the
renderer's face corners, rounded to the nearest quarter turn of the concealed tiles' mean up direction.

Where that mean lies near 45 degrees off the picture's axes, the truth's frame and the pipeline's may round to
different quarters and every tile of the photo would count wrong; so the offset between the two frames is taken per
photo as the concealed tiles' majority, and a photo with no face-up concealed tile matched is left out. So the
concealed tiles' own count is not independent evidence (they set the frame: a photo whose concealed tiles are mostly
misread counts the few read right as wrong, and every other tile with them); it is the other roles' counts that
measure the reading.

Tiles are counted by role, and apart where they lie 25-45 degrees from every quarter turn of their row (flat tiles
sheared by perspective against a standing row): their quarter turn is a near coin toss (docs/rules-session59.md),
and ``tests/vision/test_rows_turned.py`` checks only the tiles within 25 degrees (docs/rules-session60.md, R60).

``--cache DIR`` reads (and writes) each photo's detections under ``DIR/<scenes folder name>/`` as
``bench/eval_hand_reading.py --cache`` keeps them, so the detections of a hand-reading run are measured as they
were read; ``--models`` names the model folder for photos not cached (default ``models/``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from eval_hand_reading import model_detections  # noqa: E402

from vision.classes import FACE_DOWN  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.recognize import ROWS_TURNED_FROM, rows_direction  # noqa: E402
from vision.synth.truth import (QUARTER_DEFINED_WITHIN, degrees_off_quarter, face_up_angle,  # noqa: E402
                                row_up_angle)


def scene_counts(scene: dict, boxes: np.ndarray, class_ids: np.ndarray, rotation: np.ndarray):
    """[(key, right)] for one photo's face-up tiles, or None when the photo is not counted (rows not turned far
    enough, fewer than 3 boxes, no face-up concealed tile matched). ``boxes`` (N, 4) xyxy float32, ``class_ids``
    (N,) int, ``rotation`` (N,) degrees clockwise in quarter turns."""
    if len(boxes) < 3:
        return None
    rows = rows_direction(boxes)
    if rows is None or degrees_off_quarter(rows) < ROWS_TURNED_FROM:
        return None
    row_up = row_up_angle(scene)
    if row_up is None:
        return None
    tiles = [t for t in scene["tiles"] if t["role"] != "clutter" and not t["face_down"]]
    if not tiles:
        return None
    iou = box_iou(np.array([t["box"] for t in tiles], np.float32), boxes)
    read = []  # (role, read minus true quarter modulo a half turn, degrees off the nearest quarter)
    for j, tile in enumerate(tiles):
        k = int(iou[j].argmax())
        if iou[j, k] < 0.5 or class_ids[k] == FACE_DOWN:
            continue
        relative = (face_up_angle(tile["quad"]) - row_up) % 360.0
        true_quarter = round(relative / 90.0) % 4
        read.append((tile["role"], (int(rotation[k]) // 90 - true_quarter) % 2, degrees_off_quarter(relative)))
    concealed_read = [d for role, d, _ in read if role == "concealed"]
    if not concealed_read:
        return None
    offset = int(round(float(np.mean(concealed_read))))  # the frames' offset: the concealed tiles' majority
    return [(role + (" 25-45 off" if off > QUARTER_DEFINED_WITHIN else ""), d == offset) for role, d, off in read]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="vision.synth generate folders")
    parser.add_argument("--models", type=Path, default=None, help="model folder (default: models/)")
    parser.add_argument("--cache", type=Path, default=None, help="detections cache root, one sub-folder a scenes folder")
    args = parser.parse_args(argv)
    counts = defaultdict(lambda: [0, 0])  # key -> [tiles, right]
    photos = 0
    for folder in args.folders:
        cache = args.cache / folder.name if args.cache is not None else None
        for line in (folder / "scenes.jsonl").read_text().splitlines():
            scene = json.loads(line)
            detections = model_detections(scene, folder, args.models, cache)
            counted = scene_counts(scene, detections.boxes.astype(np.float32), detections.class_ids,
                                   detections.rotation)
            if counted is None:
                continue
            photos += 1
            for key, right in counted:
                counts[key][0] += 1
                counts[key][1] += right
    print(f"photos with turned rows: {photos}")
    for key in sorted(counts):
        n, right = counts[key]
        print(f"  {key:22s} {right}/{n} right ({n - right} wrong)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
