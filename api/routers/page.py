"""The referee page: one static HTML/JS/CSS page served by the app (same origin, so no CORS needed)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
def root() -> RedirectResponse:
    return RedirectResponse("/referee")


@router.get("/referee")
def referee_page() -> FileResponse:
    # no-cache: the page is tiny and a stale copy after an upgrade would talk to the API with old field names.
    return FileResponse(STATIC_DIR / "referee.html", media_type="text/html", headers={"Cache-Control": "no-cache"})
