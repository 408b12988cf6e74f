"""Training-data preparation that needs no torch: the localiser's squeezed copies of real photos, the tile-crops
importer."""

import cv2
import numpy as np

from vision.train.localizer import _merge_synth, _stretch_real


def _split(tmp_path, names):
    img_dir, lab_dir = tmp_path / "images" / "train", tmp_path / "labels" / "train"
    img_dir.mkdir(parents=True)
    lab_dir.mkdir(parents=True)
    for name in names:
        image = np.full((200, 300, 3), 40, np.uint8)
        image[50:150, 120:180] = 255  # one bright "tile": centre (150, 100) px, label below in normalised units
        cv2.imwrite(str(img_dir / f"{name}.jpg"), image)
        (lab_dir / f"{name}.txt").write_text("0 0.5 0.5 0.2 0.5\n")
    return img_dir, lab_dir


def test_squeezed_copies_keep_size_labels_and_box_position(tmp_path):
    img_dir, lab_dir = _split(tmp_path, ["hand_001", "synth_s1_0001", "rep1_hand_001"])
    _stretch_real(tmp_path, copies=2, seed=0)
    made = sorted(p.name for p in img_dir.glob("sq*"))
    assert made == ["sq0_hand_001.jpg", "sq1_hand_001.jpg"]  # synthetic scenes and repeat links are left alone
    for name in made:
        image = cv2.imread(str(img_dir / name))
        assert image.shape == (200, 300, 3)
        assert (lab_dir / name.replace(".jpg", ".txt")).read_text() == "0 0.5 0.5 0.2 0.5\n"
        ys, xs = np.nonzero(image[:, :, 0] > 128)
        # the squeeze and the scaling back move nothing in normalised coordinates: the tile stays where its label says
        assert abs(xs.mean() - 150) < 4 and abs(ys.mean() - 100) < 4
        original = cv2.imread(str(img_dir / "hand_001.jpg"))
        assert np.abs(image.astype(int) - original.astype(int)).max() > 60  # the edges were blurred along one axis


def test_squeezed_copies_are_deterministic(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        _split(root, ["hand_001", "hand_002"])
        _stretch_real(root, copies=1, seed=3)
    for name in ("sq0_hand_001.jpg", "sq0_hand_002.jpg"):
        assert np.array_equal(cv2.imread(str(a / "images" / "train" / name)),
                              cv2.imread(str(b / "images" / "train" / name)))


def test_model_box_crops_carry_the_tiles_class_and_turn():
    """Crops cut at the localiser's boxes (vision.train.model_crops) are labelled with the matched tile's class and
    turned so the face stands upright or upside down: the committed classifier, which never saw these scenes, agrees
    with the labels on most crops, and its orientation head with the turn recorded."""
    from pathlib import Path

    from vision.classes import CLASS_NAMES
    from vision.recognize import Recognizer
    from vision.synth import SynthConfig, render_scene_full
    from vision.train.model_crops import scene_crops

    recognizer = Recognizer.load(Path(__file__).resolve().parents[2] / "models")
    config = SynthConfig(width=640, height=480)
    crops, names, turns = [], [], []
    for seed in (21, 22, 23):
        image, _, truth, _ = render_scene_full(seed, config)
        for crop, name, turn, tile in scene_crops(recognizer, image, truth):
            assert name == (tile["code"] or "back") and turn in (0, 180)
            crops.append(crop)
            names.append(CLASS_NAMES.index(name))
            turns.append(turn)
    assert len(crops) >= 30
    batch = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32)
    probs, orient = recognizer.classifier(batch)
    names, turns = np.array(names), np.array(turns)
    assert (probs.argmax(1) == names).mean() >= 0.8
    face_up = names != CLASS_NAMES.index("back")
    assert (orient.argmax(1)[face_up] * 90 == turns[face_up]).mean() >= 0.85


def _synth_folder(root):
    """One 100x50 scene: a face-up 5m (class 4) and a back (class 42); body boxes in labels/, face quads in labels_obb/."""
    for sub in ("images", "labels", "labels_obb"):
        (root / sub).mkdir(parents=True)
    cv2.imwrite(str(root / "images" / "000000.jpg"), np.zeros((50, 100, 3), np.uint8))
    (root / "labels" / "000000.txt").write_text("4 0.300000 0.500000 0.200000 0.600000\n42 0.700000 0.500000 0.200000 0.600000\n")
    # the face: the body's upper part (x 0.2..0.4, y 0.2..0.6), a little turned; the back: x 0.6..0.8, y 0.4..0.8,
    # one corner clipped to the picture's edge
    (root / "labels_obb" / "000000.txt").write_text(
        "4 0.210000 0.200000 0.400000 0.220000 0.390000 0.600000 0.200000 0.580000\n"
        "42 0.600000 0.400000 0.800000 0.400000 0.800000 0.800000 0.600000 0.800000\n"
        "4 1.000000 0.100000 1.000000 0.100000 1.000000 0.300000 1.000000 0.300000\n")


def _merged_labels(tmp_path, box):
    loc, synth = tmp_path / box, tmp_path / "scenes"
    if not synth.exists():
        _synth_folder(synth)
    for sub in ("images/train", "labels/train"):
        (loc / sub).mkdir(parents=True)
    _merge_synth(loc, synth, "train", box)
    rows = (loc / "labels" / "train" / "synth_scenes_000000.txt").read_text().split("\n")
    return [[float(v) for v in r.split()] for r in rows if r]


def test_synthetic_labels_as_two_classes_with_body_boxes(tmp_path):
    assert _merged_labels(tmp_path, "body") == [[0, 0.3, 0.5, 0.2, 0.6], [1, 0.7, 0.5, 0.2, 0.6]]


def test_synthetic_labels_with_face_quad_boxes_drop_slivers(tmp_path):
    rows = _merged_labels(tmp_path, "face")
    assert len(rows) == 2  # the quad squashed onto the picture's edge is no box
    np.testing.assert_allclose(rows[0], [0, 0.3, 0.4, 0.2, 0.4], atol=1e-6)
    np.testing.assert_allclose(rows[1], [1, 0.7, 0.6, 0.2, 0.4], atol=1e-6)


def _tile_crops(root, names):
    (root / "images").mkdir(parents=True)
    for name in names:
        cv2.imwrite(str(root / "images" / name), np.full((32, 24, 3), 200, np.uint8))
    rows = "".join(f"{name.split('.')[0]}.jpg,1,dots-1\n" for name in names)
    (root / "data.csv").write_text("image-name,label,label-name\n" + rows)


def test_tile_crops_reads_images_whose_extension_differs_in_case(tmp_path):
    from datasets.tile_crops import export

    _tile_crops(tmp_path / "tc", ["1.jpg", "2.JPG"])  # the shared set stores 66 of its 700 listed images as .JPG
    assert export(tmp_path / "out.npz", tmp_path / "tc") == 2
    assert len(np.load(tmp_path / "out.npz")["y"]) == 2


def test_tile_crops_refuses_a_listed_image_that_is_missing(tmp_path):
    import pytest

    from datasets.tile_crops import export

    _tile_crops(tmp_path / "tc", ["1.jpg"])
    with open(tmp_path / "tc" / "data.csv", "a") as f:
        f.write("2.jpg,1,dots-1\n")
    with pytest.raises(FileNotFoundError, match="2.jpg"):
        export(tmp_path / "out.npz", tmp_path / "tc")
