"""Procedural table tops, tile colour schemes and the photographic after-effects (numpy/OpenCV only)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

TABLE_TEX = 256  # table texture side, pixels

# BGR 0..1. Tile backs seen on real sets: dark green (classic), blue, orange, white, yellow, pink, red, black, teal.
BACK_COLOURS = {
    "green": (0.18, 0.45, 0.12), "dark_green": (0.12, 0.3, 0.08), "blue": (0.6, 0.3, 0.08), "light_blue": (0.85, 0.6, 0.3),
    "orange": (0.1, 0.45, 0.9), "yellow": (0.15, 0.75, 0.9), "white": (0.88, 0.9, 0.9), "pink": (0.6, 0.45, 0.9),
    "red": (0.12, 0.12, 0.65), "black": (0.1, 0.1, 0.1), "teal": (0.5, 0.5, 0.1), "purple": (0.5, 0.2, 0.4),
}
FACE_COLOURS = ((0.86, 0.93, 0.95), (0.93, 0.95, 0.96), (0.78, 0.9, 0.94), (0.9, 0.9, 0.9), (0.75, 0.85, 0.88))
INK_COLOURS = ((0.05, 0.05, 0.05), (0.45, 0.15, 0.05), (0.1, 0.35, 0.05), (0.05, 0.05, 0.55), (0.3, 0.1, 0.1))


def _smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Value noise in 0..1: a coarse random grid upsampled smoothly."""
    grid = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, size: int, octaves=(4, 8, 16, 32, 64)) -> np.ndarray:
    out = np.zeros((size, size), np.float32)
    total = 0.0
    for i, cells in enumerate(octaves):
        w = 0.6 ** i
        out += w * _smooth_noise(rng, size, cells)
        total += w
    return out / total


def table_texture(rng: np.random.Generator) -> np.ndarray:
    """(TABLE_TEX, TABLE_TEX, 3) float32 BGR: felt, wood, cloth pattern or a random texture."""
    # Real photos: mostly felt mats (green, blue) and wood or plain desks; patterned cloth and random textures are
    # rarer but keep the recogniser from leaning on the background.
    kind = rng.choice(["felt", "wood", "plain", "cloth", "random"], p=[0.4, 0.22, 0.18, 0.1, 0.1])
    n = TABLE_TEX
    if kind == "felt":
        hue = rng.choice(4)
        base = [np.array([0.25, 0.5, 0.12]), np.array([0.55, 0.35, 0.12]), np.array([0.25, 0.2, 0.45]),
                np.array([0.35, 0.35, 0.33])][hue]
        base = base * rng.uniform(0.6, 1.3)
        shade = 0.85 + 0.3 * _fractal(rng, n, (3, 6, 12))
        grain = 1 + 0.12 * (rng.random((n, n), dtype=np.float32) - 0.5)
        tex = base[None, None, :] * (shade * grain)[..., None]
    elif kind == "wood":
        light = np.array([0.45, 0.62, 0.78]) * rng.uniform(0.6, 1.15)
        dark = light * rng.uniform(0.5, 0.75)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
        warp = _fractal(rng, n, (2, 4, 8)) * rng.uniform(2, 6)
        rings = 0.5 + 0.5 * np.sin((yy * rng.uniform(20, 60) + warp) * np.pi)
        fibre = cv2.resize(rng.random((n, 24), dtype=np.float32), (n, n), interpolation=cv2.INTER_LINEAR)
        t = np.clip(0.7 * rings + 0.3 * fibre, 0, 1)
        tex = light[None, None, :] * (1 - t[..., None]) + dark[None, None, :] * t[..., None]
        if rng.random() < 0.5:
            tex = tex.transpose(1, 0, 2)
    elif kind == "plain":  # desk laminate, stone, painted surfaces: near grey with a faint texture
        grey = rng.uniform(0.25, 0.9)
        base = np.clip(grey * (1 + rng.normal(0, 0.06, 3)), 0, 1)
        shade = 0.92 + 0.16 * _fractal(rng, n, (4, 16, 64))
        tex = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        c1, c2 = rng.random(3) * 0.6 + 0.2, rng.random(3) * 0.6 + 0.2
        period = int(rng.integers(12, 64))
        yy, xx = np.mgrid[0:n, 0:n]
        if rng.random() < 0.5:
            pattern = ((xx // period + yy // period) % 2).astype(np.float32)  # checks
        else:
            pattern = (((xx // period) % 2) * 0.5 + ((yy // period) % 2) * 0.5).astype(np.float32)  # plaid
        weave = 1 + 0.1 * np.sin(xx * 2.0) * np.sin(yy * 2.0)
        tex = (c1[None, None] * (1 - pattern[..., None]) + c2[None, None] * pattern[..., None]) * weave[..., None]
    else:
        grey = rng.uniform(0.2, 0.8, (3, 1))
        colours = grey + (rng.random((3, 3)) - 0.5) * 0.5  # muted: random hues around a grey
        f = _fractal(rng, n)
        f = (f - f.min()) / max(1e-6, f.max() - f.min())
        t = f[..., None]
        tex = np.where(t < 0.5, colours[0] * (1 - 2 * t) + colours[1] * 2 * t, colours[1] * (2 - 2 * t) + colours[2] * (2 * t - 1))
    return np.clip(tex, 0, 1).astype(np.float32)


@lru_cache(maxsize=2)
def _noise_bank(height: int, width: int) -> np.ndarray:
    """A fixed field of Gaussian noise (uint8, 128 + 32 x N(0, 1)), built once per process from a fixed seed: per-scene noise is a
    seeded crop of it, which costs far less than drawing millions of normals for every scene."""
    rng = np.random.default_rng(12345)
    return np.clip(rng.standard_normal((height, width, 3), dtype=np.float32) * 32 + 128, 0, 255).astype(np.uint8)


def add_noise(rng: np.random.Generator, image: np.ndarray, sigma: float) -> np.ndarray:
    """8-bit image plus Gaussian noise of ``sigma`` grey levels, in one saturating OpenCV pass."""
    h, w = image.shape[:2]
    bank = _noise_bank(h + 256, w + 256)
    oy, ox = int(rng.integers(256)), int(rng.integers(256))
    noise = bank[oy:oy + h, ox:ox + w]
    scale = sigma / 32
    return cv2.addWeighted(image, 1.0, noise, scale, -128 * scale)


def motion_kernel(length: int, angle_deg: float) -> np.ndarray:
    k = np.zeros((length, length), np.float32)
    c = (length - 1) / 2
    a = np.deg2rad(angle_deg)
    for t in np.linspace(-c, c, length * 2):
        x, y = int(round(c + t * np.cos(a))), int(round(c + t * np.sin(a)))
        k[y, x] = 1
    return k / k.sum()


def light_field(rng: np.random.Generator, width: int, height: int, glare: bool,
                tint: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Smooth multiplicative illumination (fall-off, vignette, white balance ``tint``) as a full-size 3-channel
    uint8 gain x 128, and an optional additive glare (uint8, 3 channels)."""
    small_w, small_h = 40, 30
    yy, xx = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    xx, yy = xx / (small_w - 1) - 0.5, yy / (small_h - 1) - 0.5
    a = rng.uniform(0, 2 * np.pi)
    gradient = 1 + rng.uniform(0, 0.35) * (np.cos(a) * xx + np.sin(a) * yy)
    vignette = 1 - rng.uniform(0, 0.35) * (xx ** 2 + yy ** 2) * 2
    small = (gradient * vignette)[..., None] * np.asarray(tint, np.float32)[None, None, :]
    small = np.clip(small * 128, 0, 255).astype(np.uint8)  # gain x 128, applied by cv2.multiply(scale=1/128)
    gain = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    glare_img = None
    if glare:
        cx, cy = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
        sx, sy = rng.uniform(0.05, 0.25), rng.uniform(0.05, 0.25)
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2)) * rng.uniform(0.15, 0.5) * 255
        blob = np.clip(blob, 0, 255).astype(np.uint8)
        glare_img = cv2.cvtColor(cv2.resize(blob, (width, height), interpolation=cv2.INTER_CUBIC), cv2.COLOR_GRAY2BGR)
    return gain, glare_img
