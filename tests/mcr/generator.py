"""Random legal MCR winning hands (fixed seed), covering every fan, and their PyMahjongGB form.

``generate(n, seed)`` yields ``(Hand, WinContext)`` pairs. Most hands are built from random sets and a pair under a
random *theme* (one suit, honours, terminals, pungs only, chows of one number...) so that the rarer fans appear;
special shapes (seven pairs, thirteen orphans, knitted hands, nine gates) and a few very rare set patterns have
their own builders. Every hand is validated by ``read_request``'s checks before it is used.
"""

from __future__ import annotations

import random
from typing import Iterator

from engine import Discarder, Hand, HandError, Meld, MeldType, Tile, WinContext
from engine.decompose import KNITTED_PATTERNS

WINDS = "ESWN"
_GB_SUIT = "WBT"
_GB_HONOUR = {27: "F1", 28: "F2", 29: "F3", 30: "F4", 31: "J3", 32: "J2", 33: "J1"}


def gb_tile(index: int) -> str:
    """PyMahjongGB tile code: W/B/T + 1..9 (characters, dots, bamboo), F1..F4 winds, J1 red, J2 green, J3 white."""
    if index < 27:
        return f"{_GB_SUIT[index // 9]}{index % 9 + 1}"
    return _GB_HONOUR[index]


def gb_arguments(hand: Hand, context: WinContext) -> tuple:
    """The positional arguments of ``MahjongGB.MahjongFanCalculator`` for this hand (verbose on)."""
    offer = {Discarder.LEFT: 1, Discarder.ACROSS: 2, Discarder.RIGHT: 3}
    packs = []
    for meld in hand.melds:
        first = meld.tiles[0].index
        if meld.type is MeldType.CHOW:
            claimed = meld.claimed.index - first + 1 if meld.claimed is not None else 1
            packs.append(("CHI", gb_tile(first + 1), claimed))
        elif meld.type is MeldType.PUNG:
            packs.append(("PENG", gb_tile(first), offer[meld.discarder]))
        elif meld.type is MeldType.CONCEALED_KONG:
            packs.append(("GANG", gb_tile(first), 0))
        else:
            packs.append(("GANG", gb_tile(first), offer[meld.discarder]))
    standing = tuple(gb_tile(t.index) for t in hand.concealed)
    about_kong = context.kong_replacement or context.robbing_kong
    return (tuple(packs), standing, gb_tile(hand.winning_tile.index), len(hand.flowers), context.self_drawn,
            context.last_tile, about_kong, context.last_wall_tile, WINDS.index(context.seat_wind),
            WINDS.index(context.round_wind), True)


# --- builders ------------------------------------------------------------------------------------------------------
class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counts = [0] * 34

    def take(self, indices) -> bool:
        for i in indices:
            self.counts[i] += 1
        if max(self.counts) > 4:
            for i in indices:
                self.counts[i] -= 1
            return False
        return True


def _theme_pool(rng: random.Random, theme: str) -> tuple[list[int], list[int], list[int]]:
    """(chow starts, pung tiles, pair tiles) allowed by a theme."""
    suit = rng.randrange(3)
    suits = [suit] if theme in ("flush", "half_flush", "pure") else [0, 1, 2]
    numbers = [s * 9 + r for s in suits for r in range(9)]
    honours = list(range(27, 34))
    if theme == "terminals":
        pungs = [i for i in numbers if i % 9 in (0, 8)] + honours
        return [s * 9 + r for s in suits for r in (0, 6)], pungs, pungs
    if theme == "pure_terminals":
        ends = [s * 9 + r for s in range(3) for r in (0, 8)]
        return [], ends, ends
    if theme == "honours":
        return [], honours, honours
    if theme == "winds":
        return [s * 9 + r for s in suits for r in range(7)], list(range(27, 31)) + numbers, list(range(27, 34))
    if theme == "dragons":
        return [s * 9 + r for s in suits for r in range(7)], list(range(31, 34)) + numbers, list(range(27, 34))
    if theme == "green":
        green = [19, 20, 21, 23, 25, 32]
        return [19], green, green
    if theme == "reversible":
        rev = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]
        return [9, 10, 11, 21], rev, rev
    if theme == "even":
        evens = [s * 9 + r for s in suits for r in (1, 3, 5, 7)]
        return [], evens, evens
    if theme in ("low", "mid", "high", "low4", "high4"):
        ranks = {"low": range(0, 3), "mid": range(3, 6), "high": range(6, 9), "low4": range(0, 4),
                 "high4": range(5, 9)}[theme]
        nums = [s * 9 + r for s in suits for r in ranks]
        starts = [s * 9 + r for s in suits for r in ranks if r + 2 in ranks]
        return starts, nums, nums
    if theme == "fives":
        return [s * 9 + r for s in suits for r in (2, 3, 4)], [s * 9 + 4 for s in suits], [s * 9 + 4 for s in suits]
    if theme == "simples":
        return ([s * 9 + r for s in suits for r in range(1, 6)], [s * 9 + r for s in suits for r in range(1, 8)],
                [s * 9 + r for s in suits for r in range(1, 8)])
    if theme == "same_number":
        r = rng.randrange(7)
        return [s * 9 + r for s in range(3)] + [s * 9 + r + rng.choice((1, 3)) for s in range(3) if r + 3 <= 6], \
            [s * 9 + r for s in range(3)] + [s * 9 + r + 1 for s in range(3)], numbers + honours
    if theme == "pure":
        return [suit * 9 + r for r in range(7)], [suit * 9 + r for r in range(9)], [suit * 9 + r for r in range(9)]
    starts = [s * 9 + r for s in suits for r in range(7)]
    if theme == "flush":
        return starts, numbers, numbers
    if theme == "half_flush":
        return starts, numbers + honours, numbers + honours
    return starts, numbers + honours, numbers + honours


_THEMES = ["any"] * 6 + ["flush", "half_flush", "pure", "pure", "terminals", "pure_terminals", "honours", "winds", "dragons", "green",
                         "reversible", "even", "low", "mid", "high", "low4", "high4", "fives", "simples",
                         "same_number", "same_number"]


def _standard(rng: random.Random, themes=None) -> tuple[list[tuple[str, int]], int] | None:
    theme = rng.choice(themes or _THEMES)
    starts, pungs, pairs = _theme_pool(rng, theme)
    chow_share = {"honours": 0.0, "even": 0.0, "terminals": 0.3}.get(theme, rng.choice((0.0, 0.3, 0.6, 0.9, 1.0)))
    b = _Builder(rng)
    sets: list[tuple[str, int]] = []
    tries = 0
    while len(sets) < 4 and tries < 60:
        tries += 1
        if starts and rng.random() < chow_share:
            s = rng.choice(starts)
            if b.take((s, s + 1, s + 2)):
                sets.append(("chow", s))
        elif pungs:
            t = rng.choice(pungs)
            if b.take((t, t, t)):
                sets.append(("pung", t))
    if len(sets) < 4:
        return None
    for _ in range(20):
        p = rng.choice(pairs)
        if b.take((p, p)):
            return sets, p
    return None


def _make_standard(rng: random.Random, themes=None) -> Hand | None:
    built = _standard(rng, themes)
    if built is None:
        return None
    sets, pair = built
    rng.shuffle(sets)
    exposed_count = rng.choice((0, 0, 1, 1, 2, 3, 4))
    melds: list[Meld] = []
    standing: list[int] = [pair, pair]
    counts = [0] * 34
    for kind, first in sets:
        for i in ((first, first + 1, first + 2) if kind == "chow" else (first,) * 3):
            counts[i] += 1
    counts[pair] += 2
    for k, (kind, first) in enumerate(sets):
        tiles = (first, first + 1, first + 2) if kind == "chow" else (first,) * 3
        if kind == "pung" and counts[first] == 3 and rng.random() < 0.18:
            # Promote to a kong (melded, added or concealed) when the fourth copy is free.
            counts[first] += 1
            mtype = rng.choice((MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG, MeldType.CONCEALED_KONG))
            src = None if mtype is MeldType.CONCEALED_KONG else rng.choice(list(Discarder))
            melds.append(Meld(mtype, tuple(Tile.from_index(first) for _ in range(4)), src))
            continue
        if k < exposed_count:
            if kind == "chow":
                claimed = Tile.from_index(rng.choice(tiles))
                melds.append(Meld(MeldType.CHOW, tuple(Tile.from_index(i) for i in tiles), Discarder.LEFT, claimed))
            else:
                melds.append(Meld(MeldType.PUNG, tuple(Tile.from_index(i) for i in tiles), rng.choice(list(Discarder))))
        else:
            standing.extend(tiles)
    winning = rng.choice(standing)
    standing.remove(winning)
    return Hand(tuple(Tile.from_index(i) for i in standing), tuple(melds), Tile.from_index(winning))


def _concealed(tiles: list[int], rng: random.Random) -> Hand:
    winning = rng.choice(tiles)
    tiles = list(tiles)
    tiles.remove(winning)
    return Hand(tuple(Tile.from_index(i) for i in tiles), (), Tile.from_index(winning))


def _make_special(rng: random.Random) -> Hand | None:
    kind = rng.choice(["seven_pairs", "seven_pairs", "shifted_pairs", "orphans", "knitted", "knitted_straight",
                       "nine_gates", "pure_terminal", "three_suited", "quadruple", "four_shifted", "pure_shifted",
                       "four_kongs", "big_winds", "big_dragons"])
    if kind == "seven_pairs":
        suit = rng.randrange(3) * 9
        pool = list(range(34)) if rng.random() < 0.5 else rng.choice(
            [list(range(suit, suit + 9)), list(range(27, 34)),
             [0, 8, 9, 17, 18, 26] + list(range(27, 34)), [19, 20, 21, 23, 25, 32], list(range(0, 27))])
        chosen = [rng.choice(pool) for _ in range(7)]
        if any(chosen.count(i) > 2 for i in chosen):
            return None
        return _concealed([i for i in chosen for _ in range(2)], rng)
    if kind == "shifted_pairs":
        start = rng.randrange(3) * 9 + rng.randrange(3)
        return _concealed([i for i in range(start, start + 7) for _ in range(2)], rng)
    if kind == "orphans":
        tiles = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        return _concealed(tiles + [rng.choice(tiles)], rng)
    if kind in ("knitted", "knitted_straight"):
        pattern = list(rng.choice(KNITTED_PATTERNS))
        if kind == "knitted":
            honours = list(range(27, 34))
            n_honours = rng.choice((5, 6, 7, 7))
            tiles = rng.sample(pattern, 14 - n_honours) + rng.sample(honours, n_honours)
            return _concealed(tiles, rng)
        b = _Builder(rng)
        b.take(pattern)
        for _ in range(30):
            if rng.random() < 0.5:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                extra = (s, s + 1, s + 2)
            else:
                extra = (rng.randrange(34),) * 3
            p = rng.randrange(34)
            if b.take(extra):
                if b.take((p, p)):
                    break
                for i in extra:
                    b.counts[i] -= 1
        else:
            return None
        tiles = [i for i in range(34) for _ in range(b.counts[i])]
        if len(tiles) != 14:
            return None
        return _concealed(tiles, rng)
    if kind == "nine_gates":
        s = rng.randrange(3) * 9
        tiles = [s] * 3 + list(range(s + 1, s + 8)) + [s + 8] * 3 + [s + rng.randrange(9)]
        return _concealed(tiles, rng)
    s = rng.randrange(3) * 9
    if kind == "pure_terminal":
        tiles = [s, s + 1, s + 2] * 2 + [s + 6, s + 7, s + 8] * 2 + [s + 4] * 2
    elif kind == "three_suited":
        a, b2 = rng.sample(range(3), 2)
        c = 3 - a - b2
        tiles = [a * 9 + i for i in (0, 1, 2, 6, 7, 8)] + [b2 * 9 + i for i in (0, 1, 2, 6, 7, 8)] + [c * 9 + 4] * 2
    elif kind == "quadruple":
        r = rng.randrange(7)
        tiles = [s + r, s + r + 1, s + r + 2] * 4 + [rng.choice([i for i in range(34) if i not in (s + r, s + r + 1, s + r + 2)])] * 2
    elif kind == "four_shifted":
        step = rng.choice((1, 2))
        r = rng.randrange(7 - 3 * step)
        tiles = [s + r + k * step + j for k in range(4) for j in range(3)]
        tiles += [rng.randrange(27, 34)] * 2
    elif kind == "pure_shifted":
        r = rng.randrange(6)
        tiles = [s + r + k for k in range(4) for _ in range(3)] + [rng.randrange(27, 34)] * 2
    elif kind == "four_kongs":
        kinds = rng.sample(range(34), 5)
        melds = []
        for t in kinds[:4]:
            mtype = rng.choice((MeldType.KONG, MeldType.CONCEALED_KONG, MeldType.ADDED_KONG))
            src = None if mtype is MeldType.CONCEALED_KONG else rng.choice(list(Discarder))
            melds.append(Meld(mtype, (Tile.from_index(t),) * 4, src))
        return Hand((Tile.from_index(kinds[4]),), tuple(melds), Tile.from_index(kinds[4]))
    elif kind == "big_winds":
        extra = rng.choice([i for i in range(34) if i not in range(27, 31)])
        winds = list(range(27, 31))
        rng.shuffle(winds)
        if rng.random() < 0.5:
            tiles = [w for w in winds for _ in range(3)] + [extra] * 2
        else:
            tiles = [w for w in winds[:3] for _ in range(3)] + [winds[3]] * 2 + [extra] * 3
    else:  # big_dragons
        others = [i for i in range(34) if i < 31]
        a, b2 = rng.sample(others, 2)
        if rng.random() < 0.5:
            tiles = [d for d in (31, 32, 33) for _ in range(3)] + [a] * 3 + [b2] * 2
        else:
            tiles = [d for d in (31, 32) for _ in range(3)] + [33] * 2 + [a] * 3 + [b2] * 3
    if any(tiles.count(i) > 4 for i in tiles) or len(tiles) != 14:
        return None
    return _concealed(tiles, rng)


def _context(rng: random.Random, hand: Hand) -> WinContext:
    self_drawn = rng.random() < 0.45
    win = hand.winning_tile.index
    held = sum(1 for t in hand.concealed if t.index == win)
    shown = sum(1 for m in hand.melds for t in m.tiles if t.index == win)
    has_kong = any(m.is_kong for m in hand.melds)
    last_tile = held == 0 and rng.random() < 0.1
    robbing = (not self_drawn and held == 0 and shown == 0 and rng.random() < 0.06)
    replacement = self_drawn and has_kong and rng.random() < 0.25
    last_wall = not robbing and rng.random() < 0.06
    return WinContext(rules="mcr", self_drawn=self_drawn, seat_wind=rng.choice(WINDS), round_wind=rng.choice(WINDS),
                      last_tile=last_tile, last_wall_tile=last_wall, kong_replacement=replacement,
                      robbing_kong=robbing)


def generate(n: int, seed: int = 20261122, special_share: float = 0.2,
             themes: list[str] | None = None) -> Iterator[tuple[Hand, WinContext]]:
    """``n`` legal winning hands with their contexts (some with flowers), always the same for the same seed.
    ``special_share`` of them use the special-shape builders; ``themes`` restricts the standard builder
    (``["any"]``: no bias towards rare fans)."""
    from engine.decompose import arrangements

    rng = random.Random(seed)
    produced = 0
    while produced < n:
        hand = _make_special(rng) if rng.random() < special_share else _make_standard(rng, themes)
        if hand is None:
            continue
        if rng.random() < 0.2:
            flowers = rng.sample(range(34, 42), rng.randrange(1, 4))
            hand = Hand(hand.concealed, hand.melds, hand.winning_tile, tuple(Tile.from_index(i) for i in flowers))
        try:
            hand.validate()
            context = _context(rng, hand).validate()
            context.check_against(hand)
        except HandError:
            continue
        if next(arrangements(hand), None) is None:
            continue
        produced += 1
        yield hand, context
