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


def _far_shot(path: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The fixture render pasted unscaled into a 2000 x 1500 photo of a plain table (its mean colour, a little noise):
    (the photo, the hand tiles' boxes moved with it, their codes)."""
    scene = json.loads(SCENE.with_suffix(".json").read_text())
    render = cv2.imread(str(SCENE))
    rng = np.random.default_rng(7)
    table = render.reshape(-1, 3).mean(axis=0)
    photo = np.clip(table + rng.normal(0, 3, (1500, 2000, 3)), 0, 255).astype(np.uint8)
    ox, oy = 1100, 800
    photo[oy:oy + render.shape[0], ox:ox + render.shape[1]] = render
    hand = [t for t in scene["tiles"] if t["role"] != "clutter" and not t["face_down"]]
    boxes = np.array([t["box"] for t in hand]) + [ox, oy, ox, oy]
    cv2.imwrite(str(path), photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return photo, boxes, [t["code"] for t in hand]


@requires_models
def test_a_far_shot_is_read_again_from_its_pixels_around_the_tiles(tmp_path):
    # Z54: decoded at half size, the render's tiles come out about 23 px; read again at full size around them,
    # they are found on the truth's boxes and named, and the photo is no longer warned
    from vision.detections import box_iou

    path = tmp_path / "far.jpg"
    _, truth_boxes, codes = _far_shot(path)
    rec = Recognizer.load(MODELS)
    rec.zoom_far_shots = False
    plain = rec.recognize(path)
    assert plain.read_scale == 2.0 and plain.warning_codes == ["tiles_small"]
    rec.zoom_far_shots = True
    far = rec.recognize(path)
    assert far.read_scale == 1.0 and far.warning_codes == [] and "far_shot" in far.timings_ms
    d = far.detections
    iou = box_iou(truth_boxes.astype(np.float32), d.boxes)
    found = iou.max(axis=1) >= 0.5
    named = [CLASS_NAMES[d.class_ids[j]] == code for j, code in zip(iou.argmax(axis=1), codes)]
    assert found.mean() >= 0.9 and np.mean(named) >= 0.8, (found.mean(), np.mean(named))
    assert all(0 <= x1 <= x2 <= 2000 and 0 <= y1 <= y2 <= 1500 for x1, y1, x2, y2 in d.boxes)
    # the spares come back in the photo's pixels too
    if len(far.spares):
        assert far.spares.boxes[:, 0].min() >= 1100 - 2 * far.tile_size


@requires_models
def test_a_picture_not_decoded_reduced_is_never_read_as_a_far_shot(tmp_path):
    rec = Recognizer.load(MODELS)
    image = cv2.imread(str(SCENE))
    small = tmp_path / "far.png"  # small tiles, but a PNG is decoded whole: no more pixels to read
    cv2.imwrite(str(small), cv2.resize(image, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA))
    once = rec.recognize(small)
    assert once.warning_codes == ["tiles_small"] and "far_shot" not in once.timings_ms and once.read_scale == 1.0


HAND_AT = (380, 260)  # where _small_hand lays the shrunk render


def _small_hand(path: Path, shrink: float = 3, side: tuple[int, int] = (1000, 750),
                jpeg_quality: int | None = None) -> tuple[np.ndarray, list[str]]:
    """The fixture render shrunk ``shrink`` times (3: tiles about 20-25 px) laid at HAND_AT on a plain table of
    ``side`` (w, h), written as a PNG, or as a JPEG of ``jpeg_quality``: (the hand tiles' boxes in that picture, their
    codes)."""
    scene = json.loads(SCENE.with_suffix(".json").read_text())
    render = cv2.imread(str(SCENE))
    small = cv2.resize(render, None, fx=1 / shrink, fy=1 / shrink,
                       interpolation=cv2.INTER_AREA if shrink > 1 else cv2.INTER_LINEAR)
    rng = np.random.default_rng(11)
    table = render.reshape(-1, 3).mean(axis=0)
    picture = np.clip(table + rng.normal(0, 3, (side[1], side[0], 3)), 0, 255).astype(np.uint8)
    ox, oy = HAND_AT
    picture[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small
    hand = [t for t in scene["tiles"] if t["role"] != "clutter" and not t["face_down"]]
    boxes = np.array([t["box"] for t in hand]) / shrink + [ox, oy, ox, oy]
    cv2.imwrite(str(path), picture, [] if jpeg_quality is None else [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
    return boxes, [t["code"] for t in hand]


@requires_models
@pytest.mark.parametrize("suffix, quality", [(".png", None), (".jpg", 95)])
def test_a_small_hand_in_a_picture_read_whole_is_localised_again_around_its_tiles(tmp_path, monkeypatch, suffix,
                                                                                  quality):
    # Z56: a PNG, or a JPEG too small to be decoded reduced (no more pixels to read either way), whose hand fills a
    # quarter of the frame's width: the region two tile sizes around its boxes reaches the localiser's input about
    # four times as large, is read again, and that second reading is the answer: its boxes in the picture's pixels,
    # on the truth's tiles
    from vision.detections import box_iou

    path = tmp_path / f"small_hand{suffix}"
    truth_boxes, codes = _small_hand(path, jpeg_quality=quality)
    rec = Recognizer.load(MODELS)
    rec.zoom_small_tiles = False
    plain = rec.recognize(path)
    assert plain.tiles_small and "region" not in plain.timings_ms
    rec.zoom_small_tiles = True
    seconds = []
    read_region = rec._read_region
    monkeypatch.setattr(rec, "_read_region", lambda image, first: seconds.append(read_region(image, first)) or
                        seconds[-1])
    again = rec.recognize(path)
    assert "region" in again.timings_ms and again.read_scale == 1.0 and (again.width, again.height) == (1000, 750)
    assert len(seconds) == 1 and again.detections is seconds[0].detections
    d = again.detections
    iou = box_iou(truth_boxes.astype(np.float32), d.boxes)
    found = iou.max(axis=1) >= 0.5
    named = [CLASS_NAMES[d.class_ids[j]] == code for j, code in zip(iou.argmax(axis=1), codes)]
    assert found.mean() >= 0.9 and np.mean(named) >= 0.8, (found.mean(), np.mean(named))


@requires_models
def test_a_reduced_jpeg_whose_tiles_are_not_small_is_read_once(tmp_path):
    # the gap between Z54 and Z56, as it stands: a JPEG decoded at half size whose tiles come out 26-40 px is neither
    # a far shot (Z54: under 26 px) nor read at full size (Z56), however small its hand in the frame
    path = tmp_path / "hand.jpg"
    _small_hand(path, shrink=0.7, side=(2600, 1950), jpeg_quality=92)  # tiles about 70 px, 35 px as read
    rec = Recognizer.load(MODELS)
    once = rec.recognize(path)
    assert once.read_scale == 2.0 and not once.tiles_small and once.tile_size < 40, once.tile_size
    assert "region" not in once.timings_ms and "far_shot" not in once.timings_ms


def _small_first_reading(left: float, top: float, columns: int, size: float = 20.0) -> Recognition:
    """A first reading of a 1000 x 750 picture read whole: two rows of ``columns`` tiles of ``size`` px, 2 tile sizes
    apart."""
    boxes = np.array([[left + size * k, top + y, left + size * (k + 1), top + y + 1.35 * size]
                      for k in range(columns) for y in (0.0, 3 * size)], np.float32)
    n = len(boxes)
    return Recognition(Detections(boxes, np.full(n, CLASS_NAMES.index("5p")), np.full(n, 0.9, np.float32)), 1000,
                       750)


@requires_models
def test_a_region_is_read_again_only_where_it_shows_the_tiles_larger(monkeypatch):
    from vision.recognize import REGION_MARGIN, REGION_TILE_BELOW, REGION_ZOOM_FROM

    rec = Recognizer.load(MODELS)
    seen = _recorded(rec, monkeypatch)
    picture = np.zeros((750, 1000, 3), np.uint8)
    around = 2 * REGION_MARGIN * 20  # the region's margins, both sides together, for tiles of 20 px
    # 14 tiles of 20 px: 280 px of row and 40 px around it each way -> a region 360 px long, 2.8 times smaller
    hand = _small_first_reading(400.0, 300.0, 14)
    assert rec._read_region(picture, hand) is not None
    (shape, scale, offset), = seen
    assert scale == 1.0 and offset == (360, 260) and shape[:2] == (167, 360), (shape, offset)
    # the same tiles spread across the picture: the region is the frame, nothing to gain
    assert rec._read_region(picture, _small_first_reading(0.0, 300.0, 50)) is None
    # a region of exactly 1 / REGION_ZOOM_FROM of the frame's long side is read, one a tile longer is not
    columns = int((1000 / REGION_ZOOM_FROM - around) / 20)
    assert rec._read_region(picture, _small_first_reading(100.0, 300.0, columns)) is not None
    assert rec._read_region(picture, _small_first_reading(100.0, 300.0, columns + 1)) is None
    # tiles just under REGION_TILE_BELOW are read again; of REGION_TILE_BELOW or more, once, however small the hand
    assert rec._read_region(picture, _small_first_reading(400.0, 300.0, 4, size=REGION_TILE_BELOW - 0.1)) is not None
    assert rec._read_region(picture, _small_first_reading(400.0, 300.0, 4, size=REGION_TILE_BELOW)) is None
    assert len(seen) == 3


@requires_models
def test_a_region_that_would_pass_for_a_close_shot_is_not_read(monkeypatch):
    # a few tiles cut tight measure as a close shot's against the region's long side (``is_close_shot``), which would
    # send the region to the close-shot localiser, chosen for whole close photos: such a picture is read once
    from vision.recognize import is_close_shot

    rec = Recognizer.load(MODELS)
    assert rec.close_localizer is not None
    seen = _recorded(rec, monkeypatch)
    picture = np.zeros((750, 1000, 3), np.uint8)
    lone = Recognition(Detections(np.array([[500.0, 300.0, 532.0, 343.2]], np.float32), np.array([CLASS_NAMES.index(
        "5p")]), np.array([0.9], np.float32)), 1000, 750)
    assert not is_close_shot(lone.detections.boxes, picture.shape)
    assert rec._read_region(picture, lone) is None and seen == []


@requires_models
def test_a_region_reading_that_loses_most_tiles_leaves_the_first(tmp_path, monkeypatch):
    path = tmp_path / "small_hand.png"
    _small_hand(path)
    rec = Recognizer.load(MODELS)
    rec.zoom_small_tiles = False
    plain = rec.recognize(path)
    rec.zoom_small_tiles = True
    monkeypatch.setattr(rec, "_read_region", lambda image, first: Recognition(Detections.empty(), first.width,
                                                                           first.height))
    kept = rec.recognize(path)
    assert kept.warning_codes == ["tiles_small"] and "region" in kept.timings_ms
    assert np.array_equal(kept.detections.boxes, plain.detections.boxes) and len(kept.detections) > 5


def test_a_second_reading_keeps_the_answer_with_half_the_face_up_tiles_or_more():
    from vision.recognize import _keeps_most_tiles

    first = _recognition(30, n=14, face_down=4)  # 10 face up
    assert _keeps_most_tiles(_recognition(30, n=5), first)
    assert not _keeps_most_tiles(_recognition(30, n=4), first)
    assert not _keeps_most_tiles(_recognition(30, n=9, face_down=5), first)  # backs do not count


@requires_models
@pytest.mark.parametrize("width, height, first_scale, box_px, expected", [
    (2000, 1500, 2.0, 30, 1.0),  # 15 px as read: only the full size gives 40
    (2001, 1501, 2.0, 30, 1.0),
    (4000, 3000, 4.0, 100, 2.0),  # 25 px as read: half size gives 50
    (4001, 3001, 4.0, 100, 2.0),  # an odd size: ``min_side`` rounded up would ask for the full size and fall back
])
def test_a_far_shot_of_any_size_is_decoded_again_at_the_reduction_asked(tmp_path, monkeypatch, width, height,
                                                                        first_scale, box_px, expected):
    path = tmp_path / "noise.jpg"
    cv2.imwrite(str(path), np.random.default_rng(5).integers(0, 255, (height, width, 3), dtype=np.uint8))
    rec = Recognizer.load(MODELS)
    boxes = np.array([[900.0 + box_px * k, 700.0, 900.0 + box_px * (k + 1), 700.0 + 1.3 * box_px]
                      for k in range(12)], np.float32)
    first = Recognition(Detections(boxes, np.full(12, CLASS_NAMES.index("5p")), np.full(12, 0.9, np.float32)),
                        width, height, read_scale=first_scale)
    assert first.tiles_small
    seen = []
    monkeypatch.setattr(rec, "recognize_array", lambda image, scale=1.0, offset=(0.0, 0.0): (
        seen.append(scale) or (Detections.empty(), {}, 1, None, np.zeros(0, np.float32))))
    again = rec._read_far_shot(str(path), first)
    assert again is not None and seen == [expected] and again.read_scale == expected


def _noise_jpeg(path: Path, width: int = 2000, height: int = 1500) -> str:
    cv2.imwrite(str(path), np.random.default_rng(3).integers(0, 255, (height, width, 3), dtype=np.uint8))
    return str(path)


def _first_reading(left: float, top: float, columns: int = 10, rows: tuple = (0.0, 346.0), size: float = 40.0,
                   scores=None) -> Recognition:
    """A first reading at half size of a 2000 x 1500 photo: `columns` tiles of `size` px (photo pixels) a row."""
    boxes = np.array([[left + size * k, top + y, left + size * (k + 1), top + y + 1.35 * size]
                      for k in range(columns) for y in rows], np.float32)
    n = len(boxes)
    return Recognition(Detections(boxes, np.full(n, CLASS_NAMES.index("5p")), np.full(n, 0.9, np.float32)), 2000,
                       1500, read_scale=2.0, box_scores=None if scores is None else np.asarray(scores, np.float32))


def _recorded(rec, monkeypatch) -> list:
    seen = []
    monkeypatch.setattr(rec, "recognize_array", lambda image, scale=1.0, offset=(0.0, 0.0): (
        seen.append((image.shape, scale, offset)) or (Detections.empty(), {}, 1, None, np.zeros(0, np.float32))))
    return seen


@requires_models
def test_a_far_shot_is_never_decoded_past_the_pixel_cap(tmp_path, monkeypatch):
    # a 27 MP photo whose tiles would want the full size is decoded again at half size (6.75 MP), not whole
    from vision.recognize import FAR_SHOT_MAX_PIXELS

    assert 6000 * 4500 > FAR_SHOT_MAX_PIXELS >= 4032 * 3024  # a 12 MP phone's photo may still be read whole
    rec = Recognizer.load(MODELS)
    seen = _recorded(rec, monkeypatch)
    boxes = np.array([[2000.0 + 30 * k, 2000.0, 2030.0 + 30 * k, 2040.0] for k in range(14)], np.float32)
    first = Recognition(Detections(boxes, np.full(14, CLASS_NAMES.index("5p")), np.full(14, 0.9, np.float32)), 6000,
                        4500, read_scale=4.0)
    assert first.tiles_small
    again = rec._read_far_shot(_noise_jpeg(tmp_path / "big.jpg", 6000, 4500), first)
    assert again is not None and [scale for _, scale, _ in seen] == [2.0]


@requires_models
@pytest.mark.parametrize("left, top", [(800.0, 700.0), (0.0, 0.0), (1560.0, 1046.0)], ids=["middle", "corner", "far corner"])
def test_a_far_shot_s_region_is_never_cut_square(tmp_path, monkeypatch, left, top):
    # a square picture is looked at for a squeeze (vision.squeeze.is_square), which a region of a photo never is; the
    # block of tiles, 2 tile sizes around, makes a square region, in the middle of the photo or in a corner of it
    from vision.squeeze import is_square

    rec = Recognizer.load(MODELS)
    first = _first_reading(left, top)
    assert first.tiles_small
    seen = _recorded(rec, monkeypatch)
    rec._read_far_shot(_noise_jpeg(tmp_path / "noise.jpg"), first)
    (shape, scale, offset), = seen
    assert scale == 1.0 and not is_square(np.zeros(shape), 0.03), shape
    assert 0 <= offset[0] <= left and 0 <= offset[1] <= top + 1 and offset[0] + shape[1] <= 2000


@requires_models
def test_a_region_as_large_as_the_frame_is_not_read_again(tmp_path, monkeypatch):
    # tiles spread over the whole photo: a second reading would show the localiser the same frame at four times the
    # pixels
    rec = Recognizer.load(MODELS)
    seen = _recorded(rec, monkeypatch)
    spread = _first_reading(20.0, 20.0, columns=45, rows=(0.0, 1300.0))
    assert spread.tiles_small and rec._read_far_shot(_noise_jpeg(tmp_path / "noise.jpg"), spread) is None
    assert seen == []


@requires_models
def test_a_stray_box_far_from_the_hand_keeps_the_photo_from_a_second_reading(tmp_path, monkeypatch):
    # the region takes every box (a far shot's hand tiles are often scored low at first): one box across the frame
    # would stretch it over the whole photo, so the photo is read once
    from vision.recognize import REPORT_SCORE

    rec = Recognizer.load(MODELS)
    seen = _recorded(rec, monkeypatch)
    hand = _first_reading(800.0, 700.0)
    assert rec._read_far_shot(_noise_jpeg(tmp_path / "noise.jpg"), hand) is not None and len(seen) == 1
    stray = np.array([[1900.0, 40.0, 1940.0, 94.0]], np.float32)
    d = hand.detections
    boxes = np.concatenate([d.boxes, stray])
    scores = [0.9] * len(d.boxes) + [REPORT_SCORE / 2]
    first = Recognition(Detections(boxes, np.append(d.class_ids, d.class_ids[0]), np.full(len(boxes), 0.9,
                                   np.float32)), 2000, 1500, read_scale=2.0, box_scores=np.asarray(scores, np.float32))
    assert rec._read_far_shot(_noise_jpeg(tmp_path / "noise2.jpg"), first) is None and len(seen) == 1


@requires_models
def test_a_second_reading_that_loses_most_tiles_leaves_the_first(tmp_path, monkeypatch):
    # a region cut wrong (here: a second reading that finds nothing) must not empty the answer: the first reading
    # stands, warned
    path = tmp_path / "far.jpg"
    _far_shot(path)
    rec = Recognizer.load(MODELS)
    monkeypatch.setattr(rec, "_read_far_shot", lambda data, first: Recognition(Detections.empty(), first.width,
                                                                             first.height, read_scale=1.0))
    kept = rec.recognize(path)
    assert len(kept.detections) > 5 and kept.read_scale == 2.0 and kept.warning_codes == ["tiles_small"]
    assert "far_shot" in kept.timings_ms


@requires_models
def test_the_second_reading_s_spares_come_back_in_the_photo_s_pixels(monkeypatch):
    # recognize_array moves the spare candidates by the region's offset as it moves the tiles, named or not
    rec = Recognizer.load(MODELS)
    image = cv2.imread(str(SCENE))
    find = rec._find
    spare = np.array([[100.0, 120.0, 140.0, 174.0]], np.float32)

    def with_a_spare(picture):
        boxes, landscape, stretch, _, votes, scores = find(picture)
        return boxes, landscape, stretch, spare, votes, scores

    monkeypatch.setattr(rec, "_find", with_a_spare)
    plain = rec.recognize_array(image, 2.0)
    moved = rec.recognize_array(image, 2.0, (300.0, 40.0))
    shift = np.array([300.0, 40.0, 300.0, 40.0], np.float32)
    np.testing.assert_allclose(moved[0].boxes, plain[0].boxes + shift)
    np.testing.assert_allclose(moved[3].boxes, spare * 2.0 + shift)
    np.testing.assert_allclose(moved[3]().boxes, plain[3]().boxes + shift)
