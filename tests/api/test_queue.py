"""The bounded work queue: overload answers 503 + Retry-After at once, slow inference times out, slots come back.

A stand-in recogniser that sleeps replaces the model here: these tests are about admission and timing, which must
hold whatever the models are, and must run before the models land.
"""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import numpy as np
import pytest

from api.app import create_app
from api.errors import ApiError
from api.observability import Metrics
from api.pipeline import WorkQueue
from vision.detections import Detections

from .conftest import PHOTOS, make_settings


class SlowRecognizer:
    """Sleeps, then reports one 5m tile in the middle of the image."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0
        self.lock = threading.Lock()

    def recognize(self, data: bytes):
        with self.lock:
            self.calls += 1
        time.sleep(self.seconds)
        detections = Detections(np.array([[100, 100, 140, 160]]), np.array([4]), np.array([0.97]))
        return _Recognition(detections, 640, 640)

    def recognize_with_image(self, data: bytes):
        return self.recognize(data), None  # no pixels: the overlay is then drawn from the upload itself


class _Recognition:
    warnings: list = []  # as vision.recognize.Recognition's: the picture read as it came
    warning_codes: list = []

    def __init__(self, detections, width, height):
        self.detections, self.width, self.height = detections, width, height

    def to_json(self, image_name):
        return {"image": image_name, "tiles": self.detections.to_json(), "hand": None, "warnings": []}


def test_work_queue_refuses_beyond_capacity_and_frees_slots():
    async def scenario():
        queue = WorkQueue(workers=1, queue_size=1, metrics=Metrics())
        gate = threading.Event()
        first = asyncio.create_task(queue.run(gate.wait, timeout_s=10))
        second = asyncio.create_task(queue.run(gate.wait, timeout_s=10))
        await asyncio.sleep(0.05)
        with pytest.raises(ApiError) as refused:
            await queue.run(time.sleep, 0, timeout_s=10)
        assert refused.value.code == "overloaded" and refused.value.status == 503
        assert int(refused.value.headers["Retry-After"]) >= 1
        gate.set()
        await asyncio.gather(first, second)
        await asyncio.sleep(0.05)
        assert queue.admitted == 0
        assert await queue.run(lambda: 42, timeout_s=10) == 42
        queue.shutdown()

    asyncio.run(scenario())


async def _post_photos(app, count: int) -> list[httpx.Response]:
    photo = PHOTOS[0].read_bytes()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return await asyncio.gather(*(
            client.post("/v1/recognize", files={"image": ("a.jpg", photo, "image/jpeg")}, data={"overlay": "false"})
            for _ in range(count)))


def _with_stub(settings, recognizer):
    app = create_app(settings)

    async def run(count):
        async with app.router.lifespan_context(app):
            app.state.reader.recognizer = recognizer
            return await _post_photos(app, count)

    return run


def test_overload_gets_503_with_retry_after_and_admitted_requests_succeed():
    recognizer = SlowRecognizer(0.5)
    run = _with_stub(make_settings(inference_workers=1, queue_size=1), recognizer)
    responses = asyncio.run(run(6))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 200, 503, 503, 503, 503], [r.text for r in responses]
    for response in responses:
        if response.status_code == 503:
            assert response.json()["error"]["code"] == "overloaded"
            assert int(response.headers["retry-after"]) >= 1
        else:
            assert response.json()["tiles"][0]["code"] == "5m"
    assert recognizer.calls == 2  # refused requests never reached the model


def test_slow_inference_times_out_with_503():
    run = _with_stub(make_settings(request_timeout_s=0.2), SlowRecognizer(1.0))
    (response,) = asyncio.run(run(1))
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "inference_timeout"
    assert "retry-after" in response.headers


def test_too_many_uploads_in_flight_are_refused_before_their_bodies_are_read():
    recognizer = SlowRecognizer(0.5)
    run = _with_stub(make_settings(max_pending_requests=1, inference_workers=1, queue_size=4), recognizer)
    responses = asyncio.run(run(3))
    assert sorted(r.status_code for r in responses) == [200, 503, 503]
    refused = [r for r in responses if r.status_code == 503]
    assert all(r.json()["error"]["code"] == "overloaded" and r.headers["retry-after"] for r in refused)
    assert recognizer.calls == 1
