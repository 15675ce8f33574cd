"""Vote over frames: follow each card from frame to frame and report it once it is stable.

A card on the felt is seen in many frames; single frames can be misread (a hand passing, glare,
motion blur). Each detection is matched to the nearest track (centre distance below ``match``
track sizes). A track reports a card when, among its last ``window`` frames, at least ``agree``
read that same card as certain and none read another card. A track that stays visible for
``settle`` frames without becoming stable is reported once as unreadable (None). Within one deck a
card value is reported once: the same card seen again (moved, or found again after being covered)
is a track of a card already dealt, not a new card.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from dealer_assist.errors import ConfigError
from drivers.camera.reading import Detection


@dataclass(frozen=True)
class VoteSettings:
    """How many frames make a decision.

    Attributes:
        window: recent frames kept per track.
        agree: certain reads of one card needed within the window (and no other card read).
        settle: frames a track may stay visible without a stable card before it is reported as
            unreadable.
        keep: frames a track survives unseen (covered by a hand) before it is forgotten.
        match: largest centre distance, in track sizes (square root of the card's area), at which
            a detection continues a track.
    """

    window: int = 5
    agree: int = 4
    settle: int = 45
    keep: int = 15
    match: float = 0.5

    def __post_init__(self) -> None:
        if not 1 <= self.agree <= self.window:
            raise ConfigError(f"vote: need 1 <= agree <= window, got {self.agree}/{self.window}")
        if self.settle < self.window or self.keep < 0 or self.match <= 0:
            raise ConfigError("vote: settle must be >= window, keep >= 0 and match > 0")


_UNREADABLE = "unreadable"


@dataclass(eq=False)  # tracks are compared by identity
class _Track:
    centre: npt.NDArray[np.float64]
    size: float
    votes: deque[Card | None]
    seen: int = 1
    missing: int = 0
    reported: Card | str | None = None  # the card reported, _UNREADABLE, or None


@dataclass
class Voter:
    """Per-card voting state of one camera; not thread-safe (use from one thread or lock).

    :meth:`update` takes one frame's detections and returns the decisions due: a Card when a
    card became stable, None when a card was settled as unreadable.
    """

    settings: VoteSettings = field(default_factory=VoteSettings)
    _tracks: list[_Track] = field(default_factory=list)
    _dealt: set[Card] = field(default_factory=set)

    @property
    def tracks(self) -> int:
        """Cards currently followed."""
        return len(self._tracks)

    def new_deck(self) -> None:
        """Start a new deck: cards already on the table are not reported again, and every card
        value may be reported once more."""
        self._dealt.clear()
        for t in self._tracks:
            t.reported = t.reported or _UNREADABLE

    def update(self, detections: Sequence[Detection]) -> list[Card | None]:
        """Feed one frame's detections; returns the cards (or None = unreadable) now decided."""
        s = self.settings
        free = list(self._tracks)
        for t in self._tracks:
            t.missing += 1
        for d in detections:
            centre = d.quad.mean(axis=0).astype(np.float64)
            size = float(np.sqrt(max(cv2.contourArea(d.quad), 1.0)))
            near = [(float(np.linalg.norm(t.centre - centre)), t) for t in free]
            near = [(dist, t) for dist, t in near if dist <= s.match * max(t.size, size)]
            if near:
                track = min(near, key=lambda item: item[0])[1]
                free.remove(track)
                track.centre, track.size = centre, size
                track.seen += 1
                track.missing = 0
            else:
                track = _Track(centre, size, deque(maxlen=s.window), missing=0)
                self._tracks.append(track)
            track.votes.append(d.reading.card)
        self._tracks = [t for t in self._tracks if t.missing <= s.keep]
        decisions: list[Card | None] = []
        for t in self._tracks:
            due, card = self._decide(t)
            if due:
                decisions.append(card)
        return decisions

    def _decide(self, t: _Track) -> tuple[bool, Card | None]:
        """(a decision is due, the card or None = unreadable) for ``t`` this frame."""
        s = self.settings
        if t.missing or t.reported == _UNREADABLE:
            return False, None
        certain = Counter(v for v in t.votes if v is not None)
        if len(certain) == 1:
            card, n = certain.most_common(1)[0]
            if n >= s.agree and card != t.reported:
                t.reported = card
                if card in self._dealt:
                    return False, None  # the same card again: moved, or uncovered
                self._dealt.add(card)
                return True, card
        if t.reported is None and t.seen >= s.settle:
            t.reported = _UNREADABLE
            return True, None
        return False, None
