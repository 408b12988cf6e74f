"""Pick the localiser's post-processing thresholds (score, NMS IoU, containment) on the checkpoint-selection split.

The split is the one ``vision.train.localizer`` writes (out/datasets/loc/images/val: every 10th hk-photos *train*
photo + synthetic scenes of an unseen seed); hk-photos valid, the measurement set, is never looked at. A tile counts
as found when a box overlaps it with IoU >= 0.5 (any class): box precision / recall / F1, per source and pooled
(each source weighted equally, so the 45 real photos count as much as the synthetic scenes; squeezed copies of the
real photos, made by ``vision.train.localizer --stretch-copies``, are a third source).

    .venv/bin/python -m vision.train.tune_localizer models/localizer.onnx [--split out/datasets/loc]
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.detections import box_iou
from vision.metrics import read_yolo_labels
from vision.onnx_models import Localizer

from . import ROOT


def box_counts(pred: np.ndarray, truth: np.ndarray, iou: float = 0.5) -> tuple[int, int, int]:
    """(true positives, predictions, truths) with one-to-one greedy matching by IoU."""
    if len(pred) == 0 or len(truth) == 0:
        return 0, len(pred), len(truth)
    m = box_iou(pred, truth)
    tp = 0
    for _ in range(min(m.shape)):
        i, j = np.unravel_index(np.argmax(m), m.shape)
        if m[i, j] < iou:
            break
        tp += 1
        m[i, :] = -1
        m[:, j] = -1
    return tp, len(pred), len(truth)


def exporter_rotated(image: np.ndarray, black_share: float = 0.01) -> bool:
    """True for an hk-photos train image that the dataset exporter turned by up to +-45 degrees or sheared: its
    corners are filled with pure black. Such photos carry the axis-aligned boxes of tilted tiles, which overlap
    their neighbours far more than in any photo a user takes (hk-photos valid has none: 6 of 296 photos show
    black fill, all from dark tables), so thresholds chosen on them would favour merging neighbours."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float((grey < 6).mean()) > black_share


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--split", default=str(ROOT / "out" / "datasets" / "loc"))
    ap.add_argument("--conf", default="0.25,0.3,0.35,0.4,0.45,0.5")
    ap.add_argument("--nms-iou", default="0.4,0.5,0.6,0.7")
    ap.add_argument("--contain", default="0.6,0.7,0.8,1.01")
    ap.add_argument("--skip-rotated", action="store_true",
                    help="leave out real photos turned by the exporter's +-45 degree rotation / shear")
    args = ap.parse_args(argv)
    loc = Localizer(args.model)
    images = sorted((Path(args.split) / "images" / "val").iterdir())
    grid = list(itertools.product(*(map(float, s.split(",")) for s in (args.conf, args.nms_iou, args.contain))))
    low = min(g[0] for g in grid)
    counts = {g: {"real": np.zeros(3), "synthetic": np.zeros(3), "squeezed": np.zeros(3)} for g in grid}
    for img_path in tqdm(images, desc="held-out images"):
        img = cv2.imread(str(img_path))
        h, w = img.shape[:2]
        truth, _ = read_yolo_labels(Path(args.split) / "labels" / "val" / (img_path.stem + ".txt"), w, h)
        source = ("synthetic" if img_path.name.startswith("synth_")
                  else "squeezed" if img_path.name.startswith("sq") else "real")  # sq*: localizer --stretch-copies
        if source == "real" and args.skip_rotated and exporter_rotated(img):
            continue
        out, frame = loc.raw(img)
        for nms_iou, contain in {(g[1], g[2]) for g in grid}:
            boxes, scores, _ = loc.postprocess(out, frame, low, nms_iou, contain=contain if contain <= 1 else None)
            for conf in {g[0] for g in grid}:
                keep = scores >= conf
                counts[(conf, nms_iou, contain)][source] += box_counts(boxes[keep], truth)
    rows = []
    for g, c in counts.items():
        f1 = {}
        for source, (tp, n_pred, n_true) in c.items():
            if n_true == 0:
                continue
            p, r = tp / max(n_pred, 1), tp / max(n_true, 1)
            f1[source] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / max(p + r, 1e-9), 4)}
        rows.append({"conf": g[0], "nms_iou": g[1], "contain": g[2], **f1,
                     "pooled_f1": round(sum(v["f1"] for v in f1.values()) / len(f1), 4)})
    rows.sort(key=lambda r: -r["pooled_f1"])
    for r in rows[:8]:
        print(json.dumps(r))
    print("best:", json.dumps(rows[0]))


if __name__ == "__main__":
    main()
