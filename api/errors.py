"""One error shape for every failure: ``{"error": {"code": ..., "message": ...}}`` with a stable lower-snake code.

Client mistakes get a 4xx; only a genuine server fault (a bug, missing models, overload) gets a 5xx. The status of
each engine and image code is fixed here so clients and tests can rely on it.
"""

from __future__ import annotations

import logging
import reprlib
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.errors import HandError

log = logging.getLogger("api")

# Codes this service adds to engine.errors.ERROR_CODES and the image codes of vision.errors.
API_ERROR_CODES = {
    "invalid_json": (400, "the body is not JSON"),
    "invalid_request": (422, "a field has the wrong type, is missing, or is not known"),
    "malformed_body": (400, "the body cannot be taken apart (a multipart form without its boundary, or cut before its "
                                "closing one; a bad length)"),
    "unknown_field": (422, "a form field this endpoint does not take"),
    "empty_file": (400, "the uploaded image has zero bytes"),
    "unsupported_format": (415, "not an image, or an image format the service does not read (JPEG, PNG, WebP, HEIC)"),
    "truncated_image": (400, "the image file is cut short"),
    "unreadable_image": (400, "the image file is corrupt"),
    "image_too_large": (413, "the image has more pixels than the service accepts"),
    "image_too_small": (400, "the image is smaller than 16 pixels on a side"),
    "file_not_found": (400, "the image could not be read"),
    "payload_too_large": (413, "the request body is larger than the service accepts"),
    "unauthorized": (401, "missing or wrong API key"),
    "request_timeout": (408, "the request body was not received in time"),
    "not_found": (404, "no such path"),
    "method_not_allowed": (405, "wrong HTTP method for this path"),
    "overloaded": (503, "the work queue is full; retry after the Retry-After seconds"),
    "inference_timeout": (503, "recognition did not finish within the request timeout"),
    "models_unavailable": (503, "the recognition models are not loaded"),
    "scoring_unavailable": (503, "the scorer for these rules is not installed"),
    "internal_error": (500, "a bug: reported with a request id"),
}

# Engine codes: all describe the client's hand or context, so all are 4xx. A body that is not JSON is 400; a hand
# that parses but is wrong is 422 (well-formed, semantically invalid).
_ENGINE_STATUS = {"invalid_json": 400}


def status_for(code: str) -> int:
    if code in API_ERROR_CODES:
        return API_ERROR_CODES[code][0]
    return _ENGINE_STATUS.get(code, 422)


class ApiError(Exception):
    """Raise anywhere in a request; the handler turns it into the error JSON."""

    def __init__(self, code: str, message: str, *, status: int | None = None, headers: dict[str, str] | None = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.status = status if status is not None else status_for(code)
        self.headers = headers
        self.details = details


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details:
        error["details"] = details
    return {"error": error}


def error_response(code: str, message: str, *, status: int | None = None, headers: dict[str, str] | None = None,
                   details: dict[str, Any] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status or status_for(code), headers=headers)


_TOO_LONG = {"string_too_long", "too_long"}


def _union_tag(part: Any) -> bool:
    """A union branch pydantic names in an error's location ("HandIn", "list[constrained-str]"), not a field."""
    return isinstance(part, str) and (part[:1].isupper() or "[" in part or part in ("str", "constrained-str"))


def _without_other_branches(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where an error lies inside one branch of a union (a hand object's field: ``hand.HandIn.melds``), the client sent
    that branch's shape: the other branches' complaints about the value's type ("hand: Input should be a valid
    string", of the compact-string branch) only mislead."""
    locs = [tuple(e.get("loc", ())) for e in errors]
    inside = {loc[:k] for loc in locs for k, part in enumerate(loc) if _union_tag(part) and k + 1 < len(loc)}
    return [e for e, loc in zip(errors, locs)
            if not (len(loc) >= 2 and _union_tag(loc[-1]) and loc[:-1] in inside
                    and str(e.get("type", "")).endswith("_type"))] or errors


def validation_message(errors: list[dict[str, Any]]) -> tuple[str, str]:
    """FastAPI/pydantic validation errors -> (code, one readable message)."""
    if any(e.get("type") == "json_invalid" for e in errors):
        first = next(e for e in errors if e.get("type") == "json_invalid")
        return "invalid_json", f"the body is not valid JSON: {first.get('ctx', {}).get('error', first.get('msg'))}"
    if any(tuple(e.get("loc", ())) == ("body",) and isinstance(e.get("input"), (bytes, str))
           and e.get("type") != "string_unicode" for e in errors):
        # A body not labelled JSON reaches the model as raw bytes, and pydantic's "should be a valid dictionary"
        # described a valid JSON object (fetch labels a string body text/plain): name what is missing.
        return "invalid_request", "the body must be a JSON object sent with Content-Type: application/json"
    if any(tuple(e.get("loc", ())) == ("body",) and e.get("type") == "missing" for e in errors):
        return "invalid_json", "the body is empty: send a JSON object"  # (as the CLI says of an empty line)
    # A value over a size limit (schemas.MAX_*) is the one thing to say: the union's other branches only add noise.
    errors = [e for e in errors if e.get("type") in _TOO_LONG] or errors
    errors = _without_other_branches(errors)
    parts = []
    for e in errors[:5]:
        loc = tuple(e.get("loc", ()))
        loc = loc[1:] if loc[:1] == ("body",) else loc  # the body's own key only: a field named "body" is a field
        where = ".".join(str(p) for p in loc if not _union_tag(p)) or "body"
        if e.get("type") == "extra_forbidden":
            parts.append(f"unknown field {where!r}")
        elif e.get("type") == "string_unicode":
            # JSON may write a lone surrogate ("\ud800"), which is no text; in a key, pydantic names the object that
            # holds it (the body's own key was told to send the JSON header it had sent)
            parts.append(f"{where}: {reprlib.repr(e.get('input'))} holds a lone surrogate, which is not text")
        else:
            parts.append(f"{where}: {e.get('msg')}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "invalid_request", "; ".join(parts) + more


def _count(request: Request, code: str) -> None:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.errors.labels(code).inc()


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        _count(request, exc.code)
        return error_response(exc.code, exc.message, status=exc.status, headers=exc.headers, details=exc.details)

    @app.exception_handler(HandError)
    async def _hand_error(request: Request, exc: HandError) -> JSONResponse:
        _count(request, exc.code)
        return error_response(exc.code, exc.message, details=exc.details or None)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = validation_message(list(exc.errors()))
        _count(request, code)
        return error_response(code, message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        cause = exc.__cause__
        if exc.status_code == 400 and isinstance(cause, HandError):
            # JSON that decodes but is refused as read (schemas.UniqueKeysRoute: a key twice, duplicate_key): the
            # engine's code and status, as the CLI answers the same line
            _count(request, cause.code)
            return error_response(cause.code, cause.message, details=cause.details or None)
        if exc.status_code == 400 and isinstance(cause, (ValueError, RecursionError)):
            # FastAPI's bare "There was an error parsing the body" for a JSON body json.loads refused with something
            # other than JSONDecodeError: not UTF-8 (UnicodeDecodeError), nested too deep, an integer over 4300 digits.
            _count(request, "invalid_json")
            return error_response("invalid_json", f"the body is not valid JSON: {type(cause).__name__}: {cause}")
        # 400 here is the body parser's (a multipart form it cannot take apart): its own code, since each code has
        # one status (invalid_request is 422)
        code = {400: "malformed_body", 404: "not_found", 405: "method_not_allowed", 401: "unauthorized",
                413: "payload_too_large"}.get(exc.status_code, "invalid_request" if exc.status_code < 500
                                              else "internal_error")
        _count(request, code)
        return error_response(code, str(exc.detail), status=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        request_id = getattr(request.state, "request_id", "-")
        _count(request, "internal_error")
        log.exception("unhandled error", extra={"request_id": request_id})
        return error_response("internal_error", f"internal error (request id {request_id})", status=500)
