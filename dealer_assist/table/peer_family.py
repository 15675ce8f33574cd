"""The peer family at the table runner: a poker-room hand, players against each other.

- the hand is made by the game's plug-in from the table session (who is seated, stacks, the
  button: :meth:`PotGame.new_hand`), and the session after a journaled hand comes from the
  plug-in too (stacks from the settlement, the button moved; a void hand changes nothing);
- the operations nobody decides (forced bets, hands turned up at an all-in showdown, pots
  awarded, the settlement: :meth:`~dealer_assist.engine.peer_state.PeerHand.automatic`) are
  applied as soon as they fall due, live and in a replay alike; they are a function of the hand
  and the written steps, so they are not written themselves (one durable write per action, not
  one per pot: the latency from the last action to the journaled hand), and the hand is
  journaled the moment it is settled (``automatic``);
- each street is its own deal: the device is asked for the street's cards when the betting
  reaches it (a run-out deals the remaining streets one after the other); a street that needs
  a new deck (Stud's shortage) is never dealt from the old one;
- a large pot (the ``signoff`` tiers: :mod:`dealer_assist.table.pot_signoff`) is not awarded
  until it is signed off: the award stops there (:meth:`PeerFamily.held_pot`), the hand is
  journaled once every pot is awarded, the sign-offs as table records right after it.
"""

from __future__ import annotations

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
)
from dealer_assist.engine.peer_facts import PeerPhase
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.errors import JournalError
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import JournalPort
from dealer_assist.table.card_intake import CardIntake
from dealer_assist.table.dealing import DealState
from dealer_assist.table.pot_signoff import POT_SIGNOFF_KIND, PotSignoffLog
from dealer_assist.table.records import journal_table_record


class PeerFamily:
    """The pot games (Hold'em, Stud) at one table.

    Args:
        config: the table (``config.game``: the pot game).
        journal: the table's journal (sign-offs, the session), or None.
        signoff: the tiers above which a pot waits for a sign-off (none: nobody signs).
    """

    automatic = True

    def __init__(
        self, config: TableConfig, journal: JournalPort | None, signoff: tuple[SignoffTier, ...]
    ) -> None:
        self._config = config
        self._journal = journal
        self.signoff_tiers = signoff
        self.pot_signoffs = PotSignoffLog(journal, config.table_id)
        self._streets = 0  # streets dealt before the operation being applied
        self._renew = False  # that operation is the short street's new deck

    def make_state(
        self, config: TableConfig, hand_uid: str, session: TableSession | None
    ) -> PeerHand:
        """A new hand from the table session (HandStateError: no hand can start, e.g. fewer
        than two players with chips)."""
        session = session or TableSession.of_journal(config.table_id, self._journal)
        hand: PeerHand = get_pot_game(config.game).new_hand(config, session, hand_uid)
        return hand

    def session_after(
        self, config: TableConfig, session: TableSession, hand: PeerHand
    ) -> TableSession:
        """The session once ``hand`` is journaled: the plug-in moves stacks and the button."""
        after: TableSession = get_pot_game(config.game).session_after(config, session, hand)
        return after

    def opened(self) -> None:
        """Nothing: the forced bets fall due with the runner's next step."""

    def resuming(self) -> None:
        """The sign-offs kept before the restart are read first: the replay's awards ask."""
        self.pot_signoffs.restore()

    def before_apply(self, hand: PeerHand, op: Operation, cards: CardIntake) -> None:
        """The short street's new deck: the detector expects the burns and the stub."""
        self._streets = hand.dealt_streets
        self._renew = isinstance(op, DeckStarted) and hand.new_deck_needed
        if self._renew and hand.deal is not None:
            cards.detector.expect_new_deck(hand.deal.new_deck_count, hand.reshuffle_cards())

    def after_apply(self, hand: PeerHand, op: Operation, deal: DealState) -> None:
        """The new deck taken by the hand, what falls due applied (:meth:`fall_due`), the
        cards asked since the last action noted, a street's complete deal ends its watch."""
        if self._renew:
            hand.apply(op)
        self.fall_due(hand)
        if isinstance(op, DealRequested):
            deal.asked = True
        elif isinstance(op, Bet | ActionUndone):
            deal.asked = False
        if hand.dealt_streets > self._streets:
            deal.watch = None  # that street's deal is complete: the next one has its own

    def may_deal(self, hand: PeerHand) -> bool:
        """Not while a new deck is due: the dealer loads the burns first (reshuffle)."""
        return not hand.new_deck_needed

    def deals_after(self, op: Operation) -> bool:
        """A card, a confirmed unreadable card or a new deck may open the next deal."""
        return isinstance(op, CardDealt | IdentificationConfirmed | DeckStarted)

    # -- large pots -------------------------------------------------------------------------------
    def held_pot(self, hand: PeerHand | None) -> tuple[PotAwarded, str] | None:
        """The award ``hand`` stops at, with the role that must sign it off; None when no pot
        waits."""
        if hand is None or hand.phase is not PeerPhase.AWARDING:
            return None
        auto = hand.automatic()
        if not isinstance(auto, PotAwarded):
            return None
        role = signoff_role(self.signoff_tiers, auto.amount)
        if role is None or self.pot_signoffs.signed(hand.hand_uid, auto.pot) is not None:
            return None
        return auto, role

    def fall_due(self, hand: PeerHand) -> None:
        """Apply what falls due now (derived, never written), up to a large pot not signed
        off yet."""
        while not hand.is_over:
            auto = hand.automatic()
            if auto is None or (isinstance(auto, PotAwarded) and self.held_pot(hand) is not None):
                break
            if isinstance(auto, PotAwarded):
                self._signed_off(hand, auto)
            hand.apply(auto)

    def _signed_off(self, hand: PeerHand, award: PotAwarded) -> None:
        """The sign-off of the pot about to be awarded, as the hand's own operation (journaled
        with it), once: from the sign-off kept durably (live, or after a restart)."""
        so = self.pot_signoffs.signed(hand.hand_uid, award.pot)
        if so is not None and all(s.pot != award.pot for s in hand.signoffs):
            hand.apply(
                PotSignedOff(
                    pot=so.pot, amount=so.amount, role=so.role, by=so.by, via=so.via, at=so.at
                )
            )

    def keep_records(self, open_uid: str, session: TableSession | None) -> None:
        """The sign-offs of every hand the journal holds now (not ``open_uid``, the hand in
        play) as table records, then their steps go; a journal that refuses them leaves them
        for the next try (the next hand, a restart): idempotent by uid."""
        journal, config = self._journal, self._config
        if journal is None:
            return
        try:
            for uid in self.pot_signoffs.hands():
                if uid == open_uid:
                    continue
                session = session or TableSession.of_journal(config.table_id, journal)
                for so in self.pot_signoffs.of_hand(uid):
                    journal_table_record(
                        journal,
                        config.table_id,
                        POT_SIGNOFF_KIND,
                        so.to_json(),
                        session,
                        game=config.game,
                        uid=f"{config.table_id}-potsignoff-{uid}-{so.pot}",
                    )
                self.pot_signoffs.drop(uid)
        except JournalError:
            return  # kept in the step log: journaled at the next hand or restart
