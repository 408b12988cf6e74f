"""Explanations: every yaku and fu line names the groups (``sets``) and loose tiles (``tiles``) that make it, and the
result carries the kept reading as ``arrangement_detail`` (the shape of MCR's ``arrangement``)."""

from __future__ import annotations

import random
from collections import Counter

from engine import Hand, HandError, score_request
from engine.riichi import score
from engine.tiles import parse_tiles

from .generator import random_deal
from .util import riichi


def _yaku(result, yaku_id):
    return next(y for y in result.to_json()["yaku"] if y["id"] == yaku_id)


def _fu(result, line_id):
    return [line for line in result.to_json()["fu_details"] if line["id"] == line_id]


def _codes(item) -> Counter:
    """The multiset of tile codes an explanation names (sets expanded, plus loose tiles)."""
    out = Counter()
    for text in item["sets"]:
        out.update(str(t) for t in parse_tiles(text))
    out.update(item["tiles"])
    return out


def _hand_codes(hand) -> Counter:
    return Counter(str(t) for t in hand.all_tiles())


def test_yakuhai_names_its_pung():
    r = riichi("234m567p23478s99m +6s", self_drawn=True, seat_wind="S")  # no yakuhai: sanity of the helper
    assert "chun" not in {y.id for y in r.yaku}
    r = riichi("234m234p234s5z777z +5z")
    chun = _yaku(r, "chun")
    assert chun["sets"] == ["777z"] and chun["tiles"] == []
    assert _fu(r, "concealed_pung_terminal")[0]["sets"] == ["777z"]
    assert _fu(r, "dragon_pair")[0]["sets"] == ["55z"]
    assert _fu(r, "tanki")[0]["sets"] == ["55z"]


def test_yakuhai_of_an_exposed_pung_and_wind_pungs():
    r = riichi("123m456p9s111z p777z< +9s", seat_wind="E", round_wind="E")
    assert _yaku(r, "chun")["sets"] == ["777z"]
    assert _yaku(r, "seat_wind")["sets"] == ["111z"]
    assert _yaku(r, "round_wind")["sets"] == ["111z"]
    open_pung = _fu(r, "open_pung_terminal")[0]
    assert open_pung["sets"] == ["777z"]
    detail = r.to_json()["arrangement_detail"]
    meld = next(g for g in detail["groups"] if g.get("meld"))
    assert meld == {"kind": "pung", "tiles": ["7z", "7z", "7z"], "meld": "pung", "exposed": True, "concealed": False}


def test_sanshoku_names_three_chows_in_three_suits():
    r = riichi("234m234p234s5z777z +5z")
    sanshoku = _yaku(r, "sanshoku")
    assert sorted(sanshoku["sets"]) == ["234m", "234p", "234s"]


def test_iipeikou_names_the_two_identical_chows_and_dora_the_dora_tiles():
    r = riichi("123m123m456p789s5p +5p", riichi=True, dora_indicators="4p")
    assert _yaku(r, "iipeikou")["sets"] == ["123m", "123m"]
    assert (_yaku(r, "riichi")["sets"], _yaku(r, "riichi")["tiles"]) == ([], ["5p"])
    dora = _yaku(r, "dora")
    assert dora["tiles"] == ["5p", "5p", "5p"] and dora["han"] == 3


def test_red_fives_keep_their_code():
    r = riichi("123456789m11p0s5s +5s", self_drawn=True, options={"aka_dora": True})
    assert _yaku(r, "aka_dora")["tiles"] == ["0s"]
    assert _yaku(r, "ittsu")["sets"] == ["123m", "456m", "789m"]
    assert _fu(r, "concealed_pung_simple")[0]["sets"] == ["055s"]
    assert _yaku(r, "menzen_tsumo")["tiles"] == ["5s"]


def test_the_winning_group_holds_the_winning_tile_itself_red_or_plain():
    # Two 345p chows, one with the red five held, won on a plain 5p: the red five was shown in the winning group
    # (the first of the two equal chows), so the referee saw a red winning tile that was never drawn.
    r = riichi("34p340p123m456s11z +5p", ruleset="modern")
    detail = r.to_json()["arrangement_detail"]
    win = detail["groups"][detail["winning_group"]]
    assert win["tiles"] == ["3p", "4p", "5p"]
    assert sorted("".join(g["tiles"]) for g in detail["groups"] if g["kind"] == "chow" and "4p" in g["tiles"]) \
        == ["3p4p0p", "3p4p5p"]
    # Won on the red five beside a plain 345p held: the red one is in the winning group.
    r = riichi("34p345p123m456s11z +0p", ruleset="modern")
    detail = r.to_json()["arrangement_detail"]
    assert detail["groups"][detail["winning_group"]]["tiles"] == ["3p", "4p", "0p"]
    # A pung or pair still shows its red five first.
    r = riichi("123456789m11p0s5s +5s", self_drawn=True, options={"aka_dora": True})
    assert _fu(r, "concealed_pung_simple")[0]["sets"] == ["055s"]


def test_whole_hand_yaku_name_every_group():
    r = riichi("1199m2288p3377s5z +5z")
    seven = _yaku(r, "chiitoitsu")
    assert sorted(seven["sets"]) == sorted(["11m", "99m", "22p", "88p", "33s", "77s", "55z"])
    assert _fu(r, "chiitoitsu")[0]["sets"] == seven["sets"]
    r = riichi("223344m567p67s55p +5s", riichi=True, seat_wind="S")
    assert _codes(_yaku(r, "tanyao")) == _hand_codes(Hand.parse("223344m567p67s55p +5s"))


def _check(result, hand):
    """Invariants of one scored hand's explanations."""
    out = result.to_json()
    have = _hand_codes(hand)
    detail = out["arrangement_detail"]
    assert Counter(t for g in detail["groups"] for t in g["tiles"]) == have
    assert sum(1 for g in detail["groups"] if g.get("winning")) == 1
    win = detail["groups"][detail["winning_group"]]
    assert hand.winning_tile.index in {t.index for t in parse_tiles("".join(win["tiles"]))}
    for y in out["yaku"]:
        named = _codes(y)
        assert named, y
        if y["kind"] == "dora":
            assert sum(named.values()) == y["han"], y  # one tile per han
            for code, n in named.items():
                assert have[code] >= 1, (y, code)
        else:
            assert not named - have, (y, have)  # every tile named is a tile of the hand
        groups = {_compact(g["tiles"]) for g in detail["groups"]}
        assert all(text in groups for text in y["sets"]), (y, groups)  # sets are groups of the arrangement
        if y["id"] in _SET_COUNTS:
            assert len(y["sets"]) == _SET_COUNTS[y["id"]], y
        if y["id"] in ("sanshoku", "sanshoku_doukou"):
            assert {text[-1] for text in y["sets"]} == {"m", "p", "s"}, y
            assert len({text.replace("0", "5")[0] for text in y["sets"]}) == 1, y
        if y["id"] == "iipeikou":
            assert y["sets"][0].replace("0", "5") == y["sets"][1].replace("0", "5"), y
    for line in out["fu_details"]:
        named = _codes(line)
        assert not named - have, (line, have)
        if "kong" in line["id"]:
            assert len(line["sets"]) == 1 and len(parse_tiles(line["sets"][0])) == 4
        elif "pung" in line["id"] or line["id"].endswith("_pair"):
            assert len(line["sets"]) == 1 and len(parse_tiles(line["sets"][0])) == (3 if "pung" in line["id"] else 2)
            kinds = {t.index for t in parse_tiles(line["sets"][0])}
            assert len(kinds) == 1


_SET_COUNTS = {"sanshoku": 3, "sanshoku_doukou": 3, "iipeikou": 2, "ittsu": 3, "sanankou": 3, "toitoi": 4,
               "haku": 1, "hatsu": 1, "chun": 1, "seat_wind": 1, "round_wind": 1, "daisangen": 3, "shousangen": 3,
               "sankantsu": 3, "suukantsu": 4, "daisuushi": 4, "shousuushi": 4, "suushiihou": 4, "suuankou": 4,
               "chiitoitsu": 7, "honour_seven_pairs": 7, "kokushi": 13, "ryanpeikou": 5, "pinfu": 5}


def _compact(codes):
    from engine.tiles import format_tiles
    return format_tiles(parse_tiles("".join(codes)))


def test_explanations_on_generated_hands():
    rng = random.Random(20261122)
    checked = 0
    for _ in range(1500):
        hand, context = random_deal(rng, rng.choice(["zendanshin", "modern"]))
        try:
            result = score(hand, context)
        except HandError:
            continue
        _check(result, hand)
        checked += 1
    assert checked > 1000


def test_score_request_json_carries_the_explanations():
    out = score_request({"hand": Hand.parse("234m234p234s5z777z +5z").to_json(), "context": {"rules": "riichi"}})
    assert out["ok"]
    assert {"sets", "tiles"} <= set(out["yaku"][0])
    assert {"sets", "tiles"} <= set(out["fu_details"][0])
    assert out["arrangement_detail"]["pair"] == "55z"
    assert isinstance(out["arrangement"], str)  # the existing field is unchanged
