"""Tile face art: the 14 styles of ``shared/art`` turned into face textures of one size.

Each face is kept as three layers so that a scene can recolour it cheaply: the art's colour, its alpha (coverage) and
whether the style supplies its own face background (opaque scans such as ``xmj_real``). A scene composes
``face = background * (1 - alpha) + ink * alpha`` with its own background and ink jitter, then bakes a rounded bevel.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.classes import ART_STEMS, FACE_CODES

# Face texture size (width x height): the same 26 x 35 mm aspect as the tile body (TILE_W : TILE_H).
TEX_W, TEX_H = 112, 152

STYLES = ("ffalt_riichi", "ffalt_uni", "fluffy_black", "fluffy_regular", "font_notosymbols2", "font_symbola",
          "gnome_smooth", "kde_classic", "kde_default", "kde_jade", "kde_traditional", "xmj_dorothys", "xmj_real",
          "xmj_thick")

# Styles whose art is light on a dark face: the face background must be dark or the art disappears.
DARK_FACE_STYLES = {"kde_jade": ((20, 70, 20), (20, 20, 120), (60, 60, 20)),  # BGR jade green, cinnabar, teal
                    "fluffy_black": ((30, 30, 30), (45, 40, 35))}
# Monochrome black glyphs (Unicode fonts): ink is recoloured per scene.
RECOLOUR_STYLES = {"font_notosymbols2", "font_symbola"}
# How much of the face the art may cover (fraction of width/height): font glyphs carry their own tile outline.
ART_FILL = {"font_notosymbols2": 0.97, "font_symbola": 0.97, "xmj_thick": 0.82}
DEFAULT_ART_FILL = 0.86

_CODE_TO_STEM = {code: stem for stem, code in ART_STEMS.items()}


def default_art_dir() -> Path:
    """``$MAHJONG_SHARED/art``, else ``../shared/art`` beside the repository, else ``/work/shared/art``."""
    env = os.environ.get("MAHJONG_SHARED")
    if env:
        return Path(env) / "art"
    beside = Path(__file__).resolve().parents[3] / "shared" / "art"
    return beside if beside.is_dir() else Path("/work/shared/art")


@dataclass(frozen=True)
class FaceLayers:
    ink: np.ndarray  # (TEX_H, TEX_W, 3) float32 0..1 BGR colour of the art
    alpha: np.ndarray  # (TEX_H, TEX_W) float32 0..1 art coverage (1 everywhere for opaque scans)
    weights: np.ndarray | None = None  # (TEX_H, TEX_W, 3): shares of background, ink colour and body (bevel baked in)
    shaded_ink: np.ndarray | None = None  # (TEX_H, TEX_W, 3): the art's own colours times their share

    def with_weights(self, opaque: bool) -> "FaceLayers":
        """Precompute the per-pixel mixing weights so that a scene composes a face with one small matrix product."""
        inside, shade = _bevel(TEX_W, TEX_H)
        a = np.ones_like(self.alpha) if opaque else self.alpha
        w_bg = (1 - a) * shade * inside
        w_ink = a * shade * inside
        weights = np.stack([w_bg, w_ink, 1 - inside], axis=-1).astype(np.float32)
        return FaceLayers(self.ink, self.alpha, weights, (self.ink * w_ink[..., None]).astype(np.float32))


_INDEXED: dict[tuple[str, str], FaceLayers] = {}


def indexed_layers(style: "Style", code: str) -> FaceLayers:
    """The face with its art shrunk toward the bottom right, leaving the top-left corner free for a printed index
    (as on Hong Kong sets). Cached per process."""
    key = (style.name, code)
    if key not in _INDEXED:
        layers = style.faces[code]
        scale = 0.8
        w, h = round(TEX_W * scale), round(TEX_H * scale)
        x0, y0 = TEX_W - w - round(TEX_W * 0.04), TEX_H - h - round(TEX_H * 0.03)
        ink = np.zeros_like(layers.ink)
        alpha = np.zeros_like(layers.alpha)
        if style.opaque:  # a scanned face: its background continues around the smaller copy
            ink[:] = np.median(layers.ink.reshape(-1, 3), axis=0)
            alpha[:] = 1
        ink[y0:y0 + h, x0:x0 + w] = cv2.resize(layers.ink, (w, h), interpolation=cv2.INTER_AREA)
        alpha[y0:y0 + h, x0:x0 + w] = cv2.resize(layers.alpha, (w, h), interpolation=cv2.INTER_AREA)
        _INDEXED[key] = FaceLayers(ink, alpha).with_weights(style.opaque)
    return _INDEXED[key]


@dataclass(frozen=True)
class Style:
    name: str
    faces: dict[str, FaceLayers]  # code -> layers; a style may lack flowers (fluffy_*)
    opaque: bool  # the art is a full face picture with its own background

    def has(self, code: str) -> bool:
        return code in self.faces

    @property
    def has_flowers(self) -> bool:
        return all(f"{n}f" in self.faces for n in range(1, 9))


def _load_face(path: Path) -> tuple[FaceLayers, bool]:
    rgba = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if rgba is None:
        raise FileNotFoundError(path)
    if rgba.ndim == 2:
        rgba = cv2.cvtColor(rgba, cv2.COLOR_GRAY2BGRA)
    if rgba.shape[2] == 3:
        rgba = np.dstack([rgba, np.full(rgba.shape[:2], 255, np.uint8)])
    alpha = rgba[..., 3]
    opaque = (alpha < 128).mean() < 0.2
    if opaque:
        # A scan of a whole face: trim the outermost pixels (often a drawn border or the tile side) and stretch.
        h, w = alpha.shape
        m = max(1, min(h, w) // 40)
        face = cv2.resize(rgba[m:h - m, m:w - m, :3], (TEX_W, TEX_H), interpolation=cv2.INTER_AREA)
        return FaceLayers(face.astype(np.float32) / 255, np.ones((TEX_H, TEX_W), np.float32)), True
    ys, xs = np.nonzero(alpha > 8)
    canvas_ink = np.zeros((TEX_H, TEX_W, 3), np.float32)
    canvas_alpha = np.zeros((TEX_H, TEX_W), np.float32)
    if len(xs) == 0:  # a blank face (white dragon in some sets)
        return FaceLayers(canvas_ink, canvas_alpha), False
    crop = rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    fill = ART_FILL.get(path.parent.parent.name, DEFAULT_ART_FILL)
    scale = min(TEX_W * fill / crop.shape[1], TEX_H * fill / crop.shape[0])
    w, h = max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))
    small = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    x0, y0 = (TEX_W - w) // 2, (TEX_H - h) // 2
    canvas_ink[y0:y0 + h, x0:x0 + w] = small[..., :3].astype(np.float32) / 255
    canvas_alpha[y0:y0 + h, x0:x0 + w] = small[..., 3].astype(np.float32) / 255
    return FaceLayers(canvas_ink, canvas_alpha), False


def load_style(name: str, art_dir: str | None = None) -> Style:
    return _load_style(name, str(Path(art_dir) if art_dir else default_art_dir()))


@lru_cache(maxsize=None)
def _load_style(name: str, art_dir: str) -> Style:
    folder = Path(art_dir)
    faces: dict[str, FaceLayers] = {}
    opaque_votes = []
    for code in FACE_CODES:
        path = folder / name / "faces" / f"{_CODE_TO_STEM[code]}.png"
        if path.is_file():
            faces[code], opaque = _load_face(path)
            opaque_votes.append(opaque)
    if not faces:
        raise FileNotFoundError(f"no faces for style {name!r} under {folder}")
    opaque = sum(opaque_votes) > len(opaque_votes) / 2
    return Style(name, {code: layers.with_weights(opaque) for code, layers in faces.items()}, opaque=opaque)


def available_styles(art_dir: str | None = None) -> tuple[str, ...]:
    folder = Path(art_dir) if art_dir else default_art_dir()
    return tuple(s for s in STYLES if (folder / s / "faces").is_dir())


@lru_cache(maxsize=4)
def _bevel(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(rounded-corner mask, edge shading) of a face texture: real faces are rounded and slightly domed."""
    radius = 0.12 * width
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32) + 0.5
    dx = np.maximum(np.maximum(radius - xx, xx - (width - radius)), 0)
    dy = np.maximum(np.maximum(radius - yy, yy - (height - radius)), 0)
    inside = np.clip(radius - np.hypot(dx, dy) + 0.5, 0, 1)
    edge = np.minimum(np.minimum(xx, width - xx), np.minimum(yy, height - yy))
    shade = 0.82 + 0.18 * np.clip(edge / (0.08 * width), 0, 1)
    return inside.astype(np.float32), shade.astype(np.float32)


def compose_face(layers: FaceLayers, background: np.ndarray, ink_gain: np.ndarray, ink_colour: np.ndarray | None,
                 body_colour: np.ndarray, opaque: bool) -> np.ndarray:
    """One face texture, uint8 BGR: background and ink mixed, with the rounded bevel against the body colour.

    ``ink_colour`` recolours monochrome art (fonts); otherwise the art keeps its own colours times ``ink_gain``.
    """
    recolour = ink_colour is not None and not opaque
    mix = np.stack([background, ink_colour if recolour else np.zeros(3, np.float32), body_colour]).astype(np.float32)
    face = layers.weights @ (mix * 255)
    if not recolour:
        face += layers.shaded_ink * (np.asarray(ink_gain, np.float32) * 255)
    return np.clip(face, 0, 255).astype(np.uint8)
