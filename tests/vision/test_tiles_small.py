"""The recogniser's `tiles_small` warning (W54, docs/rules-session54.md): a picture whose face-up tiles measure under
TILES_SMALL_BELOW px across, as the models read it, is warned, since the faces of small tiles are misread far more
often and a closer photo is the user's remedy; the warning changes no reading."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classes import CLASS_NAMES, FACE_DOWN
from vision.detections import Detections
from vision.hand_reader import READER_WARNING_CODES, WARNING_CODES
from vision.recognize import TILES_SMALL_BELOW, Recognition, Recognizer

ROOT = Path(__file__).resolve().parents[2]
# A rendered hand (vision.synth, seed 9000001) whose tiles measure well over the threshold at its own size
SCENE = ROOT / "tests" / "fixtures" / "images" / "synth_9000001_0.jpg"
MODELS = ROOT / "models"
requires_models = pytest.mark.skipif(not (MODELS / "classifier.onnx").exists(), reason="models/ holds no model files")


def _recognition(short_side: float, *, n: int = 14, face_down: int = 0, read_scale: float = 1.0,
                 stretch: int = 1) -> Recognition:
    """A row of n tiles whose boxes are `short_side` px wide and 1.35 times as tall, the last `face_down` of them
    named a back."""
    x0 = np.arange(n, dtype=np.float32) * short_side * 1.1
    boxes = np.stack([x0, np.full(n, 50.0), x0 + short_side, np.full(n, 50.0 + 1.35 * short_side)], axis=1)
    class_ids = np.array([CLASS_NAMES.index("5p")] * (n - face_down) + [FACE_DOWN] * face_down)
    detections = Detections(boxes.astype(np.float32), class_ids, np.full(n, 0.9, np.float32))
    return Recognition(detections, 2000, 1500, stretch=stretch, read_scale=read_scale)


def test_the_code_is_the_recogniser_s_not_the_reader_s():
    assert "tiles_small" in WARNING_CODES and "tiles_small" not in READER_WARNING_CODES
    assert 20 <= TILES_SMALL_BELOW <= 40  # the rule's range


def test_small_tiles_are_warned_with_their_size():
    small = _recognition(TILES_SMALL_BELOW - 4)
    assert small.warning_codes == ["tiles_small"]
    assert len(small.warnings) == 1 and f"about {TILES_SMALL_BELOW - 4} px" in small.warnings[0]
    # a size just under the threshold is not printed as the threshold itself
    assert f"about {TILES_SMALL_BELOW - 1} px" in _recognition(TILES_SMALL_BELOW - 0.4).warnings[0]
    assert small.to_json()["warnings"] == small.warnings


def test_a_read_scale_that_is_no_scale_is_refused():
    for bad in (0.0, -2.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="read_scale"):
            _recognition(30, read_scale=bad)


def test_tiles_at_the_threshold_or_larger_are_not_warned():
    assert _recognition(TILES_SMALL_BELOW).warning_codes == []
    assert _recognition(3 * TILES_SMALL_BELOW).warnings == []


def test_the_size_is_taken_as_the_models_read_the_picture():
    # boxes come in the photo's pixels; a 12 MP JPEG is read decoded at a quarter: its tiles are a quarter as large
    # to the models
    big_in_photo = 2 * TILES_SMALL_BELOW
    assert _recognition(big_in_photo).warning_codes == []
    read = _recognition(big_in_photo, read_scale=4.0)
    assert read.tile_size == pytest.approx(big_in_photo / 4) and read.warning_codes == ["tiles_small"]


def test_only_face_up_tiles_count():
    # a wall of small backs beside large face-up tiles: the faces are what the warning is about
    mixed = _recognition(TILES_SMALL_BELOW + 10, n=14, face_down=0)
    backs = mixed.detections.boxes[:, [0, 0, 0, 0]] + [0, 250, 8, 262]  # 8 x 12 px each, below the row
    boxes = np.concatenate([mixed.detections.boxes, backs])
    ids = np.concatenate([mixed.detections.class_ids, np.full(14, FACE_DOWN)])
    many_backs = Recognition(Detections(boxes.astype(np.float32), ids, np.full(28, 0.9, np.float32)), 2000, 1500)
    assert many_backs.tile_size == pytest.approx(TILES_SMALL_BELOW + 10) and many_backs.warning_codes == []
    assert _recognition(10, n=5, face_down=5).tile_size is None  # no face up: nothing to say


def test_a_picture_read_stretched_keeps_its_own_warning():
    squeezed = _recognition(TILES_SMALL_BELOW - 8, stretch=2)
    assert squeezed.tile_size is None and squeezed.warning_codes == ["picture_squeezed"]


def test_no_tiles_no_warning():
    empty = Recognition(Detections.empty(), 640, 480)
    assert empty.tile_size is None and empty.warnings == [] and empty.warning_codes == []


@requires_models
def test_a_photo_shrunk_until_its_tiles_are_small_is_warned(tmp_path):
    # the same rendered hand: at its own size its tiles are large and it is not warned; shrunk to a third, they are
    # under the threshold and it is, with the tiles still found
    rec = Recognizer.load(MODELS)
    own = rec.recognize(SCENE)
    assert own.tile_size is not None and own.tile_size >= TILES_SMALL_BELOW and "tiles_small" not in own.warning_codes
    image = cv2.imread(str(SCENE))
    small = tmp_path / "far.png"
    cv2.imwrite(str(small), cv2.resize(image, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA))
    far = rec.recognize(small)
    assert len(far.detections) > 5 and far.tile_size < TILES_SMALL_BELOW
    assert far.warning_codes == ["tiles_small"]
    # a JPEG large enough to be decoded reduced: its tiles are measured in the pixels the models get, not the photo's
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(image, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC))  # 2080 x 1560
    reduced = rec.recognize(big)
    assert reduced.read_scale == 2.0 and reduced.width == 2080
    boxes = reduced.detections.boxes[reduced.detections.class_ids != FACE_DOWN]
    in_photo = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    assert reduced.tile_size == pytest.approx(in_photo / 2)
    # the CLI line carries the warning with the recogniser's others, first
    out = subprocess.run([sys.executable, "-m", "vision", "recognize", str(small)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stdout.splitlines()[0])
    assert line["warnings"][0] == far.warnings[0]


@requires_models
def test_the_service_answers_the_code_beside_its_message(tmp_path):
    # /v1/recognize pairs each warning with its stable code, the recogniser's first
    from fastapi.testclient import TestClient

    from api.main import create_app
    from tests.api.conftest import make_settings

    image = cv2.imread(str(SCENE))
    ok, far = cv2.imencode(".jpg", cv2.resize(image, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA))
    with TestClient(create_app(make_settings())) as client:
        body = client.post("/v1/recognize", files={"image": ("far.jpg", far.tobytes(), "image/jpeg")},
                           data={"overlay": "false"}).json()
    assert body["warning_codes"][0] == "tiles_small" and len(body["warnings"]) == len(body["warning_codes"])
    assert "px across as read" in body["warnings"][0]
