"""Rendered scenes: determinism, labels that agree with the pixels (id buffer), rotation semantics, writers."""

import csv
import json
from collections import Counter

import cv2
import numpy as np
import pytest

from engine.hand import Hand
from vision.classes import CLASS_NAMES, FACE_CODES, FACE_DOWN
from vision.synth import SynthConfig, render_scene, render_scene_full, sample_scene
from vision.synth.__main__ import main
from vision.synth.render import quad_rotation
from vision.synth.writers import obb_lines, tile_crops, yolo_lines

SMALL = SynthConfig(width=640, height=480)


@pytest.fixture(scope="module")
def rendered():
    return [render_scene_full(seed, SynthConfig()) for seed in (11, 12, 13)]


def test_same_seed_gives_identical_pixels_and_truth():
    a_img, a_truth = render_scene(5, SMALL)
    b_img, b_truth = render_scene(5, SMALL)
    assert np.array_equal(a_img, b_img)
    assert a_truth == b_truth
    c_img, _ = render_scene(6, SMALL)
    assert not np.array_equal(a_img, c_img)


def _polygon_mask(shape, quad):
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(quad) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask.astype(bool)


def test_labels_agree_with_the_rendered_surfaces(rendered):
    for image, jpeg, truth, ids in rendered:
        h, w = image.shape[:2]
        assert (truth["width"], truth["height"]) == (w, h)
        assert np.array_equal(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), image)
        assert truth["tiles"], "a scene always shows its hand"
        for t in truth["tiles"]:
            x1, y1, x2, y2 = t["box"]
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            quad = np.array(t["quad"])
            inside = (quad[:, 0] >= 0) & (quad[:, 0] <= w) & (quad[:, 1] >= 0) & (quad[:, 1] <= h)
            # the shown surface lies within the tile's box (where it is inside the image)
            assert (quad[inside, 0] >= x1 - 0.6).all() and (quad[inside, 0] <= x2 + 0.6).all()
            assert (quad[inside, 1] >= y1 - 0.6).all() and (quad[inside, 1] <= y2 + 0.6).all()
            # face quads are clockwise in the image (y down): positive shoelace area
            x, y = quad[:, 0], quad[:, 1]
            assert 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0
            assert t["rotation"] == quad_rotation(quad)
            assert t["face_down"] == (t["code"] is None)
            assert t["visible"] >= 0.5
            # one surface owns the quad's pixels, in the share the label claims (of the whole quad, frame or not)
            owners = ids[_polygon_mask(ids.shape, quad)]
            owner, count = Counter(owners[owners % 2 == 1].tolist()).most_common(1)[0]
            area = abs(cv2.contourArea(quad.astype(np.float32)))
            assert abs(count / area - t["visible"]) < 0.08, t
        # no two labelled tiles claim the same surface
        owners = []
        for t in truth["tiles"]:
            o = ids[_polygon_mask(ids.shape, t["quad"])]
            owners.append(Counter(o[o % 2 == 1].tolist()).most_common(1)[0][0])
        assert len(set(owners)) == len(owners)


def test_truth_tiles_spell_the_hand(rendered):
    for _image, _jpeg, truth, _ids in rendered:
        hand = Hand.from_json(truth["hand"]).validate()
        tiles = truth["tiles"] + truth["hidden_tiles"]
        code = lambda t: t.get("code_engraved") or t["code"]
        concealed = sorted(code(t) for t in tiles if t["role"] == "concealed")
        assert concealed == sorted(str(t) for t in hand.concealed)
        assert [code(t) for t in tiles if t["role"] == "winning"] == [str(hand.winning_tile)]
        assert sorted(code(t) for t in tiles if t["role"] == "flower") == sorted(str(f) for f in hand.flowers)
        for i, meld in enumerate(hand.melds):
            mine = [t for t in tiles if t["meld_index"] == i]
            assert len(mine) == len(meld.tiles)
            up = sorted(t["code"] for t in mine if not t["face_down"] and t["code"])
            assert set(up) <= {str(x) for x in meld.tiles}
            if meld.type.value in ("chow", "pung", "kong", "added_kong"):
                # the claimed tile (and an added one) is turned a quarter against the rest of the meld
                rotations = Counter(t["rotation"] for t in mine)
                assert len(rotations) == 2, (meld, rotations)
                (a, _), (b, _) = rotations.most_common()
                assert (a - b) % 180 == 90


def _rotations_of(seed, camera):
    config = SynthConfig(difficulty="easy", extra={"camera": camera})
    _image, truth = render_scene(seed, config)
    return {t["role"]: t["rotation"] for t in truth["tiles"] if t["role"] in ("concealed", "winning")}, truth


def test_rotation_is_measured_in_the_image():
    seed = next(s for s in range(50) if not sample_scene(s, SynthConfig(difficulty="easy")).layout.habits["standing"])
    upright, truth = _rotations_of(seed, {"elevation": 90, "azimuth": 0, "roll": 0})
    assert set(upright.values()) == {0}
    yaw = truth["habits"]["sideways_yaw"]
    for t in truth["tiles"]:
        if t["role"] == "meld" and not t["face_down"]:
            assert t["rotation"] in (0, 270 if yaw > 0 else 90)
    assert set(_rotations_of(seed, {"elevation": 90, "azimuth": 0, "roll": 180})[0].values()) == {180}
    assert set(_rotations_of(seed, {"elevation": 90, "azimuth": 0, "roll": 90})[0].values()) == {90}
    # photographed from across the table: the hand is upside down
    assert set(_rotations_of(seed, {"elevation": 60, "azimuth": 180, "roll": 0})[0].values()) == {180}


def test_label_writers(rendered):
    for _image, _jpeg, truth, _ids in rendered:
        w, h = truth["width"], truth["height"]
        lines = yolo_lines(truth)
        assert len(lines) == len(truth["tiles"])
        for line, t in zip(lines, truth["tiles"]):
            cls, cx, cy, bw, bh = line.split()
            assert int(cls) == (FACE_DOWN if t["face_down"] else FACE_CODES.index(t["code"]))
            x1, y1, x2, y2 = t["box"]
            assert abs(float(cx) * w - (x1 + x2) / 2) < 0.01 and abs(float(bw) * w - (x2 - x1)) < 0.01
            assert abs(float(cy) * h - (y1 + y2) / 2) < 0.01 and abs(float(bh) * h - (y2 - y1)) < 0.01
        for line in obb_lines(truth):
            values = [float(v) for v in line.split()[1:]]
            assert len(values) == 8 and all(0 <= v <= 1 for v in values)


def test_generate_is_byte_identical_across_worker_counts(tmp_path):
    args = ["--n", "3", "--seed", "42", "--width", "480", "--height", "360"]
    assert main(["generate", *args, "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    assert main(["generate", *args, "--out", str(tmp_path / "b"), "--workers", "2"]) == 0
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b and len(files_a) == 3 * 3 + 2
    for rel in files_a:
        if rel.name != "data.yaml":  # names its own folder
            assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    lines = (tmp_path / "a" / "scenes.jsonl").read_text().splitlines()
    assert len(lines) == 3
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert record["image"] == f"images/{i:06d}.jpg"
        # the stored seed reproduces the image exactly
        image, _ = render_scene(record["seed"], SynthConfig(width=480, height=360))
        stored = cv2.imread(str(tmp_path / "a" / record["image"]))
        assert np.array_equal(image, stored)


def test_crops_are_portrait_tiles_of_their_class(tmp_path):
    assert main(["crops", "--n", "2", "--seed", "3", "--out", str(tmp_path), "--workers", "1", "--size", "80"]) == 0
    with open(tmp_path / "crops.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows
    for row in rows:
        assert row["class"] in CLASS_NAMES and row["file"].startswith(row["class"] + "/")
        crop = cv2.imread(str(tmp_path / row["file"]))
        assert max(crop.shape[:2]) == 80
        assert row["rotation_after"] in ("0", "180")


def test_crops_turn_the_face_upright_or_upside_down(rendered):
    """After normalisation the face's top-bottom axis is vertical (its long side), whatever way it lay."""
    turns = {0: 0, 90: -90, 180: 0, 270: 90}  # degrees the crop is turned (counter-clockwise negative)
    seen = set()
    for image, _jpeg, truth, _ids in rendered:
        for crop, name, before, after, tile in tile_crops(image, truth, np.random.default_rng(0), size=64):
            quad = np.array(tile["quad"])
            up = (quad[0] + quad[1]) / 2 - (quad[2] + quad[3]) / 2  # face bottom -> top, image coordinates
            a = np.deg2rad(turns[before])
            up = np.array([np.cos(a) * up[0] - np.sin(a) * up[1], np.sin(a) * up[0] + np.cos(a) * up[1]])
            assert abs(up[1]) > abs(up[0]), (before, tile["quad"])
            assert (up[1] < 0) == (after == 0)  # y grows downward: upright means the top points up
            assert max(crop.shape[:2]) == 64 and name in CLASS_NAMES
            seen.add(before)
    assert {90, 270} & seen


def test_preview_writes_a_contact_sheet(tmp_path):
    out = tmp_path / "sheet.jpg"
    assert main(["preview", "--seed", "1", "--out", str(out), "--count", "2", "--width", "640", "--height", "480"]) == 0
    sheet = cv2.imread(str(out))
    assert sheet is not None and sheet.shape[1] == 4 * 480


def test_config_file_gives_defaults_and_the_command_line_wins(tmp_path):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"n": 5, "seed": 9, "width": 320, "height": 240, "styles": ["kde_default"],
                                  "workers": 1, "_what": "test"}))
    assert main(["generate", "--config", str(config), "--n", "2", "--out", str(tmp_path / "o")]) == 0
    lines = (tmp_path / "o" / "scenes.jsonl").read_text().splitlines()
    assert len(lines) == 2
    record = json.loads(lines[0])
    assert (record["width"], record["height"], record["style"]) == (320, 240, "kde_default")


def test_small_faces_are_drawn_without_aliasing():
    """A face drawn much smaller than its texture averages the texture's strokes, as a camera pixel does: one-texel
    black and white columns drawn 20 px wide come out an even grey, not a pattern of sampled columns."""
    from vision.synth.art import TEX_H, TEX_W
    from vision.synth.render import _paste_texture

    stripes = np.zeros((TEX_H, TEX_W, 3), np.uint8)
    stripes[:, ::2] = 255
    image = np.zeros((60, 60, 3), np.uint8)
    quad = np.float32([[20.3, 10.2], [40.1, 10.6], [39.8, 37.9], [20.5, 37.4]])  # 20 x 27 px, a little askew
    _paste_texture(image, stripes, quad, 1.0, (0, 0, 0))
    inside = image[15:33, 25:36].astype(float)  # well inside the face
    assert abs(inside.mean() - 127.5) < 12
    assert inside.std() < 12  # bilinear sampling of the raw texture leaves columns near 0 and 255 (std ~ 100)
    # A face drawn at texture size keeps its strokes.
    big = np.zeros((TEX_H + 20, TEX_W + 20, 3), np.uint8)
    _paste_texture(big, stripes, np.float32([[10, 10], [10 + TEX_W, 10], [10 + TEX_W, 10 + TEX_H], [10, 10 + TEX_H]]),
                   1.0, (0, 0, 0))
    assert big[30:TEX_H - 10, 30:TEX_W - 10].std() > 100
