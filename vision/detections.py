"""Detections: a validated struct of arrays, one row per tile found in an image.

Shapes (N = number of tiles, K = top-k kept per tile):

========== =============== ======= ===========================================================================
field      shape           dtype   meaning
========== =============== ======= ===========================================================================
boxes      (N, 4)          float32 axis-aligned x1, y1, x2, y2 in pixels of the oriented image
class_ids  (N,)            int32   0..41 face (vision.classes.FACE_CODES order) or 42 = face down (back)
confidence (N,)            float32 probability of ``class_ids``
rotation   (N,)            int32   0, 90, 180 or 270: degrees the tile face is turned clockwise from upright
topk_ids   (N, K)          int32   the K most probable classes, best first
topk_probs (N, K)          float32 their probabilities
lifted     (N,)            float32 probability that the tile lies on another tile (an added kong's fourth tile laid
                                   on the claimed one, hiding it), from the lift model; NaN where not measured. The
                                   model was trained on a meld's sideways tiles only: elsewhere the value means little
sideways_  (N,)            float32 probability that the face lies turned a quarter (90 or 270) in the image, from
probability                        the classifier's orientation head; NaN where not measured (backs, old heads)
========== =============== ======= ===========================================================================

All operations are pure numpy and return new objects; nothing is mutated in place.

``boxes`` are the localiser's: a tile's whole body, its sides included, which the hand reader's geometry is tuned on.
What the recogniser *reports* (``to_json``, and every box a reading or the service hands out) is each box scaled about
its centre by ``REPORTED_BOX_SCALE`` (``reported_boxes``), the size of the face that real photos' labels outline;
boxes coming back from a client are scaled back (``boxes_from_reported``) before any reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .classes import CLASS_NAMES, FACE_CODES, FACE_DOWN

ROTATIONS = (0, 90, 180, 270)
# Boxes are reported at 0.92 of the localiser's width and height (B50, docs/rules-session50.md): hk-photos' labels,
# and so its held-aside test split's, outline a tile's face, the localiser its whole body (label over box, median width
# 0.857, height 0.912 on valid). Chosen on hk-photos valid among 0.80-1.00 per axis, both halves of a two-fold split
# choosing 0.92 x 0.92: per-tile F1 cross-validated 0.9846 against 0.9808; synthetic F1 (whole-body boxes) 0.9622 ->
# 0.9615.
REPORTED_BOX_SCALE = 0.92
ROUNDING_SLACK = 1e-5  # a class probability this far outside 0..1 is a rounding, not a wrong value
FIELDS = ("boxes", "class_ids", "confidence", "rotation", "topk_ids", "topk_probs", "lifted", "sideways_probability")
"""The columns, in the constructor's order."""


@dataclass(frozen=True)
class Detections:
    boxes: np.ndarray
    class_ids: np.ndarray
    confidence: np.ndarray
    rotation: np.ndarray = field(default=None)  # type: ignore[assignment]
    topk_ids: np.ndarray = field(default=None)  # type: ignore[assignment]
    topk_probs: np.ndarray = field(default=None)  # type: ignore[assignment]
    lifted: np.ndarray = field(default=None)  # type: ignore[assignment]
    sideways_probability: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        boxes = np.asarray(self.boxes, dtype=np.float32).reshape(-1, 4)
        n = len(boxes)
        class_ids = np.asarray(self.class_ids, dtype=np.int32).reshape(n)
        confidence = np.asarray(self.confidence, dtype=np.float32).reshape(n)
        rotation = (np.zeros(n, np.int32) if self.rotation is None
                    else np.asarray(self.rotation, dtype=np.int32).reshape(n))
        topk_ids = class_ids[:, None] if self.topk_ids is None else np.asarray(self.topk_ids, dtype=np.int32)
        topk_probs = confidence[:, None] if self.topk_probs is None else np.asarray(self.topk_probs, dtype=np.float32)
        lifted = _probability_column("lifted", self.lifted, n)
        sideways_probability = _probability_column("sideways_probability", self.sideways_probability, n)
        if topk_ids.ndim != 2 or topk_ids.shape[0] != n or topk_probs.shape != topk_ids.shape:
            raise ValueError(f"topk_ids {topk_ids.shape} and topk_probs {topk_probs.shape} must both be ({n}, K)")
        if n and (class_ids.min() < 0 or class_ids.max() > FACE_DOWN):
            raise ValueError(f"class ids must lie in 0..{FACE_DOWN}, got {class_ids.min()}..{class_ids.max()}")
        if topk_ids.size and (topk_ids.min() < 0 or topk_ids.max() > FACE_DOWN):
            raise ValueError(f"top-k ids must lie in 0..{FACE_DOWN}, got {topk_ids.min()}..{topk_ids.max()}")
        # The reader takes -log p of these: a value past 1 or below 0 (or infinite) made its alternatives'
        # probabilities NaN, which no JSON holds. NaN passes, as in the optional columns; so does a float32 rounding
        # past 1 (an average of the classifier's looks).
        _check_probabilities("confidence", confidence, slack=ROUNDING_SLACK)
        _check_probabilities("topk_probs", topk_probs, slack=ROUNDING_SLACK)
        if n and not np.isin(rotation, ROTATIONS).all():
            raise ValueError(f"rotation must be one of {ROTATIONS}, got {sorted(set(rotation.tolist()))}")
        if n and ((boxes[:, 2] < boxes[:, 0]) | (boxes[:, 3] < boxes[:, 1])).any():
            raise ValueError("boxes must be x1 <= x2 and y1 <= y2")
        for name, value in (("boxes", boxes), ("class_ids", class_ids), ("confidence", confidence),
                            ("rotation", rotation), ("topk_ids", topk_ids), ("topk_probs", topk_probs),
                            ("lifted", lifted), ("sideways_probability", sideways_probability)):
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    @classmethod
    def empty(cls, k: int = 1) -> "Detections":
        return cls(np.zeros((0, 4)), np.zeros(0), np.zeros(0), np.zeros(0),
                   np.zeros((0, k)), np.zeros((0, k)))

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, index) -> "Detections":
        """Select rows with an int, a slice, an index array or a boolean mask."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return Detections(self.boxes[index], self.class_ids[index], self.confidence[index], self.rotation[index],
                          self.topk_ids[index], self.topk_probs[index], self.lifted[index],
                          self.sideways_probability[index])

    def concat(self, other: "Detections") -> "Detections":
        """These rows, then ``other``'s (same top-k width): a new object."""
        if self.topk_ids.shape[1] != other.topk_ids.shape[1]:
            raise ValueError(f"top-k widths differ: {self.topk_ids.shape[1]} and {other.topk_ids.shape[1]}")
        return Detections(*(np.concatenate([getattr(self, name), getattr(other, name)]) for name in FIELDS))

    @property
    def face_down(self) -> np.ndarray:
        """(N,) bool: tiles showing their back."""
        return self.class_ids == FACE_DOWN

    @property
    def centers(self) -> np.ndarray:
        """(N, 2) float32 box centres."""
        return np.stack([(self.boxes[:, 0] + self.boxes[:, 2]) / 2, (self.boxes[:, 1] + self.boxes[:, 3]) / 2], axis=1)

    @property
    def codes(self) -> list[str | None]:
        return [None if c == FACE_DOWN else FACE_CODES[c] for c in self.class_ids.tolist()]

    def to_json(self) -> list[dict]:
        """Tiles as in the recognition CLI (interfaces.md), plus the top-k alternatives; boxes as reported
        (``reported_boxes``)."""
        tiles = []
        boxes = reported_boxes(self.boxes)
        for i in range(len(self)):
            cid = int(self.class_ids[i])
            tiles.append({
                "code": None if cid == FACE_DOWN else FACE_CODES[cid],
                "box": [round(float(v), 1) for v in boxes[i]],
                "confidence": round(float(self.confidence[i]), 4),
                "rotation": int(self.rotation[i]),
                "face_down": cid == FACE_DOWN,
                "lifted": None if np.isnan(self.lifted[i]) else round(float(self.lifted[i]), 4),
                "sideways_probability": (None if np.isnan(self.sideways_probability[i])
                                         else round(float(self.sideways_probability[i]), 4)),
                "top": [{"code": CLASS_NAMES[int(c)] if int(c) != FACE_DOWN else None, "p": round(float(p), 4)}
                        for c, p in zip(self.topk_ids[i], self.topk_probs[i])],
            })
        return tiles


def reported_boxes(boxes: np.ndarray) -> np.ndarray:
    """(N, 4) x1, y1, x2, y2 boxes as the localiser gives them -> (N, 4) float64 as reported: each scaled about its
    centre by REPORTED_BOX_SCALE."""
    return _scaled(boxes, REPORTED_BOX_SCALE)


def boxes_from_reported(boxes: np.ndarray) -> np.ndarray:
    """The inverse of ``reported_boxes``: (N, 4) boxes as reported (or drawn by a client the same way) -> (N, 4)
    float64 at the localiser's size, as the hand reader expects them."""
    return _scaled(boxes, 1.0 / REPORTED_BOX_SCALE)


def _scaled(boxes: np.ndarray, scale: float) -> np.ndarray:
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = (boxes[:, 2:] - boxes[:, :2]) * (scale / 2)
    return np.concatenate([centers - half, centers + half], axis=1)


def _probability_column(name: str, value, n: int) -> np.ndarray:
    """An optional (N,) probability column as float32: NaN (not measured) when absent; ValueError outside 0..1."""
    column = np.full(n, np.nan, np.float32) if value is None else np.asarray(value, dtype=np.float32).reshape(n)
    _check_probabilities(name, column)
    return column


def _check_probabilities(name: str, values: np.ndarray, slack: float = 0.0) -> None:
    """ValueError where ``values`` hold anything outside 0..1 (give or take ``slack``) but NaN."""
    if values.size and ((values < -slack) | (values > 1 + slack)).any():
        raise ValueError(f"{name} must be a probability (0..1) or NaN, got"
                         f" {np.nanmin(values):g}..{np.nanmax(values):g}")


def median_short_side(boxes: np.ndarray) -> float:
    """(N, 4) xyxy boxes, N >= 1 -> the median of their short sides (a tile's size whichever way it lies), in the
    boxes' own dtype's arithmetic."""
    boxes = np.asarray(boxes).reshape(-1, 4)
    return float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))


def edge_slivers(boxes: np.ndarray, size: tuple[float, float], share: float, margin: float = 2.0) -> np.ndarray:
    """(N, 4) xyxy boxes in a picture of ``size`` (width, height) -> (N,) bool: the boxes lying within ``margin`` px of
    the picture's edge whose short side is under ``share`` of the median short side of the boxes: a tile that the
    frame cuts to less than half of it (or its side boxed on its own), whose face cannot be told. All False with
    fewer than two boxes (no median to judge by)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    if len(boxes) < 2:
        return np.zeros(len(boxes), bool)
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    width, height = size
    edge = (boxes[:, 0] <= margin) | (boxes[:, 1] <= margin) \
        | (boxes[:, 2] >= width - margin) | (boxes[:, 3] >= height - margin)
    return edge & (short < share * float(np.median(short)))


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, 4) x (M, 4) xyxy boxes -> (N, M) intersection over union."""
    a = np.asarray(a, np.float32).reshape(-1, 4)
    b = np.asarray(b, np.float32).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(axis=2)
    area_a = (a[:, 2:] - a[:, :2]).prod(axis=1)
    area_b = (b[:, 2:] - b[:, :2]).prod(axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)
