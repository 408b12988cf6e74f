"""Chinese Official (MCR, 81 fans) scoring: ``score(hand, context) -> MCRResult``.

Baseline WMO 2006/2014, the Chinese text [002] governing; every choice where the seeds are silent or disagree is a
row ``M*`` of ``docs/policy.md``. Standard library only.

Every arrangement of the hand (``engine.decompose.arrangements``) is scored (``evaluate``) and the one with the most
points is kept (principle 4, "take the higher" [002:369]). Flowers add 1 point each after the win is established and
do not count towards the 8-point minimum [002:336].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ..decompose import (_MELD_GROUP_KIND, KNITTED_PATTERNS, Arrangement, Group, GroupKind, Shape, _knitted_straight,
                         arrangements)
from ..errors import HandError
from ..hand import Hand, WinContext
from ..tiles import Tile, format_tiles
from .evaluate import WHOLE_HAND, HandFacts, Scored, evaluate
from .exclusions import EXCLUDES
from .fans import FAN_BY_ID, FAN_ID_BY_ZH, FANS, POINTS, Fan

__all__ = ["FANS", "FAN_BY_ID", "FAN_ID_BY_ZH", "POINTS", "EXCLUDES", "Fan", "MCRResult", "ScoredFan", "score", "scorings",
           "hand_arrangements", "MINIMUM"]

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
                "sets": [format_tiles(s) for s in self.sets], "what": self.fan.what}


class MCRResult:
    """The score of a hand: the chosen arrangement, its fans (with the sets that make them) and the totals.

    ``fans`` (with their explanations) is built on first use; ``fan_ids`` and the totals are there at once."""

    __slots__ = ("fan_points", "flowers", "self_drawn", "arrangement", "_scored", "_flower_tiles", "_fans")

    def __init__(self, scored: Scored, arrangement: Arrangement, flower_tiles: tuple[Tile, ...], self_drawn: bool):
        self._scored = scored
        self.arrangement = arrangement
        self._flower_tiles = flower_tiles
        self.flowers = len(flower_tiles)  # 花牌 count = points
        self.fan_points = scored.total  # flowers excluded: what the 8-point minimum is checked against
        self.self_drawn = self_drawn
        self._fans: tuple[ScoredFan, ...] | None = None

    @property
    def fans(self) -> tuple[ScoredFan, ...]:
        """Every fan scored, highest first, each with the sets that make it; 花牌 last when there are flowers."""
        if self._fans is None:
            arrangement = self.arrangement
            fans = [ScoredFan(FAN_BY_ID[fan], count, _sets(parts, arrangement))
                    for fan, (count, parts) in self._scored.fans.items()]
            if self.flowers:
                fans.append(ScoredFan(FAN_BY_ID["flower_tiles"], self.flowers, (self._flower_tiles,)))
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
        ids = {fan: entry[0] for fan, entry in self._scored.fans.items()}
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
            "policy": "WMO 2006/2014, Chinese text governs; choices: docs/policy.md rows M1-M28",
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
            "text": " ".join(format_tiles(g.tiles) + ("*" if g.is_exposed else "") for g in arrangement.groups)}


def check_context(hand: Hand, context: WinContext) -> None:
    """MCR-specific contradictions between the hand and the context (beyond ``WinContext.check_against``)."""
    if context.last_tile:
        held = sum(1 for t in hand.concealed if t.index == hand.winning_tile.index)
        if held:
            raise HandError("contradictory_context",
                            f"last_tile (和绝张) needs the other three {hand.winning_tile} visible on the table, but the"
                            f" winner holds {held} in the concealed hand")


def score(hand: Hand, context: WinContext) -> MCRResult:
    """Score a validated hand. Raises ``HandError('not_winning')`` when no arrangement exists."""
    check_context(hand, context)
    facts = HandFacts(hand, context)
    best = None
    best_key = None
    readings = hand_arrangements(hand, facts.standing)
    if len(readings) == 1:
        arrangement = readings[0]
        scored = evaluate(arrangement, facts)
    else:
        shared: dict = {}
        for arrangement in readings:
            scored = evaluate(arrangement, facts, shared)
            key = (scored.total, _tie_key(scored))
            if best_key is None or key > best_key:
                best, best_key = (scored, arrangement), key
        if best is None:
            raise HandError("not_winning", f"the tiles do not form a legal winning shape: {hand.format()!r}")
        scored, arrangement = best
    return MCRResult(scored, arrangement, hand.flowers, context.self_drawn)


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


_PLACEHOLDER = Group(GroupKind.PUNG, 0)


@lru_cache(maxsize=65536)
def _standing_arrangements(standing: tuple[int, ...], winning: int, melds: int) -> tuple[tuple, ...]:
    """``arrangements_of_counts`` for these standing counts, as (shape code, standing group codes, winning group
    index), in the same order: the four-sets-and-a-pair readings come from per-suit tables
    (``_standard_readings``), the irregular shapes only when the counts allow one.

    Only small ints are cached (``_GROUP_BY_CODE``, ``_SHAPE_BY_CODE`` turn them back into groups and shapes): the
    garbage collector stops tracking tuples of ints, so a cache that grows with new hands does not make its full
    collections longer or more frequent."""
    out = _standard_readings(standing, winning)
    if melds > 1:
        return out
    # Whether an irregular shape is possible at all (the tests of arrangements_of_counts, as quick C-level scans):
    # seven pairs (all even), 全不靠 (no count above 1), thirteen orphans (all 13 present), or a knitted straight
    # (its nine number kinds present: at least 9 number kinds held).
    possible = melds == 0 and ((1 not in standing and 3 not in standing)
                               or (2 not in standing and 3 not in standing and 4 not in standing)
                               or 0 not in _orphan_counts(standing))
    if not possible and standing[:27].count(0) <= 18:
        for pattern in KNITTED_PATTERNS:
            if all(standing[i] for i in pattern):
                possible = True
                break
    if not possible:
        return out
    extra = []
    if melds == 0:
        # Seven pairs, thirteen orphans, 全不靠 (as in arrangements_of_counts, straight to codes).
        if 1 not in standing and 3 not in standing:
            codes = tuple([_PAIR_CODE + i for i in range(34) for _ in range(standing[i] // 2)])
            extra += _placed(_SEVEN_PAIRS_CODE, codes, winning)
        orphans = _orphan_counts(standing)
        if 0 not in orphans and sum(orphans) == 14:
            codes = tuple([(_PAIR_CODE if standing[i] == 2 else _SINGLE_CODE) + i for i in _ORPHANS])
            extra += _placed(_THIRTEEN_ORPHANS_CODE, codes, winning)
        if 2 not in standing and 3 not in standing and 4 not in standing:
            numbers = {i for i in range(27) if standing[i]}
            for pattern in KNITTED_PATTERNS:
                if numbers <= set(pattern):
                    codes = tuple([_SINGLE_CODE + i for i in range(34) if standing[i]])
                    extra += _placed(_HONOURS_KNITTED_CODE, codes, winning)
                    break
    if standing[:27].count(0) <= 18:  # a knitted straight needs 9 number kinds (rare: engine.decompose's code)
        for a in _knitted_straight(list(standing), winning, (_PLACEHOLDER,) * melds):
            extra.append((_SHAPE_CODE[a.shape], tuple([_KIND_CODE[g.kind] + g.first
                                                       for g in a.groups[:len(a.groups) - melds]]), a.winning_group))
    return out + tuple(extra)


def _placed(shape: int, codes: tuple[int, ...], winning: int) -> list[tuple]:
    """``engine.decompose._placements`` on codes: one reading per distinct group that can hold the winning tile."""
    out = []
    seen = []
    holders = _HOLDERS[winning]
    for i, code in enumerate(codes):
        if code in holders and code not in seen:
            seen.append(code)
            out.append((shape, codes, i))
    return out


def _standard_readings(standing: tuple[int, ...], winning: int) -> tuple:
    """The four-sets-and-a-pair part of ``arrangements_of_counts`` (``standard_partitions`` and the placements of
    the winning tile). Sets never cross suits, so the partitions are the product of each suit's own ways to split
    (cached by the suit's counts), suit 0 varying slowest as in the leftmost-tile recursion; the pair lies in the one
    suit holding 2 mod 3 tiles, or is the one honour pair."""
    honours = standing[27:]
    if 1 in honours or 4 in honours:
        return ()
    honour_pair = honours.count(2)
    if honour_pair > 1:
        return ()
    honour_pair = 27 + honours.index(2) if honour_pair else -1
    tail = tuple([_PUNG_CODE + 27 + k for k in range(7) if honours[k] == 3]) if 3 in honours else ()
    blocks = (standing[0:9], standing[9:18], standing[18:27])
    rests = [sum(b) % 3 for b in blocks]
    if honour_pair >= 0:
        if any(rests):
            return ()
        heads = ((_PAIR_CODE + honour_pair, (_suit_sets(blocks[0], 0), _suit_sets(blocks[1], 9),
                                             _suit_sets(blocks[2], 18))),)
    else:
        if sorted(rests) != [0, 0, 2]:
            return ()
        suit = rests.index(2)
        heads = []
        ways = [_suit_sets(blocks[0], 0), _suit_sets(blocks[1], 9), _suit_sets(blocks[2], 18)]
        for pair, pair_ways in _suit_pair_ways(blocks[suit], suit * 9):
            ways[suit] = pair_ways
            heads.append((pair, tuple(ways)))
    holders = _HOLDERS[winning]  # the groups that can hold the winning tile
    out = []
    for pair, (w0, w1, w2) in heads:
        if not (w0 and w1 and w2):
            continue
        for a in w0:
            for b in w1:
                for c in w2:
                    codes = (pair,) + a + b + c + tail
                    seen = []
                    i = -1
                    for code in codes:
                        i += 1
                        if code in holders and code not in seen:
                            seen.append(code)
                            out.append((_STANDARD_CODE, codes, i))
    return tuple(out)


@lru_cache(maxsize=None)
def _suit_pair_ways(block: tuple[int, ...], base: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """The suit that holds the pair: for each pair (in rank order), its code and the suit's splits without it."""
    out = []
    work = list(block)
    for r in range(9):
        if work[r] >= 2:
            work[r] -= 2
            out.append((_PAIR_CODE + base + r, _suit_sets(tuple(work), base)))
            work[r] += 2
    return tuple(out)


@lru_cache(maxsize=None)
def _suit_sets(block: tuple[int, ...], base: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split one suit's counts into chows and pungs (the leftmost tile always in the first set), as
    group codes, in the order of ``engine.decompose._sets_only``; () when there is none. ``base`` is the suit's
    first kind index."""
    first = next((r for r in range(9) if block[r]), None)
    if first is None:
        return ((),)
    out = []
    work = list(block)
    if work[first] >= 3:
        work[first] -= 3
        for rest in _suit_sets(tuple(work), base):
            out.append((_PUNG_CODE + base + first,) + rest)
        work[first] += 3
    if first <= 6 and work[first + 1] and work[first + 2]:
        work[first] -= 1
        work[first + 1] -= 1
        work[first + 2] -= 1
        for rest in _suit_sets(tuple(work), base):
            out.append((_CHOW_CODE + base + first,) + rest)
    return tuple(out)


# Standing groups as small ints: kind code + first kind index (one shared Group instance each), and the kinds each
# covers (whether it can hold the winning tile).
_KINDS = (GroupKind.CHOW, GroupKind.PUNG, GroupKind.PAIR, GroupKind.KNITTED, GroupKind.SINGLE, GroupKind.KONG)
_KIND_CODE = {kind: 34 * k for k, kind in enumerate(_KINDS)}
_CHOW_CODE, _PUNG_CODE, _PAIR_CODE = _KIND_CODE[GroupKind.CHOW], _KIND_CODE[GroupKind.PUNG], _KIND_CODE[GroupKind.PAIR]
_GROUP_BY_CODE = [Group(kind, first) for kind in _KINDS for first in range(34)]
_COVERS = [frozenset(i for i in g.indices if i < 34) for g in _GROUP_BY_CODE]
_HOLDERS = [frozenset(code for code in range(len(_COVERS)) if w in _COVERS[code]) for w in range(34)]
_SHAPE_BY_CODE = tuple(Shape)
_SHAPE_CODE = {shape: k for k, shape in enumerate(_SHAPE_BY_CODE)}
_STANDARD_CODE = _SHAPE_CODE[Shape.STANDARD]
_SEVEN_PAIRS_CODE = _SHAPE_CODE[Shape.SEVEN_PAIRS]
_THIRTEEN_ORPHANS_CODE = _SHAPE_CODE[Shape.THIRTEEN_ORPHANS]
_HONOURS_KNITTED_CODE = _SHAPE_CODE[Shape.HONOURS_KNITTED]
_SINGLE_CODE = _KIND_CODE[GroupKind.SINGLE]
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_orphan_counts = itemgetter(*_ORPHANS)


def _tie_key(scored: Scored) -> tuple[bool, ...]:
    """Among arrangements with the same total (all equally correct, principle 4), report the wait as 边张 before
    坎张 before 单调将, the order in which a referee reads the winning tile's place."""
    fans = scored.fans
    return ("edge_wait" in fans, "closed_wait" in fans, "single_wait" in fans)


def scorings(hand: Hand, context: WinContext) -> list[tuple[Scored, Arrangement]]:
    """Every arrangement with its evaluation (for explanations and tests); empty when the hand is not winning."""
    facts = HandFacts(hand, context)
    return [(evaluate(a, facts), a) for a in arrangements(hand)]


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
