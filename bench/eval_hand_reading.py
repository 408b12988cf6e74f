"""Hand reading on synthetic scenes (vision.synth output): exact hand and claimed direction, by situation.

    .venv/bin/python bench/eval_hand_reading.py OUT_DIR [--detections truth|boxes|model] [--limit N]

``OUT_DIR`` is a ``python -m vision.synth generate`` folder with ``scenes.jsonl``: per scene the true hand JSON and,
per tile, code / box / quad / rotation / face_down / role / meld_index / meld_position.

``--detections truth`` (default) feeds the reader the scene's own tiles as detections (true boxes, rotations and
faces, top-1 probability 0.97): it measures the geometry and layout reading alone. ``--detections model`` runs the
committed recogniser (``vision.recognize``) on each image first, for the end-to-end number. ``--detections boxes``
sits between the two: the scene's true boxes, each cut and named by the committed classifier as the recogniser would
(its faces, top-k and rotations), so that what the localiser's boxes cost and what naming costs can be told apart.

Concealed kongs that show no face are named from the truth through the reader's own request (the boxes it asks
about are matched to the true tiles), as a client would answer it.

Prints, per situation (habits, difficulty, art style, camera elevation and roll, meld kinds, claimed direction,
whether a hand tile is hidden from view, whether the search budget was met, whether the reader warned at all): the
exact hand rate (every tile, meld, ``from``, winning tile and flowers) and the share of exposed melds whose claimed
direction is right; then why directions were missed (no hand read, the meld's tiles not read as a meld, or the wrong
``from``), how often the true hand is the reading or one of the alternatives listed with it (what a referee choosing
from the list would get right), and the failures' warning codes.
``hand_tile_hidden=yes``: the renderer labels no tile with less than half its face in view, so a hand tile is
missing from the detections (an added kong's claimed tile under the added one, seen from above); such scenes are
counted apart because no reader can see the tile, ``hand_tile_hidden=no`` is the rest.

``--diagnose`` (with ``--detections model`` or ``boxes``) also splits the scenes by what the detections got wrong on
the hand's own tiles (clutter left out): a hand tile with no box at IoU >= 0.5 (missed), a box naming the wrong face
(misnamed), a face-up tile whose box is read sideways when it lies upright or the reverse (sideways), or none of
these (clean), with the exact rate in each class; then the failures by what the reading got wrong (no hand, a pung
read as an added kong or the reverse, another meld-type confusion of the same tiles, flowers only, the winning tile
only, anything else), and the most frequent face confusions on hand tiles.

``--states-only``: the reader's search budget counts search states only (no CPU-time limit), so that a loaded
machine cannot change the result: the run is deterministic. Without it the reader runs as deployed.

Last, the reading time per photo: the thread's CPU time of the first ``read_hand`` call (detections given, so
with ``--cache`` the reader alone), median, p90, p99 and the worst.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.hand import Hand  # noqa: E402
from vision.classes import CLASS_NAMES, FACE_CODES, FACE_DOWN  # noqa: E402
from vision.detections import FIELDS as _FIELDS  # noqa: E402
from vision.detections import Detections, box_iou  # noqa: E402
from vision.hand_reader import read_hand  # noqa: E402
from vision.reading.compare import same_hand  # noqa: E402
from vision.reading import decode  # noqa: E402


def true_class(tile: dict) -> int:
    """A scene tile's class id (``vision.classes``): its face, or FACE_DOWN for a back."""
    return FACE_DOWN if tile["face_down"] else FACE_CODES.index(tile["code"])


def truth_detections(scene: dict) -> Detections:
    tiles = scene["tiles"]
    boxes = np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4)
    ids = np.array([true_class(t) for t in tiles], np.int32)
    rotation = np.array([int(t["rotation"]) % 360 for t in tiles], np.int32)
    conf = np.full(len(tiles), 0.97, np.float32)
    return Detections(boxes, ids, conf, rotation)


_RECOGNIZER = None


def _recognizer(models: Path | None):
    global _RECOGNIZER
    if _RECOGNIZER is None:
        from vision.recognize import Recognizer  # imported only in the modes that need the models

        _RECOGNIZER = Recognizer.load(models)
    return _RECOGNIZER


def true_box_detections(scene: dict, root: Path, models: Path | None = None) -> Detections:
    """The scene's true boxes (every labelled tile, clutter included), cut and named by the recogniser's classifier
    exactly as it treats the localiser's boxes (``Recognizer.name_boxes``)."""
    import cv2

    image = cv2.imread(str(root / scene["image"]))
    boxes = np.array([t["box"] for t in scene["tiles"]], np.float32).reshape(-1, 4)
    return _recognizer(models).name_boxes(image, boxes)


def model_detections(scene: dict, root: Path, models: Path | None = None, cache: Path | None = None) -> Detections:
    """The recogniser's detections for the scene's image (``vision.recognize``; ``models``: its folder, default
    models/). With ``cache`` (a folder) each image's detections are kept there as .npz and read back on later runs,
    so that reader changes are compared on the very same detections (and faster)."""
    detections, _ = _from_cache(scene, models, cache)
    return detections if detections is not None else model_recognition(scene, root, models, cache)[0]


def model_recognition(scene: dict, root: Path, models: Path | None = None,
                      cache: Path | None = None) -> tuple[Detections, Detections]:
    """(detections, spares) as ``model_detections`` keeps them (the spares under ``spare_``-prefixed names). A cache
    from before session 19 holds no spares: they are added to it from a second run of the recogniser on the image,
    whose own detections are checked against the cached ones (the spares belong to them)."""
    detections, spares = _from_cache(scene, models, cache)
    if spares is not None:
        return detections, spares
    recognition = _recognizer(models).recognize(str(root / scene["image"]))
    if detections is not None and (detections.boxes.shape != recognition.detections.boxes.shape
                                   or np.abs(detections.boxes - recognition.detections.boxes).max(initial=0) > 0.5):
        raise SystemExit(f"{scene['image']}: the cached detections are not the models' own: spares cannot be added")
    detections = detections if detections is not None else recognition.detections
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / (Path(scene["image"]).stem + ".npz"), **{name: getattr(detections, name) for name in _FIELDS},
                 **{"spare_" + name: getattr(recognition.spares(), name) for name in _FIELDS},
                 read_scale=recognition.read_scale)
    return detections, recognition.spares()


def _from_cache(scene: dict, models: Path | None, cache: Path | None) -> tuple[Detections | None, Detections | None]:
    """(detections, spares) from the scene's cache file; None for what it does not hold."""
    cached = cache / (Path(scene["image"]).stem + ".npz") if cache is not None else None
    if cached is None or not cached.exists():
        return None, None
    with np.load(cached) as data:
        # a cache from before the lift model holds no ``lifted``, one from before session 17 no
        # ``sideways_probability``: each is read only where the models in use would not give it either
        if ("lifted" not in data and _recognizer(models).lift_model is not None) or (
                "sideways_probability" not in data and _recognizer(models).classifier.orientations == 4):
            return None, None
        detections = Detections(**{name: data[name] for name in _FIELDS if name in data})
        if "spare_boxes" not in data:
            return detections, None
        return detections, Detections(**{name: data["spare_" + name] for name in _FIELDS if "spare_" + name in data})


def _tiles_small(detections: Detections, scene: dict, cache: Path | None) -> bool:
    """Whether the recogniser warns ``tiles_small`` on this scene's picture (``Recognition.tiles_small``), at the read
    scale its cache file records (the recogniser's own, a far shot's second reading's included: Z54), else at the
    recogniser's reduced decode of a JPEG (``vision.io.reduced_decode_factor``; caches from before session 54)."""
    from vision.io import reduced_decode_factor
    from vision.recognize import DEFAULT_MIN_SIDE, Recognition  # (as _recognizer: not loaded where no model is run)

    width, height = scene["width"], scene["height"]
    cached = cache / (Path(scene["image"]).stem + ".npz") if cache is not None else None
    factor = None
    if cached is not None and cached.exists():
        with np.load(cached) as data:
            factor = float(data["read_scale"]) if "read_scale" in data else None
    if factor is None:
        jpeg = str(scene["image"]).lower().endswith((".jpg", ".jpeg"))
        factor = reduced_decode_factor(width, height, DEFAULT_MIN_SIDE) if jpeg else 1
    return Recognition(detections, width, height, read_scale=float(factor)).tiles_small


def kong_answers(reading, scene: dict, detections: Detections) -> list[str]:
    """Answer the reader's request for concealed kong faces from the truth (by matching boxes)."""
    request = next((r for r in reading.requests if r["field"] == "concealed_kong_tiles"), None)
    if request is None:
        return []
    truth_boxes = np.array([t["box"] for t in scene["tiles"]], np.float32).reshape(-1, 4)
    answers = []
    for boxes in request["boxes"]:
        # (the request's boxes are reported at the face's size, the renderer's the whole body, both about one centre:
        # the best overlap still picks the same tile)
        iou = box_iou(np.array(boxes, np.float32), truth_boxes)
        best = iou.argmax(axis=1)
        meld_indices = [scene["tiles"][int(b)]["meld_index"] for b in best]
        meld_index = Counter(m for m in meld_indices if m is not None).most_common(1)
        if not meld_index:
            answers.append("1z")
            continue
        answers.append(scene["hand"]["melds"][meld_index[0][0]]["tiles"][0])
    return answers


def detection_errors(scene: dict, detections: Detections) -> tuple[set[str], list[tuple[str, str]]]:
    """What ``detections`` got wrong on the scene's hand tiles (clutter left out): a subset of {"missed",
    "misnamed", "sideways"} (see ``--diagnose``), and the (true, read) face pairs of the misnamed ones."""
    tiles = [t for t in scene["tiles"] if t.get("role") != "clutter"]
    kinds: set[str] = set()
    confusions = []
    if not tiles:
        return kinds, confusions
    if not len(detections):
        return {"missed"}, confusions
    truth_boxes = np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4)
    iou = box_iou(truth_boxes, detections.boxes)
    for i, tile in enumerate(tiles):
        k = int(iou[i].argmax())
        if iou[i, k] < 0.5:
            kinds.add("missed")
            continue
        truth = true_class(tile)
        read = int(detections.class_ids[k])
        if read != truth:
            kinds.add("misnamed")
            confusions.append((CLASS_NAMES[truth], CLASS_NAMES[read]))
        elif not tile["face_down"] and (int(tile["rotation"]) % 180 == 90) != (int(detections.rotation[k]) % 180 == 90):
            kinds.add("sideways")
    return kinds, confusions


def reading_difference(truth: Hand, got: Hand | None) -> str:
    """How a wrong reading differs from the truth, in a few classes (see ``--diagnose``)."""
    if got is None:
        return "no hand read"
    if sorted(map(str, truth.flowers)) != sorted(map(str, got.flowers)) \
            and same_hand(_without_flowers(truth), _without_flowers(got)):
        return "flowers only"
    standing_truth = sorted(t.index for t in (*truth.concealed, truth.winning_tile))
    standing_got = sorted(t.index for t in (*got.concealed, got.winning_tile))
    melds_truth = sorted((m.tiles[0].index, m.discarder is not None and m.discarder.value) for m in truth.melds)
    melds_got = sorted((m.tiles[0].index, m.discarder is not None and m.discarder.value) for m in got.melds)
    if standing_truth == standing_got and melds_truth == melds_got:
        types = Counter(m.type.value for m in truth.melds) - Counter(m.type.value for m in got.melds)
        back = Counter(m.type.value for m in got.melds) - Counter(m.type.value for m in truth.melds)
        if not types and not back:
            return "winning tile only"
        if set(types) | set(back) == {"pung", "added_kong"}:
            return "pung read as added kong" if back.get("added_kong") else "added kong read as pung"
        return "other meld-type confusion"
    return "other"


def _without_flowers(hand: Hand) -> Hand:
    return Hand(hand.concealed, hand.melds, hand.winning_tile, ())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--detections", choices=("truth", "boxes", "model"), default="truth")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--show-failures", type=int, default=5)
    parser.add_argument("--states-only", action="store_true", help="no CPU-time limit on the search (deterministic)")
    parser.add_argument("--diagnose", action="store_true",
                        help="split the scenes by the detections' errors on hand tiles and the failures by kind")
    parser.add_argument("--expansions", type=int, default=None,
                        help="with --states-only: the search states per photo (default: the deployed budget)")
    parser.add_argument("--models", type=Path, default=None,
                        help="--detections model / boxes: the recognition models' folder (default: models/)")
    parser.add_argument("--no-spares", action="store_true",
                        help="--detections model: read without the localiser's spare candidates (session 18's reader)")
    parser.add_argument("--no-order", action="store_true",
                        help="read without the prior on the standing tiles' order (session 19's reader)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="--detections model: keep each image's detections in this folder and reuse them")
    args = parser.parse_args()
    if args.no_order:
        decode.ORDER_WEIGHT = 0.0
    lines = (args.folder / "scenes.jsonl").read_text().splitlines()
    if args.limit:
        lines = lines[:args.limit]
    exact = defaultdict(lambda: [0, 0])  # situation -> [right, total]
    direction = defaultdict(lambda: [0, 0])
    failure_codes: Counter = Counter()
    found = [0, 0]  # direction right among the true exposed melds whose tiles were read as a meld
    direction_misses: Counter = Counter()  # why a true exposed meld's direction was not read right
    shown = 0
    by_errors = defaultdict(lambda: [0, 0])  # detection error classes -> [right, total]
    differences: Counter = Counter()  # failures by how the reading differs
    confusions: Counter = Counter()  # (true, read) faces of misnamed hand tiles
    reading_ms: list[float] = []  # the thread's CPU time of each photo's first reading
    listed = [0, 0]  # [scenes whose true hand is the reading or one of its alternatives, scenes]
    for line in lines:
        scene = json.loads(line)
        truth = Hand.from_json(scene["hand"])
        spares = None
        if args.detections == "truth":
            detections = truth_detections(scene)
        elif args.detections == "boxes":
            detections = true_box_detections(scene, args.folder, args.models)
        else:
            detections, spares = model_recognition(scene, args.folder, args.models, args.cache)
            if args.no_spares:
                spares = None
        size = (int(scene["width"]), int(scene["height"]))
        rules = scene.get("context", {}).get("rules", "mcr")
        def budget():
            if not args.states_only:
                return None
            if args.expansions:
                return decode.SearchBudget(expansions=args.expansions, seconds=math.inf)
            return decode.SearchBudget(seconds=math.inf)

        started = time.thread_time()
        reading = read_hand(detections, size, rules=rules, budget=budget(), spares=spares)
        reading_ms.append((time.thread_time() - started) * 1e3)
        answers = kong_answers(reading, scene, detections)
        if answers:
            reading = read_hand(detections, size, rules=rules, concealed_kong_tiles=answers, budget=budget(),
                                spares=spares)
        habits = scene.get("habits", {})
        situations = ["all", f"difficulty={scene.get('difficulty')}", f"rules={rules}",
                      f"standing={habits.get('standing')}", f"melds_in_front={habits.get('melds_in_front')}",
                      f"melds={len(truth.melds)}", f"flowers={bool(truth.flowers)}"]
        situations += sorted({f"has={m.type.value}" for m in truth.melds})
        if scene.get("style"):  # the art style: the naming errors left depend on it (docs/rules-session27.md)
            situations.append(f"style={scene['style']}")
        camera = scene.get("camera", {})
        if "roll" in camera:  # how far the photo is turned from a quarter turn: near 45° the rotation labels flip
            off_axis = abs((float(camera["roll"]) + 45) % 90 - 45)
            situations.append("roll_off_quarter=" + ("<15" if off_axis < 15 else "15-30" if off_axis < 30 else ">=30"))
        if any(m.type.value == "added_kong" for m in truth.melds):
            situations.append(f"added_kong={habits.get('added_kong')}")
        if any(m.type.value == "concealed_kong" for m in truth.melds):
            situations.append(f"concealed_kong={habits.get('concealed_kong')}")
        if "elevation" in camera:  # low cameras foreshorten the rows and turn flat and standing faces apart
            elevation = float(camera["elevation"])
            situations.append("elevation=" + ("<45" if elevation < 45 else "45-70" if elevation < 70 else ">=70"))
        # A hand tile the renderer left unlabelled (under half its face visible: an added kong's claimed tile under
        # the added one, seen from above): no reader can see it, so those scenes are also counted apart.
        hidden = [t for t in scene.get("hidden_tiles", []) if t.get("role") != "clutter"]
        situations.append("hand_tile_hidden=" + ("yes" if hidden else "no"))
        if "search_budget_exhausted" in reading.warning_codes:
            situations.append("search_budget_exhausted")
        # The recogniser's warning that the tiles are small as the models read the picture (W54b, session 54), from
        # the localiser's boxes only (the renderer's own boxes are not what the recogniser measures), at the read
        # scale ``_tiles_small`` finds (the scenes are never read stretched: no picture is squeezed).
        small = False
        if args.detections == "model":
            small = _tiles_small(detections, scene, args.cache)
            situations.append("tiles_small=" + ("yes" if small else "no"))
        # Whether the reader raised any warning, or the recogniser its `tiles_small` (since session 54; before, the
        # reader's alone): a referee trusts a silent reading, so its exact rate is the one that matters most (the
        # warnings should flag the readings to check).
        situations.append("warnings=" + ("none" if not reading.warning_codes and not small else "some"))
        got = reading.hand
        if rules == "riichi" and got is not None:
            truth = _without_flowers(truth)  # riichi has no flowers: the reader reads none
        right = same_hand(got, truth)
        # What a referee sees: the reading and the alternatives listed with it (the API's ``alternatives``; under
        # riichi they hold no flowers, as the reading holds none).
        listed[1] += 1
        listed[0] += right or any(same_hand(Hand.from_json(a["hand"]), truth) for a in reading.alternatives)
        key = None
        if args.diagnose:
            kinds, pairs = detection_errors(scene, detections)
            key = " + ".join(sorted(kinds)) or "clean"
            by_errors[key][0] += right
            by_errors[key][1] += 1
            confusions.update(pairs)
            if not right:
                differences[reading_difference(truth, got)] += 1
        for s in situations:
            exact[s][0] += right
            exact[s][1] += 1
        if not right:
            failure_codes.update(reading.warning_codes or ["(no warning)"])
            if shown < args.show_failures:
                shown += 1
                camera = scene.get("camera", {})
                print(f"FAIL {scene['image']} (roll {camera.get('roll')}, elevation {camera.get('elevation')}):"
                      f" truth {truth.format()} | read {got.format() if got else None} |"
                      f" {reading.warning_codes} | habits {habits}"
                      + (f" | detections {key}, {reading_difference(truth, got)}" if key else ""))
        # Claimed direction per exposed true meld: is there a read meld of the same tiles from the same player?
        read_melds = list(got.melds) if got is not None else []
        for meld in truth.melds:
            if meld.discarder is None:
                continue
            match = next((m for m in read_melds if m.type == meld.type and m.tiles == meld.tiles), None)
            if match is None:  # same tiles read as another meld type (a pung for an added kong): its direction
                match = next((m for m in read_melds if m.discarder is not None
                              and {t.index for t in m.tiles} == {t.index for t in meld.tiles}), None)
            ok = match is not None and match.discarder == meld.discarder
            if not ok:
                if got is None:
                    cause = "no hand read"
                elif match is None:
                    cause = "meld not read" + (" (hand exact otherwise)" if right else "")
                else:
                    assumed = "claimed_tile_assumed" in reading.warning_codes
                    cause = (f"{meld.type.value} from {meld.discarder.value} read from {match.discarder.value}"
                             + (" (claimed_tile_assumed)" if assumed else ""))
                direction_misses[cause] += 1
            if match is not None:
                read_melds.remove(match)
                found[0] += ok
                found[1] += 1
            for s in situations + [f"meld={meld.type.value}", f"from={meld.discarder.value}"]:
                direction[s][0] += ok
                direction[s][1] += 1
    print(f"\nscenes: {len(lines)}  detections: {args.detections}")
    print(f"{'situation':32s} {'exact hand':>12s} {'n':>6s} {'claimed direction':>18s} {'melds':>6s}")
    for s in sorted(set(exact) | set(direction), key=lambda k: (k != "all", k)):
        r, n = exact.get(s, (0, 0))
        dr, dn = direction.get(s, (0, 0))
        hand_cell = f"{r / n:12.3%} {n:6d}" if n else f"{'':12s} {'':6s}"
        direction_cell = f"{dr / dn:18.3%} {dn:6d}" if dn else ""
        print(f"{s:32s} {hand_cell} {direction_cell}")
    print(f"direction right among melds read with their tiles: {found[0] / max(found[1], 1):.3%} of {found[1]}")
    print(f"true hand read or listed among the alternatives: {listed[0] / max(listed[1], 1):.3%} of "
          f"{listed[1]} scenes (read: {exact['all'][0] / max(exact['all'][1], 1):.3%})")
    if direction_misses:
        print("claimed direction misses by cause:")
        for cause, count in direction_misses.most_common():
            print(f"  {count:4d}  {cause}")
    if failure_codes:
        print("\nwarning codes on failures:", dict(failure_codes.most_common()))
    if args.diagnose:
        print("\nscenes by the detections' errors on hand tiles (exact / scenes):")
        for key, (r, n) in sorted(by_errors.items(), key=lambda item: -item[1][1]):
            print(f"  {key:34s} {r:5d} / {n:5d}  ({r / n:.1%})")
        print("failures by how the reading differs:")
        for kind, count in differences.most_common():
            print(f"  {count:5d}  {kind}")
        print("face confusions on hand tiles (true -> read):",
              ", ".join(f"{a}->{b} {n}" for (a, b), n in confusions.most_common(15)))
    if reading_ms:
        q = np.percentile(reading_ms, [50, 90, 99])
        print(f"reading time per photo (thread CPU): median {q[0]:.1f} ms, p90 {q[1]:.1f}, p99 {q[2]:.1f}, "
              f"worst {max(reading_ms):.1f}")


if __name__ == "__main__":
    main()
