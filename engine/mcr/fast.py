"""The per-hand fast path of ``score``: the fans (ids and counts) and the total of every reading, from ints only.

It gives the same fans and totals as :func:`engine.mcr.evaluate.evaluate`, which stays the reference and, run once on
the chosen arrangement, gives the explanations (``MCRResult.fans``); ``tests/mcr/test_fast_path.py`` checks the two
agree on every reading of many hands.

What a reading scores is split by what it depends on, each part cached by just that, so that a new hand is mostly
put together from parts seen before:

* the standing tiles' readings with the facts of each standing group (``_standard_summaries`` from per-suit splits
  cached by one suit's counts; kept by the whole standing counts too, for hands seen again; the rare irregular
  shapes by ``reading_summaries``);
* the fans of which kinds the hand uses (by the kind mask, or a few features of it) and of the way of winning (a
  table of the context flags);
* the chow combinations (by the chows and the pair), the pung combinations (by the pungs and an honour pair, looked
  up only when the pungs' kind mask allows one); the per-pung fans are worked out on the spot;
* whether the wait is unique (``evaluate._only_winning_tile_of``, per-suit wait tables);
* the exclusions, the total and the tie key (by the fan ids found, in order).

The caches hold only ints, strings and tuples of them, which the garbage collector stops tracking.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from ..decompose import KNITTED_PATTERNS, GroupKind, Shape
from ..hand import MeldType
from .combos import _canonical, _chow_fans, _may_combine_pungs, _pung_fans
from .evaluate import (_GREEN_MASK, _NOT_TERMINAL_NUMBERS, _REVERSIBLE_MASK, _kind_fans, _only_winning_tile_of,
                       win_fan_ids)
from .exclusions import EXCLUDES
from .fans import POINTS
from .readings import (_CHOW_CODE, _KIND_CODE, _ORPHANS, _PAIR_CODE, _PUNG_CODE, _SHAPE_CODE, _suit_sets,
                       irregular_possible, irregular_readings, splitting_blocks)

_STANDARD = _SHAPE_CODE[Shape.STANDARD]
_KNITTED_STRAIGHT = _SHAPE_CODE[Shape.KNITTED_STRAIGHT]
_SEVEN_PAIRS = _SHAPE_CODE[Shape.SEVEN_PAIRS]
_THIRTEEN_ORPHANS = _SHAPE_CODE[Shape.THIRTEEN_ORPHANS]
_KNITTED_CODE = _KIND_CODE[GroupKind.KNITTED]
_WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}
_CHOW = MeldType.CHOW
_PUNG = MeldType.PUNG
_CONCEALED_KONG = MeldType.CONCEALED_KONG
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_TERMINAL_OR_HONOUR = frozenset((0, 8, 9, 17, 18, 26) + tuple(range(27, 34)))
_TERMINAL_CHOWS = frozenset(s + r for s in (0, 9, 18) for r in (0, 6))  # chows 123, 789
_FIVES = frozenset((4, 13, 22))
_FIVE_CHOWS = frozenset(s + r for s in (0, 9, 18) for r in (2, 3, 4))  # chows 345, 456, 567
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_INDEX_OF = attrgetter("index")
_BIT_OF = tuple(1 << i for i in range(34))
_CONCEALED_PUNG_FANS = (None, None, "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")


# --- readings of the standing tiles --------------------------------------------------------------------------------
def reading_summaries(standing: tuple[int, ...], winning: int, melds: int) -> tuple[tuple, ...]:
    """The readings of ``readings._standing_arrangements`` (the same, in the same order) with what evaluation needs
    of each standing part, worked out once (``best_reading`` keeps them by the standing counts):

    (shape code, group codes, winning group index, chows, pungs, pair, knitted, wait, winning pung, shape fans):
    the standing chows' and pungs' first kinds (in group order), the pair's kind, whether there are knitted
    groups, the wait fan the winning group gives if the wait is unique (``None`` if none), whether the winning
    tile completed a standing pung; for the irregular shapes, ``chows`` is ``None`` and ``shape fans`` their fans."""
    out = _standard_summaries(standing, winning)
    if not irregular_possible(standing, melds):
        return out
    # The irregular shapes, in the order of readings._standing_arrangements.
    extra = irregular_readings(standing, winning, melds)
    return out + tuple([_summary(shape, codes, winning_group, winning) for shape, codes, winning_group in extra])


def _standard_summaries(standing: tuple[int, ...], winning: int) -> tuple[tuple, ...]:
    """The four-sets-and-a-pair readings (``readings._standard_readings``, same order) as summaries, put together
    from per-suit splits that carry their chows and pungs."""
    honours = standing[27:]
    if 1 in honours or 4 in honours:
        return ()
    honour_pairs = honours.count(2)
    if honour_pairs > 1:
        return ()
    if 3 in honours:
        tail_pungs = tuple([27 + k for k in range(7) if honours[k] == 3])
        tail = tuple([_PUNG_CODE + f for f in tail_pungs])
    else:
        tail_pungs = tail = ()
    block0, block1, block2 = standing[0:9], standing[9:18], standing[18:27]
    rest0, ways0 = _suit_info(block0, 0)
    rest1, ways1 = _suit_info(block1, 9)
    rest2, ways2 = _suit_info(block2, 18)
    if honour_pairs:
        if rest0 or rest1 or rest2:
            return ()
        heads = ((27 + honours.index(2), ways0, ways1, ways2),)
    else:
        # The pair lies in the one suit holding 2 tiles mod 3 (the others hold 0 mod 3).
        if rest0 == 2 and not (rest1 or rest2):
            heads = [(pair, pair_ways, ways1, ways2) for pair, pair_ways in _suit_pair_splits(block0, 0)]
        elif rest1 == 2 and not (rest0 or rest2):
            heads = [(pair, ways0, pair_ways, ways2) for pair, pair_ways in _suit_pair_splits(block1, 9)]
        elif rest2 == 2 and not (rest0 or rest1):
            heads = [(pair, ways0, ways1, pair_ways) for pair, pair_ways in _suit_pair_splits(block2, 18)]
        else:
            return ()
    # The winning tile lies in one suit (or is an honour): only the pair and that suit's (or the honours') groups
    # can hold it, in group order.
    win_suit = winning // 9
    out = []
    for pair, w0, w1, w2 in heads:
        if not (w0 and w1 and w2):
            continue
        pair_code = (_PAIR_CODE + pair,)
        for codes0, chows0, pungs0 in w0:
            for codes1, chows1, pungs1 in w1:
                for codes2, chows2, pungs2 in w2:
                    codes = pair_code + codes0 + codes1 + codes2 + tail
                    chows = chows0 + chows1 + chows2
                    pungs = pungs0 + pungs1 + pungs2 + tail_pungs
                    if pair == winning:
                        out.append((_STANDARD, codes, 0, chows, pungs, pair, False, "single_wait", False, ()))
                    if win_suit == 0:
                        places, offset = _split_placements(codes0, winning), 1
                    elif win_suit == 1:
                        places, offset = _split_placements(codes1, winning), 1 + len(codes0)
                    elif win_suit == 2:
                        places, offset = _split_placements(codes2, winning), 1 + len(codes0) + len(codes1)
                    else:
                        if winning in tail_pungs:
                            out.append((_STANDARD, codes, len(codes) - len(tail) + tail_pungs.index(winning), chows,
                                        pungs, pair, False, None, True, ()))
                        continue
                    for index, wait, winning_pung in places:
                        out.append((_STANDARD, codes, offset + index, chows, pungs, pair, False, wait, winning_pung,
                                    ()))
    return tuple(out)


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


@lru_cache(maxsize=1 << 16)  # bounded: a long-running service meets ever more suits
def _suit_info(block: tuple[int, ...], base: int) -> tuple[int, tuple]:
    """(the suit's tile count mod 3, ``_suit_splits`` when that is 0: a suit of 2 mod 3 holds the pair and is split
    by ``_suit_pair_splits``, one of 1 mod 3 by nothing)."""
    rest = sum(block) % 3
    return rest, (_suit_splits(block, base) if rest == 0 else ())


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
    return tuple([(tuple([c + base for c in codes]), tuple([f + base for f in chows]), tuple([f + base for f in pungs]))
                  for codes, chows, pungs in splits])


def _block_splits(block: tuple[int, ...]) -> tuple:
    return tuple([(codes, tuple([c - _CHOW_CODE for c in codes if c < _CHOW_CODE + 34]),
                   tuple([c - _PUNG_CODE for c in codes if _PUNG_CODE <= c < _PUNG_CODE + 34]))
                  for codes in _suit_sets.__wrapped__(block, 0)])


# block -> its splits, for each suit (base 0, 9, 18): made at import (about 0.05 s), so that a suit never seen
# before costs one look-up.
_FIRST_SUIT_SPLITS = {block: _block_splits(block) for block in splitting_blocks()}
_SPLITS = tuple({block: _moved(splits, base) for block, splits in _FIRST_SUIT_SPLITS.items()} for base in (0, 9, 18))
del _FIRST_SUIT_SPLITS


@lru_cache(maxsize=1 << 16)  # bounded: a long-running service meets ever more suits
def _suit_pair_splits(block: tuple[int, ...], base: int) -> tuple:
    """``readings._suit_pair_ways`` with the splits of ``_suit_splits``: (pair kind, splits) for each pair, in
    rank order."""
    out = []
    rest = list(block)
    for r in range(9):
        if rest[r] >= 2:
            rest[r] -= 2
            out.append((base + r, _suit_splits(tuple(rest), base)))
            rest[r] += 2
    return tuple(out)


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


def _summary(shape: int, codes: tuple[int, ...], winning_group: int, winning: int) -> tuple:
    """The summary of one reading given as (shape code, group codes, winning group index)."""
    if shape == _STANDARD or shape == _KNITTED_STRAIGHT:
        chows = tuple([c - _CHOW_CODE for c in codes if c < _CHOW_CODE + 34])
        pungs = tuple([c - _PUNG_CODE for c in codes if _PUNG_CODE <= c < _PUNG_CODE + 34])
        pair = next(c - _PAIR_CODE for c in codes if _PAIR_CODE <= c < _PAIR_CODE + 34)
        knitted = any(_KNITTED_CODE <= c < _KNITTED_CODE + 34 for c in codes)
        wait, winning_pung = _placement(codes[winning_group], winning)
        return (shape, codes, winning_group, chows, pungs, pair, knitted, wait, winning_pung, ())
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
        if sum(1 for f in firsts if f >= 27) == 7:
            fans += ("greater_honours_and_knitted_tiles",)
        fans += ("lesser_honours_and_knitted_tiles",)
        if sum(1 for f in firsts if f < 27) == 9:
            fans += ("knitted_straight",)
    return (shape, codes, winning_group, None, (), -1, False, None, False, fans)


# --- parts cached by what they depend on ---------------------------------------------------------------------------
_KIND_IDS_BY_FEATURES: dict[int, tuple[str, ...]] = {}
_KIND_IDS_BY_MASK: dict[int, tuple[str, ...]] = {}


def kind_fan_ids(mask: int) -> tuple[str, ...]:
    """The ids of ``evaluate._kind_fans(mask)``, cached by the features they read (as ``evaluate._kind_fans_of``)
    and by the mask itself."""
    ids = _KIND_IDS_BY_MASK.get(mask)
    if ids is not None:
        return ids
    honours = mask >> 27
    # One int: the suits present, the ranks present (only without honours), winds / dragons present, and whether
    # all tiles are green, reversible, and the numbers all terminals.
    key = ((mask & 0x1FF != 0) | (mask >> 9 & 0x1FF != 0) << 1 | (mask >> 18 & 0x1FF != 0) << 2
           | (0 if honours else (mask | mask >> 9 | mask >> 18) & 0x1FF) << 3 | (honours & 0xF != 0) << 12
           | (honours >> 4 != 0) << 13 | (not mask & ~_GREEN_MASK) << 14 | (not mask & ~_REVERSIBLE_MASK) << 15
           | (not mask & _NOT_TERMINAL_NUMBERS) << 16)
    ids = _KIND_IDS_BY_FEATURES.get(key)
    if ids is None:
        ids = _KIND_IDS_BY_FEATURES[key] = tuple(fan for fan, _, _ in _kind_fans.__wrapped__(mask))
    if len(_KIND_IDS_BY_MASK) >= _READINGS_MAX:
        _KIND_IDS_BY_MASK.clear()  # bounded memory in a long-running service
    _KIND_IDS_BY_MASK[mask] = ids
    return ids


@lru_cache(maxsize=65536)
def chow_part(chows: tuple[int, ...], pair: int) -> tuple[tuple[str, ...], bool, bool]:
    """(the chow-combination fans found, one id per candidate taken; whether every chow is a 123/789, whether every
    chow holds a 5). Behind this cache (by the chows in order), one by ``chow_key``: the same answer for chows that
    differ only by their order or a permutation of the suits."""
    key = chow_key(chows, pair)
    part = _CHOW_PARTS.get(key)
    if part is None:
        if len(_CHOW_PARTS) >= _READINGS_MAX:
            _CHOW_PARTS.clear()  # bounded memory in a long-running service
        part = chow_part_of(chows, pair)
        _CHOW_PARTS[key] = None if order_sensitive(part[0]) else part
    elif part is None:
        part = chow_part_of(chows, pair)
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
    """The chows (and a 5 pair) up to their order and a permutation of the suits, as one int: per suit, a 3-bit
    count of each chow rank and a bit for the pair; the three suits' numbers sorted."""
    suits = [0, 0, 0]
    for f in chows:
        suits[f // 9] += 1 << 3 * (f % 9)
    if pair >= 0:
        suits[pair // 9] += 1 << 21
    a, b, c = suits
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a | b << 22 | c << 44


# chow_key -> chow_part, or None where the order of the fans found may depend on the chows' order (two different
# fans of the same points: the selection lists equal candidates in the order of the sets), worked out each time.
_CHOW_PARTS: dict[int, tuple | None] = {}


def order_sensitive(ids: tuple[str, ...]) -> bool:
    """Whether ``ids`` holds two different fans of the same points: the order the selection lists them in may then
    follow the order of the sets. Otherwise it is by points (``combos._select``), the same for any order."""
    fans = set(ids)
    return len(fans) > 1 and len({POINTS[fan] for fan in fans}) < len(fans)


@lru_cache(maxsize=65536)
def pung_combo_ids(pungs: tuple[int, ...], pair: int) -> tuple[str, ...]:
    """The pung-combination fans found (``combos.pung_fans``), one id per candidate taken; ``pair`` is an honour
    pair's kind, else -1. Behind this cache (by the pungs in order), one by ``pung_key``: the same answer for pungs
    that differ only by their order or a permutation of the suits."""
    key = pung_key(pungs, pair)
    ids = _PUNG_IDS.get(key, False)
    if ids is False:
        if len(_PUNG_IDS) >= _READINGS_MAX:
            _PUNG_IDS.clear()  # bounded memory in a long-running service
        ids = pung_combo_ids_of(pungs, pair)
        _PUNG_IDS[key] = None if order_sensitive(ids) else ids
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
    sorted, the honours' mask, the pair."""
    mask = 0
    for f in pungs:
        mask |= 1 << f
    a, b, c = mask & 0x1FF, mask >> 9 & 0x1FF, mask >> 18 & 0x1FF
    ranks = a | b | c
    if ranks:
        shift = (ranks & -ranks).bit_length() - 1
        a >>= shift
        b >>= shift
        c >>= shift
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a | b << 9 | c << 18 | (mask >> 27) << 27 | (pair + 1) << 34


_PUNG_IDS: dict[int, tuple[str, ...] | None] = {}  # as _CHOW_PARTS


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
_NOT_EVEN_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in range(27) if f % 9 % 2 == 1)
_NOT_TERMINAL_OR_HONOUR_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in _TERMINAL_OR_HONOUR)
_NOT_FIVES_MASK = ((1 << 34) - 1) & ~sum(1 << f for f in _FIVES)


# win_fan_ids for every combination of its seven flags, indexed by the flags as bits in argument order.
_WIN_FAN_IDS = tuple(win_fan_ids(*(bool(bits >> k & 1) for k in range(7))) for bits in range(128))


@lru_cache(maxsize=None)
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


_FINISHED: dict[tuple[str, ...], tuple] = {}
_FINISHED_MAX = 1 << 16
_BIT = {fan: 1 << k for k, fan in enumerate(POINTS)}  # each fan one bit, for the exclusions
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
        if len(_FINISHED) >= _FINISHED_MAX:
            _FINISHED.clear()  # bounded memory in a long-running service
        done = _FINISHED[found] = (total, tie, tuple(kept))
    return done


_EDGE, _CLOSED, _SINGLE = _BIT["edge_wait"], _BIT["closed_wait"], _BIT["single_wait"]


# --- one hand ------------------------------------------------------------------------------------------------------
def best_reading(hand, context, every: list | None = None) -> tuple[tuple, tuple, bool | None] | None:
    """(the reading summary kept, its ``finish`` answer, whether the wait is unique or None if no reading needed
    it), or None when the hand is not a winning shape. ``every`` (for tests) receives each reading's (summary,
    ``finish`` answer) in order."""
    standing = [0] * 34
    mask = 0
    for i in map(_INDEX_OF, hand.concealed):
        standing[i] += 1
        mask |= _BIT_OF[i]
    win = hand.winning_tile.index
    standing[win] += 1
    mask |= 1 << win
    standing_mask = mask
    melds = hand.melds
    n_melds = len(melds)
    self_drawn = context.self_drawn
    if melds:
        counts = list(standing)
        meld_chows = []
        meld_pungs = []
        kong_kinds = 0
        melded_kongs = concealed_kongs = 0
        concealed = True
        for meld in melds:
            kind = meld.type
            i = meld.tiles[0].index
            if kind is _CHOW:
                meld_chows.append(i)
                mask |= 7 << i
                counts[i] += 1
                counts[i + 1] += 1
                counts[i + 2] += 1
                concealed = False
                continue
            meld_pungs.append(i)
            mask |= 1 << i
            if kind is _PUNG:
                counts[i] += 3
                concealed = False
                continue
            counts[i] += 4
            kong_kinds |= 1 << i
            if kind is _CONCEALED_KONG:
                concealed_kongs += 1
            else:
                melded_kongs += 1
                concealed = False
        meld_chows = tuple(meld_chows)
        meld_pungs = tuple(meld_pungs)
        kong_fans = kong_fan_ids(melded_kongs, concealed_kongs) if kong_kinds else ()
        found = kind_fan_ids(mask)
        if 4 in counts:
            hogs = counts.count(4) - melded_kongs - concealed_kongs  # four of a kind not a kong (四归一)
            if hogs:
                found += ("tile_hog",) * hogs
        found += _WIN_FAN_IDS[(not not self_drawn) | concealed << 1 | (not not context.last_wall_tile) << 2
                              | (not not context.kong_replacement) << 3 | (not not context.robbing_kong) << 4
                              | (n_melds == 4 and not concealed_kongs) << 5
                              | (not not (context.last_tile or counts[win] - standing[win] == 3)) << 6]
    else:
        counts = standing
        meld_chows = meld_pungs = kong_fans = ()
        concealed_kongs = 0
        found = kind_fan_ids(mask)
        if 4 in standing:
            found += ("tile_hog",) * standing.count(4)
        if win < 27:
            base = win - win % 9
            if standing[base] >= 3 and standing[base + 8] >= 3:
                before = list(standing)
                before[win] -= 1
                if tuple(before[base:base + 9]) == _NINE_GATES and sum(before) == 13:
                    found += ("nine_gates",)
        found += _WIN_FAN_IDS[(not not self_drawn) | 2 | (not not context.last_wall_tile) << 2
                              | (not not context.kong_replacement) << 3 | (not not context.robbing_kong) << 4
                              | (not not context.last_tile) << 6]
    # Most hands can only be four sets and a pair: those are read from the per-suit tables (and kept by the
    # standing counts, for hands seen again), the others by reading_summaries.
    key = (tuple(standing), win)
    summaries = _READINGS.get(key)
    if summaries is None:
        if _irregular_possible(standing_mask, standing, n_melds):
            summaries = reading_summaries(key[0], win, n_melds)
        else:
            summaries = _standard_summaries(key[0], win)
        if len(_READINGS) >= _READINGS_MAX:
            _READINGS.clear()  # bounded memory in a long-running service
        _READINGS[key] = summaries
    if not summaries:
        return None
    unique_wait = None
    best = best_key = None
    last_codes = base = None
    for summary in summaries:
        shape, codes, winning_group, chows, pungs, pair, knitted, wait, winning_pung, shape_fans = summary
        if chows is None:
            items = found + shape_fans
            done = _FINISHED.get(items) or finish(items)
        else:
            if codes is not last_codes:
                # The fans of the sets, shared by the placements of the winning tile in one partition (they follow
                # one another with the same codes): only the concealed pungs and the wait differ between them.
                last_codes = codes
                base = _sets_fans(found, chows, pungs, pair, knitted, meld_chows, meld_pungs, kong_fans, context)
            items = base
            concealed_pungs = len(pungs) + concealed_kongs
            if winning_pung and not self_drawn:
                concealed_pungs -= 1  # a standing pung completed by a discard counts as melded [002:120-127]
            if concealed_pungs >= 2:
                items += (_CONCEALED_PUNG_FANS[concealed_pungs],)
            if wait is not None:
                if unique_wait is None:
                    unique_wait = _unique_wait(standing, counts, win, n_melds, standing_mask)
                if unique_wait:
                    items += (wait,)
            done = _FINISHED.get(items) or finish(items)
        if every is not None:
            every.append((summary, done))
        if best is None:
            best, best_key = (summary, done), (done[0], done[1])
        else:
            key = (done[0], done[1])
            if key > best_key:
                best, best_key = (summary, done), key
    return best + (unique_wait,)


def _sets_fans(found: tuple[str, ...], chows: tuple[int, ...], pungs: tuple[int, ...], pair: int, knitted: bool,
               meld_chows: tuple[int, ...], meld_pungs: tuple[int, ...], kong_fans: tuple[str, ...],
               context) -> tuple[str, ...]:
    """``found`` and then the fans of one partition's sets (standing ones, then the melds), in the order of
    ``evaluate._evaluate_sets``, up to the kong fans: shape fans, chow and pung combinations, per-pung fans."""
    if meld_chows:
        chows += meld_chows
    if meld_pungs:
        pungs += meld_pungs
    items = found
    # The chow part is cached by the chows and the pair only where it can make a fan with them (a 5 with four
    # chows).
    if len(chows) >= 2:
        chow_ids, terminal_chows, five_chows = chow_part(
            chows, pair if len(chows) == 4 and pair < 27 and pair % 9 == 4 else -1)
    elif chows:
        chow_ids = ()
        terminal_chows = chows[0] in _TERMINAL_CHOWS
        five_chows = chows[0] in _FIVE_CHOWS
    else:
        chow_ids = ()
        terminal_chows = five_chows = True
    if pungs:
        pung_mask = 0
        pung_ids = ()
        round_wind = seat_wind = -1
        # Per-pung fans (箭刻, 圈风刻, 门风刻, 幺九刻; policy M6), in pung order.
        for f in pungs:
            pung_mask |= _BIT_OF[f]
            fans = _PUNG_SET_FANS[f]
            if fans is not None:
                pung_ids += fans
                continue
            if round_wind < 0:
                round_wind = _WIND_INDEX[context.round_wind]
                seat_wind = _WIND_INDEX[context.seat_wind]
            value = False
            if f == round_wind:
                pung_ids += ("prevalent_wind",)
                value = True
            if f == seat_wind:
                pung_ids += ("seat_wind",)
                value = True
            if not value and (27 in pungs) + (28 in pungs) + (29 in pungs) + (30 in pungs) < 3:
                pung_ids += _TERMINAL_PUNG
        # The pung combinations (before the per-pung fans), where any is possible: two dragons, three winds, or two
        # number pungs whose ranks differ by at most one (combos._may_combine_pungs).
        if len(pungs) >= 2 and pungs_may_combine(pung_mask):
            pung_ids = pung_combo_ids(pungs, pair if pair >= 27 else -1) + pung_ids
        if len(pungs) == 4:
            items += ("all_pungs", "all_even_pungs") if pair < 27 and pair % 9 % 2 == 1 \
                and not pung_mask & _NOT_EVEN_MASK else ("all_pungs",)
        if knitted:
            items += ("knitted_straight",)
        elif pair in _TERMINAL_OR_HONOUR:
            if terminal_chows and not pung_mask & _NOT_TERMINAL_OR_HONOUR_MASK:
                items += ("outside_hand",)
        elif pair in _FIVES:
            if five_chows and not pung_mask & _NOT_FIVES_MASK:
                items += ("all_fives",)
        items += chow_ids + pung_ids
        if kong_fans:
            items += kong_fans
    else:
        if pair < 27:
            items += ("all_chows",)
        if knitted:
            items += ("knitted_straight",)
        elif pair in _TERMINAL_OR_HONOUR:
            if terminal_chows:
                items += ("outside_hand",)
        elif pair in _FIVES:
            if five_chows:
                items += ("all_fives",)
        items += chow_ids
    return items


def _irregular_possible(mask: int, standing: list[int], melds: int) -> bool:
    """``readings.irregular_possible`` from the standing tiles' kind mask: seven pairs (at most 7 kinds, all
    even), 全不靠 (14 kinds), thirteen orphans (all 13 present), a knitted straight (its 9 kinds present)."""
    if melds > 1:
        return False
    kinds = mask.bit_count()
    if melds == 0:
        if kinds <= 7:
            return 1 not in standing and 3 not in standing
        if kinds == 14 or mask & _ORPHAN_MASK == _ORPHAN_MASK:
            return True
    if kinds >= 9:
        for pattern_mask in _KNITTED_MASKS:
            if mask & pattern_mask == pattern_mask:
                return True
    return False


# (standing counts, winning kind) -> the readings' summaries (the number of melds follows from the counts).
_READINGS: dict[tuple, tuple] = {}
_READINGS_MAX = 1 << 16
_ORPHAN_MASK = sum(1 << i for i in _ORPHANS)
_KNITTED_MASKS = tuple(sum(1 << i for i in pattern) for pattern in KNITTED_PATTERNS)


def _unique_wait(standing: list[int], counts: list[int], win: int, melds: int, standing_mask: int) -> bool:
    """Whether the winning tile is the only tile that completes the 13-tile hand (``HandFacts.unique_wait``)."""
    before = list(standing)
    before[win] -= 1
    exhausted = ()
    if 4 in counts:  # the kinds whose four copies the hand holds: no wait on them
        found = []
        i = -1
        for _ in range(counts.count(4)):
            i = counts.index(4, i + 1)
            if i != win:
                found.append(i)
        exhausted = tuple(found)
    return _only_winning_tile_of(tuple(before), win, melds, exhausted,
                                 standing_mask if before[win] else standing_mask & ~(1 << win))