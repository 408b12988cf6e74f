"""The FastAPI application factory.

Until the recognition models and the full API land, this serves the JSON scoring endpoint and a health check that
says plainly which parts are available.
"""

from __future__ import annotations

from typing import Any

from fastapi import Body, FastAPI
from fastapi.responses import JSONResponse

from engine import score_request


def create_app() -> FastAPI:
    app = FastAPI(title="Mahjong hand reader", version="0.1.0")

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"status": "ok", "recognition": "not available yet (no committed models)", "scoring": ["mcr", "riichi"]}

    @app.post("/v1/hands/score")
    def score_hand(request: dict[str, Any] = Body(...)) -> JSONResponse:
        result = score_request(request)
        if not result["ok"]:
            return JSONResponse({"error": result["error"]}, status_code=422)
        return JSONResponse(result)

    return app
