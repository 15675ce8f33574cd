"""Cards of a frame as canonical images: detected quadrilaterals, or the whole frame when it
already is one flattened card (a scan or a cropped photo, as in calibration folders)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from drivers.camera.detect import CardsFound, DetectorSettings, detect_cards, spans_frame
from drivers.camera.geometry import CARD_H, CARD_W, Image, Quad, as_image, rectify, rectify_region
from drivers.camera.glyphs import INDEX_ROI, Roi

#: long/short side ratio of a frame taken to be one flattened card (poker 1.40, bridge 1.56)
FLAT_CARD_ASPECT = (1.3, 1.65)


@dataclass(frozen=True)
class CardCandidate:
    """A card-shaped region of a frame.

    Attributes:
        frame: the BGR frame it was found in.
        quad: ordered corners in frame pixels, shape (4, 2) float32.
        whole_frame: the frame itself was taken as the card (no quadrilateral found).
    """

    frame: Image
    quad: Quad
    whole_frame: bool = False

    def image(self) -> Image:
        """The rectified card, BGR (CARD_H, CARD_W, 3)."""
        return rectify(self.frame, self.quad)

    def index_region(self, corner: int, roi: Roi = INDEX_ROI) -> Image:
        """One corner's index region ``roi`` (fractions of the card, see
        :data:`~drivers.camera.glyphs.INDEX_ROI`), as :func:`~drivers.camera.glyphs.index_region`
        cuts it from :meth:`image` but warped straight from the frame: BGR uint8, (roi height x
        CARD_H, roi width x CARD_W, 3). ``corner`` 0 is the top-left; any other value the
        bottom-right, turned half a turn so that its index stands upright.
        """
        if corner == 0:
            return rectify_region(self.frame, self.quad, roi)
        x0, y0, x1, y1 = roi
        bottom = rectify_region(self.frame, self.quad, (1 - x1, 1 - y1, 1 - x0, 1 - y0))
        return as_image(cv2.rotate(bottom, cv2.ROTATE_180))


def _frame_quad(w: int, h: int) -> Quad:
    if h >= w:
        pts = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]
    else:  # landscape frame: its left edge becomes the card's top
        pts = [[0, h - 1], [0, 0], [w - 1, 0], [w - 1, h - 1]]
    return np.array(pts, np.float32)


def locate_cards(
    frame: Image,
    settings: DetectorSettings | None = None,
    *,
    flat_fallback: bool = True,
    found: CardsFound | None = None,
) -> list[CardCandidate]:
    """Every card candidate of ``frame``, rectified, largest first.

    Args:
        frame: BGR image (h, w, 3) uint8.
        settings: detector limits (defaults when None).
        flat_fallback: when no detected card covers half the frame and the frame has a card's
            aspect, also return the whole frame as a card (flattened-card images); when off (a
            table camera), quadrilaterals reaching all four borders are dropped.
        found: :func:`~drivers.camera.detect.detect_cards` of ``frame``, if run already.
    """
    h, w = frame.shape[:2]
    quads = (found or detect_cards(frame, settings)).quads
    if not flat_fallback:  # a table camera: a quadrilateral as big as the frame is no card
        quads = [q for q in quads if not spans_frame(q, w, h)]
    out = [CardCandidate(frame, q) for q in quads]
    biggest = max((float(cv2.contourArea(c.quad)) for c in out), default=0.0)
    aspect = max(h, w) / max(1, min(h, w))
    if (
        flat_fallback
        and biggest < 0.5 * h * w
        and FLAT_CARD_ASPECT[0] <= aspect <= FLAT_CARD_ASPECT[1]
    ):
        quad = _frame_quad(w, h)
        out.append(CardCandidate(frame, quad, whole_frame=True))
    return out


def card_images(frame: Image) -> list[Image]:
    """The rectified images of :func:`locate_cards`, largest detected card first."""
    return [c.image() for c in locate_cards(frame)]


__all__ = ["CARD_H", "CARD_W", "CardCandidate", "card_images", "locate_cards"]
