"""Geometry of a hand photo, found from the tiles themselves: orientation, row direction, tile size, rows and gaps.

Everything works on the detections' axis-aligned boxes and per-tile ``rotation`` (0/90/180/270, the face turned
clockwise from upright). Three steps bring the hand into a *normalised frame* in which the concealed tiles stand
upright, rows run left to right, and "left" means the winner's left (mcr.md §4):

1. **Quarter turn.** The dominant tile rotation ``r0`` is the photo's quarter turn (most tiles are the standing
   concealed ones). Centres are turned back by ``r0``; a tile's rotation relative to ``r0`` tells sideways (90/270)
   from upright (0/180). An upside-down photo (r0 = 180) comes out with the left end on the left again.
2. **Residual tilt.** The median direction from each tile to its nearest neighbour (folded into ±45°) is the row
   direction; centres are turned back by it.
3. **Tile size.** For a w × h rectangle turned by θ the box satisfies ``bw + bh = (w + h)(|cos θ| + |sin θ|)``,
   whatever the tile's quarter turn, so ``w + h`` is known for every tile even at 45°. With the aspect ``a = h / w``
   (measured from the upright tiles when the tilt allows, else a typical 1.35) each tile gets its own width unit:
   a perspective photo, where far tiles are smaller, still measures gaps in *local* tile widths.

Shapes: N = number of detections; all arrays are numpy, nothing is mutated.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.ma  # noqa: F401  np.median imports it on its first call (~45 ms), else inside the first photo's budget

from ..classes import FACE_DOWN, REVERSIBLE_CLASSES

DEFAULT_ASPECT = 1.35  # height / width of a tile face; typical sets lie between 1.25 and 1.45
ROW_LINK_DY = 0.42  # two tiles share a row when their centres differ across the row by < this x tile height
ROW_LINK_GAP = 4.0  # ... and the gap between them along the row is < this many tile widths
ROW_COLLIDE_OVERLAP = 0.3  # tile widths: two tiles of one row never overlap along it this much ...
ROW_COLLIDE_DY = 0.25  # ... with centres this many tile heights apart across it (closer: one tile seen twice)
# sideways tile lengths along the row: two tiles' centres closer than this share one place (a tile laid on or beside
# another, or a spare box on it: T49b and T49c, docs/rules-session49.md); a foreshortened standing row's neighbours
# lie ~0.5 apart
SAME_PLACE = 0.3
STACK_TOUCH_GAP = 0.3  # tile widths: row neighbours this close touch a sideways tile (stacking test)
# Two sideways tiles laid one beside the other across the row, each with a row neighbour of its own: the base lies in
# line with its nearest own neighbour (less than STACK_BASE_LINE tile heights off across the row), the added tile
# beside it does not (more than STACK_TOP_LINE off); see find_stacked (docs/rules-session35.md, R42).
STACK_BASE_LINE = 0.15
STACK_TOP_LINE = 0.25
MERGE_LINE_DY = 0.15  # tile heights: a piece cut off a row lies this close to the line through the row's centres
DUPLICATE_IOU = 0.6  # two boxes overlapping this much are one tile detected twice
COVERED_SHARE = 0.6  # a box lying this much inside a more confident one ...
COVERED_CONFIDENCE = 0.5  # ... and named with less than this: a piece of that tile boxed again
# A reversible face (1p, 5z...: ``REVERSIBLE_CLASSES``) looks much the same turned half round: on synthetic scenes its
# up/down label is right 86 % of the time against 98.8 % for the other faces, evidence of log(0.86 / 0.14) = 1.8 nats
# against 4.4. It weighs that share of a face in the photo's turn (docs/rules-session18.md, rvw).
REVERSIBLE_WEIGHT = 0.4


@dataclass(frozen=True)
class Frame:
    """The detections in the normalised frame.

    ============ ======= ===========================================================================
    field        shape   meaning
    ============ ======= ===========================================================================
    centers      (N, 2)  box centres turned into the normalised frame (x along the row, y across)
    unit         (N,)    the width of an upright tile at this tile's place (pixels)
    along        (N,)    the tile's extent along the row (unit, or aspect x unit when sideways)
    across       (N,)    its extent across the row
    sideways     (N,)    bool: turned 90/270 relative to the photo's quarter turn (a claimed tile)
    measured_across (N,) the extent across the row solved from the box (below ~30° of tilt), else ``across``
    face_down    (N,)    bool: showing its back
    quarter_turn ()      r0, the photo's quarter turn in degrees
    tilt         ()      residual row direction in degrees (after the quarter turn)
    aspect       ()      tile height / width used
    ============ ======= ===========================================================================
    """

    centers: np.ndarray
    unit: np.ndarray
    along: np.ndarray
    across: np.ndarray
    sideways: np.ndarray
    face_down: np.ndarray
    quarter_turn: int
    tilt: float
    aspect: float
    measured_across: np.ndarray = None  # type: ignore[assignment]  (N,) across extent solved from the box itself
    relative: np.ndarray = None  # type: ignore[assignment]  (N,) rotation label relative to the quarter turn
    straightened: np.ndarray = None  # type: ignore[assignment]  (N,) sideways label dropped by straighten_sideways_runs
    measured_along: np.ndarray = None  # type: ignore[assignment]  (N,) extent along the row solved from the box
    lifted: np.ndarray = None  # type: ignore[assignment]  (N,) Detections.lifted: lies on another tile (NaN: unknown)
    # (N,) probability that the tile is sideways relative to the quarter turn (Detections.sideways_probability turned
    # with it; NaN: unknown), for weighing the labels the reader overrules
    p_sideways: np.ndarray = None  # type: ignore[assignment]
    # (N,) bool: the face the tile is read as (``class_ids`` given to ``normalise``: the top-1, or 5z where the reader
    # tries backs as white dragons) looks the same turned half round (REVERSIBLE_CLASSES), so its label's up/down is
    # the classifier's guess (None: not known)
    reversible: np.ndarray = None  # type: ignore[assignment]

    def gap(self, i: int, j: int) -> float:
        """Free space between tiles i and j along the row, in local tile widths (negative when they overlap)."""
        distance = abs(float(self.centers[j, 0] - self.centers[i, 0]))
        free = distance - (self.along[i] + self.along[j]) / 2
        return free / ((self.unit[i] + self.unit[j]) / 2)


def _turn(points: np.ndarray, degrees_clockwise: float) -> np.ndarray:
    """(N, 2) image points (y down) turned back (counter-clockwise) by ``degrees_clockwise`` about the origin."""
    angle = np.deg2rad(degrees_clockwise)
    c, s = np.cos(angle), np.sin(angle)
    x, y = points[:, 0], points[:, 1]
    return np.stack([x * c + y * s, -x * s + y * c], axis=1)


def dominant_quarter_turn(rotation: np.ndarray, weight: np.ndarray, class_ids: np.ndarray | None = None) -> int:
    """The photo's quarter turn: first the axis (0/180 vs 90/270) most tiles share, then its more common direction
    (``class_ids``, when given, weigh the reversible faces' up/down less: ``_turn_votes``).

    Choosing the axis first keeps the few sideways claimed tiles from outvoting an upside-down concealed row.
    """
    votes = (_turn_votes(rotation, class_ids, weight) if class_ids is not None
             else np.array([weight[rotation == r].sum() for r in (0, 90, 180, 270)]))
    if votes.sum() == 0:
        return 0
    axis = 0 if votes[0] + votes[2] >= votes[1] + votes[3] else 1
    return int((axis + (2 if votes[axis + 2] > votes[axis] else 0)) * 90)


def centers_and_scale(boxes: np.ndarray) -> tuple[np.ndarray, float]:
    """(N, 2) centres of (N, 4) xyxy boxes, and the scale the row directions are read at: the median box's square root
    of area (1 without boxes)."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    size = np.sqrt(np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1.0))
    return centers, float(np.median(size)) if len(size) else 1.0


def _pairwise(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, N, 2) vectors from point i to point j, and (N, N) their lengths (inf on the diagonal)."""
    diff = points[None, :, :] - points[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, np.inf)
    return diff, dist


def _row_tilt(points: np.ndarray, scale: float) -> float:
    """Median direction (degrees, in ±45) from each point to its nearest neighbour; 0 when undetermined."""
    n = len(points)
    if n < 2:
        return 0.0
    diff, dist = _pairwise(points)
    nearest = dist.argmin(axis=1)
    vectors = diff[np.arange(n), nearest]
    close = dist[np.arange(n), nearest] < 3 * scale  # far pairs say nothing about the row
    angles = np.degrees(np.arctan2(vectors[close, 1], vectors[close, 0]))
    angles = (angles + 90) % 180 - 90  # direction, not sense
    along_row = np.abs(angles) < 45  # neighbours across rows (or a stacked tile) point the other way
    if not along_row.any():
        return 0.0
    return float(np.median(angles[along_row]))


def free_row_direction(points: np.ndarray, scale: float, window: float = 8.0) -> float | None:
    """The most common direction (degrees, in (-90, 90]) from each point to its nearest neighbour, over the whole
    half turn; None when fewer than three neighbours are close.

    ``_row_tilt`` folds directions into ±45° of the labels' axes, which holds while a row lies within 45° of them;
    seen from low and aside, the rows of a photo can lie further off (standing faces seen at a slant), and then
    their direction is read here instead: the densest ``window``-degree bin of the directions, then their mean."""
    n = len(points)
    if n < 3:
        return None
    diff, dist = _pairwise(points)
    nearest = dist.argmin(axis=1)
    vectors = diff[np.arange(n), nearest]
    close = dist[np.arange(n), nearest] < 3 * scale
    if close.sum() < 3:
        return None
    angles = np.degrees(np.arctan2(vectors[close, 1], vectors[close, 0])) % 180.0  # direction, not sense
    return _densest_direction(angles, window)


def _densest_direction(angles: np.ndarray, window: float) -> float:
    """The mean of the directions (degrees in [0, 180)) in the densest ``window``-degree bin, in (-90, 90]."""
    candidates = np.arange(0.0, 180.0, 1.0)
    offset = (angles[None, :] - candidates[:, None] + 90.0) % 180.0 - 90.0
    counts = (np.abs(offset) <= window).sum(axis=1)
    best = int(counts.argmax())
    inside = np.abs(offset[best]) <= window
    direction = (candidates[best] + float(np.mean(offset[best][inside])) + 90.0) % 180.0 - 90.0
    return float(direction) if direction != -90.0 else 90.0


def up_down_weights(class_ids: np.ndarray) -> np.ndarray:
    """(N,) how much each tile's up/down label counts towards the photo's turn: REVERSIBLE_WEIGHT for a reversible
    face (by its top-1 class), 1 otherwise."""
    reversible = np.isin(np.asarray(class_ids), list(REVERSIBLE_CLASSES))
    return np.where(reversible, REVERSIBLE_WEIGHT, 1.0)


def _turn_votes(rotation: np.ndarray, class_ids: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """(4,) the weights of the tiles per rotation 0, 90, 180, 270; a tile whose up/down counts u
    (``up_down_weights``) gives (1 + u) / 2 of its weight to its label's turn and (1 - u) / 2 to the opposite one."""
    rotation = np.asarray(rotation)
    votes = np.array([weight[rotation == r].sum() for r in (0, 90, 180, 270)], np.float64)
    moved = weight * (1.0 - up_down_weights(class_ids)) / 2
    moved = np.array([moved[rotation == r].sum() for r in (0, 90, 180, 270)])
    return votes + np.roll(moved, 2) - moved


def quarter_turn_votes(rotation: np.ndarray, class_ids: np.ndarray, confidence: np.ndarray) -> dict[int, float]:
    """Weighted count of tiles per rotation (backs at half weight: they carry no reliable up/down; reversible faces
    partly split between the two opposite turns, see ``_turn_votes``)."""
    backs = np.asarray(class_ids) == FACE_DOWN
    weight = np.where(backs, 0.5, 1.0) * np.clip(np.asarray(confidence, np.float64), 0.05, 1.0)
    votes = _turn_votes(rotation, class_ids, weight)
    return {r: float(v) for r, v in zip((0, 90, 180, 270), votes)}


def lined_row_direction(points: np.ndarray, scale: float, neighbours: int = 4, window: float = 8.0) -> float | None:
    """The most common direction (degrees, in (-90, 90]) of rows traced by tiles with a neighbour on either side in
    line: for each point, each pair of its ``neighbours`` nearest (within 3 ``scale``) that lie on opposite sides
    of it (their directions more than ~160° apart) at similar distances votes for the line through them; the
    densest ``window``-degree bin of the votes, then their mean. None with fewer than three votes.

    ``free_row_direction`` follows each tile's single nearest neighbour, which for standing tiles seen from low
    with the melds laid close in front is often the meld tile in front, across the row; a tile in a row has
    neighbours on both sides along it, while a row in front gives it one across (docs/rules-session32.md, l1)."""
    n = len(points)
    if n < 3:
        return None
    diff, dist = _pairwise(points)
    votes = []
    for i in range(n):
        # a box on the same centre (a duplicate) gives no direction
        near = [j for j in np.argsort(dist[i])[:neighbours] if 0 < dist[i, j] < 3 * scale]
        for a, j in enumerate(near):
            for k in near[a + 1:]:
                ratio = dist[i, j] / dist[i, k]
                cosine = float(np.dot(diff[i, j], diff[i, k])) / (dist[i, j] * dist[i, k])
                if 0.6 < ratio < 1 / 0.6 and cosine < -0.94:
                    line = diff[i, j] - diff[i, k]
                    votes.append(np.degrees(np.arctan2(line[1], line[0])) % 180.0)
    if len(votes) < 3:
        return None
    return _densest_direction(np.array(votes), window)


def normalise(boxes: np.ndarray, rotation: np.ndarray, class_ids: np.ndarray, confidence: np.ndarray,
              quarter_turn: int | None = None, tilt: float | None = None, lifted: np.ndarray | None = None,
              sideways_probability: np.ndarray | None = None) -> Frame:
    """Bring (N, 4) xyxy boxes with their rotations into the normalised frame (see the module docstring).

    ``quarter_turn`` forces the photo's quarter turn (the reader tries several when clutter could outvote the hand);
    ``tilt`` forces the row direction after it (degrees, may lie beyond ±45°: see ``free_row_direction``).
    ``lifted``: Detections.lifted, carried along for the melds (default: not measured).
    ``sideways_probability``: Detections.sideways_probability (image-relative; default: not measured).
    """
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    n = len(boxes)
    face_down = np.asarray(class_ids) == FACE_DOWN
    # Backs carry no reliable up/down: they vote with half weight.
    weight = np.where(face_down, 0.5, 1.0) * np.clip(np.asarray(confidence, np.float64), 0.05, 1.0)
    r0 = (dominant_quarter_turn(np.asarray(rotation), weight, class_ids) if quarter_turn is None
          else int(quarter_turn))
    relative = (np.asarray(rotation) - r0) % 360
    sideways = relative % 180 == 90

    centers = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)
    box_w, box_h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    if r0 % 180 == 90:
        box_w, box_h = box_h, box_w
    turned = _turn(centers, r0)
    size = np.sqrt(np.maximum(box_w * box_h, 1.0))
    if tilt is None:
        tilt = _row_tilt(turned, float(np.median(size)) if n else 1.0)
    turned = _turn(turned, tilt)

    c, s = abs(np.cos(np.deg2rad(tilt))), abs(np.sin(np.deg2rad(tilt)))
    perimeter_half = (box_w + box_h) / (c + s)  # w + h of each tile, whatever its quarter turn
    aspect = DEFAULT_ASPECT
    upright_faces = ~sideways & ~face_down
    if c * c - s * s > 0.5 and upright_faces.sum() >= 3:
        # Solve bw = w c + h s, bh = w s + h c for the upright tiles (well conditioned below ~30° of tilt).
        det = c * c - s * s
        width = (box_w * c - box_h * s) / det
        height = (box_h * c - box_w * s) / det
        ok = upright_faces & (width > 0) & (height > 0)
        if ok.sum() >= 3:
            aspect = float(np.clip(np.median(height[ok] / width[ok]), 1.05, 2.0))
    unit = perimeter_half / (1 + aspect)
    along = np.where(sideways, aspect * unit, unit)
    across = np.where(sideways, unit, aspect * unit)
    measured_across, measured_along = across, along
    if c * c - s * s > 0.5:
        solved = (box_h * c - box_w * s) / (c * c - s * s)
        measured_across = np.where(solved > 0.3 * across, solved, across)
        solved = (box_w * c - box_h * s) / (c * c - s * s)
        measured_along = np.where(solved > 0.3 * along, solved, along)
    return Frame(centers=turned, unit=unit, along=along, across=across, sideways=sideways, face_down=face_down,
                 quarter_turn=r0, tilt=tilt, aspect=aspect, measured_across=measured_across,
                 relative=relative.astype(np.int64), measured_along=measured_along,
                 lifted=np.full(len(turned), np.nan) if lifted is None else np.asarray(lifted, np.float64),
                 p_sideways=_relative_sideways(sideways_probability, r0, n),
                 reversible=np.isin(np.asarray(class_ids), list(REVERSIBLE_CLASSES)).reshape(n))


def _relative_sideways(sideways_probability: np.ndarray | None, quarter_turn: int, n: int) -> np.ndarray:
    """Image-relative sideways probabilities turned with the photo's quarter turn: under a quarter turn an image-upright
    face is the sideways one."""
    if sideways_probability is None:
        return np.full(n, np.nan)
    p = np.asarray(sideways_probability, np.float64).reshape(n)
    return 1.0 - p if quarter_turn % 180 == 90 else p


def duplicates(boxes: np.ndarray, confidence: np.ndarray, keep_pairs: np.ndarray | None = None,
               face_up: np.ndarray | None = None, covered_ok: np.ndarray | None = None) -> np.ndarray:
    """(N,) bool: boxes that repeat a more confident box (IoU > DUPLICATE_IOU), i.e. one tile detected twice, or
    that lie mostly inside one (COVERED_SHARE of their own area) and are named unsurely (top class under
    COVERED_CONFIDENCE): a part of that tile boxed again, whose crop the classifier cannot name.

    ``keep_pairs`` (N,) bool marks tiles that may overlap legitimately (sideways tiles: an added kong's fourth tile
    lies on the claimed one); two such tiles are never merged. ``face_up`` (N,) bool: a back is not dropped for lying
    inside another back (a wall's upper tiles cover its lower ones). ``covered_ok`` (N,) bool: the boxes that take part
    in that test at all, inside or around (default: every one).
    """
    from ..detections import box_iou

    n = len(boxes)
    dropped = np.zeros(n, bool)
    if n < 2:
        return dropped
    boxes = np.asarray(boxes, np.float64)
    iou = box_iou(boxes, boxes)
    # inside[i, j]: the share of box j's area that lies inside box i
    low, high = np.maximum(boxes[:, None, :2], boxes[None, :, :2]), np.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    overlap = np.prod(np.clip(high - low, 0, None), axis=2)
    inside = overlap / np.maximum(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1), 1e-9)[None, :]
    confidence = np.asarray(confidence)
    face_up = np.ones(n, bool) if face_up is None else np.asarray(face_up, bool)
    covered_ok = np.ones(n, bool) if covered_ok is None else np.asarray(covered_ok, bool)
    unsure = (confidence < COVERED_CONFIDENCE) & covered_ok
    order = np.argsort(-confidence, kind="stable")
    for rank, i in enumerate(order):
        if dropped[i]:
            continue
        for j in order[rank + 1:]:
            if dropped[j] or (keep_pairs is not None and keep_pairs[i] and keep_pairs[j]):
                continue
            covered = unsure[j] and covered_ok[i] and inside[i, j] > COVERED_SHARE and (face_up[i] or face_up[j])
            if iou[i, j] > DUPLICATE_IOU or covered:
                dropped[j] = True
    return dropped


def find_stacked(frame: Frame, active: np.ndarray, faces: np.ndarray | None = None) -> dict[int, int]:
    """Sideways tiles lying on (or against the far side of) another sideways tile: {stacked tile: base tile}.

    An added kong's fourth tile is often laid across the claimed sideways tile. In the normalised frame the two share
    an x position and sit one tile-width apart across the row; the base is the one that has row neighbours.
    ``faces`` (N,), the tiles' top-1 classes, when given: pairs of one face are tried before the others (B69c).
    """
    stacked: dict[int, int] = {}
    # an added tile is face up; plain ints, since these indices go into the meld and on into the reading's JSON
    candidates = [int(i) for i in np.flatnonzero(active & frame.sideways & ~frame.face_down)]
    pairs = [(i, j) for a_pos, i in enumerate(candidates) for j in candidates[a_pos + 1:]]
    if faces is not None:
        # B69c: an added tile shows its kong's face; a loose tile of another face lying against the claimed one
        # must not take its place (docs/rules-session69.md). The sort is stable: otherwise the order as before.
        pairs.sort(key=lambda pair: bool(faces[pair[0]] != faces[pair[1]]))
    for i, j in pairs:
        if i in stacked or j in stacked or i in stacked.values() or j in stacked.values():
            continue
        unit = (frame.unit[i] + frame.unit[j]) / 2
        dx = abs(frame.centers[i, 0] - frame.centers[j, 0])
        dy = abs(frame.centers[i, 1] - frame.centers[j, 1])
        if dx < 0.5 * unit * frame.aspect and dy < 1.6 * unit:
            if dy < 0.6 * unit:
                # Laid on top: the upper tile shows further from the winner (smaller y) than its base.
                base, top = (i, j) if frame.centers[i, 1] > frame.centers[j, 1] else (j, i)
                stacked[top] = base
                continue
            near_i, near_j = _row_neighbours(frame, active, i, j), _row_neighbours(frame, active, j, i)
            # Laid beside, across the row: the top tile has no row neighbour of its own (a neighbour of the
            # base's, its meld's upright tile seen close under perspective, does not count); two sideways tiles
            # of two touching meld rows both have their own.
            degree_i, degree_j = len(near_i - near_j), len(near_j - near_i)
            if min(degree_i, degree_j) == 0 and max(len(near_i), len(near_j)) > 0:
                # The base has row neighbours of its own; if neither has, the added tile is the one further
                # from the winner (smaller y), as laid.
                if degree_i != degree_j:
                    base, top = (i, j) if degree_i > degree_j else (j, i)
                else:
                    base, top = (i, j) if frame.centers[i, 1] > frame.centers[j, 1] else (j, i)
                stacked[top] = base
            elif min(degree_i, degree_j) > 0:
                # Both touch tiles of their own (the added tile the next meld's tile, or its own meld's upright
                # tile seen close under perspective): the base lies in line with its neighbour, the added tile
                # off it.
                line_i, line_j = _line_offset(frame, i, near_i - near_j), _line_offset(frame, j, near_j - near_i)
                if not _one_off_line(line_i, line_j) and (faces is None or faces[i] == faces[j]):
                    # B69c: two such pairs side by side, their claimed tiles touching (a kong claimed from the
                    # right, then one from the left): each added tile lies in line with the other's, so only the
                    # meld's standing tiles tell the base; an added tile with none of its own counts as off line.
                    # Only for two tiles of one face (an added kong's), where the faces are known: a pair of two
                    # faces taken here was a winning tile and a chow's claimed tile (docs/rules-session69.md).
                    up_i = {k for k in near_i - near_j if not frame.sideways[k]}
                    up_j = {k for k in near_j - near_i if not frame.sideways[k]}
                    line_i = _line_offset(frame, i, up_i) if up_i else float("inf")
                    line_j = _line_offset(frame, j, up_j) if up_j else float("inf")
                if line_i < STACK_BASE_LINE < STACK_TOP_LINE < line_j:
                    stacked[j] = i
                elif line_j < STACK_BASE_LINE < STACK_TOP_LINE < line_i:
                    stacked[i] = j
    return stacked


def _one_off_line(line_i: float, line_j: float) -> bool:
    """Whether one of two line offsets (``_line_offset``) says base (in line) and the other added tile (off it)."""
    return min(line_i, line_j) < STACK_BASE_LINE < STACK_TOP_LINE < max(line_i, line_j)


def _line_offset(frame: Frame, i: int, neighbours: set[int]) -> float:
    """How far tile i lies across the row from the nearest of ``neighbours`` in line with it: the least centre
    distance across the row, in their mean tile height."""
    return min(abs(float(frame.centers[i, 1] - frame.centers[j, 1]))
               / (frame.aspect * float(frame.unit[i] + frame.unit[j]) / 2) for j in neighbours)


def _row_neighbours(frame: Frame, active: np.ndarray, i: int, other: int) -> set[int]:
    """The active tiles (other than ``other``) that touch tile i along its row (less than STACK_TOUCH_GAP apart)."""
    out = set()
    for j in np.flatnonzero(active):
        if j in (i, other):
            continue
        dy = abs(frame.centers[i, 1] - frame.centers[j, 1])
        height = frame.aspect * (frame.unit[i] + frame.unit[j]) / 2
        if dy < ROW_LINK_DY * height and frame.gap(i, j) < STACK_TOUCH_GAP:
            out.add(int(j))
    return out


def rows(frame: Frame, active: np.ndarray) -> list[list[int]]:
    """Chains of tiles that lie on one line, each sorted left to right in the normalised frame.

    Two active tiles are linked when their centres differ across the row by less than ROW_LINK_DY tile heights and
    the free space between them is less than ROW_LINK_GAP tile widths (and they do not lie on top of each other);
    a row is a connected component. A row holds one tile per place along it: a component in which two tiles lie at
    the same place (a meld row laid close in front of a standing concealed row, linked through diagonal neighbours)
    is split across the row where its tiles' centres are furthest apart, and each part linked again. Rows are
    listed top to bottom.
    """
    splits: list[int] = []
    chains = _link(frame, np.flatnonzero(active), depth=0, splits=splits)
    if splits:  # only a split between rows can cut a piece off one
        chains = _merge_split(frame, chains)
    chains = [sorted(members, key=lambda k: frame.centers[k, 0]) for members in chains]
    chains.sort(key=lambda chain: (float(np.mean(frame.centers[chain, 1])), float(frame.centers[chain[0], 0])))
    return chains


def _pair_links(frame: Frame, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(linked, collide): (M, M) bool matrices over the tiles ``index`` (see :func:`rows`), upper triangles."""
    cx, cy = frame.centers[index, 0], frame.centers[index, 1]
    unit, along = frame.unit[index], frame.along[index]
    mean_unit = (unit[:, None] + unit[None, :]) / 2
    height = frame.aspect * mean_unit
    dy = np.abs(cy[:, None] - cy[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):  # degenerate boxes: nan links nothing, as in Frame.gap
        gap = (np.abs(cx[None, :] - cx[:, None]) - (along[:, None] + along[None, :]) / 2) / mean_unit
        near = dy < ROW_LINK_DY * height
        linked = np.triu(near & (gap > -0.5) & (gap < ROW_LINK_GAP), k=1)
        # Only two upright tiles collide: a sideways tile may share a place with another (an added kong's tile laid
        # on or beside the claimed one, raised and shifted by the view).
        upright = ~frame.sideways[index]
        collide = np.triu((gap < -ROW_COLLIDE_OVERLAP) & (dy > ROW_COLLIDE_DY * height)
                          & upright[:, None] & upright[None, :], k=1)
    return linked, collide


def _merge_split(frame: Frame, chains: list[list[int]]) -> list[list[int]]:
    """Join back chains that the collision split cut apart though they link end to end without colliding (a
    tilted row cut across by the split between it and a meld row laid close in front of it)."""
    if len(chains) < 2:
        return chains
    index = np.array([t for chain in chains for t in chain], dtype=np.int64)
    linked, collide = _pair_links(frame, index)
    linked, collide = linked | linked.T, collide | collide.T
    position = {int(t): k for k, t in enumerate(index)}
    groups = [[position[t] for t in chain] for chain in chains]
    changed = True
    while changed:
        changed = False
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                ga, gb = groups[a], groups[b]
                if not linked[np.ix_(ga, gb)].any() or collide[np.ix_(ga, gb)].any():
                    continue
                # Only where one of the two is a piece (one or two tiles) and all its links go to the other.
                small, large = (ga, gb) if len(ga) <= len(gb) else (gb, ga)
                if len(small) > 2 or len(large) < 3 or not _on_line(frame, index[large], index[small]):
                    continue
                others = [g for k, g in enumerate(groups) if k not in (a, b)]
                if any(linked[np.ix_(small, g)].any() for g in others):
                    continue
                groups[a] = ga + gb
                del groups[b]
                changed = True
                break
            if changed:
                break
    return [[int(index[k]) for k in group] for group in groups]


def _on_line(frame: Frame, chain: np.ndarray, piece: np.ndarray) -> bool:
    """Whether the tiles ``piece`` lie on the line fitted through the centres of ``chain`` (within MERGE_LINE_DY tile
    heights across it)."""
    x, y = frame.centers[chain, 0], frame.centers[chain, 1]
    if np.ptp(x) <= 0:
        return False
    slope, intercept = np.polyfit(x, y, 1)
    height = frame.aspect * float(np.median(frame.unit[chain]))
    residual = np.abs(frame.centers[piece, 1] - (slope * frame.centers[piece, 0] + intercept))
    return bool((residual < MERGE_LINE_DY * height).all())


def _link(frame: Frame, index: np.ndarray, depth: int, splits: list[int] | None = None) -> list[list[int]]:
    """Connected components of the row links among ``index`` (see :func:`rows`), split where two tiles collide."""
    parent = {int(i): int(i) for i in index}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # Every pair at once (the same arithmetic as Frame.gap), then the links in the order the pairs come.
    linked, collide = _pair_links(frame, index)
    for a_pos, b_pos in zip(*np.nonzero(linked)):
        parent[find(int(index[a_pos]))] = find(int(index[b_pos]))
    components: dict[int, list[int]] = {}
    for i in index:
        components.setdefault(find(int(i)), []).append(int(i))
    out: list[list[int]] = []
    position = {int(i): k for k, i in enumerate(index)}
    for members in components.values():
        local = [position[m] for m in members]
        if depth < 4 and len(members) > 2 and collide[np.ix_(local, local)].any():
            ys = np.sort(frame.centers[members, 1])
            cut = int(np.argmax(np.diff(ys)))
            threshold = (ys[cut] + ys[cut + 1]) / 2
            upper = np.array([m for m in members if frame.centers[m, 1] < threshold], dtype=np.int64)
            lower = np.array([m for m in members if frame.centers[m, 1] >= threshold], dtype=np.int64)
            if len(upper) and len(lower):  # (always: colliding tiles lie apart across the row)
                if splits is not None:
                    splits.append(depth)
                out += _link(frame, upper, depth + 1, splits) + _link(frame, lower, depth + 1, splits)
                continue
        out.append(members)
    return out


def _across(frame: Frame, i: int, j: int) -> bool:
    """Whether tiles i and j lie side by side across the row (centres more than half a tile width apart across it)."""
    return abs(float(frame.centers[i, 1] - frame.centers[j, 1])) > 0.5 * float(frame.unit[i] + frame.unit[j]) / 2


def _same_place(frame: Frame, i: int, j: int) -> bool:
    """Whether tiles i and j share one place along the row (centres less than SAME_PLACE sideways tile lengths apart
    along it): one lies on or beside the other, or is a second box on it, not the next tile."""
    unit = float(frame.unit[i] + frame.unit[j]) / 2
    return abs(float(frame.centers[i, 0] - frame.centers[j, 0])) < SAME_PLACE * unit * frame.aspect


def straighten_sideways_runs(frame: Frame, chains: list[list[int]], min_run: int = 3) -> Frame:
    """Treat runs of ``min_run`` or more touching sideways places in a row of upright tiles as upright. A place is
    one spot along the row (``_same_place``): a tile laid on or beside another, or a second box on it, counts once.

    No layout puts three claimed tiles side by side (a meld has one, an added kong laid beside along the row two),
    but perspective can turn a stretch of a row across the 45° line where the quarter-turned rotation labels flip.
    A row with fewer than two upright faces (a block of discards turned the other way) is left alone, unless the
    run shows a flat meld's labels (one face labelled half a turn from the others), or it is a row of its own of three
    or four faces with one label that upright faces elsewhere were straightened from (a flat meld seen from low).
    """
    sideways = frame.sideways.copy()
    straightened = np.zeros(len(sideways), bool)
    lone_runs: list[list[int]] = []
    for chain in chains:
        # The chain's places along the row (T49c, docs/rules-session49.md): a tile laid on or beside a claimed tile, a
        # spare box on a row tile, or a tile of a row lying close beside (where the chain zigzags between two rows)
        # shares its place with the tile it lies at, whichever comes first in the chain; a place counts as sideways
        # if any of its tiles is labelled so, and its first such tile (its head) stands for it in the tests below.
        places: list[list[int]] = []
        for tile in chain:
            if places and _same_place(frame, places[-1][0], tile):
                places[-1].append(tile)
            else:
                places.append([tile])
        heads = [next((t for t in place if frame.sideways[t]), place[0]) for place in places]
        runs: list[list[int]] = []  # runs of places, by their index
        run: list[int] = []
        for k, head in enumerate(heads):
            # A place across the row from the last one (laid beside it) is no next place of a run along the row.
            if frame.sideways[head] and (not run or (frame.gap(heads[run[-1]], head) < 0.5
                                                     and not _across(frame, heads[run[-1]], head))):
                run.append(k)
                continue
            runs.append(run)
            run = [k] if frame.sideways[head] else []
        runs.append(run)
        for run in runs:
            if len(run) < min_run:
                continue
            # Flat meld tiles seen beyond 45° all carry one sideways label, and their claimed tile, turned a quarter
            # further, then carries the opposite one: a minority of faces labelled half a turn from the run's
            # majority stays sideways. That pattern marks a meld even in a row of its own (no upright faces);
            # a block of discards turned the other way shows one label throughout and is left alone.
            labels = [int(frame.relative[heads[k]]) for k in run if not frame.face_down[heads[k]]]
            odd: list[int] = []  # places
            if labels:
                majority = max(set(labels), key=labels.count)
                odd = [k for k in run if not frame.face_down[heads[k]]
                       and int(frame.relative[heads[k]]) == (majority + 180) % 360]
                if not 0 < len(odd) < len(labels) / 2:
                    odd = []
            members = [t for k in run for t in places[k] if frame.sideways[t]]
            if odd or sum(1 for t in chain if not frame.sideways[t] and not frame.face_down[t]) >= 2:
                kept = [t for k in odd for t in places[k] if frame.sideways[t]]
                sideways[members] = False
                sideways[kept] = True
                straightened[[t for t in members if t not in kept]] = True
            elif len(run) in (3, 4) and len(run) == len(places) and len(set(labels)) == 1 \
                    and len(labels) == len(run):
                lone_runs.append(members)
    # A row of its own of three or four touching faces, all with one sideways label that upright faces of the hand
    # were found to carry too (a flipped label, straightened above): a flat meld seen from low, whose claimed tile
    # shows no label of its own (a block of discards turned the other way carries the other label, or is longer).
    flipped_labels = {int(frame.relative[t]) for t in np.flatnonzero(straightened)}
    for run in lone_runs:
        if int(frame.relative[run[0]]) in flipped_labels:
            sideways[run] = False
            straightened[run] = True
    if (sideways == frame.sideways).all():
        return frame
    along = np.where(sideways, frame.aspect * frame.unit, frame.unit)
    across = np.where(sideways, frame.unit, frame.aspect * frame.unit)
    return replace(frame, sideways=sideways, along=along, across=across,  # measured_across stays: it is measured
                   straightened=straightened)
