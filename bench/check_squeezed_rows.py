"""Development check of the squeezed-picture pass (vision.squeeze) on single rows of real tiles.

Each row of labelled tiles (tiles whose vertical extents overlap a seed tile's by half, at least 5 of them, the row
at least 3:1) of the localiser's held-out real photos is cut tightly and forced into 640x640, as hk-photos' exporter
forced wide shots; the labelled tiles inside count. Prints, per localiser, the tiles found (a box with IoU >= 0.5)
through ``vision.squeeze.localize_unsqueezed`` with the recogniser's thresholds, and the stretch factors kept.

    .venv/bin/python bench/check_squeezed_rows.py models/localizer.onnx:models/localizer_squeezed.onnx \\
        out/models/other.onnx --split out/datasets/loc_sq12

An argument ``MAIN:SQUEEZED`` reads pictures past the anisotropy gate with SQUEEZED, the others with MAIN (as the
recogniser does when ``models/localizer_squeezed.onnx`` is present). The split is the one ``vision.train.localizer``
writes (its ``images/val`` real photos, not the ``synth_`` or ``sq`` copies).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import squeeze  # noqa: E402
from vision.metrics import read_yolo_labels  # noqa: E402
from vision.onnx_models import Localizer  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.train.tune_localizer import box_counts  # noqa: E402


def row_strips(split: Path, side: int = 640) -> list[tuple[np.ndarray, np.ndarray]]:
    """(strip (side, side, 3) BGR, labelled boxes (N, 4) xyxy in strip pixels) for every long row of every photo."""
    photos = sorted(p for p in (split / "images" / "val").glob("*.jpg") if not p.name.startswith(("synth_", "sq")))
    cases = []
    for path in photos:
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        boxes, _ = read_yolo_labels(split / "labels" / "val" / (path.stem + ".txt"), w, h)
        left = list(range(len(boxes)))
        while left:
            y0, y1 = boxes[left[0], 1], boxes[left[0], 3]
            row = [i for i in left
                   if min(y1, boxes[i, 3]) - max(y0, boxes[i, 1]) > 0.5 * min(y1 - y0, boxes[i, 3] - boxes[i, 1])]
            left = [i for i in left if i not in row]
            if len(row) < 5:
                continue
            g = boxes[row]
            x0, top = np.maximum(g[:, :2].min(0) - 3, 0)
            x1, bottom = np.minimum(g[:, 2:].max(0) + 3, [w, h])
            crop = image[int(top):int(bottom), int(x0):int(x1)]
            ch, cw = crop.shape[:2]
            if max(ch, cw) / min(ch, cw) < 3:
                continue
            inside = ((boxes[:, 0] >= x0 - 1) & (boxes[:, 2] <= x1 + 1)
                      & (boxes[:, 1] >= top - 1) & (boxes[:, 3] <= bottom + 1))
            scale = np.float32([side / cw, side / ch, side / cw, side / ch])
            cases.append((cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA),
                          (boxes[inside] - np.float32([x0, top, x0, top])) * scale))
    return cases


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("localizers", nargs="+", help="LOCALIZER.onnx or MAIN.onnx:SQUEEZED.onnx")
    ap.add_argument("--split", type=Path, default=Path("out/datasets/loc_sq12"))
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    cases = row_strips(args.split)
    print(f"{len(cases)} row strips, {sum(len(g) for _, g in cases)} labelled tiles")
    defaults = Recognizer.__init__.__kwdefaults__  # the recogniser's own thresholds
    for name in args.localizers:
        main_path, _, squeezed_path = name.partition(":")
        models = [Localizer(Path(p), args.threads) for p in (main_path, squeezed_path) if p]
        runs = [lambda im, m=m: m(im, defaults["conf"], defaults["iou"], contain=defaults["contain"]) for m in models]
        found = np.zeros(3, int)
        factors = []
        for strip, truth in cases:
            boxes, _, _, _, factor = squeeze.localize_unsqueezed(runs[0], strip, runs[1] if len(runs) > 1 else None)
            found += np.asarray(box_counts(boxes, truth), int)
            factors.append(factor)
        kept = dict(zip(*np.unique(factors, return_counts=True)))
        print(f"{name}: tiles found {found[0]} of {found[2]}, boxes {found[1]}, factors kept "
              + ", ".join(f"{int(k)}: {int(v)}" for k, v in kept.items()))


if __name__ == "__main__":
    main()
