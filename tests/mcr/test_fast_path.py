"""The fast path (``engine.mcr.fast``) gives, for every reading of a hand, the fans and total of the reference
evaluation (``engine.mcr.evaluate.evaluate``) and the same reading order, so that ``score`` keeps the same one."""

from __future__ import annotations

from engine.decompose import arrangements
from engine.mcr import _GROUP_BY_CODE, _SHAPE_BY_CODE
from engine.mcr.evaluate import HandFacts, evaluate
from engine.mcr.fast import best_reading

from .generator import generate


def _check(hand, context) -> int:
    every: list = []
    best = best_reading(hand, context, every)
    plain = list(arrangements(hand))
    assert len(every) == len(plain), hand
    facts = HandFacts(hand, context)
    melds = len(hand.melds)
    for (summary, (total, tie, kept)), arrangement in zip(every, plain):
        shape, codes, winning_group = summary[:3]
        assert (_SHAPE_BY_CODE[shape], tuple(_GROUP_BY_CODE[c] for c in codes), winning_group) == \
            (arrangement.shape, arrangement.groups[:len(arrangement.groups) - melds], arrangement.winning_group), hand
        scored = evaluate(arrangement, facts)
        assert total == scored.total, (hand, arrangement)
        assert list(kept) == [(fan, entry[0]) for fan, entry in scored.fans.items()], (hand, arrangement)
        assert tie == ("edge_wait" in scored.fans, "closed_wait" in scored.fans, "single_wait" in scored.fans)
    if every:
        keys = [(done[0], done[1]) for _, done in every]
        assert best[:2] == every[keys.index(max(keys))], hand
    else:
        assert best is None
    return len(every)


def test_every_reading_scores_as_the_reference_evaluation():
    readings = 0
    for seed in (101, 202):
        for hand, context in generate(2500, seed):
            readings += _check(hand, context)
    assert readings > 5000


def test_rare_shapes_and_kongs_score_as_the_reference_evaluation():
    from engine import Hand, WinContext

    texts = ("19m19p19s1234567z +1m", "147m258p369s1234z +5z", "147m258p369s555p5z +5z", "1112345678999m +5m",
             "1122334455667p +7p", "1122334455667m +1m", "123m456p789s1z p555z< +1z", "4z k1111m< k2222p^ k3333s> x5555z +4z",
             "3z x1111m x9999s p111z^ p222z< +3z", "11122233m44455p +3m", "14788m258p369s55z +5z", "1245m p222z^ x3333z p444z> +3m")
    checked = 0
    for text in texts:
        hand = Hand.parse(text).validate()
        for self_drawn in (False, True):
            for seat, prevailing in (("S", "E"), ("E", "E"), ("N", "W")):
                checked += _check(hand, WinContext(self_drawn=self_drawn, seat_wind=seat, round_wind=prevailing))
    assert checked >= 6 * len(texts)


def test_irregular_shape_test_on_the_kind_mask_is_the_count_test():
    import random

    from engine.mcr.fast import _irregular_possible
    from engine.mcr.readings import irregular_possible

    rng = random.Random(11)
    checked = 0
    for hand, _context in generate(3000, seed=404):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        cases = [standing]
        # Random counts of the same size too, many of them irregular-looking.
        for _ in range(3):
            counts = [0] * 34
            pool = rng.sample(range(34), rng.randint(5, 14))
            for _ in range(sum(standing)):
                i = rng.choice(pool)
                if counts[i] < 4:
                    counts[i] += 1
            cases.append(counts)
        for counts in cases:
            mask = sum(1 << i for i in range(34) if counts[i])
            for melds in range(5):
                assert _irregular_possible(mask, counts, melds) == irregular_possible(tuple(counts), melds), counts
                checked += 1
    assert checked > 50000


def test_unique_wait_for_every_tile_of_many_hands_as_the_winning_tile():
    """``_only_winning_tile_of`` (with the kind mask the fast path passes) against trying every kind with the
    decomposition, on hands rich in irregular shapes, each of their kinds taken in turn as the winning tile."""
    from engine.decompose import Group, GroupKind, arrangements_of_counts
    from engine.mcr.evaluate import _only_winning_tile_of

    placeholder = Group(GroupKind.PUNG, 0)
    checked = 0
    for hand, _context in generate(800, 77, special_share=0.7):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        held = list(standing)
        for meld in hand.melds:
            for t in meld.tiles:
                held[t.index] += 1
        melds = len(hand.melds)
        for win in {i for i in range(34) if standing[i]}:
            before = list(standing)
            before[win] -= 1
            waits = []
            for k in range(34):
                if held[k] - (k == win) >= 4:
                    continue  # all four copies in the hand: no wait
                before[k] += 1
                if next(arrangements_of_counts(before, k, (placeholder,) * melds), None) is not None:
                    waits.append(k)
                before[k] -= 1
            exhausted = tuple(i for i in range(34) if held[i] == 4 and i != win)
            mask = sum(1 << i for i in range(34) if before[i])
            assert _only_winning_tile_of.__wrapped__(tuple(before), win, melds, exhausted, mask) == (waits == [win]), \
                (hand, win, waits)
            checked += 1
    assert checked > 4000
