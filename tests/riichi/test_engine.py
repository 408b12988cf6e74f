"""The riichi scorer's plumbing: shared decomposition, result shape, options, errors, CLI, invariants."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Hand, HandError, arrangements, score_request
from engine.decompose import GroupKind, Shape
from engine.hand import RIICHI_OPTIONS, WinContext
from engine.riichi import RULESETS, score
from engine.riichi.rules import resolve
from engine.riichi.view import HandFacts, readings
from engine.riichi.yaku import YAKUMAN, could_be_yakuman

from .generator import random_deal
from .util import fu_ids, riichi, yaku_han

ROOT = Path(__file__).resolve().parents[2]


def _deals(n: int, seed: int, ruleset: str = "modern"):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        options = {"double_yakuman": rng.random() < 0.5}
        out.append(random_deal(rng, ruleset, options))
    return out


# --- shared decomposition ----------------------------------------------------------------------------------------
def _key_of_arrangement(a):
    standing = tuple((g.kind, g.first) for g in a.groups if g.meld is None)
    win = a.groups[a.winning_group]
    return a.shape, tuple(sorted(standing)), (win.kind, win.first)


def test_readings_are_the_shared_arrangements_for_riichi_shapes():
    """The riichi readings equal engine.decompose.arrangements minus MCR-only shapes and repeated-pair seven pairs."""
    rng = random.Random(11)
    checked = 0
    for hand, context in _deals(600, 3):
        # also shuffle in some non-winning hands: both sides must then be empty
        if rng.random() < 0.2:
            tiles = list(hand.concealed)
            tiles[0] = Hand.parse("1m").concealed[0] if tiles[0].index != 0 else Hand.parse("9s").concealed[0]
            try:
                hand = Hand(tuple(tiles), hand.melds, hand.winning_tile).validate()
            except HandError:
                continue
        facts = HandFacts(hand, context, resolve(context.ruleset, context.options))
        ours = sorted((v.shape, tuple(sorted(v.groups)), v.win) for v in readings(facts))
        shared = sorted(_key_of_arrangement(a) for a in arrangements(hand)
                        if a.shape in (Shape.STANDARD, Shape.THIRTEEN_ORPHANS)
                        or (a.shape is Shape.SEVEN_PAIRS and len({g.first for g in a.groups}) == 7))
        assert ours == shared, hand.format()
        checked += 1
    assert checked > 500


def test_four_identical_tiles_are_not_two_pairs_in_riichi():
    # policy R8 / H2: the shared routine offers 1111m as two pairs (MCR); chiitoitsu needs seven different pairs
    hand = "1111m2233p4455s6z +6z"
    assert any(a.shape is Shape.SEVEN_PAIRS for a in arrangements(Hand.parse(hand)))
    with pytest.raises(HandError) as error:
        riichi(hand)
    assert error.value.code == "not_winning"


def test_the_yakuman_gate_never_hides_a_yakuman():
    for ruleset in ("modern", "zendanshin"):
        for hand, context in _deals(1500, 5, ruleset):
            facts = HandFacts(hand, context, resolve(context.ruleset, context.options))
            for view in readings(facts):
                if not could_be_yakuman(facts, view):
                    assert not [y.id for y in YAKUMAN if y.test(facts, view)], hand.format()


# --- invariants over generated hands -----------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["zendanshin", "modern"])
def test_han_is_the_sum_of_the_lines_and_fu_the_rounded_sum(ruleset):
    for hand, context in _deals(800, 7, ruleset):
        r = score(hand, context)
        if r.yakuman:
            assert r.limit.endswith("yakuman")
            continue
        assert r.han == sum(y.han for y in r.yaku)
        assert r.meets_minimum == any(y.kind == "yaku" for y in r.yaku)
        raw = sum(line.fu for line in r.fu_details)
        assert r.fu == (25 if raw == 25 else -(-raw // 10) * 10)
        if r.meets_minimum:
            p = r.points
            assert p.total == (p.from_discarder if not context.self_drawn else
                               p.from_dealer + 2 * p.from_each_non_dealer if not context.is_dealer else
                               3 * p.from_each_non_dealer)
        else:
            assert r.points.total == 0 and r.limit is None


# --- the JSON contract and the CLI -------------------------------------------------------------------------------
REQUEST = {"hand": {"concealed": "223344m567p67s55p", "winning_tile": "5s"},
           "context": {"rules": "riichi", "riichi": True, "seat_wind": "S", "dora_indicators": ["1m"],
                       "honba": 1, "riichi_sticks": 1}}


def test_result_json_has_the_contract_fields():
    out = score_request(REQUEST)
    assert out["ok"] and out["rules"] == "riichi" and out["ruleset"] == "zendanshin"
    assert (out["han"], out["fu"], out["limit"], out["meets_minimum"]) == (6, 30, "haneman", True)
    assert {y["id"]: y["han"] for y in out["yaku"]} == {"riichi": 1, "tanyao": 1, "pinfu": 1, "iipeikou": 1,
                                                        "dora": 2}
    assert all({"id", "fu", "reason"} <= set(line) for line in out["fu_details"])
    assert out["points"] == {"total": 12000, "from_discarder": 12000, "honba": 300, "sticks": 1000,
                             "grand_total": 13300}
    assert json.loads(json.dumps(out)) == out


@pytest.mark.parametrize("seat_wind, pao", [("E", None), ("S", None), ("E", "right"), ("S", "right")])
def test_a_tsumo_names_from_dealer_and_from_each_non_dealer_even_for_the_dealer(seat_wind, pao):
    # interfaces.md: points has "from_dealer" and "from_each_non_dealer" on a tsumo. A dealer's tsumo left
    # "from_dealer" out; the dealer is the winner and pays nothing, so it is 0 there.
    hand = ({"concealed": "123m9p", "melds": [{"type": "pung", "tiles": "555z", "from": "left"},
                                              {"type": "pung", "tiles": "666z", "from": "across"},
                                              {"type": "pung", "tiles": "777z", "from": "right"}], "winning_tile": "9p"}
            if pao else REQUEST["hand"])
    context = {"rules": "riichi", "self_drawn": True, "seat_wind": seat_wind, "honba": 1}
    if pao:
        context["pao"] = pao
    points = score_request({"hand": hand, "context": context})["points"]
    assert "from_dealer" in points and "from_each_non_dealer" in points and "from_discarder" not in points
    if seat_wind == "E":
        assert points["from_dealer"] == 0
        assert points["total"] == (3 * points["from_each_non_dealer"] if pao is None else points["from_pao"])
    else:
        assert points["total"] == (points["from_dealer"] + 2 * points["from_each_non_dealer"] if pao is None
                                   else points["from_pao"])


def test_cli_scores_riichi_lines_and_answers_bad_lines():
    lines = [json.dumps(REQUEST),
             json.dumps({**REQUEST, "context": {**REQUEST["context"], "ruleset": "modern"}}),
             json.dumps({"hand": {"concealed": "123456789m1234p", "winning_tile": "9p"},
                         "context": {"rules": "riichi"}}),
             json.dumps({**REQUEST, "context": {"rules": "riichi", "ruleset": "tenhou"}})]
    run = subprocess.run([sys.executable, "-m", "engine", "score"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, True, False, False]
    assert answers[0]["points"]["total"] == 12000 and answers[1]["ruleset"] == "modern"
    assert answers[2]["error"]["code"] == "not_winning"
    assert answers[3]["error"]["code"] == "unknown_rules"


@pytest.mark.parametrize("context,code", [
    ({"ruleset": "tenhou"}, "unknown_rules"),
    ({"options": {"red_fives": True}}, "unknown_rules"),
    ({"options": {"aka_dora": "yes"}}, "invalid_context"),
    ({"pao": "behind"}, "invalid_context"),
    ({"blessing": "human", "seat_wind": "E"}, "contradictory_context"),  # renhou is a non-dealer's (R4)
    ({"blessing": "human", "seat_wind": "S", "self_drawn": True}, "contradictory_context"),
    ({"ippatsu": True}, "contradictory_context"),  # ippatsu needs riichi
    ({"kong_replacement": True, "self_drawn": True}, "contradictory_context"),  # no kong in the hand
    ({"self_drawn": True, "robbing_kong": True}, "contradictory_context"),
])
def test_bad_contexts_give_stable_codes(context, code):
    out = score_request({"hand": REQUEST["hand"], "context": {"rules": "riichi", **context}})
    assert not out["ok"] and out["error"]["code"] == code


@pytest.mark.parametrize("context", [
    {"blessing": "human", "seat_wind": "S", "robbing_kong": True},  # 人和: no chi, pon or kan before it [001:169]
    {"blessing": "human", "seat_wind": "S", "last_wall_tile": True},  # 河底 is never in the first go-around
    {"blessing": "earth", "seat_wind": "S", "self_drawn": True, "last_wall_tile": True},  # nor 海底
    {"blessing": "heaven", "seat_wind": "E", "self_drawn": True, "last_wall_tile": True},
])
def test_a_blessing_is_never_on_the_last_tile_or_a_robbed_kong(context):
    # 001:169,173-174: the blessings are first-go-around wins with no call or kong before them; 70 tiles are drawn
    # after the deal [001:14,16], so the first go-around never reaches 海底/河底, and robbing a kong needs a kong
    out = score_request({"hand": REQUEST["hand"], "context": {"rules": "riichi", **context}})
    assert not out["ok"] and out["error"]["code"] == "contradictory_context"



@pytest.mark.parametrize("indicators", [{"dora_indicators": "5p5p5p5p5p"},
                                        {"dora_indicators": "5p5p5p", "ura_dora_indicators": "5p5p"},
                                        {"dora_indicators": "0p", "ura_dora_indicators": "0p"}])
def test_dora_indicators_that_contradict_themselves_are_refused_without_a_hand(indicators):
    # five 5p, or one red 5p twice, among the indicators alone: refused only beside a hand (check_against), so the
    # context passed validate() and /v1/score read the photo before saying so (or never did: no hand read)
    with pytest.raises(HandError) as info:
        WinContext.from_json({"rules": "riichi", **indicators}).validate()
    assert info.value.code == "contradictory_context" and "indicators" in info.value.message
    out = score_request({"hand": REQUEST["hand"], "context": {"rules": "riichi", **indicators}})
    assert out["error"]["code"] == "contradictory_context"


def test_flowers_are_not_used_in_riichi():
    # interfaces.md: "flowers: ... (MCR: 1 point each; riichi: not used)". A riichi hand sent with flowers was refused
    # (flower_in_hand); it is the same hand as without them, and a note says they were left out.
    plain = score_request(REQUEST)
    shown = score_request({"hand": {**REQUEST["hand"], "flowers": ["1f", "6f"]}, "context": REQUEST["context"]})
    assert shown["ok"], shown
    assert {k: v for k, v in shown.items() if k != "notes"} == {k: v for k, v in plain.items() if k != "notes"}
    assert any("flower" in note for note in shown["notes"]) and not any("flower" in n for n in plain["notes"])
    # still a hand's flowers: each exists once, and a playing tile is not one
    for flowers, code in ((["1f", "1f"], "duplicate_flower"), (["1m"], "flower_in_hand")):
        out = score_request({"hand": {**REQUEST["hand"], "flowers": flowers}, "context": REQUEST["context"]})
        assert out["error"]["code"] == code


def test_rinshan_on_the_last_tile_is_contradictory():
    # policy R16: the 海底 drawer cannot declare a kong [001:16]
    out = score_request({"hand": {"concealed": "234m456p78s22z", "melds": [{"type": "kong", "tiles": "9999p",
                                                                           "from": "left"}], "winning_tile": "9s"},
                         "context": {"rules": "riichi", "self_drawn": True, "kong_replacement": True,
                                     "last_wall_tile": True}})
    assert out["error"]["code"] == "contradictory_context"


def test_no_yaku_is_a_zero_point_result_not_an_error():
    # policy R19
    out = score_request({"hand": {"concealed": "123m456p789s46m99s", "melds": [], "winning_tile": "5m"},
                         "context": {"rules": "riichi", "seat_wind": "S"}})
    assert out["ok"] and not out["meets_minimum"] and out["points"]["total"] == 0 and out["yaku"] == []


def test_no_yaku_collects_no_honba_or_riichi_sticks():
    # policy R19 (0 points): no yaku is no win [001:7], and honba and sticks go to the hand's winner [001:36, 001:58]
    out = score_request({"hand": {"concealed": "123m456p789s46m99s", "melds": [], "winning_tile": "5m"},
                         "context": {"rules": "riichi", "seat_wind": "S", "honba": 2, "riichi_sticks": 3}})
    assert not out["meets_minimum"]
    assert (out["points"]["honba"], out["points"]["sticks"], out["points"]["grand_total"]) == (0, 0, 0)
    r = riichi("456p789s23s55p k2222m> +4s", self_drawn=True, kong_replacement=True, seat_wind="S", honba=2,
               riichi_sticks=3)  # rinshan is no yaku in Zendanshin (R21)
    assert not r.meets_minimum and r.points.to_json()["grand_total"] == 0


# --- options, each switchable per request ------------------------------------------------------------------------
def test_every_option_is_a_ruleset_field_and_overrides_it():
    for name in RIICHI_OPTIONS:
        for ruleset in RULESETS.values():
            flipped = resolve(ruleset.name, {name: not getattr(ruleset, name)})
            assert getattr(flipped, name) is (not getattr(ruleset, name))


def test_kuitan_off_removes_open_tanyao():
    assert yaku_han(riichi("456p678s34s88m c234m< +5s", seat_wind="S")) == {"tanyao": 1}
    r = riichi("456p678s34s88m c234m< +5s", seat_wind="S", options={"kuitan": False})
    assert not r.meets_minimum


def test_kan_dora_counts_every_indicator_only_when_on():
    hand = "223344m567p67s55p +5s"
    off = riichi(hand, riichi=True, seat_wind="S", dora_indicators="1m4p")
    on = riichi(hand, riichi=True, seat_wind="S", dora_indicators="1m4p", options={"kan_dora": True})
    assert (yaku_han(off)["dora"], yaku_han(on)["dora"]) == (2, 5)  # 2m 2m, then 5p 5p 5p
    assert any("kan dora" in note for note in off.notes)


def test_kan_ura_indicators_left_out_are_noted():
    # policy R17 / R20: kan ura = the ura indicators beyond the first, counted only with kan_dora on; an input left
    # out is named in the notes. Ura 1m → 2m (one), kan ura 8m → 9m (the pair, two): 1 han with kan_dora off, 3 on.
    hand = "234m567p23478s99m +6s"
    ctx = dict(riichi=True, seat_wind="S", ura_dora_indicators="1m8m")
    off = riichi(hand, **ctx, options={"ura_dora": True})
    on = riichi(hand, **ctx, options={"ura_dora": True, "kan_dora": True})
    assert (yaku_han(off)["ura_dora"], yaku_han(on)["ura_dora"]) == (1, 3)
    assert any("kan ura" in note for note in off.notes) and not any("kan ura" in note for note in on.notes)


def test_double_riichi_is_two_han_in_total():
    # policy R3 and H6: riichi and double_riichi both sent count as double riichi
    r = riichi("223344m567p67s55p +5s", double_riichi=True, riichi=True, seat_wind="S")
    assert yaku_han(r)["double_riichi"] == 2 and "riichi" not in yaku_han(r)


def test_shanpon_ron_pung_is_open_for_fu_and_concealed_pungs():
    # policy R22: the pung completed by the discard counts as open
    ron = riichi("111m333p678s99p55s +9p", seat_wind="S")
    tsumo = riichi("111m333p678s99p55s +9p", seat_wind="S", self_drawn=True)
    assert "sanankou" not in yaku_han(ron) and yaku_han(tsumo)["sanankou"] == 2
    assert fu_ids(ron)["open_pung_terminal"] == 4


def test_the_highest_arrangement_is_kept():
    # policy R18 (高点法): 111222333m as three pungs (sanankou) beats three chows (iipeikou-free) when worth more
    r = riichi("111222333m456p7s +7s", riichi=True, seat_wind="S", self_drawn=True)
    assert "sanankou" in yaku_han(r)
    assert r.view.shape is Shape.STANDARD and all(k is not GroupKind.CHOW for k, f in r.view.groups if f < 9)


def test_dora_do_not_add_to_a_yakuman():
    # policy R24
    r = riichi("1122334455667z +7z", seat_wind="S", dora_indicators="7z", ruleset="modern")
    assert r.yakuman == 1 and all(y.kind == "yakuman" for y in r.yaku) and r.points.total == 32000


# --- bad input never crashes -------------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engine import ERROR_CODES  # noqa: E402

from ..engine.strategies import hands  # noqa: E402

_contexts = st.fixed_dictionaries({"rules": st.just("riichi")}, optional={
    "ruleset": st.sampled_from(["zendanshin", "modern", "tenhou", 3]),
    "self_drawn": st.booleans(), "riichi": st.booleans(), "double_riichi": st.booleans(), "ippatsu": st.booleans(),
    "last_wall_tile": st.booleans(), "kong_replacement": st.booleans(), "robbing_kong": st.booleans(),
    "seat_wind": st.sampled_from(["E", "S", "W", "N", "X"]), "round_wind": st.sampled_from(["E", "S", "1z"]),
    "blessing": st.sampled_from([None, "heaven", "earth", "human", "moon"]),
    "dora_indicators": st.sampled_from(["", "1m", "9p1z", "5z6z7z", "1f", "0m"]),
    "ura_dora_indicators": st.sampled_from(["", "4z", "1m2m"]),
    "honba": st.sampled_from([0, 2, -1, "x"]), "riichi_sticks": st.sampled_from([0, 1, True]),
    "pao": st.sampled_from([None, "left", "across", "right", "up", 1]),
    "options": st.dictionaries(st.sampled_from(list(RIICHI_OPTIONS) + ["nope"]),
                               st.sampled_from([True, False, "yes"]), max_size=3),
})


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hands(), _contexts)
def test_any_input_gives_a_result_or_a_stable_error(hand, context):
    out = score_request({"hand": hand.to_json(), "context": context})
    if out["ok"]:
        assert out["meets_minimum"] == (out["points"]["total"] > 0)
    else:
        assert out["error"]["code"] in ERROR_CODES


def test_winning_hands_with_scrambled_contexts_never_crash():
    rng = random.Random(99)
    flags = ["self_drawn", "riichi", "double_riichi", "ippatsu", "last_wall_tile", "kong_replacement", "robbing_kong"]
    outcomes = set()
    for hand, context in _deals(400, 13):
        data = context.to_json()
        for name in rng.sample(flags, 2):
            data[name] = not data[name]
        data["blessing"] = rng.choice([None, None, "heaven", "earth", "human"])
        data["pao"] = rng.choice([None, None, "left", "across", "right"])
        data["ruleset"] = rng.choice(["zendanshin", "modern"])
        out = score_request({"hand": hand.to_json(), "context": data})
        outcomes.add(out["error"]["code"] if not out["ok"] else "ok")
        if not out["ok"]:
            assert out["error"]["code"] in ERROR_CODES
    assert "ok" in outcomes and "contradictory_context" in outcomes


def test_a_riichi_answer_has_the_success_fields_interfaces_md_gives_every_rule_family():
    """interfaces.md: the success object is ``{"ok", "rules", "total", "fans": [{"id", "name", ..., "points", "count"}],
    "meets_minimum", ...}`` and "Riichi adds han, fu, yaku, ...": a riichi answer had no ``fans``. Its fans are the
    yaku in the fan shape, points x count = han (dora: one han each)."""
    request = {"hand": {"concealed": "123m456p789s11z22z", "winning_tile": "1z"},
               "context": {"rules": "riichi", "ruleset": "modern", "seat_wind": "S", "round_wind": "E",
                           "self_drawn": True, "dora_indicators": ["4z"]}}
    out = score_request(request)
    mcr = score_request({**request, "context": {"rules": "mcr", "seat_wind": "S", "round_wind": "E",
                                                "self_drawn": True}})
    for answer in (out, mcr):
        assert {"ok", "rules", "total", "fans", "meets_minimum"} <= set(answer)
        assert all({"id", "name", "points", "count"} <= set(f) for f in answer["fans"])
    # menzen tsumo 1 + round wind (East) 1 + three dora (indicator North: dora East, the pung of 1z)
    assert {f["id"]: (f["points"], f["count"]) for f in out["fans"]} == {
        "menzen_tsumo": (1, 1), "round_wind": (1, 1), "dora": (1, 3)}
    assert sum(f["points"] * f["count"] for f in out["fans"]) == out["han"] == 5


def _chinese_characters_only(text: str) -> bool:
    """CJK ideographs (and the space of "飜牌 白"): no kana, no iteration mark (々), no long-vowel mark."""
    return bool(text.strip()) and all(c == " " or "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf"
                                      or "\uf900" <= c <= "\ufaff" for c in text)


def test_every_riichi_fan_has_a_name_zh_in_chinese_characters_and_the_keys_of_an_mcr_fan():
    """interfaces.md shows ``name_zh`` in every fan object ("fans": [{"id", "name", "name_zh", "points", "count",
    ...}]); riichi fans had none, so a client reading both families' ``fans`` found it missing under one. Each is the
    seed's kanji name, kana written as characters: 立直 [001:144], 門前清自摸和 [001:145], 断ヤオ九 [001:147] with
    ヤオ = 幺 (ヤオ九牌 [001:111], 幺九牌), 七対子 [001:163], ドラ(懸賞牌) [001:68]."""
    from engine.riichi.yaku import NAMES_ZH, YAKU

    ids = [y.id for y in YAKU + YAKUMAN] + ["dora", "aka_dora", "ura_dora"]
    assert [i for i in ids if not _chinese_characters_only(NAMES_ZH.get(i, ""))] == []
    assert {i: NAMES_ZH[i] for i in ("riichi", "menzen_tsumo", "tanyao", "chiitoitsu", "dora")} == {
        "riichi": "立直", "menzen_tsumo": "門前清自摸和", "tanyao": "断幺九", "chiitoitsu": "七対子", "dora": "懸賞牌"}
    # the same hand under both families: riichi + tsumo + tanyao-free hand with dora, red five and ura dora
    hand = {"concealed": "123m406p789s11z22z", "winning_tile": "1z"}
    out = score_request({"hand": hand, "context": {
        "rules": "riichi", "ruleset": "modern", "seat_wind": "S", "round_wind": "E", "riichi": True,
        "self_drawn": True, "dora_indicators": ["4z"], "ura_dora_indicators": ["9m"]}})
    mcr = score_request({"hand": hand, "context": {"rules": "mcr", "seat_wind": "S", "round_wind": "E",
                                                   "self_drawn": True}})
    assert {f["id"] for f in out["fans"]} >= {"riichi", "menzen_tsumo", "round_wind", "dora", "aka_dora", "ura_dora"}
    for fan in out["fans"]:
        assert fan["name_zh"] == NAMES_ZH[fan["id"]]
    # one key set per family, and the same keys but for each family's own extras (MCR: the fan's definition in
    # words, "what"; riichi: "kind" yaku / yakuman / dora and the loose "tiles" that make it)
    mcr_keys = {frozenset(f) for f in mcr["fans"]}
    riichi_keys = {frozenset(f) for f in out["fans"]}
    assert len(mcr_keys) == len(riichi_keys) == 1
    assert set(*mcr_keys) - {"what"} == set(*riichi_keys) - {"kind", "tiles"}
    assert {"id", "name", "name_zh", "name_ja", "points", "count", "total", "sets"} <= set(*riichi_keys)


def test_r27_ippatsu_never_on_a_kong_replacement():
    """Policy R27: the winner's own kong ends ippatsu, so ippatsu with a rinshan win is contradictory (it was scored,
    1 han under ``modern``); ippatsu with a kong robbed from another player stays possible."""
    hand = {"concealed": "234m567p23s99m", "melds": [{"type": "concealed_kong", "tiles": "1111z"}], "winning_tile": "4s"}
    context = {"rules": "riichi", "ruleset": "modern", "seat_wind": "S", "riichi": True, "ippatsu": True}
    out = score_request({"hand": hand, "context": {**context, "self_drawn": True, "kong_replacement": True}})
    assert not out["ok"] and out["error"]["code"] == "contradictory_context"
    robbed = score_request({"hand": {**hand, "winning_tile": "1s"}, "context": {**context, "robbing_kong": True}})
    assert robbed["ok"] and "ippatsu" in {y["id"] for y in robbed["yaku"]}
