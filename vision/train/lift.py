"""Train the lift model: does a sideways tile lie on another tile? A tiny CNN on a square crop around the tile.

Why: an added kong's fourth tile is often laid on the claimed (sideways) tile, and seen from above it hides that tile
completely. The meld then shows three tiles, exactly like a pung, and the tile count cannot tell the two apart (both
are legal hands). The reader used to judge it from the box's offset across the row, which the localiser's boxes
place about as coarsely as the lift itself; the picture shows more: two tile bodies' thickness under the face, and
the face raised off the table.

Data: synthetic scenes (``python -m vision.synth generate``), which label every tile with its meld and place:

    for s in $(seq 31 54); do .venv/bin/python -m vision.synth generate --n 400 --seed $s --width 640 --height 480 \
        --out out/synth/scenes_s${s}_640; done
    for s in $(seq 61 75); do .venv/bin/python -m vision.synth generate --n 400 --seed $s --width 640 --height 480 \
        --pung-meld-weights 0.3 0.1 0.5 0.1 --out out/synth/scenes_ak$s; done    # rich in added kongs

A sample is every face-up sideways meld tile (turned a quarter from the concealed row); label 1 for an added kong's
fourth tile when the scene lays it on the claimed one (habit ``added_kong: on``, meld place 3), else 0 (claimed tiles
of pungs, chows and kongs, and both sideways tiles of an added kong laid beside). Crops are cut around the true box,
jittered in place and size (the localiser's boxes are not exact), at CROP_SIDE pixels; training adds quarter turns,
mirroring and brightness / colour jitter (a lift shows the same from any side). Negatives are subsampled to
``--negative-share``.

    .venv-train/bin/python -m vision.train.lift                        # default: ~6 min on 2 CPU cores
    .venv-train/bin/python -m vision.train.lift --scenes DIR ... --epochs 50 --out models/lift.onnx
    .venv-train/bin/python -m vision.train.lift --merge-files models/lift.onnx out/lift_new.onnx --out OUT.onnx
                                                                       # one file averaging every net of both

The exported model (``vision.onnx_models.LiftModel``) takes (N, 3, CROP_SIDE, CROP_SIDE) float32 BGR 0..255 crops
from ``vision.onnx_models.crop_around`` and returns (N,) probabilities. Progress bars, a checkpoint per epoch
(runs/lift/NAME/last.pt), deterministic seed.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from ..onnx_models import LIFT_CROP_SIDE as CROP_SIDE
from ..onnx_models import LIFT_CROP_SPAN as CROP_SPAN
from ..detections import box_iou
from ..onnx_models import crop_around
from . import ROOT

# the localiser's synthetic scenes (seeds 31-54) and scenes rich in added kongs (seeds 61-75, see the module docstring)
DEFAULT_SCENES = ([str(ROOT / f"out/synth/scenes_s{seed}_640") for seed in range(31, 55)]
                  + [str(ROOT / f"out/synth/scenes_ak{seed}") for seed in range(61, 76)])
JITTER_SHIFT = 0.06  # box widths / heights (standard deviation) the crop centre is moved
JITTER_SCALE = 0.08  # log-scale standard deviation of the crop size
MODEL_BOX_IOU = 0.5  # --model-boxes: a localiser box this close to the true tile stands for it


def sideways_meld_tiles(scene: dict, merged_beside: bool = False):
    """(tile, label) for each face-up sideways meld tile of one scene (see the module docstring). With
    ``merged_beside``, also (union, 1) for each added kong laid beside: a tile-like dict whose box spans both its
    sideways tiles, as the localiser often boxes them."""
    upright = [t["rotation"] % 180 for t in scene["tiles"] if t["role"] == "concealed" and not t["face_down"]]
    if not upright:
        return
    reference = Counter(upright).most_common(1)[0][0]
    laid_on = scene.get("habits", {}).get("added_kong") == "on"
    melds = scene["hand"]["melds"]
    for tile in scene["tiles"]:
        if tile["role"] != "meld" or tile["face_down"] or tile.get("visible", 1.0) < 0.5:
            continue
        if (tile["rotation"] - reference) % 180 != 90:
            continue
        meld = melds[tile["meld_index"]]
        yield tile, int(laid_on and meld["type"] == "added_kong" and tile["meld_position"] == 3)
        if merged_beside and not laid_on and meld["type"] == "added_kong" and tile["meld_position"] == 3:
            pair = [t for t in scene["tiles"] if t["meld_index"] == tile["meld_index"] and t["role"] == "meld"
                    and not t["face_down"] and (t["rotation"] - reference) % 180 == 90]
            if len(pair) == 2:
                boxes = np.array([t["box"] for t in pair], np.float64)
                union = [*boxes[:, :2].min(axis=0).tolist(), *boxes[:, 2:].max(axis=0).tolist()]
                yield {"box": union}, 1


def collect(folders: list[str], rng: np.random.Generator, negative_share: float, jitter: bool = True,
            merged_beside: bool = False, recognizer=None, side: int = CROP_SIDE, span: float = CROP_SPAN):
    """Crops (N, S, S, 3) uint8 and labels (N,) from the scenes in ``folders``. With ``recognizer``
    (vision.recognize.Recognizer), each crop is cut at the localiser's own box for the tile (IoU >= MODEL_BOX_IOU;
    a tile it misses gives no crop), not at the jittered true box: the boxes the reader will hand the model.
    ``side`` and ``span``: the crop (``crop_around``)."""
    from tqdm import tqdm

    crops, labels = [], []
    for folder in folders:
        lines = (Path(folder) / "scenes.jsonl").read_text().splitlines()
        for line in tqdm(lines, desc=Path(folder).name, leave=False):
            scene = json.loads(line)
            image, found = None, None
            for tile, label in sideways_meld_tiles(scene, merged_beside):
                if not label and rng.random() > negative_share:
                    continue
                if image is None:
                    image = cv2.imread(str(Path(folder) / scene["image"]))
                    found = recognizer.find_boxes(image)[0] if recognizer is not None else None
                box = np.asarray(tile["box"], np.float64)
                if found is not None:
                    overlap = box_iou(box[None], found)[0] if len(found) else np.zeros(1)
                    if overlap.max() < MODEL_BOX_IOU:
                        continue
                    box = np.asarray(found[int(overlap.argmax())], np.float64)
                elif jitter:
                    w, h = box[2] - box[0], box[3] - box[1]
                    shift = rng.normal(0, JITTER_SHIFT, 2) * [w, h]
                    grow = np.exp(rng.normal(0, JITTER_SCALE))
                    centre = (box[:2] + box[2:]) / 2 + shift
                    half = np.array([w, h]) * grow / 2
                    box = np.concatenate([centre - half, centre + half])
                crops.append(crop_around(image, box[None], side, span)[0].transpose(1, 2, 0).astype(np.uint8))
                labels.append(label)
    if not crops:
        raise SystemExit(f"no sideways meld tiles in {folders}: render scenes first (see the module docstring)")
    return np.stack(crops), np.asarray(labels, np.int64)


def build_model():
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2), *block(32, 64),
                         nn.MaxPool2d(2), *block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(96, 1))


def export(net, out: Path, side: int = CROP_SIDE, span: float = CROP_SPAN) -> None:
    """ONNX: (N, 3, side, side) float32 BGR 0..255 -> (N,) probability, with the crop's ``span`` in the metadata
    (``crop_span``, read by ``LiftModel``). ``net`` may be a list of nets: the file then gives the mean of their
    probabilities."""
    import torch
    import torch.nn as nn

    class Exported(nn.Module):
        def __init__(self, nets):
            super().__init__()
            self.nets = nn.ModuleList(nets)

        def forward(self, x):
            x = x * (1 / 255.0)
            return torch.stack([torch.sigmoid(net(x)[:, 0]) for net in self.nets]).mean(dim=0)

    model = Exported(net if isinstance(net, list) else [net]).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, side, side), str(out), input_names=["crops"],
                      output_names=["lifted"], dynamic_axes={"crops": {0: "n"}, "lifted": {0: "n"}}, opset_version=17,
                      dynamo=False)
    import onnx

    graph = onnx.load(str(out))
    onnx.helper.set_model_props(graph, {"crop_span": repr(float(span))})
    onnx.save(graph, str(out))


def merge_files(paths: list[Path], out: Path) -> int:
    """One ONNX file giving the mean probability of every net in ``paths`` (each file as ``export`` writes it: its
    nets' sigmoids stacked and averaged), each net weighted alike; returns the number of nets. The files must cut
    their crops alike (same input and ``crop_span``). Used to add a net to the committed file without its runs'
    checkpoints."""
    import onnx
    from onnx import helper

    models = [onnx.load(str(path)) for path in paths]
    # A file without ``crop_span`` (the committed one) cuts at the default span (``LiftModel``).
    spans = {next((prop.value for prop in m.metadata_props if prop.key == "crop_span"), repr(float(CROP_SPAN)))
             for m in models}
    shapes = {str(m.graph.input[0].type) for m in models}
    if len(spans) != 1 or len(shapes) != 1:
        raise ValueError(f"the files cut their crops differently: spans {sorted(spans)}, {len(shapes)} input shapes")
    nodes, initializers, stacked = [], [], []
    concat = mean = None
    for k, model in enumerate(models):
        graph = model.graph
        by_output = {name: node for node in graph.node for name in node.output}
        mean = by_output[graph.output[0].name]
        concat = by_output[mean.input[0]]
        shared = {graph.input[0].name}

        def renamed(name: str, k=k, shared=shared) -> str:
            return name if name in shared or not name else f"net{k}_{name}"

        for node in graph.node:
            if node is mean or node is concat:
                continue
            copy = helper.make_node(node.op_type, [renamed(i) for i in node.input], [renamed(o) for o in node.output],
                                    name=renamed(node.name), domain=node.domain)
            copy.attribute.extend(node.attribute)
            nodes.append(copy)
        for tensor in graph.initializer:
            copy = onnx.TensorProto()
            copy.CopyFrom(tensor)
            copy.name = renamed(tensor.name)
            initializers.append(copy)
        stacked += [renamed(name) for name in concat.input]
    joined = helper.make_node("Concat", stacked, ["stacked"], name="stack_all")
    joined.attribute.extend(concat.attribute)
    averaged = helper.make_node("ReduceMean", ["stacked"], [models[0].graph.output[0].name], name="mean_all")
    averaged.attribute.extend(mean.attribute)
    first = models[0].graph
    graph = helper.make_graph(nodes + [joined, averaged], "lift_mean", list(first.input), list(first.output),
                              initializers)
    merged = helper.make_model(graph, opset_imports=list(models[0].opset_import))
    merged.ir_version = models[0].ir_version
    helper.set_model_props(merged, {"crop_span": spans.pop()})
    onnx.checker.check_model(merged)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(merged, str(out))
    return len(stacked)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", nargs="*", default=DEFAULT_SCENES, help="synthetic scene folders to train on")
    ap.add_argument("--val-scenes", nargs="*", default=[], help="scene folders to report on after each epoch")
    ap.add_argument("--epochs", type=int, default=50)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3, help="peak of the one-cycle schedule")
    ap.add_argument("--positive-weight", type=float, default=3.0, help="loss weight of the lifted tiles")
    ap.add_argument("--negative-share", type=float, default=0.5, help="share of the flat sideways tiles kept")
    ap.add_argument("--merged-beside", action="store_true",
                    help="also train on the box around both sideways tiles of an added kong laid beside, as lifted")
    ap.add_argument("--model-boxes", action="store_true",
                    help="cut each crop at the committed localiser's box for the tile instead of the jittered true box")
    ap.add_argument("--side", type=int, default=CROP_SIDE, help="crop side in pixels (the model's input)")
    ap.add_argument("--span", type=float, default=CROP_SPAN,
                    help="crop span: a square this many times the box's longer side (more shows the neighbours)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="train")
    ap.add_argument("--out", default=str(ROOT / "models" / "lift.onnx"))
    ap.add_argument("--merge-files", nargs="+", metavar="ONNX",
                    help="write to --out one file giving the mean of every net in these files (merge_files), then stop")
    ap.add_argument("--export-mean", nargs="+", metavar="CKPT",
                    help="export the mean of these checkpoints' probabilities (runs/lift/NAME/last.pt) to --out, "
                         "then stop")
    args = ap.parse_args(argv)

    if args.merge_files:
        count = merge_files([Path(path) for path in args.merge_files], Path(args.out))
        print(f"wrote the mean of {count} nets to {args.out}")
        return

    import torch
    import torch.nn as nn
    from tqdm import tqdm

    if args.export_mean:
        nets = []
        for path in args.export_mean:
            net = build_model()
            net.load_state_dict(torch.load(path, map_location="cpu")["model"])
            nets.append(net.eval())
        export(nets, Path(args.out), args.side, args.span)
        print(f"exported the mean of {len(nets)} to {args.out}")
        return

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    recognizer = None
    if args.model_boxes:
        from ..recognize import Recognizer

        recognizer = Recognizer.load(ROOT / "models", threads=args.threads or None)
    x, y = collect(args.scenes, rng, args.negative_share, merged_beside=args.merged_beside, recognizer=recognizer,
                   side=args.side, span=args.span)
    print(f"{len(y)} crops, {int(y.sum())} lifted", flush=True)
    val = collect(args.val_scenes, np.random.default_rng(args.seed + 1), 1.0, jitter=False, side=args.side,
                  span=args.span) if args.val_scenes else None

    def tensor(a):
        return torch.from_numpy(a.transpose(0, 3, 1, 2).astype(np.float32) / 255.0)

    X, Y = tensor(x), torch.from_numpy(y.astype(np.float32))
    net = build_model()
    steps = args.epochs * ((len(X) + args.batch - 1) // args.batch)
    opt = torch.optim.AdamW(net.parameters(), args.lr / 1.5, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps)
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(args.positive_weight))
    run = ROOT / "runs" / "lift" / args.name
    run.mkdir(parents=True, exist_ok=True)
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(X), generator=generator)
        total, start = 0.0, time.time()
        bar = tqdm(range(0, len(X), args.batch), desc=f"epoch {epoch + 1}/{args.epochs}", leave=False)
        for s in bar:
            idx = order[s:s + args.batch]
            xb, yb = X[idx], Y[idx]
            turns = int(torch.randint(4, (1,), generator=generator))
            xb = torch.rot90(xb, turns, (2, 3))
            if torch.rand(1, generator=generator) < 0.5:
                xb = xb.flip(3)
            gain = 0.8 + 0.4 * torch.rand(len(xb), 1, 1, 1, generator=generator)
            tint = 0.1 * (torch.rand(len(xb), 3, 1, 1, generator=generator) - 0.5)
            loss = loss_fn(net(xb * gain + tint)[:, 0], yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            total += float(loss) * len(idx)
            bar.set_postfix(loss=f"{float(loss):.3f}")
        line = f"epoch {epoch + 1}/{args.epochs} loss {total / len(X):.4f} {time.time() - start:.0f} s"
        if val is not None:
            line += " " + report(net, *val)
        print(line, flush=True)
        torch.save({"model": net.state_dict(), "epoch": epoch + 1}, run / "last.pt")
    net.eval()
    export(net, Path(args.out), args.side, args.span)
    print(f"exported {args.out}")


def report(net, x: np.ndarray, y: np.ndarray) -> str:
    """Area under the ROC curve and accuracy at 0.5 on held-out crops."""
    import torch

    net.eval()
    with torch.no_grad():
        p = torch.sigmoid(net(torch.from_numpy(x.transpose(0, 3, 1, 2).astype(np.float32) / 255.0))[:, 0]).numpy()
    positive = y == 1
    if not positive.any() or positive.all():
        return f"val: {int(positive.sum())} lifted of {len(y)}, no score"
    ranks = np.empty(len(p))
    ranks[np.argsort(p)] = np.arange(len(p))
    auc = (ranks[positive].mean() - (positive.sum() - 1) / 2) / max((~positive).sum(), 1)
    return (f"val AUC {auc:.3f}, lifted found {np.mean(p[positive] > 0.5):.3f}, flat kept"
            f" {np.mean(p[~positive] <= 0.5):.3f}")


if __name__ == "__main__":
    main()
