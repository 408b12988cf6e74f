"""Store an ONNX model's large float32 weights as float16 (+ a Cast node each): half the file size, same fp32
arithmetic at run time (onnxruntime folds the casts when the session is created).

    .venv-train/bin/python -m vision.train.shrink models/localizer.onnx
"""

from __future__ import annotations

import sys

import numpy as np


def shrink(path: str, out: str | None = None, min_elements: int = 1024) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(path)
    g = model.graph
    casts, keep = [], []
    for init in g.initializer:
        arr = numpy_helper.to_array(init)
        if init.data_type == TensorProto.FLOAT and arr.size >= min_elements:
            half = numpy_helper.from_array(arr.astype(np.float16), init.name + "__fp16")
            keep.append(half)
            casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT,
                                          name=init.name + "__cast"))
        else:
            keep.append(init)
    del g.initializer[:]
    g.initializer.extend(keep)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(casts + nodes)
    onnx.checker.check_model(model)
    onnx.save(model, out or path)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        shrink(p)
        print("shrunk", p)
