"""Importer for ``shared/data/hk-photos`` (Roboflow Universe "chinese-mahjong-detection" v4, CC BY 4.0).

- :func:`iter_split` yields (image path, boxes (N, 4) xyxy pixels, class ids (N,) in our 43-class order).
  Polygon labels become their bounding boxes. In the valid split seven photos are labelled 1p for every tile though
  they show all kinds of faces: :func:`read_labels` gives their faces from ``hk_photos_valid_corrections.json``
  (read by eye, one code per label line; the boxes stay as labelled), and 21 single label lines of other valid photos
  that name the wrong face (``slips``, read blind by eye in session 62) are corrected the same way.
- ``python -m datasets.hk_photos localizer --out out/datasets/loc`` writes an Ultralytics dataset (symlinked images,
  labels rewritten to 2 classes: 0 = face-up tile, 1 = face-down tile) for the localiser.
- ``python -m datasets.hk_photos crops --split train --out out/crops/hk_train.npz`` cuts every labelled tile
  (with a jittered margin) into a 80x80 crop array for the classifier; with ``--model-boxes`` (``--out
  out/crops/hk_train_mb.npz``) it cuts the committed localiser's boxes instead, as the recogniser cuts them.

The valid split is never used for training: it is the measurement set.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASS_NAMES, FACE_DOWN
from vision.metrics import HK_NAMES, HK_TO_CLASS, read_yolo_labels

CROP = 80  # stored crop side; the classifier trains on random 64-px views of it
CORRECTIONS = Path(__file__).resolve().with_name("hk_photos_valid_corrections.json")


def hk_root() -> Path:
    env = os.environ.get("MAHJONG_SHARED")
    base = Path(env) if env else Path(__file__).resolve().parents[2] / "shared"
    if not base.is_dir():
        base = Path("/work/shared")
    return base / "data" / "hk-photos"


def check_names(root: Path | None = None) -> None:
    text = ((root or hk_root()) / "data.yaml").read_text()
    line = next(l for l in text.splitlines() if l.startswith("names:"))
    names = [n.strip().strip("'\"") for n in line.split("[", 1)[1].rsplit("]", 1)[0].split(",")]
    if names != HK_NAMES:
        raise ValueError("hk-photos data.yaml names differ from vision.metrics.HK_NAMES")


@cache
def valid_label_corrections() -> dict[str, tuple[int, ...]]:
    """Label file stem -> the class of each label line (our order), for the valid photos labelled 1p throughout."""
    photos = json.loads(CORRECTIONS.read_text())["photos"]
    return {stem: tuple(CLASS_NAMES.index(code) for code in codes) for stem, codes in photos.items()}


@cache
def valid_label_slips() -> dict[str, dict[int, int]]:
    """Label file stem -> {label line: class (our order)}, for single lines of valid photos that name the wrong face
    (read blind by eye, session 62: the file's ``slips_method``)."""
    slips = json.loads(CORRECTIONS.read_text()).get("slips", {})
    out: dict[str, dict[int, int]] = {}
    for stem, lines in slips.items():
        for line, code in lines.items():
            if not line.isdigit():
                raise ValueError(f"{CORRECTIONS.name}: {stem!r} names label line {line!r}, not a line number")
            if code not in CLASS_NAMES:
                raise ValueError(f"{CORRECTIONS.name}: {stem!r} line {line} names {code!r}, not a face code")
            out.setdefault(stem, {})[int(line)] = CLASS_NAMES.index(code)
    return out


def read_labels(split: str, stem: str, width: int, height: int, root: Path | None = None,
                corrected: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(boxes (N, 4) xyxy pixels, classes (N,) in our order) of one photo's label file, with the valid split's
    corrections applied unless ``corrected`` is False (then: as the file says)."""
    boxes, classes = read_yolo_labels((root or hk_root()) / split / "labels" / (stem + ".txt"), width, height,
                                      HK_TO_CLASS)
    return boxes, corrected_classes(split, stem, classes) if corrected else classes


def corrected_classes(split: str, stem: str, classes: np.ndarray) -> np.ndarray:
    """A label file's classes (as ``read_labels(..., corrected=False)`` gives them) with the valid split's
    corrections applied: the same array where none applies."""
    if split != "valid":
        return classes
    fixed = valid_label_corrections().get(stem)
    if fixed is not None:
        if len(fixed) != len(classes):
            raise ValueError(f"{CORRECTIONS.name}: {stem!r} lists {len(fixed)} faces for {len(classes)} label lines")
        classes = np.array(fixed, np.int32)
    slips = valid_label_slips().get(stem)
    if slips:
        if max(slips) >= len(classes):
            raise ValueError(f"{CORRECTIONS.name}: {stem!r} corrects label line {max(slips)} of {len(classes)}")
        classes = np.array(classes, np.int32)  # a copy: the caller's array stays as labelled
        for line, face in slips.items():
            classes[line] = face
    return classes


def iter_split(split: str, root: Path | None = None):
    root = root or hk_root()
    check_names(root)
    for img in sorted((root / split / "images").iterdir()):
        h, w = cv2.imread(str(img), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape[:2]
        boxes, cls = read_labels(split, img.stem, w * 8, h * 8, root)
        yield img, boxes, cls


def write_localizer_dataset(out: Path, root: Path | None = None, holdout_every: int = 10) -> Path:
    """Ultralytics dataset from hk-photos **train** only: every ``holdout_every``-th photo (sorted by name) becomes
    the val split used to pick checkpoints; the rest is trained on. hk-photos valid stays out of training and out of
    checkpoint selection, because it is the measurement set."""
    root = root or hk_root()
    for name in ("train", "val"):
        shutil.rmtree(out / "images" / name, ignore_errors=True)
        shutil.rmtree(out / "labels" / name, ignore_errors=True)
        (out / "images" / name).mkdir(parents=True, exist_ok=True)
        (out / "labels" / name).mkdir(parents=True, exist_ok=True)
    for i, (img, boxes, cls) in enumerate(iter_split("train", root)):
        name = "val" if holdout_every and i % holdout_every == 0 else "train"
        (out / "images" / name / img.name).symlink_to(img)
        w = h = 640
        lines = []
        for b, c in zip(boxes, cls):
            cx, cy = (b[0] + b[2]) / 2 / w, (b[1] + b[3]) / 2 / h
            bw, bh = (b[2] - b[0]) / w, (b[3] - b[1]) / h
            lines.append(f"{int(c == FACE_DOWN)} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
        (out / "labels" / name / (img.stem + ".txt")).write_text("\n".join(lines) + "\n")
    yaml = out / "data.yaml"
    yaml.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames: ['tile', 'back']\n")
    return yaml


def cut_crop(image: np.ndarray, box, rng: np.random.Generator | None = None, margin: float = 0.08,
             size: int = CROP) -> np.ndarray:
    """Square ``size`` crop of ``box`` (xyxy) with a relative margin (jittered when ``rng`` is given); a landscape
    box is turned 90 degrees counter-clockwise first, as at inference (see vision.recognize.crop_tiles)."""
    x1, y1, x2, y2 = [float(v) for v in box]
    bw, bh = x2 - x1, y2 - y1
    if rng is not None:
        jit = rng.uniform(-0.06, 0.06, 4) * [bw, bh, bw, bh]
        m = rng.uniform(0.0, 2 * margin)
    else:
        jit, m = np.zeros(4), margin
    x1, y1, x2, y2 = x1 - m * bw + jit[0], y1 - m * bh + jit[1], x2 + m * bw + jit[2], y2 + m * bh + jit[3]
    landscape = (x2 - x1) > (y2 - y1)
    src = np.float32([[x1, y1], [x2, y1], [x2, y2]])
    if landscape:  # output top-left <- box top-right, i.e. rotate the tile 90 degrees counter-clockwise
        src = np.float32([[x2, y1], [x2, y2], [x1, y2]])
    dst = np.float32([[0, 0], [size, 0], [size, size]])
    M = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(image, M, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def export_crops(split: str, out: Path, copies: int = 1, seed: int = 0, holdout_every: int = 0,
                 holdout: bool = False) -> int:
    """Crops of every labelled tile of ``split``. With ``holdout_every`` N, every N-th photo (sorted by name, the
    localiser's rule) is left out -- or, with ``holdout``, only those photos are cut: a real split that no model
    trains on, for choosing between training runs without touching hk-photos valid."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for i, (img, boxes, cls) in enumerate(iter_split(split)):
        if holdout_every and (i % holdout_every == 0) != holdout:
            continue
        image = cv2.imread(str(img))
        for b, c in zip(boxes, cls):
            if (b[2] - b[0]) < 6 or (b[3] - b[1]) < 6:
                continue
            for k in range(copies):
                xs.append(cut_crop(image, b, rng if k else None))
                ys.append(c)
    out.parent.mkdir(parents=True, exist_ok=True)
    # orientation: -1 = unknown (hk-photos train is flipped / rotated by its exporter)
    np.savez_compressed(out, x=np.stack(xs), y=np.array(ys, np.int16), orient=np.full(len(ys), -1, np.int8))
    return len(ys)


def model_box_crops(split: str, models: Path | None = None, min_iou: float = 0.5,
                    limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Crops cut where the committed localiser puts its boxes, exactly as the recogniser cuts them
    (``vision.train.model_crops.matched_box_crops``), each labelled with the class of the labelled tile it overlaps with
    IoU >= ``min_iou`` (boxes on nothing are skipped): the real photos' framing, which the jittered true-box crops
    of :func:`export_crops` only imitate (session 21: two classifiers that named the valid photos' true boxes alike
    differed on the localiser's). Returns (crops (N, 80, 80, 3) uint8 BGR, class ids (N,)) from the first ``limit``
    photos (all by default)."""
    from vision.recognize import Recognizer
    from vision.train.model_crops import matched_box_crops

    recognizer = Recognizer.load(models)
    xs, ys = [], []
    for index, (img, labels, cls) in enumerate(iter_split(split)):
        if limit is not None and index >= limit:
            break
        for crop, j, _ in matched_box_crops(recognizer, cv2.imread(str(img)), labels, min_iou):
            xs.append(crop)
            ys.append(cls[j])
    return (np.stack(xs) if xs else np.zeros((0, CROP, CROP, 3), np.uint8)), np.array(ys, np.int16)


def export_model_box_crops(split: str, out: Path, models: Path | None = None) -> int:
    """:func:`model_box_crops` of a whole split written as the classifier's crop file (orientation unknown: -1)."""
    crops, classes = model_box_crops(split, models)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, x=crops, y=classes, orient=np.full(len(classes), -1, np.int8))
    return len(classes)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="hk-photos importer")
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("localizer")
    a.add_argument("--out", default="out/datasets/loc")
    a.add_argument("--holdout-every", type=int, default=10)
    b = sub.add_parser("crops")
    b.add_argument("--split", default="train")
    b.add_argument("--out", default="out/crops/hk_train.npz")
    b.add_argument("--copies", type=int, default=2)
    b.add_argument("--holdout-every", type=int, default=0,
                   help="leave out every N-th photo (the localiser's checkpoint-selection photos)")
    b.add_argument("--holdout", action="store_true", help="cut only the left-out photos")
    b.add_argument("--model-boxes", action="store_true",
                   help="cut the committed localiser's boxes that overlap a labelled tile (export_model_box_crops)")
    args = ap.parse_args(argv)
    if args.cmd == "localizer":
        print(write_localizer_dataset(Path(args.out), holdout_every=args.holdout_every))
    elif args.model_boxes:
        n = export_model_box_crops(args.split, Path(args.out))
    else:
        n = export_crops(args.split, Path(args.out), args.copies, holdout_every=args.holdout_every,
                         holdout=args.holdout)
        print(n, "crops ->", args.out)


if __name__ == "__main__":
    main()
