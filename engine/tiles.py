"""The tile value type and the compact MPSZ notation.

A :class:`Tile` is one of 42 faces (34 playing kinds plus 8 flowers/seasons), optionally a red five. Tiles are
interned: ``Tile.parse("5m") is Tile.parse("5m")``. Each has an ``index`` used by the engines' count arrays:

====== ========= =========================================
index  codes     tiles
====== ========= =========================================
0-8    1m..9m    characters (wan / man)
9-17   1p..9p    dots (tong / pin)
18-26  1s..9s    bamboo (tiao / sou)
27-33  1z..7z    East South West North White Green Red
34-41  1f..8f    plum orchid chrysanthemum bamboo, spring summer autumn winter
====== ========= =========================================

A red five (``0m``/``0p``/``0s``) has the index of its five and ``red=True``: it is a five for every purpose except
riichi aka dora. It compares equal only to itself; use :attr:`Tile.kind` to forget the colour.
"""

from __future__ import annotations

import operator
import re
from typing import Iterable, Iterator

from .errors import HandError

SUITS = "mpsz"
NUMBER_SUITS = "mps"
FLOWER_SUIT = "f"
KIND_COUNT = 34  # playing kinds; flowers are 34..41
FACE_COUNT = 42

# Letter aliases accepted on input (interfaces.md): P = white, F = green, C = red.
HONOUR_ALIASES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}
# Reversible tiles (推不倒) by identity: dots 1234589, bamboo 245689, White [mcr.md §1].
_REVERSIBLE = {"1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "5z"}
_GREEN = {"2s", "3s", "4s", "6s", "8s", "6z"}
_NAMES_EN = (
    [f"{n} Characters" for n in range(1, 10)]
    + [f"{n} Dots" for n in range(1, 10)]
    + [f"{n} Bamboo" for n in range(1, 10)]
    + ["East Wind", "South Wind", "West Wind", "North Wind", "White Dragon", "Green Dragon", "Red Dragon"]
    + ["Plum", "Orchid", "Chrysanthemum", "Bamboo (flower)", "Spring", "Summer", "Autumn", "Winter"]
)


class Tile:
    """One tile face. Build with :meth:`parse` or :meth:`from_index`; never mutate.

    >>> Tile.parse("5m")
    Tile.parse('5m')
    >>> str(Tile.parse("E"))
    '1z'
    >>> Tile.parse("0p").is_red, Tile.parse("0p").kind
    (True, Tile.parse('5p'))
    """

    __slots__ = ("index", "red", "suit", "number", "_code")

    index: int
    red: bool
    suit: str
    number: int

    def __new__(cls, index: int, red: bool = False) -> "Tile":  # interned: see _TABLE
        try:
            # An index is an integer (numpy's too); True or 4.0 would otherwise hash to a tile and pass as one.
            if isinstance(index, bool):
                raise TypeError
            return _TABLE[(operator.index(index), red)]
        except (KeyError, TypeError):
            raise HandError("unknown_tile", f"no tile with index {index!r}{' (red)' if red else ''}") from None

    @classmethod
    def _make(cls, index: int, red: bool) -> "Tile":
        tile = object.__new__(cls)
        if index < 27:
            suit, number = NUMBER_SUITS[index // 9], index % 9 + 1
        elif index < 34:
            suit, number = "z", index - 26
        else:
            suit, number = FLOWER_SUIT, index - 33
        object.__setattr__(tile, "index", index)
        object.__setattr__(tile, "red", red)
        object.__setattr__(tile, "suit", suit)
        object.__setattr__(tile, "number", number)
        object.__setattr__(tile, "_code", f"{0 if red else number}{suit}")
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self):  # pickle by value, unpickle to the interned instance
        return (Tile, (self.index, self.red))

    # --- construction -------------------------------------------------------------------------------------------
    @classmethod
    def from_index(cls, index: int) -> "Tile":
        return cls(index, False)

    @classmethod
    def parse(cls, code: str, what: str | None = None) -> "Tile":
        """Read one tile code (``"5m"``, ``"0s"``, ``"7z"``, ``"3f"``, or a letter honour ``E S W N P F C``).
        ``what`` names the field it came from, for the message of a value that is no string."""
        if not isinstance(code, str):
            # JSON of the wrong type (5, null, true) is no code at all, unknown or not: a shape error, as a meld
            # that is no object is (invalid_hand_json), not unknown_tile, which says the code was read and is wrong
            raise HandError("invalid_hand_json", f"{_field(what)}a tile code must be a string, not {code!r}")
        try:
            return _BY_CODE[code.strip()]
        except KeyError:
            raise HandError("unknown_tile", f"unknown tile code {code!r}") from None

    # --- formatting ---------------------------------------------------------------------------------------------
    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Tile.parse({self._code!r})"

    @property
    def code(self) -> str:
        return self._code

    @property
    def name(self) -> str:
        return ("Red " if self.red else "") + _NAMES_EN[self.index]

    # --- ordering and identity ----------------------------------------------------------------------------------
    def __lt__(self, other: "Tile") -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.index, self.red) < (other.index, other.red)

    def __le__(self, other: "Tile") -> bool:
        return self == other or self < other

    def __gt__(self, other: "Tile") -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return other < self

    def __ge__(self, other: "Tile") -> bool:
        return self == other or other < self

    # Interned, so identity equality and the default hash are correct and fast.

    @property
    def kind(self) -> "Tile":
        """The tile with the red colour forgotten (``0m`` → ``5m``)."""
        return _TABLE[(self.index, False)]

    # --- predicates ---------------------------------------------------------------------------------------------
    @property
    def is_red(self) -> bool:
        return self.red

    @property
    def is_number(self) -> bool:
        return self.index < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self.index < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self.index < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self.index < 34

    @property
    def is_terminal(self) -> bool:
        """1 or 9 of a suit."""
        return self.index < 27 and self.number in (1, 9)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self.is_terminal or self.is_honour

    @property
    def is_simple(self) -> bool:
        """2..8 of a suit."""
        return self.index < 27 and 2 <= self.number <= 8

    @property
    def is_flower(self) -> bool:
        """Any of the eight flowers and seasons."""
        return self.index >= 34

    @property
    def is_season(self) -> bool:
        return self.index >= 38

    @property
    def is_green(self) -> bool:
        """A tile of 绿一色 / ryuuiisou: 2 3 4 6 8 bamboo and the green dragon."""
        return self.kind._code in _GREEN

    @property
    def is_reversible(self) -> bool:
        """A tile of 推不倒 (Reversible Tiles), by identity."""
        return self.kind._code in _REVERSIBLE


_TABLE: dict[tuple[int, bool], Tile] = {}
for _i in range(FACE_COUNT):
    _TABLE[(_i, False)] = Tile._make(_i, False)
for _i in (4, 13, 22):
    _TABLE[(_i, True)] = Tile._make(_i, True)
_BY_CODE: dict[str, Tile] = {t._code: t for t in _TABLE.values()}
for _alias, _code in HONOUR_ALIASES.items():
    _BY_CODE[_alias] = _BY_CODE[_code]

ALL_KINDS: tuple[Tile, ...] = tuple(_TABLE[(i, False)] for i in range(KIND_COUNT))
ALL_FACES: tuple[Tile, ...] = tuple(_TABLE[(i, False)] for i in range(FACE_COUNT))
RED_FIVES: tuple[Tile, ...] = tuple(_TABLE[(i, True)] for i in (4, 13, 22))

_MPSZ_TOKEN = re.compile(r"\s*(?:([0-9]+)([mpszf])|([ESWNPFC]))")


def parse_tiles(text: str | Iterable[str], what: str | None = None) -> list[Tile]:
    """Read a tile list: an MPSZ string (``"123m456p11z"``, letter honours allowed) or a list of codes. ``what``
    names the field it came from, for the message of a value of the wrong JSON type (``invalid_hand_json``).

    >>> [str(t) for t in parse_tiles("19m E 1p")]
    ['1m', '9m', '1z', '1p']
    """
    if isinstance(text, str):
        tiles: list[Tile] = []
        pos = 0
        stripped = text.strip()
        while pos < len(stripped):
            match = _MPSZ_TOKEN.match(stripped, pos)
            if not match:
                raise HandError("unknown_tile", f"cannot read tiles {text!r} at position {pos}: {stripped[pos:pos + 8]!r}")
            digits, suit, letter = match.groups()
            if letter:
                tiles.append(_BY_CODE[letter])
            else:
                for digit in digits:
                    code = _BY_CODE.get(digit + suit)
                    if code is None:  # quote the input too: in "123m10z" the bad code '0z' was never typed alone
                        raise HandError("unknown_tile", f"unknown tile code {digit + suit!r} in {text!r}")
                    tiles.append(code)
            pos = match.end()
            while pos < len(stripped) and stripped[pos] in " ,":
                pos += 1
        return tiles
    if isinstance(text, (list, tuple)):
        for t in text:
            if not isinstance(t, (str, Tile)):  # quote the list too: a lone 7 does not say where it was
                raise HandError("invalid_hand_json",
                                f"{_field(what)}a tile code must be a string, not {t!r} (in {list(text)!r})")
        return [t if isinstance(t, Tile) else Tile.parse(t) for t in text]
    # a wrong JSON type, as in Tile.parse: invalid_hand_json
    raise HandError("invalid_hand_json", f"{_field(what)}a tile list must be an MPSZ string or a list of tile codes, "
                                         f"not {text!r}")


def _field(what: str | None) -> str:
    return f"{what!r}: " if what else ""


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in compact MPSZ form, keeping their order: runs of one suit share the suit letter.

    >>> format_tiles(parse_tiles("1m2m3m4p4p"))
    '123m44p'
    """
    out: list[str] = []
    run_suit = None
    digits: list[str] = []
    for tile in tiles:
        if tile.suit != run_suit and digits:
            out.append("".join(digits) + run_suit)
            digits = []
        run_suit = tile.suit
        digits.append(tile._code[0])
    if digits:
        out.append("".join(digits) + run_suit)
    return "".join(out)


def tile_counts(tiles: Iterable[Tile]) -> list[int]:
    """Counts per playing kind (length 34); red fives count as fives. Flowers are ignored."""
    counts = [0] * KIND_COUNT
    for tile in tiles:
        if tile.index < KIND_COUNT:
            counts[tile.index] += 1
    return counts


def iter_kinds(counts: list[int]) -> Iterator[Tile]:
    """The tiles of a count array, in order."""
    for index, n in enumerate(counts):
        for _ in range(n):
            yield ALL_KINDS[index]
