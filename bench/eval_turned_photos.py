"""Recognition on real photos turned on the table: per-tile F1 of hk-photos valid, each photo turned by a few angles.

    .venv/bin/python bench/eval_turned_photos.py [--angles 0,10,20,35] [--limit N] [--grown] [--level-only]
        [--iou 0.5] [--models DIR]

hk-photos' photos are shot nearly level, while a player's phone may hold a hand at any angle. Each valid photo is
turned counter-clockwise about its centre by each angle and read by ``Recognizer.recognize`` on the PNG's bytes, as
the service reads a photo; the tiles it reports are scored as ``bench/bench_recognition.py`` scores them (IoU >= 0.5
and the right code, against the corrected labels). A label box becomes the box around its four turned corners, which
is what the recogniser's axis-aligned box of the turned tile should be.

By default the photo keeps its size and scale, as a tilted photo of the same table would: the turned corners are cut
and filled with the table's colour (the median of the photo's outer 8 pixels). A tile the frame then cuts (its turned
box not wholly inside the picture) is left out of the count, and so is every reported box whose centre lies on such a
tile, so that only whole tiles are judged. ``--grown`` turns each photo on a canvas grown to hold all of it instead:
every tile counts, but the tiles are smaller in the frame (by 1 / (cos + sin) of the angle), which the localiser's
416 px input feels; that was the first measurement of session 65 (docs/rules-session65.md) and mixes the two losses.

Many hk-photos were squeezed into 640 x 640 from another aspect by the dataset's exporter; the recogniser finds that
from the tiles (``vision.squeeze``) and reads such a photo stretched back, along the picture's axes. Turned, a
squeezed photo's tiles are sheared, as no phone photo's are, and no stretch along the axes undoes it.
``--level-only`` keeps only the photos that the recogniser reads as they came when upright (``Recognition.stretch``
1), for a measure of the turn alone.

Prints, per angle: F1, precision, recall, the share of labelled tiles boxed at IoU 0.5, the share of those named
right, and the labelled tiles counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_recognition import reported_indices  # noqa: E402
from datasets.hk_photos import hk_root, read_labels  # noqa: E402
from eval_photo_transforms import png, turned, turning  # noqa: E402
from vision.detections import reported_boxes  # noqa: E402
from vision.metrics import TileScore  # noqa: E402


def turned_boxes(boxes: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """(N, 4) xyxy boxes -> (N, 4) the boxes around their four corners moved by the 2 x 3 ``matrix``."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    x0, y0, x1, y1 = boxes.T
    corners = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                        np.stack([x0, y1], 1)], 1)  # (N, 4, 2)
    moved = corners @ matrix[:, :2].T + matrix[:, 2]
    return np.concatenate([moved.min(1), moved.max(1)], 1)


def whole_tiles(labels: np.ndarray, found: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(labels kept (N,) bool: wholly inside the picture, found kept (M,) bool: centre on no label left out)."""
    labels = np.asarray(labels, np.float64).reshape(-1, 4)
    found = np.asarray(found, np.float64).reshape(-1, 4)
    inside = (labels[:, 0] >= 0) & (labels[:, 1] >= 0) & (labels[:, 2] <= width) & (labels[:, 3] <= height)
    cx, cy = (found[:, 0] + found[:, 2]) / 2, (found[:, 1] + found[:, 3]) / 2
    on_cut = np.zeros(len(found), bool)
    for x0, y0, x1, y1 in labels[~inside]:
        on_cut |= (cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1)
    return inside, ~on_cut


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--angles", default="0,10,20,35", help="degrees, counter-clockwise, comma-separated")
    parser.add_argument("--limit", type=int, default=None, help="the first N valid photos by name")
    parser.add_argument("--grown", action="store_true", help="turn on a canvas grown to hold the whole photo")
    parser.add_argument("--level-only", action="store_true",
                        help="only the photos read as they came when upright: not squeezed from another aspect (see "
                             "below)")
    parser.add_argument("--iou", type=float, default=0.5,
                        help="overlap that counts a tile found (0.5 as bench_recognition.py; lower tells a box of "
                             "another size, the tile's body turned, from a tile missed)")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    from vision.recognize import Recognizer

    angles = [float(a) for a in args.angles.split(",")]
    recognizer = Recognizer.load(args.models, threads=args.threads)
    scores = {a: TileScore(iou=args.iou) for a in angles}
    skipped = 0
    images = sorted((hk_root() / "valid" / "images").iterdir())[:args.limit]
    for k, path in enumerate(images):
        photo = cv2.imread(str(path))
        h, w = photo.shape[:2]
        label_boxes, label_classes = read_labels("valid", path.stem, w, h)
        # the photo as it is, read once: for --level-only and as the turn of 0 degrees
        upright = recognizer.recognize(png(photo)) if args.level_only or 0.0 in angles else None
        if args.level_only and upright.stretch != 1:
            skipped += 1
            continue
        for angle in angles:
            matrix, new_w, new_h = turning(w, h, angle, args.grown)
            labels = turned_boxes(label_boxes, matrix)
            recognition = upright if angle == 0 else recognizer.recognize(png(turned(photo, angle, args.grown)))
            shown = recognition.detections[reported_indices(recognition)]
            boxes, classes = reported_boxes(shown.boxes).astype(np.float64), np.asarray(shown.class_ids)
            kept_labels, kept_found = whole_tiles(labels, np.asarray(shown.boxes), new_w, new_h)
            scores[angle].add(boxes[kept_found], classes[kept_found], labels[kept_labels],
                              np.asarray(label_classes)[kept_labels])
        print(f"\r{k + 1}/{len(images)} photos", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out = {}
    for angle in angles:
        s = scores[angle].summary()
        out[f"{angle:g}"] = s
        print(f"turned {angle:>5g} degrees: F1 {s['f1']:.4f}  precision {s['precision']:.4f}  recall {s['recall']:.4f}"
              f"  boxed {s['box_recall']:.3f}  named right when boxed {s['class_accuracy_on_found']:.3f}"
              f"  tiles {s['tiles']}")
    print(json.dumps({"grown": args.grown, "photos": len(images) - skipped, "left_out_squeezed": skipped,
                      "by_angle": out}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
