"""What the yaku predicates and the fu table look at: facts of the whole hand and of one arrangement.

:class:`HandFacts` is computed once per hand (tile counts, suits, context flags resolved against the ruleset);
:class:`View` once per arrangement of :func:`engine.decompose.arrangements` (sets, pair, wait, which pungs are
concealed). Both are plain slotted objects so that the predicates stay one-liners and scoring stays fast.
"""

from __future__ import annotations

from ..decompose import Arrangement, GroupKind, Shape
from ..hand import Hand, WinContext
from .rules import Ruleset

WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}
DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)
GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 sou and 發 [mcr.md §1], policy R7
TERMINAL_OR_HONOUR = tuple(i >= 27 or i % 9 in (0, 8) for i in range(34))
TERMINAL = tuple(i < 27 and i % 9 in (0, 8) for i in range(34))


class HandFacts:
    """Facts that do not depend on the arrangement."""

    __slots__ = ("hand", "context", "rules", "closed", "tsumo", "counts", "kinds", "suits", "has_honours",
                 "all_simples", "all_terminal_honour", "all_honours", "all_terminals", "all_green", "seat", "round",
                 "value_tiles", "kong_count", "winning")

    def __init__(self, hand: Hand, context: WinContext, rules: Ruleset) -> None:
        self.hand = hand
        self.context = context
        self.rules = rules
        self.closed = hand.is_concealed
        self.tsumo = context.self_drawn
        counts = [0] * 34
        for t in hand.concealed:
            counts[t.index] += 1
        counts[hand.winning_tile.index] += 1
        self.kong_count = 0
        for m in hand.melds:
            for t in m.tiles:
                counts[t.index] += 1
            self.kong_count += m.is_kong
        self.counts = counts
        kinds = [i for i in range(34) if counts[i]]
        self.kinds = kinds
        self.suits = {i // 9 for i in kinds if i < 27}
        self.has_honours = kinds[-1] >= 27
        self.all_simples = all(not TERMINAL_OR_HONOUR[i] for i in kinds)
        self.all_terminal_honour = all(TERMINAL_OR_HONOUR[i] for i in kinds)
        self.all_honours = kinds[0] >= 27
        self.all_terminals = all(TERMINAL[i] for i in kinds)
        self.all_green = all(i in GREEN for i in kinds)
        self.seat = WIND_INDEX[context.seat_wind]
        self.round = WIND_INDEX[context.round_wind]
        self.value_tiles = frozenset((31, 32, 33, self.seat, self.round))
        self.winning = hand.winning_tile.index


class View:
    """One arrangement, flattened: chow and pung starts, the pair, the wait, concealed pungs."""

    __slots__ = ("arrangement", "shape", "chows", "pungs", "kongs", "concealed_pungs", "pair", "pairs", "wait",
                 "win_kind", "open_pung_fu_source", "set_info")

    def __init__(self, arrangement: Arrangement, facts: HandFacts) -> None:
        self.arrangement = arrangement
        self.shape = arrangement.shape
        chows: list[int] = []
        pungs: list[int] = []
        kongs: list[int] = []
        pairs: list[int] = []
        # (index, is_kong, concealed) for each pung or kong: the fu table needs all three
        set_info: list[tuple[int, bool, bool]] = []
        concealed_pungs = 0
        winning_group = arrangement.winning_group
        ron = not facts.tsumo
        win = facts.winning
        wait = "tanki"
        for position, group in enumerate(arrangement.groups):
            kind = group.kind
            first = group.first
            if kind is GroupKind.CHOW:
                chows.append(first)
                if position == winning_group:
                    if win == first + 1:
                        wait = "kanchan"
                    elif (win == first + 2 and first % 9 == 0) or (win == first and first % 9 == 6):
                        wait = "penchan"
                    else:
                        wait = "ryanmen"
            elif kind is GroupKind.PAIR:
                pairs.append(first)
            elif kind is GroupKind.PUNG or kind is GroupKind.KONG:
                pungs.append(first)
                is_kong = kind is GroupKind.KONG
                if is_kong:
                    kongs.append(first)
                meld = group.meld
                if meld is not None:
                    concealed = meld.is_concealed
                else:
                    # A pung completed by a discard counts as open (shanpon ron), policy: standard [spec §6].
                    concealed = not (ron and position == winning_group)
                if position == winning_group:
                    wait = "shanpon"
                concealed_pungs += concealed
                set_info.append((first, is_kong, concealed))
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.pairs = pairs
        self.pair = pairs[0] if len(pairs) == 1 else None
        self.concealed_pungs = concealed_pungs
        self.set_info = set_info
        if arrangement.shape is Shape.THIRTEEN_ORPHANS:
            wait = "kokushi_13" if arrangement.winning.kind is GroupKind.PAIR else "tanki"
        self.wait = wait
