"""Melds, hands and win contexts: value types with JSON and compact-string round trips, and validation.

The JSON shapes are the contract of ``shared/spec/interfaces.md``. The compact hand string is this project's own,
used in reprs, tests and logs, and reads back exactly::

    1234m55p c34*5s< p777z^ k9999p> a2222s< x1111z +4p 16f
    └concealed┘ └chow┘ └pung┘ └kong┘ └added┘ └conc.┘ └win┘└flowers┘

Meld tokens start with a type letter (``c`` chow, ``p`` pung, ``k`` kong, ``a`` added kong, ``x`` concealed kong),
then the tiles in MPSZ form, then who discarded the claimed tile: ``<`` left, ``^`` across, ``>`` right (none for a
concealed kong). In a chow a ``*`` after a digit marks the claimed tile. ``+`` marks the winning tile; a token made
only of flowers lists the flowers.
"""

from __future__ import annotations

import enum
import re
import reprlib
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Mapping

from .errors import HandError
from .tiles import KIND_COUNT, Tile, format_tiles, parse_tiles


class MeldType(str, enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # melded kong from a discard (大明杠 / daiminkan)
    ADDED_KONG = "added_kong"  # a self-drawn tile added to an exposed pung (加杠 / shouminkan)
    CONCEALED_KONG = "concealed_kong"  # 暗杠 / ankan

    @property
    def size(self) -> int:
        return 3 if self in (MeldType.CHOW, MeldType.PUNG) else 4

    @property
    def is_kong(self) -> bool:
        return self.size == 4

    @property
    def letter(self) -> str:
        return _MELD_LETTERS[self]


_MELD_LETTERS = {MeldType.CHOW: "c", MeldType.PUNG: "p", MeldType.KONG: "k", MeldType.ADDED_KONG: "a",
                 MeldType.CONCEALED_KONG: "x"}
_MELD_BY_LETTER = {v: k for k, v in _MELD_LETTERS.items()}


class Discarder(str, enum.Enum):
    """Who discarded a claimed tile, seen from the winner (interfaces.md ``from``)."""

    LEFT = "left"  # 上家 / kamicha: the sideways tile sits at the left end
    ACROSS = "across"  # 对家 / toimen: the sideways tile sits in the middle
    RIGHT = "right"  # 下家 / shimocha: the sideways tile sits at the right end

    @property
    def mark(self) -> str:
        return _DISCARDER_MARKS[self]


_DISCARDER_MARKS = {Discarder.LEFT: "<", Discarder.ACROSS: "^", Discarder.RIGHT: ">"}
_DISCARDER_BY_MARK = {v: k for k, v in _DISCARDER_MARKS.items()}

WINDS = ("E", "S", "W", "N")


def _enum_value(enum_type, value, code: str, what: str):
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in enum_type)
        raise HandError(code, f"unknown {what} {value!r} (expected one of {allowed})") from None


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) set. ``tiles`` are kept sorted; ``claimed`` is the claimed tile, if known."""

    type: MeldType
    tiles: tuple[Tile, ...]
    discarder: Discarder | None = None
    claimed: Tile | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", _enum_value(MeldType, self.type, "invalid_meld", "meld type"))
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))
        if self.discarder is not None:
            object.__setattr__(self, "discarder",
                               _enum_value(Discarder, self.discarder, "invalid_meld_source", "meld 'from'"))
        elif self.type is MeldType.CHOW:
            # A chow comes only from the left (M23), so one written without 'from' is that same meld: it compares
            # equal to it and its JSON carries the 'from' interfaces.md gives every claimed meld.
            object.__setattr__(self, "discarder", Discarder.LEFT)
        if isinstance(self.claimed, Tile) and self.claimed not in self.tiles:
            # A red five is "a 5 of that suit for every other purpose" (interfaces.md): a claimed 5s names the
            # meld's 0s, which it then is (the meld keeps the colour its tiles show).
            same = [t for t in self.tiles if isinstance(t, Tile) and t.kind is self.claimed.kind]
            if same:
                object.__setattr__(self, "claimed", same[0])

    # --- properties ---------------------------------------------------------------------------------------------
    @property
    def is_kong(self) -> bool:
        return self.type.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand concealed."""
        return self.type is MeldType.CONCEALED_KONG

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    # --- validation ---------------------------------------------------------------------------------------------
    def validate(self) -> None:
        text = self.format()
        if len(self.tiles) != self.type.size:
            raise HandError("invalid_meld", f"a {self.type.value} has {self.type.size} tiles, not {len(self.tiles)}: {text!r}")
        if any(t.is_flower for t in self.tiles):
            raise HandError("flower_in_hand", f"a flower cannot be part of a meld: {text!r}")
        kinds = [t.index for t in self.tiles]
        if self.type is MeldType.CHOW:
            if not self.tiles[0].is_number or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2] \
                    or self.tiles[0].number > 7:
                raise HandError("invalid_chow", f"a chow must be three consecutive tiles of one suit: {text!r}")
            if self.discarder not in (None, Discarder.LEFT):
                raise HandError("invalid_meld_source",
                                f"a chow can only be claimed from the player on the left, not {self.discarder.value!r}: {text!r}")
        elif len(set(kinds)) != 1:
            raise HandError("unequal_meld_tiles", f"a {self.type.value} must be identical tiles: {text!r}")
        if self.type is MeldType.CONCEALED_KONG:
            if self.discarder is not None:
                raise HandError("invalid_meld_source", f"a concealed kong has no 'from': {text!r}")
            if self.claimed is not None:
                raise HandError("invalid_meld_source", f"a concealed kong has no claimed tile: {text!r}")
        elif self.discarder is None and self.type is not MeldType.CHOW:
            # A chow can only come from the left [000:225; 002:125], so its 'from' may be left out.
            raise HandError("invalid_meld_source", f"an exposed {self.type.value} needs 'from' (left, across or right): {text!r}")
        if self.claimed is not None and self.claimed not in self.tiles:
            raise HandError("claimed_not_in_meld", f"claimed tile {str(self.claimed)!r} is not in the meld {text!r}")

    # --- JSON ---------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value, "tiles": [str(t) for t in self.tiles]}
        if self.discarder is not None:
            out["from"] = self.discarder.value
        if self.claimed is not None:
            out["claimed"] = str(self.claimed)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Meld":
        if not isinstance(data, Mapping):
            raise HandError("invalid_hand_json", f"a meld must be an object, not {data!r}")
        unknown = set(data) - {"type", "tiles", "from", "claimed"}
        if unknown:
            raise HandError("invalid_hand_json", f"unknown meld field(s) {sorted(unknown)} in {dict(data)!r}")
        if "type" not in data or "tiles" not in data:
            raise HandError("invalid_hand_json", f"a meld needs 'type' and 'tiles': {dict(data)!r}")
        # JSON of the wrong type (5, null, ["chow"]) is no type or seat at all: a shape error, as a tile code's is
        # (claimed: 5 was invalid_hand_json beside type: 5 as invalid_meld and from: 5 as invalid_meld_source)
        for name in ("type", "from"):
            if (name == "type" or data.get(name) is not None) and not isinstance(data.get(name), str):
                raise HandError("invalid_hand_json", f"{name!r}: a meld's {name} must be a string, not "
                                                     f"{data.get(name)!r}")
        claimed = data.get("claimed")
        return cls(type=data["type"], tiles=tuple(parse_tiles(data["tiles"], "tiles")),
                   discarder=data.get("from"), claimed=Tile.parse(claimed, "claimed") if claimed is not None else None)

    # --- compact string -----------------------------------------------------------------------------------------
    def format(self) -> str:
        if self.claimed is not None:
            # MPSZ with a '*' after the claimed tile's digit; runs of one suit share the letter, so that even a
            # meld of mixed suits (invalid, but quoted in its error) keeps its claimed tile in the string.
            out: list[str] = []
            marked = False
            for i, t in enumerate(self.tiles):
                if i and t.suit != self.tiles[i - 1].suit:
                    out.append(self.tiles[i - 1].suit)
                out.append(t.code[0])
                if t is self.claimed and not marked:
                    out.append("*")
                    marked = True
            body = "".join(out) + self.tiles[-1].suit if self.tiles else ""
        else:
            body = format_tiles(self.tiles)
        return self.type.letter + body + (self.discarder.mark if self.discarder else "")

    __str__ = format

    @classmethod
    def parse(cls, text: str) -> "Meld":
        """Read a meld token such as ``c34*5s<``, ``p777z^``, ``x1111z``."""
        match = _MELD_TOKEN.fullmatch(text.strip())
        if not match:
            raise HandError("invalid_meld", f"cannot read meld {text!r}")
        letter, body, mark = match.groups()
        tiles = tuple(parse_tiles(body.replace("*", "")))
        claimed = None
        if "*" in body:
            # One '*', right after the claimed tile's digit ("c34*5s"): a second star, or one with no digit before
            # it, would otherwise mark some other tile (or none) without a word.
            star = body.index("*")
            suit = re.search(r"[mpsz]", body[star:])
            if body.count("*") > 1 or star == 0 or not body[star - 1].isdigit() or suit is None:
                raise HandError("invalid_meld", f"'*' marks one claimed tile, right after its digit: {text!r}")
            claimed = Tile.parse(body[star - 1] + suit.group())  # the suit of the star's own digit run
        return cls(type=_MELD_BY_LETTER[letter], tiles=tiles,
                   discarder=_DISCARDER_BY_MARK[mark] if mark else None, claimed=claimed)

    def __repr__(self) -> str:
        return f"Meld.parse({self.format()!r})"


_MELD_TOKEN = re.compile(r"([cpkax])([0-9*mpsz]+)([<^>]?)")


@dataclass(frozen=True)
class Hand:
    """A winning hand: ``concealed`` (without the winning tile), ``melds``, ``winning_tile`` and ``flowers``."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    winning_tile: Tile | None = None
    flowers: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "flowers", tuple(sorted(self.flowers)))

    # --- derived ------------------------------------------------------------------------------------------------
    @property
    def is_concealed(self) -> bool:
        """No claimed melds (concealed kongs allowed): 门前清 / menzen."""
        return all(m.is_concealed for m in self.melds)

    @property
    def full_concealed(self) -> tuple[Tile, ...]:
        """The concealed tiles plus the winning tile (14 - 3 x melds tiles)."""
        return tuple(sorted(self.concealed + (self.winning_tile,)))

    def all_tiles(self) -> list[Tile]:
        """Every playing tile: concealed, winning tile, melds (kongs with four). No flowers."""
        tiles = list(self.concealed)
        if self.winning_tile is not None:
            tiles.append(self.winning_tile)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def counts(self) -> list[int]:
        counts = [0] * KIND_COUNT
        for t in self.all_tiles():
            counts[t.index] += 1
        return counts

    # --- validation ---------------------------------------------------------------------------------------------
    def validate(self) -> "Hand":
        """Check counts, copies, melds and flowers; return ``self`` so calls chain. Raises :class:`HandError`."""
        text = self.format()
        if self.winning_tile is None:
            raise HandError("wrong_tile_count", f"the hand has no winning tile: {text!r}")
        for meld in self.melds:
            meld.validate()
        if len(self.melds) > 4:
            raise HandError("wrong_tile_count", f"at most 4 melds, not {len(self.melds)}: {text!r}")
        if any(t.is_flower for t in self.concealed) or self.winning_tile.is_flower:
            raise HandError("flower_in_hand", f"flowers are shown apart, never in the concealed part or as the winning tile: {text!r}")
        bad_flowers = [str(t) for t in self.flowers if not t.is_flower]
        if bad_flowers:
            raise HandError("flower_in_hand", f"'flowers' holds non-flower tiles {bad_flowers}: {text!r}")
        if len(set(self.flowers)) != len(self.flowers):
            raise HandError("duplicate_flower", f"each flower exists once: {text!r}")
        expected = 13 - 3 * len(self.melds)
        if len(self.concealed) != expected:
            raise HandError("wrong_tile_count",
                            f"with {len(self.melds)} meld(s) the concealed part holds {expected} tiles plus the winning tile,"
                            f" not {len(self.concealed)}: {text!r}", expected=expected, found=len(self.concealed))
        counts = self.counts()
        over = [str(Tile.from_index(i)) for i, n in enumerate(counts) if n > 4]
        if over:
            raise HandError("too_many_copies", f"more than four copies of {', '.join(over)}: {text!r}", tiles=over)
        reds = [t for t in self.all_tiles() if t.red]
        if len(reds) != len(set(reds)):
            raise HandError("too_many_copies", f"each red five exists once: {text!r}")
        return self

    # --- JSON ---------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "concealed": [str(t) for t in self.concealed],
            "melds": [m.to_json() for m in self.melds],
            "winning_tile": str(self.winning_tile) if self.winning_tile is not None else None,
            "flowers": [str(t) for t in self.flowers],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Hand":
        """Read the interfaces.md hand. A concealed list that already holds the winning tile loses one copy of it."""
        if not isinstance(data, Mapping):
            raise HandError("invalid_hand_json", f"a hand must be an object, not {data!r}")
        unknown = set(data) - HAND_FIELDS
        if unknown:
            raise HandError("invalid_hand_json", f"unknown hand field(s) {sorted(unknown)}")
        if "concealed" not in data:
            raise HandError("invalid_hand_json", "a hand needs 'concealed'")
        concealed = parse_tiles(data["concealed"], "concealed")
        melds_data = data.get("melds")
        if melds_data is None:
            melds_data = []
        if not isinstance(melds_data, (list, tuple)):  # {} or 0 is no list of melds, not "no melds"
            raise HandError("invalid_hand_json", f"'melds' must be a list, not {melds_data!r}")
        melds = tuple(Meld.from_json(m) for m in melds_data)
        winning = data.get("winning_tile")
        winning_tile = Tile.parse(winning, "winning_tile") if winning is not None else None
        flowers = parse_tiles(data["flowers"], "flowers") if data.get("flowers") is not None else []
        if winning_tile is not None and len(concealed) == 14 - 3 * len(melds):
            # The list shows the tiles as they lie, so the copy taken out keeps its colour: a 5p named as the winning
            # tile of a list holding only 0p is that red five ("a 5 of that suit for every other purpose",
            # interfaces.md); the same face is taken first.
            same = [i for i, t in enumerate(concealed) if t is winning_tile] \
                or [i for i, t in enumerate(concealed) if t.kind is winning_tile.kind]
            if same:
                winning_tile = concealed.pop(same[0])
            else:
                raise HandError("winning_tile_not_in_hand",
                                f"the concealed list has {len(concealed)} tiles, so it should include the winning tile"
                                f" {winning!r}, but it does not")
        return cls(concealed=tuple(concealed), melds=melds, winning_tile=winning_tile, flowers=tuple(flowers))

    # --- compact string -----------------------------------------------------------------------------------------
    def format(self) -> str:
        parts = [format_tiles(self.concealed)] if self.concealed else []
        parts += [m.format() for m in self.melds]
        if self.winning_tile is not None:
            parts.append("+" + str(self.winning_tile))
        if self.flowers:
            parts.append(format_tiles(self.flowers))
        return " ".join(parts)

    __str__ = format

    @classmethod
    def parse(cls, text: str) -> "Hand":
        """Read the compact hand string (see the module docstring)."""
        if not isinstance(text, str):
            raise HandError("invalid_hand_json", f"a hand string must be a string, not {text!r}")
        concealed: list[Tile] = []
        melds: list[Meld] = []
        winning = None
        flowers: list[Tile] = []
        for token in text.split():
            if token[0] in _MELD_BY_LETTER:
                melds.append(Meld.parse(token))
            elif token[0] == "+":
                if winning is not None:
                    raise HandError("wrong_tile_count", f"two winning tiles in {text!r}")
                try:
                    winning = Tile.parse(token[1:])
                except HandError:  # say which token: "+" alone would be quoted as ''
                    raise HandError("unknown_tile", f"cannot read the winning tile {token!r} in {text!r}") from None
            else:
                tiles = parse_tiles(token)
                if tiles and all(t.is_flower for t in tiles):
                    flowers.extend(tiles)
                else:
                    concealed.extend(tiles)
        return cls(concealed=tuple(concealed), melds=tuple(melds), winning_tile=winning, flowers=tuple(flowers))

    def __repr__(self) -> str:
        return f"Hand.parse({self.format()!r})"


HAND_FIELDS = {"concealed", "melds", "winning_tile", "flowers"}

BLESSINGS = ("heaven", "earth", "human")
RIICHI_OPTIONS = ("aka_dora", "ura_dora", "kan_dora", "ippatsu", "kuitan", "double_yakuman", "kazoe_yakuman", "kiriage")


# The most honba or riichi sticks a context may count (real tables see a handful).
MAX_COUNTER = 1000


@dataclass(frozen=True)
class WinContext:
    """How the hand was won (interfaces.md "Win context"). Riichi-only fields are ignored by MCR."""

    rules: str = "mcr"
    self_drawn: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"
    last_tile: bool = False
    last_wall_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    # riichi
    ruleset: str = "zendanshin"
    options: Mapping[str, bool] = field(default_factory=dict)
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    blessing: str | None = None
    dora_indicators: tuple[Tile, ...] = ()
    ura_dora_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    # riichi pao (包 / sekinin barai): who fed the meld that made a liable yakuman, seen from the winner
    # ("left" / "across" / "right"); None when nobody is liable. An extension of interfaces.md.
    pao: str | None = None

    def __hash__(self) -> int:
        # Frozen, so a value (a cache key beside its Hand); the generated hash failed on the ``options`` dict.
        return hash(tuple(frozenset(self.options.items()) if f.name == "options" else getattr(self, f.name)
                          for f in fields(self)))

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "E"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("dora_indicators", "ura_dora_indicators"):
                value = [str(t) for t in value]
            elif f.name == "options":
                value = dict(value)
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "WinContext":
        if not isinstance(data, Mapping):
            raise HandError("invalid_hand_json", f"a context must be an object, not {data!r}")
        unknown = set(data) - CONTEXT_FIELDS
        if unknown:
            raise HandError("invalid_hand_json", f"unknown context field(s) {sorted(unknown)}")
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data or data[f.name] is None and f.name != "blessing":
                continue
            value = data[f.name]
            if f.name in ("dora_indicators", "ura_dora_indicators"):
                try:
                    value = tuple(parse_tiles(value, f.name))
                except HandError as error:
                    if error.code != "invalid_hand_json":
                        raise  # a string that is no code stays unknown_tile
                    # a context value of the wrong JSON type, as a boolean or honba of one is: invalid_context
                    raise HandError("invalid_context", error.message) from None
            elif f.name in _BOOL_FIELDS:
                if not isinstance(value, bool):
                    raise HandError("invalid_context", f"{f.name!r} must be true or false, not {value!r}")
            elif f.name in ("honba", "riichi_sticks"):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise HandError("invalid_context", f"{f.name!r} must be an integer, not {value!r}")
            elif f.name == "options":
                if not isinstance(value, Mapping):
                    raise HandError("invalid_context", f"'options' must be an object, not {value!r}")
                # a known option sent as null is not given (the ruleset's value), as a null field is, and as the
                # service reads it; an unknown one stays, to be refused as unknown (session 56's review)
                value = {k: v for k, v in value.items() if v is not None or k not in RIICHI_OPTIONS}
            elif f.name in ("rules", "ruleset", "seat_wind", "round_wind", "pao") and not isinstance(value, str):
                raise HandError("invalid_context", f"{f.name!r} must be a string, not {value!r}")
            kwargs[f.name] = value
        for wind_field in ("seat_wind", "round_wind"):
            if wind_field in kwargs:
                kwargs[wind_field] = _normalise_wind(kwargs[wind_field], wind_field)
        return cls(**kwargs)

    def validate(self) -> "WinContext":
        """Reject unknown values and flags that cannot all be true. Returns ``self``."""
        if self.rules not in ("mcr", "riichi"):
            raise HandError("unknown_rules", f"unknown rules {self.rules!r} (expected 'mcr' or 'riichi')")
        for wind_field in ("seat_wind", "round_wind"):
            if getattr(self, wind_field) not in WINDS:
                raise HandError("invalid_context", f"{wind_field} must be one of E S W N, not {getattr(self, wind_field)!r}")
        if self.robbing_kong and self.self_drawn:
            raise HandError("contradictory_context", "robbing a kong is a win on another player's tile, so it cannot be self-drawn")
        if self.kong_replacement and not self.self_drawn:
            raise HandError("contradictory_context", "a win on a kong replacement tile is self-drawn")
        if self.kong_replacement and self.robbing_kong:
            raise HandError("contradictory_context", "a win cannot be both on a kong replacement and by robbing a kong")
        if self.robbing_kong and self.last_wall_tile:
            # The last wall tile leaves no replacement, so no kong can be declared on it, and so none robbed.
            raise HandError("contradictory_context", "a kong cannot be robbed on the last tile of the wall")
        if self.kong_replacement and self.last_wall_tile and self.rules == "riichi":
            raise HandError("contradictory_context", "riichi: a rinshan tile is never the haitei tile")
        if self.honba < 0 or self.riichi_sticks < 0:
            raise HandError("invalid_context", f"honba and riichi_sticks cannot be negative ({self.honba}, {self.riichi_sticks})")
        for counter in ("honba", "riichi_sticks"):
            if getattr(self, counter) > MAX_COUNTER:
                # 300 points a honba: a huge count makes a payment no client can hold (nor Python print past 4300 digits)
                raise HandError("invalid_context", f"{counter} is at most {MAX_COUNTER}, not {reprlib.repr(getattr(self, counter))}")
        if self.rules == "riichi":
            if self.ruleset not in ("zendanshin", "modern"):
                raise HandError("unknown_rules", f"unknown riichi ruleset {self.ruleset!r} (expected 'zendanshin' or 'modern')")
            bad = sorted(set(self.options) - set(RIICHI_OPTIONS))
            if bad:
                raise HandError("unknown_rules", f"unknown riichi option(s) {bad} (known: {', '.join(RIICHI_OPTIONS)})")
            for name, value in self.options.items():
                if not isinstance(value, bool):
                    raise HandError("invalid_context", f"option {name!r} must be true or false, not {value!r}")
            if self.ippatsu and not (self.riichi or self.double_riichi):
                raise HandError("contradictory_context", "ippatsu needs riichi")
            if self.ippatsu and self.kong_replacement:
                # R27: any kong ends ippatsu, the winner's own concealed kong too, and a rinshan win follows the
                # winner's own kong (the spec is silent; prevailing practice)
                raise HandError("contradictory_context", "ippatsu ends with any kong, the winner's own too: a win on"
                                " a kong replacement tile is never ippatsu")
            if self.riichi and self.double_riichi:
                # Both may be sent by clients that treat double riichi as a kind of riichi: accept, it is not a contradiction.
                pass
            if self.blessing is not None:
                if self.blessing not in BLESSINGS:
                    raise HandError("invalid_context", f"blessing must be one of {BLESSINGS}, not {self.blessing!r}")
                if self.blessing == "heaven" and not (self.self_drawn and self.is_dealer):
                    raise HandError("contradictory_context", "tenhou (heaven) is the dealer's self-drawn win")
                if self.blessing == "earth" and not (self.self_drawn and not self.is_dealer):
                    raise HandError("contradictory_context", "chiihou (earth) is a non-dealer's self-drawn win")
                if self.blessing == "human" and (self.self_drawn or self.is_dealer):
                    raise HandError("contradictory_context", "renhou (human) is a non-dealer's win on a discard")
                if self.riichi or self.double_riichi:
                    raise HandError("contradictory_context", "a blessing win comes before any riichi")
                if self.robbing_kong or self.last_wall_tile:
                    # first go-around, no call or kong before it [001:169,173-174]: never 海底/河底, nor a robbed kong
                    raise HandError("contradictory_context",
                                    "a blessing win comes in the first go-around with no kong before it: never on the"
                                    " last tile or by robbing a kong")
            if self.pao is not None and self.pao not in ("left", "across", "right"):
                raise HandError("invalid_context", f"pao must be 'left', 'across' or 'right', not {self.pao!r}")
            if len(self.dora_indicators) > 5 or len(self.ura_dora_indicators) > 5:
                raise HandError("invalid_context", "at most 5 dora indicators")
            if any(t.is_flower for t in self.dora_indicators + self.ura_dora_indicators):
                raise HandError("flower_in_hand", "riichi uses no flowers, so none can indicate dora")
            # the indicators alone may hold more of a kind than exist (5p x5 over the two lists): refused here too, so
            # that /v1/score says so before any photo is read, not only once a hand is read beside them
            shown = Counter(t.index for t in self.dora_indicators + self.ura_dora_indicators)
            over = [str(Tile.from_index(i)) for i in sorted(shown) if shown[i] > 4]
            if over:
                raise HandError("contradictory_context", f"more than four copies of {', '.join(over)} among the dora "
                                                         "indicators", tiles=over)
            reds = [t for t in self.dora_indicators + self.ura_dora_indicators if t.red]
            if len(reds) != len(set(reds)):
                raise HandError("contradictory_context", "each red five exists once, counting the dora indicators")
        return self

    def check_against(self, hand: Hand) -> None:
        """Reject contexts that the hand contradicts (kong replacement with no kong, riichi with open melds, ...)."""
        if self.kong_replacement and not any(m.is_kong for m in hand.melds):
            raise HandError("contradictory_context", "a win on a kong replacement tile needs a kong in the hand")
        if self.rules == "riichi":
            # flowers are not used in riichi (interfaces.md): the scorer leaves them out, with a note
            if (self.riichi or self.double_riichi) and not hand.is_concealed:
                raise HandError("contradictory_context", "riichi needs a concealed hand (only concealed kongs allowed)")
            if self.blessing is not None and hand.melds:
                raise HandError("contradictory_context", "a blessing win has no melds")
            self._check_indicators_against(hand)
        if self.robbing_kong:
            # The robbed tile is the fourth copy added to another player's pung: the winner cannot hold more than 0
            # others, or together with that pung there would be five.
            held = sum(1 for t in hand.all_tiles() if t.index == hand.winning_tile.index)
            if self.rules == "riichi":  # a dora indicator is a copy turned up in the dead wall
                held += sum(1 for t in self.dora_indicators + self.ura_dora_indicators
                            if t.index == hand.winning_tile.index)
            if held > 1:
                raise HandError("contradictory_context",
                                f"robbing a kong of {hand.winning_tile}: the other player's pung holds three, "
                                f"so neither the winner nor a dora indicator can hold another copy (found {held - 1})")

    def _check_indicators_against(self, hand: Hand) -> None:
        """The dora indicators are tiles of the same set, turned up in the dead wall: with the hand's they make at
        most four of a kind and one of each red five."""
        indicators = self.dora_indicators + self.ura_dora_indicators
        if not indicators:
            return
        held = Counter(t.index for t in hand.all_tiles())
        shown = Counter(t.index for t in indicators)
        over = [str(Tile.from_index(i)) for i in sorted(shown) if held[i] + shown[i] > 4]
        if over:
            raise HandError("contradictory_context",
                            f"more than four copies of {', '.join(over)} counting the hand and the dora indicators",
                            tiles=over)
        reds = [t for t in hand.all_tiles() if t.red] + [t for t in indicators if t.red]
        if len(reds) != len(set(reds)):
            raise HandError("contradictory_context", "each red five exists once, counting the hand and the dora "
                                                     "indicators")


_BOOL_FIELDS = {"self_drawn", "last_tile", "last_wall_tile", "kong_replacement", "robbing_kong", "riichi",
                "double_riichi", "ippatsu"}
CONTEXT_FIELDS = {f.name for f in fields(WinContext)}

_WIND_ALIASES = {"e": "E", "s": "S", "w": "W", "n": "N", "east": "E", "south": "S", "west": "W", "north": "N",
                 "1z": "E", "2z": "S", "3z": "W", "4z": "N"}


def _normalise_wind(value: str, what: str) -> str:
    wind = _WIND_ALIASES.get(value.strip().lower())
    if wind is None:
        raise HandError("invalid_context", f"{what} must be one of E S W N, not {value!r}")
    return wind


def _context_value(key: str, value: Any) -> Any:
    """A context field's value as ``WinContext`` reads it (winds by their letter, indicators as tiles), or the value
    as sent where it does not read (the request then fails on it, or on the clash)."""
    try:
        return getattr(WinContext.from_json({key: value}), key)
    except HandError:
        return value


def read_request(data: Mapping[str, Any]) -> tuple[Hand, WinContext]:
    """Read a scoring request, nested ``{"hand": ..., "context": ...}`` or flat, and validate both.

    Fields the engine needs but the hand JSON lacks are looked for in the context and vice versa (the rulebook
    example file keeps ``self_drawn`` beside the hand).
    """
    if not isinstance(data, Mapping):
        raise HandError("invalid_hand_json", f"a request must be a JSON object, not {type(data).__name__}")
    if "hand" in data:
        unknown = set(data) - {"hand", "context"}
        if unknown:
            raise HandError("invalid_hand_json", f"unknown request field(s) {sorted(unknown)}")
        hand_data = data["hand"]
        context_data = data.get("context")
        if context_data is None:  # null is no context; [], false, 0 or "" is no context object either (as 'melds')
            context_data = {}
        if not isinstance(hand_data, Mapping) or not isinstance(context_data, Mapping):
            raise HandError("invalid_hand_json", "'hand' and 'context' must be objects")
        # Tolerate context fields sitting in the hand object (as in the rulebook example file).
        stray = {k: v for k, v in hand_data.items() if k in CONTEXT_FIELDS and k not in HAND_FIELDS}
        # A field in both that reads alike ("E" and "east", "5p" and ["5p"]) is the same field sent twice; null is a
        # field not given, on either side.
        clash = sorted(k for k in stray if context_data.get(k) is not None and stray[k] is not None
                       and _context_value(k, context_data[k]) != _context_value(k, stray[k]))
        if clash:  # the context's value silently won: which was meant is the client's to say
            key = clash[0]
            raise HandError("contradictory_context", f"{key!r} is {reprlib.repr(stray[key])} in 'hand' but "
                                                     f"{reprlib.repr(context_data[key])} in 'context'; send it once",
                            key=key)
        hand_data = {k: v for k, v in hand_data.items() if k not in stray}
        context_data = {**stray, **{k: v for k, v in context_data.items() if v is not None or k not in stray}}
    else:
        if "context" in data:  # the nested form without its 'hand' ({"Hand": ...}): 'context' is no unknown field
            raise HandError("invalid_hand_json", f"a request with 'context' needs 'hand' beside it (its fields: "
                                                 f"{sorted(data)})")
        unknown = set(data) - HAND_FIELDS - CONTEXT_FIELDS
        if unknown:
            raise HandError("invalid_hand_json", f"unknown field(s) {sorted(unknown)}")
        hand_data = {k: v for k, v in data.items() if k in HAND_FIELDS}
        context_data = {k: v for k, v in data.items() if k in CONTEXT_FIELDS}
    hand = Hand.from_json(hand_data).validate()
    context = WinContext.from_json(context_data).validate()
    context.check_against(hand)
    return hand, context


def hands_equal_ignoring_order(a: Hand, b: Hand) -> bool:
    """Two hands with the same tiles and melds, melds in any order (compared as multisets, so two equal chows
    with different claimed tiles are matched whatever their order)."""
    return (a.concealed == b.concealed and a.winning_tile == b.winning_tile and a.flowers == b.flowers
            and Counter(a.melds) == Counter(b.melds))


def iter_meld_tiles(melds: Iterable[Meld]) -> list[Tile]:
    return [t for m in melds for t in m.tiles]
