"""Find corner indexes without a card outline: cards that overlap in a fan or a spread hand,
or whose edges do not stand out from the table.

Ink marks are found with a local (adaptive) threshold; a pair of marks is a candidate index when
a larger one (rank) sits next to a smaller one (suit) at the distance the calibration measured
between them. The pair fixes the index's position, size and orientation, so the index region is
warped upright from the frame with a similarity transform and read like a card corner. Only
certain readings are kept: an index seen alone has no second corner to confirm it, and a
random pair of marks must never turn into a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from drivers.camera.calibration import Calibration
from drivers.camera.detect import CardsFound
from drivers.camera.geometry import CARD_H, CARD_W, Image, Quad, as_image, darkest
from drivers.camera.glyphs import INDEX_ROI, IndexGlyphs, extract_region
from drivers.camera.reading import Detection, Reading
from drivers.camera.shapes import ShapeVotes


class IndexReading(Protocol):
    """What the search needs of a reader (:class:`~drivers.camera.reader.IndexReader`, which
    calls the search: it is not imported here)."""

    @property
    def calibration(self) -> Calibration:
        """The calibrated deck (its ``layout`` and ``rank_height`` place the marks)."""

    def shape_votes(self, marks: Sequence[IndexGlyphs]) -> ShapeVotes:
        """The shape classifier's votes on several indexes, worked out together."""

    def read_index(
        self, glyphs: IndexGlyphs, lazy: bool = False, votes: ShapeVotes | None = None
    ) -> Reading:
        """The reading of one index's marks (``lazy``: stop when the rank cannot be certain;
        ``votes``: from :meth:`shape_votes`)."""


@dataclass(frozen=True)
class SearchSettings:
    """Limits of the index search.

    Attributes:
        max_side: frames with a longer side are scaled down to it first (pixels).
        block: adaptive-threshold neighbourhood, as a fraction of the frame's long side.
        offset: grey levels a mark must be darker than its neighbourhood.
        rank_size: rank mark size range (longer bounding-box side), fraction of the long side.
        suit_ratio: accepted rank size over suit size.
        distance: accepted rank-to-suit centre distance over the calibrated one (after scaling
            by the rank mark's size).
        max_pairs: pairs read per frame at most (closest to the calibrated layout first).
    """

    max_side: int = 1280
    block: float = 0.03
    offset: int = 12
    rank_size: tuple[float, float] = (0.012, 0.08)
    suit_ratio: tuple[float, float] = (1.0, 2.4)
    distance: tuple[float, float] = (0.7, 1.4)
    max_pairs: int = 32


#: a pixel's eight neighbours (the 3x3 square without its centre)
_RING = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8)
_SQUARE = np.ones((3, 3), np.uint8)


def drop_specks(mask: Image) -> Image:
    """``mask`` (uint8, 0 or 255) without its lone pixels (no ink among their 8 neighbours).

    Exact: a lone pixel is a component of its own, and no other component loses a pixel. Sensor
    noise on felt leaves 6,000..19,000 specks in the search's threshold of a 1280x720 frame,
    nine in ten of them lone pixels; tracing them was most of the search's mark finding (the
    contour filter below drops them anyway: one contour point). One dilation by the ring of
    eight neighbours and one AND (a box sum and two thresholds took three times as long).
    Larger specks are not worth a pass: clearing up to 3-pixel squares cost more than tracing
    what it removed.
    """
    around = cv2.dilate(mask, _RING, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return as_image(cv2.bitwise_and(mask, around))


def _marks(
    dark: Image, s: SearchSettings, skip: list[Quad], long: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(centres (n, 2), sizes (n,)) of ink marks that may be index marks, outside ``skip``;
    ``dark`` is the frame's min(B, G, R) or a part of it, ``long`` the frame's long side."""
    block = max(3, int(s.block * long) | 1)
    ink = cv2.adaptiveThreshold(
        dark,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        block,
        s.offset,
    )
    for quad in skip:  # cards already read
        cv2.fillConvexPoly(ink, np.round(quad).astype(np.int32), 0)
    ink = drop_specks(as_image(ink))
    # outer boundaries of all ink components (also those inside another's hole, such as marks
    # within a card's printed outline): several times faster than labelling every pixel
    contours, hierarchy = cv2.findContours(ink, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return np.zeros((0, 2)), np.zeros(0)
    # speckle of sensor noise and cloth (thousands of specks on felt) has few contour points;
    # filtered and measured in arrays: a Python call per speck cost more than finding them
    points = np.fromiter(map(len, contours), np.int64, len(contours))
    top = np.nonzero((points > 3) & (hierarchy[0][:, 3] < 0))[0]
    if not len(top):
        return np.zeros((0, 2)), np.zeros(0)
    kept = [contours[i].reshape(-1, 2) for i in top.tolist()]
    flat = np.concatenate(kept)
    starts = np.concatenate([[0], np.cumsum(points[top])[:-1]])
    lo_xy = np.minimum.reduceat(flat, starts, axis=0).astype(np.float64)
    hi_xy = np.maximum.reduceat(flat, starts, axis=0).astype(np.float64)
    x, y = lo_xy.T
    w, h = (hi_xy - lo_xy + 1).T  # as cv2.boundingRect
    size = np.maximum(w, h)
    lo = s.rank_size[0] * long / s.suit_ratio[1]
    keep = (size >= lo) & (size <= s.rank_size[1] * long)
    keep &= (x > 0) & (y > 0) & (x + w < dark.shape[1]) & (y + h < dark.shape[0])
    area = np.zeros(len(kept))
    for i in np.nonzero(keep)[0].tolist():
        area[i] = cv2.contourArea(kept[i])
    fill = area / np.maximum(w * h, 1.0)
    keep &= (fill > 0.1) & (fill < 0.95)
    centres = np.stack([x + w / 2, y + h / 2], axis=1)[keep]
    return centres, size[keep]


def _stock_box(
    found: CardsFound, skip: list[Quad], s: SearchSettings, w: int, h: int
) -> tuple[int, int, int, int] | None:
    """The part (x0, y0, x1, y1) of a ``w`` x ``h`` frame that holds all its bright areas
    (``found.stock``) outside ``skip``, with a margin of one threshold block (the marks on
    the stock and their thresholds are there as in the whole frame, and a mark cut by the
    part's border is dropped as one cut by the frame's); None when no bright area is left.

    Index marks are printed on card stock: where every bright area is a card already read (a
    scattered hand, a card photographed alone) there is nothing to search, and elsewhere only
    the stock's neighbourhood is (a spread hand covers a part of the felt).
    """
    k = found.scale
    stock = found.stock.copy()
    for quad in skip:
        cv2.fillConvexPoly(stock, np.round(quad * k).astype(np.int32), 0)
    # less the rim that a card's blurred edge leaves around its quad
    stock = as_image(cv2.erode(stock, _SQUARE))
    if cv2.countNonZero(stock) == 0:
        return None
    x, y, bw, bh = cv2.boundingRect(stock)
    margin = s.block * max(w, h)
    return (
        max(0, int((x / k) - margin)),
        max(0, int((y / k) - margin)),
        min(w, int(np.ceil((x + bw) / k + margin))),
        min(h, int(np.ceil((y + bh) / k + margin))),
    )


def _pairs(
    centres: npt.NDArray[np.float64],
    sizes: npt.NDArray[np.float64],
    expected: float,
    s: SearchSettings,
    long: int,
) -> list[tuple[int, int]]:
    """(rank, suit) mark indexes that look like an index, best first."""
    if len(sizes) < 2:
        return []
    ratio = sizes[:, None] / sizes[None, :]
    dist = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    rel = dist / np.maximum(sizes[:, None] * expected, 1e-9)
    ok = (ratio >= s.suit_ratio[0]) & (ratio <= s.suit_ratio[1])
    ok &= (rel >= s.distance[0]) & (rel <= s.distance[1])
    ok &= sizes[:, None] >= s.rank_size[0] * long
    ranks, suits = np.nonzero(ok)
    off = np.abs(rel[ranks, suits] - 1.0)
    best: dict[int, tuple[float, int]] = {}  # one suit per rank mark: the best-placed one
    for r, su, o in zip(ranks.tolist(), suits.tolist(), off.tolist(), strict=True):
        if r not in best or o < best[r][0]:
            best[r] = (o, su)
    order = sorted(best.items(), key=lambda item: item[1][0])[: s.max_pairs]
    return [(r, su) for r, (_, su) in order]


def search_indexes(
    frame: Image,
    reader: IndexReading,
    skip: list[Quad],
    settings: SearchSettings | None = None,
    cards: CardsFound | None = None,
) -> list[Detection]:
    """Certain readings of corner indexes found by mark pairs (see the module doc).

    Args:
        frame: BGR frame (h, w, 3) uint8.
        reader: the calibrated reader (its calibration must have a ``layout``).
        skip: quadrilaterals (frame pixels) whose marks are not searched (cards already read).
        settings: search limits (defaults when None).
        cards: :func:`~drivers.camera.detect.detect_cards` of ``frame``: the search then keeps
            to the bright areas outside ``skip`` (see :func:`_stock_box`); None: the whole frame.

    Returns:
        one Detection per card value found, its ``quad`` the index region in frame pixels.
    """
    s = settings or SearchSettings()
    rx, ry, sx, sy = reader.calibration.layout
    canon = np.hypot(sx - rx, sy - ry)
    if canon <= 0:
        return []
    h, w = frame.shape[:2]
    box = (0, 0, w, h) if cards is None else _stock_box(cards, skip, s, w, h)
    if box is None:
        return []
    scale = min(1.0, s.max_side / max(h, w))
    img = frame if scale == 1.0 else as_image(cv2.resize(frame, None, fx=scale, fy=scale))
    long = max(img.shape[:2])
    x0, y0, x1, y1 = (round(v * scale) for v in box)
    at = np.array([x0, y0], np.float32)
    centres, sizes = _marks(darkest(img[y0:y1, x0:x1]), s, [q * scale - at for q in skip], long)
    centres = centres + at
    # the rank mark's size predicts the rank-suit distance: calibrated distance / rank height
    rank_h = reader.calibration.rank_height
    if rank_h <= 0:
        return []
    expected = canon / rank_h
    x0, y0, x1, y1 = INDEX_ROI
    roi_w, roi_h = round((x1 - x0) * CARD_W), round((y1 - y0) * CARD_H)
    # every pair's index cut out first, then the classifier's votes on all of them at once
    regions = []
    for i, j in _pairs(centres, sizes, expected, s, long):
        v = centres[j] - centres[i]
        k = np.hypot(*v) / canon  # frame pixels per canonical pixel
        angle = np.arctan2(v[1], v[0]) - np.arctan2(sy - ry, sx - rx)
        c, si = k * np.cos(angle), k * np.sin(angle)
        # canonical (region) -> frame: p_f = R(p_c - rank_c) + rank_f
        m = np.array(
            [
                [c, -si, centres[i][0] - (c * (rx - x0 * CARD_W) - si * (ry - y0 * CARD_H))],
                [si, c, centres[i][1] - (si * (rx - x0 * CARD_W) + c * (ry - y0 * CARD_H))],
            ]
        )
        region = as_image(
            cv2.warpAffine(
                img,
                m,
                (roi_w, roi_h),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
        )
        # the marks read must be the pair aligned on: the rank mark where it was put
        expect = (rx - x0 * CARD_W, ry - y0 * CARD_H, 0.3 * rank_h)
        glyphs = extract_region(region, CARD_H, expect)
        if glyphs is not None:
            regions.append((glyphs, m))
    votes = reader.shape_votes([g for g, _ in regions])
    found: dict[Card, Detection] = {}
    corners_c = np.array([[0, 0], [roi_w, 0], [roi_w, roi_h], [0, roi_h]], np.float64)
    for glyphs, m in regions:
        reading = reader.read_index(glyphs, lazy=True, votes=votes)
        if reading.card is None or reading.card in found:
            continue
        quad = (corners_c @ m[:, :2].T + m[:, 2]) / scale
        found[reading.card] = Detection(quad.astype(np.float32), reading, partial=True)
    return list(found.values())
