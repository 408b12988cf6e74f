"""The hand's groups never lie on one another: the melds laid in front of the row clear every tile of the row, and
a row of flowers in front clears everything laid before it. Read from the placements (no pixels)."""

import functools

from vision.synth import SynthConfig, sample_scene

N_SCENES = 400


@functools.lru_cache(maxsize=1)
def _layouts() -> list:
    """(seed, layout) of the first N_SCENES scenes at 640 x 480, laid out once for both tests (no pixels drawn)."""
    config = SynthConfig(width=640, height=480)
    return [(seed, sample_scene(seed, config).layout) for seed in range(N_SCENES)]


def _far_edge(placements) -> float:
    """The largest table Y (away from the winner) any of these tiles' boxes reach."""
    return max(float(p.corners()[:, 1].max()) for p in placements)


def _near_edge(placements) -> float:
    return min(float(p.corners()[:, 1].min()) for p in placements)


def test_melds_in_front_clear_a_flat_winning_tile_beside_a_standing_row():
    # A standing row may have its winning tile laid flat (it reaches a tile's height from the winner, not a
    # thickness): the melds in front used to start a thickness away, so a meld lay through the winning tile and the
    # picture showed the winning tile sunk into a meld's row (seed 1429073074 at 640 x 480).
    checked = 0
    for seed, layout in _layouts():
        placements = layout.placements
        row = [p for p in placements if p.role in ("concealed", "winning")]
        melds = [p for p in placements if p.role == "meld"]
        winning = next(p for p in placements if p.role == "winning")
        if not (layout.habits["melds_in_front"] and layout.habits["standing"] and melds
                and not winning.standing):
            continue
        checked += 1
        assert _near_edge(melds) > _far_edge(row), (seed, _near_edge(melds), _far_edge(row))
    assert checked >= 10


def test_flowers_in_front_clear_the_melds_beside_the_row():
    # With the melds beside the row, the flowers' row in front started past the concealed row's depth only: a flat
    # meld (a tile's height deep) or an added kong's tile laid beside (two tile widths) reached into it, and the
    # picture showed flowers lying through meld tiles (seeds 1455387054, 1357301937 at 640 x 480).
    checked = 0
    for seed, layout in _layouts():
        placements = layout.placements
        flowers = [p for p in placements if p.role == "flower"]
        others = [p for p in placements if p.role in ("concealed", "winning", "meld")]
        if not flowers or layout.habits["melds_in_front"]:
            continue  # no flowers, or the melds in front (the flowers then go past the melds' own row)
        row_start = min(float(p.corners()[:, 0].min()) for p in others if p.role == "concealed")
        if max(float(p.corners()[:, 0].max()) for p in flowers) < row_start:
            continue  # the flowers lie left of the row, not in front
        checked += 1
        assert _near_edge(flowers) > _far_edge(others), (seed, _near_edge(flowers), _far_edge(others))
    assert checked >= 10
