"""The one exclusion table (不计): when a fan scores, the fans it lists are not counted.

Rows are the appendix lists of seed 002 ("不计…分") [002:453-923], plus the implied exclusions of mcr.md §9
(principle 1, "no repetition", and the worked examples), with the two misprints of mcr.md §13.1 corrected. Each row
says where it comes from. The table is closed transitively at import (X excludes Y, Y excludes Z => X excludes Z),
as the 连七对 example shows (it excludes 清一色, which excludes 无字; the example adds only 断幺) [002:495].

Exclusions *between sets* (清龙 and the 连六/老少副 inside it, 三色三同顺 and the 喜相逢 inside it, 双箭刻 and its two
箭刻...) are not here: they follow from the accounting principles, applied when sets are combined
(``engine.mcr.combos``) and per set (``engine.mcr.evaluate``).
"""

from __future__ import annotations

from .fans import FAN_BY_ID

# fan -> (fans not counted, source)
_TABLE: dict[str, tuple[tuple[str, ...], str]] = {
    "big_four_winds": (("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honours",
                        "little_four_winds"), "002:455"),
    "big_three_dragons": (("two_dragon_pungs", "dragon_pung", "little_three_dragons"), "002:461"),
    # 绿一色: none; 清一色 and 混一色 may be added [002:467,471].
    "nine_gates": (("full_flush", "concealed_hand", "pung_of_terminals_or_honours"), "002:479"),
    "four_kongs": (("single_wait", "all_pungs", "three_kongs", "two_melded_kongs", "melded_kong"),
                   "002:487; all_pungs/three_kongs/melded kongs: mcr.md §9 (examples 000:655-659, 1998 004:839)"),
    "seven_shifted_pairs": (("full_flush", "concealed_hand", "single_wait", "seven_pairs"), "002:493; seven_pairs: §9"),
    "thirteen_orphans": (("all_types", "concealed_hand", "single_wait", "outside_hand", "all_terminals_and_honours"),
                         "002:499; outside_hand/all_terminals_and_honours: §9"),
    "all_terminals": (("all_pungs", "outside_hand", "pung_of_terminals_or_honours", "no_honours",
                       "all_terminals_and_honours"), "002:507 (双同刻/三同刻 may be added); 混幺九: §9"),
    "little_four_winds": (("big_three_winds", "pung_of_terminals_or_honours"), "002:525"),
    "little_three_dragons": (("two_dragon_pungs", "dragon_pung"), "002:533"),
    "all_honours": (("all_pungs", "outside_hand", "pung_of_terminals_or_honours", "all_terminals_and_honours"),
                    "002:541; 混幺九: §9"),
    "four_concealed_pungs": (("all_pungs", "concealed_hand", "three_concealed_pungs", "two_concealed_pungs"),
                             "002:549; 三暗刻/双暗刻: §9"),
    # 002 also lists 七对: the same tiles read as seven pairs are another arrangement, and the higher reading is
    # taken anyway. It is left out here so that the closure does not carry 七对's own list (门前清, 单调将) over.
    "pure_terminal_chows": (("full_flush", "all_chows", "pure_double_chow", "two_terminal_chows", "no_honours"),
                            "002:556 (七对: another arrangement); 无字: 000:731"),
    # Misprint corrected (mcr.md §13.1): the lists print 一色三节高, which cannot occur with four chows.
    "quadruple_chow": (("pure_triple_chow", "tile_hog", "pure_double_chow"), "002:559 (一色三节高 read 一色三同顺)"),
    # Misprint corrected: the lists print 一色三同顺.
    "four_pure_shifted_pungs": (("pure_shifted_pungs", "all_pungs"), "002:562 (一色三同顺 read 一色三节高)"),
    "four_pure_shifted_chows": (("short_straight", "two_terminal_chows", "pure_shifted_chows"), "002:569; 三步高: §9"),
    "all_terminals_and_honours": (("all_pungs", "outside_hand", "pung_of_terminals_or_honours"), "002:581"),
    "seven_pairs": (("concealed_hand", "single_wait"), "002:589"),
    "greater_honours_and_knitted_tiles": (("all_types", "concealed_hand", "lesser_honours_and_knitted_tiles",
                                           "single_wait"), "002:593; 全不靠: §9 (1998 004:595)"),
    "all_even_pungs": (("all_pungs", "all_simples"), "002:597"),
    "full_flush": (("no_honours",), "002:603"),
    "pure_triple_chow": (("pure_double_chow",), "002:617 (its 一色三节高 cannot co-occur)"),
    "pure_shifted_pungs": ((), "002:627 (its 一色三同顺 cannot co-occur)"),
    "upper_tiles": (("no_honours", "upper_four"), "002:633; 大于五: §9"),
    "middle_tiles": (("all_simples", "no_honours"), "002:637 断幺 + 000:885 无字 (policy M3)"),
    "lower_tiles": (("no_honours", "lower_four"), "002:643; 小于五: §9"),
    "three_suited_terminal_chows": (("all_chows", "no_honours", "mixed_double_chow", "two_terminal_chows"), "002:651"),
    "all_fives": (("all_simples",), "002:663"),
    "three_concealed_pungs": (("two_concealed_pungs",), "§9 (principle 1)"),
    "lesser_honours_and_knitted_tiles": (("all_types", "concealed_hand", "single_wait"), "002:681"),
    "upper_four": (("no_honours",), "002:693"),
    "lower_four": (("no_honours",), "002:697"),
    "reversible_tiles": (("one_voided_suit",), "002:721"),
    "last_tile_draw": (("self_drawn",), "002:771"),
    "out_with_replacement_tile": (("self_drawn",), "002:775"),
    "robbing_the_kong": (("last_tile",), "002:777"),
    "two_concealed_kongs": (("concealed_kong", "two_concealed_pungs"), "§9 (examples 000:1103; 002:787)"),
    "melded_hand": (("single_wait",), "002:823"),
    "two_dragon_pungs": (("dragon_pung",), "§9 (example 000:1153 shows no 箭刻)"),
    "fully_concealed_hand": (("self_drawn", "concealed_hand"), "§9 (examples 000:1171; 002:847)"),
    "two_melded_kongs": (("melded_kong",), "§9 (principle 1)"),
    "all_simples": (("no_honours",), "§9 (1998 004:219; 2006 examples never add it)"),
    "all_chows": (("no_honours",), "002:871"),
}


def _closure(table: dict[str, tuple[tuple[str, ...], str]]) -> dict[str, frozenset[str]]:
    direct = {fan: set(excluded) for fan, (excluded, _) in table.items()}
    closed: dict[str, frozenset[str]] = {}
    for fan in FAN_BY_ID:
        seen: set[str] = set()
        stack = list(direct.get(fan, ()))
        while stack:
            other = stack.pop()
            if other in seen or other == fan:
                continue
            seen.add(other)
            stack.extend(direct.get(other, ()))
        closed[fan] = frozenset(seen)
    return closed


for _fan, (_excluded, _source) in _TABLE.items():
    assert _fan in FAN_BY_ID and all(e in FAN_BY_ID for e in _excluded), (_fan, _excluded)

EXCLUDES: dict[str, frozenset[str]] = _closure(_TABLE)
EXCLUSION_SOURCES: dict[str, str] = {fan: source for fan, (_, source) in _TABLE.items()}


def apply_exclusions(present: set[str] | dict) -> set[str]:
    """The fans of ``present`` that some other present fan excludes (computed from the fans present before removal)."""
    removed: set[str] = set()
    for fan in present:
        removed |= EXCLUDES[fan]
    return removed
