"""Zendanshin rules [001] as the seed states them, each case with the rule it pins (riichi-zendanshin.md).

Expected numbers come from the seed text and the spec's worked tables (§8), not from the engine.
"""

from __future__ import annotations

import pytest

from engine import HandError
from engine.riichi import dora_of
from engine.riichi.points import basic_points, payment
from engine.riichi.rules import ZENDANSHIN

from .util import fu_ids, riichi, yaku_han


# --- §8 worked numbers: basic = fu × 2^(han+2), limits with bazoro-inclusive han [001:7, 001:122-127] ------------
# (fu, han, non-dealer ron, dealer ron, non-dealer tsumo (each non-dealer, dealer), dealer tsumo (each))
WORKED = [
    (20, 1, 700, 1000, None, None),  # open tanyao all chows, ron
    (30, 1, 1000, 1500, None, None),  # riichi only, concealed ron
    (20, 2, None, None, (400, 700), 700),  # pinfu tsumo, 和り点 80 [001:136-137]
    (25, 2, 1600, 2400, (400, 800), 800),  # chiitoitsu, 和り点 100, dealer ×1.5 [001:138-139]
    (30, 4, 7700, 11600, (2000, 3900), 3900),  # no kiriage
    (25, 4, 6400, 9600, (1600, 3200), 3200),
    (40, 4, 8000, 12000, (2000, 4000), 4000),  # the mangan line "四十符の六飜" [001:124]
    (70, 3, 8000, 12000, (2000, 4000), 4000),  # the mangan cap
    (60, 3, 7700, 11600, (2000, 3900), 3900),
]


@pytest.mark.parametrize("fu,han,nd_ron,d_ron,nd_tsumo,d_tsumo", WORKED)
def test_worked_numbers_of_the_spec(fu, han, nd_ron, d_ron, nd_tsumo, d_tsumo):
    basic, _ = basic_points(han, fu, 0, ZENDANSHIN)
    if nd_ron is not None:
        assert payment(basic, tsumo=False, dealer=False, honba=0, sticks=0).from_discarder == nd_ron
        assert payment(basic, tsumo=False, dealer=True, honba=0, sticks=0).from_discarder == d_ron
    if nd_tsumo is not None:
        p = payment(basic, tsumo=True, dealer=False, honba=0, sticks=0)
        assert (p.from_each_non_dealer, p.from_dealer) == nd_tsumo
        assert payment(basic, tsumo=True, dealer=True, honba=0, sticks=0).from_each_non_dealer == d_tsumo


@pytest.mark.parametrize("han,fu,limit,nd_ron", [
    (5, 20, "mangan", 8000), (6, 30, "haneman", 12000), (7, 30, "haneman", 12000), (8, 30, "baiman", 16000),
    (10, 30, "baiman", 16000), (11, 30, "sanbaiman", 24000), (13, 30, "sanbaiman", 24000),
    (20, 30, "sanbaiman", 24000),  # 十三飜以上 (bazoro-inclusive) is 三倍満: no kazoe yakuman [001:126]
])
def test_limit_rows_count_the_bazoro(han, fu, limit, nd_ron):
    basic, name = basic_points(han, fu, 0, ZENDANSHIN)
    assert name == limit
    assert payment(basic, tsumo=False, dealer=False, honba=0, sticks=0).from_discarder == nd_ron


def test_yakuman_is_32000_and_48000():
    basic, name = basic_points(13, 30, 1, ZENDANSHIN)  # 四倍満 (役満) [001:127]
    assert name == "yakuman"
    assert payment(basic, tsumo=False, dealer=False, honba=0, sticks=0).total == 32000
    assert payment(basic, tsumo=False, dealer=True, honba=0, sticks=0).total == 48000


# --- full hands --------------------------------------------------------------------------------------------------
def test_pinfu_tsumo_is_20_fu_2_han():
    # 001:136-137: pinfu 1 + tsumo 1, 20 fu, 和り点 80; no tsumo fu
    r = riichi("234m567p23478s99m +6s", self_drawn=True, seat_wind="S")
    assert (r.fu, r.han) == (20, 2)
    assert yaku_han(r) == {"menzen_tsumo": 1, "pinfu": 1}
    assert fu_ids(r) == {"pinfu_tsumo": 20}
    assert (r.points.from_each_non_dealer, r.points.from_dealer) == (400, 700)


def test_chiitoitsu_is_25_fu_2_han_and_dealer_gets_half_more():
    # 001:138-139: 25 fu, 2 han, 和り点 100, 親五割増し
    r = riichi("1199m2288p3377s5z +5z", seat_wind="E")
    assert (r.fu, r.han, r.points.from_discarder) == (25, 2, 2400)
    r = riichi("1199m2288p3377s5z +5z", seat_wind="S")
    assert r.points.from_discarder == 1600
    r = riichi("1199m2288p3377s5z +5z", seat_wind="S", self_drawn=True)
    assert r.fu == 25 and "tsumo" not in fu_ids(r)  # no tsumo fu for chiitoitsu [001:101]
    assert (r.han, r.points.from_each_non_dealer, r.points.from_dealer) == (3, 800, 1600)


def test_thirty_fu_four_han_is_7700_without_kiriage():
    # 001:122: 切り上げの切り上げ, no mangan round-up
    r = riichi("223344m567p67s55p +5s", riichi=True, seat_wind="S")
    assert (r.fu, r.han, r.limit, r.points.from_discarder) == (30, 4, None, 7700)
    r = riichi("223344m567p67s55p +5s", riichi=True, seat_wind="S", options={"kiriage": True})
    assert (r.limit, r.points.from_discarder) == ("mangan", 8000)


def test_open_pinfu_shaped_ron_is_20_fu():
    # 001:98-120 as written: no 30-fu rule for an open hand (policy R2)
    r = riichi("456p678s34s88m c234m< +5s", seat_wind="S")
    assert (r.fu, r.han, r.points.from_discarder) == (20, 1, 700)
    assert riichi("456p678s34s88m c234m< +5s", seat_wind="E").points.from_discarder == 1000
    modern = riichi("456p678s34s88m c234m< +5s", seat_wind="S", ruleset="modern")
    assert (modern.fu, modern.points.from_discarder) == (30, 1000)


def test_open_tanyao_is_allowed():
    # 001:147: no concealment restriction on 断ヤオ九
    r = riichi("456p678s34s88m c234m< +5s", seat_wind="S")
    assert yaku_han(r) == {"tanyao": 1}


def test_renhou_is_four_han_and_adds_to_other_yaku():
    # 001:169: 人和 4 han, not a limit hand
    r = riichi("123m456p789s13p99s +2p", seat_wind="S", blessing="human")
    assert yaku_han(r) == {"renhou": 4}
    assert (r.fu, r.limit, r.points.from_discarder) == (40, "mangan", 8000)
    r = riichi("1199m2288p3377s5z +5z", seat_wind="S", blessing="human")
    assert yaku_han(r) == {"chiitoitsu": 2, "renhou": 4} and r.limit == "haneman"
    assert yaku_han(riichi("123m456p789s13p99s +2p", seat_wind="S", blessing="human", ruleset="modern")) == {"renhou": 5}


def test_all_honour_seven_pairs_is_its_own_yakuman():
    # 001:184: 字牌七対子
    r = riichi("1122334455667z +7z", seat_wind="S")
    assert yaku_han(r) == {"honour_seven_pairs": 13} and r.points.total == 32000
    assert yaku_han(riichi("1122334455667z +7z", seat_wind="S", ruleset="modern")) == {"tsuuiisou": 13}


@pytest.mark.parametrize("hand", [
    "111222333z44z12m +3m",  # three wind pungs and a wind pair (small)
    "111z1m p222z< p333z^ p444z> +1m",  # four wind pungs (big)
])
def test_small_and_big_four_winds_are_one_yakuman(hand):
    # 001:176: 四喜和, one wind may be the pair
    r = riichi(hand, seat_wind="S")
    assert yaku_han(r) == {"suushiihou": 13} and r.points.total == 32000
    for ruleset in ("modern", "zendanshin"):  # with options.double_yakuman, four wind pungs are double (R5)
        big_double = riichi(hand, seat_wind="S", ruleset=ruleset, options={"double_yakuman": True})
        assert big_double.points.total == (64000 if "p444z" in hand else 32000)


def test_all_green_with_or_without_green_dragon():
    # 001:178: 緑一色 (發 optional); green tiles: policy R7
    assert yaku_han(riichi("2233444466688s +8s", seat_wind="S")) == {"ryuuiisou": 13}
    assert yaku_han(riichi("2233446688s666z +8s", seat_wind="S")) == {"ryuuiisou": 13}
    assert "ryuuiisou" not in yaku_han(riichi("2233444466677s +7s", seat_wind="S"))


def test_thirteen_orphans_and_nine_gates_single_wait_no_bonus():
    # 001:181-182: a single wait is fine, and a 13-sided / 9-sided wait is worth no more
    thirteen_sided = riichi("19m19p19s1234567z +1m", seat_wind="S")
    single = riichi("119m19p19s123456z +7z", seat_wind="S")
    assert yaku_han(thirteen_sided) == yaku_han(single) == {"kokushi": 13}
    assert thirteen_sided.points.total == single.points.total == 32000
    nine_sided = riichi("1112345678999m +5m", seat_wind="S")
    other = riichi("1112345678999m +9m", seat_wind="S")
    assert yaku_han(nine_sided) == yaku_han(other) == {"chuuren": 13}
    # modern with double yakuman on: the pure forms are double
    assert riichi("19m19p19s1234567z +1m", seat_wind="S", ruleset="modern",
                  options={"double_yakuman": True}).points.total == 64000


def test_rinshan_is_only_a_tsumo_with_two_fu():
    # 001:32: a rinshan win is a self-drawn win (+2 fu); 嶺上開花 is not in the yaku list
    hand = "234m456p78s22z k9999p< +9s"
    r = riichi(hand, self_drawn=True, kong_replacement=True, seat_wind="S")
    assert "rinshan" not in yaku_han(r) and not r.meets_minimum
    assert fu_ids(r)["tsumo"] == 2
    modern = riichi(hand, self_drawn=True, kong_replacement=True, seat_wind="S", ruleset="modern")
    assert yaku_han(modern) == {"rinshan": 1}


def test_ippatsu_only_as_an_option():
    # 001:73: 一発 is a tournament option
    r = riichi("223344m567p67s55p +5s", riichi=True, ippatsu=True, seat_wind="S")
    assert "ippatsu" not in yaku_han(r) and any("ippatsu" in note for note in r.notes)
    r = riichi("223344m567p67s55p +5s", riichi=True, ippatsu=True, seat_wind="S", options={"ippatsu": True})
    assert yaku_han(r)["ippatsu"] == 1


def test_no_red_fives_ura_or_kan_dora_by_default():
    # 001:72: 赤ドラ, 裏ドラ, 槓ドラ: none
    hand = "223344m067p67s55p +5s"
    ctx = dict(riichi=True, seat_wind="S", dora_indicators="1m2m", ura_dora_indicators="4p")
    r = riichi(hand, **ctx)
    assert yaku_han(r) == {"riichi": 1, "tanyao": 1, "pinfu": 1, "iipeikou": 1, "dora": 2}  # 1m → two 2m
    r = riichi(hand, **ctx, options={"aka_dora": True, "ura_dora": True, "kan_dora": True})
    assert yaku_han(r) == {"riichi": 1, "tanyao": 1, "pinfu": 1, "iipeikou": 1, "dora": 4, "aka_dora": 1,
                           "ura_dora": 3}  # 2m → two 3m; 4p → 5p 5p and the red 5p


def test_dora_cycles_as_the_seed_says():
    # 001:69: numbers 9 → 1, winds 北 → 東, dragons 中 → 白
    assert [dora_of(i) for i in (0, 8, 26, 27, 30, 31, 33)] == [1, 0, 18, 28, 27, 32, 31]


def test_dora_do_not_make_the_minimum():
    # 001:7, 001:70: 一飜しばり; dora is not a yaku
    r = riichi("234m456p78s22z k9999p< +9s", seat_wind="S", dora_indicators="1z")
    assert not r.meets_minimum and r.points.total == 0
    assert yaku_han(r) == {"dora": 2}


def test_double_wind_pung_is_two_han_and_pair_two_fu():
    # 001:141: 連風牌 pung 2 han; 001:106: 連風牌 pair 2 fu (policy R1)
    r = riichi("111z234m456p789s5p +5p", seat_wind="E", round_wind="E")
    assert yaku_han(r) == {"seat_wind": 1, "round_wind": 1}
    r = riichi("234m456p789s567m1z +1z", seat_wind="E", round_wind="E", riichi=True)
    assert fu_ids(r)["double_wind_pair"] == 2 and r.fu == 40  # 20 + 10 + 2 + tanki 2 = 34 → 40
    modern = riichi("234m456p789s567m1z +1z", seat_wind="E", round_wind="E", riichi=True, ruleset="modern")
    assert fu_ids(modern)["double_wind_pair"] == 4


@pytest.mark.parametrize("hand,yaku,closed_han,open_hand,open_han", [
    # 001:159-161: 一気通貫, 全帯ヤオ, 三色同順 1 han open; 001:165-166: 混一色, 純正全帯ヤオ 2 open; 001:171 清一色 5 open
    ("123456789m11p23s +1s", "ittsu", 2, "456789m11p23s c123m< +1s", 1),
    ("123m789p123s11z99s +9s", "chanta", 2, "789p123s11z99s c123m< +9s", 1),
    ("234m234p234s789s1p +1p", "sanshoku", 2, "234p234s789s1p c234m< +1p", 1),
    ("123m456m789m22z11m +1m", "honitsu", 3, "456m789m22z11m c123m< +1m", 2),
    ("123m789p123s99s11p +1p", "junchan", 3, "789p123s99s11p c123m< +1p", 2),
    ("1234555567899m +9m", "chinitsu", 6, "4555567899m c123m< +9m", 5),
])
def test_open_hands_lose_one_han(hand, yaku, closed_han, open_hand, open_han):
    assert yaku_han(riichi(hand, seat_wind="S"))[yaku] == closed_han
    assert yaku_han(riichi(open_hand, seat_wind="S"))[yaku] == open_han


def test_concealed_only_yaku_need_a_concealed_hand():
    # 001:146, 151, 163, 167: pinfu, iipeikou, chiitoitsu, ryanpeikou are concealed only
    assert "iipeikou" in yaku_han(riichi("223344m567p67s55p +5s", seat_wind="S"))
    assert "iipeikou" not in yaku_han(riichi("234m567p67s55p c234m< +5s", seat_wind="S"))


def test_ryanpeikou_replaces_iipeikou_and_beats_chiitoitsu():
    r = riichi("223344m556677p5s +5s", seat_wind="S")
    assert yaku_han(r) == {"tanyao": 1, "ryanpeikou": 3}


def test_sanbaiman_for_eleven_han_and_more():
    # 001:126: 十三飜以上 (bazoro-inclusive) = 三倍満; no kazoe yakuman
    r = riichi("1122335577889m +9m", seat_wind="S", riichi=True, self_drawn=True, dora_indicators="9m")
    # as 123m 123m 55m 789m 789m: riichi 1 + tsumo 1 + pinfu 1 + ryanpeikou 3 + chinitsu 6 + dora 2 (1m 1m) = 14,
    # above chiitoitsu's 12
    assert r.han == 14 and r.limit == "sanbaiman" and r.points.total == 24000
    modern = riichi("1122335577889m +9m", seat_wind="S", riichi=True, self_drawn=True, dora_indicators="9m",
                    ruleset="modern", options={"kazoe_yakuman": True})
    assert modern.han == 14 and modern.limit == "yakuman" and modern.points.total == 32000


def test_several_yakuman_pay_one():
    # 001:127: the table stops at 四倍満 (policy R5)
    r = riichi("111222333444z5z +5z", seat_wind="S", self_drawn=True)  # four winds + all honours + four concealed
    assert r.yakuman == 1 and r.points.total == 32000 and len([y for y in r.yaku if y.kind == "yakuman"]) >= 3


def test_honba_and_riichi_sticks():
    # 001:58: 100 per honba from each payer (300 from a discarder); 001:36: sticks of 1,000 go to the winner
    r = riichi("223344m567p67s55p +5s", riichi=True, seat_wind="S", honba=2, riichi_sticks=3)
    assert r.points.to_json() == {"total": 7700, "from_discarder": 7700, "honba": 600, "sticks": 3000,
                                  "grand_total": 11300}
    r = riichi("234m567p23478s99m +6s", self_drawn=True, seat_wind="S", honba=1)
    assert (r.points.from_each_non_dealer, r.points.from_dealer, r.points.honba) == (400, 700, 300)


# --- pao [001:75-81] ---------------------------------------------------------------------------------------------
def test_pao_tsumo_the_liable_player_pays_everything():
    r = riichi("123m9p p555z< p666z^ p777z> +9p", self_drawn=True, seat_wind="S", pao="right", honba=1)
    assert r.points.to_json() == {"total": 32000, "from_dealer": 0, "from_each_non_dealer": 0, "pao": "right",
                                  "from_pao": 32000, "honba": 300, "sticks": 0, "grand_total": 32300}


def test_pao_ron_is_split_equally_and_the_discarder_pays_honba():
    r = riichi("123m9p p555z< p666z^ p777z> +9p", seat_wind="S", pao="right", honba=1)
    p = r.points
    assert (p.from_discarder, p.from_pao, p.honba) == (16000, 16000, 300)


def test_pao_for_all_green_includes_a_chow():
    # 001:80: the fourth meld, chi or pon
    r = riichi("8s666z c234s< p666s^ p222s> +8s", seat_wind="S", self_drawn=True, pao="left")
    assert "ryuuiisou" in yaku_han(r) and r.points.from_pao == 32000


@pytest.mark.parametrize("hand,pao", [
    ("123m9p p555z< p666z^ p777z> +9p", "across_wrong"),
    ("123m456p789s11z23m +1m", "left"),  # no yakuman at all
    ("123m9p p555z< p666z^ p777z> +9p", "right_but_modern_four_kongs"),
])
def test_pao_without_a_liable_meld_is_contradictory(hand, pao):
    if pao == "across_wrong":
        with pytest.raises(HandError) as error:
            riichi("123m9p p555z< p666z^ x7777z +9p", seat_wind="S", pao="right")
    elif pao == "left":
        with pytest.raises(HandError) as error:
            riichi(hand, seat_wind="S", pao="left")
    else:
        with pytest.raises(HandError) as error:
            riichi("1m k1111z< k2222z^ k3333z> k4444p< +1m", seat_wind="S", pao="left", ruleset="modern")
    assert error.value.code == "contradictory_context"


def test_pao_four_winds_only_for_the_fourth_wind_pung():
    # 001:77: the pon of the fourth wind set; small four winds (a wind pair) has no liability
    big = riichi("5z p111z< p222z^ p333z> p444z< +5z",
                 seat_wind="S", self_drawn=True, pao="left")
    assert "suushiihou" in yaku_han(big) and big.points.from_pao == 32000
    with pytest.raises(HandError) as error:
        riichi("44z11m p111z< p222z^ p333z> +1m", seat_wind="S", self_drawn=True, pao="left")
    assert error.value.code == "contradictory_context"


@pytest.mark.parametrize("hand,yaku", [
    ("4z555z p111z< p222z^ p666z> +4z", "tsuuiisou"),  # 001:78: 字一色
    ("9s111s p111m< p999m^ p111p> +9s", "chinroutou"),  # 001:79: 清老頭
])
def test_pao_for_all_honours_and_all_terminals(hand, yaku):
    r = riichi(hand, seat_wind="S", pao="right", self_drawn=True)
    assert yaku in yaku_han(r) and r.points.from_pao == 32000
    with pytest.raises(HandError):  # modern: pao only for big three dragons and big four winds
        riichi(hand, seat_wind="S", pao="right", self_drawn=True, ruleset="modern")


@pytest.mark.parametrize("hand,pao,yaku", [
    ("55z123m99p p666z< p777z^ +5z", "across", "daisangen"),  # the third dragon set came with the win, not a pon
    ("44z55z p111z< p222z^ p666z> +4z", "right", "tsuuiisou"),  # the fourth honour set came with the win
    ("99s11s p111m< p999m^ p111p> +9s", "right", "chinroutou"),  # the fourth terminal set came with the win
    ("223344s88s66s c234s< +6s", "left", "ryuuiisou"),  # the fourth set (666s) came with the win
])
def test_pao_needs_the_fed_meld_to_complete_the_yakuman_before_the_win(hand, pao, yaku):
    # 001:76-80: liability is for letting the player pon the third dragon / fourth honour or terminal kind, or call
    # the fourth set of all green. When the winning tile itself completes that last set no call did, so nobody is
    # liable: a pao given anyway is contradictory, as for a hand with no fed meld (policy R11).
    for self_drawn in (True, False):
        assert yaku in yaku_han(riichi(hand, seat_wind="S", self_drawn=self_drawn))
        with pytest.raises(HandError) as error:
            riichi(hand, seat_wind="S", self_drawn=self_drawn, pao=pao)
        assert error.value.code == "contradictory_context"



def test_r25_a_robbed_kong_is_taken_as_given():
    # Kokushi robbing a kong: whether the robbed kong was concealed (Zendanshin forbids that [001:26]) is not in the
    # context; the hand scores as any robbed kong
    r = riichi("9m19p19s11234567z +1m", seat_wind="S", robbing_kong=True)
    assert yaku_han(r) == {"kokushi": 13} and r.points.total == 32000


def test_r26_pao_on_stacked_yakuman_pays_the_whole_hand():
    hand = "111z2z p555z< p666z^ p777z> +2z"  # 大三元 + 字一色, the third dragon fed from the right
    r = riichi(hand, self_drawn=True, seat_wind="S", pao="right", options={"double_yakuman": True})
    assert yaku_han(r) == {"daisangen": 13, "tsuuiisou": 13} and r.points.from_pao == r.points.total == 64000
    assert riichi(hand, self_drawn=True, seat_wind="S", pao="right").points.from_pao == 32000  # one yakuman's limit
