"""Liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..responses import HealthResponse

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=None, responses={200: {"model": HealthResponse}}, summary="Liveness, and which parts are available")
def healthz(request: Request) -> dict:
    """Always 200 while the process serves; the body says whether recognition, hand assembly and each scorer are
    available, so a missing model shows up here rather than as a crash."""
    return request.app.state.reader.health()


@router.get("/readyz", include_in_schema=False, summary="Readiness: 200 only when photos can be read")
def readyz(request: Request) -> JSONResponse:
    health = request.app.state.reader.health()
    ready = health["recognition"]["available"]
    return JSONResponse({"ready": ready, **health}, status_code=200 if ready else 503)


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    return Response(generate_latest(request.app.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
