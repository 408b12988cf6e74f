"""The opt-in heap of piled, tilted tiles (``SynthConfig.p_heap``, ``--p-heap``): hk-photos valid has close shots of
heaps, which neither its train split nor the plain synthetic scenes show."""

import numpy as np

from vision.synth import SynthConfig, render_scene, sample_scene
from vision.synth.layout import tilted_axes

SEEDS = range(40, 52)


def _tilted(placement) -> bool:
    """Neither lying flat nor standing: the face's normal is neither vertical nor horizontal."""
    return 0.02 < abs(float(placement.normal[2])) < 0.98


def test_tilted_axes_are_a_right_handed_orthonormal_frame_turned_by_the_tilt():
    axes = tilted_axes(30.0, 20.0, 75.0)
    np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-12)
    assert np.linalg.det(axes) > 0
    np.testing.assert_allclose(np.degrees(np.arccos(axes[2, 2])), 20.0, atol=1e-9)  # the normal leans 20 degrees


def test_no_heap_unless_asked_for():
    assert SynthConfig().p_heap == 0.0
    for seed in SEEDS:
        assert not any(_tilted(p) for p in sample_scene(seed).layout.placements)


def test_heaps_pile_tilted_clutter_above_the_table_without_touching_the_hand():
    config = SynthConfig(width=640, height=480, p_heap=1.0)
    tilted = 0
    for seed in SEEDS:
        scene = sample_scene(seed, config)
        placements = scene.layout.placements
        heap = [p for p in placements if _tilted(p)]
        assert all(p.role == "clutter" for p in heap)
        thickness = placements[0].size[2]
        assert all(p.center[2] > thickness for p in heap)  # resting above the bottom layer
        assert all(p.corners()[:, 2].min() > -1e-9 for p in placements)  # nothing sinks into the table
        tilted += len(heap)
        # the hand itself is laid out as without the heap
        plain = [p for p in sample_scene(seed, config.with_(p_heap=0.0)).layout.placements if p.role != "clutter"]
        mine = [p for p in placements if p.role != "clutter"]
        assert [p.face for p in mine] == [p.face for p in plain]
    assert tilted >= len(SEEDS)  # heaps are drawn and keep tiles on their upper layers (23 in these 12 scenes)


def test_a_heap_scene_renders_with_labels_for_its_visible_tiles():
    image, truth = render_scene(41, SynthConfig(width=640, height=480, p_heap=1.0))
    assert image.shape == (480, 640, 3)
    clutter = [t for t in truth["tiles"] if t["role"] == "clutter"]
    assert clutter and all(t["visible"] >= 0.5 for t in truth["tiles"])
