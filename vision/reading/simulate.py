"""Random legal winning hands laid out as detections, with exact ground truth (tests and the hand-reader bench).

Not an image renderer (that is ``vision.synth``): this draws the *boxes, rotations and top-k probabilities* a
recogniser would report for a photo of a hand laid out by the conventions of mcr.md §4, so that the geometry,
layout and decoding can be measured on their own.

A hand (:func:`random_hand`) is drawn as melds, each legal under the copy limits, plus a concealed part that is
a standard shape (or seven pairs), a winning tile taken from it, and flowers. :func:`lay_out` places the tiles in a
plane the way players show a hand (concealed row sorted, winning tile set apart at its right, melds on the same
row or on the row above, flowers on their own), then turns the plane by a random angle, applies a perspective
foreshortening, and reports each tile's axis-aligned box with jitter, its quarter-turned face rotation, and top-k
probabilities in which the true face is top-1. :func:`corrupt` then makes one tile's top-1 wrong.

Everything is driven by one ``numpy.random.Generator``: the same seed gives the same scenes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from engine.decompose import arrangements
from engine.hand import Discarder, Hand, Meld, MeldType
from engine.tiles import ALL_FACES, KIND_COUNT

from ..classes import FACE_DOWN
from ..detections import Detections, median_short_side

TOP_K = 5
DIRECTIONS = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)


@dataclass(frozen=True)
class Habits:
    """How one player shows the hand; any field left None is drawn at random."""

    melds_on_row_above: bool | None = None  # else melds follow the concealed row, to its right
    winning_set_apart: bool | None = None
    added_kong_stacked: bool | None = None  # else the added tile lies beside the claimed one
    concealed_kong_all_down: bool | None = None  # else two down (ends) and two up (middle)
    kong_across_place: int | None = None  # 1 or 2: the inner place of a kong's sideways tile from across
    flowers_own_row: bool | None = None  # else at the end of the meld row
    quarter_turn: int | None = None  # 0, 90, 180, 270
    max_tilt: float = 12.0  # degrees of random tilt on top of the quarter turn
    perspective: float = 0.25  # strength of the foreshortening (0 = camera straight above)
    clutter: int = 0  # stray tiles far from the hand
    sorted_concealed: bool = True


@dataclass
class Scene:
    """One simulated photo: the detections and the truth for each of them."""

    detections: Detections
    image_size: tuple[int, int]
    hand: Hand
    roles: list[str]  # per detection: concealed / winning / meld / flower / clutter
    meld_index: list[int | None]  # per detection: index into hand.melds
    habits: Habits
    situation: dict = field(default_factory=dict)
    corrupted: int | None = None  # detection index whose top-1 was made wrong
    corrupted_to: int | None = None


# --- hands ---------------------------------------------------------------------------------------------------------

def _take(counts: np.ndarray, kinds: list[int]) -> bool:
    need = np.bincount(kinds, minlength=KIND_COUNT)
    if (counts + need > 4).any():
        return False
    counts += need
    return True


def _random_set(rng: np.random.Generator, counts: np.ndarray, chow_share: float = 0.55) -> list[int] | None:
    for _ in range(50):
        if rng.random() < chow_share:
            suit, low = int(rng.integers(3)), int(rng.integers(7))
            kinds = [suit * 9 + low + d for d in range(3)]
        else:
            kinds = [int(rng.integers(KIND_COUNT))] * 3
        if _take(counts, kinds):
            return kinds
    return None


def random_hand(rng: np.random.Generator, *, melds: int | None = None, flowers: bool = True,
                seven_pairs_share: float = 0.08) -> Hand:
    """A random legal winning hand (validated, with at least one arrangement)."""
    while True:
        counts = np.zeros(KIND_COUNT, np.int64)
        n_melds = int(rng.integers(0, 5)) if melds is None else melds
        hand_melds: list[Meld] = []
        ok = True
        for _ in range(n_melds):
            meld_type = rng.choice(["chow", "pung", "kong", "added_kong", "concealed_kong"],
                                   p=[0.35, 0.3, 0.12, 0.1, 0.13])
            if meld_type == "chow":
                kinds = _random_set(rng, counts, chow_share=1.0)
                if kinds is None:
                    ok = False
                    break
                claimed = ALL_FACES[kinds[int(rng.integers(3))]]
                hand_melds.append(Meld(MeldType.CHOW, tuple(ALL_FACES[k] for k in kinds), Discarder.LEFT, claimed))
                continue
            size = 3 if meld_type == "pung" else 4
            for _ in range(50):
                kind = int(rng.integers(KIND_COUNT))
                if _take(counts, [kind] * size):
                    break
            else:
                ok = False
                break
            discarder = None if meld_type == "concealed_kong" else DIRECTIONS[int(rng.integers(3))]
            hand_melds.append(Meld(MeldType(meld_type), (ALL_FACES[kind],) * size, discarder))
        if not ok:
            continue
        standing: list[int] = []
        if n_melds == 0 and rng.random() < seven_pairs_share:
            kinds = rng.choice(KIND_COUNT, size=7, replace=False)
            if not _take(counts, [int(k) for k in kinds for _ in range(2)]):
                continue
            standing = [int(k) for k in kinds for _ in range(2)]
        else:
            for _ in range(4 - n_melds):
                kinds = _random_set(rng, counts)
                if kinds is None:
                    ok = False
                    break
                standing += kinds
            pair = int(rng.integers(KIND_COUNT))
            if not ok or not _take(counts, [pair, pair]):
                continue
            standing += [pair, pair]
        winning_position = int(rng.integers(len(standing)))
        winning = ALL_FACES[standing.pop(winning_position)]
        flower_tiles: tuple = ()
        if flowers and rng.random() < 0.6:
            chosen = rng.choice(8, size=int(rng.integers(1, 5)), replace=False)
            flower_tiles = tuple(ALL_FACES[KIND_COUNT + int(k)] for k in chosen)
        hand = Hand(concealed=tuple(ALL_FACES[k] for k in standing), melds=tuple(hand_melds), winning_tile=winning,
                    flowers=flower_tiles).validate()
        if next(arrangements(hand), None) is not None:
            return hand


# --- layout --------------------------------------------------------------------------------------------------------

@dataclass
class _Placed:
    cx: float
    cy: float
    width: float  # extent along x before the photo's turn
    height: float
    turn: int  # face rotation relative to the player: 0, 90, 270
    face: int  # class id (FACE_DOWN for a back)
    role: str
    meld_index: int | None = None


def _meld_sequence(meld: Meld, rng: np.random.Generator, habits: Habits) -> list[tuple[int, str]]:
    """The meld's tiles in row order as (face, "up" / "side" / "down" / "stack")."""
    kinds = [t.index for t in meld.tiles]
    if meld.type is MeldType.CONCEALED_KONG:
        all_down = habits.concealed_kong_all_down if habits.concealed_kong_all_down is not None else rng.random() < 0.5
        marks = ["down"] * 4 if all_down else ["down", "up", "up", "down"]
        return list(zip(kinds, marks))
    if meld.type is MeldType.CHOW:
        claimed = meld.claimed.index if meld.claimed is not None else kinds[0]
        rest = sorted(kinds)
        rest.remove(claimed)
        return [(claimed, "side")] + [(k, "up") for k in rest]
    size = 3 if meld.type in (MeldType.PUNG, MeldType.ADDED_KONG) else 4
    kind = kinds[0]
    if meld.type is MeldType.KONG:
        across = habits.kong_across_place if habits.kong_across_place is not None else int(rng.integers(1, 3))
        place = {Discarder.LEFT: 0, Discarder.ACROSS: across, Discarder.RIGHT: 3}[meld.discarder]
    else:
        place = {Discarder.LEFT: 0, Discarder.ACROSS: 1, Discarder.RIGHT: 2}[meld.discarder]
    marks = ["up"] * size
    marks[place] = "side"
    if meld.type is MeldType.ADDED_KONG:
        stacked = habits.added_kong_stacked if habits.added_kong_stacked is not None else rng.random() < 0.5
        if stacked:
            marks.append("stack")
        else:
            # beside: a pair of sideways tiles at the claimed tile's place (left end / inner / right end)
            marks = ["up"] * 4
            marks[place] = marks[place + 1] = "side"
    sequence = [(kind, m) for m in marks]
    return sequence


def lay_out(hand: Hand, rng: np.random.Generator, habits: Habits = Habits()) -> Scene:
    """Lay ``hand`` out as detections (see the module docstring)."""
    w = float(rng.uniform(40, 80))
    aspect = float(rng.uniform(1.25, 1.45))
    h = aspect * w
    pick = lambda value, p=0.5: value if value is not None else bool(rng.random() < p)  # noqa: E731
    melds_above = pick(habits.melds_on_row_above)
    set_apart = pick(habits.winning_set_apart, 1.0)
    flowers_own_row = pick(habits.flowers_own_row)
    placed: list[_Placed] = []

    def put(x: float, bottom: float, face: int, mark: str, role: str, meld_index=None) -> float:
        """Place one tile with its left edge at x on the row line ``bottom``; return the x after it."""
        if mark == "side":
            placed.append(_Placed(x + h / 2, bottom - w / 2, h, w, int(rng.choice([90, 270])), face, role, meld_index))
            return x + h
        if mark == "stack":
            base = next(p for p in reversed(placed) if p.meld_index == meld_index and p.turn in (90, 270))
            placed.append(_Placed(base.cx, base.cy - w - rng.uniform(0, 0.05) * w, h, w, base.turn, face, role,
                                  meld_index))
            return x
        face_id = FACE_DOWN if mark == "down" else face
        placed.append(_Placed(x + w / 2, bottom - h / 2, w, h, 0, face_id, role, meld_index))
        return x + w

    touch = lambda: float(rng.uniform(0.0, 0.05)) * w  # noqa: E731  tiles pushed together
    apart = lambda: float(rng.uniform(0.5, 1.2)) * w  # noqa: E731  groups set apart

    concealed = [t.index for t in hand.concealed]
    if habits.sorted_concealed:
        concealed.sort()
    else:
        concealed = [int(k) for k in rng.permutation(concealed)]
    if not set_apart:
        concealed.append(hand.winning_tile.index)  # drawn tile pushed against the right end
    x = 0.0
    for kind in concealed:
        x = put(x, 0.0, kind, "up", "concealed") + touch()
    if set_apart:
        x += apart()
        x = put(x, 0.0, hand.winning_tile.index, "up", "winning")
    if melds_above:
        meld_x, meld_bottom = float(rng.uniform(0, 3)) * w, -h - float(rng.uniform(0.4, 1.2)) * w
    else:
        meld_x, meld_bottom = x, 0.0
    for meld_index, meld in enumerate(hand.melds):
        meld_x += apart()
        for kind, mark in _meld_sequence(meld, rng, habits):
            meld_x = put(meld_x, meld_bottom, kind, mark, "meld", meld_index)
            if mark != "stack":
                meld_x += touch()
    if hand.flowers:
        if flowers_own_row:
            flower_x, flower_bottom = float(rng.uniform(0, 3)) * w, h + float(rng.uniform(0.6, 1.5)) * w
        else:
            flower_x, flower_bottom = meld_x + apart(), meld_bottom
        for flower in hand.flowers:
            flower_x = put(flower_x, flower_bottom, flower.index, "up", "flower") + touch()

    xs = np.array([p.cx for p in placed])
    ys = np.array([p.cy for p in placed])
    span = max(float(xs.max() - xs.min()), float(ys.max() - ys.min()), 1.0)
    for _ in range(habits.clutter):
        angle = rng.uniform(0, 2 * np.pi)
        distance = span / 2 + float(rng.uniform(4, 7)) * w
        placed.append(_Placed(float(xs.mean() + distance * np.cos(angle)), float(ys.mean() + distance * np.sin(angle)),
                              w, h, int(rng.choice([0, 90, 180, 270])), int(rng.integers(KIND_COUNT)), "clutter"))

    quarter = habits.quarter_turn if habits.quarter_turn is not None else int(rng.choice([0, 90, 180, 270]))
    tilt = float(rng.uniform(-habits.max_tilt, habits.max_tilt))
    angle = np.deg2rad(quarter + tilt)
    depth = float(rng.uniform(-habits.perspective, habits.perspective))
    centre = np.array([xs.mean(), ys.mean()])

    def transform(points: np.ndarray) -> np.ndarray:
        p = points - centre
        scale = 1.0 / (1.0 + depth * p[:, 1:2] / span)  # rows further away (one side of y) come out smaller
        p = p * scale
        c, s = np.cos(angle), np.sin(angle)
        return np.stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c], axis=1)

    boxes = []
    for p in placed:
        corners = np.array([[p.cx - p.width / 2, p.cy - p.height / 2], [p.cx + p.width / 2, p.cy - p.height / 2],
                            [p.cx + p.width / 2, p.cy + p.height / 2], [p.cx - p.width / 2, p.cy + p.height / 2]])
        q = transform(corners)
        box = np.array([q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()])
        box += rng.uniform(-0.02, 0.02, size=4) * w
        boxes.append(box)
    boxes = np.array(boxes)
    margin = 2 * w
    offset = boxes[:, :2].min(axis=0) - margin
    boxes[:, [0, 2]] -= offset[0]
    boxes[:, [1, 3]] -= offset[1]
    image_size = (int(boxes[:, 2].max() + margin), int(boxes[:, 3].max() + margin))
    rotation = [int(round((p.turn + quarter + tilt) / 90.0)) % 4 * 90 for p in placed]

    faces = np.array([p.face for p in placed])
    topk_ids, topk_probs = _confident_topk(rng, faces)
    detections = Detections(boxes, topk_ids[:, 0], topk_probs[:, 0], rotation, topk_ids, topk_probs)
    order = rng.permutation(len(placed))  # a detector lists tiles in no useful order
    detections = detections[order]
    situation = {"melds": len(hand.melds), "melds_above": melds_above, "winning_set_apart": set_apart,
                 "flowers": len(hand.flowers), "quarter_turn": quarter, "tilt": round(tilt, 1),
                 "kinds": sorted({m.type.value for m in hand.melds})}
    return Scene(detections=detections, image_size=image_size, hand=hand,
                 roles=[placed[i].role for i in order], meld_index=[placed[i].meld_index for i in order],
                 habits=habits, situation=situation)


def _confident_topk(rng: np.random.Generator, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, TOP_K) ids and probabilities with the true face first at p in [0.8, 0.995]."""
    n = len(faces)
    ids = np.zeros((n, TOP_K), np.int32)
    probs = np.zeros((n, TOP_K), np.float32)
    for i, face in enumerate(faces):
        top = float(rng.uniform(0.8, 0.995))
        ids[i], probs[i] = _fill(rng, [int(face)], [top])
    return ids, probs


def _fill(rng: np.random.Generator, first_ids: list[int], first_probs: list[float]) -> tuple[list[int], list[float]]:
    """Complete a top-k list: the given leaders, then random other classes sharing what is left, decreasing."""
    others = [int(c) for c in rng.permutation(FACE_DOWN + 1) if int(c) not in first_ids][:TOP_K - len(first_ids)]
    rest = max(0.0, 1.0 - sum(first_probs))
    shares = np.sort(rng.dirichlet(np.ones(len(others))) * rest)[::-1]
    shares = np.minimum(shares, min(first_probs) * 0.999)
    return first_ids + others, first_probs + [float(s) for s in shares]


def confusion(rng: np.random.Generator, face: int, model: str = "uniform") -> int:
    """A wrong face for ``face``: ``uniform`` over the other 41 faces, or ``similar`` (a neighbour in the suit,
    the same number in another suit, or another honour / flower)."""
    if model == "uniform":
        choice = int(rng.integers(FACE_DOWN - 1))
        return choice + (choice >= face)
    if face < 27:
        suit, number = divmod(face, 9)
        options = [suit * 9 + n for n in (number - 1, number + 1) if 0 <= n < 9]
        options += [s * 9 + number for s in range(3) if s != suit]
    elif face < KIND_COUNT:
        options = [k for k in range(27, KIND_COUNT) if k != face]
    else:
        options = [k for k in range(KIND_COUNT, FACE_DOWN) if k != face]
    return int(rng.choice(options))


def corrupt(scene: Scene, rng: np.random.Generator, model: str = "uniform") -> Scene:
    """Make one face-up hand tile's top-1 wrong; its true face stays in the top-k with a lower probability."""
    d = scene.detections
    candidates = [i for i in range(len(d)) if scene.roles[i] != "clutter" and int(d.class_ids[i]) != FACE_DOWN]
    i = int(rng.choice(candidates))
    true_face = int(d.class_ids[i])
    wrong = confusion(rng, true_face, model)
    p_wrong = float(rng.uniform(0.45, 0.75))
    p_true = float(rng.uniform(0.15, min(p_wrong - 0.05, 1.0 - p_wrong)))
    ids_i, probs_i = _fill(rng, [wrong, true_face], [p_wrong, p_true])
    topk_ids = d.topk_ids.copy()
    topk_probs = d.topk_probs.copy()
    topk_ids[i], topk_probs[i] = ids_i, probs_i
    class_ids = d.class_ids.copy()
    confidence = d.confidence.copy()
    class_ids[i], confidence[i] = wrong, p_wrong
    detections = replace(d, class_ids=class_ids, confidence=confidence, topk_ids=topk_ids, topk_probs=topk_probs)
    return replace(scene, detections=detections, corrupted=i, corrupted_to=wrong)


# --- adversarial detections (the reader's worst case) ---------------------------------------------------------------

ADVERSARIAL_MODES = ("hand_garbled", "hand_cluttered", "rows", "scatter")


def _flat_topk(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(n, TOP_K) random classes (flowers and backs included) with nearly equal probabilities."""
    ids = np.stack([rng.permutation(FACE_DOWN + 1)[:TOP_K] for _ in range(n)]).astype(np.int32)
    probs = np.sort(rng.uniform(0.12, 0.2, (n, TOP_K)), axis=1)[:, ::-1].astype(np.float32)
    return ids, probs


def adversarial(rng: np.random.Generator, n: int = 40, mode: str = "hand_garbled") -> tuple[Detections, tuple]:
    """Detections built to make the reader work hard: ``(detections, image_size)``.

    * ``hand_garbled``: a real hand's layout (so the tile count fits) whose top-k lists are random classes with flat
      probabilities: no legal reading is near, so the decoding searches until its budget;
    * ``hand_cluttered``: the same plus loose tiles up to ``n`` detections around it;
    * ``rows``: ``n`` touching tiles in one to three rows, random labels, some sideways or face down;
    * ``scatter``: ``n`` boxes of random size anywhere, random rotations and labels.
    """
    if mode in ("hand_garbled", "hand_cluttered"):
        scene = lay_out(random_hand(rng), rng, Habits(concealed_kong_all_down=False))
        d, (width, height) = scene.detections, scene.image_size
        boxes, rotation = d.boxes.astype(np.float64), d.rotation.astype(np.int32)
        if mode == "hand_cluttered" and len(boxes) < n:
            extra = n - len(boxes)
            size = median_short_side(boxes)
            x0 = rng.uniform(0, width, extra)
            y0 = rng.uniform(0, height, extra)
            sideways = rng.random(extra) < 0.3
            w = np.where(sideways, 1.35 * size, size)
            h = np.where(sideways, size, 1.35 * size)
            boxes = np.concatenate([boxes, np.stack([x0, y0, x0 + w, y0 + h], axis=1)])
            rotation = np.concatenate([rotation, np.where(sideways, 90, 0).astype(np.int32)])
    else:
        width, height = 1600, 1200
        if mode == "rows":
            rows = int(rng.integers(1, 4))
            boxes, rotation = [], []
            for k in range(n):
                row, place = k % rows, k // rows
                sideways = rng.random() < 0.15
                w, h = (81.0, 60.0) if sideways else (60.0, 81.0)
                x = 20 + place * 61.2 * (n / rows / max(n // rows, 1))
                bottom = 150 + 120 * row
                boxes.append([x, bottom - h, x + w, bottom])
                rotation.append(90 if sideways else 0)
            boxes = np.asarray(boxes) + rng.normal(0, 1.5, (n, 4))
            boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
            rotation = np.asarray(rotation, np.int32)
        else:
            x0, y0 = rng.uniform(0, width - 100, n), rng.uniform(0, height - 100, n)
            size = rng.uniform(20, 90, (n, 2))
            boxes = np.stack([x0, y0, x0 + size[:, 0], y0 + size[:, 1]], axis=1)
            rotation = rng.choice(np.array([0, 90, 180, 270], np.int32), n)
    m = len(boxes)
    ids, probs = _flat_topk(rng, m)
    rotation = np.where((ids[:, 0] == FACE_DOWN) & (rotation % 180 == 0), 0, rotation)
    rotation = np.where((ids[:, 0] == FACE_DOWN) & (rotation % 180 == 90), 90, rotation).astype(np.int32)
    detections = Detections(boxes.astype(np.float32), ids[:, 0], probs[:, 0], rotation, ids, probs)
    return detections, (int(width), int(height))
