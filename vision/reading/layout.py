"""Which tile plays which part: concealed, winning tile, melds (with who discarded), flowers, clutter.

The rows from :mod:`.geometry` are segmented by one cost model rather than by a fixed gap threshold, so that an
ambiguous gap (a meld split by a careless gap, two melds pushed together, a winning tile not set apart) is settled
by what the whole hand must look like:

* every boundary between two neighbours of a row is either a *cut* or not. Cutting where the tiles touch costs,
  keeping together across a gap costs; both grow linearly with the distance from ``GAP`` tile widths;
* a row segment is a concealed run (upright faces), the winning tile (one upright face right after the concealed
  run), a meld layout (:func:`meld_layout`, mcr.md §4), a run of flowers, or one clutter tile (a fixed cost);
* the counts must add up: concealed + winning = 14 - 3 x melds. Among the segmentations that satisfy it the
  cheapest wins; if none does, the cheapest of all is returned with ``count_ok = False``.

One row holds the concealed run ("main row"); the others hold only melds, flowers and clutter. Each row is solved by
dynamic programming over (position, melds so far); rows are combined over the meld count.
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from engine.hand import Discarder, MeldType

from .geometry import Frame

GAP = 0.17  # tile widths: where "touching" turns into "set apart" (boxes of touching tiles measure -0.1..0.1)
CUT_COST = 4.0  # per tile width short of GAP, for a cut where tiles touch ...
TOUCH_DEPTH = 0.1  # ... up to this overlap (tile widths): boxes overlapping further are not side by side in one row
# (a stacked wall, a tile lying on another), so they are no more one group for it
EDGE_CUT_FACTOR = 3.0  # ... at either end of the concealed run (winning tile included)
JOIN_COST = 4.0  # per tile width beyond GAP, for keeping a meld together across a gap
CONCEALED_JOIN_COST = 1.5  # concealed rows are often loosely spaced, so a gap inside one costs less
FOUR_ALIKE_JOIN_COST = 1.5  # four face-up tiles alike read as a kong: their faces hold them together (R72)
CLUTTER_COST = 3.0  # one tile explained as belonging to no group
SIDEWAYS_STANDING_COST = 2.0  # a tile labelled sideways read as one of the standing tiles ...
STEEP_TILT = 30.0  # ... or, when the rows lie further than this many degrees off the labels' axes, ...
STEEP_SIDEWAYS_STANDING_COST = 0.8  # ... this
FACE_DOWN_CLUTTER_COST = 0.3  # a back outside a concealed kong: usually the wall, cheap to leave out
FLOWER_GROUP_COST = 1.0  # one more group to explain
MELD_REACH = 3.0  # tile heights (centre to centre) from the concealed row within which melds are laid
FAR_MELD_COST = 3.0  # per meld read in a row further away than that
NEARER_ROW = 0.5  # tile heights: a row this much nearer the winner than the concealed row ...
NEARER_MELD_COST = 1.5  # ... costs this per meld read in it
FLOWER_TURNED_COST = 2.5  # a flower face turned sideways or upside down is more likely a loose tile
FLOWER_REACH = 3.5  # tile heights: a lone flower lies at most this far from the nearest hand tile (centre to centre)
FLOWER_GROUP_REACH = 5.5  # tile heights: the same for two or more flowers side by side
FLOWER_SHAPE_LOG = 0.3  # a lone flower's box shape (log width/height) this far off the hand tiles' is a turned tile
FLOWER_CLUTTER_GAP = 1.2  # tile widths: a lone flower face in line with a face-up clutter tile this close is one of
# a line of loose tiles (discards with one missing beside it), not the hand's
# tile heights, centre to centre: a lone flower face with a clutter tile nearer than FLOWER_CROWD_REACH and every hand
# tile farther than FLOWER_CROWD_HAND lies among the loose tiles, not beside the hand (docs/rules-session36.md, R47)
FLOWER_CROWD_REACH = 1.2
FLOWER_CROWD_HAND = 1.5
FLOWER_CROWD_NAMED = 0.5  # a loose tile counts there only if named at least this surely (a box no face fits is weak
# evidence of a tile: docs/rules-session36.md, R48)
MASS_FLOOR = 1e-3  # probability mass floor when a tile's top-k lists no flower (or no playing tile)
# A lone tile named a playing face first becomes a flower only where the flowers hold about exp(-2 / 4.0) ~ 60 % of
# its top-1 (R74, docs/rules-session44.md: 1.5 before, ~26 %): a real flower is named a flower first all but always.
# Beside another flower, whose group cost is paid already, the bar is lower (~40 %).
FLOWER_SHORT_WEIGHT = 4.0
PLAYING_SHORT_WEIGHT = 1.5  # the same for a tile named a flower first read as a playing tile
# A back that the white-dragon attempt reads face up (hand_reader.BACK_AS_WHITE_DRAGON) pays its odds at this weight
# (R79, docs/rules-session46.md): it was chosen for being a possible white dragon, the classifier's back / 5z odds hold
# on development backs, and the hand's rows hold no back outside a concealed kong.
WHITE_DRAGON_SHORT_WEIGHT = 0.75
RAISED_OFFSET = 0.15  # tile widths: a sideways tile whose near edge is this far off the row's lies on another ...
RAISED_OFFSET_MAX = 0.8  # ... unless it is this far off: then the frame is wrong, not the tile lifted
DEPTH_TEST_FLOOR = 0.1  # lift-model probability below which the box-depth test is not believed: its false alarms on
# thick or foreshortened flat tiles had the model near 0, while half the committed model learnt the joint box of an
# added kong's beside pair as lifted (development hands 930 -> 936)
LIFT_OFFSET = 0.09  # tile widths: a smaller offset across the row that still marks a lifted tile ...
LIFT_CONTRAST = 0.07  # ... when it differs this much from the other claimed tiles' offsets
# Seen from near overhead a lifted tile shifts little across the row but away from the photo's centre (which the
# camera aims at the hand's middle): along the row by about 1-4 % of its distance from the hand's centre.
RADIAL_REACH = 3.0  # tile widths from the hand's centre beyond which that shift is looked for
RADIAL_SHIFT_INNER = 0.07  # tile widths outward: a claimed tile in the middle of its meld (both gaps measured) ...
RADIAL_SHIFT_END = 0.10  # ... at an end of it (one gap against the other pair's)
RADIAL_RATE = 0.012  # ... and at least this share of its distance from the centre
# The lift weighed with the tile's size and its offset across the row (_lift_with_size): the weights of logit(p), of the
# log size ratio, of the offset (tile widths, clipped to LIFT_ACROSS_CLIP), and the bias (R43, docs/rules-session35.md;
# R34's three weights before: 1.28, 20.8, -0.68)
LIFT_LOGIT_WEIGHT = 1.17
LIFT_SIZE_WEIGHT = 13.68
LIFT_ACROSS_WEIGHT = -4.12
LIFT_ACROSS_CLIP = 0.8
LIFT_BIAS = -0.47
LIFT_CLIP = 1e-4  # the model's probability clipped to [LIFT_CLIP, 1 - LIFT_CLIP] before its logit
LIFT_HINT = 1  # MeldSlots.lift: read as it lies (a pung), with a warning that it may be an added kong
LIFT_HINT_SHARE = 0.6  # of the LIFT_OFFSET / LIFT_CONTRAST / RADIAL_SHIFT_* thresholds, for LIFT_HINT
RADIAL_TILT = 17.0  # degrees: rows turned further than this off the labels' axes measure the shift too loosely
MAX_FLOWERS = 8  # a run of flowers holds each of the eight at most once
# The concealed run, winning tile included, holds at most 14 tiles (a hand without melds): a longer run never makes the
# count, and trying every one made a row of 80 touching tiles take seconds to lay out (the runs grow as its square)
MAX_RUN = 14
LABEL_FLIP_COST = 1.5  # a meld read with one tile's sideways label taken as a flip
HEAD_SIDEWAYS = 0.5  # the orientation head's sideways probability that names a meld's claimed tile (R44)
FAR_LABEL = 120.0  # degrees between a label and the rows' direction beyond which (rows past STEEP_TILT) no upright
# face can carry it: the claimed tile
UNKNOWN_CLAIM_GAP = 0.25  # tile widths free on each side of a meld whose claimed tile no label shows
FACE_MISS_COST = 3.0  # per meld tile whose likely faces (p >= 0.05) cannot join the others' (~ -log 0.05)
UNLABELLED_MELD_COST = 0.5  # over LABEL_FLIP_COST: a meld none of whose labels shows its claimed tile (unlabelled_meld)
PITCH_MARGIN = 0.07  # tile widths: a step beside the claimed tile is longer by ~(aspect - 1) / 2 ~ 0.17
PITCH_SURE_MARGIN = 0.1  # ... where the labels' own guess (the left end, with a warning) is the other choice
MISSING_BACK_COST = 2.0  # three backs read as a concealed kong whose fourth back was not detected
WALL_SPACING_MARGIN = 0.1  # tile widths: a back this much further than a kong's own backs lie apart is not the wall
# Where the orientation head's probabilities are known (and the rows lie within STEEP_TILT of the labels' axes, where
# an image-relative label means the same as one relative to the row), a label the reader overrules costs its
# log-odds instead of LABEL_FLIP_COST / SIDEWAYS_STANDING_COST, clipped to these bounds: of the development labels
# that were wrong, half had the head below 0.7 (log-odds 0.85), of the right ones 2 % (docs/rules-session17.md).
FLIP_COST_MIN = 0.2
FLIP_COST_MAX = 4.6
# Switches, on as committed (off: the session-16 reading, for comparisons on the same detections): whether the labels
# are weighed by their probabilities where known, and whether faces no label calls sideways may form a meld claimed
# at its likeliest sideways tile (where the group is not set apart, only from GUESS_CLOSE_FLOOR up).
WEIGH_LABELS = True
GUESS_UNLABELLED = True
# The labels are weighed in frames tilted up to this many degrees off their axes. STEEP_TILT until session 33: an
# upright crop of a tile lying far off the picture's axes gave a guess of a label; since then the recogniser reads
# those photos' orientations from crops turned to the rows (vision.recognize.ROWS_TURNED_FROM), and within 45
# degrees an image-relative label still means the same as one relative to the row (docs/rules-session33.md, R36w).
LABELS_WEIGHED_TILT = 45.0
GUESS_CLOSE_FLOOR = 0.2  # a guessed meld whose group is not set apart needs its claimed tile this likely sideways
FLOWERS_SET_APART = True  # R61b: in a row beside the hand's, a flower beside a group counts as free space ...
FLOWER_SIDE_MASS = 0.5  # ... for the set-apart test: a tile whose top-k gives the flowers this much probability
MELD_OVERLAP_FREE = 0.25  # tile widths: meld neighbours overlapping deeper pay CUT_COST per tile width beyond
INF = float("inf")


@dataclass(frozen=True)
class MeldSlots:
    """One meld as laid out: detection indices in row order (a stacked tile last) and what the layout says."""

    type: MeldType  # PUNG stands for "three tiles": chow or pung is decided from the faces
    tiles: tuple[int, ...]
    positions: tuple[int, ...]  # place along the row, 0 = left end; a stacked tile shares its base's place
    discarder: Discarder | None
    claimed: int | None  # detection index of the (first) sideways tile
    face_down: tuple[bool, ...]
    stacked: int | None = None  # detection index of a tile laid on the sideways tile
    raised: bool = False  # the sideways tile looks lifted: maybe an added kong whose fourth tile hides the claimed one
    label_flips: int = 0  # tiles whose sideways label is taken as a flip (perspective near 45°), LABEL_FLIP_COST each
    claim_unknown: bool = False  # no label shows the claimed tile: the left end is assumed (see meld_layout)
    claim_guessed: bool = False  # no label shows it and the head holds none turned: its likeliest tile (_guessed_meld)
    lift: int = 0  # not ``raised``, yet the sideways tile looks slightly lifted: LIFT_HINT (_with_lift)
    lifted: float | None = None  # the lift model's probability that the sideways tile lies on a hidden one (None:
    # not measured, the geometry's ``raised`` / ``lift`` decide instead; when measured, ``raised`` is the box-depth
    # test alone, and where it fires it still decides)

    @property
    def size(self) -> int:
        return len(self.tiles)


@dataclass
class Layout:
    concealed: list[int]
    winning: int | None
    melds: list[MeldSlots]
    flowers: list[int]
    clutter: list[int]
    cost: float
    count_ok: bool
    main_row: list[int] = field(default_factory=list)
    winning_gap: float | None = None  # free space before the winning tile, tile widths
    grouped_rows: bool = False  # melds of upright faces read as concealed sets laid out in rows (R51)
    kongs_in_row: bool = False  # four alike in the hand's row read as a concealed kong showing four faces (R56c)


@dataclass(frozen=True)
class TileFacts:
    """Per-detection facts the segmentation needs (all (N,) arrays)."""

    upright_face: np.ndarray  # face up and not sideways
    flower_mass: np.ndarray  # summed top-k probability of the flower classes
    playing_mass: np.ndarray  # summed top-k probability of the 34 playing kinds (1 for a face-down tile)
    top_probability: np.ndarray  # the top-1 probability
    turned: np.ndarray  # the face is not upright relative to the photo's quarter turn (sideways or upside down)
    faces: np.ndarray | None = None  # (N, K) the faces each tile may show (its top-k with some probability; -1: none)
    box_shape: np.ndarray | None = None  # (N,) log(width / height) of each box in the photo (None: not known)
    backs_face_up: np.ndarray | None = None  # (N,) named a back first, read face up (the white-dragon attempt)
    # the face-down attempt (R82b): (N,) a tile named a white dragon first, read as a back; the summed top-k
    # probability of the back; named a white dragon and read face up (None: no such attempt)
    turned_down: np.ndarray | None = None
    back_mass: np.ndarray | None = None
    white_up: np.ndarray | None = None
    _misses: dict = field(default_factory=dict, compare=False, repr=False)  # meld_misses' answers
    # playing_cost's and flower_cost's answers by tile: the row solvers ask them of the same tiles again and again
    _playing: dict = field(default_factory=dict, compare=False, repr=False)
    _flower: dict = field(default_factory=dict, compare=False, repr=False)

    # Flowers are not held to any count, so nothing but these costs keeps a stray tile with a little flower
    # probability out of the flower group: the log-ratio to the top-1 is weighted by FLOWER_SHORT_WEIGHT and a flower
    # group costs FLOWER_GROUP_COST, so that a lone tile becomes a flower rather than clutter only when flowers hold
    # at least ~60% of its top-1 probability (~26% until R74), and a kong's misread tile is not split off as a flower.
    def flower_cost(self, t: int) -> float:
        """What calling tile t a flower costs: FLOWER_SHORT_WEIGHT x log(p_top1 / P(flower)), 0 when the top-1 is a
        flower (plus FLOWER_TURNED_COST for a face not upright)."""
        cost = self._flower.get(t)
        if cost is None:
            turned = FLOWER_TURNED_COST if self.turned[t] else 0.0  # flowers are laid out upright, like the hand
            cost = self._flower[t] = turned + self._short_of_top(t, self.flower_mass[t], FLOWER_SHORT_WEIGHT)
        return cost

    def can_meld(self, tiles: tuple[int, ...]) -> bool:
        """Whether the tiles' likely faces (``faces``) can make a pung, a kong or (three tiles) a chow."""
        return self.meld_misses(tiles, chow=len(tiles) == 3) == 0

    def meld_misses(self, tiles: tuple[int, ...], chow: bool) -> int:
        """How many of the tiles need a face outside their likely ones (``faces``) to make one kind (a pung or a
        kong) or, with ``chow``, a run; 0 without ``faces``."""
        if self.faces is None or not tiles:
            return 0
        key = (tiles, chow)
        cached = self._misses.get(key)
        if cached is not None:
            return cached
        options = [{int(f) for f in self.faces[t] if 0 <= f < 34} for t in tiles]
        counts: dict[int, int] = {}
        for faces in options:
            for f in faces:
                counts[f] = counts.get(f, 0) + 1
        best = max(counts.values(), default=0)
        if chow and best < len(tiles):
            lows = {f - o for faces in options for f in faces if f < 27 for o in (0, 1, 2)
                    if 0 <= f - o and (f - o) % 9 <= 6 and (f - o) // 9 == f // 9}
            for low in lows:
                for order in itertools.permutations((0, 1, 2)):
                    best = max(best, sum(low + o in faces for o, faces in zip(order, options)))
        self._misses[key] = len(tiles) - best
        return len(tiles) - best

    def down_cost(self, tiles: tuple[int, ...], face_down: tuple[bool, ...]) -> float:
        """What a meld pays for its face-down tiles: nothing for tiles named backs first; for one the face-down
        attempt turned (a white dragon that may be a back, R82b) its odds against the back at
        WHITE_DRAGON_SHORT_WEIGHT, and INF unless the meld shows a face-up tile of another face (R82b: the kong's
        face shows on its other tiles; a kong of white dragons reads the same face up, its claimed tile showing)."""
        if self.turned_down is None:
            return 0.0
        taken = [t for t, down in zip(tiles, face_down) if down and self.turned_down[t]]
        if not taken:
            return 0.0
        if not any(not self.white_up[t] for t, down in zip(tiles, face_down) if not down):
            return INF
        return sum(self._short_of_top(t, self.back_mass[t], WHITE_DRAGON_SHORT_WEIGHT) for t in taken)

    def playing_cost(self, t: int) -> float:
        cost = self._playing.get(t)
        if cost is None:
            face_up = self.backs_face_up is not None and bool(self.backs_face_up[t])
            cost = self._playing[t] = self._short_of_top(t, self.playing_mass[t],
                                                         WHITE_DRAGON_SHORT_WEIGHT if face_up else PLAYING_SHORT_WEIGHT)
        return cost

    def _short_of_top(self, t: int, mass: float, weight: float) -> float:
        """weight x log(p_top1 / mass), 0 where the mass holds the top-1; both floored at MASS_FLOOR (a client's tiles
        may all say 0, and log(0) warned on every such tile)."""
        top = max(float(self.top_probability[t]), MASS_FLOOR)
        return max(0.0, weight * float(np.log(top / max(float(mass), MASS_FLOOR))))


def _cut_cost(gap: float) -> float:
    return CUT_COST * max(0.0, GAP - max(gap, -TOUCH_DEPTH))


def _join_cost(gap: float, weight: float = JOIN_COST) -> float:
    return weight * max(0.0, gap - GAP)


def weighable(frame: Frame) -> bool:
    """Whether the frame's rotation labels may be weighed by the orientation head's probabilities (each tile's where
    known): the switch is on and the rows lie within LABELS_WEIGHED_TILT of the labels' axes."""
    return WEIGH_LABELS and frame.p_sideways is not None and abs(frame.tilt) < LABELS_WEIGHED_TILT


def overrule_cost(frame: Frame, t: int, sideways: bool, fallback: float) -> float:
    """What reading tile t as ``sideways`` (or not) costs against its label: 0 where they agree; else the label's
    log-odds from the orientation head (clipped to FLIP_COST_MIN..FLIP_COST_MAX), or ``fallback`` where that is
    not known (no probability, rows past STEEP_TILT, a label already dropped by ``straighten_sideways_runs``)."""
    if bool(frame.sideways[t]) == sideways:
        return 0.0
    if not weighable(frame) or (frame.straightened is not None and frame.straightened[t]):
        return fallback
    p = float(frame.p_sideways[t])
    if math.isnan(p):
        return fallback
    p = min(max(p, 1e-6), 1 - 1e-6)
    odds = math.log(p / (1 - p)) if frame.sideways[t] else math.log((1 - p) / p)
    return min(max(odds, FLIP_COST_MIN), FLIP_COST_MAX)


def meld_label_cost(meld: MeldSlots, frame: Frame) -> float:
    """The labels a meld overrules: its claimed tile read sideways, the other face-up tiles in the row upright (an
    added kong's tile laid beside the claimed one sideways too), each at ``overrule_cost``; where the labels cannot
    be weighed (or a tile's probability is unknown), LABEL_FLIP_COST per ``label_flips``, as before the head's
    probabilities were used."""
    fallback = LABEL_FLIP_COST * meld.label_flips
    if not weighable(frame) or meld.claim_unknown or any(
            math.isnan(float(frame.p_sideways[t])) for t, down in zip(meld.tiles, meld.face_down) if not down):
        return fallback
    beside = None
    if meld.type is MeldType.ADDED_KONG and meld.stacked is None and meld.claimed is not None:
        place = meld.tiles.index(meld.claimed)
        beside = next((meld.tiles[k] for k in (place + 1, place - 1)
                       if 0 <= k < len(meld.tiles) and frame.sideways[meld.tiles[k]]), None)
    cost = 0.0
    for t, down in zip(meld.tiles, meld.face_down):
        if down or t == meld.stacked:
            continue
        cost += overrule_cost(frame, t, t == meld.claimed or t == beside, LABEL_FLIP_COST)
    return cost


def meld_layout(tiles: list[int], frame: Frame, stacked_on: dict[int, int],
                labels: list[bool] | None = None, reversible_turns: bool = False) -> MeldSlots | None:
    """Read one meld from its tiles in row order, by mcr.md §4 and docs/policy.md (rows V1-V4), or None.

    * 3 tiles, one sideways: chow or pung claimed from the left / across / right by the sideways tile's place
      (left end / middle / right end); with a tile stacked on the sideways one: an added kong;
    * 4 tiles, one sideways: a melded kong; either inner place means across;
    * 4 tiles, two neighbouring sideways: an added kong with its tile laid beside the claimed one; the pair's place
      (left / inner / right) gives the discarder;
    * 4 tiles, no sideways, at least one face down (all four, or the usual two down and two up): a concealed kong.

    Labels that fit none of these (perspective flips them near 45°), each at LABEL_FLIP_COST: two sideways labels
    in 3 tiles, or two apart in 4, the claimed tile is the one whose box is the more sideways; with no sideways
    label, one tile labelled half a turn from all the others is the claimed one (not a reversible face: below); 3 or
    4 flat tiles that all lost their sideways label together (``Frame.straightened``) are a meld claimed at its left
    end, from the left (``claim_unknown``: exact for a chow, a guess for a pung or kong; the segment must be set
    apart).

    ``labels``: sideways labels to read the tiles with instead of the frame's (a claimed tile no label shows,
    guessed from the orientation head's probabilities: ``_RowSolver``).

    A reversible face's label half a turn off (or far off steep rows) marks no claimed tile, its up/down being the
    classifier's guess, unless ``reversible_turns``: the last resort, where nothing else makes a meld of the tiles
    (R76b, docs/rules-session45.md).
    """
    n = len(tiles)
    sideways = list(labels) if labels is not None else [bool(frame.sideways[t]) for t in tiles]
    down = [bool(frame.face_down[t]) for t in tiles]
    stacks = {base: top for top, base in stacked_on.items()}
    positions = tuple(range(n))
    flips = 0
    if n in (3, 4) and not any(down) and not any(t in stacks for t in tiles) and abs(frame.tilt) > STEEP_TILT \
            and frame.relative is not None:
        # Rows turned near 45°: an upright face's label is one of the two quarter turns either side of the row's
        # own direction (within ~45° of it), a claimed face's, turned a quarter further, may be a label 135° from
        # it, which no upright face can carry. Such a label marks the claimed tile whatever the sideways labels
        # say (they flip both ways along the row there).
        far = [k for k, t in enumerate(tiles)
               if _label_off_row(frame, t) >= FAR_LABEL and (reversible_turns or not _reversible(frame, t))]
        if len(far) == 1 and not _head_names_another(tiles, far[0], frame):
            sideways = [k == far[0] for k in range(n)]
    if n in (3, 4) and not any(sideways) and not any(down) and not any(t in stacks for t in tiles) \
            and frame.relative is not None:
        # Neighbouring flat tiles show nearly one angle, so their labels differ by a quarter turn at most: one tile
        # labelled half a turn from all the others is turned a quarter further than they are, the claimed tile
        # (its sideways angle rounded across the 45° line).
        turns = [int(frame.relative[t]) for t in tiles]
        odd = [k for k in range(n) if all((turns[k] - turns[j]) % 360 == 180 for j in range(n) if j != k)
               and (reversible_turns or not _reversible(frame, tiles[k]))]
        if len(odd) == 1:
            sideways = [k == odd[0] for k in range(n)]
            flips = 1
    if n in (3, 4) and not any(sideways) and not any(down) and not any(t in stacks for t in tiles) \
            and frame.straightened is not None and all(frame.straightened[t] for t in tiles):
        # Flat tiles beside a standing row, every one labelled sideways (the claimed tile's label quantised with
        # its neighbours'): a meld whose claimed tile the labels cannot show. Its left end is taken as claimed,
        # from the left: right for every chow (a chow is only claimed from the left, its claimed tile at the left
        # end), a guess for a pung or kong.
        # The centre steps may still show it (_pitch_place): a claimed tile at an end is taken from there.
        place, clear = _pitch_place(tiles, frame, PITCH_SURE_MARGIN)
        if clear and (n == 3 or place in (0, 3)):
            discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)[place] if n == 3 else \
                (Discarder.LEFT, Discarder.ACROSS, Discarder.ACROSS, Discarder.RIGHT)[place]
            return MeldSlots(MeldType.PUNG if n == 3 else MeldType.KONG, tuple(tiles), positions, discarder,
                             tiles[place], (False,) * n, label_flips=1)
        discarder = Discarder.LEFT
        if n == 3:
            return MeldSlots(MeldType.PUNG, tuple(tiles), positions, discarder, tiles[0], (False,) * 3,
                             label_flips=1, claim_unknown=True)
        return MeldSlots(MeldType.KONG, tuple(tiles), positions, discarder, tiles[0], (False,) * 4, label_flips=1,
                         claim_unknown=True)
    if n == 3:
        bases = [k for k in range(3) if sideways[k] and tiles[k] in stacks]
        if sum(sideways) == 2 and not any(down) and len(bases) == 1:
            # Two sideways labels, a tile laid on or beside one of them: that one is the claimed tile (the other's
            # label flipped, as below), an added kong.
            sideways = [k == bases[0] for k in range(3)]
            flips = 1
        elif sum(sideways) == 2 and not any(down) and not any(t in stacks for t in tiles):
            # Two sideways labels in three tiles: no layout has that, but labels flip where perspective turns the
            # row across 45°. The claimed tile is the one whose box is the more sideways (shortest across the row).
            # Past STEEP_TILT the box says nothing about that (measured_across is not solved there) and the flip
            # may be the claimed tile's own: the centre steps tell its place (_pitch_place).
            candidates = [k for k in range(3) if sideways[k]]
            place = min(candidates, key=lambda k: float(frame.measured_across[tiles[k]] / frame.unit[tiles[k]]))
            if abs(frame.tilt) > STEEP_TILT:
                place = _pitch_place(tiles, frame)[0]
            sideways = [k == place for k in range(3)]
            flips = 1
        if sum(sideways) != 1 or any(down):
            return None
        place = sideways.index(True)
        discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)[place]
        claimed = tiles[place]
        if claimed in stacks:
            top = stacks[claimed]
            return MeldSlots(MeldType.ADDED_KONG, tuple(tiles) + (top,), positions + (place,), discarder, claimed,
                             (False,) * 4, stacked=top)
        if any(t in stacks for t in tiles):
            return None
        # A fourth tile laid on the claimed one can hide it completely: only its lift shows. Whether this is an
        # added kong is left to the decoder, which weighs the lift against the faces (a chow cannot be one).
        lifted = float(frame.lifted[claimed]) if frame.lifted is not None else math.nan
        if math.isnan(lifted):
            lifted, raised = None, _raised(tiles, place, frame)
        else:
            # The lift model saw the tile: its probability replaces the offset test, but not the box-depth one (a
            # box as deep as two tiles is the localiser boxing an added tile laid beside together with the claimed
            # one, which the first model never saw: without that half it read 13 of 123 such development kongs
            # fewer). The depth test counts only where the model does not rule a tile out (DEPTH_TEST_FLOOR).
            raised = lifted >= DEPTH_TEST_FLOOR and _raised(tiles, place, frame, offset=False)
            # Weighed with the tile's size where the model leaves a lift possible; under DEPTH_TEST_FLOOR its word
            # stands against a deep box too (thick flat tiles make deep boxes).
            lifted = _lift_with_size(lifted, tiles, place, frame) if lifted >= DEPTH_TEST_FLOOR else lifted
        return MeldSlots(MeldType.PUNG, tuple(tiles), positions, discarder, claimed, (False,) * 3, raised=raised,
                         label_flips=flips, lifted=lifted)
    if n == 4:
        if any(t in stacks for t in tiles):
            return None
        if sum(sideways) == 1 and not any(down):
            place = sideways.index(True)
            discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.ACROSS, Discarder.RIGHT)[place]
            return MeldSlots(MeldType.KONG, tuple(tiles), positions, discarder, tiles[place], (False,) * 4,
                             label_flips=flips)
        if sum(sideways) == 2 and not any(down):
            place = sideways.index(True)
            if not sideways[place + 1] if place + 1 < 4 else True:
                # Two sideways labels apart: no layout has that, but a flat upright tile's label flips where the
                # row turns across 45° (half a turn from the claimed tile's). The claimed tile is the one whose
                # box is the more sideways, as for three tiles.
                candidates = [k for k in range(4) if sideways[k]]
                place = min(candidates, key=lambda k: float(frame.measured_across[tiles[k]] / frame.unit[tiles[k]]))
                discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.ACROSS, Discarder.RIGHT)[place]
                return MeldSlots(MeldType.KONG, tuple(tiles), positions, discarder, tiles[place], (False,) * 4,
                                 label_flips=1)
            discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)[place]
            return MeldSlots(MeldType.ADDED_KONG, tuple(tiles), positions, discarder, tiles[place], (False,) * 4)
        if down == [True, False, False, True]:
            # Back, face, face, back: the usual concealed kong, and no claimed meld shows a back. The labels say
            # little here: a back's comes from its box's shape (near square for a flat tile under a low camera),
            # and a face-up one turned sideways is taken as a flip (LABEL_FLIP_COST each).
            flipped = sum(sideways[1:3])
            return MeldSlots(MeldType.CONCEALED_KONG, tuple(tiles), positions, None, None, tuple(down),
                             label_flips=flipped)
        if (any(down) and not any(sideways)) or all(down):
            # A back's rotation label says little (a back looks alike every way up): four backs in a row are a
            # concealed kong whatever their labels; with a face up among them, a sideways back is a loose one.
            return MeldSlots(MeldType.CONCEALED_KONG, tuple(tiles), positions, None, None, tuple(down))
    return None


def three_backs_kong(tiles: list[int], frame: Frame) -> MeldSlots | None:
    """Three backs in a row: a concealed kong whose fourth back the recogniser missed (a back shows no face, so it
    is the tile most easily lost among its alike neighbours), read at MISSING_BACK_COST; the tile count decides
    whether the hand needs it (three loose backs are usually the wall's). Not where exactly one of the three is labelled
    sideways: no concealed kong is laid with a tile turned, so that row is a claimed meld whose faces the classifier
    took for backs (white dragons, blank in some sets), which the white-dragon attempt reads face up where their 5z
    probability reaches ``hand_reader.BACK_AS_WHITE_DRAGON`` (R75, docs/rules-session45.md)."""
    if len(tiles) != 3 or not all(frame.face_down[t] for t in tiles):
        return None
    if sum(bool(frame.sideways[t]) for t in tiles) == 1:
        return None  # one turned against the others: a claimed meld, its "backs" blank faces (R75)
    return MeldSlots(MeldType.CONCEALED_KONG, tuple(tiles), (0, 1, 2), None, None, (True,) * 3)


def unlabelled_meld(tiles: list[int], frame: Frame, stacked_on: dict[int, int]) -> MeldSlots | None:
    """Three or four face-up tiles that all carry one label, in rows turned past STEEP_TILT: a meld whose claimed
    tile's label fell on the same quarter turn as the others' (perspective near 45°), or None.

    The claimed tile lies along the row, so it is longer along it than the others by the tile's aspect: the centre
    to centre steps on both its sides are longer by half of that. The claimed tile is the one whose neighbouring steps
    stand out by PITCH_MARGIN tile widths over the others (three tiles: the first step longer than the second,
    the left end; shorter, the right end; about equal, the middle; four: the longest pair of steps around a tile).
    """
    n = len(tiles)
    if n not in (3, 4) or abs(frame.tilt) <= STEEP_TILT or frame.relative is None:
        return None
    if any(frame.face_down[t] or frame.sideways[t] or t in stacked_on or t in stacked_on.values() for t in tiles):
        return None
    if len({int(frame.relative[t]) for t in tiles}) != 1:
        return None
    if frame.straightened is not None and any(frame.straightened[t] for t in tiles):
        return None
    place, clear = _pitch_place(tiles, frame)
    # A place that stands out is a sideways tile seen; equal steps are also what upright tiles alone show.
    # (steps that do not stand out name no place: the one taken is a guess, claim_guessed)
    if n == 3:
        discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)[place]
        return MeldSlots(MeldType.PUNG, tuple(tiles), tuple(range(3)), discarder, tiles[place], (False,) * 3,
                         label_flips=int(not clear), claim_guessed=not clear)
    discarder = (Discarder.LEFT, Discarder.ACROSS, Discarder.ACROSS, Discarder.RIGHT)[place]
    return MeldSlots(MeldType.KONG, tuple(tiles), tuple(range(4)), discarder, tiles[place], (False,) * 4,
                     label_flips=int(not clear), claim_guessed=not clear)


def _head_names_another(tiles: list[int], place: int, frame: Frame) -> bool:
    """Whether the orientation head calls another tile of the meld sideways (probability HEAD_SIDEWAYS or more) and
    not the one at ``place``: a label half a turn off the rows is then the classifier's half-turn error on an upright
    face, not a claimed tile's label rounded across 45 degrees (R44, docs/rules-session35.md; the head reads crops
    turned to such rows since R36w)."""
    if frame.p_sideways is None:
        return False
    p = [float(frame.p_sideways[t]) for t in tiles]
    if math.isnan(p[place]) or not p[place] < HEAD_SIDEWAYS:
        return False
    return any(q >= HEAD_SIDEWAYS for k, q in enumerate(p) if k != place)


def _pitch_place(tiles: list[int], frame: Frame, margin: float = PITCH_MARGIN) -> tuple[int, bool]:
    """(place, clear): where along three or four tiles of a meld the claimed tile lies, from the centre to centre
    steps alone (the claimed tile, along the row, lengthens both steps beside it by about (aspect - 1) / 2 tile
    widths): three tiles: the first step longer than the second by PITCH_MARGIN, the left end; shorter, the right
    end; else the middle (not ``clear``: upright tiles alone show equal steps too); four: the place whose steps
    around it stand out most (``clear`` when by PITCH_MARGIN)."""
    n = len(tiles)
    # each step in the local tile width of its two tiles (perspective shrinks the far end of a row)
    steps = [float(frame.centers[tiles[k + 1], 0] - frame.centers[tiles[k], 0])
             / float(frame.unit[tiles[k]] + frame.unit[tiles[k + 1]]) * 2 for k in range(n - 1)]
    if n == 3:
        difference = steps[0] - steps[1]
        place = 0 if difference > margin else 2 if difference < -margin else 1
        return place, place != 1
    around = [steps[0], steps[0] + steps[1], steps[1] + steps[2], steps[2]]
    excess = [around[0] - steps[1], around[1] / 2 - steps[2], around[2] / 2 - steps[0], around[3] - steps[1]]
    place = int(np.argmax(excess))
    return place, excess[place] >= margin


def _reversible(frame: Frame, t: int) -> bool:
    """Whether tile t's face looks the same turned half round (``Frame.reversible``): a label of it half a turn off is
    the classifier's up/down guess, which marks no claimed tile unless nothing else makes a meld of the tiles (R76b,
    docs/rules-session45.md)."""
    return frame.reversible is not None and bool(frame.reversible[t])


def _label_off_row(frame: Frame, t: int) -> float:
    """Degrees between tile t's rotation label (relative to the quarter turn) and the rows' direction."""
    return abs((float(frame.relative[t]) - frame.tilt + 180.0) % 360.0 - 180.0)


def _lift_with_size(p: float, tiles: list[int], place: int, frame: Frame) -> float:
    """The lift model's probability ``p`` that the sideways tile at ``place`` lies on a hidden one, weighed with its
    size and its offset across the row: sigmoid(LIFT_LOGIT_WEIGHT logit(p) + LIFT_SIZE_WEIGHT g + LIFT_ACROSS_WEIGHT a
    + LIFT_BIAS), g the log ratio of its ``unit`` (the box's half perimeter over the tile shape, alike for a tile
    turned either way) to the mean of the meld's upright tiles', a its near (winner's) edge against theirs, in their
    mean unit (negative: further from the winner), clipped to +-LIFT_ACROSS_CLIP. A tile laid on another lies nearer
    the camera and higher: its box is larger than its neighbours' and its near edge shows off theirs; the model, shown
    a crop scaled to the box and centred on it, sees neither. Fitted by logistic regression on the three-tile melds
    that the reader reads in training seeds 541-543 with G1's boxes (R43, docs/rules-session35.md; R34 before, size
    alone: docs/rules-session32.md, s1)."""
    upright = [t for k, t in enumerate(tiles) if k != place]
    grown = math.log(float(frame.unit[tiles[place]]) / float(np.mean(frame.unit[upright])))
    across = min(max(_near_edge_offset(tiles, place, frame), -LIFT_ACROSS_CLIP), LIFT_ACROSS_CLIP)
    q = min(max(p, LIFT_CLIP), 1.0 - LIFT_CLIP)
    z = (LIFT_LOGIT_WEIGHT * math.log(q / (1.0 - q)) + LIFT_SIZE_WEIGHT * grown + LIFT_ACROSS_WEIGHT * across
         + LIFT_BIAS)
    return 1.0 / (1.0 + math.exp(-min(max(z, -30.0), 30.0)))


def _raised(tiles: list[int], place: int, frame: Frame, offset: bool = True) -> bool:
    """Whether the sideways tile at ``place`` looks laid on a hidden claimed tile: off the row's near edge by more
    than RAISED_OFFSET tile widths (the offset test, skipped when ``offset`` is False), or its box reaching further
    across the row than the upright tiles' boxes (the box-depth test).

    A claimed tile lies flat against the winner's edge of the row, so its near (winner's, +y) edge lines up with the
    upright tiles' near edges (within ±0.1 widths for 92% of the synthetic scenes' flat melds). A tile laid on top
    of it is lifted by a tile's thickness, which the camera shows as a shift across the row, while the tile
    underneath is hidden: on seeds 424242, 987654 and 24680 the shift lies between 0.15 and 0.8 widths for 71 of 86
    such tiles and for 27 of 1156 flat claimed tiles (before: beyond 0.1 for 77 and 94).

    That holds for true boxes. The localiser's boxes place a sideways tile's edges less exactly (the near-edge offset
    of flat claimed tiles spreads over an interquartile range of 0.14 widths on development seed 5151, against 0.02
    with true boxes), and it boxes the added tile together with the claimed one under it, so its near edge stays in
    line and the box grows across the row instead. A flat sideways tile is narrower across the row than an upright
    one (its width against their height); a box as deep as theirs is two tiles. With the localiser on seeds 5151 and
    9191 that marks 29 of 52 hidden-claimed added kongs and 15 of 200 pungs (the offset test: 18 of 52 and 42 of
    200); with true boxes on seed 5151 it marks 1 of 32 such kongs and 4 of 119 pungs (the offset test: 21 and 10).
    """
    upright = [t for k, t in enumerate(tiles) if k != place]
    side = tiles[place]
    if abs(frame.tilt) > STEEP_TILT and (not frame.sideways[side] or frame.sideways[upright].any()):
        return False  # extents not measured there, and the labels (that give them) not the tiles' turns
    if offset and RAISED_OFFSET < abs(_near_edge_offset(tiles, place, frame)) < RAISED_OFFSET_MAX:
        return True
    return float(frame.measured_across[side]) > float(np.mean(frame.measured_across[upright]))


def lift_shift(tiles: tuple[int, ...], place: int, frame: Frame, center: np.ndarray) -> tuple[float, float, float]:
    """(across, outward, distance): how far the sideways tile at ``place`` of a three-tile meld lies off where a flat
    claimed tile would lie, in tile widths: across the row (near edge against the upright tiles' near edges) and
    along it, away from the hand's centre ``center`` (normalised frame; the gaps measured from the boxes themselves),
    and how far along the row it lies from that centre."""
    upright = [t for k, t in enumerate(tiles) if k != place]
    side = tiles[place]
    unit = float(np.mean(frame.unit[upright]))
    extent = frame.measured_along if frame.measured_along is not None else frame.along

    def gap(i: int, j: int) -> float:
        free = abs(float(frame.centers[j, 0] - frame.centers[i, 0])) - float(extent[i] + extent[j]) / 2
        return free / float(frame.unit[i] + frame.unit[j]) * 2

    first, second = gap(tiles[0], tiles[1]), gap(tiles[1], tiles[2])
    shift = (first - second) / 2 if place == 1 else second - first  # positive: the sideways tile lies further right
    offset = float(frame.centers[side, 0] - center[0]) / unit
    return _near_edge_offset(tiles, place, frame), shift * float(np.sign(offset)), abs(offset)


def _near_edge_offset(tiles, place: int, frame: Frame) -> float:
    """How far the near (winner's, +y) edge of the sideways tile at ``place`` lies from the mean near edge of the
    meld's upright tiles, in their mean unit: about 0 for a claimed tile lying flat, negative (away from the winner)
    for a tile lifted by another under it."""
    upright = [t for k, t in enumerate(tiles) if k != place]
    side = tiles[place]
    near_upright = float(np.mean(frame.centers[upright, 1] + frame.measured_across[upright] / 2))
    near_side = float(frame.centers[side, 1] + frame.measured_across[side] / 2)
    return (near_side - near_upright) / float(np.mean(frame.unit[upright]))


def _with_lift(layout: "Layout", frame: Frame) -> None:
    """Weigh the lift of each three-tile meld read through its own sideways label with what the whole layout shows
    (``MeldSlots.lift``; ``raised``, from ``_raised``, stays as it is): a sideways tile off the row by
    LIFT_OFFSET (less than RAISED_OFFSET) whose offset stands out from the other claimed tiles' by LIFT_CONTRAST (a
    frame that shifts every claimed tile alike says nothing), or one shifted outward along the row (``lift_shift``),
    by LIFT_HINT_SHARE of those thresholds or more: LIFT_HINT, read as it lies (a pung) with a warning and the added
    kong among the alternatives.

    Such a slight lift used to be read as an added kong (at the full thresholds). That held with true boxes, but
    the localiser's boxes place a sideways tile's edges to about 0.1 tile widths (see ``_raised``), as coarse as the
    lift itself, and added kongs are rare in play (the synthetic scenes show far more of them than tables do): on the
    development seeds with the committed models, reading it as a pung gave 162 exact hands of 300 (seed 5151)
    against 158, and 81 of 150 (seed 9191) against 79; with true boxes 283 of 300 against 287."""
    if abs(frame.tilt) >= STEEP_TILT:
        return  # labels flip along such rows and the boxes grow: the shifts say little
    hand = layout.concealed + [t for m in layout.melds for t in m.tiles] + layout.flowers
    hand += [layout.winning] if layout.winning is not None else []
    if not hand:
        return
    half = np.stack([frame.along[hand], frame.across[hand]], axis=1) / 2
    center = ((frame.centers[hand] - half).min(axis=0) + (frame.centers[hand] + half).max(axis=0)) / 2
    candidates = [k for k, m in enumerate(layout.melds) if m.type is MeldType.PUNG and not m.claim_unknown
                  and m.claimed is not None and m.size == 3 and m.label_flips == 0 and m.lifted is None]
    shifts = {k: lift_shift(layout.melds[k].tiles, layout.melds[k].tiles.index(layout.melds[k].claimed), frame,
                            center) for k in candidates}
    for k in candidates:
        meld = layout.melds[k]
        if meld.raised:
            continue
        across, outward, distance = shifts[k]
        others = [shifts[j][0] for j in candidates if j != k]
        contrast = abs(across - float(np.median(others))) if others else abs(across)
        place = meld.tiles.index(meld.claimed)
        radial = RADIAL_SHIFT_INNER if place == 1 else RADIAL_SHIFT_END
        if abs(frame.tilt) >= RADIAL_TILT or distance < RADIAL_REACH:
            outward = 0.0
        share = LIFT_HINT_SHARE
        if (share * LIFT_OFFSET < abs(across) < RAISED_OFFSET_MAX and contrast > share * LIFT_CONTRAST) \
                or outward > share * max(radial, RADIAL_RATE * distance):
            layout.melds[k] = replace(meld, lift=LIFT_HINT)


_NONE = (INF,)  # a table entry not there yet: any reading costs less


class _RowSolver:
    """Segment-cost tables for one row (a list of detection indices in row order)."""

    def __init__(self, row: list[int], frame: Frame, facts: TileFacts, stacked_on: dict[int, int],
                 flowers_free: bool = False, bridges: dict[tuple[int, int], float] | None = None):
        self.row = row
        self.frame = frame
        self.facts = facts
        self.flowers_free = flowers_free  # a flower beside a group sets it apart (R61b: rows beside the hand's)
        self.stacked_on = stacked_on
        n = len(row)
        # gaps[k-1] = boundary k; ``bridges`` gives the gap between two tiles that taken-out tiles lay between (R65)
        bridges = bridges or {}
        self.gaps = [bridges[pair] if pair in bridges else frame.gap(*pair) for pair in zip(row, row[1:])]
        # cut(k) for every boundary, the row's ends free: asked for the same boundaries again and again
        self._cuts = [0.0] + [_cut_cost(gap) for gap in self.gaps] + [0.0]
        # Near 45° of residual tilt single labels flip along a row: a sideways label in the run then says less.
        self._sideways_standing = (SIDEWAYS_STANDING_COST if abs(frame.tilt) < STEEP_TILT
                                   else STEEP_SIDEWAYS_STANDING_COST)
        self._segments: dict[int, list[tuple[int, str, float, object]]] = {}
        self._forward: list[dict[int, tuple[float, list]]] | None = None
        self._main_options: list | None = None

    def cut(self, k: int) -> float:
        """Cost of a cut at boundary k (between row[k-1] and row[k]); boundaries 0 and n are free."""
        return self._cuts[k] if 0 < k < len(self.row) else 0.0

    def joined(self, i: int, j: int, weight: float = JOIN_COST) -> float:
        return sum(_join_cost(self.gaps[k - 1], weight) for k in range(i + 1, j))

    def overlapping(self, i: int, j: int) -> float:
        """What row[i:j] read as one meld pays for neighbours overlapping deeper than MELD_OVERLAP_FREE."""
        return sum(CUT_COST * max(0.0, -self.gaps[k - 1] - MELD_OVERLAP_FREE) for k in range(i + 1, j))

    def playing_cost(self, t: int) -> float:
        return self.facts.playing_cost(t)

    def _touching_back(self, k: int, neighbour: int, reach: float = GAP) -> bool:
        """Whether row[k] exists, shows its back, and lies less than ``reach`` tile widths from row[neighbour]."""
        if k < 0 or k >= len(self.row) or not self.frame.face_down[self.row[k]]:
            return False
        return self.frame.gap(self.row[k], self.row[neighbour]) < reach

    def _wall_piece(self, i: int, size: int) -> bool:
        """Whether the backs row[i:i + size] are cut out of a longer line of backs: a back beside them lies closer
        than GAP, or no further from them than they lie apart among themselves (WALL_SPACING_MARGIN): the wall,
        whose tiles can lie as loosely as a careless kong's. Not four backs beside another four with which they make
        a line of eight split clearly in the middle (``_kong_pair``): two concealed kongs laid face down side by side
        (K70, docs/rules-session70.md)."""
        inner = max(self.gaps[k - 1] for k in range(i + 1, i + size))
        reach = max(GAP, inner + WALL_SPACING_MARGIN)
        before = self._touching_back(i - 1, i, reach)
        after = self._touching_back(i + size, i + size - 1, reach)
        if before != after and size == 4 and self._kong_pair(i - 4 if before else i):
            return False
        return before or after

    def _kong_pair(self, start: int) -> bool:
        """Whether row[start:start + 8] are backs that make a line of their own (no back within GAP beyond either
        end) split between its two fours by a gap wider than each of its other gaps by WALL_SPACING_MARGIN or more:
        a wall's stacks lie evenly spaced, two kongs laid side by side leave a gap between them (K70)."""
        end = start + 8
        if start < 0 or end > len(self.row) or not all(self.frame.face_down[t] for t in self.row[start:end]):
            return False
        if self._touching_back(start - 1, start) or self._touching_back(end, end - 1):
            return False
        middle = self.gaps[start + 3]
        return all(middle >= self.gaps[k] + WALL_SPACING_MARGIN for k in range(start, end - 1) if k != start + 3)

    def _set_apart(self, start: int, end: int) -> bool:
        """Whether row[start:end] has at least UNKNOWN_CLAIM_GAP tile widths free on each side (or a row end, or a
        flower beside it: R61)."""
        before = start == 0 or self.gaps[start - 1] >= UNKNOWN_CLAIM_GAP or self._flower(start - 1)
        after = end == len(self.row) or self.gaps[end - 1] >= UNKNOWN_CLAIM_GAP or self._flower(end)
        return before and after

    def _flower(self, k: int) -> bool:
        """Whether row[k] is a flower face (flower mass FLOWER_SIDE_MASS or more) in a row read beside the hand's
        (``flowers_free``): the set-apart test keeps three flat tiles cut out of a line of discards from reading as a
        meld, and flowers are never discarded, so there a flower beside a group does not make it part of such a line
        (Hong Kong players lay an exposed pung, nothing turned, against their flowers). In the hand's own row flowers
        lie among the concealed tiles too, and say nothing of a meld (R61b, docs/rules-session41.md)."""
        return self.flowers_free and float(self.facts.flower_mass[self.row[k]]) >= FLOWER_SIDE_MASS

    def _guessed_meld(self, start: int, end: int) -> MeldSlots | None:
        """row[start:end], three or four face-up tiles that no label calls sideways and whose faces can meld, read as a
        meld claimed at the tile the orientation head holds the most likely sideways (its label's cost is the meld's:
        ``meld_label_cost``), or None; a group not set apart (melds laid close together or to the concealed run) only
        where that tile's probability reaches GUESS_CLOSE_FLOOR."""
        tiles = self.row[start:end]
        frame = self.frame
        if not weighable(frame) or any(frame.face_down[t] or frame.sideways[t] or t in self.stacked_on
                                       or t in self.stacked_on.values() for t in tiles):
            return None
        p = [float(frame.p_sideways[t]) for t in tiles]
        if any(math.isnan(v) for v in p) or not self.facts.can_meld(tuple(tiles)):
            return None
        place = max(range(len(tiles)), key=lambda k: p[k])
        if not self._set_apart(start, end) and p[place] < GUESS_CLOSE_FLOOR:
            return None  # cut out of a line of faces the head holds upright: loose tiles, not a meld
        meld = meld_layout(tiles, frame, self.stacked_on, labels=[k == place for k in range(len(tiles))])
        if meld is not None and p[place] < HEAD_SIDEWAYS:
            # the head holds no tile of it turned (a meld laid with nothing turned, as Hong Kong players lay one):
            # its `from` is the likeliest of unlikely places, which the reading says (claimed_tile_guessed)
            meld = replace(meld, claim_guessed=True)
        return meld

    def segments(self, i: int) -> list[tuple[int, str, float, object]]:
        """Segments that may start at i: (end, kind, cost, payload). Kinds: meld, flowers, clutter."""
        cached = self._segments.get(i)
        if cached is None:
            cached = self._segments[i] = self._segments_from(i)
        return cached

    def _segments_from(self, i: int) -> list[tuple[int, str, float, object]]:
        out: list[tuple[int, str, float, object]] = []
        n = len(self.row)
        out.append((i + 1, "clutter", FACE_DOWN_CLUTTER_COST if self.frame.face_down[self.row[i]] else CLUTTER_COST,
                    None))
        for size in (3, 4):
            if i + size <= n:
                meld = meld_layout(self.row[i:i + size], self.frame, self.stacked_on)
                missing = 0
                if meld is None and size == 3:
                    meld = three_backs_kong(self.row[i:i + size], self.frame)
                    missing = int(meld is not None)
                unlabelled = meld is None
                if unlabelled:
                    meld = unlabelled_meld(self.row[i:i + size], self.frame, self.stacked_on)
                    if meld is not None and (not self._set_apart(i, i + size) or not self.facts.can_meld(meld.tiles)):
                        meld = None  # cut out of a longer line, or faces that make no meld: loose tiles
                if meld is None and GUESS_UNLABELLED:
                    meld = self._guessed_meld(i, i + size)
                    unlabelled = False  # its cost is its claimed tile's label (meld_label_cost)
                if meld is None and self.frame.reversible is not None \
                        and any(self.frame.reversible[t] for t in self.row[i:i + size]):
                    # nothing else makes a meld of them: a reversible face's half-turn label is believed after all
                    meld = meld_layout(self.row[i:i + size], self.frame, self.stacked_on, reversible_turns=True)
                    unlabelled = False
                if meld is not None and meld.type is MeldType.CONCEALED_KONG and all(meld.face_down) \
                        and self._wall_piece(i, size):
                    meld = None  # four backs cut out of a longer line of backs: that is the wall, not a kong
                if meld is not None and meld.claim_unknown and not self._set_apart(i, i + size):
                    meld = None  # three flat tiles cut out of a longer line of them: discards, not a meld
                if meld is not None:
                    up = tuple(t for t, down in zip(meld.tiles, meld.face_down) if not down)
                    chow = meld.type is MeldType.PUNG and meld.discarder is Discarder.LEFT
                    # four alike, every face showing: a kong however loosely laid (R72), a gap inside it costs
                    # what a gap inside the concealed run does
                    alike = size == 4 and not any(meld.face_down) and self.facts.meld_misses(meld.tiles, False) == 0
                    cost = meld_label_cost(meld, self.frame) \
                        + self.joined(i, i + size, FOUR_ALIKE_JOIN_COST if alike else JOIN_COST) \
                        + self.overlapping(i, i + size) \
                        + FACE_MISS_COST * self.facts.meld_misses(up, chow) \
                        + (UNLABELLED_MELD_COST if unlabelled else 0.0) + MISSING_BACK_COST * missing \
                        + self.facts.down_cost(meld.tiles, meld.face_down) + sum(
                        self.playing_cost(t) for t, down in zip(meld.tiles, meld.face_down) if not down)
                    if cost < INF:
                        out.append((i + size, "meld", cost, meld))
        j = i
        cost = FLOWER_GROUP_COST
        while j < n and j - i < MAX_FLOWERS and not self.frame.face_down[self.row[j]]:
            if j > i:
                cost += _join_cost(self.gaps[j - 1])
            cost += self.facts.flower_cost(self.row[j])
            j += 1
            out.append((j, "flowers", cost, None))
        return out

    def forward(self, limit: int) -> list[dict[tuple[int, int], tuple[float, list]]]:
        """F[i][(m, k)] = (cost, segments) explaining row[:i] with m melds of which k are kongs read through a flipped
        label, cut costs inside (0, i) included. Those kongs are counted apart so that one that takes in a loose
        sideways tile beside a meld cannot hide the reading with the meld and the loose tile: the faces choose."""
        if limit == len(self.row) and self._forward is not None:
            return self._forward
        table: list[dict[tuple[int, int], tuple[float, list]]] = [dict() for _ in range(limit + 1)]
        table[0][(0, 0)] = (0.0, [])
        for i in range(limit):
            if not table[i]:
                continue
            entry_cut = self.cut(i) if i > 0 else 0.0
            for end, kind, cost, payload in self.segments(i):
                if end > limit:
                    continue
                # the key (melds, four-tile melds read through a flipped label) after this segment
                meld = kind == "meld"
                flipped = meld and payload.size == 4 and payload.label_flips > 0
                target = table[end]
                for key, (base, segs) in table[i].items():
                    key2 = (key[0] + 1, key[1] + flipped) if meld else key
                    total = base + entry_cut + cost
                    if key2[0] <= 4 and total < target.get(key2, _NONE)[0]:
                        target[key2] = (total, segs + [(i, end, kind, payload)])
        if limit == len(self.row):
            self._forward = table
        return table

    def backward(self, start: int) -> list[dict[tuple[int, int], tuple[float, list]]]:
        """B[i][(m, k)] for row[i:], i >= start, cut costs inside (i, n) included."""
        n = len(self.row)
        table: list[dict[tuple[int, int], tuple[float, list]]] = [dict() for _ in range(n + 1)]
        table[n][(0, 0)] = (0.0, [])
        for i in range(n - 1, start - 1, -1):
            target = table[i]
            for end, kind, cost, payload in self.segments(i):
                if not table[end]:
                    continue
                exit_cut = self.cut(end) if end < n else 0.0
                meld = kind == "meld"  # (the key after this segment, as in ``forward``)
                flipped = meld and payload.size == 4 and payload.label_flips > 0
                for key, (base, segs) in table[end].items():
                    key2 = (key[0] + 1, key[1] + flipped) if meld else key
                    total = base + exit_cut + cost
                    if key2[0] <= 4 and total < target.get(key2, _NONE)[0]:
                        target[key2] = (total, [(i, end, kind, payload)] + segs)
        return table

    def main_options(self) -> list[tuple[float, int, int, bool, list]]:
        """Every way to hold the concealed run: (cost, concealed count, melds, has winning tile, segments)."""
        if self._main_options is None:
            self._main_options = self._solve_main_options()
        return self._main_options

    def _solve_main_options(self) -> list[tuple[float, int, int, bool, list]]:
        n = len(self.row)
        # Standing tiles are upright faces; a face the labels call sideways may still stand in the run (labels flip
        # where perspective turns a row across 45°), at SIDEWAYS_STANDING_COST, or at its label's log-odds where the
        # orientation head's probability is known (overrule_cost).
        stand = [0.0 if self.facts.upright_face[t] else
                 overrule_cost(self.frame, t, False, self._sideways_standing) if not self.frame.face_down[t] else INF
                 for t in self.row]
        stand = [INF if t in self.stacked_on.values() else c for t, c in zip(self.row, stand)]
        ok = [c < INF for c in stand]
        forward = self.forward(n)
        backward = self.backward(0)
        # (the tables' entries and the per-tile costs as lists, looked up in the loops below; ``_cuts`` is cut(k))
        after = [[(m, c, segs) for (m, _), (c, segs) in table.items()] for table in backward]
        playing_costs = [self.playing_cost(t) for t in self.row]
        cuts = self._cuts
        gaps = self.gaps
        options = []
        for a in range(n):
            if not ok[a]:
                continue
            if not forward[a]:
                continue
            before = [(m, c, segs) for (m, _), (c, segs) in forward[a].items()]
            inner = 0.0
            playing = 0.0
            for b in range(a + 1, min(n, a + MAX_RUN) + 1):
                if not ok[b - 1]:
                    break
                playing += playing_costs[b - 1] + stand[b - 1]
                if b - 1 > a:
                    inner += _join_cost(gaps[b - 2], CONCEALED_JOIN_COST)
                if playing == INF:
                    break
                for with_win in (False, True):
                    end = b + 1 if with_win else b
                    if end > n or end - a > MAX_RUN or (with_win and not ok[b]):
                        continue
                    # The concealed run is set apart from whatever else shares its row (flowers, melds): cutting it
                    # off where tiles touch costs EDGE_CUT_FACTOR times a plain cut.
                    cost = inner + playing + EDGE_CUT_FACTOR * (cuts[a] + cuts[end])
                    if with_win:
                        cost += cuts[b] + playing_costs[b] + stand[b]
                    if cost == INF or not after[end]:
                        continue
                    for m1, c1, s1 in before:
                        for m2, c2, s2 in after[end]:
                            if m1 + m2 <= 4:
                                # the segments are written out only for the few layouts kept (segments_of)
                                options.append((cost + c1 + c2, b - a, m1 + m2, with_win, (s1, a, b, s2)))
        return options

    @staticmethod
    def segments_of(option: tuple) -> list:
        """The segment list of a ``main_options`` entry."""
        before, a, b, after = option[4]
        segs = before + [(a, b, "concealed", None)]
        if option[3]:
            segs.append((b, b + 1, "winning", None))
        return segs + after


def segment(frame: Frame, rows: list[list[int]], facts: TileFacts, stacked_on: dict[int, int],
            n_best: int = 1, solver_cache: dict | None = None,
            bridges: dict[tuple[int, int], float] | None = None) -> list[Layout]:
    """The ``n_best`` cheapest readings of the rows, count-consistent ones first (see the module docstring).

    Empty when there are no rows or no row can hold a concealed run. ``solver_cache``: a dict kept by the caller across
    calls with the same ``frame``, ``facts`` and ``stacked_on`` (rows that recur are then not solved again), and no
    ``bridges``. ``bridges``: {(a, b): gap} read between row neighbours a and b instead of their own (R65).
    """
    if bridges and solver_cache is not None:
        raise ValueError("segment: bridged gaps are not kept in a solver cache")
    if not rows:
        return []
    # Melds are laid next to the hand: a meld in a row far from the concealed row costs more (FAR_MELD_COST), so
    # each main-row choice takes a near or a far table per other row. The tables are indexed by the meld count, so
    # the far one is the near one plus FAR_MELD_COST per meld (the same segmentations win).
    if solver_cache is None:
        solver_cache = {}
    near_solvers, main_solvers = [], []
    for row in rows:
        solver = solver_cache.get(tuple(row))
        if solver is None:
            solver = solver_cache[tuple(row)] = _RowSolver(row, frame, facts, stacked_on, bridges=bridges)
        main_solvers.append(solver)
        # A row read beside the hand's sets a group against a flower apart (R61b); a row with no flower face reads
        # the same either way, so its one solver serves both, and a lone row is never read beside another.
        if FLOWERS_SET_APART and len(rows) > 1 and any(float(facts.flower_mass[t]) >= FLOWER_SIDE_MASS for t in row):
            side = solver_cache.get((tuple(row), "side"))
            if side is None:
                side = solver_cache[(tuple(row), "side")] = _RowSolver(row, frame, facts, stacked_on,
                                                                      flowers_free=True, bridges=bridges)
            solver = side
        near_solvers.append(solver)
    near_tables = [s.forward(len(s.row))[len(s.row)] for s in near_solvers]
    far_tables = [{key: (cost + key[0] * FAR_MELD_COST, segs) for key, (cost, segs) in table.items()}
                  for table in near_tables]
    distance = row_distances(frame, rows)
    height = frame.aspect * float(np.median(frame.unit[[t for row in rows for t in row]]))
    row_y = [float(np.mean(frame.centers[row, 1])) / height for row in rows]  # tile heights, + toward the winner
    solvers = main_solvers
    candidates: list[tuple[tuple[bool, float], int, list, list]] = []
    for main_index, solver in enumerate(solvers):
        if len(solver.row) < 2:
            continue  # the concealed row holds two tiles at least (one and the winning tile, beside four melds)
        others = [far_tables[k] if distance[main_index][k] > MELD_REACH else near_tables[k]
                  for k in range(len(rows)) if k != main_index]
        # Melds are laid beside the concealed row or further from the winner, never between the winner and it: a
        # row nearer the winner than the main row by NEARER_ROW tile heights costs NEARER_MELD_COST per meld.
        nearer = [k for k in range(len(rows)) if k != main_index and row_y[k] - row_y[main_index] > NEARER_ROW]
        if nearer:
            position = [k for k in range(len(rows)) if k != main_index]
            others = [{key: (cost + key[0] * NEARER_MELD_COST, segs) for key, (cost, segs) in table.items()}
                      if position[j] in nearer else table for j, table in enumerate(others)]
        combined: dict[tuple[int, int], tuple[float, list]] = {(0, 0): (0.0, [])}
        for table in others:
            merged: dict[tuple[int, int], tuple[float, list]] = {}
            for (m1, k1), (c1, s1) in combined.items():
                for (m2, k2), (c2, s2) in table.items():
                    key = (m1 + m2, k1 + k2)
                    if key[0] <= 4 and c1 + c2 < merged.get(key, (INF,))[0]:
                        merged[key] = (c1 + c2, s1 + [s2])
            combined = merged
        for option in solver.main_options():
            cost, n_conc, m_main, with_win = option[:4]
            for (m_side, _), (c_side, side_segs) in combined.items():
                melds = m_main + m_side
                if melds > 4:
                    continue
                count_ok = n_conc + with_win == 14 - 3 * melds
                candidates.append(((not count_ok, cost + c_side), main_index, option, side_segs))
    layouts: list[Layout] = []
    for (not_ok, total), main_index, option, side_segs in heapq.nsmallest(n_best, candidates, key=lambda c: c[0]):
        segs = _RowSolver.segments_of(option)
        layout = Layout(concealed=[], winning=None, melds=[], flowers=[], clutter=[], cost=total,
                        count_ok=not not_ok, main_row=rows[main_index])
        main_solver = solvers[main_index]
        for i, end, kind, _ in segs:
            if kind == "winning":
                layout.winning_gap = main_solver.gaps[i - 1] if i > 0 else None
        # Collect rows top to bottom (the side segments come one list per other row, in row order), so that melds
        # are listed in reading order.
        side_lists = iter(side_segs)
        for k, row in enumerate(rows):
            _collect(layout, row, segs if k == main_index else next(side_lists))
        _drop_stray_flowers(layout, frame, facts)
        _cap_flowers(layout, facts)
        layout.melds = list(layout.melds)
        _with_lift(layout, frame)
        layouts.append(layout)
    return layouts


def row_distances(frame: Frame, rows: list[list[int]]) -> list[list[float]]:
    """(R, R) nearest centre-to-centre distance between two rows, in tile heights (the rows' median tile height,
    weighted by their sizes)."""
    count = len(rows)
    if count < 2:
        return [[0.0] * count for _ in range(count)]
    tiles = [t for row in rows for t in row]
    points = frame.centers[tiles]
    diff = points[:, None, :] - points[None, :, :]
    distance = np.hypot(diff[..., 0], diff[..., 1])
    starts = np.cumsum([0] + [len(row) for row in rows[:-1]])
    nearest = np.minimum.reduceat(np.minimum.reduceat(distance, starts, axis=1), starts, axis=0)
    sizes = np.array([len(row) for row in rows], float)
    medians = np.array([_median([float(frame.unit[t]) for t in row]) for row in rows])
    height = frame.aspect * (sizes[:, None] * medians[:, None] + sizes[None, :] * medians[None, :]) \
        / (sizes[:, None] + sizes[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):  # degenerate boxes: nan, a far row for no one
        out = nearest / height
    np.fill_diagonal(out, 0.0)
    return out.tolist()


def _median(values: list[float]) -> float:
    """numpy's median of a short list, without numpy's per-call overhead."""
    ordered = sorted(values)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else float(np.mean(ordered[half - 1:half + 1]))


def _drop_stray_flowers(layout: Layout, frame: Frame, facts: TileFacts) -> None:
    """Flowers are shown near the hand, as one group of their own: a flower face touching a clutter tile in its row
    (a discard or wall row that happens to hold a flower; a lone back, touching no other, does not count: R81) is
    clutter; of the groups of flowers side by side, those
    far from every hand tile are clutter (a lone face within FLOWER_REACH tile heights, a group of two or more
    within FLOWER_GROUP_REACH: a row of flowers laid in front of the melds), and of the rest only the largest (then
    the nearest) is kept: a second group is a loose tile that happens to be a flower, unless it lies against a hand
    tile in line with it (docs/rules-session37.md, R53).

    A lone flower whose box is shaped unlike the hand's upright tiles' (``facts.box_shape`` more than
    FLOWER_SHAPE_LOG off their median) lies turned at an angle to the hand: players lay their flowers square with
    it, a tile dropped among the discards lies any way (docs/rules-session32.md, f1). One against a loose tile (in
    any row: nearer than FLOWER_CROWD_REACH, named at least FLOWER_CROWD_NAMED surely) and apart from the hand
    (farther than FLOWER_CROWD_HAND) is one of the loose tiles (docs/rules-session36.md, R47, R48)."""
    hand = layout.concealed + [t for m in layout.melds for t in m.tiles]
    hand += [layout.winning] if layout.winning is not None else []
    if not hand or not layout.flowers:
        return
    square = [t for t in hand if facts.upright_face[t]]
    hand_shape = float(np.median(facts.box_shape[square])) if square and facts.box_shape is not None else None

    def askew(f: int) -> bool:
        return hand_shape is not None and abs(float(facts.box_shape[f]) - hand_shape) > FLOWER_SHAPE_LOG

    def distance(f: int, tiles: list[int] = hand) -> float:
        """From flower f to the nearest of ``tiles`` (the hand's), centre to centre, in f's tile heights."""
        height = frame.aspect * frame.unit[f]
        return float(np.hypot(*(frame.centers[tiles] - frame.centers[f]).T).min() / height)

    def same_group(f: int, g: int) -> bool:
        height = frame.aspect * frame.unit[f]
        return abs(frame.centers[g, 1] - frame.centers[f, 1]) < 0.42 * height and frame.gap(f, g) < 1.0

    def touching(f: int, others: list[int]) -> bool:
        height = frame.aspect * frame.unit[f]
        return any(abs(frame.centers[c, 1] - frame.centers[f, 1]) < 0.42 * height and frame.gap(f, c) < GAP
                   for c in others)

    def crowded(f: int, others: list[int]) -> bool:
        named = [c for c in others if facts.top_probability[c] >= FLOWER_CROWD_NAMED]
        return bool(named) and distance(f) > FLOWER_CROWD_HAND and distance(f, named) < FLOWER_CROWD_REACH

    def in_line(f: int, others: list[int]) -> bool:
        height = frame.aspect * frame.unit[f]
        return any(abs(frame.centers[c, 1] - frame.centers[f, 1]) < 0.42 * height and not frame.face_down[c]
                   and frame.gap(f, c) < FLOWER_CLUTTER_GAP for c in others)

    # A flower touching clutter is clutter, and so is one touching it in turn (a row of discards). Each flower is
    # checked against the tiles dropped since it was last checked (a row of a hundred flowers touching end to end
    # took seconds when every pass checked every flower against every dropped tile again).
    def lone_back(c: int) -> bool:
        """A back with no other back touching it in its row: a stray box (between two rows, or a tile named a
        back), not a piece of the wall (R81, docs/rules-session46.md)."""
        if not frame.face_down[c]:
            return False
        return not touching(c, [d for d in layout.clutter if d != c and frame.face_down[d]])

    candidates = list(layout.flowers)
    dropped = list(layout.clutter)
    # (only the clutter tiles touching a flower are asked whether they are lone backs: a photo may hold hundreds)
    fresh = [c for c in dropped if any(touching(f, [c]) for f in candidates) and not lone_back(c)]
    while fresh:
        newly = [f for f in candidates if touching(f, fresh)]
        candidates = [f for f in candidates if f not in newly]
        dropped += newly
        fresh = newly
    groups: list[list[int]] = []
    for f in candidates:
        joined = [g for g in groups if any(same_group(f, h) for h in g)]
        merged = [f] + [h for g in joined for h in g]
        groups = [g for g in groups if g not in joined] + [merged]
    scored = []
    for group in groups:
        reach = FLOWER_REACH if len(group) == 1 else FLOWER_GROUP_REACH
        nearest = min(distance(f) for f in group)
        if len(group) == 1 and (in_line(group[0], dropped) or askew(group[0]) or crowded(group[0], dropped)):
            # one face in a line of loose tiles with a gap (a discard missing beside it), turned askew, or against a
            # loose tile and apart from the hand
            continue
        if nearest <= reach:
            scored.append((-len(group), nearest, group))
    kept = set(min(scored)[2]) if scored else set()
    # Another group lying against a hand tile, in line with it, is the hand's too (R53): players set flowers beside
    # their own tiles, and a loose tile seldom lies against the hand.
    kept.update(f for _, _, group in scored if any(touching(g, hand) for g in group) for f in group)
    layout.clutter.extend(f for f in layout.flowers if f not in kept)
    layout.flowers = [f for f in layout.flowers if f in kept]


def _cap_flowers(layout: Layout, facts: TileFacts) -> None:
    """A hand shows each of the eight flowers at most once: of more flower tiles than that (a spurious box among a
    row of eight), the MAX_FLOWERS cheapest to call flowers are kept and the rest left as clutter, so that the faces
    can still make a hand."""
    if len(layout.flowers) <= MAX_FLOWERS:
        return
    # cheapest first; among equal costs (a top-1 flower, or flowers holding more than the top-1) the likelier flower
    ranked = sorted(layout.flowers, key=lambda f: (facts.flower_cost(f), -float(facts.flower_mass[f])))
    kept = set(ranked[:MAX_FLOWERS])
    layout.clutter.extend(f for f in layout.flowers if f not in kept)
    layout.flowers = [f for f in layout.flowers if f in kept]


def _collect(layout: Layout, row: list[int], segs: list) -> None:
    for i, end, kind, payload in segs:
        tiles = row[i:end]
        if kind == "concealed":
            layout.concealed.extend(tiles)
        elif kind == "winning":
            layout.winning = tiles[0]
        elif kind == "meld":
            layout.melds.append(payload)
        elif kind == "flowers":
            layout.flowers.extend(tiles)
        else:
            layout.clutter.extend(tiles)
