"""Writes ``engine/mcr/combo_tables.py``: the chow and pung combination fans of every set of chows or pungs a hand
can hold, as the fast path keys them (``fast.chow_part`` up to the order and naming of the suits, ``fast.pung_key``).

    python -m engine.mcr.make_tables      # after a change to engine.mcr.combos or to those keys

Worked out on first use instead, a set of chows never met before costs the combination search (tens of
microseconds); with the tables loaded at import (a few milliseconds) it is one look-up. ``tests/mcr`` checks the
committed tables against :func:`build`.
"""

from __future__ import annotations

import argparse
import base64
import zlib
from itertools import combinations, combinations_with_replacement, permutations
from pathlib import Path
from pprint import pformat

from . import fast

_CHOW_KINDS = tuple(s * 9 + r for s in range(3) for r in range(7))


def build() -> tuple[dict[int, tuple | None], dict[int, tuple], dict[int, tuple[str, ...] | None]]:
    """(any-order chow key -> ``fast.chow_part`` answer, or None where the fans' order may follow the suits';
    ``fast.chow_key`` -> ``fast.chow_part`` answer for those; ``fast.pung_key`` -> ``fast.pung_combo_ids`` answer,
    or None likewise): every 2 to 4 chows (with a 5 pair beside four) in every order of the suits, every 2 to 4
    pungs that may combine (with each honour pair). About 2 s."""
    chows_table: dict[int, tuple | None] = {}
    in_order: dict[int, tuple] = {}
    sensitive = []
    for n in (2, 3, 4):
        for chows in combinations_with_replacement(_CHOW_KINDS, n):
            for pair in ((-1, 4, 13, 22) if n == 4 else (-1,)):
                key = fast.any_order_chow_key(fast.chow_key(chows, pair))
                if key not in chows_table:
                    part = fast.chow_part_of(chows, pair)
                    chows_table[key] = None if fast.order_sensitive(part[0]) else part
                if chows_table[key] is None:
                    sensitive.append((chows, pair))
    # Those whose fans' order may follow the suits': each order of first use of the suits (the chows sorted after
    # each renaming of the suits).
    for chows, pair in sensitive:
        for perm in permutations(range(3)):
            moved = tuple(sorted(perm[f // 9] * 9 + f % 9 for f in chows))
            moved_pair = pair if pair < 0 else perm[pair // 9] * 9 + 4
            key = fast.chow_key(moved, moved_pair)
            if key not in in_order:
                in_order[key] = fast.chow_part_of(moved, moved_pair)
    pungs_table: dict[int, tuple[str, ...] | None] = {}
    for n in (2, 3, 4):
        for pungs in combinations(range(34), n):
            if not fast.pungs_may_combine(sum(1 << f for f in pungs)):
                continue
            for pair in [-1] + [h for h in range(27, 34) if h not in pungs]:
                key = fast.pung_key(pungs, pair)
                if key not in pungs_table:
                    ids = fast.pung_combo_ids_of(pungs, pair)
                    pungs_table[key] = None if fast.order_sensitive(ids) else ids
    return chows_table, in_order, pungs_table


def encode(table: dict) -> tuple[tuple, bytes]:
    """(the distinct answers, the table as ``fast._decode_table`` reads it: the number of keys (4 bytes), each key's
    answer as an index into the answers (one byte each), then the keys in order as hex differences; compressed,
    base 64)."""
    values = sorted(set(table.values()), key=repr)
    assert len(values) <= 256
    index = {value: i for i, value in enumerate(values)}
    keys = sorted(table)
    deltas = [f"{key - previous:x}" for previous, key in zip([0] + keys, keys)]
    raw = len(keys).to_bytes(4, "little") + bytes([index[table[key]] for key in keys]) + " ".join(deltas).encode()
    return tuple(values), base64.b64encode(zlib.compress(raw, 9))


def source() -> str:
    chows_table, in_order, pungs_table = build()
    lines = ['"""Made by ``python -m engine.mcr.make_tables`` (do not edit): the chow and pung combination tables of',
             '``engine.mcr.fast``, loaded at import."""', "", "# fmt: off"]
    for name, table in (("CHOW", chows_table), ("CHOW_IN_ORDER", in_order), ("PUNG", pungs_table)):
        values, data = encode(table)
        lines += [f"{name}_VALUES = {pformat(values, width=116)}", f"{name}_DATA = ({_wrapped(data)})"]
    lines.append("")
    return "\n".join(lines)


def _wrapped(data: bytes, width: int = 110) -> str:
    return "\n    ".join(repr(data[k:k + width]) for k in range(0, len(data), width))


def main(argv: list[str] | None = None) -> None:
    # an argument parser only so that --help (or a stray argument) explains instead of rewriting the tables
    parser = argparse.ArgumentParser(prog="python -m engine.mcr.make_tables",
                                     description="Rewrite engine/mcr/combo_tables.py from engine.mcr.combos (2 s).")
    parser.parse_args(argv)
    path = Path(__file__).with_name("combo_tables.py")
    path.write_text(source())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
