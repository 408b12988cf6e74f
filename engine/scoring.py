"""Dispatch a scoring request to the rule family it names, and shape the result or the error as JSON."""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from .errors import HandError
from .hand import Hand, WinContext, read_request

# Each rule family is a subpackage exposing ``score(hand, context) -> result`` with ``result.to_json()``.
_SCORERS = {"mcr": "engine.mcr", "riichi": "engine.riichi"}


def score(hand: Hand, context: WinContext):
    """Score a validated hand under ``context.rules``. Raises :class:`HandError` (e.g. ``not_winning``)."""
    module_name = _SCORERS.get(context.rules)
    if module_name is None:
        raise HandError("unknown_rules", f"unknown rules {context.rules!r} (expected 'mcr' or 'riichi')")
    module = importlib.import_module(module_name)
    return module.score(hand, context)


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """One request object in, one result object out (``ok`` true or false); never raises for bad input."""
    try:
        hand, context = read_request(data)
        result = score(hand, context)
    except HandError as error:
        return {"ok": False, "error": error.to_json()}
    return {"ok": True, "rules": context.rules, **result.to_json()}
