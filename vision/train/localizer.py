"""Train the tile localiser: Ultralytics YOLO11n, 2 classes (0 = face-up tile, 1 = face-down tile), small input.

Initialised from mahjong-detector's YOLO11n (MIT, real tiles, see init_from_md.py): every layer but the class
convolutions is transferred, so a few CPU epochs suffice. Data: hk-photos train (+ synthetic scenes when given with
``--synth DIR``, which bring face-down and sideways tiles). Progress bars, per-epoch checkpoints (runs/localizer/...),
a GPU when one is available, and a wall-clock cap (``--hours``) so the default finishes on a 2-core CPU.

    .venv-train/bin/python -m vision.train.localizer            # default: 416 px, <= 1 h on 2 CPU cores
    .venv-train/bin/python -m vision.train.localizer --export-only runs/localizer/train/weights/last.pt
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from . import ROOT


def _merge_synth(loc: Path, synth: Path, split: str = "train", box: str = "body") -> None:
    """Add a vision.synth scene folder (images/*.jpg, labels/*.txt in 43 classes) to a split, as 2 classes.

    ``box``: "body" labels each tile with the box of its whole body (labels/, the renderer's ``box``); "face" with the
    box of its face (or back) quad alone (labels_obb/), the convention of hk-photos' labels, which outline the face.
    Session 15 tried "face" (gpu16f, models/localizer.md item 14): it did not bring back the real tiles a GPU run had
    lost (large tiles were the cause) and the hand reader, tuned to whole-body boxes, read fewer hands."""
    img_dir, lab_dir = loc / "images" / split, loc / "labels" / split
    for img in sorted((synth / "images").glob("*.jpg")):
        lab = synth / ("labels_obb" if box == "face" else "labels") / (img.stem + ".txt")
        if not lab.exists():
            continue
        link = img_dir / f"synth_{synth.name}_{img.name}"
        if not link.exists():
            link.symlink_to(img.resolve())
        lines = []
        for line in lab.read_text().splitlines():
            p = line.split()
            if box == "face" and len(p) == 9:
                xs, ys = [float(v) for v in p[1::2]], [float(v) for v in p[2::2]]
                x1, x2, y1, y2 = min(xs), max(xs), min(ys), max(ys)
                if x2 - x1 < 1e-3 or y2 - y1 < 1e-3:  # a quad clipped to a sliver by the picture's edge
                    continue
                p = [p[0], f"{(x1 + x2) / 2:.6f}", f"{(y1 + y2) / 2:.6f}", f"{x2 - x1:.6f}", f"{y2 - y1:.6f}"]
            if len(p) >= 5:
                lines.append(" ".join([str(int(int(p[0]) == 42))] + p[1:5]))
        (lab_dir / f"synth_{synth.name}_{img.stem}.txt").write_text("\n".join(lines) + "\n")


def _repeat_real(loc: Path, times: int) -> None:
    """Extra links to each real training photo (and its label), so that an epoch sees it ``times`` times."""
    img_dir, lab_dir = loc / "images" / "train", loc / "labels" / "train"
    for img in sorted(img_dir.glob("*.jpg")):
        if img.name.startswith(("synth_", "rep")):
            continue
        for k in range(1, times):
            (img_dir / f"rep{k}_{img.name}").symlink_to(img.resolve())
            (lab_dir / f"rep{k}_{img.stem}.txt").write_text((lab_dir / f"{img.stem}.txt").read_text())


def _stretch_real(loc: Path, copies: int, split: str = "train", seed: int = 0) -> None:
    """``copies`` squeezed versions of each real photo of a split: one axis shrunk 1.8..8 times and the image scaled
    back to its size, as hk-photos' exporter did to wide or tall originals it forced into 640x640 (tiles then look
    2..8 times too thin or too flat; ~10 % of the photos, ~4 % of the tiles of the valid split are like that, and the
    localiser found none of them). Normalised labels are unchanged by the squeeze."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    img_dir, lab_dir = loc / "images" / split, loc / "labels" / split
    for img_path in sorted(img_dir.glob("*.jpg")):
        if img_path.name.startswith(("synth_", "rep", "sq")):
            continue
        image = cv2.imread(str(img_path))
        if image is None:
            continue
        h, w = image.shape[:2]
        for k in range(copies):
            f = float(np.exp(rng.uniform(np.log(1.8), np.log(8.0))))
            small = (max(8, round(w / f)), h) if rng.random() < 0.5 else (w, max(8, round(h / f)))
            squeezed = cv2.resize(cv2.resize(image, small, interpolation=cv2.INTER_AREA), (w, h),
                                  interpolation=cv2.INTER_LINEAR)
            cv2.imwrite(str(img_dir / f"sq{k}_{img_path.name}"), squeezed, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (lab_dir / f"sq{k}_{img_path.stem}.txt").write_text((lab_dir / f"{img_path.stem}.txt").read_text())


def export_onnx(weights: Path, out: Path, imgsz: int) -> Path:
    from ultralytics import YOLO

    model = YOLO(str(weights))
    path = Path(model.export(format="onnx", imgsz=imgsz, simplify=False, dynamic=False, opset=17, device="cpu"))
    out.parent.mkdir(parents=True, exist_ok=True)
    if path.resolve() != out.resolve():  # ultralytics writes beside the weights: already there when out is that path
        shutil.copy(path, out)
    print("exported", out, f"{out.stat().st_size / 1e6:.1f} MB")
    return out


def _init_from_onnx(onnx_path: Path, loc: Path, imgsz: int, out: Path, n_images: int = 160) -> Path:
    """Start weights rebuilt from an exported localiser, its batch norms calibrated on training images."""
    import cv2
    import numpy as np
    import torch

    from vision.onnx_models import letterbox  # the localiser's own input, as served

    from .init_from_md import build_md_model, calibrate_batch_norms

    model = build_md_model(onnx_path, nc=2)
    images = sorted((loc / "images" / "train").glob("*.jpg"))
    picked = [images[i] for i in np.random.default_rng(0).permutation(len(images))[:n_images]]
    tensors = [torch.from_numpy(letterbox(cv2.imread(str(p)), imgsz)[0]) for p in picked]
    calibrate_batch_norms(model, [torch.cat(tensors[i:i + 8]) for i in range(0, len(tensors), 8)])
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {}}, out)
    print(f"started from {onnx_path}: batch norms calibrated on {len(picked)} training images -> {out}")
    return out


def _read_results_without_polars() -> None:
    """Ultralytics reads results.csv with polars only to store it in each checkpoint. The GPU machines' image has no
    polars (its wheel alone is ~40 MB, more than a device call may carry), so read it with the csv module there."""
    try:
        import polars  # noqa: F401
        return
    except ImportError:
        pass
    import csv

    from ultralytics.engine.trainer import BaseTrainer

    def read_results_csv(self):
        try:
            with open(self.csv, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError:
            return {}
        return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

    BaseTrainer.read_results_csv = read_results_csv


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hours", type=float, default=1.0, help="wall-clock cap (ultralytics `time`)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--synth", action="append", default=[], help="vision.synth scene folder(s) to train on")
    ap.add_argument("--val-synth", action="append", default=[],
                    help="vision.synth scene folder(s) from other seeds, added to the checkpoint-selection split")
    ap.add_argument("--synth-box", default="body", choices=["body", "face"],
                    help="synthetic tiles' box: the whole body (default) or the face quad's, as hk-photos labels it")
    ap.add_argument("--holdout-every", type=int, default=10,
                    help="every N-th hk-photos train photo goes to the checkpoint-selection split")
    ap.add_argument("--real-repeat", type=int, default=1,
                    help="list each hk-photos training photo this many times (weighs real photos against --synth)")
    ap.add_argument("--workers", type=int, default=2, help="data-loading processes")
    ap.add_argument("--cache", default="", choices=["", "ram", "disk"],
                    help="ultralytics image cache: 'ram' keeps the decoded, resized pictures (for a GPU, whose "
                         "loaders otherwise starve it)")
    ap.add_argument("--no-export", action="store_true", help="leave the checkpoints; export later (--export-only)")
    ap.add_argument("--stretch-copies", type=int, default=0,
                    help="squeezed copies of each real photo, train and held-out (see _stretch_real)")
    ap.add_argument("--dataset", default=str(ROOT / "out" / "datasets" / "loc"),
                    help="where the Ultralytics dataset is written (rewritten at each start; one per concurrent run)")
    ap.add_argument("--init", default=None, help="start weights (.pt); default: mahjong-detector's YOLO11n")
    ap.add_argument("--init-onnx", default=None,
                    help="start from an exported localiser (e.g. models/localizer.onnx): its fused batch norms get "
                         "the statistics of 160 training images (init_from_md.calibrate_batch_norms)")
    ap.add_argument("--name", default="train")
    ap.add_argument("--optimizer", default="auto", help="ultralytics optimizer (auto picks AdamW and its own lr)")
    ap.add_argument("--lr0", type=float, default=0.005)
    ap.add_argument("--warmup", type=float, default=1.0, help="warm-up epochs")
    ap.add_argument("--degrees", type=float, default=15.0,
                    help="largest random turn of a training picture (ultralytics `degrees`); hk-photos are shot nearly "
                         "level (bench/eval_turned_photos.py measures real photos turned: docs/rules-session65.md)")
    ap.add_argument("--scale", type=float, default=0.5,
                    help="ultralytics zoom augmentation: pictures scaled by 1 +- this (wider: more large tiles)")
    ap.add_argument("--out", default=str(ROOT / "models" / "localizer.onnx"))
    ap.add_argument("--export-only", default=None)
    args = ap.parse_args(argv)
    if args.export_only:
        export_onnx(Path(args.export_only), Path(args.out), args.imgsz)
        return

    import torch
    from ultralytics import YOLO

    _read_results_without_polars()
    loc = Path(args.dataset)
    subprocess.run([sys.executable, "-m", "datasets.hk_photos", "localizer", "--out", str(loc),
                    "--holdout-every", str(args.holdout_every)], check=True, cwd=ROOT)
    _stretch_real(loc, args.stretch_copies, "train", seed=0)
    _stretch_real(loc, min(args.stretch_copies, 1), "val", seed=1)
    _repeat_real(loc, args.real_repeat)
    for s in args.synth:
        _merge_synth(loc, Path(s), "train", args.synth_box)
    for s in args.val_synth:
        _merge_synth(loc, Path(s), "val", args.synth_box)
    init = args.init
    if args.init_onnx:
        init = str(_init_from_onnx(Path(args.init_onnx), loc, args.imgsz, ROOT / "out" / f"{args.name}_init.pt"))
    if init is None:
        init = str(ROOT / "out" / "md_yolo11n.pt")
        if not Path(init).exists():
            from .init_from_md import main as init_main

            init_main(["--out", init])
    device = 0 if torch.cuda.is_available() else "cpu"
    model = YOLO("yolo11n.yaml")
    results_dir = ROOT / "runs" / "localizer"
    model.train(data=str(loc / "data.yaml"), pretrained=init, imgsz=args.imgsz, epochs=args.epochs, time=args.hours,
                batch=args.batch, workers=args.workers, device=device, project=str(results_dir), name=args.name, exist_ok=True,
                seed=0, deterministic=True, amp=False, plots=False, val=True, save_period=1, patience=100,
                degrees=args.degrees, flipud=0.5, fliplr=0.5, mosaic=1.0, close_mosaic=3, scale=args.scale, cos_lr=True,
                lr0=args.lr0, optimizer=args.optimizer, warmup_epochs=args.warmup, cache=args.cache or False)
    # best.pt: highest fitness (0.1 mAP50 + 0.9 mAP50-95) on the held-out split (hk-photos train holdout + synthetic
    # scenes of unseen seeds) -- never the hk-photos valid measurement set.
    best = results_dir / args.name / "weights" / "best.pt"
    if args.no_export:
        return
    export_onnx(best, Path(args.out), args.imgsz)


if __name__ == "__main__":
    main()
