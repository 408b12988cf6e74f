"""Fans made by combining sets (chows with chows, pungs with pungs), chosen under the accounting principles.

A *candidate* is one fan formed by a group of 2, 3 or 4 sets (some also need the pair). A selection of candidates is
legal when it can be built one candidate at a time so that [002:366-370]:

* principle 2 (no splitting) and principle 5 (account once): every candidate after the first brings at least one set
  not used before and at most one set already used ("a set not yet combined may be combined once with one set
  already combined"). So a fan's own sets are never recombined among themselves (清龙 does not also give the 连六 or
  老少副 inside it), and two chows with the same partner make a tree, never a cycle;
* principle 3 (no identical re-use): a set takes part in at most one candidate of each fan (chows A B C D where ABC
  and ABD both make 三色三同顺 count it once; C and D may still make 一般高) [003:285 fn63];
* principle 4 (take the higher): the legal selection with the most points is taken.

This reproduces the worked examples: 清一色 with 清龙 and a fourth chow adds "一般高 (or 连六, 老少副)" once
[002:613]; 全带幺 with 123 123 789 789 adds "one 一般高 and two 老少副, or one 老少副 and two 一般高" [002:841].

Sets are given by their first tile index (0..33); results are cached by that tuple (and the pair).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .fans import POINTS

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)


# --- chow candidates ----------------------------------------------------------------------------------------------
def _chow_fan_2(a: int, b: int) -> str | None:
    sa, ra, sb, rb = a // 9, a % 9, b // 9, b % 9
    if sa == sb:
        if a == b:
            return "pure_double_chow"
        if abs(a - b) == 3:
            return "short_straight"
        if {ra, rb} == {0, 6}:
            return "two_terminal_chows"
        return None
    return "mixed_double_chow" if ra == rb else None


def _chow_fan_3(a: int, b: int, c: int) -> str | None:  # a <= b <= c
    suits = {a // 9, b // 9, c // 9}
    ra, rb, rc = sorted((a % 9, b % 9, c % 9))
    if len(suits) == 1:
        if a == b == c:
            return "pure_triple_chow"
        if (ra, rb, rc) == (0, 3, 6):
            return "pure_straight"
        if rb - ra == rc - rb and rb - ra in (1, 2):
            return "pure_shifted_chows"
        return None
    if len(suits) == 3:
        if ra == rb == rc:
            return "mixed_triple_chow"
        if (ra, rb, rc) == (0, 3, 6):
            return "mixed_straight"
        if rb - ra == 1 and rc - rb == 1:
            return "mixed_shifted_chows"
    return None


def _chow_fan_4(a: int, b: int, c: int, d: int, pair: int | None) -> str | None:  # sorted
    suits = {a // 9, b // 9, c // 9, d // 9}
    if len(suits) == 1:
        if a == d:
            return "quadruple_chow"
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return "four_pure_shifted_chows"
        if pair is not None and pair < 27 and pair // 9 == a // 9 and pair % 9 == 4 \
                and (a % 9, b % 9, c % 9, d % 9) == (0, 0, 6, 6):
            return "pure_terminal_chows"
        return None
    if len(suits) == 2 and pair is not None and pair < 27 and pair % 9 == 4 and pair // 9 not in suits:
        ranks = sorted((x // 9, x % 9) for x in (a, b, c, d))
        s1, s2 = sorted(suits)
        if ranks == [(s1, 0), (s1, 6), (s2, 0), (s2, 6)]:
            return "three_suited_terminal_chows"
    return None


# --- pung candidates ----------------------------------------------------------------------------------------------
def _pung_fan_2(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return "double_pung" if a // 9 != b // 9 and a % 9 == b % 9 else None
    if a in DRAGONS and b in DRAGONS:
        return "two_dragon_pungs"
    return None


def _pung_fan_3(a: int, b: int, c: int) -> str | None:  # sorted
    if c < 27:
        suits = {a // 9, b // 9, c // 9}
        ranks = sorted((a % 9, b % 9, c % 9))
        if len(suits) == 1:
            return "pure_shifted_pungs" if b == a + 1 and c == b + 1 else None
        if len(suits) == 3:
            if ranks[0] == ranks[2]:
                return "triple_pung"
            if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
                return "mixed_shifted_pungs"
        return None
    if a in WINDS and c in WINDS:
        return "big_three_winds"
    if a in DRAGONS:
        return "big_three_dragons"
    return None


def _pung_fan_4(a: int, b: int, c: int, d: int) -> str | None:
    if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return "four_pure_shifted_pungs"
    if (a, b, c, d) == WINDS:
        return "big_four_winds"
    return None


def _pung_fan_with_pair(sets: tuple[int, ...], pair: int | None) -> str | None:
    if pair is None:
        return None
    if len(sets) == 3 and pair in WINDS and all(s in WINDS for s in sets):
        return "little_four_winds"
    if len(sets) == 2 and pair in DRAGONS and all(s in DRAGONS for s in sets):
        return "little_three_dragons"
    return None


_chow_fan_2 = lru_cache(maxsize=None)(_chow_fan_2)
_chow_fan_3 = lru_cache(maxsize=None)(_chow_fan_3)
_chow_fan_4 = lru_cache(maxsize=None)(_chow_fan_4)
_pung_fan_2 = lru_cache(maxsize=None)(_pung_fan_2)
_pung_fan_3 = lru_cache(maxsize=None)(_pung_fan_3)
_pung_fan_4 = lru_cache(maxsize=None)(_pung_fan_4)


# --- candidates and selection -------------------------------------------------------------------------------------
def _candidates(firsts: tuple[int, ...], pair: int | None, chows: bool) -> list[tuple[str, tuple[int, ...]]]:
    out: list[tuple[str, tuple[int, ...]]] = []
    n = len(firsts)
    for size in (4, 3, 2):
        if size > n:
            continue
        for positions, values in zip(combinations(range(n), size), combinations(firsts, size)):
            if chows:
                fan = (_chow_fan_2(*values) if size == 2 else _chow_fan_3(*values) if size == 3
                       else _chow_fan_4(*values, pair))
                if fan:
                    out.append((fan, positions))
            else:
                fan = (_pung_fan_2(*values) if size == 2 else _pung_fan_3(*values) if size == 3
                       else _pung_fan_4(*values))
                if fan:
                    out.append((fan, positions))
                fan = _pung_fan_with_pair(values, pair)
                if fan:
                    out.append((fan, positions))
    return out


def _select(candidates: list[tuple[str, tuple[int, ...]]], n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The legal selection with the most points.

    Ties between equal totals (the rulebook accepts either [002:613,841]) go to the 1-point chow fans in the order
    一般高 > 喜相逢 > 连六 > 老少副, as the worked examples choose for a fourth chow [002:613,645,739].
    """
    if not candidates:
        return ()
    if len(candidates) == 1:
        return (candidates[0],)
    # Bigger and higher candidates first, so that ties resolve towards the main fan.
    order = sorted(range(len(candidates)), key=lambda i: (-len(candidates[i][1]), -POINTS[candidates[i][0]], i))
    cands = [candidates[i] for i in order]
    masks = [sum(1 << p for p in positions) for _, positions in cands]
    points = [POINTS[fan] for fan, _ in cands]
    count = len(cands)
    # Principle 3: two candidates of the same fan sharing a set cannot both be taken.
    clash = [sum(1 << j for j in range(count) if j != i and cands[j][0] == cands[i][0] and masks[i] & masks[j])
             for i in range(count)]
    # The tie preference (``_preference``) as one int that adds up along the search: a base-16 digit per fan of
    # _TIE_ORDER, the first the most significant, so that comparing ints compares the count tuples (no count
    # reaches 16).
    weights = [_TIE_WEIGHT.get(fan, 0) for fan, _ in cands]
    best_total = 0
    best_preference = -1  # below the empty selection's 0, as () is below its tuple of counts
    best_chosen = 0
    seen: set[int] = set()
    stack = [(0, 0, 0, 0)]  # (chosen candidates bit mask, used sets bit mask, points, preference)
    while stack:
        chosen, used, total, preference = stack.pop()
        if chosen in seen:
            continue
        seen.add(chosen)
        if total > best_total or (total == best_total and preference > best_preference):
            best_total, best_preference, best_chosen = total, preference, chosen
        for i in range(count):
            if chosen >> i & 1 or clash[i] & chosen:
                continue
            mask = masks[i]
            shared = mask & used
            # Principles 2 and 5: a later candidate brings a new set and re-uses at most one.
            if used and (shared == mask or shared & (shared - 1)):
                continue
            stack.append((chosen | 1 << i, used | mask, total + points[i], preference + weights[i]))
    return tuple(cands[i] for i in range(count) if best_chosen >> i & 1)


_TIE_ORDER = ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")
_TIE_WEIGHT = {fan: 16 ** (len(_TIE_ORDER) - 1 - k) for k, fan in enumerate(_TIE_ORDER)}


def _preference(fans) -> tuple[int, ...]:
    fans = list(fans)
    return tuple(fans.count(f) for f in _TIE_ORDER)


def _canonical(firsts: tuple[int, ...], pair: int | None):
    """Relabel the suits in order of first use (the fans only compare suits), so that hands that differ by a
    permutation of the suits share one cache entry. Returns (canonical firsts, canonical pair, order) where
    ``order[k]`` is the position in ``firsts`` of the k-th canonical set."""
    relabel = [-1, -1, -1]
    n = 0
    for f in firsts:
        if f < 27 and relabel[f // 9] < 0:
            relabel[f // 9] = n
            n += 1
    if pair is not None and pair < 27:
        if relabel[pair // 9] < 0:
            relabel[pair // 9] = n
        pair = relabel[pair // 9] * 9 + pair % 9
    moved = sorted([(f if f >= 27 else relabel[f // 9] * 9 + f % 9, i) for i, f in enumerate(firsts)])
    return tuple([m for m, _ in moved]), pair, tuple([i for _, i in moved])


@lru_cache(maxsize=65536)
def chow_fans(firsts: tuple[int, ...], pair: int | None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Chow-combination fans for chows starting at ``firsts`` and the pair's tile: (fan, positions in firsts)."""
    if len(firsts) < 2:
        return ()
    if pair is not None and (pair >= 27 or pair % 9 != 4 or len(firsts) < 4):
        pair = None  # only a pair of 5 with four chows makes a chow fan (一色双龙会, 三色双龙会)
    key, key_pair, order = _canonical(firsts, pair)
    return tuple((fan, tuple(order[p] for p in positions)) for fan, positions in _chow_fans(key, key_pair))


@lru_cache(maxsize=65536)
def pung_fans(firsts: tuple[int, ...], pair: int | None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Pung-combination fans for pungs/kongs of ``firsts`` and the pair's tile: (fan, positions in firsts)."""
    if len(firsts) < 2:
        return ()
    if pair is not None and pair < 27:
        pair = None  # only a wind or dragon pair makes a pung fan (小四喜, 小三元)
    if not _may_combine_pungs(firsts):
        return ()
    key, key_pair, order = _canonical(firsts, pair)
    return tuple((fan, tuple(order[p] for p in positions)) for fan, positions in _pung_fans(key, key_pair))


def _may_combine_pungs(firsts: tuple[int, ...]) -> bool:
    """Whether any pung fan is possible: each needs two dragons, three winds, or two number pungs whose ranks differ
    by at most one (双同刻, 三同刻: equal; 节高: consecutive). Otherwise there is no candidate at all."""
    winds = dragons = 0
    ranks = []
    for f in firsts:
        if f >= 31:
            dragons += 1
        elif f >= 27:
            winds += 1
        else:
            ranks.append(f % 9)
    if dragons >= 2 or winds >= 3:
        return True
    for a, b in combinations(ranks, 2):
        if -1 <= a - b <= 1:
            return True
    return False


@lru_cache(maxsize=16384)
def _chow_fans(firsts: tuple[int, ...], pair: int | None):
    return _selected(tuple(_candidates(firsts, pair, True)))


@lru_cache(maxsize=16384)
def _pung_fans(firsts: tuple[int, ...], pair: int | None):
    return _selected(tuple(_candidates(firsts, pair, False)))


@lru_cache(maxsize=16384)
def _selected(candidates: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``_select``, which depends only on the candidates (fans and positions): many sets share the same ones."""
    return _select(list(candidates), 0)
