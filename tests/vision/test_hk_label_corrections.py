"""The hk-photos valid label corrections (``datasets/hk_photos_valid_corrections.json``): seven photos whose label files
say 1p for every tile get their faces, read by eye, one per label line; 21 single lines of other photos that name the
wrong face (``slips``, read blind in session 62) get theirs; every other label stays as the file says."""

from collections import Counter

import numpy as np
import pytest

from datasets.hk_photos import hk_root, read_labels, valid_label_corrections, valid_label_slips
from vision.classes import CLASS_NAMES
from vision.recognize import Recognizer


def _valid_stems() -> list[str]:
    return sorted(path.stem for path in (hk_root() / "valid" / "labels").glob("*.txt"))


def test_exactly_the_photos_labelled_one_class_are_corrected(shared_dir):
    corrections = valid_label_corrections()
    one_class = []
    for stem in _valid_stems():
        _, labelled = read_labels("valid", stem, 640, 640, corrected=False)
        if len(labelled) >= 8 and len(np.unique(labelled)) == 1:
            one_class.append(stem)
    assert sorted(corrections) == one_class
    assert len(one_class) == 7


def test_corrections_fit_the_label_files_and_keep_the_boxes(shared_dir):
    for stem, fixed in valid_label_corrections().items():
        boxes, classes = read_labels("valid", stem, 640, 640)
        raw_boxes, labelled = read_labels("valid", stem, 640, 640, corrected=False)
        assert len(fixed) == len(labelled) == len(classes)
        np.testing.assert_array_equal(boxes, raw_boxes)
        assert classes.tolist() == list(fixed)
        assert (labelled == CLASS_NAMES.index("1p")).all()
        assert len(set(fixed)) > 1
        assert max(Counter(fixed).values()) <= 4, stem  # a photo of one set holds each face at most four times


def test_other_photos_keep_their_labels(shared_dir):
    corrected_elsewhere = set(valid_label_corrections()) | set(valid_label_slips())
    for stem in [s for s in _valid_stems() if s not in corrected_elsewhere][:40]:
        corrected = read_labels("valid", stem, 640, 640)
        labelled = read_labels("valid", stem, 640, 640, corrected=False)
        np.testing.assert_array_equal(corrected[1], labelled[1])


def test_committed_classifier_names_the_corrected_boxes_as_the_corrections_do(shared_dir):
    """An independent check of the eye-read faces (the classifier never saw the valid split): a shifted or
    misread line would show here. Session 28: all 123 agree."""
    rec = Recognizer.load()
    agree = total = 0
    for stem, fixed in valid_label_corrections().items():
        boxes, _ = read_labels("valid", stem, 640, 640)
        _, pixels = rec.recognize_with_image(hk_root() / "valid" / "images" / f"{stem}.jpg")
        scale = 640 / pixels.shape[1]
        named = rec.name_boxes(pixels, boxes / scale, scale=scale)
        agree += int((named.class_ids == np.array(fixed)).sum())
        total += len(fixed)
    assert total == 123
    assert agree / total >= 0.95


def test_a_correction_that_does_not_fit_its_file_is_refused(shared_dir, monkeypatch):
    stem = next(iter(valid_label_corrections()))
    monkeypatch.setattr("datasets.hk_photos.valid_label_corrections", lambda: {stem: (0, 1)})
    with pytest.raises(ValueError, match="label lines"):
        read_labels("valid", stem, 640, 640)


def test_slips_change_only_their_own_lines(shared_dir):
    slips = valid_label_slips()
    assert sum(len(lines) for lines in slips.values()) == 21
    assert not set(slips) & set(valid_label_corrections())  # photos labelled 1p throughout are corrected whole
    for stem, lines in slips.items():
        boxes, classes = read_labels("valid", stem, 640, 640)
        raw_boxes, labelled = read_labels("valid", stem, 640, 640, corrected=False)
        np.testing.assert_array_equal(boxes, raw_boxes)
        changed = set(np.flatnonzero(classes != labelled).tolist())
        assert changed == set(lines), stem  # each slip names a face other than the label's, and nothing else moves
        for line, face in lines.items():
            assert classes[line] == face


def test_hand_016s_characters_are_characters(shared_dir):
    """The slip that started the audit: the bottom row's 4m 5m 6m (四萬 伍萬 六萬) are labelled 4p 5p 6p."""
    stem = next(s for s in valid_label_slips() if s.startswith("hand_016"))
    _, labelled = read_labels("valid", stem, 640, 640, corrected=False)
    _, classes = read_labels("valid", stem, 640, 640)
    assert [CLASS_NAMES[c] for c in labelled[3:6]] == ["6p", "5p", "4p"]
    assert [CLASS_NAMES[c] for c in classes[3:6]] == ["6m", "5m", "4m"]


def test_a_slip_beyond_its_file_is_refused(shared_dir, monkeypatch):
    stem = next(iter(valid_label_slips()))
    monkeypatch.setattr("datasets.hk_photos.valid_label_slips", lambda: {stem: {999: 0}})
    with pytest.raises(ValueError, match="label line 999"):
        read_labels("valid", stem, 640, 640)


def test_correcting_leaves_the_labels_read_as_they_are(shared_dir):
    """bench_recognition scores against the label files as they are with the same array it corrects: a correction
    made in place would score the slips as labelled too."""
    from datasets.hk_photos import corrected_classes
    for stem in list(valid_label_slips())[:3] + list(valid_label_corrections())[:1]:
        _, labelled = read_labels("valid", stem, 640, 640, corrected=False)
        kept = labelled.copy()
        corrected = corrected_classes("valid", stem, labelled)
        np.testing.assert_array_equal(labelled, kept)
        assert (corrected != labelled).any()


@pytest.mark.parametrize("line, code, message", [("-1", "5m", "not a line number"), ("2", "5x", "not a face code")])
def test_a_slip_that_names_no_line_or_no_face_is_refused(tmp_path, monkeypatch, line, code, message):
    import json

    import datasets.hk_photos as hk
    path = tmp_path / "corrections.json"
    path.write_text(json.dumps({"photos": {}, "slips": {"some_photo": {line: code}}}))
    monkeypatch.setattr(hk, "CORRECTIONS", path)
    hk.valid_label_slips.cache_clear()
    try:
        with pytest.raises(ValueError, match=message):
            hk.valid_label_slips()
    finally:
        hk.valid_label_slips.cache_clear()


def test_committed_classifier_names_the_slips_boxes_as_the_slips_do(shared_dir):
    """A shifted line number would put a slip's face on a neighbour's box: the classifier (never trained on valid),
    asked about each slip's box, names the slip's face (session 62: all 21; the slips were read blind where it and
    the label disagreed, so this checks the lines, not the faces)."""
    rec = Recognizer.load()
    agree = total = 0
    for stem, lines in valid_label_slips().items():
        boxes, _ = read_labels("valid", stem, 640, 640)
        _, pixels = rec.recognize_with_image(hk_root() / "valid" / "images" / f"{stem}.jpg")
        scale = 640 / pixels.shape[1]
        picked = sorted(lines)
        named = rec.name_boxes(pixels, boxes[picked] / scale, scale=scale)
        agree += sum(int(named.class_ids[k]) == lines[line] for k, line in enumerate(picked))
        total += len(picked)
    assert total == 21
    assert agree / total >= 0.95
