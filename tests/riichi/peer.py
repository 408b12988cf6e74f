"""Adapter to the ``mahjong`` library (test-only oracle, version 2.1): our Hand + WinContext in, its answer out.

The library takes 136-tile ids (four copies per kind; the red fives are copy 0 of each five: 16, 52, 88),
``Meld`` objects and a ``HandConfig`` with ``OptionalRules``. :func:`peer_score` returns a dict comparable with
our result: ``han``, ``fu``, ``yakuman`` flag, the payments and the library's error (``no_yaku``...).
"""

from __future__ import annotations

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as PeerMeld

from engine import Hand, MeldType, WinContext
from engine.riichi import resolve

_WIND = {"E": EAST, "S": EAST + 1, "W": EAST + 2, "N": EAST + 3}
_MELD_TYPE = {MeldType.CHOW: PeerMeld.CHI, MeldType.PUNG: PeerMeld.PON, MeldType.KONG: PeerMeld.KAN,
              MeldType.ADDED_KONG: PeerMeld.SHOUMINKAN, MeldType.CONCEALED_KONG: PeerMeld.KAN}


_ERRORS = {HandCalculator.ERR_HAND_NOT_WINNING: "not_winning", HandCalculator.ERR_NO_YAKU: "no_yaku"}


class _Copies:
    """Hands out 136-ids: a red five gets copy 0, plain tiles the other copies first."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, tile) -> int:
        base = tile.index * 4
        order = (0,) if tile.red else (1, 2, 3, 0)
        for k in order:
            if base + k not in self.used:
                self.used.add(base + k)
                return base + k
        raise ValueError(f"no copy left for {tile}")


def peer_inputs(hand: Hand, context: WinContext):
    """(tiles, win_tile, melds, dora, ura, config) for ``HandCalculator.estimate_hand_value``."""
    rules = resolve(context.ruleset, context.options)
    copies = _Copies()
    melds = []
    all_ids = []
    for meld in hand.melds:
        ids = [copies.take(t) for t in meld.tiles]
        melds.append(PeerMeld(meld_type=_MELD_TYPE[meld.type], tiles=ids, opened=not meld.is_concealed))
        all_ids += ids
    win_id = copies.take(hand.winning_tile)
    all_ids += [win_id] + [copies.take(t) for t in hand.concealed]
    usable = len(context.dora_indicators) if rules.kan_dora else min(1, len(context.dora_indicators))
    dora = [t.index * 4 + 1 for t in context.dora_indicators[:usable]]
    ura_usable = len(context.ura_dora_indicators) if rules.kan_dora else min(1, len(context.ura_dora_indicators))
    ura = [t.index * 4 + 1 for t in context.ura_dora_indicators[:ura_usable]] if rules.ura_dora else []
    options = OptionalRules(
        has_open_tanyao=rules.kuitan, has_aka_dora=rules.aka_dora, has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage, fu_for_open_pinfu=rules.open_pinfu_fu > 0, fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
    )
    tsumo = context.self_drawn
    config = HandConfig(
        is_tsumo=tsumo, is_riichi=context.riichi and not context.double_riichi,
        is_daburu_riichi=context.double_riichi, is_ippatsu=context.ippatsu and rules.ippatsu,
        is_rinshan=context.kong_replacement and rules.rinshan_yaku, is_chankan=context.robbing_kong,
        is_haitei=context.last_wall_tile and tsumo, is_houtei=context.last_wall_tile and not tsumo,
        is_tenhou=context.blessing == "heaven", is_chiihou=context.blessing == "earth",
        is_renhou=context.blessing == "human", player_wind=_WIND[context.seat_wind],
        round_wind=_WIND[context.round_wind], kyoutaku_number=context.riichi_sticks, tsumi_number=context.honba,
        options=options,
    )
    return all_ids, win_id, melds, dora, ura, config


def peer_score(hand: Hand, context: WinContext) -> dict:
    tiles, win, melds, dora, ura, config = peer_inputs(hand, context)
    response = HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config,
                                                  ura_dora_indicators=ura)
    if response.error:
        return {"error": _ERRORS.get(response.error, response.error)}
    cost = response.cost
    return {"error": None, "han": response.han, "fu": response.fu,
            "yakuman": any(y.is_yakuman for y in response.yaku),
            "yaku": sorted(str(y) for y in response.yaku),
            "main": cost["main"], "additional": cost["additional"], "total": cost["total"]}


def ours_comparable(result, context: WinContext) -> dict:
    """Our result in the peer's terms (``main`` / ``additional`` as the library defines them)."""
    if not result.meets_minimum:
        return {"error": "no_yaku"}
    points = result.points
    if not context.self_drawn:
        main, additional = points.from_discarder, 0
    elif context.is_dealer:
        main = additional = points.from_each_non_dealer
    else:
        main, additional = points.from_dealer, points.from_each_non_dealer
    return {"error": None, "han": result.han, "fu": result.fu, "yakuman": result.yakuman > 0,
            "main": main, "additional": additional, "total": points.total + points.honba + points.sticks}
