"""What the yaku predicates and the fu table look at: facts of the whole hand and of one arrangement.

:class:`HandFacts` is computed once per hand (tile counts, suits, context flags resolved against the ruleset);
:class:`View` once per arrangement found by :func:`readings` (sets, pair, wait, which pungs are concealed). Both are plain slotted objects so that the predicates stay one-liners and scoring stays fast.
"""

from __future__ import annotations

from ..decompose import GroupKind, Shape, standard_partitions
from ..hand import Hand, MeldType, WinContext
from ..tiles import ALL_KINDS, format_tiles
from .rules import Ruleset

WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}
DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)
GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 sou and 發 [mcr.md §1], policy R7
TERMINAL_OR_HONOUR = tuple(i >= 27 or i % 9 in (0, 8) for i in range(34))
TERMINAL = tuple(i < 27 and i % 9 in (0, 8) for i in range(34))
TERMINAL_OR_HONOUR_SET = frozenset(i for i in range(34) if TERMINAL_OR_HONOUR[i])
TERMINAL_SET = frozenset(i for i in range(34) if TERMINAL[i])
HONOUR_SET = frozenset(range(27, 34))
# the tiles whose pair is worth fu (and that break pinfu): dragons, the seat wind, the round wind
_VALUE_TILES = {(seat, round_): frozenset((31, 32, 33, seat, round_)) for seat in WINDS for round_ in WINDS}


class HandFacts:
    """Facts that do not depend on the arrangement, and the melds' contribution to every arrangement."""

    __slots__ = ("hand", "context", "rules", "closed", "tsumo", "counts", "standing", "kinds", "suits",
                 "has_honours", "all_simples", "all_terminal_honour", "all_honours", "all_terminals", "all_green",
                 "seat", "round", "value_tiles", "winning", "meld_chows", "meld_pungs", "meld_kongs",
                 "meld_set_info", "meld_concealed")

    def __init__(self, hand: Hand, context: WinContext, rules: Ruleset) -> None:
        self.hand = hand
        self.context = context
        self.rules = rules
        self.tsumo = context.self_drawn
        standing = [0] * 34
        for t in hand.concealed:
            standing[t.index] += 1
        self.winning = win = hand.winning_tile.index
        standing[win] += 1
        self.standing = standing
        counts = list(standing)
        chows: list[int] = []
        pungs: list[int] = []
        kongs: list[int] = []
        set_info: list[tuple[int, bool, bool]] = []
        concealed = 0
        closed = True
        for m in hand.melds:
            first = m.tiles[0].index
            closed = closed and m.type is MeldType.CONCEALED_KONG
            if m.type is MeldType.CHOW:
                counts[first] += 1
                counts[first + 1] += 1
                counts[first + 2] += 1
                chows.append(first)
            else:
                is_kong = m.type.is_kong
                counts[first] += 4 if is_kong else 3
                pungs.append(first)
                if is_kong:
                    kongs.append(first)
                set_info.append((first, is_kong, m.is_concealed))
                concealed += m.is_concealed
        self.closed = closed
        self.meld_chows = chows
        self.meld_pungs = pungs
        self.meld_kongs = kongs
        self.meld_set_info = set_info
        self.meld_concealed = concealed
        self.counts = counts
        kinds = {i for i, n in enumerate(counts) if n}
        self.kinds = kinds
        self.suits = {i // 9 for i in kinds if i < 27}
        self.has_honours = not kinds.isdisjoint(HONOUR_SET)
        self.all_simples = kinds.isdisjoint(TERMINAL_OR_HONOUR_SET)
        self.all_terminal_honour = kinds <= TERMINAL_OR_HONOUR_SET
        self.all_honours = kinds <= HONOUR_SET
        self.all_terminals = kinds <= TERMINAL_SET
        self.all_green = kinds <= GREEN
        self.seat = WIND_INDEX[context.seat_wind]
        self.round = WIND_INDEX[context.round_wind]
        self.value_tiles = _VALUE_TILES[self.seat, self.round]


class View:
    """One arrangement, flattened: chow and pung starts, the pair, the wait, concealed pungs.

    ``groups`` are the standing groups ``(GroupKind, first)`` of the partition (melds apart, in ``HandFacts``) and
    ``win`` the standing group that the winning tile completed.
    """

    __slots__ = ("shape", "groups", "win", "chows", "pungs", "kongs", "concealed_pungs", "pair", "pairs", "wait",
                 "set_info", "dragon_pungs", "wind_pungs")

    def __init__(self, shape: Shape, groups, win: tuple, facts: HandFacts) -> None:
        self.shape = shape
        self.groups = groups
        self.win = win
        win_kind, win_first = win
        chows = list(facts.meld_chows)
        pungs = list(facts.meld_pungs)
        kongs = facts.meld_kongs
        set_info = list(facts.meld_set_info)
        concealed_pungs = facts.meld_concealed
        pairs: list[int] = []
        for kind, first in groups:
            if kind is _CHOW:
                chows.append(first)
            elif kind is _PAIR:
                pairs.append(first)
            elif kind is _PUNG:
                pungs.append(first)
                # A pung completed by a discard counts as open (shanpon ron), policy: standard [spec §6].
                concealed = facts.tsumo or win_kind is not _PUNG or win_first != first
                concealed_pungs += concealed
                set_info.append((first, False, concealed))
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.pairs = pairs
        self.pair = pairs[0] if len(pairs) == 1 else None
        self.concealed_pungs = concealed_pungs
        self.set_info = set_info
        dragon_pungs = wind_pungs = 0
        for p in pungs:
            if p >= 31:
                dragon_pungs += 1
            elif p >= 27:
                wind_pungs += 1
        self.dragon_pungs = dragon_pungs
        self.wind_pungs = wind_pungs
        w = facts.winning
        if win_kind is _CHOW:
            if w == win_first + 1:
                self.wait = "kanchan"
            elif (w == win_first + 2 and win_first % 9 == 0) or (w == win_first and win_first % 9 == 6):
                self.wait = "penchan"
            else:
                self.wait = "ryanmen"
        elif win_kind is _PUNG:
            self.wait = "shanpon"
        elif shape is Shape.THIRTEEN_ORPHANS and win_kind is _PAIR:
            self.wait = "kokushi_13"
        else:
            self.wait = "tanki"

    def describe(self, melds=()) -> str:
        """The arrangement in words, the winning group in brackets, then the melds: ``standard: [chow(234m)] ...``."""
        parts = []
        marked = False
        for kind, first in self.groups:
            text = f"{kind.value}({format_tiles(ALL_KINDS[i] for i in _INDICES[kind](first))})"
            if not marked and (kind, first) == self.win:
                text = f"[{text}]"
                marked = True
            parts.append(text)
        parts += [m.format() for m in melds]
        return f"{self.shape.value}: " + " ".join(parts)


_CHOW, _PUNG, _PAIR, _SINGLE = GroupKind.CHOW, GroupKind.PUNG, GroupKind.PAIR, GroupKind.SINGLE
_INDICES = {_CHOW: lambda f: (f, f + 1, f + 2), _PUNG: lambda f: (f, f, f), _PAIR: lambda f: (f, f),
            _SINGLE: lambda f: (f,)}
KOKUSHI_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def readings(facts: HandFacts) -> list[View]:
    """Every riichi arrangement: four sets and a pair, seven different pairs, thirteen orphans.

    The four-sets-and-a-pair partitions come from :func:`engine.decompose.standard_partitions`, the cached routine
    behind :func:`engine.decompose.arrangements`; the placements of the winning tile are the same (one per distinct
    standing group that holds it). ``tests/riichi/test_engine.py`` checks that both agree. Seven pairs here needs
    seven different kinds (policy R8), unlike the shared routine (MCR allows four identical tiles as two pairs).
    """
    standing = facts.standing
    w = facts.winning
    views = []
    for partition in standard_partitions(tuple(standing), 4 - len(facts.hand.melds)):
        seen = []
        for group in partition:
            kind, first = group
            if kind is _CHOW:
                if not first <= w <= first + 2 or group in seen:
                    continue
            elif first != w or group in seen:
                continue
            seen.append(group)
            views.append(View(Shape.STANDARD, partition, group, facts))
    if not facts.hand.melds:
        pairs = [i for i in range(34) if standing[i]]
        if len(pairs) == 7 and all(standing[i] == 2 for i in pairs):
            groups = tuple((_PAIR, i) for i in pairs)
            views.append(View(Shape.SEVEN_PAIRS, groups, (_PAIR, w), facts))
        elif len(pairs) == 13 and all(standing[i] for i in KOKUSHI_KINDS):
            groups = tuple((_PAIR if standing[i] == 2 else _SINGLE, i) for i in KOKUSHI_KINDS)
            views.append(View(Shape.THIRTEEN_ORPHANS, groups, (_PAIR if standing[w] == 2 else _SINGLE, w), facts))
    return views
