"""The yaku and yakuman, as data: one :class:`Yaku` row per entry with its han and a predicate.

Han are the seed's [001:134-184] before bazoro; ``han_open`` 0 means concealed only. A row's predicate sees the
hand facts ``h`` and the arrangement view ``v`` (:mod:`engine.riichi.view`); ruleset differences are read from
``h.rules``. ``excludes`` names rows that a present row replaces (junchan replaces chanta, ...), so no precedence
chain is needed. A yakuman row has ``yakuman`` = how many yakuman it is worth when double yakuman are on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..decompose import Shape
from .view import TERMINAL, TERMINAL_OR_HONOUR, HandFacts, View

Predicate = Callable[[HandFacts, View], bool]


@dataclass(frozen=True)
class Yaku:
    id: str
    name: str
    name_ja: str
    han_closed: int
    han_open: int  # 0: concealed only
    test: Predicate
    source: str  # citation of the seed line, or "modern" for rows only the modern ruleset has
    excludes: tuple[str, ...] = ()
    yakuman: int = 0  # 0: ordinary yaku; 1 or 2: yakuman (2 only when double yakuman are on)
    han_rule: str | None = None  # a Ruleset field that gives the han instead of han_closed (renhou)
    # What the predicate reads, so that rows are skipped where they cannot hold: "hand" (context and tiles only,
    # tested once per hand), "chows" / "pungs" / "honour_pungs" (tested only for arrangements with chows / pungs or
    # kongs / honour pungs or kongs), "shape" (any arrangement).
    scope: str = "shape"

    def han(self, closed: bool) -> int:
        return self.han_closed if closed else self.han_open


# --- helpers ---------------------------------------------------------------------------------------------------
def _standard(v: View) -> bool:
    return v.shape is Shape.STANDARD


def _all_groups_have(v: View, table: tuple[bool, ...]) -> bool:
    """Every set and the pair hold a tile of ``table`` (terminal-or-honour, or terminal)."""
    return (all(table[c] or table[c + 2] for c in v.chows) and all(table[p] for p in v.pungs)
            and v.pair is not None and table[v.pair])


def _identical_chow_pairs(v: View) -> int:
    chows = sorted(v.chows)
    pairs = 0
    i = 0
    while i + 1 < len(chows):
        if chows[i] == chows[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _sanshoku(starts: list[int]) -> bool:
    """The same chow (or pung) start in all three suits."""
    return any(s + 9 in starts and s + 18 in starts for s in starts if s < 9)


def _ittsu(v: View) -> bool:
    chows = v.chows
    return any(s in chows and s + 3 in chows and s + 6 in chows for s in (0, 9, 18))


def _pinfu(h: HandFacts, v: View) -> bool:
    """Concealed, four chows, a pair worth no fu, a two-sided wait (policy R9)."""
    return (h.closed and len(v.chows) == 4 and v.pair is not None and v.pair not in h.value_tiles
            and v.wait == "ryanmen")


def _dragon_pungs(v: View) -> int:
    return v.dragon_pungs


def _wind_pungs(v: View) -> int:
    return v.wind_pungs


def _nine_gates(h: HandFacts) -> bool:
    if not h.closed or h.hand.melds or len(h.suits) != 1 or h.has_honours:
        return False
    base = 9 * next(iter(h.suits))
    c = h.counts[base:base + 9]
    return c[0] >= 3 and c[8] >= 3 and all(n >= 1 for n in c)


def _pure_nine_gates(h: HandFacts) -> bool:
    """The 13 tiles before the win were 1112345678999: a nine-sided wait."""
    base = 9 * next(iter(h.suits))
    c = list(h.counts[base:base + 9])
    c[h.winning - base] -= 1
    return c == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _double(h: HandFacts) -> bool:
    return h.rules.double_yakuman


def _ctx(name: str) -> Predicate:
    return lambda h, v: bool(getattr(h.context, name))


def _dragon_pung(index: int) -> Predicate:
    return lambda h, v: index in v.pungs


# --- the table -------------------------------------------------------------------------------------------------
YAKU: tuple[Yaku, ...] = (
    # 1 han
    Yaku("riichi", "Riichi", "立直", 1, 0, lambda h, v: h.context.riichi and not h.context.double_riichi, "001:144", scope="hand"),
    Yaku("double_riichi", "Double riichi", "ダブルリーチ", 2, 0, _ctx("double_riichi"), "001:162 (R3)",
         excludes=("riichi",), scope="hand"),
    Yaku("ippatsu", "Ippatsu", "一発", 1, 0, lambda h, v: h.context.ippatsu and h.rules.ippatsu, "001:73 (option)", scope="hand"),
    Yaku("menzen_tsumo", "Fully concealed self-draw", "門前清自摸和", 1, 0, lambda h, v: h.tsumo, "001:145", scope="hand"),
    Yaku("pinfu", "Pinfu", "平和", 1, 0, _pinfu, "001:146 (R9)", scope="chows"),
    Yaku("tanyao", "All simples", "断ヤオ九", 1, 1, lambda h, v: h.all_simples and (h.closed or h.rules.kuitan),
         "001:147", scope="hand"),
    Yaku("haitei", "Last tile from the wall", "海底撈月", 1, 1, lambda h, v: h.context.last_wall_tile and h.tsumo,
         "001:148", scope="hand"),
    Yaku("houtei", "Last discard", "河底撈魚", 1, 1, lambda h, v: h.context.last_wall_tile and not h.tsumo, "001:149", scope="hand"),
    Yaku("chankan", "Robbing a kong", "槍槓", 1, 1, _ctx("robbing_kong"), "001:150", scope="hand"),
    Yaku("rinshan", "After a kong", "嶺上開花", 1, 1, lambda h, v: h.context.kong_replacement and h.rules.rinshan_yaku,
         "modern (not a yaku in 001:32)", scope="hand"),
    Yaku("iipeikou", "Pure double chow", "一盃口", 1, 0, lambda h, v: _identical_chow_pairs(v) >= 1, "001:151", scope="chows"),
    Yaku("haku", "White dragon", "飜牌 白", 1, 1, _dragon_pung(31), "001:140", scope="honour_pungs"),
    Yaku("hatsu", "Green dragon", "飜牌 發", 1, 1, _dragon_pung(32), "001:140", scope="honour_pungs"),
    Yaku("chun", "Red dragon", "飜牌 中", 1, 1, _dragon_pung(33), "001:140", scope="honour_pungs"),
    Yaku("seat_wind", "Seat wind", "飜牌 門風", 1, 1, lambda h, v: h.seat in v.pungs, "001:140-141", scope="honour_pungs"),
    Yaku("round_wind", "Round wind", "飜牌 圏風", 1, 1, lambda h, v: h.round in v.pungs, "001:140-141", scope="honour_pungs"),
    # 2 han
    Yaku("toitoi", "All pungs", "対々和", 2, 2, lambda h, v: _standard(v) and len(v.pungs) == 4, "001:153", scope="pungs"),
    Yaku("honroutou", "All terminals and honours", "混老頭", 2, 2,
         lambda h, v: h.all_terminal_honour, "001:154", scope="hand"),
    Yaku("sanankou", "Three concealed pungs", "三暗刻", 2, 2, lambda h, v: v.concealed_pungs == 3, "001:155", scope="pungs"),
    Yaku("sanshoku_doukou", "Triple pung", "三色同刻", 2, 2, lambda h, v: len(v.pungs) >= 3 and _sanshoku(v.pungs),
         "001:156", scope="pungs"),
    Yaku("shousangen", "Little three dragons", "小三元", 2, 2,
         lambda h, v: _dragon_pungs(v) == 2 and v.pair is not None and v.pair >= 31, "001:157", scope="honour_pungs"),
    Yaku("sankantsu", "Three kongs", "三槓子", 2, 2, lambda h, v: len(v.kongs) == 3, "001:158", scope="pungs"),
    Yaku("ittsu", "Pure straight", "一気通貫", 2, 1, lambda h, v: len(v.chows) >= 3 and _ittsu(v), "001:159", scope="chows"),
    Yaku("chanta", "Outside hand", "全帯ヤオ", 2, 1,
         lambda h, v: bool(v.chows) and h.has_honours and _all_groups_have(v, TERMINAL_OR_HONOUR), "001:160", scope="chows"),
    Yaku("sanshoku", "Mixed triple chow", "三色同順", 2, 1, lambda h, v: len(v.chows) >= 3 and _sanshoku(v.chows),
         "001:161", scope="chows"),
    Yaku("chiitoitsu", "Seven pairs", "七対子", 2, 0, lambda h, v: v.shape is Shape.SEVEN_PAIRS, "001:163"),
    # 3 han
    Yaku("honitsu", "Half flush", "混一色", 3, 2, lambda h, v: len(h.suits) == 1 and h.has_honours, "001:165", scope="hand"),
    Yaku("junchan", "Terminals in all sets", "純正全帯ヤオ", 3, 2,
         lambda h, v: bool(v.chows) and not h.has_honours and _all_groups_have(v, TERMINAL), "001:166",
         excludes=("chanta",), scope="chows"),
    Yaku("ryanpeikou", "Twice pure double chow", "二盃口", 3, 0, lambda h, v: _identical_chow_pairs(v) == 2,
         "001:167", excludes=("iipeikou",), scope="chows"),
    Yaku("renhou", "Blessing of man", "人和", 4, 0, lambda h, v: h.context.blessing == "human", "001:169 (R4)",
         han_rule="renhou_han", scope="hand"),
    # 6 han
    Yaku("chinitsu", "Full flush", "清一色", 6, 5, lambda h, v: len(h.suits) == 1 and not h.has_honours, "001:171",
         excludes=("honitsu",), scope="hand"),
)

YAKUMAN: tuple[Yaku, ...] = (
    Yaku("tenhou", "Blessing of heaven", "天和", 13, 0, lambda h, v: h.context.blessing == "heaven", "001:173",
         yakuman=1),
    Yaku("chiihou", "Blessing of earth", "地和", 13, 0, lambda h, v: h.context.blessing == "earth", "001:174",
         yakuman=1),
    Yaku("daisangen", "Big three dragons", "大三元", 13, 13, lambda h, v: _dragon_pungs(v) == 3, "001:175",
         yakuman=1),
    # Zendanshin: small and big four winds are one yakuman [001:176]; modern splits them.
    Yaku("suushiihou", "Four winds", "四喜和", 13, 13,
         lambda h, v: not h.rules.split_four_winds and (
             (_wind_pungs(v) == 4 and not _double(h))
             or (_wind_pungs(v) == 3 and v.pair is not None and 27 <= v.pair <= 30)), "001:176 (R5)", yakuman=1),
    Yaku("suushiihou_double", "Four winds, four wind pungs (double)", "四喜和", 26, 26,
         lambda h, v: not h.rules.split_four_winds and _wind_pungs(v) == 4 and _double(h),
         "001:176 with options.double_yakuman", yakuman=2),
    Yaku("shousuushi", "Little four winds", "小四喜", 13, 13,
         lambda h, v: h.rules.split_four_winds and _wind_pungs(v) == 3 and v.pair is not None and 27 <= v.pair <= 30,
         "modern", yakuman=1),
    Yaku("daisuushi", "Big four winds", "大四喜", 13, 13,
         lambda h, v: h.rules.split_four_winds and _wind_pungs(v) == 4 and not _double(h), "modern", yakuman=1),
    Yaku("daisuushi_double", "Big four winds (double)", "大四喜", 26, 26,
         lambda h, v: h.rules.split_four_winds and _wind_pungs(v) == 4 and _double(h), "modern", yakuman=2),
    Yaku("tsuuiisou", "All honours", "字一色", 13, 13,
         lambda h, v: h.all_honours and (v.shape is Shape.STANDARD or not h.rules.honour_seven_pairs_yakuman),
         "001:177 (R6)", yakuman=1),
    Yaku("honour_seven_pairs", "All-honour seven pairs", "字牌七対子", 13, 0,
         lambda h, v: h.all_honours and v.shape is Shape.SEVEN_PAIRS and h.rules.honour_seven_pairs_yakuman,
         "001:184 (R6)", yakuman=1),
    Yaku("ryuuiisou", "All green", "緑一色", 13, 13, lambda h, v: h.all_green, "001:178 (R7)", yakuman=1),
    Yaku("chinroutou", "All terminals", "清老頭", 13, 13, lambda h, v: h.all_terminals, "001:179", yakuman=1),
    Yaku("suuankou", "Four concealed pungs", "四暗刻", 13, 0,
         lambda h, v: v.concealed_pungs == 4 and not (_double(h) and v.wait == "tanki"), "001:180", yakuman=1),
    Yaku("suuankou_tanki", "Four concealed pungs, single wait", "四暗刻単騎", 26, 0,
         lambda h, v: v.concealed_pungs == 4 and _double(h) and v.wait == "tanki", "modern", yakuman=2),
    Yaku("kokushi", "Thirteen orphans", "十三ヤオ九", 13, 0,
         lambda h, v: v.shape is Shape.THIRTEEN_ORPHANS and not (_double(h) and v.wait == "kokushi_13"), "001:181",
         yakuman=1),
    Yaku("kokushi_13", "Thirteen orphans, 13-sided wait", "国士無双十三面", 26, 0,
         lambda h, v: v.shape is Shape.THIRTEEN_ORPHANS and _double(h) and v.wait == "kokushi_13", "modern",
         yakuman=2),
    Yaku("chuuren", "Nine gates", "九蓮宝燈", 13, 0,
         lambda h, v: _nine_gates(h) and not (_double(h) and _pure_nine_gates(h)), "001:182", yakuman=1),
    Yaku("junsei_chuuren", "Pure nine gates", "純正九蓮宝燈", 26, 0,
         lambda h, v: _nine_gates(h) and _double(h) and _pure_nine_gates(h), "modern", yakuman=2),
    Yaku("suukantsu", "Four kongs", "四槓子", 13, 13, lambda h, v: len(v.kongs) == 4, "001:183", yakuman=1),
)



def could_be_yakuman(h: HandFacts, v: View) -> bool:
    """A cheap necessary condition of every YAKUMAN row, so that ordinary hands skip the table.

    ``tests/riichi/test_engine.py`` checks on generated hands that no yakuman row holds where this is false.
    """
    return (v.concealed_pungs == 4 or v.dragon_pungs == 3 or v.wind_pungs >= 3 or len(v.kongs) == 4
            or v.shape is Shape.THIRTEEN_ORPHANS or h.all_honours or h.all_green or h.all_terminals
            or (h.context.blessing is not None and h.context.blessing != "human")
            or (h.closed and not h.has_honours and len(h.suits) == 1))


def _rows(table: tuple[Yaku, ...], scope: str, closed: bool) -> tuple[Yaku, ...]:
    return tuple(y for y in table if y.scope == scope and (closed or y.han_open))


# The table split by scope and concealment, once, so the scorer's loops hold only rows that can apply.
ROWS = {(scope, closed): _rows(YAKU, scope, closed) for scope in ("hand", "chows", "pungs", "honour_pungs", "shape")
        for closed in (True, False)}
YAKUMAN_ROWS = {closed: tuple(y for y in YAKUMAN if closed or y.han_open) for closed in (True, False)}

BY_ID: dict[str, Yaku] = {y.id: y for y in YAKU + YAKUMAN}
ALL_IDS = tuple(BY_ID)

# name_zh of each line (interfaces.md shows one in every fan object, and MCR's fans carry it): the name written in
# Chinese characters only. Riichi has no Chinese rulebook (MCR's name_zh are seed 002's simplified names), so these
# are the seed's own kanji names [001:134-184], in its (Japanese) forms of the characters, with each kana written as
# the character it stands for: ヤオ 幺 (ヤオ九牌 [001:111]), リーチ 立直 [001:35], ドラ 懸賞牌 ("ドラ(懸賞牌)"
# [001:68]), 赤パイ 赤牌 [001:72], 々 as the character it repeats. ダブル has no character in the seed: 両 ("both",
# as 両立直 is written). Keyed by id, the dora lines too; tests/riichi/test_engine.py checks every row has one.
NAMES_ZH: dict[str, str] = {
    "riichi": "立直", "double_riichi": "両立直", "ippatsu": "一発", "menzen_tsumo": "門前清自摸和", "pinfu": "平和",
    "tanyao": "断幺九", "haitei": "海底撈月", "houtei": "河底撈魚", "chankan": "槍槓", "rinshan": "嶺上開花",
    "iipeikou": "一盃口", "haku": "飜牌 白", "hatsu": "飜牌 發", "chun": "飜牌 中", "seat_wind": "飜牌 門風",
    "round_wind": "飜牌 圏風", "toitoi": "対対和", "honroutou": "混老頭", "sanankou": "三暗刻",
    "sanshoku_doukou": "三色同刻", "shousangen": "小三元", "sankantsu": "三槓子", "ittsu": "一気通貫",
    "chanta": "全帯幺", "sanshoku": "三色同順", "chiitoitsu": "七対子", "honitsu": "混一色", "junchan": "純正全帯幺",
    "ryanpeikou": "二盃口", "renhou": "人和", "chinitsu": "清一色",
    "tenhou": "天和", "chiihou": "地和", "daisangen": "大三元", "suushiihou": "四喜和", "suushiihou_double": "四喜和",
    "shousuushi": "小四喜", "daisuushi": "大四喜", "daisuushi_double": "大四喜", "tsuuiisou": "字一色",
    "honour_seven_pairs": "字牌七対子", "ryuuiisou": "緑一色", "chinroutou": "清老頭", "suuankou": "四暗刻",
    "suuankou_tanki": "四暗刻単騎", "kokushi": "十三幺九", "kokushi_13": "国士無双十三面", "chuuren": "九蓮宝燈",
    "junsei_chuuren": "純正九蓮宝燈", "suukantsu": "四槓子",
    "dora": "懸賞牌", "aka_dora": "赤牌", "ura_dora": "裏懸賞牌",
}
