"""vision.detections.Detections: the validated struct of arrays, its optional ``lifted`` and
``sideways_probability`` columns included."""

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


def test_sideways_probability_defaults_to_not_measured_and_travels_with_selection():
    d = _detections()
    assert d.sideways_probability.dtype == np.float32 and np.isnan(d.sideways_probability).all()
    d = _detections(sideways_probability=[0.1, 0.9, np.nan])
    picked = d[np.array([1, 2])]
    assert picked.sideways_probability[0] == pytest.approx(0.9) and np.isnan(picked.sideways_probability[1])
    with pytest.raises(ValueError):
        d.sideways_probability[0] = 0.5


@pytest.mark.parametrize("bad", [[0.5, 1.2, 0.5], [-0.1, 0.5, 0.5]])
def test_sideways_probability_must_be_a_probability(bad):
    with pytest.raises(ValueError, match="sideways_probability must be a probability"):
        _detections(sideways_probability=bad)


def test_sideways_probability_is_in_the_json_tiles_as_a_probability_or_null():
    tiles = _detections(sideways_probability=[0.123456, 0.98, np.nan]).to_json()
    assert [t["sideways_probability"] for t in tiles] == [0.1235, 0.98, None]
