"""Every bad input gets a 4xx with a stable code and the one error shape, never a 5xx (models loaded or not)."""

from __future__ import annotations

import json
import zlib

import pytest
from fastapi.testclient import TestClient

from api.app import create_app

from .conftest import BAD_IMAGE_EXPECTED, PHOTOS, make_settings, small_image

GOOD_HAND = {"hand": "123456789m11p23p +4p", "context": {"rules": "mcr"}}


def assert_error(response, status: int, codes: set[str] | str) -> dict:
    codes = {codes} if isinstance(codes, str) else codes
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] in codes, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


@pytest.mark.parametrize("endpoint", ["/v1/recognize", "/v1/score"])
@pytest.mark.parametrize("name", sorted(BAD_IMAGE_EXPECTED))
def test_bad_images_get_their_4xx_code(client, bad_images, endpoint, name):
    data, content_type = bad_images[name]
    response = client.post(endpoint, files={"image": (f"{name}.bin", data, content_type)})
    status, codes = BAD_IMAGE_EXPECTED[name]
    assert_error(response, status, codes)


def test_huge_png_is_refused_from_its_header_without_decoding(client, bad_images):
    # 400 MP would take seconds and over a gigabyte to decode; the header check must answer at once.
    data, content_type = bad_images["huge_png"]
    response = client.post("/v1/recognize", files={"image": ("huge.png", data, content_type)})
    error = assert_error(response, 413, "image_too_large")
    assert error["details"]["pixels"] == 20000 * 20000
    assert error["details"]["max_pixels"] == 50_000_000


def test_missing_image_field(client):
    assert_error(client.post("/v1/recognize", data={"rules": "mcr"}), 422, "invalid_request")
    assert_error(client.post("/v1/score"), 422, "invalid_request")


@pytest.mark.parametrize("endpoint", ["/v1/recognize", "/v1/score"])
def test_two_images_or_a_field_sent_twice(client, endpoint):
    # Which of two photos (or two winning tiles) would be read is anyone's guess: refuse rather than take the last.
    photo = PHOTOS[0].read_bytes()
    two = [("image", ("a.jpg", photo, "image/jpeg")), ("image", ("b.jpg", photo, "image/jpeg"))]
    assert "'image'" in assert_error(client.post(endpoint, files=two), 422, "invalid_request")["message"]
    response = client.post(endpoint, files={"image": ("a.jpg", photo, "image/jpeg")},
                           data={"winning_tile": ["4p", "5p"]})
    assert "'winning_tile'" in assert_error(response, 422, "invalid_request")["message"]


@pytest.mark.parametrize("endpoint", ["/v1/recognize", "/v1/score"])
@pytest.mark.parametrize("field, value", [("winning_tile", "1f"), ("concealed_kong_tiles", "1m5f")])
def test_a_flower_named_as_winning_or_kong_tile_is_refused_whatever_the_photo(client, endpoint, field, value):
    # refused before the photo is read: /v1/recognize used to answer 200 for a photo with no tiles (the reader,
    # which refuses flowers there, had nothing to read)
    blank = small_image("PNG", (640, 480))
    response = client.post(endpoint, files={"image": ("blank.png", blank, "image/png")}, data={field: value})
    assert field in assert_error(response, 422, "flower_in_hand")["message"]


def test_image_sent_as_text_field(client):
    assert_error(client.post("/v1/recognize", data={"image": "not a file"}), 422, "invalid_request")


@pytest.mark.parametrize("endpoint", ["/v1/recognize", "/v1/score"])
def test_unknown_form_field(client, endpoint):
    response = client.post(endpoint, files={"image": ("a.jpg", PHOTOS[0].read_bytes(), "image/jpeg")},
                           data={"colour": "red"})
    assert "colour" in assert_error(response, 422, "unknown_field")["message"]


@pytest.mark.parametrize("fields, code", [
    ({"self_drawn": "true", "robbing_kong": "true"}, "contradictory_context"),
    ({"kong_replacement": "true"}, "contradictory_context"),  # kong replacement but not self-drawn
    ({"seat_wind": "X"}, "invalid_context"),
    ({"rules": "bridge"}, "unknown_rules"),
    ({"honba": "three"}, "invalid_request"),
    ({"self_drawn": "maybe"}, "invalid_request"),
    ({"context": "{not json"}, "invalid_json"),
    ({"context": "[" * 100_000}, "invalid_json"),  # json.loads: RecursionError, not JSONDecodeError (was a 500)
    ({"context": '{"honba": ' + "9" * 5000 + "}"}, "invalid_json"),  # ValueError: over 4300 digits (was a 500)
    ({"options": "[" * 100_000, "rules": "riichi"}, "invalid_json"),
    ({"context": "[1, 2]"}, "invalid_request"),
    ({"context": json.dumps({"rules": "mcr", "colour": "red"})}, "invalid_request"),
    ({"options": json.dumps({"aka_dora": "yes"}), "rules": "riichi"}, "invalid_request"),
    ({"winning_tile": "10m"}, "unknown_tile"),
    ({"concealed_kong_tiles": "xyz"}, "unknown_tile"),
])
def test_bad_context_on_photo_scoring_is_4xx_before_any_image_work(client, fields, code):
    # An empty image would be 400 empty_file: getting the context's code shows the context is checked first.
    response = client.post("/v1/score", files={"image": ("a.jpg", b"", "image/jpeg")}, data=fields)
    status = 400 if code == "invalid_json" else 422
    assert_error(response, status, code)


# ---- /v1/hands/score --------------------------------------------------------------------------------------------
def test_malformed_json(client):
    for body in (b"{", b"{'hand': 1}", b"", b"\xff\xfe", b"[1, 2"):
        response = client.post("/v1/hands/score", content=body, headers={"content-type": "application/json"})
        assert response.status_code in (400, 422), (body, response.text)
        assert response.json()["error"]["code"] in ("invalid_json", "invalid_request")
    response = client.post("/v1/hands/score", content=b"{", headers={"content-type": "application/json"})
    assert_error(response, 400, "invalid_json")


@pytest.mark.parametrize("body, says", [
    (b'{"hand": "\xe9"}', "utf-8"),  # Latin-1, not UTF-8
    (b'{"hand": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "recursion"),
    (b'{"hand": "123456789m11p23p +4p", "context": {"honba": ' + b"9" * 5000 + b"}}", "digits"),
])
def test_bodies_json_cannot_decode_are_invalid_json_and_say_why(client, body, says):
    # FastAPI turns these (UnicodeDecodeError, RecursionError, ValueError: not JSONDecodeError) into a bare 400
    # "There was an error parsing the body"; they are bodies that are not JSON, and the message says what is wrong.
    response = client.post("/v1/hands/score", content=body, headers={"content-type": "application/json"})
    assert says in assert_error(response, 400, "invalid_json")["message"].lower()


@pytest.mark.parametrize("payload", [
    [GOOD_HAND],
    "123m",
    {"hand": 5},
    {"hand": {"concealed": 5}},
    {"hand": {"concealed": ["1m", 2]}},
    {"hand": {"concealed": "123m", "melds": "c123m<"}},
    {"hand": "123456789m11p23p +4p", "context": {"self_drawn": "yes"}},
    {"hand": "123456789m11p23p +4p", "context": {"honba": 1.5, "rules": "riichi"}},
    {"hand": "123456789m11p23p +4p", "context": []},
])
def test_wrong_types(client, payload):
    assert_error(client.post("/v1/hands/score", json=payload), 422, "invalid_request")


@pytest.mark.parametrize("payload, where", [
    ({**GOOD_HAND, "extra": 1}, "extra"),
    ({"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p", "colour": "red"}}, "colour"),
    ({"hand": "123456789m11p23p +4p", "context": {"rules": "mcr", "dealer": True}}, "dealer"),
    ({"hand": {"concealed": "123456789m11", "winning_tile": "1p",
               "melds": [{"type": "chow", "tiles": "234p", "from": "left", "side": 1}]}}, "side"),
    ({"hand": "123456789m11p23p +4p", "context": {"rules": "riichi", "options": {"tobi": True}}}, "tobi"),
])
def test_unknown_fields(client, payload, where):
    assert where in assert_error(client.post("/v1/hands/score", json=payload), 422, "invalid_request")["message"]


@pytest.mark.parametrize("context, code", [
    ({"self_drawn": True, "robbing_kong": True}, "contradictory_context"),
    ({"kong_replacement": True, "self_drawn": True}, "contradictory_context"),  # no kong in the hand
    ({"rules": "riichi", "ippatsu": True}, "contradictory_context"),  # ippatsu without riichi
    ({"rules": "riichi", "blessing": "heaven", "seat_wind": "S", "self_drawn": True}, "contradictory_context"),
    ({"seat_wind": "middle"}, "invalid_context"),
    ({"rules": "riichi", "honba": -1}, "invalid_context"),
    # 4300 digits is the most JSON can carry into Python; the points paid on it could not be written back (was a 500)
    ({"rules": "riichi", "riichi": True, "honba": int("9" * 4300)}, "invalid_context"),
    ({"rules": "riichi", "riichi_sticks": 10 ** 30}, "invalid_context"),
    ({"rules": "go"}, "unknown_rules"),
    ({"rules": "riichi", "ruleset": "house"}, "unknown_rules"),
])
def test_contradictory_or_invalid_context(client, context, code):
    response = client.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p", "context": context})
    assert_error(response, 422, code)


@pytest.mark.parametrize("hand, code", [
    ("123456789m11p23p", "wrong_tile_count"),  # no winning tile
    ("123456789m11p23p +4x", "unknown_tile"),
    ("11111m234567m1p2p +3p", "too_many_copies"),
    ("123456789m11p23p +5p", "not_winning"),
    ("123456m11p23p c135s< +4p", "invalid_chow"),
    ("123456m11p23p p777z +4p", "invalid_meld_source"),
    ("+", "unknown_tile"),
    ("123456789m11p23p +4p 11f", "duplicate_flower"),
    ({"concealed": "123456789m11p234p", "winning_tile": "5p"}, "winning_tile_not_in_hand"),
])
def test_bad_hands_keep_engine_codes(client, hand, code):
    response = client.post("/v1/hands/score", json={"hand": hand, "context": {"rules": "mcr"}})
    assert_error(response, 422, code)


_TILES = '[{"code": "1m", "box": [0, 0, 10, 14]}]'


@pytest.mark.parametrize("path, body, key", [
    # which hand, which winning tile, which rules? json.loads kept the last, and the last was scored without a word
    ("/v1/hands/score", '{"hand": "123456789m11p23p +4p", "context": {"rules": "mcr"}, "hand": "123456789m11p23p +1p"}',
     "hand"),
    ("/v1/hands/score", '{"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p", "winning_tile": "1p"}}',
     "winning_tile"),
    ("/v1/hands/score", '{"hand": "123456789m11p23p +4p", "context": {"rules": "mcr", "rules": "riichi"}}', "rules"),
    ("/v1/hands/score", '{"hand": "123456789m11p23p +4p", "context": {"rules": "riichi", "riichi": true, '
                        '"options": {"aka_dora": true, "aka_dora": false}}}', "aka_dora"),
    ("/v1/tiles/score", '{"tiles": ' + _TILES + ', "tiles": [], "width": 100, "height": 100}', "tiles"),
    ("/v1/tiles/score", '{"tiles": ' + _TILES + ', "width": 100, "height": 100, "context": {"seat_wind": "E", '
                        '"seat_wind": "S"}}', "seat_wind"),
])
def test_a_key_sent_twice_in_a_json_body_is_refused_naming_it(client, path, body, key):
    # RFC 8259: names within an object SHOULD be unique, and what a reader makes of repeats is unpredictable; the
    # referee's tool that sent it meant one of the two, so it is told, as the CLI tells a line
    response = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
    error = assert_error(response, 422, "duplicate_key")
    assert repr(key) in error["message"] and error["details"] == {"key": key}


@pytest.mark.parametrize("fields, key", [
    ({"context": '{"rules": "mcr", "self_drawn": true, "self_drawn": false}'}, "self_drawn"),
    ({"rules": "riichi", "options": '{"kuitan": true, "kuitan": false}'}, "kuitan"),
])
def test_a_key_sent_twice_in_a_json_form_field_is_refused_naming_it(client, fields, key):
    # the JSON held in /v1/score's context and options fields is read as the JSON bodies are, before any image work
    response = client.post("/v1/score", files={"image": ("a.jpg", b"", "image/jpeg")}, data=fields)
    error = assert_error(response, 422, "duplicate_key")
    assert repr(key) in error["message"] and error["details"] == {"key": key}


@pytest.mark.parametrize("path, fields", [
    ("/v1/hands/score", None),
    ("/v1/score", {"context": '{"\\ud800": true, "\\ud800": false}'}),
    ("/v1/score", {"rules": "riichi", "options": '{"\\ud800": true, "\\ud800": false}'}),
])
def test_a_key_sent_twice_that_is_a_lone_surrogate_is_refused_not_a_500(client, path, fields):
    # JSON may write a lone surrogate ("\ud800"); the repeated key went back raw in details, and rendering the
    # answer as UTF-8 failed: 500 internal_error
    if fields is None:
        response = client.post(path, content=b'{"\\ud800": 1, "\\ud800": 2}',
                               headers={"content-type": "application/json"})
    else:
        response = client.post(path, files={"image": ("a.jpg", b"", "image/jpeg")}, data=fields)
    error = assert_error(response, 422, "duplicate_key")
    assert error["details"] == {"key": "\\ud800"}


@pytest.mark.parametrize("path, body", [
    ("/v1/hands/score", b'{"hand": "123456789m11p23p +4p", "\\ud800": 1}'),
    ("/v1/tiles/score", b'{"tiles": [], "width": 10, "height": 10, "\\ud800": 1}'),
])
def test_a_lone_surrogate_key_in_a_json_body_is_named_not_taken_for_a_missing_header(client, path, body):
    # pydantic reports a key it cannot read as text at the body itself, with the key as input: the answer told a
    # client that had sent application/json to send "a JSON object with Content-Type: application/json"
    error = assert_error(client.post(path, content=body, headers={"content-type": "application/json"}),
                         422, "invalid_request")
    assert "Content-Type" not in error["message"] and "lone surrogate" in error["message"]
    assert "'\\ud800'" in error["message"]


def test_dora_indicators_that_contradict_themselves_are_a_422_before_the_photo_is_read(client):
    # "A contradictory or invalid context is a 422 before any image work": five 5p among the indicators passed the
    # context check, and the photo was read (here: an empty upload, 400 empty_file) before anything said so
    response = client.post("/v1/score", files={"image": ("a.jpg", b"", "image/jpeg")},
                           data={"rules": "riichi", "dora_indicators": "5p5p5p", "ura_dora_indicators": "5p5p"})
    assert_error(response, 422, "contradictory_context")


@pytest.mark.parametrize("content_type", [None, "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"])
def test_a_json_body_not_labelled_json_is_told_to_say_so(client, content_type):
    # fetch(url, {method: "POST", body: JSON.stringify(...)}) labels the body text/plain;charset=UTF-8. The answer
    # said the body "should be a valid dictionary or object", which it was: it now names the missing header.
    headers = {"content-type": content_type} if content_type else {}
    error = assert_error(client.post("/v1/hands/score", content=json.dumps(GOOD_HAND).encode(), headers=headers),
                         422, "invalid_request")
    assert "Content-Type: application/json" in error["message"]

# ---- limits, auth, routing --------------------------------------------------------------------------------------
def test_body_over_the_upload_limit_is_413_before_parsing():
    with TestClient(create_app(make_settings(max_upload_bytes=10_000)), raise_server_exceptions=False) as small:
        response = small.post("/v1/recognize", files={"image": ("a.jpg", PHOTOS[0].read_bytes(), "image/jpeg")})
        assert_error(response, 413, "payload_too_large")
        # Without a Content-Length (chunked upload) the limit still holds.
        chunks = (b"x" * 4000 for _ in range(5))
        response = small.post("/v1/hands/score", content=chunks, headers={"content-type": "application/json"})
        assert_error(response, 413, "payload_too_large")
        assert small.post("/v1/hands/score", json=GOOD_HAND).status_code == 200


def test_json_bodies_have_their_own_smaller_limit(tmp_path):
    # 25 MB of JSON (the photo limit) took 7-15 s of CPU to parse and refuse: a million unknown keys, or melds.
    with TestClient(create_app(make_settings(models_dir=tmp_path)), raise_server_exceptions=False) as app:
        extra = {**GOOD_HAND, **{f"x{i}": 0 for i in range(120_000)}}  # about 1.6 MB
        error = assert_error(app.post("/v1/hands/score", json=extra), 413, "payload_too_large")
        assert "1048576" in error["message"]
        chunks = (b" " * 100_000 for _ in range(11))  # no Content-Length: the limit holds while reading
        assert_error(app.post("/v1/tiles/score", content=chunks, headers={"content-type": "application/json"}),
                     413, "payload_too_large")
        assert app.post("/v1/hands/score", json=GOOD_HAND).status_code == 200
    with TestClient(create_app(make_settings(models_dir=tmp_path, max_json_bytes=100)),
                    raise_server_exceptions=False) as small:
        assert_error(small.post("/v1/hands/score", json={**GOOD_HAND, "pad": "x" * 100}), 413, "payload_too_large")
        # the photo routes keep the upload limit
        response = small.post("/v1/recognize", files={"image": ("a.png", small_image("PNG"), "image/png")})
        assert response.status_code != 413, response.text


@pytest.mark.parametrize("payload, where", [
    ({"hand": "p111m " * 400_000}, "hand"),  # 2.4 MB: 9 s of CPU and the whole string echoed in the error
    ({"hand": {"concealed": "1" * 200_000 + "m", "winning_tile": "1m"}}, "hand.concealed"),
    ({"hand": {"concealed": ["1m"] * 100_000, "winning_tile": "1m"}}, "hand.concealed"),
    ({"hand": {"concealed": "11m", "winning_tile": "1m",
               "melds": [{"type": "pung", "tiles": "111m", "from": "left"}] * 9}}, "hand.melds"),
    ({"hand": "123456789m11p23p +4p", "context": {"dora_indicators": ["1m"] * 50_000}}, "context.dora_indicators"),
    ({"hand": "123456789m11p23p +4p", "context": {"seat_wind": "E" * 100_000}}, "context.seat_wind"),
])
def test_hands_far_over_any_hands_size_are_refused_unread(payload, where, tmp_path):
    with TestClient(create_app(make_settings(models_dir=tmp_path, max_json_bytes=10 * 1024 * 1024)),
                    raise_server_exceptions=False) as app:
        response = app.post("/v1/hands/score", json=payload)
        error = assert_error(response, 422, "invalid_request")
        assert error["message"].startswith(where + ":"), error
        assert len(response.content) < 1000  # the input is not quoted back


def test_size_limits_leave_the_engines_codes_for_hands_near_a_real_one(client):
    five_melds = {"concealed": "1m", "winning_tile": "1m",
                  "melds": [{"type": "pung", "tiles": f"{n}{n}{n}p", "from": "left"} for n in range(1, 6)]}
    assert_error(client.post("/v1/hands/score", json={"hand": five_melds}), 422, "wrong_tile_count")
    assert_error(client.post("/v1/hands/score", json={"hand": "123456789m11p23p45p +4p"}), 422, "wrong_tile_count")


def test_photo_override_fields_are_bounded(client):
    for field, value in (("winning_tile", "4" * 5000 + "p"), ("concealed_kong_tiles", "1" * 5000 + "z")):
        response = client.post("/v1/score", files={"image": ("a.png", small_image("PNG"), "image/png")},
                               data={field: value})
        assert_error(response, 422, "invalid_request")
        assert len(response.content) < 1000


def test_api_key_is_required_when_configured():
    with TestClient(create_app(make_settings(api_key="s3cret")), raise_server_exceptions=False) as keyed:
        assert_error(keyed.post("/v1/hands/score", json=GOOD_HAND), 401, "unauthorized")
        assert_error(keyed.post("/v1/hands/score", json=GOOD_HAND, headers={"X-API-Key": "wrong"}), 401,
                     "unauthorized")
        assert keyed.post("/v1/hands/score", json=GOOD_HAND, headers={"X-API-Key": "s3cret"}).status_code == 200
        assert keyed.post("/v1/hands/score", json=GOOD_HAND,
                          headers={"Authorization": "Bearer s3cret"}).status_code == 200
        # Health, docs and the page stay open (monitoring and the page's own key field need them).
        assert keyed.get("/healthz").status_code == 200
        assert keyed.get("/openapi.json").status_code == 200
        assert keyed.get("/referee").status_code == 200


def test_an_api_key_beyond_ascii_is_accepted_as_the_client_sends_it():
    # MAHJONG_API_KEY is text; a client (curl in a UTF-8 shell, a tablet app) sends it as UTF-8 bytes. The header was
    # read as latin-1 and encoded again as UTF-8, so the right key never matched: every call 401.
    with TestClient(create_app(make_settings(api_key="clé-mahjong"))) as keyed:
        right = keyed.post("/v1/hands/score", json=GOOD_HAND, headers={"X-API-Key": "clé-mahjong".encode()})
        assert right.status_code == 200, right.text
        wrong = keyed.post("/v1/hands/score", json=GOOD_HAND, headers={"X-API-Key": "cle-mahjong"})
        assert_error(wrong, 401, "unauthorized")

def test_unknown_path_and_wrong_method(client):
    assert_error(client.get("/v1/nothing"), 404, "not_found")
    assert_error(client.get("/v1/hands/score"), 405, "method_not_allowed")


def test_a_stalled_upload_gets_408_and_frees_its_slot():
    import asyncio

    import httpx

    app = create_app(make_settings(body_timeout_s=0.3))

    async def scenario():
        async def stalled_body():
            yield b'{"hand": '
            await asyncio.sleep(2)
            yield b'"123456789m11p23p +4p"}'

        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                stalled = await client.post("/v1/hands/score", content=stalled_body(),
                                            headers={"content-type": "application/json"})
                fine = await client.post("/v1/hands/score", json=GOOD_HAND)
        return stalled, fine

    stalled, fine = asyncio.run(scenario())
    assert_error(stalled, 408, "request_timeout")
    assert fine.status_code == 200


def test_a_client_gone_mid_upload_is_not_read_as_a_bad_request():
    # A tablet losing its connection half-way through a body sent no bad JSON: its half body was handed to the route
    # as if complete, answered 400 invalid_json to no one, and counted in the metrics as the client's mistake.
    import asyncio

    app = create_app(make_settings())
    sent: list[dict] = []

    async def scenario():
        messages = iter([{"type": "http.request", "body": b'{"hand": "123456789m', "more_body": True},
                         {"type": "http.disconnect"}])

        async def receive():
            return next(messages)

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/v1/hands/score", "raw_path": b"/v1/hands/score", "root_path": "",
                 "query_string": b"", "headers": [(b"content-type", b"application/json"), (b"content-length", b"60")],
                 "client": ("127.0.0.1", 5000), "server": ("test", 80)}
        async with app.router.lifespan_context(app):
            await app(scope, receive, send)

    asyncio.run(scenario())
    assert not [m for m in sent if m["type"] == "http.response.start" and m["status"] < 500 and m["status"] != 499]
    metrics = TestClient(app).get("/metrics").text
    assert "invalid_json" not in metrics and "invalid_request" not in metrics


def test_a_body_that_cannot_be_taken_apart_is_malformed_body_400(client):
    """Each code has one status (README, api/errors.py): a multipart form without its boundary and a bad
    Content-Length were 400 invalid_request, a code that is 422 everywhere else."""
    from api.errors import status_for

    response = client.post("/v1/score", content=b"garbage", headers={"content-type": "multipart/form-data"})
    assert_error(response, 400, "malformed_body")
    response = client.post("/v1/hands/score", content=b"{}",
                           headers={"content-type": "application/json", "content-length": "abc"})
    assert_error(response, 400, "malformed_body")
    assert status_for("malformed_body") == 400 and status_for("invalid_request") == 422


def test_a_photo_costly_to_open_is_refused_before_pillow_walks_it(client):
    # 25 MB of empty JPEG segments (or PNG chunks) before the pixels: Pillow's header walk, in Python on the event
    # loop's thread, took about 15 s and held every other request meanwhile
    jpeg = small_image("JPEG")
    png = small_image("PNG")
    empty_chunk = b"\x00\x00\x00\x00abCd" + zlib.crc32(b"abCd").to_bytes(4, "big")
    for name, data in (("a.jpg", jpeg[:20] + b"\xff\xfe\x00\x02" * 5000 + jpeg[20:]),
                       ("a.png", png[:33] + empty_chunk * 1500 + png[33:])):
        response = client.post("/v1/recognize", files={"image": (name, data, "application/octet-stream")})
        assert_error(response, 400, "unreadable_image")


def test_a_large_body_with_a_long_key_sent_twice_is_refused_with_the_key_cut_short(client):
    # a body over 64 KiB is read off the event loop (schemas.OFF_LOOP_JSON_BYTES) and refused the same way; a key
    # as long as the body is quoted back cut to 64 characters, not echoed whole twice
    key = "k" * 100_000
    body = '{"hand": "123456789m11p23p +4p", "context": {"' + key + '": 1, "' + key + '": 2}}'
    response = client.post("/v1/hands/score", content=body.encode(), headers={"content-type": "application/json"})
    error = assert_error(response, 422, "duplicate_key")
    assert error["details"] == {"key": "k" * 61 + "..."} and len(response.content) < 1000


# --- session 56's audit of the service --------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", [
    {"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p"}, "context": None},
    {"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p", "melds": None, "flowers": None}},
    {"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p"}, "context": {"rules": "mcr", "seat_wind": None}},
], ids=["context null", "melds and flowers null", "seat wind null"])
def test_nulls_are_fields_not_sent_as_on_the_command_line(client, payload):
    # the CLI scores these lines (null is no value: engine.hand), and the service refused them with 422
    import subprocess
    import sys

    from .conftest import ROOT

    response = client.post("/v1/hands/score", json=payload)
    assert response.status_code == 200, response.text
    line = subprocess.run([sys.executable, "-m", "engine", "score"], input=json.dumps(payload), text=True,
                          capture_output=True, cwd=ROOT, timeout=60).stdout
    assert json.loads(line)["total"] == response.json()["total"]


@pytest.mark.parametrize("payload, where", [
    ({"hand": "123456789m11p23p +4p", "bogus": None}, "bogus"),
    ({"hand": "123456789m11p23p +4p", "context": {"rules": "mcr", "bogus": None}}, "context.bogus"),
    ({"hand": {"concealed": "123456789m11p23p", "winning_tile": "4p", "bogus": None}}, "hand.bogus"),
])
def test_an_unknown_field_sent_as_null_is_still_unknown(client, payload, where):
    # only the model's own fields sent as null are taken as not sent (a review's finding: any null key passed)
    error = client.post("/v1/hands/score", json=payload).json()["error"]
    assert error["code"] in ("invalid_request", "unknown_field") and where in error["message"], error


def test_an_empty_body_is_invalid_json(client):
    response = client.post("/v1/hands/score", content=b"", headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_json"


def test_an_error_inside_a_hand_object_does_not_ask_for_a_string(client):
    # the compact-string branch of `hand` added "hand: Input should be a valid string" to every error in the object
    for hand in ({"concealed": "123456789m11p23p", "winning_tile": "4p", "foo": 1},
                 {"concealed": "123456789m11p23p", "melds": [{"type": 5}]}):
        error = client.post("/v1/hands/score", json={"hand": hand}).json()["error"]
        assert error["code"] == "invalid_request" and "hand: Input should be a valid string" not in error["message"]
    # a hand of neither shape still names both
    error = client.post("/v1/hands/score", json={"hand": 5}).json()["error"]
    assert "valid string" in error["message"] and "dictionary" in error["message"]


def test_an_unauthorized_answer_names_its_scheme():
    with TestClient(create_app(make_settings(api_key="k"))) as keyed:
        response = keyed.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p"})
        assert response.status_code == 401 and response.headers["www-authenticate"].startswith("Bearer")


def test_a_corrupt_exif_block_leaves_no_line_outside_the_json_log(tmp_path):
    # Pillow warned on stderr between the JSON records (two lines of a UserWarning); a service of its own, in a process
    # of its own, since pytest catches warnings itself
    import subprocess
    import sys

    from .conftest import ROOT

    script = tmp_path / "serve_one.py"
    script.write_text("""
import io, struct
from fastapi.testclient import TestClient
from PIL import Image
from api.app import create_app
from api.settings import Settings
buffer = io.BytesIO()
Image.new("RGB", (320, 240), (200, 180, 150)).save(buffer, format="JPEG")
good = buffer.getvalue()
app1 = bytes.fromhex("ffe1ffff") + b"Exif" + bytes(2) + bytes.fromhex("4d4d002a00000008") + bytes([255]) * 65519
with TestClient(create_app(Settings(log_json=True, warmup=False))) as client:
    status = client.post("/v1/recognize", files={"image": ("x.jpg", good[:2] + app1 + good[2:], "image/jpeg")},
                         data={"overlay": "false"}).status_code
print(status)
""")
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    assert run.returncode == 0 and run.stdout.strip() in ("200", "400"), run.stderr[-2000:]
    records = [json.loads(line) for line in run.stderr.splitlines()]  # every line a JSON record
    assert any("Corrupt EXIF" in r.get("message", "") for r in records), records


def test_a_multipart_upload_cut_short_is_a_malformed_body(client):
    # the form parser took the cut part as far as it went and answered 422 "image: Field required" (session 56's audit)
    jpeg = small_image("JPEG", (320, 240))
    head = b'--XX\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
    for body in (head + jpeg[:1000], head + jpeg + b"\r\n--XX"):
        response = client.post("/v1/recognize", content=body,
                               headers={"content-type": "multipart/form-data; boundary=XX"})
        assert response.status_code == 400 and response.json()["error"]["code"] == "malformed_body", response.text
    whole = head + jpeg + b"\r\n--XX--\r\n"
    response = client.post("/v1/recognize", content=whole,
                           headers={"content-type": 'multipart/form-data; boundary="XX"'})
    assert response.status_code != 400 or response.json()["error"]["code"] != "malformed_body", response.text


def test_an_over_long_context_field_on_the_photo_route_says_so(client):
    # it said "context dora_indicators.list[constrained-str]: Input should be a valid list" (session 56's audit)
    response = client.post("/v1/score", files={"image": ("x.jpg", small_image("JPEG", (320, 240)), "image/jpeg")},
                           data={"rules": "riichi", "dora_indicators": "1m" * 2000})
    error = response.json()["error"]
    assert response.status_code == 422 and error["code"] == "invalid_request"
    message = error["message"]
    assert "dora_indicators" in message and "[" not in message and "at most" in message, error


def test_only_a_photo_upload_is_checked_for_its_closing_boundary(client):
    # a review's findings: the boundary is read as the form parser reads it (a quoted one holding ";"), a JSON route
    # labelled multipart keeps its own answer, and an empty body is no cut upload
    jpeg = small_image("JPEG", (320, 240))
    part = b'Content-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n'
    quoted = b"--a;b\r\n" + part + jpeg + b"\r\n--a;b--\r\n"
    response = client.post("/v1/recognize", content=quoted,
                           headers={"content-type": 'multipart/form-data; boundary="a;b"'})
    assert response.status_code == 200, response.text
    json_route = client.post("/v1/hands/score", content=b'{"hand": "123456789m11p23p +4p"}',
                             headers={"content-type": "multipart/form-data; boundary=XX"})
    assert json_route.json()["error"]["code"] != "malformed_body" or "cut" not in json_route.json()["error"]["message"]
    empty = client.post("/v1/recognize", content=b"", headers={"content-type": "multipart/form-data; boundary=XX"})
    assert "cut short" not in empty.json()["error"]["message"]


def test_a_context_key_named_body_is_named_as_a_field(client):
    payload = {"hand": "123456789m11p23p +4p", "context": {"body": 1}}
    error = client.post("/v1/hands/score", json=payload).json()["error"]
    assert "context.body" in error["message"], error
