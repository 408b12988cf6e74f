"""The localiser's spare candidates (docs/rules-session19.md, s1): a hand tile that only a spare box holds is taken
in when the kept boxes make no hand, and a spare is left alone when they do."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.hand import Hand
from vision import hand_reader
from vision.classes import FACE_CODES
from vision.detections import Detections
from vision.hand_reader import read_hand
from vision.reading.decode import SearchBudget

from tests.hand_reader.builder import Table
from tests.hand_reader.test_layouts import assert_hand, same_hand

ROW = "1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z || s4s 5s 6s"
HAND = "123m555p888s3z c4*56s< +3z"
MISSING = {"concealed": 4, "winning": 10, "meld": 12}  # detection index of the tile only a spare holds


def _states_only() -> SearchBudget:
    return SearchBudget(seconds=math.inf)


def _clutter_spare(detections: Detections, code: str = "7p") -> Detections:
    """A spare box well away from the hand (below its first tile), named ``code``, as wide a top-k as the tiles'."""
    box = detections.boxes[0] + np.array([0, 3, 0, 3], np.float32) * (detections.boxes[0, 3] - detections.boxes[0, 1])
    k = detections.topk_ids.shape[1]
    others = [c for c in range(len(FACE_CODES)) if FACE_CODES[c] != code][:k - 1]
    ids = np.array([[FACE_CODES.index(code), *others]])
    probs = np.array([[0.6] + [0.3 / k] * (k - 1)], np.float32)
    return Detections(box[None], ids[:, 0], probs[:, 0], detections.rotation[[0]], ids, probs)


def _photo(turn: int):
    detections, size, _ = Table().row(ROW).photo(turn=turn, shuffle=False)
    return detections, size


@pytest.mark.parametrize("turn", [0, 90, 180])
@pytest.mark.parametrize("role", sorted(MISSING))
def test_a_hand_tile_only_a_spare_holds_is_taken_in(turn, role):
    detections, size = _photo(turn)
    missing = MISSING[role]
    kept = detections[np.arange(len(detections)) != missing]
    without = read_hand(kept, size, budget=_states_only())
    assert without.hand is None or not same_hand(without.hand, Hand.parse(HAND))
    # the true tile second among the spares, behind a clutter box the localiser scored higher
    spares = _clutter_spare(detections).concat(detections[missing])
    reading = read_hand(kept, size, budget=_states_only(), spares=spares)
    assert_hand(reading, HAND)
    assert "spare_tile_used" in reading.warning_codes
    assert len(reading.tile_roles) == len(kept) + 1 and reading.tile_roles[-1]["role"] != "clutter"
    [extra] = reading.extra_tiles()
    # the spare's box as the tiles list reports a tile's (Detections.to_json)
    assert extra["spare"] is True and extra["box"] == detections.to_json()[missing]["box"]
    assert reading.to_json()["spares_used"][0]["tile_index"] == len(kept)


@pytest.mark.parametrize("turn", [0, 90])
def test_spares_are_left_alone_when_the_tiles_make_the_hand(turn):
    detections, size = _photo(turn)
    spares = _clutter_spare(detections, "3z").concat(_clutter_spare(detections, "5p"))
    reading = read_hand(detections, size, budget=_states_only(), spares=spares)
    assert_hand(reading, HAND)
    assert reading.spares_used == [] and reading.extra_tiles() == []
    assert "spare_tile_used" not in reading.warning_codes and len(reading.tile_roles) == len(detections)


def test_only_the_best_spares_are_tried(monkeypatch):
    detections, size = _photo(0)
    missing = MISSING["meld"]
    kept = detections[np.arange(len(detections)) != missing]
    spares = _clutter_spare(detections).concat(detections[missing])
    monkeypatch.setattr(hand_reader, "MAX_SPARE_BOXES", 1)  # the true tile is the second spare
    reading = read_hand(kept, size, budget=_states_only(), spares=spares)
    assert reading.hand is None or not same_hand(reading.hand, Hand.parse(HAND))


def _spent_budget() -> SearchBudget:
    """A budget the photo's other readings have used up (as a photo missing a hand tile does: no reading without it
    makes a hand, and each is searched to its cap)."""
    budget = SearchBudget(expansions=3000, seconds=math.inf)
    budget.spend(3000)
    return budget


def test_the_spares_search_on_when_the_tiles_spent_the_budget(monkeypatch):
    # The spare stage gets states of its own (SPARE_EXPANSIONS), else it would stop before its first spare.
    detections, size = _photo(0)
    missing = MISSING["concealed"]
    kept = detections[np.arange(len(detections)) != missing]
    spares = detections[[missing]]
    assert_hand(read_hand(kept, size, budget=_spent_budget(), spares=spares), HAND)
    monkeypatch.setattr(hand_reader, "SPARE_EXPANSIONS", 0)
    starved = read_hand(kept, size, budget=_spent_budget(), spares=spares)
    assert starved.hand is None or not same_hand(starved.hand, Hand.parse(HAND))


def test_a_budget_extension_adds_states_and_time_from_now():
    budget = SearchBudget(expansions=10, seconds=0.0)
    budget.spend(12)
    assert budget.exhausted and budget.out_of_time()
    budget.extend(5, 60.0)
    assert not budget.exhausted and not budget.out_of_time()
    assert budget.expansions_left == 5 and budget.spent == 12  # the overdraft is forgiven, not forgotten
    budget.spend(5)
    assert budget.exhausted


def test_spares_left_untried_for_want_of_time_are_said(monkeypatch):
    # A spare stage the clock stops before it tries a spare leaves a reading that depends on the CPU time it got
    # (a colder first call reads without the spare, later ones with it): the reading says so, as a search stopped
    # at its budget does, so that a client knows to check it.
    detections, size = _photo(0)
    missing = MISSING["concealed"]
    kept = detections[np.arange(len(detections)) != missing]
    spares = detections[[missing]]
    # The spare stage's time is spent before it begins: its extension moves a 10 s deadline 20 s back.
    monkeypatch.setattr(hand_reader, "SPARE_SECONDS", -20.0)
    reading = read_hand(kept, size, budget=SearchBudget(seconds=10.0), spares=spares)
    assert reading.spares_used == [] and "search_budget_exhausted" in reading.warning_codes
    monkeypatch.undo()
    reading = read_hand(kept, size, budget=SearchBudget(), spares=spares)
    assert_hand(reading, HAND)
    assert "spare_tile_used" in reading.warning_codes and "search_budget_exhausted" not in reading.warning_codes


def test_a_plain_callable_naming_the_spares_is_taken_as_documented():
    # read_hand's spares may be "a callable naming them on demand": Recognition.spares (SpareTiles) has a length
    # too, but a plain function has none and len(spares) raised TypeError before the callable was ever called.
    detections, size = _photo(0)
    missing = MISSING["concealed"]
    kept = detections[np.arange(len(detections)) != missing]
    named = []

    def spares() -> Detections:
        named.append(True)
        return detections[[missing]]

    assert_hand(read_hand(kept, size, budget=_states_only(), spares=spares), HAND)
    assert named == [True]
    assert_hand(read_hand(detections, size, budget=_states_only(), spares=spares), HAND)
    assert named == [True]  # tiles that make the hand alone: not named


def test_the_straddling_test_gets_the_tiles_names_and_never_takes_a_spare(monkeypatch):
    # R77 (docs/rules-session45.md) lists unsurely named boxes that overlap both row neighbours; ``read_hand`` gives
    # it every tile's top-1 probability, and the spare candidates (which overlap their neighbours by design) as sure
    # ones, so that a spare is never tried left out as a stray.
    seen = []
    real = hand_reader._crowded_boxes

    def spy(frame, rows, class_ids, confidence=None):
        seen.append((len(class_ids), None if confidence is None else np.array(confidence)))
        return real(frame, rows, class_ids, confidence)

    monkeypatch.setattr(hand_reader, "_crowded_boxes", spy)
    detections, size = _photo(0)
    missing = MISSING["meld"]
    kept = detections[np.arange(len(detections)) != missing]
    spares = _clutter_spare(detections).concat(detections[missing])
    spares = Detections(spares.boxes, spares.class_ids, np.full(len(spares), 0.2, np.float32), spares.rotation,
                        spares.topk_ids, np.full_like(spares.topk_probs, 0.2))
    read_hand(kept, size, budget=_states_only(), spares=spares)
    plain = [named for n, named in seen if n == len(kept)]
    with_spare = [named for n, named in seen if n == len(kept) + 1]
    assert plain and with_spare  # the spare stage ran
    assert all(named is not None and np.allclose(named, kept.confidence) for named in plain)
    assert all(np.allclose(named[:len(kept)], kept.confidence) and named[len(kept)] == 1.0 for named in with_spare)
