"""Learning a :class:`~drivers.camera.calibration.Calibration` from card images named by card.

A calibration is learned from one image per card (file or folder named by the card, e.g.
``10c/10c.png`` or ``Ah.jpg``). Each image is also degraded the way a table camera degrades a
card (smaller, blurred, noisy; :data:`VARIANTS`), so the templates and the structural limits
describe the deck as the camera will see it, not only as a clean scan. For every variant the
card is found and rectified and both printed indexes are read; then:

- each rank's marks (over all suits) and each suit's marks (over all ranks) are averaged into a
  template;
- the ink redness of red and black suits places the colour threshold for this deck;
- the enclosed-hole counts seen for each rank (in at least 10 % of its samples) are allowed;
- the 10th and 90th percentiles of each suit's upper-notch depth bound the notch check;
- the reader (templates alone) reads harsher copies (:data:`STRESS`) to find the detail limit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from dealer_assist.errors import ConfigError
from drivers.camera.calibration import (
    RANKS,
    RED_SUITS,
    SUITS,
    Calibration,
    as_layout,
    read_image,
)
from drivers.camera.certainty import ReaderSettings
from drivers.camera.geometry import Glyph, Image, as_image
from drivers.camera.glyphs import SHAPE_SIZE, IndexGlyphs, corners, extract_index
from drivers.camera.labels import card_of_path, iter_images
from drivers.camera.locate import card_images
from drivers.camera.reader import IndexReader

#: (scale, blur sigma in pixels, noise sigma in grey levels) of the degraded copies of each
#: calibration image, besides the image itself: a 384-pixel card seen 150..300 pixels tall
VARIANTS = ((0.8, 1.5, 2.0), (0.7, 0.8, 2.0), (0.5, 1.0, 3.0), (0.4, 0.7, 3.0))
#: harsher copies (scale, blur, noise) used only to find how much blur this deck's marks stand:
#: the smallest resolvable detail at which any of them was misread becomes the reading limit
STRESS = ((0.45, 1.2, 3.0), (0.35, 1.0, 3.0), (0.3, 0.7, 3.0), (0.6, 2.0, 4.0), (0.5, 1.6, 4.0))
#: the limit is kept this factor above the sharpest misread stress sample
DETAIL_SAFETY = 1.1
#: a hole count must be seen in this share of a rank's samples to be allowed
HOLES_SHARE = 0.1
#: hole heights of other decks differ a little from the calibration deck's (fraction of height)
HOLE_Y_SLACK = 0.1


@dataclass
class CalibrationReport:
    """What :func:`calibrate_from_folder` used and skipped.

    Attributes:
        cards: cards learned (at least one index read).
        indexes: index samples used (up to two per card and variant).
        skipped: (file, reason) of images not used.
    """

    cards: list[Card] = field(default_factory=list)
    indexes: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


def degraded(
    img: Image,
    seed: int = 0,
    variants: tuple[tuple[float, float, float], ...] = VARIANTS,
    original: bool = True,
) -> list[Image]:
    """``img`` (if ``original``) and its ``variants`` (scale, blur sigma, noise sigma);
    deterministic for a given ``seed``."""
    rng = np.random.default_rng(seed)
    out = [img] if original else []
    for scale, blur, noise in variants:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        soft = cv2.GaussianBlur(small.astype(np.float32), (0, 0), blur)
        out.append(as_image(np.clip(soft + rng.normal(0, noise, soft.shape), 0, 255)))
    return out


def _samples(img: Image, variants: list[Image] | None = None) -> list[IndexGlyphs]:
    """Index readings from the largest card of each of ``variants`` (default: ``img`` and its
    degraded copies)."""
    found = []
    for variant in degraded(img) if variants is None else variants:
        cards = card_images(variant)
        if cards:
            found += [extract_index(c) for c in corners(cards[0])]
    return [g for g in found if g is not None]


@dataclass
class _Collected:
    ranks: dict[int, list[Glyph]] = field(default_factory=lambda: {r: [] for r in RANKS})
    suits: dict[str, list[Glyph]] = field(default_factory=lambda: {s: [] for s in SUITS})
    redness: dict[bool, list[float]] = field(default_factory=lambda: {True: [], False: []})
    ten_parts: list[int] = field(default_factory=list)
    holes: dict[int, list[int]] = field(default_factory=lambda: {r: [] for r in RANKS})
    hole_y: dict[int, list[float]] = field(default_factory=lambda: {r: [] for r in RANKS})
    notch: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SUITS})
    layout: list[tuple[float, float, float, float]] = field(default_factory=list)
    rank_height: list[float] = field(default_factory=list)
    marks: list[tuple[Card, IndexGlyphs]] = field(default_factory=list)

    def add(self, card: Card, g: IndexGlyphs) -> None:
        self.ranks[card.rank].append(g.rank)
        self.suits[card.suit].append(g.suit)
        self.redness[card.suit in RED_SUITS].append(g.redness)
        self.holes[card.rank].append(g.rank_holes)
        if g.rank_holes:
            self.hole_y[card.rank].append(g.rank_hole_y)
        self.notch[card.suit].append(g.suit_notch)
        self.layout.append(g.layout)
        self.rank_height.append(g.rank_height)
        self.marks.append((card, g))
        if card.rank == 10:
            self.ten_parts.append(g.rank_parts)


def _mark_arrays(marks: list[tuple[Card, IndexGlyphs]]) -> dict[str, npt.NDArray[Any]]:
    """The marks as the arrays of :attr:`Calibration.marks`."""

    def shapes(key: str) -> npt.NDArray[np.uint8]:
        return np.array([np.round(getattr(g, key) * 255) for _, g in marks], np.uint8).reshape(
            -1, SHAPE_SIZE, SHAPE_SIZE
        )

    return {
        "rank_shape": shapes("rank_shape"),
        "rank_aspect": np.array([g.rank_aspect for _, g in marks], np.float32),
        "rank": np.array([c.rank for c, _ in marks], np.int64),
        "suit_shape": shapes("suit_shape"),
        "suit_aspect": np.array([g.suit_aspect for _, g in marks], np.float32),
        "suit": np.array([SUITS.index(c.suit) for c, _ in marks], np.int64),
    }


def _allowed_holes(counts: list[int]) -> tuple[int, ...]:
    seen = Counter(counts)
    return tuple(sorted(n for n, k in seen.items() if k >= HOLES_SHARE * len(counts)))


def calibrate_from_folder(folder: Path) -> tuple[Calibration, CalibrationReport]:
    """Learn the index templates from single-card images named by card.

    Args:
        folder: directory searched recursively; each image shows one card face and is named by
            it (file stem or parent folder, e.g. ``10c/10c.png``, ``Qh.jpg``). A photo of one
            card on a plain background, or an image of the card face alone, both work.

    Returns:
        the calibration and a report of what was used.

    Raises:
        ConfigError: the folder is missing, an image cannot be decoded, or some rank or suit got
            no readable sample.
    """
    if not folder.is_dir():
        raise ConfigError(f"calibration folder not found: {folder}")
    report = CalibrationReport()
    got = _Collected()
    stress: list[tuple[Card, IndexGlyphs]] = []
    for path in iter_images(folder):
        card = card_of_path(path)
        if card is None:
            report.skipped.append((str(path), "name is not a card"))
            continue
        img = read_image(path)
        samples = _samples(img)
        if not samples:
            report.skipped.append((str(path), "no card index found"))
            continue
        stress += [(card, g) for g in _samples(img, degraded(img, 1, STRESS, original=False))]
        report.cards.append(card)
        report.indexes += len(samples)
        for g in samples:
            got.add(card, g)
    missing = [str(r) for r, v in got.ranks.items() if not v]
    missing += [s for s, v in got.suits.items() if not v]
    if missing:
        raise ConfigError(f"calibration from {folder}: no readable sample for {', '.join(missing)}")
    calibration = Calibration(
        ranks={r: np.mean(v, axis=0).astype(np.float32) for r, v in got.ranks.items()},
        suits={s: np.mean(v, axis=0).astype(np.float32) for s, v in got.suits.items()},
        red_redness=float(np.nanmean(got.redness[True])) if got.redness[True] else 0.5,
        black_redness=float(np.nanmean(got.redness[False])) if got.redness[False] else 0.0,
        ten_parts=int(np.median(got.ten_parts)) if got.ten_parts else 2,
        rank_holes={r: _allowed_holes(v) for r, v in got.holes.items()},
        hole_y={
            r: (
                float(np.percentile(v, 5)) - HOLE_Y_SLACK,
                float(np.percentile(v, 95)) + HOLE_Y_SLACK,
            )
            for r, v in got.hole_y.items()
            if v
        },
        suit_notch={
            s: (float(np.percentile(v, 10)), float(np.percentile(v, 90)))
            for s, v in got.notch.items()
        },
        layout=as_layout(list(np.median(np.array(got.layout), axis=0))),
        rank_height=float(np.median(got.rank_height)),
        source=str(folder),
        marks=_mark_arrays(got.marks),
    )
    limit = _detail_limit(calibration, stress)
    return replace(calibration, min_detail=limit), report


def _detail_limit(calibration: Calibration, stress: list[tuple[Card, IndexGlyphs]]) -> float:
    """:data:`DETAIL_SAFETY` times the largest suit-mark detail among stress samples that the
    reader, without a detail limit, would misread as certain; 0 when none is misread."""
    # base limits (not the single-index ones): a card read by two indexes gets those
    base = ReaderSettings()
    lenient = replace(base, single_score=base.min_score, single_margin=base.min_margin)
    reader = IndexReader(calibration, lenient, search=False, shapes=False)  # templates alone
    misread = [
        g.suit_detail
        for card, g in stress
        if (got := reader.read_index(g).card) is not None and got != card
    ]
    return DETAIL_SAFETY * max(misread) if misread else 0.0
