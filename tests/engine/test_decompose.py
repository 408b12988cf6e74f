import random

import pytest

from engine import Hand, Shape, arrangements, winning_tiles
from engine.decompose import GroupKind, arrangements_of_counts


def shapes(text):
    return sorted({a.shape.value for a in arrangements(Hand.parse(text).validate())})


def test_nine_gates_waits_on_all_nine():
    assert [str(t) for t in winning_tiles(Hand.parse("1112345678999m +5m"))] == [f"{n}m" for n in range(1, 10)]


def test_thirteen_orphans_thirteen_sided_wait():
    assert len(winning_tiles(Hand.parse("19m19p19s1234567z +1z"))) == 13
    assert shapes("19m19p19s1234567z +1z") == ["thirteen_orphans"]


def test_four_identical_tiles_may_be_two_pairs_in_seven_pairs():
    assert "seven_pairs" in shapes("1111m2233p4455s6z +6z")


def test_knitted_shapes():
    assert shapes("147m25p369s12345z +6z") == ["honours_knitted"]
    # 全不靠 with a complete knitted straight is also read as such, never as a standard shape (no pair)
    assert shapes("147m258p369s1234z +5z") == ["honours_knitted"]
    assert shapes("147m258p369s234m +5z".replace(" +5z", "5z +5z")) == ["knitted_straight"]
    assert shapes("147m258p369s5z c234m< +5z") == ["knitted_straight"]


def test_every_placement_of_the_winning_tile_is_offered():
    # 34555m + 5m reads as 345m + 555m: the winning 5m may have completed either
    found = {(a.winning.kind.value, a.winning.first) for a in arrangements(Hand.parse("34555m123p789s11z +5m"))}
    assert (GroupKind.PUNG.value, 4) in found and (GroupKind.CHOW.value, 2) in found


def test_not_winning_yields_nothing():
    assert shapes("1234m5678p13579s +2z") == []


def test_pure_shifted_pungs_or_triple_chow_are_both_found():
    found = {tuple(sorted((g.kind.value, g.first) for g in a.sets)) for a in arrangements(Hand.parse("111222333m456p5s +5s"))}
    assert (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 12)) in found
    assert (("chow", 12), ("pung", 0), ("pung", 1), ("pung", 2)) in found


def _random_counts(rng, size=14):
    pool = [i for i in range(34) for _ in range(4)]
    counts = [0] * 34
    for i in rng.sample(pool, size):
        counts[i] += 1
    return counts


def _near_winning_counts(rng):
    """Random standard winning hands (4 sets + pair), often with one tile swapped, so both answers occur."""
    while True:
        counts = [0] * 34
        pair = rng.randrange(34)
        counts[pair] += 2
        for _ in range(4):
            if rng.random() < 0.5:
                i = rng.randrange(34)
                counts[i] += 3
            else:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    counts[suit * 9 + start + k] += 1
        if rng.random() < 0.5:
            out = rng.choice([i for i in range(34) if counts[i]])
            counts[out] -= 1
            counts[rng.randrange(34)] += 1
        if max(counts) <= 4:
            return counts


def test_agrees_with_the_mahjong_library_on_riichi_shapes():
    """Oracle: the `mahjong` package's agari check (standard, 7 distinct pairs, 13 orphans)."""
    agari = pytest.importorskip("mahjong.agari").Agari()
    rng = random.Random(20261122)
    checked = 0
    for n in range(3000):
        counts = _near_winning_counts(rng) if n % 3 else _random_counts(rng)
        ours = False
        for a in arrangements_of_counts(counts, next(i for i, c in enumerate(counts) if c)):
            if a.shape in (Shape.STANDARD, Shape.THIRTEEN_ORPHANS) or (
                    a.shape is Shape.SEVEN_PAIRS and max(counts) <= 2):
                ours = True
                break
        assert ours == agari.is_agari(counts), counts
        checked += ours
    assert checked > 500  # the sample really contains winning hands
