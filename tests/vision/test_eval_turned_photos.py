"""bench/eval_turned_photos.py turns a label box with its photo (the box around its turned corners), keeps the photo's
size or grows the canvas to hold it, and judges only whole tiles: a label the frame cuts is left out, and so is every
box found on it."""

import math

import cv2
import numpy as np
import pytest

from tests.bench_modules import load_bench


@pytest.fixture(scope="module")
def bench():
    return load_bench("eval_turned_photos")


def test_a_quarter_turn_moves_a_box_as_the_pixels_move(bench):
    # a 200 x 100 picture turned 90 degrees counter-clockwise on a grown canvas is 100 x 200; the pixel at (x, y) goes
    # to (y, 200 - x)
    matrix, w, h = bench.turning(200, 100, 90.0, grown=True)
    assert (w, h) == (100, 200)
    picture = np.zeros((100, 200), np.uint8)
    picture[10:30, 150:190] = 255  # a box x 150..190, y 10..30
    turned = cv2.warpAffine(picture, matrix, (w, h))
    ys, xs = np.nonzero(turned > 127)
    box = bench.turned_boxes(np.array([[150.0, 10.0, 190.0, 30.0]]), matrix)[0]
    np.testing.assert_allclose(box, [10.0, 10.0, 30.0, 50.0], atol=1e-6)
    assert abs(xs.min() - box[0]) <= 1 and abs(xs.max() + 1 - box[2]) <= 1
    assert abs(ys.min() - box[1]) <= 1 and abs(ys.max() + 1 - box[3]) <= 1


def test_a_turned_box_is_the_box_around_its_turned_corners(bench):
    matrix, w, h = bench.turning(400, 300, 30.0, grown=False)
    assert (w, h) == (400, 300)  # same size: the corners are cut
    box = bench.turned_boxes(np.array([[180.0, 130.0, 220.0, 170.0]]), matrix)[0]  # a 40 x 40 square on the centre
    half = 20 * (math.cos(math.radians(30)) + math.sin(math.radians(30)))
    np.testing.assert_allclose(box, [200 - half, 150 - half, 200 + half, 150 + half], atol=1e-6)
    grown_matrix, gw, gh = bench.turning(400, 300, 30.0, grown=True)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    assert (gw, gh) == (math.ceil(400 * c + 300 * s), math.ceil(400 * s + 300 * c))
    # the centre of the picture goes to the centre of the grown canvas
    np.testing.assert_allclose(grown_matrix @ [200.0, 150.0, 1.0], [gw / 2, gh / 2], atol=1e-6)


def test_only_whole_tiles_are_judged(bench):
    labels = np.array([[10.0, 10.0, 50.0, 60.0],     # inside
                       [-5.0, 100.0, 30.0, 150.0],   # cut by the left edge
                       [170.0, 170.0, 230.0, 220.0]])  # cut by the bottom-right corner
    found = np.array([[12.0, 12.0, 48.0, 58.0],      # on the whole tile
                      [0.0, 105.0, 28.0, 145.0],     # its centre on the cut tile: left out
                      [175.0, 175.0, 199.0, 199.0],  # its centre (187, 187) on the cut corner tile: left out
                      [100.0, 100.0, 120.0, 130.0]])  # on no label: kept (a false box counts)
    kept_labels, kept_found = bench.whole_tiles(labels, found, 200, 200)
    assert kept_labels.tolist() == [True, False, False]
    assert kept_found.tolist() == [True, False, False, True]
