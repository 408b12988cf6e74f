"""The photo's geometry from the tiles: quarter turn, tilt, local tile size, rows, stacked tiles, duplicates."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hand_reader.builder import W, Table
from vision.reading import geometry


def frame_of(table: Table, **photo):
    detections, _, order = table.photo(shuffle=False, **photo)
    frame = geometry.normalise(detections.boxes, detections.rotation, detections.class_ids, detections.confidence)
    return frame, detections


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
@pytest.mark.parametrize("tilt", [-30.0, 0.0, 12.0])
def test_quarter_turn_and_tilt_are_recovered(turn, tilt):
    frame, _ = frame_of(Table().row("1m 2m 3m 4m 5m 6m 7m | s8m 8m 8m"), turn=turn, tilt=tilt)
    assert frame.quarter_turn == turn
    assert abs(frame.tilt - tilt) < 1.0
    # in the normalised frame the row runs left to right in the winner's order, on one line
    assert (np.diff(frame.centers[:, 0]) > 0).all()
    assert np.ptp(frame.centers[:7, 1]) < 0.05 * W
    assert frame.sideways.tolist() == [False] * 7 + [True, False, False]


def test_the_winners_order_survives_an_upside_down_photo():
    frame, detections = frame_of(Table().row("1m 2m 3m"), turn=180)
    # in the image the 1m is right-most; in the normalised frame it is left-most again
    assert detections.centers[0, 0] > detections.centers[2, 0]
    assert frame.centers[0, 0] < frame.centers[2, 0]


def test_local_units_follow_perspective_and_gaps_read_in_tile_widths():
    # Two rows at different depths come out at different sizes; gaps are still read in local tile widths.
    table = Table(gap=0.6).row("1m 2m 3m 4m 5m | 6m", bottom=-2.0).row("1p 2p 3p 4p 5p 6p 7p | 8p")
    perspective = 0.3
    frame, _ = frame_of(table, tilt=8.0, perspective=perspective)
    centres = np.array([[t["cx"], t["cy"]] for t in table.tiles])
    span = float(np.ptp(centres, axis=0).max()) + 81.0
    scale = 1.0 / (1.0 + perspective * (centres[:, 1] - centres[:, 1].mean()) / span)  # the builder's foreshortening
    # (box widths also grow away from the image centre, where vertical edges converge, so compare row means)
    far, near = slice(0, 6), slice(6, 14)
    assert abs((frame.unit[far].mean() / frame.unit[near].mean()) / (scale[far].mean() / scale[near].mean()) - 1) < 0.1
    assert abs(frame.gap(4, 5) - 0.6) < 0.1 and abs(frame.gap(12, 13) - 0.6) < 0.1
    assert max(abs(frame.gap(k, k + 1)) for k in (0, 1, 2, 3, 6, 7, 8, 9, 10, 11)) < 0.12


def test_rows_are_separate_lines():
    table = Table().row("s1m 2m 3m", x=1.0, bottom=-1.3).row("4p 5p 6p 7p 8p").tile("9s", x=30, y=0)
    frame, _ = frame_of(table, turn=90)
    chains = geometry.rows(frame, np.ones(len(table.tiles), bool))
    assert chains == [[0, 1, 2], [3, 4, 5, 6, 7], [8]]


def test_a_tile_laid_on_or_beside_a_sideways_tile_is_stacked_on_it():
    for token in ("t", "o"):
        table = Table().row(f"1m 1m 1m | 6p s6p {token}6p 6p")
        frame, _ = frame_of(table, turn=270, tilt=5.0)
        stacked = geometry.find_stacked(frame, np.ones(len(table.tiles), bool))
        assert stacked == {5: 4}


def test_two_beside_pairs_with_their_claimed_tiles_touching_are_both_stacked():
    # B69c: each added tile touches the other kong's, in line with it; the standing tiles tell the bases
    for gap in (0.1, 0.2, 0.6):
        table = Table(gap=gap).row("1m 2m 3m | 4p 4p s4p t4p | s6s t6s 6s 6s")
        frame, detections = frame_of(table, turn=270, tilt=5.0)
        active = np.ones(len(table.tiles), bool)
        assert geometry.find_stacked(frame, active) == geometry.find_stacked(frame, active, detections.class_ids) \
            == {6: 5, 8: 7}


def test_a_pair_of_two_faces_is_not_stacked_by_the_standing_tiles_test():
    # B69c: with the faces known, a sideways 5s against a claimed 4p is no added tile (an added kong shows one face)
    table = Table(gap=0.1).row("1m 2m 3m | 4p 4p s4p t5s | s6s t6s 6s 6s")
    frame, detections = frame_of(table, turn=270, tilt=5.0)
    active = np.ones(len(table.tiles), bool)
    assert geometry.find_stacked(frame, active) == {6: 5, 8: 7}
    assert geometry.find_stacked(frame, active, detections.class_ids) == {8: 7}


def test_a_loose_tile_of_another_face_against_the_claimed_tile_does_not_take_the_added_tiles_place():
    # B69c (B69b): the loose 9m (listed first) lies against the claimed 4p on the winner's side, the added 4p on
    # the far side
    table = Table().tile("9m", x=6.375, y=0.38, turn=90).row("1m 2m 3m | 4p 4p s4p t4p")
    frame, detections = frame_of(table, turn=270, tilt=5.0)
    active = np.ones(len(table.tiles), bool)
    assert geometry.find_stacked(frame, active) == {0: 6}  # the tiles' order alone: the loose tile taken
    assert geometry.find_stacked(frame, active, detections.class_ids) == {7: 6}


def test_two_touching_meld_rows_are_not_stacked():
    table = Table().row("s1m 2m 3m", bottom=-1.0).row("s4m 5m 6m")
    frame, _ = frame_of(table)
    assert geometry.find_stacked(frame, np.ones(len(table.tiles), bool)) == {}


def test_a_tile_detected_twice_is_one_tile_but_sideways_pairs_are_kept():
    boxes = np.array([[0, 0, 60, 80], [2, 1, 61, 80], [100, 0, 160, 80]], np.float32)
    assert geometry.duplicates(boxes, np.array([0.9, 0.8, 0.9])).tolist() == [False, True, False]
    keep = np.array([True, True, False])
    assert geometry.duplicates(boxes, np.array([0.9, 0.8, 0.9]), keep_pairs=keep).tolist() == [False, False, False]


def test_a_tilted_row_split_from_a_meld_row_laid_close_in_front_keeps_its_end():
    # A standing concealed row drifting across the frame (perspective) with two melds laid close in front of it,
    # their centres interleaved across the rows: the split between the rows cuts where the centres are furthest apart
    # across them, which is inside the drifting row, before its set-apart end tile. That end lies on the row's line
    # and collides with nothing: it is the row's. (Centres and units as measured on a synthetic photo, tile widths.)
    concealed = [(137, -434), (207, -428), (277, -423), (346, -416), (417, -411), (487, -405), (556, -400)]
    winning = [(658, -391)]
    melds = [(132, -468, True), (211, -469, False), (278, -463, False), (380, -447, True), (460, -449, False),
             (526, -442, False)]
    centers = np.array(concealed + winning + [(x, y) for x, y, _ in melds], float)
    n = len(centers)
    sideways = np.array([False] * 8 + [s for _, _, s in melds])
    unit = np.full(n, 75.0)
    aspect = 1.3
    frame = geometry.Frame(centers=centers, unit=unit, along=np.where(sideways, aspect * unit, unit),
                           across=np.where(sideways, unit, aspect * unit), sideways=sideways,
                           face_down=np.zeros(n, bool), quarter_turn=0, tilt=0.0, aspect=aspect)
    chains = geometry.rows(frame, np.ones(n, bool))
    assert sorted(map(sorted, chains)) == [list(range(8)), [8, 9, 10], [11, 12, 13]]


@pytest.mark.parametrize("shift", [10.0, -10.0])
@pytest.mark.parametrize("spare_sideways", [False, True])
def test_a_second_box_on_a_flipped_row_tile_changes_nothing_whichever_comes_first(shift, spare_sideways):
    # T49c (docs/rules-session49.md): two upright faces, then four whose labels perspective flipped to sideways (a
    # run to straighten), and a second box on the fourth tile, its centre a tenth of a tile before or after it along
    # the row, labelled either way. Runs are built over places along the row, so the box joins its tile's place
    # in either order: all four are straightened and the box keeps no sideways label of its own (T49b, looking back
    # from each tile to the last one only, left a tile or the box sideways, by the chain's order).
    xs = [0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 300.0 + shift]
    sideways = np.array([False, False, True, True, True, True, spare_sideways])
    n, aspect = len(xs), 1.38
    unit = np.full(n, 100.0)
    frame = geometry.Frame(centers=np.stack([np.array(xs), np.zeros(n)], axis=1), unit=unit,
                           along=np.where(sideways, aspect * unit, unit),
                           across=np.where(sideways, unit, aspect * unit), sideways=sideways,
                           face_down=np.zeros(n, bool), quarter_turn=0, tilt=0.0, aspect=aspect,
                           relative=np.where(sideways, 90, 0))
    chain = sorted(range(n), key=lambda k: xs[k])
    straightened = geometry.straighten_sideways_runs(frame, [chain])
    assert not straightened.sideways.any()
