"""Differential test against the ``mahjong`` library (2.1, test-only oracle) under the ``modern`` ruleset.

5,000 generated legal winning hands (``generator.py``, fixed seed), each with its own options drawn from the
switchable ones and passed to both engines alike (``peer.py``). Compared: the error (``no_yaku`` for a hand
without yaku, where we answer ``meets_minimum`` false), han, fu (not for yakuman, where fu mean nothing) and every
payment (discarder, dealer, non-dealer, with honba and sticks).

Disagreement classes, documented in docs/policy.md (R5):

* ``yakuman_stacking``: with ``double_yakuman`` off, we pay one yakuman for a hand with several (the Zendanshin
  cap [001:127], WRC); the library still adds distinct yakuman together (its ``has_double_yakuman`` switch only
  turns off the double patterns). With ``double_yakuman`` on, both stack and must agree.

Anything else is a defect. The test keeps the agreement rate at or above what was measured when it was written.

A second run scores 2,000 hands under ``zendanshin`` (options flipped now and then, as above) against the library
set as near as it goes (no red fives, ura, kan dora or ippatsu unless switched on, 20-fu open pinfu ron, 13+ han =
sanbaiman, no rinshan yaku). Its further documented classes
are the Zendanshin rules the library cannot be told: ``renhou_4_han`` (the library's renhou is 5 han [001:169]) and
``double_wind_pair_2_fu`` (the library counts 4 [001:106]) and ``open_tsumo_keeps_tsumo_fu`` (an open hand with no
other fu won by tsumo is 20 + 2 → 30 fu [001:100-101], spec §8; the library, told not to raise open pinfu-shaped
hands to 30, drops the tsumo fu as well and gives 20).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("mahjong")

from engine import HandError  # noqa: E402
from engine.riichi import RULESETS, score  # noqa: E402
from engine.riichi.yaku import ALL_IDS  # noqa: E402

from .generator import random_deal  # noqa: E402
from .peer import ours_comparable, peer_score  # noqa: E402

SEED = 20261122
HANDS = 5000
# Measured when written: 4,789 / 5,000 agree exactly; the other 211 are all yakuman_stacking (the themes that make
# yakuman often make two at once: all honours with four concealed pungs, ...).
MIN_AGREEMENT = 0.957
# Measured when written: 1,874 / 2,000; the rest: 87 yakuman_stacking, 18 renhou_4_han, 18
# open_tsumo_keeps_tsumo_fu, 3 double_wind_pair_2_fu.
MIN_ZENDANSHIN_AGREEMENT = 0.937
ZENDANSHIN_ONLY = {"suushiihou", "suushiihou_double", "honour_seven_pairs"}


def _classify(ours: dict, peer: dict, options: dict, result, context, hand_is_concealed: bool) -> str | None:
    keys = ("error", "main", "additional", "total") if peer.get("yakuman") else \
        ("error", "han", "fu", "main", "additional", "total")
    if all(ours.get(k) == peer.get(k) for k in keys):
        return None
    if ours.get("yakuman") and peer.get("yakuman") and not options.get("double_yakuman") and peer["han"] > 13:
        return "yakuman_stacking"
    if context.ruleset == "zendanshin" and result is not None:
        if context.blessing == "human":
            return "renhou_4_han"
        if any(line.id == "double_wind_pair" for line in result.fu_details):
            return "double_wind_pair_2_fu"
        if context.self_drawn and not context.riichi and ours["fu"] == 30 and peer.get("fu") == 20 \
                and not hand_is_concealed:
            return "open_tsumo_keeps_tsumo_fu"
    return "unexplained"


def _compare(ruleset: str, hands: int, seed: int, switch_options: bool):
    rng = random.Random(seed)
    classes: Counter = Counter()
    examples: dict = {}
    seen_yaku: set[str] = set()
    for _ in range(hands):
        defaults = RULESETS[ruleset].options()
        options = {name: not default for name, default in defaults.items() if rng.random() < 0.2} \
            if switch_options else {}
        hand, context = random_deal(rng, ruleset, options, quad_pairs=True)
        result = None
        try:
            result = score(hand, context)
            ours = ours_comparable(result, context)
            seen_yaku.update(y.id for y in result.yaku)
        except HandError as error:
            ours = {"error": error.code}
        peer = peer_score(hand, context)
        label = _classify(ours, peer, options, result, context, hand.is_concealed)
        classes[label or "agree"] += 1
        if not label and ours["error"]:
            classes["agree_" + ours["error"]] += 1  # counted inside "agree" too
        if label:
            examples.setdefault(label, []).append((hand.format(), context.to_json(), ours, peer))
    return classes, examples, seen_yaku


@pytest.fixture(scope="module")
def comparison():
    return _compare("modern", HANDS, SEED, switch_options=True)


def test_agreement_with_the_mahjong_library(comparison):
    classes, examples, _ = comparison
    print(dict(classes))
    assert not classes["unexplained"], examples.get("unexplained", [])[:5]
    assert classes["agree"] / HANDS >= MIN_AGREEMENT, dict(classes)
    # both sides saw hands without yaku, and four of a kind offered as two pairs (not_winning, policy R8)
    assert classes["agree_no_yaku"] > 50 and classes["agree_not_winning"] > 10, dict(classes)


def test_the_generated_hands_cover_every_yaku(comparison):
    _, _, seen = comparison
    missing = set(ALL_IDS) - ZENDANSHIN_ONLY - seen
    assert not missing
    assert {"dora", "aka_dora", "ura_dora"} <= seen


def test_zendanshin_against_the_library_set_as_near_as_it_goes():
    classes, examples, seen = _compare("zendanshin", 2000, SEED + 1, switch_options=True)
    print(dict(classes))
    modern_only = {"rinshan", "ippatsu", "shousuushi", "daisuushi", "daisuushi_double", "kokushi_13", "suuankou_tanki",
                   "junsei_chuuren"}
    assert set(ALL_IDS) - modern_only - seen == set()
    assert not classes["unexplained"], examples.get("unexplained", [])[:5]
    assert classes["agree"] / 2000 >= MIN_ZENDANSHIN_AGREEMENT, dict(classes)
