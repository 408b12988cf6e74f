"""Evaluate one arrangement of a hand: every fan it scores, with the sets that make it, after the exclusions.

Work is split by what a fan depends on, so each is computed once:

* :class:`HandFacts` (once per hand): tile-level fans (flushes, terminals, ranges, 断幺, 推不倒, 四归一...), the way
  of winning (自摸, 门前清, 不求人, 全求人, 和绝张, 妙手回春...), the kong counts and whether the wait is unique;
* :func:`evaluate` (per arrangement): the shape fans (七对, 碰碰和, 平和, 全带幺...), the concealed pungs, the
  combination fans of chows and of pungs (``combos``), the per-set fans (箭刻, 圈风刻, 门风刻, 幺九刻) and the
  wait fans (边张, 坎张, 单调将), then the exclusion table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from ..decompose import KNITTED_PATTERNS, Arrangement, GroupKind, Shape
from ..hand import Hand, MeldType, WinContext
from ..tiles import ALL_KINDS, Tile
from .combos import DRAGONS, chow_fans, pung_fans
from .exclusions import EXCLUDES
from .fans import POINTS
from .readings import complete_blocks

_WIND_INDEX = {"E": 27, "S": 28, "W": 29, "N": 30}
_GREEN = frozenset(t.index for t in ALL_KINDS if t.is_green)
_REVERSIBLE = frozenset(t.index for t in ALL_KINDS if t.is_reversible)
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(slots=True)
class Scored:
    """Fans of one arrangement: id -> [count, explanations], and the total (flowers excluded).

    An explanation is a tuple of parts, each a ``Group`` of the arrangement, a tuple of tiles, or ``WHOLE_HAND``;
    they are turned into tiles only for the arrangement finally chosen (``MCRResult.fans``)."""

    fans: dict[str, list] = field(default_factory=dict)
    total: int = 0

    def add(self, fan: str, parts: tuple, count: int = 1) -> None:
        entry = self.fans.get(fan)
        if entry is None:
            self.fans[fan] = [count, [parts]]
        else:
            entry[0] += count
            entry[1].append(parts)


WHOLE_HAND = "whole_hand"  # explanation part: every group of the arrangement


def _kinds(indices) -> tuple[Tile, ...]:
    return tuple(ALL_KINDS[i] for i in indices)


def win_fan_ids(self_drawn: bool, concealed: bool, last_wall_tile: bool, kong_replacement: bool, robbing_kong: bool,
                melded_hand: bool, last_tile: bool) -> tuple[str, ...]:
    """The way-of-winning fans (the one rule, used by ``HandFacts._win_fans`` and the fast path): ``melded_hand`` is four melds none a concealed kong,
    ``last_tile`` the context's flag or the other three copies in the winner's own melds."""
    fans = []
    if self_drawn:
        fans.append("self_drawn")
        if concealed:
            fans.append("fully_concealed_hand")
        if last_wall_tile:
            fans.append("last_tile_draw")
        if kong_replacement:
            fans.append("out_with_replacement_tile")
    else:
        if concealed:
            fans.append("concealed_hand")
        if last_wall_tile:
            fans.append("last_tile_claim")
        if robbing_kong:
            fans.append("robbing_the_kong")
        if melded_hand:
            fans.append("melded_hand")
    if last_tile:
        fans.append("last_tile")
    return tuple(fans)


class HandFacts:
    """What does not depend on the arrangement."""

    __slots__ = ("hand", "context", "counts", "standing", "hand_fans", "win_fans", "melded_kongs", "concealed_kongs",
                 "concealed", "round_wind", "seat_wind", "_unique_wait", "base_fans", "base_table")

    def __init__(self, hand: Hand, context: WinContext) -> None:
        self.hand = hand
        self.context = context
        standing = [0] * 34
        mask = 0
        for t in hand.concealed:
            i = t.index
            standing[i] += 1
            mask |= 1 << i
        i = hand.winning_tile.index
        standing[i] += 1
        mask |= 1 << i
        counts = list(standing)
        kong_kinds = 0
        melded_kongs = concealed_kongs = 0
        concealed = True
        melds = hand.melds
        for meld in melds:
            tiles = meld.tiles
            i = tiles[0].index
            mask |= 1 << i
            for t in tiles:
                counts[t.index] += 1
            if len(tiles) == 3:
                concealed = False
                if i != tiles[2].index:  # a chow
                    mask |= 3 << (i + 1)
            elif meld.type is MeldType.CONCEALED_KONG:
                concealed_kongs += 1
                kong_kinds |= 1 << i
            else:
                concealed = False
                melded_kongs += 1
                kong_kinds |= 1 << i
        self.counts = counts
        self.standing = standing
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.concealed = concealed
        self.round_wind = _WIND_INDEX[context.round_wind]
        self.seat_wind = _WIND_INDEX[context.seat_wind]
        self._unique_wait: bool | None = None
        # Fans of the tiles alone: which kinds are present (cached by what they depend on), 四归一, 九莲宝灯.
        fans = _kind_fans_of(mask)
        if 4 in counts:
            hogs = [i for i in range(34) if counts[i] == 4 and not kong_kinds >> i & 1]
            if hogs:
                fans = fans + (("tile_hog", len(hogs), tuple((ALL_KINDS[i],) * 4 for i in hogs)),)
        if not melds and self._is_nine_gates():
            fans = fans + (("nine_gates", 1, (WHOLE_HAND,)),)
        self.hand_fans = fans
        self.win_fans = self._win_fans()
        self.base_fans = fans + tuple(self.win_fans)
        # The table every arrangement starts from. Its entries are shared, never changed: no fan of the
        # arrangement has the id of a tile-level or way-of-winning fan, so none is ever counted up in place.
        self.base_table = {fan: [count, [parts]] for fan, count, parts in self.base_fans}

    def _is_nine_gates(self) -> bool:
        hand = self.hand
        if hand.melds:
            return False
        suit = hand.winning_tile.index // 9
        if hand.winning_tile.index >= 27:
            return False
        standing = self.standing
        if standing[suit * 9] < 3 or standing[suit * 9 + 8] < 3:
            return False  # 1112345678999 needs three 1s and three 9s
        before = list(standing)
        before[hand.winning_tile.index] -= 1
        return tuple(before[suit * 9: suit * 9 + 9]) == _NINE_GATES and sum(before) == 13

    # --- fans of the way of winning -----------------------------------------------------------------------------
    def _win_fans(self) -> list[tuple[str, int, tuple]]:
        ctx, hand = self.context, self.hand
        win = ((hand.winning_tile,),)
        melded_hand = len(hand.melds) == 4 and not any(m.type is MeldType.CONCEALED_KONG for m in hand.melds)
        last_tile = bool(ctx.last_tile or (hand.melds and self._last_copy_in_own_melds()))
        ids = win_fan_ids(ctx.self_drawn, self.concealed, ctx.last_wall_tile, ctx.kong_replacement, ctx.robbing_kong,
                          melded_hand, last_tile)
        return [(fan, 1, tuple(m.tiles for m in hand.melds) + win if fan == "melded_hand" else win) for fan in ids]

    def _last_copy_in_own_melds(self) -> bool:
        """Three copies of the winning tile already shown in the winner's own melds: it is the last one [002:310]."""
        # The melds' tiles of that kind are counts - standing; none is in a concealed kong (that would make five).
        index = self.hand.winning_tile.index
        return self.counts[index] - self.standing[index] == 3

    @property
    def unique_wait(self) -> bool:
        """Whether the winning tile is the only tile that completes the 13-tile hand (边张/坎张/单调将 need it)."""
        if self._unique_wait is None:
            win = self.hand.winning_tile.index
            standing = list(self.standing)
            standing[win] -= 1
            counts = self.counts
            exhausted = tuple([i for i in range(34) if counts[i] == 4 and i != win]) if 4 in counts else ()
            self._unique_wait = _only_winning_tile_of(tuple(standing), win, len(self.hand.melds), exhausted)
        return self._unique_wait


_NUMBER_MASK = (1 << 27) - 1
_GREEN_MASK = sum(1 << i for i in _GREEN)
_REVERSIBLE_MASK = sum(1 << i for i in _REVERSIBLE)
_NOT_TERMINAL_NUMBERS = _NUMBER_MASK & ~sum(1 << i for i in _TERMINALS)
_KIND_FANS_BY_FEATURES: dict[tuple, tuple] = {}


def _kind_fans_of(mask: int) -> tuple[tuple[str, int, tuple], ...]:
    """``_kind_fans(mask)``, cached by the few features it reads (suits, ranks and honours present, whether all
    tiles are green / reversible, whether the numbers are all terminals), which recur far more than masks do."""
    suits = (mask & 0x1FF != 0) | (mask >> 9 & 0x1FF != 0) << 1 | (mask >> 18 & 0x1FF != 0) << 2
    honours = mask >> 27
    # The ranks matter only without honours (大于五, 中张, 断幺...); of the honours, only winds / dragons present.
    key = (suits, 0 if honours else (mask | mask >> 9 | mask >> 18) & 0x1FF, honours & 0xF != 0, honours >> 4 != 0,
           not mask & ~_GREEN_MASK, not mask & ~_REVERSIBLE_MASK, not mask & _NOT_TERMINAL_NUMBERS)
    fans = _KIND_FANS_BY_FEATURES.get(key)
    if fans is None:
        fans = _KIND_FANS_BY_FEATURES[key] = _kind_fans(mask)
    return fans


@lru_cache(maxsize=4096)
def _kind_fans(mask: int) -> tuple[tuple[str, int, tuple], ...]:
    """Fans that depend only on which kinds the hand uses (a bit mask of the 34 kinds)."""
    present = [i for i in range(34) if mask >> i & 1]
    numbers = [i for i in present if i < 27]
    honours = [i for i in present if i >= 27]
    suits = {i // 9 for i in numbers}
    ranks = {i % 9 + 1 for i in numbers}
    fans: list[str] = []
    add = fans.append
    if all(i in _GREEN for i in present):
        add("all_green")
    if not honours:
        if len(suits) == 1:
            add("full_flush")
        add("no_honours")
    elif len(suits) == 1:
        add("half_flush")
    if not numbers:
        add("all_honours")
    if numbers and not honours and all(i in _TERMINALS for i in numbers):
        add("all_terminals")
    if numbers and honours and all(i in _TERMINALS for i in numbers):
        add("all_terminals_and_honours")
    if all(i in _REVERSIBLE for i in present):
        add("reversible_tiles")
    if numbers and not honours:
        if ranks <= {7, 8, 9}:
            add("upper_tiles")
        elif ranks <= {4, 5, 6}:
            add("middle_tiles")
        elif ranks <= {1, 2, 3}:
            add("lower_tiles")
        if ranks <= {6, 7, 8, 9}:
            add("upper_four")
        elif ranks <= {1, 2, 3, 4}:
            add("lower_four")
        if not (ranks & {1, 9}):
            add("all_simples")
    if len(suits) == 2:
        add("one_voided_suit")
    if len(suits) == 3 and any(i < 31 for i in honours) and any(i >= 31 for i in honours):
        add("all_types")
    return tuple((fan, 1, (WHOLE_HAND,)) for fan in fans)


def _only_winning_tile(hand: Hand) -> bool:
    """Whether no kind but the winning tile completes the 13-tile hand. Same answer as
    ``len(engine.decompose.winning_tiles(hand)) == 1`` (a kind whose four copies the hand holds is no wait), but it
    tries only the kinds that can touch the standing tiles, re-checks only the suit a candidate changes (suit
    results are cached by counts), and tests the irregular shapes only when the hand could be one."""
    standing = [0] * 34
    for t in hand.concealed:
        standing[t.index] += 1
    held = list(standing)
    for meld in hand.melds:
        for t in meld.tiles:
            held[t.index] += 1
    exhausted = tuple(i for i in range(34) if held[i] >= 4)
    return _only_winning_tile_of(tuple(standing), hand.winning_tile.index, len(hand.melds), exhausted)


@lru_cache(maxsize=65536)
def _only_winning_tile_of(key: tuple[int, ...], win: int, melds: int, exhausted: tuple[int, ...], mask: int = -1) -> bool:
    """The 13 standing tiles' counts, the winning kind, the number of melds and the kinds the hand holds all four of
    (and the kinds present as a bit mask, when the caller has it).

    Four sets and a pair: each suit's kinds that complete it are looked up once per suit (cached by its counts,
    ``_suit_waits``), so no candidate tile is tried one by one; the irregular shapes are tried tile by tile, and only
    when the hand could be one."""
    # Honours: each must hold 0, 2 or 3 (one pair in all); a number suit must decompose, its count 0 or 2 mod 3.
    honours = key[27:]
    honour_pairs = honours.count(2)
    honour_bad = honours.count(1) + honours.count(4)
    infos = (_suit_waits(key[0:9]), _suit_waits(key[9:18]), _suit_waits(key[18:27]))
    broken = 0  # suits that do not decompose as they stand
    pairs = honour_pairs
    for rest, ok, _waits in infos:
        if not ok:
            broken += 1
        elif rest == 2:
            pairs += 1
    if not honour_bad:
        for b in range(3):
            rest, ok, waits = infos[b]
            if not waits or broken - (not ok):
                continue
            others = pairs - (ok and rest == 2)
            for r, pair_after in waits:
                k = b * 9 + r
                if others + pair_after == 1 and k != win and k not in exhausted:
                    return False
    if not broken:
        # An honour single becoming the pair, or an honour pair becoming a pung beside another pair.
        if honour_bad == 1 and pairs == 0 and 1 in honours:
            k = 27 + honours.index(1)
            if k != win and k not in exhausted:
                return False
        elif honour_bad == 0 and pairs == 2 and honour_pairs:
            for r in range(7):
                if honours[r] == 2 and 27 + r != win and 27 + r not in exhausted:
                    return False
    if melds == 0:
        if key.count(1) + key.count(3) == 1:  # seven pairs: one odd count, the kind waited on
            odd = key.index(1) if 1 in key else key.index(3)
            if odd != win and odd not in exhausted:
                return False
    elif melds > 1:
        return True
    if mask < 0:
        mask = 0
        for i in range(34):
            if key[i]:
                mask |= 1 << i
    return not _other_irregular_wait(key, win, melds, exhausted, mask)


def _other_irregular_wait(key: tuple[int, ...], win: int, melds: int, exhausted: tuple[int, ...], mask: int) -> bool:
    """Whether a kind other than ``win`` (and not exhausted) completes the 13 standing tiles ``key`` (kinds present:
    ``mask``; at most one meld) as thirteen orphans, 全不靠 / 七星不靠 or a knitted straight with a set and a pair."""
    # Quick necessary conditions for the irregular shapes below: all tiles terminals or honours, 13 different
    # kinds, or at least 8 number kinds.
    number_kinds = (mask & _NUMBER_MASK).bit_count()
    kind_count = mask.bit_count()
    orphans_only = melds == 0 and not mask & ~_ORPHAN_MASK
    if not (orphans_only or (melds == 0 and kind_count == 13) or number_kinds >= 8):
        return False
    # The irregular shapes can wait on a kind the hand lacks.
    if orphans_only and kind_count >= 12:
        # Thirteen orphans: with all 13 present any of them completes; with 12 (one paired), the missing one.
        missing = _ORPHAN_MASK & ~mask
        for k in _ORPHANS:
            if (kind_count == 13 or missing >> k & 1) and k != win and k not in exhausted:
                return True
    all_single = melds == 0 and kind_count == 13  # 13 different tiles: 全不靠 / 七星不靠 within reach
    knitted = False
    if melds <= 1 and (number_kinds >= 8 or all_single):
        for pattern, pattern_mask in _KNITTED_MASKS:
            held = (mask & pattern_mask).bit_count()  # the pattern's kinds present
            if all_single and held == number_kinds:
                # 全不靠 / 七星不靠: any kind of this pattern or honour not yet held makes 14 different tiles.
                for k in pattern + _HONOURS:
                    if not mask >> k & 1 and k != win and k not in exhausted:
                        return True
            if held >= 8:
                knitted = True
    if not knitted:
        return False
    # A knitted straight with a set and a pair (or a pair beside one meld) within reach: a kind completes the hand
    # so only with a pattern of 8 or 9 kinds held. With 8, only its missing kind can, when the rest is then a set
    # and a pair; with all 9, the kinds that make the rest (4 tiles, or 1 beside a meld) a set and a pair: those
    # near a tile of the rest.
    for pattern, pattern_mask in _KNITTED_MASKS:
        missing = pattern_mask & ~mask
        if missing and missing & missing - 1:
            continue  # 7 kinds or fewer held
        rest = list(key)
        for i in pattern:
            rest[i] -= 1
        if missing:
            k = missing.bit_length() - 1
            if k == win or k in exhausted:
                continue
            rest[k] += 1
            if _standard_complete(tuple(rest)):
                return True
            continue
        candidates: set[int] = set()
        for i in range(34):
            if rest[i]:
                if i >= 27:
                    candidates.add(i)
                else:
                    base = i - i % 9
                    candidates.update(range(max(base, i - 2), min(base + 8, i + 2) + 1))
        for k in candidates:
            if k == win or k in exhausted:
                continue
            rest[k] += 1
            done = _standard_complete(tuple(rest))
            rest[k] -= 1
            if done:
                return True
    return False


@lru_cache(maxsize=None)
def _suit_waits(block: tuple[int, ...]) -> tuple[int, bool, tuple[tuple[int, int], ...]]:
    """One suit of the 13 standing tiles: (tiles mod 3, whether it decomposes as it stands, and each rank whose
    tile makes it decompose, with 1 when it then holds the pair)."""
    rest, ok = _block_status(block)
    waits = []
    work = list(block)
    near = set()
    for r in range(9):
        if block[r]:
            near.update(range(max(0, r - 2), min(8, r + 2) + 1))  # a tile far from all others completes nothing
    for r in sorted(near):
        if work[r] >= 4:
            continue
        work[r] += 1
        after_rest, after_ok = _block_status(tuple(work))
        work[r] -= 1
        if after_ok and after_rest != 1:
            waits.append((r, int(after_rest == 2)))
    return rest, ok, tuple(waits)


def _block_status(block: tuple[int, ...]) -> tuple[int, bool]:
    total = sum(block)
    rest = total % 3
    if rest == 1:
        return 1, False
    if total <= 14 and max(block) <= 4:  # from the tables of the blocks that split (readings.complete_blocks)
        return rest, block in complete_blocks()[rest == 2]
    return rest, (not total) or _suit_complete(block, rest == 2)


def _standard_complete(key: tuple[int, ...]) -> bool:
    """Sets and one pair, suit by suit: exactly one block holds the pair (its count is 2 mod 3)."""
    pair_blocks = 0
    for base in (0, 9, 18):
        block = key[base:base + 9]
        total = sum(block)
        if total % 3 == 1:
            return False
        has_pair = total % 3 == 2
        pair_blocks += has_pair
        if total and not _suit_complete(block, has_pair):
            return False
    for i in range(27, 34):
        n = key[i]
        if n == 2:
            pair_blocks += 1
        elif n not in (0, 3):
            return False
    return pair_blocks == 1


@lru_cache(maxsize=None)
def _suit_complete(block: tuple[int, ...], with_pair: bool) -> bool:
    """Whether one suit's counts split into chows and pungs (and one pair when ``with_pair``)."""
    if with_pair:
        for i in range(9):
            if block[i] >= 2:
                work = list(block)
                work[i] -= 2
                if _sets_only(work):
                    return True
        return False
    return _sets_only(list(block))


def _sets_only(work: list[int]) -> bool:
    """Whether one suit's counts split into chows and pungs, rank by rank: the lowest rank's tiles are pungs and,
    for what is left over (count mod 3), chows starting there. (Three equal chows are three pungs, so no split
    needs three chows on one rank.) ``work`` is used up."""
    for i in range(7):
        n = work[i] % 3
        if n:
            if work[i + 1] < n or work[i + 2] < n:
                return False
            work[i + 1] -= n
            work[i + 2] -= n
    return not (work[7] % 3 or work[8] % 3)


_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_SET = frozenset(_ORPHANS)
_orphan_counts = itemgetter(*_ORPHANS)
_KNITTED_MASKS = tuple((pattern, sum(1 << i for i in pattern)) for pattern in KNITTED_PATTERNS)
_ORPHAN_MASK = sum(1 << i for i in _ORPHANS)
_HONOURS = tuple(range(27, 34))


_TERMINAL_OR_HONOUR_PAIR = frozenset((0, 8, 9, 17, 18, 26) + tuple(range(27, 34)))  # pung or pair tiles
_TERMINAL_CHOWS = frozenset(s + r for s in (0, 9, 18) for r in (0, 6))  # chows 123, 789
_FIVES = frozenset((4, 13, 22))
_FIVE_CHOWS = frozenset(s + r for s in (0, 9, 18) for r in (2, 3, 4))  # chows 345, 456, 567
_WITH_PAIR = frozenset({"pure_terminal_chows", "three_suited_terminal_chows", "little_four_winds",
                        "little_three_dragons"})


def evaluate(arrangement: Arrangement, facts: HandFacts, shared: dict | None = None) -> Scored:
    """The fans of one arrangement. ``shared`` (one dict per hand, optional) keeps the set fans of a groups tuple
    for the other placements of the winning tile in it: they differ only in the wait fans and, on a discard, when
    the winning tile completed a standing pung (then not concealed)."""
    shape = arrangement.shape
    groups = arrangement.groups
    if shape is _STANDARD or shape is _KNITTED_STRAIGHT:
        key = None
        if shared is not None:
            g = groups[arrangement.winning_group]
            key = (id(groups), arrangement.winning_group if (g.kind is _PUNG and g.meld is None
                                                              and not facts.context.self_drawn) else -1)
            fans = shared.get(key)
        if key is not None and fans is not None:
            fans = fans.copy()
        else:
            # Tile-level and way-of-winning fans never share an id, so they can seed the table directly.
            fans = facts.base_table.copy()
            _evaluate_sets(arrangement, facts, fans)
            if key is not None:
                shared[key] = fans.copy()  # entries are final once the set fans are in: shared, never changed
    else:
        fans = facts.base_table.copy()
        scored = Scored(fans)
        add = scored.add
        if shape is Shape.SEVEN_PAIRS:
            add("seven_pairs", tuple(groups))
            pairs = sorted(g.first for g in groups)
            if pairs[0] < 27 and pairs[-1] - pairs[0] == 6 and pairs[0] // 9 == pairs[-1] // 9 \
                    and len(set(pairs)) == 7:
                add("seven_shifted_pairs", tuple(groups))
        elif shape is Shape.THIRTEEN_ORPHANS:
            add("thirteen_orphans", tuple(groups))
        elif shape is Shape.HONOURS_KNITTED:
            singles = tuple(groups)
            if sum(1 for g in groups if g.first >= 27) == 7:
                add("greater_honours_and_knitted_tiles", singles)
            add("lesser_honours_and_knitted_tiles", singles)
            numbers = [g.first for g in groups if g.first < 27]
            if len(numbers) == 9:
                add("knitted_straight", tuple(_kinds(numbers[3 * k:3 * k + 3]) for k in range(3)))

    # 边张 / 坎张 / 单调将: the group the winning tile completed, and only when it is the hand's only winning tile.
    g = groups[arrangement.winning_group]
    kind = g.kind
    wait = None
    if kind is _CHOW:
        first = g.first
        w = facts.hand.winning_tile.index
        r = first % 9
        if w == first + 1:
            wait = "closed_wait"
        elif (r == 0 and w == first + 2) or (r == 6 and w == first):
            wait = "edge_wait"
    elif kind is _PAIR and (shape is _STANDARD or shape is _KNITTED_STRAIGHT):
        wait = "single_wait"
    if wait is not None and facts.unique_wait:
        fans[wait] = [1, [(g,)]]

    # Exclusions: which of the present fans go depends only on which are present (cached by their ids in order).
    ids = tuple(fans)
    plan = _EXCLUSION_PLANS.get(ids)
    if plan is None:
        if len(_EXCLUSION_PLANS) >= _PLANS_MAX:
            _EXCLUSION_PLANS.clear()  # bounded memory in a long-running service
        removed = set().union(*[EXCLUDES[fan] for fan in ids])
        plan = _EXCLUSION_PLANS[ids] = tuple(fan for fan in ids if fan in removed)
    for fan in plan:
        del fans[fan]
    if not fans:
        fans["chicken_hand"] = [1, [_WHOLE]]
    total = 0
    for fan, entry in fans.items():
        total += POINTS[fan] * entry[0]
    return Scored(fans, total)


_EXCLUSION_PLANS: dict[tuple[str, ...], tuple[str, ...]] = {}
_PLANS_MAX = 1 << 16
_WHOLE = (WHOLE_HAND,)
_STANDARD = Shape.STANDARD
_KNITTED_STRAIGHT = Shape.KNITTED_STRAIGHT
_CHOW = GroupKind.CHOW
_PAIR = GroupKind.PAIR
_PUNG = GroupKind.PUNG
_KONG = GroupKind.KONG
_KNITTED = GroupKind.KNITTED
_CONCEALED_KONG = MeldType.CONCEALED_KONG
_CONCEALED_PUNG_FANS = {2: "two_concealed_pungs", 3: "three_concealed_pungs", 4: "four_concealed_pungs"}


def _evaluate_sets(arrangement: Arrangement, facts: HandFacts, fans: dict) -> None:
    """Fans of the four sets and the pair (standard shape and knitted straight), added to ``fans`` in a fixed order:
    shape fans, chow and pung combinations, per-set fans, kongs, concealed pungs."""
    groups = arrangement.groups
    winning_index = arrangement.winning_group
    discard = not facts.context.self_drawn
    pair = None
    chows: list = []
    pungs: list = []
    knitted: list = []
    concealed: list = []  # concealed pungs/kongs, in group order
    i = -1
    for g in groups:
        i += 1
        kind = g.kind
        if kind is _CHOW:
            chows.append(g)
        elif kind is _PAIR:
            pair = g
        elif kind is _KNITTED:
            knitted.append(g)
        else:
            pungs.append(g)
            meld = g.meld
            if meld is None:
                # A standing pung completed by a discard counts as melded (明刻) [002:120-127].
                if not (discard and i == winning_index):
                    concealed.append(g)
            elif meld.type is _CONCEALED_KONG:
                concealed.append(g)
    pair_first = pair.first

    # Shape fans.
    if len(pungs) == 4:
        fans["all_pungs"] = [1, [tuple(pungs)]]
        if pair_first < 27 and pair_first % 9 % 2 == 1 and all(g.first < 27 and g.first % 9 % 2 == 1 for g in pungs):
            fans["all_even_pungs"] = [1, [_WHOLE]]
    if not pungs and pair_first < 27:
        fans["all_chows"] = [1, [_WHOLE]]
    if not knitted:
        if pair_first in _TERMINAL_OR_HONOUR_PAIR:
            for g in chows:
                if g.first not in _TERMINAL_CHOWS:
                    break
            else:
                for g in pungs:
                    if g.first not in _TERMINAL_OR_HONOUR_PAIR:
                        break
                else:
                    fans["outside_hand"] = [1, [_WHOLE]]
        elif pair_first in _FIVES:
            for g in chows:
                if g.first not in _FIVE_CHOWS:
                    break
            else:
                for g in pungs:
                    if g.first not in _FIVES:
                        break
                else:
                    fans["all_fives"] = [1, [_WHOLE]]
    else:
        fans["knitted_straight"] = [1, [tuple(knitted)]]

    # Combinations of chows and of pungs (accounting principles: combos.py).
    if len(chows) >= 2:
        _add_combination_fans(fans, chow_fans(tuple([g.first for g in chows]), pair_first), chows, pair)
    if pungs:
        if len(pungs) >= 2:
            _add_combination_fans(fans, pung_fans(tuple([g.first for g in pungs]), pair_first), pungs, pair)

        # Per-set fans. A dragon pung scores 箭刻 and a round/seat wind pung 圈风刻/门风刻 *instead of* 幺九刻, and
        # the wind pungs of 三风刻 score no 幺九刻 (policy M6, after the examples [000:1007,1207,1217]).
        wind_pungs = 0
        for g in pungs:
            if 27 <= g.first < 31:
                wind_pungs += 1
        round_wind = facts.round_wind
        seat_wind = facts.seat_wind
        for g in pungs:
            f = g.first
            if f in DRAGONS:
                fan = "dragon_pung"
            elif f >= 27:
                value = False
                if f == round_wind:
                    fans["prevalent_wind"] = [1, [(g,)]]  # one pung of a given wind: never there already
                    value = True
                if f == seat_wind:
                    fans["seat_wind"] = [1, [(g,)]]
                    value = True
                if value or wind_pungs >= 3:
                    continue
                fan = "pung_of_terminals_or_honours"
            elif f in _TERMINALS:
                fan = "pung_of_terminals_or_honours"
            else:
                continue
            entry = fans.get(fan)
            if entry is None:
                fans[fan] = [1, [(g,)]]
            else:
                entry[0] += 1
                entry[1].append((g,))

        # Kongs and concealed pungs.
        mk, ck = facts.melded_kongs, facts.concealed_kongs
        if mk or ck:
            kong_tiles = tuple([g for g in pungs if g.kind is _KONG])
            kongs = mk + ck
            if kongs == 4:
                fans["four_kongs"] = [1, [kong_tiles]]
            elif kongs == 3:
                fans["three_kongs"] = [1, [kong_tiles]]
            elif mk == 2:
                fans["two_melded_kongs"] = [1, [kong_tiles]]
            elif mk == 1 and ck == 1:
                # One melded + one concealed kong = 6 points in total [002:309,859]: 双明杠 4 + 暗杠 2 (policy M14).
                fans["two_melded_kongs"] = [1, [kong_tiles]]
            elif mk == 1 and ck == 0:
                fans["melded_kong"] = [1, [kong_tiles]]
            # Concealed-kong fans are added to 三杠/四杠 ("暗杠加计") [002:248,260,575].
            if ck:
                concealed_kong_tiles = tuple([g for g in pungs
                                              if g.meld is not None and g.meld.type is _CONCEALED_KONG])
                if ck == 1:
                    fans["concealed_kong"] = [1, [concealed_kong_tiles]]
                elif ck == 2:
                    fans["two_concealed_kongs"] = [1, [concealed_kong_tiles]]
        if len(concealed) >= 2:
            fans[_CONCEALED_PUNG_FANS[len(concealed)]] = [1, [tuple(concealed)]]


def _add_combination_fans(fans: dict, found, groups, pair) -> None:
    """Record the chow or pung combination fans ``found`` ((fan, positions in ``groups``) pairs) in ``fans``."""
    for fan, positions in found:
        parts = tuple([groups[p] for p in positions])
        if fan in _WITH_PAIR:
            parts += (pair,)
        entry = fans.get(fan)
        if entry is None:
            fans[fan] = [1, [parts]]
        else:
            entry[0] += 1
            entry[1].append(parts)
