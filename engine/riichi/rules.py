"""Riichi rulesets as data: ``zendanshin`` (the seed, 001) and ``modern`` (Tenhou / WRC / M-League defaults).

A :class:`Ruleset` holds the switchable options of interfaces.md (``aka_dora`` ... ``kiriage``, the names of
``engine.hand.RIICHI_OPTIONS``) and the fixed traits that make the two rule families differ (renhou value, rinshan
yaku, open pinfu-shape fu, double-wind pair fu, what all-honour seven pairs is, the pao list). A request's
``options`` override the switchable part only.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Mapping

from ..errors import HandError
from ..hand import RIICHI_OPTIONS


@dataclass(frozen=True)
class Ruleset:
    name: str
    # --- switchable per request (interfaces.md ``options``) ---
    aka_dora: bool  # red fives are 1 han each
    ura_dora: bool  # ura dora under the indicators, for riichi hands
    kan_dora: bool  # indicators beyond the first (flipped by kongs) count
    ippatsu: bool  # 一発 is a yaku
    kuitan: bool  # open tanyao
    double_yakuman: bool  # double patterns (13-sided kokushi, tanki suuankou, pure nine gates, big four winds) and stacking
    kazoe_yakuman: bool  # 13+ han without yakuman = yakuman (otherwise sanbaiman)
    kiriage: bool  # 4 han 30 fu and 3 han 60 fu round up to mangan
    # --- fixed traits of the ruleset ---
    renhou_han: int  # 人和: zendanshin 4 han [001:169]; modern 5 han (a mangan-valued yaku, as WRC / the peer library)
    rinshan_yaku: bool  # 嶺上開花 as a 1-han yaku (zendanshin: no, a rinshan win is only a tsumo [001:32])
    open_pinfu_fu: int  # fu added to an open pinfu-shaped ron so it reaches 30 (zendanshin 0: stays 20 fu)
    double_wind_pair_fu: int  # a pair of the seat wind that is also the round wind (zendanshin 2 [001:106], modern 4)
    honour_seven_pairs_yakuman: bool  # 字牌七対子 is its own yakuman [001:184]; else it is tsuuiisou
    split_four_winds: bool  # shousuushi / daisuushi apart (modern); zendanshin: one 四喜和 [001:176]
    pao_yakuman: frozenset[str]  # yakuman with liability for a fed meld [001:75-81]

    def options(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in RIICHI_OPTIONS}


ZENDANSHIN = Ruleset(
    name="zendanshin",
    aka_dora=False, ura_dora=False, kan_dora=False, ippatsu=False,  # [001:72-73]
    kuitan=True,  # tanyao has no concealment restriction [001:147]
    double_yakuman=False,  # the limit table stops at one 役満 [001:127]
    kazoe_yakuman=False,  # 十三飜以上 is 三倍満 [001:126]
    kiriage=False,  # 切り上げの切り上げ rounds fu and payments only [001:122]
    renhou_han=4, rinshan_yaku=False, open_pinfu_fu=0, double_wind_pair_fu=2,
    honour_seven_pairs_yakuman=True, split_four_winds=False,
    pao_yakuman=frozenset({"daisangen", "suushiihou", "tsuuiisou", "chinroutou", "ryuuiisou"}),
)

MODERN = Ruleset(
    name="modern",
    aka_dora=True, ura_dora=True, kan_dora=True, ippatsu=True, kuitan=True,
    double_yakuman=False, kazoe_yakuman=True, kiriage=False,
    renhou_han=5, rinshan_yaku=True, open_pinfu_fu=2, double_wind_pair_fu=4,
    honour_seven_pairs_yakuman=False, split_four_winds=True,
    pao_yakuman=frozenset({"daisangen", "daisuushi"}),
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (ZENDANSHIN, MODERN)}
_FIELD_NAMES = {f.name for f in fields(Ruleset)}
assert set(RIICHI_OPTIONS) <= _FIELD_NAMES

_CACHE: dict[tuple, Ruleset] = {}


def resolve(name: str, options: Mapping[str, bool]) -> Ruleset:
    """The named ruleset with the request's option overrides (validated names and booleans)."""
    if not options and name in RULESETS:
        return RULESETS[name]
    key = (name, tuple(sorted(options.items())))
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    base = RULESETS.get(name)
    if base is None:
        raise HandError("unknown_rules", f"unknown riichi ruleset {name!r} (expected one of {', '.join(RULESETS)})")
    for option, value in options.items():
        if option not in RIICHI_OPTIONS:
            raise HandError("unknown_rules", f"unknown riichi option {option!r} (known: {', '.join(RIICHI_OPTIONS)})")
        if not isinstance(value, bool):
            raise HandError("invalid_context", f"option {option!r} must be true or false, not {value!r}")
    ruleset = replace(base, **dict(options)) if options else base
    if len(_CACHE) < 512:
        _CACHE[key] = ruleset
    return ruleset
