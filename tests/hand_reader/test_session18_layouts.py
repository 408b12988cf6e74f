"""Two reader rules of docs/rules-session18.md: stray boxes crowding a photo are also left out two at a time (c2,
c2b), and reversible faces (1p, 5z...), whose up/down labels are less often right, weigh less in the photo's turn
(rvw)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.hand import Hand
from vision import hand_reader
from vision.classes import FACE_CODES, REVERSIBLE_CLASSES
from vision.detections import Detections
from vision.hand_reader import read_hand
from vision.reading import decode, geometry
from vision.reading.decode import SearchBudget

from tests.hand_reader.builder import Table
from tests.hand_reader.test_layouts import assert_hand, same_hand


def _with_strays(detections: Detections, strays: list[tuple[int, int, float, str]]) -> Detections:
    """``detections`` with one stray box per (a, b, share, code): the box ``share`` of the way from detection a's box
    to b's (so straddling the two), top-1 ``code`` at 0.5, turned as a."""
    boxes, ids, probs, rotation = [detections.boxes], [detections.topk_ids], [detections.topk_probs], [detections.rotation]
    for a, b, share, code in strays:
        boxes.append((detections.boxes[a] * (1 - share) + detections.boxes[b] * share)[None])
        ids.append(np.array([[FACE_CODES.index(code), 41, 40]]))
        probs.append(np.array([[0.5, 0.2, 0.1]], np.float32))
        rotation.append(detections.rotation[[a]])
    ids, probs = np.concatenate(ids), np.concatenate(probs)
    return Detections(np.concatenate(boxes), ids[:, 0], probs[:, 0], np.concatenate(rotation), ids, probs)


def _states_only() -> SearchBudget:
    """A budget of search states only: these readings must not hang on the CPU time a loaded test run leaves them."""
    return SearchBudget(seconds=math.inf)


ROW = "1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z || s4s 5s 6s"
HAND = "123m555p888s3z c4*56s< +3z"


@pytest.mark.parametrize("turn", [0, 90, 180])
@pytest.mark.parametrize("shares", [(0.5, 0.5), (0.35, 0.65), (0.65, 0.35)])
@pytest.mark.parametrize("names", [("7p", "5s"), ("2m", "5s"), ("3m", "6s")])
def test_two_stray_boxes_in_one_photo_are_both_left_out(turn, shares, names):
    # one box straddles two concealed tiles, another two tiles of the chow: each left out alone, the reading keeps
    # the other (a kong of 4s 5s 5s 6s, or one concealed tile too many); left out together, the hand is whole.
    # The layout cannot tell a stray box from the tile it covers, so the pairs also take a crowding neighbour in a
    # stray's place, and the faces choose (with a stray named 7p, the 2m it covers must stay).
    detections, size, _ = Table().row(ROW).photo(turn=turn, shuffle=False)
    crowded = _with_strays(detections, [(1, 2, shares[0], names[0]), (12, 13, shares[1], names[1])])
    reading = read_hand(crowded, size, budget=_states_only())
    assert_hand(reading, HAND)
    if names[0] == "7p":  # no legal hand takes a 7p there: both strays are left out (another name may stand in)
        assert [reading.tile_roles[len(detections) + k]["role"] for k in (0, 1)] == ["clutter", "clutter"]


def test_both_stray_boxes_are_left_out_in_the_cheapest_layout():
    detections, size, _ = Table().row(ROW).photo(shuffle=False)
    n = len(detections)
    crowded = _with_strays(detections, [(1, 2, 0.5, "7p"), (12, 13, 0.5, "5s")])
    attempts = hand_reader._layouts_for(crowded, 0)
    plain = attempts[0][1]
    frame, dropped, _, layout = min(attempts, key=lambda attempt: attempt[3].cost)
    assert sorted(np.flatnonzero(dropped & ~plain).tolist()) in ([1, n + 1], [n, n + 1], [2, n + 1])
    assert layout.count_ok and layout.winning is not None and len(layout.melds) == 1
    assert any(sorted(np.flatnonzero(a[1] & ~plain).tolist()) == [n, n + 1] for a in attempts), \
        "the pair of the two strays themselves is among the layouts tried"


def test_without_pairs_no_layout_leaves_both_strays_out(monkeypatch):
    monkeypatch.setattr(hand_reader, "PAIR_CROWDED_BOXES", False)
    detections, size, _ = Table().row(ROW).photo(shuffle=False)
    crowded = _with_strays(detections, [(1, 2, 0.5, "7p"), (12, 13, 0.5, "5s")])
    attempts = hand_reader._layouts_for(crowded, 0)
    plain = attempts[0][1]
    assert all(int((a[1] & ~plain).sum()) <= 1 for a in attempts)


def test_the_reversible_faces_are_the_pushed_over_tiles():
    assert sorted(FACE_CODES[k] for k in REVERSIBLE_CLASSES) == sorted(
        "1p 2p 3p 4p 5p 8p 9p 2s 4s 5s 6s 8s 9s 5z".split())


def test_a_reversible_face_weighs_less_in_the_turn_votes():
    one_p, seven_m = FACE_CODES.index("1p"), FACE_CODES.index("7m")
    votes = geometry.quarter_turn_votes(np.array([180, 180, 0]), np.array([one_p, one_p, seven_m]),
                                        np.ones(3, np.float32))
    w = geometry.REVERSIBLE_WEIGHT
    assert 0.0 < w < 1.0
    assert votes == pytest.approx({0: 1.0 + 2 * (1 - w) / 2, 90: 0.0, 180: 2 * (1 + w) / 2, 270: 0.0})
    assert sum(votes.values()) == pytest.approx(3.0)  # moved between turns, none lost


def _reversible_upside_down(turn: int) -> tuple[Detections, tuple[int, int]]:
    # a flat row whose reversible faces came out labelled upside down, as their weaker up/down labels may: 8 of the
    # 14 faces, against 6 (7z, 7m) labelled upright; the winning 1p is set apart at the right end (read the other way
    # round, the left-most 3p would be taken for the winning tile)
    table = Table().row("3p 3p 3p 1p 1p 5p 5p 7z 7z 7z 7m 7m 7m | 1p")
    detections, size, _ = table.photo(turn=turn, shuffle=False)
    rotation = detections.rotation.copy()
    reversible = np.isin(detections.class_ids, list(REVERSIBLE_CLASSES))
    rotation[reversible] = (rotation[reversible] + 180) % 360
    return Detections(detections.boxes, detections.class_ids, detections.confidence, rotation,
                      detections.topk_ids, detections.topk_probs), size


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_reversible_faces_labelled_upside_down_do_not_outvote_the_others(turn):
    detections, size = _reversible_upside_down(turn)
    reading = read_hand(detections, size, budget=_states_only())
    assert_hand(reading, "11333p55p777z777m +1p")
    assert reading.orientation["quarter_turn"] == turn


def test_counting_reversible_faces_as_any_face_turns_the_photo_round(monkeypatch):
    # the session-17 reading: the eight upside-down labels outvote the six upright ones, and the set-apart 1p is lost
    # (the order prior of session 20 would keep this row right on its own: it is switched off to test the weight)
    monkeypatch.setattr(geometry, "REVERSIBLE_WEIGHT", 1.0)
    monkeypatch.setattr(decode, "ORDER_WEIGHT", 0.0)
    detections, size = _reversible_upside_down(0)
    reading = read_hand(detections, size, budget=_states_only())
    assert reading.hand is None or not same_hand(reading.hand, Hand.parse("11333p55p777z777m +1p"))


def test_upright_labels_keep_the_photo_upright_whatever_the_reversible_weight(monkeypatch):
    # a regression guard: with every face labelled upright the turn stands, at the committed weight as at full weight
    detections, size, _ = Table().row("3p 3p 3p 1p 1p 5p 5p 7z 7z 7z 7m 7m 7m | 1p").photo(shuffle=False)
    for weight in (geometry.REVERSIBLE_WEIGHT, 1.0):
        monkeypatch.setattr(geometry, "REVERSIBLE_WEIGHT", weight)
        reading = read_hand(detections, size, budget=_states_only())
        assert_hand(reading, "11333p55p777z777m +1p")
        assert reading.orientation["quarter_turn"] == 0
