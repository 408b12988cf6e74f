"""Photo endpoints with the real models (skipped while models/ has no model files).

Truth comes from outside the service: the hk-photos labels of the fixture photos (boxes and codes drawn by people),
and synthetic scenes rendered from a known hand by vision.synth (when the shared art is present).
"""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image

from engine import Hand, score_request
from engine.hand import hands_equal_ignoring_order
from vision.classes import hk_name_to_code
from vision.detections import box_iou

from tests.conftest import SHARED

from .conftest import FIXTURES, HK_NAMES, MODELS_DIR, PHOTOS, ROOT, SPARE_PHOTO, requires_models

pytestmark = requires_models

def labelled_tiles(photo) -> tuple[np.ndarray, list[str]]:
    width, height = Image.open(photo).size
    boxes, codes = [], []
    for line in photo.with_suffix(".txt").read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
        boxes.append([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height])
        codes.append(hk_name_to_code(HK_NAMES[cls]))
    return np.array(boxes), codes


def label_recall(tiles: list[dict], photo) -> float:
    truth_boxes, truth_codes = labelled_tiles(photo)
    if not tiles:
        return 0.0
    iou = box_iou(truth_boxes, np.array([t["box"] for t in tiles]))
    hits = 0
    for i, code in enumerate(truth_codes):
        j = int(iou[i].argmax())
        hits += iou[i, j] >= 0.5 and tiles[j]["code"] == code
    return hits / len(truth_codes)


def decode_data_url(url: str) -> Image.Image:
    assert url.startswith("data:image/jpeg;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


# hk_strip_0: a picture the dataset's exporter squeezed (read stretched back: vision.squeeze); the spare photo
# (a hand tile only a spare box of the localiser holds) is read by a service with train10 as its localiser
# (conftest.SPARE_PHOTO)
ALL_PHOTOS = PHOTOS + sorted(FIXTURES.glob("synth_*.jpg")) + [ROOT / "tests" / "fixtures" / "images" / "hk_strip_0.jpg"]


@pytest.fixture(scope="module")
def direct():
    """The recogniser and hand reader called directly, as the service's reference."""
    from vision.hand_reader import read_hand
    from vision.recognize import Recognizer

    return Recognizer.load(MODELS_DIR), read_hand


@pytest.mark.parametrize("photo", ALL_PHOTOS, ids=lambda p: p.name)
def test_recognize_gives_what_the_recogniser_and_hand_reader_give(client, direct, photo):
    assert_recognize_gives_what_the_recogniser_and_hand_reader_give(client, direct, photo)


def test_a_spare_taken_in_is_answered_as_the_recogniser_and_hand_reader_give_it(spare_client, spare_models_dir):
    from vision.hand_reader import read_hand
    from vision.recognize import Recognizer

    assert_recognize_gives_what_the_recogniser_and_hand_reader_give(
        spare_client, (Recognizer.load(spare_models_dir), read_hand), SPARE_PHOTO)


def assert_recognize_gives_what_the_recogniser_and_hand_reader_give(client, direct, photo):
    from vision.hand_reader import drop_unused_unsure

    recognizer, read_hand = direct
    data = photo.read_bytes()
    response = client.post("/v1/recognize", files={"image": (photo.name, data, "image/jpeg")})
    assert response.status_code == 200, response.text
    body = response.json()
    width, height = Image.open(photo).size
    assert (body["width"], body["height"]) == (width, height)
    assert body["image"] == photo.name
    reference = recognizer.recognize(data)
    reading = read_hand(reference.detections, (reference.width, reference.height), spares=reference.spares)
    # A reading that stopped at the search budget depends on the CPU time it got (the budget is partly time), so
    # the service's and the direct call's may differ there, in the hand and in the spare boxes taken in (a first,
    # colder call may run out of time before the spare stage tries them); every other reading is deterministic and
    # must match. The recogniser's own tiles match always.
    budget_hit = "search_budget_exhausted" in reading.warning_codes or \
        "search_budget_exhausted" in (body.get("warning_codes") or [])
    expected_tiles = reference.detections.to_json()
    if not budget_hit:
        expected_tiles += reading.extra_tiles()  # a spare taken in joins the tiles
        # a box the localiser was unsure of is listed only where the reading uses it (T51b)
        expected_tiles = drop_unused_unsure({**reading.to_json(), "tiles": expected_tiles},
                                            reference.unsure)["tiles"]
    got_tiles = body["tiles"]
    if budget_hit:  # the readings may differ, and so the unsure boxes listed: the sure tiles are listed all, in order
        expected_tiles = [t for t, unsure in zip(expected_tiles, reference.unsure) if not unsure]
        listed = iter(body["tiles"])
        got_tiles = [next((g for g in listed if g["code"] == t["code"] and np.allclose(g["box"], t["box"], atol=1.0)),
                          None) for t in expected_tiles]
        assert None not in got_tiles
    assert [t["code"] for t in got_tiles] == [t["code"] for t in expected_tiles]
    assert [t["rotation"] for t in got_tiles] == [t["rotation"] for t in expected_tiles]
    for got, want in zip(got_tiles, expected_tiles):
        assert np.allclose(got["box"], want["box"], atol=1.0) and abs(got["confidence"] - want["confidence"]) < 1e-3
    for got in body["tiles"]:
        x1, y1, x2, y2 = got["box"]
        assert 0 <= x1 <= x2 <= width and 0 <= y1 <= y2 <= height
    if not budget_hit:
        assert body["hand"] == (reading.hand.to_json() if reading.hand is not None else None)
    assert len(body["tile_roles"]) == len(body["tiles"])
    # one stable code per warning, in order (a client pairs them by index): the recogniser's squeezed-picture warning
    # had none, so every code after it named the warning before
    from vision.hand_reader import WARNING_CODES

    assert len(body["warning_codes"]) == len(body["warnings"]) and set(body["warning_codes"]) <= set(WARNING_CODES)
    if reference.stretch != 1:
        assert body["warning_codes"][0] == "picture_squeezed"
    if photo.name.startswith("spare_"):
        assert body["tiles"][-1]["spare"] is True and "spare_tile_used" in body["warning_codes"]
        assert body["spares_used"][0]["tile_index"] == len(body["tiles"]) - 1
    overlay = decode_data_url(body["overlay"])
    assert abs(overlay.width / overlay.height - width / height) < 0.02


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.name)
def test_tiles_land_on_the_labelled_tiles(client, photo):
    # People drew these boxes: the service's boxes must be in the same pixel frame (no swapped axes, no letterbox
    # offset), so most labelled tiles are found. The code share is the classifier's business (its own bench), but
    # some codes must match, or the class order is wrong.
    body = client.post("/v1/recognize", files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
                       data={"overlay": "false"}).json()
    truth_boxes, _ = labelled_tiles(photo)
    iou = box_iou(truth_boxes, np.array([t["box"] for t in body["tiles"]]).reshape(-1, 4))
    assert (iou.max(axis=1) >= 0.5).mean() >= 0.5
    assert label_recall(body["tiles"], photo) > 0


def test_same_photo_as_png_and_webp_reads_the_same(client):
    photo = PHOTOS[0]
    results = {}
    for fmt in ("JPEG", "PNG", "WEBP"):
        buffer = io.BytesIO()
        Image.open(photo).save(buffer, format=fmt, **({"lossless": True} if fmt == "WEBP" else {}))
        response = client.post("/v1/recognize", files={"image": (f"x.{fmt.lower()}", buffer.getvalue())},
                               data={"overlay": "false"})
        assert response.status_code == 200, response.text
        assert "overlay" not in response.json()
        results[fmt] = sorted(t["code"] or "back" for t in response.json()["tiles"])
    # PNG and lossless WebP carry the decoded JPEG's exact pixels, so the readings match closely.
    for fmt in ("PNG", "WEBP"):
        common = sum(min(results["JPEG"].count(c), results[fmt].count(c)) for c in set(results["JPEG"]))
        assert common >= len(results["JPEG"]) - 1, (fmt, results)


def test_exif_orientation_puts_boxes_in_the_displayed_frame(client):
    # A portrait crop stored sideways with EXIF orientation 6 (display rotated 90 degrees clockwise): the service
    # must report the displayed size and boxes in it, as the recognition contract says.
    photo = Image.open(PHOTOS[0]).convert("RGB")
    upright = photo.crop((0, 0, photo.width, photo.height * 3 // 4))  # landscape 640 x 480 as displayed
    stored = upright.transpose(Image.Transpose.ROTATE_90)  # stored portrait; orientation 6 turns it back
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    stored.save(buffer, format="JPEG", exif=exif, quality=95)
    plain = io.BytesIO()
    upright.save(plain, format="JPEG", quality=95)
    rotated = client.post("/v1/recognize", files={"image": ("r.jpg", buffer.getvalue())}, data={"overlay": "false"})
    straight = client.post("/v1/recognize", files={"image": ("s.jpg", plain.getvalue())}, data={"overlay": "false"})
    assert rotated.status_code == straight.status_code == 200
    a, b = rotated.json(), straight.json()
    assert (a["width"], a["height"]) == (b["width"], b["height"]) == upright.size
    if a["tiles"] and b["tiles"]:
        iou = box_iou(np.array([t["box"] for t in a["tiles"]]), np.array([t["box"] for t in b["tiles"]]))
        assert float(np.median(iou.max(axis=1))) > 0.7


def test_a_motion_photo_is_read_as_its_picture(client):
    # A Pixel or Samsung motion photo is a whole JPEG with a video after its end marker; the video's bytes holding
    # FF DA with no FF D9 after it made the service answer 400 truncated_image for a photo every viewer shows.
    from tests.vision.test_io import _MOTION_TRAILER

    photo = PHOTOS[0]
    response = client.post("/v1/recognize", files={"image": ("PXL_MP.jpg", photo.read_bytes() + _MOTION_TRAILER)},
                           data={"overlay": "false"})
    assert response.status_code == 200, response.text
    truth_boxes, _ = labelled_tiles(photo)
    iou = box_iou(truth_boxes, np.array([t["box"] for t in response.json()["tiles"]]).reshape(-1, 4))
    assert (iou.max(axis=1) >= 0.5).mean() >= 0.5


def test_score_photo_scores_the_hand_it_read(client):
    photo = PHOTOS[0]
    context = {"rules": "mcr", "seat_wind": "S", "self_drawn": "true"}
    response = client.post("/v1/score", files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
                           data=context)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) >= {"tiles", "hand", "warnings", "score", "overlay", "width", "height"}
    if body["hand"] is None:
        assert body["score"]["ok"] is False and body["score"]["error"]["code"] == "no_hand"
    else:
        # Whatever hand was read, the score is the engine's score of exactly that hand and context.
        direct = score_request({"hand": body["hand"], "context": {"rules": "mcr", "seat_wind": "S",
                                                                   "self_drawn": True}})
        assert body["score"]["ok"] == direct["ok"]
        if direct["ok"]:
            assert body["score"]["total"] == direct["total"]


MCR_CONTEXT_FIELDS = ("self_drawn", "seat_wind", "round_wind", "last_tile", "last_wall_tile", "kong_replacement",
                      "robbing_kong")


def synthetic_scenes(rendered: int):
    """(jpeg, hand, context): the committed synthetic fixtures, plus freshly rendered scenes when the art exists."""
    for truth_file in sorted(FIXTURES.glob("synth_*.json")):
        truth = json.loads(truth_file.read_text())
        yield truth_file.with_suffix(".jpg").read_bytes(), truth["hand"], truth["context"]
    if not (SHARED / "art").is_dir():
        return
    import cv2

    from vision.synth.config import SynthConfig
    from vision.synth.render import render_scene

    config = SynthConfig(width=1280, height=960, difficulty="easy", p_riichi=0.0)
    for seed in range(rendered):
        image, truth = render_scene(1000 + seed, config)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        assert ok
        yield jpeg.tobytes(), truth["hand"], {k: truth["context"][k] for k in MCR_CONTEXT_FIELDS}


def test_synthetic_scenes_score_the_hand_read_and_the_truth_when_read_right(client):
    """Photos of known winning hands: the score is always the engine's score of the hand the service read, and when
    that hand is the true one, the true hand's score. (How often it is the true one is the recogniser's accuracy,
    measured by bench/bench_recognition.py.)"""
    for jpeg, hand, context in synthetic_scenes(4):
        context = {"rules": "mcr", **context}
        response = client.post("/v1/score", files={"image": ("scene.jpg", jpeg, "image/jpeg")},
                               data={"context": json.dumps(context), "overlay": "false",
                                     "winning_tile": hand["winning_tile"]})
        assert response.status_code == 200, response.text
        body = response.json()
        if body["hand"] is None:
            assert body["score"]["error"]["code"] == "no_hand"
            continue
        read = score_request({"hand": body["hand"], "context": context})
        assert body["score"]["ok"] == read["ok"] and body["score"].get("total") == read.get("total")
        if hands_equal_ignoring_order(Hand.from_json(body["hand"]), Hand.from_json(hand)):
            assert body["score"]["total"] == score_request({"hand": hand, "context": context})["total"]
