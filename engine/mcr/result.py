"""The result of ``engine.mcr.score``: ``MCRResult`` (the chosen arrangement, its fans with the sets that make them,
the totals) and what builds its explanations.

Its own module, below ``engine.mcr.fast`` (which makes the results, so that a new hand costs one Python call, not
two: ``fast.score``), above ``evaluate`` and ``readings`` (which explain them).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any

from ..decompose import _MELD_GROUP_KIND, Arrangement, Group
from ..errors import HandError
from ..hand import Hand, WinContext
from ..tiles import Tile, format_tiles
from .evaluate import WHOLE_HAND, HandFacts, Scored, evaluate
from .fans import FAN_BY_ID, FANS, Fan
from .readings import _GROUP_BY_CODE, _SHAPE_BY_CODE

MINIMUM = 8  # points needed to win, flowers excluded [002:130,336]
BASE = 8  # 底分: what every non-winner pays [002:350-360]

# Output order: highest points first, then the table order.
_ORDER = {fan.id: (-fan.points, fan.number) for fan in FANS}


@dataclass(frozen=True, slots=True)
class ScoredFan:
    fan: Fan
    count: int
    sets: tuple[tuple[Tile, ...], ...]  # the tiles that make it, one tuple per set (or the whole hand)

    @property
    def points(self) -> int:
        return self.fan.points * self.count

    def to_json(self) -> dict[str, Any]:
        return {"id": self.fan.id, "name": self.fan.name, "name_zh": self.fan.name_zh, "name_ja": self.fan.name_ja,
                "points": self.fan.points, "count": self.count, "total": self.points,
                "sets": [_formatted(s) for s in self.sets], "what": self.fan.what}


class MCRResult:
    """The score of a hand: the chosen arrangement, its fans (with the sets that make them) and the totals.

    ``fan_ids`` and the totals are there at once (``engine.mcr.fast``); the ``arrangement`` object and ``fans``
    with their explanations are built on first use, by ``evaluate`` on the chosen reading."""

    __slots__ = ("fan_points", "_hand", "_context", "_reading", "_kept", "_unique_wait", "_arrangement",
                 "_scored_cache", "_fans")

    # No ``__init__``: ``fast.score`` makes it with ``MCRResult()`` and sets the slots itself (a call through an
    # ``__init__`` cost more than the stores): ``_hand``, ``_context``, ``_reading`` (the fast path's summary of the
    # standing groups, ``engine.mcr.fast``), ``_kept`` (the (fan id, count) pairs kept), ``_unique_wait`` (None when
    # the fast path did not need it), ``fan_points`` (flowers excluded: what the 8-point minimum is checked
    # against). _arrangement, _scored_cache and _fans are set on first use (an unset slot reads as AttributeError).

    @property
    def flowers(self) -> int:
        """花牌: the number of flowers, each 1 point."""
        return len(self._hand.flowers)

    @property
    def self_drawn(self) -> bool:
        return self._context.self_drawn

    @property
    def arrangement(self) -> Arrangement:
        """The arrangement scored: the chosen reading's standing groups, then the melds in hand order."""
        try:
            return self._arrangement
        except AttributeError:
            shape, pieces, winning_group = self._reading[:3]  # the group codes in pieces (``fast._codes``)
            melds = tuple([Group(_MELD_GROUP_KIND[m.type], m.tiles[0].index, m) for m in self._hand.melds])
            self._arrangement = Arrangement(_SHAPE_BY_CODE[shape],
                                            tuple(map(_GROUP_BY_CODE.__getitem__, chain.from_iterable(pieces)))
                                            + melds, winning_group)
        return self._arrangement

    @property
    def _scored(self) -> Scored:
        """The reference evaluation of the chosen arrangement: the same fans, with the sets that make them."""
        try:
            return self._scored_cache
        except AttributeError:
            facts = HandFacts(self._hand, self._context)
            if self._unique_wait is not None:
                facts._unique_wait = self._unique_wait  # the same answer, worked out once
            self._scored_cache = evaluate(self.arrangement, facts)
        return self._scored_cache

    @property
    def fans(self) -> tuple[ScoredFan, ...]:
        """Every fan scored, highest first, each with the sets that make it; 花牌 last when there are flowers."""
        try:
            return self._fans
        except AttributeError:
            arrangement = self.arrangement
            fans = [ScoredFan(FAN_BY_ID[fan], count, _sets(parts, arrangement))
                    for fan, (count, parts) in self._scored.fans.items()]
            if self.flowers:
                fans.append(ScoredFan(FAN_BY_ID["flower_tiles"], self.flowers, (self._hand.flowers,)))
            fans.sort(key=lambda f: _ORDER[f.fan.id])
            self._fans = tuple(fans)
        return self._fans

    def __repr__(self) -> str:
        return f"MCRResult(total={self.total}, fans={self.fan_ids}, arrangement={self.arrangement})"

    @property
    def total(self) -> int:
        return self.fan_points + self.flowers

    @property
    def meets_minimum(self) -> bool:
        return self.fan_points >= MINIMUM

    @property
    def fan_ids(self) -> dict[str, int]:
        """fan id -> count, flowers included as ``flower_tiles``."""
        ids = dict(self._kept)
        if self.flowers:
            ids["flower_tiles"] = self.flowers
        return ids

    def payments(self) -> dict[str, Any]:
        """Self-drawn: each of the three others pays 8 + total; on a discard the discarder pays 8 + total and the two
        others 8 each [002:359-360]. Flowers count in the total here (they are added once the win stands)."""
        if self.self_drawn:
            each = BASE + self.total
            return {"self_drawn": True, "from_each": each, "winner_receives": 3 * each}
        return {"self_drawn": False, "from_discarder": BASE + self.total, "from_each_other": BASE,
                "winner_receives": BASE + self.total + 2 * BASE}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "total": self.total,
            "fan_points": self.fan_points,
            "fans": [f.to_json() for f in self.fans],
            "meets_minimum": self.meets_minimum,
            "minimum": MINIMUM,
            "flowers": self.flowers,
            "payments": self.payments(),
            "arrangement": arrangement_json(self.arrangement),
            "policy": "WMO 2006/2014, Chinese text governs; choices: docs/policy.md rows M1-M31",
        }
        if not self.meets_minimum:
            out["warnings"] = [f"the fans total {self.fan_points} points (flowers excluded), below the minimum of "
                               f"{MINIMUM}: not a legal win (a false win pays 10 to each player) [002:404]"]
        return out


def arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    groups = []
    for i, g in enumerate(arrangement.groups):
        item: dict[str, Any] = {"kind": g.kind.value, "tiles": [str(t) for t in g.tiles]}
        if g.meld is not None:
            item["meld"] = g.meld.type.value
        item["exposed"] = g.is_exposed
        if i == arrangement.winning_group:
            item["winning"] = True
        groups.append(item)
    return {"shape": arrangement.shape.value, "groups": groups,
            "text": " ".join(_formatted(g.tiles) + ("*" if g.is_exposed else "") for g in arrangement.groups)}


_FORMATTED: dict[tuple[Tile, ...], str] = {}


def _formatted(tiles: tuple[Tile, ...]) -> str:
    """``format_tiles``, kept for the tile tuples the explanations repeat (groups, whole hands)."""
    text = _FORMATTED.get(tiles)
    if text is None:
        if len(_FORMATTED) >= 1 << 14:
            _FORMATTED.clear()  # bounded memory in a long-running service
        text = _FORMATTED[tiles] = format_tiles(tiles)
    return text


def check_context(hand: Hand, context: WinContext) -> None:
    """MCR-specific contradictions between the hand and the context (beyond ``WinContext.check_against``)."""
    if context.last_tile:
        held = sum(1 for t in hand.concealed if t.index == hand.winning_tile.index)
        if held:
            raise HandError("contradictory_context",
                            f"last_tile (和绝张) needs the other three {hand.winning_tile} visible on the table, but the"
                            f" winner holds {held} in the concealed hand")



def _sets(entries, arrangement: Arrangement) -> tuple[tuple[Tile, ...], ...]:
    """Explanation parts (groups, tile tuples, or the whole hand) as one tuple of tiles per set."""
    out: list[tuple[Tile, ...]] = []
    for parts in entries:
        for part in parts:
            if part == WHOLE_HAND:
                out.extend(g.tiles for g in arrangement.groups)
            elif isinstance(part, Group):
                out.append(part.tiles)
            else:
                out.append(part)
    return tuple(out)
