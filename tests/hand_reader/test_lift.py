"""An added kong seen from overhead: the claimed tile hidden under the added one, only the added tile's shift shows.

The table is laid by hand: a pung's sideways tile is either the claimed tile lying flat (where the builder puts it),
or the added fourth tile lying on a claimed tile that no detection shows, which a near-overhead camera shifts away
from the photo's centre (the hand's middle) by a share of its distance from it and a little across the row. A shift
that small is read as a pung with a warning and the added kong among the alternatives (the localiser's boxes are not
precise enough to decide it, and added kongs are rare: ``vision.reading.layout._with_lift``); a clear lift, or a box
that takes in the tile under it, is read as an added kong.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.hand import Hand
from vision.hand_reader import read_hand
from vision.reading.compare import same_hand

from tests.hand_reader.builder import H, W, Table
from tests.hand_reader.test_layouts import assert_hand, read

CONCEALED = "1m 2m 3m 4m 5m 6m 7p 8p 9p 5s | 5s"


def _shifted(tokens: str, along: float, across: float = 0.0) -> Table:
    """The concealed row and a meld at its right, the meld's sideways tile moved by (along, across) tile widths."""
    table = Table().row(f"{CONCEALED} || {tokens}")
    sideways = next(t for t in table.tiles if t["token"].startswith("s"))
    sideways["cx"] += along * W
    sideways["cy"] += across * W
    return table


@pytest.mark.parametrize("photo", [(0, 0.0, 0.0, 0.0), (180, 0.0, 0.0, 0.01), (90, 8.0, 0.0, 0.01)])
@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_tile_shifted_outward_overhead_is_a_pung_with_the_added_kong_as_an_alternative(tokens, direction, photo):
    table = _shifted(tokens, along=0.18)  # the meld lies ~7 widths right of the hand's middle: 2.5 % of that
    reading, _ = read(table, photo)
    assert_hand(reading, f"123m456m789p5s p777z{direction} +5s")
    assert "added_kong_possible" in reading.warning_codes
    added = [a for a in reading.alternatives
             if same_hand(Hand.from_json(a["hand"]), Hand.parse(f"123m456m789p5s a7777z{direction} +5s"))]
    assert len(added) == 1 and added[0]["changes"] == []


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_flat_claimed_tile_is_a_pung_without_a_warning(tokens, direction):
    reading, _ = read(_shifted(tokens, along=0.0))
    assert_hand(reading, f"123m456m789p5s p777z{direction} +5s")
    assert reading.warning_codes == []


def test_a_tile_shifted_inward_is_no_lift():
    # Parallax moves a lifted tile away from the photo's centre, never toward it.
    reading, _ = read(_shifted("7z 7z s7z", along=-0.18))
    assert_hand(reading, "123m456m789p5s p777z> +5s")
    assert reading.warning_codes == []


def test_a_slight_shift_is_read_as_it_lies_with_the_added_kong_as_an_alternative():
    reading, _ = read(_shifted("7z 7z s7z", along=0.08))
    assert_hand(reading, "123m456m789p5s p777z> +5s")
    assert "added_kong_possible" in reading.warning_codes
    added = Hand.parse("123m456m789p5s a7777z> +5s")
    assert any(same_hand(Hand.from_json(a["hand"]), added) for a in reading.alternatives)


def test_a_chow_is_never_an_added_kong_however_its_claimed_tile_lies():
    reading, _ = read(_shifted("s4s 3s 5s", along=0.18))
    assert_hand(reading, "123m456m789p5s c34*5s< +5s")
    assert "added_kong_possible" not in reading.warning_codes


def test_one_claimed_tile_off_the_row_among_flat_ones_is_lifted_but_a_frame_that_shifts_all_alike_is_not():
    melds = "s6p 6p 6p | 7z s7z 7z | 9s 9s s9s"
    lifted = Table().row(f"1m 2m 3m 5s | 5s || {melds}")
    lifted.tiles[[t["token"] for t in lifted.tiles].index("s7z")]["cy"] -= 0.11 * W
    reading, _ = read(lifted)
    assert_hand(reading, "123m5s p666p< p777z^ p999s> +5s")
    lifted_melds = [m for c, m in zip(reading.warning_codes, reading.warnings) if c == "added_kong_possible"]
    assert len(lifted_melds) == 1 and "(7z)" in lifted_melds[0], reading.warnings
    alike = Table().row(f"1m 2m 3m 5s | 5s || {melds}")
    for tile in alike.tiles:
        if tile["token"].startswith("s"):
            tile["cy"] -= 0.11 * W
    reading, _ = read(alike)
    assert_hand(reading, "123m5s p666p< p777z^ p999s> +5s")
    assert "added_kong_possible" not in reading.warning_codes


def _boxed_with_the_tile_under_it(tokens: str) -> Table:
    """The concealed row and a meld at its right whose sideways tile's box reaches as far across the row as the
    upright tiles' and a little further: how the localiser boxes an added tile together with the claimed tile it
    hides (near edge in line with the row, box grown across it)."""
    table = Table().row(f"{CONCEALED} || {tokens}")
    sideways = next(t for t in table.tiles if t["token"].startswith("s"))
    near = sideways["cy"] + sideways["height"] / 2
    sideways["height"] = 1.05 * H
    sideways["cy"] = near - sideways["height"] / 2
    return table


@pytest.mark.parametrize("photo", [(0, 0.0, 0.0, 0.0), (270, 0.0, 0.0, 0.0), (180, 6.0, 0.0, 0.01)])
@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z 7z s7z", ">")])
def test_a_sideways_box_as_deep_as_the_upright_tiles_is_an_added_kong(tokens, direction, photo):
    reading, _ = read(_boxed_with_the_tile_under_it(tokens), photo)
    assert_hand(reading, f"123m456m789p5s a7777z{direction} +5s")


def test_a_deep_sideways_box_in_a_chow_stays_a_chow():
    reading, _ = read(_boxed_with_the_tile_under_it("s4s 3s 5s"))
    assert_hand(reading, "123m456m789p5s c34*5s< +5s")


# With the lift model (Detections.lifted): its probability replaces the geometric test, weighed as a log-probability
# against the faces (vision.reading.decode.lift_costs).

def _with_lifted(table: Table, probability: float, photo=(0, 0.0, 0.0, 0.0)):
    """The photo's detections with ``probability`` as the sideways tiles' lift and NaN elsewhere (not measured)."""
    from dataclasses import replace

    import numpy as np

    from vision.hand_reader import read_hand

    turn, tilt, perspective, jitter = photo
    detections, size, order = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    lifted = np.full(len(detections), np.nan)
    for k, tile in enumerate(table.tiles):
        if tile["token"].startswith("s"):
            lifted[order.index(k)] = probability
    return read_hand(replace(detections, lifted=lifted), size)


@pytest.mark.parametrize("photo", [(0, 0.0, 0.0, 0.0), (90, 5.0, 0.0, 0.01), (270, -8.0, 0.1, 0.01)])
@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_lift_model_sure_of_a_hidden_tile_reads_an_added_kong(tokens, direction, photo):
    reading = _with_lifted(_shifted(tokens, along=0.0), 0.97, photo)
    assert_hand(reading, f"123m456m789p5s a7777z{direction} +5s")
    assert reading.warning_codes == []


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_an_added_kong_read_over_a_hidden_tile_on_a_lift_not_sure_warns_with_the_pung_as_an_alternative(
        tokens, direction):
    # W49 (docs/rules-session49.md): the model's 0.8, weighed with a tile no larger than its neighbours (about
    # 0.76), reads the added kong, whose claimed tile nobody sees: the reading says so and lists the pung
    reading = _with_lifted(_shifted(tokens, along=0.0), 0.8)
    assert_hand(reading, f"123m456m789p5s a7777z{direction} +5s")
    assert reading.warning_codes == ["added_kong_inferred"]
    pung = [a for a in reading.alternatives
            if same_hand(Hand.from_json(a["hand"]), Hand.parse(f"123m456m789p5s p777z{direction} +5s"))]
    assert len(pung) == 1 and pung[0]["changes"] == [] and pung[0]["relative_probability"] is None


def test_an_added_kong_whose_fourth_tile_the_box_shows_does_not_warn_of_a_hidden_tile():
    # a box two tiles deep holds the added tile laid beside the claimed one: both are seen, though the lift the
    # reader weighs (about 0.89 from the model's 0.12 on a box that large) is under LIFTED_SURE
    table = _shifted("7z 7z s7z", along=0.0)
    sideways = next(t for t in table.tiles if t["token"].startswith("s"))
    sideways["height"] = 2 * W
    sideways["cy"] -= W / 2
    reading = _with_lifted(table, 0.12)
    assert_hand(reading, "123m456m789p5s a7777z> +5s")
    assert "added_kong_inferred" not in reading.warning_codes


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z s7z 7z", "^"), ("7z 7z s7z", ">")])
def test_a_lift_model_sure_of_a_flat_tile_overrides_the_geometric_lift(tokens, direction):
    # shifted as far as the geometric test calls a clear lift: the model's low probability wins
    reading = _with_lifted(_shifted(tokens, along=0.0, across=-0.3), 0.01)
    assert_hand(reading, f"123m456m789p5s p777z{direction} +5s")
    assert reading.warning_codes == []


def test_a_doubtful_lift_is_read_as_a_pung_with_the_added_kong_as_an_alternative():
    # an even lift on a tile no larger than its neighbours: weighed with its size and offset (layout._lift_with_size) about 0.38
    reading = _with_lifted(_shifted("7z s7z 7z", along=0.0), 0.5)
    assert_hand(reading, "123m456m789p5s p777z^ +5s")
    assert reading.warning_codes == ["added_kong_possible"]
    added = [a for a in reading.alternatives
             if same_hand(Hand.from_json(a["hand"]), Hand.parse("123m456m789p5s a7777z^ +5s"))]
    assert len(added) == 1


def test_an_alternative_change_is_listed_once_whatever_the_lift_makes_of_the_meld():
    # 5s and 5s read 8p second: changing both is a legal reading, as an added kong (p = 0.7) and, less likely, as a
    # pung. The same change cannot give two hands: /v1/tiles/score gives the likelier, so only it is listed.
    table = Table().row(f"{CONCEALED} || 7z s7z 7z")
    second = [("5s", 0.6), ("8p", 0.35), ("1s", 0.03)]
    detections, size, order = table.photo(misread={9: second, 10: second})
    lifted = np.full(len(detections), np.nan)
    lifted[order.index(next(k for k, t in enumerate(table.tiles) if t["token"].startswith("s")))] = 0.7
    reading = read_hand(replace(detections, lifted=lifted), size)
    assert_hand(reading, "123m456m789p5s a7777z^ +5s")
    changes = [tuple((c["tile_index"], c["to"]) for c in a["changes"]) for a in reading.alternatives if a["changes"]]
    assert changes and len(changes) == len(set(changes)), reading.alternatives


def test_a_chow_is_never_an_added_kong_however_lifted():
    table = Table().row(f"{CONCEALED} || s4s 3s 5s")
    reading = _with_lifted(table, 0.99)
    assert_hand(reading, "123m456m789p5s c34*5s< +5s")
    assert "added_kong_possible" not in reading.warning_codes


@pytest.mark.parametrize("tokens,direction", [("s7z 7z 7z", "<"), ("7z 7z s7z", ">")])
@pytest.mark.parametrize("probability,meld", [(0.2, "a7777z"), (0.03, "p777z")])
def test_a_box_two_tiles_deep_is_an_added_kong_unless_the_lift_model_rules_it_out(tokens, direction, probability,
                                                                                   meld):
    # the localiser boxed an added tile laid beside the claimed one together with it: one sideways box, its near
    # edge in line, twice as deep across the row; the box-depth test decides though the lift model doubts it, but
    # not where the model rules a lift out (DEPTH_TEST_FLOOR: thick flat tiles also make deep boxes)
    table = _shifted(tokens, along=0.0)
    sideways = next(t for t in table.tiles if t["token"].startswith("s"))
    sideways["height"] = 2 * W
    sideways["cy"] -= W / 2
    reading = _with_lifted(table, probability)
    assert_hand(reading, f"123m456m789p5s {meld}{direction} +5s")


@pytest.mark.parametrize("grown,meld,warned", [(1.0, "p777z", True), (1.12, "a7777z", False)])
def test_an_even_lift_on_a_tile_larger_than_its_neighbours_is_an_added_kong(grown, meld, warned):
    # A tile laid on the claimed one lies nearer the camera: its box comes out larger than the meld's upright tiles'
    # (docs/rules-session32.md, s1). The model's even odds read a pung at the neighbours' size, the added kong at
    # 12 % larger.
    table = _shifted("7z s7z 7z", along=0.0)
    sideways = next(t for t in table.tiles if t["token"].startswith("s"))
    near = sideways["cy"] + sideways["height"] / 2
    sideways["width"] *= grown
    sideways["height"] *= grown
    sideways["cy"] = near - sideways["height"] / 2
    reading = _with_lifted(table, 0.5)
    assert_hand(reading, f"123m456m789p5s {meld}^ +5s")
    assert ("added_kong_possible" in reading.warning_codes) == warned


@pytest.mark.parametrize("across,meld,warned", [(0.0, "p777z", True), (-0.3, "a7777z", False)])
def test_an_even_lift_on_a_tile_whose_near_edge_lies_off_the_row_is_an_added_kong(across, meld, warned):
    # A tile laid on the claimed one lies higher: its near (winner's) edge shows off the upright tiles' near edges,
    # away from the winner (R43, docs/rules-session35.md). The model's even odds read a pung in line, the added kong
    # 0.3 tile widths off.
    reading = _with_lifted(_shifted("7z s7z 7z", along=0.0, across=across), 0.5)
    assert_hand(reading, f"123m456m789p5s {meld}^ +5s")
    assert ("added_kong_possible" in reading.warning_codes) == warned
