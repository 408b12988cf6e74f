"""Session 70's reader change (docs/rules-session70.md, K70): two concealed kongs laid all face down side by side
make eight backs in a line; split clearly in the middle they are the two kongs, not a piece of the wall."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hand import Hand
from tests.hand_reader.builder import Table, detection_of
from vision.hand_reader import read_hand
from vision.reading.compare import same_hand

HAND = "6m 6m 6z 6z 6z 7z 7z | 6m"  # seven standing tiles, the winning tile set apart; the kongs from x = 9.4


def _two_kongs(middle: float, inner: float = -0.05) -> Table:
    """The hand, then two fours of backs whose own backs lie ``inner`` tile widths apart and ``middle`` between them."""
    table = Table().row(HAND)
    x = 9.4
    for _kong in range(2):
        for _back in range(4):
            table.tile("d", x=x + 0.5, y=-0.5)
            x += 1.0 + inner
        x += middle - inner
    return table


def _read(table: Table, turn: int):
    detections, size, order = table.photo(turn=turn)
    first = read_hand(detections, size)
    request = next((r for r in first.requests if r["field"] == "concealed_kong_tiles"), None)
    return first, request, detections, size, order


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_two_concealed_kongs_face_down_side_by_side_are_read_as_two_kongs(turn):
    # 8771 000016: the kongs 0.10 tile widths apart, their backs closer among themselves (-0.09 .. -0.02)
    table = _two_kongs(middle=0.10)
    first, request, detections, size, order = _read(table, turn)
    assert request is not None and request["count"] == 2, first.warnings
    # answer each box group with the face of the kong it lies on: the first four backs (table tiles 8-11) are 2m
    def centre(boxes) -> np.ndarray:
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        return (boxes[:, :2] + boxes[:, 2:]).mean(axis=0) / 2

    first_kong = centre([detections.boxes[detection_of(order, k)] for k in range(8, 12)])
    second_kong = centre([detections.boxes[detection_of(order, k)] for k in range(12, 16)])
    faces = ["2m" if np.linalg.norm(centre(boxes) - first_kong) < np.linalg.norm(centre(boxes) - second_kong)
             else "3z" for boxes in request["boxes"]]
    assert sorted(faces) == ["2m", "3z"]
    reading = read_hand(detections, size, concealed_kong_tiles=faces)
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse("66m66677z x2222m x3333z +6m")), reading.hand.format()
    assert [reading.tile_roles[detection_of(order, k)]["role"] for k in range(8, 16)] == ["meld"] * 8


def test_eight_backs_evenly_spaced_stay_the_wall():
    # the same line with no break in the middle: a stretch of the wall, so no kong is read out of it
    first, request, _, _, _ = _read(_two_kongs(middle=-0.05), turn=0)
    assert request is None
    assert first.hand is None
