"""Japanese riichi scoring: Zendanshin competition rules by default [001], or the ``modern`` ruleset.

``score(hand, context) -> RiichiResult`` takes the shared :class:`engine.Hand` and :class:`engine.WinContext`,
reads every riichi arrangement (:func:`.view.readings`: the partitions of the shared decomposition,
:func:`engine.decompose.standard_partitions`, plus seven different pairs and thirteen orphans; a test keeps them
equal to :func:`engine.decompose.arrangements` for these shapes), scores each with the yaku table
(:mod:`.yaku`), the fu table (:mod:`.fu`) and the limits (:mod:`.points`), and keeps the highest (高点法, policy
R18). Raises ``HandError("not_winning")`` when no riichi arrangement exists; a winning shape without a yaku is a
result with ``meets_minimum`` false and zero points (policy R19).
"""

from __future__ import annotations

from typing import NamedTuple

from ..decompose import GroupKind
from ..errors import HandError
from ..hand import Hand, MeldType, WinContext
from ..tiles import format_tiles
from .explain import arrangement_json, dora_tiles, explain_fu, groups_of, yaku_sets
from .fu import FuLine, compute_fu
from .points import Payment, basic_points, payment
from .rules import RULESETS, Ruleset, resolve
from .view import TERMINAL, HandFacts, View, readings
from .yaku import NAMES_ZH, ROWS, YAKUMAN_ROWS, Yaku, could_be_yakuman

__all__ = ["RULESETS", "RiichiResult", "Ruleset", "dora_of", "resolve", "score"]


def dora_of(indicator: int) -> int:
    """The dora kind after an indicator: numbers 1→…→9→1, winds E→S→W→N→E, dragons 白→發→中→白 [001:69]."""
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator < 31:
        return 27 if indicator == 30 else indicator + 1
    return 31 if indicator == 33 else indicator + 1


class YakuEntry(NamedTuple):
    """One line of the result's ``yaku`` list: a yaku, a yakuman, or dora (kind "dora", never a yaku [001:70])."""

    id: str
    name: str
    name_ja: str
    han: int
    kind: str  # "yaku", "yakuman" or "dora"
    source: str
    # What makes it (:mod:`.explain`): groups of the arrangement, and loose tiles (the winning tile, dora tiles).
    sets: tuple = ()
    tiles: tuple = ()

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "name_ja": self.name_ja, "han": self.han, "kind": self.kind,
                "source": self.source, "sets": [format_tiles(s) for s in self.sets],
                "tiles": [str(t) for t in self.tiles]}

    def fan_json(self) -> dict:
        """The line in the shape of an MCR fan (interfaces.md's ``fans``): ``points`` x ``count`` = ``total`` han, dora
        counted one han each, a yakuman 13 han a multiple as in ``han``."""
        dora = self.kind == "dora"
        out = self.to_json()
        del out["han"], out["source"]
        # name_zh, as every fan object of interfaces.md (and MCR's) has it, beside name_ja
        out = {"id": out.pop("id"), "name": out.pop("name"), "name_zh": NAMES_ZH[self.id], **out}
        return {**out, "points": 1 if dora else self.han, "count": self.han if dora else 1, "total": self.han}


class RiichiResult(NamedTuple):
    ruleset: Ruleset
    han: int
    fu: int
    yaku: tuple[YakuEntry, ...]
    fu_details: tuple[FuLine, ...]
    limit: str | None
    points: Payment
    meets_minimum: bool
    yakuman: int
    view: View
    notes: tuple[str, ...] = ()
    melds: tuple = ()
    groups: tuple = ()  # the kept reading's groups (:class:`.explain.Group`), standing groups then melds

    def to_json(self) -> dict:
        return {
            "ruleset": self.ruleset.name,
            "options": self.ruleset.options(),
            "total": self.points.total,
            "han": self.han,
            "fu": self.fu,
            "yaku": [y.to_json() for y in self.yaku],
            # interfaces.md's success object has ``fans`` whatever the rules ("Riichi adds han, fu, yaku, ..."): a
            # client reading one shape for both finds the yaku there too, in the MCR fan shape
            "fans": [y.fan_json() for y in self.yaku],
            "fu_details": [line.to_json() for line in self.fu_details],
            "limit": self.limit,
            "yakuman": self.yakuman,
            "points": self.points.to_json(),
            "meets_minimum": self.meets_minimum,
            "arrangement": self.view.describe(self.melds),
            # the same reading as MCR's ``arrangement`` object (``arrangement`` above stays the text it was)
            "arrangement_detail": arrangement_json(self.view, self.groups),
            "wait": self.view.wait,
            "notes": list(self.notes),
        }


def _count_dora(facts: HandFacts, indicators, usable: int) -> int:
    counts = facts.counts
    total = 0
    for t in indicators[:usable]:
        total += counts[dora_of(t.index)]
    return total


def _dora_kinds(indicators, usable: int) -> list[int]:
    return [dora_of(t.index) for t in indicators[:usable]]


def _dora(hand: Hand, context: WinContext, facts: HandFacts, rules: Ruleset, notes: list[str]) -> list[YakuEntry]:
    """Dora entries (never yaku [001:70]). Inputs whose option is off are not counted, and a note says so."""
    entries = []
    usable = len(context.dora_indicators) if rules.kan_dora else min(1, len(context.dora_indicators))
    if usable < len(context.dora_indicators):
        notes.append(f"{len(context.dora_indicators) - usable} kan dora indicator(s) not counted (options.kan_dora off)")
    dora = _count_dora(facts, context.dora_indicators, usable)
    if dora:
        entries.append(YakuEntry("dora", "Dora", "ドラ", dora, "dora", "001:69-70",
                                  tiles=tuple(dora_tiles(hand, _dora_kinds(context.dora_indicators, usable)))))
    counts = facts.counts
    reds = sum(1 for t in hand.all_tiles() if t.red) if counts[4] or counts[13] or counts[22] else 0
    if reds:
        if rules.aka_dora:
            entries.append(YakuEntry("aka_dora", "Red fives", "赤ドラ", reds, "dora", "options.aka_dora",
                                      tiles=tuple(t for t in hand.all_tiles() if t.red)))
        else:
            notes.append(f"{reds} red five(s) count as plain fives (options.aka_dora off [001:72])")
    if context.ura_dora_indicators:
        if not rules.ura_dora:
            notes.append("ura dora not counted (options.ura_dora off [001:72])")
        elif not (context.riichi or context.double_riichi):
            notes.append("ura dora count only for a riichi hand")
        else:
            ura_usable = len(context.ura_dora_indicators) if rules.kan_dora else 1
            if ura_usable < len(context.ura_dora_indicators):  # kan ura, as the kan dora above (policy R17, R20)
                notes.append(f"{len(context.ura_dora_indicators) - ura_usable} kan ura dora indicator(s) not counted"
                             f" (options.kan_dora off)")
            ura = _count_dora(facts, context.ura_dora_indicators, ura_usable)
            if ura:
                entries.append(YakuEntry("ura_dora", "Ura dora", "裏ドラ", ura, "dora", "options.ura_dora",
                                          tiles=tuple(dora_tiles(hand, _dora_kinds(context.ura_dora_indicators,
                                                                                    ura_usable)))))
    if context.ippatsu and not rules.ippatsu:
        notes.append("ippatsu is not a yaku here (options.ippatsu off [001:73])")
    return entries


def _yaku_of(facts: HandFacts, view: View, hand_found: list[Yaku]) -> tuple[list[Yaku], int]:
    """(yaku rows found, yakuman multiple). Yakuman, when present, stand alone [001:127]."""
    closed = facts.closed
    if could_be_yakuman(facts, view):
        yakuman = [y for y in YAKUMAN_ROWS[closed] if y.test(facts, view)]
        if yakuman:
            if facts.rules.double_yakuman:
                return yakuman, sum(y.yakuman for y in yakuman)
            return yakuman, 1  # one yakuman cap, policy R5
    found = hand_found + [y for y in ROWS["shape", closed] if y.test(facts, view)]
    if view.chows:
        found += [y for y in ROWS["chows", closed] if y.test(facts, view)]
    if view.pungs:
        found += [y for y in ROWS["pungs", closed] if y.test(facts, view)]
        if view.dragon_pungs or view.wind_pungs:
            found += [y for y in ROWS["honour_pungs", closed] if y.test(facts, view)]
    if len(found) > 1 and any(y.excludes for y in found):
        excluded = {e for y in found for e in y.excludes}
        found = [y for y in found if y.id not in excluded]
    return found, 0


def _han_of(y: Yaku, facts: HandFacts) -> int:
    if y.han_rule is not None:
        return getattr(facts.rules, y.han_rule)
    return y.han_closed if facts.closed else y.han_open


def score(hand: Hand, context: WinContext) -> RiichiResult:
    """Score a validated hand under ``context`` (rules "riichi"). See the module docstring."""
    rules = resolve(context.ruleset, context.options)
    facts = HandFacts(hand, context, rules)
    notes: list[str] = []
    if hand.flowers:
        notes.append(f"{len(hand.flowers)} flower tile(s) not used: riichi has no flowers")
    dora_entries = _dora(hand, context, facts, rules, notes)
    dora = sum(e.han for e in dora_entries)
    best = None
    best_key = None
    closed = facts.closed
    hand_found = [y for y in ROWS["hand", closed] if y.test(facts, None)]
    for view in readings(facts):
        found, yakuman = _yaku_of(facts, view, hand_found)
        pinfu = any(y.id == "pinfu" for y in found)
        fu, fu_lines = compute_fu(facts, view, pinfu)
        if yakuman:
            han = 13 * yakuman
        else:
            han = 0
            for y in found:
                han += y.han_closed if closed else y.han_open
                if y.han_rule is not None:  # renhou: the ruleset says
                    han += getattr(rules, y.han_rule) - y.han_closed
        basic, limit = basic_points(han + (0 if yakuman else dora), fu, yakuman, rules)
        # 高点法: the highest payment, then yakuman over counted han, then more han, then more fu (policy R18)
        key = (bool(found), basic, yakuman, han, fu)
        if best_key is None or key > best_key:
            best_key = key
            best = (view, found, yakuman, han, fu, fu_lines, basic, limit)
    if best is None:
        raise HandError("not_winning", f"no riichi winning arrangement (four sets and a pair, seven different pairs,"
                                       f" or thirteen orphans): {hand.format()!r}")
    view, found, yakuman, yaku_han, fu, fu_lines, basic, limit = best
    if yakuman:
        dora_entries = []  # dora add nothing to a yakuman
    groups = groups_of(hand, facts, view)
    entries = []
    for y in found:
        sets, tiles = yaku_sets(y.id, facts, groups)
        entries.append(YakuEntry(y.id, y.name, y.name_ja, _han_of(y, facts), "yakuman" if y.yakuman else "yaku",
                                 y.source, tuple(g.tiles for g in sets), tuple(tiles)))
    fu_lines = explain_fu(fu_lines, facts, view, groups)
    if yakuman and not rules.double_yakuman and len(found) > 1:
        notes.append("several yakuman pay one yakuman (options.double_yakuman off)")
    meets_minimum = bool(found)
    han = yaku_han + sum(e.han for e in dora_entries)
    if not meets_minimum:
        basic, limit = 0, None
        notes.append("no yaku: the hand does not meet the 1-han minimum (dora do not count [001:7, 001:70])")
    pao = _pao(hand, context, rules, found, facts)
    # honba and riichi sticks go to the hand's winner [001:36, 001:58]; with no yaku there is none (policy R19)
    honba, sticks = (context.honba, context.riichi_sticks) if meets_minimum else (0, 0)
    pay = payment(basic, tsumo=context.self_drawn, dealer=context.is_dealer, honba=honba, sticks=sticks, pao=pao)
    return RiichiResult(rules, han, fu, tuple(entries + dora_entries), tuple(fu_lines), limit, pay, meets_minimum,
                        yakuman, view, tuple(notes), hand.melds, groups)


# For each yakuman with liability, which exposed melds can be the fed one [001:75-81], policy R11.
_PUNG_TYPES = (MeldType.PUNG, MeldType.KONG, MeldType.ADDED_KONG)
_PAO_MELDS = {
    "daisangen": lambda m: m.type in _PUNG_TYPES and m.tiles[0].index >= 31,
    "suushiihou": lambda m: m.type in _PUNG_TYPES and 27 <= m.tiles[0].index <= 30,
    "daisuushi": lambda m: m.type in _PUNG_TYPES and 27 <= m.tiles[0].index <= 30,
    "tsuuiisou": lambda m: m.type in _PUNG_TYPES,
    "chinroutou": lambda m: m.type in _PUNG_TYPES and TERMINAL[m.tiles[0].index],
    "ryuuiisou": lambda m: True,  # chi counts too [001:80]
}


def _fed_before_the_win(yaku_id: str, v: View) -> bool:
    """Whether the liable call can have been the last set of the yakuman: pao is for letting the player pon the
    third dragon kind, the fourth wind, honour or terminal kind, or call the fourth set of all green [001:76-80], so
    that set was there before the win. A winning tile that completes a dragon pung (大三元), or any set of the
    four-set yakuman (only their pair may be the wait), completed it itself: no call did, and nobody is liable."""
    kind, first = v.win
    if yaku_id == "daisangen":
        return not (kind is GroupKind.PUNG and first >= 31)
    return kind is GroupKind.PAIR


def _pao(hand: Hand, context: WinContext, rules: Ruleset, found: list[Yaku], facts: HandFacts) -> str | None:
    if context.pao is None:
        return None
    views = None
    for y in found:
        yaku_id = y.id.removesuffix("_double")
        if yaku_id not in rules.pao_yakuman:
            continue
        test = _PAO_MELDS[yaku_id]
        if views is None:
            views = readings(facts)
        # only the pon of the fourth wind set is liable [001:77]; the liable set came before the win [001:76-80]
        if not any(y.test(facts, v) and _fed_before_the_win(yaku_id, v)
                   and (yaku_id != "suushiihou" or v.wind_pungs == 4) for v in views):
            continue
        for meld in hand.melds:
            if not meld.is_concealed and meld.discarder is not None and meld.discarder.value == context.pao \
                    and test(meld):
                return context.pao
    raise HandError("contradictory_context",
                    f"pao {context.pao!r}: the hand has no yakuman with liability in the {rules.name} ruleset"
                    f" ({', '.join(sorted(rules.pao_yakuman))}) with a meld fed by that player that completed it"
                    f" before the win")
