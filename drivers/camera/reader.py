"""Read a card's index against the calibration: rank and suit by template correlation, colour first.

Certainty rule (never guess): a mark is read only when

- its best template correlation reaches ``min_score``, and it beats the runner-up by
  ``min_margin`` on what tells the candidates apart (correlation after subtracting the candidates'
  mean template);
- a structural check learned from the calibration deck agrees: the number of enclosed holes of a
  rank mark, and for suits the ink colour (red or black) and the notch of the upper outline
  (clubs and hearts have one, spades and diamonds not).

A card is certain when one printed index has both marks certain and the other index, where
found, contradicts neither with a plausible reading. Anything else is unknown, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import cv2
import numpy as np

from dealer_assist.cards import Card
from drivers.camera.calibration import RED_SUITS, Calibration
from drivers.camera.detect import DetectorSettings
from drivers.camera.geometry import Glyph, Image, Quad, as_glyph
from drivers.camera.glyphs import IndexGlyphs, corners, extract_index
from drivers.camera.locate import locate_cards

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
        black_band: inks up to this fraction of the way from the calibrated black to the
            calibrated red redness count as black.
        red_band: inks from this fraction on count as red; in between the colour is unsure and
            no suit is certain.
        notch_band: a notched suit (club, heart) needs a notch beyond this fraction of the way
            from its partner's calibrated notch to its own; an unnotched one must stay below
            ``1 - notch_band`` of the way.
    """

    min_score: float = 0.6
    min_margin: float = 0.15
    black_band: float = 0.25
    red_band: float = 0.4
    notch_band: float = 0.35


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
            ``corners disagree``.
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
        quad: ordered corners in frame pixels, (4, 2) float32.
        reading: the reading; ``reading.found_index`` is True for every returned detection.
    """

    quad: Quad
    reading: Reading


@dataclass(frozen=True)
class _Mark(Generic[K]):
    """One mark (rank or suit) of one index."""

    value: K
    score: float
    margin: float
    reason: str  # "" when certain
    plausible: bool  # the template alone is clear enough to contradict the other index


def _correlation(a: Glyph, b: Glyph) -> float:
    """Pearson correlation of two same-shape arrays; 0 when either is flat."""
    x = a.ravel() - a.mean()
    y = b.ravel() - b.mean()
    den = float(np.sqrt((x * x).sum() * (y * y).sum()))
    return float((x * y).sum()) / den if den > 0 else 0.0


def _soft(glyph: Glyph) -> Glyph:
    return as_glyph(cv2.GaussianBlur(glyph, (0, 0), BLUR_SIGMA))


def _match(glyph: Glyph, templates: dict[K, Glyph]) -> tuple[K, float, float]:
    """Best template for ``glyph``: (key, its correlation, its lead over the runner-up).

    Candidates are ranked by correlation after subtracting the candidates' mean template, which
    keeps what tells them apart (a club's lobes against a spade's point); the score is the plain
    correlation with the winning template.
    """
    soft = _soft(glyph)
    softened = {k: _soft(t) for k, t in templates.items()}
    mean = np.mean(list(softened.values()), axis=0)
    ranked = sorted(
        ((_correlation(soft - mean, t - mean), k) for k, t in softened.items()),
        key=lambda s: -s[0],
    )
    best_diff, best = ranked[0]
    margin = best_diff - ranked[1][0] if len(ranked) > 1 else 1.0
    return best, _correlation(soft, softened[best]), margin


NO_INDEX = Reading(None, reason="no index")


class IndexReader:
    """Reads card indexes with a :class:`~drivers.camera.calibration.Calibration`.

    Pure computation on images (no device I/O); use one instance per thread.
    """

    def __init__(
        self,
        calibration: Calibration,
        settings: ReaderSettings | None = None,
        detector: DetectorSettings | None = None,
    ) -> None:
        self.calibration = calibration
        self.settings = settings or ReaderSettings()
        self.detector = detector or DetectorSettings()
        black, red = calibration.black_redness, calibration.red_redness
        self._black_max = black + self.settings.black_band * (red - black)
        self._red_min = black + self.settings.red_band * (red - black)

    def _notch_agrees(self, suit: str, notch: float) -> bool:
        """Whether the measured upper notch fits ``suit`` (calibrated per deck)."""
        means = self.calibration.suit_notch
        notched = suit if suit in NOTCHED else next(k for k, v in NOTCHED.items() if v == suit)
        low, high = means.get(NOTCHED[notched], 0.0), means.get(notched, 0.0)
        band = self.settings.notch_band * (high - low)
        return notch >= low + band if suit == notched else notch <= high - band

    def _rank(self, g: IndexGlyphs) -> _Mark[int]:
        s = self.settings
        rank, score, margin = _match(g.rank, self.calibration.ranks)
        holes = self.calibration.rank_holes.get(rank)
        two_chars = g.rank_parts == 2 and self.calibration.ten_parts == 2
        structure = (holes is None or holes == g.rank_holes) and (rank == 10 or not two_chars)
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
        suits = self.calibration.suits
        if g.redness >= self._red_min:
            candidates = {k: t for k, t in suits.items() if k in RED_SUITS}
        elif g.redness <= self._black_max:
            candidates = {k: t for k, t in suits.items() if k not in RED_SUITS}
        else:
            candidates = dict(suits)
        suit, score, margin = _match(g.suit, candidates)
        notch_ok = self._notch_agrees(suit, g.suit_notch)
        plausible = len(candidates) == 2 and score >= s.min_score and margin >= s.min_margin / 2
        if len(candidates) != 2:
            return _Mark(suit, score, margin, "colour", False)
        if score < s.min_score:
            return _Mark(suit, score, margin, "low score", plausible)
        if margin < s.min_margin:
            return _Mark(suit, score, margin, "ambiguous", plausible)
        if not notch_ok:
            return _Mark(suit, score, margin, "structure", plausible)
        return _Mark(suit, score, margin, "", plausible)

    def _index(self, glyphs: IndexGlyphs) -> tuple[_Mark[int], _Mark[str]]:
        return self._rank(glyphs), self._suit(glyphs)

    def read_index(self, glyphs: IndexGlyphs) -> Reading:
        """Read one index (rank and suit marks) on its own."""
        return self._combine([self._index(glyphs)])

    @staticmethod
    def _combine(marks: list[tuple[_Mark[int], _Mark[str]]]) -> Reading:
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
        return Reading(guess, guess, score, margin)

    def read_card(self, card: Image) -> Reading:
        """Read a canonical card image by both printed indexes (top-left and bottom-right)."""
        marks = []
        for view in corners(card):
            glyphs = extract_index(view)
            if glyphs is not None:
                marks.append(self._index(glyphs))
        return self._combine(marks) if marks else NO_INDEX

    def read_frame(self, frame: Image) -> list[Detection]:
        """Find and read every card of a BGR frame (h, w, 3) uint8.

        Returns one Detection per card candidate showing an index, largest first; candidates
        without one (not a card face, or face down) are left out.
        """
        out = []
        for candidate in locate_cards(frame, self.detector):
            reading = self.read_card(candidate.image)
            if reading.found_index:
                out.append(Detection(candidate.quad, reading))
        return out
