"""Driving a pot game's table for a headless job: the dealer's steps that return when the device
has done its part, and one hand played by simulated players.

:class:`HeadlessPeerTable` is :class:`~dealer_assist.table.driving.HeadlessTable` for the
:class:`~dealer_assist.table.peer_runner.PeerRunner`: each step pumps the source's events and
the clock (:class:`~dealer_assist.table.driving.Driver`) until the runner waits for nothing from
the device (the street's cards are in, or the hand is void); :meth:`HeadlessPeerTable.new_deck`
is the dealer's part when a street needs a new deck (the hand's ``new_deck_needed``: the burns
put back into the shoe, the device's shuffle of them with the stub). :func:`play_hand` plays one
hand to its end with a :class:`SeatPlayer` per seat, reading what each may do from the hand's
:class:`~dealer_assist.engine.state.ActionSpace`, each seeing its own hole cards (nobody
else's), the board, the chips put in and its price to call. Game-neutral: what a seat may do and
what it sees come from the hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dealer_assist.cards import Card
from dealer_assist.engine.peer_facts import MUCK, SHOW
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.state import ActionSpace
from dealer_assist.errors import DeviceError, HandStateError
from dealer_assist.games.session import TableSession
from dealer_assist.source import CardLoader
from dealer_assist.table.driving import SAFETY, HeadlessBase
from dealer_assist.table.peer_runner import PeerRunner

DEVICE_READY_TIMEOUT = 30.0  # seconds: a jam or fault between hands clears by itself or by hand


class SeatPlayer(Protocol):
    """A simulated player: one legal action of ``space`` (``(kind, to)``, ``to`` the total for
    a bet or raise, None otherwise) from its own cards, the board, the pot and the price."""

    def choose(
        self,
        space: ActionSpace,
        *,
        hole: Sequence[Card],
        board: Sequence[Card],
        pot: int,
        to_call: int,
    ) -> tuple[str, int | None]:
        """See :meth:`dealer_assist.games.holdem_players.Player.choose`."""
        ...


class HeadlessPeerTable(HeadlessBase[PeerRunner]):
    """A pot game's table whose dealer steps return when the device has done its part.

    Args: as :class:`~dealer_assist.table.runner.TableRunner`; the runner is :attr:`runner`
    (between-hands changes, a buy-in or a sit-out, are the runner's own and wait for nothing).
    Errors are the runner's.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(PeerRunner(*args, **kwargs))

    @property
    def hand(self) -> PeerHand | None:
        """The hand in progress or just finished."""
        return self.runner.hand

    @property
    def session(self) -> TableSession | None:
        """The table between hands (seats, stacks, button), None before the first hand."""
        return self.runner.session

    def resume(self) -> PeerHand | None:
        """:meth:`PeerRunner.resume`, then the device catch-up (the cards it dealt meanwhile)."""
        hand = self.runner.resume()
        self.driver.settle_device()
        return hand

    def new_hand(self) -> PeerHand:
        """A new hand (forced bets posted), once the device finished a void hand's deal or
        shuffle (at most ``shuffle_timeout``), and its hole cards dealt. A device that is not
        ready is refused at once (DeviceError); HandStateError: no hand can start."""
        hand: PeerHand = self._open_hand()
        if self.runner.hand is hand and not hand.is_over:
            self.driver.settle_device()
        return hand

    def act(self, seat: int, kind: str, to: int | None = None) -> PeerHand:
        """A seat's action (:meth:`PeerRunner.act`), then the cards it made due."""
        hand = self.runner.act(seat, kind, to)
        self.driver.settle_device()
        return hand

    def show(self, seat: int, *, shown: bool = True) -> PeerHand:
        """A hand shown or mucked at the showdown (:meth:`PeerRunner.show`)."""
        hand = self.runner.show(seat, shown=shown)
        self.driver.settle_device()
        return hand

    def new_deck(self, hand: PeerHand) -> PeerHand:
        """The street of ``hand`` needs a new deck (``hand.new_deck_needed``): the dealer puts
        the burns back into the shoe (a source the host loads, the emulator:
        :class:`~dealer_assist.source.CardLoader`; a real device and the keypad find or count
        the cards themselves), the device shuffles them with the stub
        (:meth:`PeerRunner.reshuffle`), and the street is dealt from that deck; returns once
        the device has done its part (or the hand is void).

        Raises:
            HandStateError: no new deck is due. DeviceError: the device refused the shuffle or
                did not take the cards.
        """
        if not hand.new_deck_needed:
            raise HandStateError(f"hand {hand.hand_uid}: no new deck is due")
        source = self.runner.source
        if hand.burns and isinstance(source, CardLoader):
            source.load_cards(list(hand.burns))
        self.runner.reshuffle()
        self.driver.settle_device()
        return hand

    def wait_for_turn(self, hand: PeerHand, timeout: float = SAFETY) -> None:
        """Pump until a seat is to act, ``hand`` needs a new deck, or ``hand`` is over.

        Raises:
            HandStateError: nobody can act and the runner waits for nothing from the device
                (a person must move the table on, e.g. an unreadable card to identify).
        """
        runner = self.runner
        self.driver.until(
            lambda: (
                hand.is_over or hand.actor is not None or hand.new_deck_needed or not runner.waiting
            ),
            timeout,
        )
        if not hand.is_over and hand.actor is None and not hand.new_deck_needed:
            raise HandStateError(
                f"hand {hand.hand_uid}: nobody is to act and the device is not dealing"
            )


Step = Callable[[PeerHand, int, str, int | None], None]
"""Called after each action a simulated seat took: hand, seat, kind, ``to``."""


def play_hand(
    table: HeadlessPeerTable,
    players: Mapping[int, SeatPlayer],
    rng: random.Random,
    hand: PeerHand | None = None,
    *,
    muck_rate: float = 0.3,
    by: str = "simulate",
    after_action: Step | None = None,
) -> PeerHand:
    """Play ``hand`` (or a new one, a void alarm acknowledged first by ``by``) to its end:
    each seat to act chooses from its legal actions; a street that needs a new deck gets it
    (:meth:`HeadlessPeerTable.new_deck`); at the showdown a seat that may muck does so with
    probability ``muck_rate`` (``rng``).

    Args:
        players: seat -> the simulated player in it (every seat dealt in needs one).

    Returns:
        The hand, settled or void (journaled).
    Raises:
        DeviceError: the device is not ready for a new hand within DEVICE_READY_TIMEOUT, or
            it refused a new deck's shuffle.
        HandStateError: a seat dealt in has no player, or the hand stalls (see
            :meth:`HeadlessPeerTable.wait_for_turn`).
        IllegalActionError: a player chose an action its space did not allow (a bug).
    """
    if hand is None or hand.is_over:
        table.acknowledge_void(by)
        if not table.wait_device_ready(DEVICE_READY_TIMEOUT):
            raise DeviceError(f"device not ready after {DEVICE_READY_TIMEOUT:.0f} s")
        hand = table.new_hand()
    while not hand.is_over:
        table.wait_for_turn(hand)
        if hand.new_deck_needed:
            table.new_deck(hand)
            continue
        seat = hand.actor
        if seat is None:
            continue  # over now
        space = hand.legal(seat)
        if SHOW in space.kinds:
            shown = not (MUCK in space.kinds and rng.random() < muck_rate)
            table.show(seat, shown=shown)
            kind, to = (SHOW if shown else MUCK), None
        else:
            player = players.get(seat)
            if player is None:
                raise HandStateError(f"seat {seat} is dealt in but has no simulated player")
            kind, to = player.choose(space, **_seen_by(hand, seat))
            table.act(seat, kind, to)
        if after_action is not None:
            after_action(hand, seat, kind, to)
    return hand


def _seen_by(hand: PeerHand, seat: int) -> dict[str, Any]:
    """What ``seat`` knows when it acts: its own hole cards, the board, every chip put in so
    far (the pots and the bets in front of the seats) and the chips it must add to call."""
    rnd = hand.betting.round if hand.betting is not None else None
    to_call = rnd.high - rnd.committed.get(seat, 0) if rnd is not None else 0
    return {
        "hole": list(hand.holes.get(seat, ())),
        "board": list(hand.board),
        "pot": sum(hand.put_in().values()),
        "to_call": max(0, to_call),
    }
