"""Printing a deck design (:class:`~drivers.camera.decks.DeckStyle`): its marks sized and
placed, the corner index, whole card faces, and an index region as a table camera sees it.

:func:`rank_mask` and :func:`suit_mask` size a style's marks (from
:mod:`~drivers.camera.deck_marks`); :func:`draw_index` prints the index; :func:`render_face`
a whole face (pips, or a court picture; the jumbo layout of :mod:`~drivers.camera.decks`);
:func:`render_index_region` the index region at camera resolution, as training data. Nothing
here runs at the table.
"""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.cards import Card
from drivers.camera.deck_marks import RANK_TEXT, SUIT_TEXT, Mask, drawn_suit, glyph_mask, stem_mask
from drivers.camera.decks import (
    JUMBO_PICTURE,
    JUMBO_PIP_RANK,
    JUMBO_PIP_SPREAD,
    JUMBO_RANK,
    DeckStyle,
)
from drivers.camera.geometry import CARD_H, CARD_W, Image, as_image
from drivers.camera.glyphs import INDEX_ROI

#: high-resolution rendering scale (times the canonical card) before the camera view shrinks it
HIRES = 4


def _fit(mask: Mask, height: int, xscale: float) -> Mask:
    """``mask`` scaled to ``height`` pixels, its width also multiplied by ``xscale``."""
    h, w = mask.shape
    k = height / h
    size = (max(1, round(w * k * xscale)), max(1, height))
    return as_image(cv2.resize(mask, size, interpolation=cv2.INTER_AREA))


def _embolden(mask: Mask, px: float) -> Mask:
    """Thicker (``px`` > 0) or thinner strokes, ``px`` pixels per side."""
    r = round(abs(px))
    if r < 1:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    pad = cv2.copyMakeBorder(mask, r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    out = cv2.dilate(pad, kernel) if px > 0 else cv2.erode(pad, kernel)
    return as_image(out)


def rank_mask(style: DeckStyle, rank: int, height: int, text: str | None = None) -> Mask:
    """The rank mark of ``rank`` in ``style``, ``height`` pixels tall (ink 255); ``text``
    prints other characters in its place (lone digits: what a misaligned search may see)."""
    text = RANK_TEXT[rank] if text is None else text
    parts = [glyph_mask(style.rank_font, ch) for ch in text]
    if style.ten_stem and text in ("10", "1"):  # a lone 1: what a misaligned search may see
        parts[0] = stem_mask(glyph_mask(style.rank_font, "0"))
    top = max(p.shape[0] for p in parts)
    stroke = style.weight * height  # pixels added (or taken) on each side
    inner = max(1.0, height - 2 * max(stroke, 0.0))  # so that the bold mark is ``height`` tall
    xscale = style.width * (style.ten_width if rank == 10 else 1.0)
    scaled = [
        _embolden(_fit(p, max(1, round(inner * p.shape[0] / top)), xscale), stroke) for p in parts
    ]
    if len(scaled) == 1:
        return scaled[0]
    gap = round(style.ten_gap * height)
    h = max(p.shape[0] for p in scaled)
    w = scaled[0].shape[1] + scaled[1].shape[1] + gap
    out = np.zeros((h, max(w, scaled[0].shape[1], scaled[1].shape[1])), np.uint8)
    x = 0
    for p in scaled:
        y = h - p.shape[0]  # bottom-aligned on the baseline
        region = out[y : y + p.shape[0], x : x + p.shape[1]]
        np.maximum(region, p[:, : region.shape[1]], out=region)
        x += p.shape[1] + gap
    return out


def suit_mask(style: DeckStyle, suit: str, height: int) -> Mask:
    """The suit mark of ``suit`` in ``style``, ``height`` pixels tall (ink 255)."""
    if style.suit_font is None:
        src = drawn_suit(suit, style.shape)
    else:
        src = glyph_mask(style.suit_font, SUIT_TEXT[suit])
    return _fit(src, max(1, height), style.suit_width)


def _paste(img: np.ndarray, mask: Mask, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Blend ``colour`` into ``img`` (float, h x w x 3) through ``mask`` with top-left (x, y)."""
    h, w = mask.shape
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.shape[1], x + w), min(img.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] / 255.0
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + np.array(colour, np.float32) * a


def draw_index(
    img: np.ndarray, card: Card, style: DeckStyle, scale: float, text: str | None = None
) -> None:
    """Print ``card``'s index top-left on ``img`` (float BGR, a card ``scale`` times the
    canonical size); ``text`` replaces the rank characters (see :func:`rank_mask`)."""
    colour = style.red if card.suit in "hd" else style.black
    rank_h = round(style.rank_height * CARD_H * scale)
    rank = rank_mask(style, card.rank, rank_h, text)
    suit = suit_mask(style, card.suit, round(style.suit_height * rank_h))
    # the index column is centred and kept clear of the card's edge: by the widest ten or suit
    widest = max(
        rank_mask(style, 10, rank_h).shape[1],
        *(suit_mask(style, s, round(style.suit_height * rank_h)).shape[1] for s in "shdc"),
    )
    cx = max(style.x * CARD_W * scale, widest / 2 + 0.03 * CARD_W * scale)
    top = round(style.y * CARD_H * scale)
    _paste(img, rank, round(cx - rank.shape[1] / 2), top, colour)
    suit_top = top + rank.shape[0] + round(style.suit_gap * rank_h)
    _paste(img, suit, round(cx - suit.shape[1] / 2), suit_top, colour)


#: pip centres (x, y as fractions of the card) of the number cards, in the usual layouts
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.8), (0.68, 0.8)],
}
_PIPS[5] = [*_PIPS[4], (0.5, 0.5)]
_PIPS[6] = [*_PIPS[4], (0.32, 0.5), (0.68, 0.5)]
_PIPS[7] = [*_PIPS[6], (0.5, 0.35)]
_PIPS[8] = [*_PIPS[7], (0.5, 0.65)]
_PIPS[9] = [*_PIPS[4], (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6), (0.5, 0.5)]
_PIPS[10] = [*_PIPS[4], (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6), (0.5, 0.3), (0.5, 0.7)]
_PIPS[14] = [(0.5, 0.5)]


def render_face(
    card: Card, style: DeckStyle, rng: np.random.Generator, scale: float = 2.0
) -> Image:
    """A whole card face (BGR, ``scale`` times CARD_W x CARD_H) printed in ``style``: both
    indexes, pips for number cards and aces, a framed picture for court cards."""
    h, w = round(CARD_H * scale), round(CARD_W * scale)
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.stock
    colour = style.red if card.suit in "hd" else style.black
    # a jumbo index leaves less room: the pips keep a standard size and close in towards the
    # middle, the court picture shrinks
    jumbo = style.rank_height > JUMBO_RANK
    pip_rank = JUMBO_PIP_RANK if jumbo else style.rank_height
    pip_h = round(pip_rank * CARD_H * scale * (2.6 if card.rank == 14 else 1.4))
    if card.rank in _PIPS:
        pip = suit_mask(style, card.suit, pip_h)
        for px, py in _PIPS[card.rank]:
            m = pip if py <= 0.5 else np.flipud(pip)
            if jumbo:
                kx, ky = JUMBO_PIP_SPREAD
                px, py = 0.5 + kx * (px - 0.5), 0.5 + ky * (py - 0.5)
            _paste(img, m, round(px * w - m.shape[1] / 2), round(py * h - m.shape[0] / 2), colour)
    else:  # court card: a frame filled with coloured shapes
        fx, fy = JUMBO_PICTURE if jumbo else (0.2, 0.13)
        x0, y0, x1, y1 = round(fx * w), round(fy * h), round((1 - fx) * w), round((1 - fy) * h)
        for _ in range(40):
            c = tuple(int(v) for v in rng.integers(0, 255, 3))
            centre = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            axes = (int(rng.integers(5, w // 6)), int(rng.integers(5, h // 8)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, c, -1)
        img[:y0], img[y1:], img[:, :x0], img[:, x1:] = (style.stock,) * 4
        cv2.rectangle(img, (x0, y0), (x1, y1), style.black, max(1, round(scale)))
    for turned in (False, True):
        if turned:
            img = np.ascontiguousarray(img[::-1, ::-1])
        draw_index(img, card, style, scale)
    return as_image(np.clip(img, 0, 255))


def render_index_region(
    card: Card,
    style: DeckStyle,
    rng: np.random.Generator,
    card_px: float,
    blur: float = 0.5,
    noise: float = 3.0,
    text: str | None = None,
) -> Image:
    """The top-left index region (:data:`INDEX_ROI` of a canonical card) as a camera sees it
    when the card is ``card_px`` pixels tall: printed at :data:`HIRES` times the canonical size,
    slightly turned and sheared (an imperfect card outline), shrunk to the camera's resolution,
    blurred (``blur`` sigma, camera pixels), noisy (``noise`` grey levels), lit unevenly, then
    warped back to canonical pixels as the reader does. ``text`` replaces the rank characters."""
    x0, y0, x1, y1 = INDEX_ROI
    rw, rh = round((x1 - x0) * CARD_W), round((y1 - y0) * CARD_H)
    img = np.empty((rh * HIRES, rw * HIRES, 3), np.float32)
    img[:] = style.stock
    draw_index(img, card, style, HIRES, text)
    # small misfit of the card outline: rotation, shear, scale, shift (canonical pixels)
    angle = rng.uniform(-2.5, 2.5)
    m = np.asarray(cv2.getRotationMatrix2D((0.0, 0.0), angle, rng.uniform(0.95, 1.05)), np.float64)
    m[0, 1] += rng.uniform(-0.04, 0.04)
    m[:, 2] += rng.uniform(-2.0, 2.0, 2) * HIRES
    img = np.asarray(
        cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE),
        np.float32,
    )
    k = card_px / CARD_H  # camera pixels per canonical pixel
    small = cv2.resize(
        img, (max(4, round(rw * k)), max(4, round(rh * k))), interpolation=cv2.INTER_AREA
    )
    if blur > 0.2:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    ramp = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.75, 1.0), small.shape[0])
    small = small * ramp[:, None, None] * rng.uniform(0.96, 1.04, 3)
    small = small + rng.normal(0, noise, small.shape)
    small = as_image(np.clip(small, 0, 255))
    return as_image(cv2.resize(small, (rw, rh), interpolation=cv2.INTER_LINEAR))
