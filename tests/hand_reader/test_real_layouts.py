"""Layouts of real photos the reader missed with every tile boxed and named right (docs/rules-session41.md).

The fixtures are the committed models' detections of hk-photos train pictures (tests/fixtures/detections), so these
tests hold the reader alone to what the photo shows; the tiles are each picture's label file's. Hong Kong players lay
their hands face up with nothing turned: an exposed pung against the flowers, a hand too long for the frame in two
rows, a kong as four alike side by side.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import numpy as np
import pytest

from vision.detections import FIELDS, Detections
from vision.hand_reader import read_hand

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "detections"


def detections_of(name: str) -> tuple[Detections, tuple[int, int]]:
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    columns = {f: np.array(data[f], dtype=np.float32 if f in ("boxes", "confidence", "topk_probs", "lifted",
                                                               "sideways_probability") else np.int32)
               for f in FIELDS}
    return Detections(**columns), (data["width"], data["height"])


def tiles_of(hand) -> collections.Counter:
    return collections.Counter([str(t) for t in hand.all_tiles()] + [str(t) for t in hand.flowers])


# (fixture, the label file's tiles, the melds' types and tiles the layout shows, a warning the reading must give)
CASES = [
    # R61b: 234m 555m 999m 11z in one row; beside it 1f 2f 7f 8f and, touching them, 777z: a pung, its `from` unseen
    ("hk_train_hand_008", "2m 3m 4m 5m 5m 5m 9m 9m 9m 1z 1z 7z 7z 7z 1f 2f 7f 8f", [("pung", "7z7z7z")],
     "claimed_tile_guessed"),
    # R62: 4f 5f 6f 8f 999p 555p 666p in a rack, 55m 444s in a second row beside the flowers
    ("hk_train_hand_021", "9p 9p 9p 5p 5p 5p 6p 6p 6p 5m 5m 4s 4s 4s 4f 5f 6f 8f", [], "rows_read_as_concealed"),
    # R63: 1f 8f 4f 222m 8888m 555z in one row, 999m 11z in another, at 42 degrees: the boxes of the four 8m overlap
    # as a stray box's would
    ("hk_train_hand_023", "2m 2m 2m 8m 8m 8m 8m 5z 5z 5z 9m 9m 9m 1z 1z 1f 8f 4f",
     [("concealed_kong", "8m8m8m8m")], "kong_in_row"),
    # R63: 1f 5f 777s 5555z 777p 44m 666z in one row at 42 degrees
    ("hk_train_hand_038", "7s 7s 7s 5z 5z 5z 5z 7p 7p 7p 4m 4m 6z 6z 6z 1f 5f", [("concealed_kong", "5z5z5z5z")],
     "kong_in_row"),
    # R67: 444m 6666m 222m 777p standing in a rack, the pair 1m 1m lying flat in front of it
    ("hk_train_hand_049", "4m 4m 4m 6m 6m 6m 6m 2m 2m 2m 7p 7p 7p 1m 1m", [("concealed_kong", "6m6m6m6m")],
     "rows_read_as_concealed"),
]


@pytest.mark.parametrize("name,tiles,melds,warning", CASES, ids=[c[0] for c in CASES])
def test_a_real_hand_laid_out_face_up_is_read_with_its_tiles(name, tiles, melds, warning):
    detections, size = detections_of(name)
    reading = read_hand(detections, size)
    assert reading.hand is not None, reading.warnings
    assert tiles_of(reading.hand) == collections.Counter(tiles.split())
    assert [(m.type.value, "".join(str(t) for t in m.tiles)) for m in reading.hand.melds] == melds
    assert warning in reading.warning_codes
