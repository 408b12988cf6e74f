"""ASGI entry point: ``uvicorn api.main:app``."""

from .app import create_app
from .settings import Settings

try:
    settings = Settings.from_env()
except ValueError as error:
    # A bad MAHJONG_* value: one line saying which, not forty lines of uvicorn's import machinery above it.
    raise SystemExit(f"mahjong service: {error}") from None

app = create_app(settings)
