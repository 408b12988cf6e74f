import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import ALL_FACES, HandError, Tile, format_tiles, parse_tiles
from engine.tiles import RED_FIVES

from .strategies import tiles


def test_all_42_faces_and_red_fives_have_distinct_codes():
    codes = [str(t) for t in ALL_FACES + RED_FIVES]
    assert len(codes) == len(set(codes)) == 45
    assert codes[:3] == ["1m", "2m", "3m"] and codes[27] == "1z" and codes[34] == "1f" and codes[41] == "8f"


@given(tiles)
def test_tile_parse_format_round_trip(tile):
    assert Tile.parse(str(tile)) is tile
    assert eval(repr(tile)) is tile


@given(st.lists(tiles, max_size=20))
def test_tile_list_parse_format_round_trip(tile_list):
    assert parse_tiles(format_tiles(tile_list)) == tile_list


def test_mpsz_examples_and_aliases():
    assert [str(t) for t in parse_tiles("123m456p789s11z")] == "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z".split()
    assert [str(t) for t in parse_tiles("ESWNPFC")] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert [str(t) for t in parse_tiles(["5m", "0p", "C"])] == ["5m", "0p", "7z"]
    assert format_tiles(parse_tiles("1m2m3m5z")) == "123m5z"


@pytest.mark.parametrize("bad", ["10m", "8z", "0z", "9f", "0f", "x", "5", "m", "", "55"])
def test_unknown_tile_codes_are_rejected_with_code(bad):
    with pytest.raises(HandError) as info:
        Tile.parse(bad)
    assert info.value.code == "unknown_tile"
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", ["123x", "12m3", "8z", "1m 2", "0z"])
def test_bad_mpsz_strings_are_rejected(bad):
    with pytest.raises(HandError) as info:
        parse_tiles(bad)
    assert info.value.code == "unknown_tile"


def test_predicates_follow_the_rulebook_classes():
    t = Tile.parse
    assert t("1m").is_terminal and t("9s").is_terminal_or_honour and not t("5p").is_terminal
    assert t("1z").is_wind and t("4z").is_wind and t("5z").is_dragon and t("7z").is_honour
    assert t("1f").is_flower and t("8f").is_season and not t("4f").is_season
    assert t("6z").is_green and t("8s").is_green and not t("1s").is_green and not t("5s").is_green
    # 推不倒: dots 1234589, bamboo 245689, White [mcr.md §1]
    assert {str(x) for x in ALL_FACES if x.is_reversible} == set(
        "1p 2p 3p 4p 5p 8p 9p 2s 4s 5s 6s 8s 9s 5z".split())
    assert t("0m").is_red and t("0m").kind is t("5m") and t("0m") != t("5m") and t("0m").index == t("5m").index


def test_ordering_is_by_suit_then_number():
    assert sorted(parse_tiles("1z9s1s9p1p9m1m1f0m5m")) == parse_tiles("1509m19p19s1z1f")


@pytest.mark.parametrize("index", [True, 4.0, [], "4"])
def test_a_tile_index_is_an_integer(index):
    # True == 1 and 4.0 == 4 hash like tile indices; taken as such they made 2m and 5m out of no index at all
    with pytest.raises(HandError) as info:
        Tile(index)
    assert info.value.code == "unknown_tile" and repr(index) in str(info.value)
    assert Tile(4) is Tile.from_index(4) is Tile.parse("5m") and Tile(4, True) is Tile.parse("0m")


@pytest.mark.parametrize("text,code", [("123m10z", "0z"), ("45p9f", "9f"), ("18z", "8z")])
def test_a_bad_code_in_a_tile_string_quotes_the_string(text, code):
    # '0z' alone was never typed: the message names the string it came from as well
    with pytest.raises(HandError) as info:
        parse_tiles(text)
    assert info.value.code == "unknown_tile"
    assert repr(code) in info.value.message and repr(text) in info.value.message
