"""The fast path (``engine.mcr.fast``) gives, for every reading of a hand, the fans and total of the reference
evaluation (``engine.mcr.evaluate.evaluate``) and the same reading order, so that ``score`` keeps the same one."""

from __future__ import annotations

from engine.decompose import arrangements
from engine.mcr import _GROUP_BY_CODE, _SHAPE_BY_CODE, _tie_key
from engine.mcr.evaluate import HandFacts, evaluate
from engine.mcr import fast
from engine.mcr.fast import best_reading

from .generator import generate


def _check(hand, context) -> int:
    every: list = []
    best = best_reading(hand, context, every)
    plain = list(arrangements(hand))
    assert len(every) == len(plain), hand
    facts = HandFacts(hand, context)
    melds = len(hand.melds)
    for (summary, (total, tie, kept)), arrangement in zip(every, plain):
        shape, pieces, winning_group = summary[:3]
        codes = fast._codes(pieces)
        assert (_SHAPE_BY_CODE[shape], tuple(_GROUP_BY_CODE[c] for c in codes), winning_group) == \
            (arrangement.shape, arrangement.groups[:len(arrangement.groups) - melds], arrangement.winning_group), hand
        scored = evaluate(arrangement, facts)
        assert total == scored.total, (hand, arrangement)
        assert list(kept) == [(fan, entry[0]) for fan, entry in scored.fans.items()], (hand, arrangement)
        assert tie == _tie_key(scored), (hand, arrangement)
    if every:
        keys = [(done[0], done[1]) for _, done in every]
        assert best[:2] == every[keys.index(max(keys))], hand
    else:
        assert best is None
    return len(every)


def test_every_reading_scores_as_the_reference_evaluation():
    readings = 0
    for seed in (101, 202):
        for hand, context in generate(2500, seed):
            readings += _check(hand, context)
    assert readings > 5000


def test_rare_shapes_and_kongs_score_as_the_reference_evaluation():
    from engine import Hand, WinContext

    texts = ("19m19p19s1234567z +1m", "147m258p369s1234z +5z", "147m258p369s555p5z +5z", "1112345678999m +5m",
             "1122334455667p +7p", "1122334455667m +1m", "123m456p789s1z p555z< +1z", "4z k1111m< k2222p^ k3333s> x5555z +4z",
             "3z x1111m x9999s p111z^ p222z< +3z", "11122233m44455p +3m", "14788m258p369s55z +5z", "1245m p222z^ x3333z p444z> +3m")
    checked = 0
    for text in texts:
        hand = Hand.parse(text).validate()
        for self_drawn in (False, True):
            for seat, prevailing in (("S", "E"), ("E", "E"), ("N", "W")):
                checked += _check(hand, WinContext(self_drawn=self_drawn, seat_wind=seat, round_wind=prevailing))
    assert checked >= 6 * len(texts)


def test_irregular_shape_test_on_the_kind_mask_is_the_count_test():
    import random

    from engine.mcr.fast import _irregular_possible, pack
    from engine.mcr.readings import irregular_possible

    rng = random.Random(11)
    checked = 0
    for hand, _context in generate(3000, seed=404):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        cases = [standing]
        # Random counts of the same size too, many of them irregular-looking.
        for _ in range(3):
            counts = [0] * 34
            pool = rng.sample(range(34), rng.randint(5, 14))
            for _ in range(sum(standing)):
                i = rng.choice(pool)
                if counts[i] < 4:
                    counts[i] += 1
            cases.append(counts)
        for counts in cases:
            mask = sum(1 << i for i in range(34) if counts[i])
            for melds in range(5):
                assert _irregular_possible(mask, pack(counts), melds) == irregular_possible(tuple(counts), melds), \
                    counts
                checked += 1
    assert checked > 50000


def _waits_by_decomposition(seed: int):
    """For 500 generated hands rich in irregular shapes and each kind in the hand taken as the winning tile:
    (hand, standing counts, held counts incl. melds, number of melds, winning kind, the 13 tiles before it, every
    kind that completes those 13 tiles), the waits found by trying every kind with the decomposition."""
    from engine.decompose import Group, GroupKind, arrangements_of_counts

    placeholder = Group(GroupKind.PUNG, 0)
    for hand, _context in generate(500, seed, special_share=0.7):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        held = list(standing)
        for meld in hand.melds:
            for t in meld.tiles:
                held[t.index] += 1
        melds = len(hand.melds)
        for win in {i for i in range(34) if standing[i]}:
            before = list(standing)
            before[win] -= 1
            waits = []
            for k in range(34):
                if held[k] - (k == win) >= 4:
                    continue  # all four copies in the hand: no wait
                before[k] += 1
                if next(arrangements_of_counts(before, k, (placeholder,) * melds), None) is not None:
                    waits.append(k)
                before[k] -= 1
            yield hand, standing, held, melds, win, before, waits


def test_unique_wait_for_every_tile_of_many_hands_as_the_winning_tile():
    """``_only_winning_tile_of`` (with the kind mask the fast path passes) against trying every kind with the
    decomposition, on hands rich in irregular shapes, each of their kinds taken in turn as the winning tile."""
    from engine.mcr.evaluate import _only_winning_tile_of

    checked = 0
    for hand, _standing, held, melds, win, before, waits in _waits_by_decomposition(77):
        exhausted = tuple(i for i in range(34) if held[i] == 4 and i != win)
        mask = sum(1 << i for i in range(34) if before[i])
        assert _only_winning_tile_of.__wrapped__(tuple(before), win, melds, exhausted, mask) == (waits == [win]), \
            (hand, win, waits)
        checked += 1
    assert checked > 2500


def test_fast_unique_wait_for_every_tile_of_many_hands_as_the_winning_tile():
    """``fast._unique_wait`` (on packed counts, with the per-suit wait tables kept by them) against trying every kind
    with the decomposition, on hands rich in irregular shapes, each of their kinds taken in turn as the winning
    tile."""
    from engine.mcr.fast import _unique_wait, pack

    checked = 0
    for hand, standing, held, melds, win, _before, waits in _waits_by_decomposition(78):
        mask = sum(1 << i for i in range(34) if standing[i])
        assert _unique_wait(pack(standing), pack(held), win, melds, mask) == (waits == [win]), (hand, win, waits)
        checked += 1
    assert checked > 2500


def _select_with_preference_tuples(candidates, n):
    """``combos._select`` as first written, comparing the tie preference as tuples of counts (the reference for the
    version that adds the preference up as one int)."""
    from engine.mcr.combos import _preference
    from engine.mcr.fans import POINTS

    if not candidates:
        return ()
    if len(candidates) == 1:
        return (candidates[0],)
    order = sorted(range(len(candidates)), key=lambda i: (-len(candidates[i][1]), -POINTS[candidates[i][0]], i))
    cands = [candidates[i] for i in order]
    masks = [sum(1 << p for p in positions) for _, positions in cands]
    points = [POINTS[fan] for fan, _ in cands]
    count = len(cands)
    clash = [sum(1 << j for j in range(count) if j != i and cands[j][0] == cands[i][0] and masks[i] & masks[j])
             for i in range(count)]
    best_rank = (0, ())
    best_chosen = 0
    seen = set()
    stack = [(0, 0, 0)]
    while stack:
        chosen, used, total = stack.pop()
        if chosen in seen:
            continue
        seen.add(chosen)
        if total >= best_rank[0]:
            rank = (total, _preference(cands[i][0] for i in range(count) if chosen >> i & 1))
            if rank > best_rank:
                best_rank, best_chosen = rank, chosen
        for i in range(count):
            if chosen >> i & 1 or clash[i] & chosen:
                continue
            mask = masks[i]
            shared = mask & used
            if used and (shared == mask or shared & (shared - 1)):
                continue
            stack.append((chosen | 1 << i, used | mask, total + points[i]))
    return tuple(cands[i] for i in range(count) if best_chosen >> i & 1)


def test_selection_with_the_preference_as_one_int_is_the_tuple_selection():
    import random
    from itertools import combinations_with_replacement

    from engine.mcr.combos import _candidates, _select

    rng = random.Random(8)
    chow_kinds = [s * 9 + r for s in range(3) for r in range(7)]
    sets = [c for size in (2, 3) for c in combinations_with_replacement(chow_kinds, size)]
    sets += rng.sample(list(combinations_with_replacement(chow_kinds, 4)), 2500)
    checked = 0
    for firsts in sets:
        for pair in ((None, 4, 13) if len(firsts) == 4 else (None,)):
            candidates = _candidates(firsts, pair, True)
            assert _select(candidates, len(firsts)) == _select_with_preference_tuples(candidates, len(firsts)), firsts
            checked += len(candidates) > 1
    pung_kinds = list(range(34))
    for _ in range(3000):
        firsts = tuple(sorted(rng.sample(pung_kinds, rng.randint(2, 4))))
        for pair in (None, 27, 31):
            candidates = _candidates(firsts, pair, False)
            assert _select(candidates, len(firsts)) == _select_with_preference_tuples(candidates, len(firsts)), firsts
    assert checked > 1000


def test_pung_prefilter_on_the_kind_mask_is_the_one_on_the_kinds():
    from itertools import combinations

    from engine.mcr.combos import _may_combine_pungs
    from engine.mcr.fast import _pung_key_of_mask, pungs_may_combine

    checked = 0
    for size in (2, 3, 4):
        for pungs in combinations(range(34), size):
            mask = sum(1 << f for f in pungs)
            assert pungs_may_combine(mask) == _may_combine_pungs(pungs), pungs
            # (``score`` reads a pung key of 0 as no combination possible)
            for pair in (-1, 27, 31):
                key = _pung_key_of_mask(mask, pair)
                assert (key != 0) == _may_combine_pungs(pungs), (pungs, pair)
                assert key == _whole_pung_key(mask, pair), (pungs, pair)
            checked += 1
    assert checked == 561 + 5984 + 46376


def _whole_pung_key(mask, pair):
    """``fast.pung_key``'s key worked out in one piece (as before its number part was kept by the number pungs):
    the reference for ``_pung_key_of_mask``."""
    honours = mask >> 27
    if not (honours >> 4) & (honours >> 4) - 1 and (honours & 0xF).bit_count() < 3:
        honours = 0
        pair = -1
    a, b, c = mask & 0x1FF, mask >> 9 & 0x1FF, mask >> 18 & 0x1FF
    ranks = a | b | c
    if not (a & b or a & c or b & c or ranks & ranks >> 1):
        a = b = c = ranks = 0
    if ranks:
        shift = (ranks & -ranks).bit_length() - 1
        a, b, c = a >> shift, b >> shift, c >> shift
    a, b, c = sorted((a, b, c))
    return a | b << 9 | c << 18 | honours << 27 | (pair + 1) << 34


def _split_recursively(block, with_pair):
    """The first way of checking one suit (pung or chow on the lowest tile, recursively): the reference."""
    if with_pair:
        for i in range(9):
            if block[i] >= 2:
                work = list(block)
                work[i] -= 2
                if _split_recursively(tuple(work), False):
                    return True
        return False
    first = next((i for i in range(9) if block[i]), None)
    if first is None:
        return True
    work = list(block)
    if work[first] >= 3:
        work[first] -= 3
        if _split_recursively(tuple(work), False):
            return True
        work[first] += 3
    if first <= 6 and work[first + 1] and work[first + 2]:
        work[first] -= 1
        work[first + 1] -= 1
        work[first + 2] -= 1
        return _split_recursively(tuple(work), False)
    return False


def test_suit_split_rank_by_rank_is_the_recursive_split():
    import random

    from engine.mcr.evaluate import _suit_complete

    rng = random.Random(12)
    blocks = set()
    while len(blocks) < 15000:  # (all 273,005 blocks of up to 14 tiles were checked once when this was written)
        b = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(b) <= 14 and sum(b) % 3 != 1:
            blocks.add(b)
    for block in blocks:
        with_pair = sum(block) % 3 == 2
        assert _suit_complete.__wrapped__(block, with_pair) == _split_recursively(block, with_pair), block


def test_chow_and_pung_combinations_shared_across_orders_and_suit_permutations():
    """``fast.chow_part`` / ``fast.pung_combo_ids`` answer from one entry for sets that differ by their order or a
    renaming of the suits (chows: one that keeps the suits' order of first use), pungs also by a shift of all ranks
    (``chow_key`` / ``pung_key``): each answer is the one worked out for those very sets (``combos`` on them),
    whichever order or suit renaming filled the entry first. (Every pung set in four orders was checked when this
    was written; the chows by ``test_chow_key_decides_the_chow_part``.)"""
    import random
    from itertools import permutations

    from engine.mcr import fast

    rng = random.Random(21)
    perms = list(permutations(range(3)))

    def moved(firsts, perm):
        return tuple(f if f >= 27 else perm[f // 9] * 9 + f % 9 for f in firsts)

    checked = 0
    for _ in range(1500):
        fast._CHOW_PARTS.clear()
        fast._CHOW_PARTS_ANY_ORDER.clear()
        fast._PUNG_IDS.clear()
        chows = tuple(rng.choice([s * 9 + r for s in range(3) for r in range(7)]) for _ in range(rng.randint(2, 4)))
        pair = rng.choice((-1, 4, 13, 22)) if len(chows) == 4 else -1
        pungs = tuple(rng.sample(range(34), rng.randint(2, 4)))
        honour_pair = rng.choice([-1] + [h for h in range(27, 34) if h not in pungs])
        for perm in rng.sample(perms, 3):
            order = list(range(len(chows)))
            rng.shuffle(order)
            variant = tuple(moved(chows, perm)[i] for i in order)
            variant_pair = pair if pair < 0 else perm[pair // 9] * 9 + 4
            assert fast.chow_part_by_key(variant, variant_pair) == fast.chow_part_of(variant, variant_pair)
            order = list(range(len(pungs)))
            rng.shuffle(order)
            ranks = [f % 9 for f in pungs if f < 27] or [0]
            shift = rng.randint(-min(ranks), 8 - max(ranks))  # pung fans compare ranks only with one another
            variant = tuple(f if f >= 27 else f + shift for f in (moved(pungs, perm)[i] for i in order))
            assert fast.pung_combo_ids_by_key(variant, honour_pair) == fast.pung_combo_ids_of(variant,
                                                                                                   honour_pair)
            checked += 1
    assert checked == 4500
    fast._CHOW_PART_BY_CHOWS.clear()
    fast._PUNG_IDS_BY_PUNGS.clear()
    fast._CHOW_PARTS.clear()
    fast._load_combo_tables()  # the tables loaded at import, as before


def test_suit_split_table_holds_every_block_that_splits():
    """``fast._SPLITS`` (made at import) against ``readings._suit_sets``: each entry is the block's splits, moved to
    each suit, with their placements of a winning tile of each rank, and a block of 0 mod 3 tiles (at most 12, each
    rank at most 4) left out has none (all 5^9 blocks were checked when this was written; here every entry and
    20,000 random blocks)."""
    import random

    from engine.mcr import fast
    from engine.mcr.readings import _suit_sets

    tables = fast._SPLITS
    assert len(tables[0]) == 2869
    rng = random.Random(13)
    blocks = set(tables[0])
    while len(blocks) < 2869 + 20000:
        block = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(block) % 3 == 0 and sum(block) <= 12:
            blocks.add(block)
    splitting = 0
    for block in blocks:
        for base, table in zip((0, 9, 18), tables):
            expected = _suit_sets.__wrapped__(block, base)
            got = table.get(block)
            if got is None:
                assert expected == (), block
                assert fast._suit_splits(block, base) == ()
            else:
                splitting += 1
                assert fast._suit_splits(block, base) is got
                assert [split[0] for split in got] == list(expected), block
                for codes, chows, pungs, places, signature in got:
                    assert chows == tuple(c % 34 for c in codes if c < 34)
                    assert pungs == tuple(c % 34 for c in codes if 34 <= c < 68)
                    assert places == tuple(fast._split_placements.__wrapped__(codes, base + r) for r in range(9))
                    assert signature == sum(fast._CHOW_SIGNATURE[f] for f in chows)
    assert splitting >= 3 * 2869


def test_complete_block_tables_are_the_suit_split_test():
    """``readings.complete_blocks`` (what ``evaluate._block_status`` reads for the unique-wait test) against
    ``evaluate._suit_complete`` on every entry and 30,000 random blocks of up to 14 tiles."""
    import random

    from engine.mcr.evaluate import _block_status, _suit_complete
    from engine.mcr.readings import complete_blocks

    sets, with_pair = complete_blocks()
    assert len(sets) == 2869
    rng = random.Random(14)
    blocks = set(sets) | set(with_pair)
    while len(blocks) < len(sets) + len(with_pair) + 30000:
        block = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(block) <= 14:
            blocks.add(block)
    for block in blocks:
        total = sum(block)
        rest = total % 3
        expected = rest != 1 and (not total or _suit_complete.__wrapped__(block, rest == 2))
        assert (block in (with_pair if rest == 2 else sets) and rest != 1) == expected, block
        assert _block_status(block) == (rest, expected), block


def test_chow_key_decides_the_chow_part():
    """Chows with the same ``fast.chow_key`` get the same ``chow_part_of`` answer, fans in the same order: every
    sequence of two and three chows, 30,000 random sequences of four (each with a 5 pair in each suit or none)."""
    import random
    from itertools import product

    from engine.mcr import fast

    kinds = [s * 9 + r for s in range(3) for r in range(7)]
    rng = random.Random(22)
    sequences = [(c, -1) for n in (2, 3) for c in product(kinds, repeat=n)]
    sequences += [(tuple(rng.choice(kinds) for _ in range(4)), rng.choice((-1, 4, 13, 22))) for _ in range(30000)]
    answers: dict[int, tuple] = {}
    for chows, pair in sequences:
        part = fast.chow_part_of(chows, pair)
        assert answers.setdefault(fast.chow_key(chows, pair), part) == part, (chows, pair)
    assert len(answers) > 2000


def test_pung_key_decides_the_pung_fans():
    """Pungs with the same ``fast.pung_key`` (in any order) get the same ``pung_combo_ids_of`` answer, fans in the
    same order, or answers that may depend on the pungs' order (``fast.order_sensitive``: those are worked out each
    time): every set of two and three pungs with each honour pair, 40,000 random sets of four."""
    import random
    from itertools import combinations

    from engine.mcr import fast

    rng = random.Random(23)
    cases = [(p, pair) for n in (2, 3) for p in combinations(range(34), n)
             for pair in [-1] + [h for h in range(27, 34) if h not in p]]
    cases += [(tuple(rng.sample(range(34), 4)), rng.choice([-1] + list(range(27, 34)))) for _ in range(40000)]
    answers: dict[int, tuple] = {}
    for pungs, pair in cases:
        if pair in pungs:
            continue
        order = list(pungs)
        rng.shuffle(order)
        ids = fast.pung_combo_ids_of(tuple(order), pair)
        first = answers.setdefault(fast.pung_key(pungs, pair), ids)
        assert first == ids or (fast.order_sensitive(first) and fast.order_sensitive(ids)), (pungs, pair)
    assert len(answers) > 1000


def test_suit_wait_table_is_the_suit_wait_search():
    """``fast._suit_waits_of`` (from the tables of the blocks that split, packed) against ``evaluate._suit_waits``
    (each rank tried) on every block that is a complete block less one tile, and 30,000 random blocks of up to 13
    tiles."""
    import random

    from engine.mcr import fast
    from engine.mcr.evaluate import _suit_waits
    from engine.mcr.readings import complete_blocks

    blocks = set()
    for table in complete_blocks():
        for block in table:
            for r in range(9):
                if block[r] and sum(block) <= 14:
                    blocks.add(block[:r] + (block[r] - 1,) + block[r + 1:])
    rng = random.Random(15)
    while len(blocks) < 60000:
        block = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(block) <= 13:
            blocks.add(block)
    for block in blocks:
        fast._SUIT_WAITS.pop(fast.pack(block), None)
        assert fast._suit_waits_of(fast.pack(block)) == _suit_waits.__wrapped__(block), block


def test_kind_fan_key_decides_the_kind_fans():
    """Masks with the same ``kind_fan_ids`` key (from the per-suit feature tables) get the same kind fans as
    ``evaluate._kind_fans``: 60,000 random kind masks (few kinds, one suit, honours, terminals, green tiles)."""
    import random

    from engine.mcr import fast
    from engine.mcr.evaluate import _GREEN_MASK, _kind_fans

    rng = random.Random(24)
    pools = [list(range(34)), list(range(9)), list(range(9, 18)) + list(range(27, 34)), list(range(27, 34)),
             [0, 8, 9, 17, 18, 26] + list(range(27, 34)), [i for i in range(34) if _GREEN_MASK >> i & 1],
             [1, 2, 3, 4, 5, 6, 7, 10, 13, 16, 19, 20, 22, 25, 33]]
    fast._KIND_IDS_BY_FEATURES.clear()
    for _ in range(60000):
        pool = rng.choice(pools)
        mask = sum(1 << i for i in rng.sample(pool, rng.randint(1, min(len(pool), 14))))
        assert fast.kind_fan_ids(mask) == tuple(fan for fan, _, _ in _kind_fans.__wrapped__(mask)), mask


def test_combo_tables_are_the_combination_search():
    """The committed chow and pung combination tables (``engine/mcr/combo_tables.py``, loaded at import) are what
    ``make_tables.build`` works out with ``combos`` now, and every set of chows finds its entry."""
    from engine.mcr import combo_tables, fast, make_tables

    chows_table, in_order, pungs_table = make_tables.build()
    assert fast._decode_table(combo_tables.CHOW_VALUES, combo_tables.CHOW_DATA) == chows_table
    assert fast._decode_table(combo_tables.CHOW_IN_ORDER_VALUES, combo_tables.CHOW_IN_ORDER_DATA) == in_order
    assert fast._decode_table(combo_tables.PUNG_VALUES, combo_tables.PUNG_DATA) == pungs_table
    assert (combo_tables.CHOW_VALUES, combo_tables.CHOW_DATA) == make_tables.encode(chows_table)
    assert len(chows_table) == 7938 and len(pungs_table) == 1494
    # Each chows' entry in order where the fans' order may follow the suits', the one answer otherwise.
    assert {fast.any_order_chow_key(key) for key in in_order} == {k for k, v in chows_table.items() if v is None}
    # Every set of chows, in any order and naming of the suits, finds its entry (the key chow_part makes).
    import random

    rng = random.Random(25)
    kinds = [s * 9 + r for s in range(3) for r in range(7)]
    for _ in range(20000):
        chows = tuple(rng.choice(kinds) for _ in range(rng.randint(2, 4)))
        pair = rng.choice((-1, 4, 13, 22)) if len(chows) == 4 else -1
        key = fast.chow_key(chows, pair)
        assert chows_table[fast.any_order_chow_key(key)] is not None or key in in_order, (chows, pair)


def test_readings_made_for_the_fast_path_are_the_reference_summaries():
    """``fast._new_readings`` (packed counts, per-suit entries, the seven pairs, 全不靠, thirteen orphans and knitted
    straight shortcuts) gives the summaries of ``fast.reading_summaries`` (the readings of
    ``readings.irregular_readings`` and the suit splits) on hands rich in irregular shapes, with every kind held taken
    in turn as the winning tile."""
    from engine.mcr import fast

    checked = seven_pairs = honours_knitted = orphans = knitted_straights = 0
    for hand, _context in generate(1500, seed=99, special_share=0.7):
        standing = [0] * 34
        for t in hand.concealed + (hand.winning_tile,):
            standing[t.index] += 1
        x = fast.pack(standing)
        assert fast.unpack(x) == tuple(standing)
        melds = len(hand.melds)
        for win in {i for i in range(34) if standing[i]}:
            fast._READINGS.pop(x + fast._WIN_KEY[win], None)
            mask, _features, candidates, *summaries = fast._new_readings(x, win, melds)
            summaries = tuple(summaries)
            assert summaries == fast.reading_summaries(tuple(standing), win, melds), (hand, win)
            assert mask == sum(1 << i for i in range(34) if standing[i])
            # the unique wait's standing part, kept where a reading has a wait fan
            assert candidates == (fast._wait_candidates(x, win, melds, mask)
                                  if any(s[7] is not None for s in summaries) else None), (hand, win)
            seven_pairs += any(s[0] == fast._SEVEN_PAIRS for s in summaries)
            honours_knitted += any(s[0] == fast._HONOURS_KNITTED for s in summaries)
            orphans += any(s[0] == fast._THIRTEEN_ORPHANS for s in summaries)
            knitted_straights += any(s[0] == fast._KNITTED_STRAIGHT for s in summaries)
            checked += 1
    assert checked > 10000 and seven_pairs > 1000 and honours_knitted > 100 and orphans > 100 \
        and knitted_straights > 100


def test_knitted_straight_beside_a_meld_reads_as_the_reference():
    """Beside one meld (which the generator never puts with a knitted straight), ``fast._new_readings`` gives the
    reference summaries for each knitted pattern with every two tiles as the rest (a pair or not), every kind held
    taken in turn as the winning tile."""
    from engine.decompose import KNITTED_PATTERNS

    checked = read = 0
    for pattern in KNITTED_PATTERNS:
        for a in range(34):
            for b in range(a, 34):
                standing = [0] * 34
                for i in pattern + (a, b):
                    standing[i] += 1
                if max(standing) > 4:
                    continue
                x = fast.pack(standing)
                for win in {i for i in range(34) if standing[i]}:
                    fast._READINGS.pop(x + fast._WIN_KEY[win], None)
                    summaries = fast._new_readings(x, win, 1)[3:]
                    assert summaries == fast.reading_summaries(tuple(standing), win, 1), (standing, win)
                    read += any(s[0] == fast._KNITTED_STRAIGHT for s in summaries)
                    checked += 1
    assert checked > 30000 and read > 1000


def test_suit_tables_made_at_import_are_the_entries_made_on_demand():
    """The suit entries and the suit wait entries put in their tables at import (``fast._prefill_suit_entries``) are
    those ``fast._suit_entry`` and ``fast._suit_waits_of`` make for the same blocks."""
    from engine.mcr import fast

    fast._SUIT_WAITS.clear()
    for table in fast._SUIT_ENTRIES:
        table.clear()
    fast._prefill_suit_entries()
    entries = [dict(table) for table in fast._SUIT_ENTRIES]
    waits = dict(fast._SUIT_WAITS)
    assert all(len(table) > 6000 for table in entries) and len(waits) > 20000
    for suit, table in enumerate(entries):
        for block, entry in table.items():
            del fast._SUIT_ENTRIES[suit][block]
            assert fast._suit_entry(suit, block) == entry, (suit, block)
    for block, entry in waits.items():
        del fast._SUIT_WAITS[block]
        assert fast._suit_waits_of(block) == entry, block
