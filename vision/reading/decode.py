"""Constraint-aware decoding: the most probable faces that make a legal winning hand, and the close alternatives.

Each face-up tile has a cost per class, ``-log p`` from its top-k probabilities (classes outside the top-k get a
small floor probability, so a tile the classifier missed entirely can still be corrected, at a high price). The
reading maximises the product of probabilities (minimises the summed cost) subject to:

* each meld's faces fit its layout (three of a kind, or a run claimed from the left; four of a kind for kongs;
  the face-up tiles of a concealed kong alike), flowers are flowers and each flower appears once;
* no more than four copies of a kind; concealed + winning tile form a winning shape with the melds
  (``engine.decompose``, and for riichi only the shapes riichi knows).

A legal reading also pays for the order of its concealed run (``order_cost``: players keep their standing tiles
sorted by suit and rank, policy V6), a cost never below zero, so the faces' cost is a lower bound on a reading's total.

Melds are solved as *blocks*: every legal face assignment of a meld is listed with its cost, so the search never
visits an illegal meld. The search is best-first over rank vectors (one rank per block or free tile), each vector
generated exactly once (children only raise ranks at or after the parent's last raised position); it stops when the
faces' cost passes the best legal reading's total by ``ALTERNATIVE_MARGIN``, after ``max_expansions`` states, or when
the photo's shared :class:`SearchBudget` (states and CPU time over all its layouts) runs out (``Decoding.budget_hit``).
A layout whose tile count can make no hand is not searched (``Decoding.impossible``); winning-shape checks are cached
by counts.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np

from engine.decompose import Group, GroupKind, Shape, arrangements_of_counts
from engine.hand import Discarder, MeldType
from engine.tiles import KIND_COUNT, Tile

from .layout import Layout, MeldSlots

FACE_COUNT = 42
FLOOR_PROBABILITY = 1e-4  # for classes outside a tile's top-k
UNLISTED_PENALTY = 1.0  # extra cost so that an unlisted class never ties with a listed one
UNLISTED_COST = -math.log(FLOOR_PROBABILITY) + UNLISTED_PENALTY  # what a face outside a tile's top-k costs
ALTERNATIVE_MARGIN = math.log(50.0)  # report legal readings at least 1/50 as probable as the best
MAX_EXPANSIONS = 20000
TOTAL_EXPANSIONS = 3000  # per photo, all layouts together (SearchBudget); readable hands use a few hundred
TOTAL_SECONDS = 0.25  # CPU seconds per photo, layout stage included (SearchBudget; 0.08 until R73, session 44)
MAX_ALTERNATIVES = 5
FLOWER_OPTIONS = 64  # cheapest assignments of distinct faces to a layout's flower tiles kept as one block's options
RAISED_COST = 2.0  # reading a lifted sideways tile as lying flat (a pung or chow), or a flat one as an added kong
LIFT_WEIGHT = 1.0  # scale of the lift model's log-probabilities against the faces' (see lift_costs)
LIFT_FLOOR = 0.02  # below this probability of a tile under the claimed one, no added kong is offered
LIFT_EPSILON = 1e-4  # probabilities are clipped to [eps, 1 - eps]
RIICHI_SHAPES = (Shape.STANDARD, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS)
# Players keep their standing tiles in order (see order_breaks): a reading pays ORDER_WEIGHT nats for each place its
# concealed run breaks that order, for at most ORDER_CAP of them, so a hand someone left unsorted pays a bounded price.
ORDER_WEIGHT = 1.5
ORDER_CAP = 2
HONOUR_SUIT = 3  # kind // 9 of the honours (1z..7z); 0, 1, 2 are the numbered suits m, p, s
WHITE_DRAGON = Tile.parse("5z").index


class SearchBudget:
    """Expansions and CPU time shared by every decoding of one photo, so that a photo whose tiles make no legal hand
    (a weak recogniser, clutter) cannot make the search run long: the searches stop when either runs out.

    Time is this thread's CPU time (``time.thread_time``): a loaded machine or other requests served by other threads
    do not cut the search short; the deadline counts from the budget's creation (read_hand creates it first thing,
    so the layout stage counts too). ``seconds`` None: ``TOTAL_SECONDS`` as the module holds it when the budget is made
    (the test suite sets it to inf, so that what a test reads never depends on the speed of the machine it runs on)."""

    def __init__(self, expansions: int = TOTAL_EXPANSIONS, seconds: float | None = None):
        seconds = TOTAL_SECONDS if seconds is None else seconds
        self.expansions = expansions
        self.expansions_left = expansions
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds
        self.exhausted = False
        # A layout stage stopped by the clock before trying all it had: the reading then depends on the CPU time
        # it got, which the reader says (its search_budget_exhausted warning)
        self.cut_short = False

    @property
    def spent(self) -> int:
        """Search states expanded so far (deterministic, unlike the CPU time)."""
        return self.expansions - self.expansions_left

    def spend(self, expansions: int) -> None:
        self.expansions_left -= expansions
        if self.expansions_left <= 0:
            self.exhausted = True

    def extend(self, expansions: int, seconds: float) -> None:
        """More states and CPU time for a later stage (the time from the later of the deadline and now): a stage
        that a spent budget would otherwise skip gets a bounded search of its own."""
        self.expansions += expansions + max(-self.expansions_left, 0)  # an overdraft is forgiven; ``spent`` keeps it
        self.expansions_left = max(self.expansions_left, 0) + expansions
        self.deadline = max(self.deadline, time.thread_time()) + seconds
        self.exhausted = self.expansions_left <= 0

    def can_finish(self, seconds: float) -> bool:
        """Whether work of ``seconds`` more CPU time may begin now: the budget is not spent (``out_of_time``) and the
        work would end by the deadline (R83: a layout stage of tens of ms that cannot stop half way is not begun past
        that point)."""
        # (a NaN deadline never stops it, as out_of_time)
        return not self.out_of_time() and not time.thread_time() + seconds > self.deadline

    def out_of_time(self) -> bool:
        if time.thread_time() > self.deadline:
            self.exhausted = True
        return self.exhausted


def order_breaks(kinds: list[int]) -> int:
    """Places where a run of standing tiles (left to right) leaves the order players keep: a numbered tile after a
    higher one of its suit, a suit back after another suit, an honour back after another honour. The order of the
    suits themselves is each player's own, so it is not asked."""
    breaks = 0
    left_suits: set[int] = set()
    left_honours: set[int] = set()
    previous = None
    for kind in kinds:
        if previous is not None and kind != previous:
            suit, previous_suit = kind // 9, previous // 9
            if previous_suit == HONOUR_SUIT:
                left_honours.add(previous)
            if suit != previous_suit:
                left_suits.add(previous_suit)
                breaks += suit in left_suits
            elif suit == HONOUR_SUIT:
                breaks += kind in left_honours
            else:
                breaks += kind < previous
        previous = kind
    return breaks


def order_cost(kinds: list[int]) -> float:
    """What a concealed run's order costs a reading (nats; see ORDER_WEIGHT)."""
    return ORDER_WEIGHT * min(order_breaks(kinds), ORDER_CAP) if ORDER_WEIGHT else 0.0


def class_costs(topk_ids: np.ndarray, topk_probs: np.ndarray) -> np.ndarray:
    """(N, K) top-k -> (N, 42) cost = -log p per face class (face-down class dropped)."""
    n = len(topk_ids)
    costs = np.full((n, FACE_COUNT), UNLISTED_COST)
    for i in range(n):
        for cid, p in zip(topk_ids[i].tolist(), topk_probs[i].tolist()):
            if 0 <= cid < FACE_COUNT:
                costs[i, cid] = min(costs[i, cid], -math.log(max(float(p), FLOOR_PROBABILITY)))
    return costs


def fixed_costs(costs: np.ndarray, fixed: np.ndarray, class_ids: np.ndarray) -> np.ndarray:
    """``costs`` (N, 42) with every face of a ``fixed`` tile (N,) bool but its own (``class_ids``) at infinite cost:
    the decoder offers it no other (a back, none at all). A client's statement (/v1/tiles/score) is not a guess to
    correct."""
    costs = costs.copy()
    for i in np.flatnonzero(np.asarray(fixed, bool)[:len(costs)]):
        own = int(class_ids[i])
        kept = costs[i, own] if own < FACE_COUNT else None
        costs[i, :] = math.inf
        if kept is not None:
            costs[i, own] = kept
    return costs


@dataclass(frozen=True)
class DecodedMeld:
    type: MeldType
    kinds: tuple[int, ...]  # face per tile, in the meld slot order (stacked tile last)
    discarder: Discarder | None
    claimed_kind: int | None  # a chow's claimed tile
    known: bool = True  # False: a concealed kong showing no face


@dataclass
class Reading:
    cost: float
    faces: dict[int, int]  # detection index -> face class
    melds: list[DecodedMeld]
    winning_kind: int | None
    concealed_kinds: list[int]  # without the winning tile
    flowers: list[int]
    winning_from_concealed: int | None = None  # detection index chosen as winning tile when none was set apart
    order_cost: float = 0.0  # the part of ``cost`` the concealed run's order adds (order_cost)


@dataclass
class Decoding:
    best: Reading | None
    alternatives: list[Reading] = field(default_factory=list)
    expansions: int = 0
    exhausted: bool = False  # stopped by a limit before finding a legal reading
    budget_hit: bool = False  # stopped early because the shared SearchBudget ran out
    impossible: bool = False  # the tile count can make no legal hand: nothing was searched
    unconstrained_cost: float = 0.0  # every tile's cheapest face (no legality asked, a meld's tiles each on their own)

    @property
    def extra_cost(self) -> float:
        """What legality cost over the unconstrained reading (nats); infinite without a legal reading."""
        return self.best.cost - self.unconstrained_cost if self.best is not None else float("inf")

    @property
    def correction_cost(self) -> float:
        """What the faces alone gave up over the unconstrained reading (nats; the order's cost left out)."""
        return self.extra_cost - self.best.order_cost if self.best is not None else float("inf")


def lift_costs(meld: MeldSlots) -> tuple[float, float | None, float]:
    """(cost of reading a three-tile meld as a pung as it lies, cost of reading it as an added kong whose claimed
    tile is hidden under the fourth or None when that reading is not offered, cost of reading it as a chow), in nats.

    With the lift model's probability ``p`` (``MeldSlots.lifted``): LIFT_WEIGHT x -log(1 - p) and x -log(p), the
    latter offered only while p >= LIFT_FLOOR; a chow pays nothing, since no tile can lie under its claimed one
    (the model's word that one does is its own error, not evidence against the faces). Without the model, or where
    the box-depth test marks the meld ``raised`` (two tiles in one box), the geometric costs: RAISED_COST against
    reading a lifted tile as flat, chow included (the geometry may mean a wrong frame), no added kong offered for a
    flat one."""
    if meld.lifted is not None and not meld.raised:
        p = min(max(meld.lifted, LIFT_EPSILON), 1.0 - LIFT_EPSILON)
        hidden = LIFT_WEIGHT * -math.log(p) if p >= LIFT_FLOOR else None
        return LIFT_WEIGHT * -math.log(1.0 - p), hidden, 0.0
    return (RAISED_COST, 0.0, RAISED_COST) if meld.raised else (0.0, None, 0.0)


def shows_no_face(meld: MeldSlots, costs: np.ndarray) -> bool:
    """Whether ``meld`` is a concealed kong that shows no face: four backs, or (K66b, docs/rules-session66.md) backs
    beside face-up tiles that are all white dragons by their cheapest playing face. A white dragon's face is blank or
    a bare frame, like a white-backed set's backs, and a concealed kong is laid with backs showing (all four, or its
    two ends), so blank tiles beside its backs tell nothing of its face: it is asked for, as for four backs. Four
    white dragons face up with no back among them (a kong left in the hand's row) keep their face, and so does a
    white dragon a client named (``fixed_costs``: its one finite face): that is a statement, not the classifier's
    guess."""
    if meld.type is not MeldType.CONCEALED_KONG or not any(meld.face_down):
        return False
    up = [t for t, down in zip(meld.tiles, meld.face_down) if not down]
    return all(int(np.argmin(costs[t, :KIND_COUNT])) == WHITE_DRAGON
               and np.count_nonzero(np.isfinite(costs[t, :KIND_COUNT])) > 1 for t in up)


def _meld_options(meld: MeldSlots, costs: np.ndarray, kong_kind: int | None,
                  no_face: bool) -> list[tuple[float, DecodedMeld, tuple]]:
    """Every legal face assignment of one meld: (cost, meld, ((detection, face), ...)), cheapest first.
    ``no_face``: the meld is a concealed kong that shows no face (``shows_no_face``): ``kong_kind`` names it, or its
    face stays unknown."""
    up = [t for t, down in zip(meld.tiles, meld.face_down) if not down]
    options: list[tuple[float, DecodedMeld, tuple]] = []
    if no_face:
        if kong_kind is None:
            return [(0.0, DecodedMeld(MeldType.CONCEALED_KONG, (), None, None, known=False), ())]
        return [(0.0, DecodedMeld(MeldType.CONCEALED_KONG, (kong_kind,) * 4, None, None), ())]
    if meld.type is MeldType.PUNG:
        flat, hidden, chow_flat = lift_costs(meld)
        for kind in range(KIND_COUNT):
            cost = float(sum(costs[t, kind] for t in meld.tiles))
            options.append((cost + flat, DecodedMeld(MeldType.PUNG, (kind,) * 3, meld.discarder, None),
                            tuple((t, kind) for t in meld.tiles)))
            if hidden is not None:  # the claimed tile hidden under the added fourth
                options.append((cost + hidden, DecodedMeld(MeldType.ADDED_KONG, (kind,) * 4, meld.discarder, None),
                                tuple((t, kind) for t in meld.tiles)))
        if meld.discarder is Discarder.LEFT:  # a chow is only ever claimed from the left
            for suit in range(3):
                for low in range(7):
                    first = suit * 9 + low
                    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
                        kinds = tuple(first + o for o in order)
                        cost = float(sum(costs[t, k] for t, k in zip(meld.tiles, kinds)))
                        claimed_kind = kinds[meld.tiles.index(meld.claimed)]
                        chow = DecodedMeld(MeldType.CHOW, kinds, meld.discarder, claimed_kind)
                        options.append((cost + chow_flat, chow, tuple(zip(meld.tiles, kinds))))
    else:
        kinds = range(KIND_COUNT) if kong_kind is None else (kong_kind,)
        for kind in kinds:
            cost = float(sum(costs[t, kind] for t in up))
            options.append((cost, DecodedMeld(meld.type, (kind,) * meld.type.size, meld.discarder, None),
                            tuple((t, kind) for t in up)))
    options.sort(key=lambda o: o[0])
    return options


def _tile_options(tile: int, costs: np.ndarray, flower: bool) -> list[tuple[float, int]]:
    """(cost, face) of every face the tile may take, cheapest first; a face at infinite cost (a tile the client
    holds, ``fixed_costs``) is none."""
    classes = range(KIND_COUNT, FACE_COUNT) if flower else range(KIND_COUNT)
    return sorted(((cost, c) for c in classes if (cost := float(costs[tile, c])) < math.inf), key=lambda o: o[0])


_FLOWER_PERMUTATIONS: dict[int, np.ndarray] = {}


def _flower_options(tiles: list[int], costs: np.ndarray) -> list[tuple[float, tuple[int, ...]]]:
    """The cheapest ways to give the flower tiles distinct flower faces (each flower exists once), cheapest first.

    The flowers are one block of the search: their only constraint is among themselves, so solving them apart keeps
    the search from walking through every reading with two alike (eight flowers, each misread a little, used to
    spend the photo's whole budget before the faces came out distinct)."""
    n = len(tiles)
    flower_count = FACE_COUNT - KIND_COUNT
    if n > flower_count:
        return []
    perms = _FLOWER_PERMUTATIONS.get(n)
    if perms is None:
        perms = _FLOWER_PERMUTATIONS[n] = np.array(list(itertools.permutations(range(flower_count), n)),
                                                   np.int64).reshape(-1, n)
    table = costs[np.asarray(tiles, np.int64)][:, KIND_COUNT:FACE_COUNT]  # (n, 8)
    totals = table[np.arange(n)[None, :], perms].sum(axis=1) if n else np.zeros(1)
    keep = min(FLOWER_OPTIONS, len(totals))
    best = np.argpartition(totals, keep - 1)[:keep] if keep < len(totals) else np.arange(len(totals))
    best = best[np.argsort(totals[best], kind="stable")]
    return [(float(totals[b]), tuple(int(k) + KIND_COUNT for k in perms[b])) for b in best if totals[b] < math.inf]


def decode(layout: Layout, topk_ids: np.ndarray, topk_probs: np.ndarray, *, rules: str = "mcr",
           winning_request: int | None = None, concealed_kong_kinds: list[int] | None = None,
           max_expansions: int = MAX_EXPANSIONS, budget: SearchBudget | None = None,
           costs: np.ndarray | None = None, meld_cache: dict | None = None) -> Decoding:
    """Search the most probable legal reading of ``layout``; see the module docstring.

    ``winning_request``: the winning tile's kind named by the request. ``concealed_kong_kinds``: faces for the
    concealed kongs that show none, in layout order. ``budget``: shared with the other decodings of the photo.
    ``costs``: ``class_costs(topk_ids, topk_probs)`` when the caller has it already. ``meld_cache``: a dict kept by
    the caller across the decodings of one photo (same ``costs``): each meld's options are listed once.
    """
    if costs is None:
        costs = class_costs(np.asarray(topk_ids), np.asarray(topk_probs))
    requested_kongs = list(concealed_kong_kinds or [])
    blocks: list[list[tuple[float, object]]] = []  # each: sorted (cost, payload)
    block_roles: list[tuple[str, int]] = []
    for index, meld in enumerate(layout.melds):
        kong_kind = None
        no_face = shows_no_face(meld, costs)
        if no_face:
            kong_kind = requested_kongs.pop(0) if requested_kongs else None
        key = (meld, kong_kind)
        block = meld_cache.get(key) if meld_cache is not None else None
        if block is None:
            block = [(c, (m, pairs)) for c, m, pairs in _meld_options(meld, costs, kong_kind, no_face)
                     if c < math.inf]
            if meld_cache is not None:
                meld_cache[key] = block
        blocks.append(block)
        block_roles.append(("meld", index))
    for tile in layout.concealed:
        blocks.append(_tile_options(tile, costs, flower=False))
        block_roles.append(("concealed", tile))
    if layout.winning is not None:
        options = _tile_options(layout.winning, costs, flower=False)
        if winning_request is not None:
            # the request names the set-apart tile's face: a tile the client holds (fixed_costs) takes it too, at the
            # price an unlisted face pays (the request is the later statement of the two)
            cost = float(costs[layout.winning, winning_request])
            options = [(cost if cost < math.inf else UNLISTED_COST, winning_request)]
        blocks.append(options)
        block_roles.append(("winning", layout.winning))
    if rules != "riichi" and layout.flowers:
        blocks.append(_flower_options(list(layout.flowers), costs))
        block_roles.append(("flowers", -1))

    hidden_needed = 14 - 3 * len(layout.melds)
    hidden_found = len(layout.concealed) + (layout.winning is not None)
    if hidden_found != hidden_needed or any(not block for block in blocks):
        # No face can fix a tile count (engine.decompose checks shapes, not the number of tiles): nothing to search.
        return Decoding(best=None, impossible=True)

    roles = [role for role, _ in block_roles]
    meld_blocks = [j for j, role in enumerate(roles) if role == "meld"]
    hidden_blocks = [j for j, role in enumerate(roles) if role in ("concealed", "winning")]
    concealed_blocks = [j for j, role in enumerate(roles) if role == "concealed"]
    winning_block = next((j for j, role in enumerate(roles) if role == "winning"), None)

    def legal(ranks: tuple[int, ...]) -> bool:
        hidden = [0] * KIND_COUNT
        for j in hidden_blocks:
            hidden[blocks[j][ranks[j]][1]] += 1
        counts = list(hidden)
        groups = []
        for j in meld_blocks:
            meld = blocks[j][ranks[j]][1][0]
            for k in meld.kinds:
                counts[k] += 1
            groups.append(_GROUP_OF[meld.type](meld.kinds[0] if meld.kinds else 0))
        if max(counts) > 4:
            return False
        if winning_block is not None:
            winning_kind = blocks[winning_block][ranks[winning_block]][1]
        else:
            concealed = [blocks[j][ranks[j]][1] for j in concealed_blocks]
            if not concealed:
                return False
            if winning_request is not None:
                if winning_request not in concealed:
                    return False
                winning_kind = winning_request
            else:
                winning_kind = concealed[-1]
        return shape_ok(hidden, winning_kind, tuple(groups), rules)

    def reading_of(ranks: tuple[int, ...], cost: float) -> Reading:
        faces: dict[int, int] = {}
        melds: list[DecodedMeld] = []
        concealed: list[int] = []
        concealed_tiles: list[int] = []
        flowers: list[int] = []
        winning_kind = None
        for (role, ref), block, rank in zip(block_roles, blocks, ranks):
            payload = block[rank][1]
            if role == "meld":
                meld, pairs = payload
                melds.append(meld)
                faces.update(pairs)
            elif role == "concealed":
                concealed.append(payload)
                concealed_tiles.append(ref)
                faces[ref] = payload
            elif role == "winning":
                winning_kind = payload
                faces[ref] = payload
            else:  # the flowers' block: one face per flower tile, in layout order
                flowers.extend(payload)
                faces.update(zip(layout.flowers, payload))
        chosen_from_concealed = None
        if winning_kind is None:
            if winning_request is not None:
                position = len(concealed) - 1 - concealed[::-1].index(winning_request)
            else:
                position = len(concealed) - 1  # the right-most standing tile: the usual place of a drawn tile
            winning_kind = concealed[position]
            chosen_from_concealed = concealed_tiles[position]
            concealed = concealed[:position] + concealed[position + 1:]
        order = order_cost(concealed)
        return Reading(cost=cost + order, faces=faces, melds=melds, winning_kind=winning_kind,
                       concealed_kinds=concealed, flowers=flowers, winning_from_concealed=chosen_from_concealed,
                       order_cost=order)

    start = tuple(0 for _ in blocks)
    start_cost = sum(block[0][0] for block in blocks)
    heap: list[tuple[float, tuple[int, ...], int]] = [(start_cost, start, 0)]
    # Each face-up meld tile at its own cheapest playing face: a meld whose tiles cannot be alike (a loose tile taken
    # as an added kong's fourth) then pays for it here, as any other correction does.
    meld_tiles = [t for meld in layout.melds for t, down in zip(meld.tiles, meld.face_down) if not down]
    unconstrained = sum(block[0][0] for block, (role, _) in zip(blocks, block_roles) if role not in ("meld", "flowers"))
    if "flowers" in roles:  # each flower tile at its own cheapest flower face, alike or not
        unconstrained += float(costs[list(layout.flowers), KIND_COUNT:FACE_COUNT].min(axis=1).sum())
    unconstrained += float(costs[meld_tiles, :KIND_COUNT].min(axis=1).sum()) if meld_tiles else 0.0
    result = Decoding(best=None, unconstrained_cost=min(unconstrained, start_cost))
    found: list[Reading] = []  # the legal readings kept, cheapest total first
    expansions = 0
    limit = max_expansions if budget is None else min(max_expansions, budget.expansions_left)
    finished = False
    while heap:
        if expansions >= limit or (budget is not None and expansions % 64 == 63 and budget.out_of_time()):
            break
        cost, ranks, pivot = heapq.heappop(heap)
        expansions += 1
        # ``cost`` (the faces') never exceeds a reading's total, the order's cost being >= 0: once it passes the
        # best total, no reading still to come can beat the best
        if found and cost > found[0].cost + ALTERNATIVE_MARGIN:
            finished = True
            break
        if legal(ranks):
            if len(found) > MAX_ALTERNATIVES and cost >= found[0].cost:
                finished = True
                break
            reading = reading_of(ranks, cost)
            found.append(reading)
            found.sort(key=lambda r: r.cost)  # stable: equal totals keep the order they were found in
            del found[MAX_ALTERNATIVES + 1:]
        for j in range(pivot, len(blocks)):
            rank = ranks[j] + 1
            if rank < len(blocks[j]):
                child = ranks[:j] + (rank,) + ranks[j + 1:]
                heapq.heappush(heap, (cost - blocks[j][ranks[j]][0] + blocks[j][rank][0], child, j))
    finished = finished or not heap
    if found:
        result.best, result.alternatives = found[0], found[1:]
    result.expansions = expansions
    result.exhausted = result.best is None and not finished
    if budget is not None:
        budget.spend(expansions)
        result.budget_hit = not finished and budget.exhausted
    return result


_GROUP_OF = {MeldType.CHOW: lambda k: Group(GroupKind.CHOW, k), MeldType.PUNG: lambda k: Group(GroupKind.PUNG, k),
             MeldType.KONG: lambda k: Group(GroupKind.KONG, k), MeldType.ADDED_KONG: lambda k: Group(GroupKind.KONG, k),
             MeldType.CONCEALED_KONG: lambda k: Group(GroupKind.KONG, k)}
_SHAPE_CACHE: dict[tuple, bool] = {}
SHAPE_CACHE_SIZE = 200_000  # entries; cleared when full (a shape check is a pure function of its key)


def shape_ok(counts: list[int], winning_kind: int, groups: tuple[Group, ...], rules: str) -> bool:
    """``_winning_shape``, cached by (counts, winning tile, melds, rules): the search meets the same counts often."""
    key = (tuple(counts), winning_kind, groups, rules == "riichi")
    hit = _SHAPE_CACHE.get(key)
    if hit is None:
        if len(_SHAPE_CACHE) >= SHAPE_CACHE_SIZE:
            _SHAPE_CACHE.clear()
        hit = _SHAPE_CACHE[key] = _winning_shape(counts, winning_kind, groups, rules)
    return hit


def _winning_shape(counts: list[int], winning_kind: int, groups: tuple[Group, ...], rules: str) -> bool:
    for arrangement in arrangements_of_counts(counts, winning_kind, groups):
        if rules != "riichi":
            return True
        if arrangement.shape in RIICHI_SHAPES:
            if arrangement.shape is Shape.SEVEN_PAIRS and max(counts) > 2:
                continue  # riichi seven pairs need seven different pairs
            return True
    return False
