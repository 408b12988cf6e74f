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
