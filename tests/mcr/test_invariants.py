"""Properties every score must have, on generated winning hands."""

from __future__ import annotations

import json

from engine.mcr import EXCLUDES, FAN_BY_ID, MINIMUM, score

from .generator import generate


def test_scores_are_consistent():
    for hand, context in generate(2000, seed=3):
        result = score(hand, context)
        ids = result.fan_ids
        # No fan that another scored fan excludes.
        for fan in ids:
            assert not EXCLUDES[fan] & set(ids), (str(hand), fan, EXCLUDES[fan] & set(ids))
        # Totals add up; flowers are outside the minimum.
        assert result.total == sum(FAN_BY_ID[f].points * n for f, n in ids.items())
        assert result.fan_points == result.total - len(hand.flowers)
        assert result.meets_minimum == (result.fan_points >= MINIMUM)
        # 无番和 only alone.
        assert "chicken_hand" not in ids or set(ids) <= {"chicken_hand", "flower_tiles"}
        # Payments follow the formula.
        pay = result.payments()
        if context.self_drawn:
            assert pay["from_each"] == 8 + result.total and pay["winner_receives"] == 3 * (8 + result.total)
        else:
            assert pay["from_discarder"] == 8 + result.total and pay["from_each_other"] == 8
        # Every fan explains itself with real tiles of the hand.
        out = result.to_json()
        json.dumps(out, ensure_ascii=False)
        for fan in out["fans"]:
            assert fan["sets"], fan["id"]
        assert sum(len(g["tiles"]) for g in out["arrangement"]["groups"]) == 14 + sum(
            1 for m in hand.melds if m.is_kong)
