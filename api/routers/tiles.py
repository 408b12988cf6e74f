"""POST /v1/tiles/score: the referee corrected tiles on the photo; read the hand again from the corrected tiles and
score it. The tiles (boxes, rotations) carry the layout, so no photo is uploaded again and no model runs: a
correction can change the hand's structure (a chow becoming a pung) and this call gets it right.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request

from engine import Tile, parse_tiles

from ..errors import ApiError
from ..pipeline import validate_context
from ..responses import ERROR_RESPONSES, DocumentedAs, TilesScoreResponse
from ..schemas import TileIn, TilesScoreRequest, UniqueKeysRoute

router = APIRouter(prefix="/v1", tags=["hands"], route_class=UniqueKeysRoute)


@router.post("/tiles/score", responses=ERROR_RESPONSES, summary="Re-read and score a hand from corrected tiles")
async def score_tiles(request: Request,
                      body: TilesScoreRequest) -> Annotated[dict[str, Any], DocumentedAs(TilesScoreResponse)]:
    """Takes the `tiles`, `width` and `height` of a /v1/recognize answer (codes corrected as needed), the context
    and the overrides of /v1/score; returns `hand`, `warnings`, `tile_roles`, `alternatives` and `score` as
    /v1/score does. A tile sent as a red five (`0m`, `0p`, `0s`) stays red where it goes into the hand (and the
    alternatives' hands), and its `tile_roles` code says so; a winning tile named red makes the hand's red."""
    context = body.context.to_engine()
    validate_context(context)
    winning = str(Tile.parse(body.winning_tile)) if body.winning_tile else None
    kongs = [str(t) for t in parse_tiles(body.concealed_kong_tiles)] if body.concealed_kong_tiles else []
    tiles = []
    red = {}  # the reader reads 34 kinds: a tile sent as a red five is made red again in the hands read
    for i, tile in enumerate(body.tiles):
        x1, y1, x2, y2 = tile.box
        if not (x1 <= x2 and y1 <= y2):
            raise ApiError("invalid_request", f"tile {i}: box must be x1 <= x2 and y1 <= y2, not {tile.box}")
        if tile.rotation not in (0, 90, 180, 270):
            raise ApiError("invalid_request", f"tile {i}: rotation must be 0, 90, 180 or 270, not {tile.rotation}")
        code = None if tile.face_down or tile.code is None else Tile.parse(tile.code)
        if code is not None and code.red:
            red[i] = str(code)
        tiles.append((code.index if code is not None else None, tile.box, tile.rotation, tile.confidence,
                      tile.lifted, tile.sideways_probability, _recognisers_top(i, tile, code)))
    return await request.app.state.reader.read_tiles(tiles, (body.width, body.height), context,
                                                     winning_tile=winning, concealed_kong_tiles=kongs,
                                                     red_fives=red)


def _recognisers_top(i: int, tile: TileIn, code: Tile | None) -> list[tuple[int | None, float]] | None:
    """(face index or None for face down, probability) of the tile's ``top`` where the tile is the recogniser's reading
    sent back (its code is the list's first); None for a client's statement (no ``top``, a code the person changed, or
    a red five, which only a person marks), which the reading takes as sent."""
    if not tile.top or (code is not None and code.red):  # (a red five is only ever a person's mark: held)
        return None
    top = [(None if entry.code is None else Tile.parse(entry.code).index, entry.p) for entry in tile.top]
    if sum(p for _, p in top) > 1.0 + 1e-3:
        raise ApiError("invalid_request", f"tile {i}: the probabilities of `top` add up to more than 1")
    sent = None if code is None else code.index
    return top if top[0][0] == sent else None
