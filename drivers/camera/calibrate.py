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

A photo is first scaled so that its card is at most :data:`CARD_LONG_SIDE` pixels long: the
degraded copies are meant for a card of about that size (a 12-megapixel phone photo's card,
2000 pixels tall, would otherwise be learned only as sharp as it is, and slowly).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import RANK_CHARS, Card
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
from drivers.camera.detect import find_cards
from drivers.camera.geometry import Glyph, Image, Quad, as_image
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
#: longest side (pixels) of a card learned from: larger photos are scaled down to it first
#: (the PR 15 faces, 384 pixels tall, are learned as they are)
CARD_LONG_SIDE = 400
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
        images: (file, card, image) learned from, the image scaled as learned (see
            :data:`CARD_LONG_SIDE`): for the self-check, without decoding the photos again.
    """

    cards: list[Card] = field(default_factory=list)
    indexes: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    images: list[tuple[Path, Card, Image]] = field(default_factory=list, repr=False)


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


def _long_side(quad: Quad) -> float:
    """The mean length of a quadrilateral's two longer opposite sides, pixels."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def card_sized(img: Image) -> Image:
    """``img`` scaled down (if needed) so that its largest card, or the image itself when no
    card outline is found in it (a face alone), is at most :data:`CARD_LONG_SIDE` long."""
    quads = find_cards(img)
    long = _long_side(quads[0]) if quads else float(max(img.shape[:2]))
    scale = CARD_LONG_SIDE / max(long, 1.0)
    if scale >= 1.0:
        return img
    return as_image(cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))


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


def calibrate_from_folder(
    folder: Path, progress: Callable[[Path], None] | None = None
) -> tuple[Calibration, CalibrationReport]:
    """Learn the index templates from single-card images named by card.

    Args:
        folder: directory searched recursively; each image shows one card face and is named by
            it (file stem or parent folder, e.g. ``10c/10c.png``, ``Qh.jpg``). A photo of one
            card on a plain background, or an image of the card face alone, both work.
        progress: called with each image's path once it is done (suits a progress bar).

    Returns:
        the calibration and a report of what was used.

    Raises:
        ConfigError: the folder is missing, an image cannot be decoded, or some rank or suit got
            no readable sample (the message names the cards missing and what to show next).
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
        else:
            img = card_sized(read_image(path))
            samples = _samples(img)
            if samples:
                stress += [(card, g) for g in _samples(img, degraded(img, 1, STRESS, False))]
                report.cards.append(card)
                report.indexes += len(samples)
                report.images.append((path, card, img))
                for g in samples:
                    got.add(card, g)
            else:
                report.skipped.append((str(path), "no card index found"))
        if progress is not None:
            progress(path)
    missing_ranks = [r for r, v in got.ranks.items() if not v]
    missing_suits = [s for s, v in got.suits.items() if not v]
    if missing_ranks or missing_suits:
        raise ConfigError(_missing_text(folder, report, missing_ranks, missing_suits))
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


SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def cards_to_show(
    missing_ranks: list[int], missing_suits: list[str], tried: frozenset[Card] = frozenset()
) -> list[Card]:
    """Fewest cards that give every rank in ``missing_ranks`` and every suit in
    ``missing_suits`` a sample: missing ranks paired with missing suits, the rest of the ranks
    in turning suits (``2s 3h 4d``), the rest of the suits as aces; a card in ``tried`` (its
    image was not read) is swapped for the same rank in another suit, or the same suit in
    another rank, when one is left."""

    def untried(card: Card, by_suit: bool) -> Card:
        others = (
            [Card(card.rank, s) for s in SUITS]
            if by_suit
            else [Card(r, card.suit) for r in (14, *RANKS)]
        )
        return next((c for c in [card, *others] if c not in tried), card)

    out = [untried(Card(r, s), False) for r, s in zip(missing_ranks, missing_suits, strict=False)]
    n = len(out)
    out += [untried(Card(r, SUITS[i % 4]), True) for i, r in enumerate(missing_ranks[n:])]
    out += [untried(Card(14, s), False) for s in missing_suits[n:]]
    return out


def _missing_text(
    folder: Path, report: CalibrationReport, missing_ranks: list[int], missing_suits: list[str]
) -> str:
    """Why a calibration cannot be learned, which cards are missing and what to show next."""
    what = [f"rank {', '.join(RANK_CHARS[r - 2] for r in missing_ranks)}"] if missing_ranks else []
    what += [f"{', '.join(SUIT_NAMES[s] for s in missing_suits)}"] if missing_suits else []
    have = set(report.cards)
    deck = [Card(r, s) for s in SUITS for r in RANKS]
    absent = [c for c in deck if c not in have]
    lines = [
        f"calibration from {folder}: no readable card of {' nor '.join(what)}; the calibration "
        "needs every rank and every suit at least once",
        f"  read {len(have)} of 52 cards: {' '.join(map(str, sorted(have, key=deck.index)))}"
        if have
        else "  read no card",
        f"  missing {len(absent)}: {' '.join(map(str, absent))}",
    ]
    lines += [f"  not used: {path}: {reason}" for path, reason in report.skipped]
    tried = frozenset(c for p, _ in report.skipped if (c := card_of_path(Path(p))) is not None)
    show = " ".join(map(str, cards_to_show(missing_ranks, missing_suits, tried)))
    lines.append(
        f"show next: {show} (any suit of a missing rank will do): add a photo of each to "
        f"{folder}, named by the card ({show.split()[0]}.jpg), the whole card in view on a "
        "plain background darker than the card, and run again"
    )
    return "\n".join(lines)
