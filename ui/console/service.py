"""The table behind the console: runner, card source and journal, driven step by step.

Qt-free and blocking (each step waits for the device with the runner's finite timeouts), so it runs
on the console's worker thread (:mod:`ui.console.worker`) or directly in tests and the headless
demo. Every step returns a :class:`~ui.console.snapshot.TableSnapshot`; refusals of the core come
back in ``snapshot.error`` instead of exceptions, because the GUI shows them to the dealer.

After a restart :meth:`TableService.open` resumes what the journal's step log holds (the runner's
crash recovery): a hand in progress continues, an unacknowledged void alarm is shown again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dealer_assist.config import TableConfig
from dealer_assist.errors import (
    BetError,
    DealerAssistError,
    DeviceError,
    HandStateError,
    IllegalActionError,
    JournalError,
)
from dealer_assist.events import utc_now
from dealer_assist.games.base import Action
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.hand import Hand, Phase
from dealer_assist.table.misdeal import VoidReason
from dealer_assist.table.runner import TableRunner
from ui.console.snapshot import (
    CommandError,
    DeviceStatus,
    TableSnapshot,
    next_step,
    take_snapshot,
)

SourceFactory = Callable[[], CardSource]
_OVER = (Phase.SETTLED, Phase.VOID)


class TableService:
    """One table: opens the source and the journal, runs hands, reports snapshots.

    Args:
        config: the table.
        make_source: builds the (unopened) card source, e.g. ``lambda: open_source(url)``.
        journal: an unopened journal, or None to keep no record (tests of the view only).
        card_timeout, shuffle_timeout: seconds, passed to the runner (finite: a silent device
            voids the hand instead of hanging the console).

    Call :meth:`open` first and :meth:`close` at the end (both idempotent). Not thread-safe: use
    it from one thread (the console's worker).
    """

    def __init__(
        self,
        config: TableConfig,
        make_source: SourceFactory,
        journal: Journal | None,
        *,
        card_timeout: float = 5.0,
        shuffle_timeout: float = 15.0,
    ) -> None:
        self.config = config
        self.make_source = make_source
        self.journal = journal
        self.card_timeout = card_timeout
        self.shuffle_timeout = shuffle_timeout
        self.source: CardSource | None = None
        self.runner: TableRunner | None = None
        self._seq = 0
        self._open_error = ""
        self._frames = -1
        self._last_heard = utc_now()
        self._hand_no = 0

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
                return self._snap(seq, CommandError("journal", str(e)))
            source = self.source or self.make_source()
            self.source = source
            try:
                source.open()
            except DealerAssistError as e:
                self._open_error = str(e)
                return self._snap(seq, CommandError("device", str(e)))
            self._open_error = ""
            self._last_heard = utc_now()
            runner = TableRunner(
                self.config, source, self.journal, card_timeout=self.card_timeout,
                shuffle_timeout=self.shuffle_timeout,
            )  # fmt: skip
            self.runner = runner
            try:
                runner.resume()
            except DealerAssistError as e:
                return self._snap(seq, _error(e))
            self._count_hand()
        runner = self.runner
        if runner.void_alarm is not None or (runner.hand and runner.hand.phase not in _OVER):
            return self._snap(seq, None)  # the alarm, or the interrupted hand, comes first
        if runner.hand is not None and runner.hand.phase is Phase.SETTLED:
            return self._snap(seq, None)  # settled by the replay: the dealer finishes paying
        return self.new_hand(seq)

    def close(self) -> None:
        """Close the source and the journal; safe to call twice."""
        self.runner = None
        if self.source is not None:
            self.source.close()
            self.source = None
        if self.journal is not None:
            self.journal.close()

    @property
    def hand(self) -> Hand | None:
        """The hand in progress or just finished (owned by this thread)."""
        return self.runner.hand if self.runner is not None else None

    # -- steps ------------------------------------------------------------------------------------
    def new_hand(self, seq: int = 0) -> TableSnapshot:
        """Open bets on a new hand (SHUFFLE to the device). Refused while a void alarm waits
        for the dealer (``void_alarm``) or the device is not ready (``device_not_ready``)."""
        runner = self.runner
        if runner is None:
            return self.open(seq)
        try:
            runner.poll(0)
        except DealerAssistError as e:
            return self._snap(seq, _error(e))
        if runner.void_alarm is not None:
            return self._snap(seq, CommandError("void_alarm", "acknowledge the void first"))
        status = runner.device_status
        if not (runner.device_ready and status.ready):
            why = status.why_not_ready or "device not ready"
            return self._snap(seq, CommandError("device_not_ready", why))
        return self._run(seq, lambda: self._new_hand(runner))

    def _new_hand(self, runner: TableRunner) -> None:
        runner.new_hand()
        self._count_hand()

    def acknowledge_void(self, seq: int = 0) -> TableSnapshot:
        """The dealer has read the void alarm (journaled with the next hand); then a new hand
        opens when the device is ready."""
        runner = self.runner
        if runner is None:
            return self._snap(seq, CommandError("state", "not connected"))
        try:
            runner.acknowledge_void("dealer")
        except DealerAssistError as e:
            return self._snap(seq, _error(e))
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
            target, _ = next_step(hand)
            if target is None:
                raise HandStateError(f"nothing to turn in phase {hand.phase}")
            if hand.phase is Phase.DECISIONS:
                runner.advance()
            if target == "dealer":
                if hand.phase is Phase.SHOWDOWN:
                    runner.reveal()
                if hand.phase is Phase.REVEALED:
                    runner.settle()

        return self._run(seq, step)

    def void(self, reason: VoidReason, seq: int = 0) -> TableSnapshot:
        """Void the hand in progress (every wager returned) and journal it."""

        def step() -> None:
            runner, _ = self._hand()
            runner.void(reason)

        return self._run(seq, step)

    def tick(self) -> TableSnapshot:
        """Handle waiting device events (a fault may void the hand) and refresh the status."""
        if self.runner is not None:
            try:
                self.runner.poll(0)
            except DealerAssistError as e:
                return self._snap(self._seq, _error(e))
        return self._snap(self._seq, None)

    # -- internals --------------------------------------------------------------------------------
    def _hand(self) -> tuple[TableRunner, Hand]:
        if self.runner is None or self.runner.hand is None:
            raise HandStateError("no hand in progress")
        return self.runner, self.runner.hand

    def _count_hand(self) -> None:
        if self.journal is not None and self.hand is not None:
            stored = self.runner.stored if self.runner is not None else None
            self._hand_no = stored.hand_id if stored else self.journal.count() + 1

    def _run(self, seq: int, step: Callable[[], None]) -> TableSnapshot:
        error = None
        try:
            step()
        except DealerAssistError as e:
            error = _error(e)
        return self._snap(seq, error)

    def _snap(self, seq: int, error: CommandError | None) -> TableSnapshot:
        self._seq = max(self._seq, seq)
        runner = self.runner
        alarm = runner.void_alarm if runner is not None else None
        if runner is not None and runner.stored is not None:
            self._hand_no = runner.stored.hand_id
        return take_snapshot(
            self.hand,
            seq=self._seq,
            hand_no=self._hand_no,
            device=self._device(),
            error=error,
            alarm=alarm.reason if alarm is not None else None,
            alarm_uid=alarm.hand_uid if alarm is not None else "",
            identifying=runner is not None and runner.identification is not None,
        )

    def _device(self) -> DeviceStatus:
        if self.runner is None or self.source is None:
            return DeviceStatus(error=self._open_error)
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
        )


def _error(e: DealerAssistError) -> CommandError:
    if isinstance(e, DeviceError):
        code = "device"
    elif isinstance(e, BetError):
        code = "bet"
    elif isinstance(e, IllegalActionError):
        code = "illegal"
    elif isinstance(e, HandStateError):
        code = "state"
    elif isinstance(e, JournalError):
        code = "journal"
    else:
        code = "other"
    return CommandError(code, str(e))
