"""Errors with stable codes.

Every problem with a hand, a tile or a context is reported as a :class:`HandError`, a ``ValueError`` carrying a
``code`` (lower snake case, stable: clients switch on it) and a message that quotes the offending input.
"""

from __future__ import annotations


class HandError(ValueError):
    """A hand, tile list or context that cannot be scored, with a stable ``code``.

    >>> raise HandError("unknown_tile", "unknown tile code 'x9'")
    Traceback (most recent call last):
    ...
    engine.errors.HandError: [unknown_tile] unknown tile code 'x9'
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.details = details

    def __reduce__(self):
        # pickle and copy by the constructor's own arguments: the default passes the one formatted string back as
        # ``code`` and fails, so an error raised in a worker process (multiprocessing) could not reach its parent
        return (type(self), (self.code, self.message), {"details": self.details})

    def to_json(self) -> dict:
        error: dict = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return error


# The codes in one place, so that documentation and tests can list them.
ERROR_CODES = {
    "unknown_tile": "a tile code or MPSZ string that cannot be read",
    "invalid_json": "a line or body that is not JSON at all",
    "duplicate_key": "a JSON object that names one key twice (which value was meant is ambiguous)",
    "invalid_hand_json": "the hand or context JSON has a wrong shape, type or unknown field",
    "wrong_tile_count": "the concealed part does not hold 13 - 3 x melds tiles (or 14 - 3 x melds with the winning tile)",
    "too_many_copies": "more than four copies of a tile (counting melds, concealed, winning tile)",
    "duplicate_flower": "a flower or season shown twice",
    "flower_in_hand": "a flower or season in the concealed part, a meld, or as the winning tile",
    "invalid_meld": "a meld with the wrong number of tiles for its type, or an unknown meld type",
    "invalid_chow": "a chow that is not three consecutive tiles of one suit",
    "unequal_meld_tiles": "a pung or kong whose tiles are not all the same",
    "invalid_meld_source": "a missing, unknown or impossible 'from' (chows come only from the left; concealed kongs have none)",
    "claimed_not_in_meld": "the claimed tile is not one of the meld's tiles",
    "winning_tile_not_in_hand": "a 14-tile concealed list that does not contain the winning tile",
    "contradictory_context": "context flags that cannot all be true, a context the hand contradicts (a fifth copy counting the dora indicators), indicators that contradict themselves (five of a kind, one red five twice), or a context field the hand object gives with another value",
    "invalid_context": "a context field with a wrong value (unknown wind, negative honba, ...)",
    "unknown_rules": "rules other than 'mcr' or 'riichi', or an unknown riichi ruleset or option",
    "not_winning": "the tiles do not form a legal winning shape",
}
