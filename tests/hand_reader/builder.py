"""Hand-made detection sets: tiles placed by hand on a table plane, photographed by a plain transform.

A layout is written as rows of tokens, read left to right from the winner's seat:

* ``"3m"`` an upright tile; ``"s3m"`` a tile turned sideways (claimed); ``"d"`` a face-down tile (``"d5p"`` when the
  test wants to remember which face is hidden); ``"t3m"`` a tile laid *across* the row, beside the sideways tile
  just before it (further from the winner); ``"o3m"`` a tile laid *on* that sideways tile;
* ``"|"`` a gap of ``gap`` tile widths, ``"||"`` a wide one (1.5 x gap).

Tiles touch (0.02 tile widths apart) unless a gap token separates them. The photo is the plane turned by
``turn + tilt`` degrees clockwise, with an optional foreshortening, and every box may be jittered.
"""

from __future__ import annotations

import numpy as np

from vision.classes import FACE_CODES, FACE_DOWN
from vision.detections import Detections

W, H = 60.0, 81.0  # tile face, pixels, before the photo's transform


class Table:
    def __init__(self, gap: float = 0.6):
        self.gap = gap
        self.tiles: list[dict] = []  # cx, cy, width, height, turn, face, token

    def row(self, tokens: str, x: float = 0.0, bottom: float = 0.0) -> "Table":
        """Place ``tokens`` (space separated) from ``x`` (tile widths) on the row line ``bottom`` (tile heights)."""
        x *= W
        bottom *= H
        last_sideways = None
        for token in tokens.split():
            if token == "|":
                x += self.gap * W
                continue
            if token == "||":
                x += 1.5 * self.gap * W
                continue
            kind, code = (token[0], token[1:]) if token[0] in "sdto" else ("u", token)
            face = FACE_DOWN if kind == "d" else FACE_CODES.index(code)
            if kind == "s":
                tile = dict(cx=x + H / 2, cy=bottom - W / 2, width=H, height=W, turn=90, face=face, token=token)
                last_sideways = tile
                x += H + 0.02 * W
            elif kind in "to":
                base = last_sideways
                shift = W + 1.0 if kind == "t" else 6.0  # beside: one width further; on: a small parallax
                tile = dict(cx=base["cx"] + (2.0 if kind == "o" else 0.0), cy=base["cy"] - shift, width=H, height=W,
                            turn=90, face=face, token=token)
            else:
                tile = dict(cx=x + W / 2, cy=bottom - H / 2, width=W, height=H, turn=0, face=face, token=token)
                x += W + 0.02 * W
            self.tiles.append(tile)
        return self

    def tile(self, code: str, x: float, y: float, turn: int = 0) -> "Table":
        """One loose tile at (x, y) tile widths / heights, turned ``turn`` degrees."""
        sideways = turn % 180 == 90
        self.tiles.append(dict(cx=x * W, cy=y * H, width=H if sideways else W, height=W if sideways else H,
                               turn=turn, face=FACE_DOWN if code == "d" else FACE_CODES.index(code), token=code))
        return self

    def photo(self, turn: int = 0, tilt: float = 0.0, perspective: float = 0.0, jitter: float = 0.0,
              seed: int = 0, misread: dict[int, list[tuple[str, float]]] | None = None,
              shuffle: bool = True) -> tuple[Detections, tuple[int, int], list[int]]:
        """(detections, image size, order): ``order[k]`` is the table tile shown as detection k.

        ``misread`` maps a table tile index to its top-k list ``[(code, p), ...]`` (top-1 first).
        """
        rng = np.random.default_rng(seed)
        angle = np.deg2rad(turn + tilt)
        c, s = np.cos(angle), np.sin(angle)
        centres = np.array([[t["cx"], t["cy"]] for t in self.tiles])
        centre = centres.mean(axis=0)
        span = float(np.ptp(centres, axis=0).max()) + H
        boxes, rotations = [], []
        for t in self.tiles:
            dx, dy = t["width"] / 2, t["height"] / 2
            corners = np.array([[-dx, -dy], [dx, -dy], [dx, dy], [-dx, dy]]) + [t["cx"], t["cy"]] - centre
            corners = corners / (1.0 + perspective * corners[:, 1:2] / span)  # far rows (small y) come out larger
            turned = np.stack([corners[:, 0] * c - corners[:, 1] * s, corners[:, 0] * s + corners[:, 1] * c], axis=1)
            box = np.concatenate([turned.min(axis=0), turned.max(axis=0)]) + rng.uniform(-jitter, jitter, 4) * W
            boxes.append(box)
            rotations.append(int(round((t["turn"] + turn + tilt) / 90.0)) % 4 * 90)
        boxes = np.array(boxes)
        boxes -= np.concatenate([boxes[:, :2].min(axis=0), boxes[:, :2].min(axis=0)]) - 2 * W
        size = (int(boxes[:, 2].max() + 2 * W), int(boxes[:, 3].max() + 2 * W))
        n = len(self.tiles)
        ids = np.zeros((n, 3), np.int32)
        probs = np.zeros((n, 3), np.float32)
        for i, t in enumerate(self.tiles):
            if misread and i in misread:
                listed = [(FACE_DOWN if code is None else FACE_CODES.index(code), p) for code, p in misread[i]]
            else:
                # the true face first; then two fixed, unlikely classes (never the true one)
                others = [k for k in (41, 40, 39) if k != t["face"]][:2]
                listed = [(t["face"], 0.96), (others[0], 0.02), (others[1], 0.01)]
            listed = (listed + [(41, 0.0)] * 3)[:3]
            ids[i] = [k for k, _ in listed]
            probs[i] = [p for _, p in listed]
        order = rng.permutation(n) if shuffle else np.arange(n)
        detections = Detections(boxes[order], ids[order, 0], probs[order, 0], np.array(rotations)[order],
                                ids[order], probs[order])
        return detections, size, [int(k) for k in order]


def detection_of(order: list[int], table_index: int) -> int:
    """The detection index that shows table tile ``table_index``."""
    return order.index(table_index)


def recorded(tiles, quarter: int = 0, size: tuple[int, int] = (640, 480)) -> tuple[Detections, tuple[int, int]]:
    """Detections recorded from a photo, as ``(box, rotation, top-k, lift, sideways probability)`` per tile (box in
    pixels of a ``size`` photo; top-k as ``(code, p)``, ``"back"`` for a face-down tile; None for an unknown lift or
    sideways probability), the photo turned ``quarter`` quarter turns clockwise."""
    boxes = np.array([t[0] for t in tiles], np.float64)
    width, height = size
    for _ in range(quarter):  # (x, y) -> (height - y, x)
        boxes = np.stack([height - boxes[:, 3], boxes[:, 0], height - boxes[:, 1], boxes[:, 2]], axis=1)
        width, height = height, width
    ids = np.array([[FACE_DOWN if code == "back" else FACE_CODES.index(code) for code, _ in t[2]] for t in tiles])
    probs = np.array([[p for _, p in t[2]] for t in tiles], np.float32)
    rotation = (np.array([t[1] for t in tiles]) + 90 * quarter) % 360
    lifted = np.array([np.nan if t[3] is None else t[3] for t in tiles], np.float32)
    sideways = np.array([np.nan if t[4] is None else t[4] for t in tiles], np.float32)
    return Detections(boxes.astype(np.float32), ids[:, 0], probs[:, 0], rotation, ids, probs, lifted,
                      sideways), (width, height)
