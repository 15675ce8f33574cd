"""What reading cards gives: :class:`Reading` (one card) and :class:`Detection` (a card found
in a frame), shared by the reader (:mod:`~drivers.camera.reader`), the index search
(:mod:`~drivers.camera.search`), the vote and the camera source."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from drivers.camera.geometry import Quad


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
            ``blurred`` (marks too small or blurred for the calibrated deck), ``models
            disagree`` (the templates are sure but the shape classifier does not back them).
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
