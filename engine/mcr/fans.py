"""The 81 MCR fans as data: id, names (English, Chinese of seed 002, Japanese of seed 000), points, and what makes it.

Numbering follows the WMO 2006 table (1 = 四风会 ... 81 = 花牌) [002:241-336; 000:376-471]. ``aliases`` lists other
Chinese names met in the wild (the 2014 Japanese part and common apps call fan 1 大四喜; the rulebook example file
writes the waits as 独听・边张 etc.), so that outside answers can be mapped onto these ids.

The predicates live beside the evaluation (``engine.mcr.evaluate``): each fan's ``kind`` says which family computes
it (``hand``: a property of all the tiles; ``shape``: of the arrangement; ``chows``/``pungs``: a combination of sets
chosen under the accounting principles; ``set``: one set at a time; ``win``: how the hand was won; ``wait``: the
wait; ``kongs``: the kong/concealed-pung counts; ``flower``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fan:
    number: int  # 1..81 in the WMO 2006 table
    id: str
    name: str  # usual English name (not from the seeds)
    name_zh: str  # seed 002 (simplified Chinese), which governs
    name_ja: str  # seed 000 (Japanese part of the 2014 edition)
    points: int
    kind: str
    what: str  # the tiles or sets that make it, in one line
    aliases: tuple[str, ...] = ()


_ROWS = [
    # 88
    (1, "big_four_winds", "Big Four Winds", "四风会", "大四喜", 88, "pungs", "pungs/kongs of all four winds", ("大四喜",)),
    (2, "big_three_dragons", "Big Three Dragons", "大三元", "大三元", 88, "pungs", "pungs/kongs of all three dragons"),
    (3, "all_green", "All Green", "绿一色", "緑一色", 88, "hand", "only 2 3 4 6 8 bamboo and Green Dragon"),
    (4, "nine_gates", "Nine Gates", "九莲宝灯", "九蓮宝燈", 88, "hand", "concealed 1112345678999 of one suit plus any tile of that suit"),
    (5, "four_kongs", "Four Kongs", "四杠", "四槓", 88, "kongs", "four kongs"),
    (6, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", "連七対", 88, "shape", "seven pairs of seven consecutive numbers in one suit"),
    (7, "thirteen_orphans", "Thirteen Orphans", "十三幺", "十三幺", 88, "shape", "1 and 9 of each suit and the seven honours, one paired"),
    # 64
    (8, "all_terminals", "All Terminals", "清幺九", "清幺九", 64, "hand", "only 1s and 9s"),
    (9, "little_four_winds", "Little Four Winds", "小四风会", "小四喜", 64, "pungs", "three wind pungs/kongs and a pair of the fourth wind", ("小四喜",)),
    (10, "little_three_dragons", "Little Three Dragons", "小三元", "小三元", 64, "pungs", "two dragon pungs/kongs and a pair of the third dragon"),
    (11, "all_honours", "All Honours", "字一色", "字一色", 64, "hand", "only honours"),
    (12, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", "四暗刻", 64, "kongs", "four concealed pungs (concealed kongs count)"),
    (13, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", "一色双龍会", 64, "chows", "two 123 and two 789 chows of one suit with a pair of 5 of that suit"),
    # 48
    (14, "quadruple_chow", "Quadruple Chow", "一色四同顺", "一色四同順", 48, "chows", "four identical chows"),
    (15, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", "一色四節高", 48, "pungs", "four pungs/kongs of one suit rising by one"),
    # 32
    (16, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", "一色四步高", 32, "chows", "four chows of one suit rising by one or by two"),
    (17, "three_kongs", "Three Kongs", "三杠", "三槓", 32, "kongs", "three kongs"),
    (18, "all_terminals_and_honours", "All Terminals and Honours", "混幺九", "混幺九", 32, "hand", "only terminals and honours, both present"),
    # 24
    (19, "seven_pairs", "Seven Pairs", "七对", "七対", 24, "shape", "seven pairs (four identical tiles may be two pairs)"),
    (20, "greater_honours_and_knitted_tiles", "Greater Honours and Knitted Tiles", "七星不靠", "七星不靠", 24, "shape", "the seven honours and seven knitted number tiles, no pair"),
    (21, "all_even_pungs", "All Even Pungs", "全双刻", "全双刻", 24, "shape", "pungs/kongs and pair of 2 4 6 8"),
    (22, "full_flush", "Full Flush", "清一色", "清一色", 24, "hand", "number tiles of one suit only"),
    (23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", "一色三同順", 24, "chows", "three identical chows"),
    (24, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", "一色三節高", 24, "pungs", "three pungs/kongs of one suit rising by one"),
    (25, "upper_tiles", "Upper Tiles", "全大", "全大", 24, "hand", "only 7 8 9"),
    (26, "middle_tiles", "Middle Tiles", "全中", "全中", 24, "hand", "only 4 5 6"),
    (27, "lower_tiles", "Lower Tiles", "全小", "全小", 24, "hand", "only 1 2 3"),
    # 16
    (28, "pure_straight", "Pure Straight", "清龙", "清龍", 16, "chows", "123 456 789 of one suit"),
    (29, "three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", "三色双龍会", 16, "chows", "123 and 789 in two suits and a pair of 5 in the third"),
    (30, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", "一色三步高", 16, "chows", "three chows of one suit rising by one or by two"),
    (31, "all_fives", "All Fives", "全带五", "全帯五", 16, "shape", "a 5 in every set and the pair"),
    (32, "triple_pung", "Triple Pung", "三同刻", "三同刻", 16, "pungs", "pungs/kongs of one number in all three suits"),
    (33, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", "三暗刻", 16, "kongs", "three concealed pungs (concealed kongs count)"),
    # 12
    (34, "lesser_honours_and_knitted_tiles", "Lesser Honours and Knitted Tiles", "全不靠", "全不靠", 12, "shape", "14 different tiles from one knitted 147/258/369 set and the honours, no pair"),
    (35, "knitted_straight", "Knitted Straight", "组合龙", "組合龍", 12, "chows", "147 258 369 each in a different suit"),
    (36, "upper_four", "Upper Four", "大于五", "大于五", 12, "hand", "only 6 7 8 9"),
    (37, "lower_four", "Lower Four", "小于五", "小于五", 12, "hand", "only 1 2 3 4"),
    (38, "big_three_winds", "Big Three Winds", "三风刻", "三風刻", 12, "pungs", "three wind pungs/kongs"),
    # 8
    (39, "mixed_straight", "Mixed Straight", "花龙", "花龍", 8, "chows", "123 456 789 each in a different suit"),
    (40, "reversible_tiles", "Reversible Tiles", "推不倒", "推不倒", 8, "hand", "only dots 1234589, bamboo 245689 and White Dragon"),
    (41, "mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", "三色三同順", 8, "chows", "the same chow in all three suits"),
    (42, "mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", "三色三節高", 8, "pungs", "pungs/kongs in the three suits rising by one"),
    (43, "chicken_hand", "Chicken Hand", "无番和", "無番和", 8, "hand", "no other fan (flowers aside)"),
    (44, "last_tile_draw", "Last Tile Draw", "妙手回春", "妙手回春", 8, "win", "self-drawn last tile of the wall"),
    (45, "last_tile_claim", "Last Tile Claim", "海底捞月", "海底撈月", 8, "win", "win on the last discard"),
    (46, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", "槓上開花", 8, "win", "win on a kong replacement tile"),
    (47, "robbing_the_kong", "Robbing the Kong", "抢杠和", "搶槓和", 8, "win", "win on a tile added to another player's pung"),
    (48, "two_concealed_kongs", "Two Concealed Kongs", "双暗杠", "双暗槓", 8, "kongs", "two concealed kongs"),
    # 6
    (49, "all_pungs", "All Pungs", "碰碰和", "碰碰和", 6, "shape", "four pungs/kongs and a pair"),
    (50, "half_flush", "Half Flush", "混一色", "混一色", 6, "hand", "number tiles of one suit and honours"),
    (51, "mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", "三色三歩高", 6, "chows", "a chow in each suit, rising by one"),
    (52, "all_types", "All Types", "五门齐", "五門斉", 6, "hand", "characters, dots, bamboo, winds and dragons"),
    (53, "melded_hand", "Melded Hand", "全求人", "全求人", 6, "win", "four claimed sets and a pair completed on a discard"),
    (54, "two_dragon_pungs", "Two Dragon Pungs", "双箭刻", "双箭刻", 6, "pungs", "two dragon pungs/kongs"),
    # 4
    (55, "outside_hand", "Outside Hand", "全带幺", "全帯幺", 4, "shape", "a terminal or honour in every set and the pair"),
    (56, "fully_concealed_hand", "Fully Concealed Hand", "不求人", "不求人", 4, "win", "nothing claimed, self-drawn"),
    (57, "two_melded_kongs", "Two Melded Kongs", "双明杠", "双明槓", 4, "kongs", "two melded kongs (one melded and one concealed: this plus Concealed Kong)"),
    (58, "last_tile", "Last Tile", "和绝张", "和絶張", 4, "win", "win on the last copy of a tile, the other three visible"),
    # 2
    (59, "dragon_pung", "Dragon Pung", "箭刻", "箭刻", 2, "set", "a dragon pung/kong"),
    (60, "prevalent_wind", "Prevalent Wind", "圈风刻", "圏風刻", 2, "set", "a pung/kong of the round wind"),
    (61, "seat_wind", "Seat Wind", "门风刻", "門風刻", 2, "set", "a pung/kong of the seat wind"),
    (62, "concealed_hand", "Concealed Hand", "门前清", "門前清", 2, "win", "nothing claimed, win on a discard"),
    (63, "all_chows", "All Chows", "平和", "平和", 2, "shape", "four chows and a number pair"),
    (64, "tile_hog", "Tile Hog", "四归一", "四帰一", 2, "hand", "all four copies of a tile used, not as a kong"),
    (65, "double_pung", "Double Pung", "双同刻", "双同刻", 2, "pungs", "pungs/kongs of one number in two suits"),
    (66, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", "双暗刻", 2, "kongs", "two concealed pungs (concealed kongs count)"),
    (67, "concealed_kong", "Concealed Kong", "暗杠", "暗槓", 2, "kongs", "a concealed kong"),
    (68, "all_simples", "All Simples", "断幺", "断幺", 2, "hand", "no terminals and no honours"),
    # 1
    (69, "pure_double_chow", "Pure Double Chow", "一般高", "一般高", 1, "chows", "two identical chows"),
    (70, "mixed_double_chow", "Mixed Double Chow", "喜相逢", "喜相逢", 1, "chows", "the same chow in two suits"),
    (71, "short_straight", "Short Straight", "连六", "連六", 1, "chows", "two chows of one suit making six consecutive numbers"),
    (72, "two_terminal_chows", "Two Terminal Chows", "老少副", "老少副", 1, "chows", "123 and 789 of one suit"),
    (73, "pung_of_terminals_or_honours", "Pung of Terminals or Honours", "幺九刻", "幺九刻", 1, "set", "a pung/kong of 1s, 9s or a wind that scores nothing else"),
    (74, "melded_kong", "Melded Kong", "明杠", "明槓", 1, "kongs", "a melded kong"),
    (75, "one_voided_suit", "One Voided Suit", "缺一门", "缺一門", 1, "hand", "exactly one number suit missing"),
    (76, "no_honours", "No Honours", "无字", "無字", 1, "hand", "no honours"),
    (77, "edge_wait", "Edge Wait", "边张", "辺張", 1, "wait", "only waiting on 3 of 12 or 7 of 89", ("独听・边张", "边张")),
    (78, "closed_wait", "Closed Wait", "坎张", "坎張", 1, "wait", "only waiting on the middle of a chow", ("独听・嵌张", "嵌张")),
    (79, "single_wait", "Single Wait", "单调将", "単調将", 1, "wait", "only waiting on the pair", ("独听・单钓", "单钓将", "单钓")),
    (80, "self_drawn", "Self-Drawn", "自摸", "自摸", 1, "win", "self-drawn win"),
    (81, "flower_tiles", "Flower Tiles", "花牌", "花牌", 1, "flower", "one point per flower, not towards the 8 minimum"),
]

FANS: tuple[Fan, ...] = tuple(Fan(*row[:8], aliases=row[8] if len(row) > 8 else ()) for row in _ROWS)
FAN_BY_ID: dict[str, Fan] = {fan.id: fan for fan in FANS}
POINTS: dict[str, int] = {fan.id: fan.points for fan in FANS}

# Chinese name (002 name, 000 kanji or an alias) -> fan id.
FAN_ID_BY_ZH: dict[str, str] = {}
for _fan in FANS:
    for _name in (_fan.name_zh, _fan.name_ja) + _fan.aliases:
        FAN_ID_BY_ZH.setdefault(_name, _fan.id)

assert len(FANS) == 81 and [f.number for f in FANS] == list(range(1, 82))
# Counts per level [002:1078]: 88x7, 64x6, 48x2, 32x3, 24x9, 16x6, 12x5, 8x10, 6x6, 4x4, 2x10, 1x13.
assert [sum(f.points == p for f in FANS) for p in (88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1)] == \
    [7, 6, 2, 3, 9, 6, 5, 10, 6, 4, 10, 13]
