"""File to tiles: decode (reduced JPEG, EXIF) -> localise (YOLO11n, ONNX) -> crop -> classify (CNN, ONNX, batched).

    rec = Recognizer.load("models")
    result = rec.recognize(open("hand.jpg", "rb").read())   # bytes, str or Path
    result.detections      # vision.detections.Detections, boxes in pixels of the EXIF-oriented original image
    result.to_json("hand.jpg")

Orientation: crops are turned to portrait (landscape boxes 90 degrees counter-clockwise) and the classifier's
orientation head says how far the face lies turned clockwise inside the crop (0 / 90 / 180 / 270), which with the
turn fixes the full rotation. A sideways tile whose box is nearly square (perspective) is cropped unturned and read
as turned 90 or 270 by the head. (A model with the older 2-way head can only say upright / upside-down, so there a
landscape box means 90 / 270 and a portrait box 0 / 180.) The class itself is read from the
orientation-free class head, so reversible faces (1p, 5z, ...) are never split between two orientations.

Thread-safe: one Recognizer can serve concurrent calls (no per-call state on the object).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .classes import FACE_DOWN
from .detections import Detections, edge_slivers, median_short_side
from .errors import MissingModelFile
from .io import DEFAULT_MAX_PIXELS, decode_image
from .onnx_models import (THIRD_LOOK_BELOW, THIRD_LOOK_MARGIN, CropClassifier, LiftModel, Localizer, crop_along,
                          crop_tiles, other_fits, spare_candidates)
from .reading import geometry
from .squeeze import SQUARE_TOLERANCE, is_square, localize_unsqueezed

DEFAULT_MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
# The localiser trained on many synthetic scenes boxes each tile's whole body (face, thickness, sides), as the
# renderer labels it; hk-photos labels the face. On close, oblique shots the two part by more than IoU 0.5, so large
# tiles go to the older localiser (``localizer_close.onnx``), trained mostly on real photos. Chosen from 40-80 px on
# 45 held-out hk-photos train photos and 40 synthetic scenes of seed 9,000,002 (docs/rules-session30.md, G).
CLOSE_SHOT_SIDE = 80.0
# Where the rows lie this far (degrees) or more off the picture's axes, the face-up tiles' orientations come from crops
# turned to the rows (``crop_along``): an upright crop of a tile lying near 45 degrees shows it askew in a nearly
# square box, and the orientation head's sideways call is a guess there (right for 81 % of development hand tiles at
# 30-45 degrees, 98.6 % turned to the rows found from the boxes; below 15 degrees the upright crop does as well;
# docs/rules-session33.md, R36).
ROWS_TURNED_FROM = 20.0
# Classes kept per tile (Detections.topk_ids) for the decoder and the JSON's ``top``: eight, since a face outside the
# list costs the decoder -log(1e-4) + 1 nats; on development seed 6262 the true face of 127 of 138 misnamed hand tiles
# lies in the top eight, 108 in the top five (R45, docs/rules-session35.md).
TOPK = 8
# A tile the localiser scores under this (but at least the recogniser's ``conf``, 0.3) is unsure: the reader reads it
# like any other, but it is reported among the tiles only where the reading uses it (``Recognition.unsure``,
# ``vision.hand_reader.drop_unused_unsure``). So the tiles reported are more precise, hk-photos valid F1 0.9846 ->
# 0.9861 and the synthetic test scenes' 0.9615 -> 0.9633, the readings unchanged (T51b); the reader itself, given only
# the boxes scored 0.4 or more, read fewer development directions (T51, docs/rules-session51.md).
REPORT_SCORE = 0.4
# A JPEG is decoded reduced (1/2, 1/4, 1/8) while its long side keeps this many pixels (R53 measured 1,500: no gain).
DEFAULT_MIN_SIDE = 1000
# Z54 (docs/rules-session54.md): a JPEG read reduced and warned ``tiles_small`` is read again from the pixels around its
# tiles, decoded so that they measure at least FAR_SHOT_TILE_PX, the region reaching FAR_SHOT_MARGIN tile sizes past
# the first reading's boxes.
FAR_SHOT_TILE_PX = 40
FAR_SHOT_MARGIN = 2.0
# ... but only where the region is at most this share of the photo's long side both ways (a region as large as the
# frame would show the localiser its tiles no larger, at many times the pixels: a 9000 x 7000 photo cost 280 MB more)
FAR_SHOT_MAX_SHARE = 0.6
# ... and never decoded to more than this many pixels (a 48 MP photo at full size holds 144 MB; 12 MP phones' photos
# stay under it at full size)
FAR_SHOT_MAX_PIXELS = 24_000_000
# A picture whose face-up tiles measure under this many pixels across (the median box's short side, in the picture as
# the models read it) is warned ``tiles_small``: the faces of small tiles are misnamed far more often, and a closer or
# sharper photo is the user's remedy. The tenth percentile of the scenes' tile size on training seeds 623-624 at
# 640 x 480 (W54b, docs/rules-session54.md); there, hand tiles under 26 px are misnamed 12.9 % of the time, those of
# 40 px or more 1.3 %.
TILES_SMALL_BELOW = 26
# Z56 (docs/rules-session56.md): a picture decoded at full size whose face-up tiles measure under REGION_TILE_BELOW px
# is read again in the region REGION_MARGIN tile sizes around its boxes, where that region's long side is at most
# 1 / REGION_ZOOM_FROM of the picture's (the localiser letterboxes a picture by its long side, so the region shows it
# the tiles REGION_ZOOM_FROM times larger or more). The gates were set once, before the measurement, from
# development's 640 x 480 scenes, not tuned: their tiles' misnaming falls to about the large tiles' rate at 40 px, a
# 640 x 480 picture's hand cut to a 480 px square already gains 1.33, and of the scenes whose region would gain 1.25 or
# more 28 % were read wrong against 10 % of the others (wider gates, Z56b, read fewer development hands). The margin
# is Z54's, for the same reason: tiles the first reading missed near its boxes.
REGION_TILE_BELOW = 40.0
REGION_MARGIN = 2.0
REGION_ZOOM_FROM = 1.25
# E64b (docs/rules-session64.md): a box within EDGE_SLIVER_MARGIN px of the picture's edge (times the reading's
# reduction) whose short side is under EDGE_SLIVER_SHARE of the photo's median shows less than half a tile: no face
# can be named from it, and labelled photos leave such tiles out. It is read like any other (leaving it out of what
# the reader gets cost a development hand: E64) but reported only where the reading uses it (``Recognition.unsure``).
# The reader itself keeps boxes under 0.4 out of its rows, whoever sends them (R54, hand_reader.EDGE_SLIVER_SHARE).
EDGE_SLIVER_SHARE = 0.5
EDGE_SLIVER_MARGIN = 2.0


@dataclass(frozen=True)
class Recognition:
    detections: Detections
    width: int
    height: int
    timings_ms: dict = field(default_factory=dict)
    stretch: int = 1
    """How the tiles were found (vision.squeeze): 1 = in the picture as it came; +k = in it stretched k times across
    (it looked squeezed from a wide original), -k = stretched k times down. Boxes are always in the picture's pixels."""
    spares: "SpareTiles" = field(default_factory=lambda: SpareTiles.none())
    """The localiser's spare candidates (see :class:`SpareTiles`): not tiles; the hand reader may take one in
    (``read_hand(..., spares=recognition.spares)``) where the tiles alone make no hand."""
    box_scores: np.ndarray | None = None
    """The localiser's score of each tile (N,), or None where unknown (tiles that came from elsewhere)."""
    read_scale: float = 1.0
    """Pixels of the picture per pixel of it as the models read it (a JPEG decoded reduced: 2, 4 or 8; else 1)."""

    def __post_init__(self):
        if not (math.isfinite(self.read_scale) and self.read_scale > 0):
            raise ValueError(f"read_scale must be a positive number, got {self.read_scale!r}")

    @property
    def tile_size(self) -> float | None:
        """The face-up tiles' median box short side, in pixels of the picture as the models read it; None without a
        face-up tile or in a picture read stretched (its boxes' sides are not the tiles' as read)."""
        d = self.detections
        face_up = np.asarray(d.class_ids) != FACE_DOWN
        if self.stretch != 1 or not face_up.any():
            return None
        return median_short_side(np.asarray(d.boxes, np.float64)[face_up]) / self.read_scale

    @property
    def tiles_small(self) -> bool:
        """Whether the tiles are too small to be named reliably (``TILES_SMALL_BELOW``)."""
        size = self.tile_size
        return size is not None and size < TILES_SMALL_BELOW

    @property
    def unsure(self) -> np.ndarray:
        """(N,) bool: the tiles reported only where the reading uses them (``vision.hand_reader.drop_unused_unsure``):
        those the localiser scored under REPORT_SCORE (T51b; none where the scores are unknown) and those the
        picture's edge cuts to under half a tile (``edge_slivers``, E64b)."""
        return self.low_scored | self.edge_slivers

    @property
    def low_scored(self) -> np.ndarray:
        """(N,) bool: the tiles the localiser scored under REPORT_SCORE; all False where the scores are unknown."""
        n = len(self.detections)
        if self.box_scores is None or len(self.box_scores) != n:
            return np.zeros(n, bool)
        return np.asarray(self.box_scores) < REPORT_SCORE

    @property
    def edge_slivers(self) -> np.ndarray:
        """(N,) bool: the boxes within EDGE_SLIVER_MARGIN px of the picture's edge (times ``read_scale``: a pixel of
        the picture as read) whose short side is under EDGE_SLIVER_SHARE of the median short side of the photo's
        boxes (``detections.edge_slivers``): less than half of such a tile shows."""
        return edge_slivers(self.detections.boxes, (self.width, self.height), EDGE_SLIVER_SHARE,
                            EDGE_SLIVER_MARGIN * max(self.read_scale, 1.0))

    @property
    def warnings(self) -> list[str]:
        """What a client should know about how this picture was read (before any hand-reading warnings)."""
        if self.tiles_small:
            # (floored: a size of 25.6 px must not read "about 26 px ... under 26 px")
            return [f"the tiles are small in this picture (about {int(self.tile_size)} px across as read; under"
                    f" {TILES_SMALL_BELOW} px their faces are misread far more often): a closer or sharper photo reads"
                    " more reliably"]
        if self.stretch == 1:
            return []
        k = abs(self.stretch)
        return [f"the picture looked squeezed (its tiles about {k} times too {'thin' if self.stretch > 0 else 'flat'}):"
                f" the tiles were found in it stretched back {k} times {'across' if self.stretch > 0 else 'down'};"
                " boxes are in the picture's own pixels"]

    @property
    def warning_codes(self) -> list[str]:
        """The stable codes of :attr:`warnings`, one each, in order (``vision.hand_reader.WARNING_CODES``). A picture
        read stretched is never also warned ``tiles_small`` (:attr:`tile_size`)."""
        if self.tiles_small:
            return ["tiles_small"]
        return [] if self.stretch == 1 else ["picture_squeezed"]

    def to_json(self, image_name: str | None = None, hand=None, warnings: list[str] | None = None) -> dict:
        return {"image": image_name, "width": self.width, "height": self.height,
                "tiles": self.detections.to_json(), "hand": hand, "warnings": self.warnings + list(warnings or [])}


class Recognizer:
    """Localiser + crop classifier. ``min_side``: a JPEG is decoded reduced while its long side keeps this many pixels."""

    # Post-processing thresholds of the committed localiser, picked by ``python -m vision.train.tune_localizer`` on
    # the held-out split (hk-photos train slice, squeezed copies of it, synthetic scenes of an unseen seed), never on
    # hk-photos valid (which was looked at once, to sort train9's extra boxes into kinds, before 0.3 was committed).
    def __init__(self, localizer: Localizer, classifier: CropClassifier, *, conf: float = 0.3, iou: float = 0.4,
                 contain: float = 0.8, topk: int = TOPK, min_side: int = DEFAULT_MIN_SIDE,
                 max_pixels: int = DEFAULT_MAX_PIXELS,
                 unsqueeze: bool = True, squeezed_localizer: Localizer | None = None,
                 lift_model: LiftModel | None = None, spares: int = 4, box_votes: int = 0,
                 third_look_below: float = THIRD_LOOK_BELOW, close_localizer: Localizer | None = None,
                 close_from: float = CLOSE_SHOT_SIDE, rows_turned_from: float | None = ROWS_TURNED_FROM,
                 rows_turned_names_below: float | None = THIRD_LOOK_BELOW, zoom_far_shots: bool = True,
                 zoom_small_tiles: bool = True):
        self.localizer = localizer
        # a JPEG read reduced whose tiles come out small is read again around its tiles at more pixels (Z54)
        self.zoom_far_shots = zoom_far_shots
        # a picture read at full size whose tiles are small is localised again around its tiles (Z56)
        self.zoom_small_tiles = zoom_small_tiles
        # when given, it reads the close shots instead: pictures whose tiles, as ``localizer`` boxes them, have a
        # median short side of ``close_from`` px or more once the picture's long side is 640 (``is_close_shot``)
        self.close_localizer = close_localizer
        self.close_from = close_from
        # read square pictures that look squeezed with this one instead (vision.squeeze), when given; a picture that
        # is not square is never looked at for a squeeze (R70)
        self.squeezed_localizer = squeezed_localizer
        self.classifier = classifier
        self.conf = conf
        self.iou = iou
        self.contain = contain
        self.topk = topk
        self.min_side = min_side
        self.max_pixels = max_pixels
        self.unsqueeze = unsqueeze  # also look for tiles in a squeezed picture stretched back (vision.squeeze)
        # whether a tile lies on another (Detections.lifted), when given, measured on the tiles that may be a
        # meld's sideways one (``lift_candidates``: the only ones the reader reads it on); else lifted stays NaN
        self.lift_model = lift_model
        # how many of the localiser's spare candidates to keep and name (Recognition.spares); 0: none. The reader
        # tries 4 (hand_reader.MAX_SPARE_BOXES; 8 read no more development hands): each costs two crops' naming
        self.spares = spares
        # how many of the localiser's other fits of each tile (onnx_models.other_fits) also name it: 0, none
        self.box_votes = box_votes
        # crops whose top class stays under this after the second look get a tighter third look (0: none)
        self.third_look_below = third_look_below
        # rows this far off the picture's axes: orientations from crops turned to them (None: never); and the face
        # probabilities of the tiles the upright looks name under ``rows_turned_names_below`` sure averaged with
        # that look's (None: none; over 1: every face). Under 0.9: 7 more development hands, synthetic F1 0.9504
        # against 0.9497 on 200 test scenes (one tile fewer on the first 40 alone), held-out 8677 244 against 243
        # (docs/rules-session33.md, R38 and R40)
        self.rows_turned_from = rows_turned_from
        self.rows_turned_names_below = rows_turned_names_below

    @classmethod
    def load(cls, models_dir: str | Path | None = None, threads: int | None = None, **kwargs) -> "Recognizer":
        d = Path(models_dir) if models_dir is not None else DEFAULT_MODELS_DIR
        if not d.is_absolute() and not d.exists():
            d = Path(__file__).resolve().parents[1] / d
        loc, clf = d / "localizer.onnx", d / "classifier.onnx"
        for p in (loc, clf):
            if not p.exists():
                raise MissingModelFile(p)
        squeezed = d / "localizer_squeezed.onnx"  # optional: see vision.squeeze
        if squeezed.exists() and "squeezed_localizer" not in kwargs:
            kwargs["squeezed_localizer"] = Localizer(squeezed, threads)
        close = d / "localizer_close.onnx"  # optional: see Recognizer.close_localizer
        if close.exists() and "close_localizer" not in kwargs:
            kwargs["close_localizer"] = Localizer(close, threads)
        lift = d / "lift.onnx"  # optional: see vision.train.lift
        if lift.exists() and "lift_model" not in kwargs:
            kwargs["lift_model"] = LiftModel(lift, threads)
        return cls(Localizer(loc, threads), CropClassifier(clf, threads), **kwargs)

    def recognize_array(self, image: np.ndarray, scale: float = 1.0, offset: tuple[float, float] = (0.0, 0.0)
                        ) -> tuple[Detections, dict, int, "SpareTiles", np.ndarray]:
        """Tiles of a decoded BGR image; boxes multiplied by ``scale`` (reduced decode -> original pixels), then moved
        by ``offset`` (x, y: where ``image`` was cut from the picture, in the picture's pixels). Returns
        (detections, milliseconds per stage, stretch: see :attr:`Recognition.stretch`, spares: see
        :attr:`Recognition.spares`, the localiser's score of each tile (N,): see :attr:`Recognition.box_scores`)."""
        t0 = time.perf_counter()
        boxes, landscape, stretch, spare_boxes, votes, scores = self._find(image)
        t1 = time.perf_counter()
        # the rows' direction from the tiles found (not in a picture read stretched: its angles are not the table's)
        rows = rows_direction(boxes) if stretch == 1 else None
        shift = np.array([offset[0], offset[1], offset[0], offset[1]], np.float32)
        dets = _moved(self.name_boxes(image, boxes, landscape, scale, votes, rows=rows), shift)
        t2 = time.perf_counter()
        spares = SpareTiles(spare_boxes * scale + shift,
                            lambda: _moved(self.name_boxes(image, spare_boxes, None, scale, rows=rows), shift))
        return dets, {"localize": (t1 - t0) * 1e3, "classify": (t2 - t1) * 1e3}, stretch, spares, scores

    def find_boxes(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, int]:
        """The first half of :meth:`recognize_array`: the localiser's boxes (N, 4) in ``image`` pixels with its
        post-processing (and the squeezed-picture pass), whether each box is landscape once any squeeze is undone
        (None: judge by the box), and the stretch kept."""
        return self._find(image)[:3]

    def _find(self, image: np.ndarray):
        """:meth:`find_boxes`, then from the same localiser output on the picture as it came (none where a stretched
        copy was kept): the spare candidates' boxes (M, 4) (``onnx_models.spare_candidates``) and the other fits of
        each box (``onnx_models.other_fits``: (boxes, owner), or None without ``box_votes``); last, the localiser's
        score of each box (N,), from the pass whose boxes were kept."""
        raw_as_is = {}

        def run(localizer: Localizer, picture: np.ndarray):
            out, frame = localizer.raw(picture)
            if picture is image:
                # the last run on the picture as it came is the one whose boxes are returned (the close localiser
                # after the main one on a close shot)
                raw_as_is["output"] = (out, frame)
            return Localizer.postprocess(out, frame, self.conf, self.iou, contain=self.contain)

        def localize(picture):
            found = run(self.localizer, picture)
            if self.close_localizer is not None and is_close_shot(found[0], picture.shape, self.close_from):
                return run(self.close_localizer, picture)
            return found

        def localize_squeezed(picture):
            return run(self.squeezed_localizer, picture)

        if self.unsqueeze:
            boxes, scores, _, landscape, stretch = localize_unsqueezed(
                localize, image, localize_squeezed if self.squeezed_localizer is not None else None)
        else:
            (boxes, scores, _), landscape, stretch = localize(image), None, 1
        spare_boxes = np.zeros((0, 4), np.float32)
        votes = None
        if stretch == 1 and "output" in raw_as_is:
            if self.spares:
                spare_boxes = spare_candidates(*raw_as_is["output"], boxes, limit=self.spares)[0]
            if self.box_votes:
                votes = other_fits(*raw_as_is["output"], boxes, limit=self.box_votes)
        return boxes, landscape, stretch, spare_boxes, votes, scores

    def name_boxes(self, image: np.ndarray, boxes: np.ndarray, landscape: np.ndarray | None = None,
                   scale: float = 1.0, votes: tuple[np.ndarray, np.ndarray] | None = None,
                   rows: float | None | str = "from boxes") -> Detections:
        """Cut each box (N, 4) of ``image`` and name it with the classifier: the second half of
        :meth:`recognize_array`, also used on boxes that did not come from the localiser (the benchmarks' true
        boxes). ``landscape``: see ``crop_tiles``; ``scale`` multiplies the returned boxes. ``votes``: (boxes (M, 4),
        owner (M,)) other fits of the boxes, whose face probabilities are averaged into their owner's (equal
        weights; the rotation comes from the box itself). ``rows``: the rows' direction in degrees
        (``rows_direction``), where the face-up tiles' orientations may come from crops turned to it
        (``rows_turned_from``); "from boxes": found from ``boxes`` (none in a picture read stretched, ``landscape``
        given); None: upright crops only."""
        if isinstance(rows, str):
            rows = rows_direction(boxes) if landscape is None else None
        crops, landscape = crop_tiles(image, boxes, self.classifier.size, landscape=landscape)
        if votes is not None and len(votes[0]):
            vote_crops, _ = crop_tiles(image, votes[0], self.classifier.size, landscape=landscape[votes[1]])
            probs, orient = self.classifier(np.concatenate([crops, vote_crops]))
            n = len(crops)
            total, count = probs[:n].astype(np.float64), np.ones(n)
            np.add.at(total, votes[1], probs[n:])
            np.add.at(count, votes[1], 1.0)
            probs, orient = (total / count[:, None]).astype(np.float32), orient[:n]
        else:
            probs, orient = self.classifier(crops)
        probs = self._third_look(image, np.asarray(boxes), landscape, probs)
        turned = self._look_along_rows(image, np.asarray(boxes), probs, rows)
        if turned is not None and self.rows_turned_names_below is not None:
            # an unsure face named by the turned look too, as much as by the upright looks together; a sure one only
            # by the upright looks, which a second look could only blur (docs/rules-session33.md, R40)
            face_up, turned_probs, _ = turned
            unsure = probs[face_up].max(axis=1) < self.rows_turned_names_below
            probs = probs.copy()
            probs[face_up[unsure]] = (probs[face_up[unsure]] + turned_probs[unsure]) / 2
        detections = assemble(boxes * scale, probs, orient, landscape, self.topk)
        if turned is not None:
            detections = _oriented_along_rows(detections, turned, rows)
        if self.lift_model is None or len(detections) == 0:
            return detections
        lifted = np.full(len(detections), np.nan, np.float32)
        measured = lift_candidates(detections)
        if len(measured):
            lifted[measured] = self.lift_model(self.lift_model.crops(image, np.asarray(boxes)[measured]))
        return replace(detections, lifted=lifted)

    def _look_along_rows(self, image: np.ndarray, boxes: np.ndarray, probs: np.ndarray,
                         rows: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Where the rows lie ``rows_turned_from`` degrees or more off the picture's axes: (indices of the tiles the
        upright looks name face up, and for them the classifier's class (M, 43) and orientation (M, 4) probabilities
        on crops turned to the rows, ``crop_along``); else None."""
        if (rows is None or self.rows_turned_from is None or self.classifier.orientations != 4
                or abs((rows + 45.0) % 90.0 - 45.0) < self.rows_turned_from):
            return None
        face_up = np.flatnonzero(probs.argmax(axis=1) != FACE_DOWN)
        if len(face_up) == 0:
            return None
        turned_probs, orient = self.classifier(crop_along(image, boxes[face_up], rows, self.classifier.size))
        return face_up, turned_probs, orient

    def _third_look(self, image: np.ndarray, boxes: np.ndarray, landscape: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """(N, 43) class probabilities with the crops still unsure (top class under ``third_look_below``) averaged
        with two more looks: the box cut THIRD_LOOK_MARGIN inside, upright and turned 180 degrees, weighted 1 : 1
        against twice the first looks. On development tiles at 640 x 480 the average names 0.9607 of the face-up hand
        tiles of the two seeds it was tuned on against 0.9568 (0.9668 against 0.9622 on the other three), and the
        true face's mean log-probability rises from -0.256 to -0.202 (session 26, docs/rules-session26.md: v1)."""
        again = np.flatnonzero(probs.max(axis=1) < self.third_look_below)
        if len(again) == 0:
            return probs
        tight, _ = crop_tiles(image, boxes[again], self.classifier.size, margin=THIRD_LOOK_MARGIN,
                              landscape=landscape[again])
        looks, _ = self.classifier(np.concatenate([tight, tight[:, :, ::-1, ::-1]]), turn_average=False)
        probs = probs.copy()
        probs[again] = (2 * probs[again] + looks[:len(again)] + looks[len(again):]) / 4
        return probs

    def recognize(self, data: bytes | str | Path) -> Recognition:
        """Decode and recognise; raises vision.errors.ImageError for unusable files."""
        return self.recognize_with_image(data)[0]

    def recognize_with_image(self, data: bytes | str | Path) -> tuple[Recognition, np.ndarray]:
        """As :meth:`recognize`, also returning the decoded BGR pixels (EXIF-oriented, possibly JPEG-reduced), so
        that callers drawing an overlay need not decode a 12 MP photo a second time."""
        t0 = time.perf_counter()
        loaded = decode_image(data, min_side=self.min_side, max_pixels=self.max_pixels)
        t1 = time.perf_counter()
        dets, timings, stretch, spares, scores = self.recognize_array(loaded.image, loaded.scale)
        timings = {"decode": (t1 - t0) * 1e3, **timings}
        recognition = Recognition(dets, loaded.width, loaded.height, timings, stretch, spares,
                                  np.asarray(scores, np.float32), read_scale=loaded.scale)
        if self.zoom_far_shots and loaded.format == "jpeg" and loaded.scale > 1 and recognition.tiles_small:
            t2 = time.perf_counter()
            second = self._read_far_shot(data, recognition)
            # kept unless it lost most of the tiles (a region cut wrong): the first reading then stands, warned
            if second is not None and _keeps_most_tiles(second, recognition):
                recognition = second
            timings = {**timings, "far_shot": (time.perf_counter() - t2) * 1e3}
        elif self.zoom_small_tiles and loaded.scale == 1:
            t2 = time.perf_counter()
            second = self._read_region(loaded.image, recognition)
            if second is not None:
                if _keeps_most_tiles(second, recognition):
                    recognition = second
                timings = {**timings, "region": (time.perf_counter() - t2) * 1e3}
        timings["total"] = (time.perf_counter() - t0) * 1e3
        recognition = replace(recognition, timings_ms={k: round(v, 1) for k, v in timings.items()})
        # (the first decode's pixels, which the boxes scaled by ``loaded.scale`` fit, for an overlay; after a far
        # shot's second reading ``recognition.read_scale`` is that reading's, not these pixels')
        return recognition, loaded.image

    def _read_far_shot(self, data: bytes | str | Path, first: Recognition) -> Recognition | None:
        """Z54 (docs/rules-session54.md): a JPEG read reduced whose tiles came out small, read again from its pixels
        at the largest reduction that gives its tiles FAR_SHOT_TILE_PX, cut FAR_SHOT_MARGIN tile sizes around the
        first reading's boxes (a far shot: the hand fills a small part of the frame, and the localiser, which shrinks
        the whole picture to its input, saw its tiles tiny). The region is taken from every box, the unsure ones too
        (a far shot's hand tiles are often scored low at the first decode: the reported boxes alone lost 22 of 224 far
        shots, docs/rules-session54.md). None where no smaller reduction exists within FAR_SHOT_MAX_PIXELS, or where
        the region would reach past FAR_SHOT_MAX_SHARE of the photo's long side."""
        in_photo = first.tile_size * first.read_scale  # the tiles' size in the photo's own pixels
        factor = int(first.read_scale)
        while factor > 1 and in_photo / factor < FAR_SHOT_TILE_PX:
            factor //= 2
        while (first.width // factor) * (first.height // factor) > FAR_SHOT_MAX_PIXELS:
            factor *= 2
        if factor >= first.read_scale:
            return None
        boxes = np.asarray(first.detections.boxes, np.float64)
        margin = FAR_SHOT_MARGIN * in_photo
        span = max(boxes[:, 2].max() - boxes[:, 0].min(), boxes[:, 3].max() - boxes[:, 1].min()) + 2 * margin
        if span > FAR_SHOT_MAX_SHARE * max(first.width, first.height):
            return None
        # (the floor: libjpeg's reduction rule, ``vision.io.reduced_decode_factor``, then stops at ``factor`` for any
        # size, an odd one too)
        loaded = decode_image(data, min_side=max(first.width, first.height) // factor, max_pixels=self.max_pixels)
        if loaded.scale != factor:  # (a JPEG that OpenCV could not decode reduced and Pillow decoded whole)
            return None
        x0, y0, x1, y1 = _region_around(loaded.image, boxes, margin, factor)
        region = np.ascontiguousarray(loaded.image[y0:y1, x0:x1])
        dets, _, stretch, spares, scores = self.recognize_array(region, float(factor), (x0 * factor, y0 * factor))
        return Recognition(dets, first.width, first.height, {}, stretch, spares, np.asarray(scores, np.float32),
                           read_scale=float(factor))

    def _read_region(self, image: np.ndarray, first: Recognition) -> Recognition | None:
        """Z56 (docs/rules-session56.md): a picture read at full size whose face-up tiles measure under
        REGION_TILE_BELOW px is localised and named again in the region REGION_MARGIN tile sizes around every box of
        the first reading, where that region's long side is at most 1 / REGION_ZOOM_FROM of the picture's (the
        localiser shrinks the whole frame, clutter and bare table included, to its input side). None otherwise, and
        where the region would be taken for a close shot that the picture is not (``is_close_shot`` judges a picture
        by its tiles against its long side: a few tiles cut tight would be sent to the close-shot localiser, chosen
        for whole close photos): the picture is read once."""
        size = first.tile_size
        if size is None or size >= REGION_TILE_BELOW:
            return None
        boxes = np.asarray(first.detections.boxes, np.float64)
        x0, y0, x1, y1 = _region_around(image, boxes, REGION_MARGIN * size)
        if min(x1 - x0, y1 - y0) < 2:  # (boxes of no size)
            return None
        if max(image.shape[:2]) < REGION_ZOOM_FROM * max(x1 - x0, y1 - y0):
            return None
        region = np.ascontiguousarray(image[y0:y1, x0:x1])
        if self.close_localizer is not None and is_close_shot(boxes, region.shape, self.close_from) \
                and not is_close_shot(boxes, image.shape, self.close_from):
            return None
        dets, _, stretch, spares, scores = self.recognize_array(region, 1.0, (x0, y0))
        return Recognition(dets, first.width, first.height, {}, stretch, spares, np.asarray(scores, np.float32),
                           read_scale=1.0)


def _region_around(image: np.ndarray, boxes: np.ndarray, margin: float, factor: int = 1) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the part of ``image`` (decoded 1 / ``factor`` of the picture the boxes (N, 4) are in) that
    reaches ``margin`` picture pixels past every box, clipped to the image; made a little wider (or taller) where it
    would be square within twice SQUARE_TOLERANCE, since a square picture is looked at for a squeeze
    (``vision.squeeze``), which a region cut from a photo never is."""
    h, w = image.shape[:2]
    x0 = max(0, int((boxes[:, 0].min() - margin) / factor))
    y0 = max(0, int((boxes[:, 1].min() - margin) / factor))
    x1 = min(w, int(np.ceil((boxes[:, 2].max() + margin) / factor)))
    y1 = min(h, int(np.ceil((boxes[:, 3].max() + margin) / factor)))
    if is_square(image[y0:y1, x0:x1], 2 * SQUARE_TOLERANCE):
        grow = int(0.1 * max(x1 - x0, y1 - y0)) + 1
        widened = _grown(x0, x1, w, grow)
        if widened is not None:
            x0, x1 = widened
        else:
            y0, y1 = _grown(y0, y1, h, grow) or (y0, y1)
    return x0, y0, x1, y1


def _oriented_along_rows(detections: Detections, turned: tuple[np.ndarray, np.ndarray, np.ndarray],
                         rows: float) -> Detections:
    """``detections`` with the ``rotation`` and ``sideways_probability`` of the tiles looked at along the rows
    (``Recognizer._look_along_rows``: indices, class and orientation probabilities) from that look, those named a back
    after all left as they are. The head says how far each face lies turned (clockwise) from the level rows; the
    rotation in the picture is that turn plus the rows' nearest quarter turn, so every face of a row carries the row's
    quarter turn however near 45 degrees it lies (docs/rules-session33.md, R36)."""
    face_up, _, orient = turned
    keep = detections.class_ids[face_up] != FACE_DOWN
    face_up, orient = face_up[keep], orient[keep]
    quarter = int(round(rows / 90.0))  # the rows' nearest quarter turn, -1, 0 or 1
    rotation = detections.rotation.copy()
    rotation[face_up] = (np.argmax(orient, axis=1) * 90 + quarter * 90) % 360
    across = orient[:, 1] + orient[:, 3]  # turned a quarter from the rows
    sideways = detections.sideways_probability.copy()
    sideways[face_up] = np.clip(across if quarter % 2 == 0 else 1.0 - across, 0.0, 1.0)
    return replace(detections, rotation=rotation, sideways_probability=sideways)


def rows_direction(boxes: np.ndarray) -> float | None:
    """The direction (degrees in (-90, 90], x right and y down) of the rows the boxes' centres trace: the lines
    through tiles with a neighbour on either side (``geometry.lined_row_direction``), else each tile's nearest
    neighbour (``geometry.free_row_direction``), at the reader's scale (the median box's square root of area);
    None with too few tiles close together."""
    centers, scale = geometry.centers_and_scale(boxes)
    if len(centers) < 3:
        return None
    direction = geometry.lined_row_direction(centers, scale)
    return direction if direction is not None else geometry.free_row_direction(centers, scale)


def is_close_shot(boxes: np.ndarray, shape: tuple, side: float = CLOSE_SHOT_SIDE) -> bool:
    """Whether the boxes (N, 4) found in a picture of ``shape`` (h, w, ...) have a median short side of ``side`` px
    or more, the picture scaled so that its long side is 640 px (hk-photos' size)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes):
        return False
    return median_short_side(boxes) * 640 / max(shape[0], shape[1]) >= side


class SpareTiles:
    """The localiser's spare candidates of one picture (``onnx_models.spare_candidates``: boxes it scored below its
    threshold, or dropped beside a kept box), its best-scored first; ``boxes`` (M, 4) in the picture's pixels. Named
    like the tiles only when first called (``spares()`` -> Detections): the hand reader needs them only where the
    tiles alone make no hand, and naming four costs about 7 ms of a 12 MP photo's 100. Holds the decoded picture until
    then. Safe to call from several threads (they are named once)."""

    def __init__(self, boxes: np.ndarray, name: Callable[[], Detections] | None):
        self.boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        self._name = name if len(self.boxes) else None
        self._named: Detections | None = None
        self._lock = threading.Lock()

    @classmethod
    def none(cls) -> "SpareTiles":
        return cls(np.zeros((0, 4), np.float32), None)

    def __len__(self) -> int:
        return len(self.boxes)

    def __call__(self) -> Detections:
        with self._lock:
            if self._named is None:
                self._named = self._name() if self._name is not None else Detections.empty()
                self._name = None  # the picture is no longer needed
            return self._named

    def __repr__(self) -> str:
        return f"SpareTiles({len(self)} boxes{', named' if self._named is not None else ''})"


LIFT_AXIS_SHARE = 0.6  # the share of face-up tiles on one axis from which the others are the sideways ones
LIFT_MIN_TILES = 6  # fewer face-up tiles: every one is measured
LIFT_SIDEWAYS_DOUBT = 0.2  # a tile this likely turned to the other axis is measured too


def lift_candidates(detections: Detections) -> np.ndarray:
    """Indices of the face-up tiles whose ``lifted`` the reader may read: the lift model is read only on a meld's
    sideways tile, and a sideways tile lies turned a quarter from the photo's rows, whose tiles are most of the
    photo's. So: the face-up tiles on the minority axis by their rotation labels, and those the orientation head gives
    LIFT_SIDEWAYS_DOUBT or more of lying on it; every face-up tile where no axis holds LIFT_AXIS_SHARE of them or
    fewer than LIFT_MIN_TILES show a face."""
    face_up = np.flatnonzero(~detections.face_down)
    if len(face_up) < LIFT_MIN_TILES:
        return face_up
    quarter = (detections.rotation[face_up] % 180) == 90
    share = quarter.mean()
    if max(share, 1.0 - share) < LIFT_AXIS_SHARE:
        return face_up
    majority_quarter = share > 0.5
    p_quarter = detections.sideways_probability[face_up]
    p_minority = np.where(majority_quarter, 1.0 - p_quarter, p_quarter)
    keep = (quarter != majority_quarter) | ~(p_minority < LIFT_SIDEWAYS_DOUBT)  # NaN (not measured) is kept too
    return face_up[keep]


def _grown(lo: int, hi: int, limit: int, grow: int) -> tuple[int, int] | None:
    """[lo, hi) within [0, limit) made ``grow`` longer, half on each side where both have room, else on whichever
    side has it (a region in a corner of the photo); None where [0, limit) has no room for it."""
    if lo + (limit - hi) < grow:
        return None
    before = min(lo, grow // 2) if limit - hi >= grow - grow // 2 else grow - (limit - hi)
    return lo - before, hi + grow - before


def _face_up_count(recognition: Recognition) -> int:
    return int(np.count_nonzero(np.asarray(recognition.detections.class_ids) != FACE_DOWN))


def _keeps_most_tiles(second: Recognition, first: Recognition) -> bool:
    """Whether a second reading (Z54's, Z56's) replaces the first: unless it lost most of the face-up tiles (a
    region cut wrong); the first reading then stands."""
    return 2 * _face_up_count(second) >= _face_up_count(first)


def _moved(detections: Detections, shift: np.ndarray) -> Detections:
    """``detections`` with every box moved by ``shift`` (4,): (dx, dy, dx, dy)."""
    if not shift.any() or len(detections) == 0:
        return detections
    return replace(detections, boxes=(detections.boxes + shift).astype(np.float32))


def assemble(boxes: np.ndarray, probs: np.ndarray, orient: np.ndarray, landscape: np.ndarray,
             topk: int = TOPK) -> Detections:
    """Classifier outputs -> Detections. ``orient``: (N, 4) probabilities of the face turned 0 / 90 / 180 / 270
    degrees clockwise in the crop, or (N, 2) upright / upside-down. rotation = turn of the face in the crop + 90 for a
    landscape box (its crop was turned 90 degrees counter-clockwise, undoing a clockwise turn). With the 4-way head,
    ``sideways_probability`` is the probability of a quarter turn in the image (NaN for backs and the 2-way head)."""
    n = len(boxes)
    if n == 0:
        return Detections.empty(topk)
    k = min(topk, probs.shape[1])
    order = np.argsort(-probs, axis=1, kind="stable")[:, :k]
    top_p = np.take_along_axis(probs, order, axis=1)
    steps = orient.shape[1]
    turn_in_crop = np.argmax(orient, axis=1) * (360 // steps)
    rotation = (turn_in_crop + np.where(landscape, 90, 0)) % 360
    class_ids = order[:, 0]
    rotation = np.where(class_ids == FACE_DOWN, np.where(landscape, 90, 0), rotation)
    sideways = np.full(n, np.nan, np.float32)
    if steps == 4:  # turned a quarter in the image: a quarter turn in an unturned crop, none or a half in a turned one
        quarter = orient[:, 1] + orient[:, 3]
        sideways = np.where(landscape, 1.0 - quarter, quarter).astype(np.float32)
        sideways = np.where(class_ids == FACE_DOWN, np.nan, np.clip(sideways, 0.0, 1.0)).astype(np.float32)
    return Detections(boxes, class_ids, top_p[:, 0], rotation, order, top_p, sideways_probability=sideways)
