"""What the live calibration looks for in a frame: one whole card, lying still, sharp enough.

:func:`single_cards` finds the whole cards in view (clear of the frame's border, not nested in
another), :class:`StillRun` counts the frames one card has lain still (:func:`quad_shift`), and
:func:`face_detail` measures how sharp a rectified face's index is. Used by
:func:`~drivers.camera.live_calibration.capture_cards`.
"""

from __future__ import annotations

import cv2
import numpy as np

from drivers.camera.detect import DetectorSettings, find_cards
from drivers.camera.geometry import Image, Quad
from drivers.camera.glyphs import corners, extract_index

#: a quadrilateral inside a larger one with less than this share of its area is nested in it
#: (a court card's picture frame), as in the reader
NESTED_AREA = 0.8
#: a quadrilateral with a corner this close to the frame's border (fraction of the frame's
#: short side) is not a whole card
BORDER_MARGIN = 0.01


def single_cards(frame: Image, detector: DetectorSettings | None = None) -> list[Quad]:
    """The whole cards in ``frame``, largest first: quadrilaterals of
    :func:`~drivers.camera.detect.find_cards` clear of the frame's border (a card cut by it
    cannot be learned; and Otsu's threshold on an empty felt can split the cloth's texture into
    one frame-sized blob) and not nested in another (a court card's picture frame)."""
    h, w = frame.shape[:2]
    margin = BORDER_MARGIN * min(h, w)
    kept: list[Quad] = []
    for quad in find_cards(frame, detector):  # largest first
        if (
            quad.min() < margin
            or quad[:, 0].max() > w - 1 - margin
            or quad[:, 1].max() > h - 1 - margin
        ):
            continue
        cx, cy = (float(v) for v in quad.mean(axis=0))
        area = cv2.contourArea(quad)
        nested = any(
            area < NESTED_AREA * cv2.contourArea(k)
            and cv2.pointPolygonTest(k.reshape(-1, 1, 2), (cx, cy), False) >= 0
            for k in kept
        )
        if not nested:
            kept.append(quad)
    return kept


def quad_shift(a: Quad, b: Quad) -> float:
    """Largest corner distance between two quadrilaterals of one card, pixels, whichever short
    side each starts at (the corner order of a card turned ~90° can flip between frames)."""
    return min(float(np.max(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1))) for k in range(4))


def _long_side(quad: Quad) -> float:
    return float(np.max(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))


def face_detail(face: Image) -> float | None:
    """The sharper index's suit-mark detail of a rectified face; None when neither corner shows
    an index (then the face is of no use to the calibration either)."""
    found = [g for g in (extract_index(c) for c in corners(face)) if g is not None]
    return max(g.suit_detail for g in found) if found else None


class StillRun:
    """One card lying still: its quadrilateral at the start of the run, frames since, faces."""

    def __init__(self) -> None:
        self.anchor: Quad | None = None
        self.count = 0
        self.faces: list[Image] = []
        self.frames: list[int] = []
        self.checked = False  # the card of this run was identified
        self.rejected = False  # ... as another card than the one asked for

    def reset(self) -> None:
        self.anchor, self.count, self.faces, self.frames = None, 0, [], []
        self.checked = self.rejected = False

    def see(self, quad: Quad, max_shift: float) -> None:
        """Count ``quad`` into the run, or start a new run (faces dropped) when it moved."""
        anchor = self.anchor
        if anchor is None or quad_shift(quad, anchor) > max_shift * _long_side(anchor):
            self.reset()
            self.anchor = quad
        self.count += 1
