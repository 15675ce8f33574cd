"""The dealer's steps on the poker hand that need more than the runner's one call:
:class:`HandSteps`, held by :class:`ui.poker.service.PokerService` as ``steps``, owns the new
hand that waits for the device and the hand whose short street's new deck was asked for.

Each step raises the core's refusal (:class:`~dealer_assist.errors.StateRefused` with one of
:data:`RULES`, said in the dealer's language by :mod:`ui.poker.texts`; DeviceError, ...) and
changes nothing when refused. Qt-free; the worker's thread owns the runner.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DeviceError, StateRefused
from dealer_assist.source import CardLoader
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.tournament.live_table import LiveTable
from ui.kit.device_watch import DeferredHand
from ui.kit.pitboss import PitBossRoster
from ui.kit.sources import confirm_card
from ui.kit.status import CommandError

RULES = ("void_unacknowledged", "hand_in_progress", "no_new_deck", "no_hand_to_void")
"""The codes of the service's own refusals (:class:`~dealer_assist.errors.StateRefused`; the
screen says each in the dealer's language, :mod:`ui.poker.texts`)."""


class HandSteps:
    """New hand, new deck, void, the unreadable card and the dealer change (see the module
    docstring).

    Args:
        config: the table.
        dealer: who identifies unreadable cards (recorded with them).
        clock: monotonic seconds (the deferred new hand's limit).

    ``reshuffled`` is the hand whose new deck was asked for ("" none).
    """

    def __init__(
        self, config: TableConfig, dealer: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self.dealer = dealer
        self.reshuffled = ""
        # no STATUS asked meanwhile: the device's own reports end the wait
        self.deferred = DeferredHand(clock, ask_every=None)

    def new_hand(self, runner: PeerRunner, tournament: LiveTable | None = None) -> None:
        """Start the next hand (at a tournament table, ``tournament``'s level in force now:
        refused while it is paused or at a break); while the device is still busy with the
        last one, at a tick (:meth:`tick`)."""
        runner.poll(0)
        if runner.void_alarm is not None:
            raise StateRefused("void_unacknowledged", "acknowledge the void first")
        hand = runner.hand
        if hand is not None and not hand.is_over:
            raise StateRefused("hand_in_progress", "a hand is in progress: finish it first")
        status = runner.device_status
        if not (runner.device_ready and status.ready):
            raise DeviceError(status.why_not_ready or "device not ready")
        if tournament is not None:
            tournament.before_hand(runner)
        if runner.waiting or runner.device_busy:  # still busy with the last hand: at a tick
            self.deferred.want(runner.shuffle_timeout)
            return
        self.deferred.wanted = False
        runner.new_hand()

    def tick(self, runner: PeerRunner) -> None:
        """The deferred new hand once the device is idle, or its time is up (the device's
        answer to SHUFFLE decides then)."""
        due = self.deferred.due(runner) if self.deferred.wanted else None
        if due is not None:
            self.deferred.wanted = False
            runner.new_hand(even_if_busy=due == "late")

    def reshuffle(self, runner: PeerRunner) -> None:
        """The burns and the stub are loaded: shuffle them, once per hand (a second tap while
        the device shuffles would ask for a second deck)."""
        hand = runner.hand
        if hand is None or hand.is_over or not hand.new_deck_needed:
            raise StateRefused("no_new_deck", "no new deck is due: the street deals from the deck")
        if self.reshuffled == hand.hand_uid:
            return  # already asked: the device is shuffling them
        if isinstance(runner.source, CardLoader):  # a simulated shoe: the burns go in as told
            runner.source.load_cards(hand.burns)
        runner.reshuffle()
        self.reshuffled = hand.hand_uid

    def void(self, runner: PeerRunner, reason: VoidReason) -> None:
        """Void the hand in progress (every chip returned)."""
        hand = runner.hand
        if hand is None or hand.is_over:
            raise StateRefused("no_hand_to_void", "no hand in progress to void")
        runner.void(reason)

    def identify(self, runner: PeerRunner, card: Card) -> None:
        """The dealer's reading of the unreadable card."""
        runner.identify_card(card, dealer=self.dealer)

    def confirm(
        self, runner: PeerRunner, roster: PitBossRoster | None, card: Card, badge: str, pin: str
    ) -> CommandError | None:
        """The pit boss's reading of the unreadable card, with badge and PIN
        (:func:`ui.kit.sources.confirm_card`)."""
        return confirm_card(runner, roster, card, badge, pin)

    def dealer_refusal(self, refused: CommandError | None) -> CommandError | None:
        """The Dealer control's refusal (:meth:`ui.kit.table_link.TableLink.change_dealer`) as
        the poker table says it: during a hand the rule's refusal, said in the dealer's
        language like the seat changes'."""
        if refused is not None and refused.code == "dealer_in_hand":
            raise StateRefused("hand_in_progress", "a hand is in progress: finish it first")
        return refused
