"""Classifier training crops cut where the committed localiser puts its boxes, from synthetic scenes.

``python -m vision.synth crops`` cuts each tile at its true box with a random margin. At inference the classifier
sees the localiser's boxes instead, shifted, cut short or grown by a tile's side, and cut by
``vision.onnx_models.crop_tiles``; on development scenes at 640 x 480 the same tiles were named right 93.4 % of the
time from their true boxes and 92.3 % from the localiser's (session 9). These crops teach that framing: each box the
recogniser keeps (its own post-processing, squeezed-picture pass included) that overlaps a labelled tile with IoU >=
``--min-iou`` is cut exactly as the recogniser cuts it and labelled with that tile's class and the face's turn in the
crop. A duplicate box on a tile gets the tile's label too (it shows that tile); boxes on nothing are skipped.

    .venv/bin/python -m vision.synth generate --n 400 --seed 31 --width 640 --height 480 --out out/synth/scenes_s31_640
    .venv/bin/python -m vision.train.model_crops out/synth/scenes_s31_640 --out out/synth/mcrops_s31_640

The output is the layout of ``python -m vision.synth crops`` (DIR/<class>/*.jpg and DIR/crops.csv), so that
``vision.train.classifier --synth-crops DIR`` reads it: crops whose face lies turned a quarter inside the box (a
sideways tile with a nearly square box) are turned back to upright, as that loader knows 0 and 180 only; the
classifier's training turns a share of every kind of crop a quarter anyway.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import cv2
import numpy as np

from ..classes import CLASS_NAMES, FACE_DOWN
from ..detections import box_iou
from ..onnx_models import crop_tiles
from ..recognize import Recognizer

# np.rot90 turns counter-clockwise: k quarter turns undo a face turned k * 90 degrees clockwise in the crop.
_UNDO_TURN = {0: 0, 90: 1, 180: 0, 270: 3}


def matched_box_crops(recognizer: Recognizer, image: np.ndarray, truth_boxes: np.ndarray, min_iou: float = 0.5):
    """Yield (crop (S, S, 3) uint8 BGR, index of the labelled box, whether the crop was turned from a landscape box)
    for each box the recogniser keeps on ``image`` (its own post-processing, squeezed-picture pass included) that
    overlaps one of ``truth_boxes`` (M, 4) with IoU >= ``min_iou``, cut exactly as the recogniser cuts it."""
    boxes, landscape, _ = recognizer.find_boxes(image)
    truth_boxes = np.asarray(truth_boxes, np.float32).reshape(-1, 4)
    if len(boxes) == 0 or len(truth_boxes) == 0:
        return
    iou = box_iou(boxes, truth_boxes)
    crops, landscape = crop_tiles(image, boxes, recognizer.classifier.size, landscape=landscape)
    for i in range(len(boxes)):
        j = int(iou[i].argmax())
        if iou[i, j] >= min_iou:
            yield np.ascontiguousarray(crops[i].transpose(1, 2, 0)).clip(0, 255).astype(np.uint8), j, bool(landscape[i])


def scene_crops(recognizer: Recognizer, image: np.ndarray, scene: dict, min_iou: float = 0.5):
    """Yield (crop (S, S, 3) uint8 BGR, class name, turn of the face in the crop after undoing a quarter turn (0 or
    180), the truth tile) for each box the recogniser keeps on ``image`` that matches a tile of ``scene``."""
    tiles = scene["tiles"]
    truth = np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4)
    for crop, j, landscape in matched_box_crops(recognizer, image, truth, min_iou):
        tile = tiles[j]
        # The crop of a landscape box was turned 90 degrees counter-clockwise (crop_tiles): a face turned r degrees
        # clockwise in the photo lies turned r - 90 degrees in it.
        turn = 0 if tile["face_down"] else (int(tile["rotation"]) - (90 if landscape else 0)) % 360
        crop = np.ascontiguousarray(np.rot90(crop, _UNDO_TURN[turn]))
        name = CLASS_NAMES[FACE_DOWN] if tile["face_down"] else tile["code"]
        yield crop, name, 180 if turn == 180 else 0, tile


def write_model_crops(scenes_dir: Path, out: Path, recognizer: Recognizer, min_iou: float = 0.5,
                      limit: int | None = None) -> int:
    from tqdm import tqdm

    for name in CLASS_NAMES:
        (out / name).mkdir(parents=True, exist_ok=True)
    lines = (scenes_dir / "scenes.jsonl").read_text().splitlines()[:limit]
    count = 0
    with open(out / "crops.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "class", "rotation_before_normalisation", "rotation_after", "role", "style"])
        for index, line in enumerate(tqdm(lines, desc="scenes", unit="scene")):
            scene = json.loads(line)
            image = cv2.imread(str(scenes_dir / scene["image"]))
            if image is None:
                continue
            for k, (crop, name, after, tile) in enumerate(scene_crops(recognizer, image, scene, min_iou)):
                rel = f"{name}/{index:06d}_{k:02d}.jpg"
                ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
                if not ok:
                    continue
                (out / rel).write_bytes(data.tobytes())
                writer.writerow([rel, name, tile["rotation"], after, tile["role"], scene.get("style", "")])
                count += 1
    return count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", type=Path, help="a `python -m vision.synth generate` folder (scenes.jsonl)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--models", type=Path, default=None, help="the recogniser's models (default: models/)")
    parser.add_argument("--min-iou", type=float, default=0.5)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    recognizer = Recognizer.load(args.models, threads=args.threads)
    count = write_model_crops(args.scenes, args.out, recognizer, args.min_iou, args.limit)
    print(f"wrote {count} crops to {args.out}")


if __name__ == "__main__":
    main()
