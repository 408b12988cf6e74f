"""The committed ONNX models: they load, read the tiles of labelled fixture photos, and refuse bad files cleanly."""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classes import CLASS_NAMES, FACE_DOWN
from vision.detections import Detections
from vision.errors import ImageError
from vision.metrics import HK_TO_CLASS, TileScore, read_yolo_labels
from vision.recognize import TOPK, Recognizer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "images"
HK_FIXTURES = sorted(FIXTURES.glob("hk_valid_*.jpg"))
# Regression floor for the committed models on these labelled real photos (IoU >= 0.5 and the right code).
# NOT the product target (0.98, issue 6): the committed models measure F1 0.962 on all of hk-photos valid
# (models/*.md); these three photos read at 0.96, 1.0 and 0.875.
MIN_F1 = 0.5


@pytest.fixture(scope="module")
def rec():
    return Recognizer.load(ROOT / "models")


def _truth(img: Path):
    h, w = cv2.imread(str(img)).shape[:2]
    return read_yolo_labels(img.with_suffix(".txt"), w, h, HK_TO_CLASS)


def test_models_load_with_documented_io(rec):
    assert rec.localizer.size in (320, 416, 480, 512, 640)
    assert rec.classifier.size == 80  # models/classifier.md: crops (N, 3, 80, 80)
    probs, orient = rec.classifier(np.zeros((3, 3, 80, 80), np.float32))
    assert probs.shape == (3, len(CLASS_NAMES)) and orient.shape == (3, 4)  # face turned 0 / 90 / 180 / 270
    np.testing.assert_allclose(probs.sum(axis=1), 1, atol=1e-4)


def test_no_session_spins_its_threads_while_waiting(rec):
    # four sessions run one after another on few cores: a spinning pool took the cores from the next session
    # (docs/rules-session25.md, s1: 114.5 -> 68.0 ms per 12 MP photo)
    models = [rec.localizer, rec.classifier, rec.lift_model, rec.squeezed_localizer]
    assert all(m is not None for m in models)
    for model in models:
        options = model.session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0", model.path


@pytest.mark.parametrize("img", HK_FIXTURES, ids=lambda p: p.name)
def test_reads_labelled_photo(rec, img):
    gb, gc = _truth(img)
    result = rec.recognize(img)
    d = result.detections
    assert isinstance(d, Detections)
    assert (result.width, result.height) == (640, 640)
    score = TileScore()
    score.add(d.boxes, d.class_ids, gb, gc)
    s = score.summary()
    assert s["f1"] >= MIN_F1, s
    assert d.topk_ids.shape == (len(d), 8) and (np.diff(d.topk_probs, axis=1) <= 1e-6).all()


def test_rotated_photo_still_read(rec):
    """A photo turned 90 degrees: boxes follow, tiles become sideways (rotation 90 or 270), codes stay."""
    img = cv2.imread(str(HK_FIXTURES[0]))
    gb, gc = _truth(HK_FIXTURES[0])
    turned = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    h = img.shape[0]
    # (x, y) -> (h - y, x) under a clockwise quarter turn
    tb = np.stack([h - gb[:, 3], gb[:, 0], h - gb[:, 1], gb[:, 2]], axis=1)
    ok, buf = cv2.imencode(".png", turned)
    d = rec.recognize(buf.tobytes()).detections
    score = TileScore()
    score.add(d.boxes, d.class_ids, tb, gc)
    assert score.summary()["f1"] >= MIN_F1, score.summary()
    # the 4-way orientation head reads the turned faces (measured 1.0), also in near-square boxes
    assert np.isin(d.rotation, (90, 270)).mean() >= 0.9


# Stored pixels for an EXIF orientation: the displayed picture turned back (Pillow's transposes; 1 = as shown).
_STORED_FOR = {3: "ROTATE_180", 6: "ROTATE_90", 8: "ROTATE_270"}


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_boxes_of_a_photo_read_reduced_stay_in_its_frame_on_its_tiles(rec, orientation):
    """A 4000 x 2250 photo (16:9, 12 MP) is read at 1/4, where libjpeg's last row stands for the picture's last 2
    pixel rows only: boxes reached y = 2252 in a picture 2250 high (the contract: pixels of the oriented image). Here
    the tiles run off the bottom edge, and every box must lie in the frame, on the people-labelled tiles."""
    import io

    from PIL import Image

    from vision.detections import box_iou

    shown = Image.open(HK_FIXTURES[0]).convert("RGB").crop((0, 0, 640, 360))  # tiles cut by the bottom edge
    k = 4000 / 640
    gb, _ = _truth(HK_FIXTURES[0])
    inside = gb[:, 1] < 360 - 0.5 * (gb[:, 3] - gb[:, 1])  # at least half of the tile shown
    truth = np.minimum(gb[inside], [640, 360, 640, 360]) * k
    big = shown.resize((4000, 2250), Image.BICUBIC)
    stored = big.transpose(getattr(Image.Transpose, _STORED_FOR[orientation])) if orientation != 1 else big
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    stored.save(buffer, format="JPEG", quality=90, exif=exif.tobytes())
    result = rec.recognize(buffer.getvalue())
    assert (result.width, result.height) == (4000, 2250)
    boxes = result.detections.boxes
    assert len(boxes) and (boxes >= 0).all()
    assert (boxes[:, [0, 2]] <= 4000).all() and (boxes[:, [1, 3]] <= 2250).all(), boxes.max(axis=0)
    assert (box_iou(truth, boxes).max(axis=1) >= 0.5).mean() >= 0.8


def test_json_line_shape(rec):
    line = rec.recognize(HK_FIXTURES[1]).to_json("x.jpg")
    assert line["image"] == "x.jpg" and line["hand"] is None and isinstance(line["warnings"], list)
    for t in line["tiles"]:
        assert set(t) >= {"code", "box", "confidence", "rotation", "face_down"}
        assert (t["code"] is None) == t["face_down"]
        assert t["code"] is None or t["code"] in CLASS_NAMES[:FACE_DOWN]
        assert t["rotation"] in (0, 90, 180, 270) and len(t["box"]) == 4


def test_concurrent_calls_agree(rec):
    data = HK_FIXTURES[2].read_bytes()
    ref = rec.recognize(data).detections
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: rec.recognize(data).detections, range(6)))
    for d in outs:
        np.testing.assert_array_equal(d.class_ids, ref.class_ids)
        np.testing.assert_allclose(d.boxes, ref.boxes, atol=1e-3)


@pytest.mark.parametrize("data, code", [
    (b"", "empty_file"),
    (b"just some text", "unsupported_format"),
    (b"GIF89a" + b"\x00" * 100, "unsupported_format"),
])
def test_bad_input_codes(rec, data, code):
    with pytest.raises(ImageError) as err:
        rec.recognize(data)
    assert err.value.code == code


def test_cli_lines(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not an image")
    big = tmp_path / "huge.png"
    from tests.vision.test_io import _png_header_only

    big.write_bytes(_png_header_only(20000, 20000))
    out = subprocess.run([sys.executable, "-m", "vision", "recognize", str(HK_FIXTURES[0]), str(bad), str(big)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    assert [l["image"] for l in lines] == [str(HK_FIXTURES[0]), str(bad), str(big)]
    assert len(lines[0]["tiles"]) > 5 and "hand" in lines[0] and "warnings" in lines[0]
    # the recogniser's own top-k (the API's), so that the line's hand is the one the API reads (it was 5 against 8)
    assert {len(tile["top"]) for tile in lines[0]["tiles"]} == {TOPK}
    assert lines[1]["error"]["code"] == "unsupported_format"
    assert lines[2]["error"]["code"] == "image_too_large"


def test_cli_exit_status_says_when_no_image_was_read(tmp_path, capsys):
    # Every input unreadable (a mistyped name, a folder of text files) exited 0, as if a photo had been read; each
    # still gets its line.
    from vision.__main__ import main

    bad = tmp_path / "notes.txt"
    bad.write_text("not an image")
    missing = tmp_path / "missing.jpg"
    assert main(["recognize", str(bad), str(missing)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(bad), str(missing)]
    assert all("error" in line for line in lines)
    assert main(["recognize", str(missing), str(HK_FIXTURES[0])]) == 0  # one read: the run did its work


@pytest.mark.parametrize("stdout_env", [{"PYTHONIOENCODING": "utf-8"}, {"LC_ALL": "C.UTF-8"}],
                         ids=["strict utf-8", "C.UTF-8 locale (surrogateescape)"])
def test_cli_goes_on_past_a_file_name_that_is_not_utf8(tmp_path, stdout_env):
    # A photo named in GBK (an old Windows disk, a camera card) on a strict UTF-8 stdout: its line stopped the run
    # with a UnicodeEncodeError and no line was written for it or the images after it (interfaces.md: one line per
    # image, the run goes on). Under a C.UTF-8 locale stdout writes such bytes back raw: the line was not UTF-8 (session
    # 56's audit); it is written escaped.
    import os

    odd = os.fsdecode(bytes(tmp_path) + "/\u9ebb\u5c06".encode("gbk") + b".jpg")  # 麻将.jpg, in GBK
    Path(odd).write_bytes(HK_FIXTURES[0].read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG")}
    out = subprocess.run([sys.executable, "-m", "vision", "recognize", odd, str(HK_FIXTURES[1])], cwd=ROOT,
                         capture_output=True, timeout=120, env={**env, **stdout_env})
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    lines = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert [line["image"] for line in lines] == [odd, str(HK_FIXTURES[1])]
    assert len(lines[0]["tiles"]) > 5 and len(lines[1]["tiles"]) > 5


def test_cli_stops_quietly_when_its_reader_goes_away():
    # `python -m vision recognize *.jpg | head -n 1`: head exits after the first line, and the next line's write
    # ended the run with a BrokenPipeError traceback on stderr (cat, grep and jq stop silently).
    run = subprocess.Popen([sys.executable, "-m", "vision", "recognize", str(HK_FIXTURES[0]), str(HK_FIXTURES[1]),
                            str(HK_FIXTURES[2])], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(run.stdout.readline())["image"] == str(HK_FIXTURES[0])
    run.stdout.close()
    err = run.stderr.read().decode()
    assert run.wait(timeout=120) != 0 and "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize("option", [["--topk", "0"], ["--topk", "-3"], ["--topk", "many"]])
def test_cli_refuses_a_topk_below_one(option, capsys):
    # --topk 0 kept no class per tile and stopped with an IndexError traceback once the first image was read
    from vision.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["recognize", *option, str(HK_FIXTURES[0])])
    assert exit_info.value.code == 2
    assert "--topk" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "-1", "100000", "two"])
def test_cli_refuses_threads_out_of_range(value, capsys):
    # --threads 100000 hung while onnxruntime started the models' threads, and -1 went through unchecked (session 43)
    from vision.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["recognize", "--threads", value, str(HK_FIXTURES[0])])
    assert exit_info.value.code == 2
    assert "--threads" in capsys.readouterr().err


def test_cli_says_when_the_models_are_missing(tmp_path, capsys):
    from vision.__main__ import main

    assert main(["recognize", "--models", str(tmp_path), str(HK_FIXTURES[0])]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path) in err and "Traceback" not in err


def _models_copy(folder: Path, **files) -> Path:
    """A copy of the committed models in ``folder`` with ``files`` (name -> bytes, or the name of another committed
    model whose bytes it takes) in place of theirs."""
    folder.mkdir()
    for model in (ROOT / "models").glob("*.onnx"):
        (folder / model.name).write_bytes(model.read_bytes())
    for name, content in files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else (ROOT / "models" / content).read_bytes())
    return folder


@pytest.mark.parametrize("name, content", [
    ("localizer.onnx", b""),  # an interrupted copy
    ("classifier.onnx", (ROOT / "models" / "classifier.onnx").read_bytes()[:100_000]),  # cut short
    ("lift.onnx", b"version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 959721\n"),  # an LFS pointer
    ("classifier.onnx", "localizer.onnx"),  # another model's file: it loaded, and the first image stopped the run
    ("localizer.onnx", "classifier.onnx"),
    ("lift.onnx", "classifier.onnx"),
    ("localizer_close.onnx", "lift.onnx"),
], ids=["empty", "truncated", "lfs-pointer", "localizer-as-classifier", "classifier-as-localizer",
        "classifier-as-lift", "lift-as-close-localizer"])
def test_cli_says_which_model_file_is_unusable(tmp_path, capsys, name, content):
    # The comment of recognize_main promises a wrong --models folder is said "without a traceback" (exit 2); a file
    # there that onnxruntime cannot load gave 27 lines of traceback and exit 1, and a model of the wrong kind loaded
    # and stopped the run at the first image with onnxruntime's INVALID_ARGUMENT, no line written for any image.
    from vision.__main__ import main

    models = _models_copy(tmp_path / "models", **{name: content})
    assert main(["recognize", "--models", str(models), str(HK_FIXTURES[0])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert str(models / name) in err


SYNTH_FIXTURES = sorted(FIXTURES.glob("synth_9000001_*.jpg"))
# Synthetic scenes from the test seed 9000001 (never trained on), with face-down and sideways tiles.
# Regression floor (measured 1.0 and 0.71 box recall with the committed models).
MIN_SYNTH_RECALL = 0.6


@pytest.mark.parametrize("img", SYNTH_FIXTURES, ids=lambda p: p.name)
def test_synthetic_scene_tiles_found(rec, img):
    truth = json.loads(img.with_suffix(".json").read_text())
    tiles = [t for t in truth["tiles"] if t["visible"] >= 0.5]
    gb = np.array([t["box"] for t in tiles], np.float32)
    gc = np.array([FACE_DOWN if t["face_down"] else CLASS_NAMES.index(t["code"]) for t in tiles])
    d = rec.recognize(img).detections
    score = TileScore()
    score.add(d.boxes, d.class_ids, gb, gc)
    assert score.summary()["box_recall"] >= MIN_SYNTH_RECALL, score.summary()


def test_rotation_from_four_way_orientation_and_crop_turn():
    """rotation = the face's clockwise turn inside the crop + 90 when a landscape box's crop was turned
    counter-clockwise. Worked by hand: a sideways tile (turned 90 clockwise) has a landscape box; after the crop's
    counter-clockwise turn the face is upright (0) -> 90. The same tile with a near-square box is cropped unturned
    and its face lies turned 90 -> 90. An upside-down tile in a portrait box: 180."""
    from vision.recognize import assemble

    probs = np.full((5, len(CLASS_NAMES)), 0.01, np.float32)
    probs[:, 0] = 0.6
    probs[4] = 0.01
    probs[4, FACE_DOWN] = 0.6
    eye = np.eye(4, dtype=np.float32) * 0.7 + 0.075
    orient = eye[[0, 1, 2, 3, 2]]
    landscape = np.array([True, False, False, True, True])
    boxes = np.tile(np.float32([0, 0, 10, 10]), (5, 1))
    d = assemble(boxes, probs, orient, landscape)
    assert d.rotation.tolist() == [90, 90, 180, 0, 90]  # a face-down tile's rotation comes from its box alone
    # the older 2-way head (upright / upside-down) still reads: portrait 0 / 180, landscape 90 / 270
    d2 = assemble(boxes[:4], probs[:4], np.float32([[0.9, 0.1], [0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]),
                  np.array([True, True, False, False]))
    assert d2.rotation.tolist() == [90, 270, 0, 180]
    # the head's sideways probability, image-relative: a quarter turn in an unturned (portrait) crop, none or a half
    # in a turned (landscape) one; not measured for backs nor by the 2-way head
    assert d.sideways_probability[:4] == pytest.approx([0.85, 0.85, 0.15, 0.15])  # rotations 90, 90, 180, 0
    assert np.isnan(d.sideways_probability[4]) and np.isnan(d2.sideways_probability).all()


def test_the_sideways_probability_agrees_with_the_labels_on_fixture_photos(rec):
    """On the synthetic fixture photos each face-up tile carries a sideways probability, backs none, and it lies on
    its label's side (the label is the 4-way argmax, the probability a 2-way sum, so they may part, but only where
    the probability is unsure: one 1s of 33 face-up tiles, square-boxed, labelled sideways at 0.47)."""
    for path in SYNTH_FIXTURES:
        d = rec.recognize(path).detections
        up = ~d.face_down
        sideways_label = d.rotation % 180 == 90
        p = d.sideways_probability[up]
        assert not np.isnan(p).any() and np.isnan(d.sideways_probability[~up]).all()
        parted = (p > 0.5) != sideways_label[up]
        assert parted.mean() <= 0.1 and (np.abs(p[parted] - 0.5) < 0.1).all(), path.name


LIFT_FIXTURES = [FIXTURES / f"lift_9000016_{k}.jpg" for k in (0, 2, 7, 15)]


def test_lift_model_loads_and_ranks_tiles_laid_on_others_first(rec):
    """The committed lift model (models/lift.md) on the sideways meld tiles of four unseen scenes, cut at their true
    boxes: every tile laid on a hidden claimed tile scores above every flat one (measured: 5 lifted at 0.34-1.0,
    4 flat at 0.0-0.08), and most lifted ones pass 0.5."""
    from vision.train.lift import sideways_meld_tiles

    assert rec.lift_model is not None, "models/lift.onnx is committed and Recognizer.load picks it up"
    lifted, flat = [], []
    for img in LIFT_FIXTURES:
        scene = json.loads(img.with_suffix(".json").read_text())
        tiles = list(sideways_meld_tiles(scene))
        p = rec.lift_model(rec.lift_model.crops(cv2.imread(str(img)), np.array([t["box"] for t, _ in tiles])))
        for (_, label), q in zip(tiles, p.tolist()):
            (lifted if label else flat).append(q)
    assert len(lifted) == 5 and len(flat) == 4
    assert min(lifted) > max(flat), (lifted, flat)
    assert sum(q > 0.5 for q in lifted) >= 4 and all(q < 0.5 for q in flat), (lifted, flat)


def test_added_kong_hidden_claimed_tile_read_with_the_lift_model(rec):
    """Scene 50: an added tile lies on the claimed one, hiding it. With the lift model the recogniser's detections
    carry its probability and the hand reads exactly (the geometry alone did not read it when the scene was picked:
    tests/fixtures/images/SOURCE.md)."""
    from engine.hand import Hand
    from vision.hand_reader import read_hand
    from vision.reading.compare import same_hand

    img = FIXTURES / "lift_9000016_50.jpg"
    scene = json.loads(img.with_suffix(".json").read_text())
    truth, rules = Hand.from_json(scene["hand"]), scene["context"]["rules"]
    assert any(m.type.value == "added_kong" for m in truth.melds)
    detections = rec.recognize(img).detections
    from vision.recognize import lift_candidates

    # measured where the reader may read it (the tiles turned from the rows, session 24), not elsewhere
    measured = np.zeros(len(detections), bool)
    measured[lift_candidates(detections)] = True
    assert measured.any() and np.isfinite(detections.lifted[measured]).all()
    assert np.isnan(detections.lifted[~measured]).all()
    reading = read_hand(detections, (640, 480), rules=rules)
    assert reading.hand is not None and same_hand(reading.hand, truth), (reading.hand, reading.warnings)


@pytest.mark.parametrize("threads, held", [(100000, 256), (-3, 1)])
def test_a_session_holds_its_thread_count_in_range(threads, held):
    # VISION_THREADS or the service's MAHJONG_INFERENCE_THREADS at 100000 hung the model load as the CLI's --threads
    # did (session 43's review): the session holds the count to 1-256 whoever asks
    from vision.onnx_models import _session

    session = _session(ROOT / "models" / "lift.onnx", threads)
    assert session.get_session_options().intra_op_num_threads == held
