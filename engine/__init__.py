"""Mahjong scoring engine: tiles, hands, the shared decomposition, and the MCR and riichi scorers.

Standard library only. ``engine.score(request_json)`` scores one request (interfaces.md) with either rule family.
"""

from .decompose import Arrangement, Group, GroupKind, Shape, arrangements, is_winning_shape, winning_tiles
from .errors import ERROR_CODES, HandError
from .hand import Discarder, Hand, Meld, MeldType, WinContext, read_request
from .tiles import ALL_FACES, ALL_KINDS, Tile, format_tiles, parse_tiles, tile_counts
from .scoring import score, score_request

__all__ = [
    "ALL_FACES", "ALL_KINDS", "Arrangement", "Discarder", "ERROR_CODES", "Group", "GroupKind", "Hand", "HandError",
    "Meld", "MeldType", "Shape", "Tile", "WinContext", "arrangements", "format_tiles", "is_winning_shape",
    "parse_tiles", "read_request", "score", "score_request", "tile_counts", "winning_tiles",
]
