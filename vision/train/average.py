"""Average the weights of two exported models with the same graph (one continued from the other):

    .venv-train/bin/python -m vision.train.average FIRST.onnx SECOND.onnx --weight 0.5 --out OUT.onnx

Every floating-point initializer becomes ``(1 - weight) * FIRST + weight * SECOND`` (computed in float64, stored in
the first file's dtype, so a float16-stored file stays float16); other initializers must be equal. The graphs must
hold the same nodes in the same order and the same initializer names and shapes, as two exports of one
architecture do (for instance ``models/classifier.onnx`` and a run started from it with ``--init-onnx``): the
weights of a model and of its fine-tuned continuation lie close enough that their average is itself a good model,
often keeping what each does best (models/classifier.md, q19). A file stored shrunk (``vision.train.shrink``: float16
weights read through Cast nodes) is read back as float32 first, so the committed shrunk file and a fresh float32
export average together (their mean then stored as float32: shrink it afterwards as the committed file).
"""

from __future__ import annotations

import argparse

import numpy as np


def average(first: str, second: str, out: str, weight: float = 0.5) -> None:
    import onnx
    from onnx import numpy_helper

    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must lie in 0..1, got {weight!r}")
    from vision.train.shrink import unshrink

    a, b = unshrink(onnx.load(first)), unshrink(onnx.load(second))
    if [n.op_type for n in a.graph.node] != [n.op_type for n in b.graph.node]:
        raise ValueError(f"{first!r} and {second!r} do not hold the same graph")
    others = {init.name: init for init in b.graph.initializer}
    mixed = []
    for init in a.graph.initializer:
        if init.name not in others:
            raise ValueError(f"{second!r} has no initializer {init.name!r}")
        x, y = numpy_helper.to_array(init), numpy_helper.to_array(others[init.name])
        if x.shape != y.shape or x.dtype != y.dtype:
            raise ValueError(f"initializer {init.name!r}: {x.shape} {x.dtype} against {y.shape} {y.dtype}")
        if np.issubdtype(x.dtype, np.floating):
            z = ((1.0 - weight) * x.astype(np.float64) + weight * y.astype(np.float64)).astype(x.dtype)
        elif np.array_equal(x, y):
            z = x
        else:
            raise ValueError(f"initializer {init.name!r} is not floating point and differs between the files")
        mixed.append(numpy_helper.from_array(z, init.name))
    del a.graph.initializer[:]
    a.graph.initializer.extend(mixed)
    onnx.checker.check_model(a)
    onnx.save(a, out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--weight", type=float, default=0.5, help="the second file's share (0..1)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    average(args.first, args.second, args.out, args.weight)
    print(f"wrote {args.out}: {1 - args.weight:g} x {args.first} + {args.weight:g} x {args.second}")


if __name__ == "__main__":
    main()
