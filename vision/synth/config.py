"""Generation settings: image size, difficulty presets and the mix of rules and styles."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .hands import checked_meld_weights
from .layout import LayoutKnobs


@dataclass(frozen=True)
class Difficulty:
    elevation: tuple[float, float]  # camera elevation above the table, degrees (90 = straight down)
    roll_free: float  # probability of an arbitrary in-plane rotation (else near a multiple of 90 degrees)
    roll_jitter: float  # degrees around the multiple of 90
    roll_quarter_turns: bool  # photos turned 90/180/270 degrees (else upright +- jitter)
    fill: tuple[float, float]  # fraction of the image the hand's extent takes
    blur_sigma: tuple[float, float]  # defocus, pixels at 1280 px width
    p_motion: float
    motion_len: tuple[int, int]  # motion streak length, pixels at 1280 px width
    noise_sigma: tuple[float, float]  # grey levels
    p_glare: float
    jpeg_quality: tuple[int, int]
    layout: LayoutKnobs
    p_occluder: float  # a hand or finger entering from an image edge
    p_objects: float  # coins, sticks, cards on the table
    p_depth_of_field: float = 0.0  # a shallow focus: the table blurs with distance from the hand


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(elevation=(60, 90), roll_free=0.0, roll_jitter=6, roll_quarter_turns=False, fill=(0.75, 0.92),
                       blur_sigma=(0.0, 0.6), p_motion=0.0, motion_len=(3, 5), noise_sigma=(0.0, 3.0), p_glare=0.1,
                       jpeg_quality=(85, 95), layout=LayoutKnobs(p_standing=0.15, p_discards=0.1, p_wall=0.05, max_loose=0),
                       p_occluder=0.0, p_objects=0.1),
    "normal": Difficulty(elevation=(35, 90), roll_free=0.25, roll_jitter=12, roll_quarter_turns=True, fill=(0.6, 0.92),
                         blur_sigma=(0.0, 1.4), p_motion=0.2, motion_len=(3, 9), noise_sigma=(0.0, 6.0), p_glare=0.3,
                         jpeg_quality=(60, 95), layout=LayoutKnobs(p_standing=0.35, p_discards=0.5, p_wall=0.35, max_loose=4),
                         p_occluder=0.25, p_objects=0.4, p_depth_of_field=0.3),
    "hard": Difficulty(elevation=(25, 90), roll_free=0.5, roll_jitter=20, roll_quarter_turns=True, fill=(0.4, 0.95),
                       blur_sigma=(0.3, 2.4), p_motion=0.4, motion_len=(3, 15), noise_sigma=(2.0, 12.0), p_glare=0.5,
                       jpeg_quality=(40, 90), layout=LayoutKnobs(p_standing=0.4, p_discards=0.8, p_wall=0.6, max_loose=8),
                       p_occluder=0.45, p_objects=0.6, p_depth_of_field=0.5),
}


@dataclass(frozen=True)
class SynthConfig:
    width: int = 1280
    height: int = 960
    difficulty: str = "normal"
    p_riichi: float = 0.35  # share of riichi hands (no flowers, Japanese habits more likely)
    styles: tuple[str, ...] | None = None  # None = every style found under art_dir
    art_dir: str | None = None  # None = vision.synth.art.default_art_dir()
    min_visible: float = 0.5  # share of a tile's face (or back) that must show for it to be labelled
    p_heap: float = 0.0  # share of scenes with a heap of piled, tilted tiles among the clutter (LayoutKnobs.p_heap)
    # share of hands whose concealed row stands (None: the preset's LayoutKnobs.p_standing); localiser training data
    # raises it because standing rows, seen from low cameras, are where the reader loses most hands
    p_standing: float | None = None
    # how an exposed set of three alike is laid: pung, kong, added kong, concealed kong (None: hands.PUNG_MELD_WEIGHTS);
    # training data for rare layouts (vision.train.lift) raises the added kongs' share
    pung_meld_weights: tuple[float, float, float, float] | None = None
    extra: dict = field(default_factory=dict, hash=False, compare=False)  # {"camera": {...}} pins the view (tests)

    def __post_init__(self) -> None:
        checked_meld_weights(self.pung_meld_weights)  # a bad value fails here, not in a worker process
        if self.p_standing is not None and not 0.0 <= self.p_standing <= 1.0:
            raise ValueError(f"p_standing must lie in [0, 1], got {self.p_standing!r}")

    @property
    def preset(self) -> Difficulty:
        try:
            return DIFFICULTIES[self.difficulty]
        except KeyError:
            raise ValueError(f"unknown difficulty {self.difficulty!r} (expected one of {sorted(DIFFICULTIES)})") from None

    def with_(self, **changes) -> "SynthConfig":
        return replace(self, **changes)
