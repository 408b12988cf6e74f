"""Small helpers: score a compact hand string with context keywords, through the same validation as the CLI."""

from __future__ import annotations

from engine import Hand, WinContext
from engine.riichi import score


def riichi(hand: str, **context):
    """Score ``hand`` (compact notation, ``+`` marks the winning tile) under riichi rules; zendanshin by default."""
    context.setdefault("rules", "riichi")
    h = Hand.parse(hand).validate()
    c = WinContext.from_json(context).validate()
    c.check_against(h)
    return score(h, c)


def yaku_han(result) -> dict[str, int]:
    """{yaku id: han}, dora included (kind "dora")."""
    return {y.id: y.han for y in result.yaku}


def fu_ids(result) -> dict[str, int]:
    return {line.id: line.fu for line in result.fu_details}
