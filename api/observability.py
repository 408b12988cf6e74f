"""Structured request logs, Prometheus metrics, the request-body limit and the optional API key, as ASGI middleware.

The body limit sits in front of everything (FastAPI would otherwise spool an arbitrarily large multipart upload to
disk before any route code runs).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import sys
import time
import uuid
from typing import Any, Callable, Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_body

log = logging.getLogger("api")
access_log = logging.getLogger("api.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any ``extra=`` fields."""

    _STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                               + f".{int(record.msecs):03d}Z",
                               "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        for key, value in vars(record).items():
            if key not in self._STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def configure_logging(level: str, as_json: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if as_json else logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger("api")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    # The libraries' own complaints about a client's file must not print between the records (session 56's audit):
    # every Python warning of the process (Pillow's on a corrupt EXIF block among them) becomes a record of its own, at
    # the service's level, and OpenCV, which writes from C++ (a PNG cut short), keeps to errors.
    library = logging.getLogger("py.warnings")
    library.handlers[:] = [handler]
    library.setLevel(level.upper())
    library.propagate = False
    logging.captureWarnings(True)
    try:
        import cv2.utils.logging as cv_logging

        cv_logging.setLogLevel(cv_logging.LOG_LEVEL_ERROR)
    except (ImportError, AttributeError):  # (an OpenCV without its logging module: nothing to quiet)
        pass


class Metrics:
    """The service's Prometheus metrics, in a registry of its own so several apps (tests) can coexist."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("mahjong_http_requests_total", "HTTP requests by route and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("mahjong_http_request_seconds", "HTTP request latency by route", ["method", "route"],
                                 buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32),
                                 registry=self.registry)
        self.inference = Histogram("mahjong_inference_seconds", "Recognition time per image (worker thread)",
                                   buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16), registry=self.registry)
        self.in_flight = Gauge("mahjong_inference_in_flight", "Images admitted (running or queued)",
                               registry=self.registry)
        self.rejected = Counter("mahjong_rejected_total", "Requests refused before inference", ["reason"],
                                registry=self.registry)
        self.errors = Counter("mahjong_errors_total", "Error responses by code", ["code"], registry=self.registry)
        self.models_loaded = Gauge("mahjong_models_loaded", "1 when the recognition models are loaded",
                                   registry=self.registry)


# On every answer: no content sniffing (an error message quoting the client's input is JSON, never HTML), no framing
# (the referee page framed by another site could be driven by clicks through it). The page and its files also get a
# Content-Security-Policy: scripts, styles and calls from this origin only, photos as blob: URLs, no inline script,
# so that text a hostile answer or link slipped past the page's escaping could still not run. /docs (Swagger UI
# from a CDN, inline script) gets none.
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY")]
PAGE_CSP = (b"default-src 'self'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; "
            b"form-action 'none'; frame-ancestors 'none'")


def _is_page(path: str) -> bool:
    return path == "/referee" or path.startswith("/static/")


def _route_template(scope: Scope, routes: Sequence[BaseRoute] = ()) -> str:
    # The matched route's path template keeps label cardinality bounded (no raw paths from scanners). A request this
    # middleware answered itself (401, 408, 413, 503) never reached the router: its path is matched here, else every
    # refusal of /v1/score was counted under "unmatched" with the scanners' 404s.
    route = scope.get("route")
    if route is None:
        route = next((r for r in routes if r.matches(scope)[0] is not Match.NONE), None)
    return getattr(route, "path", None) or "unmatched"


class RequestMiddleware:
    """Request id, access log line, metrics, body-size limit and API-key check for one ASGI app."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, max_body_bytes: int, api_key: str | None,
                 max_pending: int = 32, queue_full: Callable[[str], bool] | None = None,
                 body_timeout_s: float = 60.0, routes: Sequence[BaseRoute] = (),
                 max_json_bytes: int | None = None, upload_paths: frozenset[str] | None = None) -> None:
        self.app = app
        self.routes = routes  # the app's routes, to name the route of a request refused before routing
        self.body_timeout_s = body_timeout_s
        # Says whether a request to this path would only be refused by the full inference queue: if so, refuse it
        # before receiving its multi-megabyte body.
        self.queue_full = queue_full or (lambda path: False)
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes
        # Photo uploads (upload_paths) may be max_body_bytes; every other body is JSON and held to max_json_bytes too.
        self.max_json_bytes = max_body_bytes if max_json_bytes is None else min(max_json_bytes, max_body_bytes)
        self.upload_paths = upload_paths
        self.api_key = api_key
        self.max_pending = max_pending
        self.pending = 0  # requests with a body between arrival and response (event-loop only: no lock needed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        method = scope["method"]
        if method == "HEAD":
            # RFC 9110 9.3.2: HEAD is GET without the content. The routes declare GET alone (FastAPI adds no HEAD), so
            # monitors probing /healthz with HEAD got 405: route it as GET and send the headers only.
            scope = {**scope, "method": "GET"}
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        request_id = headers.get("x-request-id", "")[:64] or uuid.uuid4().hex[:16]
        scope.setdefault("state", {})["request_id"] = request_id
        status_holder = {"status": 500, "code": None}

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                raw = list(message.get("headers", []))
                # latin-1 gives back the very bytes the client sent (headers were read as latin-1 above)
                raw.append((b"x-request-id", request_id.encode("latin-1")))
                raw.extend(SECURITY_HEADERS)
                if _is_page(scope["path"]):
                    raw.append((b"content-security-policy", PAGE_CSP))
                message = {**message, "headers": raw}
            elif method == "HEAD" and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        try:
            refusal = self._refuse(scope, headers)
            if refusal is not None:
                code, message, status = refusal
                status_holder["code"] = code
                # a 401 names the scheme that would authenticate (RFC 9110 15.5.2): a bearer token, or X-API-Key
                challenge = [(b"www-authenticate", b'Bearer realm="mahjong-hand-reader"')] if status == 401 else None
                await _send_json(send_wrapper, status, error_body(code, message), challenge)
                return
            if scope["method"] not in ("POST", "PUT", "PATCH"):
                await self.app(scope, receive, send_wrapper)
                return
            if self.pending >= self.max_pending or self.queue_full(scope["path"]):
                # Refuse before reading the body: under a flood of uploads, memory stays bounded and the refusal
                # costs the client no upload time.
                self.metrics.rejected.labels("overloaded").inc()
                status_holder["code"] = "overloaded"
                await _send_json(send_wrapper, 503, error_body(
                    "overloaded", "the service is busy reading other photos; try again shortly"),
                    headers=[(b"retry-after", b"2")])
                return
            self.pending += 1
            try:
                try:
                    # A client that stops sending mid-upload would otherwise hold its slot (and memory) forever.
                    replay = await asyncio.wait_for(self._read_limited(receive, self._limit(scope)),
                                                    self.body_timeout_s)
                except asyncio.TimeoutError:
                    status_holder["code"] = "request_timeout"
                    await _send_json(send_wrapper, 408, error_body(
                        "request_timeout", f"the request body was not received within {self.body_timeout_s:g} s"))
                    return
                if replay is _CLIENT_GONE:
                    # Nothing to answer and no one to answer: nginx's 499 (client closed request) in the log and metrics.
                    status_holder["status"] = 499
                    return
                if replay is None:
                    status_holder["code"] = "payload_too_large"
                    self.metrics.rejected.labels("payload_too_large").inc()
                    await _send_json(send_wrapper, 413, error_body(
                        "payload_too_large", f"the request body exceeds {self._limit(scope)} bytes"))
                    return
                if (self.upload_paths is None or scope["path"] in self.upload_paths) and replay.body \
                        and _cut_multipart(_first_header(scope, b"content-type"), replay.body):
                    status_holder["code"] = "malformed_body"
                    await _send_json(send_wrapper, 400, error_body(
                        "malformed_body", "the multipart body ends before its closing boundary: the upload was cut"
                                          " short"))
                    return
                await self.app(scope, replay, send_wrapper)
            finally:
                self.pending -= 1
        finally:
            elapsed = time.perf_counter() - started
            route = _route_template(scope, self.routes)
            status = status_holder["status"]
            self.metrics.requests.labels(method, route, str(status)).inc()
            if status_holder["code"] is not None:  # answered here, not by the error handlers that count the rest
                self.metrics.errors.labels(status_holder["code"]).inc()
            self.metrics.latency.labels(method, route).observe(elapsed)
            access_log.info("request", extra={
                "request_id": request_id, "method": method, "path": scope["path"], "route": route,
                "status": status, "duration_ms": round(elapsed * 1000, 1),
                "client": (scope.get("client") or ("-",))[0], "bytes_in": headers.get("content-length")})

    def _limit(self, scope: Scope) -> int:
        if self.upload_paths is None or scope["path"] in self.upload_paths:
            return self.max_body_bytes
        return self.max_json_bytes

    def _refuse(self, scope: Scope, headers: dict[str, str]) -> tuple[str, str, int] | None:
        if self.api_key and scope["path"].startswith("/v1/") and scope["method"] != "OPTIONS":
            given = headers.get("x-api-key", "")
            auth = headers.get("authorization", "")
            if not given and auth.lower().startswith("bearer "):
                given = auth[7:].strip()
            # Constant-time comparison: the key is a secret. The header's own bytes (read as latin-1) against the
            # key's UTF-8, as a client sends text: encoding the header again as UTF-8 refused every non-ASCII key.
            if not hmac.compare_digest(given.encode("latin-1"), self.api_key.encode()):
                self.metrics.rejected.labels("unauthorized").inc()
                return "unauthorized", "send the API key in the X-API-Key header", 401
        length = headers.get("content-length")
        if length is not None:
            limit = self._limit(scope)
            try:
                too_big = int(length) > limit
            except ValueError:
                return "malformed_body", f"bad Content-Length {length!r}", 400
            if too_big:
                self.metrics.rejected.labels("payload_too_large").inc()
                return "payload_too_large", f"the request body ({length} bytes) exceeds {limit} bytes", 413
        return None

    async def _read_limited(self, receive: Receive, limit: int) -> Receive | object | None:
        """Read the whole body up to the limit (chunked uploads have no Content-Length); None when it is over,
        ``_CLIENT_GONE`` when the client went away before sending all of it."""
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                if chunks:
                    # Half a body is not the client's request: read as if complete, it was answered 400 invalid_json
                    # (or a photo read without its last fields) and counted as the client's mistake.
                    return _CLIENT_GONE
                chunks_done = message
                break
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                return None
            chunks.append(body)
            if not message.get("more_body", False):
                chunks_done = None
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                if chunks_done is not None and not body:
                    return chunks_done
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        replay.body = body  # type: ignore[attr-defined]  (read by _cut_multipart)
        return replay


_CLIENT_GONE = object()  # _read_limited: the client disconnected part-way through its body


def _first_header(scope: Scope, name: bytes) -> bytes:
    """The request's first ``name`` header, as Starlette's form parser reads it (a repeated header: the first)."""
    return next((value for key, value in scope.get("headers", ()) if key.lower() == name), b"")


def _cut_multipart(content_type: bytes, body: bytes) -> bool:
    """Whether a multipart/form-data body lacks its closing boundary (``--BOUNDARY--``): an upload cut short, whose
    parts the form parser would take as far as they go and then name a field missing (session 56's audit). The
    boundary is read as the parser reads it (python-multipart's ``parse_options_header``); a body with none is left
    to the parser, which refuses it."""
    from python_multipart.multipart import parse_options_header

    kind, options = parse_options_header(content_type)
    boundary = options.get(b"boundary")
    if kind.lower() != b"multipart/form-data" or not boundary:
        return False
    return b"--" + boundary + b"--" not in body


async def _send_json(send: Send, status: int, body: dict[str, Any],
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": payload})
