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


# The context fields only riichi reads (policy H7): under MCR each given another value than its default is named in
# the result's ``notes``, so that a referee sees that a riichi declaration or dora indicators were not scored.
_DEFAULT_CONTEXT = WinContext()
RIICHI_ONLY_FIELDS = ("ruleset", "options", "riichi", "double_riichi", "ippatsu", "blessing", "dora_indicators",
                      "ura_dora_indicators", "honba", "riichi_sticks", "pao")


def riichi_context_unused(context: WinContext) -> list[str]:
    """The riichi-only fields ``context`` sets under MCR (an empty list under riichi)."""
    if context.rules != "mcr":
        return []
    return [name for name in RIICHI_ONLY_FIELDS if getattr(context, name) != getattr(_DEFAULT_CONTEXT, name)]


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """One request object in, one result object out (``ok`` true or false); never raises for bad input."""
    try:
        hand, context = read_request(data)
        result = score(hand, context)
    except HandError as error:
        return {"ok": False, "error": error.to_json()}
    return with_context_notes({"ok": True, "rules": context.rules, **result.to_json()}, context)


def with_context_notes(answer: dict[str, Any], context: WinContext) -> dict[str, Any]:
    """``answer`` (a scored result's JSON) with a note naming the riichi-only fields ``context`` sets under MCR."""
    unused = riichi_context_unused(context)
    if unused:
        answer["notes"] = [*answer.get("notes", []), "riichi-only context not used under MCR: " + ", ".join(unused)]
    return answer
