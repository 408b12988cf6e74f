"""Fu as data: the seed's fu table [001:98-120] as rows, and one :class:`FuLine` per fu source of a hand.

Special cases [001:136-139]: chiitoitsu is 25 fu flat; a concealed pinfu won by tsumo is 20 fu flat (no tsumo fu).
The modern ruleset adds 2 fu to an open pinfu-shaped ron (30 fu) and counts a double-wind pair 4; the seed counts
20 and 2 (policy R1, R2).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..decompose import Shape
from ..tiles import format_tiles
from .view import TERMINAL_OR_HONOUR, HandFacts, View


@dataclass(frozen=True, slots=True)
class FuLine:
    id: str
    fu: int
    reason: str
    source: str
    # What the line is about (filled in for the kept reading only, by :func:`.explain.explain_fu`): the groups
    # (pung / kong, pair, the winning group of a wait) and loose tiles (the winning tile of tsumo / menzen ron).
    sets: tuple = ()
    tiles: tuple = ()

    def to_json(self) -> dict:
        return {"id": self.id, "fu": self.fu, "reason": self.reason, "source": self.source,
                "sets": [format_tiles(s) for s in self.sets], "tiles": [str(t) for t in self.tiles]}


# (is terminal or honour, is kong, concealed) -> the table's row [001:110-117]
SET_FU = {
    (False, False, False): FuLine("open_pung_simple", 2, "open pung of simples", "001:110"),
    (False, False, True): FuLine("concealed_pung_simple", 4, "concealed pung of simples", "001:110"),
    (True, False, False): FuLine("open_pung_terminal", 4, "open pung of terminals or honours", "001:112"),
    (True, False, True): FuLine("concealed_pung_terminal", 8, "concealed pung of terminals or honours", "001:112"),
    (False, True, False): FuLine("open_kong_simple", 8, "open kong of simples", "001:115"),
    (False, True, True): FuLine("concealed_kong_simple", 16, "concealed kong of simples", "001:115"),
    (True, True, False): FuLine("open_kong_terminal", 16, "open kong of terminals or honours", "001:117"),
    (True, True, True): FuLine("concealed_kong_terminal", 32, "concealed kong of terminals or honours", "001:117"),
}
WAIT_FU = {
    "penchan": FuLine("penchan", 2, "edge wait (辺張)", "001:118"),
    "kanchan": FuLine("kanchan", 2, "closed wait (嵌張)", "001:119"),
    "tanki": FuLine("tanki", 2, "single wait (単騎)", "001:120"),
}
_DRAGON_PAIR = FuLine("dragon_pair", 2, "pair of dragons", "001:104")
_ROUND_PAIR = FuLine("round_wind_pair", 2, "pair of the round wind", "001:105")
_SEAT_PAIR = FuLine("seat_wind_pair", 2, "pair of the seat wind", "001:107")
_DOUBLE_WIND_PAIR = {2: FuLine("double_wind_pair", 2, "pair of the double wind (連風牌), one line", "001:106 (R1)"),
                     4: FuLine("double_wind_pair", 4, "pair of the double wind: seat 2 + round 2", "modern (R1)")}
_OPEN_PINFU = {2: FuLine("open_pinfu", 2, "open pinfu-shaped ron raised to 30 fu", "modern (R2)")}
_BASE = FuLine("base", 20, "base (副底)", "001:98")
_CHIITOITSU = FuLine("chiitoitsu", 25, "seven pairs, flat", "001:138")
_PINFU_TSUMO = FuLine("pinfu_tsumo", 20, "pinfu won by self-draw, flat (no tsumo fu)", "001:136-137")
_MENZEN_RON = FuLine("menzen_ron", 10, "concealed hand won on a discard (門前清栄和)", "001:99")
_TSUMO = FuLine("tsumo", 2, "self-draw (ツモ; a rinshan win counts as one)", "001:100-101, 001:32")


def pair_fu(h: HandFacts, pair: int) -> FuLine | None:
    if pair >= 31:
        return _DRAGON_PAIR
    if pair == h.seat:
        return _DOUBLE_WIND_PAIR[h.rules.double_wind_pair_fu] if pair == h.round else _SEAT_PAIR
    if pair == h.round:
        return _ROUND_PAIR
    return None


def compute_fu(h: HandFacts, v: View, pinfu: bool) -> tuple[int, list[FuLine]]:
    """(fu rounded up to 10, one line per fu source)."""
    if v.shape is Shape.SEVEN_PAIRS:
        return 25, [_CHIITOITSU]
    if pinfu and h.tsumo:
        return 20, [_PINFU_TSUMO]
    lines = [_BASE]
    if h.closed and not h.tsumo:
        lines.append(_MENZEN_RON)
    if h.tsumo:
        lines.append(_TSUMO)
    for index, is_kong, concealed in v.set_info:
        lines.append(SET_FU[(TERMINAL_OR_HONOUR[index], is_kong, concealed)])
    if v.pair is not None:
        line = pair_fu(h, v.pair)
        if line is not None:
            lines.append(line)
    wait = WAIT_FU.get(v.wait)
    if wait is not None:
        lines.append(wait)
    total = sum(line.fu for line in lines)
    if total == 20 and not h.closed and not h.tsumo and h.rules.open_pinfu_fu:
        lines.append(_OPEN_PINFU[h.rules.open_pinfu_fu])
        total += h.rules.open_pinfu_fu
    return (total + 9) // 10 * 10, lines
