"""Read a card's index against the calibration: rank and suit by template correlation, colour first.

Certainty rule (never guess): a mark is read only when

- its best template correlation reaches ``min_score``, and it beats the runner-up by
  ``min_margin`` on what tells the candidates apart (correlation after subtracting the candidates'
  mean template);
- structural checks learned from the calibration deck agree: the number of enclosed holes of a
  rank mark is one seen for that rank, and so is their height (a 6's hole is low, a 9's high);
  two characters side by side are only a 10; a suit's ink colour (red or black) is clear, and
  the notch of its upper outline (clubs and hearts have one, spades and diamonds not) does not
  clearly belong to the other suit of that colour.

A card is certain when one printed index has both marks certain and the other index, where
found, contradicts neither with a plausible reading; when no second index shows the same card,
the stricter ``single_score`` / ``single_margin`` apply. Anything else is unknown, with the
reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from drivers.camera.calibration import RED_SUITS, Calibration
from drivers.camera.detect import DetectorSettings
from drivers.camera.geometry import CARD_H, Glyph, Image, Quad, as_glyph
from drivers.camera.glyphs import IndexGlyphs, corners, extract_region, index_region
from drivers.camera.locate import CardCandidate, locate_cards
from drivers.camera.search import SearchSettings, search_indexes

K = TypeVar("K", int, str)

#: pixels of Gaussian blur applied to marks and templates before comparing (stroke weight and a
#: pixel of misplacement should not matter)
BLUR_SIGMA = 1.0
#: suits with a notch in the upper outline, paired with their same-colour partner without one
NOTCHED = {"c": "s", "h": "d"}


@dataclass(frozen=True)
class ReaderSettings:
    """Certainty limits of :class:`IndexReader`.

    Attributes:
        min_score: least correlation (-1..1) of a mark with its best template.
        min_margin: least lead of the best template over the runner-up (see module doc).
        single_score, single_margin: the stricter limits for a card read by one index only
            (the other corner covered, or found by the index search): nothing confirms it.
        black_band: inks up to this fraction of the way from the calibrated black to the
            calibrated red redness count as black.
        red_band: inks from this fraction on count as red; in between the colour is unsure and
            no suit is certain.
    """

    min_score: float = 0.6
    min_margin: float = 0.15
    single_score: float = 0.7
    single_margin: float = 0.2
    black_band: float = 0.25
    red_band: float = 0.4


@dataclass(frozen=True)
class Reading:
    """The outcome of reading one card.

    Attributes:
        card: the card when certain, else None.
        guess: the best candidate even when not certain (diagnostics only; never report it).
        score: weakest best-template correlation of the marks used (-1..1; 0 when none).
        margin: weakest lead of best over runner-up template of the marks used.
        reason: empty when certain; else why not: ``no index``, ``low score``, ``ambiguous``,
            ``structure`` (holes or notch disagree with the template), ``colour``,
            ``corners disagree``, ``single index`` (one index only, below the stricter limits),
            ``blurred`` (marks too small or blurred for the calibrated deck).
    """

    card: Card | None
    guess: Card | None = None
    score: float = 0.0
    margin: float = 0.0
    reason: str = ""

    @property
    def found_index(self) -> bool:
        """An index (rank over suit) was found, read or not."""
        return self.reason != "no index"


@dataclass(frozen=True)
class Detection:
    """A card candidate of a frame and what was read on it.

    Attributes:
        quad: ordered corners in frame pixels, (4, 2) float32: the card, or for a ``partial``
            detection the index region.
        reading: the reading; ``reading.found_index`` is True for every returned detection.
        partial: found by its index alone (:mod:`~drivers.camera.search`), the card's outline
            not seen; always certain.
    """

    quad: Quad
    reading: Reading
    partial: bool = False


@dataclass(frozen=True)
class _Mark(Generic[K]):
    """One mark (rank or suit) of one index."""

    value: K
    score: float
    margin: float
    reason: str  # "" when certain
    plausible: bool  # the template alone is clear enough to contradict the other index


def _soft(glyph: Glyph) -> Glyph:
    return as_glyph(cv2.GaussianBlur(glyph, (0, 0), BLUR_SIGMA))


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Rows of ``v`` centred and scaled to unit length (a dot product is then a correlation)."""
    v = v - v.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.asarray(v / np.maximum(norm, 1e-9), dtype=np.float32)


class _Bank(Generic[K]):
    """Softened templates of the candidates of one decision, ready for matching."""

    def __init__(self, templates: dict[K, Glyph]) -> None:
        self.keys: list[K] = list(templates)
        flat = np.stack([_soft(t).ravel() for t in templates.values()])
        self.mean = flat.mean(axis=0)
        self.plain = _unit(flat)
        self.diff = _unit(flat - self.mean)

    def match(self, glyph: Glyph) -> tuple[K, float, float]:
        """Best template for ``glyph``: (key, its correlation, its lead over the runner-up).

        Candidates are ranked by correlation after subtracting the candidates' mean template,
        which keeps what tells them apart (a club's lobes against a spade's point); the score is
        the plain correlation with the winning template.
        """
        soft = _soft(glyph).ravel()
        diffs = self.diff @ _unit(soft - self.mean)
        order = np.argsort(-diffs)
        best = int(order[0])
        margin = float(diffs[best] - diffs[order[1]]) if len(order) > 1 else 1.0
        return self.keys[best], float(self.plain[best] @ _unit(soft)), margin


NO_INDEX = Reading(None, reason="no index")
#: a quadrilateral inside another one with less than this share of its area is nested in it
NESTED_AREA = 0.8


def _add_unnested(kept: list[Detection], new: Detection) -> list[Detection]:
    """``kept`` plus ``new`` (candidates come largest first), without nested quadrilaterals.

    A court card's picture frame is a card-shaped quadrilateral inside the card: the smaller
    one is dropped, unless it alone was read (a card lying on a sheet of white paper), in which
    case the unread outer one goes. Same-size cards that overlap are not nested.
    """
    c = new.quad.mean(axis=0)
    area = cv2.contourArea(new.quad)
    outer = [
        k
        for k in kept
        if area < NESTED_AREA * cv2.contourArea(k.quad)
        and cv2.pointPolygonTest(k.quad.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0
    ]
    if not outer:
        return [*kept, new]
    if new.reading.card is not None and all(k.reading.card is None for k in outer):
        return [k for k in kept if k not in outer] + [new]
    return kept


class IndexReader:
    """Reads card indexes with a :class:`~drivers.camera.calibration.Calibration`.

    Args:
        calibration: the deck's templates and limits.
        settings: certainty limits (defaults when None).
        detector: card outline detection limits (defaults when None).
        search: index search for cards without a clear outline (:mod:`~drivers.camera.search`):
            True for the default settings, False to switch it off, or its settings.
        flat_fallback: read a frame with a card's aspect and no large card in it as one
            flattened card (scans, cropped photos); off for a table camera.

    Pure computation on images (no device I/O); use one instance per thread.
    """

    def __init__(
        self,
        calibration: Calibration,
        settings: ReaderSettings | None = None,
        detector: DetectorSettings | None = None,
        search: SearchSettings | bool = True,
        flat_fallback: bool = True,
    ) -> None:
        self.calibration = calibration
        self.settings = settings or ReaderSettings()
        self.detector = detector or DetectorSettings()
        self.flat_fallback = flat_fallback
        self.search: SearchSettings | None = (
            search if isinstance(search, SearchSettings) else SearchSettings() if search else None
        )
        black, red = calibration.black_redness, calibration.red_redness
        self._black_max = black + self.settings.black_band * (red - black)
        self._red_min = black + self.settings.red_band * (red - black)
        suits = calibration.suits
        self._ranks = _Bank(calibration.ranks)
        self._red = _Bank({k: t for k, t in suits.items() if k in RED_SUITS})
        self._black = _Bank({k: t for k, t in suits.items() if k not in RED_SUITS})
        self._any_suit = _Bank(dict(suits))

    def _notch_contradicts(self, suit: str, notch: float) -> bool:
        """Whether the upper notch clearly belongs to the same-colour partner of ``suit``.

        Only for a pair the calibration separates (the notched suit's 10th percentile above the
        plain one's 90th): a spade read with a notch as deep as a typical club's, or a club read
        with one as shallow as a typical spade's. Notches in between decide nothing.
        """
        notched = suit if suit in NOTCHED else next(k for k, v in NOTCHED.items() if v == suit)
        limits = self.calibration.suit_notch
        if notched not in limits or NOTCHED[notched] not in limits:
            return False
        notched_p10 = limits[notched][0]
        plain_p90 = limits[NOTCHED[notched]][1]
        if notched_p10 <= plain_p90:
            return False
        return notch <= plain_p90 if suit == notched else notch >= notched_p10

    def _rank(self, g: IndexGlyphs) -> _Mark[int]:
        s = self.settings
        rank, score, margin = self._ranks.match(g.rank)
        cal = self.calibration
        holes = cal.rank_holes.get(rank)
        hole_low, hole_high = cal.hole_y.get(rank, (-1.0, 2.0))
        two_chars = g.rank_parts == 2 and cal.ten_parts == 2
        structure = (
            (not holes or g.rank_holes in holes)
            and (g.rank_holes == 0 or hole_low <= g.rank_hole_y <= hole_high)
            and (rank == 10 or not two_chars)
        )
        plausible = score >= s.min_score and margin >= s.min_margin / 2
        if score < s.min_score:
            return _Mark(rank, score, margin, "low score", plausible)
        if margin < s.min_margin:
            return _Mark(rank, score, margin, "ambiguous", plausible)
        if not structure:
            return _Mark(rank, score, margin, "structure", plausible)
        return _Mark(rank, score, margin, "", plausible)

    def _suit(self, g: IndexGlyphs) -> _Mark[str]:
        s = self.settings
        if g.redness >= self._red_min:
            bank = self._red
        elif g.redness <= self._black_max:
            bank = self._black
        else:
            bank = self._any_suit
        suit, score, margin = bank.match(g.suit)
        notch_ok = not self._notch_contradicts(suit, g.suit_notch)
        clear = bank is not self._any_suit
        plausible = clear and score >= s.min_score and margin >= s.min_margin / 2
        if not clear:
            return _Mark(suit, score, margin, "colour", False)
        if score < s.min_score:
            return _Mark(suit, score, margin, "low score", plausible)
        if margin < s.min_margin:
            return _Mark(suit, score, margin, "ambiguous", plausible)
        if not notch_ok:
            return _Mark(suit, score, margin, "structure", plausible)
        return _Mark(suit, score, margin, "", plausible)

    def _index(self, glyphs: IndexGlyphs) -> tuple[_Mark[int], _Mark[str]]:
        rank, suit = self._rank(glyphs), self._suit(glyphs)
        if glyphs.suit_detail < self.calibration.min_detail:
            # too small or blurred for this deck's marks to be told apart: neither read nor
            # allowed to contradict the other index
            rank = _Mark(rank.value, rank.score, rank.margin, "blurred", False)
            suit = _Mark(suit.value, suit.score, suit.margin, "blurred", False)
        return rank, suit

    def read_index(self, glyphs: IndexGlyphs) -> Reading:
        """Read one index (rank and suit marks) on its own."""
        return self._combine([self._index(glyphs)])

    def _combine(self, marks: list[tuple[_Mark[int], _Mark[str]]]) -> Reading:
        """Join the readings of a card's indexes (see the module doc for the rule)."""
        certain = [(r, s) for r, s in marks if not r.reason and not s.reason]
        pool = certain or marks
        best_r, best_s = max(pool, key=lambda m: min(m[0].score, m[1].score))
        guess = Card(best_r.value, best_s.value)
        score = min(best_r.score, best_s.score)
        margin = min(best_r.margin, best_s.margin)
        if not certain:
            reason = best_r.reason or best_s.reason
            return Reading(None, guess, score, margin, reason)
        for r, s in marks:
            rank_clash = r.value != best_r.value and (not r.reason or r.plausible)
            suit_clash = s.value != best_s.value and (not s.reason or s.plausible)
            if rank_clash or suit_clash:
                return Reading(None, guess, score, margin, "corners disagree")
        support = sum(1 for r, s in marks if (r.value, s.value) == (best_r.value, best_s.value))
        limits = self.settings
        if support < 2 and (score < limits.single_score or margin < limits.single_margin):
            return Reading(None, guess, score, margin, "single index")
        return Reading(guess, guess, score, margin)

    def read_card(self, card: Image) -> Reading:
        """Read a canonical card image by both printed indexes (top-left and bottom-right)."""
        return self._read([index_region(view) for view in corners(card)], card.shape[0])

    def read_candidate(self, candidate: CardCandidate) -> Reading:
        """Read a located card by its two index regions (warped straight from the frame)."""
        return self._read(list(candidate.index_regions()), CARD_H)

    def _read(self, regions: list[Image], card_h: int) -> Reading:
        marks = []
        for region in regions:
            glyphs = extract_region(region, card_h)
            if glyphs is not None:
                marks.append(self._index(glyphs))
        return self._combine(marks) if marks else NO_INDEX

    def read_frame(self, frame: Image) -> list[Detection]:
        """Find and read every card of a BGR frame (h, w, 3) uint8.

        Returns one Detection per card candidate showing an index, largest first; candidates
        without one (not a card face, or face down) are left out. Then, when the reader has
        search settings, certain readings of indexes outside those candidates (overlapping or
        low-contrast cards, see :mod:`~drivers.camera.search`) as ``partial`` detections.
        """
        out: list[Detection] = []
        for candidate in locate_cards(frame, self.detector, flat_fallback=self.flat_fallback):
            reading = self.read_candidate(candidate)
            if reading.found_index:
                out = _add_unnested(out, Detection(candidate.quad, reading))
        if self.search is not None:
            known = {d.reading.card for d in out}
            found = search_indexes(frame, self, [d.quad for d in out], self.search)
            out += [d for d in found if d.reading.card not in known]
        return out
