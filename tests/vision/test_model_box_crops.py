"""hk-photos crops cut at the localiser's boxes (``datasets.hk_photos.model_box_crops``): labelled by the tile each box
overlaps, and cut exactly as the recogniser cuts a box, so that the committed classifier names them as it names the
photo's own tiles."""

import numpy as np

from datasets.hk_photos import CROP, model_box_crops
from vision.classes import FACE_DOWN
from vision.recognize import Recognizer


def test_localiser_box_crops_carry_their_tiles_labels(shared_dir):
    crops, classes = model_box_crops("valid", limit=3)
    assert crops.dtype == np.uint8 and crops.shape[1:] == (CROP, CROP, 3)
    assert len(crops) == len(classes) >= 30  # three photos of a dozen or more tiles each
    assert ((classes >= 0) & (classes <= FACE_DOWN)).all()
    # The labels come from the photos' label files, the names from the classifier: they agree on nearly every crop
    # (it names the valid photos' localiser boxes right 97 % of the time), which a shifted label or a crop cut
    # differently from the recogniser's (turned, mis-scaled) would break.
    classifier = Recognizer.load().classifier
    probs, _ = classifier(crops.transpose(0, 3, 1, 2).astype(np.float32))
    assert (probs.argmax(axis=1) == classes).mean() >= 0.9
