"""Chinese Official (MCR, 81 fans) scoring: ``score(hand, context) -> MCRResult``.

Baseline WMO 2006/2014, the Chinese text [002] governing; every choice where the seeds are silent or disagree is a
row ``M*`` of ``docs/policy.md``. Standard library only.

Every arrangement of the hand (``engine.decompose.arrangements``) is scored and the one with the most points is kept
(principle 4, "take the higher" [002:369]). Flowers add 1 point each after the win is established and do not count
towards the 8-point minimum [002:336].

``score`` works on ints (``engine.mcr.fast``: the fans and total of every arrangement, and the one kept); the
reference evaluation (``evaluate``, which ``scorings`` runs on every arrangement) gives the same fans and is run once,
on the chosen arrangement, when the fans' explanations are asked for (``MCRResult.fans``, ``to_json``). Where
``make setup`` could compile ``fast.py`` with Cython (``engine.mcr.build_fast``), the compiled module scores, built
from this very ``fast.py`` and giving the same answers about 1.3 times faster; else ``fast.py`` itself
(``engine.mcr.compiled``).
"""

from __future__ import annotations

from ..decompose import _MELD_GROUP_KIND, Arrangement, Group, arrangements
from ..hand import Hand, WinContext
from .compiled import load as _load_fast
from .evaluate import HandFacts, Scored, evaluate
from .exclusions import EXCLUDES
from .fans import FAN_BY_ID, FAN_ID_BY_ZH, FANS, POINTS, Fan
from .readings import _GROUP_BY_CODE, _SHAPE_BY_CODE, _standing_arrangements  # noqa: F401 (tests use them here)
from .result import (BASE, MINIMUM, MCRResult, ScoredFan, arrangement_json,  # noqa: F401 (importable from here as
                     check_context)  # before)

# The module that scores: fast.py compiled by Cython where `make setup` could build it from this very fast.py, else
# fast.py itself (engine.mcr.compiled); FAST_IMPLEMENTATION says which, for benchmarks and the health check.
FAST, FAST_IMPLEMENTATION = _load_fast()
best_reading, score = FAST.best_reading, FAST.score  # (best_reading: importable from here as before)

__all__ = ["FANS", "FAN_BY_ID", "FAN_ID_BY_ZH", "POINTS", "EXCLUDES", "Fan", "MCRResult", "ScoredFan", "score", "scorings",
           "hand_arrangements", "MINIMUM"]


def hand_arrangements(hand: Hand, standing: list[int]) -> list[Arrangement]:
    """``engine.decompose.arrangements(hand)``, with the standing part cached by its counts: the partition of the
    standing tiles depends only on their counts, the winning tile and how many melds there are."""
    melds = hand.melds
    meld_groups = tuple([Group(_MELD_GROUP_KIND[m.type], m.tiles[0].index, m) for m in melds])
    group_of = _GROUP_BY_CODE.__getitem__
    readings = _standing_arrangements(tuple(standing), hand.winning_tile.index, len(melds))
    if len(readings) == 1:
        shape, codes, winning_group = readings[0]
        return [Arrangement(_SHAPE_BY_CODE[shape], tuple(map(group_of, codes)) + meld_groups, winning_group)]
    # Placements of the winning tile in one partition share its codes, and so share one groups tuple (evaluate's
    # ``shared`` memo recognises them by it).
    out = []
    groups = last = None
    for shape, codes, winning_group in readings:
        if codes is not last:
            groups = tuple(map(group_of, codes)) + meld_groups
            last = codes
        out.append(Arrangement(_SHAPE_BY_CODE[shape], groups, winning_group))
    return out


def _tie_key(scored: Scored) -> tuple[bool, ...]:
    """Among arrangements with the same total (all equally correct, principle 4), report the wait as 边张 before
    坎张 before 单调将, the order in which a referee reads the winning tile's place."""
    fans = scored.fans
    return ("edge_wait" in fans, "closed_wait" in fans, "single_wait" in fans)


def scorings(hand: Hand, context: WinContext) -> list[tuple[Scored, Arrangement]]:
    """Every arrangement with its evaluation (for explanations and tests); empty when the hand is not winning."""
    facts = HandFacts(hand, context)
    return [(evaluate(a, facts), a) for a in arrangements(hand)]
