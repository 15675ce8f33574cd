"""The table's card source as a console's service holds it: what the banked and the poker
console's services share about the source, apart from running the hand.

:class:`TableSource` opens the source once (and keeps it for a retry), names the one in use
behind a failover chain (:mod:`drivers.failover`), numbers the switch notices, gives the
runner its timeouts for the source in use and takes the keypad's cards. Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.errors import DeviceError
from dealer_assist.events import SourceSwitched
from dealer_assist.source import CardSource
from dealer_assist.table.runner import TableRunner
from drivers.failover.chain import FailoverSource
from drivers.manual import ManualSource
from ui.kit.sources import MANUAL_SHUFFLE_TIMEOUT, SourceFactory, source_kind, switch_notice
from ui.kit.status import SourceNotice


def timeouts(kind: str, card: float, slow: float, shuffle: float) -> tuple[float, float]:
    """The runner's ``(card_timeout, shuffle_timeout)`` in seconds for a source of ``kind``:
    the keypad and a camera are ``slow`` to give each card; the keypad shuffles at once and
    reports no device state, so a "still dealing" left by a shuffler that died mid-deal must
    not hold its first hand for ``shuffle`` (:data:`~ui.kit.sources.MANUAL_SHUFFLE_TIMEOUT`)."""
    card_timeout = slow if kind in ("manual", "camera") else card
    return card_timeout, MANUAL_SHUFFLE_TIMEOUT if kind == "manual" else shuffle


@dataclass(frozen=True)
class Timeouts:
    """Seconds a table's runner waits, finite (a silent device voids the hand instead of
    hanging the console): ``card`` for each card from a device, ``shuffle`` for a deck,
    ``slow_card`` for each card while the keypad or a camera is the source (the dealer types
    or shows each card)."""

    card: float = 5.0
    shuffle: float = 15.0
    slow_card: float = 120.0


DEFAULT_TIMEOUTS = Timeouts()
"""The timeouts of a table that names none (5 s a card, 15 s a deck, 120 s a typed card)."""


class TableSource:
    """One table's card source.

    Args:
        make_source: builds the (unopened) source (:data:`~ui.kit.sources.SourceFactory`).
        timeouts: what the runner waits, by the source in use (:meth:`prepare`).

    ``source`` is the source built (None before :meth:`open`, after :meth:`close`); ``notice``
    the last switch of the failover chain (None: none yet).
    """

    def __init__(
        self,
        make_source: SourceFactory,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
    ) -> None:
        self.make_source = make_source
        self.timeouts = timeouts
        self.source: CardSource | None = None
        self.notice: SourceNotice | None = None

    def open(self) -> CardSource:
        """Build the source (once: a retry opens the same one) and open it.

        Raises:
            DealerAssistError: the source cannot be opened (kept for the next try).
        """
        source = self.source or self.make_source()
        self.source = source
        source.open()
        return source

    def close(self) -> None:
        """Close the source; safe to call twice."""
        if self.source is not None:
            self.source.close()
            self.source = None

    @property
    def active(self) -> CardSource | None:
        """The source reading cards now (the failover chain's active one)."""
        source = self.source
        return source.active if isinstance(source, FailoverSource) else source

    @property
    def kind(self) -> str:
        """:func:`~ui.kit.sources.source_kind` of the source in use."""
        return source_kind(self.active)

    def switched(self, event: SourceSwitched) -> SourceNotice:
        """The failover chain switched: the next notice (``manual`` when to the keypad)."""
        self.notice = switch_notice(self.notice, event, self.source)
        return self.notice

    def prepare(self, runner: TableRunner[Any] | None) -> None:
        """Give ``runner`` its card and shuffle timeouts for the source in use
        (:func:`timeouts`)."""
        if runner is not None:
            t = self.timeouts
            runner.card_timeout, runner.shuffle_timeout = timeouts(
                self.kind, t.card, t.slow_card, t.shuffle
            )

    def enter(self, card: Card) -> None:
        """A card typed on the keypad into the source in use (thread-safe).

        Raises:
            DeviceError: the keypad is not the source in use.
            CardError: that card was already entered in this deck.
        """
        active = self.active
        if not isinstance(active, ManualSource):
            raise DeviceError("cards are read by the device, not typed: manual entry is off")
        active.enter(card)
