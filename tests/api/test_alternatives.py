"""The correction flow: every alternative a photo's answer lists is what the referee gets by making its change.

A stub recogniser hands the real reader a hand-made detection set (tests/hand_reader/builder.py) with a tile misread,
so that the reader lists close legal readings; applying an alternative's changes to the answer's tiles and sending
them to /v1/tiles/score (same context) must give that alternative's hand and the points it claims.
"""

from __future__ import annotations

import json

import pytest

from engine import Hand
from engine.hand import hands_equal_ignoring_order
from tests.hand_reader.builder import Table
from vision.recognize import Recognition

from .conftest import PHOTOS

CONTEXT = {"rules": "mcr", "self_drawn": False, "seat_wind": "E", "round_wind": "E"}
MISREAD_4P = {13: [("4p", 0.6), ("1p", 0.35), ("7p", 0.03)]}
SCENES = {  # layout, misread table tiles: each answer lists at least one alternative
    # no tile set apart: /v1/tiles/score takes the alternative's best-scoring standing tile as its winning tile
    "winning_tile_not_set_apart": ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p 4p", MISREAD_4P),
    "winning_tile_set_apart": ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p", MISREAD_4P),
    "standing_tile": ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p 4p", {0: [("1m", 0.6), ("4m", 0.3), ("7p", 0.03)]}),
}


class TableRecognizer:
    def __init__(self, layout: str, misread: dict):
        self.detections, self.size, _ = Table().row(layout).photo(misread=misread)

    def recognize_with_image(self, data: bytes):
        return Recognition(self.detections, *self.size), None


@pytest.mark.parametrize("name", SCENES)
def test_each_alternative_is_the_hand_and_the_points_its_change_gives(client, name):
    reader = client.app.state.reader
    kept = reader.recognizer
    reader.recognizer = TableRecognizer(*SCENES[name])
    try:
        response = client.post("/v1/score", files={"image": ("table.jpg", PHOTOS[0].read_bytes(), "image/jpeg")},
                               data={"context": json.dumps(CONTEXT), "overlay": "false"})
    finally:
        reader.recognizer = kept
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["hand"] is not None and body["alternatives"], body
    request = {"tiles": body["tiles"], "width": body["width"], "height": body["height"], "context": CONTEXT}
    again = client.post("/v1/tiles/score", json=request).json()
    assert again["score"]["total"] == body["score"]["total"]  # the round trip, the tiles unchanged
    for alternative in body["alternatives"]:
        tiles = [dict(t) for t in body["tiles"]]
        for change in alternative["changes"]:
            assert tiles[change["tile_index"]]["code"] == change["from"]
            tiles[change["tile_index"]]["code"] = change["to"]
        answer = client.post("/v1/tiles/score", json={**request, "tiles": tiles}).json()
        assert hands_equal_ignoring_order(Hand.from_json(answer["hand"]), Hand.from_json(alternative["hand"])), \
            (alternative["hand_text"], answer["hand"])
        assert alternative["total"] == answer["score"]["total"], alternative
        assert f"{answer['score']['total']} points instead of {body['score']['total']}" in alternative["description"]
