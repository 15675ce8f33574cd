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
The runner's per-card timeout is ``slow_card_timeout`` while the keypad or a camera is the
source, so typing does not void a hand.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping

from dealer_assist.config import TableConfig
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import (
    DealerAssistError,
    HandStateError,
    JournalError,
)
from dealer_assist.events import DeviceEvent, SourceSwitched, utc_now
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.dealers import ensure_dealer
from drivers.failover.chain import FailoverSource
from ui.console.history import last_bets
from ui.console.service_cards import CardSteps
from ui.console.service_signoff import FloorSignoffSteps
from ui.console.service_storage import StorageSteps
from ui.console.service_walk import WalkSteps
from ui.console.signoff import journal_signoffs, waiting
from ui.console.snapshot import Extras, TableSnapshot, take_snapshot
from ui.kit.dealer_change import change_dealer, on_box
from ui.kit.pitboss import PitBossRoster
from ui.kit.refusals import command_error
from ui.kit.sources import (
    MANUAL_SHUFFLE_TIMEOUT,
    WAIT_STEP,
    SourceFactory,
    source_kind,
    switch_notice,
)
from ui.kit.status import CommandError, DeviceStatus, SourceNotice

_OVER = (Phase.SETTLED, Phase.VOID)


class TableService(WalkSteps, StorageSteps, FloorSignoffSteps, CardSteps):
    """One table: opens the source and the journal, runs hands, reports snapshots.

    Args:
        config: the table.
        make_source: builds the (unopened) card source, e.g. ``lambda: open_source(url)``.
        journal: an unopened journal, or None to keep no record (tests of the view only); its
            storage faults and notices reach the screen (:mod:`ui.console.service_storage`).
        card_timeout, shuffle_timeout: seconds, passed to the runner (finite: a silent device
            voids the hand instead of hanging the console).
        slow_card_timeout: seconds the runner waits for each card while the source is the
            dealer's keypad or a camera (the dealer types or shows each card).
        roster: pit bosses with PINs; None (or empty) = the badge alone confirms.
        dealer: who identifies unreadable cards (recorded with them).

    Call :meth:`open` first and :meth:`close` at the end (both idempotent), :meth:`tick` often
    (every few tens of milliseconds while :attr:`busy`). Not thread-safe except
    :meth:`enter_card`: use it from one thread (the console's worker).
    """

    def __init__(
        self,
        config: TableConfig,
        make_source: SourceFactory,
        journal: Journal | None,
        *,
        card_timeout: float = 5.0,
        shuffle_timeout: float = 15.0,
        slow_card_timeout: float = 120.0,
        roster: PitBossRoster | None = None,
        dealer: str = "dealer",
    ) -> None:
        self.config = config
        self.make_source = make_source
        self.journal = journal
        self.card_timeout = card_timeout
        self.shuffle_timeout = shuffle_timeout
        self.slow_card_timeout = slow_card_timeout
        self.roster = roster
        self.dealer = dealer
        self.source: CardSource | None = None
        self.runner: BankedRunner | None = None
        self._seq = 0
        self._open_error = ""
        self._frames = -1
        self._last_heard = utc_now()
        self._hand_no = 0
        self._notice: SourceNotice | None = None
        self._want_hand = False  # a new hand waits for the device (still busy with the last)
        self._want_until = 0.0  # monotonic: then the hand opens anyway (the device decides)
        self._ask_at = 0.0  # monotonic: the next STATUS request while the new hand waits
        self.stop_signal = False  # closed by SIGTERM/SIGINT: a hand only opened is forgotten
        self._watch_storage()

    # -- lifecycle --------------------------------------------------------------------------------
    def open(self, seq: int = 0) -> TableSnapshot:
        """Open the journal and the source, resume an interrupted hand, else start a new hand.

        A source or journal that cannot be opened is reported in ``error`` (and a source's in
        ``device.error``); call :meth:`open` again to retry.
        """
        if self.runner is None:
            try:
                if self.journal is not None:
                    self.journal.open()
            except JournalError as e:
                return self._snap(seq, self._storage_fault(e))
            self._fault = None
            try:
                source = self.source or self.make_source()
                self.source = source
                source.open()
            except DealerAssistError as e:
                self._open_error = str(e)
                return self._snap(seq, CommandError("device", str(e)))
            self._open_error = ""
            self._last_heard = utc_now()
            runner = BankedRunner(
                self.config, source, self.journal, card_timeout=self.card_timeout,
                shuffle_timeout=self.shuffle_timeout, on_event=self._on_event,
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
            self._last_bets = self._journal_bets()
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
        if self.stop_signal and self.runner is not None:  # an ordinary stop: see forget_unstarted
            with contextlib.suppress(DealerAssistError):
                self.runner.forget_unstarted()
        self.runner = None
        self._want_hand = False
        if self.signoff_relay is not None:
            self.signoff_relay.stop()
        if self.source is not None:
            self.source.close()
            self.source = None
        if self.journal is not None:
            self.journal.close()

    @property
    def hand(self) -> BankedHand | None:
        """The hand in progress or just finished (owned by this thread)."""
        return self.runner.hand if self.runner is not None else None

    @property
    def active_source(self) -> CardSource | None:
        """The source reading cards now (the failover chain's active one)."""
        source = self.source
        if isinstance(source, FailoverSource):
            return source.active
        return source

    @property
    def busy(self) -> bool:
        """The table waits for the device (a deck, cards, a STATUS answer) or for a new hand to
        open: call :meth:`tick` soon."""
        runner = self.runner
        return runner is not None and (runner.waiting or self._want_hand)

    # -- steps ------------------------------------------------------------------------------------
    def new_hand(self, seq: int = 0) -> TableSnapshot:
        """Open bets on a new hand (SHUFFLE to the device). Refused while a void alarm waits
        for the dealer (``void_alarm``) or the device is not ready (``device_not_ready``)."""
        if self._fault is not None and self.runner is not None:  # the journal first
            snap = self.retry(seq)
            if self._fault is not None:
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
            if not self._want_hand:  # still busy with the last hand: at a tick, within limits
                self._want_hand = True
                self._want_until = time.monotonic() + runner.shuffle_timeout
                self._ask_at = 0.0
            return self._snap(seq, None)
        return self._run(seq, lambda: self._new_hand(runner))

    def _new_hand(self, runner: BankedRunner, *, even_if_busy: bool = False) -> None:
        self._want_hand = False
        if self.journal is not None:  # the walk's sign-offs go into the chain before its marks
            journal_signoffs(self.config, runner, self.journal)
        runner.new_hand(even_if_busy=even_if_busy)
        self._count_hand()

    def _wanted_hand(self, runner: BankedRunner) -> TableSnapshot | None:
        """The deferred new hand: opened once the device is idle, or after ``shuffle_timeout``
        anyway (its SHUFFLE then says whether the device can); STATUS asked once a second
        meanwhile, as a state whose change went unheard would hold it for ever."""
        now = time.monotonic()
        if not runner.waiting and not runner.device_busy:
            self._want_hand = False
            return self.new_hand(self._seq)
        if now >= self._want_until:
            return self._run(self._seq, lambda: self._new_hand(runner, even_if_busy=True))
        if now >= self._ask_at:
            self._ask_at = now + 1.0
            runner.ask_status()
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
            runner, hand = self._hand()
            for seat in [s for s in hand.seats if s not in bets]:
                hand.clear_seat(seat)
            for seat, seat_bets in sorted(bets.items()):
                hand.place_bets(seat, seat_bets)
            runner.close_bets()

        return self._run(seq, step)

    def act(self, seat: int, action: Action, seq: int = 0) -> TableSnapshot:
        """A seat's decision on the current street."""

        def step() -> None:
            runner, _ = self._hand()
            runner.act(seat, action)

        return self._run(seq, step)

    def dealer_step(self, seq: int = 0) -> TableSnapshot:
        """The dealer's one button: turn the next board cards, or turn their own cards; after
        the dealer's cards the hand is settled and journaled at once (the reveal decides it)."""

        def step() -> None:
            runner, hand = self._hand()
            target = hand.view("dealer").next_step  # the view says the dealer's next step
            if target is None:
                raise HandStateError(f"nothing to turn in phase {hand.phase}")
            if hand.phase is Phase.DECISIONS:
                runner.advance()
            if target == "dealer":
                if hand.phase is Phase.SHOWDOWN:
                    runner.reveal()
                if hand.phase is Phase.REVEALED:
                    runner.start_payout()  # before the settlement: a crash keeps the list
                    runner.settle()

        return self._run(seq, step)

    def void(self, reason: VoidReason, seq: int = 0) -> TableSnapshot:
        """Void the hand in progress (every wager returned) and journal it; a hand already voided
        (by a fault meanwhile) is left as it is."""

        def step() -> None:
            runner, hand = self._hand()
            if hand.phase is not Phase.VOID:
                runner.void(reason)

        return self._run(seq, step)

    def tick(self, timeout: float = 0.0) -> TableSnapshot:
        """Move the table on: the device events waiting (for at most ``timeout`` s for the
        first; a fault may void the hand), the clock (late cards void the deal), a new hand that
        waited for the device; refresh the status."""
        runner = self.runner
        if runner is None or self._fault is not None:  # a storage fault: no card taken
            return self._snap(self._seq, None)
        try:
            runner.poll(timeout)
            runner.tick()
            wanted = self._wanted_hand(runner) if self._want_hand else None
            if wanted is not None:
                return wanted
        except DealerAssistError as e:
            return self._snap(self._seq, command_error(e))
        if self.signoff_relay is not None:  # a sign-off confirmed in the pit-boss application
            return self._run(self._seq, lambda: None)  # the step's storage-fault handling
        return self._snap(self._seq, None)

    def wait(
        self, timeout: float = 180.0, each: Callable[[TableSnapshot], None] | None = None
    ) -> TableSnapshot:
        """Tick until the table waits for nothing from the device, at most ``timeout`` seconds,
        passing each snapshot to ``each`` (for headless callers: tests, a typist); the last."""
        deadline = time.monotonic() + timeout
        snap = self.tick()
        while True:
            if each is not None:
                each(snap)
            if not self.busy or time.monotonic() >= deadline:
                return snap
            snap = self.tick(WAIT_STEP)

    # -- internals --------------------------------------------------------------------------------
    def change_dealer(self, badge: str, seq: int = 0) -> TableSnapshot:
        """The incoming dealer's ``badge`` on the box, between hands only (journaled before
        the snapshot says so); refusals in ``error`` (:mod:`ui.kit.dealer_change`)."""
        runner = self.runner
        if runner is None:
            return self._snap(seq, CommandError("state", "not connected"))
        return self._run(seq, lambda: change_dealer(self.config, runner, badge,
                                                    users=self.signers))  # fmt: skip

    def _hand(self) -> tuple[BankedRunner, BankedHand]:
        if self.runner is None or self.runner.hand is None:
            raise HandStateError("no hand in progress")
        return self.runner, self.runner.hand

    def _count_hand(self) -> None:
        if self.journal is not None and self.hand is not None:
            stored = self.runner.stored if self.runner is not None else None
            self._hand_no = stored.hand_id if stored else self.journal.count() + 1

    def _run(self, seq: int, step: Callable[[], object]) -> TableSnapshot:
        """Run one step; its snapshot."""
        error = None
        try:
            if self._fault is not None:  # nothing runs before the journal takes writes again
                self._recover()
            self._prepare()
            result = step()
            error = result if isinstance(result, CommandError) else None
            self._relay_signoffs()  # the walk's sign-offs waiting, signed, over: to the floor
        except JournalError as e:
            error = self._storage_fault(e)
        except DealerAssistError as e:
            error = command_error(e)
        return self._snap(seq, error)

    def _prepare(self) -> None:
        """Timeouts for the source in use: the keypad and a camera are slow to give each card.
        The keypad shuffles at once and reports no device state, so a "still dealing" left by
        a shuffler that died mid-deal must not hold its first hand for ``shuffle_timeout``."""
        runner = self.runner
        if runner is not None:
            kind = source_kind(self.active_source)
            slow = kind in ("manual", "camera")
            runner.card_timeout = self.slow_card_timeout if slow else self.card_timeout
            manual = kind == "manual"
            runner.shuffle_timeout = MANUAL_SHUFFLE_TIMEOUT if manual else self.shuffle_timeout

    # -- the runner's events (worker thread) ------------------------------------------------------
    def _on_event(self, event: DeviceEvent) -> None:
        if isinstance(event, SourceSwitched):
            self._notice = switch_notice(self._notice, event, self.source)
            self._prepare()

    def _snap(self, seq: int, error: CommandError | None) -> TableSnapshot:
        self._seq = max(self._seq, seq)
        runner = self.runner
        alarm = runner.void_alarm if runner is not None else None
        if runner is not None and runner.stored is not None:
            self._hand_no = runner.stored.hand_id
        ident = runner.identification if runner is not None else None
        marks = self._walk_marks()
        extras = Extras(
            identifying=ident is not None,
            ident_entered=ident is not None and ident.card is not None,
            manual_source=source_kind(self.active_source) == "manual",
            pin_required=self.roster is not None and bool(self.roster.badges),
            notice=self._notice,
            storage=self._banner,
            walk=marks is not None,
            paid=marks.paid if marks is not None else (),
            signoff_waiting=waiting(self.config, runner) if marks is not None else (),
            signed=tuple(s.seat for s in marks.signed) if marks is not None else (),
            resumed=bool(self._resumed_uid)
            and self.hand is not None
            and self.hand.hand_uid == self._resumed_uid,
            history=self._history,
            history_holes=self._history_holes,
            on_box=on_box(runner),
            last_bets=self._last_bets,
        )
        hand = self.hand
        return take_snapshot(
            hand.view("dealer") if hand is not None else None,
            seq=self._seq,
            hand_no=self._hand_no,
            device=self._device(),
            error=error,
            alarm=alarm.reason if alarm is not None else None,
            alarm_uid=alarm.hand_uid if alarm is not None else "",
            extras=extras,
        )

    def _journal_bets(self) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
        """The last journaled hand's bets (Repeat last bets after a restart); none when the
        journal cannot say (a storage fault is the banner's business, not this)."""
        if self.journal is None:
            return ()
        try:
            return last_bets(self.journal, self.config.table_id)
        except DealerAssistError:
            return ()

    def _device(self) -> DeviceStatus:
        if self.runner is None or self.source is None:
            return DeviceStatus(error=self._open_error)
        active = self.active_source
        # BEAT frames are not events; a growing frame counter shows the device is alive.
        frames = self.source.stats.frames_received
        if frames != self._frames:
            self._frames, self._last_heard = frames, utc_now()
        status = self.runner.device_status
        ident = self.source.identity
        return DeviceStatus(
            connected=status.link == "connected",
            model=ident.model if ident else "",
            serial=ident.serial if ident else "",
            firmware=ident.firmware if ident else "",
            last_heard=self._last_heard,
            faults=(*status.faults, *(("IDENTITY",) if status.identity_alarm else ())),
            ready=status.ready and self.runner.device_ready,
            state=status.state,
            link=status.link,
            reconnect_attempts=status.reconnect_attempts,
            why_not_ready=status.why_not_ready,
            source=active.name if active is not None else "",
            source_kind=source_kind(active),
            next_attempt_in=status.next_attempt_in,
            last_error=status.last_error,
        )
