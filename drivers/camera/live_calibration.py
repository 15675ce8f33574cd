"""Live calibration: the house deck shown to the table camera card by card.

The operator is asked for one card at a time, in a fixed order. For each card the frames are
watched until exactly one card lies still and sharp under the camera; then ``faces`` rectified
whole-card images (portrait, CARD_W x CARD_H: :func:`~drivers.camera.geometry.order_corners`
turns a card lying landscape upright, and a card upside down gives the same face since its
indexes sit in opposite corners) are taken from consecutive frames. The next card is asked for
only once the felt has been seen empty for a few frames, so a card left lying there is neither
captured twice nor taken for the next one. Two cards in view are never captured.

This module only captures: learning is :func:`~drivers.camera.calibrate.calibrate_from_folder`
on the faces written as a folder named by card (``DIR/As/1.png`` ...), the one learning path.

Frames are read in a worker thread (a driver stuck in ``read()`` cannot block the prompts or the
timeouts); everything else runs in the caller's thread. No Qt, no terminal: what to tell the
operator goes to a ``notify`` callback.

The frames' worker is :class:`~drivers.camera.frame_feed.FrameFeed`; finding the one whole card
lying still and measuring its sharpness, :mod:`~drivers.camera.still_card`; this module holds
the prompts and the per-card state machine.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from dealer_assist.cards import RANK_NAMES, Card
from dealer_assist.errors import ConfigError, DeviceError
from drivers.camera.detect import DetectorSettings
from drivers.camera.frame_feed import FrameFeed
from drivers.camera.frames import FrameReader
from drivers.camera.geometry import Image, rectify
from drivers.camera.still_card import StillRun, face_detail, single_cards

SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
#: the default order: suit by suit, ace first, as a deck sorted by suit
CALIBRATION_ORDER: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in "shdc" for rank in (14, *range(2, 14))
)


def card_name(card: Card) -> str:
    """``ace of spades`` for ``As``."""
    return f"{RANK_NAMES[card.rank]} of {SUIT_NAMES[card.suit]}"


class NoticeKind(Enum):
    """What a :class:`Notice` asks of the operator or tells them."""

    CLEAR = "clear"  # cards are in view before the first prompt: take them away
    SHOW = "show"  # show the card
    ONE_AT_A_TIME = "one at a time"  # two or more cards in view
    NOT_SHARP = "not sharp"  # still, but blurred or no index found
    WRONG_CARD = "wrong card"  # the card shown reads as another card
    GOT = "got"  # captured: take it away


@dataclass(frozen=True)
class Notice:
    """One message for the operator.

    Attributes:
        kind: what it is about.
        card: the card asked for.
        position: 1-based place of ``card`` in the list being captured.
        total: cards in that list.
        text: the message, in English, ready to print.
    """

    kind: NoticeKind
    card: Card
    position: int
    total: int
    text: str


@dataclass(frozen=True)
class CaptureSettings:
    """Limits of :func:`capture_cards`.

    Attributes:
        faces: rectified faces taken per card, from consecutive still frames.
        settle: consecutive frames the card must lie still before the first face is taken.
        clear: consecutive frames without a card before the next card is asked for.
        max_shift: largest corner movement, as a fraction of the card's long side, for a card
            to count as lying still (measured against the first frame of the still run).
        min_detail: least resolvable detail of an index's suit mark (``glyphs.detail``) in a
            face. The shipped shape model reads no black index below 7.46 and no red one
            below 8.35; a house deck's faces teach the templates (whose own limit may be
            lower) and add prototypes.
        card_timeout: seconds allowed per card, from the end of the previous card (the felt
            must be cleared within it too).
        open_timeout: seconds to open the camera or file.
        frame_timeout: seconds without a frame before the camera counts as stopped.
    """

    faces: int = 5
    settle: int = 3
    clear: int = 5
    max_shift: float = 0.02
    min_detail: float = 7.5
    card_timeout: float = 120.0
    open_timeout: float = 10.0
    frame_timeout: float = 3.0

    def __post_init__(self) -> None:
        for name in ("faces", "settle", "clear"):
            if getattr(self, name) < 1:
                raise ConfigError(f"live calibration: {name} must be >= 1")
        for name in ("card_timeout", "open_timeout", "frame_timeout", "max_shift"):
            value = float(getattr(self, name))
            if not 0 < value < float("inf"):
                raise ConfigError(f"live calibration: {name} must be finite and > 0")


@dataclass
class CapturedCard:
    """The faces taken of one card.

    Attributes:
        card: the card asked for (the camera does not check which card was shown).
        faces: rectified BGR faces, each (CARD_H, CARD_W, 3) uint8.
        frames: for each face, the 0-based number of the frame it came from (frames counted
            from the opening of the reader).
    """

    card: Card
    faces: list[Image] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)


class LiveCalibrationError(DeviceError):
    """The capture stopped before every card was taken: a card's time ran out, the frames
    ended, or the camera stopped delivering them.

    Attributes:
        card: the card being waited for.
        captured: the cards taken before it, in order (their faces were passed to ``on_card``).
    """

    def __init__(self, message: str, card: Card, captured: Sequence[Card]) -> None:
        super().__init__(message)
        self.card = card
        self.captured = list(captured)


def capture_cards(
    frames: FrameReader,
    cards: Sequence[Card],
    notify: Callable[[Notice], None],
    settings: CaptureSettings | None = None,
    *,
    on_card: Callable[[CapturedCard], None] | None = None,
    identify: Callable[[Image], Card | None] | None = None,
    detector: DetectorSettings | None = None,
) -> list[CapturedCard]:
    """Capture ``cards`` one by one from ``frames``, telling the operator what to do.

    Args:
        frames: an unopened frame reader (:func:`drivers.camera.frames.frame_reader`); opened
            and closed here, read in a worker thread.
        cards: the cards to ask for, in order, no repeats.
        notify: called in the caller's thread with each message for the operator.
        settings: limits (defaults when None).
        on_card: called with each card as soon as it is captured (to save its faces before
            the next card, so a later failure keeps them).
        identify: reads a rectified face as a card, or None when unsure (a reader with an
            existing calibration); a card lying still that reads as another card than the one
            asked for is not captured (an operator who picked the wrong card). None = no check.
        detector: card detection limits (defaults when None).

    Returns:
        the captured cards in order, ``settings.faces`` faces each.

    Raises:
        ConfigError: no cards, or a card listed twice.
        DeviceError: the reader cannot be opened.
        LiveCalibrationError: a card's time ran out, the frames ended, or no frame came for
            ``frame_timeout`` seconds; names the card.
    """
    s = settings or CaptureSettings()
    if not cards:
        raise ConfigError("live calibration: no cards to capture")
    twice = sorted({str(c) for c in cards if list(cards).count(c) > 1})
    if twice:
        raise ConfigError(f"live calibration: card(s) listed twice: {' '.join(twice)}")
    feed = FrameFeed(frames, s.open_timeout, s.frame_timeout)
    feed.open()
    try:
        capture = _Capture(
            feed, frames.description, list(cards), notify, s, on_card, identify, detector
        )
        return capture.run()
    finally:
        feed.close()


@dataclass
class _Capture:
    """The per-card state machine of :func:`capture_cards` (arguments as there)."""

    feed: FrameFeed
    description: str
    cards: list[Card]
    notify: Callable[[Notice], None]
    s: CaptureSettings
    on_card: Callable[[CapturedCard], None] | None = None
    identify: Callable[[Image], Card | None] | None = None
    detector: DetectorSettings | None = None
    number: int = -1  # frames taken from the feed so far, minus one
    last_frame: float = field(default_factory=time.monotonic)
    done: list[CapturedCard] = field(default_factory=list)

    def run(self) -> list[CapturedCard]:
        for position, card in enumerate(self.cards, start=1):
            got = self._one(card, position)
            self.done.append(got)
            self._say(NoticeKind.GOT, card, f"got {card}, take it away")
            if self.on_card is not None:
                self.on_card(got)
        return self.done

    def _say(self, kind: NoticeKind, card: Card, text: str) -> None:
        position = self.cards.index(card) + 1
        prefix = f"[{position}/{len(self.cards)}] "
        self.notify(Notice(kind, card, position, len(self.cards), prefix + text))

    def _fail(self, card: Card, message: str) -> LiveCalibrationError:
        return LiveCalibrationError(message, card, [c.card for c in self.done])

    def _next_frame(self, card: Card, deadline: float, waiting_for: str) -> Image:
        """The next frame, or LiveCalibrationError (time out, end of frames, camera stopped)."""
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise self._fail(
                    card,
                    f"{card} ({card_name(card)}) not captured within "
                    f"{self.s.card_timeout:g} s: {waiting_for}",
                )
            stall_at = self.last_frame + self.s.frame_timeout
            try:
                kind, item = self.feed.get(min(deadline, stall_at) - now)
            except queue.Empty:
                if time.monotonic() >= stall_at:
                    raise self._fail(
                        card,
                        f"no frame from {self.description} for {self.s.frame_timeout:g} s "
                        f"while waiting for {card}",
                    ) from None
                continue
            if kind == "end":
                raise self._fail(card, f"{self.description} ended before {card} was captured")
            if kind == "error":
                if time.monotonic() >= stall_at:
                    raise self._fail(card, f"{item} (while waiting for {card})")
                continue
            self.number += 1
            self.last_frame = time.monotonic()
            return np.asarray(item, dtype=np.uint8)

    def _one(self, card: Card, position: int) -> CapturedCard:
        """Wait for the felt to be empty, ask for ``card``, capture it."""
        deadline = time.monotonic() + self.s.card_timeout
        self._wait_clear(card, position, deadline)
        self._say(
            NoticeKind.SHOW, card, f"show {card} ({card_name(card)}) face up under the camera"
        )
        return self._take(card, deadline)

    def _wait_clear(self, card: Card, position: int, deadline: float) -> None:
        """Until :attr:`CaptureSettings.clear` frames in a row show no card."""
        empty = 0
        asked = position > 1  # after the first card, "take it away" was said already
        waiting = "the felt was not cleared (a card or card-shaped object stays in view)"
        while empty < self.s.clear:
            quads = single_cards(self._next_frame(card, deadline, waiting), self.detector)
            empty = 0 if quads else empty + 1
            if quads and not asked:
                self._say(NoticeKind.CLEAR, card, "take every card off the felt")
                asked = True

    def _take(self, card: Card, deadline: float) -> CapturedCard:
        """Faces of the one card lying still and sharp in view (see the module doc)."""
        still = StillRun()
        warned_two = warned_blur = False
        waiting = "no single card lay still and sharp under the camera"
        while len(still.faces) < self.s.faces:
            frame = self._next_frame(card, deadline, waiting)
            quads = single_cards(frame, self.detector)
            if len(quads) != 1:
                still.reset()
                if len(quads) > 1 and not warned_two:
                    waiting = "more than one card in view"
                    self._say(
                        NoticeKind.ONE_AT_A_TIME,
                        card,
                        f"one card at a time: {len(quads)} cards in view, leave only {card}",
                    )
                warned_two = len(quads) > 1  # said again after an empty felt
                continue
            still.see(quads[0], self.s.max_shift)
            if still.count < self.s.settle or still.rejected:
                continue
            face = rectify(frame, quads[0])
            detail = face_detail(face)
            if detail is None or detail < self.s.min_detail:
                waiting = (
                    "the card in view showed no index"
                    if detail is None
                    else f"the card in view was not sharp (detail {detail:.1f})"
                )
                if not warned_blur:
                    why = (
                        "no index found in its corners: show the whole face, flat, in focus"
                        if detail is None
                        else f"not sharp enough (detail {detail:.1f}, needs "
                        f"{self.s.min_detail:g}): hold it still, check the focus, or bring it "
                        "closer"
                    )
                    self._say(NoticeKind.NOT_SHARP, card, f"{card}: {why}")
                    warned_blur = True
                continue
            if self.identify is not None and not still.checked:
                still.checked = True
                seen = self.identify(face)
                if seen is not None and seen != card:
                    still.rejected = True  # until the card is moved or taken away
                    waiting = f"the card shown read as {seen}"
                    self._say(
                        NoticeKind.WRONG_CARD,
                        card,
                        f"that is {seen} ({card_name(seen)}), not {card}: show {card}",
                    )
                    continue
            still.faces.append(face)
            still.frames.append(self.number)
        return CapturedCard(card, still.faces, still.frames)


__all__ = [
    "CALIBRATION_ORDER",
    "CaptureSettings",
    "CapturedCard",
    "LiveCalibrationError",
    "Notice",
    "NoticeKind",
    "capture_cards",
    "card_name",
]
