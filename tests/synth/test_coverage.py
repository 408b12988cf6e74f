"""A 1,000-scene sample covers every face and every meld situation, read back from the laid-out geometry.

No pixels are rendered: the test works on the tile placements (3-D boxes) and the projected ground truth, and it
derives each situation from the geometry (which tile lies sideways, which is face down, which lies on another), so
it checks the layout conventions rather than trusting the layout's own bookkeeping.
"""

from collections import Counter

import numpy as np
import pytest

from engine.hand import Hand, MeldType
from vision.classes import FACE_CODES
from vision.synth import SynthConfig, sample_scene, tile_geometry
from vision.synth.layout import TILE_D

N_SCENES = 1000


def _sideways(p) -> bool:
    return abs(p.up[0]) > 0.9  # the face's top points along the row (world X) instead of across it


@pytest.fixture(scope="module")
def scenes():
    config = SynthConfig()
    return [sample_scene(seed, config) for seed in range(N_SCENES)]


def test_every_face_is_shown_face_up(scenes):
    shown = Counter()
    for scene in scenes:
        shown.update(p.face for p in scene.layout.placements if not p.face_down)
    # and the ground truth names them: a face-up tile's label carries its code
    scene = scenes[0]
    for p in scene.layout.placements:
        g = tile_geometry(p, scene.camera, scene.config.width, scene.config.height)
        assert g["code"] == (None if p.face_down else p.face)
    assert set(shown) == set(FACE_CODES), sorted(set(FACE_CODES) - set(shown))
    assert min(shown.values()) >= 20


def test_every_meld_situation_is_laid_out_by_the_conventions(scenes):
    seen = set()
    for scene in scenes:
        hand = scene.hand
        for index, meld in enumerate(hand.melds):
            tiles = sorted((p for p in scene.layout.placements if p.role == "meld" and p.meld_index == index),
                           key=lambda p: (p.meld_position, p.center[2]))
            assert sorted(p.face for p in tiles) == sorted(str(t) for t in meld.tiles)
            in_row = list(tiles)
            if meld.type is MeldType.ADDED_KONG:
                # two sideways tiles: the claimed one in the row, the added one on it or beside it (further away)
                lower, upper = sorted((p for p in tiles if _sideways(p)), key=lambda p: (p.center[2], p.center[1]))
                assert abs(lower.center[0] - upper.center[0]) < 1e-6
                if upper.center[2] > lower.center[2] + TILE_D / 2:
                    assert np.allclose(upper.center[:2], lower.center[:2])
                    seen.add(("added_kong", "on"))
                else:
                    assert upper.center[1] > lower.center[1] + 0.9 and upper.center[2] == lower.center[2]
                    seen.add(("added_kong", "beside"))
                in_row = [p for p in tiles if p is not upper]
            in_row.sort(key=lambda p: p.center[0])
            sideways = [i for i, p in enumerate(in_row) if _sideways(p)]
            down = [i for i, p in enumerate(in_row) if p.face_down]
            if meld.type is MeldType.CONCEALED_KONG:
                assert sideways == [] and len(in_row) == 4
                habit = {(0, 1, 2, 3): "all_down", (0, 3): "ends_down"}[tuple(down)]
                seen.add(("concealed_kong", habit))
                continue
            assert down == []
            assert len(sideways) == 1, meld
            at = sideways[0]
            size = len(in_row)
            expected = {"left": [0], "right": [size - 1], "across": [1] if size == 3 else [1, 2]}[meld.discarder.value]
            assert at in expected, (meld, at)
            if meld.type is MeldType.CHOW:
                assert in_row[at].face == str(meld.claimed)  # the claimed tile is the sideways one
                rank = sorted(str(t) for t in meld.tiles).index(str(meld.claimed))
                seen.add(("chow", "left", rank))
            else:
                seen.add((meld.type.value, meld.discarder.value))
        if hand.flowers:
            flowers = [p for p in scene.layout.placements if p.role == "flower"]
            assert sorted(p.face for p in flowers) == sorted(str(f) for f in hand.flowers)
            seen.add(("flowers",))
    wanted = {("chow", "left", r) for r in range(3)}
    wanted |= {(t, d) for t in ("pung", "kong", "added_kong") for d in ("left", "across", "right")}
    wanted |= {("added_kong", "on"), ("added_kong", "beside"), ("concealed_kong", "all_down"),
               ("concealed_kong", "ends_down"), ("flowers",)}
    assert wanted <= seen, sorted(wanted - seen)


def test_hand_tiles_in_the_layout_are_exactly_the_hand(scenes):
    for scene in scenes[:200]:
        hand = scene.hand
        by_role = Counter()
        for p in scene.layout.placements:
            by_role[p.role] += 1
        assert by_role["concealed"] == len(hand.concealed)
        assert by_role["winning"] == 1
        assert by_role["meld"] == sum(len(m.tiles) for m in hand.melds)
        assert by_role["flower"] == len(hand.flowers)
        laid = sorted(p.face for p in scene.layout.placements if p.role in ("concealed", "winning"))
        assert laid == sorted(str(t) for t in hand.full_concealed)
        # no kind ever exceeds four copies on the table (clutter included); each flower exists once
        counts = Counter(p.face for p in scene.layout.placements)
        assert max(counts.values()) <= 4
        assert all(counts[f"{n}f"] <= 1 for n in range(1, 9))
        Hand.from_json(hand.to_json()).validate()


def test_sampling_is_deterministic():
    a, b = sample_scene(7), sample_scene(7)
    assert a.hand == b.hand and a.style == b.style
    assert np.array_equal(a.camera.matrix, b.camera.matrix)
    assert all(np.array_equal(p.center, q.center) for p, q in zip(a.layout.placements, b.layout.placements))
