"""POST /v1/hands/score: score a hand given as JSON (or the compact string), no photo involved.

This is the referee page's rescoring call after a correction: scoring one hand takes milliseconds, so it never
waits behind photos in the inference queue.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..pipeline import parse_hand_string, score_hand_request
from ..responses import ERROR_RESPONSES, ScoreResponse
from ..schemas import HandScoreRequest, UniqueKeysRoute

router = APIRouter(prefix="/v1", tags=["hands"], route_class=UniqueKeysRoute)


@router.post("/hands/score", response_model=None, responses={200: {"model": ScoreResponse}, **ERROR_RESPONSES},
             summary="Score a hand (JSON or compact string) under MCR or riichi")
def score_hand(request: HandScoreRequest) -> dict[str, Any]:
    """Returns the score object of interfaces.md (`total`, `fans` with the tiles that make each; riichi adds `han`,
    `fu`, `yaku`, `points`) plus the hand as read. A hand that is not a win is a 422 `not_winning`."""
    hand = parse_hand_string(request.hand) if isinstance(request.hand, str) \
        else request.hand.model_dump(by_alias=True, exclude_unset=True)
    return score_hand_request({"hand": hand, "context": request.context.to_engine()})
