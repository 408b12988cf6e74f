"""The order of the standing tiles (docs/rules-session20.md, o): players keep each suit together with its ranks
rising, so a misread face that breaks that order costs the reading, within a cap that leaves unsorted hands alone."""

from __future__ import annotations

import math

import pytest

from engine.hand import Hand
from engine.tiles import Tile
from vision.hand_reader import read_hand
from vision.reading import decode
from vision.reading.compare import same_hand
from vision.reading.decode import SearchBudget, order_breaks, order_cost

from tests.hand_reader.builder import Table, detection_of


def _kinds(text: str) -> list[int]:
    return [Tile.parse(code).index for code in text.split()]


@pytest.mark.parametrize("run, breaks", [
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 7z 7z", 0),
    ("5z 5z 7s 8s 9s 4p 5p 6p 1m 2m 3m", 0),  # the suits in any order
    ("7z 7z 1z 1z 1z 3m 3m", 0),  # honours in any order, alike ones together
    ("1m 3m 2m", 1),  # a rank falls within a suit
    ("1m 1p 2m", 1),  # a suit comes back
    ("1z 2z 1z", 1),  # an honour comes back
    ("9m 1m 9p 1p 9s 1s", 3),
    ("", 0),
    ("5p", 0),
])
def test_breaks_count_the_places_a_run_leaves_the_order_players_keep(run, breaks):
    assert order_breaks(_kinds(run)) == breaks


def test_the_order_costs_at_most_its_cap():
    shuffled = _kinds("9m 1m 9p 1p 9s 1s 7z 1z 7z")
    assert order_breaks(shuffled) > decode.ORDER_CAP
    assert order_cost(shuffled) == pytest.approx(decode.ORDER_WEIGHT * decode.ORDER_CAP)
    assert order_cost(_kinds("1m 3m 2m")) == pytest.approx(decode.ORDER_WEIGHT)
    assert order_cost(_kinds("1m 2m 3m")) == 0.0


ROW = "1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 7z 7z | 7z"
# the 4p (table tile 3) reads 7p first: 7p 5p 6p is a legal chow too, but no player lays it out that way
MISREAD_4P = {3: [("7p", 0.55), ("4p", 0.4), ("3m", 0.02)]}


def _read(row: str, misread: dict, monkeypatch=None, weight: float | None = None):
    if weight is not None:
        monkeypatch.setattr(decode, "ORDER_WEIGHT", weight)
    detections, size, order = Table().row(row).photo(misread=misread)
    return read_hand(detections, size, budget=SearchBudget(seconds=math.inf)), detections, order


def test_a_misread_face_that_breaks_the_order_is_corrected(monkeypatch):
    reading, detections, order = _read(ROW, MISREAD_4P)
    assert same_hand(reading.hand, Hand.parse("123m456p789s55z77z +7z"))
    k = detection_of(order, 3)
    assert [(c["tile_index"], c["read"], c["corrected"]) for c in reading.corrections] == [(k, "7p", "4p")]
    # the legal reading the faces alone prefer is reported as the close alternative
    assert any(same_hand(Hand.from_json(a["hand"]), Hand.parse("123m567p789s55z77z +7z"))
               for a in reading.alternatives)
    # without the prior, the faces alone decide: the misread stands
    plain, _, _ = _read(ROW, MISREAD_4P, monkeypatch, weight=0.0)
    assert same_hand(plain.hand, Hand.parse("123m567p789s55z77z +7z"))


def test_a_confident_face_outweighs_the_order(monkeypatch):
    # the classifier is sure of the 7p: the reading keeps it, out of order as it lies
    reading, _, _ = _read(ROW, {3: [("7p", 0.95), ("4p", 0.03), ("3m", 0.01)]})
    assert same_hand(reading.hand, Hand.parse("123m567p789s55z77z +7z"))


def test_a_hand_laid_out_of_order_reads_as_laid():
    # a player who does not sort: the confident faces stand, however often the run breaks the order
    row = "7s 5z 2m 6p 7z 1m 9s 4p 5z 3m 8s 7z 5p | 7z"
    reading, _, _ = _read(row, {})
    assert same_hand(reading.hand, Hand.parse("123m456p789s55z77z +7z"))
    assert reading.corrections == []


def test_an_unsorted_hand_pays_no_more_for_a_misread_that_would_tidy_it():
    # out of order beyond the cap whichever face the misread tile takes: the faces alone decide, as without the prior
    row = "7s 5z 2m 6p 7z 1m 9s 4p 5z 3m 8s 7z 5p | 7z"
    misread = {7: [("7p", 0.55), ("4p", 0.4), ("3m", 0.02)]}  # the 4p again: 7p 5p 6p is legal too
    reading, _, _ = _read(row, misread)
    assert same_hand(reading.hand, Hand.parse("123m567p789s55z77z +7z"))
