"""Draw legal winning hands (MCR or riichi) from the engine's own types, with melds, kongs and flowers.

The hand is built as four sets and a pair on a count array that never exceeds four copies, some sets are declared as
melds, one concealed tile becomes the winning tile, and the result must pass ``Hand.validate`` and have at least one
arrangement in :func:`engine.decompose.arrangements`, so every hand the generator shows is one the scorer accepts.
Seven pairs (no melds) appear too.
"""

from __future__ import annotations

import numpy as np

from engine.decompose import arrangements
from engine.hand import Discarder, Hand, Meld, MeldType, WinContext, WINDS
from engine.tiles import ALL_FACES, ALL_KINDS, KIND_COUNT, Tile

DISCARDERS = (Discarder.LEFT, Discarder.ACROSS, Discarder.RIGHT)
FLOWERS = ALL_FACES[KIND_COUNT:]

# Which meld a pung-shaped set becomes, and how often: kongs are rarer in play but must be common enough to learn.
PUNG_MELD_TYPES = (MeldType.PUNG, MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG)
PUNG_MELD_WEIGHTS = np.array([0.34, 0.22, 0.22, 0.22])
MELD_COUNT_WEIGHTS = np.array([0.16, 0.24, 0.26, 0.2, 0.14])  # 0..4 melds


def _pick(rng: np.random.Generator, items, weights=None):
    return items[int(rng.choice(len(items), p=None if weights is None else weights / np.sum(weights)))]


def _random_set(rng: np.random.Generator, counts: list[int], as_pung: bool) -> tuple[str, int] | None:
    for _ in range(30):
        if as_pung:
            kind = int(rng.integers(KIND_COUNT))
            if counts[kind] + 3 <= 4:
                counts[kind] += 3
                return "pung", kind
        else:
            suit, start = int(rng.integers(3)), int(rng.integers(7))
            first = suit * 9 + start
            if all(counts[first + i] < 4 for i in range(3)):
                for i in range(3):
                    counts[first + i] += 1
                return "chow", first
    return None


def checked_meld_weights(weights=None) -> np.ndarray:
    """How an exposed set of three alike is laid (pung, kong, added kong, concealed kong): ``weights`` checked, or
    PUNG_MELD_WEIGHTS when None. Raises ValueError unless four non-negative weights, not all zero."""
    if weights is None:
        return PUNG_MELD_WEIGHTS
    array = np.asarray(weights, float)
    if array.shape != (4,) or (array < 0).any() or array.sum() <= 0:
        raise ValueError(f"pung_meld_weights must be four non-negative weights, not all zero: {weights!r}")
    return array


def sample_hand(rng: np.random.Generator, rules: str = "mcr", with_flowers: bool = True,
                meld_count: int | None = None, pung_meld_weights=None) -> tuple[Hand, WinContext]:
    """A random legal winning hand and a context that agrees with it. ``pung_meld_weights``: how an exposed set of
    three alike is laid (pung, kong, added kong, concealed kong; default PUNG_MELD_WEIGHTS)."""
    weights = checked_meld_weights(pung_meld_weights)
    for _ in range(100):
        hand = _try_hand(rng, rules, with_flowers, meld_count, weights)
        if hand is None:
            continue
        try:
            hand.validate()
        except Exception:
            continue
        if next(iter(arrangements(hand)), None) is None:
            continue
        context = _sample_context(rng, rules, hand)
        return hand, context
    raise RuntimeError("could not draw a winning hand")  # never seen in practice: each try succeeds >90%


def _try_hand(rng: np.random.Generator, rules: str, with_flowers: bool, meld_count: int | None,
              weights: np.ndarray = PUNG_MELD_WEIGHTS) -> Hand | None:
    counts = [0] * KIND_COUNT
    flowers: tuple[Tile, ...] = ()
    if with_flowers and rules == "mcr" and rng.random() < 0.6:
        n = int(rng.choice([1, 1, 2, 2, 3, 4, 5, 8]))
        flowers = tuple(FLOWERS[i] for i in sorted(rng.choice(8, size=n, replace=False).tolist()))
    n_melds = int(rng.choice(5, p=MELD_COUNT_WEIGHTS)) if meld_count is None else meld_count
    if n_melds == 0 and rng.random() < 0.12:  # seven pairs
        kinds = rng.choice(KIND_COUNT, size=7, replace=False)
        tiles = [ALL_KINDS[int(k)] for k in kinds for _ in range(2)]
        win_at = int(rng.integers(14))
        winning = tiles.pop(win_at)
        return Hand(concealed=tuple(tiles), winning_tile=winning, flowers=flowers)
    sets = []
    for _ in range(4):
        s = _random_set(rng, counts, as_pung=rng.random() < 0.55)
        if s is None:
            return None
        sets.append(s)
    pair = int(rng.integers(KIND_COUNT))
    if counts[pair] + 2 > 4:
        return None
    counts[pair] += 2
    melds: list[Meld] = []
    standing: list[Tile] = [ALL_KINDS[pair]] * 2
    meld_slots = set(rng.choice(4, size=n_melds, replace=False).tolist())
    for i, (shape, first) in enumerate(sets):
        tiles = [ALL_KINDS[first]] * 3 if shape == "pung" else [ALL_KINDS[first + j] for j in range(3)]
        if i not in meld_slots:
            standing.extend(tiles)
            continue
        if shape == "chow":
            melds.append(Meld(MeldType.CHOW, tuple(tiles), Discarder.LEFT, claimed=tiles[int(rng.integers(3))]))
            continue
        meld_type = _pick(rng, PUNG_MELD_TYPES, weights)
        if meld_type.is_kong:
            if counts[first] + 1 > 4:
                meld_type = MeldType.PUNG
            else:
                counts[first] += 1
                tiles = tiles + [tiles[0]]
        discarder = None if meld_type is MeldType.CONCEALED_KONG else _pick(rng, DISCARDERS)
        melds.append(Meld(meld_type, tuple(tiles), discarder))
    winning = standing.pop(int(rng.integers(len(standing))))
    return Hand(concealed=tuple(standing), melds=tuple(melds), winning_tile=winning, flowers=flowers)


def _sample_context(rng: np.random.Generator, rules: str, hand: Hand) -> WinContext:
    has_kong = any(m.is_kong for m in hand.melds)
    self_drawn = bool(rng.random() < 0.4)
    kwargs = dict(rules=rules, self_drawn=self_drawn, seat_wind=_pick(rng, WINDS), round_wind=_pick(rng, WINDS[:2]),
                  kong_replacement=bool(self_drawn and has_kong and rng.random() < 0.3))
    if rules == "riichi":
        kwargs["riichi"] = bool(hand.is_concealed and rng.random() < 0.6)
        counts = hand.counts()  # the indicator is a physical tile too: never a fifth copy
        free = [k for k in range(KIND_COUNT) if counts[k] < 4]
        kwargs["dora_indicators"] = (ALL_KINDS[free[int(rng.integers(len(free)))]],)
    context = WinContext(**kwargs)
    for candidate in (context, WinContext(rules=rules, self_drawn=self_drawn)):
        try:
            candidate.validate()
            candidate.check_against(hand)
            return candidate
        except Exception:
            continue
    return WinContext(rules=rules)
