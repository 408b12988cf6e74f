"""Dataset writers: YOLO detection and OBB labels, scenes.jsonl, classification crops, and the contact sheet.

Scene ``i`` of a run with seed ``S`` has its own seed :func:`scene_seed` (S, i), stored in its scenes.jsonl line, so
``render_scene(line["seed"], config)`` reproduces that image exactly and runs of any worker count write the same bytes.
"""

from __future__ import annotations

import csv
import json
import multiprocessing as mp
import os
from pathlib import Path
from typing import Callable, Iterable

import cv2
import numpy as np

from vision.classes import CLASS_NAMES

from .config import SynthConfig
from .render import class_id, render_scene_full

ROLE_COLOURS = {"concealed": (80, 220, 80), "winning": (0, 215, 255), "meld": (255, 140, 0), "flower": (230, 60, 230),
                "clutter": (160, 160, 160)}


def scene_seed(seed: int, index: int) -> int:
    return int(np.random.SeedSequence([int(seed), int(index)]).generate_state(1)[0])


def yolo_lines(truth: dict) -> list[str]:
    w, h = truth["width"], truth["height"]
    lines = []
    for t in truth["tiles"]:
        x1, y1, x2, y2 = t["box"]
        lines.append(f"{class_id(t)} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return lines


def obb_lines(truth: dict) -> list[str]:
    """YOLO-OBB: the face (or back) quad, corners clipped to the image (normalised coordinates must lie in 0..1)."""
    w, h = truth["width"], truth["height"]
    lines = []
    for t in truth["tiles"]:
        coords = []
        for x, y in t["quad"]:
            coords += [min(max(x / w, 0.0), 1.0), min(max(y / h, 0.0), 1.0)]
        lines.append(f"{class_id(t)} " + " ".join(f"{v:.6f}" for v in coords))
    return lines


def _init_worker() -> None:
    cv2.setNumThreads(1)  # one process per core; OpenCV's own threads would only fight over the same cores


def preload_styles(config: SynthConfig) -> None:
    """Load the art once in the parent: forked workers then share it instead of each decoding 500+ PNGs."""
    from .art import available_styles, load_style
    for name in config.styles or available_styles(config.art_dir):
        load_style(name, config.art_dir)


def _map(fn: Callable, items: list, workers: int, progress: str | None) -> Iterable:
    """Ordered map over items with a process pool (fork) and a progress bar."""
    from tqdm import tqdm
    bar = tqdm(total=len(items), desc=progress, unit="scene", disable=progress is None, smoothing=0.1)
    if workers <= 1:
        _init_worker()
        for item in items:
            yield fn(item)
            bar.update()
    else:
        with mp.get_context("fork").Pool(workers, initializer=_init_worker) as pool:
            for result in pool.imap(fn, items, chunksize=2):
                yield result
                bar.update()
    bar.close()


class _SceneJob:
    def __init__(self, out: Path, config: SynthConfig, seed: int):
        self.out, self.config, self.seed = out, config, seed

    def __call__(self, index: int) -> str:
        name = f"{index:06d}"
        _image, jpeg, truth, _ids = render_scene_full(scene_seed(self.seed, index), self.config, decode=False)
        (self.out / "images" / f"{name}.jpg").write_bytes(jpeg)
        (self.out / "labels" / f"{name}.txt").write_text("".join(line + "\n" for line in yolo_lines(truth)))
        (self.out / "labels_obb" / f"{name}.txt").write_text("".join(line + "\n" for line in obb_lines(truth)))
        truth["image"] = f"images/{name}.jpg"
        return json.dumps(truth, separators=(",", ":"))


def generate(n: int, seed: int, out: str | Path, config: SynthConfig, workers: int = 2, progress: bool = True) -> Path:
    out = Path(out)
    for sub in ("images", "labels", "labels_obb"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    preload_styles(config)
    job = _SceneJob(out, config, seed)
    with open(out / "scenes.jsonl", "w") as jsonl:
        for line in _map(job, list(range(n)), workers, "scenes" if progress else None):
            jsonl.write(line + "\n")
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES))
    (out / "data.yaml").write_text(f"# written by python -m vision.synth generate --n {n} --seed {seed}\n"
                                   f"path: {out.resolve()}\ntrain: images\nval: images\nnc: {len(CLASS_NAMES)}\n"
                                   f"names:\n{names}\n")
    return out


# ----------------------------------------------------------------------------------------------------------------
# classification crops

_UPRIGHT = {0: None, 90: cv2.ROTATE_90_COUNTERCLOCKWISE, 180: None, 270: cv2.ROTATE_90_CLOCKWISE}


def tile_crops(image: np.ndarray, truth: dict, rng: np.random.Generator, size: int = 96, min_visible: float = 0.8):
    """Yield (crop, class_name, rotation_before, rotation_after, tile) for well-visible tiles.

    The crop is the tile's axis-aligned box plus a random margin (3-15 % a side), turned a quarter so the tile's
    long side is vertical (a tile lying at 90/270 becomes 0; 180 stays 180), then scaled so its long side is ``size``.
    """
    h, w = image.shape[:2]
    for tile in truth["tiles"]:
        if tile["visible"] < min_visible:
            continue
        x1, y1, x2, y2 = tile["box"]
        bw, bh = x2 - x1, y2 - y1
        if min(bw, bh) < 8:
            continue
        mx, my = rng.uniform(0.03, 0.15) * bw, rng.uniform(0.03, 0.15) * bh
        cx1, cy1 = int(max(0, np.floor(x1 - mx))), int(max(0, np.floor(y1 - my)))
        cx2, cy2 = int(min(w, np.ceil(x2 + mx))), int(min(h, np.ceil(y2 + my)))
        crop = image[cy1:cy2, cx1:cx2]
        rotation = tile["rotation"]
        turn = _UPRIGHT[rotation]
        if turn is not None:
            crop = cv2.rotate(crop, turn)
        after = 180 if rotation == 180 else 0
        scale = size / max(crop.shape[:2])
        crop = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                          interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        yield crop, CLASS_NAMES[class_id(tile)], rotation, after, tile


class _CropJob:
    def __init__(self, out: Path, config: SynthConfig, seed: int, size: int):
        self.out, self.config, self.seed, self.size = out, config, seed, size

    def __call__(self, index: int) -> list[list]:
        s = scene_seed(self.seed, index)
        image, _jpeg, truth, _ids = render_scene_full(s, self.config)
        rng = np.random.default_rng(np.random.SeedSequence([s, 0xC409]))
        rows = []
        for k, (crop, name, before, after, tile) in enumerate(tile_crops(image, truth, rng, self.size)):
            rel = f"{name}/{index:06d}_{k:02d}.jpg"
            ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (self.out / rel).write_bytes(data.tobytes())
            rows.append([rel, name, before, after, tile["role"], truth["style"]])
        return rows


def write_crops(n: int, seed: int, out: str | Path, config: SynthConfig, workers: int = 2, size: int = 96,
                progress: bool = True) -> Path:
    out = Path(out)
    for name in CLASS_NAMES:
        (out / name).mkdir(parents=True, exist_ok=True)
    preload_styles(config)
    job = _CropJob(out, config, seed, size)
    with open(out / "crops.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "class", "rotation_before_normalisation", "rotation_after", "role", "style"])
        for rows in _map(job, list(range(n)), workers, "scenes" if progress else None):
            writer.writerows(rows)
    return out


# ----------------------------------------------------------------------------------------------------------------
# contact sheet


def draw_truth(image: np.ndarray, truth: dict) -> np.ndarray:
    """The image with each labelled tile's quad (colour = role), its code and rotation, and the meld index."""
    out = image.copy()
    thick = max(1, round(image.shape[1] / 640))
    for t in truth["tiles"]:
        colour = ROLE_COLOURS[t["role"]]
        quad = np.round(np.array(t["quad"])).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, thick, cv2.LINE_AA)
        cv2.line(out, tuple(quad[0]), tuple(quad[1]), (0, 0, 255), thick + 1, cv2.LINE_AA)  # the face's top edge
        label = (t["code"] or "back") + ("" if t["meld_index"] is None else f" m{t['meld_index']}")
        x, y = quad.mean(0).astype(int)
        cv2.putText(out, label, (int(x) - 14 * thick, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick, (0, 0, 0),
                    thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, (int(x) - 14 * thick, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick, (255, 255, 255),
                    thick, cv2.LINE_AA)
    return out


def _caption(cell: np.ndarray, text: str) -> np.ndarray:
    bar = np.full((22, cell.shape[1], 3), 30, np.uint8)
    cv2.putText(bar, text[:90], (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1, cv2.LINE_AA)
    return np.vstack([bar, cell])


def contact_sheet(seed: int, config: SynthConfig, count: int = 12, columns: int = 4, cell_width: int = 480,
                  real_dir: str | Path | None = None, real_count: int = 4, labelled: bool = True) -> np.ndarray:
    """A grid of rendered scenes (labelled), then a row of real photos with their labels, for comparison."""
    from engine.hand import Hand
    cells = []
    for i in range(count):
        image, _jpeg, truth, _ids = render_scene_full(scene_seed(seed, i), config)
        shown = draw_truth(image, truth) if labelled and i % 2 == 0 else image
        h = round(cell_width * image.shape[0] / image.shape[1])
        cell = cv2.resize(shown, (cell_width, h), interpolation=cv2.INTER_AREA)
        hand = Hand.from_json(truth["hand"]).format()
        cells.append(_caption(cell, f"{truth['style']} {truth['context']['rules']}: {hand}"))
    cell_h = cells[0].shape[0]
    if real_dir is not None:
        real = sorted(Path(real_dir).glob("*.jpg"))
        step = max(1, len(real) // max(real_count, 1))
        for path in real[step // 4::step][:real_count]:
            photo = cv2.imread(str(path))
            label_path = path.parent.parent / "labels" / (path.stem + ".txt")
            if labelled and label_path.is_file():
                photo = _draw_yolo(photo, label_path)
            side = cell_h - 22
            photo = cv2.resize(photo, (side, side), interpolation=cv2.INTER_AREA)
            pad = np.full((side, cell_width, 3), 255, np.uint8)
            pad[:, (cell_width - side) // 2:(cell_width - side) // 2 + side] = photo
            cells.append(_caption(pad, f"REAL hk-photos: {path.name[:40]}"))
    while len(cells) % columns:
        cells.append(np.full_like(cells[0], 255))
    rows = [np.hstack(cells[r:r + columns]) for r in range(0, len(cells), columns)]
    return np.vstack(rows)


def _draw_yolo(photo: np.ndarray, label_path: Path) -> np.ndarray:
    h, w = photo.shape[:2]
    out = photo.copy()
    for line in label_path.read_text().split("\n"):
        parts = line.split()
        if len(parts) == 5:
            _, cx, cy, bw, bh = map(float, parts)
            cv2.rectangle(out, (int((cx - bw / 2) * w), int((cy - bh / 2) * h)), (int((cx + bw / 2) * w), int((cy + bh / 2) * h)),
                          (80, 220, 80), 2)
        elif len(parts) > 5:
            pts = np.array(list(map(float, parts[1:]))).reshape(-1, 2) * [w, h]
            cv2.polylines(out, [pts.astype(np.int32)], True, (80, 220, 80), 2)
    return out


def default_real_dir() -> Path | None:
    env = os.environ.get("MAHJONG_SHARED")
    base = Path(env) if env else Path(__file__).resolve().parents[3] / "shared"
    if not base.is_dir():
        base = Path("/work/shared")
    folder = base / "data" / "hk-photos" / "valid" / "images"
    return folder if folder.is_dir() else None



def dataset_stats(out: str | Path) -> dict:
    """Counts over a generated folder (scenes.jsonl and labels/), checking that the two agree line by line."""
    from collections import Counter
    from engine.hand import Hand
    out = Path(out)
    classes, rotations, roles, melds, styles = Counter(), Counter(), Counter(), Counter(), Counter()
    scenes = 0
    for line in (out / "scenes.jsonl").read_text().splitlines():
        truth = json.loads(line)
        scenes += 1
        Hand.from_json(truth["hand"]).validate()
        labels = (out / "labels" / (Path(truth["image"]).stem + ".txt")).read_text().split("\n")
        labels = [x for x in labels if x]
        if len(labels) != len(truth["tiles"]):
            raise ValueError(f"{truth['image']}: {len(labels)} label lines for {len(truth['tiles'])} tiles")
        for t in truth["tiles"]:
            classes[CLASS_NAMES[class_id(t)]] += 1
            rotations[t["rotation"]] += 1
            roles[t["role"]] += 1
        for m in truth["hand"]["melds"]:
            melds[(m["type"], m.get("from"))] += 1
        styles[truth["style"]] += 1
    return {"scenes": scenes, "tiles": sum(classes.values()), "classes": dict(sorted(classes.items())),
            "rotations": dict(sorted(rotations.items())), "roles": dict(roles),
            "melds": {f"{t}/{f}": n for (t, f), n in sorted(melds.items(), key=str)}, "styles": dict(styles)}
