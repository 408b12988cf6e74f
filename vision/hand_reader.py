"""From the tiles detected in a photo to a structured, legal winning hand.

``read_hand(detections, image_size)`` runs three stages (each its own module under :mod:`vision.reading`):

1. geometry (:mod:`vision.reading.geometry`): the photo's quarter turn, tilt and local tile size from the tiles
   themselves, rows, stacked tiles, duplicate boxes;
2. layout (:mod:`vision.reading.layout`): which tiles are concealed, the winning tile, each meld with who discarded
   its claimed tile (mcr.md §4: sideways tile at the left end = left, middle = across, right end = right), flowers,
   clutter, by one cost model over gaps, constrained by the tile count;
3. decoding (:mod:`vision.reading.decode`): the most probable faces, from every tile's top-k, that make a legal
   winning hand, and the legal readings that come close.

Layout policy (docs/policy.md rows V1-V5): a kong's sideways tile at either inner place means "across"; an added kong
is a pung whose claimed tile has a tile laid across it or beside it (two neighbouring sideways tiles); a concealed
kong is four tiles with at least one face down (four down: its face must come from the request,
``concealed_kong_tiles``); the winning tile is the single upright tile set apart at the right end of the concealed
run (none set apart: the right-most standing tile is used, with a warning, unless the request names it).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence, Set as AbstractSet
from dataclasses import dataclass, field, replace
from itertools import combinations, groupby, product
from typing import Any

import numpy as np

from engine.errors import HandError
from engine.hand import Hand, Meld, MeldType, hands_equal_ignoring_order
from engine.tiles import ALL_FACES, KIND_COUNT, Tile

from .classes import FACE_CODES, FACE_DOWN
from .detections import Detections, edge_slivers, reported_boxes
from .reading import decode as decoding
from .reading import geometry
from .reading.layout import (CLUTTER_COST, FLOWER_GROUP_COST, GAP, MAX_FLOWERS, Layout, MeldSlots, TileFacts,
                             meld_label_cost, row_distances, segment)

ROLES = ("concealed", "winning", "meld", "flower", "clutter")
# Stable warning codes (HandReading.warning_codes), for clients that switch on them.
WARNING_CODES = {
    "no_tiles": "no tiles were found",
    "no_hand_layout": "no row of standing tiles was found",
    "wrong_tile_count": "the standing tiles do not number 14 - 3 x melds (winning tile included)",
    "winning_tile_not_set_apart": "no tile set apart; the right-most standing tile is assumed (request: winning_tile)",
    "winning_tile_overridden": "the request names a winning tile other than the set-apart tile's face",
    "concealed_kong_face_unknown": "a concealed kong shows no face (request: concealed_kong_tiles); no hand until then",
    "concealed_kong_tiles_unused": "the request names more concealed kong faces than the photo shows kongs with no "
                                   "face: the extra names are ignored",
    "tile_corrected": "a tile's face was changed from its top-1: the most probable legal hand (policy V5, V6)",
    "correction_outside_top_k": "a legal hand needed a face outside a tile's top-k: check the photo",
    "no_legal_hand": "no reading of the tiles is a legal winning hand",
    "search_budget_exhausted": "the decoding search, or a stage of the reading, stopped at its budget (tiles far from"
                               " any legal hand, or a slow photo): the best reading found is returned",
    "flowers_ignored": "riichi: flower tiles are not part of the hand",
    "rows_read_as_concealed": "the tiles lie in rows (of sets, or the hand in two rows) with no tile turned: read as a"
                              " concealed hand (a claimed meld shows its claimed tile turned)",
    "kong_in_row": "four alike lie in the hand's row with none turned: read as a concealed kong (a claimed kong shows"
                   " its claimed tile turned)",
    "claimed_tile_assumed": "no label shows which tile of a pung or kong was claimed: its left end (from the left) is"
                            " assumed",
    "claimed_tile_guessed": "no tile of a pung or kong is seen turned (laid with nothing turned): its claimed tile, and"
                            " so `from`, is the one likeliest turned by the orientation head or the tiles' spacing,"
                            " a guess",
    "spare_tile_used": "a box the localiser was unsure of was taken as a hand tile (appended to the tiles)",
    "close_alternative": "another legal reading, listed among the alternatives, is at least 0.3 times as probable as"
                         " this one: check the tiles it changes in the photo",
    "added_kong_possible": "a sideways tile may be lifted a little: read as a pung, but it may be an added kong whose"
                           " claimed tile is hidden under the added one (that reading is among the alternatives)",
    "added_kong_inferred": "a meld of three tiles was read as an added kong whose claimed tile lies hidden under the"
                           " added one, a tile nobody sees, with the lift model less than sure: if nothing lies under"
                           " the sideways tile it is a pung (that reading is among the alternatives)",
    # Given by the recogniser (vision.recognize.Recognition.warning_codes), never by read_hand itself:
    "picture_squeezed": "the picture looked squeezed (as a dataset exporter forces a wide photo square): its tiles were"
                        " found in it stretched back; boxes are in the picture's own pixels",
    "tiles_small": "the tiles are small in the picture as read (their median box under"
                   " vision.recognize.TILES_SMALL_BELOW px across): faces are misread far more often; a closer or"
                   " sharper photo reads more reliably",
    # Given by the HTTP service, never by read_hand itself:
    "hand_assembly_failed": "the hand reader failed on these tiles (an internal error, logged): the tiles are returned"
                            " without a hand",
    "hand_assembly_unavailable": "the service runs without the hand reader: the tiles are returned without a hand",
    "winning_tile_best_scored": "no tile set apart and none named: the service scored every candidate winning tile"
                                " and reports the one worth the most (score_by_winning_tile lists them all)",
    "red_fives_not_told_apart": "riichi with aka dora on: a photo's red fives are not told apart from plain ones (the"
                                " classifier has no red-five faces), so the hand's fives are read plain; mark a red one"
                                " as 0m/0p/0s (/v1/tiles/score or the referee page)",
}
# The codes read_hand itself gives (the rest of WARNING_CODES come from the recogniser or the service): a reading made
# again replaces them all
READER_WARNING_CODES = frozenset(WARNING_CODES) - {"picture_squeezed", "tiles_small", "hand_assembly_failed",
                                                   "hand_assembly_unavailable", "winning_tile_best_scored",
                                                   "red_fives_not_told_apart"}
MIN_TURN_VOTES = 2.0  # a quarter turn shared by fewer tiles is not tried as the photo's turn
# A hand laid out in rows of sets, no tile turned: each set read as concealed, not as a claimed meld whose claimed tile
# no label shows, costs this (R51, docs/rules-session37.md)
GROUPED_ROW_COST = 1.0
# A hand too long for the frame laid out in two or more rows side by side (R55, docs/rules-session38.md): whole rows
# of upright loose tiles this near (nearest centres, tile heights) the concealed run's row may be the hand's ...
JOINED_ROW_REACH = 1.6
MAX_JOINED_ROWS = 3  # ... up to this many of them, each at GROUPED_ROW_COST ...
MIN_JOINED_ROW = 4  # ... each of this many tiles or more (three upright tiles in a row are a set of a grid, R51)
# Four alike side by side in the hand's row, none turned: a concealed kong laid out face up, its fourth tile not cut
# off as a loose one (R56c, R58, docs/rules-session38.md), at this cost a kong, for one or two kongs
KONG_IN_ROW_COST = 2.0
MAX_ROW_KONGS = 2
EDGE_SLIVER_MARGIN = 2.0  # px: a box this near the picture's edge touches it ...
EDGE_SLIVER_SHARE = 0.4  # ... and one whose short side is under this share of the median is a sliver (R54)
UPSIDE_DOWN_COST = 0.5  # per hand tile that a quarter-turn hypothesis would show upside down
SHALLOW_EXPANSIONS = 250  # decoding cap per layout in the first pass (readable hands: < 150)
SCREEN_EXPANSIONS = 1000  # decoding cap per hypothesis when several layouts are tried (readable hands: < 200)
LAYOUT_CANDIDATES = 10  # cheapest layouts per quarter turn handed to the decoder
STEEP_ROWS = 45.0  # degrees: rows further than this off the labels' axes are also read along their own direction ...
FLOWER_LABEL_REACH = 75.0  # degrees between a face's label and the rows' direction that an upright face can show
STEEP_FALLBACK_COST = 0.5  # nats over the unconstrained faces: a plain reading that needs more tries steep rows
# A listed alternative at least this probable relative to the reading makes it a close call, which the reading says
# (W48, docs/rules-session48.md: on development it flags 26 of 913 readings that carried no warning, 10 of them wrong)
CLOSE_ALTERNATIVE = 0.3
LIFTED_DOUBT = 0.25  # lift-model probability of a hidden tile from which a pung read as it lies is flagged
# ... and under which an added kong read over a hidden claimed tile is flagged (W49, docs/rules-session49.md): the
# meld's lift as the reader weighs it (the model with the tile's size)
LIFTED_SURE = 0.9
TILT_DISAGREEMENT = 10.0  # degrees between the rows' densest direction and the frame's tilt that is tried as well
STEEPEST_ROWS = 65.0  # ... up to this (further: the nearest neighbours run across the rows, not along them)
MELD_FACE_PROBABILITY = 0.05  # a face this probable counts when checking that unlabelled tiles can make a meld
CROWDED_OVERLAP = 0.3  # local tile widths that two row neighbours' boxes overlap along the row: one is a stray box
MAX_CROWDED_BOXES = 4  # such boxes each tried left out (the deepest overlaps first) ...
CROWDED_CANDIDATES = 1  # ... with this many of the cheapest layouts each ...
CROWDED_BOX_COST = 1.0  # ... at this cost, while at least this share of the photo's CPU time is left:
CROWDED_TIME_SHARE = 0.5
# ... and one named with less than STRADDLING_CONFIDENCE at this cost, in or out of a kong (R80,
# docs/rules-session46.md; R78's drops of a stacked pair keep CROWDED_BOX_COST): the rule takes a box that overlaps a
# neighbour deeply and shows no face surely for a stray box as likely as a tile, and lets the tile count decide
UNSURE_CROWDED_BOX_COST = 0.0
PAIR_CROWDED_BOXES = True  # the crowded boxes whose single drops beat the plain reading also left out two at a time
MAX_CROWDED_PAIRS = 3  # ... among this many of them (the cheapest drops first), each box or a neighbour crowding it,
MAX_PAIR_DROPS = 12  # ... at most this many pairs in all
PLAIN_LAYOUT_CANDIDATES = 4  # ... and when tiles were found stacked, the cheapest read without any stacking
# a box whose face is named with less than this (Detections.confidence, the top-1 probability: a box straddling two
# tiles shows half of each), overlapping both its row neighbours by more than CROWDED_OVERLAP together, is also tried
# left out (R77, docs/rules-session45.md)
STRADDLING_CONFIDENCE = 0.5
WHITE_DRAGON = FACE_CODES.index("5z")
# A back whose white-dragon probability is at least this may be a white dragon (a blank or framed face, easily taken
# for a plain back; blank in two of the art styles, and on a set with white backs nothing else tells them apart):
# such backs are also read face up, whatever the plain reading gave; each one the hand takes pays, as any tile, -log p
# of its face in the decoder (over the cheapest face) and, in the layout, layout.WHITE_DRAGON_SHORT_WEIGHT x
# log(p_top1 / P(playing kinds)) (R79, docs/rules-session46.md; 1.5 x before, as any tile named something else first
# pays). That stage gets search states and CPU time of its own, as the spare stage
# does. (Before session 29: from 0.1, only when the plain reading was unsatisfied, and the switch charged twice.)
BACK_AS_WHITE_DRAGON = 0.01
WHITE_DRAGON_EXPANSIONS = 500
WHITE_DRAGON_SECONDS = 0.01
# The other way round (R82b, docs/rules-session46.md): a tile named a white dragon first whose back probability is at
# least this may be a back (a concealed kong's end named 5z); such tiles are also read face down, in an attempt of
# their own with the same search states and CPU time, each one a meld takes face down paying
# layout.WHITE_DRAGON_SHORT_WEIGHT x log(p_top1 / p_back), and only beside a face-up tile of another face
# (TileFacts.down_cost); each is reported as a correction to "face down".
WHITE_DRAGON_AS_BACK = 0.01
# Where the readings so far leave it unsatisfied (tried always, spares read no more hands at 3x the time), the
# localiser's best spare candidates (Recognition.spares) are tried added to the tiles, one at a time, at a cost when
# the layout puts the spare in the hand; that stage gets search states and CPU time of its own, since a photo missing
# a tile spends its whole budget on the readings without it.
MAX_SPARE_BOXES = 4
SPARE_BOX_COST = 1.0
SPARE_EXPANSIONS = 500
SPARE_SECONDS = 0.01


@dataclass
class HandReading:
    """The hand read from one photo.

    ``hand``: the legal hand, or None. ``warnings`` (human readable) and ``warning_codes`` (stable) run in parallel.
    ``alternatives``: legal readings that come close (each dict: ``tile_index``, ``box``, ``from``, ``to`` for the
    first changed tile, ``changes`` for all, ``hand`` (JSON), ``probability`` among the readings found,
    ``relative_probability`` to the best, ``description``). ``tile_roles``: one dict per detection (``role``,
    ``meld_index``, ``position``, ``code``), then one per spare taken in. ``requests``: fields the request could add
    to complete the reading. ``spares_used``: the localiser's spare candidates taken in as tiles, each the tile's JSON
    (as ``Detections.to_json``) with ``tile_index`` and ``"spare": true``; ``extra_tiles()`` gives them to append to
    the detections' tiles, so that ``tile_roles`` and the tiles line up.
    """

    hand: Hand | None
    warnings: list[str] = field(default_factory=list)
    warning_codes: list[str] = field(default_factory=list)
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    tile_roles: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    winning_tile_candidates: list[str] = field(default_factory=list)
    orientation: dict[str, float] = field(default_factory=dict)
    spares_used: list[dict[str, Any]] = field(default_factory=list)

    def warn(self, code: str, message: str) -> None:
        self.warning_codes.append(code)
        self.warnings.append(message)

    def extra_tiles(self) -> list[dict[str, Any]]:
        """The spare tiles taken in, to append (in order) to the recognition's ``tiles``."""
        return [{key: value for key, value in tile.items() if key != "tile_index"} for tile in self.spares_used]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand.to_json() if self.hand is not None else None,
            "warnings": list(self.warnings),
            "warning_codes": list(self.warning_codes),
            "alternatives": self.alternatives,
            "tile_roles": self.tile_roles,
            "corrections": self.corrections,
            "requests": self.requests,
            "winning_tile_candidates": self.winning_tile_candidates,
            "orientation": self.orientation,
            "spares_used": self.spares_used,
        }


def _box(detections: Detections, i: int) -> list[float]:
    """Tile ``i``'s box as reported (``vision.detections.reported_boxes``), for the reading's messages and fields."""
    return [round(float(v), 1) for v in reported_boxes(detections.boxes[i:i + 1])[0]]


# "tile 12 read as ..." (a correction's warning) and "if tile 12 is ..." (an alternative's description) name a tile by
# its index in the tiles: ``drop_unused_unsure`` renumbers them with the indices
_TILE_NUMBER = re.compile(r"\btile (\d+) (read as|is) ")


def unused_unsure(result: dict[str, Any], unsure: Any) -> set[int]:
    """The tiles of ``result`` (a photo's answer: its ``tiles`` and its reading's ``tile_roles``, ``corrections``,
    ``alternatives``) that ``unsure`` marks (a bool for each of the first ``len(unsure)`` tiles:
    ``Recognition.unsure``) and the reading does not use: no hand role, no correction, no alternative or change names
    it. Without ``tile_roles`` (no reading, or a failed one) every marked tile; none where ``tile_roles`` do not line
    up with the tiles."""
    tiles = result.get("tiles") or []
    marked = [i for i, flag in enumerate(list(unsure)[:len(tiles)]) if flag]
    roles = result.get("tile_roles")
    if not marked or (roles is not None and len(roles) != len(tiles)):
        return set()
    used = {i for i, role in enumerate(roles or []) if role.get("role") != "clutter"}
    for item in result.get("corrections") or []:
        used.add(item.get("tile_index"))
    for alternative in result.get("alternatives") or []:
        used.add(alternative.get("tile_index"))
        used |= {change.get("tile_index") for change in alternative.get("changes") or []}
    return {i for i in marked if i not in used}


def drop_unused_unsure(result: dict[str, Any], unsure: Any) -> dict[str, Any]:
    """``result``, a photo's answer (its ``tiles``, and where a reading ran its ``tile_roles``, ``corrections``,
    ``alternatives`` and ``spares_used``), without the tiles that ``unsure`` marks (a bool for each of the first
    ``len(unsure)`` tiles: ``Recognition.unsure``, boxes the localiser scored under ``vision.recognize.REPORT_SCORE``)
    unless the reading uses them: a hand role, a correction, an alternative or one of its changes. Every tile index
    is renumbered to the shorter list, and so are the tile numbers in its ``warnings`` and its alternatives'
    ``description``s. A result without ``tile_roles`` (no reading, or a failed one) keeps none of them; one whose
    ``tile_roles`` do not line up with its tiles is returned as it is. The reading read them all (T51b,
    docs/rules-session51.md): only the list reported changes."""
    dropped = unused_unsure(result, unsure)
    if not dropped:
        return result
    tiles, roles = result["tiles"], result.get("tile_roles")
    index = {}
    for i in range(len(tiles)):
        if i not in dropped:
            index[i] = len(index)

    def renumbered(item: dict[str, Any]) -> dict[str, Any]:
        return {**item, "tile_index": index[item["tile_index"]]} if item.get("tile_index") in index else item

    def renumbered_text(text: Any) -> Any:
        if not isinstance(text, str):
            return text
        return _TILE_NUMBER.sub(lambda m: f"tile {index.get(int(m[1]), int(m[1]))} {m[2]} ", text)

    def renumbered_alternative(alternative: dict[str, Any]) -> dict[str, Any]:
        out = dict(renumbered(alternative))
        if alternative.get("changes"):
            out = {**out, "changes": [renumbered(c) for c in alternative["changes"]]}
        if "description" in alternative:
            out = {**out, "description": renumbered_text(alternative["description"])}
        return out

    out = dict(result)
    out["tiles"] = [tile for i, tile in enumerate(tiles) if i in index]
    if roles is not None:
        out["tile_roles"] = [role for i, role in enumerate(roles) if i in index]
    for key in ("corrections", "spares_used"):
        if result.get(key):
            out[key] = [renumbered(item) for item in result[key]]
    if result.get("alternatives"):
        out["alternatives"] = [renumbered_alternative(a) for a in result["alternatives"]]
    if result.get("warnings"):
        out["warnings"] = [renumbered_text(w) for w in result["warnings"]]
    return out


def read_hand(detections: Detections, image_size: tuple[int, int], *, winning_tile: str | None = None,
              concealed_kong_tiles: list[str] | None = None, rules: str = "mcr",
              budget: decoding.SearchBudget | None = None,
              spares: Detections | Callable[[], Detections] | None = None,
              fixed: Sequence[bool] | np.ndarray | None = None) -> HandReading:
    """Read the winning hand from ``detections`` (see the module docstring). ``image_size`` is (width, height).

    ``winning_tile`` names the winning tile (it then overrides the set-apart tile's face, or picks the tile among
    the concealed ones when none is set apart). ``concealed_kong_tiles`` gives the faces of concealed kongs that show
    none, in reading order (rows top to bottom, left to right in the normalised frame). ``budget``: the search
    budget of this photo (default: a fresh ``SearchBudget()``, its CPU time counted from here); a caller may pass its
    own to change the limits or to read how many search states were spent (``budget.spent``). ``spares``: the
    localiser's candidates that did not make its threshold (best first), or a callable naming them on demand
    (``Recognition.spares``: named only if the spare stage runs); one of them may complete the hand, and then it is
    appended to the tiles (``HandReading.spares_used``; ``tile_roles`` has one more entry). ``fixed``: (N,) bool, the
    tiles whose faces are a person's statement (/v1/tiles/score): the reading takes each as it is named or leaves it
    out of the hand, and never corrects it (``decoding.fixed_costs``).
    """
    n = len(detections)
    reading = HandReading(hand=None)
    reading.tile_roles = [{"role": "clutter", "meld_index": None, "position": None, "code": None} for _ in range(n)]
    if n == 0:
        reading.warn("no_tiles", "no tiles were found in the photo")
        return reading
    sizes = detections.boxes[:, 2:4] - detections.boxes[:, 0:2]
    points = [i for i in range(n) if not sizes[i].sum() > 0]
    if points:  # only a client's tiles can be boxed so (/v1/tiles/score): the layout measures rows in tile sizes
        reading.warn("no_hand_layout", f"tile box(es) {points} have no size (x1 = x2 and y1 = y2): no layout can be"
                                       " read")
        return reading
    winning_request = _kind_of(winning_tile, "winning_tile") if winning_tile else None
    kong_requests = [_kind_of(code, "concealed_kong_tiles") for code in (concealed_kong_tiles or [])]

    # The photo's quarter turn: the dominant tile rotation, unless clutter (a block of discards turned another way)
    # outvotes the hand; every turn that enough tiles share is tried and the best-explained reading kept.
    votes = geometry.quarter_turn_votes(detections.rotation, detections.class_ids, detections.confidence)
    turns = sorted((r for r, v in votes.items() if v >= MIN_TURN_VOTES), key=lambda r: -votes[r])
    turns = turns or [max(votes, key=votes.get)]
    # Each hypothesis is judged by its layout cost plus what the faces must give up to make it a legal hand, so
    # that the tiles' faces help choose between layouts the geometry alone cannot tell apart.
    budget = budget if budget is not None else decoding.SearchBudget()
    best_key, chosen = None, None
    attempts, steep_attempts = [], []
    steep_by_turn: dict[int, float | None] = {}  # the steep rows' direction of each turn tried (or None)
    budget_hit = False
    layout_seconds = 0.0  # the longest plain layout stage of one quarter turn (the later stages reckon with it: R83)
    for turn in turns:
        if attempts and not budget.can_finish(layout_seconds):
            budget_hit = True  # dozens of tiles turned every way: the turns most tiles share were tried
            break
        started = time.thread_time()
        attempts += _layouts_for(detections, turn, budget=budget, size=image_size)
        layout_seconds = max(layout_seconds, time.thread_time() - started)
        steep = steep_by_turn[turn] = _steep_row_direction(detections, turn)
        if steep is not None:  # rows further than 45° off the labels' axes: read along them if all else fails
            steep_attempts += _layouts_for(detections, turn, tilt=steep, budget=budget, size=image_size)

    def tile_context(tiles: Detections) -> tuple:
        """What the search needs of one set of tiles: the tiles, each face's cost, each tile's up/down weight (a
        reversible face's up/down says less) and the meld cache (each meld's face options, listed once for all the
        layouts that hold it)."""
        costs = decoding.class_costs(tiles.topk_ids, tiles.topk_probs)
        if fixed is not None:
            costs = decoding.fixed_costs(costs, fixed, tiles.class_ids)
        return (tiles, costs, geometry.up_down_weights(tiles.class_ids).tolist(), {})

    plain_context = tile_context(detections)

    def search(tried: list, context: tuple = plain_context) -> None:
        nonlocal best_key, chosen, budget_hit
        tiles, costs, up_down, meld_cache = context
        scored = []
        for attempt in tried:
            frame, duplicate, stacked_on, layout = attempt
            turn = frame.quarter_turn
            upside_down = sum(up_down[i] for i in _hand_tiles(layout)
                              if not frame.face_down[i] and (int(tiles.rotation[i]) - turn) % 360 == 180)
            scored.append(((not layout.count_ok, layout.cost + UPSIDE_DOWN_COST * upside_down), attempt))
        # The most plausible layouts first, so that the shared search budget goes to them (a stable sort: ties keep
        # the order of the quarter turns by their votes).
        scored.sort(key=lambda item: item[0])
        # Two passes: every layout first gets a short search (a readable hand is found within ~150 states), so that
        # a plausible layout whose faces make no hand cannot spend the budget before the right one is tried; then
        # the layouts whose search was cut short get the longer one, in the same order, while the budget lasts.
        deep_cap = decoding.MAX_EXPANSIONS if len(tried) == 1 else SCREEN_EXPANSIONS
        unfinished = scored
        for cap in (SHALLOW_EXPANSIONS, deep_cap):
            cut_short = []
            for (not_ok, layout_cost), attempt in unfinished:
                layout = attempt[3]
                if best_key is not None and not best_key[1] and (not_ok, layout_cost) > (best_key[0], best_key[2]):
                    continue  # its layout alone already costs more than the best reading found
                if budget.exhausted and layout.count_ok and best_key is not None:
                    budget_hit = True  # a layout that could still hold a legal hand goes unsearched
                    continue
                result = decoding.decode(layout, tiles.topk_ids, tiles.topk_probs, rules=rules,
                                         winning_request=winning_request, concealed_kong_kinds=kong_requests,
                                         max_expansions=cap, budget=budget, costs=costs, meld_cache=meld_cache)
                budget_hit = budget_hit or result.budget_hit
                if result.exhausted:
                    cut_short.append(((not_ok, layout_cost), attempt))
                key = (not layout.count_ok, result.best is None, layout_cost + min(result.extra_cost, 1e9))
                if best_key is None or key < best_key:
                    best_key, chosen = key, (attempt, result, tiles, costs)
            unfinished = cut_short

    search(attempts)
    def unsatisfied() -> bool:
        """No legal hand of the right count yet, or only one that needs a face the classifier did not put first."""
        return chosen is None or best_key[0] or best_key[1] or chosen[1].correction_cost > STEEP_FALLBACK_COST

    # Rows read along their own steep direction are a fallback: tried only when the plain frames leave the reading
    # unsatisfied (on synthetic scenes a steep reading tried side by side beat right plain readings about as often as
    # it fixed wrong ones).
    if steep_attempts and unsatisfied():
        search(steep_attempts)
    # Then rows traced by tiles with a neighbour in line on either side, where that direction is neither of the
    # above (standing tiles seen from low with the melds close in front: each tile's nearest neighbour is the meld
    # tile in front, so the other two follow the rows across); a fallback for the same reason, made only when needed.
    if unsatisfied():
        lined_attempts = []
        for turn in turns:
            lined = _lined_row_direction(detections, turn, steep_by_turn.get(turn))
            if lined is None:
                continue  # (no stage to refuse: the clock is asked only for one that would run, R83c)
            if not budget.can_finish(layout_seconds):
                budget_hit = True
                break
            lined_attempts += _layouts_for(detections, turn, tilt=lined, budget=budget, size=image_size)
        search(lined_attempts)
    def read_turned(turned: list[int], face: int) -> None:
        """Read the photo again with the ``turned`` tiles named ``face`` (white dragons for backs, backs for white
        dragons), with search states and CPU time of its own; the faces decide."""
        nonlocal budget_hit
        budget.extend(WHITE_DRAGON_EXPANSIONS, WHITE_DRAGON_SECONDS)
        class_ids = detections.class_ids.copy()
        class_ids[turned] = face
        other_way = replace(detections, class_ids=class_ids)
        attempts_turned = []
        for turn in turns:
            if not budget.can_finish(layout_seconds):
                budget_hit = True  # turns left unread: the reading depends on the CPU time it got
                break
            attempts_turned += _layouts_for(other_way, turn, budget=budget, size=image_size, turned=turned)
        search(attempts_turned)

    # Backs that may be white dragons, read face up beside the plain reading (on synthetic scenes one 5z in seven is
    # read as a back; three such backs make a concealed kong of the white dragons' pair and winning tile, a legal
    # hand, so this is not a fallback). The faces decide: as backs in a concealed kong they cost nothing, face up in
    # the hand each pays its odds against the back (R79), so a plain back needs the hand to want it.
    doubtful = _doubtful_backs(detections)
    if doubtful:
        read_turned(doubtful, WHITE_DRAGON)
    # White dragons that may be backs, read face down beside the readings so far (R82b): a concealed kong's end named
    # 5z leaves its kong three tiles and a loose white dragon; face down each pays its odds against the 5z.
    doubtful = _doubtful_white_dragons(detections)
    if doubtful:
        read_turned(doubtful, FACE_DOWN)
    # The localiser's spare candidates: a tile it boxed below its threshold, or whose box NMS dropped beside an
    # overlapping neighbour's, may be the hand tile no kept box holds. Each is tried added to the tiles.
    # (a plain callable has no length: it is asked when the stage runs)
    if spares is not None and (not hasattr(spares, "__len__") or len(spares)) and unsatisfied():
        budget.extend(SPARE_EXPANSIONS, SPARE_SECONDS)
        spares = spares() if callable(spares) else spares
        for s in range(min(len(spares), MAX_SPARE_BOXES)):
            if budget.out_of_time():
                budget_hit = True  # spare boxes left untried: the reading depends on the CPU time it got
                break
            with_spare = detections.concat(spares[s])
            spare_attempts = []
            for turn in turns:
                # a row of dozens of tiles takes tens of ms to lay out in each turn: none is begun that would end
                # past the deadline
                if not budget.can_finish(layout_seconds):
                    budget_hit = True
                    break
                for attempt in _layouts_for(with_spare, turn, budget=budget, spare_from=len(detections),
                                            size=image_size):
                    if n in _hand_tiles(attempt[3]):  # else the same as a plain reading
                        attempt[3].cost += SPARE_BOX_COST
                        spare_attempts.append(attempt)
            search(spare_attempts, tile_context(with_spare))
    if chosen is None:
        reading.warn("no_hand_layout", "no row of standing tiles was found")
        if budget_hit or budget.cut_short:  # (R83c)
            reading.warn("search_budget_exhausted", "the layout stages stopped at the budget's clock before trying"
                         " everything: the reading depends on the CPU time it got")
        return reading
    (frame, duplicate, stacked_on, layout), result, detections, costs = chosen
    if len(detections) > n:  # a spare candidate completes the hand: it becomes tile n (after the detections)
        reading.spares_used = [{"tile_index": i, **detections[i].to_json()[0], "spare": True}
                               for i in range(n, len(detections))]
        reading.tile_roles += [{"role": "clutter", "meld_index": None, "position": None, "code": None}
                               for _ in range(n, len(detections))]
        boxes = ", ".join(str(_box(detections, i)) for i in range(n, len(detections)))
        reading.warn("spare_tile_used", f"a box the localiser scored below its threshold ({boxes}) was taken as a"
                     " hand tile (appended to the tiles): check the photo")
    reading.orientation = {"quarter_turn": frame.quarter_turn, "tilt": round(frame.tilt, 2),
                           "aspect": round(frame.aspect, 3)}
    _record_roles(reading, layout, duplicate)

    if not layout.count_ok:
        melds = len(layout.melds)
        found = len(layout.concealed) + (layout.winning is not None)
        reading.warn("wrong_tile_count",
                     f"with {melds} meld(s) the standing tiles should number {14 - 3 * melds} (winning tile included),"
                     f" but {found} were found")
    if rules == "riichi" and layout.flowers:
        reading.warn("flowers_ignored", f"riichi uses no flowers: {len(layout.flowers)} flower tile(s) ignored")
    # four backs, or blank faces beside backs (K66b)
    unknown_kongs = [m for m in layout.melds if decoding.shows_no_face(m, costs)]
    if len(unknown_kongs) > len(kong_requests):
        missing = len(unknown_kongs) - len(kong_requests)
        reading.warn("concealed_kong_face_unknown",
                     f"{missing} concealed kong(s) show no face: name them with 'concealed_kong_tiles'")
        reading.requests.append({"field": "concealed_kong_tiles", "count": len(unknown_kongs),
                                 "boxes": [[_box(detections, t) for t in m.tiles] for m in unknown_kongs]})
    if len(kong_requests) > len(unknown_kongs):
        # a client's list longer than the kongs it names (a face typed twice, a kong the photo shows face up) was
        # ignored without a word (session 43's audit); the names are used in reading order, so the last ones go
        unused = [FACE_CODES[k] for k in kong_requests[len(unknown_kongs):]]
        reading.warn("concealed_kong_tiles_unused",
                     f"'concealed_kong_tiles' names {len(kong_requests)} face(s) but {len(unknown_kongs)} concealed"
                     f" kong(s) show no face: {', '.join(unused)} ignored")
    if layout.winning is not None and winning_request is not None:
        top = int(detections.class_ids[layout.winning])
        if top != winning_request:
            reading.warn("winning_tile_overridden",
                         f"the set-apart tile reads {FACE_CODES[top] if top != FACE_DOWN else 'face down'},"
                         f" the request names {FACE_CODES[winning_request]}: the request is used")

    if budget_hit or budget.cut_short:
        reading.warn("search_budget_exhausted", "the search for a legal reading stopped at its budget: the reading"
                     " is the best found" + (" (none)" if result.best is None else ""))
    best = result.best
    if best is None:
        reading.warn("no_legal_hand", "no reading of these tiles is a legal winning hand"
                     + (" (search limit reached)" if result.exhausted else ""))
        return reading
    for i, face in best.faces.items():
        reading.tile_roles[i]["code"] = FACE_CODES[face]
    _fill_face_down_codes(reading, layout, best)

    if layout.winning is None and winning_request is None and best.winning_from_concealed is not None:
        reading.winning_tile_candidates = sorted({FACE_CODES[k] for k in best.concealed_kinds + [best.winning_kind]},
                                                 key=lambda c: Tile.parse(c).index)
        reading.warn("winning_tile_not_set_apart",
                     "no tile is set apart as the winning tile: the right-most standing tile"
                     f" ({FACE_CODES[best.winning_kind]}) is assumed; name it with 'winning_tile'"
                     f" (candidates: {' '.join(reading.winning_tile_candidates)})")
        reading.requests.append({"field": "winning_tile", "candidates": reading.winning_tile_candidates})
    if best.winning_from_concealed is not None:
        reading.tile_roles[best.winning_from_concealed]["role"] = "winning"

    top1 = detections.class_ids
    for i, face in sorted(best.faces.items()):
        if int(top1[i]) != face:
            read_as = FACE_CODES[int(top1[i])] if int(top1[i]) != FACE_DOWN else "face down"
            probability = _probability(detections, i, face)
            reading.corrections.append({"tile_index": i, "box": _box(detections, i), "read": read_as,
                                        "corrected": FACE_CODES[face], "probability": round(probability, 4)})
            reading.warn("tile_corrected", f"tile {i} read as {read_as} was taken as {FACE_CODES[face]}"
                                           f" (p = {probability:.2f}) in the most probable legal hand")
    for meld in layout.melds:  # white dragons the face-down attempt took as a concealed kong's backs (R82b)
        for i, down in zip(meld.tiles, meld.face_down):
            if down and int(top1[i]) != FACE_DOWN:
                read_as, probability = FACE_CODES[int(top1[i])], _probability(detections, i, FACE_DOWN)
                reading.corrections.append({"tile_index": i, "box": _box(detections, i), "read": read_as,
                                            "corrected": "face down", "probability": round(probability, 4)})
                reading.warn("tile_corrected", f"tile {i} read as {read_as} was taken face down"
                                               f" (p = {probability:.2f}) in the most probable legal hand")
    if any(c["probability"] == 0.0 for c in reading.corrections):
        reading.warn("correction_outside_top_k", "a legal hand needed faces the classifier did not list for some tiles:"
                     " check the photo (or the layout: a meld or the winning tile may have been misplaced)")

    if layout.kongs_in_row:
        reading.warn("kong_in_row", "four alike lie in the hand's row with none turned: read as a concealed kong (a"
                     " claimed kong shows its claimed tile turned; rescore if it was claimed)")
    if layout.grouped_rows:
        reading.warn("rows_read_as_concealed", "the tiles lie in rows (of sets, or the hand in two rows) and none is"
                     " turned: read as a concealed hand laid out in rows; a claimed meld shows its claimed tile turned"
                     " (rescore with it if one was)")
    assumed = [k for k, (slots, decoded) in enumerate(zip(layout.melds, best.melds))
               if slots.claim_unknown and decoded.type is not MeldType.CHOW]
    if assumed:  # a chow's claimed tile is at its left end by rule; a pung's or kong's direction is a guess
        reading.warn("claimed_tile_assumed", f"meld(s) {', '.join(str(k) for k in assumed)}: no label shows the"
                     " claimed tile; from the left is assumed: check the direction")
    guessed = [k for k, (slots, decoded) in enumerate(zip(layout.melds, best.melds))
               if slots.claim_guessed and decoded.type is not MeldType.CHOW]
    if guessed:
        reading.warn("claimed_tile_guessed", f"meld(s) {', '.join(str(k) for k in guessed)}: no tile is seen turned;"
                     " the claimed tile, and so `from`, is the one likeliest turned, a guess: check the direction")
    if any(not m.known for m in best.melds):
        return reading  # the hand cannot be written without the concealed kong's face
    try:
        reading.hand = _hand_of(best, layout, rules).validate()
    except HandError as error:
        reading.warn("no_legal_hand", f"the reading is not a legal hand: {error.message}")
        return reading
    reading.alternatives = _alternatives(detections, layout, best, result.alternatives, rules)
    _lift_alternatives(reading, detections, layout, best, rules)
    _warn_close_alternative(reading)
    return reading


def _warn_close_alternative(reading: HandReading) -> None:
    """Warn ``close_alternative`` where a listed alternative is at least CLOSE_ALTERNATIVE as probable as the reading:
    its tiles' faces are then a close call that the photo, not the decoder, should settle (W48). The added-kong
    alternatives carry no probability and their own warning."""
    close = [a for a in reading.alternatives
             if a["relative_probability"] is not None and a["relative_probability"] >= CLOSE_ALTERNATIVE]
    if close:
        likeliest = max(close, key=lambda a: a["relative_probability"])
        reading.warn("close_alternative", f"another legal reading is {likeliest['relative_probability']:.2f} times as"
                     f" probable as this one: {likeliest['description']}; check those tiles in the photo")


def _lift_alternatives(reading: HandReading, detections: Detections, layout: Layout, best: decoding.Reading,
                       rules: str) -> None:
    """Warn where a pung's sideways tile may lie on a hidden claimed tile yet was read as it lies (the lift model
    gives it LIFTED_DOUBT or more; without that model, the geometry's slight lift ``MeldSlots.lift``), and add the
    reading as an added kong to the alternatives: seen from near overhead, a tile laid on the claimed one hides it
    completely. The converse, a three-tile meld read as an added kong over a hidden tile, is ``_warn_inferred_kong``'s
    (W49)."""
    for k, (slots, decoded) in enumerate(zip(layout.melds, best.melds)):
        if slots.type is MeldType.PUNG and decoded.type is MeldType.ADDED_KONG:
            _warn_inferred_kong(reading, detections, layout, best, rules, k)
            continue
        if slots.type is not MeldType.PUNG or decoded.type is not MeldType.PUNG:
            continue  # a chow: no tile can hide under its claimed one
        # where the geometric test marked the meld raised, the decoder weighed the added kong already
        measured = slots.lifted is not None
        doubtful = not slots.raised and (slots.lifted >= LIFTED_DOUBT if measured else bool(slots.lift))
        if not doubtful:
            continue
        kong = decoding.DecodedMeld(MeldType.ADDED_KONG, decoded.kinds + decoded.kinds[:1], decoded.discarder, None)
        _warn_with_meld_alternative(
            reading, detections, layout, best, rules, k, kong, "added_kong_possible",
            "meld {k}: its sideways tile ({face}) looks slightly lifted: read as a pung; if a tile lies under it, an"
            " added kong ({hand})",
            "if the sideways {face} has a tile hidden under it the hand is {hand}")


def _warn_inferred_kong(reading: HandReading, detections: Detections, layout: Layout, best: decoding.Reading,
                        rules: str, k: int) -> None:
    """Warn where meld ``k``, three tiles in the photo, was read as an added kong whose claimed tile lies hidden under
    the added one (no box as deep as two tiles shows the fourth tile) on a lift under LIFTED_SURE, and add its
    reading as a pung to the alternatives (W49): the hand then holds a tile nobody sees."""
    slots, decoded = layout.melds[k], best.melds[k]
    if slots.raised or (slots.lifted is not None and slots.lifted >= LIFTED_SURE):
        return
    pung = decoding.DecodedMeld(MeldType.PUNG, decoded.kinds[:3], decoded.discarder, decoded.claimed_kind)
    lift = "" if slots.lifted is None else f" (lift {slots.lifted:.2f})"
    _warn_with_meld_alternative(
        reading, detections, layout, best, rules, k, pung, "added_kong_inferred",
        "meld {k}: read as an added kong whose claimed {face} lies hidden under the sideways tile" + lift
        + "; if nothing lies under it, a pung ({hand})",
        "if nothing lies under the sideways {face} the hand is {hand}")


def _warn_with_meld_alternative(reading: HandReading, detections: Detections, layout: Layout,
                                best: decoding.Reading, rules: str, k: int, meld: decoding.DecodedMeld, code: str,
                                message: str, description: str) -> None:
    """Warn ``code`` and list, among the alternatives, the reading with meld ``k`` read as ``meld`` (the same tiles,
    an added kong's hidden claimed tile taken or left: ``changes`` empty, no probability), unless that is no legal
    hand (a fifth copy of the kind: the reading stands). ``message`` and ``description`` are formatted with the
    meld's number ``k``, its ``face`` and the other ``hand``."""
    melds = [meld if j == k else m for j, m in enumerate(best.melds)]
    try:
        hand = _hand_of(replace(best, melds=melds), layout, rules).validate()
    except HandError:
        return
    face = FACE_CODES[best.melds[k].kinds[0]]
    claimed = layout.melds[k].claimed
    reading.warn(code, message.format(k=k, face=face, hand=hand.format()))
    reading.alternatives.append({
        "tile_index": claimed, "box": _box(detections, claimed), "from": face, "to": face, "changes": [],
        "hand": hand.to_json(), "hand_text": hand.format(), "probability": None, "relative_probability": None,
        "description": description.format(face=face, hand=hand.format())})


def _turned_centers(detections: Detections, turn: int) -> tuple[np.ndarray, float]:
    """(N, 2) box centres turned back by the quarter turn ``turn``, and their scale (``geometry.centers_and_scale``)."""
    centers, scale = geometry.centers_and_scale(detections.boxes)
    angle = np.deg2rad(turn)
    c, s = np.cos(angle), np.sin(angle)
    turned = np.stack([centers[:, 0] * c + centers[:, 1] * s, -centers[:, 0] * s + centers[:, 1] * c], axis=1)
    return turned, scale


def _lined_row_direction(detections: Detections, turn: int, steep: float | None) -> float | None:
    """The rows' direction relative to ``turn`` traced by tiles in line (``geometry.lined_row_direction``), when it
    lies within STEEPEST_ROWS and more than TILT_DISAGREEMENT off both the frame's own tilt and ``steep`` (the
    steep rows' direction, ``_steep_row_direction``; those readings were tried already), else None."""
    turned, size = _turned_centers(detections, turn)
    direction = geometry.lined_row_direction(turned, size)
    if direction is None or abs(direction) >= STEEPEST_ROWS:
        return None
    tried = [geometry._row_tilt(turned, size)] + ([steep] if steep is not None else [])
    if all(abs((direction - t + 90.0) % 180.0 - 90.0) > TILT_DISAGREEMENT for t in tried):
        return direction
    return None


def _steep_row_direction(detections: Detections, turn: int) -> float | None:
    """The rows' direction relative to the quarter turn ``turn`` when it lies beyond STEEP_ROWS degrees (where
    ``geometry.normalise``'s own tilt, folded into ±45°, cannot follow it), else None."""
    turned, size = _turned_centers(detections, turn)
    direction = geometry.free_row_direction(turned, size)
    if direction is None or abs(direction) >= STEEPEST_ROWS:
        return None
    if abs(direction) > STEEP_ROWS:
        return direction
    # Within ±45° the frame's own tilt (the median nearest-neighbour direction) usually follows the rows; where the
    # neighbours run every way (melds laid close in front of the row, tiles laid beside others) it may not: the
    # densest direction is tried too when the two disagree by more than TILT_DISAGREEMENT.
    plain = geometry._row_tilt(turned, size)
    return direction if abs(direction - plain) > TILT_DISAGREEMENT else None


def _layouts_for(detections: Detections, turn: int, tilt: float | None = None,
                 budget: decoding.SearchBudget | None = None, spare_from: int | None = None,
                 size: tuple[int, int] | None = None, turned: list[int] | None = None) -> list:
    """[(frame, duplicate mask, stacked tiles, layout), ...] for one quarter-turn hypothesis (and row direction,
    when given), cheapest first (the readings without a crowded box only while ``budget`` has time left)."""
    frame = geometry.normalise(detections.boxes, detections.rotation, detections.class_ids, detections.confidence,
                               quarter_turn=turn, tilt=tilt, lifted=detections.lifted,
                               sideways_probability=detections.sideways_probability)
    # A spare candidate (tiles from ``spare_from`` on) is a box NMS dropped beside another: it may overlap it by
    # design, so only the IoU makes it, or the tile under it, a duplicate.
    covered_ok = np.ones(len(detections), bool)
    if spare_from is not None:
        covered_ok[spare_from:] = False
    duplicate = geometry.duplicates(detections.boxes, detections.confidence, keep_pairs=frame.sideways,
                                    face_up=~detections.face_down, covered_ok=covered_ok)
    active = ~duplicate
    frame = geometry.straighten_sideways_runs(frame, geometry.rows(frame, active))
    facts = _facts(detections, frame, turned)
    stacked_on = geometry.find_stacked(frame, active, detections.class_ids)
    in_rows = active.copy()
    in_rows[list(stacked_on)] = False
    if size is not None:
        # R54: a box at the picture's edge showing less than half a tile is no hand tile; it is left a loose box
        in_rows &= ~edge_slivers(detections.boxes, size, EDGE_SLIVER_SHARE, EDGE_SLIVER_MARGIN)
    row_list = geometry.rows(frame, in_rows)
    solvers: dict = {}  # row solvers shared by the readings below (same frame, faces and stacking)
    layouts = segment(frame, row_list, facts, stacked_on, n_best=LAYOUT_CANDIDATES, solver_cache=solvers)
    out = [(frame, duplicate, stacked_on, layout) for layout in layouts]

    def crowded_time_up() -> bool:
        """Whether only CROWDED_TIME_SHARE of the photo's CPU time is left, kept for the search (never, with an
        unlimited budget: its deadline is then inf - inf, NaN, which no time exceeds)."""
        if budget is None or not time.thread_time() > budget.deadline - budget.seconds * CROWDED_TIME_SHARE:
            return False
        budget.cut_short = True
        return True

    # Boxes that overlap along a row more than touching tiles can (the localiser's box straddling two tiles, or one
    # tile boxed twice over less than DUPLICATE_IOU): each is also read as a stray box left out of the rows, at
    # CROWDED_BOX_COST (KONG_IN_ROW_COST in a kong window, R63; UNSURE_CROWDED_BOX_COST named under
    # STRADDLING_CONFIDENCE, R80), and the count and the faces decide.
    plain_best = min((layout.cost for layout in layouts), default=math.inf)
    helped: list[tuple[float, int]] = []  # (cheapest cost, box) of the single drops that beat the plain reading
    # (a spare candidate overlaps its neighbours by design: never R77's straddling box)
    named = detections.confidence if spare_from is None else np.concatenate(
        [detections.confidence[:spare_from], np.ones(len(detections) - spare_from)])
    crowded, crowding = _crowded_boxes(frame, row_list, detections.class_ids, named)
    unsure = frozenset(t for t in crowded if float(named[t]) < STRADDLING_CONFIDENCE)  # (R80)
    # the tiles of four alike side by side that may be a kong laid out face up (R63: leaving one out costs the kong)
    in_kongs = {t for row in row_list if len(row) >= 4 for window in _kong_windows(
        row, frame, facts, detections.class_ids, detections.rotation, spare_from) for t in window} if crowded else set()
    for t in crowded[:MAX_CROWDED_BOXES]:
        if crowded_time_up():
            break
        found = _without_boxes(frame, in_rows, duplicate, (t,), facts, stacked_on, solvers, in_kongs, unsure)
        out += found
        if found and found[0][3].cost < plain_best:
            helped.append((found[0][3].cost, t))
    # Two stray boxes may crowd one photo (one straddling concealed tiles, another a meld's): left out one at a time,
    # each reading keeps the other. The single drops that helped most are also tried together, each box or, in its
    # place, a row neighbour crowding it: the geometry cannot tell a stray box from the tile it covers, the faces can.
    if PAIR_CROWDED_BOXES:
        helped = [t for _, t in sorted(helped)[:MAX_CROWDED_PAIRS]]
        pairs: list[tuple[int, int]] = []
        for a, b in combinations(helped, 2):
            for x, y in product([a, *sorted(crowding.get(a, ()))], [b, *sorted(crowding.get(b, ()))]):
                pair = (min(x, y), max(x, y))
                if x != y and y not in crowding.get(x, ()) and pair not in pairs:
                    pairs.append(pair)
        for pair in pairs[:MAX_PAIR_DROPS]:
            if crowded_time_up():
                break
            out += _without_boxes(frame, in_rows, duplicate, pair, facts, stacked_on, solvers, in_kongs, unsure)
    if stacked_on:
        # A tile found on or beside a claimed tile may be a loose one (a discard lying there): the layouts without
        # any stacking are tried too, and the faces decide (an added kong needs four alike, a chow cannot be one).
        plain_rows = geometry.rows(frame, active)
        plain = segment(frame, plain_rows, facts, {}, n_best=PLAIN_LAYOUT_CANDIDATES)
        out += [(frame, duplicate, {}, layout) for layout in plain]
        # There a stacked pair may lie side by side, crowding one row: one tile boxed twice, the stray box taken for
        # a tile laid on it (top and base told apart by a few pixels). Each such box is also tried left out (R78,
        # docs/rules-session45.md).
        paired = {t for top, base in stacked_on.items() for t in (top, base)}
        crowded_plain = [t for t in _crowded_boxes(frame, plain_rows, detections.class_ids)[0] if t in paired]
        plain_solvers: dict = {}  # (the solvers above hold the stacking)
        for t in crowded_plain[:MAX_CROWDED_BOXES]:
            if crowded_time_up():
                break
            out += _without_boxes(frame, active, duplicate, (t,), facts, {}, plain_solvers)
    out += _concealed_in_rows(out)
    out += _kongs_in_row(out, facts, detections.class_ids, detections.rotation, spare_from)
    out += _hand_in_rows(out, row_list, facts, detections.class_ids, detections.rotation, spare_from)
    flowered = _flowers_in_run(out, frame, in_rows, duplicate, facts, stacked_on, detections.class_ids)
    return out + flowered + _kongs_in_row(flowered, facts, detections.class_ids, detections.rotation, spare_from)


def _flowers_in_run(attempts: list, frame: geometry.Frame, in_rows: np.ndarray, duplicate: np.ndarray,
                    facts: TileFacts, stacked_on: dict[int, int], class_ids: np.ndarray) -> list:
    """The layouts with the face-up tiles named a flower first that the cheapest layout (``attempts[0]``) holds in its
    concealed run taken out of the rows and read as the hand's flowers (R52b): real photos often leave the flowers in
    the hand's row. The rows are segmented again without them (the hole they leave costs as a gap); each layout then
    adds them to its flowers at FLOWER_GROUP_COST plus their flower costs."""
    if not attempts:
        return []
    cheapest = attempts[0][3]  # (``segment`` lists the count-consistent layouts first, cheapest first)
    inside = [t for t in cheapest.concealed if KIND_COUNT <= class_ids[t] < FACE_DOWN and not frame.face_down[t]]
    if not inside:
        return []
    without = in_rows.copy()
    without[inside] = False
    # The hole the flowers leave is theirs, not a gap the player left: the tiles on either side of a run of them read
    # as far apart as the larger of their gaps to it (R65, docs/rules-session41.md; the hole set the tiles before the
    # flowers apart as a meld)
    taken = set(inside)
    bridges: dict[tuple[int, int], float] = {}
    for row in geometry.rows(frame, in_rows):
        runs = [list(run) for _, run in groupby(row, key=taken.__contains__)]  # taken and kept runs alternate
        for before, flowers, after in zip(runs, runs[1:], runs[2:]):
            if flowers[0] in taken:
                bridges[(before[-1], after[0])] = max(frame.gap(before[-1], flowers[0]),
                                                      frame.gap(flowers[-1], after[0]))
    found = segment(frame, geometry.rows(frame, without), facts, stacked_on, n_best=LAYOUT_CANDIDATES,
                    bridges=bridges)
    extra = FLOWER_GROUP_COST + sum(facts.flower_cost(t) for t in inside)
    return [(frame, duplicate, stacked_on, replace(layout, flowers=list(layout.flowers) + inside,
                                                   cost=layout.cost + extra))
            for layout in found if len(layout.flowers) + len(inside) <= MAX_FLOWERS]


def _alike_pair(row: list[int], class_ids: np.ndarray) -> bool:
    """Whether a row is two tiles named one face first: a hand's pair laid apart from its rows (R67)."""
    return len(row) == 2 and int(class_ids[row[0]]) == int(class_ids[row[1]])


def _upright_melds(melds: list[MeldSlots], frame: geometry.Frame) -> bool:
    """Whether every meld holds only face-up tiles labelled upright: sets laid out in rows, not claimed melds (a
    claimed meld shows its claimed tile turned; R51, R55b)."""
    return all(not any(m.face_down) and not frame.sideways[list(m.tiles)].any() for m in melds)


def _in_row_order(groups: list[list[int]], frame: geometry.Frame) -> list[list[int]]:
    """Groups of tiles laid out in rows, as a hand in rows reads: the row farthest from the player first, each from
    the left (so that a hand laid out in rows of sorted sets reads sorted; R51, R55b)."""
    ordered = sorted(groups, key=lambda tiles: float(np.mean(frame.centers[tiles, 1])))
    return [sorted(tiles, key=lambda t: float(frame.centers[t, 0])) for tiles in ordered]


def _face_up_kong(tiles: tuple[int, ...]) -> MeldSlots:
    """Four alike laid out face up in the hand's row, read as a concealed kong (R56c, R58)."""
    return MeldSlots(MeldType.CONCEALED_KONG, tiles, (0, 1, 2, 3), None, None, (False,) * 4)


def _concealed_in_rows(attempts: list) -> list:
    """Each layout whose melds (two or more) hold only face-up tiles labelled upright, read again as a concealed hand
    laid out in rows of sets (R51): real photos often show a hand so, one set or the pair a row, no tile turned. The
    melds' tiles join the concealed ones, ordered as the rows lie (the row farthest from the player first, each from
    the left); the cost drops what the melds' labels cost (their claimed tiles read sideways against the labels) and
    adds GROUPED_ROW_COST a meld."""
    out, seen = [], set()
    for frame, duplicate, stacked_on, layout in attempts:
        melds = layout.melds
        if len(melds) < 2 or not _upright_melds(melds, frame):
            continue
        groups = [list(m.tiles) for m in melds] + ([list(layout.concealed)] if layout.concealed else [])
        concealed = [t for tiles in _in_row_order(groups, frame) for t in tiles]
        key = (tuple(concealed), layout.winning, tuple(layout.flowers))
        if key in seen:
            continue
        seen.add(key)
        cost = layout.cost - sum(meld_label_cost(m, frame) for m in melds) + GROUPED_ROW_COST * len(melds)
        count_ok = len(concealed) + (layout.winning is not None) == 14
        out.append((frame, duplicate, stacked_on, replace(layout, concealed=concealed, melds=[], cost=cost,
                                                          count_ok=count_ok, grouped_rows=True)))
    return out


def _kong_windows(tiles: list[int], frame: geometry.Frame, facts: TileFacts, class_ids: np.ndarray,
                  rotation: np.ndarray, spare_from: int | None) -> list[tuple[int, ...]]:
    """The windows of four consecutive ``tiles`` that may be a concealed kong laid out face up (R56c): each upright,
    face up, named a playing face first, the four the same face, no spare candidate (``spare_from`` on) among them,
    none held sideways by its label or by the orientation head, and their likely faces able to make one kind."""
    def kong_tile(t: int) -> bool:
        held_sideways = (int(rotation[t]) - frame.quarter_turn) % 180 == 90 or (
            frame.p_sideways is not None and float(frame.p_sideways[t]) >= 0.5)
        return (bool(facts.upright_face[t]) and int(class_ids[t]) < KIND_COUNT and not held_sideways
                and (spare_from is None or t < spare_from))

    return [window for window in (tuple(tiles[k:k + 4]) for k in range(len(tiles) - 3))
            if all(kong_tile(t) for t in window) and len({int(class_ids[t]) for t in window}) == 1
            and facts.can_meld(window)]


def _kongs_in_row(attempts: list, facts: TileFacts, class_ids: np.ndarray, rotation: np.ndarray,
                  spare_from: int | None = None) -> list:
    """Each layout read again with one or two concealed kongs taken from its concealed run's row (R56): real photos
    lay a hand with a kong out in one row, every tile face up, the four alike side by side where the sorted hand puts
    them. The loose tiles touching the hand's tiles of that row at either end (up to MAX_ROW_KONGS of them; on the
    right only when no winning tile is set apart), upright, face up and named a playing tile first, join the run where
    the hand then holds 14 + k tiles (melds three each) for k kongs; k disjoint windows of four consecutive tiles of
    the run, named the same face first, become concealed kongs showing four faces. No such tile is a spare candidate
    (``spare_from`` on, R56b: an unsure box beside three alike is most often a second box on one of them) or held
    sideways by its label or the orientation head (R56c: a claimed kong's turned tile). The flower faces lying loose
    beyond a joined tile, side by side with it, become the hand's flowers (R57: they were left loose for touching it).
    The cost drops the joined tiles' CLUTTER_COST and adds KONG_IN_ROW_COST a kong."""
    out, seen = [], set()
    for frame, duplicate, stacked_on, layout in attempts:
        row = layout.main_row
        if layout.grouped_rows or not layout.concealed or not row:
            continue
        place = {t: k for k, t in enumerate(row)}
        hand = set(layout.concealed) | ({layout.winning} if layout.winning is not None else set())
        if not hand <= place.keys():
            continue
        first = min(place[t] for t in hand)
        last = max(place[t] for t in hand)
        if last - first + 1 != len(hand):
            continue  # (the hand's tiles of the row lie side by side)
        loose = set(layout.clutter)

        def joinable(k: int, beside: int) -> bool:
            t = row[k]
            return (t in loose and bool(facts.upright_face[t]) and int(class_ids[t]) < KIND_COUNT
                    and (spare_from is None or t < spare_from) and frame.gap(row[beside], t) < GAP)

        def flowers_beyond(k: int, step: int, held: list[int]) -> list[int]:
            """The loose flower faces side by side in the row beyond place k (going by ``step``), touching it (R57)."""
            found: list[int] = []
            faces = {int(class_ids[f]) for f in held}
            while 0 <= k + step < len(row) and len(held) + len(found) < MAX_FLOWERS:
                t = row[k + step]
                face = int(class_ids[t])
                if t not in loose or not KIND_COUNT <= face < FACE_DOWN or frame.face_down[t] or face in faces \
                        or frame.gap(row[k], t) >= GAP:
                    break
                found.append(t)
                faces.add(face)
                k += step
            return found

        left: list[int] = []
        while len(left) < MAX_ROW_KONGS and first - len(left) - 1 >= 0 \
                and joinable(first - len(left) - 1, first - len(left)):
            left.append(row[first - len(left) - 1])
        right: list[int] = []
        while layout.winning is None and len(right) < MAX_ROW_KONGS and last + len(right) + 1 < len(row) \
                and joinable(last + len(right) + 1, last + len(right)):
            right.append(row[last + len(right) + 1])
        held = len(hand) + 3 * len(layout.melds)
        for n_left in range(len(left) + 1):
            for n_right in range(len(right) + 1):
                kongs = held + n_left + n_right - 14
                if not n_left + n_right or not 1 <= kongs <= MAX_ROW_KONGS:
                    continue
                run = left[:n_left][::-1] + list(layout.concealed) + right[:n_right]
                windows = _kong_windows(run, frame, facts, class_ids, rotation, spare_from)
                for picked in combinations(windows, kongs):
                    tiles = [t for w in picked for t in w]
                    if len(set(tiles)) != len(tiles):
                        continue  # (the windows overlap)
                    key = (id(frame), tuple(run), picked, layout.winning, tuple(layout.flowers))
                    if key in seen:
                        continue
                    seen.add(key)
                    joined = set(left[:n_left] + right[:n_right])
                    melds = list(layout.melds) + [_face_up_kong(w) for w in picked]
                    cost = layout.cost - CLUTTER_COST * len(joined) + KONG_IN_ROW_COST * kongs
                    flowers = list(layout.flowers)
                    # R57: the flowers lying beyond a joined tile, left loose for touching it, are the hand's
                    if n_left:
                        flowers += flowers_beyond(first - n_left, -1, flowers)
                    if n_right:
                        flowers += flowers_beyond(last + n_right, 1, flowers)
                    taken = joined | set(flowers)
                    out.append((frame, duplicate, stacked_on,
                                replace(layout, concealed=[t for t in run if t not in tiles], melds=melds,
                                        flowers=flowers, clutter=[t for t in layout.clutter if t not in taken],
                                        cost=cost, count_ok=True, kongs_in_row=True)))
    return out


def _hand_in_rows(attempts: list, rows: list[list[int]], facts: TileFacts, class_ids: np.ndarray,
                  rotation: np.ndarray, spare_from: int | None = None) -> list:
    """Each layout whose count falls short, read again with whole rows of its loose tiles joined to its concealed run
    where they make the count (R55, R55b): real photos show a hand too long for the frame in two rows side by side,
    no tile turned. Melds of upright face-up tiles only count as loose tiles here (as R51's rows of sets), and each
    must lie in a joined row; a layout with another meld is left as it is. A joined row holds MIN_JOINED_ROW tiles or
    more, only such tiles, upright, face up, named a playing tile first, none stacked, and lies within
    JOINED_ROW_REACH of the concealed run (or the flowers in its row, R62) or of another joined row; a row of two
    tiles named one face, the hand's pair laid apart, joins too (R67); the fewest rows that make the count win (up to
    MAX_JOINED_ROWS). Where no rows make fourteen, rows making 14 + k are taken where k kong windows (R56c's test),
    each within one row, become concealed kongs showing four faces (R58). The concealed tiles are ordered as R51's;
    the cost drops the joined loose tiles' CLUTTER_COST and the melds' label costs, and adds GROUPED_ROW_COST a row
    and KONG_IN_ROW_COST a kong."""
    out, seen = [], set()
    for frame, duplicate, stacked_on, layout in attempts:
        short = 14 - len(layout.concealed) - (layout.winning is not None)
        if layout.count_ok or short <= 0 or not layout.concealed:
            continue
        melds = layout.melds
        if not _upright_melds(melds, frame):
            continue
        meld_tiles = {t for m in melds for t in m.tiles}
        loose = set(layout.clutter) | meld_tiles
        main = set(layout.main_row)
        joinable = [row for row in rows if (MIN_JOINED_ROW <= len(row) or _alike_pair(row, class_ids))
                    and len(row) <= short + MAX_ROW_KONGS
                    and not main.intersection(row)
                    and all(t in loose and facts.upright_face[t] and t not in stacked_on
                            and int(class_ids[t]) < KIND_COUNT for t in row)]
        if not joinable:
            continue
        # measured from the concealed run and the hand's flowers in its row: a row of the hand's tiles laid beside
        # its flowers is as near the hand as one beside its concealed tiles (R62, docs/rules-session41.md)
        hand_part = list(layout.concealed) + [t for t in layout.flowers if t in main]
        reach = row_distances(frame, [hand_part] + joinable)
        made = False
        for kongs in range(MAX_ROW_KONGS + 1):  # (fourteen first; then one kong, then two: R58)
            for size in range(1, min(MAX_JOINED_ROWS, len(joinable)) + 1):
                found = []
                for picked in combinations(range(len(joinable)), size):
                    if sum(len(joinable[k]) for k in picked) != short + kongs:
                        continue
                    if not meld_tiles <= {t for k in picked for t in joinable[k]}:
                        continue
                    # each picked row reaches the concealed run through rows already joined (index 0: the run)
                    joined, left = [0], [k + 1 for k in picked]
                    while left:
                        near = [k for k in left if any(reach[j][k] <= JOINED_ROW_REACH for j in joined)]
                        if not near:
                            break
                        joined += near
                        left = [k for k in left if k not in near]
                    if not left:
                        found.append(picked)
                for picked in found:
                    groups = [list(layout.concealed)] + [list(joinable[k]) for k in picked]
                    groups = _in_row_order(groups, frame)
                    concealed = [t for tiles in groups for t in tiles]
                    windows = [w for tiles in groups
                               for w in _kong_windows(tiles, frame, facts, class_ids, rotation, spare_from)] \
                        if kongs else []
                    joined_tiles = {t for k in picked for t in joinable[k]}
                    cost = layout.cost - CLUTTER_COST * len(joined_tiles - meld_tiles) \
                        - sum(meld_label_cost(m, frame) for m in melds) + GROUPED_ROW_COST * len(picked) \
                        + KONG_IN_ROW_COST * kongs
                    for kong_windows in combinations(windows, kongs):
                        in_kongs = [t for w in kong_windows for t in w]
                        if len(set(in_kongs)) != len(in_kongs):
                            continue  # (the windows overlap)
                        key = (id(frame), tuple(sorted(concealed)), layout.winning, kong_windows)
                        if key in seen:
                            continue
                        seen.add(key)
                        made = True
                        out.append((frame, duplicate, stacked_on,
                                    replace(layout, concealed=[t for t in concealed if t not in in_kongs],
                                            melds=[_face_up_kong(w) for w in kong_windows],
                                            clutter=[t for t in layout.clutter if t not in joined_tiles],
                                            cost=cost, count_ok=True, grouped_rows=True,
                                            kongs_in_row=bool(kongs))))
                if made:
                    break
            if made:
                break
    return out


def _without_boxes(frame: geometry.Frame, in_rows: np.ndarray, duplicate: np.ndarray, boxes: tuple[int, ...],
                   facts: TileFacts, stacked_on: dict[int, int], solvers: dict,
                   in_kongs: AbstractSet[int] = frozenset(), unsure: AbstractSet[int] = frozenset()) -> list:
    """The cheapest layouts (CROWDED_CANDIDATES) with ``boxes`` left out of the rows as stray boxes, each at
    CROWDED_BOX_COST, as ``_layouts_for`` lists them; a box of ``in_kongs`` (four alike side by side that pass the
    kong test) at KONG_IN_ROW_COST: the geometry cannot tell a second box on one tile from the fourth of four, and
    their kong costs that much for the same doubt (R63, docs/rules-session41.md); a box of ``unsure`` (named under
    STRADDLING_CONFIDENCE) at UNSURE_CROWDED_BOX_COST (R80, docs/rules-session46.md)."""
    without = in_rows.copy()
    without[list(boxes)] = False
    dropped = duplicate.copy()
    dropped[list(boxes)] = True
    found = segment(frame, geometry.rows(frame, without), facts, stacked_on, n_best=CROWDED_CANDIDATES,
                    solver_cache=solvers)
    cost = sum(UNSURE_CROWDED_BOX_COST if t in unsure else KONG_IN_ROW_COST if t in in_kongs else CROWDED_BOX_COST
               for t in boxes)
    for layout in found:
        layout.cost += cost
    return [(frame, dropped, stacked_on, layout) for layout in found]


def _doubtful_backs(detections: Detections) -> list[int]:
    """Tiles read as backs whose white-dragon probability is at least BACK_AS_WHITE_DRAGON."""
    return [i for i in np.flatnonzero(detections.class_ids == FACE_DOWN).tolist()
            if _probability(detections, i, WHITE_DRAGON) >= BACK_AS_WHITE_DRAGON]


def _doubtful_white_dragons(detections: Detections) -> list[int]:
    """Tiles named white dragons whose back probability is at least WHITE_DRAGON_AS_BACK (R82b)."""
    return [i for i in np.flatnonzero(detections.class_ids == WHITE_DRAGON).tolist()
            if _probability(detections, i, FACE_DOWN) >= WHITE_DRAGON_AS_BACK]


def _crowded_boxes(frame: geometry.Frame, rows: list[list[int]], class_ids: np.ndarray,
                   confidence: np.ndarray | None = None) -> tuple[list[int], dict[int, set[int]]]:
    """Tiles of a row that overlap a row neighbour along it by more than CROWDED_OVERLAP local tile widths (touching
    tiles measure -0.1..0.1), the deepest overlaps first; only tiles read as playing tiles (backs are the wall's or a
    kong's, flowers are laid in a group of their own, closer together where the camera looks along it). With them,
    each such tile's crowding neighbours: the playing tiles beside it in its row that it overlaps that deep.

    Where ``confidence`` (Detections.confidence: each tile's top-1 probability) is given, a playing tile named with
    less than STRADDLING_CONFIDENCE that overlaps both its row neighbours by more than CROWDED_OVERLAP together (each
    perhaps less) is listed too, ranked by that sum, with both playing neighbours as its crowding ones (R77,
    docs/rules-session45.md)."""
    def playing(t: int) -> bool:
        return int(class_ids[t]) < KIND_COUNT and not frame.face_down[t]

    found: dict[int, float] = {}
    crowding: dict[int, set[int]] = {}
    for row in rows:
        for a, b in zip(row, row[1:]):
            gap = frame.gap(a, b)
            if gap < -CROWDED_OVERLAP:
                both = [t for t in (a, b) if playing(t)]
                for t in both:
                    found[t] = min(found.get(t, 0.0), gap)
                if len(both) == 2:
                    crowding.setdefault(a, set()).add(b)
                    crowding.setdefault(b, set()).add(a)
        if confidence is None:
            continue
        # An unsurely named box overlapping both its row neighbours, by more than CROWDED_OVERLAP together: a stray box
        # straddling two tiles (R77, docs/rules-session45.md)
        for a, t, b in zip(row, row[1:], row[2:]):
            if float(confidence[t]) >= STRADDLING_CONFIDENCE or t in found:
                continue
            before, after = frame.gap(a, t), frame.gap(t, b)
            if before < 0 and after < 0 and before + after < -CROWDED_OVERLAP and playing(t):
                found[t] = before + after
                for c in (a, b):
                    if playing(c):
                        crowding.setdefault(t, set()).add(c)
                        crowding.setdefault(c, set()).add(t)
    return sorted(found, key=lambda t: found[t]), crowding


def _hand_tiles(layout: Layout) -> list[int]:
    tiles = list(layout.concealed) + list(layout.flowers) + [t for m in layout.melds for t in m.tiles]
    return tiles + ([layout.winning] if layout.winning is not None else [])


def _kind_of(code: str, what: str) -> int:
    tile = Tile.parse(code)
    if tile.is_flower:
        raise HandError("flower_in_hand", f"{what} must be a playing tile, not the flower {code!r}")
    return tile.index


def _facts(detections: Detections, frame: geometry.Frame, turned_tiles: list[int] | None = None) -> TileFacts:
    """The layout's per-tile facts. ``turned_tiles``: the tiles an attempt read the other way up from the classifier's
    first choice (a back read face up as a white dragon, R79; a white dragon read face down, R82b), which pay their
    odds at WHITE_DRAGON_SHORT_WEIGHT."""
    ids = detections.topk_ids
    probs = np.nan_to_num(np.clip(detections.topk_probs.astype(np.float64), 0.0, 1.0))
    flower_mass = np.where((ids >= KIND_COUNT) & (ids < FACE_DOWN), probs, 0.0).sum(axis=1)
    playing_mass = np.where(ids < KIND_COUNT, probs, 0.0).sum(axis=1)
    playing_mass = np.where(frame.face_down, 1.0, playing_mass)
    # A face counts as turned when its label lies more than FLOWER_LABEL_REACH from the rows' direction: with the
    # rows tilted past ~30° an upright face's label flips to the next quarter turn on that side (a flower laid
    # upright beside the hand then carries the same label as the hand tiles around it).
    relative = (detections.rotation.astype(np.float64) - frame.quarter_turn) % 360
    off_rows = np.abs((relative - frame.tilt + 180.0) % 360.0 - 180.0)
    turned = (off_rows > FLOWER_LABEL_REACH) & ~frame.face_down
    faces = np.where(probs >= MELD_FACE_PROBABILITY, ids, -1)
    boxes = detections.boxes.astype(np.float64)
    box_shape = np.log(np.maximum(boxes[:, 2] - boxes[:, 0], 1e-3) / np.maximum(boxes[:, 3] - boxes[:, 1], 1e-3))
    backs_face_up = turned_down = back_mass = white_up = None
    if turned_tiles:
        attempt = np.zeros(len(detections), bool)
        attempt[list(turned_tiles)] = True
        backs_face_up = attempt & (detections.class_ids < KIND_COUNT)  # the white-dragon attempt's backs (R79)
        if (attempt & (detections.class_ids == FACE_DOWN)).any():  # the face-down attempt's white dragons (R82b)
            turned_down = attempt & (detections.class_ids == FACE_DOWN)
            back_mass = np.where(ids == FACE_DOWN, probs, 0.0).sum(axis=1)
            white_up = (detections.class_ids == WHITE_DRAGON) & ~frame.face_down
    return TileFacts(upright_face=~frame.sideways & ~frame.face_down, flower_mass=flower_mass, turned=turned,
                     playing_mass=playing_mass, top_probability=probs.max(axis=1, initial=0.0), faces=faces,
                     box_shape=box_shape, backs_face_up=backs_face_up, turned_down=turned_down, back_mass=back_mass,
                     white_up=white_up)


def _record_roles(reading: HandReading, layout: Layout, duplicate: np.ndarray) -> None:
    roles = reading.tile_roles
    for position, i in enumerate(layout.concealed):
        roles[i].update(role="concealed", position=position)
    if layout.winning is not None:
        roles[layout.winning].update(role="winning", position=0)
    for meld_index, meld in enumerate(layout.melds):
        for i, position in zip(meld.tiles, meld.positions):
            roles[i].update(role="meld", meld_index=meld_index, position=position)
            if i == meld.stacked:
                roles[i]["stacked"] = True
            if i == meld.claimed:
                roles[i]["claimed"] = True
    for position, i in enumerate(layout.flowers):
        roles[i].update(role="flower", position=position)
    for i in np.flatnonzero(duplicate):
        roles[int(i)]["duplicate"] = True


def _fill_face_down_codes(reading: HandReading, layout: Layout, best: decoding.Reading) -> None:
    for meld, decoded in zip(layout.melds, best.melds):
        if decoded.known and decoded.kinds:
            for i in meld.tiles:
                if reading.tile_roles[i]["code"] is None:
                    reading.tile_roles[i]["code"] = FACE_CODES[decoded.kinds[0]]


def _probability(detections: Detections, i: int, face: int) -> float:
    hits = detections.topk_probs[i][detections.topk_ids[i] == face]
    return float(hits[0]) if len(hits) else 0.0


def _hand_of(best: decoding.Reading, layout: Layout, rules: str) -> Hand:
    melds = []
    for decoded in best.melds:
        tiles = tuple(ALL_FACES[k] for k in decoded.kinds)
        claimed = ALL_FACES[decoded.claimed_kind] if decoded.claimed_kind is not None else None
        melds.append(Meld(type=decoded.type, tiles=tiles, discarder=decoded.discarder, claimed=claimed))
    flowers = tuple(ALL_FACES[k] for k in best.flowers) if rules != "riichi" else ()
    return Hand(concealed=tuple(ALL_FACES[k] for k in best.concealed_kinds), melds=tuple(melds),
                winning_tile=ALL_FACES[best.winning_kind], flowers=flowers)


def _alternatives(detections: Detections, layout: Layout, best: decoding.Reading,
                  others: list[decoding.Reading], rules: str) -> list[dict[str, Any]]:
    readings = [best] + [r for r in others if all(m.known for m in r.melds)]
    weights = [math.exp(best.cost - r.cost) for r in readings]
    total = sum(weights)
    out = []
    best_hand, best_hand_text = None, None
    listed: set[tuple[tuple[int, str], ...]] = set()
    for reading, weight in zip(readings[1:], weights[1:]):
        if reading.cost - best.cost > decoding.ALTERNATIVE_MARGIN:
            continue  # its faces came within the margin, its order's cost took it past: under 1/50 as probable
        try:
            hand = _hand_of(reading, layout, rules).validate()
        except HandError:
            continue
        changes = [{"tile_index": i, "box": _box(detections, i), "from": FACE_CODES[best.faces[i]],
                    "to": FACE_CODES[face]} for i, face in sorted(reading.faces.items()) if best.faces.get(i) != face]
        key = tuple((c["tile_index"], c["to"]) for c in changes)
        if not changes or key in listed:
            continue  # same faces as the reading or a likelier alternative, another arrangement: not a different one
        listed.add(key)
        if best_hand is None:
            best_hand = _hand_of(best, layout, rules)
            best_hand_text = best_hand.format()
        if hands_equal_ignoring_order(hand, best_hand):
            continue  # faces swapped between tiles: the same hand, the reading itself
        first = changes[0]
        words = ", ".join(f"tile {c['tile_index']} is {c['to']} instead of {c['from']}" for c in changes)
        out.append({"tile_index": first["tile_index"], "box": first["box"], "from": first["from"], "to": first["to"],
                    "changes": changes, "hand": hand.to_json(), "hand_text": hand.format(),
                    "probability": round(weight / total, 4), "relative_probability": round(weight, 4),
                    "description": f"if {words} the hand is {hand.format()} (instead of {best_hand_text})"})
    return out
