"""``python -m vision recognize IMAGE [IMAGE...]``: one JSON line per image (shared/spec/interfaces.md).

Success: ``{"image", "tiles": [{"code", "box", "confidence", "rotation", "face_down", "top"}], "hand", "warnings"}``;
a file that cannot be read: ``{"image", "error": {"code", "message"}}``, and the run goes on. Exit status 0 when at
least one image was read, 1 when none could be, 2 when the models cannot be loaded.
``hand`` / ``warnings`` come from ``vision.hand_reader.read_hand`` when that module is present (else null / []).
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.json_lines import stop_writing, write_line

from .errors import ImageError, ModelFileError


def _hand_reader():
    try:
        from . import hand_reader  # built separately; optional

        return getattr(hand_reader, "read_hand", None)
    except ImportError:
        return None


def _reported_tiles(tiles: list, warnings: list, reading: dict, unsure) -> tuple[list, list]:
    """(``tiles`` without the unsure ones (``Recognition.unsure``) that the ``reading`` (its JSON; empty where none
    ran) does not use, ``warnings`` with the tile numbers they name renumbered to match)
    (``vision.hand_reader.drop_unused_unsure``)."""
    try:
        from .hand_reader import drop_unused_unsure
    except ImportError:
        return tiles, warnings
    out = drop_unused_unsure({**reading, "tiles": tiles, "warnings": warnings}, unsure)
    return out["tiles"], out["warnings"]


def recognize_main(args) -> int:
    from .recognize import Recognizer

    try:
        options = {} if args.topk is None else {"topk": args.topk}
        rec = Recognizer.load(args.models, threads=args.threads, **options)
    except ModelFileError as exc:  # a wrong --models folder, or a file in it that is no model: say so, no traceback
        print(f"python -m vision recognize: {exc}", file=sys.stderr)
        return 2
    read_hand = _hand_reader()
    read = 0  # images read; an unreadable one is reported on its line and the run goes on
    for name in args.images:
        try:
            result = rec.recognize(name)
        except ImageError as exc:
            print(json.dumps({"image": name, "error": exc.to_json()}), flush=True)
            continue
        read += 1
        line = {"image": name, "tiles": result.detections.to_json(), "hand": None, "warnings": result.warnings}
        out = {}  # the reading's JSON, which says which tiles it uses
        if read_hand is not None:
            try:
                reading = read_hand(result.detections, image_size=(result.width, result.height),
                                    spares=result.spares)
                out = reading.to_json() if hasattr(reading, "to_json") else {}
                line["tiles"] += reading.extra_tiles()  # a spare box taken in as a hand tile
                line["hand"] = out.get("hand")
                line["warnings"] = result.warnings + list(out.get("warnings", []))
            except Exception as exc:  # the tiles are still useful without a hand
                out = {}  # a failed reading uses no tile
                line["warnings"] = result.warnings + [f"hand assembly failed: {exc.__class__.__name__}: {exc}"]
        # a box the localiser was unsure of (T51b) or that the picture's edge cuts to under half a tile (E64b) is
        # reported only where the reading uses it
        line["tiles"], line["warnings"] = _reported_tiles(line["tiles"], line["warnings"], out,
                                                          getattr(result, "unsure", ()))
        if args.timings:
            line["timings_ms"] = result.timings_ms
        write_line(line)
    # 0 when some image was read (a bad file among good ones is answered on its line, as the engine's CLI answers a
    # bad hand); 1 when none was: `python -m vision recognize missing.jpg && ...` must not go on as if it had read one.
    return 0 if read else 1


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _threads(text: str) -> int:
    """--threads: onnxruntime starts this many threads for each model's session, so 100000 hung while the models
    loaded, and -1 went through unchecked."""
    from .onnx_models import MAX_THREADS

    value = _at_least_one(text)
    if value > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_THREADS}, not {value}")
    return value


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision", description="Mahjong tile recognition")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recognize", help="recognise the tiles of one or more images; one JSON line per image")
    r.add_argument("images", nargs="+")
    r.add_argument("--models", default=None, help="folder with localizer.onnx and classifier.onnx (default: models/)")
    # the recogniser's own default, so that the line's hand is the one the API reads from the same photo
    r.add_argument("--topk", type=_at_least_one, default=None,
                   help="classes kept per tile, listed in `top` and weighed by the hand reader (default: 8)")
    r.add_argument("--threads", type=_threads, default=None,
                   help="onnxruntime threads per model, 1-256 (default: VISION_THREADS, else the cores, at most 4)")
    r.add_argument("--timings", action="store_true", help="add per-stage milliseconds")
    args = ap.parse_args(argv)
    if args.cmd == "recognize":
        try:
            return recognize_main(args)
        except BrokenPipeError:
            return stop_writing()
    return 2


if __name__ == "__main__":
    sys.exit(main())
