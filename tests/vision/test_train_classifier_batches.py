"""``vision.train.classifier.augmented_batches``: with worker processes every batch is drawn from its own generator,
so a run gives the same batches whatever the number of workers; in-process (workers 0) it is the generator-driven
path every CPU run has used. Needs torch (the training extra): skipped without it."""

import numpy as np
import pytest

pytest.importorskip("torch")

from vision.train.classifier import augmented_batches  # noqa: E402


def _data(n: int = 40):
    rng = np.random.default_rng(3)
    return rng.integers(0, 256, (n, 80, 80, 3), dtype=np.uint8), rng.integers(-1, 2, n)


def test_the_batches_do_not_depend_on_the_number_of_workers():
    X, O = _data()
    perm = np.random.default_rng(1).permutation(len(X))
    runs = [list(augmented_batches(X, O, perm, 16, np.random.default_rng(0), workers, key=(5, 2)))
            for workers in (1, 2)]
    assert [len(r) for r in runs] == [3, 3]
    for (i1, x1, o1), (i2, x2, o2) in zip(*runs):
        assert np.array_equal(i1, i2) and np.array_equal(x1, x2) and np.array_equal(o1, o2)
    # every crop of the epoch once, in the permutation's order
    assert np.array_equal(np.concatenate([i for i, _, _ in runs[0]]), perm)


def test_in_process_batches_follow_the_given_generator():
    X, O = _data()
    perm = np.arange(len(X))
    first = list(augmented_batches(X, O, perm, 16, np.random.default_rng(7)))
    again = list(augmented_batches(X, O, perm, 16, np.random.default_rng(7)))
    other = list(augmented_batches(X, O, perm, 16, np.random.default_rng(8)))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(first, again))
    assert not np.array_equal(first[0][1], other[0][1])


def test_a_shrunk_crop_loses_the_fine_strokes_a_far_tile_loses():
    """--low-res-p (session 57, C57): a crop shrunk to a far tile's 14-32 px and enlarged back loses its one-pixel
    strokes, as a far tile's numeral does."""
    import vision.train.classifier as training

    stripes = np.zeros((4, 80, 80, 3), np.uint8)
    stripes[:, :, ::2] = 255  # one-pixel strokes: what a 2m / 3m numeral becomes at 80 px
    orient = np.zeros(4, np.int64)
    saved = training.SIZE, training.LOW_RES_P
    try:
        training.SIZE = 80
        training.LOW_RES_P = 0.0
        sharp, _ = training.augment(stripes, orient.copy(), np.random.default_rng(5))
        training.LOW_RES_P = 1.0
        shrunk, _ = training.augment(stripes, orient.copy(), np.random.default_rng(5))
    finally:
        training.SIZE, training.LOW_RES_P = saved

    def fine_detail(x):  # mean absolute difference between neighbouring pixels across the strokes
        return float(np.abs(np.diff(x, axis=3)).mean() + np.abs(np.diff(x, axis=2)).mean())

    assert fine_detail(shrunk) < 0.3 * fine_detail(sharp)
