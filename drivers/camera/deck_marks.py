"""A deck design's marks as masks: font glyphs and drawn suits (255 on ink, cropped to it).

:func:`glyph_mask` renders a text in a font file or one of OpenCV's built-in fonts (OpenCV's own
font engine, ``cv2.FontFace``); :func:`drawn_suit` draws a suit mark from simple shapes, varied
by three parameters; :func:`stem_mask` is a ten's plain ``1``. The pieces that
:mod:`~drivers.camera.decks` checks fonts with and :mod:`~drivers.camera.deck_print` prints
designs with. Nothing here runs at the table.
"""

from __future__ import annotations

import functools
import itertools

import cv2
import numpy as np
import numpy.typing as npt

Mask = npt.NDArray[np.uint8]

RANK_TEXT = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_TEXT = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
#: font size used to cut glyph masks, pixels
GLYPH_PX = 160


@functools.cache
def _font_face(font: str) -> cv2.FontFace:
    """One FontFace per font for the life of the process. OpenCV 5's glyph cache outlives a
    freed FontFace: a new face created at the same address was seen to draw the old font's
    glyphs (a Caladea ``Q`` came out as another font's ``2``), which mislabels synthetic
    decks."""
    return cv2.FontFace(font)


@functools.lru_cache(maxsize=4096)
def glyph_mask(font: str, text: str) -> Mask:
    """255 on the ink of ``text`` in ``font`` (a font file or built-in name), rendered
    :data:`GLYPH_PX` pixels high and cropped to its ink; empty (0, 0) when nothing renders."""
    face = _font_face(font)
    canvas = np.zeros((3 * GLYPH_PX, 3 * GLYPH_PX * max(1, len(text))), np.uint8)
    cv2.putText(canvas, text, (GLYPH_PX // 2, 2 * GLYPH_PX), (255, 255, 255), face, GLYPH_PX)
    ys, xs = np.nonzero(canvas > 127)
    if ys.size == 0:
        return np.zeros((0, 0), np.uint8)
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def _bezier(p0: npt.ArrayLike, p1: npt.ArrayLike, p2: npt.ArrayLike, n: int = 24) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    a, b, c = (np.asarray(p, np.float64) for p in (p0, p1, p2))
    return np.asarray((1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c)


def _heart_outline(size: float, yscale: float) -> np.ndarray:
    """The classic parametric heart (point down), ``size`` pixels wide, its height stretched by
    ``yscale``; points (n, 2) with the top-left of its box at (0, 0)."""
    t = np.linspace(0, 2 * np.pi, 200)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) * yscale
    pts = np.stack([x - x.min(), y - y.min()], axis=1)
    return np.asarray(pts * size / 32.0)


def drawn_suit(suit: str, shape: tuple[float, float, float], size: int = 200) -> Mask:
    """A suit mark drawn from a parametric heart, circles and curves, cropped to its ink.

    ``shape`` (each 0..1) varies the design: aspect (a), stem or lobe size (b), side curvature
    or stem flare (c). ``size`` is the drawing's scale in pixels.
    """
    a, b, c = shape
    img = np.zeros((2 * size, 2 * size), np.uint8)
    s = float(size)
    off = np.array([s / 2, s / 4])

    def poly(points: np.ndarray) -> None:
        cv2.fillPoly(img, [np.round(points + off).astype(np.int32)], 255, cv2.LINE_AA)

    def circle(cx: float, cy: float, r: float) -> None:
        cv2.circle(img, (round(cx + off[0]), round(cy + off[1])), round(r), 255, -1, cv2.LINE_AA)

    def stem(top: float, bottom: float, cx: float) -> None:
        half = s * (0.03 + 0.04 * b)
        flare = s * (0.12 + 0.1 * c)
        left = _bezier((cx - half, top), (cx - half, bottom - 0.05 * s), (cx - flare, bottom))
        right = _bezier((cx + flare, bottom), (cx + half, bottom - 0.05 * s), (cx + half, top))
        poly(np.vstack([left, right]))

    if suit == "h":
        poly(_heart_outline(s, 0.9 + 0.25 * a))
    elif suit == "s":
        body = _heart_outline(s, 0.9 + 0.2 * a)
        body[:, 1] = body[:, 1].max() - body[:, 1]  # point up
        poly(body)
        h = float(body[:, 1].max())
        stem(0.6 * h, h + s * (0.2 + 0.15 * b), s / 2)
    elif suit == "d":
        hw = s * (0.36 + 0.14 * a)
        cx, top, bottom = s / 2, 0.0, 1.2 * s
        mid = (top + bottom) / 2
        k = 0.25 * c - 0.05  # sides bend inwards by this share of the way to the centre
        corners = [(cx, top), (cx + hw, mid), (cx, bottom), (cx - hw, mid), (cx, top)]
        sides = []
        for (x0, y0), (x1, y1) in itertools.pairwise(corners):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            sides.append(_bezier((x0, y0), (mx + k * (cx - mx), my + k * (mid - my)), (x1, y1)))
        poly(np.vstack(sides))
    else:  # clubs
        r = s * (0.2 + 0.05 * b)
        cx = s / 2
        spread = 1.0 + 0.2 * a
        circle(cx, r, r)
        circle(cx - spread * r, 2.5 * r, r)
        circle(cx + spread * r, 2.5 * r, r)
        circle(cx, 2.0 * r, 0.7 * r)
        stem(2.2 * r, 3.5 * r + s * (0.15 + 0.1 * c), cx)
    ys, xs = np.nonzero(img > 127)
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def stem_mask(zero: Mask) -> Mask:
    """A plain ``1``: a bar as tall as ``zero`` (a font's ``0`` mask, 255 on ink) and as thick
    as its side strokes (the ink run at mid-height, left side): uint8 (h, thickness), all 255.
    ``zero`` itself when it has no ink at mid-height."""
    row = zero[zero.shape[0] // 2] > 127
    ink = np.flatnonzero(row)
    if ink.size == 0:
        return zero
    gaps = np.flatnonzero(~row[ink[0] :])
    thick = int(gaps[0]) if gaps.size else int(ink.size)
    return np.full((zero.shape[0], max(1, thick)), 255, np.uint8)
