"""The table behind the console: runner, card source and journal, driven step by step.

Qt-free and non-blocking: every step returns at once with a
:class:`~ui.console.snapshot.TableSnapshot` (refusals of the core come back in ``snapshot.error``
instead of exceptions, because the GUI shows them to the dealer), and :meth:`TableService.tick`
moves the table on: the device's events and the clock (the event-driven runner,
:mod:`dealer_assist.table.runner`). The console's worker (:mod:`ui.kit.worker`) ticks it on
its own thread; headless callers use :meth:`TableService.wait`.

After a restart :meth:`TableService.open` resumes what the journal's step log holds (the runner's
crash recovery): a hand in progress continues, an unacknowledged void alarm is shown again.
Closing the console during a deal returns at once: the hand stays in the step log and resumes at
the next start (it is not voided for cards that never came).

One call is safe from another thread: :meth:`TableService.enter_card` (the keypad, into the
manual source); a void during a deal is an ordinary step. The table's sources fail
over (``drivers.failover``); a switch is reported as a :class:`~ui.console.snapshot.SourceNotice`.
The runner's per-card timeout is ``timeouts.slow_card`` while the keypad or a camera is the
source, so typing does not void a hand.

What does not depend on the game (the journal, the card source, the device's status, the
storage fault, the floor relay, the signers, the stop signal) is the kit's
:class:`~ui.kit.table_link.TableLink`, held as ``link``; around it the service runs the banked
runner, the payout walk and the hand history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dealer_assist.cards import Card
from dealer_assist.engine.rules import Action
from dealer_assist.engine.state import GameState
from dealer_assist.engine.views import BankedView, Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import (
    DealerAssistError,
    HandStateError,
    JournalError,
)
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.dealers import ensure_dealer
from ui.console import service_walk, signoff
from ui.console.history import journal_bets
from ui.console.service_signoff import floor_signoffs
from ui.console.service_walk import HandHistory
from ui.console.signoff import journal_signoffs
from ui.console.snapshot import Extras, TableSnapshot, take_snapshot
from ui.kit.dealer_change import on_box
from ui.kit.device_watch import DeferredHand
from ui.kit.refusals import command_error
from ui.kit.service_parts import ServiceParts
from ui.kit.sources import (
    confirm_card,
)
from ui.kit.status import CommandError
from ui.kit.table_link import wait_idle

_OVER = (Phase.SETTLED, Phase.VOID)


class TableService:
    """One table: opens the source and the journal, runs hands, reports snapshots.

    Args:
        parts: the table, its card source, journal, timeouts, pit bosses and dealer
            (:class:`~ui.kit.service_parts.ServiceParts`).

    Call :meth:`open` first and :meth:`close` at the end (both idempotent), :meth:`tick` often
    (every few tens of milliseconds while :attr:`busy`). Not thread-safe except
    :meth:`enter_card`: use it from one thread (the console's worker).
    """

    def __init__(self, parts: ServiceParts) -> None:
        self.config = parts.config
        self.roster = parts.roster
        self.dealer = parts.dealer
        self.link = parts.link()
        self.runner: BankedRunner | None = None
        self._seq = 0
        self.history = HandHistory()
        self._resumed_uid = ""
        self._last_bets: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()
        self._hand_no = 0
        self.deferred = DeferredHand()  # a new hand waits for the device (busy with the last)

    # -- lifecycle --------------------------------------------------------------------------------
    def open(self, seq: int = 0) -> TableSnapshot:
        """Open the journal and the source, resume an interrupted hand, else start a new hand.

        A source or journal that cannot be opened is reported in ``error`` (and a source's in
        ``device.error``); call :meth:`open` again to retry.
        """
        if self.runner is None:
            source = self.link.connect()
            if isinstance(source, CommandError):
                return self._snap(seq, source)
            t = self.link.card_source.timeouts
            runner = BankedRunner(
                self.config, source, self.journal, card_timeout=t.card, shuffle_timeout=t.shuffle,
                on_event=lambda e: self.link.on_event(e, self.runner),
            )  # fmt: skip
            self.runner = runner
            error = self._run(seq, runner.resume).error  # may deal: a step like the others
            if error is not None:
                return self._snap(seq, error)
            try:  # a crash during the payouts: the hand's list again, the paid seats ticked
                runner.restore_payout()
            except DealerAssistError as e:
                return self._snap(seq, command_error(e))
            self._resumed_uid = runner.hand.hand_uid if runner.hand is not None else ""
            self._last_bets = journal_bets(self.journal, self.config.table_id)
            self._count_hand()
            default = self.config.dealer  # [table] dealer, on the box when nobody is yet
            put = lambda: ensure_dealer(runner, default, by="config", keep_current=True)  # noqa: E731
            error = self._run(seq, put).error
            if error is not None:
                return self._snap(seq, error)
        runner = self.runner
        if runner.void_alarm is not None or (runner.hand and runner.hand.phase not in _OVER):
            return self._snap(seq, None)  # the alarm, or the interrupted hand, comes first
        if runner.hand is not None and runner.hand.phase is Phase.SETTLED:
            return self._snap(seq, None)  # settled by the replay: the dealer finishes paying
        return self.new_hand(seq)

    def close(self) -> None:
        """Close the source and the journal; safe to call twice. Returns at once, also during
        a deal: the hand stays in the step log and resumes at the next :meth:`open`."""
        self.link.close(self.runner)
        self.runner = None
        self.deferred.wanted = False

    @property
    def journal(self) -> Journal | None:
        """The table's journal (:attr:`ui.kit.table_link.TableLink.journal`)."""
        return self.link.journal

    @property
    def hand(self) -> GameState | None:
        """The hand in progress or just finished, through the hand protocol (owned by this
        thread)."""
        return self.runner.hand if self.runner is not None else None

    @property
    def active_source(self) -> CardSource | None:
        """The source reading cards now (:attr:`ui.kit.card_source.TableSource.active`)."""
        return self.link.card_source.active

    @property
    def busy(self) -> bool:
        """The table waits for the device (a deck, cards, a STATUS answer) or for a new hand to
        open: call :meth:`tick` soon."""
        runner = self.runner
        return runner is not None and (runner.waiting or self.deferred.wanted)

    # -- steps ------------------------------------------------------------------------------------
    def new_hand(self, seq: int = 0) -> TableSnapshot:
        """Open bets on a new hand (SHUFFLE to the device). Refused while a void alarm waits
        for the dealer (``void_alarm``) or the device is not ready (``device_not_ready``)."""
        if self.link.storage.fault is not None and self.runner is not None:  # the journal first
            snap = self.retry(seq)
            if self.link.storage.fault is not None:
                return snap
        runner = self.runner
        if runner is None:
            return self.open(seq)
        try:
            runner.poll(0)
        except DealerAssistError as e:
            return self._snap(seq, command_error(e))
        if runner.void_alarm is not None:
            return self._snap(seq, CommandError("void_alarm", "acknowledge the void first"))
        status = runner.device_status
        if not (runner.device_ready and status.ready):
            why = status.why_not_ready or "device not ready"
            return self._snap(seq, CommandError("device_not_ready", why))
        hand = runner.hand
        idle = hand is None or hand.is_over
        if idle and (runner.waiting or runner.device_busy):
            self.deferred.want(runner.shuffle_timeout)  # at a tick, within limits
            return self._snap(seq, None)
        return self._run(seq, lambda: self._new_hand(runner))

    def _new_hand(self, runner: BankedRunner, *, even_if_busy: bool = False) -> None:
        self.deferred.wanted = False
        if self.journal is not None:  # the walk's sign-offs go into the chain before its marks
            journal_signoffs(self.config, runner, self.journal)
        runner.new_hand(even_if_busy=even_if_busy)
        self._count_hand()

    def _wanted_hand(self, runner: BankedRunner) -> TableSnapshot | None:
        """The deferred new hand, when due (:class:`~ui.kit.device_watch.DeferredHand`)."""
        due = self.deferred.due(runner)
        if due == "idle":
            self.deferred.wanted = False
            return self.new_hand(self._seq)
        if due == "late":
            return self._run(self._seq, lambda: self._new_hand(runner, even_if_busy=True))
        return None

    def acknowledge_void(self, seq: int = 0) -> TableSnapshot:
        """The dealer has read the void alarm (journaled with the next hand); then a new hand
        opens when the device is ready."""
        runner = self.runner
        if runner is None:
            return self._snap(seq, CommandError("state", "not connected"))
        try:
            runner.acknowledge_void("dealer")
        except DealerAssistError as e:
            return self._snap(seq, command_error(e))
        if runner.void_alarm is not None:  # an older alarm too (restored after a restart)
            return self._snap(seq, None)
        return self.new_hand(seq)

    def deal(self, bets: Mapping[int, Mapping[str, int]], seq: int = 0) -> TableSnapshot:
        """ "Rien ne va plus": place every seat's bets (seat -> box -> minor units), lock them and
        deal. Seats not in ``bets`` are cleared. A refused bet leaves the hand in bets-open."""

        def step() -> None:
            hand = self._live().hand
            if hand is None:
                raise HandStateError("no hand in progress")
            for seat in [s for s in hand.seats if s not in bets]:
                hand.clear_seat(seat)
            for seat, seat_bets in sorted(bets.items()):
                hand.place_bets(seat, seat_bets)
            self._live().close_bets()

        return self._run(seq, step)

    def act(self, seat: int, action: Action, seq: int = 0) -> TableSnapshot:
        """A seat's decision on the current street."""
        return self._run(seq, lambda: self._live().act(seat, action))

    def dealer_step(self, seq: int = 0) -> TableSnapshot:
        """The dealer's one button: turn the next board cards, or turn their own cards; after
        the dealer's cards the hand is settled and journaled at once (the reveal decides it)."""

        def step() -> None:
            runner, view = self._live(), self._view()
            target = view.next_step  # the view says the dealer's next step
            if target is None:
                raise HandStateError(f"nothing to turn in phase {view.phase}")
            if view.phase == Phase.DECISIONS:
                runner.advance()
            if target == "dealer":
                if self._view().phase == Phase.SHOWDOWN:
                    runner.reveal()
                if self._view().phase == Phase.REVEALED:
                    runner.start_payout()  # before the settlement: a crash keeps the list
                    runner.settle()

        return self._run(seq, step)

    def void(self, reason: VoidReason, seq: int = 0) -> TableSnapshot:
        """Void the hand in progress (every wager returned) and journal it; a hand already voided
        (by a fault meanwhile) is left as it is."""

        def step() -> None:
            if self._view().phase != Phase.VOID:
                self._live().void(reason)

        return self._run(seq, step)

    def tick(self, timeout: float = 0.0) -> TableSnapshot:
        """Move the table on: the device events waiting (for at most ``timeout`` s for the
        first; a fault may void the hand), the clock (late cards void the deal), a new hand that
        waited for the device; refresh the status."""
        runner = self.runner
        if runner is None or self.link.storage.fault is not None:  # a fault: no card taken
            return self._snap(self._seq, None)
        try:
            runner.poll(timeout)
            runner.tick()
            wanted = self._wanted_hand(runner) if self.deferred.wanted else None
            if wanted is not None:
                return wanted
        except DealerAssistError as e:
            return self._snap(self._seq, command_error(e))
        if self.link.floor.relay is not None:  # a sign-off confirmed in the pit-boss application
            return self._run(self._seq, lambda: None)  # the step's storage-fault handling
        return self._snap(self._seq, None)

    def wait(
        self, timeout: float = 180.0, each: Callable[[TableSnapshot], None] | None = None
    ) -> TableSnapshot:
        """Tick until the table waits for nothing from the device, at most ``timeout`` seconds,
        passing each snapshot to ``each`` (for headless callers: tests, a typist); the last."""
        return wait_idle(self.tick, lambda: self.busy, timeout, each)

    # -- the payout walk, corrections, the history ------------------------------------------------
    def mark_paid(self, seat: int, seq: int = 0) -> TableSnapshot:
        """The dealer paid (or collected) ``seat`` of the settled hand and moved on: marked
        durably, so a restart shows it ticked; refused while its large payout is not signed."""
        return self._run(seq, lambda: service_walk.mark_paid(self.config, self._live(), seat))

    def sign_off(self, seat: int, badge: str, pin: str, seq: int = 0) -> TableSnapshot:
        """A pit boss (or shift manager, as the tier asks) signs off ``seat``'s large payout
        with badge and PIN (:mod:`ui.console.signoff`); a wrong badge or PIN changes nothing."""
        signers = self.link.signers
        return self._run(seq, lambda: signoff.sign(self.config, self._live(), self.roster,
                                                   signers, seat, badge, pin))  # fmt: skip

    def undo(self, seat: int, seq: int = 0) -> TableSnapshot:
        """Take back ``seat``'s decision on this street (before the next card is turned)."""
        return self._run(seq, lambda: self._connected().undo(seat))

    def correct_decision(
        self, seat: int, action: Action, badge: str, pin: str, seq: int = 0
    ) -> TableSnapshot:
        """A pit boss corrects ``seat``'s last decision after the next cards were turned
        (:func:`ui.console.service_walk.correct`: ``no_roster``, ``pit_boss``, ``illegal``)."""
        return self._run(seq, lambda: service_walk.correct(self.runner, self.roster, seat,
                                                           action, badge, pin))  # fmt: skip

    def open_history(self, seq: int = 0, badge: str = "", pin: str = "") -> TableSnapshot:
        """Open the hand history (the last hands, newest first); with ``badge`` (and ``pin``)
        the hole cards too (:class:`ui.console.service_walk.HandHistory`)."""
        return self._run(seq, lambda: self.history.open(self.journal, self.config, self.roster,
                                                        badge, pin))  # fmt: skip

    def close_history(self, seq: int = 0) -> TableSnapshot:
        """Close the hand history (the hole cards leave the snapshot)."""
        return self._run(seq, self.history.close)

    def retry(self, seq: int = 0) -> TableSnapshot:
        """The dealer freed the storage and taps *Retry*: the table resumes if the journal
        answers (else the fault again, nothing changed; :mod:`ui.kit.storage_faults`)."""
        return self._run(seq, lambda: None)

    # -- the cards the device does not read itself ------------------------------------------------
    def enter_card(self, card: Card) -> None:
        """The dealer typed ``card`` on the keypad: the next card of the deal (thread-safe; the
        manual source queues it as an event, which the worker's next tick hands the runner).

        Raises:
            DeviceError: the keypad is not the card source in use.
            CardError: that card was already entered in this deck.
        """
        self.link.card_source.enter(card)

    def identify(self, card: Card, seq: int = 0) -> TableSnapshot:
        """The dealer identifies the unreadable card (``misdeal.unreadable_card =
        "dealer_identifies"``); a pit boss confirms it next (:meth:`confirm`)."""
        return self._run(seq, lambda: self._live().identify_card(card, dealer=self.dealer))

    def confirm(self, card: Card, badge: str, pin: str, seq: int = 0) -> TableSnapshot:
        """The pit boss enters the card they see, with badge and PIN: the dealer's card confirms
        it, another rejects it (:func:`ui.kit.sources.confirm_card`); never in a snapshot."""
        return self._run(seq, lambda: confirm_card(self._live(), self.roster, card, badge, pin))

    def record_exposed(self, position: str, card: Card | None, seq: int = 0) -> TableSnapshot:
        """A card exposed by mistake at ``position`` (``seat 3``, ``dealer``, ``board``), the
        card if the dealer entered it: recorded with the hand, not a misdeal; play goes on."""
        return self._run(seq, lambda: self._live().record_exposed(card, position=position))

    def change_dealer(self, badge: str, seq: int = 0) -> TableSnapshot:
        """The incoming dealer's ``badge`` on the box, between hands only (journaled before
        the snapshot says so); refusals in ``error``
        (:meth:`ui.kit.table_link.TableLink.change_dealer`)."""
        runner = self.runner
        if runner is None:
            return self._snap(seq, CommandError("state", "not connected"))
        return self._run(seq, lambda: self.link.change_dealer(self.config, runner, badge))

    # -- internals --------------------------------------------------------------------------------

    def _connected(self) -> BankedRunner:
        """The runner (HandStateError: not connected, so no hand)."""
        if self.runner is None:
            raise HandStateError("no hand in progress")
        return self.runner

    def _live(self) -> BankedRunner:
        """The runner of the hand in progress (HandStateError: none)."""
        if self.runner is None or self.runner.hand is None:
            raise HandStateError("no hand in progress")
        return self.runner

    def _view(self) -> BankedView:
        """The dealer's view of the hand in progress (HandStateError: none)."""
        hand = self._live().hand
        if hand is None:
            raise HandStateError("no hand in progress")
        return hand.view("dealer")

    def _count_hand(self) -> None:
        if self.journal is not None and self.hand is not None:
            stored = self.runner.stored if self.runner is not None else None
            self._hand_no = stored.hand_id if stored else self.journal.count() + 1

    def _run(self, seq: int, step: Callable[[], object]) -> TableSnapshot:
        """Run one step; its snapshot."""
        error = None
        try:
            if self.link.storage.fault is not None:  # nothing runs before the journal writes
                self._recover()
            self.link.card_source.prepare(self.runner)  # the timeouts for the source in use
            result = step()
            error = result if isinstance(result, CommandError) else None
            # the walk's sign-offs waiting, signed, over: to the floor
            floor_signoffs(self.link.floor, self.config, self.runner, self._hand_no)
        except JournalError as e:
            error = self.link.storage.refused(e)
        except DealerAssistError as e:
            error = command_error(e)
        return self._snap(seq, error)

    def _recover(self) -> None:
        """After a storage fault: a write asked of the journal (JournalError while it still
        fails, nothing changed), then the runner's path for what the storage refused
        (:meth:`~dealer_assist.table.runner.TableRunner.journal_unsaved`): a hand that
        finished meanwhile is journaled once (idempotent by ``hand_uid``), and numbered from
        the journal (the fault stays if that fails too).

        The runner is kept: a write that failed applied nothing, so the hand in memory is the
        step log's (a fresh runner's ``resume`` would take the live shuffler for one that
        restarted and void the hand). A card the device gave while its step could not be
        written is missing from the deal: the deal's timeout voids the hand (rules text 000).
        """
        storage, runner = self.link.storage, self.runner
        if runner is None or self.journal is None:
            storage.fault = None
            return
        storage.probe(self.journal)
        runner.journal_unsaved()
        self._count_hand()
        storage.recovered()

    def _snap(self, seq: int, error: CommandError | None) -> TableSnapshot:
        self._seq = max(self._seq, seq)
        runner = self.runner
        alarm = runner.void_alarm if runner is not None else None
        if runner is not None and runner.stored is not None:
            self._hand_no = runner.stored.hand_id
        ident = runner.identification if runner is not None else None
        extras = Extras(
            identifying=ident is not None,
            ident_entered=ident is not None and ident.card is not None,
            manual_source=self.link.card_source.kind == "manual",
            pin_required=self.roster is not None and bool(self.roster.badges),
            notice=self.link.card_source.notice,
            storage=self.link.storage.banner,
            **service_walk.walk_fields(self.config, runner),
            resumed=bool(self._resumed_uid)
            and self.hand is not None
            and self.hand.hand_uid == self._resumed_uid,
            history=self.history.hands,
            history_holes=self.history.holes,
            on_box=on_box(runner),
            last_bets=self._last_bets,
        )
        hand = runner.hand if runner is not None else None
        return take_snapshot(
            hand.view("dealer") if hand is not None else None,
            seq=self._seq,
            hand_no=self._hand_no,
            device=self.link.device_status(runner),
            error=error,
            alarm=alarm.reason if alarm is not None else None,
            alarm_uid=alarm.hand_uid if alarm is not None else "",
            extras=extras,
        )
