"""Card geometry: corner ordering and perspective rectification to the canonical card image.

A quadrilateral (``Quad``) is a float32 array of shape (4, 2), pixel (x, y) in the frame. The
canonical card is portrait, :data:`CARD_W` x :data:`CARD_H` pixels (63 x 88 mm poker cards are
1 : 1.40), so the corner index sits top-left — or bottom-right, for a card lying upside down.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

CARD_W = 250
CARD_H = 350

Quad = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]
Glyph = npt.NDArray[np.float32]


def as_image(a: object) -> Image:
    """``a`` (an OpenCV result) as a uint8 array; no copy when it already is one."""
    return np.asarray(a, dtype=np.uint8)


#: erosion kernel of three bytes in a row: a pixel's B, G and R when anchored at its B
_THREE = np.ones((1, 3), np.uint8)


def darkest(img: Image) -> Image:
    """Per-pixel min(B, G, R) of a BGR image, shape (h, w): white stays high, any colour or dark
    ink goes low.

    The image's rows are taken as rows of bytes and eroded by three bytes to the right: at
    every third byte that is the minimum of one pixel's channels. Exact, and faster than
    splitting the channels and taking their minimum at every size (a 1280x720 frame several
    times, an index region 133x65 by a third: three planes are written and read again).
    """
    h, w = img.shape[:2]
    rows = np.ascontiguousarray(img).reshape(h, w * 3)
    eroded = cv2.erode(rows, _THREE, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    # every third byte as the first channel of a 3-channel view (numpy's strided copy was
    # a third of the time)
    return as_image(cv2.extractChannel(as_image(eroded).reshape(h, w, 3), 0))


def as_glyph(a: object) -> Glyph:
    """``a`` (an OpenCV result) as a float32 array; no copy when it already is one."""
    return np.asarray(a, dtype=np.float32)


#: each corner's next one (np.roll by -1 of four corners, without its overhead)
_NEXT = [1, 2, 3, 0]


def order_corners(points: npt.ArrayLike) -> Quad:
    """Order four corner points so the card maps upright (portrait) without mirroring.

    Args:
        points: four (x, y) points in any order, shape (4, 2) or (4, 1, 2).

    Returns:
        shape (4, 2) float32: top-left, top-right, bottom-right, bottom-left of the portrait card,
        i.e. clockwise on screen starting at a corner whose first edge is a short side. Which of
        the two short sides comes first is arbitrary: an upside-down card reads the same, since
        standard decks print the index in two opposite corners.
    """
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    sides = np.linalg.norm(pts - pts[_NEXT], axis=1)
    # start at the corner where the edge to the next corner is a short side
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = pts[_NEXT]
    return pts


def quad_aspect(quad: Quad) -> float:
    """Long over short side of a quadrilateral (mean of opposite sides); 1.0 for degenerate ones."""
    sides = np.linalg.norm(quad - quad[_NEXT], axis=1)
    a, b = float(sides[0] + sides[2]), float(sides[1] + sides[3])
    short, long = min(a, b), max(a, b)
    return long / short if short > 0 else 1.0


def rectify_region(
    frame: Image,
    quad: Quad,
    region: tuple[float, float, float, float],
    width: int = CARD_W,
    height: int = CARD_H,
) -> Image:
    """Warp only part of the card: ``region`` (x0, y0, x1, y1) as fractions of the canonical
    ``width`` x ``height`` card. Cheaper than :func:`rectify` when only a corner is needed.

    Returns:
        BGR image, shape (round((y1 - y0) * height), round((x1 - x0) * width), 3).
    """
    x0, y0, x1, y1 = region
    ox, oy = x0 * width, y0 * height
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    dst -= np.array([ox, oy], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    size = (round((x1 - x0) * width), round((y1 - y0) * height))
    return as_image(
        cv2.warpPerspective(
            frame, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    )


def rectify(frame: Image, quad: Quad, width: int = CARD_W, height: int = CARD_H) -> Image:
    """Warp the card under ``quad`` to a ``width`` x ``height`` portrait image.

    Args:
        frame: BGR image, shape (h, w, 3), uint8.
        quad: four corners in ``frame`` pixels, already ordered by :func:`order_corners`.

    Returns:
        BGR image, shape (height, width, 3).
    """
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return as_image(
        cv2.warpPerspective(
            frame, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    )
