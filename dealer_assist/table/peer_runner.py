"""The peer games' runner: a poker-room hand at one table, players against each other.

Built on :class:`~dealer_assist.table.resume.ResumingRunner`: every step is written before it takes
effect and a restart folds the same operations again. What the peer family adds:

- the hand is made by the game's plug-in from the table session (who is seated, stacks, the
  button: :meth:`PotGame.new_hand`), and the session after a journaled hand comes from the
  plug-in too (stacks from the settlement, the button moved; a void hand changes nothing);
- the operations nobody decides (forced bets, hands turned up at an all-in showdown, pots
  awarded, the settlement: :meth:`~dealer_assist.engine.peer_state.PeerHand.automatic`) are
  applied as soon as they fall due, live and in a replay alike; they are a function of the hand
  and the written steps, so they are not written themselves (one durable write per action, not
  one per pot: the latency from the last action to the journaled hand), and the hand is
  journaled the moment it is settled;
- each street is its own deal: the device is asked for the street's cards when the betting
  reaches it (a run-out deals the remaining streets one after the other);
- the dealer's steps: a player's action (:meth:`PeerRunner.act`), a hand shown or mucked at the
  showdown (:meth:`PeerRunner.show`), the last action taken back before the next card
  (:meth:`PeerRunner.undo`);
- a large pot (the ``signoff`` tiers the console passes: :mod:`dealer_assist.table.pot_signoff`)
  is not awarded until it is signed off (:meth:`PeerRunner.sign_pot`): the award stops there
  (:attr:`PeerRunner.held_pot`), the hand is journaled once every pot is awarded, the
  sign-offs as table records right after it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dealer_assist.config import SignoffTier, TableConfig, signoff_role
from dealer_assist.engine.operations import (
    ActionUndone,
    Bet,
    CardDealt,
    DealRequested,
    DeckStarted,
    IdentificationConfirmed,
    Operation,
    PotAwarded,
    PotSignedOff,
    Showdown,
)
from dealer_assist.engine.peer_checks import PeerPhase
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError, JournalError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import StoredHand
from dealer_assist.source import PartialDeckSource
from dealer_assist.table.pot_signoff import POT_SIGNOFF_KIND, PotSignOff, PotSignoffLog, covers
from dealer_assist.table.records import journal_change, journal_table_record
from dealer_assist.table.resume import ResumingRunner


class PeerRunner(ResumingRunner[PeerHand]):
    """Runs the hands of a pot game (Hold'em) at one table (arguments as
    :class:`~dealer_assist.table.runner.TableRunner`; ``config.poker`` holds the game).

    ``signoff``: the tiers above which a pot waits for a sign-off (the console passes the
    table's ``[signoff]``; the default, none, is a table where nobody signs: a simulation)."""

    def __init__(
        self, *args: Any, signoff: tuple[SignoffTier, ...] = (), **kwargs: Any
    ) -> None:  # fmt: skip
        self.signoff_tiers = signoff
        super().__init__(*args, **kwargs)
        self.pot_signoffs = PotSignoffLog(self.journal, self.config.table_id)

    def make_state(self, config: TableConfig, hand_uid: str) -> PeerHand:
        """A new hand from the table session (HandStateError: no hand can start, e.g. fewer
        than two players with chips)."""
        session = self.session or TableSession.of_journal(config.table_id, self.journal)
        hand: PeerHand = get_pot_game(config.game).new_hand(config, session, hand_uid)
        return hand

    def session_after(self, session: TableSession, hand: Any) -> TableSession:
        """The session once ``hand`` is journaled: the plug-in moves stacks and the button."""
        after: TableSession = get_pot_game(self.config.game).session_after(
            self.config, session, hand
        )
        return after

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
    def new_hand(self, *, even_if_busy: bool = False) -> PeerHand:
        """Open a hand, post its forced bets and ask the device to shuffle (as
        :meth:`TableRunner.new_hand`); the hole cards are dealt after the deck's SHUFFLED.
        Sign-offs a journal fault kept out of the journal are journaled first."""
        self._journal_signoffs()
        hand = super().new_hand(even_if_busy=even_if_busy)
        self._run_automatic()
        return hand

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

        self._waits.add("reshuffled", lambda: hand.deck_renewed or hand.is_over,
                        self.shuffle_timeout, came)  # fmt: skip
        return hand

    def perform(self, op: Operation) -> PeerHand:
        """As :meth:`TableRunner.perform`, then the automatic operations it made due."""
        hand = super().perform(op)
        self._run_automatic()
        return hand

    def resume(self) -> PeerHand | None:
        """As :meth:`ResumingRunner.resume`; a replayed hand goes on with what was due (its
        pots signed off before the restart awarded, the next large one waiting again); the
        sign-offs of a hand journaled before the restart are journaled now."""
        self.pot_signoffs.restore()  # before the replay: its awards ask for them
        hand = super().resume()
        if hand is not None and not hand.is_over:
            self._run_automatic()
        self._journal_signoffs()
        return hand

    # -- large pots -------------------------------------------------------------------------------
    @property
    def held_pot(self) -> tuple[PotAwarded, str] | None:
        """The award the hand stops at, with the role that must sign it off; None when no pot
        waits."""
        hand = self.hand
        if hand is None or hand.phase is not PeerPhase.AWARDING:
            return None
        auto = hand.automatic()
        if not isinstance(auto, PotAwarded):
            return None
        role = signoff_role(self.signoff_tiers, auto.amount)
        if role is None or self.pot_signoffs.signed(hand.hand_uid, auto.pot) is not None:
            return None
        return auto, role

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
        held = self.held_pot
        hand = self.hand
        if held is None or hand is None:
            raise HandStateError("no pot waits for a sign-off")
        award, need = held
        if not covers(role, need):
            raise HandStateError(f"a {need} must sign this pot off, not a {role}")
        cards = {s: tuple(str(c) for c in hand.holes[s]) for s in sorted(award.shares)}
        so = PotSignOff(hand.hand_uid, award.pot, award.amount, tuple(sorted(award.shares.items())),
                        need, by, at or utc_now(), cards,
                        tuple(str(c) for c in hand.board), via)  # fmt: skip
        self.pot_signoffs.sign(so)
        self._fall_due(hand)
        self._run_automatic()
        return so

    def _journal(self, hand: PeerHand) -> StoredHand | None:
        stored = super()._journal(hand)
        if stored is not None:
            self._journal_signoffs()
        return stored

    def _journal_signoffs(self) -> None:
        """The sign-offs of every hand the journal holds now (not the hand in play) as table
        records, then their steps go; a journal that refuses them leaves them for the next try
        (the next hand, a restart): idempotent by uid."""
        journal = self.journal
        if journal is None:
            return
        open_uid = self.hand.hand_uid if self.hand is not None and not self.hand.is_over else ""
        try:
            for uid in self.pot_signoffs.hands():
                if uid == open_uid:
                    continue
                session = self.session or TableSession.of_journal(self.config.table_id, journal)
                for so in self.pot_signoffs.of_hand(uid):
                    journal_table_record(
                        journal, self.config.table_id, POT_SIGNOFF_KIND, so.to_json(), session,
                        game=self.config.game,
                        uid=f"{self.config.table_id}-potsignoff-{uid}-{so.pot}",
                    )  # fmt: skip
                self.pot_signoffs.drop(uid)
        except JournalError:
            return  # kept in the step log: journaled at the next hand or restart

    # -- inside -----------------------------------------------------------------------------------
    def _apply(self, op: Operation, events: list[dict[str, Any]]) -> None:
        hand = self.hand
        before = hand.dealt_streets if hand is not None else 0
        renew = isinstance(op, DeckStarted) and hand is not None and hand.new_deck_needed
        if renew and hand is not None and hand.deal is not None:  # the short street's deck
            self._cards.detector.expect_new_deck(hand.deal.new_deck_count, hand.reshuffle_cards())
        super()._apply(op, events)  # live and in a replay
        if renew and hand is not None:
            hand.apply(op)
        if hand is not None and hand is self.hand:
            self._fall_due(hand)
        if isinstance(op, DealRequested):
            self.deal.asked = True
        elif isinstance(op, Bet | ActionUndone):
            self.deal.asked = False
        if hand is not None and hand is self.hand and hand.dealt_streets > before:
            self.deal.watch = None  # that street's deal is complete: the next one has its own

    def _fall_due(self, hand: PeerHand) -> None:
        """Apply what falls due now (derived, never written), up to a large pot not signed
        off yet."""
        while not hand.is_over:
            auto = hand.automatic()
            if auto is None or (isinstance(auto, PotAwarded) and self.held_pot is not None):
                break
            if isinstance(auto, PotAwarded):
                self._signed_off(hand, auto)
            hand.apply(auto)

    def _signed_off(self, hand: PeerHand, award: PotAwarded) -> None:
        """The sign-off of the pot about to be awarded, as the hand's own operation (journaled
        with it), once: from the sign-off kept durably (live, or after a restart)."""
        so = self.pot_signoffs.signed(hand.hand_uid, award.pot)
        if so is not None and all(s.pot != award.pot for s in hand.signoffs):
            hand.apply(PotSignedOff(pot=so.pot, amount=so.amount, role=so.role, by=so.by,
                                    via=so.via, at=so.at))  # fmt: skip

    def _step(self, op: Operation) -> None:
        super()._step(op)
        if isinstance(op, CardDealt | IdentificationConfirmed | DeckStarted):
            self._run_automatic()

    def _deal_opened(self) -> None:
        hand = self.hand
        if hand is not None and hand.new_deck_needed:
            return  # the dealer loads the burns first (reshuffle)
        super()._deal_opened()

    def _deal(self, n: int) -> None:
        hand = self.hand
        if hand is not None and hand.new_deck_needed:
            return  # never from the old deck: its stub cannot give the street
        super()._deal(n)

    def _run_automatic(self) -> None:
        """Journal a settled hand; else deal what the hand needs next."""
        hand = self.hand
        if hand is None:
            return
        if hand.status == "settled":
            if self.stored is None:
                self._journal(hand)
            return
        if not hand.is_over:
            self._deal_opened()
