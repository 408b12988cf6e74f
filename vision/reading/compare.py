"""Comparing a read hand with the truth."""

from __future__ import annotations

from collections import Counter

from engine.hand import Hand, Meld


def _meld_key(meld: Meld) -> tuple:
    return (meld.type.value, tuple(str(t) for t in meld.tiles), meld.discarder.value if meld.discarder else "",
            str(meld.claimed) if meld.claimed is not None else "")


def same_hand(a: Hand | None, b: Hand | None) -> bool:
    """Same concealed tiles, winning tile, flowers, and the same melds as a multiset (type, tiles, from, claimed).

    (``engine.hand.hands_equal_ignoring_order`` sorts melds by type, tiles and from only, so two equal chows with
    different claimed tiles can compare unequal in one order and equal in another.)
    """
    if a is None or b is None:
        return False
    return (a.concealed == b.concealed and a.winning_tile == b.winning_tile and a.flowers == b.flowers
            and Counter(map(_meld_key, a.melds)) == Counter(map(_meld_key, b.melds)))
