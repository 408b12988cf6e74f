"""Legal riichi winning hands with contexts, from a seeded ``random.Random``, themed so that every yaku occurs.

Each theme builds four sets and a pair (or seven pairs, thirteen orphans, nine gates), then claims some sets as
melds, picks the winning tile among the standing tiles, and draws a context that the engine's validation accepts.
Used by the differential test against the ``mahjong`` library and by ``bench/bench_riichi.py``.
"""

from __future__ import annotations

import random

from engine import Discarder, Hand, Meld, MeldType, Tile, WinContext
from engine.tiles import ALL_KINDS

SIMPLES = [i for i in range(27) if i % 9 not in (0, 8)]
TERMINALS = [i for i in range(27) if i % 9 in (0, 8)]
HONOURS = list(range(27, 34))
GREEN = [19, 20, 21, 23, 25, 32]
WINDS = "ESWN"


def _chow(rng, suits=(0, 1, 2), starts=range(7)):
    return ("chow", rng.choice(suits) * 9 + rng.choice(list(starts)))


def _pung(rng, pool):
    return ("pung", rng.choice(pool))


def _theme_sets(rng: random.Random, theme: str):
    """(sets, pair) or None to retry; sets are (kind, first)."""
    suit = rng.randrange(3)
    one_suit = [suit * 9 + k for k in range(9)]
    if theme == "random":
        sets = [_chow(rng) if rng.random() < 0.6 else _pung(rng, list(range(34))) for _ in range(4)]
        return sets, rng.randrange(34)
    if theme == "pinfu":
        sets = [_chow(rng) for _ in range(4)]
        return sets, rng.choice(list(range(27)) + [27, 28, 29, 30])
    if theme == "tanyao":
        sets = [("chow", rng.randrange(3) * 9 + rng.randrange(1, 6)) if rng.random() < 0.7 else _pung(rng, SIMPLES)
                for _ in range(4)]
        return sets, rng.choice(SIMPLES)
    if theme in ("honitsu", "chinitsu"):
        pool = one_suit + (HONOURS if theme == "honitsu" else [])
        sets = [("chow", suit * 9 + rng.randrange(7)) if rng.random() < 0.6 else _pung(rng, pool) for _ in range(4)]
        return sets, rng.choice(pool)
    if theme == "toitoi":
        return [_pung(rng, list(range(34))) for _ in range(4)], rng.randrange(34)
    if theme in ("chanta", "junchan"):
        pool = TERMINALS + (HONOURS if theme == "chanta" else [])
        sets = [("chow", rng.randrange(3) * 9 + rng.choice((0, 6))) if rng.random() < 0.6 else _pung(rng, pool)
                for _ in range(4)]
        return sets, rng.choice(pool)
    if theme == "ittsu":
        sets = [("chow", suit * 9), ("chow", suit * 9 + 3), ("chow", suit * 9 + 6), _chow(rng)]
        return sets, rng.randrange(34)
    if theme == "sanshoku":
        start = rng.randrange(7)
        sets = [("chow", start), ("chow", 9 + start), ("chow", 18 + start), _chow(rng)]
        return sets, rng.randrange(34)
    if theme == "sanshoku_doukou":
        n = rng.randrange(9)
        sets = [("pung", n), ("pung", 9 + n), ("pung", 18 + n), _pung(rng, list(range(34)))]
        return sets, rng.randrange(34)
    if theme == "peikou":
        a = _chow(rng)
        b = _chow(rng) if rng.random() < 0.5 else a
        return [a, a, b, b if rng.random() < 0.6 else _chow(rng)], rng.randrange(34)
    if theme == "dragons":
        dragons = rng.sample([31, 32, 33], 3)
        count = rng.choice((2, 2, 3))
        sets = [("pung", d) for d in dragons[:count]]
        sets += [_chow(rng) if rng.random() < 0.5 else _pung(rng, list(range(31))) for _ in range(4 - count)]
        pair = dragons[2] if count == 2 and rng.random() < 0.6 else rng.randrange(34)
        return sets, pair
    if theme == "winds":
        winds = rng.sample([27, 28, 29, 30], 4)
        count = rng.choice((3, 3, 4))
        sets = [("pung", w) for w in winds[:count]] + [_pung(rng, list(range(34)))] * (4 - count)
        pair = winds[3] if count == 3 and rng.random() < 0.7 else rng.randrange(34)
        return sets, pair
    if theme == "honours":
        picks = rng.sample(HONOURS, 5)
        return [("pung", p) for p in picks[:4]], picks[4]
    if theme == "terminals":
        pool = TERMINALS + (HONOURS if rng.random() < 0.5 else [])
        picks = rng.sample(pool, 5)
        return [("pung", p) for p in picks[:4]], picks[4]
    if theme == "green":
        sets = [("chow", 19) if rng.random() < 0.4 else _pung(rng, GREEN) for _ in range(4)]
        return sets, rng.choice(GREEN)
    if theme == "kongs":
        return [_pung(rng, list(range(34))) for _ in range(4)], rng.randrange(34)
    raise ValueError(theme)


THEMES = ("random", "random", "pinfu", "tanyao", "honitsu", "chinitsu", "toitoi", "chanta", "junchan", "ittsu",
          "sanshoku", "sanshoku_doukou", "peikou", "dragons", "winds", "honours", "terminals", "green", "kongs",
          "chiitoitsu", "chiitoitsu", "kokushi", "chuuren")


def _counts_ok(counts):
    return max(counts) <= 4


def random_deal(rng: random.Random, ruleset: str = "modern", options: dict | None = None, quad_pairs: bool = False):
    """One (Hand, WinContext). Retries internally until the pieces fit (at most four copies of a tile).

    ``quad_pairs``: a seven-pairs deal may hold four of a kind as two pairs, which riichi does not accept (policy R8),
    so the deal is then not a winning hand.
    """
    while True:
        result = _try_deal(rng, ruleset, options or {}, quad_pairs)
        if result is not None:
            return result


def _try_deal(rng, ruleset, options, quad_pairs=False):
    theme = rng.choice(THEMES)
    melds: list[Meld] = []
    standing: list[int] = []
    if theme in ("chiitoitsu", "kokushi", "chuuren"):
        if theme == "chiitoitsu":
            pool = rng.choice([list(range(34)), HONOURS, SIMPLES, [i for i in range(9)] + HONOURS,
                               TERMINALS + HONOURS, GREEN + [18, 24]])
            if len(pool) < 7:
                return None
            kinds = rng.sample(pool, 7)
            if quad_pairs and rng.random() < 0.1:
                kinds[6] = kinds[0]  # four of a kind as two pairs: not seven pairs in riichi (policy R8)
            for k in kinds:
                standing += [k, k]
        elif theme == "kokushi":
            standing = TERMINALS + HONOURS + [rng.choice(TERMINALS + HONOURS)]
        else:
            base = rng.randrange(3) * 9
            standing = [base] * 3 + [base + k for k in range(1, 8)] + [base + 8] * 3 + [base + rng.randrange(9)]
        open_probability = 0.0
    else:
        picked = _theme_sets(rng, theme)
        if picked is None:
            return None
        sets, pair = picked
        counts = [0] * 34
        for kind, first in sets:
            for i in ((first, first + 1, first + 2) if kind == "chow" else (first,) * 3):
                counts[i] += 1
        counts[pair] += 2
        if not _counts_ok(counts):
            return None
        open_probability = rng.choice((0.0, 0.0, 0.25, 0.5))
        kong_probability = 0.8 if theme == "kongs" else 0.08
        for kind, first in sets:
            tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
            make_kong = kind == "pung" and counts[first] == 3 and rng.random() < kong_probability
            if make_kong:
                counts[first] += 1
                meld_type = rng.choice((MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG,
                                        MeldType.CONCEALED_KONG))
                discarder = None if meld_type is MeldType.CONCEALED_KONG else rng.choice(list(Discarder))
                melds.append(Meld(meld_type, tuple(ALL_KINDS[first] for _ in range(4)), discarder))
            elif rng.random() < open_probability:
                if kind == "chow":
                    melds.append(Meld(MeldType.CHOW, tuple(ALL_KINDS[i] for i in tiles), Discarder.LEFT))
                else:
                    melds.append(Meld(MeldType.PUNG, tuple(ALL_KINDS[i] for i in tiles), rng.choice(list(Discarder))))
            else:
                standing += tiles
        standing += [pair, pair]
        if not standing or len(melds) > 4:
            return None
    win_index = rng.choice(standing)
    standing.remove(win_index)
    concealed = [ALL_KINDS[i] for i in standing]
    winning = ALL_KINDS[win_index]
    hand = Hand(tuple(concealed), tuple(melds), winning)
    counts = hand.counts()
    if not _counts_ok(counts):
        return None
    hand = _paint_red_fives(rng, hand, options.get("aka_dora", ruleset == "modern"))
    context = _random_context(rng, hand, ruleset, options)
    return hand, context


def _paint_red_fives(rng, hand: Hand, aka: bool) -> Hand:
    """Turn one five of a suit red, sometimes (always when all four fives are in the hand and reds are on)."""
    fives = {4: 0, 13: 0, 22: 0}
    for t in hand.all_tiles():
        if t.index in fives:
            fives[t.index] += 1
    red_for = {i for i, n in fives.items() if n and (rng.random() < 0.35 or (aka and n == 4))}
    if not red_for:
        return hand

    def paint(tiles):
        out = []
        for t in tiles:
            if t.index in red_for and not t.red:
                out.append(Tile(t.index, True))
                red_for.discard(t.index)
            else:
                out.append(t)
        return tuple(out)

    winning = hand.winning_tile
    if winning.index in red_for and rng.random() < 0.3:
        winning = Tile(winning.index, True)
        red_for.discard(winning.index)
    concealed = paint(hand.concealed)
    melds = tuple(Meld(m.type, paint(m.tiles), m.discarder, m.claimed) for m in hand.melds)
    return Hand(concealed, melds, winning)


def _random_context(rng, hand: Hand, ruleset: str, options: dict) -> WinContext:
    closed = hand.is_concealed
    has_kong = any(m.is_kong for m in hand.melds)
    seat = rng.choice(WINDS)
    tsumo = rng.random() < 0.45
    ctx: dict = {"rules": "riichi", "ruleset": ruleset, "options": dict(options), "seat_wind": seat,
                 "round_wind": rng.choice("EESSWN"), "self_drawn": tsumo,
                 "honba": rng.choice((0, 0, 0, 1, 2, 5)), "riichi_sticks": rng.choice((0, 0, 1, 2))}
    if closed and rng.random() < 0.45:
        if rng.random() < 0.12:
            ctx["double_riichi"] = True
        else:
            ctx["riichi"] = True
        if rng.random() < 0.2:
            ctx["ippatsu"] = True
    special = rng.random()
    held = hand.counts()[hand.winning_tile.index]
    if special < 0.06:
        ctx["last_wall_tile"] = True
    elif special < 0.14 and tsumo and has_kong:
        ctx["kong_replacement"] = True
        ctx.pop("ippatsu", None)  # the winner's kong ended it (policy R27)
    elif special < 0.18 and not tsumo and held == 1:
        ctx["robbing_kong"] = True
    elif special < 0.22 and not hand.melds and "riichi" not in ctx and "double_riichi" not in ctx:
        if seat == "E" and tsumo:
            ctx["blessing"] = "heaven"
        elif seat != "E":
            ctx["blessing"] = "earth" if tsumo else "human"
    # indicators are physical tiles: they must leave at most four copies of each kind
    counts = hand.counts()
    n_dora = rng.choice((0, 1, 1, 1, 2, 3))
    indicators = []
    for _ in range(2 * n_dora):
        k = rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
            indicators.append(ALL_KINDS[k])
    ctx["dora_indicators"] = tuple(indicators[:n_dora])
    if ctx.get("riichi") or ctx.get("double_riichi"):
        ctx["ura_dora_indicators"] = tuple(indicators[n_dora:])
    return WinContext(**ctx).validate()
