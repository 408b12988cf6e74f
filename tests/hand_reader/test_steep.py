"""Rows seen near 45° where every label falls on one quarter turn: the claimed tiles are told by their length.

A claimed tile lies along the row, so the centre-to-centre steps on its sides are longer than between two upright
tiles. The tables are laid by hand (their true hand is the one written), photographed turned near 45°, and then
every face is given the same rotation label, as a classifier may do when perspective brings the upright and the
sideways faces to either side of the same 45° line.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.hand import Hand
from tests.hand_reader.builder import Table
from vision.detections import Detections
from vision.hand_reader import read_hand
from vision.reading.compare import same_hand


def _one_label(table: Table, tilt: float) -> tuple[Detections, tuple[int, int]]:
    detections, size, _ = table.photo(turn=0, tilt=tilt)
    label = int(np.bincount(detections.rotation // 90).argmax()) * 90
    same = np.full(len(detections), label, np.int32)
    return Detections(detections.boxes, detections.class_ids, detections.confidence, same, detections.topk_ids,
                      detections.topk_probs), size


@pytest.mark.parametrize("tilt", [-44.0, 42.0, 47.0])
@pytest.mark.parametrize("melds,text", [
    ("s4s 3s 5s | 7z s7z 7z", "c34*5s< p777z^"),
    ("9p 9p s9p | s6m 7m 8m", "p999p> c6*78m<"),
])
def test_melds_whose_labels_show_no_claimed_tile_are_read_from_the_steps(melds, text, tilt):
    table = Table().row(f"1m 2m 3m 4m 5m 6m 7p | 7p || {melds}")
    detections, size = _one_label(table, tilt)
    reading = read_hand(detections, size)
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse(f"123456m7p {text} +7p")), (reading.hand.format(), text)


def test_a_concealed_row_with_loose_gaps_is_not_cut_into_melds():
    # No tile is longer than the others: loose spacing alone makes no meld.
    table = Table(gap=0.5).row("1m 2m 3m | 4m 5m 6m | 7p 8p 9p | 2s 2s 2s 5z | 5z")
    detections, size = _one_label(table, 44.0)
    reading = read_hand(detections, size)
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse("123456m789p222s5z +5z")), reading.hand.format()
