"""Hypothesis strategies for tiles and legal hands (fixed shapes, so every generated hand validates)."""

from hypothesis import strategies as st

from engine import ALL_FACES, Discarder, Hand, Meld, MeldType, Tile
from engine.tiles import RED_FIVES

tiles = st.sampled_from(ALL_FACES + RED_FIVES)
playing_tiles = st.sampled_from([t for t in ALL_FACES if not t.is_flower])


@st.composite
def melds(draw):
    kind = draw(st.sampled_from(list(MeldType)))
    if kind is MeldType.CHOW:
        suit = draw(st.integers(0, 2))
        start = draw(st.integers(0, 6))
        meld_tiles = tuple(Tile.from_index(suit * 9 + start + k) for k in range(3))
        discarder = Discarder.LEFT
        claimed = draw(st.one_of(st.none(), st.sampled_from(meld_tiles)))
    else:
        tile = draw(playing_tiles)
        meld_tiles = (tile,) * kind.size
        discarder = None if kind is MeldType.CONCEALED_KONG else draw(st.sampled_from(list(Discarder)))
        claimed = None
    return Meld(kind, meld_tiles, discarder, claimed)


@st.composite
def hands(draw):
    """A structurally valid hand (counts right, at most 4 copies), not necessarily a winning shape."""
    meld_list = draw(st.lists(melds(), max_size=4))
    used = [0] * 34
    for m in meld_list:
        for t in m.tiles:
            used[t.index] += 1
    if max(used) > 4:
        meld_list = []
        used = [0] * 34
    need = 14 - 3 * len(meld_list)
    pool = [i for i in range(34) for _ in range(4 - used[i])]
    chosen = draw(st.permutations(pool))[:need]
    concealed = [Tile.from_index(i) for i in chosen[1:]]
    winning = Tile.from_index(chosen[0])
    flowers = draw(st.lists(st.sampled_from([t for t in ALL_FACES if t.is_flower]), unique=True, max_size=8))
    return Hand(tuple(concealed), tuple(meld_list), winning, tuple(flowers))


@st.composite
def any_melds(draw):
    """A meld with red fives and a claimed tile anywhere, legal or not (mixed suits, unequal tiles): for round trips,
    which must hold for every value, the invalid ones that error messages quote included."""
    kind = draw(st.sampled_from(list(MeldType)))
    meld_tiles = tuple(draw(st.lists(st.sampled_from(ALL_FACES[:34] + RED_FIVES), min_size=1, max_size=4)))
    discarder = draw(st.one_of(st.none(), st.sampled_from(list(Discarder))))
    claimed = draw(st.one_of(st.none(), st.sampled_from(meld_tiles)))
    return Meld(kind, meld_tiles, discarder, claimed)
