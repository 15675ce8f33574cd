"""The poker-room table behind the console: the peer runner, the card source and the journal.

Qt-free and non-blocking like the banked console's table service:
every step returns at once with a :class:`~ui.poker.snapshot.PokerSnapshot` (the core's refusals
come back in ``snapshot.error``, as the screen shows them), :meth:`PokerService.tick` moves the
table on (device events, the clock). The worker (:mod:`ui.kit.worker`) ticks it on its own
thread; headless callers use :meth:`PokerService.wait`.

Unlike a banked table, no hand opens by itself: between hands the dealer seats players, tops
up, sits them out or in, places the button, then starts the hand.

The service holds collaborators that own their state: what does not depend on the game, as at
the banked console (the kit's :class:`~ui.kit.table_link.TableLink`, ``link``: the journal, the
card source, the device's status, the storage fault, the floor relay, the signers, the stop
signal), the large pots offered to the floor (:class:`~ui.poker.service_signoff.PotSignoffs`),
the hand's steps beyond one runner call (:class:`~ui.poker.hand_steps.HandSteps`) and the seat
changes (:class:`~ui.poker.seating.Seating`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.errors import DealerAssistError, HandStateError, JournalError, Refusal
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.dealers import ensure_dealer
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.tournament.live_table import LiveTable
from ui.kit.commands import (
    AcknowledgeVoid,
    ChangeDealer,
    Command,
    Confirm,
    Identify,
    OpenTable,
    RetryStorage,
)
from ui.kit.dealer_change import on_box
from ui.kit.refusals import command_error
from ui.kit.service_parts import ServiceParts
from ui.kit.status import CommandError
from ui.kit.table_link import wait_idle
from ui.poker import commands as c
from ui.poker.hand_steps import HandSteps
from ui.poker.seating import Seating
from ui.poker.service_signoff import PotSignoffs
from ui.poker.signoff import pot_wait
from ui.poker.snapshot import (
    Extras,
    PokerSnapshot,
    RuleRefusal,
    forced_amount,
    hand_level,
    take_snapshot,
)


class PokerService:
    """One poker table: opens the source and the journal, runs hands, reports snapshots.

    Args:
        parts: the table (``config.poker`` its game), its card source, journal, timeouts, pit
            bosses and dealer (:class:`~ui.kit.service_parts.ServiceParts`; the dealer makes
            the changes between hands and identifies unreadable cards, recorded with them).

    With ``link.floor.relay`` set (the table's ``[floor]``) a held large pot is also offered to
    the pit-boss application (:mod:`ui.poker.service_signoff`). ``tournament`` (a
    :class:`~dealer_assist.tournament.live_table.LiveTable`) plays each hand at the level in
    force when it starts, a resumed hand at its own.

    After a restart :meth:`open` resumes the hand the journal's step log holds (the snapshot
    says ``resumed``); a switch of card source (failover) comes as ``snapshot.notice``.

    Storage faults (docs/FAULTS.md; the journal a
    :class:`~dealer_assist.storage.faults.ResilientJournal`, whose notices the service takes):
    a step the journal refused (JournalError after its retries) leaves the hand pending in the
    step log; the service then deals nothing (no device event is taken), says the fault in
    ``snapshot.storage`` and the refusal, and at the dealer's next step (``retry`` or any
    other) first asks the journal for a write: once it takes one, the table is picked up by the
    runner's resume path (a new runner resumes the step log: the hand in progress goes on, a
    finished one is journaled, once) and the step runs. The journal's notices (disk getting
    full, answering again) come in ``snapshot.storage`` too.
    Call :meth:`open` first and :meth:`close` at the end (both idempotent), :meth:`tick` often.
    Not thread-safe except :meth:`enter_card`.
    """

    def __init__(self, parts: ServiceParts) -> None:
        self.config = parts.config
        self.roster = parts.roster
        self.tournament: LiveTable | None = None
        self._resumed = ""  # the hand resumed from the journal at the last open
        self.dealer = parts.dealer
        self.link = parts.link()
        self.runner: PeerRunner | None = None
        self.seating: Seating | None = None
        self._seq = 0
        self.pots = PotSignoffs(parts.config.table_id)
        self.steps = HandSteps(parts.config, parts.dealer)

    # -- lifecycle --------------------------------------------------------------------------------
    def open(self, seq: int = 0) -> PokerSnapshot:
        """Open the journal and the source and resume an interrupted hand; a failure is
        reported in ``error`` (call again to retry). No hand opens by itself."""
        if self.runner is None:
            source = self.link.connect()
            if isinstance(source, CommandError):
                return self._snap(seq, source)
            t = self.link.card_source.timeouts
            self._start(source, t.card, t.shuffle)
            return self._run(seq, self._resume)
        return self._snap(seq, None)

    def _start(self, source: CardSource, card_timeout: float, shuffle_timeout: float) -> None:
        """A runner over ``source`` (and its seat changes) in place of the one there was."""
        runner = PeerRunner(
            self.config,
            source,
            self.journal,
            card_timeout=card_timeout,
            shuffle_timeout=shuffle_timeout,
            on_event=lambda e: self.link.on_event(e, self.runner),
            signoff=self.config.signoff,
        )
        self.runner = runner
        self.seating = Seating(runner, self.config, self.dealer)

    def close(self) -> None:
        """Close the source and the journal; safe to call twice (a hand in progress stays in
        the step log and resumes at the next :meth:`open`)."""
        self.link.close(self.runner)
        self.runner = None
        self.seating = None
        self.steps.deferred.wanted = False

    @property
    def journal(self) -> Journal | None:
        """The table's journal (:attr:`ui.kit.table_link.TableLink.journal`)."""
        return self.link.journal

    @property
    def active_source(self) -> CardSource | None:
        """The source reading cards now (:attr:`ui.kit.card_source.TableSource.active`)."""
        return self.link.card_source.active

    @property
    def busy(self) -> bool:
        """The table waits for the device (or a new hand waits for it): tick soon."""
        r = self.runner
        return r is not None and (r.waiting or self.steps.deferred.wanted)

    def enter_card(self, card: Card) -> None:
        """The dealer typed ``card``: the next card of the deal (thread-safe).

        Raises:
            DeviceError: the keypad is not the card source in use.
            CardError: that card was already entered in this deck.
        """
        self.link.card_source.enter(card)

    # -- the dealer's steps -----------------------------------------------------------------------
    def execute(self, cmd: Command) -> PokerSnapshot:
        """Run one command (:mod:`ui.poker.commands`) by its class (:data:`STEPS`); a tick,
        or a command of no known class, just reports the table."""
        seq = cmd.seq
        if isinstance(cmd, OpenTable) or (isinstance(cmd, RetryStorage) and not self.runner):
            return self.open(seq)
        if self.runner is None:
            return self._snap(seq, CommandError("state", "not connected"))
        if self.link.storage.fault is not None:
            try:
                self._recover()
            except JournalError as e:
                return self._snap(seq, self._storage_fault(e))
            if isinstance(cmd, RetryStorage):
                return self._snap(seq, None)
        step = STEPS.get(type(cmd))
        if step is None:
            return self.tick()
        return self._run(seq, lambda: step(self, cmd))

    def _resume(self) -> None:
        runner = self._runner()
        if self.tournament is not None:
            self.tournament.before_resume(runner)
        hand = runner.resume()
        self._resumed = hand.hand_uid if hand is not None and not hand.is_over else ""
        ensure_dealer(runner, self.config.dealer, by="config", keep_current=True)

    def _recover(self) -> None:
        """After a storage fault: a write asked of the journal (JournalError while it still
        fails), then the runner's resume path: a new runner over the same source resumes the
        step log (the hand in progress, or journals the finished one) and takes the old one's
        place."""
        old = self._runner()
        self.link.storage.probe(self.journal)
        self._start(old.source, old.card_timeout, old.shuffle_timeout)
        hand = self._runner().resume()
        self._resumed = hand.hand_uid if hand is not None and not hand.is_over else ""
        self.link.storage.recovered()

    def tick(self, timeout: float = 0.0) -> PokerSnapshot:
        """Move the table on: device events (at most ``timeout`` s for the first), the clock,
        a new hand that waited for the device."""
        runner = self.runner
        if runner is None or self.link.storage.fault is not None:  # a fault: no card taken
            return self._snap(self._seq, None)
        try:
            runner.poll(timeout)
            runner.tick()
            self.steps.tick(runner)
            if self.tournament is not None:  # the director's changes, seen between hands
                self.tournament.between_hands(runner)
            self.pots.reconcile(self.link.floor, runner, self._hand_no())  # the floor's pots
        except DealerAssistError as e:
            self.steps.deferred.wanted = False
            return self._snap(self._seq, self._error(e))
        return self._snap(self._seq, None)

    def wait(
        self, timeout: float = 60.0, each: Callable[[PokerSnapshot], None] | None = None
    ) -> PokerSnapshot:
        """Tick until the table waits for nothing from the device (at most ``timeout`` s),
        passing each snapshot to ``each``; the last."""
        return wait_idle(self.tick, lambda: self.busy, timeout, each)

    # -- internals --------------------------------------------------------------------------------
    def _runner(self) -> PeerRunner:
        if self.runner is None:
            raise HandStateError("not connected")
        return self.runner

    def _seating(self) -> Seating:
        if self.seating is None:
            raise HandStateError("not connected")
        return self.seating

    def _run(self, seq: int, step: Callable[[], object]) -> PokerSnapshot:
        error = None
        try:
            self.link.card_source.prepare(self.runner)  # the timeouts for the source in use
            result = step()
            error = result if isinstance(result, CommandError) else None
            self.pots.reconcile(self.link.floor, self.runner, self._hand_no())  # the held pot
        except DealerAssistError as e:
            error = self._error(e)
        return self._snap(seq, error)

    def _storage_fault(self, e: JournalError) -> CommandError:
        self.steps.deferred.wanted = False
        return self.link.storage.refused(e)

    def _error(self, e: DealerAssistError) -> CommandError:
        """The refusal a snapshot carries: a storage fault (the table waits for the journal),
        a rule's refusal with its code (the screen says it in the dealer's language), else the
        banked console's."""
        if isinstance(e, JournalError):
            return self._storage_fault(e)
        error = command_error(e)
        if isinstance(e, Refusal) and e.rule:
            named = tuple(sorted(e.values.items()))
            return RuleRefusal(error.code, error.message, rule=e.rule, named=named)
        return error

    def can_undo(self) -> bool:
        """The runner would take back the last action now (before the next card is asked)."""
        runner = self.runner
        return runner is not None and runner.can_undo

    def _hand_no(self) -> int:
        """The hand's number as the console shows it: the session counts the hands (the
        journal also holds the table's changes), the open hand one more."""
        session = self.seating.session if self.seating is not None else None
        hand = self.runner.hand if self.runner is not None else None
        hands = session.hands if session is not None else 0
        return hands + 1 if hand is not None and not hand.is_over else hands

    def _snap(self, seq: int, error: CommandError | None) -> PokerSnapshot:
        self._seq = max(self._seq, seq)
        runner = self.runner
        alarm = runner.void_alarm if runner is not None else None
        hand = runner.hand if runner is not None else None
        session = self.seating.session if self.seating is not None else None
        stored = runner.stored if runner is not None else None
        ident = runner.identification if runner is not None else None
        extras = Extras(
            identifying=ident is not None,
            ident_entered=ident is not None and ident.card is not None,
            pin_required=self.roster is not None and bool(self.roster.badges),
            notice=self.link.card_source.notice,
            resumed=self._resumed,
            void_reason=alarm.reason if alarm is not None else None,
            reshuffled=self.steps.reshuffled,
            storage=self.link.storage.banner,
        )
        return replace(
            take_snapshot(
                hand.view("dealer") if hand is not None else None,
                session,
                table_seats=self.config.seats,
                seq=self._seq,
                hand_no=self._hand_no(),
                device=self.link.device_status(runner),
                error=error,
                alarm=alarm.reason.code if alarm else "",
                alarm_uid=alarm.hand_uid if alarm else "",
                can_undo=self.can_undo(),
                journaled=stored is not None
                and hand is not None
                and stored.hand_uid == hand.hand_uid,
                manual_source=self.link.card_source.kind == "manual",
                extras=extras,
            ),
            on_box=on_box(runner),
            signoff=pot_wait(runner),
            forced_amount=forced_amount(runner),
            hand_level=hand_level(runner),
        )


# each step takes the command of its key's class (Any: a dict cannot say so per key); its
# CommandError, if any, is the snapshot's refusal
Step = Callable[[PokerService, Any], object]

STEPS: dict[type[Command], Step] = {
    c.NewHand: lambda s, cmd: s.steps.new_hand(s._runner(), s.tournament),
    c.Act: lambda s, cmd: s._runner().act(cmd.seat, cmd.action, cmd.to),
    c.Show: lambda s, cmd: s._runner().show(cmd.seat, shown=cmd.shown),
    c.Undo: lambda s, cmd: s._runner().undo(by=s.dealer),
    c.VoidHand: lambda s, cmd: s.steps.void(s._runner(), cmd.reason),
    AcknowledgeVoid: lambda s, cmd: s._runner().acknowledge_void(s.dealer),
    c.Reshuffle: lambda s, cmd: s.steps.reshuffle(s._runner()),
    RetryStorage: lambda s, cmd: None,  # the journal answered: the step is the recovery
    Identify: lambda s, cmd: s.steps.identify(s._runner(), cmd.card),
    Confirm: lambda s, cmd: s.steps.confirm(s._runner(), s.roster, cmd.card, cmd.badge, cmd.pin),
    c.SignOffPot: lambda s, cmd: s.pots.sign_here(
        s._runner(), s.roster, s.link.signers, cmd.badge, cmd.pin
    ),
    ChangeDealer: lambda s, cmd: s.steps.dealer_refusal(
        s.link.change_dealer(s.config, s._runner(), cmd.badge)
    ),
    c.SeatPlayer: lambda s, cmd: s._seating().seat_player(cmd.seat, cmd.name, cmd.amount),
    c.TopUp: lambda s, cmd: s._seating().top_up(cmd.seat, cmd.amount),
    c.SitOut: lambda s, cmd: s._seating().sit_out(cmd.seat),
    c.SitIn: lambda s, cmd: s._seating().sit_in(cmd.seat),
    c.Leave: lambda s, cmd: s._seating().leave(cmd.seat),
    c.PlaceButton: lambda s, cmd: s._seating().set_button(cmd.seat),
}
"""The step of each command class (every concrete class of :mod:`ui.poker.commands` and
:mod:`ui.kit.commands` but :class:`~ui.kit.commands.OpenTable` and
:class:`~ui.kit.commands.Tick`, which :meth:`PokerService.execute` answers itself)."""


def execute(service: PokerService, cmd: Command) -> PokerSnapshot:
    """The worker's command runner for the poker console (:class:`ui.kit.worker.TableWorker`
    ``run_command``)."""
    return service.execute(cmd)
