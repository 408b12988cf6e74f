"""Session 28's reader changes (docs/rules-session28.md, r1): four backs of a loosely spaced wall are not a concealed
kong, and an unsure box lying mostly inside a surer one is that tile boxed again."""

from __future__ import annotations

import numpy as np

from engine.hand import Hand
from tests.hand_reader.builder import Table, detection_of
from vision.classes import FACE_CODES, FACE_DOWN
from vision.detections import Detections
from vision.hand_reader import read_hand
from vision.reading import geometry
from vision.reading.compare import same_hand


def test_an_unsure_box_mostly_inside_a_surer_one_is_a_duplicate():
    boxes = np.array([[0, 0, 40, 50],  # a tile
                      [2, 25, 40, 50],  # its lower half boxed again, 95 % inside it
                      [45, 0, 85, 50],  # its neighbour
                      [60, 20, 100, 70]], np.float32)  # a box straddling the neighbour and empty table
    unsure = np.array([0.95, 0.3, 0.95, 0.3])
    assert geometry.duplicates(boxes, unsure).tolist() == [False, True, False, False]
    # named surely, the half box stays (it may be a tile of its own)
    assert not geometry.duplicates(boxes, np.array([0.95, 0.9, 0.95, 0.3])).any()
    # a back inside a back is a stacked wall, not a duplicate; a back inside a face is
    backs = np.array([True, True, False, False])
    assert not geometry.duplicates(boxes, unsure, face_up=~backs).any()
    assert geometry.duplicates(boxes, unsure, face_up=np.array([True, False, True, True]))[1]
    # boxes left out of the test (the reader's spare candidates) neither drop nor are dropped
    assert not geometry.duplicates(boxes, unsure, covered_ok=np.array([True, False, True, True])).any()
    assert not geometry.duplicates(boxes, unsure, covered_ok=np.array([False, True, True, True])).any()


def test_a_piece_of_the_winning_tile_boxed_again_and_named_a_back_is_left_out():
    table = Table().row("7m 7m 8m 8m 8m 1s 1s | 1s | s1p 2p 3p | 9p 9p 9p s9p")
    detections, size, order = table.photo(turn=0)
    win = detections.boxes[detection_of(order, 7)]
    piece = np.array([[win[0], (win[1] + win[3]) / 2, win[2], win[3]]], np.float32)  # its lower half boxed again
    stray = Detections(piece, np.array([FACE_DOWN]), np.array([0.31], np.float32), np.array([0]),
                       np.array([[FACE_DOWN, FACE_CODES.index("1s"), 41]]), np.array([[0.31, 0.3, 0.1]], np.float32))
    reading = read_hand(detections.concat(stray), size)
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse("77888m11s c1*23p< k9999p> +1s")), reading.hand.format()
    assert reading.tile_roles[len(detections)]["role"] == "clutter"


def test_four_backs_cut_from_a_loosely_spaced_wall_are_not_the_concealed_kong():
    # A careless concealed kong (0.3 tile widths between its backs) touching the chow beside it, and a stretch of
    # the wall above the hand lying almost as loosely (0.2): only the backs beside the four tell the wall apart.
    table = Table(gap=0.3).row("1m 2m 3m 5p 5p 5p 8s || 8s || s4m 5m 6m d | d | d | d")
    for k in range(9):
        table.tile("d", x=3.0 + k * 1.2, y=-2.2)
    detections, size, order = table.photo(turn=0)
    reading = read_hand(detections, size, concealed_kong_tiles=["9p"])
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse("123m555p8s c4*56m< x9999p +8s")), reading.hand.format()
    kong = [reading.tile_roles[detection_of(order, k)]["role"] for k in range(11, 15)]
    wall = [reading.tile_roles[detection_of(order, k)]["role"] for k in range(15, 24)]
    assert kong == ["meld"] * 4
    assert wall == ["clutter"] * 9
