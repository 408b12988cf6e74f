"""``api.pipeline.choose_winning_tile`` on its own: when it steps aside, and what it keeps when the reader cannot take
the best candidate after all. (The endpoint cases, read by the real reader: tests/api/test_tiles.py.)"""

from __future__ import annotations

from engine import score_request

from api.pipeline import choose_winning_tile, score_each_winning_tile

CONTEXT = {"rules": "mcr"}
HAND = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "1z", "7p", "8p"],
        "melds": [], "winning_tile": "9p", "flowers": []}
CANDIDATES = ["1m", "1z", "2m", "3m", "4m", "5m", "6m", "7m", "7p", "8m", "8p", "9m", "9p"]


def reading(**changes) -> dict:
    out = {"hand": dict(HAND), "warnings": ["no tile set apart"], "warning_codes": ["winning_tile_not_set_apart"],
           "winning_tile_candidates": list(CANDIDATES), "requests": [{"field": "winning_tile",
                                                                       "candidates": list(CANDIDATES)}],
           "tile_roles": [], "score": score_request({"hand": HAND, "context": CONTEXT})}
    out.update(changes)
    return out


def test_each_candidate_is_the_engines_score_of_the_same_tiles():
    for code, answer in score_each_winning_tile(HAND, CANDIDATES, CONTEXT):
        tiles = sorted(HAND["concealed"] + [HAND["winning_tile"]])
        tiles.remove(code)
        assert answer["total"] == score_request({"hand": {"concealed": tiles, "winning_tile": code},
                                                 "context": CONTEXT})["total"]


def test_it_steps_aside_when_the_tile_was_named_or_set_apart():
    for result, named in ((reading(), "5m"), (reading(warning_codes=[]), None)):
        before = dict(result)
        choose_winning_tile(result, CONTEXT, named, lambda code: pytest_fail(code))
        assert result == before


def test_when_the_reader_cannot_take_the_best_candidate_its_own_reading_stays():
    result = reading()
    own_total = result["score"]["total"]
    choose_winning_tile(result, CONTEXT, None, lambda code: {"hand": None, "warnings": ["no hand"]})
    assert result["hand"] == HAND and result["score"]["total"] == own_total
    assert "winning_tile_best_scored" not in result["warning_codes"]
    assert len(result["score_by_winning_tile"]) == len(CANDIDATES)  # the totals are still there for the referee


def pytest_fail(code):
    raise AssertionError(f"the photo must not be read again (asked for {code})")


def test_a_second_reading_that_fails_leaves_the_first_one():
    def broken(code):
        raise RuntimeError("odd layout")

    result = reading()
    choose_winning_tile(result, CONTEXT, None, broken)
    assert result["hand"] == HAND and "winning_tile_best_scored" not in result["warning_codes"]


def test_a_second_reading_drops_the_first_readings_close_alternative_warning():
    # W48's close_alternative names the reading's alternatives: read with 9p assumed, tile 13's 6p (0.35 against
    # 0.6) is 0.58 as probable; read again with the best-scored candidate (2m) it is 0.13 as probable and the
    # alternatives are the second reading's, so the first reading's warning must not stay.
    from tests.hand_reader.builder import Table
    from vision.hand_reader import read_hand

    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 7p 8p 9p")
    detections, size, _ = table.photo(misread={13: [("9p", 0.6), ("6p", 0.35), ("3m", 0.02)]})
    result = read_hand(detections, size).to_json()
    assert "close_alternative" in result["warning_codes"], result["warnings"]
    result["score"] = score_request({"hand": result["hand"], "context": CONTEXT})
    choose_winning_tile(result, CONTEXT, None, lambda code: read_hand(detections, size, winning_tile=code).to_json())
    assert result["hand"]["winning_tile"] != "9p" and "winning_tile_best_scored" in result["warning_codes"]
    assert all(a["relative_probability"] < 0.3 for a in result["alternatives"]), result["alternatives"]
    assert "close_alternative" not in result["warning_codes"], result["warnings"]
    assert len(result["warnings"]) == len(result["warning_codes"])


def test_a_second_reading_replaces_every_warning_the_first_reading_gave_of_its_hand():
    # The first reading's own warnings spoke of its hand (an added kong's alternative hand named with the winning tile
    # it assumed, a correction, a close alternative): after the photo is read again with the best-scored candidate
    # only the second reading's stand, beside the recogniser's and the missing gap's that led to it.
    from tests.hand_reader.builder import Table
    from vision.hand_reader import read_hand

    table = Table().row("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 7p 8p 9p")
    detections, size, _ = table.photo(misread={13: [("9p", 0.6), ("6p", 0.35), ("3m", 0.02)]})
    first = read_hand(detections, size).to_json()
    result = dict(first, warnings=["the picture looked squeezed"] + first["warnings"],
                  warning_codes=["picture_squeezed"] + first["warning_codes"])
    result["warnings"].append("meld 0: its sideways tile (7z) looks slightly lifted: ... (123m +9p)")
    result["warning_codes"].append("added_kong_possible")  # as a first reading with a lifted tile would give it
    result["score"] = score_request({"hand": result["hand"], "context": CONTEXT})
    second = {}

    def reread(code):
        second.update(read_hand(detections, size, winning_tile=code).to_json())
        return dict(second)

    choose_winning_tile(result, CONTEXT, None, reread)
    assert second and result["hand"] == second["hand"]
    codes = result["warning_codes"]
    assert codes[:2] == ["picture_squeezed", "winning_tile_not_set_apart"], codes
    assert codes[2:-1] == second["warning_codes"] and codes[-1] == "winning_tile_best_scored", codes
    assert result["warnings"][2:-1] == second["warnings"]


def test_the_reader_s_own_codes_are_the_warning_codes_but_the_recogniser_s_and_the_service_s():
    from vision.hand_reader import READER_WARNING_CODES, WARNING_CODES

    others = set(WARNING_CODES) - READER_WARNING_CODES
    assert others == {"picture_squeezed", "tiles_small", "hand_assembly_failed", "hand_assembly_unavailable",
                      "winning_tile_best_scored", "red_fives_not_told_apart"}
    assert {"winning_tile_not_set_apart", "close_alternative", "added_kong_possible", "tile_corrected"} \
        <= READER_WARNING_CODES
