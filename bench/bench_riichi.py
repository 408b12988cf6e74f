"""Riichi scoring speed, side by side with the ``mahjong`` library (2.1) on the same hands.

    .venv/bin/python bench/bench_riichi.py [--hands 3000] [--rounds 5] [--seed 20261122]

Both engines score the same generated legal winning hands (``tests/riichi/generator.py``, ``modern`` ruleset,
default options), each from its own native input (ours: validated ``Hand`` + ``WinContext``; the library: 136-tile
ids, ``Meld`` objects and a ``HandConfig``, converted before timing). Our decomposition cache is cleared before
each of our rounds, so repeated hands gain nothing from it. Rounds alternate between the engines so that
load on a shared machine hits both alike; CPU time of the process is measured, the best of the rounds per chunk. Also printed: our end-to-end rate
from request JSON (parsing and validation included). Target: ours ≥ 1.5 × the library's hands per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import score_request  # noqa: E402
from engine.decompose import _sets_only, standard_partitions  # noqa: E402
from engine.riichi import score  # noqa: E402
from tests.riichi.generator import random_deal  # noqa: E402
from tests.riichi.peer import peer_inputs  # noqa: E402


def _time_suite(deals, chunk: int, rounds: int) -> dict[str, float]:
    """Hands per second of each engine on ``deals`` (see the module docstring for the method)."""
    from mahjong.hand_calculating.hand import HandCalculator

    estimate = HandCalculator.estimate_hand_value
    peer_args = [peer_inputs(hand, context) for hand, context in deals]
    requests = [{"hand": hand.to_json(), "context": context.to_json()} for hand, context in deals]

    def cold_caches() -> None:
        # The shared decomposition caches partitions by counts; the same hands scored again would hit it, so each
        # timing of ours starts cold (the library keeps no such cache).
        standard_partitions.cache_clear()
        _sets_only.cache_clear()

    def run_ours(lo: int, hi: int) -> None:
        for hand, context in deals[lo:hi]:
            score(hand, context)

    def run_peer(lo: int, hi: int) -> None:
        for tiles, win, melds, dora, ura, config in peer_args[lo:hi]:
            estimate(tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura)

    def run_json(lo: int, hi: int) -> None:
        for request in requests[lo:hi]:
            score_request(request)

    # CPU time of this process (not wall time: the machine is shared), per chunk of hands, the best of the rounds
    # for each chunk, summed. Engines alternate chunk by chunk so that a burst of load hits both alike.
    chunks = [(lo, min(lo + chunk, len(deals))) for lo in range(0, len(deals), chunk)]
    engines = (("ours", run_ours), ("mahjong", run_peer), ("ours_json", run_json))
    best_chunk = {(name, c): float("inf") for name, _ in engines for c in chunks}
    for _ in range(rounds):
        for c in chunks:
            for name, fn in engines:
                if name != "mahjong":
                    cold_caches()
                start = time.process_time()
                fn(*c)
                elapsed = time.process_time() - start
                best_chunk[name, c] = min(best_chunk[name, c], elapsed)
    return {name: len(deals) / sum(best_chunk[name, c] for c in chunks) for name, _ in engines}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--chunk", type=int, default=250)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    deals = [random_deal(rng, "modern", {}) for _ in range(args.hands)]
    # The generator leans to yakuman (to cover them all); the ordinary suite keeps the hands without one.
    ordinary = [deal for deal in deals if not score(*deal).yakuman]
    print(f"seed {args.seed}; process CPU time, best of {args.rounds} rounds per chunk of {args.chunk},"
          f" engines alternating chunk by chunk; our decomposition cache cold for every chunk")
    ratios = []
    for title, suite in (("all generated hands", deals), ("ordinary hands (no yakuman)", ordinary)):
        rate = _time_suite(suite, args.chunk, args.rounds)
        ratio = rate["ours"] / rate["mahjong"]
        ratios.append(ratio)
        print(f"\n{title}: {len(suite)}")
        print(f"  engine.riichi.score          {rate['ours']:10.0f} hands/s")
        print(f"  mahjong 2.1 HandCalculator   {rate['mahjong']:10.0f} hands/s")
        print(f"  engine score_request (JSON)  {rate['ours_json']:10.0f} hands/s  (parsing + validation included)")
        print(f"  speed ratio ours / mahjong   {ratio:10.2f}x")
    print(f"\ntarget >= 1.5x on both suites: {'met' if min(ratios) >= 1.5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
