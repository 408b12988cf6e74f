"""Train the crop classifier: a small CNN on square BGR crops -> 43 classes (42 faces + face-down back) and a
4-way orientation head: how far the tile's face is turned clockwise inside the crop (0, 90, 180, 270 degrees).

Why four ways: the recogniser turns landscape boxes to portrait, but a sideways tile seen under perspective often has
a nearly square box, and is then cropped unturned; the head must see that its face lies on its side.

Data (``out/crops/*.npz`` of 80x80 crops, see datasets/): hk-photos train (real, orientation unknown -> only the class
loss), tile-crops (real, upright), synthetic crops from every art style (``--synth-crops DIR`` from
``python -m vision.synth crops``; face-down backs come from there). Augmentation: random resized crop, 180-degree
and quarter turns (the orientation label follows), small rotations, brightness / contrast / colour jitter, blur, noise.
Progress bars, a checkpoint per epoch (runs/classifier/), a GPU when available, deterministic seed. Input side: 64 px by
default, ``--size 80`` for the committed model (the size the crops are stored at).

    .venv-train/bin/python -m vision.train.classifier          # default: ~25 min on 2 CPU cores
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from ..classes import CLASS_NAMES
from . import ROOT

SIZE = 64
N_CLASSES = 43
N_ORIENT = 4  # face turned 0 / 90 / 180 / 270 degrees clockwise inside the crop
QUARTER_TURN_P = 0.3  # share of training crops given an extra 90 / 270 degree turn (sideways faces are a minority)
# --low-res-p: share of training crops whose view is shrunk to LOW_RES_SIDES pixels and enlarged back. The training
# crops come from scenes whose tiles measure 25-60 px, while far shots hand the classifier tiles of 12-30 px, enlarged
# bilinearly by crop_tiles; 0 (the default, every run before session 57) leaves the augmentation out.
LOW_RES_P = 0.0
LOW_RES_SIDES = (14, 32)
FLOWER_CLASSES = np.array([k for k, name in enumerate(CLASS_NAMES) if name.endswith("f")])  # 1f..8f
CHARACTER_CLASSES = np.array([k for k, name in enumerate(CLASS_NAMES) if name.endswith("m")])  # 1m..9m
BAMBOO_CLASSES = np.array([k for k, name in enumerate(CLASS_NAMES) if name.endswith("s")])  # 1s..9s
FREEZE = 5  # md backbone layers kept frozen (stride-8 stem: generic edges and strokes; saves most backward time)


def build_model(arch: str = "md", pretrained: bool = True, freeze: int = FREEZE):
    """``md``: the first 9 layers (stride 32) of mahjong-detector's YOLO11n backbone (pretrained on real tiles unless
    ``pretrained`` is False: the same layers, to be filled from a checkpoint), flattened 2x2x256 features -> class
    and orientation heads; its first ``freeze`` layers stay frozen in training. ``tiny``: a small CNN from scratch."""
    import torch
    import torch.nn as nn

    if arch == "md":
        from .init_from_md import build_md_model

        class MdTileNet(nn.Module):
            def __init__(self):
                super().__init__()
                if pretrained:
                    md = build_md_model()
                else:  # weights come from a checkpoint: no need for mahjong-detector's ONNX file
                    from ultralytics.nn.tasks import DetectionModel

                    md = DetectionModel("yolo11n.yaml", nc=34, verbose=False)
                self.freeze = freeze
                self.backbone = nn.Sequential(*list(md.model.children())[:9])
                # The stride-32 map is 2x2 at 64 px and 3x3 at 65..96 px: a 2x2 average with stride 1 brings a 3x3
                # map to 2x2, so that the heads (and checkpoints) are the same at every input size (an adaptive
                # pool would do the same but does not export to ONNX when 2 does not divide the map).
                side = -(-SIZE // 32)
                pool = nn.AvgPool2d(side - 1, stride=1) if side > 2 else nn.Identity()
                feat = 256 * 2 * 2
                self.head = nn.Sequential(pool, nn.Flatten(), nn.Dropout(0.2))
                self.cls = nn.Linear(feat, N_CLASSES)
                self.orient = nn.Linear(feat, N_ORIENT)

            def forward(self, x):
                if self.training and self.freeze:
                    with torch.no_grad():
                        self.backbone[:self.freeze].eval()
                        f = self.backbone[:self.freeze](x)
                    f = self.backbone[self.freeze:](f)
                else:
                    f = self.backbone(x)
                f = self.head(f)
                return self.cls(f), self.orient(f)

        return MdTileNet()

    def block(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class TileNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                block(3, 32, 2),                         # 32x32
                block(32, 64, 2), block(64, 64, 1),      # 16x16
                block(64, 128, 2), block(128, 128, 1),   # 8x8
                block(128, 256, 2), block(256, 256, 1),  # 4x4
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.cls = nn.Linear(256, N_CLASSES)
            self.orient = nn.Linear(256, N_ORIENT)

        def forward(self, x):
            f = self.features(x)
            return self.cls(f), self.orient(f)

    return TileNet()


class Exported:  # wraps the net for ONNX: uint8-range float BGR NCHW in, probabilities out
    @staticmethod
    def wrap(net):
        import torch
        import torch.nn as nn

        class W(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = net

            def forward(self, x):
                c, o = self.net(x / 255.0)
                return torch.softmax(c, 1), torch.softmax(o, 1)

        return W()


def load_exported(net, path: str | Path) -> None:
    """Fill an ``md`` net (``build_model(pretrained=False)``) from a classifier it exported (``export``, perhaps
    shrunk by ``vision.train.shrink``), so that training can continue from a committed ``models/classifier.onnx``
    without its checkpoint.

    The export fused each batch norm into the convolution before it: each convolution gets the fused weight, its
    batch norm the fused bias with weight 1, mean 0 and variance 1 - eps (an identity plus the bias), which is why
    such a net must train with every batch norm's statistics fixed (``--bn-frozen 9``). Convolutions are matched to
    the graph's Conv nodes in the order they run; the heads by name. Raises ValueError when the shapes disagree."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    # Weights reached through a node: fp16 ones through a Cast (shrink), equal ones shared through an Identity (the
    # exporter keeps one copy of equal tensors).
    source_of = {n.output[0]: n.input[0] for n in graph.node if n.op_type in ("Cast", "Identity")}

    def value(name: str) -> torch.Tensor:
        while name not in arrays:
            name = source_of[name]
        return torch.from_numpy(np.asarray(arrays[name], np.float32).copy())

    batch_norm_of = {}  # ultralytics Conv blocks: conv -> its batch norm
    for module in net.modules():
        if isinstance(getattr(module, "conv", None), torch.nn.Conv2d) and isinstance(getattr(module, "bn", None),
                                                                                     torch.nn.BatchNorm2d):
            batch_norm_of[module.conv] = module.bn
    ran: list = []
    hooks = [m.register_forward_hook(lambda m, i, o: ran.append(m)) for m in net.modules()
             if isinstance(m, torch.nn.Conv2d)]
    net.eval()
    with torch.no_grad():
        net(torch.zeros(1, 3, SIZE, SIZE))
    for hook in hooks:
        hook.remove()
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    if len(nodes) != len(ran):
        raise ValueError(f"{path}: {len(nodes)} convolutions in the graph, {len(ran)} in the net")
    with torch.no_grad():
        for conv, node in zip(ran, nodes):
            weight, bias = value(node.input[1]), value(node.input[2])
            if weight.shape != conv.weight.shape:
                raise ValueError(f"{path}: {node.input[1]} is {tuple(weight.shape)}, the net's convolution "
                                 f"{tuple(conv.weight.shape)}")
            conv.weight.copy_(weight)
            bn = batch_norm_of.get(conv)
            if bn is None:
                conv.bias.copy_(bias)
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for head in ("cls", "orient"):
            layer = getattr(net, head)
            layer.weight.copy_(value(f"net.{head}.weight"))
            layer.bias.copy_(value(f"net.{head}.bias"))


def load_npz(paths):
    xs, ys, os_ = [], [], []
    for p in paths:
        d = np.load(p)
        xs.append(d["x"])
        ys.append(d["y"].astype(np.int64))
        os_.append(d["orient"].astype(np.int64))
        print(f"{p}: {len(d['y'])} crops")
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(os_)


def load_synth_crops(folder: Path, size: int = 80):
    """``python -m vision.synth crops`` output: DIR/crops.csv + DIR/<class>/*.jpg, portrait crops whose
    ``rotation_after`` is 0 (upright) or 180 (upside-down)."""
    import csv

    from vision.classes import CLASS_NAMES

    xs, ys, os_ = [], [], []
    with open(folder / "crops.csv", newline="") as f:
        for row in csv.DictReader(f):
            img = cv2.imread(str(folder / row["file"]))
            if img is None or row["class"] not in CLASS_NAMES:
                continue
            xs.append(cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA))
            ys.append(CLASS_NAMES.index(row["class"]))
            os_.append(-1 if row["class"] == "back" else int(int(row["rotation_after"]) == 180))
    print(f"{folder}: {len(ys)} synthetic crops")
    return (np.stack(xs) if xs else np.zeros((0, size, size, 3), np.uint8), np.array(ys, np.int64),
            np.array(os_, np.int64))


def make_backs(n: int, rng: np.random.Generator, size: int = 80):
    """Simple face-down tiles (fallback when no synthetic crops): a coloured back, an ivory rim, light, noise."""
    palette = np.array([[40, 120, 30], [150, 90, 20], [30, 110, 200], [40, 170, 220], [60, 60, 160], [120, 140, 40],
                        [170, 120, 60], [80, 80, 80]], np.float32)  # BGR: green, blue, orange, yellow, red, teal, ...
    xs = np.empty((n, size, size, 3), np.uint8)
    for i in range(n):
        col = palette[rng.integers(len(palette))] * rng.uniform(0.6, 1.3) + rng.normal(0, 12, 3)
        img = np.empty((size, size, 3), np.float32)
        img[:] = np.clip(col, 0, 255)
        bg = rng.uniform(20, 230, 3)
        m = int(rng.integers(0, 10))
        if m:
            img[:m] = bg
            img[-m:] = bg
            img[:, :m] = bg
            img[:, -m:] = bg
        rim = int(rng.integers(0, 14))
        side = rng.integers(4)
        ivory = np.array([200, 225, 235], np.float32) * rng.uniform(0.7, 1.1)
        if rim:
            if side == 0:
                img[m:m + rim, m:size - m] = ivory
            elif side == 1:
                img[size - m - rim:size - m, m:size - m] = ivory
            elif side == 2:
                img[m:size - m, m:m + rim] = ivory
            else:
                img[m:size - m, size - m - rim:size - m] = ivory
        gy, gx = np.mgrid[0:size, 0:size] / size
        img *= (1 + rng.uniform(-0.3, 0.3) * gx + rng.uniform(-0.3, 0.3) * gy)[..., None]
        img += rng.normal(0, rng.uniform(2, 10), img.shape)
        xs[i] = np.clip(img, 0, 255).astype(np.uint8)
    return xs, np.full(n, 42, np.int64), np.full(n, -1, np.int64)


def augment(x: np.ndarray, orient: np.ndarray, rng: np.random.Generator):
    """x: (B, 80, 80, 3) uint8 -> (B, 3, 64, 64) float32 0..255 and orientation labels (B,) in quarter turns
    clockwise (-1 = unknown). ``orient`` in: -1 unknown, 0 upright, 1 upside-down (the crop files' convention)."""
    b = len(x)
    out = np.empty((b, SIZE, SIZE, 3), np.float32)
    orient = np.where(orient >= 0, orient * 2, -1)  # upright / upside-down -> 0 / 2 quarter turns
    src = x.shape[1]
    for i in range(b):
        s = rng.uniform(0.8, 1.0) * src  # view / tile = 0.93 .. 1.16 (inference: 1.06)
        cx, cy = src / 2 + rng.uniform(-0.07, 0.07, 2) * src
        ang = rng.normal(0, 6)
        turn = rng.random() < 0.5
        if turn:
            ang += 180
            if orient[i] >= 0:
                orient[i] = (orient[i] + 2) % 4
        sx = s * rng.uniform(0.9, 1.1)
        M = cv2.getRotationMatrix2D((float(cx), float(cy)), float(ang), SIZE / sx)
        M[:, 2] += SIZE / 2 - np.array([cx, cy])
        img = cv2.warpAffine(x[i], M, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if LOW_RES_P and rng.random() < LOW_RES_P:  # a smaller tile's pixels, enlarged as crop_tiles enlarges them
            side = int(rng.integers(LOW_RES_SIDES[0], LOW_RES_SIDES[1] + 1))
            small = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA)
            img = cv2.resize(small, (SIZE, SIZE), interpolation=cv2.INTER_LINEAR)
        img = img.astype(np.float32)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.3))
        img = img * rng.uniform(0.6, 1.35) + rng.uniform(-35, 35)
        img = img * rng.uniform(0.85, 1.15, 3)
        mean = img.mean()
        img = (img - mean) * rng.uniform(0.7, 1.3) + mean
        if rng.random() < 0.3:
            img += rng.normal(0, rng.uniform(2, 8), img.shape)
        if rng.random() < QUARTER_TURN_P:  # a sideways face in a square crop: turn the 64 px view a quarter
            q = 1 if rng.random() < 0.5 else 3
            img = np.rot90(img, k=-q)  # np.rot90 turns counter-clockwise for positive k
            if orient[i] >= 0:
                orient[i] = (orient[i] + q) % 4
        out[i] = img
    return np.clip(out, 0, 255).transpose(0, 3, 1, 2).copy(), orient


class _AugmentedBatches:
    """Batch k of an epoch, augmented with its own generator (seed, epoch, k): a torch Dataset for the loader's
    worker processes, which share X and O with the trainer (fork, copy on write)."""

    def __init__(self, X: np.ndarray, O: np.ndarray, perm: np.ndarray, batch: int, key: tuple[int, int]):
        self.X, self.O, self.perm, self.batch, self.key = X, O, perm, batch, key

    def __len__(self) -> int:
        return (len(self.perm) + self.batch - 1) // self.batch

    def __getitem__(self, k: int):
        idx = self.perm[k * self.batch:(k + 1) * self.batch]
        xb, ob = augment(self.X[idx], self.O[idx], np.random.default_rng([*self.key, k]))
        return idx, xb, ob


def augmented_batches(X: np.ndarray, O: np.ndarray, perm: np.ndarray, batch: int, rng: np.random.Generator,
                      workers: int = 0, key: tuple[int, int] = (0, 0)):
    """(indices, crops (B, 3, S, S) float32, orientation labels (B,)) for each batch of ``perm`` in order: augmented
    here from ``rng`` (workers 0), or by ``workers`` processes, batch k from its own generator (``key`` + k)."""
    if workers <= 0:
        for s in range(0, len(perm), batch):
            idx = perm[s:s + batch]
            xb, ob = augment(X[idx], O[idx], rng)
            yield idx, xb, ob
        return
    import torch

    loader = torch.utils.data.DataLoader(
        _AugmentedBatches(X, O, perm, batch, key), batch_size=None, shuffle=False, num_workers=workers,
        prefetch_factor=4, worker_init_fn=lambda _: cv2.setNumThreads(1))
    for idx, xb, ob in loader:
        yield np.asarray(idx), np.asarray(xb), np.asarray(ob)


def center_view(x: np.ndarray):
    """Deterministic evaluation view, identical to inference preprocessing (central crop of the 80 px crop)."""
    src = x.shape[1]
    c = int(round((src - src / 1.16 * 1.06) / 2))  # the 80 px crops carry an 8 % margin; inference crops 3 %
    v = x[:, c:src - c, c:src - c]
    return np.stack([cv2.resize(i, (SIZE, SIZE), interpolation=cv2.INTER_AREA) for i in v]).transpose(0, 3, 1, 2)


def one_cycle_lr(progress: float, peak: float, warm: float = 0.15) -> float:
    """Learning rate at ``progress`` (0..1) of the run: cosine warm-up from peak/25 to peak over the first ``warm``,
    then cosine annealing to peak/1e4 (the shape of torch's OneCycleLR). A function of progress rather than of a
    step count, so that a wall-clock cap (``--hours``) can end the run on a fully annealed model."""
    import math

    p = min(max(progress, 0.0), 1.0)
    if p < warm:
        lo, hi, t = peak / 25, peak, p / warm
    else:
        lo, hi, t = peak, peak / 1e4, (p - warm) / (1 - warm)
    return hi + (lo - hi) * (1 + math.cos(math.pi * t)) / 2


def main(argv=None) -> None:
    global SIZE, LOW_RES_P
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--crops", nargs="*", default=[str(ROOT / "out/crops/hk_train.npz"),
                                                   str(ROOT / "out/crops/tile_crops.npz")])
    ap.add_argument("--synth-crops", action="append", default=[])
    ap.add_argument("--synth-max", type=int, default=3000, help="at most this many synthetic crops (random subset)")
    ap.add_argument("--low-res-p", type=float, default=LOW_RES_P,
                    help="share of training crops shrunk to %d-%d px and enlarged back (small, far tiles)" % LOW_RES_SIDES)
    ap.add_argument("--flower-copies", type=int, default=1,
                    help="list each synthetic flower crop this many times (a scene shows ~1 flower against ~16 "
                         "playing tiles, so each flower class has about a third of a playing class's crops)")
    ap.add_argument("--character-copies", type=int, default=1,
                    help="list each synthetic character (1m..9m) crop this many times (their numerals, small in a "
                         "640 x 480 scene, are the faces most often misnamed: 2m/3m, 5m/3m, 9m/6m)")
    ap.add_argument("--bamboo-copies", type=int, default=1,
                    help="list each synthetic bamboo (1s..9s) crop this many times (misnamed more often once the "
                         "characters were listed twice, q24)")
    ap.add_argument("--backs", type=int, default=1500, help="fallback face-down crops drawn in code")
    ap.add_argument("--val", default=str(ROOT / "out/crops/hk_valid.npz"), help="monitoring only, never trained on")
    ap.add_argument("--monitor", action="append", default=[],
                    help="more never-trained-on crop sets (.npz or a synth crops folder) whose accuracy is logged")
    ap.add_argument("--hours", type=float, default=0.0,
                    help="wall-clock cap: the LR schedule follows max(step share, time share), so a capped run ends "
                         "annealed (0 = no cap; then the run is deterministic)")
    ap.add_argument("--freeze", type=int, default=FREEZE, help="md backbone layers kept frozen")
    ap.add_argument("--bn-frozen", type=int, default=0,
                    help="batch-norm statistics of the first N md backbone layers stay fixed while their weights train "
                         "(md's fused BN is an identity: switching those layers to batch statistics when they are "
                         "unfrozen throws the net back to chance)")
    ap.add_argument("--out", default=str(ROOT / "models" / "classifier.onnx"))
    ap.add_argument("--name", default="train")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--workers", type=int, default=0,
                    help="processes that augment the batches (a GPU machine: the per-crop augmentation, not the net, "
                         "bounds an epoch there); 0 = in this process, as every CPU run so far. With workers each "
                         "batch draws its augmentation from (seed, epoch, batch), so a run is the same whatever the "
                         "number of workers, though not the same as with 0")
    ap.add_argument("--bf16", action="store_true",
                    help="on a CPU, the forward and backward passes in bfloat16 (autocast; the weights, the optimiser "
                         "and the loss stay float32) on channels-last tensors: 2.7 times the crops per second of "
                         "float32 on 2 cores with AVX512-BF16 (session 58), where the net, not the augmentation, bounds "
                         "an epoch; ignored on a GPU")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--arch", default="md", choices=["md", "tiny"])
    ap.add_argument("--init", default=None, help="checkpoint (.pt from runs/classifier) to start from")
    ap.add_argument("--init-onnx", default=None,
                    help="an exported classifier (models/classifier.onnx) to start from when its checkpoint is gone; "
                         "its batch norms are fused, so every one keeps fixed statistics (sets --bn-frozen 9)")
    ap.add_argument("--export-only", default=None, help="export this checkpoint to --out and stop")
    ap.add_argument("--size", type=int, default=SIZE, choices=range(33, 97), metavar="PX",
                    help="input side in pixels, 33..96 (the crops are stored at 80 px; checkpoints fit every size)")
    args = ap.parse_args(argv)
    SIZE = args.size  # read by build_model, augment, center_view and export
    LOW_RES_P = args.low_res_p  # read by augment (worker processes fork after this)

    import torch
    import torch.nn.functional as F
    from tqdm import tqdm

    torch.manual_seed(args.seed)
    if args.export_only:
        net = build_model(args.arch, pretrained=False)
        net.load_state_dict(torch.load(args.export_only, map_location="cpu")["model"])
        export(net.eval(), Path(args.out))
        return
    if args.threads:
        torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    for p in args.crops:
        if not Path(p).exists():
            raise SystemExit(f"{p} missing: run python -m datasets.hk_photos crops / python -m datasets.tile_crops")
    parts = [load_npz(args.crops)]
    # faces whose synthetic crops are listed more than once (each copy gets its own augmentation)
    extra_copies = [(FLOWER_CLASSES, args.flower_copies), (CHARACTER_CLASSES, args.character_copies),
                    (BAMBOO_CLASSES, args.bamboo_copies)]
    for s in args.synth_crops:
        sx, sy, so = load_synth_crops(Path(s))
        pick = rng.permutation(len(sy))[:args.synth_max]
        pick = np.concatenate([pick] + [pick[np.isin(sy[pick], classes)]
                                        for classes, copies in extra_copies for _ in range(copies - 1)])
        parts.append((sx[pick], sy[pick], so[pick]))
    if args.backs:
        parts.append(make_backs(args.backs, rng))
    X = np.concatenate([p[0] for p in parts])
    Y = np.concatenate([p[1] for p in parts])
    O = np.concatenate([p[2] for p in parts])
    print(f"{len(Y)} training crops, class counts min {np.bincount(Y, minlength=43).min()}")
    monitors = {}  # name -> (views, labels): accuracy logged per epoch, never trained on, never used to stop
    for m in ([args.val] if args.val else []) + args.monitor:
        if not Path(m).exists():
            continue
        if Path(m).is_dir():
            mx, my, _ = load_synth_crops(Path(m))
        else:
            d = np.load(m)
            mx, my = d["x"], d["y"].astype(np.int64)
        key = "valid_crop_acc" if m == args.val else f"acc_{Path(m).stem}"
        monitors[key] = (torch.from_numpy(center_view(mx).astype(np.float32)), my)

    net = build_model(args.arch, pretrained=args.init is None and args.init_onnx is None, freeze=args.freeze)
    if args.init_onnx:
        if args.arch != "md":
            raise SystemExit("--init-onnx needs --arch md")
        load_exported(net, args.init_onnx)
        args.bn_frozen = len(net.backbone)  # fused batch norms: batch statistics would throw the net back to chance
        print(f"started from {args.init_onnx}; batch norms of all {args.bn_frozen} backbone layers keep their statistics")
    if args.init:
        state = torch.load(args.init, map_location="cpu")["model"]
        own = net.state_dict()
        # a checkpoint with the older 2-way orientation head: keep everything else, start the head afresh
        skipped = [k for k, v in state.items() if k in own and own[k].shape != v.shape]
        net.load_state_dict({k: v for k, v in state.items() if k not in skipped}, strict=False)
        if skipped:
            print("not loaded (shape changed):", skipped)
    net = net.to(device)
    # bfloat16 autocast on the CPU (its speed comes with channels-last memory; the loss is taken in float32)
    bf16 = args.bf16 and device == "cpu"
    if bf16:
        net = net.to(memory_format=torch.channels_last)
    steps = args.epochs * ((len(Y) + args.batch - 1) // args.batch)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    run = ROOT / "runs" / "classifier" / args.name
    run.mkdir(parents=True, exist_ok=True)
    log = []
    start, step = time.time(), 0

    def progress() -> float:
        share = step / steps
        if args.hours > 0:
            share = max(share, (time.time() - start) / (args.hours * 3600))
        return share

    for epoch in range(args.epochs):
        if progress() >= 1.0:
            print(f"wall-clock cap of {args.hours} h reached after {epoch} epochs")
            break
        net.train()
        if args.bn_frozen and args.arch == "md":
            for m in net.backbone[:args.bn_frozen].modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        perm = rng.permutation(len(Y))
        t0, tot, correct, seen = time.time(), 0.0, 0, 0
        bar = tqdm(augmented_batches(X, O, perm, args.batch, rng, args.workers, (args.seed, epoch)),
                   total=(len(Y) + args.batch - 1) // args.batch, desc=f"epoch {epoch + 1}/{args.epochs}")
        for idx, xb, ob in bar:
            if args.hours > 0 and progress() >= 1.0:
                break  # the cap falls inside this epoch: the LR is already at its floor
            xb = torch.from_numpy(xb).to(device) / 255.0
            yb = torch.from_numpy(Y[idx]).to(device)
            ob = torch.from_numpy(ob).to(device)
            if bf16:
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    logits, ologits = net(xb.contiguous(memory_format=torch.channels_last))
                logits, ologits = logits.float(), ologits.float()
            else:
                logits, ologits = net(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
            known = ob >= 0
            if known.any():
                loss = loss + 0.5 * F.cross_entropy(ologits[known], ob[known])
            for group in opt.param_groups:
                group["lr"] = one_cycle_lr(progress(), args.lr)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            tot += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == yb).sum())
            seen += len(idx)
            bar.set_postfix(loss=f"{tot / seen:.3f}", acc=f"{correct / seen:.3f}")
        entry = {"epoch": epoch + 1, "loss": tot / max(seen, 1), "train_acc": correct / max(seen, 1),
                 "sec": time.time() - t0, "lr": one_cycle_lr(progress(), args.lr)}
        net.eval()
        for key, (vx, vy) in monitors.items():
            with torch.no_grad():
                pred = np.concatenate([net(vx[i:i + 512].to(device) / 255.0)[0].argmax(1).cpu().numpy()
                                       for i in range(0, len(vx), 512)])
            entry[key] = float((pred == vy).mean())
        log.append(entry)
        print(json.dumps(entry))
        torch.save({"model": net.state_dict(), "epoch": epoch + 1, "log": log}, run / "last.pt")
    (run / "log.json").write_text(json.dumps(log, indent=1))
    export(net.cpu().to(memory_format=torch.contiguous_format).eval(), Path(args.out))


def export(net, out: Path) -> None:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    model = Exported.wrap(net).eval()
    torch.onnx.export(model, torch.zeros(1, 3, SIZE, SIZE), str(out), input_names=["crops"],
                      output_names=["class_probs", "orient_probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "class_probs": {0: "n"}, "orient_probs": {0: "n"}})
    print("exported", out, f"{out.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
