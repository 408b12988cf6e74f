"""Response models: what each endpoint answers, written for ``/openapi.json`` (clients are generated from it).

Documentation only: FastAPI never validates nor filters an answer through them, so the answers stay exactly what the
engine, the recogniser and the hand reader build (``tests/api/test_openapi.py`` checks real answers of every route
against these schemas). /v1/hands/score and /healthz give them as ``responses={200: {"model": ...}}`` with
``response_model=None`` (as before); the photo and tiles routes, whose answers went through ``dict[str, Any]``, keep
that path (:class:`DocumentedAs`). A field marked required is in every answer; an optional one is left out where its
description says (never sent as null unless its type says so). Objects may gain fields (interfaces.md: extend
freely), so clients should ignore unknown ones; the open sets of codes (error codes, warning codes, fan and yaku ids)
are strings, not enums, for the same reason.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Discriminator, Field, RootModel, Tag
from pydantic_core import core_schema

from .schemas import MELD_TYPES, ROTATIONS, RULESETS, SEATS

MeldKind = Literal[MELD_TYPES]
Seat = Literal[SEATS]
GroupKind = Literal["chow", "pung", "kong", "pair", "knitted", "single"]  # engine.decompose.GroupKind
Shape = Literal["standard", "seven_pairs", "thirteen_orphans", "honours_knitted", "knitted_straight"]
RiichiShape = Literal["standard", "seven_pairs", "thirteen_orphans"]
Wait = Literal["ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi_13"]  # engine.riichi.view
LimitName = Literal["mangan", "haneman", "baiman", "sanbaiman", "yakuman", "double_yakuman", "triple_yakuman",
                    "quadruple_yakuman", "quintuple_yakuman", "sextuple_yakuman"]  # engine.riichi.points.LIMIT_NAMES
Role = Literal["concealed", "winning", "meld", "flower", "clutter"]
Box = Annotated[list[float], Field(min_length=4, max_length=4)]


class DocumentedAs:
    """``Annotated[dict[str, Any], DocumentedAs(Model)]`` as a route's return type: the answer is validated and
    serialized as the plain ``dict[str, Any]`` it was before (the same JSON bytes, NaN as null), and the schema says
    ``Model`` (a ``$ref`` to its component). ``responses={200: {"model": Model}}`` beside an inferred response model
    would merge the two schemas into one object."""

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        model = self.model.__pydantic_core_schema__
        if "ref" not in model:
            return handler(model)
        return handler(core_schema.definitions_schema(core_schema.definition_reference_schema(model["ref"]), [model]))


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def required(description: str, **kwargs: Any) -> Any:
    """A field every answer carries."""
    return Field(description=description, **kwargs)


def optional(description: str, **kwargs: Any) -> Any:
    """A field some answers leave out (its description says when); no default in the schema, it is simply absent."""
    return Field(None, description=description, json_schema_extra=_drop_default, **kwargs)


# --- errors --------------------------------------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    code: str = required("stable lower-snake code; clients switch on it (api/errors.py gives each its status)",
                         examples=["not_winning"])
    message: str = required("what went wrong, for people (wording may change)")
    details: dict[str, Any] = optional("particulars of some codes, for programs (e.g. wrong_tile_count's expected "
                                       "and found); absent when none")


class ErrorResponse(BaseModel):
    """Every error: a 4xx for anything the client sent wrong, 503 (with Retry-After) when overloaded or unavailable."""

    error: ErrorDetail = required("the error's code and message")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in ((400, "bad input (not JSON, empty or broken image)"),
                                (401, "missing or wrong API key"),
                                (408, "the body was not received in time (upload stalled)"),
                                (413, "body or image too large"),
                                (415, "not an accepted image format"),
                                (422, "well-formed but invalid hand, context or fields"),
                                (503, "overloaded (Retry-After), timed out, or models/scorer unavailable"))
}


# --- the hand --------------------------------------------------------------------------------------------------------
class MeldOut(BaseModel):
    type: MeldKind = required("chow, pung, kong (from a discard), added_kong or concealed_kong")
    tiles: list[str] = required("the meld's tile codes")
    from_: Seat = optional("who discarded the claimed tile, seen from the winner; absent on a concealed kong",
                           alias="from")
    claimed: str = optional("the claimed tile, where known; absent otherwise")


class HandOut(BaseModel):
    """A hand as interfaces.md's "Hand (JSON)"."""

    concealed: list[str] = required("the standing tiles, not including the winning tile")
    melds: list[MeldOut] = required("the exposed melds and concealed kongs")
    winning_tile: str | None = required("the tile the hand was completed with")
    flowers: list[str] = required("the flower/season tiles shown (MCR: 1 point each; riichi: none)")


# --- scores ----------------------------------------------------------------------------------------------------------
class ArrangementGroup(BaseModel):
    kind: GroupKind = required("chow, pung, kong, pair, knitted (MCR 组合龙) or single (an irregular shape's tile)")
    tiles: list[str] = required("the group's tile codes")
    meld: MeldKind = optional("the meld type when the group is a meld; absent for a standing group")
    exposed: bool = required("the group is an exposed meld")
    concealed: bool = optional("riichi, pungs and kongs only: counts as concealed (a pung completed on a ron does "
                               "not)")
    winning: bool = optional("true on the group the winning tile completed; absent on the others")


class McrFan(BaseModel):
    id: str = required("stable fan id", examples=["pure_straight"])
    name: str = required("English name")
    name_zh: str = required("Chinese name")
    name_ja: str = required("Japanese name")
    points: int = required("points of one")
    count: int = required("how many times it counts")
    total: int = required("points x count")
    sets: list[str] = required("the tiles that make it, one MPSZ string per set")
    what: str = required("what the fan is, in words")


class McrPayments(BaseModel):
    self_drawn: bool = required("won on a self-drawn tile")
    winner_receives: int = required("what the winner receives in all")
    from_each: int = optional("self-drawn: what each of the three others pays (8 + total); absent on a discard")
    from_discarder: int = optional("on a discard: what the discarder pays (8 + total); absent when self-drawn")
    from_each_other: int = optional("on a discard: what each of the two others pays (8); absent when self-drawn")


class McrArrangement(BaseModel):
    shape: Shape = required("the winning shape")
    groups: list[ArrangementGroup] = required("the groups scored: standing groups, then the melds")
    text: str = required("the groups in MPSZ, exposed ones marked *")


class McrScore(BaseModel):
    """The MCR score object (interfaces.md "Batch scoring CLI"), plus the hand scored."""

    ok: Literal[True] = required("true: the hand was scored")
    rules: Literal["mcr"] = required("the rules scored under")
    hand: HandOut = required("the hand scored")
    hand_string: str = required("the hand scored, in the compact form")
    total: int = required("the hand's points, flowers included")
    fan_points: int = required("the fans' points, flowers excluded (checked against the minimum)")
    fans: list[McrFan] = required("every fan scored, highest first, each with the tiles that make it")
    meets_minimum: bool = required("fan_points reach the minimum (8): a legal win")
    minimum: int = required("the points a win needs, flowers excluded (8)")
    flowers: int = required("the number of flowers (1 point each)")
    payments: McrPayments = required("who pays what")
    arrangement: McrArrangement = required("the arrangement scored")
    policy: str = required("the rulebook and the policy choices applied")
    warnings: list[str] = optional("present when the hand is below the minimum: not a legal win")
    notes: list[str] = optional("present when the request set riichi-only context fields, which MCR does not use "
                                "(policy H7): names them")


class RiichiOptionsOut(BaseModel):
    """The options in effect: the ruleset's, with the request's overrides."""

    aka_dora: bool = required("red fives count one han each")
    ura_dora: bool = required("ura dora count for a riichi hand")
    kan_dora: bool = required("kan dora indicators past the first count")
    ippatsu: bool = required("ippatsu is a yaku")
    kuitan: bool = required("open tanyao counts")
    double_yakuman: bool = required("double yakuman patterns (13-sided kokushi, tanki suuankou, ...) and stacking")
    kazoe_yakuman: bool = required("13 han or more without a yakuman is a yakuman (else sanbaiman)")
    kiriage: bool = required("4 han 30 fu and 3 han 60 fu are rounded up to mangan")


class Yaku(BaseModel):
    id: str = required("stable yaku id", examples=["pinfu"])
    name: str = required("English name")
    name_ja: str = required("Japanese name")
    han: int = required("its han (a yakuman: 13 x its multiple)")
    kind: Literal["yaku", "yakuman", "dora"] = required("yaku, yakuman, or dora (never a yaku)")
    source: str = required("where the rule is written (rulebook line or policy row)")
    sets: list[str] = required("the groups that make it, one MPSZ string each")
    tiles: list[str] = required("loose tiles that make it (the winning tile, dora tiles)")


class RiichiFan(BaseModel):
    """A yaku in the shape of an MCR fan, so that one client reads both rules' ``fans``."""

    id: str = required("stable yaku id")
    name: str = required("English name")
    name_zh: str = required("the name in Chinese characters: the rulebook's kanji name, kana written as characters "
                            "(断幺九, 懸賞牌 for dora)")
    name_ja: str = required("Japanese name")
    points: int = required("han of one (dora: 1)")
    count: int = required("how many times it counts (dora: how many)")
    total: int = required("han in all")
    kind: Literal["yaku", "yakuman", "dora"] = required("yaku, yakuman or dora")
    sets: list[str] = required("the groups that make it, one MPSZ string each")
    tiles: list[str] = required("loose tiles that make it")


class FuLine(BaseModel):
    id: str = required("stable id of the fu source", examples=["menzen_ron"])
    fu: int = required("its fu")
    reason: str = required("the fu source, in words")
    source: str = required("where the rule is written")
    sets: list[str] = required("the groups it is about, one MPSZ string each")
    tiles: list[str] = required("loose tiles it is about (the winning tile)")


class RiichiPoints(BaseModel):
    total: int = required("what the winner gains from the hand itself (no honba, no sticks)")
    from_discarder: int = optional("ron: what the discarder pays for the hand; absent on a tsumo")
    from_dealer: int = optional("tsumo: what the dealer pays (0 on the dealer's own tsumo); absent on a ron")
    from_each_non_dealer: int = optional("tsumo: what each non-dealer pays; absent on a ron")
    pao: Seat = optional("the liable player (the request's pao); absent without pao")
    from_pao: int = optional("what the liable player pays; absent without pao")
    honba: int = required("the honba points, apart from total")
    sticks: int = required("the riichi sticks' points, apart from total")
    grand_total: int = required("total + honba + sticks")


class RiichiArrangement(BaseModel):
    shape: RiichiShape = required("the winning shape")
    groups: list[ArrangementGroup] = required("the groups scored: standing groups, then the melds")
    pair: str | None = required("the pair in MPSZ (standard shape), else null")
    winning_group: int | None = required("index in groups of the group the winning tile completed")
    wait: Wait = required("the wait")
    text: str = required("the groups in MPSZ, exposed ones marked *")


class RiichiScore(BaseModel):
    """The riichi score object (interfaces.md "Batch scoring CLI"), plus the hand scored."""

    ok: Literal[True] = required("true: the hand was scored")
    rules: Literal["riichi"] = required("the rules scored under")
    hand: HandOut = required("the hand scored")
    hand_string: str = required("the hand scored, in the compact form")
    ruleset: Literal[RULESETS] = required("the ruleset applied")
    options: RiichiOptionsOut = required("the options in effect")
    total: int = required("what the winner gains from the hand itself (points.total)")
    han: int = required("han: yaku and dora")
    fu: int = required("fu, rounded")
    yaku: list[Yaku] = required("every yaku and dora counted")
    fans: list[RiichiFan] = required("the same lines in the MCR fan shape")
    fu_details: list[FuLine] = required("every fu source counted")
    limit: LimitName | None = required("the limit reached (mangan, ..., yakuman), or null")
    yakuman: int = required("yakuman multiples (0: none)")
    points: RiichiPoints = required("who pays what")
    meets_minimum: bool = required("the hand has a yaku (else a winning shape without one: no points)")
    arrangement: str = required("the arrangement scored, in words (arrangement_detail has it as an object)")
    arrangement_detail: RiichiArrangement = required("the arrangement scored")
    wait: Wait = required("the wait")
    notes: list[str] = required("what was not counted and why (options off, flowers)")


def _score_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "failure" if not value.get("ok") else str(value.get("rules"))
    return "failure" if not getattr(value, "ok", False) else str(getattr(value, "rules", ""))


class ScoreResponse(RootModel[Annotated[Union[McrScore, RiichiScore], Field(discriminator="rules")]]):
    """The score object of interfaces.md: MCR fans, or riichi yaku, fu and points (by ``rules``)."""


class ScoreFailure(BaseModel):
    """The hand read from the photo cannot be scored; the photo was fine (correct the tiles and rescore)."""

    ok: Literal[False] = required("false: not scored")
    error: ErrorDetail = required("why: an engine code (not_winning, ...), or no_hand where no legal hand was read")


class ScoreOrFailure(RootModel[Annotated[Union[Annotated[McrScore, Tag("mcr")], Annotated[RiichiScore, Tag("riichi")],
                                              Annotated[ScoreFailure, Tag("failure")]], Discriminator(_score_kind)]]):
    """The score object (by ``rules``), or ``{"ok": false, "error"}`` when the hand read cannot be scored."""


# --- recognition and reading -----------------------------------------------------------------------------------------
class TopClass(BaseModel):
    code: str | None = required("a tile code, or null for a face-down tile")
    p: float = required("its probability")


class TileOut(BaseModel):
    """One tile found in the photo."""

    code: str | None = required("the tile code, or null for a face-down tile")
    box: Box = required("x1, y1, x2, y2 in pixels of the image as stored, after EXIF orientation: the tile's face (the "
                        "localiser's box of the whole tile scaled by 0.92 about its centre)")
    confidence: float = required("the classifier's probability of the code")
    rotation: Literal[ROTATIONS] = required("orientation in degrees: 0 upright, 90 / 270 sideways, 180 upside down")
    face_down: bool = required("the tile shows its back")
    lifted: float | None = required("the lift model's probability that the tile lies on another (null: not measured)")
    sideways_probability: float | None = required("the orientation head's probability that the face lies turned a "
                                                  "quarter (null: not measured)")
    top: list[TopClass] = required("the eight most probable classes")
    spare: Literal[True] = optional("a spare box the reader took in as a hand tile (always the last tiles); absent "
                                    "on the others")


class SpareTile(TileOut):
    tile_index: int = required("its index in tiles")
    spare: Literal[True] = required("true")


class TileRole(BaseModel):
    """What one tile (same index in ``tiles``) became in the hand."""

    role: Role = required("concealed, winning, meld, flower, or clutter (not in the hand)")
    meld_index: int | None = required("meld tiles: the meld's index in hand.melds, else null")
    position: int | None = required("its position in its part of the hand, else null")
    code: str | None = required("the code it was read as in the hand (a corrected one included), else null")
    claimed: bool = optional("a meld's claimed tile; absent on the others")
    stacked: bool = optional("the tile laid on a meld's claimed tile (added kong); absent on the others")
    duplicate: bool = optional("a second box on the same tile, left out; absent on the others")


class TileChange(BaseModel):
    tile_index: int = required("the tile's index in tiles")
    box: Box = required("its box, as tiles[].box reports it (the face)")
    from_: str = required("its code in the reading", alias="from")
    to: str = required("its code in the alternative")


class Alternative(BaseModel):
    """A legal reading that comes close to the one reported."""

    tile_index: int = required("the first changed tile's index in tiles")
    box: Box = required("its box, as tiles[].box reports it (the face)")
    from_: str = required("its code in the reading", alias="from")
    to: str = required("its code in the alternative")
    changes: list[TileChange] = required("every changed tile (empty: the same faces read as another meld)")
    hand: HandOut = required("the alternative's hand")
    hand_text: str = required("the alternative's hand, compact")
    probability: float | None = required("its probability among the readings found (null: not measured)")
    relative_probability: float | None = required("its probability relative to the reading's (null: not measured)")
    description: str = required("the alternative in words (with its points when scored)")
    total: int = optional("scoring routes: the points it would score; absent when it is no win")
    error: str = optional("scoring routes: the error code when it is no win")


class Correction(BaseModel):
    """A tile whose face the reading changed from the classifier's first choice to make a legal hand."""

    tile_index: int = required("the tile's index in tiles")
    box: Box = required("its box, as tiles[].box reports it (the face)")
    read: str = required("the classifier's first choice (a code, or \"face down\")")
    corrected: str = required("the code taken in the hand, or \"face down\" (a tile named a face first taken as a"
                              " concealed kong's back)")
    probability: float = required("the classifier's probability of the code taken (0: outside its top eight)")


class FieldRequest(BaseModel):
    """A field the request could add to complete the reading."""

    field: Literal["winning_tile", "concealed_kong_tiles"] = required("the request field to send")
    candidates: list[str] = optional("winning_tile: the codes it may be")
    count: int = optional("concealed_kong_tiles: how many concealed kongs show no face")
    boxes: list[list[Box]] = optional("concealed_kong_tiles: each such kong's tile boxes")


class Orientation(BaseModel):
    """How the hand lies in the photo; empty where no layout was read."""

    quarter_turn: int = optional("the hand's quarter turn in degrees")
    tilt: float = optional("the rows' tilt in degrees")
    aspect: float = optional("the tiles' measured aspect ratio")


class WinningTileScore(BaseModel):
    winning_tile: str = required("a candidate winning tile")
    total: int = optional("the points with it; absent when it gives no win")
    error: str = optional("the error code when it gives no win")


_WARNINGS = "human-readable warnings, in order"
_WARNING_CODES = ("stable codes of the warnings, one each in the same order (e.g. winning_tile_not_set_apart, "
                  "tile_corrected, red_fives_not_told_apart: vision.hand_reader.WARNING_CODES)")
_READING_ABSENT = "; absent when hand assembly failed or is unavailable"


class RecognitionResponse(BaseModel):
    """The recognition object of interfaces.md, with the reading of the hand."""

    image: str = required("the uploaded file's name")
    width: int = required("the image's width in pixels, after EXIF orientation")
    height: int = required("the image's height in pixels, after EXIF orientation")
    tiles: list[TileOut] = required("every tile found (a box the localiser scored under 0.4 only where the reading"
                                    " uses it), then any spare box taken into the hand")
    hand: HandOut | None = required("the hand read, or null when no legal hand could be read")
    warnings: list[str] = required(_WARNINGS)
    warning_codes: list[str] = required(_WARNING_CODES)
    timings_ms: dict[str, float] = required("server-side time per stage in milliseconds (decode, localize, ...)")
    tile_roles: list[TileRole] = optional("one per tile, same order: what it became in the hand" + _READING_ABSENT)
    alternatives: list[Alternative] = optional("close legal readings" + _READING_ABSENT)
    corrections: list[Correction] = optional("tiles the reading changed" + _READING_ABSENT)
    requests: list[FieldRequest] = optional("fields the request could add" + _READING_ABSENT)
    winning_tile_candidates: list[str] = optional("no tile set apart: the codes the winning tile may be"
                                                  + _READING_ABSENT)
    orientation: Orientation = optional("how the hand lies" + _READING_ABSENT)
    spares_used: list[SpareTile] = optional("spare boxes taken in as hand tiles" + _READING_ABSENT)
    overlay: str | None = optional("the annotated image as a JPEG data URL (null: not drawn); absent with "
                                   "overlay=false")


class PhotoScoreResponse(RecognitionResponse):
    """Recognition (as /v1/recognize) plus the score of the hand read."""

    score: ScoreOrFailure = required("the score object, or {ok: false, error} when the hand read cannot be scored")
    score_by_winning_tile: list[WinningTileScore] = optional("no tile set apart and none named: every candidate "
                                                             "winning tile's total or error; absent otherwise")


class TilesScoreResponse(BaseModel):
    """The hand read again from the tiles sent, and its score (as /v1/score, without tiles and overlay)."""

    hand: HandOut | None = required("the hand read, or null when no legal hand could be read")
    warnings: list[str] = required(_WARNINGS)
    warning_codes: list[str] = required(_WARNING_CODES)
    tile_roles: list[TileRole] = required("one per tile sent (then per spare), same order: what it became")
    alternatives: list[Alternative] = required("close legal readings")
    score: ScoreOrFailure = required("the score object, or {ok: false, error} (no_hand where no legal hand was read)")
    corrections: list[Correction] = optional("tiles the reading changed; absent when hand assembly failed")
    requests: list[FieldRequest] = optional("fields the request could add; absent when hand assembly failed")
    winning_tile_candidates: list[str] = optional("no tile set apart: the codes the winning tile may be; absent "
                                                  "when hand assembly failed")
    orientation: Orientation = optional("how the hand lies; absent when hand assembly failed")
    spares_used: list[SpareTile] = optional("always empty here (no spare boxes are sent); absent when hand assembly "
                                            "failed")
    score_by_winning_tile: list[WinningTileScore] = optional("no tile set apart and none named: every candidate "
                                                             "winning tile's total or error; absent otherwise")


# --- health ----------------------------------------------------------------------------------------------------------
class RecognitionHealth(BaseModel):
    available: bool = required("photos can be read")
    detail: str = required("\"loaded\", or why not")
    models: list[str] = required("the model files found")


class HandReaderHealth(BaseModel):
    available: bool = required("hands can be assembled from tiles")
    detail: str = required("\"loaded\", or why not")


class ScoringHealth(BaseModel):
    mcr: bool = required("the MCR scorer is installed")
    riichi: bool = required("the riichi scorer is installed")


class QueueHealth(BaseModel):
    workers: int = required("photo worker threads")
    capacity: int = required("photos admitted at most (workers + queue)")
    admitted: int = required("photos admitted now")


class HealthResponse(BaseModel):
    status: Literal["ok"] = required("ok while the process serves")
    recognition: RecognitionHealth = required("photo recognition")
    hand_reader: HandReaderHealth = required("hand assembly")
    scoring: ScoringHealth = required("the scorers")
    mcr_engine: str = required("which module scores MCR hands: engine/mcr/fast.py compiled by Cython, or fast.py "
                               "itself and why (the same answers, slower); \"unavailable\" without the MCR scorer")
    queue: QueueHealth = required("the photo queue")
