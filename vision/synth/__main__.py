"""``python -m vision.synth generate|crops|preview`` (see README "Synthetic data")."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

from .config import DIFFICULTIES, SynthConfig
from .writers import contact_sheet, dataset_stats, default_real_dir, generate, write_crops


def _common(parser: argparse.ArgumentParser, n: bool = True) -> None:
    parser.add_argument("--config", help="JSON file of defaults for these options (datasets/synth/*.json)")
    if n:
        parser.add_argument("--n", type=int, default=100, help="number of scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=960)
    parser.add_argument("--difficulty", choices=sorted(DIFFICULTIES), default="normal")
    parser.add_argument("--p-riichi", type=float, default=0.35, help="share of riichi hands")
    parser.add_argument("--p-heap", type=float, default=0.0,
                        help="share of scenes with a heap of piled, tilted tiles beside the hand (default 0: none)")
    parser.add_argument("--p-standing", type=float, default=None,
                        help="share of hands whose concealed row stands (default: the difficulty's, 0.35 for normal)")
    parser.add_argument("--pung-meld-weights", type=float, nargs=4, metavar=("PUNG", "KONG", "ADDED", "CONCEALED"),
                        help="how an exposed set of three alike is laid (default 0.34 0.22 0.22 0.22)")
    parser.add_argument("--styles", help="comma-separated art styles (default: all found)")
    parser.add_argument("--art-dir", help="folder of the art styles (default: shared/art)")


def _config(args) -> SynthConfig:
    styles = args.styles.split(",") if isinstance(args.styles, str) else args.styles  # a config file gives a list
    return SynthConfig(width=args.width, height=args.height, difficulty=args.difficulty, p_riichi=args.p_riichi,
                       p_heap=args.p_heap, p_standing=args.p_standing,
                       pung_meld_weights=tuple(args.pung_meld_weights) if args.pung_meld_weights else None,
                       styles=tuple(styles) if styles else None, art_dir=args.art_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="N scenes: images/, labels/ (YOLO), labels_obb/, scenes.jsonl")
    _common(g)
    g.add_argument("--out", required=True)
    g.add_argument("--workers", type=int, default=2)
    c = sub.add_parser("crops", help="single-tile classification crops: OUT/<class>/<id>.jpg and OUT/crops.csv")
    _common(c)
    c.add_argument("--out", required=True)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--size", type=int, default=96, help="long side of a crop, pixels")
    p = sub.add_parser("preview", help="a labelled contact sheet of scenes beside real photos")
    _common(p, n=False)
    p.add_argument("--out", required=True, help="image file (.jpg)")
    p.add_argument("--count", type=int, default=12)
    p.add_argument("--real-dir", help="folder of real photos to show for comparison (default: shared hk-photos valid)")
    p.add_argument("--quality", type=int, default=80)
    p.add_argument("--cell", type=int, default=480, help="width of one scene in the sheet, pixels")

    st = sub.add_parser("stats", help="class, rotation, role and meld counts of a generated folder (checks labels)")
    st.add_argument("folder")

    args = parser.parse_args(argv)
    if args.command == "stats":
        print(json.dumps(dataset_stats(args.folder), indent=1))
        return 0
    if args.config:  # the file gives defaults; options on the command line win
        defaults = json.loads(Path(args.config).read_text())
        given = {a.split("=")[0].lstrip("-").replace("-", "_") for a in (argv or sys.argv[1:]) if a.startswith("--")}
        for key, value in defaults.items():
            if key not in given and not key.startswith("_"):
                setattr(args, key, value)
    config = _config(args)
    start = time.time()
    if args.command == "generate":
        out = generate(args.n, args.seed, args.out, config, workers=args.workers)
        took = time.time() - start
        print(f"wrote {args.n} scenes to {out} in {took:.1f} s ({args.n / took:.1f} scenes/s)", file=sys.stderr)
    elif args.command == "crops":
        out = write_crops(args.n, args.seed, args.out, config, workers=args.workers, size=args.size)
        print(f"wrote crops of {args.n} scenes to {out} in {time.time() - start:.1f} s", file=sys.stderr)
    else:
        real = Path(args.real_dir) if args.real_dir else default_real_dir()
        sheet = contact_sheet(args.seed, config, count=args.count, real_dir=real, cell_width=args.cell)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(args.out, sheet, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
