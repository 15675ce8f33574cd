"""Find cards in a frame: bright, convex quadrilaterals of card shape against the background.

Why this way: card faces are the brightest, least coloured large areas on a felt or a desk, so the
minimum of the B, G, R channels (white stays high, green felt or red leather goes low) split by
Otsu's threshold separates them; Canny edges cut apart cards that touch or overlap a bright
neighbour. Each remaining blob whose convex hull is close to a 4-corner polygon of card-like aspect
is a candidate. False candidates (a picture frame on a court card, a sheet of paper) usually show
no index; the reader drops quadrilaterals nested in another one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from drivers.camera.geometry import Image, Quad, as_image, darkest, order_corners, quad_aspect

#: frames are analysed at this longest side (pixels); cards stay > 40 px wide at table distance
WORK_SIZE = 640
#: each corner's next one
_NEXT = [1, 2, 3, 0]
#: pixels (at WORK_SIZE) the edge cut eats from a blob: the dilated Canny line's half width
EDGE_CUT = 1.5


@dataclass(frozen=True)
class DetectorSettings:
    """Tunable limits of :func:`find_cards`; defaults suit a table camera and phone photos.

    Attributes:
        min_area: smallest card, as a fraction of the frame area.
        min_fill: blob area over its quadrilateral's area (rounded corners give ~0.97).
        aspect: accepted long/short side ratio of the quadrilateral (poker 1.40, bridge 1.56,
            widened for perspective: a photo taken 40..45 degrees off the vertical stretches a
            card up to ~2.2 or squeezes it to ~1.15).
        canny: low and high Canny thresholds on the 0..255 whiteness image.
    """

    min_area: float = 0.004
    min_fill: float = 0.85
    aspect: tuple[float, float] = (1.15, 2.3)
    canny: tuple[int, int] = (20, 60)


def _whiteness(frame: Image) -> Image:
    """Per-pixel min(B, G, R), blurred: high on white card stock, low on felt and dark ink."""
    return as_image(cv2.GaussianBlur(darkest(frame), (5, 5), 0))


def _refine(contour: np.ndarray, quad: Quad) -> Quad:
    """Corners where the card's straight sides meet, from lines fitted to the contour.

    approxPolyDP puts the vertices on the rounded corners, inside the card: the warped card
    would lose its margin and the index printed close to it. Each side is refitted to the
    contour points near it, away from the corner arcs, and adjacent sides are intersected.
    """
    pts = contour.reshape(-1, 2).astype(np.float32)
    # the four sides at once (a Python step per side cost more than the arithmetic)
    ab = quad[_NEXT] - quad
    lengths = np.sqrt((ab * ab).sum(axis=1))
    if float(lengths.min()) < 1:
        return quad
    rel = pts[None, :, :] - quad[:, None, :]  # (4, n, 2): each point from each side's start
    t = (rel @ ab[:, :, None])[:, :, 0] / (lengths * lengths)[:, None]
    dist = np.abs(rel[:, :, 0] * ab[:, None, 1] - rel[:, :, 1] * ab[:, None, 0]) / lengths[:, None]
    near = (t > 0.15) & (t < 0.85) & (dist < (0.05 * lengths + 2)[:, None])
    lines = []
    for i in range(4):
        side = pts[near[i]]
        if len(side) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(side, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] - u[1] * -v[0]
        if abs(det) < 1e-6:
            return quad
        s = ((q - p)[0] * -v[1] - (q - p)[1] * -v[0]) / det
        out.append(p + s * u)
    refined = np.array(out, np.float32)
    # a refit that moves a corner far means the sides were not straight: keep the polygon
    if np.max(np.linalg.norm(refined - quad, axis=1)) > 0.15 * np.sqrt(cv2.contourArea(quad)):
        return quad
    return refined


def _polygon(contour: np.ndarray, settings: DetectorSettings) -> Quad | None:
    """The 4-corner polygon of ``contour``'s convex hull, ordered, when the contour fills it
    (``min_fill``); None otherwise. Corners on the rounded card corners (see :func:`_refine`)."""
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
    return order_corners(poly)


def _refined(contour: np.ndarray, poly: Quad, settings: DetectorSettings) -> Quad | None:
    """``poly`` refitted to the card's sides (:func:`_refine`), if of card aspect; else None."""
    quad = _refine(contour, poly)
    low, high = settings.aspect
    if not low <= quad_aspect(quad) <= high:
        return None
    return quad


@dataclass(frozen=True)
class CardsFound:
    """What :func:`detect_cards` found in a frame.

    Attributes:
        quads: the cards' ordered corner arrays (see
            :func:`~drivers.camera.geometry.order_corners`) in frame pixels, largest first.
        stock: the bright areas (card stock, paper, a light desk): 255 where Otsu's threshold
            on the blurred min(B, G, R) puts a pixel on the bright side, uint8, at ``scale``
            times the frame's size.
        scale: ``stock`` pixels per frame pixel.
    """

    quads: list[Quad]
    stock: Image
    scale: float


def find_cards(frame: Image, settings: DetectorSettings | None = None) -> list[Quad]:
    """Quadrilaterals of the cards visible in ``frame``.

    Args:
        frame: BGR image, shape (h, w, 3), uint8, any size.
        settings: detection limits; :class:`DetectorSettings` defaults when None.

    Returns:
        ordered corner arrays (see :func:`~drivers.camera.geometry.order_corners`) in ``frame``
        pixels, largest card first.
    """
    return detect_cards(frame, settings).quads


def detect_cards(frame: Image, settings: DetectorSettings | None = None) -> CardsFound:
    """The cards of ``frame`` (as :func:`find_cards`) and its bright areas, which the index
    search (:mod:`~drivers.camera.search`) keeps to."""
    s = settings or DetectorSettings()
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_SIZE / max(h, w))
    small = as_image(cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    white = _whiteness(small)
    _, mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.dilate(cv2.Canny(white, *s.canny), np.ones((3, 3), np.uint8))
    min_area = s.min_area * small.shape[0] * small.shape[1]
    found: list[tuple[float, Quad]] = []
    # two views of the same mask: whole bright blobs (court cards, whose picture edges would cut
    # them up), and blobs cut along edges (cards touching a bright neighbour or background)
    cut = cv2.subtract(mask, edges)  # both 0 or 255: the mask without the edges, one pass
    for view, grow in ((mask, 0.0), (cut, EDGE_CUT)):
        contours, _ = cv2.findContours(view, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < min_area:
                continue
            poly = _polygon(contour, s)
            if poly is None:
                continue
            if grow and any(_same(_grow(poly, grow), q) for _, q in found):
                continue  # a card the whole-blob view found: its sides need no second fit
            quad = _refined(contour, poly, s)
            if quad is None:
                continue
            quad = _grow(quad, grow)
            if not any(_same(quad, q) for _, q in found):
                found.append((area, quad))
    found.sort(key=lambda item: -item[0])
    quads = [(quad / scale).astype(np.float32) for _, quad in found]
    return CardsFound(quads, as_image(mask), scale)


def spans_frame(quad: Quad, w: int, h: int) -> bool:
    """Whether ``quad`` reaches all four borders of a ``w`` x ``h`` frame: on an empty table
    Otsu splits the cloth's texture and the frame's own outline passes for a card; in a
    flattened-card photo it is the card."""
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    edge = 0.02 * max(w, h)
    return bool(x0 < edge and y0 < edge and x1 > w - 1 - edge and y1 > h - 1 - edge)


def _grow(quad: Quad, by: float) -> Quad:
    """``quad`` with each corner moved ``by`` pixels outward along the diagonal from the centre."""
    if by <= 0:
        return quad
    centre = quad.mean(axis=0)
    out = quad - centre
    out *= 1.0 + by * np.sqrt(2.0) / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1.0)
    return np.asarray(out + centre, dtype=np.float32)


def _same(a: Quad, b: Quad) -> bool:
    """Two quadrilaterals of one card: each centre inside the other, areas within 25 %."""
    area_a, area_b = cv2.contourArea(a), cv2.contourArea(b)
    if not 0.8 <= area_a / max(area_b, 1e-6) <= 1.25:
        return False
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    inside_b = cv2.pointPolygonTest(b.reshape(-1, 1, 2), (float(ca[0]), float(ca[1])), False)
    inside_a = cv2.pointPolygonTest(a.reshape(-1, 1, 2), (float(cb[0]), float(cb[1])), False)
    return inside_a >= 0 and inside_b >= 0
