"""Localiser box recall on hk-photos valid by the labelled tile's short side (640 px photo), per models folder.

    .venv/bin/python bench/box_recall_by_size.py models out/cand_gpu23c --iou 0.5
    .venv/bin/python bench/box_recall_by_size.py models out/cand_gpu23c --iou 0.3

A label counts as found when a box of the recogniser's localiser pass (squeezed-picture pass included) overlaps it
by at least ``--iou``. hk-photos labels a tile's face, vision.synth its whole body: a localiser that learns many
synthetic scenes loses large, obliquely seen real tiles at IoU 0.5 but not at 0.3 (models/localizer.md, item 15).
Prints one line per folder and the photos with the most tiles lost.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.hk_photos import hk_root  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.metrics import HK_TO_CLASS, read_yolo_labels  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

EDGES = (0, 30, 45, 60, 80)  # px, short side of the label in the 640 px photo


def recall_by_size(rec: Recognizer, images: list[Path], labels: Path, iou: float):
    """(found (B,), total (B,), lost per photo {stem: n}) over the size bins that start at ``EDGES``."""
    found, total, lost = np.zeros(len(EDGES)), np.zeros(len(EDGES)), {}
    for img in images:
        gb, _ = read_yolo_labels(labels / (img.stem + ".txt"), 640, 640, HK_TO_CLASS)
        gb = np.asarray(gb, np.float32).reshape(-1, 4)
        if not len(gb):
            continue
        boxes = rec.find_boxes(cv2.imread(str(img)))[0]
        hit = box_iou(gb, boxes).max(axis=1) >= iou if len(boxes) else np.zeros(len(gb), bool)
        size = np.digitize(np.minimum(gb[:, 2] - gb[:, 0], gb[:, 3] - gb[:, 1]), EDGES) - 1
        np.add.at(total, size, 1)
        np.add.at(found, size, hit)
        lost[img.stem] = int((~hit).sum())
    return found, total, lost


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", help="models folders (localizer.onnx, localizer_squeezed.onnx, ...)")
    ap.add_argument("--iou", type=float, default=0.5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    root = hk_root() / "valid"
    images = sorted((root / "images").iterdir())
    for folder in args.models:
        found, total, lost = recall_by_size(Recognizer.load(folder, threads=args.threads), images, root / "labels",
                                            args.iou)
        bins = " ".join(f"{lo}px+: {f / max(t, 1):.3f} ({int(t - f)} of {int(t)} lost)"
                        for lo, f, t in zip(EDGES, found, total))
        print(f"{folder} (IoU >= {args.iou}): {bins}")
        worst = sorted(lost.items(), key=lambda kv: -kv[1])[:5]
        print("  most lost:", ", ".join(f"{stem[:24]} {n}" for stem, n in worst))


if __name__ == "__main__":
    main()
