"""Red fives (interfaces.md: `0m 0p 0s` = "red five (riichi aka dora); a 5 of that suit for every other purpose").

The recogniser's classifier has no red-five classes, and the hand reader works on the 34 kinds, so a red five comes
only from a person: a tile corrected to 0m/0p/0s and sent to /v1/tiles/score, or a winning tile named red. Such a tile
must stay red in the hand read from the tiles, in the hands of the alternatives and of the winning-tile choice, and in
their scores; the truth each answer is held to is the engine's own score of the same hand typed with the red five
(/v1/hands/score). A photo read with aka dora on says that its fives were read plain.
"""

from __future__ import annotations

import json

import pytest

from engine import Hand, score_request
from engine.hand import hands_equal_ignoring_order
from tests.hand_reader.builder import Table, detection_of
from vision.recognize import Recognition

from .conftest import PHOTOS

MODERN = {"rules": "riichi", "ruleset": "modern", "riichi": True, "seat_wind": "S", "round_wind": "E"}
OPEN = {**MODERN, "riichi": False}  # a hand with a claimed meld cannot have called riichi


def table_request(layout: str, red: dict[int, str], context: dict, loose: tuple = (), **fields) -> dict:
    """/v1/tiles/score's request for a hand-made table (tests/hand_reader/builder.py) read without error, with the
    table tiles ``red`` (table index -> 0m/0p/0s) sent as red fives; ``red_indices`` maps them to the tiles sent."""
    table = Table().row(layout)
    for code, x, y in loose:
        table.tile(code, x, y)
    detections, (width, height), order = table.photo()
    tiles = detections.to_json()
    indices = {}
    for table_index, code in red.items():
        i = detection_of(order, table_index)
        assert tiles[i]["code"] == "5" + code[1], "a red five is marked on a five of its suit"
        tiles[i]["code"] = code
        indices[table_index] = i
    return {"tiles": tiles, "width": width, "height": height, "context": context, **fields}, indices


def typed_score(client, hand: str, context: dict) -> dict:
    """The independent truth: the engine's score of the hand typed with its red fives (/v1/hands/score)."""
    response = client.post("/v1/hands/score", json={"hand": hand, "context": context})
    assert response.status_code == 200, response.text
    return response.json()


def aka(score: dict) -> int:
    return sum(y["han"] for y in score.get("yaku") or [] if y["id"] == "aka_dora")


@pytest.mark.parametrize("layout, red, hand", [
    # a standing five, the winning tile set apart, a chow's claimed five, a chow's middle five, a pung's five
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p", {12: "0p"}, "234567m234p678s0p +5p"),
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p", {13: "0p"}, "234567m234p678s5p +0p"),
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 5s | 5s | s5p 6p 7p", {11: "0p"}, "234567m234p5s c0*67p< +5s"),
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 5s | 5s | s4p 5p 6p", {12: "0p"}, "234567m234p5s c4*06p< +5s"),
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 8p | 8p | s5s 5s 5s", {13: "0s"}, "234567m234p8p p055s< +8p"),
    # two suits' red fives at once
    ("2m 3m 4m 5m 6m 7m 2p 3p 4p 5s | 5s | s5p 6p 7p", {11: "0p", 9: "0s"}, "234567m234p0s c0*67p< +5s"),
], ids=["concealed", "winning", "chow-claimed", "chow-middle", "pung", "two-suits"])
def test_a_tile_sent_red_stays_red_in_the_hand_and_its_score(client, layout, red, hand):
    context = OPEN if " s" in layout else MODERN  # a sideways tile: a claimed meld
    request, indices = table_request(layout, red, context)
    response = client.post("/v1/tiles/score", json=request)
    assert response.status_code == 200, response.text
    body = response.json()
    assert hands_equal_ignoring_order(Hand.from_json(body["hand"]), Hand.parse(hand)), body["hand"]
    truth = typed_score(client, hand, context)
    assert aka(truth) == len(red)
    assert body["score"]["ok"] and (body["score"]["total"], body["score"]["han"]) == (truth["total"], truth["han"])
    assert aka(body["score"]) == len(red)
    for table_index, code in red.items():  # the role says which face the tile took: the red five
        assert body["tile_roles"][indices[table_index]]["code"] == code


def test_mcr_scores_a_red_five_as_a_plain_five(client):
    context = {"rules": "mcr"}
    layout = "2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p"
    red, _ = table_request(layout, {12: "0p"}, context)
    plain, _ = table_request(layout, {}, context)
    red_body = client.post("/v1/tiles/score", json=red).json()
    plain_body = client.post("/v1/tiles/score", json=plain).json()
    assert red_body["score"]["ok"] and red_body["score"]["total"] == plain_body["score"]["total"]
    assert red_body["score"]["total"] == typed_score(client, "234567m234p678s0p +5p", context)["total"]


def test_a_red_five_left_out_of_the_hand_colours_none_of_it(client):
    # a loose 0p lying away from the hand is clutter: the hand's own fives stay plain (no more reds than marked)
    request, indices = table_request("2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p", {14: "0p"}, MODERN,
                                     loose=(("5p", 6.0, -4.0),))
    body = client.post("/v1/tiles/score", json=request).json()
    assert body["tile_roles"][indices[14]]["role"] == "clutter"
    assert "0p" not in json.dumps(body["hand"]) and aka(body["score"]) == 0
    assert body["score"]["total"] == typed_score(client, "234567m234p678s5p +5p", MODERN)["total"]


def test_a_winning_tile_named_red_is_the_red_five(client):
    request, _ = table_request("2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p", {}, MODERN, winning_tile="0p")
    body = client.post("/v1/tiles/score", json=request).json()
    assert body["hand"]["winning_tile"] == "0p"
    # and the winning tile's role says the red five the hand holds (it said 5p: session 56's audit)
    assert [r["code"] for r in body["tile_roles"] if r["role"] == "winning"] == ["0p"]
    truth = typed_score(client, "234567m234p678s5p +0p", MODERN)
    assert body["score"]["total"] == truth["total"] and aka(body["score"]) == 1


def test_the_winning_tile_chosen_by_score_keeps_the_red_five(client):
    # no tile set apart: every candidate is scored and the best read again; the red 0p is in every candidate's hand
    tokens = "2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p 5p".split()
    request, _ = table_request(" ".join(tokens), {12: "0p"}, MODERN)
    body = client.post("/v1/tiles/score", json=request).json()
    assert "winning_tile_best_scored" in body["warning_codes"]
    codes = list(tokens)
    codes[12] = "0p"
    totals = {}
    for code in sorted(set(tokens)):  # each candidate's total from the engine, the hand typed with its 0p
        rest = list(codes)
        rest.remove(code) if code in rest else rest.remove("0p")
        answer = score_request({"hand": {"concealed": rest, "winning_tile": code if code in codes else "0p"},
                                "context": MODERN})
        if answer["ok"]:
            totals[code] = answer["total"]
    assert {e["winning_tile"]: e["total"] for e in body["score_by_winning_tile"]} == totals
    assert body["score"]["total"] == max(totals.values()) and aka(body["score"]) == 1
    assert [str(t) for t in Hand.from_json(body["hand"]).all_tiles()].count("0p") == 1


def test_an_alternatives_hand_keeps_the_red_five(client):
    # A pung of 5s whose sideways tile the lift model gives 0.5: read as a pung, with the added kong among the
    # alternatives (added_kong_possible); a red 5s of the pung is red in both hands and in the alternative's points.
    request, indices = table_request("2m 3m 4m 5m 6m 7m 2p 3p 4p 8p | 8p | 5s s5s 5s", {12: "0s"}, OPEN)
    claimed = next(i for i, t in enumerate(request["tiles"]) if t["rotation"] % 180 == 90)
    request["tiles"][claimed]["lifted"] = 0.5
    body = client.post("/v1/tiles/score", json=request).json()
    assert hands_equal_ignoring_order(Hand.from_json(body["hand"]), Hand.parse("234567m234p8p p055s^ +8p"))
    assert "added_kong_possible" in body["warning_codes"]
    kong = next(a for a in body["alternatives"] if not a["changes"])
    assert hands_equal_ignoring_order(Hand.from_json(kong["hand"]), Hand.parse("234567m234p8p a0555s^ +8p"))
    assert "0s" in kong["hand_text"]
    truth = typed_score(client, "234567m234p8p a0555s^ +8p", OPEN)
    assert aka(truth) == 1 and kong["total"] == truth["total"]


class TableRecognizer:
    """Stands in for the models: any photo is read as the hand-made table."""

    def __init__(self, layout: str):
        self.detections, self.size, _ = Table().row(layout).photo()

    def recognize_with_image(self, data: bytes):
        return Recognition(self.detections, *self.size), None


def score_photo_as(client, layout: str, context: dict, **fields) -> dict:
    reader = client.app.state.reader
    kept = reader.recognizer
    reader.recognizer = TableRecognizer(layout)
    try:
        response = client.post("/v1/score", files={"image": ("table.jpg", PHOTOS[0].read_bytes(), "image/jpeg")},
                               data={"context": json.dumps(context), "overlay": "false", **fields})
    finally:
        reader.recognizer = kept
    assert response.status_code == 200, response.text
    return response.json()


FIVES = "2m 3m 4m 6m 7m 8m 2p 3p 4p 6s 7s 8s 5p | 5p"  # fives of one suit only
NO_FIVES = "2m 3m 4m 6m 7m 8m 2p 3p 4p 6s 7s 8s 3p | 3p"


@pytest.mark.parametrize("layout, context, warned", [
    (FIVES, MODERN, True),  # aka dora on by the ruleset
    (FIVES, {**MODERN, "ruleset": "zendanshin", "options": {"aka_dora": True}}, True),  # on by the options
    (FIVES, {**MODERN, "options": {"aka_dora": False}}, False),  # off: a red five would count nothing
    (FIVES, {**MODERN, "ruleset": "zendanshin"}, False),  # off by the ruleset
    (FIVES, {"rules": "mcr"}, False),  # MCR: a red five is a plain five
    (NO_FIVES, MODERN, False),  # no five in the hand
], ids=["modern", "option", "option-off", "zendanshin", "mcr", "no-fives"])
def test_a_photo_scored_with_aka_dora_says_its_fives_were_read_plain(client, layout, context, warned):
    body = score_photo_as(client, layout, context)
    assert body["hand"] is not None and body["score"]["ok"]
    assert len(body["warnings"]) == len(body["warning_codes"])
    assert ("red_fives_not_told_apart" in body["warning_codes"]) is warned, body["warnings"]
    if warned:
        warning = body["warnings"][body["warning_codes"].index("red_fives_not_told_apart")]
        assert "5p" in warning and "0p" in warning and "/v1/tiles/score" in warning


def test_the_warning_names_only_the_suits_whose_red_five_is_not_marked(client):
    request, _ = table_request("2m 3m 4m 5m 6m 7m 2p 3p 4p 6s 7s 8s 5p | 5p", {12: "0p"}, MODERN)
    body = client.post("/v1/tiles/score", json=request).json()
    warning = body["warnings"][body["warning_codes"].index("red_fives_not_told_apart")]
    assert "5m" in warning and "0m" in warning and "5p" not in warning
    # a red five among the dora indicators is that suit's: the hand's fives of it are plain
    request["context"] = {**MODERN, "dora_indicators": ["0m"]}
    assert "red_fives_not_told_apart" not in client.post("/v1/tiles/score", json=request).json()["warning_codes"]


def test_the_photo_warning_is_a_documented_code():
    from vision.hand_reader import WARNING_CODES

    assert "red_fives_not_told_apart" in WARNING_CODES


def test_a_red_five_marked_on_the_tiles_is_not_warned_about(client):
    # the referee corrected the 0p: its suit's fives are settled (the other 5p is plain: one red five a suit)
    request, _ = table_request(FIVES, {12: "0p"}, MODERN)
    body = client.post("/v1/tiles/score", json=request).json()
    assert "red_fives_not_told_apart" not in body["warning_codes"]
    # sent back as read, the plain fives still may be red ones: said again
    plain, _ = table_request(FIVES, {}, MODERN)
    assert "red_fives_not_told_apart" in client.post("/v1/tiles/score", json=plain).json()["warning_codes"]


def test_a_photo_with_its_winning_tile_named_red_scores_the_red_five(client):
    body = score_photo_as(client, FIVES, MODERN, winning_tile="0p")
    assert body["hand"]["winning_tile"] == "0p"
    assert body["score"]["total"] == typed_score(client, "234678m234p678s5p +0p", MODERN)["total"]
    assert "red_fives_not_told_apart" not in body["warning_codes"]
