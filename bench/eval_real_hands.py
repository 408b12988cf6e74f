"""Hand reading on real photos: the hk-photos pictures named ``hand_*``, end to end with the committed models.

    .venv/bin/python bench/eval_real_hands.py [--split valid|train] [--models models/]

No real photo comes with its hand, only with its tiles' labels, and none sets a winning tile apart. So each reading is
judged by its tiles: the multiset of every tile the reader puts in the hand (concealed, winning tile, melds, flowers)
against the label file's, red fives counted as fives. A photo whose labels hold 14 playing tiles, or 14 + k with k
kinds held four times (a hand with k kongs, each tile face up: hk-photos train holds many), is a hand; any other photo
is no hand, and the reader is right there when it reads none.

Prints a line per photo (``right``, ``wrong``: what is missing and what is extra, or ``none`` with the warnings) and
the counts. Limits, read before quoting a number:

- ``valid`` is never trained on (the split the README's recognition numbers use); ``train`` is trained on by the
  localiser and classifier, and every train picture is augmented (flips that mirror faces, rotations, shear), so its
  count flatters the models.
- Some label files are wrong or partial: ``valid/hand_003`` names its 1p 2p 3p as bamboos (judged by the corrected
  labels since session 62: ``datasets/hk_photos_valid_corrections.json``'s slips), and some ``train`` pictures leave
  flowers in the hand's row unlabelled. The count is a check on the reader's
  layouts, not a measure of recognition.
- The reader's search has a CPU-time budget (as deployed): on a loaded machine a few readings change from run to run;
  ``--states-only`` lifts the clock (its search states only), to compare two readers picture for picture.
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.hk_photos import hk_root, read_labels  # noqa: E402
from vision.classes import CLASS_NAMES, FACE_DOWN  # noqa: E402
from vision.hand_reader import read_hand  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402

HAND_TILES = 14


def label_tiles(split: str, stem: str) -> collections.Counter:
    """The label file's faces (backs left out), as tile codes."""
    _, classes = read_labels(split, stem, 640, 640)
    return collections.Counter(CLASS_NAMES[c] for c in classes if c != FACE_DOWN)


def is_hand_count(labels: collections.Counter) -> bool:
    """Whether a label file's playing tiles can be a winning hand: 14, or 14 + k with k kinds held four times (a hand
    with k kongs laid out face up, as many hk-photos train pictures show one)."""
    playing = {code: n for code, n in labels.items() if not code.endswith("f")}
    fours = sum(n == 4 for n in playing.values())
    return sum(playing.values()) in {HAND_TILES + k for k in range(fours + 1)}


def read_tiles(hand) -> collections.Counter:
    """Every tile the reading puts in the hand, flowers included, red fives as fives."""
    codes = [str(t) for t in hand.all_tiles()] + [str(t) for t in hand.flowers]
    return collections.Counter("5" + code[1:] if code.startswith("0") else code for code in codes)


def add_states_only(parser: argparse.ArgumentParser) -> None:
    """The ``--states-only`` option (this script's and eval_photo_transforms.py's): see :func:`lift_the_clock`."""
    parser.add_argument("--states-only", action="store_true",
                        help="no CPU-time limit on the reader's search, only its search states (deterministic: "
                             "readings that stop at the deployed budget's clock change from run to run)")


def lift_the_clock() -> None:
    """No CPU-time limit on the reader's search from now on, only its states (each read_hand's SearchBudget takes
    ``decode.TOTAL_SECONDS`` when made), so that two readers compare picture for picture."""
    from vision.reading import decode

    decode.TOTAL_SECONDS = math.inf


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="valid", choices=("valid", "train"))
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    add_states_only(parser)
    args = parser.parse_args(argv)
    if args.states_only:
        lift_the_clock()

    recognizer = Recognizer.load(args.models)
    photos = sorted(p for p in (hk_root() / args.split / "images").iterdir() if p.name.startswith("hand_"))
    tally = collections.Counter()
    for photo in photos:
        labels = label_tiles(args.split, photo.stem)
        is_hand = is_hand_count(labels)
        recognition = recognizer.recognize(photo)
        reading = read_hand(recognition.detections, (recognition.width, recognition.height),
                            spares=recognition.spares)
        name = photo.stem.split("_jpg")[0]
        if reading.hand is None:
            verdict = "wrong" if is_hand else "right"
            print(f"{name:10s} {verdict:5s} none    {', '.join(reading.warning_codes[:3])}")
        else:
            got = read_tiles(reading.hand)
            missing, extra = labels - got, got - labels
            verdict = "right" if is_hand and not missing and not extra else "wrong"
            detail = "" if verdict == "right" else f"  missing {dict(missing)} extra {dict(extra)}"
            print(f"{name:10s} {verdict:5s} {reading.hand.format()}{detail}")
        tally[(is_hand, verdict)] += 1
    hands = tally[(True, "right")] + tally[(True, "wrong")]
    others = tally[(False, "right")] + tally[(False, "wrong")]
    print(f"{len(photos)} photos: {tally[(True, 'right')]} of {hands} hands read right by their tiles; "
          f"{tally[(False, 'right')]} of {others} non-hands read as no hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
