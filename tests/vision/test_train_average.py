"""``vision.train.average``: the weight average of two exported models with one graph. Needs ``onnx`` (in the dev
and training extras): skipped without it."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
onnxruntime = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.train.average import average  # noqa: E402


def _linear(path, weight: np.ndarray, bias: np.ndarray, op: str = "Gemm") -> None:
    """A one-node model y = x @ weight + bias, saved at ``path``."""
    node = helper.make_node(op, ["x", "w", "b"], ["y"]) if op == "Gemm" else helper.make_node(op, ["x", "w"], ["y"])
    inits = [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")]
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


def _run(path, x: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def test_the_average_of_two_linear_models_computes_their_averaged_outputs(tmp_path):
    first, second, out = tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "mix.onnx"
    _linear(first, np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), np.array([1.0, -1.0], np.float32))
    _linear(second, np.array([[3.0, 0.0], [-1.0, 2.0]], np.float32), np.array([3.0, 1.0], np.float32))
    average(str(first), str(second), str(out), weight=0.25)
    x = np.array([[0.5, -2.0]], np.float32)
    # a linear model's output is linear in its weights
    assert np.allclose(_run(out, x), 0.75 * _run(first, x) + 0.25 * _run(second, x), atol=1e-5)
    average(str(first), str(second), str(out), weight=0.0)
    assert np.allclose(_run(out, x), _run(first, x))


def test_files_that_do_not_share_a_graph_or_a_weight_are_refused(tmp_path):
    first, second, other = tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "c.onnx"
    _linear(first, np.eye(2, dtype=np.float32), np.zeros(2, np.float32))
    _linear(second, np.eye(2, dtype=np.float32), np.zeros(3, np.float32))
    _linear(other, np.eye(2, dtype=np.float32), np.zeros(2, np.float32), op="MatMul")
    with pytest.raises(ValueError, match="initializer 'b'"):
        average(str(first), str(second), str(tmp_path / "out.onnx"))
    with pytest.raises(ValueError, match="same graph"):
        average(str(first), str(other), str(tmp_path / "out.onnx"))
    with pytest.raises(ValueError, match="weight"):
        average(str(first), str(first), str(tmp_path / "out.onnx"), weight=1.5)


def test_a_shrunk_file_averages_with_a_float32_one_as_its_float32_reading(tmp_path):
    from vision.train.shrink import shrink, unshrink

    first, shrunk, second, out = (tmp_path / n for n in ("a.onnx", "a16.onnx", "b.onnx", "mix.onnx"))
    # weights exact in float16, so that the shrunk file holds the same model
    _linear(first, np.array([[0.5, 2.0], [-3.0, 4.25]], np.float32), np.array([1.0, -1.0], np.float32))
    _linear(second, np.array([[3.0, 0.0], [-1.0, 2.0]], np.float32), np.array([3.0, 1.0], np.float32))
    shrink(str(first), str(shrunk), min_elements=1)
    model = onnx.load(str(shrunk))
    assert [n.op_type for n in model.graph.node] == ["Cast", "Cast", "Gemm"]
    restored = unshrink(model)
    assert [n.op_type for n in restored.graph.node] == ["Gemm"]
    assert {i.name: i.data_type for i in restored.graph.initializer} == {"w": TensorProto.FLOAT, "b": TensorProto.FLOAT}
    x = np.array([[0.5, -2.0]], np.float32)
    average(str(shrunk), str(second), str(out), weight=0.5)
    assert np.allclose(_run(out, x), 0.5 * _run(first, x) + 0.5 * _run(second, x), atol=1e-5)
    # a file that was never shrunk is left as it is
    plain = onnx.load(str(second))
    assert unshrink(plain) is plain and [n.op_type for n in plain.graph.node] == ["Gemm"]
