import json

import pytest
from hypothesis import given, settings

from engine import Hand, HandError, Meld, WinContext, read_request
from engine.hand import hands_equal_ignoring_order
from engine.tiles import Tile

from .strategies import any_melds, hands, melds


@given(hands())
def test_hand_string_round_trip(hand):
    assert Hand.parse(hand.format()) == hand
    assert eval(repr(hand)) == hand


@given(hands())
def test_hand_json_round_trip(hand):
    data = json.loads(json.dumps(hand.to_json()))
    assert Hand.from_json(data) == hand


@given(melds())
def test_meld_round_trips(meld):
    meld.validate()
    assert Meld.parse(meld.format()) == meld
    assert Meld.from_json(json.loads(json.dumps(meld.to_json()))) == meld


@settings(max_examples=50)
@given(hands())
def test_generated_hands_validate(hand):
    hand.validate()


def test_interfaces_example_hand_reads():
    data = {
        "concealed": ["1m", "2m", "3m", "4p", "4p"],
        "melds": [
            {"type": "chow", "tiles": ["3s", "4s", "5s"], "from": "left", "claimed": "4s"},
            {"type": "pung", "tiles": ["7z", "7z", "7z"], "from": "across"},
            {"type": "kong", "tiles": ["9p", "9p", "9p", "9p"], "from": "right"},
            {"type": "added_kong", "tiles": ["2s", "2s", "2s", "2s"], "from": "left"},
            {"type": "concealed_kong", "tiles": ["1z", "1z", "1z", "1z"]},
        ],
        "winning_tile": "4p",
        "flowers": ["1f", "6f"],
    }
    # The interfaces example shows all five meld types at once, so it reads but is not a legal count.
    hand = Hand.from_json(data)
    assert hand.format() == "123m44p c34*5s< p777z^ k9999p> a2222s< x1111z +4p 16f"
    assert Hand.from_json(hand.to_json()) == hand
    with pytest.raises(HandError) as info:
        hand.validate()
    assert info.value.code == "wrong_tile_count"


def test_concealed_list_may_include_the_winning_tile():
    a = Hand.from_json({"concealed": list("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 3p 4p".split()), "winning_tile": "4p"})
    b = Hand.parse("123456789m11p23p +4p")
    assert a == b


def test_context_json_round_trip_and_wind_aliases():
    ctx = WinContext.from_json({"rules": "riichi", "seat_wind": "south", "round_wind": "1z", "dora_indicators": "3m",
                                "options": {"aka_dora": True}, "honba": 2})
    assert ctx.seat_wind == "S" and ctx.round_wind == "E" and str(ctx.dora_indicators[0]) == "3m"
    assert WinContext.from_json(json.loads(json.dumps(ctx.to_json()))) == ctx


def test_equal_chows_with_different_claimed_tiles_match_in_any_order():
    a = Hand.parse("1m c3*45s< c34*5s< p777z^ k9999p> +1m")
    b = Hand.parse("1m c34*5s< c3*45s< p777z^ k9999p> +1m")
    assert hands_equal_ignoring_order(a, b)
    assert not hands_equal_ignoring_order(a, Hand.parse("1m c34*5s< c34*5s< p777z^ k9999p> +1m"))


def test_melds_in_any_order_compare_equal():
    assert hands_equal_ignoring_order(Hand.parse("11m p777z^ c123s< k9999p> +1m".replace("11m", "1m")),
                                      Hand.parse("1m k9999p> p777z^ c123s< +1m"))


BAD_HANDS = [
    # (request, expected code)
    ({"concealed": "123m456p789s11z", "winning_tile": "1z"}, "wrong_tile_count"),  # 11 + 1 tiles
    ({"concealed": "123m456p789s11z22z34z", "winning_tile": "1z"}, "wrong_tile_count"),  # 15 tiles
    ({"concealed": "123m456p789s11z4z", "melds": [{"type": "pung", "tiles": "555m", "from": "left"}],
      "winning_tile": "1z"}, "wrong_tile_count"),
    ({"concealed": "11111m2345p678s9s", "winning_tile": "9s"}, "too_many_copies"),  # five 1m
    ({"concealed": "1111m2345p678s99s", "melds": [], "winning_tile": "1m"}, "too_many_copies"),  # 4 + winning
    ({"concealed": "123m456p789s1z", "melds": [{"type": "pung", "tiles": "111z", "from": "left"}],
      "winning_tile": "1z"}, "too_many_copies"),  # 1z x5 across meld, hand and winning tile
    ({"concealed": "123m456p789s111z2z", "winning_tile": "2z", "flowers": ["1f", "1f"]}, "duplicate_flower"),
    ({"concealed": "123m456p789s11z1f", "winning_tile": "2z"}, "flower_in_hand"),
    ({"concealed": "123m456p789s111z2z", "winning_tile": "3f"}, "flower_in_hand"),
    ({"concealed": "123m456p789s111z2z", "winning_tile": "2z", "flowers": ["1m"]}, "flower_in_hand"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "pung", "tiles": "111f", "from": "left"}],
      "winning_tile": "2z"}, "flower_in_hand"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "chow", "tiles": "124s", "from": "left"}],
      "winning_tile": "2z"}, "invalid_chow"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "chow", "tiles": ["8s", "9s", "1p"], "from": "left"}],
      "winning_tile": "2z"}, "invalid_chow"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "chow", "tiles": "123z", "from": "left"}],
      "winning_tile": "2z"}, "invalid_chow"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "pung", "tiles": "112s", "from": "left"}],
      "winning_tile": "2z"}, "unequal_meld_tiles"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "kong", "tiles": "1112s", "from": "left"}],
      "winning_tile": "2z"}, "unequal_meld_tiles"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "kong", "tiles": "111s", "from": "left"}],
      "winning_tile": "2z"}, "invalid_meld"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "triple", "tiles": "111s", "from": "left"}],
      "winning_tile": "2z"}, "invalid_meld"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "concealed_kong", "tiles": "1111s", "from": "left"}],
      "winning_tile": "2z"}, "invalid_meld_source"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "chow", "tiles": "123s", "from": "across"}],
      "winning_tile": "2z"}, "invalid_meld_source"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "pung", "tiles": "111s"}],
      "winning_tile": "2z"}, "invalid_meld_source"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "pung", "tiles": "111s", "from": "behind"}],
      "winning_tile": "2z"}, "invalid_meld_source"),
    ({"concealed": "123m456p111z2z", "melds": [{"type": "chow", "tiles": "123s", "from": "left", "claimed": "4s"}],
      "winning_tile": "2z"}, "claimed_not_in_meld"),
    ({"concealed": "123m456p789s111z2z", "winning_tile": "2x"}, "unknown_tile"),
    ({"concealed": "123m456p789s111z22z", "winning_tile": "3z"}, "winning_tile_not_in_hand"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"self_drawn": True,
      "robbing_kong": True}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"self_drawn": True,
      "kong_replacement": True}}, "contradictory_context"),  # no kong in the hand
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"kong_replacement": True}},
     "contradictory_context"),  # replacement tile is self-drawn
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"robbing_kong": True,
      "last_wall_tile": True}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"robbing_kong": True}},
     "contradictory_context"),  # winner holds another 2z: a robbed pung would make five
    ({"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "4s"}, "context": {
      "rules": "riichi", "robbing_kong": True, "dora_indicators": ["4s"]}},
     "contradictory_context"),  # the robbed pung and the robbed tile are all four 4s: none left to indicate dora
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"seat_wind": "X"}},
     "invalid_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"rules": "hk"}}, "unknown_rules"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"self_drawn": "yes"}},
     "invalid_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"rules": "riichi",
      "ippatsu": True}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p111z2z", "melds": [{"type": "pung", "tiles": "999s", "from": "left"}],
               "winning_tile": "2z"}, "context": {"rules": "riichi", "riichi": True}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"rules": "riichi",
      "blessing": "heaven", "seat_wind": "S", "self_drawn": True}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"rules": "riichi",
      "options": {"akadora": True}}}, "unknown_rules"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"honba": -1}}, "invalid_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"rules": "riichi",
      "honba": 10 ** 30}}, "invalid_context"),  # past MAX_COUNTER: the payment is no real number of points
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"riichi_sticks": 10 ** 4299}},
     "invalid_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"}, "context": {"colour": "red"}},
     "invalid_hand_json"),
    ({"concealed": "123m456p789s111z2z", "winning_tile": "2z", "shape": "x"}, "invalid_hand_json"),
    ({"hand": ["1m"]}, "invalid_hand_json"),
    ({"concealed": "000m456p789s111z2z", "winning_tile": "2z"}, "too_many_copies"),  # one red five of a suit
    # the dora indicators are tiles of the same set: four 1z in the hand leave none to turn up
    ({"hand": {"concealed": "123m456p789s2z", "melds": [{"type": "concealed_kong", "tiles": "1111z"}],
      "winning_tile": "2z"}, "context": {"rules": "riichi", "dora_indicators": ["1z"]}}, "contradictory_context"),
    ({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"},
      "context": {"rules": "riichi", "dora_indicators": ["4z"], "ura_dora_indicators": ["1z", "1z"]}},
     "contradictory_context"),
    ({"hand": {"concealed": "406m456p789s111z2z", "winning_tile": "2z"},
      "context": {"rules": "riichi", "dora_indicators": ["0m"]}}, "contradictory_context"),  # two red 5m
]


@pytest.mark.parametrize("request_data,code", BAD_HANDS, ids=[c for _, c in BAD_HANDS])
def test_bad_hands_give_stable_codes(request_data, code):
    with pytest.raises(HandError) as info:
        read_request(request_data)
    assert info.value.code == code, str(info.value)


def test_a_good_request_reads_nested_and_flat():
    nested = read_request({"hand": {"concealed": "123m456p789s111z2z", "winning_tile": "2z"},
                           "context": {"rules": "mcr", "self_drawn": True}})
    flat = read_request({"concealed": "123m456p789s111z2z", "winning_tile": "2z", "rules": "mcr", "self_drawn": True})
    assert nested == flat
    assert nested[1].self_drawn


@given(any_melds())
def test_meld_string_round_trip_with_red_fives_and_claimed_tiles(meld):
    # a meld of mixed suits lost its claimed tile in format() ("c3p12s<"), so its repr read back as another meld
    assert Meld.parse(meld.format()) == meld
    assert eval(repr(meld)) == meld
    assert Meld.from_json(json.loads(json.dumps(meld.to_json()))) == meld


@pytest.mark.parametrize("token", ["c1**23s<", "c12*3*s<", "c*123s<", "p*777z^", "k9999p*>", "c34*5s*<"])
def test_a_misplaced_claimed_mark_is_refused_with_the_token(token):
    # '*' follows the claimed tile's digit, once (module docstring): "c1**23s" and "c12*3*s" read as c1*23s and
    # c12*3s without a word, and "c*123s" failed on a code 'ss' that the input never held
    with pytest.raises(HandError) as info:
        Meld.parse(token)
    assert info.value.code == "invalid_meld" and repr(token) in info.value.message


def test_a_bare_plus_quotes_its_token():
    with pytest.raises(HandError) as info:
        Hand.parse("123456789m1123p +")
    assert info.value.code == "unknown_tile" and "'+'" in info.value.message


def test_a_chow_without_from_is_the_chow_from_the_left():
    # M23: a chow is always claimed from the left, so the two spellings are one meld; interfaces.md gives every
    # claimed meld a 'from', and the JSON sent back carries it
    bare = Meld.from_json({"type": "chow", "tiles": ["3s", "4s", "5s"]})
    left = Meld.from_json({"type": "chow", "tiles": ["3s", "4s", "5s"], "from": "left"})
    assert bare == left and hash(bare) == hash(left)
    assert bare.to_json() == {"type": "chow", "tiles": ["3s", "4s", "5s"], "from": "left"}
    assert Hand.parse("456p789s11z23s c123m +1s") == Hand.parse("456p789s11z23s c123m< +1s")


def test_a_context_is_hashable_like_the_hand_beside_it():
    # a frozen value: it can key a cache beside its Hand; the generated hash raised TypeError on the options dict
    a = WinContext.from_json({"rules": "riichi", "options": {"aka_dora": True}, "dora_indicators": ["3m"]})
    b = WinContext.from_json({"rules": "riichi", "options": {"aka_dora": True}, "dora_indicators": "3m"})
    assert a == b and hash(a) == hash(b)
    assert len({a, b, WinContext()}) == 2


@pytest.mark.parametrize("field,value", [("melds", {}), ("melds", 0), ("melds", False), ("flowers", 0),
                                         ("flowers", False), ("flowers", {})])
def test_melds_and_flowers_that_are_no_lists_are_refused(field, value):
    # {} or 0 is not "no melds": it was read as an empty list, so a malformed hand was scored as another one
    data = {"concealed": "123456789m1123p", "winning_tile": "4p", field: value}
    with pytest.raises(HandError) as info:
        Hand.from_json(data)
    assert info.value.code in ("invalid_hand_json", "unknown_tile") and repr(value) in info.value.message
    assert Hand.from_json({**data, field: None}) == Hand.from_json({**data, field: []})


_HAND = {"concealed": "123456789m11p23p", "winning_tile": "4p"}


@pytest.mark.parametrize("hand, context, field, value", [
    ({**_HAND, "concealed": 5}, {}, "concealed", 5),
    ({**_HAND, "concealed": ["1m", 7]}, {}, "concealed", 7),
    ({**_HAND, "winning_tile": 4}, {}, "winning_tile", 4),
    ({**_HAND, "winning_tile": ["4p"]}, {}, "winning_tile", ["4p"]),
    ({"concealed": "123456789m11p", "winning_tile": "4p", "melds": [{"type": "chow", "tiles": 5, "from": "left"}]},
     {}, "tiles", 5),
    ({"concealed": "123456789m11p", "winning_tile": "4p",
      "melds": [{"type": "chow", "tiles": ["1s", 2, "3s"], "from": "left"}]}, {}, "tiles", 2),
    ({"concealed": "123456789m11p", "winning_tile": "4p",
      "melds": [{"type": "chow", "tiles": "123s", "from": "left", "claimed": 2}]}, {}, "claimed", 2),
    ({**_HAND, "flowers": [None]}, {}, "flowers", None),
    ({**_HAND, "flowers": 3}, {}, "flowers", 3),
    (_HAND, {"rules": "riichi", "dora_indicators": [True]}, "dora_indicators", True),
    (_HAND, {"rules": "riichi", "riichi": True, "ura_dora_indicators": {"a": 1}}, "ura_dora_indicators", {"a": 1}),
])
def test_a_tile_field_of_the_wrong_json_type_is_a_shape_error_naming_field_and_value(hand, context, field, value):
    # ERROR_CODES: invalid_hand_json is "a wrong shape, type or unknown field" of the hand or context JSON; unknown_tile
    # is "a tile code or MPSZ string that cannot be read". A number where a code belongs is no code at all: it was
    # answered unknown_tile, so a client fixing "unknown tiles" looked for a misspelt code that was never sent.
    with pytest.raises(HandError) as info:
        read_request({"hand": hand, "context": context})
    # a context value of the wrong type is invalid_context, as a boolean or an integer of the wrong type is there
    assert info.value.code == ("invalid_context" if context else "invalid_hand_json")
    assert repr(field) in info.value.message and repr(value) in info.value.message
    # a string that is no code stays unknown_tile
    with pytest.raises(HandError) as info:
        read_request({"hand": {**_HAND, "winning_tile": "4x"}, "context": {}})
    assert info.value.code == "unknown_tile"


def test_a_plain_five_names_the_red_five_the_hand_shows():
    """interfaces.md: ``0m 0p 0s`` are "a 5 of that suit for every other purpose". A claimed 5s names a chow's 0s, and
    a winning 5p the 0p of a 14-tile list; the tile taken is the one shown, red (refused as claimed_not_in_meld and
    winning_tile_not_in_hand before)."""
    meld = Meld.from_json({"type": "chow", "tiles": ["4s", "0s", "6s"], "from": "left", "claimed": "5s"})
    meld.validate()
    assert meld.claimed == Tile.parse("0s")
    hand = Hand.from_json({"concealed": "123m406p789s11222z", "winning_tile": "5p"})
    assert hand.winning_tile == Tile.parse("0p")
    assert hand.concealed == Hand.parse("123m46p789s11222z +0p").concealed
    # the same face still goes first: a list with both a 5p and a 0p gives up the 5p when 5p is named
    both = Hand.from_json({"concealed": "123m4056p789s1122z", "winning_tile": "5p"})
    assert both.winning_tile == Tile.parse("5p") and Tile.parse("0p") in both.concealed


@pytest.mark.parametrize("context", [[], False, 0, ""])
def test_a_context_that_is_no_object_is_refused(context):
    # [], false, 0 or "" was read as no context at all (`or {}`), and the hand scored under MCR's defaults, as
    # 'melds': {} was read as no melds; null is still no context
    with pytest.raises(HandError) as info:
        read_request({"hand": _HAND, "context": context})
    assert info.value.code == "invalid_hand_json" and "'context'" in info.value.message
    assert read_request({"hand": _HAND, "context": None}) == read_request({"hand": _HAND})


def test_a_context_field_in_the_hand_that_the_context_contradicts_is_refused():
    # a context field may sit in the hand object (the rulebook example file keeps self_drawn there), but where the
    # context names it too with another value, the context's silently won: a riichi request was scored under MCR
    with pytest.raises(HandError) as info:
        read_request({"hand": {**_HAND, "rules": "riichi"}, "context": {"rules": "mcr"}})
    assert info.value.code == "contradictory_context"
    assert "'rules'" in info.value.message and "'riichi'" in info.value.message and "'mcr'" in info.value.message
    # the same value twice says one thing
    hand, context = read_request({"hand": {**_HAND, "self_drawn": True}, "context": {"self_drawn": True}})
    assert context.self_drawn


def test_a_context_field_sent_twice_written_two_ways_is_one_field():
    # "E" and "east", "5p" and ["5p"] read alike: refusing them as contradictory (as the first version of the check
    # did, comparing the values as sent) told the client its two equal values disagreed; null is a field not given
    _, context = read_request({"hand": {**_HAND, "seat_wind": "E"}, "context": {"seat_wind": "east"}})
    assert context.seat_wind == "E"
    _, context = read_request({"hand": {**_HAND, "rules": "riichi", "dora_indicators": "5p"},
                               "context": {"rules": "riichi", "dora_indicators": ["5p"]}})
    assert [str(t) for t in context.dora_indicators] == ["5p"]
    _, context = read_request({"hand": {**_HAND, "seat_wind": "S"}, "context": {"seat_wind": None}})
    assert context.seat_wind == "S"  # the hand's value, not the default's
    with pytest.raises(HandError) as info:
        read_request({"hand": {**_HAND, "seat_wind": "S"}, "context": {"seat_wind": "east"}})
    assert info.value.code == "contradictory_context"


@pytest.mark.parametrize("data", [{"context": {"rules": "riichi"}}, {"Hand": _HAND, "context": {"rules": "riichi"}},
                                  {**_HAND, "context": {"rules": "riichi"}}])
def test_a_context_without_its_hand_says_hand_is_missing(data):
    # read as the flat form, 'context' was named an unknown field ("unknown field(s) ['Hand', 'context']"), which it
    # is not: the hand beside it is what is missing
    with pytest.raises(HandError) as info:
        read_request(data)
    assert info.value.code == "invalid_hand_json"
    assert "needs 'hand'" in info.value.message and "unknown" not in info.value.message


@pytest.mark.parametrize("field, value", [("type", 5), ("type", None), ("type", ["chow"]), ("from", 5),
                                          ("from", ["left"]), ("from", True)])
def test_a_meld_field_of_the_wrong_json_type_is_a_shape_error_naming_field_and_value(field, value):
    # as a tile code's: a number where a word belongs is no word at all. 'type' was answered invalid_meld ("unknown
    # meld type 5") and 'from' invalid_meld_source, beside 'claimed': 5 as invalid_hand_json in the same meld
    meld = {"type": "pung", "tiles": "777z", "from": "left"}
    with pytest.raises(HandError) as info:
        read_request({"hand": {"concealed": "123456789m1p", "melds": [{**meld, field: value}], "winning_tile": "1p"}})
    assert info.value.code == "invalid_hand_json"
    assert repr(field) in info.value.message and repr(value) in info.value.message
    # a word that is no type or seat keeps its own code; a null 'from' is no 'from'
    with pytest.raises(HandError) as info:
        Meld.from_json({**meld, field: "sideways"}).validate()
    assert info.value.code == {"type": "invalid_meld", "from": "invalid_meld_source"}[field]
    assert Meld.from_json({"type": "chow", "tiles": "345s", "from": None}) == Meld.parse("c345s<")
