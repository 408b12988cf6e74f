"""Request and response models: they check the JSON's shape (types, unknown fields) and document it in OpenAPI.

Values (tile codes, winds, meld legality) are checked by the engine, which owns the stable error codes; these models
only reject what is structurally wrong, so a client gets ``invalid_request`` for a wrong type or an unknown field
and the engine's code (``unknown_tile``, ``invalid_chow``, ``contradictory_context``...) for everything else.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, StringConstraints

# Sizes far above any hand's (14 tiles, 4 melds, 8 flowers, 5 dora indicators; the longest compact hand, four kongs
# and eight flowers written tile by tile, is under 100 characters) and far below the work a long one cost: the engine
# reads every tile and meld before it counts them, and its messages quote them, so a 2.4 MB hand string took 9 s of
# CPU and came back whole in the error. Past these: 422 invalid_request (README "Service").
MAX_TILES = 32           # items in a tile list
MAX_TILES_TEXT = 128     # characters of a tile list written as one MPSZ string
MAX_HAND_TEXT = 256      # characters of a compact hand string
MAX_MELDS = 8
MAX_WORD = 32            # a single code or word (a tile, a wind, "riichi", "left", ...)

Word = Annotated[StrictStr, StringConstraints(max_length=MAX_WORD)]

# A tile list: JSON codes ["1m", "2m"] or one MPSZ string "12m".
TileList = Union[Annotated[list[Word], Field(max_length=MAX_TILES)],
                 Annotated[StrictStr, StringConstraints(max_length=MAX_TILES_TEXT)]]

_STRICT = ConfigDict(extra="forbid", populate_by_name=True)


class MeldIn(BaseModel):
    model_config = _STRICT
    type: Word = Field(description="chow, pung, kong, added_kong or concealed_kong", examples=["pung"])
    tiles: TileList = Field(examples=[["7z", "7z", "7z"]])
    from_: Word | None = Field(None, alias="from", description="left, across or right (none for a concealed kong)")
    claimed: Word | None = Field(None, description="the claimed tile of a chow")


class HandIn(BaseModel):
    model_config = _STRICT
    concealed: TileList = Field(description="standing tiles without the winning tile (or with it: one copy is "
                                            "taken out)", examples=["123456789m11p23p"])
    melds: list[MeldIn] = Field(default_factory=list, max_length=MAX_MELDS)
    winning_tile: Word | None = Field(None, examples=["4p"])
    flowers: TileList = Field(default_factory=list)


class RiichiOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    aka_dora: StrictBool | None = None
    ura_dora: StrictBool | None = None
    kan_dora: StrictBool | None = None
    ippatsu: StrictBool | None = None
    kuitan: StrictBool | None = None
    double_yakuman: StrictBool | None = None
    kazoe_yakuman: StrictBool | None = None
    kiriage: StrictBool | None = None


class ContextIn(BaseModel):
    model_config = _STRICT
    rules: Word = Field("mcr", description="mcr or riichi")
    self_drawn: StrictBool = False
    seat_wind: Word = Field("E", description="E, S, W or N")
    round_wind: Word = Field("E", description="E, S, W or N")
    last_tile: StrictBool = False
    last_wall_tile: StrictBool = False
    kong_replacement: StrictBool = False
    robbing_kong: StrictBool = False
    ruleset: Word = Field("zendanshin", description="riichi: zendanshin or modern")
    options: RiichiOptions = Field(default_factory=RiichiOptions)
    riichi: StrictBool = False
    double_riichi: StrictBool = False
    ippatsu: StrictBool = False
    blessing: Word | None = Field(None, description="riichi: heaven, earth or human")
    dora_indicators: TileList = Field(default_factory=list)
    ura_dora_indicators: TileList = Field(default_factory=list)
    honba: StrictInt = 0
    riichi_sticks: StrictInt = 0
    pao: Word | None = Field(None, description="riichi: who fed the meld that completed a liable yakuman "
                                                    "(left, across or right)")

    def to_engine(self) -> dict[str, Any]:
        data = self.model_dump(exclude_unset=True)
        if "options" in data:
            data["options"] = {k: v for k, v in data["options"].items() if v is not None}
        return data


class HandScoreRequest(BaseModel):
    hand: Union[HandIn, Annotated[StrictStr, StringConstraints(max_length=MAX_HAND_TEXT)]] = Field(description="a hand object, or the compact hand string "
                                                       "(e.g. \"123456789m11p23p +4p\")")
    context: ContextIn = Field(default_factory=ContextIn)

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={"examples": [
        {"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p"}, "context": {"rules": "mcr"}},
        {"hand": "123456789m11p23p +4p", "context": {"rules": "mcr", "self_drawn": True}},
    ]})


# Finite pixel coordinates (JSON from Python clients may carry NaN or Infinity).
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-1e6, le=1e6)]


class TileIn(BaseModel):
    """One tile as /v1/recognize reports it, possibly corrected by a person (code changed)."""

    model_config = ConfigDict(extra="ignore")  # clients send back the tiles they got, with `top` and all
    code: Word | None = Field(description="tile code, or null for a face-down tile")
    box: list[Coordinate] = Field(min_length=4, max_length=4, description="x1, y1, x2, y2 in pixels of the photo")
    rotation: StrictInt = Field(0, description="0, 90, 180 or 270")
    face_down: StrictBool = False
    confidence: float = Field(1.0, ge=0, le=1, allow_inf_nan=False)
    lifted: float | None = Field(None, ge=0, le=1, allow_inf_nan=False,
                                 description="the lift model's probability that the tile lies on another, as "
                                             "/v1/recognize reported it (null: not measured)")
    sideways_probability: float | None = Field(
        None, ge=0, le=1, allow_inf_nan=False,
        description="the orientation head's probability that the face lies turned a quarter in the photo, as "
                    "/v1/recognize reported it (null: not measured); dropped where the rotation sent cannot have come "
                    "with it (an upright one with more than 2/3, a sideways one with less than 1/3: a person's change)")


class TilesScoreRequest(BaseModel):
    """Re-read the hand from a photo's tiles after corrections (no photo needed: the tiles carry the layout)."""

    model_config = ConfigDict(extra="forbid")
    tiles: list[TileIn] = Field(max_length=80)
    width: StrictInt = Field(gt=0, le=100_000, description="the photo's width (as /v1/recognize reported it)")
    height: StrictInt = Field(gt=0, le=100_000)
    context: ContextIn = Field(default_factory=ContextIn)
    winning_tile: Word | None = None
    concealed_kong_tiles: TileList | None = None


class ErrorDetail(BaseModel):
    code: str = Field(description="stable lower-snake code; clients switch on it")
    message: str
    details: dict[str, Any] | None = None


class ErrorResponse(BaseModel):
    error: ErrorDetail


class ScoreResponse(BaseModel):
    """The engine's score object (interfaces.md), plus the hand as read (JSON and compact string)."""

    model_config = ConfigDict(extra="allow")
    ok: bool
    rules: Literal["mcr", "riichi"]
    total: int | None = None
    fans: list[dict[str, Any]] | None = None
    hand: dict[str, Any] | None = None
    hand_string: str | None = None


class HealthResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
    recognition: dict[str, Any]
    hand_reader: dict[str, Any]
    scoring: dict[str, bool]


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in ((400, "bad input (not JSON, empty or broken image)"),
                                (401, "missing or wrong API key"),
                                (413, "body or image too large"),
                                (415, "not an accepted image format"),
                                (422, "well-formed but invalid hand, context or fields"),
                                (503, "overloaded (Retry-After), timed out, or models/scorer unavailable"))
}
