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


def unshrink(model):
    """The inverse of ``shrink`` on a loaded model, in place: each ``NAME__fp16`` initializer read by its Cast node
    becomes the float32 initializer ``NAME`` again (float16 values are exact in float32) and the Cast node goes.
    Returns the model. A file that was never shrunk comes back unchanged, so that two exports of one architecture,
    one shrunk and one not, can be compared or averaged weight by weight (``vision.train.average``)."""
    import numpy as np
    from onnx import numpy_helper

    g = model.graph
    halves = {init.name for init in g.initializer if init.name.endswith("__fp16")}
    # shrink's Cast nodes: a float16 initializer in, the float32 weight's own name out
    restored_name = {node.input[0]: node.output[0] for node in g.node
                     if node.op_type == "Cast" and len(node.input) == 1 and node.input[0] in halves}
    if not restored_name:
        return model
    kept = [numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float32), restored_name[init.name])
            if init.name in restored_name else init for init in g.initializer]
    del g.initializer[:]
    g.initializer.extend(kept)
    nodes = [node for node in g.node if not (node.op_type == "Cast" and node.input[0] in restored_name)]
    del g.node[:]
    g.node.extend(nodes)
    return model


if __name__ == "__main__":
    for p in sys.argv[1:]:
        shrink(p)
        print("shrunk", p)
