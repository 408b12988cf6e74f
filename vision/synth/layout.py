"""Where each tile lies on the table: the hand laid out the way players do, plus clutter.

World frame (units of one tile width): X to the winner's right, Y away from the winner toward the table centre, Z up;
the table top is Z = 0. A tile is a box of ``Placement.size`` (width 1; height and thickness vary from set to set)
with local axes ``right`` (face x), ``up`` (face top) and ``normal`` (out of the face), the columns of
``Placement.axes``.

Conventions drawn here (from table practice, riichi and Chinese alike):

* concealed tiles in a row, standing (face toward the winner) or laid flat face up, then the winning tile a little
  apart at the right end;
* each exposed meld laid flat face up; the claimed tile turned sideways at the left end (from left), in the middle
  (from across) or at the right end (from right); a chow's claimed tile is sideways at the left;
* an added kong's fourth tile lies sideways on top of the sideways tile, or beside it (further from the winner);
* a concealed kong shows four backs (common in MCR) or two backs at the ends and two faces inside (Japanese habit);
* flowers in their own group; clutter (discards, a wall edge, loose tiles) outside the hand's area.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.hand import Discarder, Hand, MeldType, WinContext
from engine.tiles import ALL_FACES, FACE_COUNT, KIND_COUNT

TILE_W, TILE_H, TILE_D = 1.0, 1.35, 0.78  # 26 x 35 x 20 mm, in tile widths

ROLES = ("concealed", "winning", "meld", "flower", "clutter")


@dataclass(eq=False)  # compared by identity: the arrays inside have no single truth value
class Placement:
    face: str  # the code engraved on the tile (also for a face-down tile, which the image does not show)
    center: np.ndarray  # (3,) world
    axes: np.ndarray  # (3, 3) columns: right, up, normal
    face_down: bool
    role: str
    meld_index: int | None = None
    meld_position: int | None = None
    standing: bool = False
    size: tuple[float, float, float] = (1.0, 1.35, 0.78)  # width, height, thickness: sets differ in proportions

    @property
    def right(self) -> np.ndarray:
        return self.axes[:, 0]

    @property
    def up(self) -> np.ndarray:
        return self.axes[:, 1]

    @property
    def normal(self) -> np.ndarray:
        return self.axes[:, 2]

    def corners(self) -> np.ndarray:
        """(8, 3) box corners: indices 0-3 on the face side (TL, TR, BR, BL of the face), 4-7 behind them."""
        return self.center + (_CORNER_SIGNS * self.size) @ self.axes.T

    def shown_quad_indices(self) -> tuple[int, int, int, int]:
        """Corner indices of the surface the tile shows, in face order TL, TR, BR, BL.

        A face-down tile shows its back, the mirror image of its face: its "top-left" as drawn is the face's top-right
        corner seen through the tile, so the quad keeps the same clockwise winding in the image as a face.
        """
        return (5, 4, 7, 6) if self.face_down else (0, 1, 2, 3)


# Corner offsets in local (right, up, normal) units of the tile's size, in Placement.corners order.
_CORNER_SIGNS = np.array([[-1, 1, 1], [1, 1, 1], [1, -1, 1], [-1, -1, 1],
                          [-1, 1, -1], [1, 1, -1], [1, -1, -1], [-1, -1, -1]], float) / 2


def flat_axes(yaw_deg: float, face_down: bool = False) -> np.ndarray:
    """Axes of a tile lying flat; yaw turns its top counter-clockwise (seen from above) from +Y."""
    a = np.deg2rad(yaw_deg)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    up = np.array([-np.sin(a), np.cos(a), 0.0])
    if face_down:
        return np.stack([-right, up, np.array([0.0, 0.0, -1.0])], axis=1)
    return np.stack([right, up, np.array([0.0, 0.0, 1.0])], axis=1)


def standing_axes(yaw_deg: float = 0.0) -> np.ndarray:
    """A tile standing on its long edge with its face toward the winner (at -Y), turned ``yaw`` about the vertical."""
    a = np.deg2rad(yaw_deg)
    return np.stack([np.array([np.cos(a), np.sin(a), 0]), np.array([0, 0, 1.0]), np.array([np.sin(a), -np.cos(a), 0])],
                    axis=1)


@dataclass
class LayoutKnobs:
    p_standing: float = 0.35
    p_discards: float = 0.5
    p_wall: float = 0.35
    max_loose: int = 4
    p_heap: float = 0.0  # a heap of piled, tilted tiles beside the hand (hk-photos valid's close shots of heaps)


@dataclass
class SceneLayout:
    placements: list[Placement]
    habits: dict = field(default_factory=dict)  # the table habits drawn for this scene (for logs and tests)


def meld_sideways_index(meld_type: MeldType, discarder: Discarder | None, size: int, rng: np.random.Generator) -> int | None:
    """Position (0 = left) of the sideways claimed tile in a row of ``size`` tiles."""
    if discarder is None:
        return None
    if discarder is Discarder.LEFT:
        return 0
    if discarder is Discarder.RIGHT:
        return size - 1
    return 1 if size == 3 else int(rng.integers(1, 3))


def layout_hand(rng: np.random.Generator, hand: Hand, context: WinContext, knobs: LayoutKnobs) -> SceneLayout:
    gap = float(rng.uniform(0.0, 0.06))
    standing = bool(rng.random() < knobs.p_standing)
    sideways_yaw = 90.0 if rng.random() < 0.75 else -90.0
    habits = {
        "standing": standing,
        "sideways_yaw": sideways_yaw,
        "concealed_kong": ("ends_down" if rng.random() < (0.8 if context.rules == "riichi" else 0.3) else "all_down"),
        "added_kong": "on" if rng.random() < 0.5 else "beside",
        "melds_in_front": bool(rng.random() < 0.45),
        "untidiness": float(rng.uniform(0, 1)),  # hands are never laid out perfectly straight
        "tile_size": (TILE_W, float(rng.uniform(1.28, 1.42)), float(rng.uniform(0.62, 0.86))),
    }
    _, H, D = habits["tile_size"]
    placements: list[Placement] = []
    messy = habits["untidiness"]

    def nudge() -> tuple[np.ndarray, float]:
        return np.append(rng.normal(0, 0.012 * messy, 2), 0.0), float(rng.normal(0, 1.2 * messy))

    def put_row_tile(face: str, x: float, role: str, stand: bool) -> None:
        shift, yaw = nudge()
        if stand:
            placements.append(Placement(face, np.array([x + TILE_W / 2, D / 2, H / 2]) + shift,
                                        standing_axes(yaw), False, role, standing=True))
        else:
            placements.append(Placement(face, np.array([x + TILE_W / 2, H / 2, D / 2]) + shift,
                                        flat_axes(yaw), False, role))

    concealed = [str(t) for t in hand.concealed]
    if rng.random() < 0.2:
        concealed = [concealed[i] for i in rng.permutation(len(concealed))]
    x = 0.0
    for code in concealed:
        put_row_tile(code, x, "concealed", standing)
        x += TILE_W + gap
    x += float(rng.uniform(0.25, 0.9))
    winning_stands = standing and rng.random() < 0.7
    put_row_tile(str(hand.winning_tile), x, "winning", winning_stands)
    x += TILE_W
    row_depth = D if winning_stands else H  # a flat winning tile beside a standing row reaches a tile's height

    # Melds: the first claimed meld sits farthest right (it was laid down first at the edge of the player's area).
    if habits["melds_in_front"]:
        mx, my = float(rng.uniform(-1.0, 2.0)), row_depth + float(rng.uniform(0.3, 1.0))
        order = list(range(len(hand.melds)))
    else:
        mx, my = x + float(rng.uniform(0.8, 2.0)), 0.0
        order = list(reversed(range(len(hand.melds))))
    for meld_index in order:
        mx = _lay_meld(rng, placements, hand, meld_index, mx, my, gap, habits, nudge) + float(rng.uniform(0.3, 0.8))

    for p in placements:  # the set's proportions, before the flowers measure how far the tiles laid so far reach
        p.size = habits["tile_size"]
    if hand.flowers:
        if rng.random() < 0.5:  # left of the concealed row
            fx = -float(rng.uniform(0.8, 2.0)) - len(hand.flowers) * (TILE_W + gap)
            fy = 0.0
        else:  # a row in front of everything
            fx = float(rng.uniform(-1.0, 3.0))
            # beyond everything laid so far: with the melds beside the row, a flat meld or an added kong's tile laid
            # beside reaches further than a standing row
            far = footprint_bounds(placements)[3] if not habits["melds_in_front"] else my + 2 * TILE_W
            fy = float(far) + float(rng.uniform(0.4, 1.2))
        for position, flower in enumerate(hand.flowers):
            placements.append(Placement(str(flower), np.array([fx + TILE_W / 2, fy + H / 2, D / 2]),
                                        flat_axes(0), False, "flower", meld_position=None, size=habits["tile_size"]))
            fx += TILE_W + gap
    return SceneLayout(placements, habits)


def _lay_meld(rng, placements: list[Placement], hand: Hand, meld_index: int, x: float, y0: float, gap: float,
              habits: dict, nudge) -> float:
    """Lay one meld with its left end at ``x``, bottom edge at ``y0``; return the right end."""
    _, H, D = habits["tile_size"]
    meld = hand.melds[meld_index]
    tiles = [str(t) for t in meld.tiles]
    if meld.type is MeldType.CHOW and meld.claimed is not None:
        claimed = str(meld.claimed)
        tiles.remove(claimed)
        tiles = [claimed] + tiles
    in_row = 3 if meld.type is MeldType.ADDED_KONG else len(tiles)
    side_at = meld_sideways_index(meld.type, meld.discarder, in_row, rng)
    yaw = habits["sideways_yaw"]
    for position in range(in_row):
        down = meld.type is MeldType.CONCEALED_KONG and (
            habits["concealed_kong"] == "all_down" or position in (0, 3))
        if position == side_at:
            shift, turn = nudge()
            center = np.array([x + H / 2, y0 + TILE_W / 2, D / 2]) + shift
            placements.append(Placement(tiles[position], center, flat_axes(yaw + turn), False, "meld", meld_index, position))
            if meld.type is MeldType.ADDED_KONG:
                if habits["added_kong"] == "on":
                    extra = center + np.array([0.0, 0.0, D])
                else:
                    extra = center + np.array([0.0, TILE_W + 0.02, 0.0])
                placements.append(Placement(tiles[3], extra, flat_axes(yaw + turn), False, "meld", meld_index, 3))
            x += H + gap
        else:
            shift, turn = nudge()
            center = np.array([x + TILE_W / 2, y0 + H / 2, D / 2]) + shift
            placements.append(Placement(tiles[position], center, flat_axes(turn, down), down, "meld", meld_index, position))
            x += TILE_W + gap
    return x


def footprint_bounds(placements: list[Placement]) -> np.ndarray:
    """[xmin, ymin, xmax, ymax] of the placements' corners on the table."""
    pts = np.concatenate([p.corners()[:, :2] for p in placements])
    return np.concatenate([pts.min(0), pts.max(0)])


def add_clutter(rng: np.random.Generator, layout: SceneLayout, hand: Hand, knobs: LayoutKnobs, flowers_ok: bool) -> None:
    """Discards, a wall edge and loose tiles around the hand, drawn from the copies the hand leaves."""
    left = [4] * KIND_COUNT + ([1] * (FACE_COUNT - KIND_COUNT) if flowers_ok else [0] * (FACE_COUNT - KIND_COUNT))
    for t in hand.all_tiles():
        left[t.index] -= 1
    for t in hand.flowers:
        left[t.index] -= 1

    def draw_face() -> str | None:
        pool = np.array(left, float)
        if pool.sum() <= 0:
            return None
        i = int(rng.choice(FACE_COUNT, p=pool / pool.sum()))
        left[i] -= 1
        return str(ALL_FACES[i])

    bounds = footprint_bounds(layout.placements)
    xmin, ymin, xmax, ymax = bounds
    out = layout.placements
    first_clutter = len(out)
    _, H, D = layout.habits.get("tile_size", (TILE_W, TILE_H, TILE_D))
    if rng.random() < knobs.p_discards:  # other players' discards: a block of rows of six, any way round
        n = int(rng.integers(3, 19))
        yaw = float(rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.normal(0, 3))
        a = np.deg2rad(yaw)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        local = np.array([[k % 6 * (TILE_W + 0.05), k // 6 * (H + 0.05)] for k in range(n)])
        xy = (local + rng.normal(0, 0.04, local.shape)) @ rot.T
        # Put the block beyond the hand (toward the table centre), wherever its rotation made it extend.
        xy += np.array([rng.uniform(xmin - 2, xmax - 4), ymax + rng.uniform(1.0, 2.5)]) - xy.min(0)
        for k in range(n):
            face = draw_face()
            if face is None:
                break
            out.append(Placement(face, np.array([xy[k, 0], xy[k, 1], D / 2]), flat_axes(yaw + rng.normal(0, 2)),
                                 False, "clutter"))
    if rng.random() < knobs.p_wall:  # an edge of the wall: stacks of two face-down tiles
        n = int(rng.integers(4, 15))
        along_x = rng.random() < 0.6
        if along_x:
            start = np.array([rng.uniform(xmin - 3, max(xmin - 2, xmax - n)), ymax + rng.uniform(6.0, 9.0)])
            step, yaw = np.array([TILE_W + 0.03, 0.0]), 0.0
        else:
            side = xmin - rng.uniform(2.0, 4.0) if rng.random() < 0.5 else xmax + rng.uniform(2.0, 4.0)
            start = np.array([side, rng.uniform(ymin - 3, ymax)])
            step, yaw = np.array([0.0, TILE_W + 0.03]), 90.0
        for k in range(n):
            xy = start + k * step
            for level in range(2):
                face = draw_face()
                if face is None:
                    break
                out.append(Placement(face, np.array([xy[0], xy[1], D / 2 + level * D]),
                                     flat_axes(yaw, face_down=True), True, "clutter"))
    for _ in range(int(rng.integers(0, knobs.max_loose + 1))):  # loose tiles at any angle
        face = draw_face()
        if face is None:
            break
        for _try in range(10):
            xy = np.array([rng.uniform(xmin - 6, xmax + 6), rng.uniform(ymin - 4, ymax + 6)])
            if not (xmin - 1.2 < xy[0] < xmax + 1.2 and ymin - 1.2 < xy[1] < ymax + 1.2):
                break
        else:
            continue
        down = bool(rng.random() < 0.3)
        out.append(Placement(face, np.array([xy[0], xy[1], D / 2]), flat_axes(rng.uniform(0, 360), down), down,
                             "clutter"))
    # Drawn only when asked for, so that scenes without heaps (every seed rendered before) stay the same.
    if knobs.p_heap > 0 and rng.random() < knobs.p_heap:
        _add_heap(rng, out, draw_face, bounds, D)
    for p in out[first_clutter:]:
        p.size = layout.habits.get("tile_size", p.size)
    _drop_overlaps(out)


HEAP_TILT = (5.0, 18.0)  # degrees: how far the heap's upper tiles lean


def tilted_axes(yaw_deg: float, tilt_deg: float, tilt_dir_deg: float, face_down: bool = False) -> np.ndarray:
    """``flat_axes`` turned ``tilt`` degrees about the horizontal axis at ``tilt_dir`` degrees (a tile leaning on
    another)."""
    d = np.deg2rad(tilt_dir_deg)
    k = np.array([np.cos(d), np.sin(d), 0.0])
    t = np.deg2rad(tilt_deg)
    cross = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    turn = np.eye(3) + np.sin(t) * cross + (1 - np.cos(t)) * cross @ cross  # Rodrigues
    return turn @ flat_axes(yaw_deg, face_down)


def _add_heap(rng: np.random.Generator, out: list[Placement], draw_face, bounds: np.ndarray, thickness: float) -> None:
    """A heap beside the hand: up to three layers of tiles at any angle, crowded together, each layer above the one
    below by a tile's thickness and more, the upper ones tilted ``HEAP_TILT`` degrees as if leaning on those beneath;
    ``_drop_overlaps`` then removes tiles whose boxes would interpenetrate within a layer."""
    xmin, ymin, xmax, ymax = bounds
    centre = np.array([rng.uniform(xmin + 1, max(xmin + 1, xmax - 1)), ymax + rng.uniform(1.8, 3.0)])
    n = int(rng.integers(10, 23))
    base = thickness / 2
    reach = 0.68 * np.sin(np.deg2rad(HEAP_TILT[1]))  # how far a tilted tile reaches below / above its centre, at most
    for k in range(n):
        face = draw_face()
        if face is None:
            break
        layer = min(2, 3 * k // n)
        down = bool(rng.random() < 0.15)
        xy = centre + rng.normal(0, 1.2 - 0.2 * layer, 2)
        if layer == 0:
            axes = flat_axes(rng.uniform(0, 360), down)
            z = base
        else:
            tilt = rng.uniform(*HEAP_TILT)
            axes = tilted_axes(rng.uniform(0, 360), tilt, rng.uniform(0, 360), down)
            # clear of the layer below (whose tilted tiles reach up to ``reach`` above their centres' plane)
            z = layer * (thickness + 2 * reach + 0.03) + base
        out.append(Placement(face, np.array([xy[0], xy[1], z]), axes, down, "clutter"))


def _drop_overlaps(placements: list[Placement]) -> None:
    """Remove clutter tiles whose bounding box overlaps an earlier kept tile's (they would interpenetrate)."""
    boxes = np.array([np.concatenate([c.min(0), c.max(0)]) for c in (p.corners() for p in placements)])
    kept: list[int] = []
    for i, p in enumerate(placements):
        if p.role == "clutter" and kept:
            k = boxes[kept]
            clash = ((boxes[i, :3] < k[:, 3:] - 0.02) & (k[:, :3] < boxes[i, 3:] - 0.02)).all(axis=1)
            if clash.any():
                continue
        kept.append(i)
    placements[:] = [placements[i] for i in kept]
