"""The hand sampler only produces hands the engine itself accepts as legal and winning."""

import numpy as np

from engine.decompose import arrangements
from engine.hand import Hand, MeldType, WinContext
from vision.synth.hands import sample_hand


def test_sampled_hands_are_legal_winning_hands_with_consistent_context():
    kinds = set()
    for seed in range(300):
        rng = np.random.default_rng(seed)
        rules = "riichi" if seed % 3 == 0 else "mcr"
        hand, context = sample_hand(rng, rules)
        hand.validate()
        assert next(iter(arrangements(hand)), None) is not None, hand
        context.validate()
        context.check_against(hand)
        assert context.rules == rules
        if rules == "riichi":
            assert not hand.flowers
        # JSON round trip: what goes into scenes.jsonl reads back to the same hand
        assert Hand.from_json(hand.to_json()) == hand
        assert WinContext.from_json(context.to_json()) == context
        kinds |= {m.type for m in hand.melds}
    assert kinds == set(MeldType)


def test_meld_count_is_respected():
    for n in range(5):
        hand, _ = sample_hand(np.random.default_rng(100 + n), "mcr", meld_count=n)
        assert len(hand.melds) == n
        assert len(hand.concealed) == 13 - 3 * n
