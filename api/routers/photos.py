"""POST /v1/recognize and POST /v1/score: a photo in (multipart ``image``), tiles, hand and score out.

Order of checks, cheapest first, so bad input never costs a worker: unknown form fields and a bad context (4xx) ->
image header (format, pixel count: 4xx) -> admission to the bounded queue (503 + Retry-After when full) ->
recognition, hand assembly, scoring and the overlay in a worker thread (off the event loop).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from pydantic import ValidationError

from engine import HandError, Tile, parse_tiles, strict_json

from ..errors import ApiError, validation_message
from ..pipeline import PhotoOptions, validate_context
from ..responses import ERROR_RESPONSES, DocumentedAs, PhotoScoreResponse, RecognitionResponse
from ..schemas import (BLESSINGS, MAX_TILES_TEXT, MAX_WORD, RULES, RULESETS, SEATS, WIND_DOC, WINDS, ContextIn,
                       one_of)

router = APIRouter(prefix="/v1", tags=["photos"])

_PHOTO_FIELDS = {"image", "rules", "winning_tile", "concealed_kong_tiles", "overlay"}
_CONTEXT_FORM_FIELDS = {"context", "self_drawn", "seat_wind", "round_wind", "last_tile", "last_wall_tile",
                        "kong_replacement", "robbing_kong", "ruleset", "riichi", "double_riichi", "ippatsu",
                        "blessing", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "options", "pao"}

# Form fields with a closed set of values: the enum is in the schema only, the route checks the value (unknown_rules,
# invalid_context, ... as before)
_Rules = Annotated[str, one_of(*RULES)]
_Wind = Annotated[str, one_of(*WINDS)]
_Ruleset = Annotated[str, one_of(*RULESETS)]
_Blessing = Annotated[str, one_of(*BLESSINGS)]
_Seat = Annotated[str, one_of(*SEATS)]

_IMAGE_DOC = "the photo: JPEG, PNG, WebP or HEIC"
_WINNING_DOC = "override: the winning tile (e.g. 4p) when the photo does not show which it is"
_KONGS_DOC = "override: the faces of concealed kongs shown face down, MPSZ (e.g. \"1z9p\")"


async def _reject_unknown_fields(request: Request, known: set[str]) -> None:
    """Unknown form fields, and fields sent more than once (two photos: FastAPI would silently take the last)."""
    form = await request.form()  # already parsed by FastAPI for the parameters; this reuses the cached copy
    unknown = sorted(set(form.keys()) - known)
    if unknown:
        raise ApiError("unknown_field", f"unknown form field(s) {unknown}; known: {sorted(known)}")
    repeated = sorted(name for name in set(form.keys()) if len(form.getlist(name)) > 1)
    if repeated:
        raise ApiError("invalid_request", f"form field(s) {', '.join(map(repr, repeated))} sent more than once; "
                                          "send one image and each field once")


def _photo_options(image: UploadFile, rules: str | None, winning_tile: str | None,
                   concealed_kong_tiles: str | None, overlay: bool) -> PhotoOptions:
    rules = rules or "mcr"
    if rules not in ("mcr", "riichi"):
        raise ApiError("unknown_rules", f"unknown rules {rules!r} (expected 'mcr' or 'riichi')", status=422)
    winning_tile = Tile.parse(winning_tile.strip()) if winning_tile and winning_tile.strip() else None
    kong_tiles = parse_tiles(concealed_kong_tiles) if concealed_kong_tiles else []
    # refused before the photo is read: a flower can be neither, whatever the photo shows (the reader refuses them
    # too, but only once it has tiles to read)
    for what, tile in [("winning_tile", winning_tile), *(("concealed_kong_tiles", t) for t in kong_tiles)]:
        if tile is not None and tile.is_flower:
            raise HandError("flower_in_hand", f"{what} must be a playing tile, not the flower {str(tile)!r}")
    winning = str(winning_tile) if winning_tile is not None else None
    kongs = [str(t) for t in kong_tiles]
    return PhotoOptions(image_name=image.filename or "upload", rules=rules, winning_tile=winning,
                        concealed_kong_tiles=kongs, overlay=overlay)


@router.post("/recognize", responses=ERROR_RESPONSES, summary="Read the tiles and the hand in a photo")
async def recognize(
    request: Request,
    image: UploadFile = File(..., description=_IMAGE_DOC),
    rules: _Rules | None = Form(None, max_length=MAX_WORD,
                                description="mcr (default) or riichi: how the hand is assembled (flowers)"),
    winning_tile: str | None = Form(None, max_length=MAX_WORD, description=_WINNING_DOC),
    concealed_kong_tiles: str | None = Form(None, max_length=MAX_TILES_TEXT, description=_KONGS_DOC),
    overlay: bool = Form(True, description="include the annotated overlay image (JPEG data URL)"),
) -> Annotated[dict[str, Any], DocumentedAs(RecognitionResponse)]:
    """The recognition object of interfaces.md: `tiles` (code, box, confidence, rotation, face_down, top
    alternatives), `hand` (or null), `warnings`, `alternatives`, `tile_roles`, plus `width`, `height` and
    `overlay`. A box the localiser scored below its threshold that the reader took in as a hand tile is the last of
    `tiles`, with `"spare": true` (and in `spares_used`, with its `tile_index`)."""
    await _reject_unknown_fields(request, _PHOTO_FIELDS)
    options = _photo_options(image, rules, winning_tile, concealed_kong_tiles, overlay)
    data = await image.read()
    return await request.app.state.reader.read_photo(data, options)


@router.post("/score", responses=ERROR_RESPONSES, summary="Read a photo and score the hand")
async def score_photo(
    request: Request,
    image: UploadFile = File(..., description=_IMAGE_DOC),
    context: str | None = Form(None, description="the whole win context as a JSON object (interfaces.md); the "
                                                 "single fields below override its entries"),
    rules: _Rules | None = Form(None, max_length=MAX_WORD, description="mcr (default) or riichi"),
    self_drawn: bool | None = Form(None),
    seat_wind: _Wind | None = Form(None, description="the winner's seat wind: " + WIND_DOC),
    round_wind: _Wind | None = Form(None, description="the round wind: " + WIND_DOC),
    last_tile: bool | None = Form(None),
    last_wall_tile: bool | None = Form(None),
    kong_replacement: bool | None = Form(None),
    robbing_kong: bool | None = Form(None),
    ruleset: _Ruleset | None = Form(None, description="riichi: zendanshin (default) or modern"),
    riichi: bool | None = Form(None),
    double_riichi: bool | None = Form(None),
    ippatsu: bool | None = Form(None),
    blessing: _Blessing | None = Form(None, description="riichi: heaven, earth or human"),
    dora_indicators: str | None = Form(None, description="riichi, MPSZ (e.g. \"3m7z\")"),
    ura_dora_indicators: str | None = Form(None, description="riichi, MPSZ"),
    honba: int | None = Form(None),
    riichi_sticks: int | None = Form(None),
    pao: _Seat | None = Form(None, description="riichi: who fed a liable yakuman's meld (left, across or right)"),
    options: str | None = Form(None, description="riichi options as a JSON object, e.g. {\"aka_dora\": true}"),
    winning_tile: str | None = Form(None, max_length=MAX_WORD, description=_WINNING_DOC),
    concealed_kong_tiles: str | None = Form(None, max_length=MAX_TILES_TEXT, description=_KONGS_DOC),
    overlay: bool = Form(True, description="include the annotated overlay image (JPEG data URL)"),
) -> Annotated[dict[str, Any], DocumentedAs(PhotoScoreResponse)]:
    """Recognition (as /v1/recognize) plus `score`: the score object of interfaces.md, or `{"ok": false, "error"}`
    when the hand read from the photo cannot be scored (the photo was fine; correct the tiles and rescore with
    /v1/hands/score). A contradictory or invalid context is a 422 before any image work. With no tile set apart
    as the winning tile and none named, every candidate is scored (`score_by_winning_tile`) and the best reported
    (warning `winning_tile_best_scored`)."""
    await _reject_unknown_fields(request, _PHOTO_FIELDS | _CONTEXT_FORM_FIELDS)
    fields: dict[str, Any] = {}
    if context:
        try:
            fields = strict_json.loads(context)
        except HandError as error:  # a key twice (duplicate_key), refused as on the JSON routes and the CLI
            raise HandError(error.code, f"'context': {error.message}", **error.details) from None
        except (ValueError, RecursionError) as error:  # JSONDecodeError, an over-long integer, deep nesting
            raise ApiError("invalid_json", f"'context' is not JSON: {error}") from None
        if not isinstance(fields, dict):
            raise ApiError("invalid_request", "'context' must be a JSON object")
    if options:
        try:
            fields["options"] = strict_json.loads(options)
        except HandError as error:
            raise HandError(error.code, f"'options': {error.message}", **error.details) from None
        except (ValueError, RecursionError) as error:  # JSONDecodeError, an over-long integer, deep nesting
            raise ApiError("invalid_json", f"'options' is not JSON: {error}") from None
    single = {"rules": rules, "self_drawn": self_drawn, "seat_wind": seat_wind, "round_wind": round_wind,
              "last_tile": last_tile, "last_wall_tile": last_wall_tile, "kong_replacement": kong_replacement,
              "robbing_kong": robbing_kong, "ruleset": ruleset, "riichi": riichi, "double_riichi": double_riichi,
              "ippatsu": ippatsu, "blessing": blessing, "dora_indicators": dora_indicators,
              "ura_dora_indicators": ura_dora_indicators, "honba": honba, "riichi_sticks": riichi_sticks,
              "pao": pao}
    fields.update({k: v for k, v in single.items() if v is not None})
    try:
        win_context = ContextIn.model_validate(fields).to_engine()
    except ValidationError as error:
        # as the JSON routes say it (api.errors): a size limit first, and no union branch's name in the field's path
        # placed where the JSON routes place a context's errors, so that each part of the message names its field
        # as they do ("context.honba: ...")
        code, message = validation_message([{**e, "loc": ("body", "context", *e.get("loc", ()))}
                                            for e in error.errors()])
        raise ApiError(code, message) from None
    validate_context(win_context)
    photo_options = _photo_options(image, win_context.get("rules"), winning_tile, concealed_kong_tiles, overlay)
    data = await image.read()
    return await request.app.state.reader.read_photo(data, photo_options, context=win_context)
