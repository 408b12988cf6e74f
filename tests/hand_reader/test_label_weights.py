"""Rotation labels weighed by the orientation head (Detections.sideways_probability, docs/rules-session17.md).

The recogniser's label is the head's most likely quarter turn; its probability says how sure that is. A claimed tile
whose label came out upright (a sideways tile boxed near square) is read as the meld's claimed tile when the head gave
it a fair chance of lying sideways, and a label the head was sure of costs the most to overrule.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.hand_reader import read_hand
from vision.reading import geometry
from vision.reading.layout import (FLIP_COST_MAX, FLIP_COST_MIN, LABEL_FLIP_COST, LABELS_WEIGHED_TILT, STEEP_TILT,
                                   meld_label_cost, overrule_cost)

from tests.hand_reader.builder import Table
from tests.hand_reader.test_layouts import assert_hand

CONCEALED = "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s | 5s"


def _mislabelled(tokens: str, p_claimed: float | None, turn: int = 0, tilt: float = 0.0, concealed: str = CONCEALED):
    """The photo of CONCEALED beside the melds ``tokens``, the first ``s`` tile (a claimed one) labelled upright like
    its neighbours; each face-up tile's sideways probability p_claimed for that tile and sure values on the others'
    labels' sides (None: not measured)."""
    table = Table().row(f"{concealed} || {tokens}")
    detections, size, order = table.photo(turn=turn, tilt=tilt)
    claimed = order.index(next(k for k, t in enumerate(table.tiles) if t["token"].startswith("s")))
    rotation = detections.rotation.copy()
    rotation[claimed] = turn % 360  # the label the head got wrong: upright in the photo's quarter turn
    p_image = np.where(rotation % 180 == 90, 0.98, 0.02)  # image-relative, sure of every other label
    p_image[claimed] = p_claimed if turn % 180 == 0 else 1 - p_claimed if p_claimed is not None else np.nan
    if p_claimed is None:
        p_image[:] = np.nan
    detections = replace(detections, rotation=rotation, sideways_probability=p_image.astype(np.float32))
    return read_hand(detections, size)


@pytest.mark.parametrize("turn,tilt", [(0, 0.0), (90, 6.0), (180, -4.0)])
@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_claimed_tile_labelled_upright_is_read_where_the_head_gave_it_a_chance(tokens, direction, turn, tilt):
    reading = _mislabelled(tokens, 0.4, turn, tilt)
    assert_hand(reading, f"123m456m789p5s p777z{direction} +5s")


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_without_the_probabilities_the_mislabelled_meld_is_not_read_from_its_claimed_tile(tokens, direction):
    # the same photo with no probabilities: no label shows a claimed tile, so no meld claimed from anyone is read
    reading = _mislabelled(tokens, None)
    assert reading.hand is None or not any(m.discarder is not None for m in reading.hand.melds)


@pytest.mark.parametrize("p_claimed,read", [(0.4, True), (0.1, False)])
def test_a_meld_touching_the_next_is_guessed_only_where_the_head_gave_its_claimed_tile_a_fair_chance(p_claimed, read):
    # the pung touches the chow laid beside it (not set apart): guessed at 0.4, left alone at 0.1 (a line of faces
    # the head holds upright)
    reading = _mislabelled("7z s7z 7z s4s 3s 5s", p_claimed, concealed="1m 2m 3m 4m 5m 6m 7p | 7p")
    guessed = reading.hand is not None and any(m.type.value == "pung" and m.discarder is not None
                                               for m in reading.hand.melds)
    assert guessed == read, reading.hand.format() if reading.hand else reading.warnings
    if read:
        assert_hand(reading, "123456m7p p777z^ c34*5s< +7p")


def test_a_chow_labelled_all_upright_is_claimed_at_its_likeliest_tile():
    reading = _mislabelled("s4s 3s 5s", 0.3)
    assert_hand(reading, "123m456m789p5s c34*5s< +5s")


def _frame(rotation, p_sideways, tilt=0.0):
    boxes = np.array([[0, 0, 10, 14], [10, 0, 24, 10], [24, 0, 34, 14]], np.float32)
    return geometry.normalise(boxes, np.array(rotation), np.array([3, 3, 3]), np.array([0.9, 0.9, 0.9]),
                              quarter_turn=0, tilt=tilt, sideways_probability=np.array(p_sideways))


def test_overruling_a_label_costs_its_log_odds_within_bounds():
    frame = _frame([0, 90, 0], [0.4, 0.7, 0.001])
    assert overrule_cost(frame, 0, False, 9.0) == 0.0  # read as labelled
    assert overrule_cost(frame, 0, True, 9.0) == pytest.approx(math.log(0.6 / 0.4))  # an unsure upright label
    assert overrule_cost(frame, 1, False, 9.0) == pytest.approx(math.log(0.7 / 0.3))  # a sideways label
    assert overrule_cost(frame, 2, True, 9.0) == FLIP_COST_MAX  # a sure label
    unsure = _frame([0, 90, 0], [0.55, 0.5, 0.001])  # the 4-way argmax may lie on the 2-way minority's side
    assert overrule_cost(unsure, 0, True, 9.0) == FLIP_COST_MIN


def test_labels_are_not_weighed_past_45_degrees_or_where_unknown():
    # Past 45 degrees off the labels' axes an image-relative label no longer means the same as one relative to the
    # row. Between STEEP_TILT and 45 degrees they are weighed since session 33, whose recogniser reads such photos'
    # orientations from crops turned to the rows (docs/rules-session33.md, R36w).
    assert LABELS_WEIGHED_TILT == 45.0
    assert overrule_cost(_frame([0, 90, 0], [0.4, 0.7, 0.001], tilt=LABELS_WEIGHED_TILT + 5), 0, True, 9.0) == 9.0
    assert overrule_cost(_frame([0, 90, 0], [0.4, 0.7, 0.001], tilt=STEEP_TILT + 5), 0, True, 9.0) == \
        pytest.approx(math.log(0.6 / 0.4))
    assert overrule_cost(_frame([0, 90, 0], [np.nan, 0.7, 0.001]), 0, True, LABEL_FLIP_COST) == LABEL_FLIP_COST


def test_the_probability_turns_with_the_photos_quarter_turn():
    boxes = np.array([[0, 0, 14, 10]], np.float32)
    frame = geometry.normalise(boxes, np.array([90]), np.array([3]), np.array([0.9]), quarter_turn=90,
                               sideways_probability=np.array([0.8]))
    assert not frame.sideways[0] and frame.p_sideways[0] == pytest.approx(0.2)


# Layouts of every kind from tests/hand_reader/test_layouts.py: two sideways labels in three tiles (with a tile on one
# of them, and without), an added kong laid beside, melded kongs, back-face-face-back and all-back concealed kongs.
LAYOUT_ROWS = [
    "1m 2m 3m 2z | 2z | s4s 3s 5s | 7z s7z 7z | 9p 9p 9p s9p",
    "1m 2m 3m 4m 5m 6m 7p | 7p || 9s s9s s9s 9s || d 5z 5z d",
    "1m 2m 3m 4m 5m 6m 7p | 7p || s9s s9s 9s 9s || d d d d",
    "1m 2m 3m 4m 5m 6m 7p | 7p || 2p s2p s2p || 9p s9p 9p 9p",
]


def _with_probabilities(detections, p_sideways_label: float | None):
    """The detections with each face-up tile's sideways probability on its label's side (``p_sideways_label`` for a
    sideways label, 1 minus it for an upright one), or unknown (None)."""
    sideways = detections.rotation % 180 == 90
    if p_sideways_label is None:
        p = np.full(len(detections), np.nan)
    else:
        p = np.where(sideways, p_sideways_label, 1 - p_sideways_label)
    p = np.where(detections.face_down, np.nan, p)
    return replace(detections, sideways_probability=p.astype(np.float32))


# two sideways labels in the three tiles of the row, a tile laid on one of them (an upright's label flipped)
STACKED_ROW = "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s | 5s || 7z s7z t7z 7z"


@pytest.mark.parametrize("tokens,flipped", [(tokens, None) for tokens in LAYOUT_ROWS]
                         + [(STACKED_ROW, 11), (STACKED_ROW, 14)])
def test_without_probabilities_a_meld_costs_its_label_flips_as_before(tokens, flipped):
    from vision import hand_reader
    from vision.reading import layout

    from tests.hand_reader.test_layouts import relabel

    detections, size, order = Table().row(tokens).photo()
    if flipped is not None:
        detections = relabel(detections, order, {flipped: 90})
    detections = _with_probabilities(detections, None)
    for turn in (0, 180):
        for frame, _, stacked_on, _ in hand_reader._layouts_for(detections, turn):
            facts = hand_reader._facts(detections, frame)
            for row in geometry.rows(frame, np.ones(len(detections), bool)):
                solver = layout._RowSolver(row, frame, facts, stacked_on)
                for i in range(len(row)):
                    for _, kind, _, meld in solver.segments(i):
                        if kind == "meld":
                            assert meld_label_cost(meld, frame) == LABEL_FLIP_COST * meld.label_flips, meld


@pytest.mark.parametrize("tokens", LAYOUT_ROWS)
def test_sure_probabilities_on_the_labels_side_read_the_layouts_as_the_labels_alone(tokens):
    detections, size, _ = Table().row(tokens).photo(turn=90, tilt=4.0)
    # four backs show no face, nor do white dragons' blank faces beside backs (K66b): the kong's face is named
    faces = {"concealed_kong_tiles": ["3z"]} if "d d d d" in tokens else \
        {"concealed_kong_tiles": ["5z"]} if "d 5z 5z d" in tokens else {}
    plain = read_hand(_with_probabilities(detections, None), size, **faces)
    weighed = read_hand(_with_probabilities(detections, 0.9), size, **faces)
    assert plain.hand is not None and weighed.hand is not None
    assert weighed.hand.format() == plain.hand.format()
