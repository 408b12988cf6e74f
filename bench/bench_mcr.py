"""MCR scoring speed: engine.mcr.score against PyMahjongGB (C++) on the same 5,000 generated hands, same run.

    .venv/bin/python bench/bench_mcr.py [--hands 5000] [--repeat 3]

Prints hands per second and microseconds per hand for:
  * PyMahjongGB, arguments prepared beforehand (the C++ call alone),
  * PyMahjongGB including the conversion of our Hand into its arguments,
  * engine.mcr cold (first pass: empty caches, as for a fresh process seeing new hands),
  * engine.mcr steady state (after --warmup *other* hands filled the count-keyed caches, one pass over each of
    --repeat fresh sets of hands never seen before: a long-running service seeing new hands; the most honest
    number; best and median pass, and each pass against a PyMahjongGB pass run just before it; and the garbage
    collector's share of each pass, measured with ``gc.callbacks``),
  * engine.mcr repeated (best of --repeat later passes over the same hands: the caches hold these very hands),
  * engine.mcr steady with ``to_json()`` (one more fresh set: the full answer an API client gets, with the fans'
    explanations, which ``score`` builds only on demand),
and the ratios (target: no more than 3x PyMahjongGB's time per hand). Times are process CPU time
(``time.process_time``) and the passes of both engines are interleaved, so that other load on a shared machine
disturbs the ratio as little as possible. Before each timed pass the garbage collector is run once, so that a full
collection owed to the set-up (the generator validates its hands with ``engine.decompose``, whose caches fill with
tuples) does not fall into one engine's pass; collections caused by the pass itself still count.

    .venv/bin/python bench/bench_mcr.py --against /tmp/old/engine [--hands 5000] [--repeat 4]

compares instead this engine with an older copy of ``engine/`` (for instance ``git archive 773c636 engine | tar -x -C
/tmp/old``), both in this process: each scores the same --warmup other hands, then the same --hands x --repeat new
hands 250 at a time, the two engines taking turns (who goes first alternates), so that load drifting on a shared
machine falls on both alike. The older copy gets its own ``engine.mcr`` (own caches) beside this tree's tiles, hands
and decomposition, so it must accept them (true of the copies since the fast path). A copy made by ``git archive``
has no compiled module: the run says so, and ``MAHJONG_ENGINE_PURE=1`` times ``fast.py`` against ``fast.py``.

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next --callgrind-out-file=/dev/null \
        .venv/bin/python bench/bench_mcr.py --loop-only --hands 2000 [--against /tmp/old/engine]

counts the instructions of scoring --hands new hands after --warmup others (the "Collected" line, divided by
--hands), with this engine or the older copy: the hands are made and the warm-up scored first, then the new hands
are scored by ``deque(starmap(score, hands), maxlen=0)``, the only code run inside ``starmap_next``, so that only
that loop is counted (garbage collection included). Deterministic (set ``PYTHONHASHSEED``), so it tells engines
apart where the shared machine's load makes times too noisy; instructions are not time (memory and branches).

    .venv/bin/python bench/bench_mcr.py --interleaved [--hands 5000] [--repeat 3]

scores --hands x --repeat new hands (after the same --warmup others) 250 at a time, PyMahjongGB's call (arguments
prepared beforehand) and this engine taking turns on each chunk (who goes first alternates), and prints the ratio of
the two totals with the quartiles of the chunks' ratios: the steady-state ratio above, with load that drifts on a
shared machine falling on both engines alike (whole passes of each, as above, are often seconds apart).

    .venv/bin/python bench/bench_mcr.py --floor [--hands 2000] [--repeat 3]

splits a new hand's time (after --warmup others, each figure a median over --repeat fresh sets of --hands, the
sets and passes in turn as in the main run): PyMahjongGB's call; reading the inputs only (the standing counts as
``engine.mcr.fast`` counts them, each meld's type and first tile, the five context flags) and building a result
object, the least any Python scorer of these objects does; ``score`` on new hands; on new hands whose standing
tiles' readings were made beforehand (``fast._new_readings``: what the decomposition of a standing never seen
costs); and on the same hands again (every cache holding them: what no cache removes). Not a headline number:
it says where the time of a new hand goes.

Every mode scores with the module the engine loads (``engine.mcr.FAST_IMPLEMENTATION``, printed first): ``fast.py``
compiled by Cython where ``make setup`` built it (``engine/mcr/build_fast.py``), else ``fast.py`` itself;
``MAHJONG_ENGINE_PURE=1`` measures ``fast.py`` itself beside a compiled build.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.mcr import FAST_IMPLEMENTATION, score  # noqa: E402
from tests.mcr.generator import gb_arguments, generate  # noqa: E402


def _per_hand(seconds: float, n: int) -> float:
    return seconds / n * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=424242)
    parser.add_argument("--warmup", type=int, default=20000, help="other hands scored before the steady-state pass")
    parser.add_argument("--against", help="an older copy of engine/ to compare with, chunk by chunk (see above)")
    parser.add_argument("--floor", action="store_true", help="split a new hand's time (see above)")
    parser.add_argument("--interleaved", action="store_true",
                        help="new hands 250 at a time, both engines in turn on each chunk (see above)")
    parser.add_argument("--loop-only", action="store_true",
                        help="only score the new hands, in one loop, for counting instructions (see above)")
    args = parser.parse_args(argv)
    print(f"engine.mcr scores with {FAST_IMPLEMENTATION}")
    if args.loop_only:
        return _loop_only(args)
    if args.floor:
        return _floor(args)
    if args.interleaved:
        return _interleaved(args)
    if args.against:
        return _against(args)

    cases = list(generate(args.hands, args.seed))
    n = len(cases)
    clock = time.process_time

    gc.collect()
    start = clock()
    for hand, context in cases:
        score(hand, context)
    ours_cold = clock() - start

    try:
        import MahjongGB
    except ImportError:
        MahjongGB = None
    prepared = [gb_arguments(hand, context) for hand, context in cases] if MahjongGB else []

    # Steady state: fresh sets of hands (never scored before) after the caches were filled by other hands; one
    # fresh set per pass, so that the best-of and the median are over passes that each see new hands only.
    fresh_sets = [list(generate(args.hands, args.seed + 10 + k)) for k in range(args.repeat + 1)]
    json_set = fresh_sets.pop()
    for hand, context in generate(args.warmup, args.seed + 2):
        score(hand, context)
    steady_passes = []
    gc_shares = []  # the garbage collector's time within each steady pass
    gc_time = [0.0, 0.0]

    def _gc_clock(phase, info):
        if phase == "start":
            gc_time[1] = clock()
        else:
            gc_time[0] += clock() - gc_time[1]

    pass_ratios = []  # each steady pass against the PyMahjongGB pass just before it: robust to load that drifts
    gb_passes = []
    for fresh in fresh_sets:
        if MahjongGB is not None:
            gc.collect()
            start = clock()
            for arguments in prepared:
                MahjongGB.MahjongFanCalculator(*arguments)
            gb_passes.append(clock() - start)
        gc.collect()
        gc_time[0] = 0.0
        gc.callbacks.append(_gc_clock)
        start = clock()
        for hand, context in fresh:
            score(hand, context)
        steady_passes.append(clock() - start)
        gc.callbacks.remove(_gc_clock)
        gc_shares.append(gc_time[0])
        if gb_passes:
            pass_ratios.append(steady_passes[-1] / gb_passes[-1])
    ours_steady = min(steady_passes)
    steady_median = sorted(steady_passes)[len(steady_passes) // 2]
    gc.collect()
    start = clock()
    for hand, context in json_set:
        score(hand, context).to_json()
    ours_json = clock() - start

    ours_warm = gb_total = float("inf")
    gb_call = min(gb_passes, default=float("inf"))
    for _ in range(args.repeat):
        gc.collect()
        start = clock()
        for hand, context in cases:
            score(hand, context)
        ours_warm = min(ours_warm, clock() - start)
        if MahjongGB is None:
            continue
        gc.collect()
        start = clock()
        for arguments in prepared:
            MahjongGB.MahjongFanCalculator(*arguments)
        gb_call = min(gb_call, clock() - start)
        gc.collect()
        start = clock()
        for hand, context in cases:
            MahjongGB.MahjongFanCalculator(*gb_arguments(hand, context))
        gb_total = min(gb_total, clock() - start)

    if MahjongGB is None:
        print("PyMahjongGB not installed (pip install -e '.[dev]'): engine.mcr only")
        print(f"engine.mcr cold {n / ours_cold:9.0f} hands/s {_per_hand(ours_cold, n):8.1f} us/hand")
        print(f"engine.mcr steady {n / ours_steady:9.0f} hands/s {_per_hand(ours_steady, n):8.1f} us/hand")
        print(f"engine.mcr steady median {n / steady_median:9.0f} hands/s {_per_hand(steady_median, n):8.1f} us/hand")
        print(f"garbage collection within the steady passes: {' '.join(f'{_per_hand(t, n):.1f}' for t in gc_shares)}"
              " us/hand")
        print(f"engine.mcr repeated {n / ours_warm:9.0f} hands/s {_per_hand(ours_warm, n):8.1f} us/hand")
        print(f"engine.mcr steady + to_json {n / ours_json:9.0f} hands/s {_per_hand(ours_json, n):8.1f} us/hand")
        return 0

    rows = [("PyMahjongGB (C++ call only)", gb_call), ("PyMahjongGB (with Hand conversion)", gb_total),
            ("engine.mcr cold (first pass)", ours_cold),
            (f"engine.mcr steady (after {args.warmup} others)", ours_steady),
            ("engine.mcr steady, median pass", steady_median),
            ("engine.mcr repeated (same hands again)", ours_warm),
            ("engine.mcr steady + to_json (API answer)", ours_json)]
    print(f"{n} hands (seed {args.seed}), best of {args.repeat} passes where repeated")
    for name, seconds in rows:
        print(f"  {name:36s} {n / seconds:9.0f} hands/s {_per_hand(seconds, n):8.1f} us/hand")
    print(f"  ratio steady / PyMahjongGB call    {ours_steady / gb_call:6.2f}x   (target <= 3x; median pass "
          f"{steady_median / gb_call:.2f}x; each steady pass against the call pass just before it: "
          f"{' '.join(f'{r:.1f}x' for r in pass_ratios)}, median "
          f"{sorted(pass_ratios)[len(pass_ratios) // 2]:.1f}x)")
    print(f"  garbage collection within the steady passes: {' '.join(f'{_per_hand(t, n):.1f}' for t in gc_shares)}"
          f" us/hand (the first collections after each pass's gc.collect() go over the caches again)")
    print(f"  ratio cold / PyMahjongGB call      {ours_cold / gb_call:6.1f}x")
    print(f"  ratio repeated / PyMahjongGB call  {ours_warm / gb_call:6.1f}x")
    print(f"  ratio steady / PyMahjongGB with its Hand conversion {ours_steady / gb_total:6.1f}x")
    print(f"  ratio steady + to_json / PyMahjongGB call {ours_json / gb_call:6.1f}x")
    return 0


def _floor(args) -> int:
    import MahjongGB

    from engine.mcr import FAST as fast  # (the module that scores: compiled or not, its caches are the ones used)
    from engine.mcr import MCRResult

    pack_of_tile, pack = fast._PACK_OF_TILE, fast._PACK

    def inputs_only(hand, context):
        win = hand.winning_tile.index
        counts = sum(map(pack_of_tile, hand.concealed), pack[win])
        melds = [(meld.type, meld.tiles[0].index) for meld in hand.melds]
        flags = (context.self_drawn, context.last_wall_tile, context.kong_replacement, context.robbing_kong,
                 context.last_tile)
        result = MCRResult()  # (made as fast.score makes it)
        result._hand = hand
        result._context = context
        result._reading = (counts, melds, flags)
        result._kept = ()
        result._unique_wait = None
        result.fan_points = 8
        return result

    def prebuild_readings(cases):
        for hand, _context in cases:
            win = hand.winning_tile.index
            x = sum(map(pack_of_tile, hand.concealed), pack[win])
            if x + fast._WIN_KEY[win] not in fast._READINGS:
                fast._new_readings(x, win, len(hand.melds))

    clock = time.process_time

    def timed(function, cases) -> float:
        gc.collect()
        start = clock()
        for hand, context in cases:
            function(hand, context)
        return _per_hand(clock() - start, len(cases))

    # The sets are made before the warm-up, as in the main run (their objects are not fresh in the CPU's caches).
    sets = [(list(generate(args.hands, args.seed + 10 + 2 * k)), list(generate(args.hands, args.seed + 11 + 2 * k)))
            for k in range(args.repeat)]
    for hand, context in generate(args.warmup, args.seed + 2):
        score(hand, context)
    rows: dict[str, list[float]] = {}
    for fresh, prebuilt in sets:
        prepared = [gb_arguments(hand, context) for hand, context in fresh]
        gc.collect()
        start = clock()
        for arguments in prepared:
            MahjongGB.MahjongFanCalculator(*arguments)
        rows.setdefault("PyMahjongGB call", []).append(_per_hand(clock() - start, len(prepared)))
        rows.setdefault("inputs read + result object", []).append(timed(inputs_only, fresh))
        rows.setdefault("score, new hands", []).append(timed(score, fresh))
        prebuild_readings(prebuilt)
        rows.setdefault("score, new hands, standing readings made before", []).append(timed(score, prebuilt))
        rows.setdefault("score, the same hands again", []).append(timed(score, fresh))
    call = sorted(rows["PyMahjongGB call"])[args.repeat // 2]
    print(f"{args.hands} new hands x {args.repeat} sets after {args.warmup} others (medians, us per hand)")
    for name, values in rows.items():
        median = sorted(values)[args.repeat // 2]
        print(f"  {name:50s} {median:6.2f} us  {median / call:4.1f}x the call   ({' '.join(f'{v:.2f}' for v in values)})")
    return 0


def _loop_only(args) -> int:
    from collections import deque
    from itertools import starmap

    scorer = _older_score(args.against) if args.against else score
    for hand, context in generate(args.warmup, args.seed + 2):
        scorer(hand, context)
    fresh = list(generate(args.hands, args.seed + 10))
    gc.collect()
    deque(starmap(scorer, fresh), maxlen=0)  # the loop counted: nothing else runs inside starmap_next
    return 0


def _older_score(path: str):
    """``score`` of an older copy of ``engine/`` (its own ``engine.mcr``, this tree's tiles, hands and
    decomposition)."""
    import importlib
    import types

    import engine.decompose
    import engine.errors
    import engine.hand
    import engine.tiles

    package = types.ModuleType("engine_old")
    package.__path__ = [str(Path(path).resolve())]
    sys.modules["engine_old"] = package
    for name in ("decompose", "hand", "tiles", "errors"):  # shared: the hands are this tree's
        sys.modules["engine_old." + name] = sys.modules["engine." + name]
    old = importlib.import_module("engine_old.mcr")
    # (a copy made by git archive has no compiled module: against a compiled one here, the ratio would time Cython)
    implementation = getattr(old, "FAST_IMPLEMENTATION", "fast.py (before session 72: never compiled)")
    print(f"the older engine scores with {implementation}")
    if implementation != FAST_IMPLEMENTATION:
        print("warning: the two engines score with different modules; MAHJONG_ENGINE_PURE=1 compares fast.py with "
              "fast.py", file=sys.stderr)
    return old.score


def _in_turns(runs: dict, n: int, chunk: int = 250) -> tuple[dict[str, float], list[float]]:
    """The two ``runs`` (name -> run(start, end), which scores items start..end-1) on each chunk of ``n`` items in
    turn, who goes first alternating, so that load drifting on a shared machine falls on both alike: (process CPU
    seconds by name, the chunks' ratios of the second run's time to the first's, sorted)."""
    first, second = runs
    clock = time.process_time
    totals = {name: 0.0 for name in runs}
    ratios = []
    gc.collect()
    for k in range(0, n, chunk):
        took = {}
        for name in (first, second) if k // chunk % 2 == 0 else (second, first):
            start = clock()
            runs[name](k, min(k + chunk, n))
            took[name] = clock() - start
            totals[name] += took[name]
        ratios.append(took[second] / took[first])
    return totals, sorted(ratios)


def _interleaved(args) -> int:
    import MahjongGB

    # The hands and PyMahjongGB's arguments are made before the warm-up, as in the main run.
    fresh = list(generate(args.hands * args.repeat, args.seed + 10))
    prepared = [gb_arguments(hand, context) for hand, context in fresh]
    for hand, context in generate(args.warmup, args.seed + 2):
        score(hand, context)
    call = MahjongGB.MahjongFanCalculator

    def gb(start: int, end: int) -> None:
        for arguments in prepared[start:end]:
            call(*arguments)

    def ours(start: int, end: int) -> None:
        for hand, context in fresh[start:end]:
            score(hand, context)

    n = len(fresh)
    totals, ratios = _in_turns({"gb": gb, "ours": ours}, n)
    print(f"{n} new hands after {args.warmup} others, 250 at a time, both engines in turn")
    print(f"  PyMahjongGB (C++ call only) {_per_hand(totals['gb'], n):8.2f} us/hand")
    print(f"  engine.mcr (new hands)      {_per_hand(totals['ours'], n):8.2f} us/hand")
    print(f"  ratio {totals['ours'] / totals['gb']:.2f}x (target <= 3x; chunks: median {ratios[len(ratios) // 2]:.2f}x, "
          f"quartiles {ratios[len(ratios) // 4]:.2f}x-{ratios[3 * len(ratios) // 4]:.2f}x)")
    return 0


def _against(args) -> int:
    old_score = _older_score(args.against)
    for hand, context in generate(args.warmup, args.seed + 2):
        old_score(hand, context)
        score(hand, context)
    fresh = list(generate(args.hands * args.repeat, args.seed + 10))

    def scoring(scorer):
        def run(start: int, end: int) -> None:
            for hand, context in fresh[start:end]:
                scorer(hand, context)
        return run

    n = len(fresh)
    totals, ratios = _in_turns({"old": scoring(old_score), "new": scoring(score)}, n)
    print(f"{n} new hands after {args.warmup} others, 250 at a time in turn")
    print(f"  older engine ({args.against}) {_per_hand(totals['old'], n):8.1f} us/hand")
    print(f"  this engine {_per_hand(totals['new'], n):8.1f} us/hand")
    print(f"  time this / older {totals['new'] / totals['old']:.3f} (chunks: median {ratios[len(ratios) // 2]:.3f}, "
          f"quartiles {ratios[len(ratios) // 4]:.3f}-{ratios[3 * len(ratios) // 4]:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
