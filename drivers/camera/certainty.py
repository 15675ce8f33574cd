"""The certainty rule's parts, one mark at a time (see :mod:`drivers.camera.reader`).

:class:`ReaderSettings` are the limits; :class:`_Mark` is one mark's reading (value, scores,
why it is not certain, what it claims against the other index); :func:`_merge` joins the
calibrated templates' reading of a mark with the shape classifier's vote; :func:`_fits` and
:func:`_shape_structure` check a rank mark's holes and parts against a rank as printed.
Shared by the reader and the training's acceptance measurements
(:mod:`~drivers.camera.training`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, TypeVar, cast

from drivers.camera.glyphs import IndexGlyphs
from drivers.camera.shapes import ShapeModel, Vote

K = TypeVar("K", int, str)


@dataclass(frozen=True)
class ReaderSettings:
    """Certainty limits of :class:`IndexReader`.

    Attributes:
        min_score: least correlation (-1..1) of a mark with its best template.
        min_margin: least lead of the best template over the runner-up (on what tells the
            candidates apart: :class:`~drivers.camera.templates.TemplateBank`).
        single_score, single_margin: the stricter limits for a card read by one index only
            (the other corner covered, or found by the index search): nothing confirms it.
        black_band: inks up to this fraction of the way from the calibrated black to the
            calibrated red redness count as black.
        red_band: inks from this fraction on count as red; in between the colour is unsure and
            no suit is certain.
        shape_ratio: a suit mark is read by the shape classifier
            (:mod:`~drivers.camera.shapes`) when its nearest-prototype distance ratio is below
            this;
        rank_ratio: a rank mark when below this and the templates' best is the same rank ...
        alone_ratio: ... or below this whatever the templates' best (measured on held-out font
            families: the templates' agreement rules out most confusions between unusual print
            and a similar rank, up to ``rank_ratio``);
        single_ratio: a card read by one index only needs its marks below this too;
        plausible_ratio: a shape vote below this may contradict a reading (the other index's,
            or the templates').
        shape_distance: a shape vote counts only when its distance is at most this factor of
            the largest right-reading distance measured when the model was trained (farther
            marks are unlike any learned print).
        suit_overrule_ratio: a suit vote of the classifier below this (within reach, notch not
            against it) overrules the calibrated templates when they name the other suit of
            the same colour: one deck's templates take many other decks' spades for clubs.
    """

    min_score: float = 0.6
    min_margin: float = 0.15
    single_score: float = 0.7
    single_margin: float = 0.2
    black_band: float = 0.25
    red_band: float = 0.4
    shape_ratio: float = 0.7
    rank_ratio: float = 0.6
    alone_ratio: float = 0.5
    single_ratio: float = 0.55
    plausible_ratio: float = 0.85
    shape_distance: float = 1.0
    suit_overrule_ratio: float = 0.5


@dataclass(frozen=True)
class _Mark(Generic[K]):
    """One mark (rank or suit) of one index."""

    value: K
    score: float
    margin: float
    reason: str  # "" when certain
    claims: frozenset[K]  # values named clearly enough to contradict another reading
    strong: bool = False  # meets the stricter limits of a card read by one index


def _own(mark: _Mark[K]) -> frozenset[K]:
    """A certain mark's value, as a claim."""
    return frozenset() if mark.reason else frozenset({mark.value})


def _fits(holes: tuple[int, ...], hole_y: tuple[float, float], rank: int, g: IndexGlyphs) -> bool:
    """The rank mark has an allowed hole count, its holes sit within ``hole_y`` (fraction of
    the mark's height) and it has two parts only for a ten."""
    low, high = hole_y
    return (
        g.rank_holes in holes
        and (g.rank_holes == 0 or low <= g.rank_hole_y <= high)
        and (rank == 10 or g.rank_parts == 1)
    )


def _shape_structure(model: ShapeModel, rank: int, g: IndexGlyphs) -> bool:
    """Holes and parts of the rank mark agree with ``rank`` as printed in the shape model's
    training fonts: an allowed hole count and hole height, two parts only for a ten."""
    return _fits(model.rank_holes.get(rank, ()), model.hole_y.get(rank, (-1.0, 2.0)), rank, g)


def _merge(
    template: _Mark[K], vote: Vote, usable: bool, s: ReaderSettings, agreed: float, alone: float
) -> _Mark[K]:
    """One mark's reading from the calibrated templates and the shape classifier together.

    A template reading is certain only when the classifier backs it: same best value, the vote
    usable (near enough to its prototypes, structure agrees) and at least plausible. A
    classifier reading is certain when the vote is clear: below ``agreed`` when the
    templates' best is the same value, below ``alone`` otherwise (two different models agreeing
    is the stronger evidence), and the templates do not plausibly name another value. A card
    read by one index needs one of the two to meet its stricter limit. Values named plausibly
    are kept as claims against the other index.
    """
    value = cast(K, vote.value)
    plausible = usable and vote.ratio < s.plausible_ratio
    agree = value == template.value
    clear = usable and vote.ratio < (agreed if agree else min(alone, agreed))
    strong = clear and vote.ratio < s.single_ratio
    claims = template.claims | {value} if plausible else template.claims
    if not template.reason:
        if not agree or not plausible:
            return replace(template, reason="models disagree", claims=claims)
        return replace(template, claims=claims, strong=template.strong or strong)
    if clear and all(c == value for c in claims):
        return _Mark(value, template.score, template.margin, "", claims, strong)
    return replace(template, claims=claims)
