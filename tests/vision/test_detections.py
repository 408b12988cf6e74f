"""vision.detections.Detections: the validated struct of arrays, its optional ``lifted`` column included."""

import numpy as np
import pytest

from vision.detections import Detections

BOXES = np.array([[0, 0, 10, 14], [20, 0, 34, 10], [40, 0, 50, 14]], np.float32)


def _detections(**changes):
    fields = dict(boxes=BOXES, class_ids=[3, 4, 42], confidence=[0.9, 0.8, 0.7], rotation=[0, 90, 0])
    fields.update(changes)
    return Detections(**fields)


def test_lifted_defaults_to_not_measured():
    d = _detections()
    assert d.lifted.shape == (3,) and d.lifted.dtype == np.float32 and np.isnan(d.lifted).all()


def test_lifted_travels_with_selection_and_is_read_only():
    d = _detections(lifted=[0.1, 0.9, np.nan])
    picked = d[np.array([1, 2])]
    assert picked.lifted[0] == pytest.approx(0.9) and np.isnan(picked.lifted[1])
    assert d[0].lifted.tolist() == pytest.approx([0.1])
    with pytest.raises(ValueError):
        d.lifted[0] = 0.5


@pytest.mark.parametrize("bad", [[0.1, 1.5, 0.0], [-0.2, 0.5, 0.5]])
def test_lifted_must_be_a_probability(bad):
    with pytest.raises(ValueError, match="lifted must be a probability"):
        _detections(lifted=bad)


def test_lifted_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError):
        _detections(lifted=[0.5, 0.5])


def test_lifted_is_in_the_json_tiles_as_a_probability_or_null():
    tiles = _detections(lifted=[0.123456, np.nan, np.nan]).to_json()
    assert [t["lifted"] for t in tiles] == [0.1235, None, None]


def test_a_nan_beside_a_bad_value_still_names_the_range():
    with pytest.raises(ValueError, match=r"got 0\.2\.\.1\.5"):
        _detections(lifted=[np.nan, 1.5, 0.2])
