"""bench/bench_recognition.py scores the recogniser's boxes against the hk-photos labels in one pixel frame: the labels'
normalised boxes are scaled by the size of the picture the recogniser read (``Recognition.width`` x ``height``), not by
a fixed 640 x 640. (Every hk-photos valid photo is 640 x 640, so the committed figures do not move; a photo of another
size used to be scored against labels scaled to the wrong frame.)"""

from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from tests.bench_modules import load_bench
from vision.classes import CLASS_NAMES
from vision.detections import Detections


def _bench():
    return load_bench("bench_recognition")


class _Exact:
    """A recogniser that finds exactly the labelled tile of the one photo, in that photo's pixels."""

    def __init__(self, box, class_id, width, height):
        self.box, self.class_id, self.width, self.height = box, class_id, width, height

    def recognize_with_image(self, path):
        detections = Detections(np.array([self.box], np.float32), np.array([self.class_id]), np.array([0.99]))
        pixels = cv2.imread(str(path))
        return SimpleNamespace(detections=detections, width=self.width, height=self.height), pixels

    def name_boxes(self, pixels, boxes, scale=1.0):
        return SimpleNamespace(class_ids=np.full(len(boxes), self.class_id))


def test_labels_are_scaled_to_the_recognised_picture(tmp_path, monkeypatch):
    valid = tmp_path / "data" / "hk-photos" / "valid"
    (valid / "images").mkdir(parents=True)
    (valid / "labels").mkdir()
    width, height = 320, 240
    cv2.imwrite(str(valid / "images" / "small.jpg"), np.full((height, width, 3), 200, np.uint8))
    (valid / "labels" / "small.txt").write_text("2 0.5 0.5 0.25 0.5\n")  # class 2 = sd1 = 1p
    monkeypatch.setenv("MAHJONG_SHARED", str(tmp_path))
    bench = _bench()
    recognizer = _Exact([120, 60, 200, 180], CLASS_NAMES.index("1p"), width, height)
    out, score = bench.bench_hk(recognizer, None, with_md=False)
    assert out["ours"]["tiles"] == 1 and out["ours"]["predictions"] == 1
    assert out["ours"]["f1"] == 1.0
    assert out["ours"]["box_recall"] == 1.0


class _FirstOnly(_Exact):
    """Finds the labelled tile of the photo named ``a``, nothing in any other."""

    def recognize_with_image(self, path):
        result, pixels = super().recognize_with_image(path)
        if Path(path).stem != "a":
            result.detections = result.detections[np.zeros(1, bool)]
        return result, pixels


def test_the_halves_score_the_even_and_the_odd_photos_by_name_apart(tmp_path, monkeypatch):
    valid = tmp_path / "data" / "hk-photos" / "valid"
    (valid / "images").mkdir(parents=True)
    (valid / "labels").mkdir()
    for stem in ("b", "a"):  # written out of order: the bench sorts by name, so "a" is the even half's
        cv2.imwrite(str(valid / "images" / f"{stem}.jpg"), np.full((240, 320, 3), 200, np.uint8))
        (valid / "labels" / f"{stem}.txt").write_text("2 0.5 0.5 0.25 0.5\n")
    monkeypatch.setenv("MAHJONG_SHARED", str(tmp_path))
    bench = _bench()
    out, _ = bench.bench_hk(_FirstOnly([120, 60, 200, 180], CLASS_NAMES.index("1p"), 320, 240), None, with_md=False)
    assert out["ours_halves_f1"] == [1.0, 0.0]
    assert out["ours"]["tiles"] == 2 and out["ours"]["predictions"] == 1


def test_the_thresholds_reach_the_recogniser_only_where_given():
    bench = _bench()

    def settings(**given):
        args = {"no_unsqueeze": False, "box_votes": 0, "conf": None, "nms_iou": None, "contain": None, **given}
        return bench.recognizer_settings(SimpleNamespace(**args))

    assert settings() == {"unsqueeze": True, "box_votes": 0}  # the committed thresholds: Recognizer's own defaults
    assert settings(conf=0.4, nms_iou=0.5, contain=0.7) == {
        "unsqueeze": True, "box_votes": 0, "conf": 0.4, "iou": 0.5, "contain": 0.7}
