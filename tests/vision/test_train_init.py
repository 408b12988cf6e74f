"""Training continues from the committed classifier ONNX (``vision.train.classifier.load_exported``): the net it
fills computes what the ONNX file computes. Needs the training extra (torch, ultralytics): skipped without it."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")
onnxruntime = pytest.importorskip("onnxruntime")

# The classifier's export uses torch's TorchScript exporter (its graph is the one the committed files have), which
# torch 2.9+ calls legacy: a note about torch, not about this code.
pytestmark = [pytest.mark.filterwarnings("ignore:You are using the legacy TorchScript:DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:The feature will be removed:DeprecationWarning")]

MODEL = Path(__file__).resolve().parents[2] / "models" / "classifier.onnx"


def test_a_net_filled_from_the_committed_onnx_gives_its_probabilities(monkeypatch):
    from vision.train import classifier

    session = onnxruntime.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])
    size = int(session.get_inputs()[0].shape[2])
    monkeypatch.setattr(classifier, "SIZE", size)
    net = classifier.build_model("md", pretrained=False)
    classifier.load_exported(net, MODEL)
    crops = np.random.default_rng(0).uniform(0, 255, (8, 3, size, size)).astype(np.float32)
    expected = session.run(None, {session.get_inputs()[0].name: crops})
    with torch.no_grad():
        got = classifier.Exported.wrap(net).eval()(torch.from_numpy(crops))
    for want, have in zip(expected, got):
        assert np.abs(want - have.numpy()).max() < 1e-4
    # every batch norm is an identity plus the fused bias: only fixed statistics keep that
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and all(float(m.running_mean.abs().max()) == 0.0 for m in norms)


def test_a_file_whose_weights_do_not_fit_the_net_is_refused(tmp_path, monkeypatch):
    import onnx
    from onnx import numpy_helper

    from vision.train import classifier

    monkeypatch.setattr(classifier, "SIZE", 64)
    net = classifier.build_model("md", pretrained=False)
    classifier.export(net.eval(), tmp_path / "net.onnx")
    classifier.load_exported(net, tmp_path / "net.onnx")  # its own export fits
    model = onnx.load(str(tmp_path / "net.onnx"))
    first_conv = next(n for n in model.graph.node if n.op_type == "Conv")
    weights = next(i for i in model.graph.initializer if i.name == first_conv.input[1])
    weights.CopyFrom(numpy_helper.from_array(np.zeros((8, 3, 3, 3), np.float32), weights.name))  # 8 filters, not 16
    onnx.save(model, str(tmp_path / "bad.onnx"))
    with pytest.raises(ValueError, match="is \\(8, 3, 3, 3\\)"):
        classifier.load_exported(net, tmp_path / "bad.onnx")


LOCALIZER = MODEL.parent / "localizer.onnx"


def test_the_localizer_rebuilt_from_the_committed_onnx_computes_it_before_and_after_calibration():
    """``vision.train.localizer --init-onnx``: the fused YOLO11n read back (float16 weights included) gives the file's
    scores, and calibrating its batch norms on images changes their statistics but not the function."""
    from vision.train.init_from_md import build_md_model, calibrate_batch_norms

    session = onnxruntime.InferenceSession(str(LOCALIZER), providers=["CPUExecutionProvider"])
    size = int(session.get_inputs()[0].shape[2])
    rng = np.random.default_rng(1)
    images = [rng.uniform(0, 1, (1, 3, size, size)).astype(np.float32) for _ in range(3)]
    model = build_md_model(LOCALIZER, nc=2).eval()

    def worst_difference():
        worst = 0.0
        with torch.no_grad():
            for x in images:
                want = session.run(None, {session.get_inputs()[0].name: x})[0]
                have = model.eval()(torch.from_numpy(x))[0].numpy()
                assert have.shape == want.shape
                worst = max(worst, float(np.abs(want[:, 4:] - have[:, 4:]).max()))  # the two class scores
        return worst

    assert worst_difference() < 1e-4
    calibrate_batch_norms(model, [torch.from_numpy(np.concatenate(images))])
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(float(m.running_var.min()) > 0 for m in norms)
    assert sum(float(m.running_mean.abs().max()) > 0 for m in norms) == len(norms)
    assert worst_difference() < 1e-4
