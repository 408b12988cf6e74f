"""The reader's cost is bounded: detections far from any legal hand end with a reading (maybe no hand), not a long
search. Speed targets live in bench/bench_hand_reader.py (--adversarial); these tests check behaviour only."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from engine.hand import Hand
from vision.detections import Detections
from vision import hand_reader
from vision.hand_reader import WARNING_CODES, HandReading, read_hand
from vision.reading import decode as decoding
from vision.reading.compare import same_hand
from vision.reading.layout import Layout
from vision.reading.simulate import ADVERSARIAL_MODES, adversarial, lay_out, random_hand, Habits

from .builder import Table


@pytest.mark.parametrize("mode", ADVERSARIAL_MODES)
def test_adversarial_detections_give_a_reading(mode):
    rng = np.random.default_rng(31337)
    for n in (1, 5, 14, 25, 40):
        detections, size = adversarial(rng, n, mode)
        reading = read_hand(detections, size)
        assert isinstance(reading, HandReading)
        assert set(reading.warning_codes) <= set(WARNING_CODES)
        assert len(reading.tile_roles) == len(detections)
        if reading.hand is not None:
            assert isinstance(reading.hand, Hand)
            reading.hand.validate()
        reading.to_json()


def _garbled_layout(seed: int):
    rng = np.random.default_rng(seed)
    while True:
        detections, size = adversarial(rng, 0, "hand_garbled")
        reading = read_hand(detections, size, budget=decoding.SearchBudget(seconds=math.inf))  # states only
        if "search_budget_exhausted" in reading.warning_codes:
            return detections, size


def test_the_shared_budget_caps_the_search_and_is_reported():
    detections, size = _garbled_layout(5)
    reading = read_hand(detections, size, budget=decoding.SearchBudget(seconds=math.inf))
    assert "search_budget_exhausted" in reading.warning_codes
    budget = decoding.SearchBudget(expansions=50, seconds=10.0)
    layout = _count_ok_layout(detections)
    result = decoding.decode(layout, detections.topk_ids, detections.topk_probs, budget=budget)
    assert result.expansions <= 50
    assert budget.exhausted and result.budget_hit
    spent = decoding.decode(layout, detections.topk_ids, detections.topk_probs, budget=budget)
    assert spent.expansions == 0 and spent.best is None


def _count_ok_layout(detections) -> Layout:
    from vision.hand_reader import _layouts_for
    from vision.reading import geometry
    votes = geometry.quarter_turn_votes(detections.rotation, detections.class_ids, detections.confidence)
    for turn in sorted(votes, key=lambda r: -votes[r]):
        for attempt in _layouts_for(detections, turn):
            if attempt[3].count_ok:
                return attempt[3]
    raise AssertionError("no count-consistent layout")


def test_a_tile_count_that_can_make_no_hand_is_not_searched():
    rng = np.random.default_rng(3)
    scene = lay_out(random_hand(rng, melds=0), rng, Habits(clutter=0))
    layout = _count_ok_layout(scene.detections)
    short = Layout(concealed=layout.concealed[:-2], winning=layout.winning, melds=layout.melds,
                   flowers=layout.flowers, clutter=layout.clutter, cost=layout.cost, count_ok=False)
    result = decoding.decode(short, scene.detections.topk_ids, scene.detections.topk_probs)
    assert result.best is None and result.impossible and result.expansions == 0


READABLE_STATES = 300  # README: a readable hand is found within a few hundred search states


def test_readable_hands_never_meet_the_budget():
    # The search-state count is deterministic; the CPU-time part of the budget is made unlimited here so that a
    # loaded machine cannot fail the test (reading times are bench/bench_hand_reader.py's business).
    rng = np.random.default_rng(11)
    for _ in range(20):
        scene = lay_out(random_hand(rng), rng, Habits(concealed_kong_all_down=False, clutter=int(rng.integers(0, 2))))
        budget = decoding.SearchBudget(seconds=math.inf)
        reading = read_hand(scene.detections, scene.image_size, budget=budget)
        assert "search_budget_exhausted" not in reading.warning_codes
        assert not budget.exhausted
        assert 0 < budget.spent < min(READABLE_STATES, decoding.TOTAL_EXPANSIONS)
        assert same_hand(reading.hand, scene.hand)


def test_a_long_row_of_touching_tiles_tries_no_concealed_run_longer_than_a_hand(monkeypatch):
    # A client's 80 tiles in one row, touching, labelled every way (/v1/tiles/score takes up to 80): every concealed
    # run of every length was tried, as many as the row's length squared, and the layout stage alone took seconds
    # (~6 s for 120 tiles, far past the photo's budget). A run holds 14 tiles at most (winning tile included): a
    # longer one never makes the count.
    from vision.reading import layout as layout_module

    longest = []
    solve = layout_module._RowSolver._solve_main_options

    def spy(self):
        options = solve(self)
        longest.extend(n_concealed + with_win for _, n_concealed, _, with_win, _ in options)
        return options

    monkeypatch.setattr(layout_module._RowSolver, "_solve_main_options", spy)
    rng = np.random.default_rng(0)
    n = 40
    x = np.arange(n) * 77.0
    boxes = np.stack([x, np.full(n, 100.0), x + 76.0, np.full(n, 202.0)], axis=1)
    detections = Detections(boxes, rng.integers(34, 42, n), np.ones(n), rng.choice([0, 90, 180, 270], n))
    reading = read_hand(detections, (4000, 300))
    assert reading.hand is None and len(reading.tile_roles) == n
    assert longest and max(longest) == 14


def test_no_layout_stage_is_begun_that_would_end_past_the_deadline(monkeypatch):
    # R83 (docs/rules-session47.md): a quarter turn's layout stage cannot stop half way. On a clock that each layout
    # stage moves on 0.1 s, a 0.15 s budget lays the photo out once: the white-dragon attempt for its two backs (0.01 s
    # of its own, so a deadline of 0.16 s) would end at 0.2 s, and is not begun; the reading says the clock stopped it.
    clock = [0.0]
    monkeypatch.setattr(time, "thread_time", lambda: clock[0])
    lay_out_rows = hand_reader._layouts_for
    begun = []

    def one_tenth_of_a_second(*args, **kwargs):
        begun.append(clock[0])
        out = lay_out_rows(*args, **kwargs)
        clock[0] += 0.1
        return out

    monkeypatch.setattr(hand_reader, "_layouts_for", one_tenth_of_a_second)
    table = Table().row("5z | 5z || s6m 7m 8m | s3m 4m 5m | s4s 5s 6s | 7p s7p 7p")
    backs = {k: [(None, 0.95), ("5z", 0.02), ("1p", 0.002)] for k in (0, 1)}
    detections, size, _ = table.photo(misread=backs)
    budget = decoding.SearchBudget(seconds=0.15)
    reading = read_hand(detections, size, budget=budget)
    assert begun == [0.0]
    assert clock[0] <= budget.deadline
    assert "search_budget_exhausted" in reading.warning_codes
    # with time for it, the attempt runs and reads the backs as the white dragons they may be
    clock[0], begun[:] = 0.0, []
    reading = read_hand(detections, size, budget=decoding.SearchBudget(seconds=1.0))
    assert len(begun) > 1
    assert same_hand(reading.hand, Hand.parse("5z c6*78m< c3*45m< c4*56s< p777p^ +5z"))


def test_a_reading_with_no_layout_says_when_the_clock_stopped_a_stage(monkeypatch):
    # R83c (docs/rules-session47.md): two lone backs that may be white dragons make no row of a hand. On a clock that
    # each layout stage moves on 0.1 s, a 0.15 s budget lays them out once, finds nothing, and the white-dragon
    # attempt (deadline 0.16 s) is not begun: the reading finds no layout, and says that it depends on the CPU time.
    clock = [0.0]
    monkeypatch.setattr(time, "thread_time", lambda: clock[0])
    lay_out_rows = hand_reader._layouts_for

    def one_tenth_of_a_second(*args, **kwargs):
        out = lay_out_rows(*args, **kwargs)
        clock[0] += 0.1
        return out

    monkeypatch.setattr(hand_reader, "_layouts_for", one_tenth_of_a_second)
    table = Table().tile("d", 0.0, 0.0).tile("d", 6.0, 4.0)
    detections, size, _ = table.photo(misread={k: [(None, 0.6), ("5z", 0.35), ("1p", 0.01)] for k in (0, 1)})
    reading = read_hand(detections, size, budget=decoding.SearchBudget(seconds=0.15))
    assert reading.hand is None
    assert "no_hand_layout" in reading.warning_codes
    assert "search_budget_exhausted" in reading.warning_codes
    # with time for every stage the same photo reads no layout, and nothing was cut short
    clock[0] = 0.0
    reading = read_hand(detections, size, budget=decoding.SearchBudget(seconds=10.0))
    assert reading.hand is None
    assert reading.warning_codes == ["no_hand_layout"]
