"""Riichi scoring speed, side by side with the ``mahjong`` library (2.1) on the same hands.

    .venv/bin/python bench/bench_riichi.py [--hands 3000] [--rounds 5] [--seed 20261122]

Both engines score the same generated legal winning hands (``tests/riichi/generator.py``, ``modern`` ruleset,
default options), each from its own native input (ours: validated ``Hand`` + ``WinContext``; the library: 136-tile
ids, ``Meld`` objects and a ``HandConfig``, converted before timing). Our decomposition cache is cleared before
each of our rounds, so repeated hands gain nothing from it. Rounds alternate between the engines so that
load on a shared machine hits both alike; the best round of each is reported. Also printed: our end-to-end rate
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()

    from mahjong.hand_calculating.hand import HandCalculator

    rng = random.Random(args.seed)
    deals = [random_deal(rng, "modern", {}) for _ in range(args.hands)]
    peer_args = [peer_inputs(hand, context) for hand, context in deals]
    requests = [{"hand": hand.to_json(), "context": context.to_json()} for hand, context in deals]
    estimate = HandCalculator.estimate_hand_value

    def cold_caches() -> None:
        # The shared decomposition caches partitions by counts; the same hands scored again would hit it, so each
        # round of ours starts cold (the library keeps no such cache).
        standard_partitions.cache_clear()
        _sets_only.cache_clear()

    def run_ours() -> None:
        cold_caches()
        for hand, context in deals:
            score(hand, context)

    def run_peer() -> None:
        for tiles, win, melds, dora, ura, config in peer_args:
            estimate(tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura)

    def run_json() -> None:
        cold_caches()
        for request in requests:
            score_request(request)

    best = {"ours": float("inf"), "mahjong": float("inf"), "ours_json": float("inf")}
    for _ in range(args.rounds):
        for name, fn in (("ours", run_ours), ("mahjong", run_peer), ("ours_json", run_json)):
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    rate = {name: args.hands / seconds for name, seconds in best.items()}
    print(f"hands: {args.hands} (seed {args.seed}), best of {args.rounds} alternating rounds")
    print(f"engine.riichi.score          {rate['ours']:10.0f} hands/s")
    print(f"mahjong 2.1 HandCalculator   {rate['mahjong']:10.0f} hands/s")
    print(f"engine score_request (JSON)  {rate['ours_json']:10.0f} hands/s  (parsing + validation included)")
    ratio = rate["ours"] / rate["mahjong"]
    print(f"speed ratio ours / mahjong   {ratio:10.2f}x  (target >= 1.5x: {'met' if ratio >= 1.5 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
