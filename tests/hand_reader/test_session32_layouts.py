"""Session 32's layout cases (docs/rules-session32.md): rows traced by tiles in line (l1) and a lone flower boxed
askew (f1), on hand-made detection sets whose true hand is the one the tiles were placed as."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from engine.hand import Hand
from tests.hand_reader.builder import Table, detection_of
from vision.hand_reader import read_hand
from vision.reading import decode, geometry
from vision.reading.compare import same_hand


def _turned(points: np.ndarray, degrees: float) -> np.ndarray:
    angle = np.deg2rad(degrees)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return points @ rotation.T


@pytest.mark.parametrize("degrees", [0.0, 30.0, -55.0])
def test_rows_with_a_row_close_in_front_are_traced_along_not_across(degrees):
    # two rows of ten, centres one width apart along the rows and 0.7 apart across: every point's nearest
    # neighbour is the one across, yet each has neighbours in line on both sides along its row
    along = np.arange(10, dtype=np.float64)
    points = np.concatenate([np.stack([along, np.zeros(10)], 1), np.stack([along + 0.3, np.full(10, 0.7)], 1)])
    points = _turned(points * 60.0, degrees)
    free = geometry.free_row_direction(points, 60.0)
    lined = geometry.lined_row_direction(points, 60.0)
    assert abs((free - degrees + 90) % 180 - 90) > 45  # the nearest neighbours run across the rows
    assert abs((lined - degrees + 90) % 180 - 90) < 3


def test_too_few_points_in_line_give_no_direction():
    assert geometry.lined_row_direction(np.array([[0.0, 0.0], [60.0, 0.0]]), 60.0) is None
    assert geometry.lined_row_direction(np.array([[0.0, 0.0], [60.0, 0.0], [0.0, 60.0], [60.0, 60.0]]), 60.0) is None


@pytest.mark.parametrize("bottom,tilt,perspective", [(-0.6, 0.0, 0.3), (-0.6, 20.0, 0.0), (-0.6, 30.0, 0.3),
                                                     (-0.5, 35.0, 0.0)])
def test_melds_laid_close_in_front_of_the_concealed_row_read_along_the_rows(bottom, tilt, perspective):
    # Standing tiles seen from low with the melds close in front: the rows overlap so far that each tile's nearest
    # neighbour is the one across; the rows traced by the tiles in line read the hand (before: no legal hand).
    table = Table()
    table.row("1m 2m 3m 4m 5m 6m 7m | 7m")
    table.row("s4s 5s 6s | 9p s9p 9p", x=0.5, bottom=bottom)
    detections, size, _ = table.photo(turn=0, tilt=tilt, perspective=perspective)
    # the fallback runs after the plain and steep readings: no CPU-time limit, so that a loaded machine cannot skip it
    reading = read_hand(detections, size, budget=decode.SearchBudget(seconds=math.inf))
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse("1234567m c4*56s< p999p^ +7m")), reading.hand.format()


@pytest.mark.parametrize("askew,role,flowers", [(False, "flower", " 3f"), (True, "clutter", "")])
def test_a_lone_flower_boxed_askew_is_a_loose_tile(askew, role, flowers):
    # A flower face left of the concealed row: laid square with the hand it is the hand's; turned about 50° (its
    # box nearly square, the label still upright) it is a tile dropped there, not laid out by the player.
    table = Table().row("1p 1p 1p 2p 3p 4p 5p 6p 7p 9p 9p 9p 8p | 8p", x=2.0).tile("3f", x=0.5, y=-0.5)
    detections, size, order = table.photo()
    flower = detection_of(order, len(table.tiles) - 1)
    if askew:
        boxes = detections.boxes.copy()
        cx, cy = boxes[flower, :2] / 2 + boxes[flower, 2:] / 2
        boxes[flower] = [cx - 50.3, cy - 49.0, cx + 50.3, cy + 49.0]  # a 60 x 81 face turned 50°
        detections = replace(detections, boxes=boxes)
    reading = read_hand(detections, size)
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse(f"111234567999p8p +8p{flowers}")), reading.hand.format()
    assert reading.tile_roles[flower]["role"] == role
