"""What the poker-room console may know about the table at one moment: an immutable copy built
from the hand's dealer view (:class:`~dealer_assist.engine.views.PeerView` with
``"dealer"``, where the privacy rules live) and the table session.

It never carries a hole card before its player shows it at the showdown (GAMES.md privacy): a
seat's ``shown`` cards come only from the view's visible hole cards, so widgets cannot leak what
they never receive. Amounts are integers in minor units.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, parse_card
from dealer_assist.engine.state import Position
from dealer_assist.engine.views import PeerView
from dealer_assist.engine.voids import VoidReason
from dealer_assist.games.session import TableSession
from ui.kit.status import CommandError, DeviceStatus, SourceNotice, StorageBanner

if TYPE_CHECKING:
    from ui.poker.signoff import PotWait

BET_KINDS = frozenset({"bet", "raise", "complete"})
"""The action kinds that take an amount (the seat's total this round): ``complete`` is the first
full bet over a forced bet below it (Stud's bring-in)."""
FORCED_KIND = "bring_in"
"""The action kind of a forced bet its seat decides (post it or fold: Stud's bring-in)."""


@dataclass(frozen=True)
class RuleRefusal(CommandError):
    """A refusal of the game's rules with its code (:class:`~dealer_assist.errors.Refusal`):
    ``rule`` and the message's values by name, ``named`` (the screen says it in the dealer's
    language; ``message`` stays the core's English)."""

    rule: str = ""
    named: tuple[tuple[str, int | str], ...] = ()


@dataclass(frozen=True)
class SeatSnap:
    """A seat at the table.

    Attributes:
        seat, name: where and who ("" when unknown).
        stack: chips behind now (during a hand: the view's ``stack``).
        bet: chips in front of the seat this betting round.
        put_in: chips put in this hand (forced bets included).
        in_hand: dealt in this hand. folded: has folded. all_in: in the hand with nothing behind.
        cards: hole cards dealt.
        hole: those cards in deal order as the dealer's view has them: a face-up card (Stud's
            door and up cards) as it was read, None for each face-down one (never its value).
        shown: the cards once every one is face up (shown at the showdown; empty before and
            when mucked).
        mucked: mucked at the showdown.
        sitting_out: sits out (between hands: not dealt in).
        posts: the forced bets it posted this hand, by kind (``small_blind``...).
        last: the label of its last action on the street being bet (``call``, ``raise 600``),
            "" for none.
    """

    seat: int
    name: str = ""
    stack: int = 0
    bet: int = 0
    put_in: int = 0
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    cards: int = 0
    hole: tuple[Card | None, ...] = ()
    shown: tuple[Card, ...] = ()
    mucked: bool = False
    sitting_out: bool = False
    posts: tuple[str, ...] = ()
    last: str = ""

    @property
    def up(self) -> tuple[Card, ...]:
        """The face-up cards the dealer may see now, in deal order."""
        return tuple(c for c in self.hole if c is not None)


@dataclass(frozen=True)
class PotSnap:
    """A pot in the middle: ``index`` 0 is the main pot, 1.. the side pots (in the order they
    were created), its ``amount`` and the seats ``eligible`` for it."""

    index: int
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class Winner:
    """A share of a pot: ``seat`` gets ``amount``; ``odd_chip`` when an odd chip went to it."""

    seat: int
    amount: int
    odd_chip: bool = False


@dataclass(frozen=True)
class Award:
    """One pot awarded (the settlement's ``pots`` entry): ``index`` 0 main, 1.. side pots; its
    amount, eligible seats, winners (odd-chip order) and the winning category (None: everybody
    else folded); ``best``: the first winner's best five cards in the evaluator's order of
    importance (combination first, then kickers; empty when uncontested), face up by then."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[Winner, ...]
    category: str | None = None
    best: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Legal:
    """What the seat to act may do (the view's ActionSpace, plus what the screen shows).

    Attributes:
        seat: the seat to act.
        kinds: legal kinds (``fold``, ``check``, ``call``, ``bet``, ``raise``; at the showdown
            ``show`` and maybe ``muck``).
        to_call: chips it needs to call (capped at its stack), 0 when it may check.
        minimum, maximum, step: the totals a bet or raise may go to, None when no bet or raise
            is open (fixed limit: often one total, minimum = maximum).
        all_in: the maximum is all of the seat's chips (no limit, or a short stack).
        fixed_limit: the one total is the fixed-limit rule's (not a short stack's all-in).
        pot, half_pot: the totals of a pot and a half-pot bet or raise (the engine's, inside
            the range), None where there is no choice.
        closed: the kinds not open now with the rule's code why (``(("raise",
            "short_all_in"),)``), from the engine.
    """

    seat: int
    kinds: tuple[str, ...] = ()
    to_call: int = 0
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    all_in: bool = True
    fixed_limit: bool = False
    pot: int | None = None
    half_pot: int | None = None
    closed: tuple[tuple[str, str], ...] = ()

    @property
    def bet_kind(self) -> str | None:
        """``bet``, ``raise`` or ``complete`` when one is open, else None."""
        return next((k for k in self.kinds if k in BET_KINDS), None)

    def allows(self, to: int) -> bool:
        """``to`` is a legal bet/raise total (the maximum always is: all-in)."""
        lo, hi = self.minimum, self.maximum
        if lo is None or hi is None:
            return False
        return to == hi or (lo <= to <= hi and (to - lo) % self.step == 0)

    @property
    def only(self) -> int | None:
        """The one total a bet or raise may go to (fixed limit, or a short stack's all-in),
        None when there is a choice."""
        lo, hi = self.minimum, self.maximum
        return lo if lo is not None and lo == hi else None

    @property
    def shut(self) -> tuple[str, str] | None:
        """The bet, raise or complete not open now and the rule's code why, None when one is
        open or none was due."""
        return next(((k, why) for k, why in self.closed if k in BET_KINDS), None)


@dataclass(frozen=True)
class PokerSnapshot:
    """The table after a step.

    Attributes:
        seq: the last command the service finished (ticks repeat it).
        table_seats: seats at the table (1..table_seats).
        hand_uid, hand_no: the hand ("" / 0 before the first); ``hand_no`` counts journaled
            hands (+1 while one is in play).
        phase: the hand's phase (``posting``, ``in_play``, ``showdown``, ``awarding``,
            ``settled``, ``void``), "" before the first hand.
        in_hand: a hand is in progress (no between-hands changes now).
        street: the street being bet or dealt, None outside.
        button: the button's seat (of the hand, else of the session), None when not placed or
            the game has none.
        actor: the seat to act (bet, or show/muck at the showdown), None when nobody.
        seats: every seated player and every seat dealt in, ascending.
        board: board cards turned, in order.
        pending: positions the device still has to deal (places, never cards).
        pots: the chips in the middle (main first), this round's bets excluded.
        legal: what the actor may do, None when nobody is to act.
        showdown: the showdown order.
        opening: why the first seat of the street acts first, the core's words ("lowest door
            card: 2c", "highest board: pair of kings"), "" where the seats' order decides it;
            opener: that seat (the first to act on the street), None before it is known.
        forced: the forced bet its seat decides (Stud's bring-in), on the street it is decided:
            ``(seat, choice)`` in order, choice ``fold`` (it passed on), ``bring_in`` (posted)
            or "" (deciding now).
        new_deck: the street waits for a new deck of the burns and the stub (the dealer loads
            them, then the device shuffles them: Stud's seventh street); shortage: the dealer's
            instruction then, the core's words; reshuffling: the shuffle was asked for.
        awards: the pots awarded once the hand is settled, side pots first, the main pot last.
        returned: uncalled bets given back ``(seat, amount)``; rake: the rake taken.
        after: stacks after the settled hand ``(seat, stack)``.
        void: why the hand in memory is void (code), "" otherwise.
        alarm, alarm_uid: the void the dealer has not acknowledged yet (code, hand uid).
        can_undo: the last action can be taken back now.
        journaled: the hand is in the journal.
        manual_source: the cards are typed on the keypad.
        awaiting: the positions the deal waits for, in dealing order (places, never cards).
        identifying: the deal waits for an unreadable card to be identified (the dealer
            enters it, a pit boss confirms); ident_position: where it goes; ident_entered: the
            dealer has entered it (the card itself is never here); pin_required: the pit boss
            confirms with badge and PIN.
        notice: the last card-source switch (failover), None before any.
        resumed: this hand was resumed from the journal after a restart.
        void_reason: the unacknowledged void's reason (its long text for the alarm).
        void_returns: what each seat of the voided hand gets back ``(seat, amount)`` (empty
            when that hand is not in memory: voided before a restart).
        storage: the journal's storage fault or notice (None: nothing to say).
        device: the card source's status. error: the last refusal (None when accepted).
        on_box: the badge of the dealer on the box ("" before the first dealer change).
        signoff: the pot whose award waits for a pit boss's sign-off (:mod:`ui.poker.signoff`),
            None when none waits.
        forced_amount: the forced bet a seat decides (Stud's bring-in) in the game the table
            plays now, 0 for none (a tournament's level sets it hand by hand).
        hand_level: at a tournament table, the level the table plays now (the hand in
            progress's own, whatever the clock says since), 0 elsewhere.
    """

    seq: int = 0
    table_seats: int = 9
    hand_uid: str = ""
    hand_no: int = 0
    phase: str = ""
    in_hand: bool = False
    street: str | None = None
    button: int | None = None
    actor: int | None = None
    seats: tuple[SeatSnap, ...] = ()
    board: tuple[Card, ...] = ()
    pending: tuple[str, ...] = ()
    pots: tuple[PotSnap, ...] = ()
    legal: Legal | None = None
    showdown: tuple[int, ...] = ()
    opening: str = ""
    opener: int | None = None
    forced: tuple[tuple[int, str], ...] = ()
    new_deck: bool = False
    shortage: str = ""
    reshuffling: bool = False
    awards: tuple[Award, ...] = ()
    returned: tuple[tuple[int, int], ...] = ()
    rake: int = 0
    after: tuple[tuple[int, int], ...] = ()
    void: str = ""
    alarm: str = ""
    alarm_uid: str = ""
    can_undo: bool = False
    journaled: bool = False
    manual_source: bool = False
    awaiting: tuple[Position, ...] = ()
    identifying: bool = False
    ident_position: Position | None = None
    ident_entered: bool = False
    pin_required: bool = False
    notice: SourceNotice | None = None
    resumed: bool = False
    void_reason: VoidReason | None = None
    void_returns: tuple[tuple[int, int], ...] = ()
    storage: StorageBanner | None = None
    device: DeviceStatus = field(default_factory=DeviceStatus)
    error: CommandError | None = None
    on_box: str = ""
    signoff: PotWait | None = None
    forced_amount: int = 0
    hand_level: int = 0

    def seat(self, seat: int) -> SeatSnap | None:
        """The seat's snapshot, None when nobody sits there."""
        return next((s for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class Extras:
    """What the service adds to a snapshot beyond the hand and the session: an unreadable
    card waits (``identifying``, the dealer's card entered: ``ident_entered``), the pit boss's
    PIN is needed, the last source switch, the uid of the hand resumed after a restart, the
    unacknowledged void's reason, the uid of the hand whose new deck the dealer had shuffled,
    the journal's storage banner."""

    identifying: bool = False
    ident_entered: bool = False
    pin_required: bool = False
    notice: SourceNotice | None = None
    resumed: str = ""
    void_reason: VoidReason | None = None
    reshuffled: str = ""
    storage: StorageBanner | None = None


def _legal(view: PeerView, seats: Mapping[int, SeatSnap]) -> Legal | None:
    space = view.legal
    if view.actor is None or space is None or not space.kinds:
        return None
    r = space.amount
    if r is None:
        return Legal(view.actor, tuple(space.kinds), view.to_call, closed=space.closed)
    return Legal(
        view.actor,
        tuple(space.kinds),
        view.to_call,
        r.minimum,
        r.maximum,
        r.step,
        view.raise_all_in,
        r.fixed,
        r.pot,
        r.half_pot,
        space.closed,
    )


def _awards(result: Mapping[str, Any], order: tuple[int, ...]) -> tuple[Award, ...]:
    """The settled pots in the order the view says the dealer pushes them."""
    pots = result.get("pots", [])
    hands = {int(x["seat"]): x.get("hand") or {} for x in result.get("seats", [])}
    out = []
    for i in order:
        p = pots[i]
        winners = tuple(
            Winner(int(w["seat"]), int(w["amount"]), bool(w.get("odd_chip")))
            for w in p.get("winners", [])
        )
        category = p.get("category")
        five = hands.get(winners[0].seat, {}).get("best_five", ()) if winners and category else ()
        out.append(
            Award(
                i,
                int(p["amount"]),
                tuple(p.get("eligible", ())),
                winners,
                category,
                tuple(parse_card(c) for c in five),
            )
        )
    return tuple(out)


def take_snapshot(
    view: PeerView | None,
    session: TableSession | None,
    *,
    table_seats: int,
    seq: int = 0,
    hand_no: int = 0,
    device: DeviceStatus | None = None,
    error: CommandError | None = None,
    alarm: str = "",
    alarm_uid: str = "",
    can_undo: bool = False,
    journaled: bool = False,
    manual_source: bool = False,
    extras: Extras | None = None,
) -> PokerSnapshot:
    """The snapshot of ``hand`` (None before the first) at a table whose players are
    ``session``'s; everything of the hand comes from its dealer view; ``extras`` what the
    service knows beyond the hand (see :class:`Extras`)."""
    x = extras or Extras()
    players = dict(session.seats) if session is not None else {}
    in_hand = view is not None and view.result is None  # a finished hand has its result
    seats: dict[int, SeatSnap] = {}
    for s, p in players.items():
        seats[s] = SeatSnap(s, p.name, p.stack or 0, sitting_out=p.sitting_out)
    if view is None:
        button = (session.button or None) if session is not None else None
        return PokerSnapshot(
            seq=seq,
            table_seats=table_seats,
            hand_no=hand_no,
            button=button,
            seats=tuple(seats[s] for s in sorted(seats)),
            device=device or DeviceStatus(),
            error=error,
            alarm=alarm,
            alarm_uid=alarm_uid,
            manual_source=manual_source,
            notice=x.notice,
            pin_required=x.pin_required,
            void_reason=x.void_reason,
            storage=x.storage,
        )
    posts: dict[int, list[str]] = {}
    for seat, kind, _amount in view.posts:
        posts.setdefault(seat, []).append(kind)
    mucked = set(view.mucked)
    for sv in view.seats:
        # every card face up: shown at the showdown (a face-down card is never in the view)
        hole = tuple(sv.hole)
        shown = tuple(c for c in hole if c is not None)
        if len(shown) < len(hole):
            shown = ()
        known = players.get(sv.seat)
        stack = sv.stakes["stack"]
        seats[sv.seat] = SeatSnap(
            sv.seat,
            known.name if known else "",
            stack,
            sv.stakes["bet"],
            sv.stakes["put_in"],
            in_hand=True,
            folded=sv.folded,
            all_in=stack == 0 and not sv.folded,
            cards=len(hole),
            hole=hole,
            shown=shown,
            mucked=sv.seat in mucked,
            sitting_out=known.sitting_out if known else False,
            posts=tuple(posts.get(sv.seat, ())),
            last=view.last.get(sv.seat, ""),
        )
    result = view.result or {}
    settled = view.phase == "settled"
    identifying = in_hand and x.identifying and bool(view.pending)
    returns: tuple[tuple[int, int], ...] = ()
    if x.void_reason is not None and alarm_uid == view.hand_uid:  # every chip put in goes back
        returns = tuple((sv.seat, sv.stakes["put_in"]) for sv in view.seats if sv.stakes["put_in"])
    pots = tuple(PotSnap(i, p.amount, tuple(p.eligible)) for i, p in enumerate(view.pots))
    after = tuple((int(x["seat"]), int(x["stack"])) for x in result.get("seats", []))
    if not in_hand:  # the stacks after the hand (a void one: as it started), no pot left
        pots = pots if settled else ()
        for s, stack in after:
            seats[s] = replace(seats[s], stack=stack, bet=0, all_in=False)
    return PokerSnapshot(
        seq=seq,
        table_seats=table_seats,
        hand_uid=view.hand_uid,
        hand_no=hand_no,
        phase=view.phase,
        in_hand=in_hand,
        street=view.street,
        button=view.button or None,  # 0: a game without a button (Stud deals from seat 1)
        actor=view.actor if in_hand else None,
        seats=tuple(seats[s] for s in sorted(seats)),
        board=tuple(c for c in view.board if c is not None),
        pending=tuple(str(p) for p in view.pending),
        pots=pots,
        legal=_legal(view, seats),
        showdown=tuple(view.showdown),
        opening=view.opening if in_hand else "",
        opener=view.opener if in_hand else None,
        forced=view.forced if in_hand else (),
        new_deck=in_hand and view.new_deck,
        shortage=view.shortage if in_hand and view.new_deck else "",
        reshuffling=in_hand and view.new_deck and x.reshuffled == view.hand_uid,
        awards=_awards(result, view.push_order) if settled else (),
        returned=tuple((int(r["seat"]), int(r["amount"])) for r in result.get("returned", [])),
        rake=int(result.get("rake", 0) or 0),
        after=after if settled else (),
        void=view.void,
        alarm=alarm,
        alarm_uid=alarm_uid,
        can_undo=can_undo and in_hand,
        journaled=journaled,
        manual_source=manual_source,
        device=device or DeviceStatus(),
        error=error,
        awaiting=tuple(view.pending) if in_hand else (),
        identifying=identifying,
        ident_position=view.pending[0] if identifying and view.pending else None,
        ident_entered=identifying and x.ident_entered,
        pin_required=x.pin_required,
        notice=x.notice,
        resumed=x.resumed == view.hand_uid and in_hand,
        void_reason=x.void_reason,
        void_returns=returns,
        storage=x.storage,
    )


def forced_amount(runner: Any) -> int:
    """The forced bet a seat decides (Stud's bring-in) in the game ``runner`` (a peer runner,
    or None) plays now: a tournament's level sets it hand by hand; 0 for none."""
    game = runner.config.poker if runner is not None else None
    amount = getattr(game, FORCED_KIND, 0)
    return amount if isinstance(amount, int) else 0


def hand_level(runner: Any) -> int:
    """The tournament level ``runner``'s game is set to (0: not a tournament table)."""
    game = runner.config.poker if runner is not None else None
    part = getattr(game, "tournament", None)
    return int(part[1]) if isinstance(part, tuple) and len(part) == 2 else 0
