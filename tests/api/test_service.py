"""Health, metrics, request ids, CORS, settings, OpenAPI and the page being served."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

import engine.mcr
from api.app import create_app
from api.settings import Settings
from engine.mcr import compiled

from .conftest import MODELS_DIR, ROOT, make_settings, models_present, requires_models, small_image


def test_healthz_says_what_is_available(client):
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["recognition"]["available"] is models_present()
    assert body["scoring"] == {"mcr": True, "riichi": True}
    assert body["mcr_engine"] in (compiled.COMPILED, compiled.NOT_BUILT, compiled.STALE, compiled.PURE_REQUESTED)
    assert body["mcr_engine"] == engine.mcr.FAST_IMPLEMENTATION
    ready = client.get("/readyz")
    assert ready.status_code == (200 if models_present() else 503)


def test_metrics_count_requests_by_route_and_error_code(client):
    client.post("/v1/hands/score", json={"hand": "123456789m11p23p +5p"})  # not_winning
    client.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p"})
    text = client.get("/metrics").text
    assert 'mahjong_http_requests_total{method="POST",route="/v1/hands/score",status="200"}' in text
    assert 'mahjong_http_requests_total{method="POST",route="/v1/hands/score",status="422"}' in text
    assert 'mahjong_errors_total{code="not_winning"}' in text
    assert "mahjong_inference_in_flight" in text


def test_metrics_count_the_refusals_the_middleware_answers_under_their_route_and_code():
    # README: /metrics counts "requests by route and status ... refusals, error codes". A 401, 413 or 503 answered
    # before the router (API key, body limit, full queue) is still a request to its route with its code.
    with TestClient(create_app(make_settings(api_key="k", max_upload_bytes=100))) as small:
        assert small.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p"}).status_code == 401
        assert small.post("/v1/recognize", headers={"X-API-Key": "k"},
                          files={"image": ("a.jpg", b"x" * 1000, "image/jpeg")}).status_code == 413
        text = small.get("/metrics").text
    assert 'mahjong_http_requests_total{method="POST",route="/v1/hands/score",status="401"} 1.0' in text
    assert 'mahjong_http_requests_total{method="POST",route="/v1/recognize",status="413"} 1.0' in text
    assert 'mahjong_errors_total{code="unauthorized"} 1.0' in text
    assert 'mahjong_errors_total{code="payload_too_large"} 1.0' in text
    assert 'route="unmatched"' not in text

@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/referee", "/openapi.json"])
def test_head_answers_wherever_get_does(client, path):
    # RFC 9110 9.1: "All general-purpose servers MUST support the methods GET and HEAD"; 9.3.2: HEAD is GET without
    # the content (uptime monitors probe with it). These answered 405 but for /openapi.json.
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code
    assert head.headers["content-type"] == got.headers["content-type"] and head.content == b""
    assert head.headers["x-request-id"]


def test_head_where_only_post_is_allowed_is_still_405(client):
    response = client.head("/v1/hands/score")
    assert response.status_code == 405 and response.headers["allow"] == "POST"

def test_request_id_is_echoed_or_made(client):
    assert client.get("/healthz", headers={"X-Request-ID": "abc123"}).headers["x-request-id"] == "abc123"
    assert len(client.get("/healthz").headers["x-request-id"]) >= 8



def test_request_id_is_echoed_byte_for_byte():
    # The id a client sent comes back as it sent it (header values are octets; it was read as latin-1 and sent back
    # as UTF-8: "réf" returned as "rÃ©f", and the client could not find its request).
    import asyncio

    sent, messages = "réf-42".encode(), []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/nothing", "raw_path": b"/nothing", "root_path": "", "query_string": b"",
             "headers": [(b"x-request-id", sent)], "client": ("127.0.0.1", 5000), "server": ("test", 80)}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    asyncio.run(create_app(make_settings())(scope, receive, send))  # raw ASGI: the test client reads headers as ASCII
    assert dict(messages[0]["headers"])[b"x-request-id"] == sent

def test_cors_only_when_configured():
    with TestClient(create_app(make_settings())) as plain:
        assert "access-control-allow-origin" not in plain.get("/healthz", headers={"Origin": "https://x.example"}).headers
    with TestClient(create_app(make_settings(cors_origins=("https://club.example",), api_key="k"))) as cors:
        preflight = cors.options("/v1/hands/score", headers={
            "Origin": "https://club.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-api-key,content-type"})
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == "https://club.example"


def test_settings_from_environment():
    settings = Settings.from_env({"MAHJONG_MAX_UPLOAD_BYTES": "1000", "MAHJONG_CORS_ORIGINS": "https://a, https://b",
                                  "MAHJONG_API_KEY": "", "MAHJONG_LOG_JSON": "false", "MAHJONG_MODELS_DIR": "/m",
                                  "MAHJONG_REQUEST_TIMEOUT_S": "2.5"})
    assert settings.max_upload_bytes == 1000
    assert settings.cors_origins == ("https://a", "https://b")
    assert settings.api_key is None and settings.log_json is False
    assert str(settings.models_dir) == "/m" and settings.request_timeout_s == 2.5


# README "Settings": 0 means off / the default only for MAHJONG_OVERLAY_MAX_SIDE and MAHJONG_INFERENCE_THREADS; no
# pending body, no upload byte or no second to receive it refuses every request, and NaN is no timeout at all.
@pytest.mark.parametrize("variable, value", [
    ("MAHJONG_MAX_PENDING_REQUESTS", "0"), ("MAHJONG_MAX_UPLOAD_BYTES", "0"), ("MAHJONG_MAX_UPLOAD_BYTES", "-1"),
    ("MAHJONG_MAX_IMAGE_PIXELS", "0"), ("MAHJONG_BODY_TIMEOUT_S", "0"), ("MAHJONG_REQUEST_TIMEOUT_S", "nan"),
    ("MAHJONG_REQUEST_TIMEOUT_S", "-1"), ("MAHJONG_BODY_TIMEOUT_S", "inf"), ("MAHJONG_QUEUE_SIZE", "-1"),
    ("MAHJONG_OVERLAY_MAX_SIDE", "-3"), ("MAHJONG_INFERENCE_THREADS", "-2"), ("MAHJONG_LOG_LEVEL", "verbose"),
])
def test_settings_that_cannot_work_are_refused_naming_the_variable(variable, value):
    with pytest.raises(ValueError, match=variable):
        Settings.from_env({variable: value})


def test_settings_zero_where_the_readme_gives_it_a_meaning():
    settings = Settings.from_env({"MAHJONG_OVERLAY_MAX_SIDE": "0", "MAHJONG_INFERENCE_THREADS": "0",
                                  "MAHJONG_QUEUE_SIZE": "0", "MAHJONG_LOG_LEVEL": "debug"})
    assert (settings.overlay_max_side, settings.inference_threads, settings.queue_size) == (0, 0, 0)


def test_a_bad_setting_stops_the_service_with_one_line_not_a_traceback():
    env = {**os.environ, "MAHJONG_MAX_PENDING_REQUESTS": "zero"}
    run = subprocess.run([sys.executable, "-c", "import api.main"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode != 0
    assert "MAHJONG_MAX_PENDING_REQUESTS='zero' is not a valid int" in run.stderr
    assert "Traceback" not in run.stderr

def test_openapi_lists_the_contract(client):
    spec = client.get("/openapi.json").json()
    for path in ("/v1/recognize", "/v1/score", "/v1/hands/score"):
        assert "post" in spec["paths"][path]
    assert "get" in spec["paths"]["/healthz"]
    assert client.get("/docs").status_code == 200


def test_referee_page_is_served(client):
    page = client.get("/referee")
    assert page.status_code == 200 and "Mahjong referee" in page.text
    assert client.get("/static/referee.js").status_code == 200
    assert client.get("/", follow_redirects=False).headers["location"] == "/referee"


def test_request_schema_covers_every_engine_context_field():
    # The HTTP schema forbids unknown fields, so a context field the engine gains must be added here too.
    from engine.hand import CONTEXT_FIELDS

    from api.routers.photos import _CONTEXT_FORM_FIELDS, _PHOTO_FIELDS
    from api.schemas import ContextIn

    assert set(ContextIn.model_fields) == CONTEXT_FIELDS
    assert CONTEXT_FIELDS <= _CONTEXT_FORM_FIELDS | _PHOTO_FIELDS


@requires_models
def test_warm_up_runs_every_model_file():
    """The start-up warm-up runs the three committed localisers, the squeezed-picture and close-shot ones included (a
    plain picture reaches neither), so that no user request pays for a first run."""
    from unittest import mock

    from vision.onnx_models import Localizer

    calls = []
    real_run = Localizer.raw  # every run of the network goes through it

    def counting(self, *args, **kwargs):
        calls.append(self)
        return real_run(self, *args, **kwargs)

    with mock.patch.object(Localizer, "raw", counting):
        with TestClient(create_app(make_settings(warmup=True))) as app_client:
            assert app_client.get("/readyz").status_code == 200
    assert len(set(map(id, calls))) == 3


def test_health_and_refusals_do_not_show_the_servers_paths(tmp_path):
    # /healthz needs no key; it said "no model files (*.onnx) in /srv/..." and onnxruntime's "Load model from
    # /srv/.../localizer.onnx failed: ..." when a file was broken
    from fastapi.testclient import TestClient

    secret = tmp_path / "secret-place"
    secret.mkdir()
    with TestClient(create_app(make_settings(models_dir=secret))) as app:
        assert "secret-place" not in app.get("/healthz").text
        assert app.get("/healthz").json()["recognition"]["available"] is False
    (secret / "localizer.onnx").write_bytes(b"not a model")
    with TestClient(create_app(make_settings(models_dir=secret))) as app:
        health = app.get("/healthz").json()
        assert health["recognition"]["available"] is False
        assert "secret-place" not in json.dumps(health), health
        refused = app.post("/v1/recognize", files={"image": ("a.png", small_image("PNG"), "image/png")})
        assert refused.status_code == 503 and "secret-place" not in refused.text


@requires_models
@pytest.mark.parametrize("name, content", [
    ("classifier.onnx", "localizer.onnx"), ("localizer.onnx", "classifier.onnx"), ("lift.onnx", "classifier.onnx"),
    ("localizer_close.onnx", "classifier.onnx"), ("classifier.onnx", b"\x08\x07" + b"\x00" * 64),
], ids=["localizer-as-classifier", "classifier-as-localizer", "classifier-as-lift", "classifier-as-close-localizer",
        "not-onnx"])
def test_an_unusable_model_file_is_named_and_photos_get_503_not_500(tmp_path, name, content):
    # README (Service): without usable models the service "still starts, scores JSON hands, and answers photo calls
    # with 503 models_unavailable"; never a 5xx for bad input but 503s. Another model's file under a model's name
    # (a deploy copying the wrong file) loaded: /readyz said ready, and every photo got 500 internal_error. And a
    # broken file was reported as "InvalidProtobuf" alone, leaving the operator to guess which of five files it was.
    place = tmp_path / "secret-place"
    place.mkdir()
    for model in MODELS_DIR.glob("*.onnx"):
        (place / model.name).write_bytes(model.read_bytes())
    (place / name).write_bytes(content if isinstance(content, bytes) else (MODELS_DIR / content).read_bytes())
    photo = (ROOT / "tests" / "fixtures" / "images" / "hk_valid_1.jpg").read_bytes()
    with TestClient(create_app(make_settings(models_dir=place, warmup=True)), raise_server_exceptions=False) as app:
        health = app.get("/healthz").json()["recognition"]
        assert health["available"] is False and name in health["detail"]
        assert "secret-place" not in json.dumps(health)
        assert app.get("/readyz").status_code == 503
        for route in ("/v1/recognize", "/v1/score"):
            refused = app.post(route, files={"image": ("hand.jpg", photo, "image/jpeg")})
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"]["code"] == "models_unavailable" and "secret-place" not in refused.text
        assert app.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p"}).json()["total"] > 0
