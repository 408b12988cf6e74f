"""Detection metrics on labelled photos: per-tile precision / recall / F1 and a confusion matrix.

A ground-truth tile counts as found when a prediction overlaps it with IoU >= ``iou`` and names its class. Matching is
one-to-one and greedy by IoU (largest first), independent of the class, so a wrong name is one false positive and one
false negative, and a confusion-matrix entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .classes import CLASS_NAMES, hk_name_to_code
from .detections import box_iou

N_CLASSES = len(CLASS_NAMES)  # 43
MISSED = N_CLASSES  # confusion row/column index for "no box"

HK_NAMES = ['bs1', 'sc1', 'sd1', 'sb1', 'hwe', 'bs2', 'sc2', 'sd2', 'sb2', 'hws', 'bs3', 'sc3', 'sd3', 'sb3', 'hww',
            'bs4', 'sc4', 'sd4', 'sb4', 'hwn', 'bf1', 'sc5', 'sd5', 'sb5', 'hdw', 'bf2', 'sc6', 'sd6', 'sb6', 'hdg',
            'bf3', 'sc7', 'sd7', 'sb7', 'hdr', 'bf4', 'sc8', 'sd8', 'sb8', 'sc9', 'sd9', 'sb9']
"""shared/data/hk-photos/data.yaml ``names`` in order (the importer checks this list against the file)."""
HK_TO_CLASS = np.array([CLASS_NAMES.index(hk_name_to_code(n)) for n in HK_NAMES], np.int32)


def read_yolo_labels(path: str | Path, width: int, height: int, class_map: np.ndarray | None = None):
    """YOLO label file (boxes ``c cx cy w h`` or polygons ``c x1 y1 x2 y2 ...``, normalised) ->
    (boxes (N, 4) float32 xyxy pixels, classes (N,) int32 mapped through ``class_map``)."""
    boxes, classes = [], []
    text = Path(path).read_text() if Path(path).exists() else ""
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        c = int(parts[0])
        v = np.array(parts[1:], np.float64)
        if len(v) == 4:
            cx, cy, w, h = v
            box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        else:
            xy = v[: len(v) // 2 * 2].reshape(-1, 2)
            box = [xy[:, 0].min(), xy[:, 1].min(), xy[:, 0].max(), xy[:, 1].max()]
        boxes.append(np.clip(box, 0, 1) * [width, height, width, height])
        classes.append(c)
    boxes = np.array(boxes, np.float32).reshape(-1, 4)
    classes = np.array(classes, np.int32)
    if class_map is not None and len(classes):
        classes = class_map[classes]
    return boxes, classes


def match(pred_boxes, pred_cls, gt_boxes, gt_cls, iou: float = 0.5):
    """Greedy one-to-one matching by IoU. Returns (pairs (M, 2) pred/gt indices, unmatched preds, unmatched gts)."""
    pred_boxes = np.asarray(pred_boxes, np.float32).reshape(-1, 4)
    gt_boxes = np.asarray(gt_boxes, np.float32).reshape(-1, 4)
    if len(pred_boxes) == 0 or len(gt_boxes) == 0:
        return np.zeros((0, 2), np.int64), np.arange(len(pred_boxes)), np.arange(len(gt_boxes))
    m = box_iou(pred_boxes, gt_boxes)
    pi, gi = np.nonzero(m >= iou)
    order = np.argsort(-m[pi, gi], kind="stable")
    used_p, used_g, pairs = set(), set(), []
    for k in order:
        p, g = int(pi[k]), int(gi[k])
        if p in used_p or g in used_g:
            continue
        used_p.add(p)
        used_g.add(g)
        pairs.append((p, g))
    pairs_a = np.array(pairs, np.int64).reshape(-1, 2)
    return (pairs_a, np.setdiff1d(np.arange(len(pred_boxes)), pairs_a[:, 0]),
            np.setdiff1d(np.arange(len(gt_boxes)), pairs_a[:, 1]))


@dataclass
class TileScore:
    """Accumulates per-tile counts over images. ``confusion[true, predicted]``, index 43 = no box."""

    iou: float = 0.5
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((N_CLASSES + 1, N_CLASSES + 1), np.int64))
    boxes_found: int = 0

    def add(self, pred_boxes, pred_cls, gt_boxes, gt_cls) -> None:
        pred_cls = np.asarray(pred_cls, np.int64).reshape(-1)
        gt_cls = np.asarray(gt_cls, np.int64).reshape(-1)
        pairs, up, ug = match(pred_boxes, pred_cls, gt_boxes, gt_cls, self.iou)
        self.boxes_found += len(pairs)
        np.add.at(self.confusion, (gt_cls[pairs[:, 1]], pred_cls[pairs[:, 0]]), 1)
        np.add.at(self.confusion, (np.full(len(up), MISSED), pred_cls[up]), 1)
        np.add.at(self.confusion, (gt_cls[ug], np.full(len(ug), MISSED)), 1)

    @property
    def tp(self) -> int:
        return int(np.trace(self.confusion[:N_CLASSES, :N_CLASSES]))

    @property
    def n_pred(self) -> int:
        return int(self.confusion[:, :N_CLASSES].sum())

    @property
    def n_true(self) -> int:
        return int(self.confusion[:N_CLASSES, :].sum())

    def summary(self) -> dict:
        p = self.tp / max(self.n_pred, 1)
        r = self.tp / max(self.n_true, 1)
        f1 = 2 * p * r / max(p + r, 1e-12)
        return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4), "tiles": self.n_true,
                "predictions": self.n_pred, "box_recall": round(self.boxes_found / max(self.n_true, 1), 4),
                "class_accuracy_on_found": round(self.tp / max(self.boxes_found, 1), 4)}
