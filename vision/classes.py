"""Class lists shared by the models, the synthetic data and the importers.

The recogniser names tiles by their interfaces.md code. Model class ``k`` (0..41) is the face with
``engine.Tile`` index ``k``: 1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f. ``FACE_DOWN`` (42) is a tile showing its back.
"""

from __future__ import annotations

from engine.tiles import ALL_FACES

FACE_CODES: tuple[str, ...] = tuple(str(t) for t in ALL_FACES)  # 42 codes, model class order
FACE_DOWN = len(FACE_CODES)  # 42
CLASS_NAMES: tuple[str, ...] = FACE_CODES + ("back",)
# Faces that look much alike turned half round (MCR's 推不倒 set): their up/down labels are less often right, so the
# reader weighs them less in the photo's turn (``reading.geometry.REVERSIBLE_WEIGHT``).
REVERSIBLE_CLASSES: frozenset[int] = frozenset(k for k, tile in enumerate(ALL_FACES) if tile.is_reversible)

# shared/data/hk-photos/data.yaml class names -> our codes. b = bonus (bs season, bf flower), s = suit
# (c characters, d dots, b bamboo), h = honour (w wind e/s/w/n, d dragon w/g/r).
_HK_SUITS = {"c": "m", "d": "p", "b": "s"}
_HK_HONOURS = {"we": "1z", "ws": "2z", "ww": "3z", "wn": "4z", "dw": "5z", "dg": "6z", "dr": "7z"}


def hk_name_to_code(name: str) -> str:
    """``'sc1'`` → ``'1m'``, ``'hdr'`` → ``'7z'``, ``'bf1'`` → ``'1f'`` (plum), ``'bs1'`` → ``'5f'`` (spring)."""
    kind, rest = name[0], name[1:]
    if kind == "s":
        return rest[1] + _HK_SUITS[rest[0]]
    if kind == "h":
        return _HK_HONOURS[rest]
    if kind == "b":
        number = int(rest[1])
        return f"{number if rest[0] == 'f' else number + 4}f"
    raise ValueError(f"unknown hk-photos class name {name!r}")


# Art file stems in shared/art/<style>/faces/ -> our codes.
ART_STEMS: dict[str, str] = {
    **{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
    "E": "1z", "S": "2z", "W": "3z", "N": "4z", "Wh": "5z", "Gr": "6z", "Rd": "7z",
    "F1plum": "1f", "F2orchid": "2f", "F3chrys": "3f", "F4bamboo": "4f",
    "S1spring": "5f", "S2summer": "6f", "S3autumn": "7f", "S4winter": "8f",
}
