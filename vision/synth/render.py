"""Scenes: sample (hand, style, layout, camera, light), render the pixels, and derive the ground truth from geometry.

Everything random is drawn from one ``numpy.random.Generator`` seeded by the scene seed, in a fixed order, so a seed
gives the same bytes on any machine with the same library versions and in any worker.

Tiles are boxes projected through a pinhole camera and painted far to near (the painter's algorithm is exact here:
the boxes are convex and never interpenetrate). Alongside the colour image an id buffer records which surface of which
tile owns each pixel; it gives each tile's visible share, so labels never name a tile that cannot be seen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.hand import Hand, WinContext
from vision.classes import FACE_CODES, FACE_DOWN

from .art import TEX_H, TEX_W, Style, available_styles, compose_face, indexed_layers, load_style
from .config import SynthConfig
from .hands import sample_hand
from .layout import Placement, SceneLayout, add_clutter, footprint_bounds, layout_hand
from .surfaces import (BACK_COLOURS, FACE_COLOURS, INK_COLOURS, TABLE_TEX, add_noise, light_field, motion_kernel,
                       table_texture)

_CODE_INDEX = {c: i for i, c in enumerate(FACE_CODES)}
# Box surfaces as corner indices (see Placement.corners) with the local axis of their outward normal (sign, axis).
_SURFACES = (
    ("face", (0, 1, 2, 3), (1, 2)),
    ("back", (5, 4, 7, 6), (-1, 2)),
    ("top", (4, 5, 1, 0), (1, 1)),
    ("bottom", (3, 2, 6, 7), (-1, 1)),
    ("left", (4, 0, 3, 7), (-1, 0)),
    ("right", (1, 5, 6, 2), (1, 0)),
)
_SHIFT = 4  # fixed-point bits for sub-pixel polygon drawing
_TEX_CORNERS = np.float32([[0, 0], [TEX_W, 0], [TEX_W, TEX_H], [0, TEX_H]])


@dataclass
class Camera:
    matrix: np.ndarray  # (3, 4) world -> image homogeneous
    position: np.ndarray  # (3,) world
    target: np.ndarray  # (3,) the point looked at (the hand's centre): the focus
    elevation: float
    azimuth: float
    roll: float

    def project(self, points: np.ndarray) -> np.ndarray:
        p = np.asarray(points, float).reshape(-1, 3) @ self.matrix[:, :3].T + self.matrix[:, 3]
        return p[:, :2] / p[:, 2:3]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return np.linalg.norm(np.asarray(points, float).reshape(-1, 3) - self.position, axis=1)


@dataclass
class Scene:
    seed: int
    config: SynthConfig
    hand: Hand
    context: WinContext
    style: str
    layout: SceneLayout
    camera: Camera
    rng: np.random.Generator  # continues after sampling, for the pixel-level choices


def _pick_style(rng: np.random.Generator, config: SynthConfig) -> str:
    styles = config.styles or available_styles(config.art_dir)
    if not styles:
        raise FileNotFoundError("no tile art styles found (set MAHJONG_SHARED or SynthConfig.art_dir)")
    return styles[int(rng.integers(len(styles)))]


def sample_scene(seed: int, config: SynthConfig | None = None) -> Scene:
    """Everything but the pixels: hand, style, tile placements and camera (fast; used by coverage tests)."""
    config = config or SynthConfig()
    preset = config.preset
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x5EED]))
    style_name = _pick_style(rng, config)
    style = load_style(style_name, config.art_dir)
    rules = "riichi" if (rng.random() < config.p_riichi or not style.has_flowers and rng.random() < 0.5) else "mcr"
    hand, context = sample_hand(rng, rules, with_flowers=style.has_flowers, pung_meld_weights=config.pung_meld_weights)
    standing = preset.layout.p_standing if config.p_standing is None else config.p_standing
    knobs = replace(preset.layout, p_heap=config.p_heap, p_standing=standing)
    layout = layout_hand(rng, hand, context, knobs)
    add_clutter(rng, layout, hand, knobs, flowers_ok=style.has_flowers)
    camera = _sample_camera(rng, config, layout)
    return Scene(int(seed), config, hand, context, style_name, layout, camera, rng)


def _sample_camera(rng: np.random.Generator, config: SynthConfig, layout: SceneLayout) -> Camera:
    preset = config.preset
    hand_tiles = [p for p in layout.placements if p.role != "clutter"]
    bounds = footprint_bounds(hand_tiles)
    target = np.array([(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, 0.3])
    size = float(np.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1]))
    lo, hi = preset.elevation
    standing = layout.habits.get("standing", False)
    if standing:  # standing faces look at the winner: the photo is taken from the winner's side, not too steep
        hi = min(hi, 68.0)
        lo = min(lo, hi - 10)
        azimuth = rng.uniform(-35, 35)
    else:
        r = rng.random()
        azimuth = rng.normal(0, 15) if r < 0.6 else (180 + rng.normal(0, 15) if r < 0.8 else rng.uniform(0, 360))
    elevation = float(rng.uniform(lo, hi))
    distance = size * rng.uniform(1.2, 3.0)
    fixed = config.extra.get("camera", {})  # tests pin the view: {"elevation": 90, "azimuth": 0, "roll": 0}
    elevation, azimuth = float(fixed.get("elevation", elevation)), float(fixed.get("azimuth", azimuth))
    a, e = np.deg2rad(azimuth), np.deg2rad(elevation)
    toward_camera = np.array([np.sin(a) * np.cos(e), -np.cos(a) * np.cos(e), np.sin(e)])
    position = target + distance * toward_camera
    forward = -toward_camera
    up_hint = np.array([-np.sin(a), np.cos(a), 0.0])  # horizontal, from the camera toward the scene
    right = np.cross(forward, up_hint)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    extrinsic = np.concatenate([rotation, (-rotation @ position)[:, None]], axis=1)
    if preset.roll_free and rng.random() < preset.roll_free:
        roll = rng.uniform(0, 360)
    else:
        # A photographer frames the hand's row along the picture's long side more often than across it.
        quarter = (int(rng.choice([0, 90, 180, 270], p=[0.35, 0.15, 0.35, 0.15])) if preset.roll_quarter_turns
                   else (180 if rng.random() < 0.1 else 0))
        roll = quarter + rng.normal(0, preset.roll_jitter / 2)
    roll = float(fixed.get("roll", roll))
    c, s = np.cos(np.deg2rad(roll)), np.sin(np.deg2rad(roll))
    # Fit: roll about the optical axis, then focal length and principal point so the hand fills the chosen share.
    pts = np.concatenate([p.corners() for p in hand_tiles])
    cam = pts @ extrinsic[:, :3].T + extrinsic[:, 3]
    uv = cam[:, :2] / cam[:, 2:3]
    uv = uv @ np.array([[c, -s], [s, c]]).T
    span = uv.max(0) - uv.min(0)
    fill = rng.uniform(*preset.fill)
    scale = fill * min(config.width / span[0], config.height / span[1])
    slack = np.array([config.width, config.height]) - span * scale
    offset = rng.uniform(0.15, 0.85, 2) * slack - uv.min(0) * scale
    affine = np.array([[scale * c, -scale * s, offset[0]], [scale * s, scale * c, offset[1]], [0, 0, 1.0]])
    return Camera(affine @ extrinsic, position, target, elevation, float(azimuth % 360), float(roll % 360))


# ----------------------------------------------------------------------------------------------------------------
# geometry -> truth


def quad_rotation(quad: np.ndarray) -> int:
    """0/90/180/270: how far the face is turned clockwise from upright in the image, from its top and bottom edges."""
    top = (quad[0] + quad[1]) / 2
    bottom = (quad[2] + quad[3]) / 2
    v = top - bottom  # image y grows downward: upright is (0, -1)
    angle = np.degrees(np.arctan2(v[0], -v[1]))
    return int(round(angle / 90.0)) % 4 * 90


def tile_geometry(placement: Placement, camera: Camera, width: int, height: int) -> dict:
    corners = camera.project(placement.corners())
    quad = corners[list(placement.shown_quad_indices())]
    x1, y1 = np.clip(corners.min(0), 0, [width, height])
    x2, y2 = np.clip(corners.max(0), 0, [width, height])
    face_down = placement.face_down
    return {
        "code": None if face_down else placement.face,
        "box": [round(float(v), 1) for v in (x1, y1, x2, y2)],
        "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
        "rotation": quad_rotation(quad),
        "face_down": bool(face_down),
        "role": placement.role,
        "meld_index": placement.meld_index,
        "meld_position": placement.meld_position,
    }


def class_id(tile: dict) -> int:
    return FACE_DOWN if tile["face_down"] else _CODE_INDEX[tile["code"]]


# ----------------------------------------------------------------------------------------------------------------
# pixels


def _poly(points: np.ndarray) -> np.ndarray:
    return np.round(points * (1 << _SHIFT)).astype(np.int32)


def _scheme(rng: np.random.Generator, style: Style):
    """Per-scene colours: face, ink jitter, body back colour and how much of the thickness is back."""
    from .art import DARK_FACE_STYLES, RECOLOUR_STYLES
    if style.name in DARK_FACE_STYLES:
        options = DARK_FACE_STYLES[style.name]
        face = np.array(options[int(rng.integers(len(options)))], np.float32) / 255
    else:
        face = np.array(FACE_COLOURS[int(rng.integers(len(FACE_COLOURS)))], np.float32)
    face = np.clip(face * rng.uniform(0.9, 1.05, 3), 0, 1).astype(np.float32)
    ink_colour = None
    if style.name in RECOLOUR_STYLES:
        ink_colour = np.array(INK_COLOURS[int(rng.integers(len(INK_COLOURS)))], np.float32)
    ink_gain = rng.uniform(0.85, 1.1, 3).astype(np.float32)
    names = list(BACK_COLOURS)
    back = np.array(BACK_COLOURS[names[int(rng.integers(len(names)))]], np.float32) * rng.uniform(0.85, 1.1)
    back_share = float(rng.uniform(0.3, 0.6)) if rng.random() < 0.85 else 0.0  # some sets are one colour throughout
    side_face = face if style.name not in DARK_FACE_STYLES else np.array(FACE_COLOURS[0], np.float32)
    return face, ink_gain, ink_colour, np.clip(back, 0, 1), back_share, side_face


def _render(scene: Scene, decode: bool = True):
    """Return (BGR uint8 image after JPEG or None when not ``decode``, JPEG bytes, truth dict, id buffer)."""
    config, camera, rng = scene.config, scene.camera, scene.rng
    preset = config.preset
    width, height = config.width, config.height
    style = load_style(scene.style, config.art_dir)
    face_col, ink_gain, ink_colour, back_col, back_share, side_col = _scheme(rng, style)
    # Hong Kong sets print a small index in the face's corner; add one to styles that have none of their own.
    index_ink = None
    if style.name not in _STYLES_WITH_INDICES and not style.opaque and rng.random() < 0.3:
        index_ink = tuple(float(v) * 255 * 0.9 for v in INK_COLOURS[int(rng.integers(len(INK_COLOURS)))])
    light = np.array([rng.normal(0, 0.5), rng.normal(-0.3, 0.5), rng.uniform(0.8, 1.6)])
    light /= np.linalg.norm(light)
    ambient, diffuse = rng.uniform(0.45, 0.65), rng.uniform(0.3, 0.55)
    gloss, shininess = rng.uniform(0.0, 0.35), rng.uniform(15, 60)  # polished tiles catch the light

    # Table: texture laid on the plane z = 0 around the hand, warped through the camera's plane homography.
    placements = scene.layout.placements
    bounds = footprint_bounds(placements)
    centre = (bounds[:2] + bounds[2:]) / 2
    half = max(bounds[2] - bounds[0], bounds[3] - bounds[1]) * 1.5 + 10
    per_px = 2 * half / TABLE_TEX
    tex_to_world = np.array([[per_px, 0, centre[0] - half], [0, per_px, centre[1] - half], [0, 0, 1]])
    plane = camera.matrix[:, [0, 1, 3]]
    h_img = plane @ tex_to_world
    table = table_texture(rng)
    if rng.random() < 0.5:
        _add_table_edge(rng, table, bounds, centre - half, per_px)
    table = (table * 255).astype(np.uint8)
    # The table and its shadows are smooth: build them at half size, then scale up once (a quarter of the work).
    half_w, half_h = (width + 1) // 2, (height + 1) // 2
    to_half = np.diag([half_w / width, half_h / height, 1.0])
    h_half = to_half @ h_img
    back = cv2.warpPerspective(table, h_half, (half_w, half_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    back = _fill_beyond_horizon(back, h_half, rng)

    # Shadows on the table: each tile's box projected along the light onto z = 0, softened.
    shadow = np.zeros((half_h, half_w), np.uint8)
    for p in placements:
        c = p.corners()
        flat = c[:, :2] - light[:2] / light[2] * c[:, 2:3]
        pts = camera.project(np.concatenate([flat, np.zeros((8, 1))], axis=1)) * [half_w / width, half_h / height]
        cv2.fillConvexPoly(shadow, _poly(cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)), 255, cv2.LINE_AA, _SHIFT)
    tile_px = float(np.linalg.norm(np.diff(camera.project(placements[0].corners()[:2]), axis=0)))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, tile_px * 0.04))
    strength = rng.uniform(0.25, 0.55)
    keep = 1 - shadow.astype(np.float32) * (strength / 255)
    back = (back.astype(np.float32) * keep[..., None]).astype(np.uint8)  # keep <= 1: no overflow
    image = cv2.resize(back, (width, height), interpolation=cv2.INTER_LINEAR)

    if rng.random() < preset.p_objects:
        _draw_table_objects(rng, image, camera, bounds)

    # Tiles, far to near.
    ids = np.zeros((height, width), np.int32)
    textures: dict[str, np.ndarray] = {}
    order = np.argsort(-camera.depth(np.array([p.center for p in placements])), kind="stable")
    face_area = np.zeros(len(placements))
    for i in order:
        p = placements[i]
        corners_img = camera.project(p.corners())
        world = p.corners()
        for name, idx, (sign, axis) in _SURFACES:
            normal = sign * p.axes[:, axis]
            centroid = world[list(idx)].mean(0)
            if np.dot(camera.position - centroid, normal) <= 0:
                continue
            shade = ambient + diffuse * max(0.0, float(np.dot(normal, light)))
            view = camera.position - centroid
            halfway = light + view / np.linalg.norm(view)
            shine = 255 * gloss * max(0.0, float(np.dot(normal, halfway / np.linalg.norm(halfway)))) ** shininess
            quad = corners_img[list(idx)]
            shown = (name == "face") != p.face_down and name in ("face", "back")
            surface_id = 2 * i + 1 if shown else 2 * i + 2
            if name == "face":
                if p.face not in textures:
                    textures[p.face] = _face_texture(style, p.face, face_col, ink_gain, ink_colour, side_col, index_ink)
                _paste_texture(image, textures[p.face], quad, shade, side_col * 255 * shade * 0.9, shine)
            elif name == "back":
                _fill(image, quad, (back_col if back_share > 0 else side_col) * 255 * shade + shine, 0.7)
            else:
                _draw_side(image, world, idx, camera, shade, side_col, back_col, back_share, shine)
            cv2.fillConvexPoly(ids, _poly(quad), int(surface_id), cv2.LINE_8, _SHIFT)
        shown_quad = corners_img[list(p.shown_quad_indices())]
        face_area[i] = abs(cv2.contourArea(shown_quad.astype(np.float32)))

    if rng.random() < preset.p_occluder:
        _draw_occluder(rng, image, ids, placements)

    counts = np.bincount(ids.ravel(), minlength=2 * len(placements) + 2)
    visible = np.array([counts[2 * i + 1] / max(face_area[i], 1.0) for i in range(len(placements))])

    # Photographic effects: light fall-off, white balance and glare (float), then defocus, motion blur and noise on
    # 8-bit pixels (OpenCV's 8-bit filters are several times faster than float ones), then JPEG.
    gain, glare = light_field(rng, width, height, rng.random() < preset.p_glare,
                              tint=rng.uniform(0.85, 1.15, 3) * rng.uniform(0.85, 1.15))
    image = cv2.multiply(image, gain, scale=1 / 128)
    if glare is not None:
        image = cv2.add(image, glare)
    if rng.random() < preset.p_depth_of_field:
        image = _depth_of_field(rng, image, camera)
    sigma = rng.uniform(*preset.blur_sigma) * width / 1280
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < preset.p_motion:
        # The streak's length is given at 1280 px width, as the defocus is: the same shake at any output size.
        length = max(1, round(int(rng.integers(*preset.motion_len)) * width / 1280))
        image = cv2.filter2D(image, -1, motion_kernel(length, rng.uniform(0, 180)))
    image = add_noise(rng, image, rng.uniform(*preset.noise_sigma))
    quality = int(rng.integers(preset.jpeg_quality[0], preset.jpeg_quality[1] + 1))
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if decode else None

    truth = _truth(scene, placements, visible)
    truth["jpeg_quality"] = quality
    return image, jpeg.tobytes(), truth, ids


def _truth(scene: Scene, placements: list[Placement], visible: np.ndarray) -> dict:
    config, camera = scene.config, scene.camera
    tiles, hidden = [], []
    for i, p in enumerate(placements):
        geometry = tile_geometry(p, camera, config.width, config.height)
        geometry["visible"] = round(float(min(visible[i], 1.0)), 3)
        if geometry["visible"] >= config.min_visible:
            tiles.append(geometry)
        elif p.role != "clutter":
            geometry["code_engraved"] = p.face
            hidden.append(geometry)
    return {
        "image": None,
        "width": config.width,
        "height": config.height,
        "seed": scene.seed,
        "hand": scene.hand.to_json(),
        "context": scene.context.to_json(),
        "tiles": tiles,
        "hidden_tiles": hidden,
        "style": scene.style,
        "difficulty": config.difficulty,
        "camera": {"elevation": round(camera.elevation, 1), "azimuth": round(camera.azimuth, 1),
                   "roll": round(camera.roll, 1)},
        "habits": {k: v for k, v in scene.layout.habits.items()},
    }


def _depth_of_field(rng, image: np.ndarray, camera: Camera) -> np.ndarray:
    """Blend toward a blurred copy where the table lies far from the focus distance (the hand's centre)."""
    h, w = image.shape[:2]
    small_w, small_h = 48, 36
    uu, vv = np.meshgrid((np.arange(small_w) + 0.5) * w / small_w, (np.arange(small_h) + 0.5) * h / small_h)
    to_plane = np.linalg.inv(camera.matrix[:, [0, 1, 3]])
    pts = np.stack([uu.ravel(), vv.ravel(), np.ones(uu.size)])
    world = to_plane @ pts
    behind = world[2] * np.sign(np.linalg.det(to_plane)) <= 0  # rays that never meet the table
    xy = world[:2] / np.where(np.abs(world[2]) < 1e-12, 1e-12, world[2])
    depth = np.hypot(np.hypot(xy[0] - camera.position[0], xy[1] - camera.position[1]), camera.position[2])
    focus = np.linalg.norm(camera.position - camera.target)
    weight = np.clip(rng.uniform(1.5, 4.0) * np.abs(depth / focus - 1), 0, 1)
    weight[behind] = 1
    mask = cv2.resize(weight.reshape(small_h, small_w).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    # Blur at half size (and let the upscale add its own softness): a quarter of the cost of a wide full-size kernel.
    small = cv2.resize(image, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.75, 2.0) * w / 1280)
    blurred = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return (image + (blurred.astype(np.float32) - image) * mask[..., None]).astype(np.uint8)


def _add_table_edge(rng, table: np.ndarray, bounds: np.ndarray, origin: np.ndarray, per_px: float) -> None:
    """The table's edge on one to three sides beyond every tile: a rim, then wood, plastic or floor."""
    n = table.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    wx, wy = origin[0] + xx * per_px, origin[1] + yy * per_px
    outside = np.zeros((n, n), bool)
    rim = np.zeros((n, n), bool)
    width = rng.uniform(0.3, 1.0)
    sides = [i for i in range(4) if rng.random() < 0.5] or [int(rng.integers(4))]
    for side in sides:
        gap = rng.uniform(0.5, 4.0)
        distance = [bounds[0] - wx - gap, wx - bounds[2] - gap, bounds[1] - wy - gap, wy - bounds[3] - gap][side]
        outside |= distance > 0
        rim |= (distance > 0) & (distance < width)
    beyond = np.clip(rng.uniform(0.05, 0.6, 3) * rng.uniform(0.5, 1.2), 0, 1).astype(np.float32)
    grain = 1 + 0.08 * np.sin(xx * rng.uniform(0.2, 0.6) + yy * rng.uniform(0.0, 0.1))[..., None]
    table[outside] = (beyond * grain)[outside]
    table[rim] = np.clip(beyond * rng.uniform(1.3, 1.8), 0, 1)


def _fill_beyond_horizon(image: np.ndarray, h_img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Pixels whose ray never meets the table (above the horizon) get a dim wall colour instead of mirrored table."""
    inv = np.linalg.inv(h_img)
    h, w = image.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float)
    wsign = corners @ inv[2]
    if (wsign > 0).all() or (wsign < 0).all():
        return image
    yy, xx = np.mgrid[0:h, 0:w]
    beyond = (inv[2, 0] * xx + inv[2, 1] * yy + inv[2, 2]) * np.sign(wsign.sum() or 1) < 0
    image[beyond] = (rng.uniform(30, 120, 3)).astype(np.uint8)
    return image


_STYLES_WITH_INDICES = {"kde_default", "kde_traditional", "kde_classic", "kde_jade", "xmj_thick"}
_INDEX_TEXT = {**{f"{n}{s}": str(n) for s in "mps" for n in range(1, 10)}, "1z": "E", "2z": "S", "3z": "W", "4z": "N",
               **{f"{n}f": str((n - 1) % 4 + 1) for n in range(1, 9)}}  # dragons carry no index


def _face_texture(style: Style, code: str, face_col, ink_gain, ink_colour, side_col, index_ink=None) -> np.ndarray:
    layers = style.faces.get(code)
    if layers is None:  # a style without flowers: never chosen with flowers, but keep clutter safe
        return (np.ones((TEX_H, TEX_W, 3), np.float32) * face_col * 255).astype(np.uint8)
    text = _INDEX_TEXT.get(code)
    if index_ink is not None and text:
        layers = indexed_layers(style, code)
    face = compose_face(layers, face_col, ink_gain, ink_colour, side_col, style.opaque)
    if index_ink is not None and text:
        cv2.putText(face, text, (int(TEX_W * 0.07), int(TEX_H * 0.14)), cv2.FONT_HERSHEY_SIMPLEX, TEX_W / 240,
                    index_ink, 2, cv2.LINE_AA)
    return face


def _roi(quad: np.ndarray, image: np.ndarray):
    h, w = image.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _paste_texture(image: np.ndarray, texture: np.ndarray, quad: np.ndarray, shade: float, edge, shine: float = 0.0) -> None:
    """Warp a face texture onto its quad in place (pixels outside the quad untouched), then anti-alias its rim."""
    roi = _roi(quad, image)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    local = (quad - [x0, y0]).astype(np.float32)
    texture, corners = _prefiltered(texture, local)
    homography = cv2.getPerspectiveTransform(corners, local)
    shaded = cv2.convertScaleAbs(texture, alpha=shade, beta=shine)
    region = image[y0:y1, x0:x1]
    cv2.warpPerspective(shaded, homography, (x1 - x0, y1 - y0), dst=region, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    cv2.polylines(image, [_poly(quad)], True, tuple(float(v) for v in edge), 1, cv2.LINE_AA, _SHIFT)


TEXELS_PER_PIXEL = 1.25  # the most texels a bilinear warp samples per output pixel, along each side of a face


def _prefiltered(texture: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face texture shrunk by area to about ``TEXELS_PER_PIXEL`` texels per pixel of its quad (each axis apart),
    and its corners. A camera pixel integrates the light of its whole footprint; a bilinear warp of a texture several
    times larger than the quad samples one texel in a few and aliases thin strokes (a 20 px tile drawn from the
    112 px texture takes one texel in five), which no photo shows. The quad's longer top / bottom edge and longer left
    / right edge set the scale, so that the nearer side of a foreshortened face keeps its detail."""
    across = max(np.hypot(*(quad[1] - quad[0])), np.hypot(*(quad[2] - quad[3]))) * TEXELS_PER_PIXEL
    down = max(np.hypot(*(quad[3] - quad[0])), np.hypot(*(quad[2] - quad[1]))) * TEXELS_PER_PIXEL
    h, w = texture.shape[:2]
    if across >= w and down >= h:
        return texture, _TEX_CORNERS
    tw, th = max(4, min(w, round(across))), max(4, min(h, round(down)))
    small = cv2.resize(texture, (tw, th), interpolation=cv2.INTER_AREA)
    return small, np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])


def _fill(image: np.ndarray, quad: np.ndarray, colour, outline: float | None = None) -> None:
    """A flat anti-aliased polygon; ``outline`` darkens its rim (the seams that separate tiles in a row)."""
    poly = _poly(np.asarray(quad, float))
    cv2.fillConvexPoly(image, poly, tuple(float(v) for v in colour), cv2.LINE_AA, _SHIFT)
    if outline is not None:
        cv2.polylines(image, [poly], True, tuple(float(v) * outline for v in colour), 1, cv2.LINE_AA, _SHIFT)


def _draw_side(image, world, idx, camera, shade, side_col, back_col, back_share, shine=0.0) -> None:
    """A side of the box: the face layer (ivory) and, behind it, the coloured back layer."""
    # In each side quad two corners lie on the face side (index < 4) and two on the back side.
    pts = world[list(idx)]
    on_face = np.array([j < 4 for j in idx])
    if back_share <= 0:
        _fill(image, camera.project(pts), side_col * 255 * shade + shine, 0.8)
        return
    face_pts, back_pts = pts[on_face], pts[~on_face]
    # Pair each face corner with the back corner of the same edge (same position along the side).
    pairs = []
    for fp in face_pts:
        bp = back_pts[np.argmin(np.linalg.norm(back_pts - fp, axis=1) )]
        pairs.append((fp, bp))
    split = [fp + (bp - fp) * (1 - back_share) for fp, bp in pairs]
    front = np.array([pairs[0][0], pairs[1][0], split[1], split[0]])
    back = np.array([split[0], split[1], pairs[1][1], pairs[0][1]])
    _fill(image, camera.project(front), side_col * 255 * shade * 0.97 + shine)
    _fill(image, camera.project(back), back_col * 255 * shade + shine, 0.7)


def _draw_table_objects(rng, image, camera, bounds) -> None:
    """Coins, scoring sticks or a card lying on the table outside the hand's area."""
    xmin, ymin, xmax, ymax = bounds
    for _ in range(int(rng.integers(1, 4))):
        cx = rng.uniform(xmin - 5, xmax + 5)
        cy = ymin - rng.uniform(1.5, 4) if rng.random() < 0.5 else ymax + rng.uniform(1.5, 4)
        kind = rng.integers(3)
        colour = rng.uniform(30, 230, 3)
        if kind == 0:  # coin / chip
            r = rng.uniform(0.4, 0.9)
            t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            pts = np.stack([cx + r * np.cos(t), cy + r * np.sin(t), np.zeros_like(t)], axis=1)
        else:  # stick or card
            length, breadth = (rng.uniform(4, 6), rng.uniform(0.2, 0.35)) if kind == 1 else (rng.uniform(2, 3.5), rng.uniform(1.4, 2.2))
            a = rng.uniform(0, np.pi)
            d, n = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            c = np.array([cx, cy])
            xy = [c + d * length / 2 + n * breadth / 2, c - d * length / 2 + n * breadth / 2,
                  c - d * length / 2 - n * breadth / 2, c + d * length / 2 - n * breadth / 2]
            pts = np.array([[x, y, 0.0] for x, y in xy])
        _fill(image, camera.project(pts), colour)


def _draw_occluder(rng, image, ids, placements) -> None:
    """A hand (palm and fingers) reaching in from an image edge, with its shadow; skipped if it would cover any tile
    of the winning hand, so the hand's labels stay complete. Clutter it covers loses visibility (and maybe its label)."""
    h, w = ids.shape
    size = max(w, h)
    side = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    edge = np.array([(along * w, 0), (w, along * h), (along * w, h), (0, along * h)][side], float)
    angle = np.deg2rad([90, 180, 270, 0][side] + rng.normal(0, 20))
    inward = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-inward[1], inward[0]])
    palm_r = rng.uniform(0.06, 0.1) * size
    palm = edge + inward * rng.uniform(-0.5, 0.6) * palm_r
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(palm_r * 1.3), int(palm_r)), float(np.degrees(angle)), 0, 360, 255, -1)
    fingers = int(rng.integers(1, 5))
    finger_w = palm_r * rng.uniform(0.32, 0.42)
    for k in range(fingers):
        offset = (k - (fingers - 1) / 2) * finger_w * 1.15
        spread = rng.normal(0, 0.12)
        d = inward * np.cos(spread) + across * np.sin(spread)
        base = palm + across * offset + inward * palm_r * 0.8
        tip = base + d * palm_r * rng.uniform(1.0, 1.9)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, max(2, int(finger_w)))
        cv2.circle(mask, tuple(int(v) for v in tip), max(1, int(finger_w / 2)), 255, -1)
    hand_ids = [2 * i + j for i, p in enumerate(placements) if p.role != "clutter" for j in (1, 2)]
    if np.isin(ids[mask > 0], hand_ids).any():
        return
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return
    pad = int(palm_r)
    y0, y1 = max(ys.min() - pad, 0), min(ys.max() + pad + 1, h)
    x0, x1 = max(xs.min() - pad, 0), min(xs.max() + pad + 1, w)
    local = mask[y0:y1, x0:x1]
    # The shadow falls on the table offset from the hand, soft: the hand is held above the table.
    shift = np.float32([[1, 0, rng.uniform(-0.3, 0.3) * palm_r], [0, 1, rng.uniform(0.1, 0.4) * palm_r]])
    shadow = cv2.warpAffine(local, shift, (x1 - x0, y1 - y0))
    shadow = cv2.GaussianBlur(shadow, (0, 0), palm_r * 0.15).astype(np.float32)[..., None] / 255
    red = rng.uniform(90, 235)  # skin from dark to light: BGR with red > green > blue
    skin = np.array([red * rng.uniform(0.55, 0.72), red * rng.uniform(0.72, 0.85), red], np.float32)
    soft = cv2.GaussianBlur(local, (0, 0), 1.5).astype(np.float32)[..., None] / 255
    small = cv2.resize(local, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    rounded = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(1.0, finger_w / 40)), (x1 - x0, y1 - y0))
    shading = 0.7 + 0.3 * rounded.astype(np.float32)[..., None] / 255  # darker toward the fingers' edges
    region = image[y0:y1, x0:x1].astype(np.float32) * (1 - 0.45 * shadow)
    image[y0:y1, x0:x1] = np.clip(region * (1 - soft) + soft * skin * shading, 0, 255).astype(np.uint8)
    ids[mask > 0] = 0


def render_scene(seed: int, config: SynthConfig | None = None) -> tuple[np.ndarray, dict]:
    """Render one scene: (BGR uint8 image, truth dict = one scenes.jsonl line with ``image`` left None)."""
    image, _jpeg, truth, _ids = _render(sample_scene(seed, config))
    return image, truth


def render_scene_full(seed: int, config: SynthConfig | None = None, decode: bool = True):
    """(image, jpeg bytes, truth, id buffer): the writers store the JPEG bytes as they are (``decode=False`` skips
    decoding them back into the image, which the dataset writer does not need)."""
    return _render(sample_scene(seed, config), decode)
