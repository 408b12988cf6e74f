"""The FastAPI application factory: settings, logging, metrics, middleware, error handlers, routers, lifespan.

``create_app()`` builds a fresh app (tests build several with different settings); the models are loaded once,
in the lifespan, and shared by all requests through ``app.state.reader``.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from typing import AsyncIterator

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from .errors import install_error_handlers
from .observability import Metrics, RequestMiddleware, configure_logging
from .pipeline import Reader
from .routers import hands, health, page, photos, tiles
from .routers.page import STATIC_DIR
from .settings import Settings

log = logging.getLogger("api")

ROUTERS = (health, hands, photos, tiles, page)

# Endpoints whose work goes through the bounded inference queue.
PHOTO_PATHS = frozenset({"/v1/recognize", "/v1/score"})

DESCRIPTION = """Photo of a winning mahjong hand in, score out (MCR or riichi).

* `POST /v1/recognize`: multipart `image` -> tiles (boxes, codes, confidence), hand, warnings, overlay image.
* `POST /v1/score`: the same plus context fields -> recognition + score.
* `POST /v1/hands/score`: JSON `{"hand", "context"}` -> score (fans/yaku with the tiles that make each).
* `POST /v1/tiles/score`: a photo's tiles after corrections -> the hand read again, and its score.

Errors are `{"error": {"code", "message"}}`: 4xx for anything the client sent wrong, 503 with `Retry-After` when
overloaded. The referee page is at [/referee](/referee).
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    configure_logging(settings.log_level, settings.log_json)
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        reader = Reader(settings, metrics)
        # Loading ONNX sessions takes seconds of CPU; do it off the loop so the process answers signals meanwhile.
        await asyncio.to_thread(reader.load)
        app.state.reader = reader
        log.info("service ready", extra={"health": reader.health()})
        try:
            yield
        finally:
            reader.queue.shutdown()

    app = FastAPI(title="Mahjong hand reader", version="1.0.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.metrics = metrics
    install_error_handlers(app)
    for module in ROUTERS:
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    # Starlette runs the last-added middleware outermost: CORS must answer preflights before the API-key check.
    def photo_queue_full(path: str) -> bool:
        reader = getattr(app.state, "reader", None)
        return path in PHOTO_PATHS and reader is not None and reader.queue.full

    app.add_middleware(RequestMiddleware, metrics=metrics, max_body_bytes=settings.max_upload_bytes,
                       max_json_bytes=settings.max_json_bytes, upload_paths=PHOTO_PATHS,
                       api_key=settings.api_key, max_pending=settings.max_pending_requests,
                       queue_full=photo_queue_full, body_timeout_s=settings.body_timeout_s,
                       routes=[route for module in ROUTERS for route in module.router.routes])
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type", "X-API-Key", "Authorization", "X-Request-ID"],
                           expose_headers=["Retry-After", "X-Request-ID"])
    return app
