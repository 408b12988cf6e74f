"""The hand sampler only produces hands the engine itself accepts as legal and winning."""

import numpy as np
import pytest

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


def test_pung_meld_weights_choose_how_sets_of_three_alike_are_laid():
    rng = np.random.default_rng(5)
    types = set()
    for _ in range(60):
        hand, _ = sample_hand(rng, "mcr", meld_count=4, pung_meld_weights=(0, 0, 1, 0))
        types |= {m.type for m in hand.melds}
    # every exposed set of three alike is an added kong (one that would make a fifth copy stays a pung)
    assert MeldType.ADDED_KONG in types and types <= {MeldType.ADDED_KONG, MeldType.CHOW, MeldType.PUNG}
    assert MeldType.KONG not in types and MeldType.CONCEALED_KONG not in types


def test_default_pung_meld_weights_leave_the_draws_unchanged():
    # the default weights spelt out draw the very same hands from the same stream (scenes stay byte-identical)
    plain, spelt = np.random.default_rng(11), np.random.default_rng(11)
    a = [sample_hand(plain, "mcr")[0].format() for _ in range(20)]
    b = [sample_hand(spelt, "mcr", pung_meld_weights=(0.34, 0.22, 0.22, 0.22))[0].format() for _ in range(20)]
    assert a == b


@pytest.mark.parametrize("weights", [(0, 0, 0, 0), (1, -1, 1, 1), (1, 1, 1)])
def test_bad_pung_meld_weights_are_refused(weights):
    from vision.synth.config import SynthConfig

    with pytest.raises(ValueError, match="pung_meld_weights"):
        SynthConfig(pung_meld_weights=weights)
    with pytest.raises(ValueError, match="pung_meld_weights"):
        sample_hand(np.random.default_rng(0), "mcr", pung_meld_weights=weights)
