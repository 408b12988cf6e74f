"""The fast paths agree with the plain definitions they replace."""

from __future__ import annotations

from engine.decompose import winning_tiles
from engine.mcr.combos import _candidates, _select, chow_fans, pung_fans
from engine.mcr.evaluate import _only_winning_tile

from .generator import generate


def test_fast_unique_wait_matches_winning_tiles():
    for hand, _context in generate(3000, seed=99):
        assert _only_winning_tile(hand) == (len(winning_tiles(hand)) == 1), hand


def test_fast_unique_wait_on_irregular_shapes():
    from engine import Hand

    for text in ("19m19p19s1234567z +1m", "19m19p19s1234566z +7z", "147m258p369s1234z +5z", "147m258p36s12345z +9s",
                 "147m258p369s555p5z +5z", "14m258p369s12345z +7m", "14788m258p369s55z +5z"):
        hand = Hand.parse(text).validate()
        assert hand.winning_tile in winning_tiles(hand), text
        assert _only_winning_tile(hand) == (len(winning_tiles(hand)) == 1), text


def test_suit_relabelling_cache_gives_the_uncached_answer():
    seen = 0
    for hand, context in generate(800, seed=5):
        from engine.decompose import arrangements

        for arrangement in arrangements(hand):
            chows = tuple(sorted(g.first for g in arrangement.groups if g.kind.value == "chow"))
            pungs = tuple(sorted(g.first for g in arrangement.groups if g.kind.value in ("pung", "kong")))
            pair = arrangement.pair.first if arrangement.pair is not None else None
            for firsts, fast, chows_flag in ((chows, chow_fans, True), (pungs, pung_fans, False)):
                if len(firsts) < 2:
                    continue
                plain = _select(_candidates(firsts, pair, chows_flag), len(firsts))
                fans_fast = sorted((f, tuple(firsts[p] for p in ps)) for f, ps in fast(firsts, pair))
                fans_plain = sorted((f, tuple(firsts[p] for p in ps)) for f, ps in plain)
                assert sorted(f for f, _ in fans_fast) == sorted(f for f, _ in fans_plain), (hand, firsts)
                seen += 1
    assert seen > 500


def test_cached_arrangements_are_the_decomposition():
    from engine.decompose import arrangements
    from engine.mcr import hand_arrangements
    from engine.mcr.evaluate import HandFacts

    for hand, context in generate(1500, seed=17):
        assert hand_arrangements(hand, HandFacts(hand, context).standing) == list(arrangements(hand)), hand
