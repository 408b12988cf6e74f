"""The compiled scoring module (``fast.py`` compiled by Cython, ``engine.mcr.build_fast``) answers as ``fast.py``
itself does, and the engine only uses a compiled module built from the ``fast.py`` beside it."""

from __future__ import annotations

import os
import random

import pytest

import engine.mcr as mcr
from engine.errors import HandError
from engine.hand import Hand
from engine.mcr import compiled, fast
from engine.mcr.build_fast import build_key, up_to_date
from engine.tiles import Tile

from .generator import generate

# .ci/run sets this: there `make setup` must have built the compiled module, so that its comparison cannot pass by
# skipping (the speed target of bench/bench_mcr.py is met by the compiled module).
REQUIRE_COMPILED = os.environ.get("MAHJONG_REQUIRE_COMPILED") == "1"


@pytest.fixture(scope="module")
def compiled_module():
    if mcr.FAST is fast:
        message = f"the engine scores with {mcr.FAST_IMPLEMENTATION}"
        if REQUIRE_COMPILED:
            pytest.fail(message)
        pytest.skip(message)
    assert mcr.FAST_IMPLEMENTATION == compiled.COMPILED
    assert mcr.FAST.__file__ == str(compiled.COMPILED_FILE)  # the extension module, not a source file
    assert mcr.score is mcr.FAST.score
    return mcr.FAST


def _outcome(score, hand, context):
    try:
        result = score(hand, context)
    except HandError as error:
        return ("error", error.code)
    return ("scored", result.total, result.fan_ids, result.to_json())


def test_compiled_module_scores_as_its_source(compiled_module):
    cases = list(generate(4000, seed=7201)) + list(generate(2000, seed=7202, themes=["any"]))
    for hand, context in cases:
        assert _outcome(compiled_module.score, hand, context) == _outcome(fast.score, hand, context), hand.format()


def test_compiled_module_refuses_what_its_source_refuses(compiled_module):
    """Hands one tile away from a winning one: mostly not winning (HandError), some another winning hand."""
    rng = random.Random(7203)
    outcomes = set()
    for hand, context in generate(2000, seed=7204):
        concealed = list(hand.concealed)
        concealed[rng.randrange(len(concealed))] = Tile.from_index(rng.randrange(34))
        try:
            changed = Hand(tuple(concealed), hand.melds, hand.winning_tile, hand.flowers)
        except (HandError, ValueError):  # a fifth copy: refused before scoring, by either module alike
            continue
        expected = _outcome(fast.score, changed, context)
        assert _outcome(compiled_module.score, changed, context) == expected, changed.format()
        outcomes.add(expected[:2] if expected[0] == "error" else expected[0])
    assert ("error", "not_winning") in outcomes and "scored" in outcomes


def test_compiled_module_is_used_only_when_built_from_this_source(tmp_path):
    digest_file = tmp_path / "_fast_c.sha256"
    assert compiled.load(environ={}, digest_file=digest_file) == (fast, compiled.NOT_BUILT)
    digest_file.write_text("0" * 64 + "\n", encoding="ascii")
    with pytest.warns(RuntimeWarning, match="not built from this fast.py"):
        assert compiled.load(environ={}, digest_file=digest_file) == (fast, compiled.STALE)
    assert compiled.load(environ={compiled.PURE_ENV: "1"}, digest_file=digest_file) == (fast, compiled.PURE_REQUESTED)
    # a digest that matches: the extension module where one is built for this interpreter, else fast.py
    other_source = tmp_path / "fast.py"
    other_source.write_text("# not the engine\n", encoding="ascii")
    digest_file.write_text(compiled.source_digest(other_source) + "\n", encoding="ascii")
    module, why = compiled.load(environ={}, digest_file=digest_file, source=other_source)
    if compiled.COMPILED_FILE.exists():
        assert why == compiled.COMPILED and module.__name__ == "engine.mcr._fast_c"
    else:
        assert (module, why) == (fast, compiled.NOT_BUILT)


def test_a_build_is_up_to_date_only_for_its_source_and_recipe(tmp_path):
    pytest.importorskip("Cython")
    source = tmp_path / "fast.py"
    source.write_text("# a source\n", encoding="ascii")
    extension = tmp_path / "_fast_c.so"
    digest_file = tmp_path / "_fast_c.so.sha256"
    digest_file.write_text(f"{compiled.source_digest(source)}\n{build_key()}\n", encoding="ascii")
    assert not up_to_date(extension, digest_file, source)  # no extension
    extension.write_bytes(b"")
    assert up_to_date(extension, digest_file, source)
    digest_file.write_text(f"{compiled.source_digest(source)}\nbuild {'0' * 64}\n", encoding="ascii")
    assert not up_to_date(extension, digest_file, source)  # another recipe or Cython: built again
    # the loader reads the first line only: the source decides what the module answers
    assert compiled.load(environ={}, digest_file=digest_file, source=source)[1] != compiled.STALE
    digest_file.write_text(f"{'0' * 64}\n{build_key()}\n", encoding="ascii")
    assert not up_to_date(extension, digest_file, source)
    digest_file.write_bytes(b"\xff\xfe")
    assert not up_to_date(extension, digest_file, source)
    assert compiled.load(environ={}, digest_file=digest_file, source=source) == (fast, compiled.NOT_BUILT)
