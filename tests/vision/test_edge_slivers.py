"""E64b (docs/rules-session64.md): a box that the picture's edge cuts to under half a tile is read like any other but
reported among the tiles only where the reading uses it; the reader's own test (R54) keeps such boxes out of its rows."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classes import CLASS_NAMES, FACE_DOWN
from vision.detections import Detections, edge_slivers
from vision.metrics import HK_TO_CLASS, TileScore, read_yolo_labels
from vision.recognize import EDGE_SLIVER_SHARE, REPORT_SCORE, Recognition, Recognizer

ROOT = Path(__file__).resolve().parents[2]
PHOTO = ROOT / "tests" / "fixtures" / "images" / "hk_valid_0.jpg"  # a real photo: three columns of tiles ~90 px


def _boxes(*rows):
    return np.array(rows, np.float64).reshape(-1, 4)


# three whole tiles 20 x 28 in a 200 x 100 picture, and one more box, placed by each test
WHOLE = [[50, 30, 70, 58], [80, 30, 100, 58], [110, 30, 130, 58]]


@pytest.mark.parametrize("box", [[0, 30, 8, 58], [192, 30, 200, 58], [50, 0, 70, 8], [50, 92, 70, 100]],
                         ids=["left", "right", "top", "bottom"])
def test_a_box_cut_to_under_half_a_tile_at_any_edge_is_a_sliver(box):
    assert edge_slivers(_boxes(*WHOLE, box), (200, 100), 0.5).tolist() == [False, False, False, True]


@pytest.mark.parametrize("box, sliver", [
    ([0, 30, 9.9, 58], True),  # short side 9.9 under half the median 20
    ([0, 30, 10, 58], False),  # half a tile: not under it
    ([1.9, 30, 9, 58], True),  # within the 2 px margin of the edge
    ([2.1, 30, 9, 58], False),  # a small box off the edge is a small tile, not a cut one
])
def test_the_share_and_the_margin_are_bounds(box, sliver):
    assert edge_slivers(_boxes(*WHOLE, box), (200, 100), 0.5)[-1] == sliver


def test_with_fewer_than_two_boxes_nothing_is_a_sliver():
    assert edge_slivers(_boxes([0, 0, 3, 3]), (200, 100), 0.5).tolist() == [False]
    assert edge_slivers(np.zeros((0, 4)), (200, 100), 0.5).tolist() == []


def _recognition(boxes, scores=None, read_scale=1.0, size=(200, 100)):
    boxes = np.asarray(boxes, np.float32)
    n = len(boxes)
    detections = Detections(boxes, np.zeros(n, np.int64), np.full(n, 0.9, np.float32))
    return Recognition(detections, *size, box_scores=None if scores is None else np.asarray(scores, np.float32),
                       read_scale=read_scale)


def test_a_recognition_marks_its_slivers_and_its_low_scored_boxes_unsure():
    assert EDGE_SLIVER_SHARE == 0.5 and REPORT_SCORE == 0.4
    recognition = _recognition(WHOLE + [[0, 30, 6, 58]], scores=[0.9, 0.35, 0.9, 0.9])
    assert recognition.edge_slivers.tolist() == [False, False, False, True]
    assert recognition.low_scored.tolist() == [False, True, False, False]
    assert recognition.unsure.tolist() == [False, True, False, True]
    # without the localiser's scores the slivers are still unsure
    assert _recognition(WHOLE + [[0, 30, 6, 58]]).unsure.tolist() == [False, False, False, True]


def test_the_edge_margin_is_a_pixel_of_the_picture_as_read():
    # a JPEG read at 1/4: boxes come back in the picture's pixels, 4 of them to a pixel the models saw
    cut = WHOLE + [[7, 30, 9, 58]]  # 7 px from the edge: 1.75 pixels as read
    assert _recognition(cut, read_scale=4.0).edge_slivers[-1]
    assert not _recognition(cut, read_scale=1.0).edge_slivers[-1]


@pytest.fixture(scope="module")
def cut_photo(tmp_path_factory):
    """hk_valid_0 cut at four fifths of its left-most labelled tile: the tiles of that column keep a fifth of
    their width at the new left edge. Returns (path, labels wholly inside the cut: boxes, classes)."""
    image = cv2.imread(str(PHOTO))
    height, width = image.shape[:2]
    boxes, classes = read_yolo_labels(PHOTO.with_suffix(".txt"), width, height, HK_TO_CLASS)
    first = boxes[np.argmin(boxes[:, 0])]
    x = int(first[0] + 0.8 * (first[2] - first[0]))
    path = tmp_path_factory.mktemp("edge") / "cut.png"
    cv2.imwrite(str(path), image[:, x:])
    inside = boxes[:, 0] >= x
    return path, boxes[inside] - [x, 0, x, 0], classes[inside]


def test_the_cli_reports_no_sliver_of_a_cut_photo_and_every_whole_tile(cut_photo):
    path, label_boxes, label_classes = cut_photo
    recognition = Recognizer.load().recognize(path)
    slivers = np.flatnonzero(recognition.edge_slivers)
    assert len(slivers) >= 2  # the fixture's reason to be here: the localiser boxes the cut column's quarters
    assert (recognition.detections.boxes[slivers, 0] <= 2).all()  # all at the left edge, where the photo was cut
    out = subprocess.run([sys.executable, "-m", "vision", "recognize", str(path)], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    line = json.loads(out.stdout.splitlines()[0])
    reported = [t for t in line["tiles"] if not t.get("spare")]
    every = recognition.detections.to_json()
    assert reported == [t for i, t in enumerate(every) if i not in set(slivers.tolist())]
    # against the labels of the tiles wholly in the picture: the slivers were false tiles, so leaving them out
    # raises precision and loses nothing the labels hold
    def score(tiles):
        score = TileScore()
        boxes = np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4)
        classes = np.array([FACE_DOWN if t["face_down"] else CLASS_NAMES.index(t["code"]) for t in tiles],
                           np.int64)
        score.add(boxes, classes, label_boxes, label_classes)
        return score.summary()
    kept, all_boxes = score(reported), score(every)
    assert kept["recall"] == all_boxes["recall"] and kept["precision"] > all_boxes["precision"], (kept, all_boxes)
