"""T51b (docs/rules-session51.md): a box the localiser scores under REPORT_SCORE is read like any other, but reported
among the tiles only where the reading uses it; every tile index of the answer follows the shorter list."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.detections import Detections
from vision.hand_reader import drop_unused_unsure
from tests.vision.test_bench_recognition_frame import _bench
from vision.recognize import REPORT_SCORE, Recognition, Recognizer


def _role(role, meld_index=None, position=None, code=None):
    return {"role": role, "meld_index": meld_index, "position": position, "code": code}


def _answer():
    """Six recognised tiles and one spare the reading took in (tile 6): tile 1 (unsure) is clutter, tile 3 (unsure)
    the winning tile, tile 4 (unsure) clutter named in an alternative's change, tile 5 (sure) clutter."""
    tiles = [{"code": c} for c in ("1m", "9z?", "2m", "3m", "4m", "5m")] + [{"code": "6m", "spare": True}]
    roles = [_role("concealed", position=0, code="1m"), _role("clutter"), _role("concealed", position=1, code="2m"),
             _role("winning", code="3m"), _role("clutter"), _role("clutter"), _role("concealed", position=2)]
    return {
        "tiles": tiles, "tile_roles": roles, "hand": {"concealed": ["1m"]},
        "corrections": [{"tile_index": 3, "read": "4m", "corrected": "3m"}],
        "alternatives": [{"tile_index": 2, "from": "2m", "to": "5m",
                          "changes": [{"tile_index": 2, "to": "5m"}, {"tile_index": 4, "to": "4m"}]}],
        "spares_used": [{"tile_index": 6, "code": "6m", "spare": True}],
    }


UNSURE = np.array([False, True, False, True, True, False])


def test_an_unsure_tile_the_reading_leaves_as_clutter_is_not_reported():
    out = drop_unused_unsure(_answer(), UNSURE)
    assert [t["code"] for t in out["tiles"]] == ["1m", "2m", "3m", "4m", "5m", "6m"]
    assert [r["role"] for r in out["tile_roles"]] == ["concealed", "concealed", "winning", "clutter", "clutter",
                                                      "concealed"]


def test_every_tile_index_follows_the_shorter_list():
    out = drop_unused_unsure(_answer(), UNSURE)
    codes = [t["code"] for t in out["tiles"]]
    assert codes[out["corrections"][0]["tile_index"]] == "3m"
    alternative = out["alternatives"][0]
    assert codes[alternative["tile_index"]] == "2m"
    assert [codes[c["tile_index"]] for c in alternative["changes"]] == ["2m", "4m"]
    assert codes[out["spares_used"][0]["tile_index"]] == "6m"
    assert out["hand"] == {"concealed": ["1m"]}  # the rest of the answer as it was


def test_the_tile_numbers_in_warnings_and_descriptions_follow_the_shorter_list():
    # a correction's warning and an alternative's description name tiles by their index in the tiles: once an unsure
    # tile before them is left out, they name the same tiles by their new index (tile 6, the spare, becomes 5)
    answer = _answer()
    answer["warnings"] = ["the picture looked squeezed (its tiles about 3 times too thin)",
                          "tile 3 read as 4m was taken as 3m (p = 0.30) in the most probable legal hand",
                          "tile 6 read as 7m was taken as 6m (p = 0.20) in the most probable legal hand"]
    answer["alternatives"][0]["description"] = ("if tile 2 is 5m instead of 2m, tile 4 is 4m instead of 9z the hand"
                                                " is 1m (instead of 1m): 8 points instead of 8")
    out = drop_unused_unsure(answer, UNSURE)
    assert out["warnings"] == [answer["warnings"][0],
                               "tile 2 read as 4m was taken as 3m (p = 0.30) in the most probable legal hand",
                               "tile 5 read as 7m was taken as 6m (p = 0.20) in the most probable legal hand"]
    assert out["alternatives"][0]["description"].startswith("if tile 1 is 5m instead of 2m, tile 3 is 4m instead of")
    codes = [t["code"] for t in out["tiles"]]
    assert codes[1] == "2m" and codes[3] == "4m" and codes[2] == "3m" and codes[5] == "6m"


def test_the_answer_it_was_given_is_left_alone():
    answer = _answer()
    drop_unused_unsure(answer, UNSURE)
    assert answer == _answer()


def test_without_a_reading_no_unsure_tile_is_reported():
    out = drop_unused_unsure({"tiles": [{"code": c} for c in "abcdef"], "hand": None}, UNSURE)
    assert [t["code"] for t in out["tiles"]] == ["a", "c", "f"]


@pytest.mark.parametrize("unsure", [np.zeros(6, bool), ()])
def test_with_no_unsure_tile_the_answer_is_the_same_object(unsure):
    answer = _answer()
    assert drop_unused_unsure(answer, unsure) is answer


def test_roles_that_do_not_line_up_with_the_tiles_leave_the_answer_as_it_is():
    answer = _answer()
    answer["tile_roles"] = answer["tile_roles"][:-1]
    assert drop_unused_unsure(answer, UNSURE) is answer


def _recognition(scores):
    n = len(scores)
    detections = Detections(np.tile(np.array([[0, 0, 10, 14]], np.float32), (n, 1)), np.zeros(n, np.int64),
                            np.full(n, 0.9, np.float32))
    return Recognition(detections, 100, 100, box_scores=np.asarray(scores, np.float32))


def test_a_recognition_marks_the_tiles_scored_under_the_report_score_unsure():
    assert REPORT_SCORE == 0.4
    assert _recognition([0.9, 0.39, 0.4, 0.31]).unsure.tolist() == [False, True, False, True]


def test_a_recognition_without_scores_marks_nothing_unsure():
    recognition = Recognition(_recognition([0.9, 0.3]).detections, 100, 100)
    assert recognition.unsure.tolist() == [False, False]


ROOT = Path(__file__).resolve().parents[2]
STRIP = ROOT / "tests" / "fixtures" / "images" / "hk_strip_0.jpg"  # a real hand photo with one box scored 0.3-0.4


def test_the_cli_reports_no_unsure_tile_that_the_reading_leaves_as_clutter():
    recognition = Recognizer.load().recognize(STRIP)
    unsure = np.flatnonzero(recognition.unsure)
    assert len(unsure) == 1  # the fixture's reason to be here
    out = subprocess.run([sys.executable, "-m", "vision", "recognize", str(STRIP)], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    line = json.loads(out.stdout.splitlines()[0])
    assert line["hand"] is not None
    sure = recognition.detections.to_json()
    reported = [t for t in line["tiles"] if not t.get("spare")]
    assert reported == [t for i, t in enumerate(sure) if i not in set(unsure.tolist())]


class _Reading:
    def __init__(self, answer):
        self.answer = answer

    def to_json(self):
        return self.answer


def test_the_recognition_benchmark_scores_the_tiles_the_cli_reports(monkeypatch):
    # bench/bench_recognition.py's reported_indices: the recogniser's tiles less the unsure ones the reading does not
    # use (tile 1 left out; tile 3, unsure, the winning tile, and tile 4, unsure, in an alternative's change, kept);
    # the spare the reading took in (tile 6) is no recogniser tile
    bench = _bench()
    answer = _answer()
    monkeypatch.setattr(bench, "read_hand", lambda *args, **kwargs: _Reading(answer))
    recognition = _recognition([0.9, 0.35, 0.9, 0.35, 0.35, 0.9])
    assert recognition.unsure.tolist() == UNSURE.tolist()
    assert bench.reported_indices(recognition).tolist() == [0, 2, 3, 4, 5]

    def fails(*args, **kwargs):
        raise ValueError("no reading")

    monkeypatch.setattr(bench, "read_hand", fails)  # as the CLI: a failed reading uses no tile
    assert bench.reported_indices(recognition).tolist() == [0, 2, 5]
    monkeypatch.setattr(bench, "read_hand", None)  # no unsure tile: no reading needed, every tile
    assert bench.reported_indices(_recognition([0.9, 0.5, 0.41])).tolist() == [0, 1, 2]


def _postprocessed(rec, localizer, picture):
    from vision.onnx_models import Localizer

    out, frame = localizer.raw(picture)
    return Localizer.postprocess(out, frame, rec.conf, rec.iou, contain=rec.contain)[:2]


@pytest.mark.parametrize("name", ["spare_5151_113.jpg", "hk_strip_0.jpg"])
def test_the_scores_kept_are_those_the_localiser_gave_the_boxes_kept(name):
    # Recognizer._find's last element, against the localisers run here on the picture (as it came, or stretched back
    # by the factor kept: hk_strip_0 is a squeezed picture): one of them gave exactly the boxes kept, and its scores
    # are the ones returned with them, box for box
    import cv2

    rec = Recognizer.load()
    image = cv2.imread(str(ROOT / "tests" / "fixtures" / "images" / name))
    boxes, _, stretch, _, _, scores = rec._find(image)
    h, w = image.shape[:2]
    k = abs(stretch)
    if stretch > 1:
        picture = cv2.resize(image, (w, max(8, round(h / k))), interpolation=cv2.INTER_AREA)
    elif stretch < -1:
        picture = cv2.resize(image, (max(8, round(w / k)), h), interpolation=cv2.INTER_AREA)
    else:
        picture = image
    sx, sy = w / picture.shape[1], h / picture.shape[0]
    matched = []
    for localizer in (rec.localizer, rec.close_localizer, rec.squeezed_localizer):
        if localizer is None:
            continue
        b, s = _postprocessed(rec, localizer, picture)
        if b.shape == boxes.shape and np.allclose(b * np.float32([sx, sy, sx, sy]), boxes, atol=1e-3):
            matched.append(s)
    assert matched, "no localiser gave the boxes kept"
    assert len(scores) == len(boxes)
    np.testing.assert_array_equal(scores, matched[0])
    if name == "hk_strip_0.jpg":
        assert stretch != 1 and (scores < REPORT_SCORE).any()  # the path under test, with an unsure box


def test_the_cli_renumbers_the_tile_numbers_its_warnings_name():
    from vision.__main__ import _reported_tiles

    answer = _answer()
    warnings = ["tile 3 read as 4m was taken as 3m (p = 0.30) in the most probable legal hand"]
    tiles, out = _reported_tiles(answer["tiles"], warnings, answer, UNSURE)
    assert [t["code"] for t in tiles] == ["1m", "2m", "3m", "4m", "5m", "6m"]
    assert out == ["tile 2 read as 4m was taken as 3m (p = 0.30) in the most probable legal hand"]
    assert warnings == ["tile 3 read as 4m was taken as 3m (p = 0.30) in the most probable legal hand"]


def test_the_tile_numbers_the_reader_writes_are_the_ones_renumbered():
    # drop_unused_unsure finds tile numbers in text by the reader's own phrasings ("tile 12 read as", "tile 12 is"):
    # on a real reading, every number the corrections' warnings and the alternatives' descriptions name is found
    from tests.hand_reader.builder import Table
    from vision.hand_reader import _TILE_NUMBER, read_hand

    # a misread 5m corrected; the winning tile 4p or 1p (both complete 23p): an alternative with a change
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p")
    detections, size, _ = table.photo(misread={4: [("5s", 0.55), ("5m", 0.4)],
                                               13: [("4p", 0.6), ("1p", 0.35), ("7p", 0.03)]})
    reading = read_hand(detections, size)
    corrected = [w for w, code in zip(reading.warnings, reading.warning_codes) if code == "tile_corrected"]
    assert corrected and [int(m[0]) for w in corrected for m in _TILE_NUMBER.findall(w)] == [
        c["tile_index"] for c in reading.corrections]
    described = [a for a in reading.alternatives if a["changes"]]
    assert described
    for alternative in described:
        assert [int(m[0]) for m in _TILE_NUMBER.findall(alternative["description"])] == [
            c["tile_index"] for c in alternative["changes"]]
