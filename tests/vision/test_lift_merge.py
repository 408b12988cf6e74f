"""``vision.train.lift.merge_files``: one file giving the mean of every net in several lift files (how a net trained
later joins the committed file's two without their checkpoints). Needs ``onnx``: skipped without it."""

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

import onnxruntime  # noqa: E402

from vision.train.lift import merge_files  # noqa: E402

COMMITTED = Path(__file__).resolve().parents[2] / "models" / "lift.onnx"


def _run(path: Path, crops: np.ndarray) -> np.ndarray:
    return onnxruntime.InferenceSession(str(path)).run(None, {"crops": crops})[0]


def test_merged_file_averages_every_net_alike(tmp_path):
    crops = np.random.default_rng(0).uniform(0, 255, (6, 3, 48, 48)).astype(np.float32)
    committed = _run(COMMITTED, crops)
    model = onnx.load(str(COMMITTED))
    by_output = {name: node for node in model.graph.node for name in node.output}
    concat = by_output[by_output["lifted"].input[0]]
    nets = len(concat.input)
    assert merge_files([COMMITTED, COMMITTED], tmp_path / "twice.onnx") == 2 * nets
    np.testing.assert_allclose(_run(tmp_path / "twice.onnx", crops), committed, atol=1e-6)
    # the committed file with a file of its first net only: each net weighs alike, not each file
    first_only = onnx.load(str(COMMITTED))
    for node in first_only.graph.node:
        if list(node.output) == list(concat.output):
            del node.input[1:]
    onnx.save(first_only, str(tmp_path / "first.onnx"))
    first = _run(tmp_path / "first.onnx", crops)
    assert merge_files([COMMITTED, tmp_path / "first.onnx"], tmp_path / "more.onnx") == nets + 1
    np.testing.assert_allclose(_run(tmp_path / "more.onnx", crops), (nets * committed + first) / (nets + 1), atol=1e-5)


def test_files_cutting_other_crops_are_refused(tmp_path):
    other = onnx.load(str(COMMITTED))
    onnx.helper.set_model_props(other, {"crop_span": "2.0"})
    onnx.save(other, str(tmp_path / "wide.onnx"))
    with pytest.raises(ValueError, match="cut their crops differently"):
        merge_files([COMMITTED, tmp_path / "wide.onnx"], tmp_path / "out.onnx")
