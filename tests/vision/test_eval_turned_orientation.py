"""bench/eval_turned_orientation.py counts a face-up tile right when its sideways-or-not relative to the concealed row
matches the truth's, in photos whose rows lie turned off the picture's axes, and counts apart tiles lying 25-45
degrees from every quarter turn of their row (docs/rules-session60.md, R60)."""

import math

import numpy as np

from tests.bench_modules import load_bench


def _bench():
    return load_bench("eval_turned_orientation")


def _unit(degrees):
    return np.array([math.cos(math.radians(degrees)), math.sin(math.radians(degrees))])


def _tile(role, centre, up_degrees, w=30.0, h=40.0):
    """A rendered tile record whose face's up direction points ``up_degrees`` (y down); corners TL, TR, BR, BL."""
    up, right = _unit(up_degrees), _unit(up_degrees + 90.0)
    quad = [centre - right * w / 2 + up * h / 2, centre + right * w / 2 + up * h / 2,
            centre + right * w / 2 - up * h / 2, centre - right * w / 2 - up * h / 2]
    q = np.array(quad)
    return {"role": role, "face_down": False, "quad": q.tolist(), "box": [*q.min(0), *q.max(0)]}


def _scene(row_degrees, meld_off=0.0):
    """Six concealed tiles standing in a row that runs ``row_degrees``, a sideways meld tile (turned ``meld_off``
    degrees further) and a flower lying 32 degrees off the row's upright, further along the same line."""
    along = _unit(row_degrees)
    start = np.array([120.0, 120.0])
    upright = row_degrees - 90.0
    tiles = [_tile("concealed", start + along * 36.0 * i, upright) for i in range(6)]
    tiles.append(_tile("meld", start + along * 36.0 * 7, upright + 90.0 + meld_off))
    tiles.append(_tile("flower", start + along * 36.0 * 9, upright + 32.0))
    return {"tiles": tiles}


def _counts(bench, scene, rotations):
    boxes = np.array([t["box"] for t in scene["tiles"]], np.float32)
    return bench.scene_counts(scene, boxes, np.zeros(len(boxes), np.int64), np.array(rotations))


def test_a_read_that_keeps_the_rows_sideways_tiles_apart_is_right():
    bench = _bench()
    counted = _counts(bench, _scene(40.0), [0] * 6 + [90, 0])
    assert sorted(counted) == sorted([("concealed", True)] * 6 + [("meld", True), ("flower 25-45 off", True)])


def test_a_sideways_tile_read_as_the_row_is_wrong_in_a_frame_a_quarter_turn_from_the_truth():
    bench = _bench()
    # the pipeline's frame a quarter turn from the truth's: the concealed tiles read 90, the meld tile and the flower
    # 270, as upright in the row as they are
    counted = dict(_counts(bench, _scene(40.0), [90] * 6 + [270, 270]))
    assert counted["meld"] is False
    assert counted["flower 25-45 off"] is True
    assert counted["concealed"] is True


def test_photos_whose_rows_lie_along_the_axes_are_not_counted():
    bench = _bench()
    assert _counts(bench, _scene(5.0), [0] * 6 + [90, 0]) is None


def test_tiles_lying_beyond_25_degrees_of_a_quarter_turn_are_counted_apart():
    bench = _bench()
    near = dict(_counts(bench, _scene(40.0, meld_off=20.0), [0] * 6 + [90, 0]))
    far = dict(_counts(bench, _scene(40.0, meld_off=-30.0), [0] * 6 + [90, 0]))
    assert "meld" in near and "meld 25-45 off" not in near
    assert "meld 25-45 off" in far and "meld" not in far


def test_photos_with_no_face_up_concealed_tile_matched_are_not_counted():
    bench = _bench()
    scene = _scene(40.0)
    for tile in scene["tiles"]:
        if tile["role"] == "concealed":
            tile["face_down"] = True
    assert _counts(bench, scene, [0] * 6 + [90, 0]) is None
