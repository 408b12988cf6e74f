"""Rebuild the PyTorch weights of mahjong-detector's ``model.onnx`` (MIT; an Ultralytics YOLO11n, 34 classes, 640 px).

The ONNX initialisers keep the PyTorch names with Conv+BN fused (``model.N....conv.weight`` / ``.conv.bias``): the
weight goes into the conv, the bias into the BN bias, BN weight 1, running mean 0 and running var 1 - eps, so that the
BN layer is the identity plus the fused bias. ``yolo11n.yaml`` with nc=34 then reproduces the package's outputs.

    .venv-train/bin/python -m vision.train.init_from_md --out out/md_yolo11n.pt
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import ROOT  # noqa: F401  (sets the offline environment)


def md_onnx_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("mahjong_detector")
    if spec is not None and spec.origin:
        return Path(spec.origin).parent / "model.onnx"
    venv = ROOT / ".venv" / "lib"
    for p in venv.glob("python*/site-packages/mahjong_detector/model.onnx"):
        return p
    raise FileNotFoundError("mahjong-detector's model.onnx not found (pip install mahjong-detector)")


def build_md_model(onnx_path: Path | None = None, nc: int = 34):
    """An ultralytics DetectionModel (yolo11n, ``nc`` classes) carrying the weights of a fused YOLO11n ONNX file:
    mahjong-detector's by default (nc=34), or an export of ours (``models/localizer.onnx``, nc=2), whose large weights
    ``vision.train.shrink`` stored as float16 under ``<name>__fp16``."""
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import DetectionModel

    model = DetectionModel("yolo11n.yaml", nc=nc, verbose=False)
    init = {i.name.removesuffix("__fp16"): numpy_helper.to_array(i).astype(np.float32)
            for i in onnx.load(str(onnx_path or md_onnx_path())).graph.initializer}
    sd = model.state_dict()
    new, used = {}, set()
    for key in sd:
        if key.endswith(".bn.weight") or key.endswith(".bn.bias") or ".bn.running" in key or "num_batches" in key:
            continue
        if key in init:
            new[key] = torch.from_numpy(np.array(init[key])).reshape(sd[key].shape)
            used.add(key)
    for key in sd:
        if key.endswith(".bn.weight"):
            base = key[: -len(".bn.weight")]
            bias = init.get(base + ".conv.bias")
            if bias is None:
                raise KeyError(f"no fused bias for {base}")
            bn = dict(model.named_modules())[base + ".bn"]
            new[base + ".bn.weight"] = torch.ones_like(sd[key])
            new[base + ".bn.bias"] = torch.from_numpy(np.array(bias))
            new[base + ".bn.running_mean"] = torch.zeros_like(sd[key])
            new[base + ".bn.running_var"] = torch.full_like(sd[key], 1 - bn.eps)
            used.add(base + ".conv.bias")
    missing = [k for k in sd if k not in new and "num_batches" not in k]
    if missing:
        raise KeyError(f"weights missing from the ONNX file: {missing[:10]}")
    model.load_state_dict(new, strict=False)
    return model


def calibrate_batch_norms(model, batches) -> None:
    """Give every fused batch norm (weight 1, mean 0, var 1 - eps: the identity plus the fused bias) the statistics
    of its input over ``batches`` (float tensors N x 3 x H x W, 0..1) while computing the same function.

    Training normalises with each batch's own statistics, so an identity norm would throw a trained net far off at
    the first step. With the measured mean m and variance v of the conv output z, the norm gets running mean m,
    running var v, weight sqrt(v + eps) and bias b + m: in eval mode (z - m) / sqrt(v + eps) * sqrt(v + eps) + b + m
    = z + b, the fused net's output, and a training batch's statistics are close to m and v."""
    import torch

    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    sums = {id(m): None for m in norms}

    def hook(module, inputs, _output):
        z = inputs[0].double()
        s1, s2, n = z.sum((0, 2, 3)), (z * z).sum((0, 2, 3)), z.numel() // z.shape[1]
        old = sums[id(module)]
        sums[id(module)] = (s1, s2, n) if old is None else (old[0] + s1, old[1] + s2, old[2] + n)

    handles = [m.register_forward_hook(hook) for m in norms]
    model.eval()
    with torch.no_grad():
        for x in batches:
            model(x)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for m in norms:
            s1, s2, n = sums[id(m)]
            mean = s1 / n
            var = (s2 / n - mean * mean).clamp_min(1e-6)
            m.running_mean.copy_(mean.float())
            m.running_var.copy_(var.float())
            m.weight.copy_(torch.sqrt(var + m.eps).float())
            m.bias.add_(mean.float())


def main(argv=None) -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "out" / "md_yolo11n.pt"))
    ap.add_argument("--check", action="store_true", help="compare with the ONNX outputs on random input")
    args = ap.parse_args(argv)
    model = build_md_model().eval()
    if args.check:
        import numpy as np
        import onnxruntime as ort

        x = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
        ref = ort.InferenceSession(str(md_onnx_path())).run(None, {"images": x})[0]
        with torch.no_grad():
            out = model(torch.from_numpy(x))[0].numpy()
        print("max abs difference vs model.onnx:", float(np.abs(out - ref).max()))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {}}, args.out)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
