"""Importer for ``shared/data/tile-crops`` (justinchan114/Mahjong_Tile_Classifier, MIT): ~700 upright real crops.

    python -m datasets.tile_crops --out out/crops/tile_crops.npz
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASS_NAMES

from .hk_photos import CROP, cut_crop, hk_root

_SUIT = {"dots": "p", "bamboo": "s", "characters": "m", "dot": "p"}
_HONOUR = {"east": "1z", "south": "2z", "west": "3z", "north": "4z", "white": "5z", "green": "6z", "red": "7z"}
_BONUS = {"plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
          "spring": "5f", "summer": "6f", "autumn": "7f", "winter": "8f"}


def label_to_code(name: str) -> str:
    kind, value = name.split("-", 1)
    if kind in _SUIT:
        return value + _SUIT[kind]
    if kind == "honors":
        return _HONOUR[value]
    if kind == "bonus":
        return _BONUS[value]
    raise ValueError(f"unknown tile-crops label {name!r}")


def listed_images(root: Path) -> list[tuple[Path, str]]:
    """(image file, label name) for every row of ``root/data.csv``. The list names each image ``N.jpg`` while 66 of
    the files are stored as ``N.JPG``, so files are matched without regard to case (read as listed, those 66 were
    silently skipped until session 26); an image the list names but the folder lacks is an error, not a skip."""
    files = {p.name.lower(): p for p in (root / "images").iterdir()}
    out = []
    with open(root / "data.csv", newline="") as f:
        for row in csv.DictReader(f):
            path = files.get(row["image-name"].lower())
            if path is None:
                raise FileNotFoundError(f"tile-crops lists {row['image-name']!r}, which {root / 'images'} lacks")
            out.append((path, row["label-name"]))
    return out


def export(out: Path, root: Path | None = None) -> int:
    root = root if root is not None else hk_root().parent / "tile-crops"
    xs, ys = [], []
    for path, label in listed_images(root):
        img = cv2.imread(str(path))
        if img is None:
            raise ValueError(f"tile-crops image {str(path)!r} cannot be decoded")
        h, w = img.shape[:2]
        xs.append(cut_crop(img, (0, 0, w, h), margin=0.0, size=CROP))
        ys.append(CLASS_NAMES.index(label_to_code(label)))
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, x=np.stack(xs), y=np.array(ys, np.int16), orient=np.zeros(len(ys), np.int8))
    return len(ys)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out/crops/tile_crops.npz")
    print(export(Path(ap.parse_args().out)), "crops")
