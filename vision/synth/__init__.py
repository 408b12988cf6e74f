"""Synthetic photos of winning mahjong hands with ground truth from the geometry.

``render_scene(seed, config)`` -> (BGR uint8 image, truth dict); ``sample_scene`` gives the hand, layout and camera
without pixels. CLI: ``python -m vision.synth generate|preview|crops`` (see README "Synthetic data").
"""

from .config import DIFFICULTIES, SynthConfig
from .render import Scene, render_scene, render_scene_full, sample_scene, tile_geometry

__all__ = ["DIFFICULTIES", "Scene", "SynthConfig", "render_scene", "render_scene_full", "sample_scene", "tile_geometry"]
