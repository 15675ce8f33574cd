"""What the console may know about the table at one moment: an immutable, privacy-filtered copy.

Built on the worker thread from the live hand's dealer view
(:class:`~dealer_assist.engine.views.BankedView`, where the privacy rules and the dealer's next
step live) and handed to
the GUI thread by a signal. It never carries a hole card, a face-down board card, the dealer's
cards before the reveal, or the dealer's hand/qualification before settlement (GAMES.md, UTH
"Privacy"): widgets cannot leak what they never receive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dealer_assist.cards import Card
from dealer_assist.engine.rules import Action, Settlement
from dealer_assist.engine.state import Position
from dealer_assist.engine.views import BankedView, Phase
from dealer_assist.engine.voids import VoidReason
from ui.console.history import HistoryHand
from ui.kit.status import CommandError, DeviceStatus, SourceNotice, StorageBanner


@dataclass(frozen=True)
class SeatSnap:
    """A seat in the hand: stakes per box now (minor units), decisions, legal decisions now,
    how many hole cards were dealt (shown face down), and ``hole``: the cards as the reader read
    them, only once the dealer's cards are revealed (the dealer compares them with the felt;
    empty before, and for a folded seat)."""

    seat: int
    stakes: Mapping[str, int]
    actions: tuple[Action, ...]
    legal: tuple[Action, ...]
    folded: bool
    cards_dealt: int
    hole: tuple[Card, ...] = ()


@dataclass(frozen=True)
class TableSnapshot:
    """The table after a step (see module doc for what is deliberately missing).

    Attributes:
        seq: the last command the service finished (0 before any); ticks repeat it.
        phase: the hand's phase, None before the first hand.
        street: the street being decided or dealt, None outside the streets.
        hand_uid: the hand's unique id ("" before the first hand).
        hand_no: journal number of this hand (stored hands + 1 while in play), 0 without journal.
        seats: seats with bets, ascending.
        board: board cards dealt so far in board order; None for a card still face down.
        dealer: the dealer's cards dealt so far; None for each until the reveal.
        next_step: what the dealer's single button does now: ``flop``, ``turn``, ``river``
            (turns board cards), ``dealer`` (turns the dealer's cards and settles), or None.
        next_cards: how many board cards that step turns (UTH river: 2).
        coming_step: the step after this street's decisions (the button shown disabled while
            seats still decide; the view's ``coming_step``).
        to_act: seats that still have a decision on this street, ascending.
        settlement: the settled hand (dealer's hand and qualification included), only when
            ``phase`` is SETTLED.
        void_reason: the void alarm the dealer has not acknowledged yet (the runner blocks the
            next hand until then), or None.
        void_uid: the voided hand's uid.
        void_returns: every wager of that hand returned, ``(seat, ((box, stake), ...))`` from
            seat N down (empty when the hand is no longer in memory: restored after a restart).
        identifying: the deal waits for the dealer to identify an unreadable card.
        device: the card source's status.
        error: the last command's refusal, None when it succeeded.
        awaiting: positions the current deal still waits for, in dealing order (the place a
            card goes, never the card).
        placed: cards placed in the hand so far.
        manual_entry: the deal waits for the dealer to type the cards (the keypad source is in
            use).
        ident_position: where the unreadable card goes (while ``identifying``).
        ident_entered: the dealer has entered the unreadable card; a pit boss must confirm it.
            The card itself is not in the snapshot.
        pin_required: the pit boss confirms with badge and PIN (a roster exists), else badge.
        exposed: cards recorded as exposed by mistake in this hand.
        notice: the last card-source switch, None before any.
        storage: the journal's storage fault or notice (a banner), None when all is well.
        walk: the payouts of this hand are marked in the journal (they survive a restart).
        paid: seats the dealer has paid, in the order paid (kept across a restart).
        signoff_waiting: seats whose large payout waits for a pit boss's badge and PIN
            (``[signoff]`` tiers; :mod:`ui.console.signoff`): not paid until signed off.
        signed: seats whose large payout was signed off (kept across a restart).
        resumed: this hand was picked up again after a restart (its steps or its payouts).
        history: the last hands (newest first) while the dealer has the history open, else None.
        history_holes: a pit boss opened it: the seats' hole cards are in ``history``.
        on_box: the badge of the dealer on the box ("" before the first dealer change;
            :mod:`ui.kit.dealer_change`).
        last_bets: the bets of this table's last journaled hand, ``(seat, ((box, stake), ...))``
            (what *Repeat last bets* puts back after a restart).
        undoable: seats whose decision on this street can still be taken back.
        correctable: seats whose last decision (on a street already past) a pit boss may still
            correct, with the decisions that may replace it.
    """

    seq: int = 0
    phase: Phase | None = None
    street: str | None = None
    hand_uid: str = ""
    hand_no: int = 0
    seats: tuple[SeatSnap, ...] = ()
    board: tuple[Card | None, ...] = ()
    dealer: tuple[Card | None, ...] = ()
    next_step: str | None = None
    next_cards: int = 0
    coming_step: str = "dealer"
    to_act: tuple[int, ...] = ()
    settlement: Settlement | None = None
    void_reason: VoidReason | None = None
    void_uid: str = ""
    void_returns: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()
    identifying: bool = False
    device: DeviceStatus = field(default_factory=DeviceStatus)
    error: CommandError | None = None
    awaiting: tuple[Position, ...] = ()
    placed: int = 0
    manual_entry: bool = False
    ident_position: Position | None = None
    ident_entered: bool = False
    pin_required: bool = False
    exposed: int = 0
    notice: SourceNotice | None = None
    storage: StorageBanner | None = None
    walk: bool = False
    paid: tuple[int, ...] = ()
    signoff_waiting: tuple[int, ...] = ()
    signed: tuple[int, ...] = ()
    resumed: bool = False
    history: tuple[HistoryHand, ...] | None = None
    history_holes: bool = False
    on_box: str = ""
    last_bets: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()
    undoable: tuple[int, ...] = ()
    correctable: tuple[tuple[int, tuple[Action, ...]], ...] = ()


@dataclass(frozen=True)
class Extras:
    """What the service adds to a snapshot beyond the hand (see :class:`TableSnapshot`)."""

    identifying: bool = False
    ident_entered: bool = False
    manual_source: bool = False
    pin_required: bool = False
    notice: SourceNotice | None = None
    storage: StorageBanner | None = None
    walk: bool = False
    paid: tuple[int, ...] = ()
    signoff_waiting: tuple[int, ...] = ()
    signed: tuple[int, ...] = ()
    resumed: bool = False
    history: tuple[HistoryHand, ...] | None = None
    history_holes: bool = False
    on_box: str = ""
    last_bets: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()


def take_snapshot(
    seen: BankedView | None,
    *,
    seq: int,
    hand_no: int,
    device: DeviceStatus,
    error: CommandError | None = None,
    alarm: VoidReason | None = None,
    alarm_uid: str = "",
    extras: Extras | None = None,
) -> TableSnapshot:
    """The snapshot of the hand's dealer view ``seen`` (None before the first hand) with the
    pending void ``alarm`` of hand ``alarm_uid`` and the service's ``extras``; everything of the
    hand, its next step and its rules' answers come from the view. Immutable, safe to pass to
    any thread."""
    x = extras or Extras()
    if seen is None:
        return TableSnapshot(
            seq=seq,
            device=device,
            error=error,
            void_reason=alarm,
            void_uid=alarm_uid,
            pin_required=x.pin_required,
            notice=x.notice,
            storage=x.storage,
            history=x.history,
            history_holes=x.history_holes,
            on_box=x.on_box,
            last_bets=x.last_bets,
        )
    seats = tuple(
        SeatSnap(
            seat=v.seat,
            stakes=v.stakes,
            actions=seen.decisions.get(v.seat, ()),
            legal=seen.choices.get(v.seat, ()),
            folded=v.folded,
            cards_dealt=len(v.hole),
            hole=tuple(c for c in v.hole if c is not None),  # the view opens them at the reveal
        )
        for v in seen.seats
    )
    phase = seen.banked_phase
    dealing = phase is Phase.DEALING
    alarmed = alarm is not None and seen.hand_uid == alarm_uid
    return TableSnapshot(
        seq=seq,
        phase=phase,
        street=seen.street,
        hand_uid=seen.hand_uid,
        hand_no=hand_no,
        seats=seats,
        board=seen.board,
        dealer=seen.dealer,
        next_step=seen.next_step,
        next_cards=seen.next_cards,
        coming_step=seen.coming_step,
        to_act=seen.to_act,
        settlement=seen.settlement,
        void_reason=alarm,
        void_uid=alarm_uid,
        void_returns=seen.returns if alarmed else (),
        identifying=x.identifying and dealing,
        device=device,
        error=error,
        awaiting=tuple(seen.pending) if dealing else (),
        placed=seen.placed,
        manual_entry=dealing and x.manual_source and not x.identifying,
        ident_position=seen.pending[0] if x.identifying and dealing and seen.pending else None,
        ident_entered=x.ident_entered and x.identifying and dealing,
        pin_required=x.pin_required,
        exposed=seen.exposed,
        notice=x.notice,
        storage=x.storage,
        walk=x.walk,
        paid=x.paid,
        signoff_waiting=x.signoff_waiting,
        signed=x.signed,
        resumed=x.resumed,
        history=x.history,
        history_holes=x.history_holes,
        on_box=x.on_box,
        last_bets=x.last_bets,
        undoable=seen.undoable,
        correctable=seen.correctable,
    )
