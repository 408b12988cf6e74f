"""The ONNX models of the recogniser (localisers, classifier, lift model), run with onnxruntime on numpy arrays.

- :class:`Localizer` — Ultralytics YOLO11n detector, input (1, 3, S, S) RGB 0..1 letterboxed, output (1, 4 + 2, A):
  box centre/size in input pixels and sigmoid scores of class 0 (face-up tile) and 1 (face-down tile).
- :class:`LiftModel` — tiny CNN (optional), input (N, 3, S, S) BGR 0..255 square crops around tiles
  (``crop_around`` at the file's own side and span; the committed file: 48 px, 1.4 times the box), output (N,)
  probability that the tile lies on another tile (an added kong's fourth tile laid on the claimed one, hiding it).
  Trained on a meld's sideways tiles; the recogniser runs it on the tiles that may be one
  (``vision.recognize.lift_candidates``), and the reader reads it only where a meld's claimed tile lies.
- :class:`CropClassifier` — small CNN, input (N, 3, S, S) BGR 0..255 portrait crops (S read from the file: the
  committed one 80 px; the training command's default 64), outputs (N, 43) class
  probabilities (42 faces in vision.classes order + back) and (N, 4) probabilities that the face lies turned 0 / 90 /
  180 / 270 degrees clockwise inside the crop (older models: (N, 2), upright / upside-down).

Sessions are created once and are safe to call from several threads (onnxruntime ``run`` is thread-safe).
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .classes import FACE_DOWN, REVERSIBLE_CLASSES
from .detections import box_iou
from .errors import ModelFileError

LETTERBOX_FILL = 114
LIFT_CROP_SIDE = 48  # pixels: the lift model's input side
LIFT_CROP_SPAN = 1.4  # the lift model's crop: a square this many times the box's longer side, on the box's centre


ALLOW_SPINNING = False
"""Whether onnxruntime's pool threads spin while they wait for work. They do by default, which suits one session
that runs back to back; the recogniser holds four sessions (two localisers, classifier, lift), each with its own
pool, which run one after another on a machine of few cores, so a finished session's spinning threads took the cores
from the next one: 114.5 -> 68.0 ms per 12 MP photo with it off, the same detections (docs/rules-session25.md, s1)."""


MAX_THREADS = 256
"""The most onnxruntime threads a model session gets: far above any CPU this runs on."""


def _session(path: Path, threads: int | None) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    if not ALLOW_SPINNING:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    threads = threads or int(os.environ.get("VISION_THREADS", "0")) or min(os.cpu_count() or 1, 4)
    # onnxruntime starts that many threads per session: 100,000 (the CLI's --threads, VISION_THREADS or the service's
    # MAHJONG_INFERENCE_THREADS) hung the load, and a negative count went through; the CLI refuses such a value, the
    # other two are held to 1-MAX_THREADS here
    opts.intra_op_num_threads = min(max(threads, 1), MAX_THREADS)
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's own message repeats the path; its kind says enough
        raise ModelFileError("model_unreadable", path,
                             f"not a model onnxruntime can load ({type(error).__name__})") from error


def _size_fits(got, want) -> bool:
    """One output size against its want: None (any), an int, or a tuple of the ints allowed; a dynamic size fits."""
    return want is None or not isinstance(got, int) or got == want or (isinstance(want, tuple) and got in want)


def _check_shapes(session: ort.InferenceSession, path: Path, role: str, outputs: list[list[tuple]],
                  fixed_side: bool = False) -> None:
    """Refuse, at load, a file whose input is not one batch of square 3-channel pictures (of a fixed side, with
    ``fixed_side``) or whose outputs do not have the shapes ``outputs`` allows (per output read, the shapes it may
    have, each size as ``_size_fits`` takes it): a localiser's file copied over the classifier's loaded, and then
    every photo failed with a 500 inside onnxruntime or numpy (``models_unavailable`` and one line from the CLI
    instead)."""
    shape = list(session.get_inputs()[0].shape)
    found = [list(out.shape) for out in session.get_outputs()]
    sides = shape[2:]
    square = len(shape) == 4 and shape[1] == 3 and (sides[0] == sides[1] or not all(isinstance(d, int) for d in sides))
    fixed = not fixed_side or (len(shape) == 4 and isinstance(shape[2], int))
    fits = len(found) >= len(outputs) and all(
        any(len(got) == len(want) and all(map(_size_fits, got, want)) for want in allowed)
        for got, allowed in zip(found, outputs))
    if not (square and fixed and fits):
        raise ModelFileError("model_mismatch", path, f"not a {role} model: input {shape}, outputs {found}")


def letterbox(image: np.ndarray, size: int):
    """(H, W, 3) BGR -> ((1, 3, size, size) float32 RGB 0..1, scale, pad_x, pad_y): input = image * scale + pad."""
    h, w = image.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    px, py = (size - nw) // 2, (size - nh) // 2
    canvas = np.full((size, size, 3), LETTERBOX_FILL, np.uint8)
    canvas[py:py + nh, px:px + nw] = resized
    tensor = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) * (1 / 255.0)
    return np.ascontiguousarray(tensor), scale, px, py


class Localizer:
    def __init__(self, path: str | Path, threads: int | None = None):
        self.path = Path(path)
        self.session = _session(self.path, threads)
        # letterbox() needs the side; postprocess() reads boxes and one or two classes (face up, face down)
        _check_shapes(self.session, self.path, "tile localiser", [[(None, (5, 6), None)]], fixed_side=True)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.size = int(inp.shape[2])

    def __call__(self, image: np.ndarray, conf: float = 0.3, iou: float = 0.5, max_det: int = 300,
                 contain: float | None = 0.7):
        """Tiles in ``image`` pixels: (boxes (N, 4) xyxy float32, scores (N,), is_back_score (N,))."""
        return self.postprocess(*self.raw(image), conf, iou, max_det, contain)

    def raw(self, image: np.ndarray):
        """The network's output (4 + nc, A) for ``image`` and the letterbox (scale, pad_x, pad_y, height, width)."""
        x, scale, px, py = letterbox(image, self.size)
        return self.session.run(None, {self.input_name: x})[0][0], (scale, px, py, *image.shape[:2])

    @staticmethod
    def postprocess(out: np.ndarray, frame: tuple, conf: float = 0.3, iou: float = 0.5, max_det: int = 300,
                    contain: float | None = 0.7):
        """Score threshold, NMS (class-agnostic), containment filter, back to image pixels."""
        scale, px, py, ih, iw = frame
        scores_all = out[4:]
        score = scores_all.max(axis=0)
        keep = np.nonzero(score >= conf)[0]
        if len(keep) == 0:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32)
        cx, cy, w, h = out[:4, keep]
        rects = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
        idx = cv2.dnn.NMSBoxes(rects.tolist(), score[keep].tolist(), conf, iou, top_k=max_det)
        idx = np.asarray(idx, np.int64).reshape(-1)
        sel = keep[idx]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)[idx]
        if contain and len(idx) > 1:  # a tile never lies inside another: drop fragments inside a better box
            inner = _contained(boxes, score[sel], contain)
            boxes, sel = boxes[~inner], sel[~inner]
        boxes = (boxes - [px, py, px, py]) / scale
        boxes = np.clip(boxes, 0, [iw, ih, iw, ih]).astype(np.float32)
        back = scores_all[1, sel] if scores_all.shape[0] > 1 else np.zeros(len(sel), np.float32)
        return boxes, score[sel].astype(np.float32), back.astype(np.float32)


def _candidates(out: np.ndarray, frame: tuple, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Every anchor of the localiser's output ``out`` (4 + nc, A) scored at least ``floor`` (its best class), before
    any NMS: (boxes (M, 4) float32 xyxy in image pixels, not yet clipped to it (``_clip``); scores (M,) float32)."""
    scale, px, py, _, _ = frame
    score = out[4:].max(axis=0)
    keep = np.nonzero(score >= floor)[0]
    cx, cy, w, h = out[:4, keep]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).reshape(-1, 4)
    return ((boxes - [px, py, px, py]) / scale).astype(np.float32), score[keep].astype(np.float32)


def _clip(boxes: np.ndarray, frame: tuple) -> np.ndarray:
    """(M, 4) xyxy boxes clipped to the image of ``frame`` (its height and width)."""
    _, _, _, ih, iw = frame
    return np.clip(boxes, 0, [iw, ih, iw, ih]).astype(np.float32)


def spare_candidates(out: np.ndarray, frame: tuple, kept: np.ndarray, floor: float = 0.05, limit: int = 8,
                     same_tile_iou: float = 0.7, kept_iou: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """The localiser's candidates that did not become boxes: scored at least ``floor`` (below the threshold, or
    dropped by NMS or the containment filter beside a kept box), overlapping no ``kept`` box (N, 4) by ``kept_iou``
    or more, one per tile (NMS among those at ``same_tile_iou``); the ``limit`` best. ``out`` and ``frame`` as
    :meth:`Localizer.raw` gives them. Returns (boxes (M, 4) float32 in image pixels, scores (M,) float32), best first.
    A hand tile the localiser boxed only below its threshold, or whose box NMS dropped for an overlapping neighbour's,
    is often among them (the reader tries them when the kept boxes make no hand)."""
    boxes, scores = _candidates(out, frame, floor)
    # Those overlapping a kept box (as clipped to the picture) go first, then one per tile among the rest: a near
    # copy of a kept box, suppressing a free candidate of the tile beside it and then dropped itself, would lose that
    # tile (S52, docs/rules-session52.md).
    if len(boxes) and len(kept):
        free = box_iou(_clip(boxes, frame), kept).max(axis=1) < kept_iou
        boxes, scores = boxes[free], scores[free]
    if len(boxes) == 0 or limit <= 0:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    rects = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], axis=1)
    idx = np.asarray(cv2.dnn.NMSBoxes(rects.tolist(), scores.tolist(), floor, same_tile_iou), np.int64).reshape(-1)
    boxes, scores = _clip(boxes[idx], frame), scores[idx]
    order = np.argsort(-scores, kind="stable")[:limit]
    return boxes[order], scores[order]


def other_fits(out: np.ndarray, frame: tuple, kept: np.ndarray, limit: int = 2, min_iou: float = 0.6,
               floor: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """For each ``kept`` box (N, 4), the localiser's other candidates of the same tile: of its ``limit`` best-scored
    candidates scored at least ``floor`` that overlap it by IoU ``min_iou`` up to 0.98, those not repeating one
    taken before (IoU 0.98): the fits NMS dropped. ``out`` and ``frame`` as :meth:`Localizer.raw` gives them. Returns
    (boxes (M, 4) float32 in image pixels, owner (M,) int: the kept box each belongs to)."""
    candidates, scores = _candidates(out, frame, floor)
    candidates = _clip(candidates, frame)
    if len(candidates) == 0 or len(kept) == 0 or limit <= 0:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
    order = np.argsort(-scores, kind="stable")
    overlap = box_iou(np.asarray(kept, np.float32), candidates)
    boxes, owner = [], []
    for i in range(len(kept)):
        taken: list[int] = []
        for j in order[(overlap[i, order] >= min_iou) & (overlap[i, order] < 0.98)][:limit]:
            if all(box_iou(candidates[j:j + 1], candidates[k:k + 1])[0, 0] < 0.98 for k in taken):
                taken.append(int(j))
        boxes += [candidates[j] for j in taken]
        owner += [i] * len(taken)
    if not boxes:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
    return np.array(boxes, np.float32), np.array(owner, np.int64)


def _contained(boxes: np.ndarray, scores: np.ndarray, threshold: float) -> np.ndarray:
    """(N,) bool: boxes whose area lies more than ``threshold`` inside a higher-scoring box."""
    lt = np.maximum(boxes[:, None, :2], boxes[None, :, :2])
    rb = np.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(axis=2)
    area = np.maximum((boxes[:, 2:] - boxes[:, :2]).prod(axis=1), 1e-9)
    inside = inter / area[:, None] > threshold  # [i, j]: i lies inside j
    better = scores[None, :] > scores[:, None]
    np.fill_diagonal(inside, False)
    return (inside & better).any(axis=1)


def crop_tiles(image: np.ndarray, boxes: np.ndarray, size: int = 64, margin: float = 0.03,
               landscape: np.ndarray | None = None):
    """Cut each box (with a small margin) to a ``size`` square; landscape boxes are turned 90 degrees
    counter-clockwise so every crop is portrait-like. ``landscape`` (N,) bool overrides "wider than tall" (a squeezed
    picture: the box's shape once the squeeze is undone). Returns ((N, 3, size, size) float32 BGR 0..255,
    landscape (N,))."""
    n = len(boxes)
    crops = np.empty((n, size, size, 3), np.uint8)
    given = landscape
    landscape = np.zeros(n, bool) if given is None else np.asarray(given, bool).copy()
    dst = np.float32([[0, 0], [size, 0], [size, size]])
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(boxes, np.float64)):
        bw, bh = x2 - x1, y2 - y1
        x1, y1, x2, y2 = x1 - margin * bw, y1 - margin * bh, x2 + margin * bw, y2 + margin * bh
        if given is None:
            landscape[i] = bw > bh
        src = (np.float32([[x2, y1], [x2, y2], [x1, y2]]) if landscape[i]
               else np.float32([[x1, y1], [x2, y1], [x2, y2]]))
        M = cv2.getAffineTransform(src, dst)
        # bilinear sampling, no area average: a box much larger than the crop is sampled, not averaged; the
        # classifier's training crops cut at the localiser's boxes (vision.train.model_crops) come from here too
        crops[i] = cv2.warpAffine(image, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crops.transpose(0, 3, 1, 2).astype(np.float32), landscape


def crop_along(image: np.ndarray, boxes: np.ndarray, direction: float, size: int = 64,
               margin: float = 0.03) -> np.ndarray:
    """Cut each box's tile as a ``size`` square turned so that a line at ``direction`` (degrees in the picture, x
    right and y down: the rows' direction) runs level: (N, 4) xyxy boxes -> (N, 3, size, size) float32 BGR 0..255.

    A tile lying at that angle fills its axis-aligned box only partly, and its box alone cannot say which of its
    sides lies along the row (near 45 degrees the box is square), so the square's side is the mean of the tile's two
    sides, which the box gives exactly whatever the tile's shape: a rectangle of sides a, b turned by t has a box of
    width + height = (a + b)(|cos t| + |sin t|). Turned level, the face lies square in the crop, upright or a quarter
    turned, which the classifier's orientation head can tell (``Recognizer`` uses it for photos whose rows lie far
    off the picture's axes)."""
    crops = np.empty((len(boxes), size, size, 3), np.uint8)
    t = np.radians(direction)
    cos_t, sin_t = abs(np.cos(t)), abs(np.sin(t))
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(boxes, np.float64)):
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        side = max((x2 - x1) + (y2 - y1), 1.0) / (cos_t + sin_t) / 2 * (1 + margin)
        # turn the picture about the tile's centre by ``direction`` (counter-clockwise as shown), then map the
        # square around the centre onto the crop
        turn = np.vstack([cv2.getRotationMatrix2D((float(cx), float(cy)), float(direction), 1.0), [0.0, 0.0, 1.0]])
        k = size / side
        fit = np.array([[k, 0.0, -k * (cx - side / 2)], [0.0, k, -k * (cy - side / 2)]])
        crops[i] = cv2.warpAffine(image, fit @ turn, (size, size), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    return crops.transpose(0, 3, 1, 2).astype(np.float32)


_REVERSIBLE_IDS = np.array(sorted(REVERSIBLE_CLASSES), np.int64)
SECOND_LOOK_BELOW = 0.95  # a crop is also classified turned 180 degrees when its first look's top class is below this
# A crop still unsure after that (top class below THIRD_LOOK_BELOW) is cut again THIRD_LOOK_MARGIN inside its box
# (a negative margin) and named upright and turned; those two looks count half as much as the first ones together
# (Recognizer.name_boxes). Alone such a tight view names fewer tiles right; averaged in, it names more (session 26).
THIRD_LOOK_BELOW = 0.9
THIRD_LOOK_MARGIN = -0.08


class CropClassifier:
    def __init__(self, path: str | Path, threads: int | None = None, batch: int = 64,
                 second_look_below: float = SECOND_LOOK_BELOW):
        self.path = Path(path)
        self.session = _session(self.path, threads)
        # the classes (42 faces and the back), then the orientation head's 4 turns (or 2 in older files)
        _check_shapes(self.session, self.path, "tile classifier", [[(None, FACE_DOWN + 1)], [(None, (2, 4))]])
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else 64
        self.batch = batch
        # 1.0 (or more): every crop gets its second look, as before session 24
        self.second_look_below = second_look_below

    @property
    def orientations(self) -> int:
        """4: quarter turns clockwise of the face in the crop; 2: upright / upside-down (older models)."""
        return int(self.session.get_outputs()[1].shape[1])

    def __call__(self, crops: np.ndarray, turn_average: bool = True):
        """(N, 3, S, S) float32 -> (class probs (N, 43), orientation probs (N, 4) or (N, 2)).

        ``turn_average``: also classify crops turned 180 degrees and average — the class does not change under the
        turn, the orientation moves half way round. The second look is taken where it can change something: crops
        whose first look names a reversible face (the average balances its two orientations, as the reader
        expects of those faces) or gives its top class under ``second_look_below``; the others keep their first
        look (session 24: a confident, one-way face reads the same either way, and the second look cost a third of
        the naming time)."""
        if len(crops) == 0:
            return np.zeros((0, 43), np.float32), np.zeros((0, self.orientations), np.float32)
        if turn_average:
            if self.second_look_below >= 1.0:
                again = np.arange(len(crops))
                c, o = self(np.concatenate([crops, crops[:, :, ::-1, ::-1]]), turn_average=False)
                c, o, c2, o2 = c[:len(crops)], o[:len(crops)], c[len(crops):], o[len(crops):]
            else:
                c, o = self(crops, turn_average=False)
                top = c.argmax(axis=1)
                again = np.flatnonzero((c.max(axis=1) < self.second_look_below) | np.isin(top, _REVERSIBLE_IDS))
                c2, o2 = self(np.ascontiguousarray(crops[again, :, ::-1, ::-1]), turn_average=False)
            half = o.shape[1] // 2  # 180 degrees, in orientation steps
            c[again] = (c[again] + c2) / 2
            o[again] = (o[again] + np.roll(o2, half, axis=1)) / 2
            return c, o
        cls, ori = [], []
        for s in range(0, len(crops), self.batch):
            c, o = self.session.run(None, {self.input_name: crops[s:s + self.batch]})
            cls.append(c)
            ori.append(o)
        return np.concatenate(cls), np.concatenate(ori)


def crop_around(image: np.ndarray, boxes: np.ndarray, size: int = LIFT_CROP_SIDE,
                span: float = LIFT_CROP_SPAN) -> np.ndarray:
    """(N, 4) xyxy boxes -> (N, 3, size, size) float32 BGR 0..255: for each box a square ``span`` times its longer
    side on its centre, not turned (the tile's surroundings, its sides and what lies under it, are the point). In a
    picture the recogniser found squeezed (vision.squeeze) the crop is cut from the squeezed pixels, which the lift
    model never saw in training: its value there is weaker evidence."""
    crops = np.empty((len(boxes), size, size, 3), np.uint8)
    dst = np.float32([[0, 0], [size, 0], [size, size]])
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(boxes, np.float64)):
        half = span * max(x2 - x1, y2 - y1, 1.0) / 2
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        src = np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half]])
        crops[i] = cv2.warpAffine(image, cv2.getAffineTransform(src, dst), (size, size), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    return crops.transpose(0, 3, 1, 2).astype(np.float32)


class LiftModel:
    """The optional lift model (models/lift.md). Without it ``Detections.lifted`` stays NaN and the reader judges an
    added kong's hidden claimed tile from the boxes' geometry alone."""

    def __init__(self, path: str | Path, threads: int | None = None):
        self.path = Path(path)
        self.session = _session(self.path, threads)
        _check_shapes(self.session, self.path, "lift", [[(None,), (None, 1)]])  # one probability per crop
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        # The crop the file was trained on: its input side, and its span from the metadata ``crop_span`` (files
        # from before the span was a choice hold none: LIFT_CROP_SPAN).
        self.side = int(inp.shape[2]) if isinstance(inp.shape[2], int) else LIFT_CROP_SIDE
        span = self.session.get_modelmeta().custom_metadata_map.get("crop_span")
        self.span = float(span) if span else LIFT_CROP_SPAN

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """``crop_around`` with this file's crop side and span."""
        return crop_around(image, boxes, self.side, self.span)

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        """(N, 3, S, S) float32 crops from ``crops`` -> (N,) float32 probabilities of lying on a tile."""
        if len(crops) == 0:
            return np.zeros(0, np.float32)
        return np.asarray(self.session.run(None, {self.input_name: crops})[0], np.float32).reshape(len(crops))
