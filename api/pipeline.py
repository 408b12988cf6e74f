"""The work behind the endpoints: models loaded once, a bounded queue of worker threads, photo -> tiles -> hand -> score.

Recognition (``vision.recognize``), hand assembly (``vision.hand_reader``) and the rule scorers (``engine.mcr``,
``engine.riichi``) are imported lazily: whichever piece is missing, the service still starts and says so (healthz,
503 ``models_unavailable`` / ``scoring_unavailable``) instead of failing to boot.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine import Hand, HandError, Tile, WinContext, read_request
from engine import score as engine_score
from engine.scoring import with_context_notes

from .errors import ApiError
from .images import decode_check, probe_image, render_overlay
from .observability import Metrics
from .settings import Settings

log = logging.getLogger("api")


def _without_unused_unsure(result: dict[str, Any], unsure: Any) -> dict[str, Any]:
    """``result`` without the unsure tiles (``Recognition.unsure``: scored low by the localiser, or cut by the
    picture's edge to under half a tile) that its reading does not use (``vision.hand_reader.drop_unused_unsure``; as
    it is where the hand reader is not installed)."""
    try:
        from vision.hand_reader import drop_unused_unsure  # (imported lazily, as the reader)
    except ImportError:
        return result
    return drop_unused_unsure(result, unsure)


SCORER_MODULES = {"mcr": "engine.mcr", "riichi": "engine.riichi"}


def scorer_available(rules: str) -> bool:
    """True when ``engine.<rules>`` imports and exposes ``score`` (a scorer still being written may not)."""
    module_name = SCORER_MODULES.get(rules)
    if module_name is None:
        return False
    try:
        return callable(getattr(importlib.import_module(module_name), "score", None))
    except Exception:  # noqa: BLE001 - a broken scorer package means "unavailable", not a crashed request
        return False


def mcr_engine() -> str:
    """Which module scores MCR hands (``engine.mcr.FAST_IMPLEMENTATION``), or "unavailable"."""
    try:
        return importlib.import_module("engine.mcr").FAST_IMPLEMENTATION
    except Exception:  # noqa: BLE001 - as scorer_available: a broken scorer package is reported, not raised
        return "unavailable"


def parse_hand_string(text: str) -> dict[str, Any]:
    """Compact hand string -> hand JSON; any failure to read it is the client's (invalid_hand_json / unknown_tile)."""
    try:
        return Hand.parse(text).to_json()
    except HandError:
        raise
    except (ValueError, IndexError, KeyError, TypeError) as error:
        raise HandError("invalid_hand_json", f"cannot read the hand string {text!r}: {error}") from None


def score_hand_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and score ``{"hand", "context"}``; HandError (4xx) for the client's mistakes, ApiError 503 when the
    scorer for the requested rules is not installed."""
    hand, context = read_request(request)
    if not scorer_available(context.rules):
        raise ApiError("scoring_unavailable", f"the {context.rules} scorer is not installed in this build")
    result = engine_score(hand, context)
    return with_context_notes({"ok": True, "rules": context.rules, "hand": hand.to_json(), "hand_string": hand.format(),
                               **result.to_json()}, context)


def score_or_error(request: Mapping[str, Any]) -> dict[str, Any]:
    """Like :func:`score_hand_request`, but a hand that cannot be scored is an answer, not a failure (used after
    recognition: the photo was fine, the hand read from it is not a winning one)."""
    try:
        return score_hand_request(request)
    except HandError as error:
        return {"ok": False, "error": error.to_json()}
    except ApiError as error:
        return {"ok": False, "error": {"code": error.code, "message": error.message}}


def score_each_winning_tile(hand_json: Mapping[str, Any], candidates: list[str],
                            context: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(candidate, score answer) for the hand read with each candidate as its winning tile: the same tiles, sent with
    every standing tile in ``concealed`` (``Hand.from_json`` takes one copy of the winning tile out, interfaces.md).
    A hand that cannot win with a candidate gets its error answer."""
    standing = [str(t) for t in Hand.from_json(hand_json).full_concealed]
    return [(code, score_or_error({"hand": {**hand_json, "concealed": standing, "winning_tile": code},
                                   "context": dict(context)})) for code in candidates]


def best_scored(scored: list[tuple[str, dict[str, Any]]], keep: str | None) -> tuple[str, dict[str, Any]] | None:
    """Of (candidate, score answer) pairs, the one scoring the most (a tie keeps ``keep``); None when none wins."""
    won = [(answer["total"], code == keep, code, answer) for code, answer in scored if answer.get("ok")]
    if not won:
        return None
    _, _, code, answer = max(won, key=lambda w: (w[0], w[1]))
    return code, answer


def choose_winning_tile(result: dict[str, Any], context: Mapping[str, Any], named: str | None,
                        reread: Callable[[str], dict[str, Any]]) -> None:
    """Where no tile was set apart as the winning tile and the request names none, the reader assumed the right-most
    standing tile (``winning_tile_not_set_apart``). Score the hand with each candidate instead and report the best
    (issue: "the API can also try every candidate and report the best score with a warning"): ``score`` then belongs
    to the best candidate, ``score_by_winning_tile`` lists every candidate's total (or error code), and the warning
    ``winning_tile_best_scored`` says so. Ties keep the reader's own choice. When another candidate wins, the photo
    is read again with it named (``reread(code)`` -> the reading's JSON), so that the hand, the tile roles and the
    alternatives agree with the score."""
    if named or "winning_tile_not_set_apart" not in (result.get("warning_codes") or []):
        return
    hand = result.get("hand")
    candidates = list(result.get("winning_tile_candidates") or [])
    if hand is None or len(candidates) < 2:
        return
    assumed = str(hand.get("winning_tile"))
    scored = score_each_winning_tile(hand, candidates, context)
    result["score_by_winning_tile"] = [
        {"winning_tile": code, "total": answer["total"]} if answer.get("ok")
        else {"winning_tile": code, "error": (answer.get("error") or {}).get("code")} for code, answer in scored]
    chosen = best_scored(scored, assumed)
    if chosen is None:
        return
    best, answer = chosen
    total = answer["total"]
    if best != assumed:
        try:
            reading = reread(best)
        except Exception:  # noqa: BLE001 - the reading already made stands; a second one must not become a 500
            log.exception("reading again with the best winning tile failed")
            reading = {}
        if reading.get("hand") is None or not _same_kind(reading["hand"].get("winning_tile"), best):
            return  # the reader cannot take it as the winning tile after all: keep its own reading
        for key, value in reading.items():
            if key not in ("warnings", "warning_codes", "requests", "winning_tile_candidates"):
                result[key] = value  # (the client may still name another winning tile: its requests stay)
        # the first reading's own warnings spoke of its hand, corrections and alternatives, replaced now (a stale
        # close_alternative or added_kong_possible named a hand no longer reported): the second reading's stand, with
        # the recogniser's and the missing gap's that led here
        from vision.hand_reader import READER_WARNING_CODES  # (imported lazily, as the reader: a reading exists here)

        kept = [k for k, code in enumerate(result.get("warning_codes") or [])
                if code not in READER_WARNING_CODES or code == "winning_tile_not_set_apart"]
        result["warnings"] = [result["warnings"][k] for k in kept]
        result["warning_codes"] = [result["warning_codes"][k] for k in kept]
        add_warnings(result, reading.get("warnings") or [], reading.get("warning_codes") or [])
        answer = score_or_error({"hand": result["hand"], "context": dict(context)})
    result["score"] = answer
    others = ", ".join(f"{e['winning_tile']} {e.get('total', e.get('error'))}" for e in result["score_by_winning_tile"])
    add_warnings(result, [f"no tile is set apart as the winning tile: each candidate was scored ({others}); {best}"
                          f" gives the most ({total}) and is reported: name the winning tile ('winning_tile') if it"
                          " was another"], ["winning_tile_best_scored"])


def score_alternatives(result: dict[str, Any], context: Mapping[str, Any], named: str | None,
                       rightmost: int | None) -> None:
    """The points each alternative would score ("24 points instead of 16", README "Reading the hand"): ``total``, or
    ``error`` (the code) where its hand is no win, and the description says both. Scored as /v1/tiles/score would
    score the alternative's tiles: where no tile is set apart and the request names none, with each of its standing
    tiles as the winning tile and the best kept (a tie keeps the reader's right-most tile, ``rightmost``, the tile
    its reading assumed before any other was chosen), its ``hand`` then following that tile."""
    alternatives = result.get("alternatives") or []
    if not alternatives:
        return
    each_tile = not named and "winning_tile_not_set_apart" in (result.get("warning_codes") or [])
    chosen = (result.get("score") or {}).get("total")
    roles = result.get("tile_roles") or []
    for alternative in alternatives:
        hand = alternative.get("hand")
        if hand is None:
            continue
        best = None
        if each_tile:
            changed = {c["tile_index"]: c["to"] for c in alternative.get("changes") or []}
            keep = (changed.get(rightmost, roles[rightmost].get("code"))
                    if rightmost is not None and rightmost < len(roles) else hand.get("winning_tile"))
            candidates = sorted({str(t) for t in Hand.from_json(hand).full_concealed}, key=lambda c: Tile.parse(c).index)
            best = best_scored(score_each_winning_tile(hand, candidates, context), keep)
        if best is not None:
            answer = best[1]
            alternative["hand"], alternative["hand_text"] = answer["hand"], answer["hand_string"]
        else:
            answer = score_or_error({"hand": hand, "context": dict(context)})
        if answer.get("ok"):
            alternative["total"] = answer["total"]
            points = f"{answer['total']} points" + (f" instead of {chosen}" if chosen is not None else "")
        else:
            alternative["error"] = (answer.get("error") or {}).get("code")
            points = f"no win ({alternative['error']})"
        if alternative.get("description"):
            alternative["description"] += f": {points}"


def add_warnings(result: dict[str, Any], messages: list[str], codes: list[str]) -> None:
    """Append warnings with their codes to ``result``'s ``warnings`` and ``warning_codes``, which run in parallel (one
    code per message, in order: a client pairs them by index); a message already there is not repeated."""
    warnings = result.setdefault("warnings", [])
    warning_codes = result.setdefault("warning_codes", [])
    for message, code in zip(messages, codes):
        if message not in warnings:
            warnings.append(message)
            warning_codes.append(code)


RED_FIVES_WARNING = "red_fives_not_told_apart"


def warn_red_fives(result: dict[str, Any], context: Mapping[str, Any], *, photo: bool) -> None:
    """Riichi with aka dora in effect (the ruleset's, or ``options.aka_dora``): the recogniser has no red-five classes
    (42 faces and a back), so every five read from a photo is a plain one and a red five's han would be lost without
    a word. Where the hand holds a plain five of a suit whose red five is neither in the hand nor an indicator, the
    warning ``red_fives_not_told_apart`` says so and how to mark a red one (0m/0p/0s, through /v1/tiles/score or the
    referee page). ``photo``: the tiles were read from the photo now (else sent back by the client)."""
    hand_json = result.get("hand")
    if hand_json is None or context.get("rules") != "riichi":
        return
    try:
        from engine.riichi.rules import resolve

        win = WinContext.from_json(context)
        if not resolve(win.ruleset, win.options).aka_dora:
            return
        tiles = Hand.from_json(hand_json).all_tiles()
    except (HandError, ImportError):
        return
    settled = {t.suit for t in list(tiles) + list(win.dora_indicators) + list(win.ura_dora_indicators) if t.red}
    plain = sorted({t for t in tiles if t.is_number and t.number == 5 and not t.red and t.suit not in settled})
    if not plain:
        return
    fives = ", ".join(str(t) for t in plain)
    reds = "/".join(f"0{t.suit}" for t in plain)
    if photo:
        message = (f"aka dora is on, but red fives are not told apart from plain ones in a photo: the hand's {fives}"
                   f" {'is' if len(plain) == 1 else 'are'} read as plain; if one is red, correct its tile to {reds}"
                   f" (the referee page's palette, or send the tiles to /v1/tiles/score with its code {reds}) and"
                   " rescore")
    else:
        message = (f"aka dora is on, and red fives are not told apart from plain ones in a photo: the {fives} sent as"
                   f" plain {'is' if len(plain) == 1 else 'are'} scored as plain; if one is red, send its tile as"
                   f" {reds} (/v1/tiles/score, or the referee page's palette)")
    add_warnings(result, [message], [RED_FIVES_WARNING])


def mark_red_fives(reading: dict[str, Any], red: Mapping[int, str], named: str | None = None) -> None:
    """Put back the red fives the request marked, which the reader (34 kinds: a red five is "a 5 of that suit for
    every other purpose", interfaces.md) reads as plain fives: ``red`` maps a sent tile's index to its code (``0p``).
    Where that tile went into the hand (``tile_roles``: concealed, winning, or meld ``meld_index``, claimed) as the five
    of its suit, one plain five of that part becomes red, and its role's ``code`` says so; so in each alternative's hand
    where the alternative leaves that tile a five. A winning tile named red (``named``) makes the hand's plain winning
    five of that suit red. A hand never gets more red fives than were marked: a tile taken as another face, or left
    out of the hand, marks none. Changes ``reading`` (a reading's JSON) in place."""
    if not red and not (named and Tile.parse(named).red):
        return
    roles = reading.get("tile_roles") or []
    hand = reading.get("hand")
    if hand is not None:
        for i in _redden(hand, roles, red, {}, named):
            roles[i]["code"] = red[i]
        if named and Tile.parse(named).red and hand.get("winning_tile") == named:
            for role in roles:  # the winning tile's role says the red five the hand now holds (session 56's audit)
                if role.get("role") == "winning" and _same_kind(role.get("code"), named):
                    role["code"] = named
    for alternative in reading.get("alternatives") or []:
        if alternative.get("hand") is not None:
            changes = {c["tile_index"]: c["to"] for c in alternative.get("changes") or []}
            if _redden(alternative["hand"], roles, red, changes, named) or named:
                alternative["hand_text"] = Hand.from_json(alternative["hand"]).format()


def _redden(hand: dict[str, Any], roles: list[dict[str, Any]], red: Mapping[int, str], changes: Mapping[int, str],
            named: str | None) -> list[int]:
    """Make red, in ``hand`` (JSON, changed in place), the five each marked tile became; the tiles placed."""
    def plain_of(codes: list[str], kind: int) -> int | None:
        plain = Tile(kind)  # interned: the plain five of that kind
        return next((k for k, c in enumerate(codes) if c is not None and Tile.parse(c) is plain), None)

    placed = []
    for i, code in sorted(red.items()):
        if i >= len(roles):
            continue
        role, kind = roles[i], Tile.parse(code).index
        face = changes.get(i, role.get("code"))
        if face is None or Tile.parse(face).index != kind:
            continue  # the reading took the tile as another face: no five of it to colour
        part = role.get("role")
        if part == "winning":
            if plain_of([hand.get("winning_tile")], kind) is not None:
                hand["winning_tile"] = code
                placed.append(i)
        elif part == "concealed":
            at = plain_of(list(hand.get("concealed") or []), kind)
            if at is not None:
                hand["concealed"][at] = code
                placed.append(i)
        elif part == "meld":
            melds = hand.get("melds") or []
            m = role.get("meld_index")
            if not isinstance(m, int) or not 0 <= m < len(melds):
                continue
            meld = melds[m]
            at = plain_of(list(meld.get("tiles") or []), kind)
            if at is None:
                continue
            meld["tiles"][at] = code
            if role.get("claimed") and plain_of([meld.get("claimed")], kind) is not None:
                meld["claimed"] = code
            placed.append(i)
    if named and Tile.parse(named).red and plain_of([hand.get("winning_tile")], Tile.parse(named).index) is not None:
        hand["winning_tile"] = named
    return placed


def _same_kind(code: str | None, other: str) -> bool:
    """``code`` is the tile ``other`` names, a red five and a plain one of its suit alike."""
    return code is not None and Tile.parse(code).index == Tile.parse(other).index


def winning_index(result: Mapping[str, Any]) -> int | None:
    """The tile the reader took as the winning tile (its right-most standing tile where none is set apart)."""
    return next((i for i, role in enumerate(result.get("tile_roles") or []) if role.get("role") == "winning"), None)


class WorkQueue:
    """A fixed pool of worker threads with a bounded number of admitted jobs (running + waiting).

    Beyond the bound a request is refused at once with 503 + Retry-After: under overload, latency for admitted
    requests stays bounded and memory stays flat instead of every upload piling up in RAM.
    """

    def __init__(self, workers: int, queue_size: int, metrics: Metrics) -> None:
        self.workers = max(1, workers)
        self.capacity = self.workers + max(0, queue_size)
        self.metrics = metrics
        self.executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="inference")
        self.admitted = 0
        # Exponential moving average of job time, for Retry-After.
        self.mean_job_s = 1.0

    @property
    def full(self) -> bool:
        return self.admitted >= self.capacity

    def retry_after_s(self) -> int:
        return max(1, math.ceil(self.mean_job_s * self.admitted / self.workers))

    async def run(self, fn: Callable[..., Any], *args: Any, timeout_s: float) -> Any:
        if self.full:
            self.metrics.rejected.labels("overloaded").inc()
            raise ApiError("overloaded", f"{self.admitted} images are already being read; try again shortly",
                           headers={"Retry-After": str(self.retry_after_s())})
        loop = asyncio.get_running_loop()
        self.admitted += 1
        self.metrics.in_flight.set(self.admitted)

        def timed() -> Any:
            started = time.perf_counter()
            try:
                return fn(*args)
            finally:
                elapsed = time.perf_counter() - started
                self.metrics.inference.observe(elapsed)
                self.mean_job_s = 0.8 * self.mean_job_s + 0.2 * elapsed

        future = self.executor.submit(timed)

        def release(_future) -> None:
            # The slot is freed when the thread is done, not when the client gave up: a timed-out job still
            # occupies a worker, and the admission count must say so.
            self.admitted -= 1
            self.metrics.in_flight.set(self.admitted)

        def release_from_thread(done) -> None:
            try:
                loop.call_soon_threadsafe(release, done)
            except RuntimeError:  # the loop has closed (shutdown): no one is left to count slots for
                pass

        future.add_done_callback(release_from_thread)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout_s)
        except asyncio.TimeoutError:
            future.cancel()  # dequeues it if it has not started
            raise ApiError("inference_timeout", f"the image was not read within {timeout_s:g} s",
                           headers={"Retry-After": str(self.retry_after_s())}) from None

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


@dataclass
class PhotoOptions:
    """What the client tells us about the photo beyond its pixels."""

    image_name: str = "upload"
    rules: str = "mcr"
    winning_tile: str | None = None
    concealed_kong_tiles: list[str] = field(default_factory=list)
    overlay: bool = True


class Reader:
    """Models and helpers shared by all requests (one per app, built in the lifespan)."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.settings = settings
        self.metrics = metrics
        self.recognizer: Any = None
        self.models_reason = "not loaded yet"
        self.model_files: list[str] = []
        self.read_hand: Callable[..., Any] | None = None
        self.hand_reader_reason = "not loaded yet"
        self.queue = WorkQueue(settings.inference_workers, settings.queue_size, metrics)

    # --- start-up -----------------------------------------------------------------------------------------------
    def load(self) -> None:
        models_dir = self.settings.models_dir
        self.model_files = sorted(p.name for p in models_dir.glob("*.onnx")) if models_dir.is_dir() else []
        try:
            recognize_module = importlib.import_module("vision.recognize")
        except ImportError as error:
            self.models_reason = f"vision.recognize is not installed ({error})"
        else:
            # /healthz and the 503s say why without the server's paths or a library's message (no key guards
            # them); the log says where and what
            if not self.model_files:
                self.models_reason = "no model files (*.onnx) in the models directory (MAHJONG_MODELS_DIR)"
            else:
                try:
                    started = time.perf_counter()
                    self.recognizer = recognize_module.Recognizer.load(
                        models_dir, threads=self.settings.inference_threads or None,
                        max_pixels=self.settings.max_image_pixels)
                    self.models_reason = "loaded"
                    log.info("models loaded", extra={"models": self.model_files,
                                                     "seconds": round(time.perf_counter() - started, 2)})
                except Exception as error:  # noqa: BLE001 - a broken model file must not stop the JSON endpoints
                    # a file the recogniser refused is named (its name, not its folder) with what is wrong with it:
                    # "InvalidProtobuf" alone left the operator to guess which of five files to replace
                    from vision.errors import ModelFileError  # vision.recognize imported, so this is there

                    why = (f"{error.file}: {error.reason}" if isinstance(error, ModelFileError)
                           else f"{type(error).__name__}; the service log says why")
                    self.models_reason = f"loading the models failed ({why})"
                    log.exception("model loading failed")
        self.metrics.models_loaded.set(1 if self.recognizer is not None else 0)
        if self.recognizer is None:
            log.warning("recognition unavailable", extra={"reason": self.models_reason, "models_dir": str(models_dir)})
        try:
            self.read_hand = importlib.import_module("vision.hand_reader").read_hand
            self.hand_reader_reason = "loaded"
        except (ImportError, AttributeError) as error:
            self.hand_reader_reason = f"vision.hand_reader is not installed ({error})"
        if self.recognizer is not None and self.settings.warmup:
            self._warm_up()

    def _warm_up(self) -> None:
        # onnxruntime allocates its arenas on the first run; pay that here rather than on a user's request.
        import numpy as np
        from PIL import Image

        buffer = io.BytesIO()
        Image.new("RGB", (640, 480), (40, 110, 60)).save(buffer, format="JPEG")
        try:
            started = time.perf_counter()
            self.recognizer.recognize(buffer.getvalue())
            # a plain picture reaches neither the squeezed-picture localiser (vision.squeeze) nor the close-shot one
            # (Recognizer.close_localizer): warm them on their own
            for name in ("squeezed_localizer", "close_localizer"):
                localizer = getattr(self.recognizer, name, None)
                if localizer is not None:
                    localizer(np.zeros((480, 640, 3), np.uint8), 0.3, 0.4)
            log.info("warm-up done", extra={"seconds": round(time.perf_counter() - started, 2)})
        except Exception:  # noqa: BLE001 - warm-up is best effort
            log.warning("warm-up failed", exc_info=True)

    def health(self) -> dict[str, Any]:
        return {
            "status": "ok",
            "recognition": {"available": self.recognizer is not None, "detail": self.models_reason,
                            "models": self.model_files},
            "hand_reader": {"available": self.read_hand is not None, "detail": self.hand_reader_reason},
            "scoring": {rules: scorer_available(rules) for rules in SCORER_MODULES},
            "mcr_engine": mcr_engine(),
            "queue": {"workers": self.queue.workers, "capacity": self.queue.capacity, "admitted": self.queue.admitted},
        }

    # --- per request --------------------------------------------------------------------------------------------
    def check_upload(self, data: bytes) -> None:
        """4xx for unusable uploads before any queueing; 503 only for a good image we cannot read for lack of models."""
        probe_image(data, self.settings.max_image_pixels)
        if self.recognizer is None:
            decode_check(data)  # bad input still gets its 4xx even while the models are missing
            raise ApiError("models_unavailable", f"recognition is unavailable: {self.models_reason}",
                           headers={"Retry-After": "60"})

    async def read_photo(self, data: bytes, options: PhotoOptions,
                         context: Mapping[str, Any] | None = None) -> dict[str, Any]:
        self.check_upload(data)
        return await self.queue.run(self._read_photo_sync, data, options, context,
                                    timeout_s=self.settings.request_timeout_s)

    async def read_tiles(self, tiles: list, image_size: tuple[int, int], context: Mapping[str, Any], *,
                         winning_tile: str | None, concealed_kong_tiles: list[str],
                         red_fives: Mapping[int, str] | None = None) -> dict[str, Any]:
        """``red_fives``: the tiles sent as red fives (index -> ``0m``/``0p``/``0s``); the reader reads 34 kinds, so
        each is made red again in the hands read (``mark_red_fives``)."""
        red = dict(red_fives or {})
        if self.read_hand is None:
            raise ApiError("models_unavailable", f"hand assembly is unavailable: {self.hand_reader_reason}")

        def read(code: str | None) -> dict[str, Any]:
            detections, fixed = _detections_from_tiles(tiles)
            reading = dict(self.read_hand(detections, image_size, winning_tile=code,
                                          concealed_kong_tiles=concealed_kong_tiles or None,
                                          rules=context.get("rules", "mcr"), fixed=fixed).to_json())
            mark_red_fives(reading, red, code)
            return reading

        def work() -> dict[str, Any]:
            try:
                result = read(winning_tile)
            except HandError as error:
                raise ApiError(error.code, error.message, status=422) from None
            except Exception as error:  # noqa: BLE001 - odd layouts must not become 500s; say what happened
                log.exception("hand assembly failed on submitted tiles")
                result = {"hand": None, "warnings": [f"hand assembly failed: {type(error).__name__}: {error}"],
                          "warning_codes": ["hand_assembly_failed"], "tile_roles": [], "alternatives": []}
            if result.get("hand") is None:
                result["score"] = {"ok": False, "error": {
                    "code": "no_hand", "message": "no legal hand can be read from these tiles"}}
            else:
                result["score"] = score_or_error({"hand": result["hand"], "context": dict(context)})
                rightmost = winning_index(result)
                choose_winning_tile(result, context, winning_tile, read)
                score_alternatives(result, context, winning_tile, rightmost)
                warn_red_fives(result, context, photo=False)
            return result

        # Hand assembly can take a second on a hopeless layout: keep it off the event loop, in the same bounded pool.
        return await self.queue.run(work, timeout_s=self.settings.request_timeout_s)

    def _recognize(self, data: bytes) -> tuple[Any, Any]:
        """(Recognition, the decoded BGR image): the pixels are kept for the overlay, since a second decode of a
        12 MP JPEG costs 150+ ms."""
        return self.recognizer.recognize_with_image(data)

    def _read_photo_sync(self, data: bytes, options: PhotoOptions,
                         context: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            recognition, decoded = self._recognize(data)
        except ValueError as error:  # vision.errors.ImageError is a ValueError with a code
            code = getattr(error, "code", None)
            if code is None:
                raise
            raise ApiError(code, getattr(error, "message", str(error))) from None
        result: dict[str, Any] = dict(recognition.to_json(options.image_name))
        result.setdefault("width", recognition.width)
        result.setdefault("height", recognition.height)
        result["timings_ms"] = dict(getattr(recognition, "timings_ms", None) or {})
        timings = result.setdefault("timings_ms", {})
        # the recogniser's warnings first, then the reading's: ``warnings`` and ``warning_codes`` run in parallel
        result["warnings"], result["warning_codes"] = [], []
        add_warnings(result, list(recognition.warnings), list(recognition.warning_codes))
        reading_json: dict[str, Any] = {}
        started = time.perf_counter()

        def read(code: str | None):
            return self.read_hand(recognition.detections, (recognition.width, recognition.height),
                                  winning_tile=code, concealed_kong_tiles=options.concealed_kong_tiles or None,
                                  rules=options.rules, **_spares_of(recognition))

        if self.read_hand is not None:
            try:
                reading = read(options.winning_tile)
                reading_json = reading.to_json()
                mark_red_fives(reading_json, {}, options.winning_tile)
                # a spare box taken in as a hand tile joins the tiles, so that tile_roles line up with them
                result["tiles"] = list(result.get("tiles") or []) + reading.extra_tiles()
            except HandError as error:
                raise ApiError(error.code, error.message, status=422) from None
            except Exception as error:  # noqa: BLE001 - the tiles are still worth returning without a hand
                log.exception("hand assembly failed")
                result["hand"] = None
                add_warnings(result, [f"hand assembly failed: {type(error).__name__}: {error}"],
                             ["hand_assembly_failed"])
            for key, value in reading_json.items():
                if key not in ("warnings", "warning_codes"):
                    result[key] = value
            add_warnings(result, reading_json.get("warnings") or [], reading_json.get("warning_codes") or [])
        elif "hand" not in result:
            result["hand"] = None
            add_warnings(result, [f"hand assembly unavailable: {self.hand_reader_reason}"],
                         ["hand_assembly_unavailable"])
        timings["hand"] = round(1000 * (time.perf_counter() - started), 1)
        started = time.perf_counter()
        if context is not None:
            if result.get("hand") is None:
                result["score"] = {"ok": False, "error": {
                    "code": "no_hand", "message": "no legal hand could be read from the photo; correct the tiles"}}
            else:
                result["score"] = score_or_error({"hand": result["hand"], "context": dict(context)})
                tiles_read = list(result.get("tiles") or [])[:len(recognition.detections)]

                def reread(code: str) -> dict[str, Any]:
                    again = read(code)
                    if again.hand is not None and str(again.hand.winning_tile) == code:
                        result["tiles"] = tiles_read + again.extra_tiles()  # its own spare tiles, if any
                    return again.to_json()

                rightmost = winning_index(result)
                choose_winning_tile(result, context, options.winning_tile, reread)
                score_alternatives(result, context, options.winning_tile, rightmost)
                warn_red_fives(result, context, photo=True)
            timings["score"] = round(1000 * (time.perf_counter() - started), 1)
        # a box the localiser was unsure of (T51b, docs/rules-session51.md) or that the picture's edge cuts to under
        # half a tile (E64b, docs/rules-session64.md) is reported only where the reading uses it
        result = _without_unused_unsure(result, getattr(recognition, "unsure", ()))
        log.info("photo read", extra={"image": options.image_name, "tiles": len(result.get("tiles") or []),
                                      "hand": result.get("hand") is not None,
                                      "timings_ms": result.get("timings_ms")})
        if options.overlay:
            started = time.perf_counter()
            result["overlay"] = render_overlay(data, result.get("tiles") or [],
                                               (recognition.width, recognition.height),
                                               self.settings.overlay_max_side, decoded=decoded)
            timings["overlay"] = round(1000 * (time.perf_counter() - started), 1)
        return result


def _spares_of(recognition: Any) -> dict[str, Any]:
    """``read_hand``'s ``spares`` argument where the recognition has any (a stand-in recogniser may not)."""
    spares = getattr(recognition, "spares", None)
    return {"spares": spares} if spares is not None and len(spares) else {}


# The orientation head's probability given to a client's own rotation label: its log-odds (4.6) is the reader's
# dearest flip cost (vision.reading.layout.FLIP_COST_MAX).
CLIENT_LABEL_SURE = 0.99


def _detections_from_tiles(tiles: list[tuple[int | None, list[float], int, float, float | None, float | None,
                                         list[tuple[int | None, float]] | None]]):
    """(face index or None for face down, box, rotation, confidence, lifted or None, sideways probability or None, the
    recogniser's top or None) -> (vision Detections, (N,) bool: the tiles the reading takes as sent). A tile sent back
    with the recogniser's top (``routers.tiles._recognisers_top``: its code their first) gets those alternatives, as on
    the photo route; any other is a client's statement, final (F56, docs/rules-session56.md): top-1 only, and held, so
    that the decoder cannot give it another face at its floor probability. The lift model's probabilities come back with
    the tiles, so that a correction elsewhere cannot turn an added kong the photo showed into a pung; so do the
    orientation head's, which qualify only the label they came with. A label turned a quarter from most face-up tiles'
    with no probability of its own (a rotation the person changed, whose probability no longer belongs to it, or a
    client's tile sent without one) is the client's statement that the tile lies turned, as a claimed tile does, not a
    recogniser's guess: it gets the head's surest value for its label (CLIENT_LABEL_SURE), so that the reader overrules
    it only at its dearest flip cost, never at the lower one it keeps for unmeasured guesses
    (layout.SIDEWAYS_STANDING_COST, which a touching meld's cut outweighs). A label along most tiles' with none stays
    unmeasured (NaN): the reader then guesses no claimed tile among such tiles (a sure value on each would let it guess
    one at the first of any three alike, and read an added kong where the client showed none). Most tiles' labels, not
    the picture's axes, say which is turned: in a photo turned a quarter the hand's upright tiles are the ones labelled
    90 or 270. The boxes come as reported (``vision.detections.reported_boxes``) and go to the reader at the localiser's
    size, as the photo's own reading had them."""
    import numpy as np

    from vision.classes import FACE_DOWN
    from vision.detections import Detections, boxes_from_reported

    if not tiles:
        return Detections.empty(), np.zeros(0, bool)
    faces, boxes, rotations, confidences, lifts, sideways_sent, tops = zip(*tiles)
    ids = np.array([FACE_DOWN if face is None else face for face in faces], np.int32)
    rotation = np.array(rotations, np.int32)
    sideways = np.array([np.nan if p is None else p for p in sideways_sent], np.float32)
    # The label is the head's 4-way argmax and the probability a 2-way sum, so the recogniser's own pairs may part by
    # up to a third (an upright label with p <= 2/3); beyond that the label was changed after recognition.
    label_sideways = rotation % 180 == 90
    disagree = np.where(label_sideways, sideways < 1 / 3, sideways > 2 / 3)  # NaN compares False
    sideways = np.where(disagree, np.nan, sideways)
    face_up = ids != FACE_DOWN
    most_sideways = 2 * int((label_sideways & face_up).sum()) > int(face_up.sum())  # most tiles lie along the image's y
    turned = face_up & (label_sideways != most_sideways)
    stated = np.where(label_sideways, CLIENT_LABEL_SURE, 1.0 - CLIENT_LABEL_SURE)
    sideways = np.where(turned & np.isnan(sideways), stated, sideways)
    sideways = np.where(ids == FACE_DOWN, np.nan, sideways).astype(np.float32)  # (a back shows no face to turn)
    # top-k: the recogniser's where sent back with the tile, padded with its first at probability 0; else the code
    width = max((len(top) for top in tops if top), default=1)
    topk_ids = np.repeat(ids[:, None], width, axis=1)
    topk_probs = np.zeros((len(tiles), width), np.float32)
    for i, top in enumerate(tops):
        if top:
            topk_ids[i, :len(top)] = [FACE_DOWN if face is None else face for face, _ in top]
            topk_probs[i, :len(top)] = [p for _, p in top]
        else:
            topk_probs[i, 0] = confidences[i]
    fixed = np.array([not top for top in tops], bool)
    detections = Detections(boxes_from_reported(np.array(boxes, np.float64)).astype(np.float32), ids,
                            np.array(confidences, np.float32), rotation, topk_ids, topk_probs,
                            lifted=np.array([np.nan if lifted is None else lifted for lifted in lifts], np.float32),
                            sideways_probability=sideways)
    return detections, fixed


def validate_context(context: Mapping[str, Any]) -> WinContext:
    """Context errors are the client's (4xx) and are reported before any image work is done."""
    return WinContext.from_json(context).validate()
