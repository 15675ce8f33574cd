"""Manual card entry: the dealer's keypad as a card source, the last resort of a table.

Manual entry: the console's card keypad (rank, suit, confirm) enters a card the reader
missed, or every card when no reader works; each one is a
:class:`~dealer_assist.events.CardRead` with ``manual=True`` and this source's name, so the
journal records it as manual (``hand.journal_extra()`` keeps each card's source).

The dealer shuffles by hand, so :meth:`ManualSource.shuffle` only starts a new deck (a
DeckShuffled of 52 follows at once) and :meth:`ManualSource.deal` only counts the cards expected.
The misdeal detector does not check manual cards against a reader sequence, so this source refuses
a card entered twice in one deck itself.
"""

from __future__ import annotations

import queue
import threading
import uuid
from dataclasses import replace

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError, DeviceError
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent, DeviceHello
from dealer_assist.source import LinkStats, SourceIdentity

MODEL = "manual"


class ManualSource:
    """Cards entered by the dealer, as a :class:`~dealer_assist.source.CardSource`.

    Args:
        name: the source name on events (the journal's card ``source``).
        deck_size: cards reported in DeckShuffled.

    Thread-safe: :meth:`enter` is called from the GUI thread while the table runner takes events
    with :meth:`next_event` on its worker thread. It cannot fail once open.
    """

    def __init__(self, *, name: str = "manual", deck_size: int = 52) -> None:
        self.name = name
        self._deck_size = deck_size
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._open = False
        self._stats = LinkStats()
        self._deck_id = ""
        self._index = 0
        self._entered: list[Card] = []
        self._expected = 0
        self._partial: int | None = None  # the next shuffle's count (a short street's deck)

    @property
    def identity(self) -> SourceIdentity | None:
        """Model ``manual``, serial the source name; None before open."""
        return SourceIdentity(MODEL, "1", self.name) if self._open else None

    @property
    def stats(self) -> LinkStats:
        """``frames_received`` counts the cards entered."""
        with self._lock:
            return replace(self._stats)

    @property
    def is_open(self) -> bool:
        """True between open() and close()."""
        return self._open

    @property
    def deck_id(self) -> str:
        """The current deck's id (``manual-`` and 8 hex digits)."""
        return self._deck_id

    @property
    def expected(self) -> int:
        """Cards announced by deal() and not yet entered."""
        with self._lock:
            return self._expected

    @property
    def entered(self) -> tuple[Card, ...]:
        """The cards entered since the deck started, in order."""
        with self._lock:
            return tuple(self._entered)

    def open(self) -> None:
        """Start a deck and report a DeviceHello; idempotent, never fails."""
        if self._open:
            return
        self.new_deck()
        self._open = True
        self._events.put(DeviceHello(source=self.name, model=MODEL, firmware="1", serial=self.name))

    def close(self) -> None:
        """Stop taking cards; safe to call twice."""
        self._open = False

    def new_deck(self) -> str:
        """Start a new deck without announcing it (used when another source shuffled and this
        one only helps with missed cards); returns its id."""
        with self._lock:
            self._deck_id = f"manual-{uuid.uuid4().hex[:8]}"
            self._index = 0
            self._entered = []
            self._expected = 0
            return self._deck_id

    def shuffle(self) -> None:
        """The dealer shuffled by hand: a new deck, reported at once as DeckShuffled.

        Raises:
            DeviceError: the source is not open.
        """
        self._require_open()
        deck_id = self.new_deck()
        count, self._partial = (self._partial or self._deck_size), None
        self._events.put(DeckShuffled(source=self.name, deck_id=deck_id, count=count))

    def expect_partial_deck(self, count: int) -> None:
        """The next shuffle is of ``count`` cards: a short street's deck of the burns and the
        stub (Stud's seventh street), as the dealer shuffles them by hand."""
        self._partial = count

    def deal(self, n: int) -> None:
        """Note that ``n`` (1..52) cards are to be entered.

        Raises:
            DeviceError: n out of range, or not open.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 52:
            raise DeviceError(f"deal count must be 1..52, got {n!r}")
        self._require_open()
        with self._lock:
            self._expected += n

    def enter(self, card: Card | str) -> CardRead:
        """The dealer confirmed ``card`` on the keypad: report it as the next card of the deck.

        Returns the CardRead event queued (``manual=True``, index 1, 2, 3 ... within the deck).

        Raises:
            CardError: not a card, or already entered in this deck (the card is not named).
            DeviceError: the source is not open.
        """
        parsed = parse_card(card) if isinstance(card, str) else card
        if not isinstance(parsed, Card):
            raise CardError(f"not a card: {card!r}")
        self._require_open()
        with self._lock:
            if parsed in self._entered:
                # not named: it may be a face-down card, and the message may reach a screen or log
                raise CardError("that card was already entered in this deck")
            self._entered.append(parsed)
            self._index += 1
            self._expected = max(0, self._expected - 1)
            self._stats.frames_received += 1
            event = CardRead(
                source=self.name, deck_id=self._deck_id, index=self._index, card=parsed, manual=True
            )
            self._events.put(event)  # under the lock: indexes reach the queue in order
        return event

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        try:
            if timeout <= 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def _require_open(self) -> None:
        if not self._open:
            raise DeviceError(f"{self.name} is not open")
