"""``vision.onnx_models.LiftModel`` cuts the crop its file was trained on: the input side from the graph, the span
from the metadata ``crop_span`` (``vision.train.lift --span`` writes it), the committed span without it. Needs
``onnx`` (dev and training extras) to build the small files: skipped without it."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

from vision.onnx_models import LIFT_CROP_SIDE, LIFT_CROP_SPAN, LiftModel, crop_around  # noqa: E402


def _mean_brightness_model(path, side: int, span: float | None) -> None:
    """(N, 3, side, side) -> (N,): the crop's mean value / 255, a stand-in whose output shows what was cut."""
    nodes = [helper.make_node("ReduceMean", ["crops"], ["m"], axes=[1, 2, 3], keepdims=0),
             helper.make_node("Div", ["m", "k"], ["lifted"])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, side, side])],
        [helper.make_tensor_value_info("lifted", TensorProto.FLOAT, ["n"])],
        [helper.make_tensor("k", TensorProto.FLOAT, [], [255.0])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    if span is not None:
        helper.set_model_props(model, {"crop_span": repr(span)})
    onnx.save(model, str(path))


def _scene() -> tuple[np.ndarray, np.ndarray]:
    """A black picture with one white 20 x 20 tile in its middle, and that tile's box."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[90:110, 90:110] = 255
    return image, np.array([[90.0, 90.0, 110.0, 110.0]])


def test_the_crop_follows_the_files_side_and_span(tmp_path):
    path = tmp_path / "wide.onnx"
    _mean_brightness_model(path, 64, 3.0)
    model = LiftModel(path)
    assert (model.side, model.span) == (64, 3.0)
    image, box = _scene()
    crops = model.crops(image, box)
    assert crops.shape == (1, 3, 64, 64)
    assert np.array_equal(crops, crop_around(image, box, 64, 3.0))
    # the tile fills a ninth of a crop three times its side: the mean shows the span was used
    assert model(crops)[0] == pytest.approx(1 / 9, abs=0.02)


def test_a_file_without_a_span_gets_the_committed_crop(tmp_path):
    path = tmp_path / "old.onnx"
    _mean_brightness_model(path, LIFT_CROP_SIDE, None)
    model = LiftModel(path)
    assert (model.side, model.span) == (LIFT_CROP_SIDE, LIFT_CROP_SPAN)
    image, box = _scene()
    assert model(model.crops(image, box))[0] == pytest.approx(1 / LIFT_CROP_SPAN ** 2, abs=0.03)
