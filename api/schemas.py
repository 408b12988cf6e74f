"""Request models: they check the JSON's shape (types, unknown fields) and document it in OpenAPI.

Values (tile codes, winds, meld legality) are checked by the engine, which owns the stable error codes; these models
only reject what is structurally wrong, so a client gets ``invalid_request`` for a wrong type or an unknown field
and the engine's code (``unknown_tile``, ``invalid_chow``, ``contradictory_context``...) for everything else. So the
closed sets of values (rules, winds, meld types, ...) are written into the JSON schema only (:func:`one_of`), never
validated here: ``"rules": "foo"`` still answers the engine's ``unknown_rules``, not a pydantic ``invalid_request``.
The response models (documentation only, never validated) are in :mod:`api.responses`.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Coroutine, Union

import anyio
from fastapi import Request, Response
from fastapi.routing import APIRoute
from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, StringConstraints, WithJsonSchema,
                      model_validator)

from engine import strict_json
from engine.hand import BLESSINGS, WINDS, Discarder, MeldType

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

# The closed sets of values the engine accepts (interfaces.md), for the schema's enums.
RULES = ("mcr", "riichi")
RULESETS = ("zendanshin", "modern")  # engine.riichi.rules.RULESETS (not imported: the scorer may be missing)
SEATS = tuple(d.value for d in Discarder)  # left, across, right
MELD_TYPES = tuple(t.value for t in MeldType)
ROTATIONS = (0, 90, 180, 270)


def one_of(*values: str | int) -> WithJsonSchema:
    """An enum in the JSON schema only: the value is still validated by the engine (or the route), which answers one
    outside the set with its own stable code (``unknown_rules``, ``invalid_context``, ...), as before."""
    kind = "integer" if all(isinstance(v, int) for v in values) else "string"
    return WithJsonSchema({"type": kind, "enum": list(values)})


RulesWord = Annotated[Word, one_of(*RULES)]
RulesetWord = Annotated[Word, one_of(*RULESETS)]
WindWord = Annotated[Word, one_of(*WINDS)]
SeatWord = Annotated[Word, one_of(*SEATS)]
BlessingWord = Annotated[Word, one_of(*BLESSINGS)]
MeldTypeWord = Annotated[Word, one_of(*MELD_TYPES)]
Rotation = Annotated[StrictInt, one_of(*ROTATIONS)]

WIND_DOC = ("E, S, W or N (also read: e/s/w/n, east/south/west/north, 1z-4z; answers always use E S W N)")


class MeldIn(BaseModel):
    model_config = _STRICT
    type: MeldTypeWord = Field(description="chow, pung, kong (from a discard), added_kong or concealed_kong",
                               examples=["pung"])
    tiles: TileList = Field(description="the meld's tiles: codes, or one MPSZ string", examples=[["7z", "7z", "7z"]])
    from_: SeatWord | None = Field(None, alias="from", description="who discarded the claimed tile, seen from the "
                                                                   "winner: left, across or right (none for a "
                                                                   "concealed kong; a chow's is left)")
    claimed: Word | None = Field(None, description="the claimed tile of a chow (optional)")


def _nulls_as_absent(model: type[BaseModel], data: Any, keep: tuple[str, ...] = ()) -> Any:
    """``model``'s fields sent as null, taken as not sent (their defaults), as the CLI reads the same JSON
    (``engine.hand``): `"melds": null`, `"seat_wind": null`, `"context": null` (session 56's audit: HTTP refused what
    the CLI scored). A key that is no field of ``model`` stays, null or not, to be refused as unknown. ``keep``: fields
    whose null is a value of its own."""
    if isinstance(data, dict):
        return {k: v for k, v in data.items() if v is not None or k in keep or k not in model.model_fields}
    return data


class HandIn(BaseModel):
    model_config = _STRICT
    concealed: TileList = Field(description="standing tiles without the winning tile (or with it: one copy is "
                                            "taken out)", examples=["123456789m11p23p"])
    melds: list[MeldIn] = Field(default_factory=list, max_length=MAX_MELDS, description="the exposed melds and "
                                                                                     "concealed kongs")
    winning_tile: Word | None = Field(None, examples=["4p"], description="the tile the hand was completed with")
    flowers: TileList = Field(default_factory=list, description="flower/season tiles shown (1f-8f; MCR: 1 point "
                                                                "each; riichi: not used)")

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data, keep=("winning_tile",))


class RiichiOptions(BaseModel):
    """Riichi options, each overriding the ruleset's value (left out: the ruleset's)."""

    model_config = ConfigDict(extra="forbid")
    aka_dora: StrictBool | None = Field(None, description="red fives (0m 0p 0s) count one han each")
    ura_dora: StrictBool | None = Field(None, description="ura dora count for a riichi hand")
    kan_dora: StrictBool | None = Field(None, description="kan dora indicators past the first count")
    ippatsu: StrictBool | None = Field(None, description="ippatsu is a yaku")
    kuitan: StrictBool | None = Field(None, description="open tanyao counts")
    double_yakuman: StrictBool | None = Field(None, description="double yakuman patterns (13-sided kokushi, tanki "
                                                                "suuankou, ...) and stacking")
    kazoe_yakuman: StrictBool | None = Field(None, description="13 han or more without a yakuman is a yakuman (else "
                                                               "sanbaiman)")
    kiriage: StrictBool | None = Field(None, description="4 han 30 fu and 3 han 60 fu are rounded up to mangan")


class ContextIn(BaseModel):
    model_config = _STRICT
    rules: RulesWord = Field("mcr", description="mcr or riichi (another value: 422 unknown_rules)")
    self_drawn: StrictBool = Field(False, description="won on a self-drawn tile (tsumo), else on a discard (ron)")
    seat_wind: WindWord = Field("E", description="the winner's seat wind: " + WIND_DOC + "; riichi dealer = E")
    round_wind: WindWord = Field("E", description="the round (prevalent) wind: " + WIND_DOC)
    last_tile: StrictBool = Field(False, description="MCR 和绝张: the winning tile is the last of its kind")
    last_wall_tile: StrictBool = Field(False, description="MCR 妙手回春 / 海底捞月; riichi haitei / houtei")
    kong_replacement: StrictBool = Field(False, description="MCR 杠上开花; riichi rinshan")
    robbing_kong: StrictBool = Field(False, description="抢杠和 / chankan")
    ruleset: RulesetWord = Field("zendanshin", description="riichi: zendanshin (default) or modern (another value: "
                                                           "422 unknown_rules; not read under MCR)")
    options: RiichiOptions = Field(default_factory=RiichiOptions, description="riichi: options overriding the "
                                                                              "ruleset")
    riichi: StrictBool = Field(False, description="riichi: the winner declared riichi")
    double_riichi: StrictBool = Field(False, description="riichi: double riichi")
    ippatsu: StrictBool = Field(False, description="riichi: won within one go-around of riichi")
    blessing: BlessingWord | None = Field(None, description="riichi: heaven, earth or human (tenhou, chiihou, "
                                                            "renhou)")
    dora_indicators: TileList = Field(default_factory=list, description="riichi: dora indicators (tile list)")
    ura_dora_indicators: TileList = Field(default_factory=list, description="riichi: ura dora indicators (tile "
                                                                            "list)")
    honba: StrictInt = Field(0, description="riichi: honba counters (300 points each, apart from the hand's total)")
    riichi_sticks: StrictInt = Field(0, description="riichi: riichi sticks on the table (1,000 points each to the "
                                                    "winner)")
    pao: SeatWord | None = Field(None, description="riichi: who fed the meld that completed a liable yakuman "
                                                   "(left, across or right)")

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data, keep=("blessing",))

    def to_engine(self) -> dict[str, Any]:
        data = self.model_dump(exclude_unset=True)
        if "options" in data:
            data["options"] = {k: v for k, v in data["options"].items() if v is not None}
        return data


class HandScoreRequest(BaseModel):
    hand: Union[HandIn, Annotated[StrictStr, StringConstraints(max_length=MAX_HAND_TEXT)]] = Field(
        description="a hand object, or the compact hand string (e.g. \"123456789m11p23p +4p\")")
    context: ContextIn = Field(default_factory=ContextIn, description="how the hand was won (interfaces.md "
                                                                      "\"Win context\")")

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data, keep=("hand",))

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={"examples": [
        {"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p"}, "context": {"rules": "mcr"}},
        {"hand": "123456789m11p23p +4p", "context": {"rules": "mcr", "self_drawn": True}},
    ]})


# Finite pixel coordinates (JSON from Python clients may carry NaN or Infinity).
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-1e6, le=1e6)]


class TopIn(BaseModel):
    """One of a tile's most probable classes, as /v1/recognize reports it."""

    model_config = ConfigDict(extra="forbid")
    code: Word | None = Field(description="tile code, or null for face down")
    p: float = Field(ge=0, le=1, allow_inf_nan=False, description="its probability")


class TileIn(BaseModel):
    """One tile as /v1/recognize reports it, possibly corrected by a person (code changed)."""

    model_config = ConfigDict(extra="ignore")  # clients send back the tiles they got, with all their fields
    code: Word | None = Field(description="tile code, or null for a face-down tile")
    box: list[Coordinate] = Field(min_length=4, max_length=4,
                                  description="x1, y1, x2, y2 in pixels of the photo, as /v1/recognize reports a tile's "
                                              "box (its face)")
    rotation: Rotation = Field(0, description="the tile's orientation in degrees: 0, 90, 180 or 270 (another value: "
                                              "422 invalid_request)")
    face_down: StrictBool = Field(False, description="the tile shows its back (its code is then ignored)")
    confidence: float = Field(1.0, ge=0, le=1, allow_inf_nan=False, description="the classifier's probability of "
                                                                                "the code (1 for a person's)")
    lifted: float | None = Field(None, ge=0, le=1, allow_inf_nan=False,
                                 description="the lift model's probability that the tile lies on another, as "
                                             "/v1/recognize reported it (null: not measured)")
    sideways_probability: float | None = Field(
        None, ge=0, le=1, allow_inf_nan=False,
        description="the orientation head's probability that the face lies turned a quarter in the photo, as "
                    "/v1/recognize reported it; null, or a value the rotation sent cannot have come with (an upright "
                    "one with more than 2/3, a sideways one with less than 1/3: a person's change): a tile turned a "
                    "quarter from most tiles' labels is then held as the client's statement (0.99 for its rotation), "
                    "one along them is read unmeasured")
    top: list[TopIn] | None = Field(None, max_length=43, description=(
        "the recogniser's most probable classes, as /v1/recognize reported them: where they come with the tile and "
        "the code is their first, the tile is the recogniser's reading sent back, and the hand may take it as another "
        "of them, as /v1/score would; a tile without them, whose code is not their first (a person's change) or sent "
        "as a red five (a person's mark) is taken as sent"))


class TilesScoreRequest(BaseModel):
    """Re-read the hand from a photo's tiles after corrections (no photo needed: the tiles carry the layout)."""

    model_config = ConfigDict(extra="forbid")
    tiles: list[TileIn] = Field(max_length=80, description="the tiles of a /v1/recognize answer, codes corrected as "
                                                          "needed")
    width: StrictInt = Field(gt=0, le=100_000, description="the photo's width (as /v1/recognize reported it)")
    height: StrictInt = Field(gt=0, le=100_000, description="the photo's height (as /v1/recognize reported it)")
    context: ContextIn = Field(default_factory=ContextIn, description="how the hand was won")
    winning_tile: Word | None = Field(None, description="override: the winning tile (e.g. 4p; 0p a red five)")
    concealed_kong_tiles: TileList | None = Field(None, description="override: the faces of concealed kongs shown "
                                                                    "face down, in reading order")

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data, keep=("tiles", "width", "height", "winning_tile", "concealed_kong_tiles"))


# --- reading the body ------------------------------------------------------------------------------------------------
# Bodies larger than this are read off the event loop: every object's keys are checked in Python, about 0.1 s for
# the largest body the service accepts (1 MiB of small objects), which would stall every other request meanwhile
OFF_LOOP_JSON_BYTES = 64 * 1024


class _UniqueKeysRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            self._json = strict_json.loads(body) if len(body) <= OFF_LOOP_JSON_BYTES else \
                await anyio.to_thread.run_sync(strict_json.loads, body)
        return self._json


class UniqueKeysRoute(APIRoute):
    """A route whose JSON body is read by :func:`engine.strict_json.loads`, as the CLI reads its lines: FastAPI's
    ``json.loads`` kept the last of two equal keys, so ``{"hand": ..., "hand": ...}`` was scored as the second hand.
    The ``HandError`` it raises reaches ``api.errors`` as the cause of FastAPI's 400 and is answered with its own code
    (422 ``duplicate_key``); JSON that does not decode keeps FastAPI's path (``invalid_json``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def read_with_unique_keys(request: Request) -> Response:
            return await handler(_UniqueKeysRequest(request.scope, request.receive))

        return read_with_unique_keys
