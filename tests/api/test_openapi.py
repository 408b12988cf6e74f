"""/openapi.json describes what the service accepts and answers, for clients generated from it (the tablet app).

* Every request field with a closed set of values carries its enum (JSON bodies and photo form fields), and the
  enums are documentation only: a value outside one still gets the engine's stable code, never a pydantic 422.
* The 200 answers of every route reference typed schemas (api/responses.py), and real answers of every route (MCR and
  riichi, ron and tsumo, photo and tiles routes, with and without a hand, a score that failed) validate against them:
  the schemas are never used to validate or filter answers, so this test is what keeps them true.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.app import create_app
from engine import Hand
from engine.hand import BLESSINGS, WINDS, Discarder, MeldType
from tests.hand_reader.builder import Table

from .conftest import FIXTURES, PHOTOS, SPARE_PHOTO, make_settings, requires_models
from .test_alternatives import SCENES as MISREAD_SCENES
from .test_alternatives import TableRecognizer

SPEC = create_app(make_settings()).openapi()
COMPONENTS = SPEC["components"]["schemas"]

try:
    import jsonschema_rs  # schemathesis's validator (JSON Schema 2020-12, as OpenAPI 3.1 schemas are)
except ImportError:  # pragma: no cover - schemathesis brings it
    jsonschema_rs = None


# --- schema helpers -------------------------------------------------------------------------------------------------
def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = COMPONENTS[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def enum_of(schema: dict[str, Any]) -> list | None:
    """The enum of a property, looking through a nullable ``anyOf: [{enum}, {type: null}]``."""
    schema = resolve(schema)
    if "enum" in schema:
        return schema["enum"]
    for branch in schema.get("anyOf", []):
        if "enum" in resolve(branch):
            return resolve(branch)["enum"]
    return None


def form_schema(path: str) -> dict[str, Any]:
    return resolve(SPEC["paths"][path]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"])


def ok_schema(path: str, method: str = "post") -> dict[str, Any]:
    return SPEC["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]


def schema_errors(body: Any, schema: dict[str, Any], where: str = "") -> list[str]:
    """Where ``body`` breaks ``schema``: jsonschema_rs when installed, else a walk of the required keys, types,
    consts and enums (enough for these schemas: objects, arrays, nullable and one-of unions)."""
    if jsonschema_rs is not None:
        validator = jsonschema_rs.Draft202012Validator({**schema, "components": SPEC["components"]})
        return [f"{e.instance_path}: {e.message}"[:300] for e in validator.iter_errors(body)]
    schema = resolve(schema)
    for union in ("oneOf", "anyOf"):
        if union in schema:
            fits = [b for b in schema[union] if not schema_errors(body, b, where)]
            return [] if (len(fits) == 1 if union == "oneOf" else fits) else [f"{where}: {len(fits)} branches fit"]
    if "const" in schema and body != schema["const"] or "enum" in schema and body not in schema["enum"]:
        return [f"{where}: {body!r} not allowed"]
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None), "integer": int,
             "number": (int, float)}
    kind = schema.get("type")
    if kind and (not isinstance(body, kinds[kind]) or isinstance(body, bool) and kind in ("integer", "number")):
        return [f"{where}: {type(body).__name__} is not {kind}"]
    errors = []
    if kind == "object":
        errors += [f"{where}.{key}: missing" for key in schema.get("required", []) if key not in body]
        for key, value in body.items():
            if key in schema.get("properties", {}):
                errors += schema_errors(value, schema["properties"][key], f"{where}.{key}")
    if kind == "array":
        for i, item in enumerate(body):
            errors += schema_errors(item, schema.get("items", {}), f"{where}[{i}]")
    return errors


def assert_fits(body: Any, path: str) -> None:
    errors = schema_errors(body, ok_schema(path))
    assert not errors, (path, errors[:10], json.dumps(body)[:1500])


# --- the requests' enums --------------------------------------------------------------------------------------------
RIICHI_RULESETS = ["zendanshin", "modern"]
JSON_ENUMS = {
    ("ContextIn", "rules"): ["mcr", "riichi"],
    ("ContextIn", "seat_wind"): list(WINDS),
    ("ContextIn", "round_wind"): list(WINDS),
    ("ContextIn", "ruleset"): RIICHI_RULESETS,
    ("ContextIn", "blessing"): list(BLESSINGS),
    ("ContextIn", "pao"): [d.value for d in Discarder],
    ("MeldIn", "type"): [t.value for t in MeldType],
    ("MeldIn", "from"): [d.value for d in Discarder],
    ("TileIn", "rotation"): [0, 90, 180, 270],
}
FORM_ENUMS = {
    "/v1/recognize": {"rules": ["mcr", "riichi"]},
    "/v1/score": {"rules": ["mcr", "riichi"], "seat_wind": list(WINDS), "round_wind": list(WINDS),
                  "ruleset": RIICHI_RULESETS, "blessing": list(BLESSINGS), "pao": [d.value for d in Discarder]},
}


@pytest.mark.parametrize("model,field", sorted(JSON_ENUMS))
def test_every_enumerated_json_field_carries_its_enum(model, field):
    assert enum_of(COMPONENTS[model]["properties"][field]) == JSON_ENUMS[model, field]


@pytest.mark.parametrize("path", sorted(FORM_ENUMS))
def test_every_enumerated_form_field_carries_its_enum(path):
    properties = form_schema(path)["properties"]
    assert {name: enum_of(properties[name]) for name in FORM_ENUMS[path]} == FORM_ENUMS[path]


def test_the_riichi_rulesets_and_the_answers_enums_are_the_engines():
    from engine.decompose import GroupKind, Shape
    from engine.riichi.points import LIMIT_NAMES
    from engine.riichi.rules import RULESETS

    assert sorted(RULESETS) == sorted(RIICHI_RULESETS)
    assert enum_of(COMPONENTS["RiichiScore"]["properties"]["limit"]) == list(LIMIT_NAMES)
    assert enum_of(COMPONENTS["ArrangementGroup"]["properties"]["kind"]) == [k.value for k in GroupKind]
    assert enum_of(COMPONENTS["McrArrangement"]["properties"]["shape"]) == [s.value for s in Shape]


GOOD = "123456789m11p23p +4p"


@pytest.mark.parametrize("context,status,code", [
    ({"rules": "foo"}, 422, "unknown_rules"),
    ({"rules": "riichi", "ruleset": "foo"}, 422, "unknown_rules"),
    ({"seat_wind": "X"}, 422, "invalid_context"),
    ({"rules": "riichi", "blessing": "foo"}, 422, "invalid_context"),
    ({"rules": "riichi", "pao": "foo"}, 422, "invalid_context"),
    ({"seat_wind": "south", "round_wind": "1z"}, 200, None),  # aliases the engine reads, outside the enum
    ({"rules": 3}, 422, "invalid_request"),  # a wrong type is still the model's
])
def test_the_enums_are_documentation_only(client, context, status, code):
    response = client.post("/v1/hands/score", json={"hand": GOOD, "context": context})
    assert response.status_code == status, response.text
    if code:
        assert response.json()["error"]["code"] == code


def test_an_unknown_meld_type_or_source_keeps_the_engines_code(client):
    for meld in ({"type": "pon", "tiles": "777z", "from": "left"}, {"type": "pung", "tiles": "777z", "from": "up"}):
        hand = {"concealed": "123456789m4p", "melds": [meld], "winning_tile": "4p"}
        response = client.post("/v1/hands/score", json={"hand": hand})
        assert response.status_code == 422 and response.json()["error"]["code"] != "invalid_request", response.text


@pytest.mark.parametrize("path", ["/v1/recognize", "/v1/score"])
def test_an_unknown_rules_form_value_is_still_unknown_rules(client, path):
    response = client.post(path, files={"image": ("a.jpg", PHOTOS[0].read_bytes(), "image/jpeg")},
                           data={"rules": "foo"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "unknown_rules", response.text


def test_a_rotation_outside_the_enum_is_still_the_routes_invalid_request(client):
    tile = {"code": "1m", "box": [0, 0, 10, 14], "rotation": 45}
    response = client.post("/v1/tiles/score", json={"tiles": [tile], "width": 100, "height": 100})
    assert response.status_code == 422, response.text
    assert "rotation must be 0, 90, 180 or 270" in response.json()["error"]["message"]


# --- the answers' schemas -------------------------------------------------------------------------------------------
TYPED = {("/v1/hands/score", "post"): "ScoreResponse", ("/v1/score", "post"): "PhotoScoreResponse",
         ("/v1/recognize", "post"): "RecognitionResponse", ("/v1/tiles/score", "post"): "TilesScoreResponse",
         ("/healthz", "get"): "HealthResponse"}


@pytest.mark.parametrize("path,method", sorted(TYPED))
def test_the_200_answers_reference_typed_schemas(path, method):
    assert ok_schema(path, method) == {"$ref": f"#/components/schemas/{TYPED[path, method]}"}
    schema = COMPONENTS[TYPED[path, method]]
    branches = [resolve(b) for b in schema.get("oneOf", [schema])]
    for branch in branches:
        assert branch["type"] == "object" and branch["required"] and "additionalProperties" not in branch
        for name, prop in branch["properties"].items():
            assert prop.get("description"), f"{branch['title']}.{name} has no description"


def test_the_nested_objects_are_typed_too():
    recognition = COMPONENTS["RecognitionResponse"]["properties"]
    assert recognition["tiles"]["items"] == {"$ref": "#/components/schemas/TileOut"}
    assert set(COMPONENTS["TileOut"]["required"]) == {"code", "box", "confidence", "rotation", "face_down", "top",
                                                      "lifted", "sideways_probability"}
    assert {resolve(b).get("title") for b in recognition["hand"]["anyOf"]} == {"HandOut", None}
    for name in ("tile_roles", "alternatives", "corrections", "requests", "spares_used"):
        assert "$ref" in recognition[name]["items"], name
    score = COMPONENTS["PhotoScoreResponse"]["properties"]["score"]
    assert [b["$ref"].rsplit("/", 1)[-1] for b in resolve(score)["oneOf"]] == ["McrScore", "RiichiScore",
                                                                               "ScoreFailure"]
    for name in ("McrScore", "RiichiScore"):
        assert "$ref" in COMPONENTS[name]["properties"]["fans"]["items"]
    for status in ("400", "413", "415", "422", "503"):
        error = SPEC["paths"]["/v1/score"]["post"]["responses"][status]["content"]["application/json"]["schema"]
        assert resolve(error)["properties"]["error"] == {"$ref": "#/components/schemas/ErrorDetail",
                                                         "description": "the error's code and message"}


HANDS = {  # hand, context: MCR and riichi, ron and tsumo, every shape, below the minimum, pao, no yaku
    "mcr_ron": (GOOD, {"rules": "mcr"}),
    "mcr_tsumo_melds_flowers": ({"concealed": "123m4p", "melds": [
        {"type": "chow", "tiles": ["3s", "4s", "5s"], "from": "left", "claimed": "4s"},
        {"type": "pung", "tiles": "777z", "from": "across"}, {"type": "concealed_kong", "tiles": "1111z"}],
        "winning_tile": "4p", "flowers": ["1f", "6f"]}, {"rules": "mcr", "self_drawn": True}),
    "mcr_below_minimum": ("123m345p567s789m1z +1z", {"rules": "mcr"}),
    "mcr_seven_pairs": ("1122m3344p5566s7z +7z", {"rules": "mcr", "self_drawn": True}),
    "mcr_thirteen_orphans": ("19m19p19s1234567z +1m", {"rules": "mcr"}),
    "mcr_honours_knitted": ("147m25p36s123456z +7z", {"rules": "mcr"}),
    "mcr_knitted_straight": ("147m258p369s12m11z +3m", {"rules": "mcr"}),
    "riichi_ron": (GOOD, {"rules": "riichi", "riichi": True, "dora_indicators": ["3m"], "honba": 1,
                          "riichi_sticks": 1}),
    "riichi_tsumo_dealer": ("234567m234p55s67s +8s", {"rules": "riichi", "self_drawn": True}),
    "riichi_tsumo_modern": ("234567m234p55s67s +8s", {"rules": "riichi", "self_drawn": True, "seat_wind": "W",
                                                      "ruleset": "modern"}),
    "riichi_no_yaku": ({"concealed": "123m456p99s78s", "melds": [{"type": "chow", "tiles": "789m", "from": "left"}],
                        "winning_tile": "9s"}, {"rules": "riichi"}),
    "riichi_seven_pairs": ("1122m3344p5566s7z +7z", {"rules": "riichi"}),
    "riichi_kokushi_tsumo": ("19m19p19s1234567z +1m", {"rules": "riichi", "self_drawn": True}),
    "riichi_pao_tsumo": ({"concealed": "11m22p", "melds": [{"type": "pung", "tiles": "555z", "from": "left"},
                                                          {"type": "pung", "tiles": "666z", "from": "across"},
                                                          {"type": "pung", "tiles": "777z", "from": "right"}],
                          "winning_tile": "2p"}, {"rules": "riichi", "pao": "right", "self_drawn": True}),
    "riichi_red_fives_options": ("234067m234p55s67s +8s", {"rules": "riichi", "riichi": True, "dora_indicators":
                                                           ["1m", "2m"], "ura_dora_indicators": ["1m"],
                                                           "options": {"aka_dora": True, "ura_dora": True}}),
    "riichi_rinshan": ({"concealed": "234m567p55s67s", "melds": [{"type": "concealed_kong", "tiles": "1111z"}],
                        "winning_tile": "8s"}, {"rules": "riichi", "self_drawn": True, "kong_replacement": True}),
}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_real_hand_scores_fit_the_schema(client, name):
    hand, context = HANDS[name]
    response = client.post("/v1/hands/score", json={"hand": hand, "context": context})
    assert response.status_code == 200, response.text
    assert_fits(response.json(), "/v1/hands/score")


@pytest.mark.parametrize("body", [{"hand": GOOD[:-3] + "9p"}, {"hand": GOOD, "context": {"rules": "foo"}},
                                  {"hand": GOOD, "context": {"rules": 3}}, {"hand": "123m +4p"}])
def test_real_errors_fit_the_error_schema(client, body):
    response = client.post("/v1/hands/score", json=body)
    assert response.status_code == 422
    errors = schema_errors(response.json(), SPEC["paths"]["/v1/hands/score"]["post"]["responses"]["422"]
                           ["content"]["application/json"]["schema"])
    assert not errors, (errors, response.text)


def test_healthz_fits_the_schema(client):
    errors = schema_errors(client.get("/healthz").json(), ok_schema("/healthz", "get"))
    assert not errors, errors


def table_tiles(layout: str) -> dict[str, Any]:
    detections, (width, height), _ = Table().row(layout).photo()
    return {"tiles": detections.to_json(), "width": width, "height": height}


OPEN_RIICHI = {"rules": "riichi", "ruleset": "modern", "seat_wind": "S", "options": {"aka_dora": True}}
TILES = {  # /v1/tiles/score requests: hands with melds, alternatives, requests, no hand, a score that fails
    "winning_tile_set_apart": (table_tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p"), {"rules": "mcr"}),
    "no_tile_set_apart": (table_tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p 4p"), {"rules": "riichi"}),
    "claimed_meld": (table_tiles("2m 3m 4m 5m 6m 7m 2p 3p 4p 8p | 8p | 5s s5s 5s"), OPEN_RIICHI),
    "face_down_kong": (table_tiles("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d d"), {"rules": "mcr"}),
    "no_tiles": ({"tiles": [], "width": 100, "height": 100}, {"rules": "mcr"}),
    "no_layout": ({"tiles": [{"code": "1m", "box": [0, 0, 10, 14]}], "width": 100, "height": 100}, {"rules": "mcr"}),
    "score_fails": (table_tiles("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p"),
                    {"rules": "mcr", "self_drawn": True, "kong_replacement": True}),
}


@pytest.mark.parametrize("name", sorted(TILES))
def test_real_tiles_answers_fit_the_schema(client, name):
    request, context = TILES[name]
    request = json.loads(json.dumps({**request, "context": context}))
    if name == "claimed_meld":  # the lift model's doubt: an added kong among the alternatives
        claimed = next(t for t in request["tiles"] if t["rotation"] % 180 == 90)
        claimed["lifted"] = 0.5
    response = client.post("/v1/tiles/score", json=request)
    assert response.status_code == 200, response.text
    body = response.json()
    assert_fits(body, "/v1/tiles/score")
    if name == "score_fails":
        assert body["score"]["ok"] is False and body["hand"] is not None
    if name == "claimed_meld":
        assert body["alternatives"] and body["hand"]["melds"]


def photo_post(client, path: str, photo, **fields):
    return client.post(path, files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
                       data={"overlay": "false", **fields})


@pytest.mark.parametrize("scene", sorted(MISREAD_SCENES))
def test_photo_answers_with_alternatives_fit_the_schema(client, scene):
    # A stub recogniser gives the real reader a hand-made table with a tile misread: close readings are listed
    reader = client.app.state.reader
    kept = reader.recognizer
    reader.recognizer = TableRecognizer(*MISREAD_SCENES[scene])
    try:
        recognized = photo_post(client, "/v1/recognize", PHOTOS[0])
        scored = photo_post(client, "/v1/score", PHOTOS[0], rules="mcr")
    finally:
        reader.recognizer = kept
    assert recognized.status_code == 200 and scored.status_code == 200, (recognized.text, scored.text)
    assert_fits(recognized.json(), "/v1/recognize")
    assert_fits(scored.json(), "/v1/score")
    assert scored.json()["alternatives"]


IMAGES = FIXTURES.parents[1] / "fixtures" / "images"  # a squeezed strip, a meld's lifted tile
PHOTO_FILES = sorted(FIXTURES.glob("*.jpg")) + [IMAGES / name for name in ("hk_strip_0.jpg", "lift_9000016_7.jpg")]
PHOTO_CONTEXTS = {"mcr_ron": {"rules": "mcr"}, "mcr_tsumo": {"rules": "mcr", "self_drawn": "true", "seat_wind": "S"},
                  "riichi_ron": {"rules": "riichi", "riichi": "true"},
                  "riichi_tsumo": {"rules": "riichi", "self_drawn": "true", "ruleset": "modern",
                                   "options": json.dumps({"aka_dora": True})}}


@requires_models
@pytest.mark.parametrize("photo", PHOTO_FILES, ids=lambda p: p.stem)
def test_real_photo_answers_fit_the_schema(client, photo):
    recognized = photo_post(client, "/v1/recognize", photo, overlay="true")
    assert recognized.status_code == 200, recognized.text
    body = recognized.json()
    assert_fits(body, "/v1/recognize")
    assert body["overlay"].startswith("data:image/jpeg")
    assert_scored_answers_fit(client, photo, body)


@requires_models
def test_an_answer_with_a_spare_tile_fits_the_schema(spare_client):
    """A spare box taken in (``spares_used``, the tile's ``spare``) fits the schema too (conftest.SPARE_PHOTO)."""
    recognized = photo_post(spare_client, "/v1/recognize", SPARE_PHOTO, overlay="true")
    assert recognized.status_code == 200, recognized.text
    body = recognized.json()
    assert_fits(body, "/v1/recognize")
    assert body["spares_used"] and body["tiles"][-1]["spare"] is True
    assert_scored_answers_fit(spare_client, SPARE_PHOTO, body)


def assert_scored_answers_fit(client, photo, body):
    """``photo`` scored under each of PHOTO_CONTEXTS, and its recognition ``body``'s tiles sent back, fit the schema."""
    for name, context in PHOTO_CONTEXTS.items():
        scored = photo_post(client, "/v1/score", photo, **context)
        assert scored.status_code == 200, (name, scored.text)
        assert_fits(scored.json(), "/v1/score")
        tiles = {"tiles": body["tiles"], "width": body["width"], "height": body["height"],
                 "context": {k: json.loads(v) if k in ("self_drawn", "riichi", "options") else v
                             for k, v in context.items()}}
        again = client.post("/v1/tiles/score", json=tiles)
        assert again.status_code == 200, (name, again.text)
        assert_fits(again.json(), "/v1/tiles/score")


@requires_models
def test_a_photo_with_a_named_winning_tile_and_a_failed_score_fits_the_schema(client):
    reading = photo_post(client, "/v1/recognize", PHOTOS[0]).json()
    assert reading["hand"] is not None
    named = photo_post(client, "/v1/score", PHOTOS[0], winning_tile=reading["hand"]["winning_tile"])
    assert named.status_code == 200 and "score_by_winning_tile" not in named.json(), named.text
    assert_fits(named.json(), "/v1/score")
    failed = photo_post(client, "/v1/score", PHOTOS[0], self_drawn="true", kong_replacement="true")
    assert failed.status_code == 200 and failed.json()["score"]["ok"] is False, failed.text
    assert_fits(failed.json(), "/v1/score")
    assert Hand.from_json(failed.json()["hand"])  # a hand was read: the score failed, not the reading
