"""The per-hand fast path of ``score``: the fans (ids and counts) and the total of every reading, from ints only.

It gives the same fans and totals as :func:`engine.mcr.evaluate.evaluate`, which stays the reference and, run once on
the chosen arrangement, gives the explanations (``MCRResult.fans``); ``tests/mcr/test_fast_path.py`` checks the two
agree on every reading of many hands.

What a reading scores is split by what it depends on, each part cached by just that, so that a new hand is mostly
put together from parts seen before:

* the standing tiles' readings with the facts of each standing group (``_standard_summaries`` from per-suit splits
  cached by one suit's counts, the entries of every suit of up to 11 tiles that splits made at import; the one
  partition put together directly where each suit reads one way only; kept by the whole standing counts too, for
  hands seen again; the irregular shapes put together from the packed counts, as ``reading_summaries`` gives them);
* the fans of which kinds the hand uses (by a few features of the kinds, kept in the suit entries and read from
  tables for the melds) and of the way of winning (a table of the context flags);
* the chow combinations (by the chows and the pair), the pung combinations (by the pungs and an honour pair, looked
  up only when the pungs' kind mask allows one), behind those caches tables of every set of chows and of pungs
  (``combo_tables``, made by ``make_tables``); the per-pung fans are worked out on the spot;
* whether the wait is unique (``evaluate._only_winning_tile_of``, per-suit wait tables from the tables of the
  blocks that split, those of up to 10 tiles made at import);
* the exclusions, the total and the tie key (by the fan ids found, in order).

The caches hold only ints, strings and tuples of them, which the garbage collector stops tracking.
"""

from __future__ import annotations

import base64
import threading
import zlib
from functools import lru_cache
from itertools import accumulate, chain, compress, permutations, repeat
from operator import itemgetter

from ..decompose import KNITTED_PATTERNS, GroupKind, Shape
from ..errors import HandError
from ..hand import MeldType
from ..tiles import _TABLE as _TILE_TABLE
from .combos import _canonical, _chow_fans, _may_combine_pungs, _pung_fans
from .evaluate import (_FIVE_CHOWS, _GREEN_MASK, _NOT_TERMINAL_NUMBERS, _REVERSIBLE_MASK, _TERMINAL_CHOWS, _kind_fans,
                       _other_irregular_wait, _suit_waits, win_fan_ids)
from .exclusions import EXCLUDES
from .fans import POINTS
from .readings import (_Cache, _CHOW_CODE, _KIND_CODE, _ORPHANS, _PAIR_CODE, _PUNG_CODE, _SHAPE_CODE, _SINGLE_CODE,
                       _suit_sets, complete_blocks, irregular_possible, irregular_readings, splitting_blocks)
from .result import MCRResult, check_context

_STANDARD = _SHAPE_CODE[Shape.STANDARD]
_KNITTED_STRAIGHT = _SHAPE_CODE[Shape.KNITTED_STRAIGHT]
_SEVEN_PAIRS = _SHAPE_CODE[Shape.SEVEN_PAIRS]
_THIRTEEN_ORPHANS = _SHAPE_CODE[Shape.THIRTEEN_ORPHANS]
_KNITTED_CODE = _KIND_CODE[GroupKind.KNITTED]
_HONOURS_KNITTED = _SHAPE_CODE[Shape.HONOURS_KNITTED]
# The knitted straights: (the kind mask of a pattern's nine kinds, their counts packed, its three knitted groups'
# codes), in the order of ``KNITTED_PATTERNS``.
_KNITTED_STRAIGHTS = tuple((sum(1 << i for i in pattern), sum(1 << 3 * i for i in pattern),
                            (_KNITTED_CODE + pattern[0], _KNITTED_CODE + pattern[3], _KNITTED_CODE + pattern[6]))
                           for pattern in KNITTED_PATTERNS)
_SINGLE_CODES = tuple(_SINGLE_CODE + i for i in range(34))
_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
# 全不靠's fans, by whether it holds the seven honours and whether the nine kinds of its knitted pattern (``_summary``)
_HONOURS_KNITTED_FANS = tuple(tuple((("greater_honours_and_knitted_tiles",) if greater else ())
                                    + ("lesser_honours_and_knitted_tiles",) + (("knitted_straight",) if nine else ())
                                    for nine in (False, True)) for greater in (False, True))
_WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}
_CHOW = MeldType.CHOW
_PUNG = MeldType.PUNG
_CONCEALED_KONG = MeldType.CONCEALED_KONG
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_TERMINAL_OR_HONOUR = frozenset((0, 8, 9, 17, 18, 26) + tuple(range(27, 34)))
_FIVES = frozenset((4, 13, 22))
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_BIT_OF = tuple(1 << i for i in range(34))
_CONCEALED_PUNG_FANS = (None, None, "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
# The chows (and a 5 pair beside four) as ``chow_key``'s fields, each suit in its own place (suit s at bits 22 s):
# summed over the chows in any order, the same fields as ``chow_key``'s up to their order, so that
# ``any_order_chow_key`` of the sum is the table's key.
_CHOW_SIGNATURE = tuple(1 << 22 * (f // 9) + 3 * (f % 9) if f < 27 else 0 for f in range(34))
_PAIR_CODES = tuple((_PAIR_CODE + f,) for f in range(34))  # a pair's group code as a tuple, made once


# --- readings of the standing tiles --------------------------------------------------------------------------------
def reading_summaries(standing: tuple[int, ...], winning: int, melds: int) -> tuple[tuple, ...]:
    """The readings of ``readings._standing_arrangements`` (the same, in the same order) with what evaluation needs
    of each standing part, worked out once (``best_reading`` keeps them by the standing counts):

    (shape code, group codes, winning group index, chows, pungs, pair, knitted, wait, winning pung, shape fans,
    chow signature): the group codes in pieces (a tuple of tuples, the codes in order when chained: ``_codes``), the
    winning group's index among them chained; the standing chows' and pungs' first kinds (in group order), the pair's
    kind, whether there are knitted groups, the wait fan the winning group gives if the wait is unique (``None`` if
    none), whether the winning tile completed a standing pung; for the irregular shapes, ``chows`` is ``None`` and
    ``shape fans`` their fans; last ``_signature_of`` the standing chows (0 for the irregular shapes)."""
    out = _standard_summaries(standing, winning)
    if not irregular_possible(standing, melds):
        return out
    return out + _irregular_summaries(standing, winning, melds)


def _irregular_summaries(standing: tuple[int, ...], winning: int, melds: int) -> tuple[tuple, ...]:
    """The summaries of the irregular shapes' readings, in the order of ``readings._standing_arrangements``."""
    extra = irregular_readings(standing, winning, melds)
    return tuple([_summary(shape, codes, winning_group, winning) for shape, codes, winning_group in extra])


def _seven_pairs_summary(x: int, mask: int, winning: int) -> tuple:
    """The summary of the seven pairs reading of standing counts ``x`` (packed; every count even, at most 7 kinds,
    no melds: then it is the only irregular reading, as ``readings.irregular_readings`` finds it): the pairs in kind
    order (a kind held four times twice), the winning tile in the first pair of its kind (``_summary``'s fans)."""
    if not x & _HIGH_BITS:  # seven kinds, two of each (most): a pair of each kind in the mask
        codes = _codes_of_kinds(_PAIR_CODES_OF_KINDS, mask)
        low = mask & -mask
        first = low.bit_length() - 1
        # seven shifted pairs: seven kinds in a row (the mask seven bits from the lowest), of one suit
        fans = _SEVEN_SHIFTED_PAIRS if mask == low * 0x7F and first < 27 and first % 9 < 3 else _SEVEN_PAIRS_FANS
        return (_SEVEN_PAIRS, (codes,), (mask & _BIT_OF[winning] - 1).bit_count(), None, (), -1, False, None, False,
                fans, 0)
    firsts = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        firsts += (i,) * ((x >> 3 * i & 7) >> 1)
        mask ^= low
    codes = tuple([_PAIR_CODE + i for i in firsts])
    fans = _SEVEN_PAIRS_FANS
    if firsts[0] < 27 and firsts[-1] - firsts[0] == 6 and firsts[0] // 9 == firsts[-1] // 9 and len(set(firsts)) == 7:
        fans = _SEVEN_SHIFTED_PAIRS
    return (_SEVEN_PAIRS, (codes,), firsts.index(winning), None, (), -1, False, None, False, fans, 0)


def _codes_of_kinds(codes: tuple[int, ...], mask: int) -> tuple[int, ...]:
    """``codes[i]`` for each kind i in the 34-kind ``mask``, lowest first: picked in C by the mask's binary digits."""
    return tuple(compress(codes, format(mask, "034b").encode().translate(_BINARY_DIGITS)[::-1]))


_SEVEN_PAIRS_FANS = ("seven_pairs",)
_SEVEN_SHIFTED_PAIRS = ("seven_pairs", "seven_shifted_pairs")
_PAIR_CODES_OF_KINDS = tuple(_PAIR_CODE + i for i in range(34))


def _honours_knitted_summaries(mask: int, winning: int) -> tuple[tuple, ...]:
    """The readings of fourteen standing singles (no melds, ``mask`` their kinds): the one 全不靠 reading where the
    number kinds lie in one knitted pattern, else none (14 singles make no other shape), as
    ``readings.irregular_readings`` and ``_summary`` give it: the singles in kind order, the winning tile in its
    own group."""
    numbers = mask & _NUMBER_MASK
    for pattern_mask in _KNITTED_MASKS:
        if not numbers & ~pattern_mask:
            break
    else:
        return ()
    codes = _codes_of_kinds(_SINGLE_CODES, mask)
    fans = _HONOURS_KNITTED_FANS[(mask >> 27).bit_count() == 7][numbers.bit_count() == 9]
    return ((_HONOURS_KNITTED, (codes,), (mask & _BIT_OF[winning] - 1).bit_count(), None, (), -1, False, None, False,
             fans, 0),)


def _knitted_straight_summaries(x: int, mask: int, winning: int, melds: int) -> tuple[tuple, ...]:
    """The readings of standing counts ``x`` (packed, ``mask`` their kinds; at most one meld, no other irregular shape
    possible: more than 7 kinds, not fourteen, not thirteen orphans) as a knitted straight and one set and a pair
    (a pair only, beside a meld), as ``readings.irregular_readings`` and ``_summary`` give them: for each knitted
    pattern held, in order, the rest's partitions in the order of ``standard_partitions`` (the pair's kind rising;
    three tiles make one set at most), each group that can hold the winning tile in group order."""
    out = []
    places = _placements_of(winning)
    for pattern_mask, pattern_pack, knitted in _KNITTED_STRAIGHTS:
        if mask & pattern_mask != pattern_mask:
            continue
        rest = x - pattern_pack
        if melds:  # two tiles: a pair or nothing
            if rest & rest - 1 or rest.bit_length() % 3 != 2:
                continue
            pairs = rest
        else:  # five tiles: each kind held twice or more, with what it leaves as one set
            pairs = (rest >> 1 | rest >> 2) & _LOW_BITS
        while pairs:
            low = pairs & -pairs
            pairs ^= low
            pair = (low.bit_length() - 1) // 3
            chows = pungs = ()
            signature = 0
            if melds:
                codes = knitted + (_PAIR_CODE + pair,)
            else:
                left = rest - (low << 1)
                first = ((left & -left).bit_length() - 1) // 3
                if left == _PUNG_PACK[first]:
                    pungs = (first,)
                    codes = knitted + (_PAIR_CODE + pair, _PUNG_CODE + first)
                elif first < 27 and first % 9 < 7 and left == _CHOW_PACK[first]:
                    chows = (first,)
                    signature = _CHOW_SIGNATURE[first]
                    codes = knitted + (_PAIR_CODE + pair, _CHOW_CODE + first)
                else:
                    continue
            pieces = (codes,)
            for index, code in enumerate(codes):
                place = places.get(code)
                if place is not None:
                    out.append((_KNITTED_STRAIGHT, pieces, index, chows, pungs, pair, True, place[0], place[1], (),
                                signature))
    return tuple(out)


def _standard_summaries(standing: tuple[int, ...], winning: int) -> tuple[tuple, ...]:
    """The four-sets-and-a-pair readings (``readings._standard_readings``, same order) as summaries."""
    x = pack(standing)
    return _standard_summaries_of(_suit_entry(0, x & _SUIT_BITS), _suit_entry(1, x >> 27 & _SUIT_BITS),
                                  _suit_entry(2, x >> 54 & _SUIT_BITS), _honour_entry(x >> 81), winning)


def _standard_summaries_of(entry0: tuple, entry1: tuple, entry2: tuple, honours: tuple, winning: int) -> tuple:
    """``_standard_summaries`` from the suits' and the honours' entries (``_suit_entry``, ``_honour_entry``): put
    together from per-suit splits that carry their chows and pungs."""
    if not honours[1]:
        return ()
    honour_pair, tail_pungs, tail = honours[2], honours[3], honours[4]
    rest0, rest1, rest2 = entry0[1], entry1[1], entry2[1]
    if honour_pair >= 0:
        if rest0 or rest1 or rest2:
            return ()
        heads = ((honour_pair, entry0[2], entry1[2], entry2[2]),)
    # The pair lies in the one suit holding 2 tiles mod 3 (the others hold 0 mod 3): its entry lists the pairs
    # with the splits of what is left.
    elif rest0 == 2 and not (rest1 or rest2):
        heads = [(pair, pair_ways, entry1[2], entry2[2]) for pair, pair_ways in entry0[2]]
    elif rest1 == 2 and not (rest0 or rest2):
        heads = [(pair, entry0[2], pair_ways, entry2[2]) for pair, pair_ways in entry1[2]]
    elif rest2 == 2 and not (rest0 or rest1):
        heads = [(pair, entry0[2], entry1[2], pair_ways) for pair, pair_ways in entry2[2]]
    else:
        return ()
    # The winning tile lies in one suit (or is an honour): only the pair and that suit's (or the honours') groups
    # can hold it, in group order.
    win_suit = winning // 9
    win_rank = winning % 9
    out = []
    for pair, w0, w1, w2 in heads:
        if not (w0 and w1 and w2):
            continue
        pair_code = _PAIR_CODES[pair]
        for codes0, chows0, pungs0, places0, signature0 in w0:
            for codes1, chows1, pungs1, places1, signature1 in w1:
                for codes2, chows2, pungs2, places2, signature2 in w2:
                    codes = (pair_code, codes0, codes1, codes2, tail)  # (in pieces: ``_codes``)
                    chows = chows0 + chows1 + chows2
                    pungs = pungs0 + pungs1 + pungs2 + tail_pungs
                    signature = signature0 + signature1 + signature2
                    if pair == winning:
                        out.append((_STANDARD, codes, 0, chows, pungs, pair, False, "single_wait", False, (),
                                    signature))
                    if win_suit == 0:
                        places, offset = places0[win_rank], 1
                    elif win_suit == 1:
                        places, offset = places1[win_rank], 1 + len(codes0)
                    elif win_suit == 2:
                        places, offset = places2[win_rank], 1 + len(codes0) + len(codes1)
                    else:
                        if winning in tail_pungs:
                            out.append((_STANDARD, codes, 1 + len(codes0) + len(codes1) + len(codes2)
                                        + tail_pungs.index(winning), chows,
                                        pungs, pair, False, None, True, (), signature))
                        continue
                    for index, wait, winning_pung in places:
                        out.append((_STANDARD, codes, offset + index, chows, pungs, pair, False, wait, winning_pung,
                                    (), signature))
    return tuple(out)


# --- the standing tiles as one int --------------------------------------------------------------------------------
# A hand's counts packed in one int, 3 bits per kind (kind i at bits 3i..3i+2; a count is at most 4): counted in C
# (``sum(map(_PACK_OF_TILE, tiles))``, no bytecode per tile), each suit the 27-bit field at 27 * suit and the
# honours the 21 bits from 81, so that per-suit tables are keyed by small ints; the fours are the set bits of
# ``_HIGH_BITS`` (bit 2 of a field is set only for a count of 4), the odd counts those of ``_LOW_BITS``.
_PACK = tuple(1 << 3 * i for i in range(34))
_PACK_BY_TILE = {tile: 1 << 3 * tile.index for tile in _TILE_TABLE.values() if tile.index < 34}
_PACK_OF_TILE = _PACK_BY_TILE.__getitem__
_SUIT_BITS = (1 << 27) - 1
_LOW_BITS = sum(_PACK)
_HIGH_BITS = _LOW_BITS << 2
_FOUR_OF = tuple(4 << 3 * i for i in range(34))  # kind i held four times: this bit set
_FIELD_OF = tuple(7 << 3 * i for i in range(34))  # kind i's count
_CHOW_PACK = tuple(0b001001001 << 3 * i for i in range(34))  # a chow starting at kind i
_PUNG_PACK = tuple(3 << 3 * i for i in range(34))
_KONG_PACK = tuple(4 << 3 * i for i in range(34))
_NINE_GATES_PACKED = tuple(sum(n << 3 * (9 * suit + r) for r, n in enumerate(_NINE_GATES)) for suit in range(3))
# by kind: its suit's nine kinds as a mask (-1 for an honour, which no kinds mask equals: no nine gates there)
_FULL_SUIT_MASK = tuple(0x1FF << 9 * (i // 9) if i < 27 else -1 for i in range(34))


def pack(counts) -> int:
    """Counts (one per kind, from kind 0) as the packed int."""
    return sum([n << 3 * i for i, n in enumerate(counts)])


def unpack(packed: int, n: int = 34) -> tuple[int, ...]:
    """The first ``n`` counts of a packed int: its octal digits, lowest first (read in C, not one by one)."""
    return tuple(format(packed, _OCTAL_WIDTH[n]).encode().translate(_OCTAL_DIGITS)[:-n - 1:-1])


_OCTAL_WIDTH = tuple(f"0{n}o" for n in range(35))
_OCTAL_DIGITS = bytes.maketrans(b"01234567", bytes(range(8)))


def _suit_entry(suit: int, block: int) -> tuple:
    """What the hand needs of one number suit's standing tiles (``block``: its 9 counts packed), kept by suit and counts:
    (the kinds present as bits of the 34-kind mask, the tiles mod 3, the splits (``_suit_splits``) when that is
    0, (pair kind, the splits of the rest) for each pair in rank order when it is 2, else (); the only way to read
    it when there is one (its split when the tiles are 0 mod 3, (pair kind, split) when 2), else None; the kind
    fans' features of its kinds (``_FEATURES``); the knitted groups (ranks 147, 258, 369) of which it holds all three
    ranks, at bits 3 * suit (``_FULL_KNITTED_GROUPS``, for ``_irregular_possible``))."""
    table = _SUIT_ENTRIES[suit]
    entry = table.get(block)
    if entry is None:
        base = 9 * suit
        total, ranks, pair_ranks = _tally(block)
        rest = total % 3
        splits = _SPLITS_PACKED[suit]  # every block of at most 12 tiles that splits
        if rest == 0:
            ways = splits.get(block, ()) if total <= 12 else _suit_splits(unpack(block, 9), base)
        elif rest == 2:
            ways = tuple([(base + r, splits.get(block - (2 << 3 * r), ()) if total <= 14
                           else _suit_splits(unpack(block - (2 << 3 * r), 9), base))
                          for r in _RANKS_OF[pair_ranks]])
        else:
            ways = ()
        mask = ranks << base
        # The one way to read the suit, where there is just one (most suits): its split, or (pair, split).
        if rest == 0:
            single = ways[0] if len(ways) == 1 else None
        else:
            heads = [(pair, split) for pair, splits in ways for split in splits]
            single = heads[0] if len(heads) == 1 else None
        entry = table.keep(block, (mask, rest, ways, single, _FEATURES[suit][mask >> base],
                                   _FULL_KNITTED_GROUPS[ranks] << 3 * suit))
    return entry


def _honour_entry(block: int) -> tuple:
    """What the hand needs of its standing honours (``block``: their 7 counts packed), kept by counts: (the kinds present
    as bits of the 34-kind mask, whether four sets and a pair are possible (no honour single or four, at most one
    pair), the pair's kind or -1, the pungs' kinds, their group codes, the kind fans' features of its kinds)."""
    entry = _HONOUR_ENTRIES.get(block)
    if entry is None:
        honours = list(unpack(block, 7))
        pungs = tuple([27 + k for k in range(7) if honours[k] == 3])
        entry = _HONOUR_ENTRIES[block] = (
            sum([1 << 27 + k for k in range(7) if honours[k]]),
            1 not in honours and 4 not in honours and honours.count(2) <= 1,
            27 + honours.index(2) if 2 in honours else -1, pungs, tuple([_PUNG_CODE + f for f in pungs]),
            _HONOUR_FEATURES[sum([1 << k for k in range(7) if honours[k]])])
    return entry


_SUIT_ENTRIES: tuple[dict[int, tuple], ...] = (_Cache(), _Cache(), _Cache())
_HONOUR_ENTRIES: dict[int, tuple] = _Cache()  # at most 5^7 blocks
# The ``get`` of the caches read for every hand, bound once: the interpreter does not specialise a method call on a
# dict subclass (``_Cache``), and calls a bound built-in method directly (about 200 machine instructions less a
# look-up).
_SUIT_ENTRY_GETS = tuple(table.get for table in _SUIT_ENTRIES)
_HONOUR_ENTRIES_GET = _HONOUR_ENTRIES.get


@lru_cache(maxsize=1 << 16)  # bounded: a long-running service meets ever more suits
def _split_placements(codes: tuple[int, ...], winning: int) -> tuple[tuple[int, str | None, bool], ...]:
    """The groups of one suit's split that can hold the winning tile, one per distinct group, in order: (index in
    the split, its wait fan if the wait is unique, whether it is a pung)."""
    out = []
    seen = []
    placements = _placements_of(winning)
    for index, code in enumerate(codes):
        place = placements.get(code)
        if place is not None and code not in seen:
            seen.append(code)
            out.append((index, place[0], place[1]))
    return tuple(out)


def _suit_splits(block: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...],
                                                                   tuple[int, ...]], ...]:
    """``readings._suit_sets`` with each split's chows' and pungs' first kinds: (codes, chows, pungs), for a block
    of 0 mod 3 tiles. From the table of every block that splits (``_SPLITS``): a block of at most 12 tiles not in
    it has no split."""
    splits = _SPLITS[base // 9].get(block)
    if splits is None:
        if sum(block) <= 12:
            return ()
        splits = _moved(_block_splits(block), base)  # beyond any standing hand: worked out
    return splits


def _moved(splits: tuple, base: int) -> tuple:
    """First-suit splits moved to the suit starting at ``base``."""
    if not base or not splits:
        return splits
    return tuple([_split(tuple([c + base for c in codes]), tuple([f + base for f in chows]),
                         tuple([f + base for f in pungs]), places) for codes, chows, pungs, places, *_ in splits])


def _block_splits(block: tuple[int, ...]) -> tuple:
    return tuple([_split(codes, tuple([c - _CHOW_CODE for c in codes if c < _CHOW_CODE + 34]),
                         tuple([c - _PUNG_CODE for c in codes if _PUNG_CODE <= c < _PUNG_CODE + 34]),
                         _split_places(codes))
                  for codes in _suit_sets.__wrapped__(block, 0)])


def _split(codes: tuple[int, ...], chows: tuple[int, ...], pungs: tuple[int, ...], places: tuple) -> tuple:
    """One split of a suit: (codes, chows, pungs, placements, the sum of the chows' ``_CHOW_SIGNATURE``)."""
    return (codes, chows, pungs, places, _signature_of(chows))


def _signature_of(chows: tuple[int, ...]) -> int:
    """The sum of the chows' ``_CHOW_SIGNATURE``, which ``score`` reads of a reading's standing chows: kept
    with the readings (from their suits' splits), as it adds up over the suits and the melds."""
    return sum([_CHOW_SIGNATURE[f] for f in chows])


def _split_places(codes: tuple[int, ...]) -> tuple[tuple[tuple[int, str | None, bool], ...], ...]:
    """``_split_placements(codes, r)`` for each rank ``r`` of the first suit (a split's placements do not depend on
    its suit: they are made once, on the first suit's split, and shared by the moved ones)."""
    places: list[list] = [[] for _ in range(9)]
    seen: list[list] = [[] for _ in range(9)]
    for index, code in enumerate(codes):
        first = code % 34
        for r in (first, first + 1, first + 2) if code < _CHOW_CODE + 34 else (first,):
            if code not in seen[r]:
                seen[r].append(code)
                place = _placement(code, r)
                places[r].append((index, place[0], place[1]))
    return tuple([tuple(p) for p in places])


def _placement(code: int, winning: int) -> tuple[str | None, bool] | None:
    """What the standing group ``code`` gives when the winning tile completed it: (its wait fan if the wait is
    unique, whether it is a pung); None when it cannot hold the winning tile."""
    kind_code, first = code // 34 * 34, code % 34
    if kind_code == _CHOW_CODE:
        if not first <= winning <= first + 2:
            return None
        r = first % 9
        if winning == first + 1:
            return ("closed_wait", False)
        if (r == 0 and winning == first + 2) or (r == 6 and winning == first):
            return ("edge_wait", False)
        return (None, False)
    if kind_code == _PUNG_CODE:
        return (None, True) if first == winning else None
    if kind_code == _PAIR_CODE:
        return ("single_wait", False) if first == winning else None
    if kind_code == _KNITTED_CODE:
        return (None, False) if winning in (first, first + 3, first + 6) else None
    return None


@lru_cache(maxsize=None)
def _placements_of(winning: int) -> dict[int, tuple[str | None, bool]]:
    """Standing group code -> ``_placement``, for the codes that can hold the winning kind (no singles: they
    appear only in the irregular shapes, summarised by ``_summary``). Made on first use (34 at most)."""
    return {code: place for code in range(5 * 34) for place in (_placement(code, winning),) if place is not None}


# block -> its splits, for each suit (base 0, 9, 18), each split with its placements of a winning tile of each rank
# (``_split_places``): made at import (about 0.05 s), so that a suit never seen before costs one look-up.
_FIRST_SUIT_SPLITS = {block: _block_splits(block) for block in splitting_blocks()}
_SPLITS = tuple({block: _moved(splits, base) for block, splits in _FIRST_SUIT_SPLITS.items()} for base in (0, 9, 18))
del _FIRST_SUIT_SPLITS
_SPLITS_PACKED = tuple({pack(block): splits for block, splits in table.items()} for table in _SPLITS)


_DIGITS = 0o111111111  # the lowest bit of each of a suit's 9 counts, packed
_RANKS_OF = tuple(tuple([r for r in range(9) if m >> r & 1]) for m in range(512))  # rank mask -> its ranks


def _tally(block: int) -> tuple[int, int, int]:
    """One suit's packed counts read from the bits of the counts, without a loop over the ranks: (its tiles, the
    ranks held as a rank mask, the ranks held twice or more). Bit k of each count's 3 is the k-th of ``ones``,
    ``twos``, ``fours``, whose octal digits are then 0 or 1, each rank's digit, read in base 2, its bit."""
    ones, twos, fours = block & _DIGITS, block >> 1 & _DIGITS, block >> 2 & _DIGITS
    return (ones.bit_count() + 2 * twos.bit_count() + 4 * fours.bit_count(), int(format(ones | twos | fours, "o"), 2),
            int(format(twos | fours, "o"), 2))


def _prefill_suit_entries(most: int = 11) -> None:
    """``_suit_entry`` of every block of at most ``most`` tiles that a standing hand can read as four sets and a pair
    (one that splits into sets, or into sets and a pair), for each suit, put in ``_SUIT_ENTRIES``, and the wait
    entries of one tile less (``_prefill_suit_waits``), at import (about 0.08 s): a suit never seen before then
    costs one look-up, not the entry's making. The same entries as ``_suit_entry`` makes (``tests/mcr`` checks
    them); a block has the same key in every suit."""
    # packed block -> (tiles, rank mask, () for ``sets``, the ranks held twice or more for ``with_pair``), by
    # ``_tally``
    sets = {block: _tally(block)[:2] + ((),) for block in _SPLITS_PACKED[0]}
    with_pair = {}
    for block, (total, _, _) in sets.items():
        if total <= most - 2:
            room = ~(block >> 2 | block & block >> 1) & _DIGITS  # ranks held at most twice
            for r in _RANKS_OF[int(format(room, "o"), 2)]:
                with_pair[block + (2 << 3 * r)] = total + 2
    for block in with_pair:
        total, ranks, pair_ranks = _tally(block)
        with_pair[block] = (total, ranks, _RANKS_OF[pair_ranks])
    for suit in range(3):
        base = 9 * suit
        splits = _SPLITS_PACKED[suit]
        table = _SUIT_ENTRIES[suit]
        features = _FEATURES[suit]
        for block, (total, mask, _) in sets.items():
            if block and total <= most:
                ways = splits[block]
                table[block] = (mask << base, 0, ways, ways[0] if len(ways) == 1 else None, features[mask],
                                _FULL_KNITTED_GROUPS[mask] << 3 * suit)
        for block, (_, mask, pair_ranks) in with_pair.items():
            ways = tuple([(base + r, splits.get(block - (2 << 3 * r), ())) for r in pair_ranks])
            single = None
            for pair, pair_splits in ways:
                if pair_splits:
                    if single is not None or len(pair_splits) > 1:
                        single = None
                        break
                    single = (pair, pair_splits[0])
            table[block] = (mask << base, 2, ways, single, features[mask], _FULL_KNITTED_GROUPS[mask] << 3 * suit)
    _prefill_suit_waits(sets, with_pair, most - 1)


def _prefill_suit_waits(sets: dict[int, tuple], with_pair: dict[int, tuple], most: int) -> None:
    """``_suit_waits_of`` of the 13 standing tiles' blocks of at most ``most`` tiles that one tile completes, and of
    the blocks that split into sets, put in ``_SUIT_WAITS``: the ranks that complete a block are those taken from the
    complete blocks of one tile more (``sets``, ``with_pair``: packed -> (tiles, ...), all of them up to ``most`` + 1
    tiles), in rank order. The same entries as ``_suit_waits_of`` makes (``tests/mcr`` checks them)."""
    for table, rest in ((sets, 2), (with_pair, 1)):
        waits: dict[int, list[int]] = {}
        for block, (total, mask, _) in table.items():
            if total <= most + 1:
                for r in _RANKS_OF[mask]:
                    waits.setdefault(block - (1 << 3 * r), []).append(r)
        pair_after = int(rest == 1)
        for block, ranks in waits.items():
            ranks.sort()
            _SUIT_WAITS[block] = (rest, rest == 2 and block in with_pair, tuple([(r, pair_after) for r in ranks]))
    for block in sets:
        _SUIT_WAITS[block] = (0, True, ())


def _summary(shape: int, codes: tuple[int, ...], winning_group: int, winning: int) -> tuple:
    """The summary of one reading given as (shape code, group codes, winning group index)."""
    if shape == _STANDARD or shape == _KNITTED_STRAIGHT:
        chows = tuple([c - _CHOW_CODE for c in codes if c < _CHOW_CODE + 34])
        pungs = tuple([c - _PUNG_CODE for c in codes if _PUNG_CODE <= c < _PUNG_CODE + 34])
        # (list comprehensions rather than generators: cheaper on this per-new-hand path)
        pair = [c - _PAIR_CODE for c in codes if _PAIR_CODE <= c < _PAIR_CODE + 34][0]
        knitted = any([_KNITTED_CODE <= c < _KNITTED_CODE + 34 for c in codes])
        wait, winning_pung = _placement(codes[winning_group], winning)
        return (shape, (codes,), winning_group, chows, pungs, pair, knitted, wait, winning_pung, (),
                _signature_of(chows))
    firsts = [code % 34 for code in codes]
    if shape == _SEVEN_PAIRS:
        fans = ("seven_pairs",)
        pairs = sorted(firsts)
        if pairs[0] < 27 and pairs[-1] - pairs[0] == 6 and pairs[0] // 9 == pairs[-1] // 9 \
                and len(set(pairs)) == 7:
            fans += ("seven_shifted_pairs",)
    elif shape == _THIRTEEN_ORPHANS:
        fans = ("thirteen_orphans",)
    else:  # honours and knitted tiles
        fans = ()
        honours = sum([f >= 27 for f in firsts])
        if honours == 7:
            fans += ("greater_honours_and_knitted_tiles",)
        fans += ("lesser_honours_and_knitted_tiles",)
        if len(firsts) - honours == 9:
            fans += ("knitted_straight",)
    return (shape, (codes,), winning_group, None, (), -1, False, None, False, fans, 0)


def _codes(pieces: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """A summary's group codes from its pieces: kept in pieces (the pair's, each suit's split's, the honour pungs')
    because chaining them for every new standing cost more than the rare use of the whole."""
    return tuple(chain.from_iterable(pieces))


# --- parts cached by what they depend on ---------------------------------------------------------------------------
_KIND_IDS_BY_FEATURES: dict[int, tuple[str, ...]] = _Cache()


def kind_fan_ids(mask: int) -> tuple[str, ...]:
    """The ids of ``evaluate._kind_fans(mask)``, cached by the features they read (as ``evaluate._kind_fans_of``):
    one int, the suits present, what the ranks present decide (only without honours: ``_RANK_FEATURES``), winds /
    dragons present, and whether some tile is not green, not reversible, a number not a terminal; from tables of
    each suit's rank mask (cheaper than a cache by the mask itself, which new hands mostly miss)."""
    key = (_FEATURES[0][mask & 0x1FF] | _FEATURES[1][mask >> 9 & 0x1FF] | _FEATURES[2][mask >> 18 & 0x1FF]
           | _HONOUR_FEATURES[mask >> 27])
    if mask >> 27:
        key &= _NO_RANKS  # the ranks present matter only without honours
    ids = _KIND_IDS_BY_FEATURES.get(key)
    if ids is None:
        ids = _KIND_IDS_BY_FEATURES[key] = tuple(fan for fan, _, _ in _kind_fans.__wrapped__(mask))
    return ids


def _features(mask: int) -> int:
    """``kind_fan_ids``'s key bits of the kinds in ``mask`` (one suit's, or the honours', shifted in place)."""
    return ((mask & 0x1FF != 0) | (mask >> 9 & 0x1FF != 0) << 1 | (mask >> 18 & 0x1FF != 0) << 2
            | _RANK_FEATURES[(mask | mask >> 9 | mask >> 18) & 0x1FF] << 3 | (mask >> 27 & 0xF != 0) << 12
            | (mask >> 31 != 0) << 13 | (mask & ~_GREEN_MASK != 0) << 14 | (mask & ~_REVERSIBLE_MASK != 0) << 15
            | (mask & _NOT_TERMINAL_NUMBERS != 0) << 16)


# What the ranks present (a rank mask) decide of the kind fans (``evaluate._kind_fans``, which reads them only
# without honours): whether some rank lies outside 789, 456, 123, 6789, 1234 (上中下, 大于五 / 小于五 as the tiers
# it reads), and whether some rank is a 1 or a 9 (断幺), one bit each: with the ranks of several suits and melds
# together, the bits of each (|). Few keys then, where the ranks themselves make thousands that new hands miss.
_RANK_TIERS = ((6, 7, 8), (3, 4, 5), (0, 1, 2), (5, 6, 7, 8), (0, 1, 2, 3))
_RANK_FEATURES = tuple(sum(1 << k for k, tier in enumerate(_RANK_TIERS) if any(m >> r & 1 and r not in tier
                                                                                  for r in range(9)))
                       | (m & 0b100000001 != 0) << 5 for m in range(512))
_FEATURES = tuple(tuple(_features(m << base) for m in range(512)) for base in (0, 9, 18))
_HONOUR_FEATURES = tuple(_features(m << 27) for m in range(128))
_NO_RANKS = ~(0x1FF << 3)
_KIND_FEATURES = tuple(_features(1 << i) for i in range(34))  # of one kind
_CHOW_FEATURES = tuple(_features(7 << i) if i < 27 and i % 9 < 7 else 0 for i in range(34))  # of a chow's kinds


def chow_part(chows: tuple[int, ...], pair: int) -> tuple[tuple[str, ...], bool, bool]:
    """(the chow-combination fans found, one id per candidate taken; whether every chow is a 123/789, whether every
    chow holds a 5), kept by the chows in order and the pair (``_CHOW_PART_BY_CHOWS``, which ``best_reading`` reads
    first); behind it ``chow_part_by_key``."""
    key = (chows, pair)
    part = _CHOW_PART_BY_CHOWS_GET(key)
    if part is None:
        part = _CHOW_PART_BY_CHOWS.keep(key, chow_part_by_key(chows, pair))
    return part


def chow_part_by_key(chows: tuple[int, ...], pair: int) -> tuple[tuple[str, ...], bool, bool]:
    """``chow_part`` by ``chow_key``: the same answer for chows that differ only by their order or a renaming of the
    suits that keeps their order of first use; and behind that, by the same key up to any renaming of the suits,
    where the fans found cannot depend on it."""
    key = chow_key(chows, pair)
    part = _CHOW_PARTS.get(key)
    if part is None:
        any_order = any_order_chow_key(key)
        part = _CHOW_PARTS_ANY_ORDER.get(any_order, False)
        if not part:  # never worked out (False), or the fans' order may follow the suits' (None)
            if part is False:
                part = chow_part_of(chows, pair)
                _CHOW_PARTS_ANY_ORDER.keep(any_order, None if order_sensitive(part[0]) else part)
            else:
                if not _CHOW_PARTS_IN_ORDER:
                    _load_chow_parts_in_order()
                part = _CHOW_PARTS_IN_ORDER.get(key) or chow_part_of(chows, pair)
        _CHOW_PARTS.keep(key, part)
    return part


def chow_part_of(chows: tuple[int, ...], pair: int) -> tuple[tuple[str, ...], bool, bool]:
    """``chow_part`` worked out (``combos.chow_fans`` without its own cache; ``pair`` is already -1 unless it is a 5
    beside four chows)."""
    ids = ()
    if len(chows) >= 2:
        key, key_pair, _ = _canonical(chows, pair if pair >= 0 else None)
        ids = tuple([fan for fan, _ in _chow_fans(key, key_pair)])
    return (ids, all(f in _TERMINAL_CHOWS for f in chows), all(f in _FIVE_CHOWS for f in chows))


def chow_key(chows: tuple[int, ...], pair: int) -> int:
    """What ``chow_part_of`` reads of the chows (and a 5 pair), as one int: per suit, in the order the suits are
    first met (the chows, then the pair), a 3-bit count of each chow rank and a bit for the pair.

    ``combos._canonical`` renames the suits in that same order and sorts the chows, and the fans found, in the
    order found, are those of its answer: chows with the same key give the same fans in the same order."""
    place = [-1, -1, -1]  # suit -> its place in the order of first use
    signatures = [0, 0, 0]
    used = 0
    for f in chows:
        suit = f // 9
        k = place[suit]
        if k < 0:
            k = place[suit] = used
            used += 1
        signatures[k] += 1 << 3 * (f % 9)
    if pair >= 0:
        k = place[pair // 9]
        signatures[used if k < 0 else k] += 1 << 21
    return signatures[0] | signatures[1] << 22 | signatures[2] << 44


# chow_key -> chow_part; chow_key with the suits' signatures sorted -> chow_part, or None where the order of the
# fans found may depend on the suits' order (two different fans of the same points: the selection lists equal
# candidates in the order of the sets). The second is filled at import for every set of chows
# (``combo_tables``, ``_load_combo_tables``).
_CHOW_PARTS: dict[int, tuple] = _Cache()
_CHOW_PART_BY_CHOWS: dict[tuple, tuple] = _Cache()  # (chows in order, pair) -> chow_part
_CHOW_PART_BY_CHOWS_GET = _CHOW_PART_BY_CHOWS.get  # (bound: see _SUIT_ENTRY_GETS)
_CHOW_PARTS_ANY_ORDER: dict[int, tuple | None] = _Cache()
# chow_key -> chow_part for the chows whose fans' order may follow the suits' (None above), loaded on first use.
_CHOW_PARTS_IN_ORDER: dict[int, tuple] = _Cache()
_SIGNATURE_BITS = (1 << 22) - 1


# (_CHOW_SIGNATURE: at the top)
_FIVE_PAIR_SIGNATURE = {five: 1 << 22 * (five // 9) + 21 for five in _FIVES}
# The fields of the chows that are not 123/789, and not 345/456/567, in every suit.
_NOT_TERMINAL_CHOW_BITS = sum(7 << 22 * s + 3 * r for s in range(3) for r in range(7) if r not in (0, 6))
_NOT_FIVE_CHOW_BITS = sum(7 << 22 * s + 3 * r for s in range(3) for r in range(7) if r not in (2, 3, 4))


def _chow_ids_in_order(chows: tuple[int, ...], pair: int, melds=()) -> tuple[str, ...]:
    """``chow_part(chows + the melds' chows, pair)``'s fans (``_meld_firsts``), for the chows whose signature
    ``_CHOW_IDS_BY_SIGNATURE`` lacks: those whose fans' order may follow the suits' (or any, where the combination
    tables could not be loaded). ``melds`` is false where they hold no chow (``score`` passes 0 then)."""
    return chow_part(chows + _meld_firsts(melds, True) if melds else chows, pair)[0]


# the sum of the chows' signatures (with a 5 pair beside four) -> their fans, for every set of chows whose fans do not
# follow the suits' order: filled with the combination tables (``_load_combo_tables``), then only read (a plain dict,
# which the collector stops tracking). No chow and one chow (no fan) are there from the start: ``score`` then looks
# every partition's chows up without counting them first (about -100 instructions a new hand).
_CHOW_IDS_BY_SIGNATURE: dict[int, tuple[str, ...]] = dict.fromkeys(
    [0] + [_CHOW_SIGNATURE[f] for f in range(27) if f % 9 < 7], ())
_CHOW_IDS_BY_SIGNATURE_GET = _CHOW_IDS_BY_SIGNATURE.get  # (bound: see _SUIT_ENTRY_GETS)
# The same for the signatures the first lacks (the fans' order may follow the suits' order of first use), with the
# chows met in the order of the suits, as a partition's standing chows are (its suits' splits in turn) where no meld
# holds a chow: their ``chow_key`` follows from the signature. Made with the combination tables
# (``_fill_chow_ids_in_suit_order``, 11,718 keys, about 25 ms at import): a new hand's order-sensitive chows (about
# one partition in eight) then cost one look-up, not ``chow_part``'s calls and cache (-310 instructions a new hand).
_CHOW_IDS_IN_SUIT_ORDER: dict[int, tuple[str, ...]] = {}
_CHOW_IDS_IN_SUIT_ORDER_GET = _CHOW_IDS_IN_SUIT_ORDER.get


def any_order_chow_key(key: int) -> int:
    """A ``chow_key`` with the suits' signatures sorted (as ``chow_part`` makes it): the same for any naming of the
    suits."""
    a, b, c = key & _SIGNATURE_BITS, key >> 22 & _SIGNATURE_BITS, key >> 44
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a | b << 22 | c << 44


def order_sensitive(ids: tuple[str, ...]) -> bool:
    """Whether ``ids`` holds two different fans of the same points: the order the selection lists them in may then
    follow the order of the sets. Otherwise it is by points (``combos._select``), the same for any order."""
    fans = set(ids)
    return len(fans) > 1 and len({POINTS[fan] for fan in fans}) < len(fans)


def pung_combo_ids(pungs: tuple[int, ...], pair: int) -> tuple[str, ...]:
    """The pung-combination fans found (``combos.pung_fans``), one id per candidate taken; ``pair`` is an honour
    pair's kind, else -1. Kept by the pungs in order and the pair (``_PUNG_IDS_BY_PUNGS``, which ``best_reading``
    reads first); behind it ``pung_combo_ids_by_key``."""
    key = (pungs, pair)
    ids = _PUNG_IDS_BY_PUNGS.get(key)
    if ids is None:
        ids = _PUNG_IDS_BY_PUNGS.keep(key, pung_combo_ids_by_key(pungs, pair))
    return ids


def pung_combo_ids_by_key(pungs: tuple[int, ...], pair: int) -> tuple[str, ...]:
    """``pung_combo_ids`` by ``pung_key``: the same answer for pungs that differ only by their order or a
    permutation of the suits."""
    key = pung_key(pungs, pair)
    ids = _PUNG_IDS.get(key, False)
    if ids is False:
        ids = pung_combo_ids_of(pungs, pair)
        _PUNG_IDS.keep(key, None if order_sensitive(ids) else ids)
    elif ids is None:
        ids = pung_combo_ids_of(pungs, pair)
    return ids


def pung_combo_ids_of(pungs: tuple[int, ...], pair: int) -> tuple[str, ...]:
    """``pung_combo_ids`` worked out (``combos.pung_fans`` without its own cache)."""
    if not _may_combine_pungs(pungs):
        return ()
    key, key_pair, _ = _canonical(pungs, pair if pair >= 0 else None)
    return tuple([fan for fan, _ in _pung_fans(key, key_pair)])


def pung_key(pungs: tuple[int, ...], pair: int) -> int:
    """The pungs (kinds, all different) and an honour pair up to their order, a permutation of the suits and a shift
    of all ranks (the pung fans compare ranks only with one another), as one int: the three suits' rank masks
    sorted, the honours' mask, the pair. A part that can make no pung fan is left out: the honours (and the pair)
    beside at most one dragon and two winds, the number pungs when no two ranks are equal or next to each other
    (such sets are in no candidate, so the selection among the others, and its order, is the same)."""
    mask = 0
    for f in pungs:
        mask |= 1 << f
    return _pung_key_of_mask(mask, pair)


def _pung_key_of_mask(mask: int, pair: int) -> int:
    """``pung_key`` from the pungs' kind mask: the number pungs' part kept by their 27 bits (``_number_pung_key``;
    a new hand's pung set often misses the cache by the whole mask, and working the part out again cost about 100
    bytecodes), the honours' part from a table."""
    numbers = mask & _NUMBER_MASK
    key = _NUMBER_PUNG_KEYS_GET(numbers)
    if key is None:
        key = _number_pung_key(numbers)
    honours = mask >> 27
    if _HONOUR_PUNGS_KEPT[honours]:
        key += honours << 27 | (pair + 1) << 34  # (disjoint bits)
    return key


def _number_pung_key(numbers: int) -> int:
    """``pung_key``'s number part (the three suits' rank masks, shifted and sorted, or 0) of the number pungs' kind
    mask, kept by the mask."""
    a, b, c = numbers & 0x1FF, numbers >> 9 & 0x1FF, numbers >> 18
    ranks = a | b | c
    if not (a & b or a & c or b & c or ranks & ranks >> 1):
        a = b = c = ranks = 0
    if ranks:
        shift = (ranks & -ranks).bit_length() - 1
        a >>= shift
        b >>= shift
        c >>= shift
    # the three-value sort of any_order_chow_key, written out again
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return _NUMBER_PUNG_KEYS.keep(numbers, a | b << 9 | c << 18)


_NUMBER_PUNG_KEYS: dict[int, int] = _Cache()
_NUMBER_PUNG_KEYS_GET = _NUMBER_PUNG_KEYS.get  # (bound: see _SUIT_ENTRY_GETS)
# The honour pungs' mask (bits 0-3 winds, 4-6 dragons) -> whether they (with the pair) can make a pung fan: two
# dragons or three winds (else ``pung_key`` leaves them and the pair out).
_HONOUR_PUNGS_KEPT = tuple(bool((m >> 4) & (m >> 4) - 1) or (m & 0xF).bit_count() >= 3 for m in range(128))


# pung_key -> pung_combo_ids, or None where the order of the fans found may depend on the pungs' order (two
# different fans of the same points: the selection lists equal candidates in the order of the sets), worked out each
# time. Filled at import for every set of pungs that may combine (``combo_tables``, ``_load_combo_tables``).
_PUNG_IDS: dict[int, tuple[str, ...] | None] = _Cache()
_PUNG_IDS_GET = _PUNG_IDS.get  # (bound: see _SUIT_ENTRY_GETS)
_PUNG_IDS_BY_PUNGS: dict[tuple, tuple[str, ...]] = _Cache()  # (pungs in order, pair) -> pung_combo_ids


# ``pung_key``'s pair part (``_pung_key_of_mask``) by the pair's kind: ``pair + 1`` from bit 34 for an honour
_HONOUR_PAIR_KEY = tuple((pair + 1) << 34 if pair >= 27 else 0 for pair in range(34))


def pungs_may_combine(mask: int) -> bool:
    """``combos._may_combine_pungs`` on the pungs' kind mask: two dragons, three winds, or two number pungs whose
    ranks differ by at most one (the same rank in two suits, or neighbouring ranks in any)."""
    r0, r1, r2 = mask & 0x1FF, mask >> 9 & 0x1FF, mask >> 18 & 0x1FF
    ranks = r0 | r1 | r2
    return bool(r0 & r1 or r0 & r2 or r1 & r2 or ranks & ranks >> 1 or mask >> 31 in _TWO_OR_MORE
                or (mask >> 27 & 0xF) in _THREE_OR_MORE)


_TERMINAL_PUNG = ("pung_of_terminals_or_honours",)
_TWO_OR_MORE = frozenset(m for m in range(8) if m.bit_count() >= 2)  # of the three dragons (bits)
_THREE_OR_MORE = frozenset(m for m in range(16) if m.bit_count() >= 3)  # of the four winds (bits)
# The per-pung fan of each kind, None for the winds (which depend on the seat and prevalent winds, policy M6).
_PUNG_SET_FANS = tuple(_TERMINAL_PUNG if f in _TERMINALS else () if f < 27 else None if f < 31 else ("dragon_pung",)
                       for f in range(34))
_WIND_BITS = 0xF << 27


def _meld_firsts(melds, chows: bool) -> tuple[int, ...]:
    """The first kinds of the melds' chows (``chows``) or of their pungs and kongs, in hand order: ``score``
    keeps only their numbers and masks, and the rare steps that need the sets themselves make them here."""
    return tuple([meld.tiles[0].index for meld in melds if (meld.type is _CHOW) is chows])


def _per_pung_fans_with_winds(pungs: tuple[int, ...], context) -> tuple[str, ...]:
    """The per-pung fans of ``pungs`` (in order), some of them winds: a wind pung is a prevalent or seat wind, or
    else a pung of terminals or honours unless there are three wind pungs or more (policy M6)."""
    round_wind = _WIND_INDEX[context.round_wind]
    seat_wind = _WIND_INDEX[context.seat_wind]
    winds = (27 in pungs) + (28 in pungs) + (29 in pungs) + (30 in pungs)
    ids = ()
    for f in pungs:
        fans = _PUNG_SET_FANS[f]
        if fans is not None:
            ids += fans
            continue
        value = False
        if f == round_wind:
            ids += ("prevalent_wind",)
            value = True
        if f == seat_wind:
            ids += ("seat_wind",)
            value = True
        if not value and winds < 3:
            ids += _TERMINAL_PUNG
    return ids


_NOT_EVEN_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in range(27) if f % 9 % 2 == 1)
_NOT_TERMINAL_OR_HONOUR_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in _TERMINAL_OR_HONOUR)
_NOT_FIVES_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in _FIVES)


# win_fan_ids for every combination of its seven flags, indexed by the flags as bits in argument order.
_WIN_FAN_IDS = tuple(win_fan_ids(*(bool(bits >> k & 1) for k in range(7))) for bits in range(128))


def kong_fan_ids(melded_kongs: int, concealed_kongs: int) -> tuple[str, ...]:
    """The kong fans (policy M14, M15), in ``evaluate._evaluate_sets``'s order."""
    fans = []
    kongs = melded_kongs + concealed_kongs
    if kongs == 4:
        fans.append("four_kongs")
    elif kongs == 3:
        fans.append("three_kongs")
    elif melded_kongs == 2 or (melded_kongs == 1 and concealed_kongs == 1):
        fans.append("two_melded_kongs")
    elif melded_kongs == 1 and concealed_kongs == 0:
        fans.append("melded_kong")
    if concealed_kongs == 1:
        fans.append("concealed_kong")
    elif concealed_kongs == 2:
        fans.append("two_concealed_kongs")
    return tuple(fans)


# kong_fan_ids by the numbers of melded and of concealed kongs
_KONG_FAN_IDS = tuple(tuple(kong_fan_ids(melded, concealed) for concealed in range(5)) for melded in range(5))
_FINISHED: dict[tuple[str, ...], tuple] = _Cache()  # bounded: _Cache.LIMIT entries
# Each fan that some fan excludes one bit, for the exclusions; the others (never cut) none: 39 bits, not 81. The
# commonest (the cheapest, last in the table) on the lowest bits, so that most masks fit one 30-bit digit of an int,
# whose & and | the interpreter does without the big-int path.
_EXCLUDED_FANS = frozenset().union(*EXCLUDES.values())
_BIT = dict.fromkeys(POINTS, 0)
_BIT.update((fan, 1 << k) for k, fan in enumerate([fan for fan in reversed(POINTS) if fan in _EXCLUDED_FANS]))
_EXCLUDED_BITS = {fan: sum(_BIT[other] for other in excluded) for fan, excluded in EXCLUDES.items()}
_CHICKEN = (("chicken_hand", 1),)


def finish(found: tuple[str, ...]) -> tuple:
    """The fans ``found`` (one id per fan counted, in the order found) after the exclusions, as (total, tie key,
    ((fan id, count), ...)); 无番和 when none is left. The tie key is ``_tie_key``'s (policy M16)."""
    done = _FINISHED.get(found)
    if done is None:
        counts: dict[str, int] = {}
        removed = 0
        for fan in found:
            n = counts.get(fan, 0)
            if not n:
                removed |= _EXCLUDED_BITS[fan]
            counts[fan] = n + 1
        kept = []
        total = 0
        for fan, n in counts.items():
            if not removed & _BIT[fan]:
                kept.append((fan, n))
                total += POINTS[fan] * n
        if not kept:
            kept = _CHICKEN
            total = POINTS["chicken_hand"]
        tie = (not removed & _EDGE and "edge_wait" in counts, not removed & _CLOSED and "closed_wait" in counts,
               not removed & _SINGLE and "single_wait" in counts)
        done = _FINISHED.keep(found, (total, tie, tuple(kept)))
    return done


_EDGE, _CLOSED, _SINGLE = _BIT["edge_wait"], _BIT["closed_wait"], _BIT["single_wait"]
_TIE_BIT = {"edge_wait": 4, "closed_wait": 2, "single_wait": 1}  # the tie key (edge, closed, single) as bits
_WAIT_BITS = _EDGE | _CLOSED | _SINGLE
_TIE_OF_KEY = tuple((bool(t & 4), bool(t & 2), bool(t & 1)) for t in range(8))
_CHICKEN_POINTS = POINTS["chicken_hand"]
# A reading's own fan ids (concealed pungs, then the wait), by its number of concealed pungs (and wait fan).
_EXTRA_IDS = tuple((fan,) if fan else () for fan in _CONCEALED_PUNG_FANS)
_EXTRA_WAIT_IDS = tuple({wait: ids + (wait,) for wait in _TIE_BIT} for ids in _EXTRA_IDS)


# --- one hand ------------------------------------------------------------------------------------------------------
def _new_readings(x: int, win: int, melds: int, key: int | None = None) -> tuple:
    """The entry of ``_READINGS`` for standing counts ``x`` (packed) and winning kind ``win``, made and kept (at
    ``key``, ``x + _WIN_KEY[win]``, if given): (the kinds present as a mask, their kind fans' features
    (``_FEATURES``), the wait's ``_wait_candidates`` if a reading has a wait fan, else None) followed by the
    readings' summaries."""
    # (a suit or the honours held by no tile, as in four blocks of ten: its entry made once, no look-up)
    block0 = x & _SUIT_BITS
    entry0 = _SUIT_ENTRY_GETS[0](block0) or _suit_entry(0, block0) if block0 else _EMPTY_SUIT_ENTRY0
    block1 = x >> 27 & _SUIT_BITS
    entry1 = _SUIT_ENTRY_GETS[1](block1) or _suit_entry(1, block1) if block1 else _EMPTY_SUIT_ENTRY1
    block2 = x >> 54 & _SUIT_BITS
    entry2 = _SUIT_ENTRY_GETS[2](block2) or _suit_entry(2, block2) if block2 else _EMPTY_SUIT_ENTRY2
    honour_block = x >> 81
    honours = _HONOUR_ENTRIES_GET(honour_block) or _honour_entry(honour_block) if honour_block else _NO_HONOURS_ENTRY
    # (each entry's fields at once: cheaper than one subscript each)
    mask0, rest0, _, single0, features0, knitted0 = entry0
    mask1, rest1, _, single1, features1, knitted1 = entry1
    mask2, rest2, _, single2, features2, knitted2 = entry2
    standing_mask = mask0 + mask1 + mask2 + honours[0]  # (disjoint bits: +, cheaper than | here)
    waits = None  # whether a reading has a wait fan, where known without looking at each
    if single0 is None or single1 is None or single2 is None or not honours[1]:
        summaries = _standard_summaries_of(entry0, entry1, entry2, honours, win)
    else:
        # Each suit read one way only (most hands): the one partition, if the pair fits, put together directly.
        pair = honours[2]
        if pair >= 0:
            if rest0 or rest1 or rest2:
                summaries = ()
                pair = -1
        elif rest0 == 2 and not rest1 and not rest2:
            pair, single0 = single0
        elif rest1 == 2 and not rest0 and not rest2:
            pair, single1 = single1
        elif rest2 == 2 and not rest0 and not rest1:
            pair, single2 = single2
        else:
            summaries = ()
        if pair >= 0:
            codes0, chows0, pungs0, places0, signature0 = single0
            codes1, chows1, pungs1, places1, signature1 = single1
            codes2, chows2, pungs2, places2, signature2 = single2
            tail = honours[4]
            # (the codes in pieces, not concatenated: four concatenations would cost ~550 machine instructions)
            codes = (_PAIR_CODES[pair], codes0, codes1, codes2, tail)
            chows = chows0 + chows1 + chows2
            tail_pungs = honours[3]
            pungs = pungs0 + pungs1 + pungs2 + tail_pungs
            signature = signature0 + signature1 + signature2  # (``_signature_of`` the chows)
            if win < 9:
                places, offset = places0[win], 1
            elif win < 18:
                places, offset = places1[win - 9], 1 + len(codes0)
            elif win < 27:
                places, offset = places2[win - 18], 1 + len(codes0) + len(codes1)
            else:
                places = ()
            if len(places) == 1 and pair != win:  # the winning tile in one group only (most hands)
                index, wait, winning_pung = places[0]
                summaries = ((_STANDARD, codes, offset + index, chows, pungs, pair, False, wait, winning_pung, (),
                              signature),)
                waits = wait is not None
            else:
                out = [] if pair != win else [(_STANDARD, codes, 0, chows, pungs, pair, False, "single_wait", False,
                                                (), signature)]
                if win >= 27 and win in tail_pungs:
                    out.append((_STANDARD, codes, 1 + len(codes0) + len(codes1) + len(codes2) + tail_pungs.index(win),
                                chows, pungs, pair, False, None, True, (), signature))
                for index, wait, winning_pung in places:
                    out.append((_STANDARD, codes, offset + index, chows, pungs, pair, False, wait, winning_pung, (),
                                signature))
                summaries = tuple(out)
    if melds < 2:
        # ``_irregular_possible``, written out, the suits' knitted groups from their entries
        kinds = standing_mask.bit_count()
        if not melds and kinds <= 7:
            irregular = not x & _LOW_BITS
        elif not melds and kinds >= 13 and (kinds == 14 or standing_mask & _ORPHAN_MASK == _ORPHAN_MASK):
            # (thirteen orphans hold 13 kinds: an int compare before the mask's &, a big-int operation)
            irregular = True
        else:
            irregular = kinds >= 9 and _KNITTED_STRAIGHT_POSSIBLE[knitted0 + knitted1 + knitted2]
        if irregular:
            waits = None
            if not melds and kinds <= 7:
                summaries += (_seven_pairs_summary(x, standing_mask, win),)  # the only irregular reading then
            elif not melds and kinds == 14:
                summaries = _honours_knitted_summaries(standing_mask, win)  # (fourteen singles: no other reading)
            elif not melds and standing_mask == _ORPHAN_MASK:
                # thirteen orphans (its pair the count with bit 1 set), no other reading: from a table
                summaries = _THIRTEEN_ORPHANS_SUMMARIES[x >> 1 & _LOW_BITS][win]
            else:  # (more than 7 kinds: only a knitted straight)
                summaries += _knitted_straight_summaries(x, standing_mask, win, melds)
    # Whether the wait is unique, as far as the standing tiles decide it (``_wait_candidates``), where a reading
    # needs it (a wait fan): what the melds decide is left to each hand.
    if waits is None:
        waits = False
        for summary in summaries:
            if summary[7] is not None:
                waits = True
                break
    candidates = None
    if waits:
        # the 13 standing tiles: the winning tile taken from its suit's (or the honours') block
        if win < 9:
            block0 -= _PACK[win]
        elif win < 18:
            block1 -= _PACK[win - 9]
        elif win < 27:
            block2 -= _PACK[win - 18]
        else:
            honour_block -= _PACK[win - 27]
        candidates = _wait_candidates_of(block0, block1, block2, honour_block, x, win, melds, standing_mask)
    # One flat tuple, not the summaries' tuple inside another: each new hand's entry survives in the cache, and
    # the collector's passes cost in proportion to the containers that survive (one fewer per new hand).
    readings = (standing_mask, features0 | features1 | features2 | honours[5], candidates) + summaries
    if len(_READINGS) >= _LIMIT:  # (_READINGS.keep, written out)
        _READINGS.clear()
    _READINGS[x + _WIN_KEY[win] if key is None else key] = readings
    return readings


def best_reading(hand, context, every: list | None = None) -> tuple[tuple, tuple, bool | None] | None:
    """(the reading summary kept, its ``finish`` answer, whether the wait is unique or None if no reading needed
    it), or None when the hand is not a winning shape. ``every`` (for tests) receives each reading's (summary,
    ``finish`` answer) in order."""
    try:
        result = score(hand, context, every)
    except HandError as error:
        if error.code != "not_winning":
            raise
        return None
    kept = result._kept
    ids = [fan for fan, _ in kept]
    # the tie key (policy M16): which wait fans are kept (``finish``'s)
    tie = ("edge_wait" in ids, "closed_wait" in ids, "single_wait" in ids)
    return result._reading, (result.fan_points, tie, kept), result._unique_wait


def score(hand, context, every: list | None = None) -> MCRResult:
    """``engine.mcr.score``: the score of a validated hand, the reading with the most points (then the best tie key)
    kept. Raises ``HandError('not_winning')`` when no arrangement exists. ``every`` (for tests, ``best_reading``)
    receives each reading's (summary, ``finish`` answer) in order.

    The readings' fans and totals are worked out here, on ints, and the result made here too: a new hand then costs
    one Python call, not two."""
    if context.last_tile:
        check_context(hand, context)
    win = hand.winning_tile.index
    # The standing counts, packed, counted in C: from 0, not from the winning tile's bit, as ``sum`` adds in a
    # machine word until a term would overflow it, and the tiles come sorted: those of the kinds on the low 63
    # bits (characters, dots, 1-3 of bamboo) cost no big-int addition each. The tiles' packs are looked up by one
    # ``itemgetter`` (a subscript each in C; ``map`` of the dict's bound ``__getitem__`` cost 460 instructions a
    # hand more); of one key it gives the value itself, not a tuple (four melds: one concealed tile).
    concealed = hand.concealed
    x = (sum(itemgetter(*concealed)(_PACK_BY_TILE)) if len(concealed) > 1 else _PACK_BY_TILE[concealed[0]]) \
        + _PACK[win]
    melds = hand.melds
    n_melds = len(melds)
    # Most hands can only be four sets and a pair: those are read from the suits' entries, the irregular shapes
    # added where their counts allow one; kept by the standing counts and winning kind with the kinds present, for
    # hands seen again (no entries looked up then).
    key = x + _WIN_KEY[win]  # (one addition: cheaper than x * 64 + win)
    readings = _READINGS_GET(key)
    if readings is None:
        readings = _new_readings(x, win, n_melds, key)
    # (the entry's kinds mask, readings[0], and wait candidates, readings[2], read only where needed; an entry of no
    # reading, three fields, is found out after the loop: no ``len``)
    features = readings[1]
    self_drawn = context.self_drawn
    if melds:
        held = x  # the counts with the melds' tiles, packed
        n_meld_chows = 0  # (the melds' chows and pungs themselves are made only where needed: ``_meld_firsts``)
        # What the readings' sets need of the melds (``_CHOW_SIGNATURE``, ``_BIT_OF``), and the per-pung fans of
        # the melds' pungs but the winds' (a wind pung's depends on the other pungs, worked out by the reading).
        meld_chow_signature = meld_pung_mask = 0
        meld_pung_fans = ()
        melded_kongs = concealed_kongs = 0
        concealed = True
        for meld in melds:
            kind = meld.type
            i = meld.tiles[0].index
            if kind is _CHOW:
                n_meld_chows += 1
                meld_chow_signature += _CHOW_SIGNATURE[i]
                features |= _CHOW_FEATURES[i]
                held += _CHOW_PACK[i]
                concealed = False
                continue
            meld_pung_mask += _BIT_OF[i]  # (no kind is two melds' pung)
            fans = _PUNG_SET_FANS[i]
            if fans:
                meld_pung_fans += fans
            features |= _KIND_FEATURES[i]
            if kind is _PUNG:
                held += _PUNG_PACK[i]
                concealed = False
                continue
            held += _KONG_PACK[i]
            if kind is _CONCEALED_KONG:
                concealed_kongs += 1
            else:
                melded_kongs += 1
                concealed = False
        kong_fans = _KONG_FAN_IDS[melded_kongs][concealed_kongs]
        n_meld_pungs = n_melds - n_meld_chows
        # The hand's own fans (kinds, tile hogs (four of a kind not a kong, 四归一), way of winning), kept by what
        # decides them as one int (``_hand_piece``); the way-of-winning flags (bits 0-6, ``_WIN_FAN_IDS``'s index)
        # set one by one below, most being unset (an int operation costs more than a test), each by an addition
        # (specialised by the interpreter, unlike |).
        # (the kinds held four times, tile hogs but for the kongs: counted only where there is one, few hands)
        fours = held & _HIGH_BITS
        hand_key = (fours.bit_count() - melded_kongs - concealed_kongs) * 256 if fours else 0  # (<< 8)
        if concealed:
            hand_key += 2
        if n_melds == 4 and not concealed_kongs:
            hand_key += 32
        if context.last_tile or (held - x) >> 3 * win & 7 == 3:
            hand_key += 64
    else:
        held = x
        meld_pung_fans = kong_fans = ()
        meld_chow_signature = meld_pung_mask = concealed_kongs = n_meld_chows = n_meld_pungs = 0
        fours = x & _HIGH_BITS
        hand_key = fours.bit_count() * 256 + 2 if fours else 2
        if context.last_tile:
            hand_key += 64
        # 1112345678999 of one suit, then any: first the kinds present (all nine of the winning tile's suit, no
        # other), an int compare, before the counts' (big ints)
        if readings[0] == _FULL_SUIT_MASK[win] and x - _PACK[win] == _NINE_GATES_PACKED[win // 9]:
            hand_key += 1 << 7
    if self_drawn:
        hand_key += 1
    if context.last_wall_tile:
        hand_key += 4
    if context.kong_replacement:
        hand_key += 8
    if context.robbing_kong:
        hand_key += 16
    # The kind fans' features (``kind_fan_ids``) are those of the standing kinds and the melds' kinds together
    # (each feature is whether some kind has a property). The kind fans by the number of their list (few lists,
    # many features): the hand's piece is then met again far more often than by the features themselves. Kept by
    # the features as they are, the ranks' bits not cleared where there are honours (``kind_fan_ids`` does that):
    # more keys (354 against 108 after 22,000 hands, 3 misses in 2,000 new hands), one test and one & less a hand.
    hand_key += (_KIND_CLASS_GET(features) or _kind_class(features, _hand_mask(readings[0], melds))) * 2048  # (<< 11)
    # Each reading's total and tie key from three pieces of fan ids: the hand's, the partition's sets and the
    # reading's own (concealed pungs, wait), each with its ids' bits and exclusions worked out once (``_piece``),
    # and the fan list gathered from the three pieces' lists (as ``finish`` gives it).
    hand_bits, hand_excluded, hand_cut, hand_total, hand_kept, hand_piece = \
        _HAND_PIECES_GET(hand_key) or _hand_piece(hand_key)
    unique_wait = None
    best_key = -1
    last_codes = best = None
    for summary in readings[3:]:
        (shape, codes, winning_group, chows, pungs, pair, knitted, wait, winning_pung, shape_fans,
         standing_signature) = summary
        if chows is None:
            set_piece = _PIECES_GET(shape_fans) or _piece(shape_fans)
            extra_piece = _NO_EXTRA
            last_codes = None
        else:
            if codes is not last_codes:
                # The fans of the sets, shared by the placements of the winning tile in one partition (they follow
                # one another with the same codes): only the concealed pungs and the wait differ between them.
                last_codes = codes
                # The fans of the sets in the order of ``evaluate._evaluate_sets``, up to the kong fans: shape fans,
                # chow and pung combinations, per-pung fans (written out here: a call would cost more than most of
                # its steps). The standing sets come first, then the melds'.
                set_ids = ()
                # The chows as the sum of their signatures, by which their combination fans are kept (in any order:
                # ``_CHOW_IDS_BY_SIGNATURE``, which holds no chow and one chow too, so that the chows are not
                # counted first), with the pair where it can make a fan with them (a 5 beside four).
                chow_signature = meld_chow_signature + standing_signature
                if pair in _FIVES and len(chows) + n_meld_chows == 4:
                    chow_signature += _FIVE_PAIR_SIGNATURE[pair]
                chow_ids = _CHOW_IDS_BY_SIGNATURE_GET(chow_signature)
                if chow_ids is None and not n_meld_chows:  # the standing chows alone: in the suits' order
                    chow_ids = _CHOW_IDS_IN_SUIT_ORDER_GET(chow_signature)
                if chow_ids is None:
                    chow_ids = _chow_ids_in_order(
                        chows, pair if pair in _FIVES and len(chows) + n_meld_chows == 4 else -1,
                        n_meld_chows and melds)
                standing_pungs = len(pungs)  # (counted once for the partition's readings)
                if standing_pungs or n_meld_pungs:
                    pung_mask = meld_pung_mask
                    pung_ids = ()
                    # Per-pung fans (箭刻, 圈风刻, 门风刻, 幺九刻; policy M6), in pung order.
                    for f in pungs:
                        pung_mask += _BIT_OF[f]  # (no kind is two pungs)
                        fans = _PUNG_SET_FANS[f]
                        if fans:
                            pung_ids += fans
                    if pung_mask & _WIND_BITS:
                        pung_ids = _per_pung_fans_with_winds(
                            pungs + _meld_firsts(melds, False) if n_meld_pungs else pungs, context)
                    elif meld_pung_fans:
                        pung_ids += meld_pung_fans
                    n_pungs = standing_pungs + n_meld_pungs
                    # The pung combinations (before the per-pung fans), from the table by ``pung_key`` made from the
                    # pungs' mask (``_pung_key_of_mask``, written out), which is 0 where no combination is possible
                    # (``pungs_may_combine``). Not kept by the mask itself: three in four masks were new.
                    if n_pungs >= 2:
                        numbers = pung_mask & _NUMBER_MASK
                        combo_key = _NUMBER_PUNG_KEYS_GET(numbers)
                        if combo_key is None:
                            combo_key = _number_pung_key(numbers)
                        honour_pungs = pung_mask >> 27
                        if _HONOUR_PUNGS_KEPT[honour_pungs]:
                            combo_key += honour_pungs << 27 | _HONOUR_PAIR_KEY[pair]  # (disjoint bits)
                        if combo_key:
                            combo_ids = _PUNG_IDS_GET(combo_key)
                            if combo_ids is None:  # the fans' order may follow the pungs' (or the table lacks it)
                                combo_ids = pung_combo_ids(
                                    pungs + _meld_firsts(melds, False) if n_meld_pungs else pungs,
                                    pair if pair >= 27 else -1)
                            if combo_ids:
                                pung_ids = combo_ids + pung_ids
                    if n_pungs == 4:
                        set_ids += ("all_pungs", "all_even_pungs") if pair < 27 and pair % 9 % 2 == 1 \
                            and not pung_mask & _NOT_EVEN_MASK else ("all_pungs",)
                    if knitted:
                        set_ids += ("knitted_straight",)
                    elif pair in _TERMINAL_OR_HONOUR:
                        if not chow_signature & _NOT_TERMINAL_CHOW_BITS \
                                and not pung_mask & _NOT_TERMINAL_OR_HONOUR_MASK:
                            set_ids += ("outside_hand",)
                    elif pair in _FIVES:
                        if not chow_signature & _NOT_FIVE_CHOW_BITS and not pung_mask & _NOT_FIVES_MASK:
                            set_ids += ("all_fives",)
                    set_ids += chow_ids + pung_ids
                    if kong_fans:
                        set_ids += kong_fans
                else:
                    if pair < 27:
                        set_ids += ("all_chows",)
                    if knitted:
                        set_ids += ("knitted_straight",)
                    elif pair in _TERMINAL_OR_HONOUR:
                        if not chow_signature & _NOT_TERMINAL_CHOW_BITS:
                            set_ids += ("outside_hand",)
                    elif pair in _FIVES:
                        if not chow_signature & _NOT_FIVE_CHOW_BITS:
                            set_ids += ("all_fives",)
                    set_ids += chow_ids
                set_piece = _PIECES_GET(set_ids) or _piece(set_ids)
            concealed_pungs = standing_pungs + concealed_kongs
            if winning_pung and not self_drawn:
                concealed_pungs -= 1  # a standing pung completed by a discard counts as melded [002:120-127]
            extra_piece = _EXTRA_PIECES[concealed_pungs]
            if wait is not None:
                if unique_wait is None:
                    wait_candidates = readings[2]
                    unique_wait = held & wait_candidates == wait_candidates or \
                        _unique_given(wait_candidates, x, held, win, n_melds, readings[0])
                if unique_wait:
                    extra_piece = _EXTRA_WAIT_PIECES[concealed_pungs][wait]
        removed = hand_excluded | set_piece[1]
        extra_fans = extra_piece[3]  # none for most readings: their own piece is then left out
        if extra_fans:
            removed |= extra_piece[1]
        # Each piece's fans after the exclusions: as found when none is cut, else from the piece's table.
        cut = removed & hand_bits
        if cut == hand_cut:  # only the hand's fans' own exclusions (most readings): worked out with its piece
            total = hand_total
            kept = hand_kept
        else:
            hand_part = hand_piece[4].get(cut) or _cut(hand_piece, cut)
            total = hand_part[0]
            kept = hand_part[1]
        cut = removed & set_piece[0]
        if cut:
            set_part = set_piece[4].get(cut) or _cut(set_piece, cut)
            total += set_part[0]
            kept += set_part[1]
        else:
            total += set_piece[2]
            kept += set_piece[3]
        if not extra_fans:
            key = total * 8
        else:
            cut = removed & extra_piece[0]
            if cut:
                extra_part = extra_piece[4].get(cut) or _cut(extra_piece, cut)
                total += extra_part[0]
                kept += extra_part[1]
                # The tie key (policy M16) as one int ordered as its tuple: the wait fan, if kept.
                key = total * 8 + (extra_piece[5] if not removed & extra_piece[6] else 0)
            else:
                total += extra_piece[2]
                kept += extra_fans
                key = total * 8 + extra_piece[5]
        if not kept:  # every fan excluded (no piece keeps one)
            key = _CHICKEN_POINTS << 3
            kept = _CHICKEN
        if every is not None:
            # This reading's total and tie key as worked out here (the tests hold them against the reference).
            every.append((summary, (key >> 3, _TIE_OF_KEY[key & 7], kept)))
        if key > best_key:
            best_key = key
            best = summary
            best_kept = kept
    if best is None:  # no reading
        raise HandError("not_winning", f"the tiles do not form a legal winning shape: {hand.format()!r}")
    result = MCRResult()  # (no __init__: its slots set here)
    result._hand = hand
    result._context = context
    result._reading = best
    result._kept = best_kept
    result._unique_wait = unique_wait
    result.fan_points = best_key >> 3  # flowers excluded: what the 8-point minimum is checked against
    return result


_PIECES: dict[tuple[str, ...], tuple] = _Cache()
_HAND_PIECES: dict[int, tuple] = _Cache()  # best_reading's hand key -> the hand's own fans (``_hand_piece``)
_KIND_CLASS: dict[int, int] = _Cache()  # kind_fan_ids's features key -> the number of its list of kind fans
# (bound: see _SUIT_ENTRY_GETS)
_PIECES_GET, _HAND_PIECES_GET, _KIND_CLASS_GET = _PIECES.get, _HAND_PIECES.get, _KIND_CLASS.get
_KIND_CLASS_IDS: list[tuple[str, ...]] = [()]  # number (from 1) -> the list of kind fans
_KIND_CLASS_OF_IDS: dict[tuple[str, ...], int] = {}


def _kind_class(features: int, mask: int) -> int:
    """The number of ``kind_fan_ids(mask)``'s list, kept by ``features`` (the kinds' features as ``score`` gathers
    them, the ranks' bits kept beside honours: finer than ``kind_fan_ids``'s key)."""
    ids = kind_fan_ids(mask)
    with _KIND_CLASS_LOCK:  # a number is given once, even with threads (the API scores in a thread pool)
        number = _KIND_CLASS_OF_IDS.get(ids)
        if number is None:
            number = _KIND_CLASS_OF_IDS[ids] = len(_KIND_CLASS_IDS)
            _KIND_CLASS_IDS.append(ids)
    _KIND_CLASS[features] = number  # at most 2^17 keys
    return number


_KIND_CLASS_LOCK = threading.Lock()


def _hand_mask(standing_mask: int, melds) -> int:
    """The kinds of the standing tiles and of the melds, as a mask."""
    mask = standing_mask
    for meld in melds:
        i = meld.tiles[0].index
        mask |= (7 if meld.type is _CHOW else 1) << i
    return mask


def _hand_piece(key: int) -> tuple:
    """The piece of the hand's own fan ids, in ``evaluate``'s order: the kind fans (the key's bits from 11: their
    list's number, ``_kind_class``), tile hogs (bits 8-10), nine gates (bit 7), the way-of-winning fans (bits
    0-6, ``_WIN_FAN_IDS``); kept by the key as (its bits, the bits they exclude, the bits of its fans that its own
    fans exclude, its points and (fan id, count) list without those (``_cut``), the piece): every reading of the
    hand removes at least those, and most no more."""
    found = _KIND_CLASS_IDS[key >> 11] + ("tile_hog",) * (key >> 8 & 7)
    if key >> 7 & 1:
        found += ("nine_gates",)
    found += _WIN_FAN_IDS[key & 127]
    piece = _PIECES.get(found) or _piece(found)
    own_cut = piece[0] & piece[1]
    own_total, own_kept = (piece[4].get(own_cut) or _cut(piece, own_cut)) if own_cut else (piece[2], piece[3])
    return _HAND_PIECES.keep(key, (piece[0], piece[1], own_cut, own_total, own_kept, piece))


def _piece(ids: tuple[str, ...]) -> tuple:
    """What a reading's total and fan list need of one part of its fan ids (the hand's, the partition's sets', or the
    reading's own), worked out once per distinct part: (bits of its fans, bits of the fans they exclude, points
    with none removed, (fan id, count) in order with none removed, by the bits removed: (points, (fan id, count)
    ...) filled on demand, the tie bit of its wait fan (``_TIE_BIT``), the wait fan's bit).

    The three parts never share a fan id (tile and way-of-winning fans; set fans; concealed pungs and wait), so a
    reading's fan list is the three parts' lists one after the other, as ``finish`` gives it."""
    bits = excluded = points = tie = 0
    counts: dict[str, int] = {}
    for fan in ids:
        bits |= _BIT[fan]
        excluded |= _EXCLUDED_BITS[fan]
        points += POINTS[fan]
        tie |= _TIE_BIT.get(fan, 0)
        counts[fan] = counts.get(fan, 0) + 1
    piece = _PIECES.keep(ids, (bits, excluded, points, tuple(counts.items()), {}, tie, bits & _WAIT_BITS))
    return piece


def _cut(piece: tuple, cut: int) -> tuple[int, tuple]:
    """A piece's (points, (fan id, count) ...) without the fans whose bits are in ``cut``, kept in the piece."""
    kept = tuple([(fan, n) for fan, n in piece[3] if not _BIT[fan] & cut])
    done = piece[4][cut] = (sum([POINTS[fan] * n for fan, n in kept]), kept)
    return done


def _irregular_possible(mask: int, x: int, melds: int) -> bool:
    """``readings.irregular_possible`` from the standing tiles' kind mask and packed counts:
    seven pairs (at most 7 kinds, all even), 全不靠 (14 kinds), thirteen orphans (all 13 present), a knitted
    straight (its 9 kinds present)."""
    if melds > 1:
        return False
    kinds = mask.bit_count()
    if melds == 0:
        if kinds <= 7:
            return not x & _LOW_BITS  # no odd count
        if kinds == 14 or mask & _ORPHAN_MASK == _ORPHAN_MASK:
            return True
    if kinds >= 9:
        return _KNITTED_STRAIGHT_POSSIBLE[_FULL_KNITTED_GROUPS[mask & 0x1FF]
                                          | _FULL_KNITTED_GROUPS[mask >> 9 & 0x1FF] << 3
                                          | _FULL_KNITTED_GROUPS[mask >> 18 & 0x1FF] << 6]
    return False


# standing counts packed and winning kind (``x + _WIN_KEY[win]``) -> ``_new_readings``'s entry (the readings' summaries,
# the kinds present as a mask, ...; the number of melds follows from the counts).
_READINGS: dict[int, tuple] = _Cache()  # bounded: _Cache.LIMIT entries
_READINGS_GET = _READINGS.get  # (bound: see _SUIT_ENTRY_GETS)
_WIN_KEY = tuple(win << 102 for win in range(34))  # the winning kind above the 102 bits of the packed counts
_ORPHAN_MASK = sum(1 << i for i in _ORPHANS)
_NOT_ORPHAN_MASK = ((1 << 34) - 1) & ~_ORPHAN_MASK
_LIMIT = _Cache.LIMIT
_KNITTED_MASKS = tuple(sum(1 << i for i in pattern) for pattern in KNITTED_PATTERNS)

# One suit's rank mask -> the knitted groups (ranks 147, 258, 369 as bits 0, 1, 2) of which it holds all three ranks;
# the three suits' groups so held (suit s's at bits 3 s) -> whether they hold a knitted pattern (``_KNITTED_MASKS``):
# a test without a loop over the patterns.
_FULL_KNITTED_GROUPS = tuple(sum(1 << g for g in range(3) if m >> g & m >> g + 3 & m >> g + 6 & 1) for m in range(512))
_KNITTED_STRAIGHT_POSSIBLE = tuple(
    any(all(_FULL_KNITTED_GROUPS[pattern_mask >> 9 * s & 0x1FF] & held >> 3 * s for s in range(3))
        for pattern_mask in _KNITTED_MASKS) for held in range(512))


def _unique_wait(x: int, held: int, win: int, melds: int, standing_mask: int) -> bool:
    """Whether the winning tile is the only tile that completes the 13-tile hand (``HandFacts.unique_wait``, which
    ``evaluate._only_winning_tile_of`` answers; the same steps here): ``x`` the standing counts (winning tile
    included), ``held`` the counts with the melds' tiles, both packed. From ``_wait_candidates`` (the standing
    tiles' part, which ``_new_readings`` keeps with the readings) and ``_unique_given`` (the part the melds decide)."""
    candidates = _wait_candidates(x, win, melds, standing_mask)
    return held & candidates == candidates or _unique_given(candidates, x, held, win, melds, standing_mask)


def _unique_given(candidates: int, x: int, held: int, win: int, melds: int, standing_mask: int) -> bool:
    """``_unique_wait`` from ``_wait_candidates``'s answer, where not every kind it names is held four times (else
    the wait is unique): another kind completing the hand means not unique, else the irregular shapes decide."""
    kinds = candidates & _HIGH_BITS
    if held & kinds != kinds:
        return False  # a kind other than the winning one, not held four times, completes the hand
    if candidates < _IRREGULAR_WAIT:
        return True
    before = x - _PACK[win]
    mask = standing_mask if before & _FIELD_OF[win] else standing_mask - _BIT_OF[win]  # the 13 tiles' kinds
    return not _other_irregular_wait(unpack(before), win, melds, _exhausted(held, win), mask)


def _wait_candidates(x: int, win: int, melds: int, standing_mask: int) -> int:
    """What of ``_unique_wait`` the standing tiles decide (``x`` their counts packed, winning tile included), as one
    int: the kinds but the winning one that complete the 13 tiles as four sets and a pair or seven pairs, each as
    its count's bit 2 (``_FOUR_OF``: set in the held counts when the hand holds all four, and then it is no wait),
    and ``_IRREGULAR_WAIT`` when an irregular shape might wait on another kind (which the melds' tiles decide:
    ``_unique_given``). The wait is unique when the held counts hold every such bit.

    Four sets and a pair: each suit's kinds that complete it come from its wait table (``_suit_waits_of``, by the
    suit's counts), so no candidate tile is tried one by one."""
    before = x - _PACK[win]  # the 13 standing tiles
    return _wait_candidates_of(before & _SUIT_BITS, before >> 27 & _SUIT_BITS, before >> 54 & _SUIT_BITS,
                               before >> 81, x, win, melds, standing_mask)


def _wait_candidates_of(block0: int, block1: int, block2: int, honour_block: int, x: int, win: int, melds: int,
                        standing_mask: int) -> int:
    """``_wait_candidates``, the 13 standing tiles' suits and honours given packed (``_new_readings`` has them: only
    the winning tile's differs from the 14 tiles'); an empty one is read without a look-up."""
    if honour_block:
        honour_pairs, honour_bad, honour_single, honour_pair_kinds = \
            _HONOUR_WAITS_GET(honour_block) or _honour_waits(honour_block)
    else:
        honour_pairs = honour_bad = 0
    if block0:
        rest0, ok0, waits0 = _SUIT_WAITS_GET(block0) or _suit_waits_of(block0)
    else:
        rest0, ok0, waits0 = _NO_SUIT_WAITS
    if block1:
        rest1, ok1, waits1 = _SUIT_WAITS_GET(block1) or _suit_waits_of(block1)
    else:
        rest1, ok1, waits1 = _NO_SUIT_WAITS
    if block2:
        rest2, ok2, waits2 = _SUIT_WAITS_GET(block2) or _suit_waits_of(block2)
    else:
        rest2, ok2, waits2 = _NO_SUIT_WAITS
    broken = (not ok0) + (not ok1) + (not ok2)  # suits that do not decompose as they stand
    pairs = honour_pairs + (ok0 and rest0 == 2) + (ok1 and rest1 == 2) + (ok2 and rest2 == 2)
    candidates = 0  # (each kind's bit at most once: |)
    if not honour_bad:
        # A suit's waits count only where the other suits decompose as they stand. The three suits are written out
        # rather than looped over: this runs once for every new standing with a wait, and the loop's tuple packing
        # and indexing cost more than the test itself.
        if waits0 and broken == (not ok0):
            others = pairs - (ok0 and rest0 == 2)
            for r, pair_after in waits0:
                if others + pair_after == 1 and r != win:
                    candidates |= _FOUR_OF[r]
        if waits1 and broken == (not ok1):
            others = pairs - (ok1 and rest1 == 2)
            for r, pair_after in waits1:
                k = 9 + r
                if others + pair_after == 1 and k != win:
                    candidates |= _FOUR_OF[k]
        if waits2 and broken == (not ok2):
            others = pairs - (ok2 and rest2 == 2)
            for r, pair_after in waits2:
                k = 18 + r
                if others + pair_after == 1 and k != win:
                    candidates |= _FOUR_OF[k]
    if not broken:
        # An honour single becoming the pair, or an honour pair becoming a pung beside another pair.
        if honour_bad == 1 and pairs == 0 and honour_single >= 0:
            if honour_single != win:
                candidates |= _FOUR_OF[honour_single]
        elif honour_bad == 0 and pairs == 2 and honour_pairs:
            for k in honour_pair_kinds:
                if k != win:
                    candidates |= _FOUR_OF[k]
    if melds > 1:  # (before the 13 tiles' counts are made: most calls stop here)
        return candidates
    before = x - _PACK[win]
    if melds == 0:
        odd = before & _LOW_BITS
        if odd and not odd & odd - 1:  # seven pairs: one odd count, the kind waited on
            k = (odd.bit_length() - 1) // 3
            if k != win:
                candidates |= _FOUR_OF[k]
    # The irregular shapes (at most one meld), where their quick necessary conditions hold (all terminals or
    # honours, 13 kinds, or at least 8 kinds of one knitted pattern).
    mask = standing_mask if before & _FIELD_OF[win] else standing_mask - _BIT_OF[win]  # the 13 tiles' kinds
    if melds == 0 and (not mask & _NOT_ORPHAN_MASK or mask.bit_count() == 13):
        return candidates | _IRREGULAR_WAIT
    if (mask & _NUMBER_MASK).bit_count() >= 8:
        # 8 kinds of a knitted pattern: each suit holds 2 or 3 of its pattern's ranks (first a quick test on the
        # suits' rank masks: each suit such a group, and the three groups among them).
        near0 = _KNITTED_GROUPS[mask & 0x1FF]
        near1 = _KNITTED_GROUPS[mask >> 9 & 0x1FF]
        near2 = _KNITTED_GROUPS[mask >> 18 & 0x1FF]
        if near0 and near1 and near2 and near0 | near1 | near2 == 7:
            for pattern_mask in _KNITTED_MASKS:
                if (mask & pattern_mask).bit_count() >= 8:
                    return candidates | _IRREGULAR_WAIT
    return candidates


_IRREGULAR_WAIT = 1 << 102  # above every count's bits (``_wait_candidates``)
_NO_SUIT_WAITS = (0, True, ())  # ``_suit_waits_of`` of a suit with no tiles


# One suit's rank mask -> the knitted groups (ranks 147, 258, 369 as bits 0, 1, 2) of which it holds 2 or 3 ranks.
_KNITTED_GROUPS = tuple(sum(1 << g for g in range(3) if ((m >> g & 1) + (m >> g + 3 & 1) + (m >> g + 6 & 1)) >= 2)
                        for m in range(512))


def _exhausted(held: int, win: int) -> tuple[int, ...]:
    """The kinds but the winning one whose four copies the hand holds (``held`` packed), rising."""
    fours = held & _HIGH_BITS & ~_FOUR_OF[win]  # (bit 2 of a count: set for a four only)
    kinds = []
    while fours:
        low = fours & -fours
        kinds.append(low.bit_length() // 3 - 1)
        fours ^= low
    return tuple(kinds)


def _suit_waits_of(block: int) -> tuple[int, bool, tuple[tuple[int, int], ...]]:
    """``evaluate._suit_waits`` of one suit's 13-tile counts, kept by the counts packed (``pack``).

    From the tables of the blocks that split (``readings.complete_blocks``, packed): a block of 0 mod 3 tiles is
    completed by no tile (it would hold 1 mod 3); one of 2 mod 3 by the ranks that make it split into sets, one of
    1 mod 3 by those that make it split into sets and a pair. A rank that completes it is always near a tile held
    (in its set or pair), as ``_suit_waits`` requires."""
    counts = unpack(block, 9)
    total = sum(counts)
    if total > 13:
        waits = _suit_waits(counts)  # beyond any 13 tiles: worked out
    else:
        sets, with_pair = _COMPLETE_PACKED or _complete_packed()
        rest = total % 3
        if rest == 0:
            waits = (0, block in sets, ())
        else:
            table = sets if rest == 2 else with_pair
            pair_after = int(rest == 1)
            found = [(r, pair_after) for r in range(9) if block + (1 << 3 * r) in table]
            waits = (rest, rest == 2 and block in with_pair, tuple(found))
    return _SUIT_WAITS.keep(block, waits)


_COMPLETE_PACKED: list = []


def _complete_packed() -> list:
    """``readings.complete_blocks`` as two sets of packed ints, made on first use."""
    _COMPLETE_PACKED[:] = [frozenset(map(pack, table)) for table in complete_blocks()]
    return _COMPLETE_PACKED


def _honour_waits(block: int) -> tuple[int, int, int, tuple[int, ...]]:
    """The 13 standing tiles' honours (their 7 counts packed): (pairs, singles and fours, the first single's kind or
    -1, the pairs' kinds), kept by counts."""
    honours = list(unpack(block, 7))
    waits = _HONOUR_WAITS[block] = (honours.count(2), honours.count(1) + honours.count(4),
                                    27 + honours.index(1) if 1 in honours else -1,
                                    tuple([27 + k for k in range(7) if honours[k] == 2]))
    return waits


_SUIT_WAITS: dict[int, tuple] = _Cache()
_HONOUR_WAITS: dict[int, tuple] = _Cache()  # at most 5^7 blocks
_SUIT_WAITS_GET, _HONOUR_WAITS_GET = _SUIT_WAITS.get, _HONOUR_WAITS.get  # (bound: see _SUIT_ENTRY_GETS)
_NUMBER_MASK = (1 << 27) - 1


# The pieces of a reading's own fan ids (``_EXTRA_IDS``, ``_EXTRA_WAIT_IDS``), made once (not in ``_PIECES``).
_EXTRA_PIECES = tuple(_piece(ids) for ids in _EXTRA_IDS)
_EXTRA_WAIT_PIECES = tuple({wait: _piece(ids) for wait, ids in by_wait.items()} for by_wait in _EXTRA_WAIT_IDS)
_NO_EXTRA = _EXTRA_PIECES[0]
_PIECES.clear()


def _decode_table(values: tuple, data: bytes) -> dict:
    """A table of ``combo_tables`` (``make_tables.encode``): compressed, base 64, the number of keys (4 bytes), each
    key's answer as an index into ``values`` (one byte each), then the keys in order as hex differences."""
    raw = zlib.decompress(base64.b64decode(data))
    n = int.from_bytes(raw[:4], "little")
    keys = accumulate(map(int, raw[4 + n:].split(), repeat(16, n)))
    return dict(zip(keys, map(values.__getitem__, raw[4:4 + n])))


def _load_combo_tables() -> None:
    """Every set of chows' and of pungs' combination fans, made by ``python -m engine.mcr.make_tables``, into the
    caches ``chow_part`` and ``pung_combo_ids`` read (a few milliseconds) and the chows' table by their signature
    that ``score`` reads, so that a set never met before costs one look-up rather than the combination search."""
    from . import combo_tables

    _CHOW_PARTS_ANY_ORDER.update(_decode_table(combo_tables.CHOW_VALUES, combo_tables.CHOW_DATA))
    _PUNG_IDS.update(_decode_table(combo_tables.PUNG_VALUES, combo_tables.PUNG_DATA))
    _CHOW_PARTS_IN_ORDER.clear()  # loaded again (``_fill_chow_ids_in_suit_order``, or on first use)
    # Every signature whose fans do not follow the suits' order, each order of its suits' fields (32,788 keys, about
    # 20 ms): a new hand's chows then always find theirs, where a cache by the signature missed for about one new
    # hand in four (each miss a call, the suits' fields sorted, a look-up by ``any_order_chow_key`` and a store).
    for key, part in _CHOW_PARTS_ANY_ORDER.items():
        if part:
            fields = (key & _SIGNATURE_BITS, key >> 22 & _SIGNATURE_BITS, key >> 44)
            for a, b, c in set(permutations(fields)):
                _CHOW_IDS_BY_SIGNATURE[a | b << 22 | c << 44] = part[0]


def _fill_chow_ids_in_suit_order() -> None:
    """``_CHOW_IDS_IN_SUIT_ORDER`` from the order-sensitive keys of ``_CHOW_PARTS_ANY_ORDER`` (None there): for each
    order of the suits' fields, the ``chow_key`` of the chows met suit by suit (the suits holding chows in rising
    order, then a 5 pair's suit holding none), its fans read from ``_CHOW_PARTS_IN_ORDER``."""
    if not _CHOW_PARTS_IN_ORDER:
        _load_chow_parts_in_order()
    chow_bits = (1 << 21) - 1  # a field's chow counts, below the pair's bit
    for key, part in _CHOW_PARTS_ANY_ORDER.items():
        if part is None:
            fields = (key & _SIGNATURE_BITS, key >> 22 & _SIGNATURE_BITS, key >> 44)
            for order in set(permutations(fields)):
                met = [f for f in order if f & chow_bits] + [f for f in order if f and not f & chow_bits] + [0, 0]
                in_order = _CHOW_PARTS_IN_ORDER.get(met[0] | met[1] << 22 | met[2] << 44)
                if in_order is not None:
                    _CHOW_IDS_IN_SUIT_ORDER[order[0] | order[1] << 22 | order[2] << 44] = in_order[0]


def _load_chow_parts_in_order() -> None:
    """The chow table in order of the suits (``combo_tables.CHOW_IN_ORDER_*``), about 5 ms: loaded at import for
    ``_fill_chow_ids_in_suit_order``, and again on first use once the bounded cache has been cleared."""
    try:
        from . import combo_tables

        _CHOW_PARTS_IN_ORDER.update(_decode_table(combo_tables.CHOW_IN_ORDER_VALUES,
                                                  combo_tables.CHOW_IN_ORDER_DATA))
    except (ImportError, AttributeError, ValueError, zlib.error):  # as in _load_combo_tables
        pass
    _CHOW_PARTS_IN_ORDER.setdefault(-1, ())  # loaded (no chow_key is -1)


try:
    _load_combo_tables()
    _fill_chow_ids_in_suit_order()
except (ImportError, AttributeError, ValueError, zlib.error):  # while make_tables writes the tables anew (the
    pass  # results are the same without them; tests/mcr checks them)

_prefill_suit_entries()  # after _FEATURES
# The entries of a suit and of the honours with no tile (``_new_readings`` reads them without a look-up).
_EMPTY_SUIT_ENTRY0, _EMPTY_SUIT_ENTRY1, _EMPTY_SUIT_ENTRY2 = (_suit_entry(suit, 0) for suit in range(3))
_NO_HONOURS_ENTRY = _honour_entry(0)
# Thirteen orphans' readings (one each), by the pair's bit in the packed counts shifted down one (``_PACK[pair]``)
# and the winning kind: made once by the reference (``_irregular_summaries``).
_THIRTEEN_ORPHANS_SUMMARIES = {
    _PACK[pair]: {win: _irregular_summaries(tuple(1 + (i == pair) if i in _ORPHANS else 0 for i in range(34)), win, 0)
                  for win in _ORPHANS} for pair in _ORPHANS}
