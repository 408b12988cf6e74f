"""The readings of a hand's standing tiles (four sets and a pair, and the irregular shapes) as small ints, cached by
their counts: the same readings, in the same order, as ``engine.decompose.arrangements_of_counts``.

A reading is (shape code, standing group codes, winning group index); a group code is kind code + first kind index
(``_GROUP_BY_CODE`` turns it back into the one shared ``Group``, ``_SHAPE_BY_CODE`` the shape code into a ``Shape``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from operator import itemgetter

from ..decompose import KNITTED_PATTERNS, Group, GroupKind, Shape, standard_partitions


class _Cache(dict):
    """A growing cache. A plain dict whose keys and values the collector has stopped tracking (ints, bytes, tuples
    of them) is itself untracked by each full collection, and tracked again, as a young object, by the next insert
    of a new tuple: the next young collections then walk all its entries (a few ms for the caches here, after every
    full collection). The collector never untracks a dict subclass, so these stay in the oldest generation.
    ``keep`` stores an entry and bounds the size: a long-running service meets ever more hands."""

    __slots__ = ()
    LIMIT = 1 << 16  # entries; a full cache is emptied before the next is stored

    def keep(self, key, value):
        """``self[key] = value``, returned; a cache holding ``LIMIT`` entries is emptied first."""
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = value
        return value


@lru_cache(maxsize=65536)
def _standing_arrangements(standing: tuple[int, ...], winning: int, melds: int) -> tuple[tuple, ...]:
    """``arrangements_of_counts`` for these standing counts, as (shape code, standing group codes, winning group
    index), in the same order: the four-sets-and-a-pair readings come from per-suit tables
    (``_standard_readings``), the irregular shapes only when the counts allow one.

    Only small ints are cached (``_GROUP_BY_CODE``, ``_SHAPE_BY_CODE`` turn them back into groups and shapes): the
    garbage collector stops tracking tuples of ints, so a cache that grows with new hands does not make its full
    collections longer or more frequent."""
    out = _standard_readings(standing, winning)
    if not irregular_possible(standing, melds):
        return out
    return out + tuple(irregular_readings(standing, winning, melds))


def irregular_readings(standing: tuple[int, ...], winning: int, melds: int) -> list[tuple]:
    """The irregular shapes of ``arrangements_of_counts`` in its order, as (shape code, standing group codes, winning
    group index): seven pairs, thirteen orphans, 全不靠 (no melds), then knitted straight + one set + pair."""
    extra = []
    if melds == 0:
        # Seven pairs, thirteen orphans, 全不靠 (as in arrangements_of_counts, straight to codes).
        if 1 not in standing and 3 not in standing:
            codes = tuple([_PAIR_CODE + i for i in compress(range(34), standing) for _ in range(standing[i] // 2)])
            extra += _placed(_SEVEN_PAIRS_CODE, codes, winning)
        orphans = _orphan_counts(standing)
        if 0 not in orphans and sum(orphans) == 14:
            codes = tuple([(_PAIR_CODE if standing[i] == 2 else _SINGLE_CODE) + i for i in _ORPHANS])
            extra += _placed(_THIRTEEN_ORPHANS_CODE, codes, winning)
        if 2 not in standing and 3 not in standing and 4 not in standing:
            numbers = set(compress(range(27), standing))  # (compress: the kinds held, picked in C)
            for pattern in KNITTED_PATTERNS:
                if numbers <= set(pattern):
                    codes = tuple([_SINGLE_CODE + i for i in compress(range(34), standing)])
                    extra += _placed(_HONOURS_KNITTED_CODE, codes, winning)
                    break
    # A knitted straight: the nine kinds of one knitted pattern, and the rest split by engine.decompose's
    # standard_partitions into one set and a pair (a pair only, beside a meld), as engine.decompose._knitted_straight
    # reads it, straight to codes.
    for pattern, pattern_counts in zip(KNITTED_PATTERNS, _KNITTED_COUNTS):
        if 0 in pattern_counts(standing):
            continue
        rest = list(standing)
        for i in pattern:
            rest[i] -= 1
        knitted = (_KNITTED_CODE + pattern[0], _KNITTED_CODE + pattern[3], _KNITTED_CODE + pattern[6])
        for partition in _rest_partitions(tuple(rest), 1 - melds):
            extra += _placed(_KNITTED_STRAIGHT_CODE, knitted + tuple([_KIND_CODE[kind] + first
                                                                      for kind, first in partition]), winning)
    return extra


def _rest_partitions(rest: tuple[int, ...], sets_needed: int) -> tuple:
    """``standard_partitions(rest, sets_needed)`` for what a knitted straight leaves, kept here (``_KNITTED_RESTS``)
    rather than in the shared lru cache of ``engine.decompose``: inserting into that plain dict after a full
    collection makes the collector walk all its entries again (see ``_Cache``)."""
    key = (rest, sets_needed)
    partitions = _KNITTED_RESTS.get(key)
    if partitions is None:
        partitions = _KNITTED_RESTS.keep(key, standard_partitions.__wrapped__(rest, sets_needed))
    return partitions


_KNITTED_RESTS: dict[tuple, tuple] = _Cache()


def irregular_possible(standing: tuple[int, ...], melds: int) -> bool:
    """Whether an irregular shape is possible at all (the tests of arrangements_of_counts, as quick C-level scans):
    seven pairs (all even), 全不靠 (no count above 1), thirteen orphans (all 13 present), or a knitted straight
    (its nine number kinds present: at least 9 number kinds held)."""
    if melds > 1:
        return False
    kinds = 34 - standing.count(0)
    if melds == 0:
        if kinds <= 7:  # seven pairs hold at most 7 kinds
            return 1 not in standing and 3 not in standing
        if kinds == 14:  # no count above 1: 全不靠 / 七星不靠
            return True
        if kinds >= 12 and 0 not in _orphan_counts(standing):
            return True
    if kinds >= 9 and standing[:27].count(0) <= 18:
        for pattern_counts in _KNITTED_COUNTS:
            if 0 not in pattern_counts(standing):
                return True
    return False


def _placed(shape: int, codes: tuple[int, ...], winning: int) -> list[tuple]:
    """``engine.decompose._placements`` on codes: one reading per distinct group that can hold the winning tile."""
    out = []
    seen = []
    holders = _HOLDERS[winning]
    for i, code in enumerate(codes):
        if code in holders and code not in seen:
            seen.append(code)
            out.append((shape, codes, i))
    return out


def _standard_readings(standing: tuple[int, ...], winning: int) -> tuple:
    """The four-sets-and-a-pair part of ``arrangements_of_counts`` (``standard_partitions`` and the placements of
    the winning tile). Sets never cross suits, so the partitions are the product of each suit's own ways to split
    (cached by the suit's counts), suit 0 varying slowest as in the leftmost-tile recursion; the pair lies in the one
    suit holding 2 mod 3 tiles, or is the one honour pair."""
    honours = standing[27:]
    if 1 in honours or 4 in honours:
        return ()
    honour_pair = honours.count(2)
    if honour_pair > 1:
        return ()
    honour_pair = 27 + honours.index(2) if honour_pair else -1
    tail = tuple([_PUNG_CODE + 27 + k for k in range(7) if honours[k] == 3]) if 3 in honours else ()
    blocks = (standing[0:9], standing[9:18], standing[18:27])
    rests = [sum(b) % 3 for b in blocks]
    if honour_pair >= 0:
        if any(rests):
            return ()
        heads = ((_PAIR_CODE + honour_pair, (_suit_sets(blocks[0], 0), _suit_sets(blocks[1], 9),
                                             _suit_sets(blocks[2], 18))),)
    else:
        if sorted(rests) != [0, 0, 2]:
            return ()
        suit = rests.index(2)
        heads = []
        ways = [_suit_sets(blocks[0], 0), _suit_sets(blocks[1], 9), _suit_sets(blocks[2], 18)]
        for pair, pair_ways in _suit_pair_ways(blocks[suit], suit * 9):
            ways[suit] = pair_ways
            heads.append((pair, tuple(ways)))
    holders = _HOLDERS[winning]  # the groups that can hold the winning tile
    out = []
    for pair, (w0, w1, w2) in heads:
        if not (w0 and w1 and w2):
            continue
        for a in w0:
            for b in w1:
                for c in w2:
                    codes = (pair,) + a + b + c + tail
                    seen = []
                    i = -1
                    for code in codes:
                        i += 1
                        if code in holders and code not in seen:
                            seen.append(code)
                            out.append((_STANDARD_CODE, codes, i))
    return tuple(out)


@lru_cache(maxsize=None)
def _suit_pair_ways(block: tuple[int, ...], base: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """The suit that holds the pair: for each pair (in rank order), its code and the suit's splits without it."""
    out = []
    work = list(block)
    for r in range(9):
        if work[r] >= 2:
            work[r] -= 2
            out.append((_PAIR_CODE + base + r, _suit_sets(tuple(work), base)))
            work[r] += 2
    return tuple(out)


@lru_cache(maxsize=None)
def _suit_sets(block: tuple[int, ...], base: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split one suit's counts into chows and pungs (the leftmost tile always in the first set), as
    group codes, in the order of ``engine.decompose._sets_only``; () when there is none. ``base`` is the suit's
    first kind index."""
    first = next((r for r in range(9) if block[r]), None)
    if first is None:
        return ((),)
    out = []
    work = list(block)
    if work[first] >= 3:
        work[first] -= 3
        for rest in _suit_sets(tuple(work), base):
            out.append((_PUNG_CODE + base + first,) + rest)
        work[first] += 3
    if first <= 6 and work[first + 1] and work[first + 2]:
        work[first] -= 1
        work[first + 1] -= 1
        work[first + 2] -= 1
        for rest in _suit_sets(tuple(work), base):
            out.append((_CHOW_CODE + base + first,) + rest)
    return tuple(out)


# Standing groups as small ints: kind code + first kind index (one shared Group instance each), and the kinds each
# covers (whether it can hold the winning tile).
_KINDS = (GroupKind.CHOW, GroupKind.PUNG, GroupKind.PAIR, GroupKind.KNITTED, GroupKind.SINGLE, GroupKind.KONG)
_KIND_CODE = {kind: 34 * k for k, kind in enumerate(_KINDS)}
_CHOW_CODE, _PUNG_CODE, _PAIR_CODE = _KIND_CODE[GroupKind.CHOW], _KIND_CODE[GroupKind.PUNG], _KIND_CODE[GroupKind.PAIR]
_GROUP_BY_CODE = [Group(kind, first) for kind in _KINDS for first in range(34)]
_COVERS = [frozenset(i for i in g.indices if i < 34) for g in _GROUP_BY_CODE]
_HOLDERS = [frozenset(code for code in range(len(_COVERS)) if w in _COVERS[code]) for w in range(34)]
_SHAPE_BY_CODE = tuple(Shape)
_SHAPE_CODE = {shape: k for k, shape in enumerate(_SHAPE_BY_CODE)}
_STANDARD_CODE = _SHAPE_CODE[Shape.STANDARD]
_SEVEN_PAIRS_CODE = _SHAPE_CODE[Shape.SEVEN_PAIRS]
_THIRTEEN_ORPHANS_CODE = _SHAPE_CODE[Shape.THIRTEEN_ORPHANS]
_HONOURS_KNITTED_CODE = _SHAPE_CODE[Shape.HONOURS_KNITTED]
_KNITTED_STRAIGHT_CODE = _SHAPE_CODE[Shape.KNITTED_STRAIGHT]
_KNITTED_CODE = _KIND_CODE[GroupKind.KNITTED]
_SINGLE_CODE = _KIND_CODE[GroupKind.SINGLE]
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_orphan_counts = itemgetter(*_ORPHANS)
_KNITTED_COUNTS = tuple(itemgetter(*pattern) for pattern in KNITTED_PATTERNS)


def splitting_blocks() -> list[tuple[int, ...]]:
    """Every suit block that splits into at most four chows and pungs (each rank at most 4 tiles): the sums of up
    to four of the 16 sets of a suit (2,869 blocks, the empty one included)."""
    blocks = set()
    work = [0] * 9

    def grow(start: int, left: int) -> None:
        blocks.add(tuple(work))
        if not left:
            return
        for s in range(start, 16):
            if s < 7:  # a chow on rank s
                if work[s] < 4 and work[s + 1] < 4 and work[s + 2] < 4:
                    work[s] += 1
                    work[s + 1] += 1
                    work[s + 2] += 1
                    grow(s, left - 1)
                    work[s] -= 1
                    work[s + 1] -= 1
                    work[s + 2] -= 1
            elif work[s - 7] <= 1:  # a pung on rank s - 7
                work[s - 7] += 3
                grow(s + 1, left - 1)
                work[s - 7] -= 3

    grow(0, 4)
    return sorted(blocks)


@lru_cache(maxsize=None)
def complete_blocks() -> tuple[frozenset, frozenset]:
    """(every suit block that splits into chows and pungs only, every one that splits into them and one pair), each
    rank at most 4 tiles: the first ``splitting_blocks``, the second those with a pair added (made on first use)."""
    sets = splitting_blocks()
    with_pair = set()
    for block in sets:
        for r in range(9):
            if block[r] <= 2:
                with_pair.add(block[:r] + (block[r] + 2,) + block[r + 1:])
    return frozenset(sets), frozenset(with_pair)
