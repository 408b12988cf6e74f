"""Bad input gets a stable error code, never a crash; the batch CLI answers one line per line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import HandError, WinContext, score_request
from engine.__main__ import _score_stream
from engine.mcr import score

from ..engine.strategies import hands

ROOT = Path(__file__).resolve().parents[2]


def request(concealed, winning, melds=(), **context):
    return {"hand": {"concealed": concealed, "winning_tile": winning, "melds": list(melds)},
            "context": {"rules": "mcr", **context}}


@pytest.mark.parametrize("data, code", [
    (request("123m456p789s1357z", "2z"), "not_winning"),
    (request("1234m", "1m"), "wrong_tile_count"),
    (request("123m456p789s1122z", "1m"), "not_winning"),
    (request("11111m456p789s11z", "1m"), "too_many_copies"),
    (request("123m456p789s11z23s", "1s", self_drawn=True, robbing_kong=True), "contradictory_context"),
    (request("123m456p789s11z23s", "1s", kong_replacement=True, self_drawn=True), "contradictory_context"),
    (request("123m456p789s111z1s", "1s", last_tile=True), "contradictory_context"),
    (request("123m456p789s11z23s", "1s", seat_wind="X"), "invalid_context"),
    (request("123m456p789s11z23s", "1x"), "unknown_tile"),
    (request("123m456p789s11z2", "1s"), "unknown_tile"),
    ({"hand": "nonsense"}, "invalid_hand_json"),
])
def test_bad_requests_get_stable_codes(data, code):
    result = score_request(data)
    assert result["ok"] is False
    assert result["error"]["code"] == code


def test_a_good_request_gives_the_contract_fields():
    result = score_request(request("123m456p789s11z23s", "1s", self_drawn=True, seat_wind="S"))
    assert result["ok"] is True and result["rules"] == "mcr"
    for key in ("total", "fans", "meets_minimum", "flowers", "payments", "arrangement"):
        assert key in result
    fan = result["fans"][0]
    for key in ("id", "name", "name_zh", "name_ja", "points", "count", "sets"):
        assert key in fan
    assert result["total"] == sum(f["points"] * f["count"] for f in result["fans"])


def test_cli_one_line_out_per_line_in():
    lines = [json.dumps(request("123m456p789s11z23s", "1s")), "not json",
             json.dumps(request("123m456p789s1357z", "2z")),
             json.dumps({"concealed": "123m456p789s11z23s", "winning_tile": "1s", "rules": "mcr", "flowers": ["1f"]})]
    out = io.StringIO()
    _score_stream(io.StringIO("\n".join(lines) + "\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [True, False, False, True]
    assert results[1]["error"]["code"] == "invalid_json"
    assert results[2]["error"]["code"] == "not_winning"
    assert results[3]["flowers"] == 1 and results[3]["total"] == results[0]["total"] + 1


@pytest.mark.parametrize("blank", ["", "   ", "\t", "\r"])
def test_cli_answers_a_blank_line_so_answers_stay_in_step_with_lines(blank):
    # interfaces.md: exactly one JSON line per input line, in order. A blank line was skipped, so every answer after
    # it stood against the line before its own.
    good = json.dumps(request("123m456p789s11z23s", "1s"))
    out = io.StringIO()
    _score_stream(io.StringIO(good + "\n" + blank + "\n" + json.dumps(request("123m456p789s1357z", "2z")) + "\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [True, False, False]
    assert results[1]["error"]["code"] == "invalid_json"
    assert results[2]["error"]["code"] == "not_winning"


@pytest.mark.parametrize("bad_line", [
    '{"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "1s"}, "context": {"honba": ' + "9" * 5000 + "}}",
    '{"hand": ' + "[" * 100_000 + "]" * 100_000 + "}",
])
def test_cli_answers_lines_json_cannot_decode_and_goes_on(bad_line):
    # json.loads raises ValueError (an integer over Python's 4300-digit limit) or RecursionError (deep nesting) for
    # these, not JSONDecodeError: each still gets its invalid_json line, and the next line is scored.
    out = io.StringIO()
    _score_stream(io.StringIO(bad_line + "\n" + json.dumps(request("123m456p789s11z23s", "1s")) + "\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["error"]["code"] == "invalid_json"


def test_cli_answers_a_line_that_is_not_utf8_and_a_file_it_cannot_open(tmp_path, capsys):
    # A file was decoded strictly in 8 KB chunks: one Latin-1 byte stopped the run before any line was answered;
    # a missing file stopped it with a traceback before the files after it.
    from engine.__main__ import main

    good = json.dumps(request("123m456p789s11z23s", "1s")).encode()
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(good + b"\n" + b'{"hand": {"concealed": "caf\xe9", "winning_tile": "1s"}}\n' + good + b"\n")
    assert main(["score", str(tmp_path / "missing.jsonl"), str(mixed)]) == 2
    out, err = capsys.readouterr()
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["ok"] for r in results] == [True, False, True]
    assert results[1]["error"]["code"] == "invalid_json"
    assert "missing.jsonl" in err and "Traceback" not in err


@pytest.mark.parametrize("line, key", [
    # flat: which winning tile? (1s scores, 4s too: the last one silently won)
    ('{"concealed": "123m456p789s11z23s", "winning_tile": "1s", "winning_tile": "4s", "rules": "mcr"}',
     "winning_tile"),
    # nested: two hands in one request; two values of a context flag
    ('{"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "1s"}, "context": {"rules": "mcr"}, '
     '"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "4s"}}', "hand"),
    ('{"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "1s"}, '
     '"context": {"rules": "mcr", "self_drawn": true, "self_drawn": false}}', "self_drawn"),
    ('{"hand": {"concealed": "123m456p789s11z23s", "winning_tile": "1s"}, "context": {"rules": "riichi", '
     '"riichi": true, "options": {"ura_dora": true, "ura_dora": false}}}', "ura_dora"),
    ('{"hand": {"concealed": "123m456p789s11z", "winning_tile": "1s", "melds": [{"type": "chow", "tiles": "234s", '
     '"from": "left", "tiles": "345s"}]}, "context": {"rules": "mcr"}}', "tiles"),
])
def test_cli_refuses_a_key_sent_twice_naming_it(line, key):
    # RFC 8259 leaves an object with two equal names to the reader ("SHOULD be unique"), and readers differ: the
    # line is ambiguous, so it is answered with an error naming the key, and the run goes on
    out = io.StringIO()
    _score_stream(io.StringIO(line + "\n" + json.dumps(request("123m456p789s11z23s", "1s")) + "\n"), out)
    results = [json.loads(text) for text in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["error"]["code"] == "duplicate_key"
    assert repr(key) in results[0]["error"]["message"] and results[0]["error"]["details"] == {"key": key}


def test_cli_answers_a_key_sent_twice_that_is_a_lone_surrogate_and_goes_on():
    # JSON may write a lone surrogate ("\ud800"); the repeated key went back raw in details, which UTF-8 cannot
    # hold: the run stopped with a traceback (UnicodeEncodeError) before answering the line or any after it
    line = '{"\\ud800": 1, "\\ud800": 2}'
    out = io.StringIO()
    _score_stream(io.StringIO(line + "\n" + json.dumps(request("123m456p789s11z23s", "1s")) + "\n"), out)
    out.getvalue().encode("utf-8")  # what stdout does with it
    results = [json.loads(text) for text in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["error"]["code"] == "duplicate_key"
    assert results[0]["error"]["details"] == {"key": "\\ud800"}


def test_cli_writes_to_a_stdout_that_cannot_hold_chinese_names_and_goes_on():
    # a Windows console or redirected file in cp1252: every scored line carries name_zh, and the run stopped at the
    # first with a traceback (UnicodeEncodeError); the line is now written escaped to ASCII
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="cp1252", newline="\n")
    good = json.dumps(request("123m456p789s11z23s", "1s"))
    _score_stream(io.StringIO(good + "\n" + good + "\n"), out)
    results = [json.loads(text) for text in raw.getvalue().decode("cp1252").splitlines()]
    assert [r["ok"] for r in results] == [True, True]
    assert results[0] == score_request(json.loads(good))


def test_cli_stops_quietly_when_its_reader_goes_away(tmp_path):
    # `python -m engine score hands.jsonl | head -n 1`: head exits after the first line, and the next write ended the
    # run with a BrokenPipeError traceback on stderr (cat, grep and jq stop silently; so does vision's CLI)
    batch = tmp_path / "hands.jsonl"
    batch.write_text((json.dumps(request("123m456p789s11z23s", "1s")) + "\n") * 2000)
    run = subprocess.Popen([sys.executable, "-m", "engine", "score", str(batch)], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    assert json.loads(run.stdout.readline())["ok"] is True
    run.stdout.close()
    err = run.stderr.read().decode()
    assert run.wait(timeout=120) != 0 and "Traceback" not in err and "BrokenPipe" not in err, err


contexts = st.builds(lambda flags, seat, prevalent: WinContext(
    self_drawn=flags[0], last_tile=flags[1], last_wall_tile=flags[2], kong_replacement=flags[3],
    robbing_kong=flags[4], seat_wind=seat, round_wind=prevalent),
    st.tuples(*[st.booleans()] * 5), st.sampled_from("ESWN"), st.sampled_from("ESWN"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), contexts)
def test_any_structurally_valid_hand_scores_or_says_why(hand, context):
    try:
        hand.validate()
        context.validate()
        context.check_against(hand)
        result = score(hand, context)
    except HandError as error:
        assert error.code in ("not_winning", "too_many_copies", "wrong_tile_count", "invalid_meld", "invalid_chow",
                              "unequal_meld_tiles", "invalid_meld_source", "claimed_not_in_meld", "duplicate_flower",
                              "flower_in_hand", "contradictory_context")
        return
    json.dumps(result.to_json())
    assert result.total == result.fan_points + result.flowers
    assert result.fan_points >= 1


def test_a_line_for_a_stream_that_names_no_encoding_is_escaped_where_it_cannot_be_written():
    # write_line asks the stream's encoding first; one that names none (a wrapper) over cp1252 still gets its line
    import io

    from engine.json_lines import write_line

    class Unnamed:
        def __init__(self):
            self.raw = io.BytesIO()
            self.inner = io.TextIOWrapper(self.raw, encoding="cp1252", newline="\n")

        def write(self, text):
            return self.inner.write(text)

        def flush(self):
            self.inner.flush()

    out = Unnamed()
    write_line({"name_zh": "\u5e73\u548c"}, out)
    assert json.loads(out.raw.getvalue().decode("cp1252")) == {"name_zh": "\u5e73\u548c"}


def test_riichi_only_context_under_mcr_is_named_in_the_notes():
    # policy H7: MCR uses none of them and says so (it answered in silence: a service audit's finding)
    from engine.scoring import RIICHI_ONLY_FIELDS, score_request

    hand = {"concealed": "123456789m11p23p", "winning_tile": "4p"}
    plain = score_request({"hand": hand, "context": {"rules": "mcr"}})
    assert plain["ok"] and "notes" not in plain
    told = score_request({"hand": hand, "context": {"rules": "mcr", "riichi": True, "dora_indicators": "1111m",
                                                    "honba": 5, "options": {"aka_dora": True}}})
    assert told["total"] == plain["total"]
    assert told["notes"] == ["riichi-only context not used under MCR: options, riichi, dora_indicators, honba"]
    # every context field but the eight MCR reads: a riichi field added later is named too
    from dataclasses import fields

    from engine.hand import WinContext

    mcr_reads = {"rules", "self_drawn", "seat_wind", "round_wind", "last_tile", "last_wall_tile", "kong_replacement",
                 "robbing_kong"}
    assert set(RIICHI_ONLY_FIELDS) == {f.name for f in fields(WinContext)} - mcr_reads
    # the same under riichi rules: no such note
    riichi = score_request({"hand": hand, "context": {"rules": "riichi", "riichi": True}})
    assert not any("MCR" in note for note in riichi.get("notes", []))


def test_the_service_names_them_too():
    from fastapi.testclient import TestClient

    from api.app import create_app

    with TestClient(create_app()) as client:
        body = client.post("/v1/hands/score", json={"hand": "123456789m11p23p +4p",
                                                    "context": {"rules": "mcr", "riichi": True}}).json()
    assert body["ok"] and body["notes"] == ["riichi-only context not used under MCR: riichi"]


def test_a_known_riichi_option_sent_as_null_is_the_rulesets_value_on_both_entry_points():
    # the service dropped it and the CLI refused it (invalid_context): a review's finding; an unknown one stays refused
    from fastapi.testclient import TestClient

    from api.app import create_app
    from engine import Hand
    from engine.scoring import score_request

    hand = "123456789m11p23p +4p"
    plain = {"hand": hand, "context": {"rules": "riichi"}}
    nulled = {"hand": hand, "context": {"rules": "riichi", "options": {"aka_dora": None}}}
    line = json.dumps({**nulled, "hand": Hand.parse(hand).to_json()})
    cli = json.loads(subprocess.run([sys.executable, "-m", "engine", "score"], input=line, text=True,
                                    capture_output=True, cwd=ROOT, timeout=60).stdout)
    with TestClient(create_app()) as client:
        service = client.post("/v1/hands/score", json=nulled).json()
        expected = client.post("/v1/hands/score", json=plain).json()
    assert cli["ok"] and service["ok"] and cli["points"] == service["points"] == expected["points"]
    unknown = score_request({"hand": Hand.parse(hand).to_json(),
                             "context": {"rules": "riichi", "options": {"bogus": None}}})
    assert not unknown["ok"] and unknown["error"]["code"] == "unknown_rules"
