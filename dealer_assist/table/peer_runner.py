"""The peer games' runner: the dealer's steps of a poker-room hand at one table.

The table runner with the peer family (:class:`~dealer_assist.table.peer_family.PeerFamily`:
how the hand is made, what falls due without anyone deciding it, the large pots' sign-offs)
and its resumer. Every step is written before it takes effect and a restart folds the same
operations again. The dealer's steps here: the table between hands (seats, chips, the
button: each change a chained journal record), a player's action (:meth:`PeerRunner.act`), a
hand shown or mucked at the showdown (:meth:`PeerRunner.show`), the last action taken back
before the next card (:meth:`PeerRunner.undo`), the burns and the stub as a new deck
(:meth:`PeerRunner.reshuffle`), a large pot signed off (:meth:`PeerRunner.sign_pot`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dealer_assist.config import SignoffTier, TableConfig
from dealer_assist.engine.operations import (
    ActionUndone,
    Bet,
    PotAwarded,
    Showdown,
)
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import JournalPort
from dealer_assist.source import CardSource, PartialDeckSource
from dealer_assist.table.peer_family import PeerFamily
from dealer_assist.table.pot_signoff import PotSignOff, PotSignoffLog, covers
from dealer_assist.table.records import journal_change
from dealer_assist.table.resume import Resume
from dealer_assist.table.runner import TableRunner


class PeerRunner(TableRunner[PeerHand]):
    """Runs the hands of a pot game (Hold'em, Stud) at one table (arguments as
    :class:`~dealer_assist.table.runner.TableRunner`, without ``family`` and ``resume``;
    ``config.poker`` holds the game).

    ``signoff``: the tiers above which a pot waits for a sign-off (the console passes the
    table's ``[signoff]``; the default, none, is a table where nobody signs: a simulation)."""

    def __init__(
        self,
        config: TableConfig,
        source: CardSource,
        journal: JournalPort | None,
        *,
        signoff: tuple[SignoffTier, ...] = (),
        **kwargs: Any,
    ) -> None:
        self._peer = PeerFamily(config, journal, signoff)
        super().__init__(config, source, journal, family=self._peer, resume=Resume, **kwargs)

    @property
    def signoff_tiers(self) -> tuple[SignoffTier, ...]:
        """The tiers above which a pot waits for a sign-off."""
        return self._peer.signoff_tiers

    @property
    def pot_signoffs(self) -> PotSignoffLog:
        """The large pots' sign-offs kept durably (:mod:`dealer_assist.table.pot_signoff`)."""
        return self._peer.pot_signoffs

    # -- the table between hands: every change a chained journal record ---------------------------
    def seat_player(self, seat: int, name: str, buy_in: int, *, by: str = "dealer") -> TableSession:
        """A player sits down at ``seat`` with ``buy_in`` chips (the table's buy-in bounds).
        Raises TableError naming the rule, HandStateError during a hand, JournalError."""
        return self._change("seat_player", seat, name, buy_in, by=by)

    def top_up(self, seat: int, amount: int, *, by: str = "dealer") -> TableSession:
        """More chips for ``seat`` between hands (cash; up to the maximum buy-in)."""
        return self._change("top_up", seat, amount, by=by)

    def sit_out(self, seat: int, *, by: str = "dealer") -> TableSession:
        """``seat`` sits out from the next hand."""
        return self._change("sit_out", seat, by=by)

    def sit_in(self, seat: int, *, by: str = "dealer") -> TableSession:
        """``seat`` is back from the next hand (the missed-blind rule of the table)."""
        return self._change("sit_in", seat, by=by)

    def leave(self, seat: int, *, by: str = "dealer") -> TableSession:
        """``seat`` cashes out: the stack leaves with the player."""
        return self._change("leave", seat, by=by)

    def set_button(self, seat: int, *, by: str = "dealer") -> TableSession:
        """The dealer places the button in front of ``seat`` (before the first hand)."""
        return self._change("set_button", seat, by=by)

    def draw_button(self, seed: int, *, by: str = "dealer") -> TableSession:
        """The first button drawn among the players, seeded and recorded."""
        return self._change("draw_button", seed, by=by)

    def _change(self, name: str, *args: Any, by: str) -> TableSession:
        """Apply a table operation between hands: the new session is journaled (a chained
        table record carrying it) before the table takes it, so a crash loses nothing.

        A finished hand a storage fault kept out of the journal is journaled first
        (:meth:`journal_unsaved`): the chain keeps the hand before the change, and the change
        starts from the session after that hand (its stacks, its button).

        Raises:
            HandStateError: a hand is in progress.
            TableError: the change breaks a table rule (the plug-in's table ops).
            JournalError: the unsaved hand or the table record cannot be written (nothing
                changes; the hand stays pending).
        """
        in_hand = self.hand is not None and not self.hand.is_over
        if in_hand:
            raise HandStateError(f"{name.replace('_', ' ')}: only between hands")
        self.journal_unsaved()
        session = self.session or TableSession.of_journal(self.config.table_id, self.journal)
        ops = get_pot_game(self.config.game).table_ops(self.config)
        new: TableSession = getattr(ops, name)(session, *args, at=utc_now(), by=by)
        if self.journal is not None:
            journal_change(self.journal, new, game=self.config.game)
        self.session = new
        return new

    # -- the dealer's steps -----------------------------------------------------------------------
    def act(self, seat: int, kind: str, to: int | None = None) -> PeerHand:
        """``seat`` folds, checks, calls, bets or raises (``to`` = its total in the round).

        Raises:
            IllegalActionError: naming the rule (out of turn, below the minimum raise ...); the
                hand is unchanged and nothing is written.
            HandStateError: no hand, or no betting now.
        """
        self.poll(0)
        return self.perform(Bet(seat=seat, bet=kind, to=to))  # type: ignore[arg-type]

    def show(self, seat: int, *, shown: bool = True) -> PeerHand:
        """At the showdown ``seat`` shows its hand (or mucks it, ``shown=False``).

        Raises:
            IllegalActionError: out of turn, or a muck that would leave a pot without a hand.
        """
        self.poll(0)
        return self.perform(Showdown(seat=seat, shown=shown))

    @property
    def can_undo(self) -> bool:
        """The last action can be taken back now (before the next cards are asked for)."""
        hand = self.hand
        if hand is None or hand.is_over or not hand.bets or self.deal.asked:
            return False
        return hand.can(ActionUndone(seat=hand.bets[-1][0].seat, at=utc_now()))

    def undo(self, *, by: str = "dealer") -> PeerHand:
        """Take back the last action (a mis-tap) before the next card, while the device has
        not been asked for the next street's cards.

        Raises:
            HandStateError: no action to undo, or a card was dealt or asked for since.
        """
        hand = self._current()
        if not hand.bets:
            raise HandStateError("there is no action to undo")
        if self.deal.asked:
            raise HandStateError("the next cards were already asked for: the action stands")
        return self.perform(ActionUndone(seat=hand.bets[-1][0].seat, by=by, at=utc_now()))

    def reshuffle(self) -> PeerHand:
        """The deck ran short (Stud's seventh street; the view's ``shortage`` says what to do):
        the dealer has loaded the burns with the stub, the device shuffles them as a new deck
        (SHUFFLED with their count), then deals the street from it; a card from that deck that
        is not one of the burns or the stub voids the hand (``reshuffle_card``).

        Raises:
            HandStateError: no new deck is due. DeviceError: the device refused the SHUFFLE.
        """
        hand = self._current()
        if not hand.new_deck_needed or hand.deal is None:
            raise HandStateError("no new deck is due: the street deals from the deck")
        count = hand.deal.new_deck_count
        self._cards.detector.expect_new_deck(count, hand.reshuffle_cards())
        self.deal.shuffled = False
        if isinstance(self.source, PartialDeckSource):
            self.source.expect_partial_deck(count)  # the keypad: no device counts them
        self.source.shuffle()

        def came(ok: bool) -> None:
            if hand is self.hand and not hand.is_over and not ok:
                self._void(VoidReason("device_fault", "no SHUFFLED for the burns and the stub"))

        self._waits.add(
            "reshuffled", lambda: hand.deck_renewed or hand.is_over, self.shuffle_timeout, came
        )
        return hand

    # -- large pots -------------------------------------------------------------------------------
    @property
    def held_pot(self) -> tuple[PotAwarded, str] | None:
        """The award the hand stops at, with the role that must sign it off; None when no pot
        waits."""
        return self._peer.held_pot(self.hand)

    def sign_pot(
        self, by: str, role: str, *, at: datetime | None = None, via: str = "console"
    ) -> PotSignOff:
        """The pot the hand waits on is signed off by badge ``by`` whose role (checked by the
        caller: PIN, users store) is ``role``: kept durably first, then that pot and the next
        are awarded (up to the next large one) and a settled hand journaled. ``via``
        ``console`` (badge and PIN at the table) or ``pitboss`` (the pit-boss application).

        Raises:
            HandStateError: no pot waits for a sign-off, or ``role`` is below the tier's.
            JournalError: the sign-off cannot be kept (nothing changes).
        """
        hand = self.hand
        held = self._peer.held_pot(hand)
        if held is None or hand is None:
            raise HandStateError("no pot waits for a sign-off")
        award, need = held
        if not covers(role, need):
            raise HandStateError(f"a {need} must sign this pot off, not a {role}")
        cards = {s: tuple(str(c) for c in hand.holes[s]) for s in sorted(award.shares)}
        so = PotSignOff(
            hand.hand_uid,
            award.pot,
            award.amount,
            tuple(sorted(award.shares.items())),
            need,
            by,
            at or utc_now(),
            cards,
            tuple(str(c) for c in hand.board),
            via,
        )
        self.pot_signoffs.sign(so)
        self._peer.fall_due(hand)
        self.run_due()
        return so
