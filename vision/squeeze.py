"""Undoing a squeezed photo: a picture forced into the wrong aspect ratio (hk-photos' exporter stretched every photo to
640x640, so a tight shot of one row of tiles, 10:1 wide, arrives with its tiles ten times too thin).

The localiser finds almost nothing in such a picture. Only a square picture is looked at for a squeeze, the frame
such a tool forces pictures into (R70, docs/rules-session43.md: a photo that kept its camera's aspect ratio was not
forced into one). The squeeze shows in the picture itself: the axis that was
shrunk carries most of the brightness gradient (``anisotropy``). When it is large and the picture as it came gives
fewer than ``ENOUGH_AS_IS`` confident boxes, the localiser is also run on copies of the picture shrunk along the
*other* axis by each factor of ``STRETCHES`` (the same, to the network, as stretching the squeezed axis back). Each
factor's count of confident boxes is taken only as far as a neighbouring factor confirms it (a true unsqueeze works
over a range of factors; a lone factor that fires is clutter read as tiles), and the smallest factor (the picture
as it came first) with at least ``KEEP_SHARE`` of the best confirmed count is kept: too large a factor makes every
tile look wide, and the localiser then splits or merges them.

The gate and the rule were fixed on calibration strips (the 45 photos of the localiser's held-out slice cropped to
their tiles and forced into 640x640, aspect 0.2 to 13, with the same photos unmodified as controls) and on synthetic
scenes of three development seeds (1, 3, 11; 180 pictures past the gate), with localiser train9. On the strips the
rule finds 181 more tiles than the pictures as they came (the best factor per picture: 263 more) and changes none of
the unmodified photos; of the 180 synthetic pictures it tries the stretches on one and keeps none. A first rule,
without the neighbour check and the ``ENOUGH_AS_IS`` skip, stretched synthetic pictures it should not have.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

GATE = 0.4
"""|log(mean |d/dx| / mean |d/dy|)| from which a picture counts as possibly squeezed (unmodified photos: mostly < 0.4)."""
ENOUGH_AS_IS = 8
"""Confident boxes in the picture as it came that make stretching it needless (and keep the common case fast)."""
STRETCHES = (2, 3, 4, 6, 8, 11)
CONFIDENT = 0.5
KEEP_SHARE = 0.7
SQUARE_TOLERANCE = 0.02
"""A picture whose sides differ by at most this share of the longer counts as square (``is_square``)."""

Localize = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


def anisotropy(image: np.ndarray, side: int = 320) -> float:
    """log(mean |horizontal gradient| / mean |vertical gradient|) of a BGR or grey image, measured on a copy whose
    long side is ``side`` pixels (aspect kept). Positive: the picture was squeezed horizontally (a wide original)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = grey.shape[:2]
    f = side / max(h, w)
    if f < 1:
        grey = cv2.resize(grey, (max(3, round(w * f)), max(3, round(h * f))), interpolation=cv2.INTER_AREA)
    grey = grey.astype(np.float32)
    gx = float(np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)).mean())
    gy = float(np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1)).mean())
    return float(np.log((gx + 1e-6) / (gy + 1e-6)))


def localize_unsqueezed(localize: Localize, image: np.ndarray, localize_squeezed: Localize | None = None,
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Run ``localize`` (BGR image -> boxes (N, 4) xyxy, scores (N,), back scores (N,)) on ``image`` and, when it
    looks squeezed, on stretched copies; keep one answer (see the module docstring).

    Only a square picture (``is_square``) is looked at for a squeeze: a squeeze comes from a tool that forces pictures
    into a square frame (hk-photos' exporter: 640 x 640), and a picture that kept a camera's aspect ratio was not
    forced into one. Any other picture is read by ``localize`` as it came (docs/rules-session43.md, R70; before it,
    R68c of docs/rules-session42.md ran the squeezed localiser on such a picture first, where its gradients passed the
    gate, as the rows of an oblique photo do).

    ``localize_squeezed``: when given, it decides every square picture whose anisotropy passes the gate (the picture
    as it came and the stretched copies, by the rule above), its boxes kept even where it finds no squeeze (on
    hk-photos the main localiser's boxes of those pictures lost a train hand and some F1: R68b), and ``localize``
    reads the other square pictures.

    Returns (boxes (N, 4) in ``image`` pixels, scores, back scores, landscape (N,) bool: the box is wider than tall
    once the squeeze is undone, factor kept: 1 = as it came, +k = horizontal axis stretched k times, -k = vertical)."""
    if not is_square(image):
        # a squeeze comes from a tool that forces pictures into a square frame (hk-photos' exporter): a picture that
        # kept another aspect ratio, a camera's, was not forced into one, and is read as it came (R70,
        # docs/rules-session43.md; R68c read it with the squeezed localiser first)
        boxes, scores, backs = localize(image)
        return boxes, scores, backs, _landscape(boxes), 1
    a = None
    if localize_squeezed is not None:
        a = anisotropy(image)
        if abs(a) >= GATE:
            return _unsqueezed(localize_squeezed, image, a)
    return _unsqueezed(localize, image, a)


def is_square(image: np.ndarray, tolerance: float = SQUARE_TOLERANCE) -> bool:
    """Whether the picture's sides differ by ``tolerance`` or less (of the longer): the frame a tool forcing pictures
    into a fixed size gives (hk-photos' exporter, 640 x 640), the only pictures looked at for a squeeze (R70)."""
    h, w = image.shape[:2]
    return abs(w - h) <= tolerance * max(w, h)


def _unsqueezed(localize: Localize, image: np.ndarray, a: float | None = None,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``localize_unsqueezed`` with one localiser: the picture as it came, then, when it gives fewer than
    ``ENOUGH_AS_IS`` confident tiles and passes the gate, the stretched copies (``a``: its anisotropy, if measured)."""
    boxes, scores, backs = localize(image)
    as_is = (boxes, scores, backs, _landscape(boxes), 1)
    confident_as_is = int((scores >= CONFIDENT).sum())
    if confident_as_is >= ENOUGH_AS_IS:
        return as_is
    if a is None:
        a = anisotropy(image)
    if abs(a) < GATE:
        return as_is
    h, w = image.shape[:2]
    counts, answers = [], []
    for k in STRETCHES:
        if a > 0:  # wide original: shrink the height instead of stretching the width (same picture to the net)
            work = cv2.resize(image, (w, max(8, round(h / k))), interpolation=cv2.INTER_AREA)
        else:
            work = cv2.resize(image, (max(8, round(w / k)), h), interpolation=cv2.INTER_AREA)
        sx, sy = w / work.shape[1], h / work.shape[0]
        b, s, bk = localize(work)
        counts.append(int((s >= CONFIDENT).sum()))
        answers.append((b * np.float32([sx, sy, sx, sy]), s, bk, _landscape(b), k if a > 0 else -k))
    # a factor's count as far as a neighbouring factor (the picture as it came counts as factor 1) confirms it
    chain = [confident_as_is] + counts
    confirmed = [min(chain[i], max(chain[i - 1], chain[i + 1] if i + 1 < len(chain) else 0))
                 for i in range(1, len(chain))]
    most = max(confirmed)
    if most == 0 or confident_as_is >= KEEP_SHARE * most:
        return as_is
    return next(answer for n, answer in zip(confirmed, answers) if n >= KEEP_SHARE * most)


def _landscape(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, 2] - boxes[:, 0]) > (boxes[:, 3] - boxes[:, 1])
