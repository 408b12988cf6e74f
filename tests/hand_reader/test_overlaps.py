"""Overlapping boxes in the layout (docs/rules-session17.md): a cut costs no more where boxes overlap deeper than
touching tiles do (a stacked wall), and meld neighbours that deep into each other pay the cut slope (a box straddling
two tiles is not a kong's fourth tile)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import FACE_CODES
from vision.detections import Detections
from vision.hand_reader import _crowded_boxes, read_hand
from vision.reading import geometry
from vision.reading.layout import CUT_COST, GAP, TOUCH_DEPTH, _cut_cost

from tests.hand_reader.builder import H, W, Table, recorded
from tests.hand_reader.test_layouts import PHOTOS, assert_hand

CONCEALED = "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s | 5s"


def test_a_cut_costs_no_more_where_boxes_overlap_deeper_than_touching_tiles():
    touching = CUT_COST * (GAP + TOUCH_DEPTH)
    assert _cut_cost(0.0) == pytest.approx(CUT_COST * GAP)
    assert _cut_cost(-TOUCH_DEPTH) == pytest.approx(touching)
    assert _cut_cost(-1.2) == pytest.approx(touching)  # a stacked wall's backs
    assert _cut_cost(GAP + 0.1) == 0.0


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_box_straddling_two_meld_tiles_does_not_make_a_pung_a_kong(tokens, direction):
    # A fifth box (the localiser's, straddling the pung's last two tiles: half a tile over each, too little for a
    # duplicate) would join the pung as a kong's fourth tile for free, since a kong keeps the tile count; neighbours
    # that deep into each other pay the cut slope (MELD_OVERLAP_FREE), so it is left out.
    table = Table().row(f"{CONCEALED} || {tokens}")
    a, b = table.tiles[-2], table.tiles[-1]
    upright = b if b["turn"] == 0 else a
    table.tile("7z", (a["cx"] + b["cx"]) / 2 / W, upright["cy"] / H)
    detections, size, _ = table.photo()
    assert_hand(read_hand(detections, size), f"123m456m789p5s p777z{direction} +5s")


@pytest.mark.parametrize("confidence,listed", [(0.4, True), (0.6, False)])
def test_an_unsurely_named_box_overlapping_both_row_neighbours_is_tried_left_out(confidence, listed):
    # R77 (docs/rules-session45.md): a box overlapping each row neighbour by 0.2 tile widths (each less than
    # CROWDED_OVERLAP, together more) is tried left out of the rows where its face is named unsurely
    # (``Detections.confidence``, the top-1 probability, under STRADDLING_CONFIDENCE), with both neighbours as its
    # crowding ones; a surely named one is left alone.
    boxes = np.array([[0.0, 0.0, W, H], [0.8 * W, 0.0, 1.8 * W, H], [1.6 * W, 0.0, 2.6 * W, H]])
    class_ids = np.array([FACE_CODES.index(code) for code in ("4m", "4m", "4m")])
    scores = np.array([0.95, confidence, 0.95])
    frame = geometry.normalise(boxes, np.zeros(3, int), class_ids, scores)
    rows = geometry.rows(frame, np.ones(3, bool))
    assert rows == [[0, 1, 2]]
    crowded, crowding = _crowded_boxes(frame, rows, class_ids, scores)
    assert (crowded == [1]) is listed
    if listed:
        assert crowding[1] == {0, 2}
    assert _crowded_boxes(frame, rows, class_ids) == ([], {})  # no confidences given: R71's test is not made


@pytest.mark.parametrize("photo", PHOTOS)
def test_a_claimed_tile_boxed_twice_is_not_read_as_a_tile_laid_on_another(photo):
    # R78 (docs/rules-session45.md): a chow's claimed 4m boxed a second time, the stray box shifted 0.4 tile widths
    # along the row and named 5m (7m third). Both boxes are sideways, so neither is a duplicate, and one is taken as
    # laid on the other; read without that stacking the two crowd one row, and leaving the stray box out gives the
    # true chow (without the rule: a 567m chow claimed at the stray box, the 4m loose).
    turn, tilt, perspective, jitter = photo
    table = Table().row("5p 5p 5p 7p 8p 9p 9p 9p 5s 5s | 9p | s4m 5m 6m")
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter, shuffle=False)
    claimed, next_tile = detections.boxes[11], detections.boxes[12]
    along = (next_tile[:2] + next_tile[2:] - claimed[:2] - claimed[2:]) / 2
    step = along / np.linalg.norm(along) * 0.4 * W
    stray = claimed + np.concatenate([step, step])
    ids = np.concatenate([detections.topk_ids, [[FACE_CODES.index(code) for code in ("5m", "3m", "7m")]]])
    probs = np.concatenate([detections.topk_probs, [[0.32, 0.23, 0.14]]])
    twice = Detections(np.concatenate([detections.boxes, stray[None]]), ids[:, 0],
                       np.concatenate([detections.confidence, [0.32]]),
                       np.concatenate([detections.rotation, detections.rotation[11:12]]), ids, probs)
    assert_hand(read_hand(twice, size), "55578999p55s c4*56m< +9p")


# Development 1111 000020's hand tiles as the committed models read them (boxes in a 640 x 480 photo, rotation,
# top 3, lift, sideways probability), with the localiser's stray box last: it lies across the first and claimed
# tiles of the pung of 4m claimed from across, named 4m at 0.40.
STRAY_IN_PUNG = [
    ((407, 261, 484, 337), 180, (("8m", 0.96), ("3m", 0.01), ("2m", 0.01)), 0.0, 0.0),
    ((442, 304, 519, 375), 90, (("6m", 0.91), ("5m", 0.02), ("9m", 0.01)), None, 1.0),
    ((289, 214, 367, 280), 90, (("8s", 0.96), ("1z", 0.0), ("8p", 0.0)), None, 1.0),
    ((466, 338, 543, 409), 90, (("7m", 0.9), ("9m", 0.02), ("6m", 0.01)), None, 1.0),
    ((368, 179, 445, 258), 180, (("1s", 0.91), ("5f", 0.01), ("2f", 0.01)), 0.98, 0.001),
    ((253, 152, 323, 216), 270, (("7s", 0.95), ("6s", 0.0), ("9s", 0.0)), None, 0.999),
    ((345, 156, 413, 219), 90, (("1s", 0.98), ("6f", 0.0), ("2f", 0.0)), None, 0.982),
    ((252, 18, 318, 76), 90, (("4m", 0.95), ("4z", 0.0), ("5m", 0.0)), None, 1.0),
    ((192, 61, 264, 122), 90, (("2m", 0.94), ("3m", 0.01), ("6m", 0.01)), None, 1.0),
    ((231, 119, 306, 189), 90, (("6s", 0.92), ("9s", 0.01), ("7s", 0.01)), None, 1.0),
    ((326, 128, 396, 187), 90, (("1s", 0.99), ("7z", 0.0), ("6f", 0.0)), None, 0.999),
    ((300, 85, 367, 143), 90, (("4m", 0.96), ("7f", 0.0), ("5m", 0.0)), None, 0.999),
    ((211, 91, 280, 153), 90, (("2m", 0.95), ("1m", 0.01), ("6m", 0.0)), None, 1.0),
    ((266, 46, 322, 101), 180, (("4m", 0.98), ("6p", 0.0), ("9m", 0.0)), 0.0, 0.025),
    ((281, 64, 338, 120), 90, (("4m", 0.4), ("3z", 0.21), ("5z", 0.16)), 0.0, 0.744),
]


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_an_unsurely_named_box_crowding_a_pung_is_left_out_at_no_cost(quarter):
    # R80 (docs/rules-session46.md): the stray box overlaps the pung's first tile by about half a tile width. Left
    # out at CROWDED_BOX_COST (1.0), the pung cost more than the kong the stray box makes as a fourth 4m (by 0.94);
    # named under STRADDLING_CONFIDENCE, it is left out at no cost and the count and the faces decide.
    detections, size = recorded(STRAY_IN_PUNG, quarter)
    assert_hand(read_hand(detections, size), "22m67s p444m^ a1111s> c678*m< +8s")
