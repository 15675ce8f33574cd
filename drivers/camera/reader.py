"""Read a card's index: calibrated templates and a deck-independent shape classifier, colour first.

Two opinions per mark. The templates (:mod:`~drivers.camera.templates`) are the calibrated
deck's own marks, compared by correlation; they are sure of themselves on that deck and can be
confidently wrong on another deck's print. The shape classifier (:mod:`~drivers.camera.shapes`)
learned each rank and suit from many print styles plus the calibrated deck's marks.

Certainty rule (never guess): a mark is read only when

- the templates are sure (best correlation >= ``min_score``, lead >= ``min_margin`` on what
  tells the candidates apart, structure of the calibrated deck: hole count and height, two
  characters only for a 10, the suit's upper notch) **and** the classifier's best is the same
  value, near its prototypes and at least plausible (ratio < ``plausible_ratio``); or
- the classifier is clear: ratio < ``shape_ratio`` for a suit, < ``rank_ratio`` for a rank
  whose template best is the same rank, else < ``alone_ratio``; near its prototypes, hole
  count/height and parts fit the rank as printed in the training fonts, and the templates do
  not plausibly name another value;
- and, for a suit, the ink colour is clearly red or black, the classifier's best over all four
  suits is of that colour, and the mark is sharp enough (``min_detail`` of the calibration for
  the templates; of the shape model for the classifier, one limit per ink).

A card is certain when one printed index has both marks certain and the other index, where
found, names nothing else plausibly (by templates or classifier); when no second index shows
the same card, the stricter limits apply (templates ``single_score`` / ``single_margin``,
classifier ``single_ratio``). Anything else is unknown, with the reason. Where the calibration
carries other prints' suit templates (:attr:`~drivers.camera.calibration.Calibration.suit_sets`),
a card its own suit templates leave unread is tried with each set on its own, the same rule
(a set's best suit must lead the other suits of that set).

:class:`IndexReader` applies the rule to a card's two indexes, to a located card or to a whole
frame; the limits (:class:`~drivers.camera.certainty.ReaderSettings`) and one mark's reading are
in :mod:`~drivers.camera.certainty`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from drivers.camera.calibration import Calibration
from drivers.camera.certainty import ReaderSettings, _fits, _Mark, _merge, _own, _shape_structure
from drivers.camera.detect import DetectorSettings, detect_cards
from drivers.camera.geometry import CARD_H, Image
from drivers.camera.glyphs import IndexGlyphs, Roi, corners, extract_corner, index_region
from drivers.camera.locate import CardCandidate, locate_cards
from drivers.camera.reading import Detection, Reading
from drivers.camera.search import SearchSettings, search_indexes
from drivers.camera.shapes import ShapeModel, ShapeVotes, Vote, default_model
from drivers.camera.templates import SuitBanks, TemplateBank

#: suits with a notch in the upper outline, paired with their same-colour partner without one
NOTCHED = {"c": "s", "h": "d"}

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


def _with_house_marks(model: ShapeModel, calibration: Calibration) -> ShapeModel:
    """``model`` plus the calibration deck's own marks as prototypes (if it holds any)."""
    m = calibration.marks
    if not m or "rank_shape" not in m:
        return model
    return model.with_marks(
        (np.asarray(m["rank_shape"], np.float32) / 255.0, m["rank_aspect"], m["rank"]),
        (np.asarray(m["suit_shape"], np.float32) / 255.0, m["suit_aspect"], m["suit"]),
    )


def _corners(cut: Callable[[int, Roi], Image], card_h: int) -> list[IndexGlyphs]:
    """The indexes found at a card's two corners (:func:`~drivers.camera.glyphs.extract_corner`:
    the standard region, or the jumbo one); ``cut(corner, roi)`` gives a corner's region (0
    top-left, 1 bottom-right upright) of a card ``card_h`` pixels tall."""
    marks = (extract_corner(functools.partial(cut, corner), card_h) for corner in (0, 1))
    return [g for g in marks if g is not None]


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
        shapes: the deck-independent shape classifier (:mod:`~drivers.camera.shapes`): True
            for the packaged model, a model, or False for the templates alone; the
            calibration's own marks are added to the model's prototypes.

    Pure computation on images (no device I/O); use one instance per thread.

    Raises:
        ConfigError: the packaged shape model is missing or unreadable.
    """

    def __init__(
        self,
        calibration: Calibration,
        settings: ReaderSettings | None = None,
        detector: DetectorSettings | None = None,
        search: SearchSettings | bool = True,
        flat_fallback: bool = True,
        shapes: ShapeModel | bool = True,
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
        self._ranks = TemplateBank(calibration.ranks)
        # the deck's own suit templates first, then the other prints' sets, each on its own
        self._suit_banks = [SuitBanks(calibration.suits)] + [
            SuitBanks(suits) for suits in calibration.suit_sets.values()
        ]
        model = shapes if isinstance(shapes, ShapeModel) else default_model() if shapes else None
        self.shapes = _with_house_marks(model, calibration) if model else None
        meta = self.shapes.meta if self.shapes else {}
        # detail limits per ink; models trained before the red limit was measured have one
        # limit from every misread (the strictest) for both inks
        self._shape_detail = float(meta.get("min_detail", 0.0))
        self._shape_detail_red = float(meta.get("min_detail_red", self._shape_detail))
        self._rank_reach = self.settings.shape_distance * float(meta.get("rank_distance", 0.0))
        self._suit_reach = self.settings.shape_distance * float(meta.get("suit_distance", 0.0))

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

    def _house_structure(self, rank: int, g: IndexGlyphs) -> bool:
        """Holes and parts of the rank mark agree with ``rank`` as the calibrated (house) deck
        prints it: its own marks are the authority on its print, also where they fall outside
        the training fonts' range (the PR 15 Q's hole sits lower than in 99 % of them)."""
        cal = self.calibration
        holes = cal.rank_holes.get(rank)
        return bool(holes) and _fits(holes or (), cal.hole_y.get(rank, (-1.0, 2.0)), rank, g)

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
        claims = frozenset({rank}) if plausible else frozenset()
        if score < s.min_score:
            return _Mark(rank, score, margin, "low score", claims)
        if margin < s.min_margin:
            return _Mark(rank, score, margin, "ambiguous", claims)
        if not structure:
            return _Mark(rank, score, margin, "structure", claims)
        return _Mark(rank, score, margin, "", claims, self._strong(score, margin))

    def _strong(self, score: float, margin: float) -> bool:
        s = self.settings
        return score >= s.single_score and margin >= s.single_margin

    def _colour(self, g: IndexGlyphs) -> str:
        """The suits the ink colour allows: ``hd`` (red), ``sc`` (black) or ``""`` (unsure)."""
        if g.redness >= self._red_min:
            return "hd"
        if g.redness <= self._black_max:
            return "sc"
        return ""

    def _suit(self, g: IndexGlyphs, banks: SuitBanks) -> _Mark[str]:
        """The suit mark by one template set: its best suit leads the other suits of that set."""
        s = self.settings
        colour = self._colour(g)
        suit, score, margin = banks.for_colour(colour).match(g.suit)
        notch_ok = not self._notch_contradicts(suit, g.suit_notch)
        clear = colour != ""
        plausible = clear and score >= s.min_score and margin >= s.min_margin / 2
        claims = frozenset({suit}) if plausible else frozenset()
        if not clear:
            return _Mark(suit, score, margin, "colour", claims)
        if score < s.min_score:
            return _Mark(suit, score, margin, "low score", claims)
        if margin < s.min_margin:
            return _Mark(suit, score, margin, "ambiguous", claims)
        if not notch_ok:
            return _Mark(suit, score, margin, "structure", claims)
        return _Mark(suit, score, margin, "", claims, self._strong(score, margin))

    def shape_votes(self, marks: Sequence[IndexGlyphs]) -> ShapeVotes:
        """The classifier's votes on several indexes at once (those sharp enough for it):
        one product with its prototypes for all of them, not one an index; a frame's marks are
        read this way (:meth:`read_frame`)."""
        model = self.shapes
        sharp = [g for g in marks if self._shape_sharp(g)] if model is not None else []
        if model is None or not sharp:
            return {}
        ranks = model.rank_votes(sharp)
        coloured = [g for g in sharp if self._colour(g)]
        suits = dict(zip(map(id, coloured), model.suit_distances(coloured), strict=True))
        return {id(g): (r, suits.get(id(g))) for g, r in zip(sharp, ranks, strict=True)}

    def _shape_sharp(self, glyphs: IndexGlyphs) -> bool:
        """Whether the index is sharp enough for the shape classifier: its suit mark's detail
        reaches the model's limit for its ink (each ink has its own, from the misreads that
        can happen in it; an unsure colour takes the stricter of the two)."""
        colour = self._colour(glyphs)
        red, black = self._shape_detail_red, self._shape_detail
        limit = red if colour == "hd" else black if colour == "sc" else max(red, black)
        return glyphs.suit_detail >= limit

    def _index_rank(self, glyphs: IndexGlyphs, vote: Vote | None = None) -> _Mark[int]:
        """The rank mark of one index, templates and shape classifier joined (``vote``: the
        classifier's, if worked out already)."""
        rank = self._rank(glyphs)
        if glyphs.suit_detail < self.calibration.min_detail:
            # too small or blurred for this deck's marks to be told apart: neither read nor
            # allowed to contradict the other index
            rank = _Mark(rank.value, rank.score, rank.margin, "blurred", frozenset())
        model = self.shapes
        if model is None or not self._shape_sharp(glyphs):
            return rank
        vote = vote or model.rank(glyphs)
        usable = vote.distance <= self._rank_reach and (
            _shape_structure(model, int(vote.value), glyphs)
            or self._house_structure(int(vote.value), glyphs)
        )
        s = self.settings
        return _merge(rank, vote, usable, s, s.rank_ratio, s.alone_ratio)

    def _suit_votes(
        self, glyphs: IndexGlyphs, nearest: npt.NDArray[np.float32] | None = None
    ) -> tuple[Vote, Vote] | None:
        """The classifier's suit votes (best of all four suits, best of the ink's two), or
        None where it has no say (no model, not sharp enough, colour unsure). ``nearest``:
        the mark's distances to each suit (:meth:`shape_votes`), if worked out already."""
        model = self.shapes
        colour = self._colour(glyphs)
        if model is None or not self._shape_sharp(glyphs) or not colour:
            return None
        return model.suit_votes(glyphs, colour, nearest)

    def _index_suit(
        self, glyphs: IndexGlyphs, banks: SuitBanks, votes: tuple[Vote, Vote] | None
    ) -> _Mark[str]:
        """The suit mark of one index by one template set (``banks``) and the classifier's
        ``votes`` (:meth:`_suit_votes`) joined; unsure (``colour``) when the classifier's best
        over all four suits is of the other colour than the ink's (checked where the index is
        sharp enough for the classifier)."""
        suit = self._suit(glyphs, banks)
        if glyphs.suit_detail < self.calibration.min_detail:
            suit = _Mark(suit.value, suit.score, suit.margin, "blurred", frozenset())
        if votes is None:
            return suit
        colour = self._colour(glyphs)
        anywhere, shape_suit = votes
        if str(anywhere.value) not in colour:
            # the mark's shape is a suit of the other colour: the ink was misjudged, or the
            # deck is not printed in red and black (a four-colour deck's blue diamonds)
            return _Mark(suit.value, suit.score, suit.margin, "colour", frozenset())
        suit_ok = shape_suit.distance <= self._suit_reach and not self._notch_contradicts(
            str(shape_suit.value), glyphs.suit_notch
        )
        if (
            suit_ok
            and shape_suit.ratio < self.settings.suit_overrule_ratio
            and shape_suit.value != suit.value
        ):
            # one deck's suit templates do not tell another deck's spade from its club; a clear
            # vote of the classifier (trained on many print styles) overrules them
            suit = _Mark(suit.value, suit.score, suit.margin, "overruled", frozenset())
        s = self.settings
        return _merge(suit, shape_suit, suit_ok, s, s.shape_ratio, s.shape_ratio)

    def read_index(
        self, glyphs: IndexGlyphs, lazy: bool = False, votes: ShapeVotes | None = None
    ) -> Reading:
        """Read one index (rank and suit marks) on its own.

        ``lazy``: when the rank cannot be certain, stop there (the reading is unknown anyway,
        without a guess): the index search tries many mark pairs per frame. ``votes``: the
        classifier's (:meth:`shape_votes`), if worked out already.
        """
        vote = votes.get(id(glyphs), (None, None))[0] if votes else None
        rank = self._index_rank(glyphs, vote)
        if lazy and rank.reason:
            return Reading(None, None, rank.score, rank.margin, rank.reason)
        return self._by_suit_sets([glyphs], [rank], votes)

    def _by_suit_sets(
        self, found: list[IndexGlyphs], ranks: list[_Mark[int]], votes: ShapeVotes | None
    ) -> Reading:
        """A card from its indexes found (``ranks``: their rank marks; ``votes``: the
        classifier's, if worked out already): by the deck's own suit templates; where that
        leaves the card unread, by each other template set of the calibration on its own, the
        first that reads the card certain (only with the shape classifier: its backing is part
        of the rule). A card the deck's own templates read is read as before, so another
        print's set can only add reads, never take one away."""
        nearest = [votes.get(id(g), (None, None))[1] if votes else None for g in found]
        suit_votes = [self._suit_votes(g, n) for g, n in zip(found, nearest, strict=True)]

        def by(banks: SuitBanks, own: bool) -> Reading:
            marks = []
            for g, r, v in zip(found, ranks, suit_votes, strict=True):
                suit = self._index_suit(g, banks, v)
                if not own and v is None:
                    # another print's templates are never read without the classifier's backing
                    suit = replace(suit, reason=suit.reason or "blurred", claims=frozenset())
                marks.append((r, suit))
            return self._combine(marks)

        reading = by(self._suit_banks[0], True)
        if reading.card is not None or all(r.reason for r in ranks) or self.shapes is None:
            return reading
        for banks in self._suit_banks[1:]:
            other = by(banks, False)
            if other.card is not None:
                return other
        return reading

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
            rank_clash = any(c != best_r.value for c in r.claims | _own(r))
            suit_clash = any(c != best_s.value for c in s.claims | _own(s))
            if rank_clash or suit_clash:
                return Reading(None, guess, score, margin, "corners disagree")
        support = sum(1 for r, s in marks if (r.value, s.value) == (best_r.value, best_s.value))
        if support < 2 and not (best_r.strong and best_s.strong):
            return Reading(None, guess, score, margin, "single index")
        return Reading(guess, guess, score, margin)

    def read_card(self, card: Image) -> Reading:
        """Read a canonical card image by both printed indexes (top-left and bottom-right)."""
        views = corners(card)
        return self._read(lambda i, roi: index_region(views[i], roi), card.shape[0])

    def read_candidate(self, candidate: CardCandidate) -> Reading:
        """Read a located card by its two index regions (warped straight from the frame)."""
        return self._read(candidate.index_region, CARD_H)

    def _read(self, cut: Callable[[int, Roi], Image], card_h: int) -> Reading:
        """Both corners' indexes read; ``cut`` and ``card_h`` as for :func:`_corners`."""
        found = _corners(cut, card_h)
        return self._read_marks(found, self.shape_votes(found))

    def _read_marks(self, found: list[IndexGlyphs], votes: ShapeVotes) -> Reading:
        """A card's reading from the indexes found at its corners."""
        if not found:
            return NO_INDEX
        ranks = [
            self._index_rank(g, votes.get(id(g), (None, None))[0] if votes else None) for g in found
        ]
        return self._by_suit_sets(found, ranks, votes)

    def read_frame(self, frame: Image) -> list[Detection]:
        """Find and read every card of a BGR frame (h, w, 3) uint8.

        Returns one Detection per card candidate showing an index, largest first; candidates
        without one (not a card face, or face down) are left out. Then, when the reader has
        search settings, certain readings of indexes outside those candidates (overlapping or
        low-contrast cards, see :mod:`~drivers.camera.search`) as ``partial`` detections.
        """
        out: list[Detection] = []
        cards = detect_cards(frame, self.detector)
        candidates = locate_cards(frame, flat_fallback=self.flat_fallback, found=cards)
        indexes = [_corners(c.index_region, CARD_H) for c in candidates]
        votes = self.shape_votes([g for marks in indexes for g in marks])
        for candidate, marks in zip(candidates, indexes, strict=True):
            reading = self._read_marks(marks, votes)
            if reading.found_index:
                out = _add_unnested(out, Detection(candidate.quad, reading))
        if self.search is not None:
            known = {d.reading.card for d in out}
            found = search_indexes(frame, self, [d.quad for d in out], self.search, cards)
            out += [d for d in found if d.reading.card not in known]
        return out
