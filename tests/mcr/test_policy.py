"""One test per MCR row of docs/policy.md (M1, M2, ...): each pins the decision on a concrete hand."""

from __future__ import annotations

import pytest

from engine import Hand, HandError, WinContext, read_request
from engine.mcr import EXCLUDES, score


def fans(text: str, **context) -> dict[str, int]:
    return score(Hand.parse(text).validate(), WinContext(**context).validate()).fan_ids


def test_m1_misprinted_exclusions_are_read_as_the_fan_of_the_same_family():
    # 一色四同顺: 一色三同顺 (printed 一色三节高) is not counted.
    assert EXCLUDES["quadruple_chow"] >= {"pure_triple_chow", "pure_double_chow", "tile_hog"}
    got = fans("123123123123m5p +5p")
    assert "quadruple_chow" in got and "pure_triple_chow" not in got and "pure_double_chow" not in got
    # 一色四节高: 一色三节高 (printed 一色三同顺) is not counted.
    got = fans("222333444555m6z +6z")
    assert "four_pure_shifted_pungs" in got and "pure_shifted_pungs" not in got and "all_pungs" not in got


def test_m2_exclusions_are_transitive():
    # 连七对 excludes 清一色, which excludes 无字: no 无字 (the example adds only 断幺 [002:495]).
    got = fans("2233445566778m +8m")
    assert set(got) == {"seven_shifted_pairs", "all_simples"}
    assert "no_honours" in EXCLUDES["seven_shifted_pairs"]


def test_m3_middle_tiles_excludes_all_simples_and_no_honours():
    got = fans("456m456p456s4445m +5m")
    assert "middle_tiles" in got and "all_simples" not in got and "no_honours" not in got


def test_m4_four_concealed_pungs_excludes_all_pungs_and_concealed_hand():
    got = fans("111m222p333s444s5z +5z")
    assert "four_concealed_pungs" in got
    assert not {"all_pungs", "concealed_hand", "three_concealed_pungs", "two_concealed_pungs"} & set(got)


def test_m5_pure_terminal_chows_excludes_no_honours():
    got = fans("1122335778899m +5m")
    assert "pure_terminal_chows" in got and "no_honours" not in got and "full_flush" not in got
    assert "seven_pairs" not in got  # the higher reading is taken; 七对 is another arrangement


def test_m6_no_terminal_pung_for_value_honours():
    # Dragon pung: 箭刻 only; seat/prevalent wind pung: 圈风刻/门风刻 only; other wind: 幺九刻.
    got = fans("555z111z222z789m1p +1p", seat_wind="E", round_wind="S")
    assert got["dragon_pung"] == 1 and got["seat_wind"] == 1 and got["prevalent_wind"] == 1
    assert "pung_of_terminals_or_honours" not in got
    got = fans("444z789m123p456s1m +1m", seat_wind="E", round_wind="E")
    assert got.get("pung_of_terminals_or_honours") == 1
    # 三风刻: no 幺九刻 for its three winds, but a terminal pung beside them keeps one.
    got = fans("111z222z333z999m5p +5p", seat_wind="N", round_wind="N")
    assert got["big_three_winds"] == 1 and got["pung_of_terminals_or_honours"] == 1


def test_m7_waits_count_only_when_the_winning_tile_is_the_only_one():
    assert "closed_wait" in fans("46m789p789s11z234s +5m")
    # 34456 winning on 5: also waits on 2 and ... -> no 坎张 [004:167].
    got = fans("34456m789p11z234s +5m")
    assert not {"closed_wait", "edge_wait", "single_wait"} & set(got)
    # Edge: 12 waiting on 3 only; 12345 winning on 3 is not an edge wait [004:163].
    assert "edge_wait" in fans("12m456p789s11z234s +3m")
    assert "edge_wait" not in fans("12345m789p234s11z +3m")
    # Single wait on a tile, not an extended wait (1234 waits on 1 and 4).
    assert "single_wait" in fans("123m456p789s123s5z +5z")
    assert "single_wait" not in fans("1234m456p789s123s +4m")
    # The other wait is a kind the hand holds all four of: the wait is unique.
    got = fans("666m8999s k7777m< x7777s +8s", self_drawn=True)
    assert got.get("single_wait") == 1


def test_m8_pure_honour_and_terminal_fans_are_judged_on_the_tiles():
    assert {"all_honours", "seven_pairs"} <= set(fans("1122334455667z +7z"))
    assert {"all_terminals", "seven_pairs", "tile_hog"} <= set(fans("111199m1199p119s +9s"))
    assert {"all_terminals_and_honours", "seven_pairs"} <= set(fans("1199m1199p11s225z +5z"))


def test_m9_self_drawn_special_shapes_add_fully_concealed_hand():
    got = fans("1122334455667z +7z", self_drawn=True)
    assert got.get("fully_concealed_hand") == 1 and "self_drawn" not in got and "concealed_hand" not in got
    got = fans("19m19p19s1234567z +1m", self_drawn=True)
    assert got == {"thirteen_orphans": 1, "fully_concealed_hand": 1}


def test_m10_replacement_and_last_draw_keep_fully_concealed_hand():
    got = fans("123m456p789s1z x2222s +1z", self_drawn=True, kong_replacement=True)
    assert {"out_with_replacement_tile", "fully_concealed_hand"} <= set(got) and "self_drawn" not in got
    got = fans("123m456p789s23s11z +1s", self_drawn=True, last_wall_tile=True)
    assert {"last_tile_draw", "fully_concealed_hand"} <= set(got) and "self_drawn" not in got


def test_m11_all_green_adds_the_flushes():
    assert {"all_green", "half_flush"} <= set(fans("22233344466s66z +6z"))
    got = fans("2223334446668s +8s")
    assert {"all_green", "full_flush"} <= set(got) and "no_honours" not in got


def test_m12_nine_gates_needs_the_pure_thirteen_and_counts_no_terminal_pung():
    got = fans("1112345678999p +2p")
    assert "nine_gates" in got and "pung_of_terminals_or_honours" not in got and "full_flush" not in got
    # The final tiles alone are not enough: 1112345678999 must be the hand before the win.
    assert "nine_gates" not in fans("1112345678899p +9p")
    assert "nine_gates" not in fans("2345678999p c12*3p< +1p")


def test_m13_all_terminals_may_add_double_and_triple_pung():
    got = fans("11m999s11s p111p> p999p^ +1m")
    assert got["all_terminals"] == 1 and got["double_pung"] == 2


def test_m14_one_melded_and_one_concealed_kong_is_six_points():
    result = score(Hand.parse("123m456p7z k1111s< x9999m +7z").validate(), WinContext().validate())
    ids = result.fan_ids
    assert ids["two_melded_kongs"] == 1 and ids["concealed_kong"] == 1
    kong_points = sum(f.points for f in result.fans if f.fan.id in ("two_melded_kongs", "concealed_kong"))
    assert kong_points == 6


def test_m15_three_and_four_kongs_add_the_concealed_kong_fans():
    got = fans("123m5z x1111s x9999p k2222z< +5z")
    assert got["three_kongs"] == 1 and got["two_concealed_kongs"] == 1
    assert not {"two_concealed_pungs", "melded_kong", "two_melded_kongs"} & set(got)
    got = fans("5z x1111s k9999p< k2222z< a3333m> +5z")
    assert got["four_kongs"] == 1 and got["concealed_kong"] == 1
    assert not {"all_pungs", "three_kongs", "single_wait", "melded_kong", "two_melded_kongs"} & set(got)


def test_m16_equal_totals_prefer_pure_double_chow_then_mixed_then_short_straight():
    # 清龙 with a fourth 456: the fourth chow pairs once, as 一般高 (or 连六, 老少副) [002:613].
    got = fans("12344556789s22p +6s")
    assert got.get("pure_double_chow") == 1 and "short_straight" not in got
    # Edge before closed before single when readings tie (77 + 789 or 789 + 7 to the pair).
    assert "edge_wait" in fans("7789m c6*78m< p333m< x4444m +7m")


def test_m17_shifted_chows_step_by_one_or_two_uniformly():
    assert "pure_shifted_chows" in fans("123345567m456p1z +1z")
    assert "pure_shifted_chows" in fans("123234345m456p1z +1z")
    assert "pure_shifted_chows" not in fans("123234456m789p1z +1z")


def test_m18_knitted_straight_inside_lesser_honours_and_greater_excludes_lesser():
    got = fans("369m258s147p4567z +1z")
    assert {"lesser_honours_and_knitted_tiles", "knitted_straight"} <= set(got)
    got = fans("14m25s36p1234567z +9p")
    assert "greater_honours_and_knitted_tiles" in got and "lesser_honours_and_knitted_tiles" not in got


CHICKEN = "34p44z c12*3m< p888p^ p666s>"  # the book's layout: a chow, two pungs, North pair, two-sided wait [000:1053]


def test_m19_chicken_hand_ignores_flowers_and_a_self_drawn_hand_is_never_one():
    result = score(Hand.parse(CHICKEN + " 1f +2p").validate(), WinContext().validate())
    assert result.fan_ids == {"chicken_hand": 1, "flower_tiles": 1} and result.total == 9
    got = fans(CHICKEN + " +5p", self_drawn=True)
    assert got == {"self_drawn": 1}


def test_m20_flowers_add_one_each_outside_the_minimum():
    result = score(Hand.parse(CHICKEN + " 1234f +2p").validate(), WinContext(self_drawn=True).validate())
    assert result.flowers == 4 and result.fan_points == 1 and not result.meets_minimum
    assert result.total == 5
    assert result.to_json()["warnings"]


def test_m21_payments():
    result = score(Hand.parse(CHICKEN + " 12f +2p").validate(), WinContext().validate())
    assert result.total == 10
    assert result.payments() == {"self_drawn": False, "from_discarder": 18, "from_each_other": 8, "winner_receives": 34}
    result = score(Hand.parse("123m456p789s23s11z +1s").validate(), WinContext(self_drawn=True).validate())
    each = 8 + result.total
    assert result.payments() == {"self_drawn": True, "from_each": each, "winner_receives": 3 * each}


def test_m22_last_tile():
    assert "last_tile" in fans("123m456p789s11z23s +1s", last_tile=True)
    # Three copies shown in the winner's own melds: it is the last one.
    assert "last_tile" in fans("1255m p333m< c3*45p< c4*56s< +3m")
    with pytest.raises(HandError) as error:
        fans("123m456p789s111z1s +1s", last_tile=True)
    assert error.value.code == "contradictory_context"
    # Robbing the kong excludes it.
    got = fans("123m456p789s11z23s +1s", last_tile=True, robbing_kong=True)
    assert "robbing_the_kong" in got and "last_tile" not in got


def test_m23_a_chow_may_omit_from():
    hand, context = read_request({"hand": {"concealed": "456p789s11z23s", "winning_tile": "1s",
                                           "melds": [{"type": "chow", "tiles": "123m"}]}, "context": {"rules": "mcr"}})
    assert "mixed_shifted_chows" not in score(hand, context).fan_ids
    assert score(hand, context).total > 0


def test_m24_replacement_on_the_last_wall_tile_scores_both():
    got = fans("123m456p789s1z x2222s +1z", self_drawn=True, kong_replacement=True, last_wall_tile=True)
    assert {"out_with_replacement_tile", "last_tile_draw"} <= set(got)


def test_m27_melded_hand_needs_four_claimed_sets_and_a_discard():
    got = fans("5z c12*3m< p888p^ p333s> k4444s^ +5z")
    assert got.get("melded_hand") == 1 and "single_wait" not in got
    assert "melded_hand" not in fans("5z c12*3m< p888p^ p333s> k4444s^ +5z", self_drawn=True)
    assert "melded_hand" not in fans("5z c12*3m< p888p^ p333s> x4444s +5z")


def test_m28_all_terminals_and_honours_needs_both():
    assert "all_terminals_and_honours" in fans("111m999p11s111z22z +2z")
    got = fans("111222333444z5z +5z")
    assert "all_honours" in got and "all_terminals_and_honours" not in got
    got = fans("111m999m111p999p1s +1s")
    assert "all_terminals" in got and "all_terminals_and_honours" not in got


def test_m29_four_melded_kongs_on_a_discard_score_four_kongs_and_melded_hand():
    got = fans("k1111m< k2222p^ k3333s> k4444z< 5z +5z")
    assert got.get("four_kongs") == 1 and got.get("melded_hand") == 1 and "single_wait" not in got


def test_m30_no_edge_or_closed_wait_on_a_knitted_tile():
    # 1m, the only winning tile, completes the knitted 147m: no 边张 / 坎张 (nor 单调将: the pair 55z is whole)
    got = fans("47m258p369s123m55z +1m")
    assert "knitted_straight" in got and not {"edge_wait", "closed_wait", "single_wait"} & set(got)


def test_m31_fans_no_list_excludes_are_counted():
    assert {"knitted_straight", "all_chows"} <= set(fans("147m258p369s5p c123m< +5p"))  # [000:981]
    assert {"seven_pairs", "all_types"} <= set(fans("1133m55p77s1122z6z +6z"))
    got = fans("111z222z333z4z789m +4z", seat_wind="E", round_wind="S")
    assert {"little_four_winds", "seat_wind", "prevalent_wind"} <= set(got) and "big_three_winds" not in got


def test_every_answer_points_at_all_the_mcr_rows_of_the_policy_table():
    # The answer's "policy" names the rows of docs/policy.md that hold its choices: it said M1-M28 after M29-M31
    # were added.
    import re
    from pathlib import Path

    table = (Path(__file__).resolve().parents[2] / "docs" / "policy.md").read_text(encoding="utf-8")
    last = max(int(n) for n in re.findall(r"^\| M(\d+) \|", table, flags=re.M))
    answer = score(Hand.parse("123456789m11p23p +4p").validate(), WinContext().validate()).to_json()
    assert f"docs/policy.md rows M1-M{last}" in answer["policy"], answer["policy"]
