"""Squeezed pictures (vision.squeeze): the squeeze is seen in the gradients, the stretch kept is the smallest that finds
about as many tiles as the best, boxes come back in the picture's own pixels, and a real photo of a row of tiles
forced into a square is read once stretched back."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import box_iou
from vision.metrics import HK_TO_CLASS, TileScore, read_yolo_labels
from vision.recognize import Recognizer
from vision.squeeze import CONFIDENT, GATE, anisotropy, is_square, localize_unsqueezed

ROOT = Path(__file__).resolve().parents[2]
STRIP = ROOT / "tests" / "fixtures" / "images" / "hk_strip_0.jpg"


def _checkerboard(cell_w: int, cell_h: int, size: int = 640) -> np.ndarray:
    ys, xs = np.mgrid[0:size, 0:size]
    board = (((xs // cell_w) + (ys // cell_h)) % 2 * 255).astype(np.uint8)
    return cv2.cvtColor(board, cv2.COLOR_GRAY2BGR)


def test_anisotropy_sign_follows_the_squeezed_axis():
    assert abs(anisotropy(_checkerboard(40, 40))) < 0.1
    # cells 8 wide, 64 tall: the width was squeezed, vertical edges dominate -> positive
    assert anisotropy(_checkerboard(8, 64)) > GATE
    assert anisotropy(_checkerboard(64, 8)) < -GATE


class _FakeLocalizer:
    """Finds ``n`` tiles, confidently, only when the picture's height/width lies within a factor e^``tolerance`` of
    ``aspect`` (a strip of ``n`` tiles side by side); otherwise two doubtful boxes. Records the pictures' shapes."""

    def __init__(self, n: int, aspect: float, tolerance: float = 0.45):
        self.n, self.aspect, self.tolerance, self.shapes = n, aspect, tolerance, []

    def __call__(self, picture):
        h, w = picture.shape[:2]
        self.shapes.append((h, w))
        if abs(np.log((h / w) / self.aspect)) < self.tolerance:
            xs = np.linspace(0, w, self.n + 1)
            boxes = np.stack([xs[:-1], np.zeros(self.n), xs[1:], np.full(self.n, h)], axis=1).astype(np.float32)
            return boxes, np.full(self.n, 0.9, np.float32), np.zeros(self.n, np.float32)
        boxes = np.float32([[0, 0, 10, 10], [20, 20, 40, 40]])
        return boxes, np.full(2, CONFIDENT - 0.1, np.float32), np.zeros(2, np.float32)


def test_stretch_kept_and_boxes_mapped_back():
    picture = _checkerboard(8, 64)  # squeezed horizontally: a wide original
    # its tiles show when height / width is near 1/4: shrunk 3, 4 or 6 times
    fake = _FakeLocalizer(n=10, aspect=1 / 4)
    boxes, scores, backs, landscape, factor = localize_unsqueezed(fake, picture)
    assert factor == 3  # heights shrunk 3 times: the smallest factor that finds them, confirmed by its neighbour
    assert fake.shapes == [(640, 640)] + [(round(640 / k), 640) for k in (2, 3, 4, 6, 8, 11)]
    assert len(boxes) == 10 and (scores == 0.9).all()
    # back in the square picture's pixels: full height, 64 px wide each
    np.testing.assert_allclose(boxes[:, 3], 640, atol=1e-3)
    np.testing.assert_allclose(boxes[:, 2] - boxes[:, 0], 64, atol=1e-3)
    assert not landscape.any()  # 64 x 213 once stretched back: portrait


def test_lone_factor_is_clutter():
    """Tiles that show at one factor only, neither neighbour agreeing, are not taken for a squeeze."""
    fake = _FakeLocalizer(n=10, aspect=1 / 4, tolerance=0.1)  # only the factor 4 fires
    *_, factor = localize_unsqueezed(fake, _checkerboard(8, 64))
    assert factor == 1


def test_enough_tiles_as_it_came():
    """A picture that already shows tiles is not stretched, whatever its gradients (and costs one localiser run)."""
    fake = _FakeLocalizer(n=8, aspect=1.0)
    *_, factor = localize_unsqueezed(fake, _checkerboard(8, 64))
    assert factor == 1 and fake.shapes == [(640, 640)]


def test_smallest_factor_among_near_best():
    picture = _checkerboard(64, 8)  # squeezed vertically: widths shrink instead

    def localize(p):
        h, w = p.shape[:2]
        k = round(h / w)
        n = {1: 0, 2: 0, 3: 9, 4: 10, 6: 10, 8: 10, 11: 3}.get(k, 0)
        return (np.tile(np.float32([0, 0, 5, 5]), (n, 1)), np.full(n, 0.8, np.float32), np.zeros(n, np.float32))

    *_, factor = localize_unsqueezed(localize, picture)
    assert factor == -3  # 9 >= 0.8 x 10: the smallest factor near the most


def test_plain_picture_left_alone():
    fake = _FakeLocalizer(n=5, aspect=1.0)
    boxes, *_, factor = localize_unsqueezed(fake, _checkerboard(40, 40))
    assert factor == 1 and len(fake.shapes) == 1 and len(boxes) == 5


def test_squeezed_localizer_decides_every_gated_picture():
    """With a second localiser for squeezed pictures, a picture past the anisotropy gate is read by it (as it came and
    stretched), and the stretch it keeps is the answer, whatever the main localiser would find; a plain picture is
    read by the main one alone, as it came."""
    main = _FakeLocalizer(n=12, aspect=1.0, tolerance=5.0)  # finds 12 confident tiles in any picture
    squeezed = _FakeLocalizer(n=10, aspect=1 / 4)
    boxes, *_, factor = localize_unsqueezed(main, _checkerboard(8, 64), squeezed)
    assert main.shapes == [] and factor == 3 and len(boxes) == 10
    assert squeezed.shapes == [(640, 640)] + [(round(640 / k), 640) for k in (2, 3, 4, 6, 8, 11)]
    main.shapes.clear(), squeezed.shapes.clear()
    boxes, *_, factor = localize_unsqueezed(main, _checkerboard(40, 40), squeezed)
    assert factor == 1 and len(boxes) == 12 and main.shapes == [(640, 640)] and squeezed.shapes == []


def test_a_picture_that_is_not_square_is_read_as_it_came_by_the_main_localiser():
    """A picture of a camera's aspect ratio was not forced into a frame, so it is read as it came by the main
    localiser alone, even where its gradients pass the gate (an oblique photo's rows do) and even where the squeezed
    localiser would keep a stretch (docs/rules-session43.md, R70; R68c ran the squeezed localiser on it first, and kept
    a stretch it found). A square picture, the frame an exporter forces pictures into, is read as before."""
    oblique = np.ascontiguousarray(_checkerboard(8, 64)[:480])  # 640 x 480, past the gate
    assert anisotropy(oblique) > GATE and not is_square(oblique) and is_square(_checkerboard(8, 64))
    main = _FakeLocalizer(n=12, aspect=1.0, tolerance=5.0)
    squeezed = _FakeLocalizer(n=10, aspect=0.75 / 4)  # would find its tiles once the heights are shrunk 3-6 times
    boxes, scores, _, landscape, factor = localize_unsqueezed(main, oblique, squeezed)
    assert factor == 1 and len(boxes) == 12 and main.shapes == [(480, 640)] and squeezed.shapes == []
    assert landscape.shape == (12,)
    # without a squeezed localiser too: the main one is not run on stretched copies of it
    few = _FakeLocalizer(n=10, aspect=0.75 / 4)  # nothing confident as it came
    *_, factor = localize_unsqueezed(few, oblique)
    assert factor == 1 and few.shapes == [(480, 640)]
    # the square picture: the squeezed localiser decides it, stretch and all
    main.shapes.clear()
    squeezed = _FakeLocalizer(n=10, aspect=1 / 4)
    boxes, *_, factor = localize_unsqueezed(main, _checkerboard(8, 64), squeezed)
    assert factor == 3 and len(boxes) == 10 and main.shapes == [] and len(squeezed.shapes) == 7
    # and a square picture the squeezed localiser reads as it came keeps its boxes (R68b lost real F1 without them)
    squeezed = _FakeLocalizer(n=9, aspect=1.0)
    boxes, *_, factor = localize_unsqueezed(main, _checkerboard(8, 64), squeezed)
    assert factor == 1 and len(boxes) == 9 and main.shapes == [] and squeezed.shapes == [(640, 640)]


@pytest.fixture(scope="module")
def rec():
    return Recognizer.load(ROOT / "models")


def test_row_of_real_tiles_forced_into_a_square(rec):
    """A real row of 14 tiles (579 x 77 pixels) forced into 640 x 640, as the dataset's exporter did to tight shots
    of one row: read once the squeeze is undone, hardly at all as it came."""
    square = cv2.imread(str(STRIP))
    truth, classes = read_yolo_labels(STRIP.with_suffix(".txt"), 640, 640, HK_TO_CLASS)

    def read(recognizer):
        d = recognizer.recognize_array(square)[0]
        score = TileScore()
        score.add(d.boxes, d.class_ids, truth, classes)
        return score.summary()["f1"], d

    plain = Recognizer(rec.localizer, rec.classifier, unsqueeze=False)
    f1, d = read(rec)
    assert f1 >= 0.7
    assert f1 > read(plain)[0] + 0.3
    # The labelled tiles read upright, though their boxes are 10 times taller than wide. (Boxes on no labelled tile,
    # such as the sliver of a tile cut by the photo's right edge, are left out: what a non-tile is called is the
    # false box's cost, already counted by the F1 above.)
    on_tiles = box_iou(d.boxes, truth).max(axis=1) >= 0.5
    assert on_tiles.sum() >= 12
    assert not np.isin(d.rotation[on_tiles], (90, 270)).any()


def test_stretch_reported_to_the_client(rec):
    """The file read through the whole recogniser says how it was read: stretched across (a wide original), with a
    warning in its JSON; a plain photo carries none."""
    result = rec.recognize(STRIP)
    assert result.stretch > 1
    warnings = result.to_json("strip.jpg")["warnings"]
    assert len(warnings) == 1 and "squeezed" in warnings[0] and f"{result.stretch} times across" in warnings[0]
    plain = rec.recognize(ROOT / "tests" / "fixtures" / "images" / "hk_valid_0.jpg")
    assert plain.stretch == 1 and plain.to_json()["warnings"] == []


def test_committed_squeezed_localizer_is_loaded(rec):
    """models/localizer_squeezed.onnx (the localiser the squeezed-picture rule was fixed with) serves the gated
    pictures; without it the recogniser reads them with the main localiser."""
    assert rec.squeezed_localizer is not None
    plain = Recognizer(rec.localizer, rec.classifier)
    assert plain.squeezed_localizer is None
    assert plain.recognize_array(cv2.imread(str(STRIP)))[0].boxes.shape[1] == 4
