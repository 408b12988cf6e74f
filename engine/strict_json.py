"""JSON from outside (a CLI line, an HTTP body, a form field holding JSON), read with every object's keys unique.

``json.loads`` keeps the last of two equal keys, so ``{"winning_tile": "4p", "winning_tile": "1p"}`` was scored as
a win on 1p without a word. RFC 8259 leaves such an object's meaning to the reader ("names SHOULD be unique"), and
readers differ (some keep the first): a referee's tool that sends one means something, and which is not ours to
guess. It is refused with ``duplicate_key``, naming the key, at any depth.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import HandError


SHOWN_KEY_CHARACTERS = 64  # of a repeated key, quoted back in the error (a key may be as long as the body)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                shown = key if len(key) <= SHOWN_KEY_CHARACTERS else key[:SHOWN_KEY_CHARACTERS - 3] + "..."
                # JSON may name a lone surrogate ("\ud800"), which no UTF-8 answer can hold: the key in details is
                # escaped as the message's repr is (it stopped the CLI with a traceback and gave the service a 500)
                raise HandError("duplicate_key", f"the key {shown!r} appears twice in one JSON object, so which value "
                                                 "was meant is ambiguous; send each key once",
                                key=shown.encode("utf-8", "backslashreplace").decode("utf-8"))
            seen.add(key)
    return out


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads`` that refuses an object holding a key twice (:class:`HandError` ``duplicate_key``); every other
    failure is ``json.loads``'s own (``JSONDecodeError``, ``UnicodeDecodeError``, ``RecursionError``, ...)."""
    return json.loads(text, object_pairs_hook=_unique_keys)
