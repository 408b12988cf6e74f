"""The one decomposition routine: every legal arrangement of a winning hand, for both rule families.

:func:`arrangements` yields each way to read a hand as a winning shape, with the exposed melds fixed and with every
distinct placement of the winning tile (which group it completed), because fans and fu depend on both:

* ``standard``: four sets (chows, pungs, kongs) and a pair;
* ``seven_pairs``: seven pairs, four identical tiles allowed as two pairs (MCR; riichi rejects that itself);
* ``thirteen_orphans``: one of each terminal and honour plus a duplicate;
* ``honours_knitted``: 14 distinct tiles from one knitted 147/258/369 pattern plus honours, no pair (全不靠/七星不靠);
* ``knitted_straight``: the nine knitted tiles as three special chows, plus one set and a pair (组合龙).

The work happens on count arrays (34 kinds); the partition of the concealed tiles is cached by counts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Iterator

from .hand import Hand, Meld, MeldType
from .tiles import ALL_KINDS, KIND_COUNT, Tile


class Shape(str, enum.Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONOURS_KNITTED = "honours_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


class GroupKind(str, enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    KNITTED = "knitted"  # three tiles of one suit three apart (147, 258, 369): a special chow of 组合龙
    SINGLE = "single"  # one lone tile of an irregular shape

    @property
    def is_set(self) -> bool:
        return self in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)

    @property
    def is_pung_or_kong(self) -> bool:
        return self in (GroupKind.PUNG, GroupKind.KONG)


@dataclass(frozen=True, slots=True)
class Group:
    """One part of an arrangement.

    ``first`` is the lowest tile's kind index (a knitted group: the lowest of its three tiles, which step by 3).
    ``meld`` is the exposed or concealed-kong meld it comes from, or None for a group of the standing tiles.
    """

    kind: GroupKind
    first: int
    meld: Meld | None = None

    @property
    def indices(self) -> tuple[int, ...]:
        f = self.first
        return _GROUP_INDICES[self.kind](f)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        key = (self.kind, self.first)
        tiles = _TILES_OF_GROUP.get(key)
        if tiles is None:  # at most 6 kinds x 34 firsts: kept for the explanations, which ask for them often
            tiles = _TILES_OF_GROUP[key] = tuple(ALL_KINDS[i] for i in self.indices)
        return tiles

    @property
    def tile(self) -> Tile:
        """The lowest tile (the pung's or pair's tile)."""
        return ALL_KINDS[self.first]

    @property
    def is_exposed(self) -> bool:
        """Claimed from another player (a concealed kong is not exposed)."""
        return self.meld is not None and not self.meld.is_concealed

    def __str__(self) -> str:
        from .tiles import format_tiles

        text = format_tiles(self.tiles)
        return f"{self.kind.value}({text}{'*' if self.is_exposed else ''})"


_TILES_OF_GROUP: dict[tuple, tuple[Tile, ...]] = {}
_GROUP_INDICES = {
    GroupKind.CHOW: lambda f: (f, f + 1, f + 2),
    GroupKind.PUNG: lambda f: (f, f, f),
    GroupKind.KONG: lambda f: (f, f, f, f),
    GroupKind.PAIR: lambda f: (f, f),
    GroupKind.KNITTED: lambda f: (f, f + 3, f + 6),
    GroupKind.SINGLE: lambda f: (f,),
}


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One reading of a winning hand. ``groups`` hold the standing groups first, then the melds in hand order.

    ``winning_group`` is the index in ``groups`` of the group that the winning tile completed.
    """

    shape: Shape
    groups: tuple[Group, ...]
    winning_group: int

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind.is_set)

    @property
    def pair(self) -> Group | None:
        pairs = [g for g in self.groups if g.kind is GroupKind.PAIR]
        return pairs[0] if len(pairs) == 1 else None

    @property
    def winning(self) -> Group:
        return self.groups[self.winning_group]

    def __str__(self) -> str:
        marked = [f"[{g}]" if i == self.winning_group else str(g) for i, g in enumerate(self.groups)]
        return f"{self.shape.value}: " + " ".join(marked)


_MELD_GROUP_KIND = {MeldType.CHOW: GroupKind.CHOW, MeldType.PUNG: GroupKind.PUNG, MeldType.KONG: GroupKind.KONG,
                    MeldType.ADDED_KONG: GroupKind.KONG, MeldType.CONCEALED_KONG: GroupKind.KONG}

# The 6 ways to give 147 / 258 / 369 to the three suits: for each, the 9 kind indices of the knitted tiles.
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + start + 3 * k for suit, start in zip(suits, range(3)) for k in range(3))
    for suits in permutations(range(3))
)
_TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@lru_cache(maxsize=65536)
def standard_partitions(counts: tuple[int, ...], sets_needed: int) -> tuple[tuple[tuple[GroupKind, int], ...], ...]:
    """Every way to split ``counts`` into ``sets_needed`` sets (chows/pungs) plus one pair. Cached by counts."""
    results: list[tuple[tuple[GroupKind, int], ...]] = []
    # Pruning only (the partitions and their order are unchanged): sets hold 3 tiles, so after the pair each suit
    # must hold a multiple of 3 tiles, and an honour (no chows) must come in 0 or 3 (or 2, the pair itself).
    suit_left = [sum(counts[0:9]) % 3, sum(counts[9:18]) % 3, sum(counts[18:27]) % 3]
    honour_pairs = 0
    for n in counts[27:34]:
        if n == 1 or n == 4:
            return ()
        honour_pairs += n == 2
    if honour_pairs > 1:
        return ()
    work = list(counts)
    for pair_index in range(KIND_COUNT):
        if work[pair_index] >= 2:
            suit = pair_index // 9
            if suit < 3:
                if honour_pairs or suit_left[suit] != 2 or suit_left[(suit + 1) % 3] or suit_left[(suit + 2) % 3]:
                    continue
            elif work[pair_index] != 2 or any(suit_left):
                continue
            work[pair_index] -= 2
            for sets in _sets_only(tuple(work)):
                results.append(((GroupKind.PAIR, pair_index),) + sets)
            work[pair_index] += 2
    return tuple(results)


@lru_cache(maxsize=65536)
def _sets_only(counts: tuple[int, ...]) -> tuple[tuple[tuple[GroupKind, int], ...], ...]:
    """Every way to split ``counts`` into chows and pungs only (the leftmost tile is always in the first set)."""
    for first in range(KIND_COUNT):
        if counts[first]:
            break
    else:
        return ((),)
    results: list[tuple[tuple[GroupKind, int], ...]] = []
    work = list(counts)
    if work[first] >= 3:
        work[first] -= 3
        for rest in _sets_only(tuple(work)):
            results.append(((GroupKind.PUNG, first),) + rest)
        work[first] += 3
    if first < 27 and first % 9 <= 6 and work[first + 1] and work[first + 2]:
        work[first] -= 1
        work[first + 1] -= 1
        work[first + 2] -= 1
        for rest in _sets_only(tuple(work)):
            results.append(((GroupKind.CHOW, first),) + rest)
    return tuple(results)


def _placements(shape: Shape, standing: list[Group], melds: tuple[Group, ...], winning: int) -> Iterator[Arrangement]:
    """One arrangement per distinct standing group that can hold the winning tile."""
    groups = tuple(standing) + melds
    seen: set[tuple[GroupKind, int]] = set()
    for i, group in enumerate(standing):
        key = (group.kind, group.first)
        if key in seen or winning not in group.indices:
            continue
        seen.add(key)
        yield Arrangement(shape, groups, i)


def arrangements(hand: Hand) -> Iterator[Arrangement]:
    """Every arrangement of a (validated) hand, each with the group the winning tile completed.

    Yields nothing when the hand is not a winning shape.
    """
    counts = [0] * KIND_COUNT
    for t in hand.concealed:
        counts[t.index] += 1
    winning = hand.winning_tile.index
    counts[winning] += 1
    meld_groups = tuple(Group(_MELD_GROUP_KIND[m.type], m.tiles[0].index, m) for m in hand.melds)
    yield from arrangements_of_counts(counts, winning, meld_groups)


def arrangements_of_counts(counts: list[int], winning: int, meld_groups: tuple[Group, ...] = ()) -> Iterator[Arrangement]:
    """As :func:`arrangements`, from the standing tiles' counts (winning tile included) and the meld groups."""
    sets_needed = 4 - len(meld_groups)
    key = tuple(counts)
    for partition in standard_partitions(key, sets_needed):
        standing = [Group(kind, first) for kind, first in partition]
        yield from _placements(Shape.STANDARD, standing, meld_groups, winning)
    if meld_groups:
        if len(meld_groups) == 1:
            yield from _knitted_straight(counts, winning, meld_groups)
        return
    if all(n % 2 == 0 for n in counts):
        standing = [Group(GroupKind.PAIR, i) for i, n in enumerate(counts) for _ in range(n // 2)]
        yield from _placements(Shape.SEVEN_PAIRS, standing, (), winning)
    if all(counts[i] for i in _TERMINALS_AND_HONOURS) and sum(counts[i] for i in _TERMINALS_AND_HONOURS) == 14:
        standing = [Group(GroupKind.PAIR if counts[i] == 2 else GroupKind.SINGLE, i) for i in _TERMINALS_AND_HONOURS]
        yield from _placements(Shape.THIRTEEN_ORPHANS, standing, (), winning)
    if max(counts) == 1:
        numbers = {i for i in range(27) if counts[i]}
        for pattern in KNITTED_PATTERNS:
            if numbers <= set(pattern):
                standing = [Group(GroupKind.SINGLE, i) for i in range(KIND_COUNT) if counts[i]]
                yield from _placements(Shape.HONOURS_KNITTED, standing, (), winning)
                break
    yield from _knitted_straight(counts, winning, meld_groups)


def _knitted_straight(counts: list[int], winning: int, meld_groups: tuple[Group, ...]) -> Iterator[Arrangement]:
    for pattern in KNITTED_PATTERNS:
        if not all(counts[i] for i in pattern):
            continue
        rest = list(counts)
        for i in pattern:
            rest[i] -= 1
        knitted = [Group(GroupKind.KNITTED, pattern[k]) for k in (0, 3, 6)]
        for partition in standard_partitions(tuple(rest), 1 - len(meld_groups)):
            standing = knitted + [Group(kind, first) for kind, first in partition]
            yield from _placements(Shape.KNITTED_STRAIGHT, standing, meld_groups, winning)


def is_winning_shape(counts: list[int], meld_groups: tuple[Group, ...] = ()) -> bool:
    """Whether the standing tiles (winning tile included) with these melds form any winning shape."""
    first = next(i for i, n in enumerate(counts) if n)
    return next(arrangements_of_counts(counts, first, meld_groups), None) is not None


def winning_tiles(hand: Hand) -> list[Tile]:
    """The kinds that would complete the 13-tile hand (waits), leaving out kinds whose four copies are all in the hand."""
    counts = [0] * KIND_COUNT
    for t in hand.concealed:
        counts[t.index] += 1
    visible = [0] * KIND_COUNT
    for t in hand.concealed:
        visible[t.index] += 1
    for m in hand.melds:
        for t in m.tiles:
            visible[t.index] += 1
    meld_groups = tuple(Group(_MELD_GROUP_KIND[m.type], m.tiles[0].index, m) for m in hand.melds)
    waits = []
    for index in range(KIND_COUNT):
        if visible[index] >= 4:
            continue
        counts[index] += 1
        if next(arrangements_of_counts(counts, index, meld_groups), None) is not None:
            waits.append(ALL_KINDS[index])
        counts[index] -= 1
    return waits
