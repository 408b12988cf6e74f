"""The three training commands of the README (localiser, classifier, lift model) run end to end on tiny data and
export files the serving code loads and runs: a check that "training is reproducible by one command" still holds
with the training extra's torch, torchvision and ultralytics, not a measure of the models (each run lasts seconds).

Needs the training extra: skipped without it, except under ``MAHJONG_REQUIRE_TRAIN=1`` (``make test-train``, which
.ci/run calls), where a missing or broken torch stack fails instead."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
FIXTURE = ROOT / "tests" / "fixtures" / "images" / "hk_valid_0.jpg"

if os.environ.get("MAHJONG_REQUIRE_TRAIN") == "1":
    import torch  # noqa: F401
    import ultralytics  # noqa: F401
else:
    pytest.importorskip("torch")
    pytest.importorskip("ultralytics")


def _run(shared: Path, *args: str, cwd: Path = ROOT, timeout: int = 900) -> str:
    env = {**os.environ, "MAHJONG_SHARED": str(shared), "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def trained(tmp_path_factory, shared_dir) -> Path:
    """A models folder holding the committed files with the three trained here in their place."""
    work = tmp_path_factory.mktemp("train")
    out = work / "models"
    shutil.copytree(MODELS, out, ignore=shutil.ignore_patterns("*.md", "*.png"))
    # classifier: the real single-tile crops and a few synthetic scenes' crops, one short epoch
    _run(shared_dir, "datasets.tile_crops", "--out", str(work / "tile_crops.npz"))
    _run(shared_dir, "vision.synth", "crops", "--n", "4", "--seed", "2", "--out", str(work / "crops_s2"))
    _run(shared_dir, "vision.train.classifier", "--crops", str(work / "tile_crops.npz"),
         "--synth-crops", str(work / "crops_s2"),
         "--synth-max", "200", "--backs", "32", "--epochs", "1", "--batch", "32", "--hours", "0.004",
         "--val", str(work / "tile_crops.npz"), "--threads", "2", "--name", "pytest_smoke",
         "--out", str(out / "classifier.onnx"))
    # localiser: hk-photos train (the command always lists it) and a few scenes, small input, capped at seconds
    _run(shared_dir, "vision.synth", "generate", "--n", "4", "--seed", "1", "--width", "320", "--height", "240",
         "--out", str(work / "scenes_s1"))
    _run(shared_dir, "vision.train.localizer", "--synth", str(work / "scenes_s1"), "--imgsz", "160", "--epochs", "1",
         "--hours", "0.006", "--batch", "8", "--workers", "0", "--dataset", str(work / "loc"),
         "--name", "pytest_smoke", "--out", str(out / "localizer.onnx"))
    # lift model: scenes rich in added kongs
    _run(shared_dir, "vision.synth", "generate", "--n", "6", "--seed", "61", "--width", "640", "--height", "480",
         "--pung-meld-weights", "0.3", "0.1", "0.5", "0.1", "--out", str(work / "scenes_ak61"))
    _run(shared_dir, "vision.train.lift", "--scenes", str(work / "scenes_ak61"),
         "--val-scenes", str(work / "scenes_ak61"),
         "--epochs", "1", "--threads", "2", "--name", "pytest_smoke", "--out", str(out / "lift.onnx"))
    return out


def test_each_command_writes_a_new_file(trained):
    for name in ("classifier.onnx", "localizer.onnx", "lift.onnx"):
        assert (trained / name).read_bytes() != (MODELS / name).read_bytes(), name


def test_the_trained_classifier_has_the_served_inputs_and_outputs(trained):
    import onnxruntime

    session = onnxruntime.InferenceSession(str(trained / "classifier.onnx"), providers=["CPUExecutionProvider"])
    size = session.get_inputs()[0].shape[2]  # the command's default, 64 px (the committed file's 80: --size 80)
    assert session.get_inputs()[0].shape[1:] == [3, size, size]
    crops = np.random.default_rng(0).uniform(0, 255, (5, 3, size, size)).astype(np.float32)
    outputs = dict(zip([o.name for o in session.get_outputs()], session.run(None, {"crops": crops})))
    assert outputs["class_probs"].shape == (5, 43) and outputs["orient_probs"].shape == (5, 4)
    assert np.allclose(outputs["class_probs"].sum(axis=1), 1, atol=1e-4)


def test_the_recogniser_loads_and_runs_the_trained_files(trained):
    from vision.recognize import Recognizer

    recognizer = Recognizer.load(trained, threads=2)
    result = recognizer.recognize(FIXTURE)  # a trained-for-seconds localiser may find nothing: it must run
    assert result.width > 0 and len(result.detections.codes) == len(result.detections)


def test_a_bfloat16_run_exports_the_weights_it_trained(tmp_path, shared_dir):
    """``--bf16`` trains in bfloat16 autocast on channels-last tensors (session 58): the file it exports must be the
    net it trained, in float32 and the served layout, the same as exporting its checkpoint afresh."""
    import json

    import onnxruntime

    _run(shared_dir, "datasets.tile_crops", "--out", str(tmp_path / "tile_crops.npz"))
    log = _run(shared_dir, "vision.train.classifier", "--crops", str(tmp_path / "tile_crops.npz"),
               "--backs", "32", "--epochs", "1", "--batch", "32", "--hours", "0.003", "--val", "", "--size", "80",
               "--freeze", "0", "--init-onnx", str(MODELS / "classifier.onnx"), "--lr", "1e-4", "--bf16",
               "--low-res-p", "0.3", "--threads", "2", "--name", "pytest_bf16", "--out", str(tmp_path / "bf16.onnx"))
    epoch = json.loads(next(line for line in log.splitlines() if line.startswith('{"epoch"')))
    assert np.isfinite(epoch["loss"]) and epoch["train_acc"] > 0.5  # from the committed file: already a namer
    _run(shared_dir, "vision.train.classifier", "--export-only", str(ROOT / "runs/classifier/pytest_bf16/last.pt"),
         "--size", "80", "--out", str(tmp_path / "again.onnx"))
    crops = np.random.default_rng(1).uniform(0, 255, (6, 3, 80, 80)).astype(np.float32)
    answers = []
    for name in ("bf16.onnx", "again.onnx"):
        session = onnxruntime.InferenceSession(str(tmp_path / name), providers=["CPUExecutionProvider"])
        answers.append(session.run(None, {"crops": crops}))
    for trained, exported in zip(*answers):
        assert np.allclose(trained, exported, atol=1e-5)
