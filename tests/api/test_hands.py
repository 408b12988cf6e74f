"""POST /v1/hands/score against independent truth: the MCR rulebook's worked examples, and the riichi points table."""

from __future__ import annotations

import json

import pytest

from engine import parse_tiles, score_request
from engine.hand import CONTEXT_FIELDS

from tests.conftest import SHARED, missing_shared

RULEBOOK = SHARED / "spec" / "mcr-rulebook-examples.json"


def _rulebook_cases():
    if not RULEBOOK.is_file():
        return []
    return json.loads(RULEBOOK.read_text())["cases"]


def _split(case_hand: dict) -> dict:
    hand = {k: v for k, v in case_hand.items() if k not in CONTEXT_FIELDS}
    context = {k: v for k, v in case_hand.items() if k in CONTEXT_FIELDS}
    return {"hand": hand, "context": {"rules": "mcr", **context}}


def test_rulebook_examples_through_http(client):
    cases = _rulebook_cases()
    if not cases:
        missing_shared("spec/mcr-rulebook-examples.json")
    for case in cases:
        request = _split(case["hand"])
        response = client.post("/v1/hands/score", json=request)
        assert response.status_code == 200, (case["id"], response.text)
        body = response.json()
        # The service adds fields but never changes what the engine decided.
        direct = score_request(request)
        assert body["total"] == direct["total"] and body["fans"] == direct["fans"], case["id"]
        assert body["total"] == sum(f["total"] for f in body["fans"]) + body.get("flowers", 0)


def test_compact_string_and_json_give_the_same_score(client):
    as_json = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2p", "3p"],
               "winning_tile": "4p"}
    a = client.post("/v1/hands/score", json={"hand": as_json, "context": {"rules": "mcr", "self_drawn": True}}).json()
    b = client.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p",
                                             "context": {"rules": "mcr", "self_drawn": True}}).json()
    assert a == b
    assert a["hand"] == {**as_json, "melds": [], "flowers": []}
    assert a["hand_string"] == "123456789m1123p +4p"
    # Pure straight 16 + self-drawn + all chows + one voided suit: what the book gives for this hand.
    assert {f["id"] for f in a["fans"]} >= {"pure_straight", "all_chows"}


def test_fans_name_the_tiles_that_make_them(client):
    body = client.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p", "context": {"rules": "mcr"}}).json()
    straight = next(f for f in body["fans"] if f["id"] == "pure_straight")
    tiles = [str(t) for t in parse_tiles(" ".join(straight["sets"]))]
    assert sorted(tiles) == sorted(f"{n}m" for n in range(1, 10))


def test_riichi_dealer_ron_mangan(client):
    # Riichi + pinfu + ittsu + 1 dora = 5 han: mangan, 12000 from the discarder when the dealer wins on a discard.
    request = {"hand": "123456789m11p23p +4p",
               "context": {"rules": "riichi", "riichi": True, "seat_wind": "E", "dora_indicators": "3m"}}
    body = client.post("/v1/hands/score", json=request).json()
    assert body["rules"] == "riichi" and body["han"] == 5 and body["limit"] == "mangan"
    assert body["points"]["from_discarder"] == 12000
    assert {y["id"] for y in body["yaku"]} >= {"riichi", "pinfu", "ittsu"}


def test_riichi_options_change_the_result(client):
    # One red five with aka_dora on is one more han than with it off.
    base = {"hand": "123406789m11p23p +4p", "context": {"rules": "riichi", "riichi": True, "seat_wind": "S"}}
    off = client.post("/v1/hands/score", json={**base, "context": {**base["context"], "options": {"aka_dora": False}}})
    on = client.post("/v1/hands/score", json={**base, "context": {**base["context"], "options": {"aka_dora": True}}})
    assert off.status_code == on.status_code == 200, (off.text, on.text)
    assert on.json()["han"] == off.json()["han"] + 1


SENT_BACK = [
    ({"concealed": "406m456p678s2s", "winning_tile": "2s", "melds": [{"type": "chow", "tiles": "234s"}]},
     {"rules": "riichi", "options": {"aka_dora": True}}),
    ({"concealed": "123m34p11z789s", "winning_tile": "0p", "flowers": "18f",
      "melds": [{"type": "added_kong", "tiles": "2222s", "from": "across", "claimed": "2s"}]}, {"rules": "mcr"}),
    ({"concealed": "55p", "winning_tile": "5p", "melds": [
        {"type": "chow", "tiles": ["3s", "4s", "5s"], "from": "left", "claimed": "4s"},
        {"type": "pung", "tiles": "777z", "from": "across"}, {"type": "kong", "tiles": "9999p", "from": "right"},
        {"type": "concealed_kong", "tiles": "EEEE"}]}, {"rules": "mcr", "seat_wind": "S"}),
]


@pytest.mark.parametrize("hand,context", SENT_BACK)
def test_the_hand_in_an_answer_can_be_sent_back(client, hand, context):
    # interfaces.md: a client sends back what it received (a corrected reading, a stored hand). The hand JSON and the
    # compact string of an answer read back as the same hand with the same score, and the JSON keeps the contract's
    # shape: codes only (no letter honours), every claimed meld with its 'from', none on a concealed kong.
    first = client.post("/v1/hands/score", json={"hand": hand, "context": context}).json()
    assert first["ok"], first
    for melds in (first["hand"]["melds"],):
        for meld in melds:
            assert ("from" in meld) == (meld["type"] != "concealed_kong"), meld
    for again in (first["hand"], first["hand_string"]):
        second = client.post("/v1/hands/score", json={"hand": again, "context": context}).json()
        assert second == first
