"""Corner-index glyphs: separate ink from card stock, pick the rank and suit marks, normalise them.

The index of a standard deck is a rank mark (one or two characters) above a small suit mark, close
to a corner. In the canonical card image (see :mod:`drivers.camera.geometry`) it lies in the
top-left region :data:`INDEX_ROI`. Ink is found with Otsu's threshold on min(B, G, R), so red and
black print both count as ink; marks touching the region's border (a court card's frame, a large
pip, the table seen past a rounded corner) are discarded as not belonging to the index. A jumbo
index (casino decks: the rank up to a fifth of the card's height) does not fit that region; it
is read in :data:`JUMBO_ROI` (:func:`extract_corner`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from drivers.camera.geometry import CARD_H, CARD_W, Glyph, Image, as_glyph, as_image, darkest

#: a region of the card: (x0, y0, x1, y1) as fractions of its width and height
Roi = tuple[float, float, float, float]
#: the index region of a standard index
INDEX_ROI: Roi = (0.0, 0.0, 0.26, 0.38)
#: the region of a jumbo index (rank up to about a fifth of the card's height, as casino decks
#: print it), tried where :data:`INDEX_ROI` holds no index: such a rank and its suit do not
#: fit in it, and marks cut by a region's border are dropped
JUMBO_ROI: Roi = (0.0, 0.0, 0.36, 0.52)
#: farthest top-left of a jumbo index's rank mark (fractions of the card's width and height):
#: indexes are printed at the corner (jumbo ones 0.03..0.09 in), a standard deck's pips from
#: about 0.25 of the width and its court picture from 0.2
JUMBO_CORNER = (0.12, 0.12)
#: normalised glyph sizes (width, height), pixels
RANK_SIZE = (20, 30)
SUIT_SIZE = (24, 24)
#: the suit mark is compared by its upper part only: the stem and foot of clubs and spades vary
#: most between deck designs, the lobes, points and notches that tell suits apart do not
SUIT_HEAD = 0.7
#: side of the square the suit mark is scaled to for measuring its notch, pixels
NOTCH_SIZE = 48
#: side of the square canvas of the aspect-keeping shapes (:attr:`IndexGlyphs.rank_shape`)
SHAPE_SIZE = 32
#: least grey-level step between ink and card stock for the region to hold any print
MIN_CONTRAST = 40.0

Mask = npt.NDArray[np.uint8]
#: a label image of connected components (uint16 or int32)
Labels = npt.NDArray[np.integer]


@dataclass(frozen=True)
class IndexGlyphs:
    """The index marks of one card corner.

    Attributes:
        rank: normalised rank mark, float32 0..1 of shape (RANK_SIZE[1], RANK_SIZE[0]).
        suit: upper :data:`SUIT_HEAD` of the suit mark, normalised, float32 0..1 of shape
            (SUIT_SIZE[1], SUIT_SIZE[0]).
        rank_parts: connected components in the rank mark (2 for a printed ``10``).
        rank_holes: enclosed holes of the rank mark (8 has two; 6 9 A Q 10 one; 2 3 5 7 J none).
        rank_hole_y: mean height of those holes, fraction of the mark's height (-1 if none).
        suit_notch: depth of the deepest notch in the suit mark's upper half, as a fraction of its
            height: clubs (between lobes) and hearts (top notch) have one, spades and diamonds not.
        redness: how much redder the ink is than the card stock, about -0.2..1 (see
            :func:`ink_redness`).
        layout: (rank centre x, y, suit centre x, y) in region pixels (bounding-box centres).
        rank_height: height of the rank mark's bounding box, region pixels.
        suit_detail: blur widths across the suit mark's height (see :func:`detail`).
        rank_shape, suit_shape: the whole rank and suit marks scaled to fit a
            :data:`SHAPE_SIZE` square with their aspect kept, centred; float32 0..1 (for the
            deck-independent shape classifier, :mod:`~drivers.camera.shapes`).
        rank_aspect, suit_aspect: width over height of the marks' bounding boxes.
        suit_height: suit mark height over rank mark height.
    """

    rank: Glyph
    suit: Glyph
    rank_parts: int
    rank_holes: int
    rank_hole_y: float
    suit_notch: float
    redness: float
    layout: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    rank_height: float = 0.0
    suit_detail: float = 0.0
    rank_shape: Glyph = field(
        default_factory=lambda: np.zeros((SHAPE_SIZE, SHAPE_SIZE), np.float32)
    )
    suit_shape: Glyph = field(
        default_factory=lambda: np.zeros((SHAPE_SIZE, SHAPE_SIZE), np.float32)
    )
    rank_aspect: float = 0.0
    suit_aspect: float = 0.0
    suit_height: float = 0.0


@dataclass(frozen=True)
class _Blob:
    x: int
    y: int
    w: int
    h: int
    label: int

    @property
    def x1(self) -> int:
        return self.x + self.w

    @property
    def y1(self) -> int:
        return self.y + self.h


def index_region(card: Image, roi: Roi = INDEX_ROI) -> Image:
    """The top-left index region ``roi`` of a canonical card image (a view, not a copy)."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = roi
    return card[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]


def ink_mask(region: Image) -> Mask | None:
    """255 where ``region`` (BGR) is printed, 0 on card stock; None when it holds no print."""
    return _ink_mask(darkest(region))


def _ink_mask(dark: Image) -> Mask | None:
    """:func:`ink_mask` of a region given as its :func:`darkest` channel."""
    _, mask = cv2.threshold(dark, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    mask = as_image(mask)
    n_ink = int(cv2.countNonZero(mask))
    if n_ink == 0 or n_ink == mask.size:
        return None
    ink = cv2.mean(dark, mask)[0]
    paper = cv2.mean(dark, cv2.bitwise_not(mask))[0]
    if paper - ink < MIN_CONTRAST:
        return None
    return mask


def detail(region: Image, mask: Mask, height: float) -> float:
    """How many blur widths fit in ``height`` pixels of a mark: its resolvable detail.

    The width of a blurred edge is its contrast over its steepest slope (for a Gaussian blur of
    sigma s it is about 2.5 s); ``region`` is the mark's surroundings in canonical card pixels,
    ``mask`` its ink. A small or blurred card, upsampled to the canonical size, has wide edges:
    a club's lobes are gone long before the mark's outline is, so such marks are not read.
    """
    return _detail(darkest(region), mask, height)


def _detail(dark: Image, mask: Mask, height: float) -> float:
    """:func:`detail` of a region given as its :func:`darkest` channel."""
    n_ink = int(cv2.countNonZero(mask))
    if n_ink in (0, mask.size):
        return 0.0
    stock = np.ascontiguousarray(mask == 0).view(np.uint8)
    contrast = float(cv2.mean(dark, stock)[0] - cv2.mean(dark, mask)[0])
    gx = as_glyph(cv2.Sobel(dark, cv2.CV_32F, 1, 0, ksize=3))
    gy = as_glyph(cv2.Sobel(dark, cv2.CV_32F, 0, 1, ksize=3))
    slope = _percentile(as_glyph(cv2.magnitude(gx, gy)).ravel(), 98.0) / 8.0  # Sobel weight 8
    if contrast <= 0 or slope <= 0:
        return 0.0
    return height * slope / contrast


def _percentile(values: npt.NDArray[np.float32], q: float) -> float:
    """``np.percentile(values, q)`` (linear interpolation) by partial sorting: several times
    faster on the small arrays of one mark."""
    pos = q / 100.0 * (values.size - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, values.size - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def ink_redness(region: Image, mask: Mask) -> float:
    """Redness of the ink, measured with the card stock as the white: each channel is divided
    by the stock's mean of that channel, then the mean of R - max(G, B) over the ink minus the
    same over the stock.

    The light's or the camera's colour cast is a gain per channel, and the division takes it
    out: the stock is white again and black print stays grey (a cool cast once made a black
    spade measure as red ink when the stock's tint was subtracted instead of divided out).
    Red print gives about 0.4..0.8, black print about 0. NaN when the mask is all ink or all
    stock.
    """
    ink = np.ascontiguousarray(mask > 0).view(np.uint8)
    count = int(cv2.countNonZero(ink))
    if count == 0 or count == ink.size:
        return float("nan")  # no stock (or no ink) to compare: the colour stays unsure
    stock_mask = np.ascontiguousarray(mask == 0).view(np.uint8)
    white = np.maximum(np.asarray(cv2.mean(region, stock_mask)[:3], np.float32), 1.0)
    bgr = np.asarray(region, np.float32) / white
    red = bgr[..., 2] - np.maximum(bgr[..., 1], bgr[..., 0])  # channel views: no split
    return float(cv2.mean(red, ink)[0] - cv2.mean(red, stock_mask)[0])


#: label images of regions with fewer pixels than this are 16-bit: OpenCV labels them with
#: their statistics in half the time of 32-bit labels (the same labels and statistics)
_LABELS_16 = 65_535


def _blobs(mask: Mask, card_h: int) -> tuple[list[_Blob], Labels, list[_Blob]]:
    """Components of ``mask`` that may be index marks (big enough, not touching the border),
    the label image, and the big-enough components that touch the border (cut by it)."""
    ltype = cv2.CV_16U if mask.size < _LABELS_16 else cv2.CV_32S
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=ltype)
    rh, rw = mask.shape
    min_h = max(4, int(0.025 * card_h))
    out: list[_Blob] = []
    cut: list[_Blob] = []
    # specks are most components: filtered in arrays, a Python step each only for the rest
    st = stats[1:]
    big = np.nonzero((st[:, 3] >= min_h) & (st[:, 4] >= 0.2 * min_h * min_h))[0]
    for i, (x, y, w, h, _area) in zip((big + 1).tolist(), st[big].tolist(), strict=True):
        touches = x <= 0 or y <= 0 or x + w >= rw or y + h >= rh
        (cut if touches else out).append(_Blob(x, y, w, h, i))
    return out, np.asarray(labels), cut


def _second_digit(first: _Blob, b: _Blob) -> bool:
    """Whether ``b`` sits where the second character of a rank mark starting with ``first``
    would (the ``0`` of a ``10``): just right of it, about as tall, on the same line."""
    overlap = min(b.y1, first.y1) - max(b.y, first.y)
    beside = first.x1 - 2 <= b.x <= first.x1 + 0.5 * first.h
    similar = 0.75 <= b.h / first.h <= 1.33
    return beside and similar and overlap >= 0.7 * min(b.h, first.h)


def _rank_blobs(blobs: list[_Blob], card_h: int) -> list[_Blob]:
    """The rank mark: the tall-enough blob nearest the corner, plus a second digit beside it."""
    tall = [b for b in blobs if b.h >= 0.04 * card_h]
    if not tall:
        return []
    first = min(tall, key=lambda b: b.x + b.y)
    return [first, *(b for b in tall if b is not first and _second_digit(first, b))]


def _suit_blob(blobs: list[_Blob], rank: list[_Blob]) -> _Blob | None:
    """The suit mark: the nearest blob under the rank mark, horizontally inside its span."""
    x0 = min(b.x for b in rank)
    x1 = max(b.x1 for b in rank)
    y1 = max(b.y1 for b in rank)
    rank_h = y1 - min(b.y for b in rank)
    slack = 0.5 * (x1 - x0)
    below = [
        b
        for b in blobs
        if b not in rank
        and b.y >= y1 - 0.15 * rank_h
        and b.y - y1 <= 0.8 * rank_h
        and x0 - slack <= (b.x + b.x1) / 2 <= x1 + slack
        and 0.3 * rank_h <= b.h <= 1.3 * rank_h
    ]
    return min(below, key=lambda b: b.y) if below else None


def _box(parts: list[_Blob]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the union of ``parts``' bounding boxes."""
    return (
        min(b.x for b in parts),
        min(b.y for b in parts),
        max(b.x1 for b in parts),
        max(b.y1 for b in parts),
    )


def _selection(labels: Labels, parts: list[_Blob]) -> Glyph:
    """The union of ``parts`` over their bounding box (:func:`_box`), float32 0 or 1."""
    x0, y0, x1, y1 = _box(parts)
    crop = labels[y0:y1, x0:x1]
    sel = crop == parts[0].label
    for b in parts[1:]:
        sel |= crop == b.label
    return as_glyph(sel.astype(np.float32))


def _normalise(sel: Glyph, size: tuple[int, int], top: float = 1.0) -> Glyph:
    """A mark's :func:`_selection` (its upper ``top`` fraction only) scaled to ``size`` (w, h),
    values 0..1."""
    rows = max(1, round(top * sel.shape[0]))
    return as_glyph(cv2.resize(sel[:rows], size, interpolation=cv2.INTER_AREA))


def _fit_square(sel: Glyph, size: int = SHAPE_SIZE) -> Glyph:
    """A mark's :func:`_selection` scaled to fit a ``size`` square with its aspect kept,
    centred."""
    h, w = sel.shape
    k = size / max(h, w)
    tw, th = max(1, round(w * k)), max(1, round(h * k))
    small = cv2.resize(sel, (tw, th), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size), np.float32)
    ox, oy = (size - tw) // 2, (size - th) // 2
    out[oy : oy + th, ox : ox + tw] = small
    return out


def holes(glyph: Glyph) -> tuple[int, float]:
    """Enclosed background regions of a normalised mark (thresholded at 0.5): their number and
    their mean centre height as a fraction of the mark's height (0 top, 1 bottom; -1 if none).

    The height tells a 6 (hole low) from a 9 (high) or a 4 (middle) whatever the font.
    """
    stock = np.ascontiguousarray(glyph < 0.5).view(np.uint8)
    # the outside is one connected region (copyMakeBorder: np.pad cost more than the labelling)
    background = cv2.copyMakeBorder(stock, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    n, labels, _, centroids = cv2.connectedComponentsWithStats(background, connectivity=4)
    outside = int(labels[0, 0])
    inner = [i for i in range(1, int(n)) if i != outside]
    if not inner:
        return 0, -1.0
    y = float(np.mean([centroids[i][1] - 1 for i in inner]))  # -1: the padding row
    return len(inner), y / glyph.shape[0]


def upper_notch(glyph: Glyph) -> float:
    """Deepest convexity defect with its deepest point in the upper 55 % of a normalised mark,
    over the mark's height (see :attr:`IndexGlyphs.suit_notch`); 0.0 for an empty mark."""
    size = NOTCH_SIZE
    ink = (cv2.resize(glyph, (size, size), interpolation=cv2.INTER_LINEAR) >= 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    contour = max(contours, key=cv2.contourArea)
    if len(contour) < 4:
        return 0.0
    hull = cv2.convexHull(contour, returnPoints=False)
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # self-intersecting hull indexes on tiny marks
        return 0.0
    if defects is None:
        return 0.0
    d = defects.reshape(-1, 4)
    upper = d[contour[d[:, 2], 0, 1] < 0.55 * size, 3]
    return float(upper.max()) / 256.0 / size if len(upper) else 0.0


def extract_index(card: Image) -> IndexGlyphs | None:
    """The rank and suit marks of the top-left index of a canonical card image.

    Args:
        card: BGR canonical card, shape (CARD_H, CARD_W, 3) (other sizes work proportionally).

    Returns:
        the normalised marks, or None when no rank-over-suit pair is printed there (in the
        standard region, nor in the jumbo one).
    """
    return extract_corner(lambda roi: index_region(card, roi), card.shape[0])


def extract_region(
    region: Image, card_h: int, expect: tuple[float, float, float] | None = None
) -> IndexGlyphs | None:
    """The rank and suit marks in an index region (:data:`INDEX_ROI` of a card ``card_h`` pixels
    tall, top-left corner upright); None when no rank-over-suit pair is printed there, or when
    ``expect`` (x, y, distance in region pixels) is given and the rank mark's centre is farther
    than that from (x, y) (the marks found are not the ones looked for)."""
    return _extract(region, card_h, expect)[0]


def extract_corner(cut: Callable[[Roi], Image], card_h: int) -> IndexGlyphs | None:
    """The index of one corner: in the standard region, or in the jumbo one where the standard
    region holds none or cuts it (a mark where the rank's second character would be touches
    its border). ``cut(roi)`` gives the corner's region ``roi`` (top-left corner upright) of a
    card ``card_h`` pixels tall.

    A jumbo-region index counts only when its rank mark starts within :data:`JUMBO_CORNER` of
    the corner, as printed indexes do: farther in lie the pips and pictures, which the larger
    region reaches (a 9's two stacked pips look like a rank over its suit).
    """
    found, cut_off = _extract(cut(INDEX_ROI), card_h)
    if found is not None and not cut_off:
        return found
    jumbo, _ = _extract(cut(JUMBO_ROI), card_h)
    if jumbo is not None and _near_corner(jumbo, card_h):
        return jumbo
    return found


def _near_corner(g: IndexGlyphs, card_h: int) -> bool:
    """The rank mark's top-left lies within :data:`JUMBO_CORNER` of the card's corner."""
    card_w = card_h * CARD_W / CARD_H
    rank_w = g.rank_aspect * g.rank_height
    x0, y0 = g.layout[0] - rank_w / 2, g.layout[1] - g.rank_height / 2
    return x0 <= JUMBO_CORNER[0] * card_w and y0 <= JUMBO_CORNER[1] * card_h


def _extract(
    region: Image, card_h: int, expect: tuple[float, float, float] | None = None
) -> tuple[IndexGlyphs | None, bool]:
    """:func:`extract_region`, and whether the region's border cuts the rank mark (a mark
    touching the border sits where its second character would)."""
    dark = darkest(region)  # once: the ink mask and the suit's detail both measure it
    mask = _ink_mask(dark)
    if mask is None:
        return None, False
    blobs, labels, border = _blobs(mask, card_h)
    rank = _rank_blobs(blobs, card_h)
    if not rank:
        return None, False
    cut_off = len(rank) == 1 and any(_second_digit(rank[0], b) for b in border)
    if expect is not None:
        cx = (min(b.x for b in rank) + max(b.x1 for b in rank)) / 2
        cy = (min(b.y for b in rank) + max(b.y1 for b in rank)) / 2
        if np.hypot(cx - expect[0], cy - expect[1]) > expect[2]:
            return None, cut_off
    suit = _suit_blob(blobs, rank)
    if suit is None:
        return None, cut_off
    # each mark's pixels picked from the labels once, for all that is measured on it
    rank_sel = _selection(labels, rank)
    suit_sel = _selection(labels, [suit])
    suit_ink = suit_sel.astype(np.uint8)
    # colour is measured around the marks only: the ink of the marks against the stock between
    x0, y0, x1, y1 = _box([*rank, suit])
    near = labels[y0:y1, x0:x1]
    pick = np.zeros(int(near.max()) + 1, np.uint8)  # label -> 255 for the marks' labels
    pick[[b.label for b in [*rank, suit]]] = 255
    sel = pick[near]
    rank_glyph = _normalise(rank_sel, RANK_SIZE)
    n_holes, hole_y = holes(rank_glyph)
    rx0, ry0, rx1, ry1 = _box(rank)
    rank_w, rank_h = rx1 - rx0, ry1 - ry0
    glyphs = IndexGlyphs(
        rank=rank_glyph,
        suit=_normalise(suit_sel, SUIT_SIZE, top=SUIT_HEAD),
        rank_parts=len(rank),
        rank_holes=n_holes,
        rank_hole_y=hole_y,
        suit_notch=upper_notch(_normalise(suit_sel, SUIT_SIZE)),
        redness=ink_redness(region[y0:y1, x0:x1], sel),
        layout=((rx0 + rx1) / 2, (ry0 + ry1) / 2, (suit.x + suit.x1) / 2, (suit.y + suit.y1) / 2),
        rank_height=float(rank_h),
        suit_detail=_detail(dark[suit.y : suit.y1, suit.x : suit.x1], suit_ink, suit.h),
        rank_shape=_fit_square(rank_sel),
        suit_shape=_fit_square(suit_sel),
        rank_aspect=rank_w / max(1, rank_h),
        suit_aspect=suit.w / max(1, suit.h),
        suit_height=suit.h / max(1, rank_h),
    )
    return glyphs, cut_off


def corners(card: Image) -> tuple[Image, Image]:
    """The card as is and turned half a turn, so both printed indexes come top-left."""
    return card, as_image(cv2.rotate(card, cv2.ROTATE_180))


__all__ = [
    "CARD_H",
    "CARD_W",
    "INDEX_ROI",
    "JUMBO_ROI",
    "IndexGlyphs",
    "Roi",
    "corners",
    "extract_corner",
    "extract_index",
    "index_region",
]
