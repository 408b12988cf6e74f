"""From han and fu to payments: limits, the dealer / non-dealer split, honba, riichi sticks and pao.

basic = fu × 2^(han + 2): the seed's 和り点 fu × 2^han times the 2 bazoro han [001:7, spec §8]. Limit rows are the
seed's, with its bazoro-inclusive han converted to real han [001:123-127]. Each payment is rounded up to 100
(切り上げの切り上げ [001:122], policy R14).
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Ruleset

# (minimum real han, limit name, basic points): [001:124-127]
LIMITS = ((11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000), (5, "mangan", 2000))
MANGAN_BASIC = 2000
YAKUMAN_BASIC = 8000
LIMIT_NAMES = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman", "double_yakuman", "triple_yakuman",
               "quadruple_yakuman", "quintuple_yakuman", "sextuple_yakuman")


def _round_up(points: int) -> int:
    return -(-points // 100) * 100


def basic_points(han: int, fu: int, yakuman: int, rules: Ruleset) -> tuple[int, str | None]:
    """(basic points, limit name or None) for ``han`` real han (yaku + dora) and ``yakuman`` multiples."""
    if yakuman:
        return YAKUMAN_BASIC * yakuman, LIMIT_NAMES[3 + yakuman]
    if han >= 13 and rules.kazoe_yakuman:
        return YAKUMAN_BASIC, "yakuman"
    for minimum, name, basic in LIMITS:
        if han >= minimum:
            return basic, name
    basic = fu * 2 ** (han + 2)
    if basic >= MANGAN_BASIC:  # the mangan cap: "四十符の六飜" is the first row that reaches it [001:124]
        return MANGAN_BASIC, "mangan"
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN_BASIC, "mangan"
    return basic, None


class Payment(NamedTuple):
    """What the winner gains. ``total`` is the hand itself; honba and sticks are apart (interfaces.md)."""

    total: int
    tsumo: bool
    dealer: bool
    from_discarder: int = 0
    from_dealer: int = 0
    from_each_non_dealer: int = 0
    honba: int = 0
    sticks: int = 0
    pao: str | None = None
    from_pao: int = 0

    def to_json(self) -> dict:
        out: dict = {"total": self.total}
        if self.tsumo:
            out["from_dealer"] = self.from_dealer  # 0 on the dealer's own tsumo: both are named on every tsumo
            out["from_each_non_dealer"] = self.from_each_non_dealer
        else:
            out["from_discarder"] = self.from_discarder
        if self.pao is not None:
            out["pao"] = self.pao
            out["from_pao"] = self.from_pao
        out["honba"] = self.honba
        out["sticks"] = self.sticks
        out["grand_total"] = self.total + self.honba + self.sticks
        return out


def payment(basic: int, *, tsumo: bool, dealer: bool, honba: int, sticks: int, pao: str | None = None) -> Payment:
    """Split ``basic`` between the payers [spec §8, §10, §11].

    Ron: the discarder pays 4× (dealer win 6×). Tsumo: each non-dealer pays 1× (dealer win 2×), the dealer 2×.
    Honba: 100 per honba from each payer, 300 from a discarder [001:58]. Sticks: 1,000 each to the winner [001:36].
    Pao [001:81]: on a tsumo the liable player pays the whole hand (and the honba, policy R11); on a ron the
    discarder and the liable player split it equally and the discarder pays the honba.
    """
    honba_points = 300 * honba
    stick_points = 1000 * sticks
    ron_value = _round_up(basic * (6 if dealer else 4))
    if pao is not None:
        if tsumo:
            return Payment(ron_value, True, dealer, honba=honba_points, sticks=stick_points, pao=pao,
                           from_pao=ron_value)
        half = _round_up(ron_value // 2)
        return Payment(ron_value, False, dealer, from_discarder=ron_value - half, honba=honba_points,
                       sticks=stick_points, pao=pao, from_pao=half)
    if not tsumo:
        return Payment(ron_value, False, dealer, from_discarder=ron_value, honba=honba_points, sticks=stick_points)
    if dealer:
        each = _round_up(2 * basic)
        return Payment(3 * each, True, True, from_each_non_dealer=each, honba=honba_points, sticks=stick_points)
    from_dealer = _round_up(2 * basic)
    each = _round_up(basic)
    return Payment(from_dealer + 2 * each, True, False, from_dealer=from_dealer, from_each_non_dealer=each,
                   honba=honba_points, sticks=stick_points)
