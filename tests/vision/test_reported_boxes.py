"""Boxes as the recogniser reports them (B50, docs/rules-session50.md): the localiser boxes a tile's whole body, real
photos' labels outline its face, so reported boxes are the localiser's scaled about their centres; a client's boxes
are scaled back before any reading."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import REPORTED_BOX_SCALE, Detections, box_iou, boxes_from_reported, reported_boxes
from vision.metrics import HK_TO_CLASS, read_yolo_labels
from vision.recognize import Recognizer

ROOT = Path(__file__).resolve().parents[2]
HK_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "images").glob("hk_valid_*.jpg"))


def test_reported_boxes_keep_their_centres_and_scale_back_exactly():
    boxes = np.array([[10.0, 20.0, 50.0, 80.0], [0.0, 0.0, 1.0, 3.0], [5.0, 5.0, 5.0, 5.0]])
    reported = reported_boxes(boxes)
    np.testing.assert_allclose((reported[:, :2] + reported[:, 2:]) / 2, (boxes[:, :2] + boxes[:, 2:]) / 2)
    np.testing.assert_allclose(reported[:, 2:] - reported[:, :2], (boxes[:, 2:] - boxes[:, :2]) * REPORTED_BOX_SCALE)
    np.testing.assert_allclose(boxes_from_reported(reported), boxes, atol=1e-9)
    assert REPORTED_BOX_SCALE < 1.0  # a face lies inside its tile's body


def test_the_tiles_list_reports_the_scaled_boxes():
    detections = Detections(np.array([[100.0, 100.0, 150.0, 170.0]]), np.array([3]), np.array([0.9]))
    [tile] = detections.to_json()
    assert tile["box"] == [round(float(v), 1) for v in reported_boxes(detections.boxes)[0]]
    assert tile["box"] != [100.0, 100.0, 150.0, 170.0]


@pytest.fixture(scope="module")
def rec():
    return Recognizer.load(ROOT / "models")


@pytest.mark.parametrize("img", HK_FIXTURES, ids=lambda p: p.name)
def test_reported_boxes_fit_the_labelled_faces_closer(rec, img):
    # Independent truth: hk-photos valid's own label files (face outlines), never trained on.
    h, w = cv2.imread(str(img)).shape[:2]
    labels, _ = read_yolo_labels(img.with_suffix(".txt"), w, h, HK_TO_CLASS)
    boxes = rec.recognize(img).detections.boxes.astype(np.float64)
    reported = np.array([tile["box"] for tile in Detections(boxes, np.zeros(len(boxes)),
                                                            np.ones(len(boxes))).to_json()])
    as_found = box_iou(boxes, labels).max(axis=0)  # each label's best overlap
    as_reported = box_iou(reported, labels).max(axis=0)
    matched = as_found >= 0.3
    assert matched.sum() >= 0.8 * len(labels)
    assert as_reported[matched].mean() > as_found[matched].mean()
    assert (as_reported >= 0.5).sum() >= (as_found >= 0.5).sum()


def test_the_referee_page_taps_as_far_as_the_reported_scale_says():
    # The page cannot import the constant: its tap reach (a tile's body around its face box) names it again.
    page = (ROOT / "api" / "static" / "referee.js").read_text()
    assert f"const TAP_REACH = (1 / {REPORTED_BOX_SCALE} - 1) / 2;" in page
