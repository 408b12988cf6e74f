"""Explanations: which groups and tiles make each yaku and fu line of the chosen arrangement.

Computed once, for the reading that was kept (never inside the scoring loop), so the scores cannot change. A yaku's
``sets`` are groups of the arrangement (one tile tuple per group, the compact MPSZ strings of MCR fans); its
``tiles`` are loose tiles that are not a group: the winning tile for the context yaku (riichi, tsumo, haitei, ...),
the dora tiles for dora. The two never overlap, so a client highlights ``sets`` + ``tiles`` as one multiset.
Red fives keep their ``0`` code: the winning tile goes to the winning group as it is, the other standing ones to the
standing groups in order, the melds keep their own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..decompose import GroupKind, Shape
from ..hand import Hand, MeldType
from ..tiles import ALL_KINDS, Tile, format_tiles
from .view import HandFacts, View

_CHOW, _PUNG, _PAIR, _SINGLE = GroupKind.CHOW, GroupKind.PUNG, GroupKind.PAIR, GroupKind.SINGLE


@dataclass(frozen=True, slots=True)
class Group:
    """One group of the arrangement: a standing group of the reading, or a meld."""

    kind: str  # "chow", "pung", "kong", "pair", "single"
    first: int  # tile index of its lowest tile
    tiles: tuple[Tile, ...]
    meld: str | None = None  # the meld type when the group is a meld
    exposed: bool = False
    concealed: bool = False  # for pungs and kongs: counts as concealed (a pung completed on a ron does not)
    winning: bool = False  # the group the winning tile completed

    @property
    def is_set(self) -> bool:
        return self.kind in ("pung", "kong")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": [str(t) for t in self.tiles]}
        if self.meld is not None:
            out["meld"] = self.meld
        out["exposed"] = self.exposed
        if self.is_set:
            out["concealed"] = self.concealed
        if self.winning:
            out["winning"] = True
        return out


_SIZES = {_CHOW: None, _PUNG: 3, _PAIR: 2, _SINGLE: 1}


def groups_of(hand: Hand, facts: HandFacts, view: View) -> tuple[Group, ...]:
    """The reading's standing groups (winning group marked), then the melds, with their real tiles.

    The winning group holds the winning tile itself (red or plain); the concealed red fives go to the groups in
    order, so a plain winning five never shows as the red one held beside it (nor the other way round)."""
    reds: dict[int, int] = {}
    for t in hand.concealed:
        if t.red:
            reds[t.index] = reds.get(t.index, 0) + 1
    win_tile = hand.winning_tile
    out: list[Group] = []
    marked = False
    for kind, first in view.groups:
        winning = not marked and (kind, first) == view.win
        marked = marked or winning
        indices = (first, first + 1, first + 2) if kind is _CHOW else (first,) * _SIZES[kind]
        tiles = []
        place_win = winning  # one slot of the winning group (a pung or pair of the winning kind has more)
        for i in indices:
            if place_win and i == win_tile.index:
                tiles.append(win_tile)
                place_win = False
            elif reds.get(i):
                reds[i] -= 1
                tiles.append(Tile(i, True))
            else:
                tiles.append(ALL_KINDS[i])
        if kind is not _CHOW:
            tiles.sort(key=lambda t: not t.red)  # a pung or pair shows its red five first ("055s")
        concealed = kind is _PUNG and (facts.tsumo or not winning)
        out.append(Group(kind.value, first, tuple(tiles), None, False, concealed, winning))
    for m in hand.melds:
        kind = "chow" if m.type is MeldType.CHOW else ("kong" if m.type.is_kong else "pung")
        out.append(Group(kind, m.tiles[0].index, tuple(m.tiles), m.type.value, not m.is_concealed,
                         kind != "chow" and m.is_concealed))
    return tuple(out)


def arrangement_json(view: View, groups: tuple[Group, ...]) -> dict[str, Any]:
    """The chosen reading as MCR's ``arrangement`` object, plus the pair and the winning group's index."""
    pair = next((g for g in groups if g.kind == "pair"), None) if view.shape is Shape.STANDARD else None
    winning = next((i for i, g in enumerate(groups) if g.winning), None)
    return {"shape": view.shape.value, "groups": [g.to_json() for g in groups],
            "pair": format_tiles(pair.tiles) if pair is not None else None,
            "winning_group": winning, "wait": view.wait,
            "text": " ".join(format_tiles(g.tiles) + ("*" if g.exposed else "") for g in groups)}


# --- yaku --------------------------------------------------------------------------------------------------------
_CONTEXT = frozenset({"riichi", "double_riichi", "ippatsu", "menzen_tsumo", "haitei", "houtei", "chankan", "rinshan",
                      "tenhou", "chiihou", "renhou"})
_WHOLE = frozenset({"pinfu", "tanyao", "honroutou", "chiitoitsu", "honitsu", "chinitsu", "chanta", "junchan",
                    "ryanpeikou", "tsuuiisou", "honour_seven_pairs", "ryuuiisou", "chinroutou", "kokushi",
                    "kokushi_13", "chuuren", "junsei_chuuren"})
_DRAGON = {"haku": 31, "hatsu": 32, "chun": 33}


def _same_start_three_suits(groups: list[Group]) -> list[Group]:
    for g in groups:
        if g.first < 9:
            two = next((h for h in groups if h.first == g.first + 9), None)
            three = next((h for h in groups if h.first == g.first + 18), None)
            if two is not None and three is not None:
                return [g, two, three]
    return []


def _identical_chows(chows: list[Group]) -> list[Group]:
    for i, g in enumerate(chows):
        for h in chows[i + 1:]:
            if h.first == g.first:
                return [g, h]
    return []


def _ittsu(chows: list[Group]) -> list[Group]:
    for base in (0, 9, 18):
        found = [next((g for g in chows if g.first == base + k), None) for k in (0, 3, 6)]
        if all(g is not None for g in found):
            return found  # type: ignore[return-value]
    return []


def yaku_sets(yaku_id: str, facts: HandFacts, groups: tuple[Group, ...]) -> tuple[list[Group], list[Tile]]:
    """(groups, loose tiles) that make ``yaku_id`` in this arrangement."""
    base = yaku_id.removesuffix("_double").removesuffix("_tanki")
    chows = [g for g in groups if g.kind == "chow"]
    sets = [g for g in groups if g.is_set]
    pair = [g for g in groups if g.kind == "pair"]
    if base in _CONTEXT:
        return [], [facts.hand.winning_tile]
    if base in _WHOLE:
        return list(groups), []
    if base in _DRAGON:
        return [g for g in sets if g.first == _DRAGON[base]][:1], []
    if base == "seat_wind":
        return [g for g in sets if g.first == facts.seat][:1], []
    if base == "round_wind":
        return [g for g in sets if g.first == facts.round][:1], []
    if base == "iipeikou":
        return _identical_chows(chows), []
    if base == "toitoi":
        return sets, []
    if base in ("sanankou", "suuankou"):
        concealed = [g for g in sets if g.concealed]
        return concealed + (pair if yaku_id == "suuankou_tanki" else []), []
    if base == "sanshoku_doukou":
        return _same_start_three_suits([g for g in sets if g.first < 27]), []
    if base == "sanshoku":
        return _same_start_three_suits(chows), []
    if base == "ittsu":
        return _ittsu(chows), []
    if base in ("shousangen", "daisangen"):
        return [g for g in sets + pair if g.first >= 31], []
    if base in ("sankantsu", "suukantsu"):
        return [g for g in sets if g.kind == "kong"], []
    if base in ("suushiihou", "shousuushi", "daisuushi"):
        return [g for g in sets + pair if 27 <= g.first <= 30], []
    return list(groups), []  # a row added later without its own rule: the whole hand


def dora_tiles(hand: Hand, kinds: list[int]) -> list[Tile]:
    """The hand's tiles of each dora kind, once per indicator that points at it (so one tile per han)."""
    every = hand.all_tiles()
    return [t for kind in kinds for t in every if t.index == kind]


# --- fu ----------------------------------------------------------------------------------------------------------
_SET_LINES = frozenset({"open_pung_simple", "concealed_pung_simple", "open_pung_terminal", "concealed_pung_terminal",
                        "open_kong_simple", "concealed_kong_simple", "open_kong_terminal", "concealed_kong_terminal"})
_PAIR_LINES = frozenset({"dragon_pair", "round_wind_pair", "seat_wind_pair", "double_wind_pair"})
_WAIT_LINES = frozenset({"penchan", "kanchan", "tanki"})


def explain_fu(lines, facts: HandFacts, view: View, groups: tuple[Group, ...]) -> list:
    """The fu lines with ``sets`` / ``tiles``: the pung or kong of each set line (in the order of ``view.set_info``:
    the melds' sets, then the standing pungs), the pair of a pair line, the winning group of a wait line, the
    winning tile of the tsumo / menzen ron lines, the seven pairs of the chiitoitsu line."""
    melds = [g for g in groups if g.meld is not None and g.is_set]
    standing = [g for g in groups if g.meld is None and g.is_set]
    queue = melds + standing
    pair = next((g for g in groups if g.kind == "pair"), None)
    winning = next((g for g in groups if g.winning), None)
    out = []
    for line in lines:
        if line.id in _SET_LINES and queue:
            line = replace(line, sets=(queue.pop(0).tiles,))
        elif line.id in _PAIR_LINES and pair is not None:
            line = replace(line, sets=(pair.tiles,))
        elif line.id in _WAIT_LINES and winning is not None:
            line = replace(line, sets=(winning.tiles,))
        elif line.id in ("tsumo", "menzen_ron"):
            line = replace(line, tiles=(facts.hand.winning_tile,))
        elif line.id == "chiitoitsu":
            line = replace(line, sets=tuple(g.tiles for g in groups))
        out.append(line)
    return out
