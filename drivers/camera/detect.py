"""Find cards in a frame: bright, convex quadrilaterals of card shape against the background.

Why this way: card faces are the brightest, least coloured large areas on a felt or a desk, so the
minimum of the B, G, R channels (white stays high, green felt or red leather goes low) split by
Otsu's threshold separates them; Canny edges cut apart cards that touch or overlap a bright
neighbour. Each remaining blob whose convex hull is close to a 4-corner polygon of card-like aspect
is a candidate. False candidates (a picture frame on a court card, a sheet of paper) are harmless:
the index reader reports them as unknown or finds no index.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from drivers.camera.geometry import Image, Quad, as_image, order_corners, quad_aspect

#: frames are analysed at this longest side (pixels); cards stay > 40 px wide at table distance
WORK_SIZE = 640


@dataclass(frozen=True)
class DetectorSettings:
    """Tunable limits of :func:`find_cards`; defaults suit a table camera and phone photos.

    Attributes:
        min_area: smallest card, as a fraction of the frame area.
        min_fill: blob area over its quadrilateral's area (rounded corners give ~0.97).
        aspect: accepted long/short side ratio of the quadrilateral (poker 1.40, bridge 1.56,
            widened for perspective).
        canny: low and high Canny thresholds on the 0..255 whiteness image.
    """

    min_area: float = 0.004
    min_fill: float = 0.85
    aspect: tuple[float, float] = (1.15, 1.9)
    canny: tuple[int, int] = (20, 60)


def _whiteness(frame: Image) -> Image:
    """Per-pixel min(B, G, R), blurred: high on white card stock, low on felt and dark ink."""
    return as_image(cv2.GaussianBlur(np.min(frame, axis=2), (5, 5), 0))


def _quad_of(contour: np.ndarray, settings: DetectorSettings) -> Quad | None:
    """The card-shaped 4-corner polygon fitted to ``contour``, or None."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.04, 0.05):  # rounded corners need a little slack
        poly = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(poly) <= 4:
            break
    if len(poly) != 4:
        return None
    area = cv2.contourArea(poly)
    if area <= 0 or cv2.contourArea(contour) / area < settings.min_fill:
        return None
    quad = order_corners(poly)
    low, high = settings.aspect
    if not low <= quad_aspect(quad) <= high:
        return None
    return quad


def find_cards(frame: Image, settings: DetectorSettings | None = None) -> list[Quad]:
    """Quadrilaterals of the cards visible in ``frame``.

    Args:
        frame: BGR image, shape (h, w, 3), uint8, any size.
        settings: detection limits; :class:`DetectorSettings` defaults when None.

    Returns:
        ordered corner arrays (see :func:`~drivers.camera.geometry.order_corners`) in ``frame``
        pixels, largest card first.
    """
    s = settings or DetectorSettings()
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_SIZE / max(h, w))
    small = as_image(cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    white = _whiteness(small)
    _, mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.dilate(cv2.Canny(white, *s.canny), np.ones((3, 3), np.uint8))
    mask = cv2.bitwise_and(mask, cv2.bitwise_not(edges))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = s.min_area * small.shape[0] * small.shape[1]
    found: list[tuple[float, Quad]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        quad = _quad_of(contour, s)
        if quad is not None:
            found.append((area, (quad / scale).astype(np.float32)))
    found.sort(key=lambda item: -item[0])
    return [quad for _, quad in found]
