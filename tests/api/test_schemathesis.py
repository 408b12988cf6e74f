"""Property-based run of the whole published OpenAPI schema against a live server: no input may produce a 5xx.

Schemathesis generates valid and invalid bodies, form fields and files for every operation from /openapi.json. The
run is bounded (examples per operation) to stay within the suite's time budget; it still sends several hundred
requests, and each answer must fit the schema published for its status. 503 is allowed only with the service's own
``models_unavailable`` code (an honest answer while models/ is empty), never for bad input.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

from api.app import create_app  # noqa: E402

from .conftest import make_settings  # noqa: E402

# The schema is what the service publishes; building the app does not load models (that happens in the lifespan).
schema = schemathesis.openapi.from_dict(create_app(make_settings()).openapi())
# Both valid inputs (must be handled) and schema-violating ones (must be refused with a 4xx).
schema.config.generation.update(modes=list(schemathesis.GenerationMode), max_examples=40, deterministic=True)
SENT: dict[str, int] = {}

ALLOWED_503 = {"models_unavailable", "overloaded"}


@pytest.fixture(scope="module")
def base_url(live_server):
    return live_server.url


@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_5xx_for_any_generated_request(case, base_url):
    response = case.call(base_url=base_url, timeout=30)
    SENT[case.operation.label] = SENT.get(case.operation.label, 0) + 1
    assert response.status_code < 500 or (
        response.status_code == 503 and response.json()["error"]["code"] in ALLOWED_503), (
        f"{case.method} {case.path} -> {response.status_code}: {response.text[:500]}")
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"} and body["error"]["code"], body
    # every answer whose status is documented fits its schema (api/responses.py: documentation, never validation)
    case.validate_response(response, checks=[response_schema_conformance])


def test_the_run_was_not_trivial():
    # Runs after the parametrized test in file order: every operation got a real number of requests.
    if not SENT:
        pytest.skip("run this file whole to count the requests")
    posts = {label: n for label, n in SENT.items() if label.startswith("POST")}
    assert len(posts) == 4 and min(posts.values()) >= 20, SENT
