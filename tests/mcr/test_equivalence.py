"""The speed work changed no result: every answer (totals, fans, explanations, arrangement) is the one the engine
gave before it (commit be1907e), pinned as a short digest of ``score(...).to_json()`` per generated hand.

Regenerate ``data/golden_results.txt`` only for a deliberate change of results (and say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.decompose import arrangements
from engine.mcr import hand_arrangements, score, scorings
from engine.mcr.evaluate import HandFacts

from .generator import generate

GOLDEN = Path(__file__).parent / "data" / "golden_results.txt"
SEEDS = ((7001, 3000), (424243, 3000))


def _digest(result) -> str:
    text = json.dumps(result.to_json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_results_are_those_of_the_engine_before_the_speed_work():
    expected = GOLDEN.read_text().split()
    got = [_digest(score(hand, context)) for seed, n in SEEDS for hand, context in generate(n, seed)]
    assert len(got) == len(expected) == 6000
    mismatches = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not mismatches, f"{len(mismatches)} results changed, first at {mismatches[:5]}"


def test_fast_path_agrees_with_scoring_every_arrangement():
    """``score`` keeps the best of ``scorings`` (the plain path over ``engine.decompose.arrangements``)."""
    for hand, context in generate(2000, seed=31):
        result = score(hand, context)
        plain = scorings(hand, context)
        assert result.fan_points == max(s.total for s, _ in plain), hand
        assert any(a == result.arrangement and s.total == result.fan_points
                   and {f: e[0] for f, e in s.fans.items()} == {f: c for f, c in result.fan_ids.items()
                                                                 if f != "flower_tiles"}
                   for s, a in plain), hand
        assert hand_arrangements(hand, HandFacts(hand, context).standing) == list(arrangements(hand)), hand


def test_kind_fans_cached_by_features_equal_the_mask_answer():
    import random

    from engine.mcr.evaluate import _KIND_FANS_BY_FEATURES, _kind_fans, _kind_fans_of

    rng = random.Random(3)
    _KIND_FANS_BY_FEATURES.clear()
    for _ in range(20000):
        # Few kinds, few suits and honours, as hands have them (masks of 0-14 kinds from a random subset).
        pool = rng.sample(range(34), rng.randint(1, 34))
        mask = sum(1 << i for i in rng.sample(pool, min(len(pool), rng.randint(1, 14))))
        assert _kind_fans_of(mask) == _kind_fans.__wrapped__(mask), bin(mask)


def test_standing_readings_equal_the_decomposition_on_many_hands():
    from engine.decompose import Group, GroupKind, arrangements_of_counts
    from engine.mcr import _GROUP_BY_CODE, _SHAPE_BY_CODE, _standing_arrangements

    placeholder = Group(GroupKind.PUNG, 0)
    seen = 0
    for hand, context in generate(3000, seed=77):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        win, melds = hand.winning_tile.index, len(hand.melds)
        fast = [(_SHAPE_BY_CODE[s], tuple(_GROUP_BY_CODE[c] for c in codes), i)
                for s, codes, i in _standing_arrangements.__wrapped__(tuple(standing), win, melds)]
        plain = [(a.shape, a.groups[:len(a.groups) - melds], a.winning_group)
                 for a in arrangements_of_counts(list(standing), win, (placeholder,) * melds)]
        assert fast == plain, hand
        # The same counts with another winning kind held: other placements of the winning tile.
        for other in {i for i in range(34) if standing[i]} - {win}:
            fast = [(_SHAPE_BY_CODE[s], tuple(_GROUP_BY_CODE[c] for c in codes), i)
                    for s, codes, i in _standing_arrangements.__wrapped__(tuple(standing), other, melds)]
            plain = [(a.shape, a.groups[:len(a.groups) - melds], a.winning_group)
                     for a in arrangements_of_counts(list(standing), other, (placeholder,) * melds)]
            assert fast == plain, (hand, other)
            seen += 1
    assert seen > 10000


def test_pung_prefilter_drops_only_sets_without_candidates():
    from itertools import combinations_with_replacement

    from engine.mcr.combos import _candidates, _may_combine_pungs

    kinds = list(range(34))
    checked = 0
    for size in (2, 3, 4):
        for firsts in combinations_with_replacement(kinds, size):
            if len(set(firsts)) < size:
                continue  # one pung per kind
            if not _may_combine_pungs(firsts):
                for pair in (None, 30, 33):  # a wind pair, a dragon pair
                    assert _candidates(firsts, pair, False) == [], (firsts, pair)
                checked += 1
    assert checked > 1000
