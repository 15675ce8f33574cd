"""The table service's steps for the cards the device does not read itself (issues 4 and 5):
a mixin of :class:`ui.console.service.TableService`, kept apart so that module stays small.

- ``enter_card``: a card typed on the keypad (the manual source), the one call safe from
  another thread.
- ``identify`` / ``confirm``: an unreadable card entered by the dealer, then confirmed by a pit
  boss entering the card they see.
- ``record_exposed``: a card exposed by mistake, recorded with the hand (not a misdeal).
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.cards import Card
from dealer_assist.engine.banked import BankedHand
from dealer_assist.errors import DeviceError
from dealer_assist.source import CardSource
from dealer_assist.table.banked_runner import BankedRunner
from drivers.manual import ManualSource
from ui.console.snapshot import TableSnapshot
from ui.kit.pitboss import PitBossRoster
from ui.kit.sources import confirm_card
from ui.kit.status import CommandError


class CardSteps:
    """Card steps of :class:`~ui.console.service.TableService` (see the module docstring)."""

    dealer: str
    roster: PitBossRoster | None

    @property
    def active_source(self) -> CardSource | None:
        raise NotImplementedError  # TableService's

    def _hand(self) -> tuple[BankedRunner, BankedHand]:
        raise NotImplementedError  # TableService's

    def _run(self, seq: int, step: Callable[[], object]) -> TableSnapshot:
        raise NotImplementedError  # TableService's

    def enter_card(self, card: Card) -> None:
        """The dealer typed ``card`` on the keypad: the next card of the deal (thread-safe; the
        manual source queues it as an event, which the worker's next tick hands the runner).

        Raises:
            DeviceError: the keypad is not the card source in use.
            CardError: that card was already entered in this deck.
        """
        active = self.active_source
        if not isinstance(active, ManualSource):
            raise DeviceError("cards are read by the device, not typed: manual entry is off")
        active.enter(card)

    def identify(self, card: Card, seq: int = 0) -> TableSnapshot:
        """The dealer identifies the unreadable card (``misdeal.unreadable_card =
        "dealer_identifies"``); a pit boss confirms it next (:meth:`confirm`)."""

        def step() -> None:
            runner, _ = self._hand()
            runner.identify_card(card, dealer=self.dealer)

        return self._run(seq, step)

    def confirm(self, card: Card, badge: str, pin: str, seq: int = 0) -> TableSnapshot:
        """The pit boss (``badge``, ``pin`` checked against the roster when there is one) enters
        the card they see. The same card as the dealer's confirms it and the deal goes on (both
        names recorded with the card); another card rejects the dealer's, who enters it again
        (``error.code`` ``ident_mismatch``). A wrong badge or PIN changes nothing (``pit_boss``).
        Neither card is ever in a snapshot."""

        def step() -> CommandError | None:
            runner, _ = self._hand()
            return confirm_card(runner, self.roster, card, badge, pin)

        return self._run(seq, step)

    def record_exposed(self, position: str, card: Card | None, seq: int = 0) -> TableSnapshot:
        """A card exposed by mistake at ``position`` (``seat 3``, ``dealer``, ``board``), the
        card if the dealer entered it: recorded with the hand, not a misdeal; play goes on."""

        def step() -> None:
            runner, _ = self._hand()
            runner.record_exposed(card, position=position)

        return self._run(seq, step)
