"""Every layout case on hand-made detection sets: the true hand is the one the tiles were placed as."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hand import Hand
from vision.reading.compare import same_hand
from tests.hand_reader.builder import Table, detection_of
from vision.classes import FACE_CODES
from vision.detections import Detections
from vision.hand_reader import HandReading, read_hand


def with_rotations(detections: Detections, rotation: np.ndarray) -> Detections:
    """The same detections with other rotation labels (what a classifier that turned some faces would give)."""
    from dataclasses import replace

    return replace(detections, rotation=rotation)

PHOTOS = [  # (quarter turn, tilt, perspective, jitter): straight, upside down, turned, tilted, foreshortened
    (0, 0.0, 0.0, 0.0), (180, 0.0, 0.0, 0.02), (90, 17.0, 0.25, 0.02), (270, -25.0, -0.3, 0.02), (0, 40.0, 0.0, 0.01),
]


def read(table: Table, photo=(0, 0.0, 0.0, 0.0), **kwargs):
    turn, tilt, perspective, jitter = photo
    detections, size, order = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    return read_hand(detections, size, **kwargs), order


def read_upright(table: Table, photo) -> HandReading:
    """``table`` photographed at ``photo`` and read with the orientation head holding every tile upright in the hand's
    frame: its probability is the image's, so a photo turned a quarter shows the upright tiles sideways to the image."""
    from dataclasses import replace

    turn, tilt, perspective, jitter = photo
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    sideways = 0.98 if turn % 180 == 90 else 0.02
    return read_hand(replace(detections, sideways_probability=np.full(len(detections), sideways, np.float32)), size)


def assert_hand(reading, text: str) -> None:
    assert reading.hand is not None, reading.warnings
    assert same_hand(reading.hand, Hand.parse(text)), (reading.hand.format(), text, reading.warnings)


@pytest.mark.parametrize("photo", PHOTOS)
def test_same_row_melds_read_the_same_from_any_angle(photo):
    # concealed 7 | winning tile | chow from the left (claimed 4s) | pung from across | kong from the right
    table = Table().row("1m 2m 3m 2z | 2z | s4s 3s 5s | 7z s7z 7z | 9p 9p 9p s9p")
    reading, order = read(table, photo)
    assert_hand(reading, "123m2z c34*5s< p777z^ k9999p> +2z")
    assert reading.warning_codes == []
    roles = [reading.tile_roles[detection_of(order, k)]["role"] for k in range(len(table.tiles))]
    assert roles == ["concealed"] * 4 + ["winning"] + ["meld"] * 10


@pytest.mark.parametrize("photo", PHOTOS[:3])
def test_melds_on_the_row_above_and_flowers_on_their_own_row(photo):
    table = Table()
    table.row("s6m 7m 8m | 5z 5z s5z", x=1.0, bottom=-1.2)  # chow from the left, pung from the right
    table.row("2m 3m 4m 7p 7p 1s 1s | 1s")
    table.row("1f 6f", x=2.0, bottom=1.3)
    reading, order = read(table, photo)
    assert_hand(reading, "234m77p11s c6*78m< p555z> +1s 16f")
    flower_roles = {reading.tile_roles[detection_of(order, k)]["role"] for k in (14, 15)}
    assert flower_roles == {"flower"}


def test_flowers_left_of_the_concealed_row():
    table = Table().row("2f 3f 8f || 1p 1p 1p 2p 3p 4p 5p 6p 7p 9p 9p 9p 8p | 8p")
    reading, _ = read(table)
    assert_hand(reading, "111234567999p8p +8p 238f")


def test_kong_with_the_sideways_tile_at_either_inner_place_is_from_across():
    for tokens in ("3s s3s 3s 3s", "3s 3s s3s 3s"):
        table = Table().row(f"1m 1m 1m 5p 6p 7p 9s 9s 9s 4z | 4z | {tokens}")
        reading, _ = read(table)
        assert_hand(reading, "111m567p999s4z k3333s^ +4z")


def test_a_gap_inside_a_meld_does_not_split_it():
    # The pung from the left has a careless gap after its sideways tile; counts say it is one meld.
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 5s | 5s | s8p | 8p 8p")
    reading, _ = read(table)
    assert_hand(reading, "123456789m5s p888p< +5s")


def test_melds_pushed_together_are_split_by_their_sideways_tiles():
    table = Table().row("1m 2m 3m 4p 4p 4p 9m | 9m | s3s 1s 2s 2z s2z 2z")
    reading, _ = read(table)
    assert_hand(reading, "123m444p9m c123*s< p222z^ +9m")
    table = Table().row("9m | 9m | s3s 1s 2s 2z s2z 2z 6z 6z s6z s7s 8s 9s")
    reading, _ = read(table)
    assert_hand(reading, "9m c123*s< p222z^ p666z> c7*89s< +9m")


def test_a_tile_right_after_the_concealed_run_but_inside_a_meld_is_not_the_winning_tile():
    # "5p 5p s5p" from the right, with a gap after its first tile: it looks like a set-apart winning tile.
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z | 5p | 5p s5p")
    reading, _ = read(table)
    assert_hand(reading, "123456789m1z p555p> +1z")
    assert "winning_tile_not_set_apart" in reading.warning_codes


def test_no_winning_tile_set_apart_warns_and_the_request_names_it():
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 7p 8p 9p 1z 1z")
    reading, _ = read(table)
    assert reading.hand is not None
    assert "winning_tile_not_set_apart" in reading.warning_codes
    assert any(r["field"] == "winning_tile" for r in reading.requests)
    assert set(reading.winning_tile_candidates) == {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "7p", "8p",
                                                    "9p", "1z"}
    named, _ = read(table, winning_tile="5m")
    assert_hand(named, "12346789m789p11z +5m")
    assert "winning_tile_not_set_apart" not in named.warning_codes


def test_clutter_far_from_the_hand_is_ignored():
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z | s4s 5s 6s")
    table.tile("7z", x=20.0, y=-5.0, turn=180)  # a loose tile, turned the other way
    table.tile("3p", x=-6.0, y=4.0, turn=90)
    for k in range(8):  # a stretch of the wall: backs in a line
        table.tile("d", x=2.0 + k * 1.02, y=-5.0)
    reading, order = read(table, PHOTOS[2])
    assert_hand(reading, "123456789m1z c4*56s< +1z")
    clutter = [reading.tile_roles[detection_of(order, k)]["role"] for k in range(14, len(table.tiles))]
    assert clutter == ["clutter"] * len(clutter)


def test_discards_turned_the_other_way_do_not_outvote_the_hand():
    table = Table().row("2m 3m 4m 4p 5p 6p 4p | 4p | s1s 2s 3s | 7z s7z 7z")
    for k in range(12):  # the player across's discards, upside down from here
        table.tile(["1m", "5p", "9s", "3z"][k % 4], x=1.0 + (k % 6) * 1.05, y=-4.0 - (k // 6) * 1.05, turn=180)
    reading, _ = read(table)
    assert_hand(reading, "234m456p4p c1*23s< p777z^ +4p")
    assert reading.orientation["quarter_turn"] == 0


@pytest.mark.parametrize("photo", PHOTOS[:3])
def test_concealed_kong_all_face_down_asks_for_its_face(photo):
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d d")
    reading, order = read(table, photo)
    assert reading.hand is None
    assert "concealed_kong_face_unknown" in reading.warning_codes
    request = next(r for r in reading.requests if r["field"] == "concealed_kong_tiles")
    assert request["count"] == 1 and len(request["boxes"][0]) == 4
    kong_boxes = {tuple(np.round(reading_box, 1)) for reading_box in request["boxes"][0]}
    assert len(kong_boxes) == 4
    answered, _ = read(table, photo, concealed_kong_tiles=["6z"])
    assert_hand(answered, "123m555p888s3z x6666z +3z")


def test_more_concealed_kong_faces_than_kongs_are_ignored_with_a_warning():
    # a list longer than the photo's face-down kongs was ignored without a word (session 43's audit): the names
    # are used in reading order, and the extra ones are named in the warning
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d d")
    reading, _ = read(table, concealed_kong_tiles=["6z", "1z", "6z"])
    assert_hand(reading, "123m555p888s3z x6666z +3z")
    warning = reading.warnings[reading.warning_codes.index("concealed_kong_tiles_unused")]
    assert warning.endswith("1z, 6z ignored"), warning
    answered, _ = read(table, concealed_kong_tiles=["6z"])
    assert "concealed_kong_tiles_unused" not in answered.warning_codes


def test_concealed_kong_two_down_two_up():
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d 2s 2s d")
    reading, order = read(table)
    assert_hand(reading, "123m555p888s3z x2222s +3z")
    assert reading.tile_roles[detection_of(order, 11)]["code"] == "2s"  # a back takes the kong's face


@pytest.mark.parametrize("tokens,direction", [
    ("s6p t6p 6p 6p", "<"),  # laid beside the claimed tile, across the row
    ("6p s6p o6p 6p", "^"),  # laid on the claimed tile
    ("6p 6p s6p t6p", ">"),
    ("6p s6p s6p 6p", "^"),  # laid beside along the row: two sideways tiles
])
def test_added_kong_stacked_or_beside(tokens, direction):
    table = Table().row(f"1m 2m 3m 7s 8s 9s 4z 4z 4z 1z | 1z | {tokens}")
    for photo in PHOTOS[:3]:
        reading, _ = read(table, photo)
        assert_hand(reading, f"123m789s444z1z a6666p{direction} +1z")


def test_two_added_kongs_laid_beside_with_their_claimed_tiles_touching():
    # B69c (docs/rules-session69.md): a kong claimed from the right, then one claimed from the left a fifth of a tile
    # away: each added tile lies in line with the other kong's, so only the standing tiles tell which is the base.
    table = Table().row("1m 2m 3m 7s 8s 9s 1z | 1z | 4p 4p s4p t4p")
    table.row("s6s t6s 6s 6s", x=7 * 1.02 + 0.6 + 1.02 + 0.6 + 2 * 1.02 + 81 / 60 + 0.02 + 0.2)
    for photo in PHOTOS[:3]:
        reading, _ = read(table, photo)
        assert_hand(reading, "123m789s1z a4444p> a6666s< +1z")


def test_a_loose_tile_against_a_claimed_tile_does_not_take_the_added_tiles_place():
    # B69c (docs/rules-session69.md; B69b there): a loose 9m lies sideways against the claimed 6p on the winner's
    # side, the added 6p across the row on the far side; whichever of the two the detections list first, the 6p makes
    # the kong.
    table = Table().row("1m 2m 3m 7s 8s 9s 4z 4z 4z 1z | 1z | s6p t6p 6p 6p")
    claimed = next(t for t in table.tiles if t["token"] == "s6p")
    table.tile("9m", x=claimed["cx"] / 60.0, y=(claimed["cy"] + 61.0) / 81.0, turn=90)
    for seed in range(4):
        for turn, tilt, perspective, jitter in PHOTOS[:3]:
            detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter, seed=seed)
            assert_hand(read_hand(detections, size), "123m789s444z1z a6666p< +1z")


def test_chow_claimed_tile_is_the_sideways_one():
    table = Table().row("1m 1m 1m 2p 3p 4p 9s 9s 9s 5z | 5z | s5m 4m 6m")
    reading, _ = read(table)
    assert_hand(reading, "111m234p999s5z c45*6m< +5z")
    assert reading.hand.melds[0].claimed.code == "5m"


def test_riichi_ignores_flowers_with_a_warning():
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 7p 8p 9p 1z | 1z")
    table.row("3f", x=3.0, bottom=1.4)
    reading, _ = read(table, rules="riichi")
    assert_hand(reading, "123456789m789p1z +1z")
    assert "flowers_ignored" in reading.warning_codes


def test_no_tiles():
    reading = read_hand(Detections.empty(), (640, 480))
    assert reading.hand is None and reading.warning_codes == ["no_tiles"]
    assert reading.to_json()["hand"] is None


def test_json_shape():
    table = Table().row("1m 2m 3m 4p 5p 6p 2z | 2z | s4s 3s 5s | 7z s7z 7z")
    reading, _ = read(table)
    data = reading.to_json()
    assert Hand.from_json(data["hand"]).format() == reading.hand.format()
    assert set(data) >= {"hand", "warnings", "warning_codes", "alternatives", "tile_roles", "requests"}
    assert len(data["tile_roles"]) == len(table.tiles)
    assert all(r["role"] in ("concealed", "winning", "meld", "flower", "clutter") for r in data["tile_roles"])


def test_every_warning_code_is_documented():
    from vision.hand_reader import WARNING_CODES

    readings = [read(Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 7p 8p 9p 1z 1z"))[0],
                read(Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d d"))[0],
                read(Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z").row("3f", x=3.0, bottom=1.4), rules="riichi")[0],
                read_hand(Detections.empty(), (10, 10))]
    codes = {code for reading in readings for code in reading.warning_codes}
    assert codes and codes <= set(WARNING_CODES)


def test_a_meld_with_one_flipped_sideways_label_is_still_a_meld():
    # Perspective near 45° can flip an upright meld tile's label to sideways: the meld then shows two sideways labels,
    # which no layout has; the tile whose box is the more sideways is the claimed one.
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z | s4s 5s 6s")
    detections, size, order = table.photo(seed=3)
    k = detection_of(order, 13)  # the 6s, upright, labelled sideways
    rotation = detections.rotation.copy()
    rotation[k] = 90
    flipped = with_rotations(detections, rotation)
    reading = read_hand(flipped, size)
    assert same_hand(reading.hand, Hand.parse("123456789m1z c4*56s< +1z")), reading.warnings
    assert np.array_equal(flipped.rotation != detections.rotation, np.eye(len(rotation), dtype=bool)[k])


@pytest.mark.parametrize("photo", PHOTOS)
def test_a_meld_row_laid_close_in_front_of_the_concealed_row_is_its_own_row(photo):
    # The meld's sideways tile sits close enough to the concealed row to link with it, while its upright tiles lie
    # at the same places along the row as concealed tiles: one row never holds two tiles at one place.
    table = Table()
    table.row("1m 2m 3m 4p 5p 6p 7p 8p 9p 1z | 1z")
    table.row("s4s 5s 6s", x=2.3, bottom=-0.45)
    reading, order = read(table, photo)
    assert_hand(reading, "123m456789p1z c4*56s< +1z")
    assert [reading.tile_roles[detection_of(order, k)]["role"] for k in (11, 12, 13)] == ["meld"] * 3


def relabel(detections: Detections, order: list[int], labels: dict[int, int]) -> Detections:
    """The detections with table tile k's rotation label replaced by ``labels[k]`` (the recogniser's label for it)."""
    rotation = detections.rotation.copy()
    for k, label in labels.items():
        rotation[detection_of(order, k)] = label
    return with_rotations(detections, rotation)


@pytest.mark.parametrize("tilt", [0.0, 35.0])
def test_flat_melds_labelled_a_quarter_turn_from_the_standing_row_keep_their_claimed_tile(tilt):
    # Seen from low and aside, standing concealed tiles and flat meld tiles show faces a quarter turn apart: the
    # flat uprights carry a sideways label, and the claimed tile, turned a quarter further, the opposite one.
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z | s4s 5s 6s")
    detections, size, order = table.photo(tilt=tilt)
    detections = relabel(detections, order, {11: 90, 12: 270, 13: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m1z c4*56s< +1z")


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_a_loose_tile_beside_a_chows_claimed_tile_is_no_added_kong(photo):
    # A discard lying across the row beside the claimed tile looks like an added kong's fourth tile; its face says
    # otherwise (a chow cannot be a kong), so the chow stands and the loose tile is clutter.
    table = Table().row("1m 4m 4m 4m 6p 6p 6p 7s 8s 9s | 1m | s1p t8s 2p 3p")
    reading, order = read(table, photo)
    assert_hand(reading, "1444m666p789s c1*23p< +1m")
    assert reading.tile_roles[detection_of(order, 12)]["role"] == "clutter"


def test_a_face_down_tile_beside_a_claimed_tile_is_no_added_kong():
    table = Table().row("1m 4m 4m 4m 6p 6p 6p 7s 8s 9s | 1m | s5z 5z 5z")
    claimed = table.tiles[11]
    table.tile("d", claimed["cx"] / 60.0, (claimed["cy"] - 61.0) / 81.0, turn=90)  # lies across, beside it
    reading, order = read(table)
    assert_hand(reading, "1444m666p789s p555z< +1m")


@pytest.mark.parametrize("tilt", [0.0, 35.0])
def test_a_row_of_flat_melds_all_labelled_sideways_is_read_by_its_odd_label(tilt):
    # The melds lie in a row of their own in front of the standing row: no upright face in it, yet the one face
    # per meld labelled half a turn from the others marks the claimed tiles (a discard block shows one label).
    table = Table()
    table.row("s4s 5s 6s | 9p 9p 9p s9p", x=1.0, bottom=-1.3)
    table.row("1m 2m 3m 4m 5m 6m 7m | 7m")
    detections, size, order = table.photo(tilt=tilt)
    detections = relabel(detections, order, {0: 270, 1: 90, 2: 90, 3: 90, 4: 90, 5: 90, 6: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, "1234567m c4*56s< k9999p> +7m")


def test_a_row_of_flowers_laid_beyond_the_melds_is_kept_and_a_lone_loose_flower_is_not():
    # The flowers lie in a row of their own well in front of the melds (further than a lone flower may stray);
    # a loose flower face lies elsewhere near the hand: one group of flowers is the hand's, the larger one.
    table = Table()
    table.row("1f 6f", x=3.0, bottom=-5.4)
    table.row("s4s 5s 6s | 9p 9p s9p", x=1.0, bottom=-1.3)
    table.row("1m 2m 3m 4m 5m 6m 7m | 7m")
    table.tile("3f", x=-2.5, y=1.6)
    reading, order = read(table)
    assert_hand(reading, "1234567m c4*56s< p999p> +7m 16f")
    assert reading.tile_roles[detection_of(order, len(table.tiles) - 1)]["role"] == "clutter"


@pytest.mark.parametrize("tilt", [0.0, 30.0])
def test_a_set_apart_meld_whose_tiles_all_carry_one_sideways_label_is_a_meld_claimed_at_its_left_end(tilt):
    # Flat meld tiles beside a standing row, the claimed tile's label quantised with its neighbours': no label shows
    # which tile is claimed. Set apart after the winning tile, they are still a meld; a chow's claimed tile is at
    # its left end (it is only ever claimed from the left).
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z || 4s 5s 6s")
    detections, size, order = table.photo(tilt=tilt)
    detections = relabel(detections, order, {11: 270, 12: 270, 13: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m1z c4*56s< +1z")
    assert "claimed_tile_assumed" not in reading.warning_codes  # a chow's claimed tile is known by rule


def test_a_pung_whose_claimed_tile_no_label_shows_is_read_with_a_warning():
    # The same for a pung: its direction is a guess (from the left), and the reading says so.
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z || 5s 5s 5s")
    detections, size, order = table.photo()
    detections = relabel(detections, order, {11: 270, 12: 270, 13: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m1z p555s< +1z")
    assert "claimed_tile_assumed" in reading.warning_codes


@pytest.mark.parametrize("tokens,direction", [("s5s 5s 5s", "<"), ("5s 5s s5s", ">")])
def test_a_pung_whose_labels_show_no_claimed_tile_takes_it_from_the_longer_steps_at_an_end(tokens, direction):
    # The same pung with its claimed tile really lying sideways at an end: the centre steps beside it are longer
    # (it lies along the row), which tells the end though every label is alike; no warning is needed.
    table = Table().row(f"1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z || {tokens}")
    detections, size, order = table.photo()
    detections = relabel(detections, order, {11: 270, 12: 270, 13: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, f"123456789m1z p555s{direction} +1z")
    assert "claimed_tile_assumed" not in reading.warning_codes


def test_three_sideways_labels_inside_a_line_of_touching_discards_are_no_meld():
    # A row of discards, half of it labelled sideways where the view turns it across 45°, lies beyond a hand that
    # lacks a meld: no meld is cut out of the discards (a meld is set apart), so no hand is made up from them.
    table = Table()
    table.row("3p 7s 7s 7s 9m 4z", x=1.0, bottom=-2.5)
    table.row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z | 1z")
    detections, size, order = table.photo()
    detections = relabel(detections, order, {1: 270, 2: 270, 3: 270})
    reading = read_hand(detections, size)
    assert reading.hand is None
    assert "wrong_tile_count" in reading.warning_codes
    assert all(reading.tile_roles[detection_of(order, k)]["role"] == "clutter" for k in range(6))


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_an_added_tile_laid_beside_is_found_though_a_loose_tile_or_the_melds_tile_lies_near_it(photo):
    # The tile beside the claimed one has a loose tile half a width off along its row: it still lies alone (no
    # tile touches it), so the meld is an added kong; the added tile is the one further from the winner.
    table = Table().row("1m 4m 4m 4m 6p 6p 6p 7s 8s 9s | 1m | 2p 2p s2p t2p")
    base = table.tiles[-2]
    table.tile("8m", x=(base["cx"] + 60.0 * 1.35 + 0.5 * 60.0) / 60.0, y=(base["cy"] - 61.0) / 81.0, turn=90)
    reading, order = read(table, photo)
    assert_hand(reading, "1444m666p789s a2222p> +1m")


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_an_added_tile_laid_beside_is_found_though_both_it_and_the_claimed_tile_touch_tiles_of_their_own(photo):
    # R42 (docs/rules-session35.md): the tile laid beside the claimed one touches a back lying a third of a tile
    # height off its line (the wall, or the next meld seen under perspective), and the claimed tile touches its
    # meld's upright tile, in line with it: each has a row neighbour of its own, so "the added tile is the one
    # without" cannot tell them; the lines can, and the meld is an added kong, not a pung beside a stray tile.
    table = Table().row("1m 4m 4m 4m 6p 6p 6p 7s 8s 9s | 1m | 2p 2p s2p t2p")
    added = table.tiles[-1]
    table.tile("d", x=(added["cx"] + 81.0 / 2 + 1.0 + 60.0 / 2) / 60.0, y=(added["cy"] + 0.32 * 81.0) / 81.0)
    reading, order = read(table, photo)
    assert_hand(reading, "1444m666p789s a2222p> +1m")


@pytest.mark.parametrize("tilt", [0.0, 20.0])
def test_a_kong_with_a_second_sideways_label_apart_from_the_claimed_one_is_claimed_by_its_box(tilt):
    # An upright tile of a flat kong carries a sideways label half a turn from the claimed tile's: two sideways
    # labels apart fit no layout; the claimed tile is the one whose box lies sideways.
    table = Table().row("1m 4m 4m 4m 6p 6p 6p 7s 8s 9s | 1m | s1p 1p 1p 1p")
    detections, size, order = table.photo(tilt=tilt)
    detections = relabel(detections, order, {13: 270})
    reading = read_hand(detections, size)
    assert_hand(reading, "1444m666p789s k1111p< +1m")


def test_a_lone_sideways_label_in_a_row_turned_near_45_degrees_stays_a_concealed_tile():
    # The row lies 38° off the labels' axes: one concealed tile's label flipped to sideways. A pung from across
    # cut out around it (swallowing the winning tile) would explain it as well as a flip; near 45° a flip is cheap.
    table = Table().row("5m 5m 5m 6m 6m 7m 7m 8m 4p 4p 4p 1z 1z | 1z")
    detections, size, order = table.photo(tilt=38.0)
    detections = relabel(detections, order, {12: 90})
    reading = read_hand(detections, size)
    assert_hand(reading, "55566778m444p11z +1z")


@pytest.mark.parametrize("tilt", [0.0, 15.0])
def test_the_concealed_run_is_not_cut_where_its_tiles_touch_to_make_a_meld_of_a_flipped_label(tilt):
    # The standing tile at the left end of the concealed row carries a sideways label (the view's perspective): a
    # pung from the left cut off there would explain it, but the concealed run is set apart from melds, not touching.
    # Standing tiles show their sides too: their boxes overlap their neighbours' by about 0.15 tile widths.
    table = Table().row("2m 2m 2m 6m 6m 6m 1p 1p 1p 1z | 1z || s2s 3s 4s")
    detections, size, order = table.photo(tilt=tilt)
    detections = relabel(detections, order, {0: 270})
    boxes = detections.boxes.copy()
    standing = [detection_of(order, k) for k in range(11)]
    widen = 0.08 * (boxes[standing, 2] - boxes[standing, 0])
    boxes[standing, 0] -= widen
    boxes[standing, 2] += widen
    detections = Detections(boxes, detections.class_ids, detections.confidence, detections.rotation,
                            detections.topk_ids, detections.topk_probs)
    reading = read_hand(detections, size)
    assert_hand(reading, "222666m111p1z c2*34s< +1z")


def test_a_meld_tile_labelled_half_a_turn_from_its_neighbours_is_the_claimed_one():
    # Neighbouring flat tiles show nearly one angle; the claimed tile, turned a quarter further and rounded across
    # the 45° line, may carry a label half a turn from theirs (and none sideways).
    table = Table().row("1m 4m 4m 4m 7s 8s 9s | 1m || 5s 5s 5s || 7z 7z 7z 7z")
    detections, size, order = table.photo()
    detections = relabel(detections, order, {9: 180, 13: 180})
    reading = read_hand(detections, size)
    assert_hand(reading, "1444m789s p555s^ k7777z^ +1m")


@pytest.mark.parametrize("tilt", [52.0, -55.0, 60.0])
def test_rows_further_than_45_degrees_off_the_labels_are_read_along_their_own_direction(tilt):
    # Seen from low and aside, the rows of a photo can lie more than 45° off the axes of the faces' rotation labels
    # (standing faces seen at a slant keep their labels while the rows turn): the labels say "no turn", the rows run
    # at ``tilt``. Folded into ±45° the rows would be read across, tile by tile.
    table = Table()
    table.row("s6m 7m 8m | 5z 5z s5z", x=1.0, bottom=-1.2)  # chow from the left, pung from the right
    table.row("2m 3m 4m 7p 7p 1s 1s | 1s")
    detections, size, order = table.photo(turn=0, tilt=tilt)
    sideways = {k for k, t in enumerate(table.tiles) if t["turn"] == 90}
    labels = np.array([90 if order[i] in sideways else 0 for i in range(len(order))], np.int32)
    lagging = with_rotations(detections, labels)
    reading = read_hand(lagging, size)
    assert_hand(reading, "234m77p11s c6*78m< p555z> +1s")


@pytest.mark.parametrize("tilt", [-44.0, -40.0])
def test_near_45_degrees_a_label_135_degrees_from_the_rows_marks_the_claimed_tile(tilt):
    # Seen from above with the rows turned near 45°, upright faces carry either quarter turn beside the rows'
    # direction (here 270 or 0), and so may a claimed face, turned a quarter further; but a claimed face may also
    # carry the label half a turn from an upright's (180), which marks it whatever its neighbours' labels say
    # (here both chows show a sideways label on their middle tile, as if claimed from across).
    table = Table(gap=1.0).row("1m 2m 3m 3p 5p 4s 4s | 4p | s4p 3p 5p | s3m 2m 4m")
    detections, size, order = table.photo(turn=0, tilt=tilt)
    by_table_tile = [270, 0, 270, 270, 0, 270, 270, 270, 180, 270, 0, 180, 270, 0]
    labels = np.array([by_table_tile[k] for k in order], np.int32)
    flipped = with_rotations(detections, labels)
    reading = read_hand(flipped, size)
    assert_hand(reading, "123m35p44s c34*5p< c23*4m< +4p")


@pytest.mark.parametrize("tilt", [33.0, 38.0, -33.0, -38.0])
def test_a_label_half_a_turn_off_is_no_claimed_tile_where_the_orientation_head_names_another(tilt):
    # R44 (docs/rules-session35.md): rows past 30 degrees, a chow's upright 5p labelled half a turn off (the
    # classifier's half-turn error) while the orientation head calls its claimed 4p sideways and the others not: the
    # label does not make the 5p the claimed tile (that would claim a chow from the right, which fits nothing).
    from dataclasses import replace

    table = Table(gap=1.0).row("1m 2m 3m 3p 5p 4s 4s 7z 7z 7z | 4p | s4p 3p 5p")
    detections, size, order = table.photo(turn=0, tilt=tilt)
    by_table_tile = [0] * 11 + [90, 0, 180]
    labels = np.array([by_table_tile[k] for k in order], np.float32)
    sideways = np.array([1.0 if order[i] == 11 else 0.02 for i in range(len(order))], np.float32)
    flipped = replace(with_rotations(detections, labels.astype(np.int32)), sideways_probability=sideways)
    reading = read_hand(flipped, size)
    assert_hand(reading, "123m35p44s777z c34*5p< +4p")


@pytest.mark.parametrize("tilt", [33.0, 40.0])
def test_a_flower_labelled_like_the_flipped_hand_tiles_beside_it_is_upright(tilt):
    # Rows tilted past ~30°: upright faces on one side of the photo carry the next quarter turn's label (90), and
    # so does the flower laid upright beside them; it is not a loose tile turned sideways.
    table = Table().row("7f || 9m 9m 2p 2p 3p 3p 3p 4s 4s 4s 7z 7z 7z | 2p")
    detections, size, order = table.photo(turn=0, tilt=tilt)
    by_table_tile = [90] + [0] * 9 + [90] * 5
    labels = np.array([by_table_tile[k] for k in order], np.int32)
    flipped = with_rotations(detections, labels)
    reading = read_hand(flipped, size)
    assert_hand(reading, "99m22333p444s777z +2p 7f")


def test_a_loose_sideways_tile_near_a_melds_end_is_not_taken_into_a_kong():
    # A discard lying sideways half a tile width after the last chow: read into it, the chow becomes a "kong" with
    # a second sideways label (a flipped label), which no faces fit; the chow and a loose tile must stay in reach.
    table = Table(gap=0.9)
    table.row("2s 3s 4s 5s 7s 5z 5z | 6s | s3s 2s 4s | s3p 2p 4p")
    table.row("s9p", x=table.tiles[-1]["cx"] / 60.0 + 0.5 + 0.45, bottom=0.0)
    reading, _ = read(table)
    assert_hand(reading, "23457s55z c23*4s< c23*4p< +6s")


@pytest.mark.parametrize("sideways_back", [0, 3])
def test_four_backs_are_a_concealed_kong_though_one_is_labelled_sideways(sideways_back):
    # A back looks alike every way up, so its rotation label may say anything: four backs in a row after the
    # winning tile are still the concealed kong. (Two loose backs labelled sideways beside a pung are no kong:
    # the kong's usual two-up pattern has its backs at the ends.)
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d d")
    detections, size, order = table.photo()
    labels = np.array([90 if k == 11 + sideways_back else 0 for k in order], np.int32)
    relabelled = with_rotations(detections, labels)
    reading = read_hand(relabelled, size, concealed_kong_tiles=["6z"])
    assert_hand(reading, "123m555p888s3z x6666z +3z")


@pytest.mark.parametrize("sideways", [(11,), (11, 14), (12,)], ids=["one back", "both backs", "one face"])
def test_back_face_face_back_is_a_concealed_kong_whatever_its_labels(sideways):
    # A back's label comes from its box's shape, near square for a flat tile seen from low, and a face's may flip:
    # back, face, face, back is still the concealed kong (no claimed meld shows a back). Development scenes lost
    # such kongs as clutter, and their hands with them.
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d 2s 2s d")
    detections, size, order = table.photo()
    labels = np.array([90 if k in sideways else 0 for k in order], np.int32)
    reading = read_hand(with_rotations(detections, labels), size)
    assert_hand(reading, "123m555p888s3z x2222s +3z")


def test_a_flat_meld_in_a_row_of_its_own_labelled_like_the_hands_flipped_tiles_is_a_meld():
    # Seen from low: the concealed row's left part and the flat chow laid in a row of its own all carry the label a
    # quarter turn on (90), the claimed tile too. The hand's own flipped tiles show that label means "upright" here,
    # so the three are a meld whose claimed tile no label shows: its left end, from the left (a chow's rule).
    table = Table()
    table.row("9s 7s 8s", x=1.0, bottom=-1.2)
    table.row("8m 8m 8m 3p 3p 7p 7p 7p 8s 8s | 8s")
    detections, size, order = table.photo()
    by_table_tile = [90] * 3 + [90] * 7 + [0] * 4
    labels = np.array([by_table_tile[k] for k in order], np.int32)
    flipped = with_rotations(detections, labels)
    reading = read_hand(flipped, size)
    assert_hand(reading, "888m33777p88s c789*s< +8s")


def test_three_sideways_discards_in_a_row_of_their_own_with_another_label_stay_loose():
    # The same layout with the row of three labelled 270 (the other way from the hand's flipped tiles): discards
    # turned the other way, never a meld, though as one they would complete the tile count.
    table = Table()
    table.row("9s 7s 8s", x=1.0, bottom=-1.2)
    table.row("8m 8m 8m 3p 3p 7p 7p 7p 8s 8s | 8s")
    detections, size, order = table.photo()
    by_table_tile = [270] * 3 + [90] * 7 + [0] * 4
    labels = np.array([by_table_tile[k] for k in order], np.int32)
    flipped = with_rotations(detections, labels)
    reading = read_hand(flipped, size)
    assert reading.hand is None and "wrong_tile_count" in reading.warning_codes
    assert {reading.tile_roles[detection_of(order, k)]["role"] for k in range(3)} == {"clutter"}


@pytest.mark.parametrize("tilt", [20.0, 28.0])
def test_a_flat_flower_labelled_a_quarter_turn_off_the_standing_row_is_the_hands(tilt):
    # Seen from low and aside, a flower lying flat in front of a standing row shows its face turned from the
    # standing faces' by up to ~75° in the photo, so with the rows tilted its label falls on the next quarter turn.
    table = Table().row("9m 9m 2p 2p 3p 3p 3p 4s 4s 4s 7z 7z 7z | 2p")
    table.row("3f", x=4.0, bottom=1.6)
    detections, size, order = table.photo(turn=0, tilt=tilt)
    detections = relabel(detections, order, {14: 90})
    reading = read_hand(detections, size)
    assert_hand(reading, "99m22333p444s777z +2p 3f")


def test_a_lone_flower_in_a_line_of_discards_with_a_gap_beside_it_is_not_the_hands():
    # A block of discards in rows, one missing beside the flower face: it lies in line with them, a tile's width
    # away, as no flower of the hand is laid.
    table = Table()
    table.row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 5z 5z | 5z")
    table.row("3p 7s 9m | 4f | 4z 2s", x=2.0, bottom=-2.6)
    reading, order = read(table)
    assert_hand(reading, "123456789m1155z +5z")
    assert reading.tile_roles[detection_of(order, 17)]["role"] == "clutter"


@pytest.mark.parametrize("flipped", [11, 14])
def test_an_added_kong_with_one_uprights_label_flipped_is_still_an_added_kong(flipped):
    # Two sideways labels in the three tiles of the row, and a tile laid beside one of them: that one is the claimed
    # tile (the other label is an upright tile's, flipped where perspective turns the row across 45°).
    table = Table().row("1m 2m 3m 4m 5m 6m 7p 8p 9p 5s | 5s || 7z s7z t7z 7z")
    detections, size, order = table.photo()
    detections = relabel(detections, order, {flipped: 90})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456m789p5s a7777z^ +5s")


@pytest.mark.parametrize("x", [0.0, 4.0, 8.0])
def test_the_concealed_row_is_the_one_nearest_the_winner_not_a_loose_pair_beyond_the_melds(x):
    # The concealed tile and the winning tile in front of the winner, the four melds laid in front of them, and a
    # loose pair beyond the melds: either pair makes the same legal hand with the melds, but melds are never laid
    # between the winner and the concealed row.
    table = Table().row("2p | 2p")
    table.row("s1m 2m 3m | 5p s5p 5p | 7s 7s s7s | s9m 9m 9m", x=1.0, bottom=-1.3)
    table.row("3p | 3p", x=x, bottom=-2.8)
    reading, _ = read(table)
    assert_hand(reading, "2p c1*23m< p555p^ p777s> p999m< +2p")


def test_three_backs_are_a_concealed_kong_with_a_back_missed():
    # the recogniser lost one of the kong's four backs: the tile count needs a kong, and three backs set apart give it
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | d d d")
    detections, size, _ = table.photo()
    reading = read_hand(detections, size, concealed_kong_tiles=["6z"])
    assert same_hand(reading.hand, Hand.parse("123m555p888s3z x6666z +3z"))


@pytest.mark.parametrize("photo", PHOTOS)
@pytest.mark.parametrize("concealed_kong_tiles", [None, ["5z"]])
def test_three_backs_one_of_them_turned_are_a_claimed_pung_of_blank_white_dragons(photo, concealed_kong_tiles):
    # A pung of white dragons claimed from across, in a set whose 5z is a blank face: the classifier names all three
    # backs (5z second). No concealed kong is laid with a tile turned, so the three are no kong whose fourth back was
    # missed (R75), even where the request names a concealed kong of 5z: read face up, a pung.
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | 5z s5z 5z")
    blank = [(None, 0.76), ("5z", 0.18), ("9p", 0.01)]
    turn, tilt, perspective, jitter = photo
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter,
                                      misread={11: blank, 12: blank, 13: blank})
    reading = read_hand(detections, size, concealed_kong_tiles=concealed_kong_tiles)
    assert_hand(reading, "123m555p888s3z p555z^ +3z")


@pytest.mark.parametrize("photo", PHOTOS)
def test_a_white_dragon_labelled_half_a_turn_off_is_no_claimed_tile(photo):
    # A pung of white dragons claimed from the left: the claimed tile's label came out upright (the head holds it
    # sideways at 0.3 only) and the middle tile's half a turn off the others'. A 5z looks the same either way up, so
    # that label is the classifier's guess and marks no claimed tile (R76b): the head's likeliest sideways tile does.
    from dataclasses import replace

    turn, tilt, perspective, jitter = photo
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | s5z 5z 5z")
    detections, size, order = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    claimed, middle = detection_of(order, 11), detection_of(order, 12)
    upright = int(round((turn + tilt) / 90.0)) % 4 * 90
    rotation = detections.rotation.copy()
    rotation[claimed] = upright
    rotation[middle] = (upright + 180) % 360
    sideways = np.full(len(detections), 0.98 if upright % 180 == 90 else 0.02)  # (image-relative)
    sideways[claimed] = 0.7 if upright % 180 == 90 else 0.3
    reading = read_hand(replace(detections, rotation=rotation, sideways_probability=sideways), size)
    assert_hand(reading, "123m555p888s3z p555z< +3z")


def test_a_box_straddling_two_concealed_tiles_is_left_out():
    # the localiser boxed the gap between two tiles as a tile of its own: the row holds one box too many, so the count
    # would drop the set-apart winning tile; read without the stray box the hand is whole
    table = Table().row("1m 2m 3m 5p 5p 5p 8s 8s 8s 3z | 3z | s4s 5s 6s")
    detections, size, order = table.photo(shuffle=False)
    a, b = detections.boxes[1], detections.boxes[2]
    stray = (a + b) / 2
    boxes = np.concatenate([detections.boxes, stray[None]])
    ids = np.concatenate([detections.topk_ids, [[FACE_CODES.index("2m"), 41, 40]]])
    probs = np.concatenate([detections.topk_probs, [[0.5, 0.2, 0.1]]])
    crowded = Detections(boxes, ids[:, 0], probs[:, 0], np.concatenate([detections.rotation, [0]]), ids, probs)
    reading = read_hand(crowded, size)
    assert same_hand(reading.hand, Hand.parse("123m555p888s3z c4*56s< +3z"))
    assert reading.tile_roles[len(detections)].get("duplicate")


@pytest.mark.parametrize("photo", PHOTOS)
def test_a_lone_back_boxed_between_the_rows_leaves_the_flowers_the_hands(photo):
    # R81 (docs/rules-session46.md, held-out 8709 000110): the flowers lie in a row just behind the concealed one and
    # the localiser boxes a back between the rows, across the first flower. In the flowers' row it touches that
    # flower, which made it a loose tile, and the next, and so on; a back touching no other back is no piece of
    # the wall, so it makes no flower loose.
    turn, tilt, perspective, jitter = photo
    table = Table().row("1m 1m 1m 2m 3m 4m 5p 6p 7p 9s 9s 9s 5s | 5s")
    table.row("1f 2f 3f 4f 5f", x=0.5, bottom=-1.05)
    table.tile("d", 1.0, -1.15)
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    assert_hand(read_hand(detections, size), "111234m567p5999s +5s 12345f")


@pytest.mark.parametrize("photo", PHOTOS)
def test_a_flower_against_a_line_of_backs_stays_a_loose_tile(photo):
    # The other side of R81: two backs touching make a piece of the wall, and a flower against them is the wall's.
    turn, tilt, perspective, jitter = photo
    table = Table().row("1m 1m 1m 2m 3m 4m 5p 6p 7p 9s 9s 9s 5s | 5s").row("d d 3f", x=3.0, bottom=-1.4)
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    assert_hand(read_hand(detections, size), "111234m567p5999s +5s")


def test_a_spurious_box_among_eight_flowers_is_left_out_of_them():
    # A row of the eight flowers with an extra box between two of them, its top-1 a wind at 0.3 with some flower
    # probability: ten flowers no hand holds; the eight cheapest stay flowers and the hand reads.
    table = Table()
    table.row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 5z 5z | 5z")
    table.row("1f 2f 3f 4f 2z 5f 6f 7f 8f", x=1.0, bottom=1.6)
    extra = 4  # the 2z among the flowers: table tile 14 + 4
    detections, size, order = table.photo(misread={14 + extra: [("2z", 0.3), ("5f", 0.2), ("6f", 0.15)]})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m1155z +5z 12345678f")
    assert reading.tile_roles[detection_of(order, 14 + extra)]["role"] == "clutter"


@pytest.mark.parametrize("photo", PHOTOS[:3])
def test_a_lone_flower_against_a_loose_tile_away_from_the_hand_is_not_the_hands(photo):
    # A loose tile lies beyond the hand with a flower face against its far side, in a row of its own (so no row test
    # sees the two together): a flower lying against a loose tile, apart from the hand, is one of the loose tiles
    # (R47); the same flower alone at that place is the hand's.
    table = Table()
    table.row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 5z 5z | 5z")
    table.tile("4f", x=4.5, y=-3.35)
    alone, _ = read(table, photo)
    assert_hand(alone, "123456789m1155z +5z 4f")
    table.tile("7p", x=4.5, y=-2.3)
    reading, order = read(table, photo)
    assert_hand(reading, "123456789m1155z +5z")
    assert reading.tile_roles[detection_of(order, 14)]["role"] == "clutter"


@pytest.mark.parametrize("photo", PHOTOS[:3])
def test_a_lone_flower_beside_a_box_named_unsurely_stays_the_hands(photo):
    # The same place, but the box against the flower is one the classifier cannot name (a back at 0.22, as a
    # spurious box at the picture's corner is): weak evidence of a loose tile, so the flower stays the hand's (R48).
    table = Table()
    table.row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 5z 5z | 5z")
    table.tile("4f", x=4.5, y=-3.35)
    table.tile("d", x=4.5, y=-2.3)
    turn, tilt, perspective, jitter = photo
    detections, size, order = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter,
                                          misread={15: [(None, 0.22), ("1m", 0.1), ("2p", 0.05)]})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m1155z +5z 4f")
    assert reading.tile_roles[detection_of(order, 14)]["role"] == "flower"


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_a_hand_laid_out_in_rows_of_sets_reads_as_concealed(photo):
    # As real photos show a hand (hk-photos valid hand_008): one set or the pair a row, the rows stacked away from
    # the player, the flowers in a row of their own, no tile turned and no winning tile set apart, the orientation
    # head holding every tile upright. Each row is a concealed set, not a claimed meld whose claimed tile no label
    # shows (R51); the last tile is taken as the winning tile, with its warning.
    from dataclasses import replace

    table = Table()
    for k, row in enumerate(["3f 7f", "1m 2m 3m", "1m 2m 3m", "5m 6m 7m", "6m 7m 8m", "7z 7z"]):
        table.row(row, bottom=1.05 * k)
    turn, tilt, perspective, jitter = photo
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    upright = replace(detections, sideways_probability=np.full(len(detections), 0.02, np.float32))
    reading = read_hand(upright, size)
    assert_hand(reading, "112233566778m7z +7z 37f")
    assert {"winning_tile_not_set_apart", "rows_read_as_concealed"} <= set(reading.warning_codes)


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_flowers_left_in_the_concealed_row_are_the_hands(photo):
    # As real photos show (hk-photos valid hand_003): the flowers lie in the hand's own row, between its sets, and no
    # winning tile is set apart. They are the hand's flowers, taken out of the concealed run (R52b), not tiles to
    # correct into playing ones or to drop.
    table = Table().row("2z 2z 2z 2f 5f 1p 2p 3p 7z 7z 4p 5p 6p 7p 8p 9p")
    reading, _ = read(table, photo)
    assert_hand(reading, "12345678p22277z +9p 25f")
    assert "winning_tile_not_set_apart" in reading.warning_codes


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_a_second_flower_group_against_the_hand_is_the_hands(photo):
    # As in hk-photos valid hand_014: three flowers in a row of their own, the fourth at the end of the hand's row,
    # touching its last tile. A second group of flowers is taken for a loose tile, unless it lies against a hand tile
    # in line with it (R53).
    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 5z 5z | 5z 3f").row("7f 8f 4f", x=2.0, bottom=1.6)
    reading, _ = read(table, photo)
    assert_hand(reading, "123456789m1155z +5z 3478f")


@pytest.mark.parametrize("photo", PHOTOS[:4])
@pytest.mark.parametrize("rows", [("1m 1m 1m 2m 2m 2m 2m", "3m 3m 3m 3m 4m 5m 5m"),
                                  ("1s 1s 3s 4s 5s 6s 6s 6s 7s", "8s 9s 9s 9s 6s")])
def test_a_hand_laid_out_in_two_rows_reads_as_concealed(photo, rows):
    # As hk-photos train's hand_131-hand_144 show a hand too long for the frame: fourteen tiles in two rows side by
    # side (7 and 7, 9 and 5), every tile upright, none set apart. The second row is the hand's, not fourteen minus
    # seven loose tiles (R55), and the reading says so.
    from dataclasses import replace

    far, near = rows
    table = Table().row(far).row(near, bottom=1.05)
    turn, tilt, perspective, jitter = photo
    detections, size, _ = table.photo(turn=turn, tilt=tilt, perspective=perspective, jitter=jitter)
    upright = replace(detections, sideways_probability=np.full(len(detections), 0.02, np.float32))
    reading = read_hand(upright, size)
    assert reading.hand is not None
    assert sorted(str(t) for t in reading.hand.all_tiles()) == sorted((far + " " + near).split())
    assert not reading.hand.melds
    assert "rows_read_as_concealed" in reading.warning_codes


@pytest.mark.parametrize("photo", PHOTOS[:4])
@pytest.mark.parametrize("row, hand", [
    ("1m 6m 6m 6m 7m 7m 7m 8m 8m 8m 8m 1m 6z 6z 6z", "11666777m666z x8888m +6z"),
    ("1m 1m 2m 2m 2m 2m 3m 4m 5m 6z 6z 6z 7z 7z 7z", "11345m666777z x2222m +7z"),
])
def test_four_alike_in_the_hands_row_are_a_concealed_kong(photo, row, hand):
    # As many hk-photos train pictures show a hand with a kong (hand_019, hand_048, hand_070): fifteen tiles in one row,
    # every one face up and upright, the kong's four alike side by side where the sorted hand puts them, no winning
    # tile set apart. The four are a concealed kong (R56), not a pung and a loose tile cut off the row's end to make
    # fourteen; the reading says so.
    reading = read_upright(Table().row(row), photo)
    assert reading.hand is not None, reading.warnings
    assert sorted(str(t) for t in reading.hand.all_tiles()) == sorted(row.split())
    assert [m.format() for m in reading.hand.melds] == [Hand.parse(hand).melds[0].format()]
    assert "kong_in_row" in reading.warning_codes


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_flowers_beyond_a_kongs_fourth_tile_in_the_row_are_the_hands(photo):
    # As hk-photos train's hand_089 lies: two flowers at the start of the hand's row, touching a pung, and a kong laid
    # out face up further along. The count cuts the pung's first tile off the row, and the flowers touching it are
    # dropped as loose; R56c joins the tile again and R57 keeps the flowers with it.
    row = "5f 1f 6z 6z 6z 4z 4z 4z 4z 6m 6m 4m 4m 4m 8m 8m 8m"
    reading = read_upright(Table().row(row), photo)
    assert reading.hand is not None, reading.warnings
    assert sorted(str(t) for t in reading.hand.all_tiles()) == sorted(row.split()[2:])
    assert sorted(str(t) for t in reading.hand.flowers) == ["1f", "5f"]
    assert [m.format() for m in reading.hand.melds] == ["x4444z"]


@pytest.mark.parametrize("photo", PHOTOS[:4])
def test_a_hand_in_two_rows_may_hold_a_kong(photo):
    # As hk-photos train's hand_053 and hand_068 lie: fifteen tiles in two rows side by side, four alike in one of them,
    # every tile upright. The rows are the hand's (R55b) and the four alike its concealed kong (R58).
    far, near = "1m 1m 6m 6m 6m 7m 7m 7m", "8m 8m 8m 8m 6z 6z 6z"
    reading = read_upright(Table().row(far).row(near, bottom=1.05), photo)
    assert reading.hand is not None, reading.warnings
    assert sorted(str(t) for t in reading.hand.all_tiles()) == sorted((far + " " + near).split())
    assert [m.format() for m in reading.hand.melds] == ["x8888m"]
    assert {"rows_read_as_concealed", "kong_in_row"} <= set(reading.warning_codes)


def test_a_tile_side_boxed_at_the_pictures_edge_is_no_concealed_kongs_back():
    # As in hk-photos valid hand_002: the row starts at the picture's left edge and the side of its first tile is
    # boxed on its own, a sliver named a back. It is no hand tile (R54): the three 6s are a concealed pung, not a
    # concealed kong with that sliver for its back.
    from vision.classes import FACE_DOWN

    table = Table().row("6s 6s 6s 8m 8m 8m 7p 7p 7p 6z 6z 6z 7z | 7z")
    detections, size, order = table.photo(shuffle=False)
    boxes = detections.boxes.astype(np.float32).copy()
    width = float(np.median(boxes[:, 2] - boxes[:, 0]))
    boxes[:, [0, 2]] -= boxes[:, 0].min() - 0.35 * width  # the first tile 0.35 tile widths from the edge
    first = boxes[int(np.argmin(boxes[:, 0]))]
    sliver = np.array([[0.0, first[1], 0.33 * width, first[3]]], np.float32)
    ids = np.concatenate([detections.topk_ids, [[FACE_DOWN, FACE_CODES.index("6s"), 41]]])
    probs = np.concatenate([detections.topk_probs, [[0.7, 0.2, 0.05]]]).astype(np.float32)
    edged = Detections(np.concatenate([boxes, sliver]), ids[:, 0], probs[:, 0],
                       np.concatenate([detections.rotation, [0]]), ids, probs)
    reading = read_hand(edged, (int(boxes[:, 2].max() + 2 * width), size[1]))
    assert_hand(reading, "666s888m777p6667z +7z")
    assert reading.tile_roles[len(detections)]["role"] == "clutter"


@pytest.mark.parametrize("added", ["t2z", "o2z"])
def test_a_corrected_tile_laid_on_a_claimed_one_is_named_by_a_plain_int(added):
    # The tile laid across (or on) an added kong's claimed tile, read as 3z and corrected to 2z: its index came from
    # numpy (geometry.find_stacked) and went into the corrections as numpy.int64, so that json.dumps of the reading
    # (the vision CLI, the API's /v1/photos) raised TypeError.
    import json

    table = Table().row(f"1m 2m 3m 4m 5m 6m 7m 8m 9m 5p | 5p || 2z 2z s2z {added}")
    detections, size, order = table.photo(misread={14: [("3z", 0.6), ("2z", 0.35)]})
    reading = read_hand(detections, size)
    assert_hand(reading, "123456789m5p a2222z> +5p")
    assert [c["tile_index"] for c in reading.corrections] == [detection_of(order, 14)]
    assert all(type(c["tile_index"]) is int for c in reading.corrections)
    json.dumps(reading.to_json())


def test_tiles_whose_every_probability_is_zero_read_without_numpy_warnings():
    # /v1/tiles/score takes a client's confidences; all of them 0 printed numpy's "divide by zero encountered in log"
    # for every tile (session 43's audit): the costs floor the top-1 as they floor the rest, so nothing warns
    import warnings
    from dataclasses import replace

    table = Table().row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 2z 2z | 1z")
    detections, size, _ = table.photo()
    zero = replace(detections, confidence=np.zeros_like(detections.confidence),
                   topk_probs=np.zeros_like(detections.topk_probs))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reading = read_hand(zero, size)
    assert reading is not None


@pytest.mark.parametrize("photo", PHOTOS[:4])
@pytest.mark.parametrize("laid,across", [("o", None), ("t", None), ("t", 0.45)])
def test_an_added_kong_touching_a_chows_claimed_tile_keeps_its_sideways_tiles(photo, laid, across):
    # T49b and T49c (docs/rules-session49.md): an added kong claimed from the right, its fourth tile laid on (or
    # beside) the claimed tile, touches the next meld's claimed tile (a chow's, at its left end). The claimed tile,
    # the added one and the chow's claimed tile are no run of three sideways tiles along the row (which only
    # perspective flipping a row's labels makes): the added tile lies at the claimed tile's place along the row.
    # ``across``: the tile laid beside seen this many tile widths across the row from the claimed one (a full width
    # as laid; development 5151 scene 289 showed it 0.499 across, perspective drawing it in, where it no longer
    # counts as lying across the row)
    table = Table().row(f"1m 2m 3m 7s 8s 9s 1z | 1z | 6p 6p s6p {laid}6p s5m 4m 6m")
    if across is not None:
        claimed, added = table.tiles[-5], table.tiles[-4]
        added["cy"] = claimed["cy"] - across * 60.0
    reading, _ = read(table, photo)
    assert_hand(reading, "123m789s1z a6666p> c45*6m< +1z")
