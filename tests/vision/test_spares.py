"""The localiser's spare candidates (``onnx_models.spare_candidates``, ``Recognition.spares``)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import box_iou
from vision.onnx_models import spare_candidates
from vision.recognize import Recognizer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "images"


def _output(candidates: list[tuple[float, float, float, float, float, float]]) -> np.ndarray:
    """(6, A) localiser output from (cx, cy, w, h, tile score, back score) per anchor, in input pixels."""
    return np.array(candidates, np.float32).T


def test_spares_are_free_deduplicated_scored_candidates_best_first():
    frame = (0.5, 10.0, 20.0, 400, 600)  # scale, pad x, pad y, image height, width: input = image * 0.5 + pad
    out = _output([
        (60, 70, 20, 30, 0.95, 0.0),  # the kept box itself
        (62, 70, 20, 30, 0.40, 0.0),  # the kept box again, NMS-suppressed: not a spare
        (110, 70, 20, 30, 0.20, 0.0),  # a free candidate
        (111, 71, 20, 30, 0.15, 0.0),  # the same tile again (IoU > 0.7 with the one above): one spare for it
        (160, 70, 20, 30, 0.0, 0.12),  # a free back: the best of its two scores counts
        (210, 70, 20, 30, 0.03, 0.01),  # below the floor
    ])
    kept = np.array([[(50 - 10) / 0.5, (55 - 20) / 0.5, (70 - 10) / 0.5, (85 - 20) / 0.5]], np.float32)
    boxes, scores = spare_candidates(out, frame, kept, floor=0.05)
    np.testing.assert_allclose(scores, [0.20, 0.12])
    np.testing.assert_allclose(boxes[0], [(100 - 10) / 0.5, (55 - 20) / 0.5, (120 - 10) / 0.5, (85 - 20) / 0.5])
    assert (box_iou(boxes, kept) < 0.5).all()
    assert len(spare_candidates(out, frame, kept, floor=0.05, limit=1)[0]) == 1
    assert len(spare_candidates(out, frame, kept, floor=0.5)[0]) == 0


def test_a_free_candidate_is_not_lost_to_a_near_copy_of_a_kept_box():
    """S52: a candidate overlapping a kept box by 0.5 or more is dropped before the candidates of one tile are thinned
    out, so it cannot suppress a free candidate of the tile beside (IoU 0.82 between the two) and then go itself."""
    frame = (1.0, 0.0, 0.0, 400, 600)
    out = _output([
        (60, 70, 20, 30, 0.95, 0.0),  # the kept box itself
        (66, 70, 20, 30, 0.50, 0.0),  # a near copy of it (IoU 0.54 with the kept box): not a spare
        (68, 70, 20, 30, 0.30, 0.0),  # IoU 0.43 with the kept box, 0.82 with the copy: free, the spare
    ])
    kept = np.array([[50, 55, 70, 85]], np.float32)
    boxes, scores = spare_candidates(out, frame, kept, floor=0.05)
    np.testing.assert_allclose(scores, [0.30])
    np.testing.assert_allclose(boxes[0], [58, 55, 78, 85])


@pytest.fixture(scope="module")
def rec():
    return Recognizer.load(ROOT / "models")


def test_recognition_keeps_named_spares_apart_from_the_tiles(rec):
    image = FIXTURES / "synth_9000001_1.jpg"  # a synthetic scene with spares (the hk fixtures have none)
    result = rec.recognize(image)
    spares, tiles = result.spares(), result.detections
    assert 0 < len(spares) == len(result.spares) <= rec.spares
    np.testing.assert_allclose(spares.boxes, result.spares.boxes)
    assert spares.topk_ids.shape[1] == tiles.topk_ids.shape[1]  # the reader appends them to the tiles
    assert (box_iou(spares.boxes, tiles.boxes) < 0.5).all()
    again = Recognizer.load(ROOT / "models", spares=0).recognize(image)
    assert len(again.spares) == 0 and len(again.spares()) == 0
    np.testing.assert_allclose(again.detections.boxes, tiles.boxes)  # the spares change nothing about the tiles
    np.testing.assert_array_equal(again.detections.class_ids, tiles.class_ids)


def test_spares_are_named_only_when_asked_for_and_once(rec, monkeypatch):
    calls = []
    real = type(rec.classifier).__call__

    def counting(self, crops, turn_average=True):
        if turn_average:  # the averaged call makes one more of its own, without
            calls.append(len(crops))
        return real(self, crops, turn_average)

    monkeypatch.setattr(type(rec.classifier), "__call__", counting)
    # this photo's rows lie far off its axes: its face-up tiles get a second naming call of their own, turned to the
    # rows (Recognizer.rows_turned_from), which this count of the spares' calls leaves out
    monkeypatch.setattr(rec, "rows_turned_from", None)
    result = rec.recognize(FIXTURES / "synth_9000001_1.jpg")
    assert calls == [len(result.detections)]  # the tiles only
    first = result.spares()
    assert calls == [len(result.detections), len(result.spares)]
    assert result.spares() is first and len(calls) == 2


def test_a_spare_completes_the_hand_of_a_photo(rec):
    import json

    from engine.hand import Hand
    from vision.hand_reader import read_hand
    from vision.reading.compare import same_hand
    from vision.reading.decode import SearchBudget

    # train10 (localizer_squeezed.onnx) as the localiser boxes one of its hand tiles only below its threshold. The
    # committed recogniser has boxed it since session 42 (R68c), and in no scene of development seeds 5151, 6262,
    # 1111 and 2222 (640 x 480) and 5151 at 1280 x 960 (1,500 scenes) did a spare then complete a true hand
    # read without it
    train10 = Recognizer(rec.squeezed_localizer, rec.classifier, lift_model=rec.lift_model)
    scene = json.loads((FIXTURES / "spare_5151_113.json").read_text())
    result = train10.recognize(FIXTURES / "spare_5151_113.jpg")
    size, rules = (result.width, result.height), scene["context"]["rules"]
    budget = lambda: SearchBudget(seconds=float("inf"))  # noqa: E731 - states only: a loaded test machine reads alike
    without = read_hand(result.detections, size, rules=rules, budget=budget())
    assert without.hand is None
    reading = read_hand(result.detections, size, rules=rules, budget=budget(), spares=result.spares)
    assert same_hand(reading.hand, Hand.from_json(scene["hand"]))
    assert "spare_tile_used" in reading.warning_codes
    [extra] = reading.extra_tiles()
    truth = np.array([t["box"] for t in scene["tiles"]], np.float32)
    assert box_iou(np.array([extra["box"]], np.float32), truth).max() >= 0.5  # the spare is a true tile


def test_spares_come_from_the_localiser_whose_boxes_are_kept(rec):
    """spare_5151_113 (1280 x 960) passes the squeeze gate but is not square, so it is read by the main localiser
    alone (R70; under R68c train10 read it first, then the main localiser): its boxes and spare candidates are the
    same as a recogniser with no squeezed localiser gives (spares from train10's output would be candidates beside
    boxes it never gave)."""
    image = cv2.imread(str(FIXTURES / "spare_5151_113.jpg"))
    boxes, landscape, stretch, spares, _, scores = rec._find(image)
    plain = Recognizer(rec.localizer, rec.classifier, close_localizer=rec.close_localizer)
    plain_boxes, _, _, plain_spares, _, plain_scores = plain._find(image)
    assert stretch == 1
    np.testing.assert_array_equal(boxes, plain_boxes)
    np.testing.assert_array_equal(spares, plain_spares)
    # each box's localiser score comes with it (Recognition.box_scores: T51b reports a box under 0.4 only where the
    # reading uses it), at least the recogniser's threshold
    assert len(scores) == len(boxes) and (scores >= rec.conf).all()
    np.testing.assert_array_equal(scores, plain_scores)


def test_a_square_gated_pictures_spares_are_the_squeezed_localisers(rec):
    """A square picture past the squeeze gate is read by train10 alone (R68c, kept by R70): its boxes and its spare
    candidates are train10's, the same as a recogniser with train10 as its only localiser gives, and not the main
    localiser's (here they differ: one spare against none), so no spare sits beside boxes its localiser never gave."""
    image = cv2.imread(str(FIXTURES / "spare_5151_113.jpg"))
    square = np.ascontiguousarray(image[:, 160:1120])  # 960 x 960, its rows still past the gate
    boxes, _, stretch, spares, _, scores = rec._find(square)
    alone = Recognizer(rec.squeezed_localizer, rec.classifier)
    alone_boxes, _, _, alone_spares, _, alone_scores = alone._find(square)
    main = Recognizer(rec.localizer, rec.classifier, close_localizer=rec.close_localizer)
    _, _, _, main_spares, _, _ = main._find(square)
    assert stretch == 1 and len(spares) >= 1
    np.testing.assert_array_equal(boxes, alone_boxes)
    np.testing.assert_array_equal(spares, alone_spares)
    np.testing.assert_array_equal(scores, alone_scores)  # the kept boxes' scores are their localiser's
    assert not np.array_equal(spares, main_spares)


def test_other_fits_are_a_kept_boxes_dropped_candidates_best_first():
    from vision.onnx_models import other_fits

    frame = (1.0, 0.0, 0.0, 400, 600)
    out = _output([
        (60, 70, 20, 30, 0.95, 0.0),  # the kept box itself (IoU 1): not another fit
        (61, 70, 20, 30, 0.60, 0.0),  # another fit (IoU ~0.9)
        (61, 70, 20, 30, 0.55, 0.0),  # the same fit again: taken once
        (63, 71, 20, 30, 0.30, 0.0),  # a looser fit (IoU ~0.7)
        (70, 70, 20, 30, 0.50, 0.0),  # half a tile off (IoU 0.33): another tile's
        (59, 70, 20, 30, 0.05, 0.0),  # below the floor
    ])
    kept = np.array([[50, 55, 70, 85]], np.float32)
    boxes, owner = other_fits(out, frame, kept, limit=3, min_iou=0.6, floor=0.1)
    np.testing.assert_allclose(boxes, [[51, 55, 71, 85], [53, 56, 73, 86]])
    np.testing.assert_array_equal(owner, [0, 0])
    assert len(other_fits(out, frame, kept, limit=1)[0]) == 1
    assert len(other_fits(out, frame, np.zeros((0, 4), np.float32))[0]) == 0


def test_box_votes_average_a_tiles_face_over_its_fits(rec):
    from vision.onnx_models import crop_tiles

    image = cv2.imread(str(FIXTURES / "synth_9000001_1.jpg"))
    boxes = rec.find_boxes(image)[0]
    third_look_below, rec.third_look_below = rec.third_look_below, 0.0  # the votes alone (the third look comes after)
    try:
        # upright looks only (rows=None): this photo's rows lie far off its axes, where a look turned to them would
        # be averaged in too (Recognizer.rows_turned_names)
        plain = rec.name_boxes(image, boxes, rows=None)
        # the first box's only other fit is the second box's own: its face probabilities become the two boxes' mean
        voted = rec.name_boxes(image, boxes, votes=(boxes[1:2], np.array([0])), rows=None)
    finally:
        rec.third_look_below = third_look_below
    crops, _ = crop_tiles(image, boxes[:2], rec.classifier.size)
    probs, _ = rec.classifier(crops)
    mean = probs.mean(axis=0)
    top = np.argsort(-mean, kind="stable")[:voted.topk_ids.shape[1]]
    np.testing.assert_array_equal(voted.topk_ids[0], top)
    np.testing.assert_allclose(voted.topk_probs[0], mean[top], atol=1e-5)
    assert voted.rotation[0] == plain.rotation[0]  # the rotation is the box's own
    np.testing.assert_array_equal(voted.class_ids[1:], plain.class_ids[1:])
    np.testing.assert_allclose(voted.topk_probs[1:], plain.topk_probs[1:], atol=1e-6)
