"""Session 24's cheaper naming stage: the 180-degree second look only where it can change something, and the lift
model only on the tiles the reader may read it on. Checked on the committed classifier with the crops of a committed
fixture photo, and on hand-made detections."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classes import FACE_CODES, REVERSIBLE_CLASSES
from vision.detections import Detections
from vision.onnx_models import CropClassifier, crop_tiles
from vision.recognize import LIFT_MIN_TILES, lift_candidates

ROOT = Path(__file__).resolve().parents[2]
PHOTO = ROOT / "tests" / "fixtures" / "images" / "synth_9000001_0.jpg"


@pytest.fixture(scope="module")
def crops():
    import json

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    boxes = np.array([t["box"] for t in truth["tiles"]], np.float32)
    image = cv2.imread(str(PHOTO))
    return crop_tiles(image, boxes, 80)[0]


def test_every_crop_looked_at_twice_is_the_average_of_both_looks(crops):
    full = CropClassifier(ROOT / "models" / "classifier.onnx", second_look_below=1.0)
    c1, o1 = full(crops, turn_average=False)
    c2, o2 = full(np.ascontiguousarray(crops[:, :, ::-1, ::-1]), turn_average=False)
    c, o = full(crops)
    assert np.allclose(c, (c1 + c2) / 2, atol=1e-6)
    assert np.allclose(o, (o1 + np.roll(o2, 2, axis=1)) / 2, atol=1e-6)


def test_only_unsure_or_reversible_crops_get_a_second_look(crops):
    full = CropClassifier(ROOT / "models" / "classifier.onnx", second_look_below=1.0)
    cheap = CropClassifier(ROOT / "models" / "classifier.onnx", second_look_below=0.95)
    first, first_o = cheap(crops, turn_average=False)
    both, both_o = full(crops)
    c, o = cheap(crops)
    top = first.argmax(axis=1)
    again = (first.max(axis=1) < 0.95) | np.isin(top, sorted(REVERSIBLE_CLASSES))
    assert again.any() and (~again).any(), "the fixture must hold both kinds for the test to mean anything"
    assert np.allclose(c[~again], first[~again]) and np.allclose(o[~again], first_o[~again])
    assert np.allclose(c[again], both[again], atol=1e-6) and np.allclose(o[again], both_o[again], atol=1e-6)
    # the names hardly move: a confident one-way face reads the same either way
    assert (c.argmax(axis=1) == both.argmax(axis=1)).mean() >= 0.95


def _row(rotations: list[int], sideways_probability: list[float] | None = None, down: list[int] = ()) -> Detections:
    n = len(rotations)
    ids = np.array([42 if k in down else FACE_CODES.index("5p") for k in range(n)], np.int32)
    boxes = np.array([[30 * k, 0, 30 * k + 28, 40] for k in range(n)], np.float32)
    side = np.array(sideways_probability if sideways_probability is not None
                    else [0.9 if r % 180 == 90 else 0.05 for r in rotations], np.float32)
    return Detections(boxes, ids, np.ones(n, np.float32), np.array(rotations, np.int32),
                      sideways_probability=np.where(ids == 42, np.nan, side))


def test_the_lift_model_is_read_on_the_tiles_turned_from_the_rows():
    rotations = [0] * 10 + [90, 0, 0, 270]
    assert lift_candidates(_row(rotations)).tolist() == [10, 13]
    # the photo turned a quarter: the majority axis is 90 / 270 and the upright tiles are the sideways ones
    turned = [(r + 90) % 360 for r in rotations]
    assert lift_candidates(_row(turned)).tolist() == [10, 13]
    # a tile the orientation head doubts is measured too; a back never
    doubt = [0.05] * 14
    doubt[3], doubt[10], doubt[13] = 0.3, 0.9, 0.9
    assert lift_candidates(_row(rotations, doubt, down=[12])).tolist() == [3, 10, 13]


def test_few_tiles_or_no_clear_axis_measure_every_face_up_tile():
    few = [0] * (LIFT_MIN_TILES - 2) + [90]
    assert lift_candidates(_row(few)).tolist() == list(range(len(few)))
    balanced = [0, 90] * 5
    assert lift_candidates(_row(balanced)).tolist() == list(range(10))
    unknown = _row([0] * 10 + [90], [float("nan")] * 11)  # an older head: no probability, every tile kept
    assert lift_candidates(unknown).tolist() == list(range(11))


def test_only_crops_still_unsure_get_the_tighter_third_look():
    """Recognizer.name_boxes on a committed photo's true boxes: crops at or over THIRD_LOOK_BELOW keep their
    probabilities; the others are 2 : 1 : 1 averages with the tight crop and its half turn."""
    import json

    from vision.onnx_models import THIRD_LOOK_BELOW, THIRD_LOOK_MARGIN
    from vision.recognize import Recognizer

    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    boxes = np.array([t["box"] for t in truth["tiles"]], np.float32)
    image = cv2.imread(str(PHOTO))
    recognizer = Recognizer.load(ROOT / "models", threads=1)
    with_third = recognizer.name_boxes(image, boxes)
    recognizer.third_look_below = 0.0
    without = recognizer.name_boxes(image, boxes)

    def dense(d: Detections) -> np.ndarray:
        out = np.zeros((len(d), 43))
        np.put_along_axis(out, d.topk_ids, d.topk_probs, axis=1)
        return out

    first = dense(without)
    unsure = first.max(axis=1) < THIRD_LOOK_BELOW
    assert unsure.any() and (~unsure).any(), "the fixture must hold both kinds for the test to mean anything"
    assert np.allclose(dense(with_third)[~unsure], first[~unsure], atol=1e-6)
    tight = crop_tiles(image, boxes[unsure], 80, margin=THIRD_LOOK_MARGIN)[0]
    looks, _ = recognizer.classifier(np.concatenate([tight, tight[:, :, ::-1, ::-1]]), turn_average=False)
    expected = (2 * first[unsure] + looks[:unsure.sum()] + looks[unsure.sum():]) / 4
    top = expected.argmax(axis=1)
    assert (with_third.class_ids[unsure] == top).all()
    # the first looks are read back from their top-5 lists, which leave out a little mass
    assert np.allclose(dense(with_third)[unsure].max(axis=1), expected.max(axis=1), atol=1e-3)
