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


def build_md_model(onnx_path: Path | None = None):
    """An ultralytics DetectionModel (yolo11n, nc=34) carrying mahjong-detector's weights."""
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import DetectionModel

    model = DetectionModel("yolo11n.yaml", nc=34, verbose=False)
    init = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(onnx_path or md_onnx_path())).graph.initializer}
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
