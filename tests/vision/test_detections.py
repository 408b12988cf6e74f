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


PROBABILITY_COLUMNS = ["lifted", "sideways_probability"]


@pytest.mark.parametrize("column", PROBABILITY_COLUMNS)
def test_a_probability_column_defaults_to_not_measured(column):
    values = getattr(_detections(), column)
    assert values.shape == (3,) and values.dtype == np.float32 and np.isnan(values).all()


@pytest.mark.parametrize("column", PROBABILITY_COLUMNS)
def test_a_probability_column_travels_with_selection_and_is_read_only(column):
    d = _detections(**{column: [0.1, 0.9, np.nan]})
    picked = getattr(d[np.array([1, 2])], column)
    assert picked[0] == pytest.approx(0.9) and np.isnan(picked[1])
    assert getattr(d[0], column).tolist() == pytest.approx([0.1])
    with pytest.raises(ValueError):
        getattr(d, column)[0] = 0.5


@pytest.mark.parametrize("column", PROBABILITY_COLUMNS)
@pytest.mark.parametrize("bad", [[0.1, 1.5, 0.0], [-0.2, 0.5, 0.5]])
def test_a_probability_column_must_hold_probabilities(column, bad):
    with pytest.raises(ValueError, match=f"{column} must be a probability"):
        _detections(**{column: bad})


@pytest.mark.parametrize("column", PROBABILITY_COLUMNS)
def test_a_probability_column_of_the_wrong_length_is_refused(column):
    with pytest.raises(ValueError):
        _detections(**{column: [0.5, 0.5]})


@pytest.mark.parametrize("column", PROBABILITY_COLUMNS)
def test_a_probability_column_is_in_the_json_tiles_as_a_probability_or_null(column):
    tiles = _detections(**{column: [0.123456, 0.98, np.nan]}).to_json()
    assert [t[column] for t in tiles] == [0.1235, 0.98, None]


def test_a_nan_beside_a_bad_value_still_names_the_range():
    with pytest.raises(ValueError, match=r"got 0\.2\.\.1\.5"):
        _detections(lifted=[np.nan, 1.5, 0.2])


@pytest.mark.parametrize("column", ["confidence", "topk_probs"])
@pytest.mark.parametrize("bad", [1.5, -0.2, np.inf, -np.inf])
def test_the_class_probabilities_must_be_probabilities(column, bad):
    # They were taken as given: a hand read from tiles whose top-1 probabilities were inf or 2 gave alternatives
    # whose probabilities were NaN (HandReading.to_json then held NaN, which no JSON can carry).
    probs = np.array([[0.9, 0.05], [0.8, 0.1], [0.7, 0.2]], np.float32)
    changes = dict(topk_ids=[[3, 5], [4, 6], [42, 7]], topk_probs=probs)
    if column == "confidence":
        changes["confidence"] = [0.9, bad, 0.7]
    else:
        probs[1, 1] = bad
    with pytest.raises(ValueError, match=f"{column} must be a probability"):
        _detections(**changes)


def test_nan_class_probabilities_pass_as_in_the_optional_columns():
    assert np.isnan(_detections(confidence=[0.9, np.nan, 0.7]).confidence[1])


@pytest.mark.parametrize("bad", [-1, 43, 1000])
def test_top_k_ids_must_be_classes(bad):
    with pytest.raises(ValueError, match="top-k ids must lie in 0..42"):
        _detections(topk_ids=[[3, 5], [4, bad], [42, 7]], topk_probs=np.full((3, 2), 0.5))
