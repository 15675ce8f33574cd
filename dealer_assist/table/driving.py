"""Driving a runner for a headless job: its source's events and the clock, until a step is done.

The runner never waits (:mod:`dealer_assist.table.runner`); the console's worker pumps it from
its own loop. Jobs without a screen (``simulate``, ``soak``, benchmarks, tests) want each dealer
step to return when the device has done its part: :class:`Driver` pumps events and ticks until a
condition holds or a timeout passes, and :class:`HeadlessTable` gives the banked dealer's steps
in that form. Both are bounded: every wait of the runner has its own deadline, and every loop
here has one too.

A headless job resumes like the console: before its first new hand it calls
:func:`resume_table` (``HeadlessTable.resume``), which finishes, continues or voids by the rules
what a crash left in the step log, and says in a sentence what it did with each hand
(:class:`Resumed`). A storage error in the middle of a hand leaves the hand pending, for the
next run to resume.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent
from dealer_assist.players import PlayerModel
from dealer_assist.ports import JournalPort, StoredHand
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.device_status import DeviceStatus
from dealer_assist.table.identification import PendingIdentification
from dealer_assist.table.recovery import sort_pending
from dealer_assist.table.runner import TableRunner
from dealer_assist.table.steplog import VoidAlarm

STEP = 0.05  # seconds: the longest a pump waits for one event before ticking the clock
SAFETY = 900.0  # seconds: no device step of a hand takes longer (its own deadlines are shorter)


class Driver:
    """Pumps ``runner`` (events of its source, then the clock) on the caller's thread."""

    def __init__(self, runner: TableRunner[Any]) -> None:
        self.runner = runner

    def pump(self, timeout: float = STEP) -> None:
        """Handle the events of the next ``timeout`` seconds at most, then tick the clock."""
        self.runner.poll(max(0.0, timeout))
        self.runner.tick()

    def until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Pump until ``done()`` or ``timeout`` seconds passed; whether it is done."""
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.pump(min(STEP, left))
        return True

    def settle_device(self, timeout: float = SAFETY) -> bool:
        """Pump until the runner waits for nothing from the device (its deal is in, or voided;
        or it waits for a person: an unreadable card to identify)."""
        self.runner.poll(0)
        self.runner.tick()
        return self.until(lambda: not self.runner.waiting, timeout)

    def wait_device_ready(self, timeout: float) -> bool:
        """Pump until the device may start a new hand (no fault, link up, not still dealing or
        shuffling for a void hand) or ``timeout`` seconds passed; whether it may."""
        runner = self.runner
        return self.until_device(
            lambda: runner.device_status.ready and not runner.device_busy, timeout
        )

    def until_device(self, done: Callable[[], bool], timeout: float) -> bool:
        """:meth:`until`, asking the device for its STATE once a second meanwhile (the answer
        settles a state whose change went unheard)."""
        runner = self.runner
        runner.poll(0)
        if not runner.device_state:
            runner.ask_status()
        ask_at = time.monotonic() + 1.0

        def check() -> bool:
            nonlocal ask_at
            if done():
                return True
            if time.monotonic() >= ask_at and runner.device_status.link == "connected":
                ask_at = time.monotonic() + 1.0
                runner.ask_status()
            return False

        return self.until(check, timeout)


@dataclass
class Resumed:
    """What a restart did with the hands the step log held (:func:`resume_table`).

    Attributes:
        continued: the hand that goes on where it stopped (its uid), or None.
        journaled: the hands the resume journaled, in order: settled by the replay (their
            settlement was decided before the crash) or voided (``restart``: the device lost the
            deck, an older hand left unfinished...; or a void decided before the crash).
    """

    continued: str | None = None
    journaled: list[StoredHand] = field(default_factory=list)

    def sentences(self) -> list[str]:
        """One sentence per hand, e.g. ``resumed hand UTH-01-3f..: it goes on where it
        stopped``, ``voided hand UTH-01-3f.. (journal hand 12): restart (...)``; none when
        the step log held no hand."""
        out = []
        for stored in self.journaled:
            where = f"hand {stored.hand_uid} (journal hand {stored.hand_id})"
            if stored.status == "settled":
                out.append(f"resumed {where}: settled before the restart, now journaled")
                continue
            void = stored.extra.get("void")
            void = void if isinstance(void, dict) else {}
            code, detail = str(void.get("code", "void")), str(void.get("detail", ""))
            out.append(f"voided {where}: {code}" + (f" ({detail})" if detail else ""))
        if self.continued is not None:
            out.append(f"resumed hand {self.continued}: it goes on where it stopped")
        return out


def resume_table(runner: TableRunner[Any], resume: Callable[[], object]) -> Resumed:
    """Call ``resume`` (the table's resume and device catch-up, right after opening the source
    and the journal) and say what it did with each hand of ``runner``'s step log.

    Raises:
        JournalError: the step log or the journal cannot be read or written (the hands stay
            pending for the next run).
    """
    journal = runner.journal
    if journal is None:
        resume()
        return Resumed()
    before = journal.count()
    pending = [uid for uid, _ in sort_pending(journal.pending_steps(runner.config.table_id)).hands]
    resume()
    report = Resumed()
    hand = runner.hand
    if hand is not None and not hand.is_over and hand.hand_uid in pending:
        report.continued = hand.hand_uid
    iter_hands = getattr(journal, "iter_hands", None)  # a readable journal (the port has no reads)
    if iter_hands is not None:
        report.journaled = [s for s in iter_hands(before + 1) if s.hand_uid in pending]
    elif runner.stored is not None and runner.stored.hand_uid in pending:
        report.journaled = [runner.stored]
    return report


R = TypeVar("R", bound=TableRunner[Any])


class HeadlessBase(Generic[R]):
    """What every headless table forwards to its runner, and the new hand's wait for a device
    still busy with a void hand's cards (a family's table adds its dealer steps).

    Args: the runner (:attr:`runner`); its driver is :attr:`driver`.
    """

    def __init__(self, runner: R) -> None:
        self.runner = runner
        self.driver = Driver(runner)

    @property
    def stored(self) -> StoredHand | None:
        """The last hand this table journaled."""
        return self.runner.stored

    @property
    def config(self) -> TableConfig:
        """The table."""
        return self.runner.config

    @property
    def journal(self) -> JournalPort | None:
        """The journal, or None."""
        return self.runner.journal

    @property
    def void_alarm(self) -> VoidAlarm | None:
        """The void the dealer has not acknowledged yet, or None."""
        return self.runner.void_alarm

    def poll(self, timeout: float = 0.0) -> list[DeviceEvent]:
        """Handle the events the source has now (at most ``timeout`` s for the first)."""
        return self.runner.poll(timeout)

    def acknowledge_void(self, by: str = "dealer") -> bool:
        """The dealer read the void alarm (see the runner's)."""
        return self.runner.acknowledge_void(by)

    def wait_device_ready(self, timeout: float) -> bool:
        """See :meth:`Driver.wait_device_ready`."""
        return self.driver.wait_device_ready(timeout)

    def _open_hand(self) -> Any:
        """A new hand, once the device has finished dealing or shuffling a void hand's cards
        (at most ``shuffle_timeout``); a device that is not ready is refused at once."""
        runner = self.runner
        runner.poll(0)
        if not (runner.device_ready and runner.void_alarm is None):
            return runner.new_hand()  # refused, with the reason
        self.driver.until_device(lambda: not runner.device_busy, runner.shuffle_timeout)
        return runner.new_hand(even_if_busy=True)


class HeadlessTable(HeadlessBase[BankedRunner]):
    """A banked table's dealer steps that return when the device has done its part.

    Args: as :class:`~dealer_assist.table.runner.TableRunner`; the runner is :attr:`runner`.
    Errors are the runner's.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(BankedRunner(*args, **kwargs))
        self.resumed = Resumed()  # what resume() did

    # -- what the runner knows ----------------------------------------------------------------
    @property
    def hand(self) -> BankedHand | None:
        """The hand in progress or just finished."""
        return self.runner.hand

    @property
    def device_ready(self) -> bool:
        """The device may start a new hand (no fault, link up)."""
        return self.runner.device_ready

    @property
    def device_status(self) -> DeviceStatus:
        """The device and its link now."""
        return self.runner.device_status

    @property
    def identification(self) -> PendingIdentification | None:
        """The unreadable card waiting for the dealer and a pit boss, or None."""
        return self.runner.identification

    def record_exposed(
        self, card: Card | None = None, *, position: str = "", note: str = ""
    ) -> None:
        """A card exposed by mistake: recorded, play goes on."""
        self.runner.record_exposed(card, position=position, note=note)

    # -- steps that wait for the device -------------------------------------------------------
    def resume(self) -> BankedHand | None:
        """:meth:`~dealer_assist.table.runner.TableRunner.resume`, then its device catch-up;
        what it did is :attr:`resumed` (:func:`resume_table`). Call it before the first new hand.

        Raises:
            JournalError: see :func:`resume_table`.
        """

        def go() -> None:
            self.runner.resume()
            self.driver.settle_device()

        self.resumed = resume_table(self.runner, go)
        return self.runner.hand

    def new_hand(self) -> BankedHand:
        """A new hand, once the device has finished dealing or shuffling a void hand's cards
        (at most ``shuffle_timeout``); a device that is not ready is refused at once."""
        hand: BankedHand = self._open_hand()
        return hand

    def close_bets(self) -> BankedHand:
        """ "Rien ne va plus", and the initial deal."""
        hand = self.runner.close_bets()
        self.driver.settle_device()
        return hand

    def act(self, seat: int, action: Action) -> None:
        """A seat's decision."""
        self.runner.act(seat, action)

    def act_many(self, pairs: Sequence[tuple[int, Action]], *, advance: bool = False) -> None:
        """Several decisions as one step (and the next street's cards when ``advance``)."""
        self.runner.act_many(pairs, advance=advance)
        self.driver.settle_device()

    def advance(self) -> BankedHand:
        """The next street, and its cards."""
        hand = self.runner.advance()
        self.driver.settle_device()
        return hand

    def reveal(self) -> BankedHand:
        """The dealer's cards."""
        return self.runner.reveal()

    def settle(self) -> StoredHand | None:
        """Settle and journal."""
        return self.runner.settle()

    def void(self, reason: VoidReason) -> StoredHand | None:
        """Void and journal."""
        return self.runner.void(reason)

    def identify_card(self, card: Card, *, dealer: str) -> None:
        """The dealer identifies the unreadable card."""
        self.runner.identify_card(card, dealer=dealer)

    def confirm_identification(self, *, pit_boss: str, accept: bool = True) -> BankedHand:
        """The pit boss confirms; the deal goes on."""
        hand = self.runner.confirm_identification(pit_boss=pit_boss, accept=accept)
        self.driver.settle_device()
        return hand


def play_hand(
    runner: HeadlessTable,
    model: PlayerModel,
    seats: Sequence[int],
    hand: BankedHand | None = None,
    *,
    by: str = "simulate",
    ready_timeout: float = 30.0,
    street_as_one_step: bool = True,
) -> BankedHand:
    """Play a banked hand with simulated players from whatever phase it is in to settlement or
    void: bets (while open) from ``model``, each street's decisions, reveal, settle. ``hand``: a
    hand in progress (resumed after a restart, or one already over: a new one is opened);
    ``None`` opens a new one, a void alarm acknowledged first by ``by`` as the dealer would.
    ``street_as_one_step``: a street's decisions and the next street's turn written as one
    durable step (``act_many``), else one step per decision and one for the turn (more crash
    points, as the soak wants).

    Raises:
        DeviceError: the device is not ready within ``ready_timeout`` seconds, or refused
            SHUFFLE; the runner's own errors (StorageFaultError, ...) pass through.
    """
    if hand is None or hand.phase in (Phase.SETTLED, Phase.VOID):
        runner.acknowledge_void(by)
        if not runner.wait_device_ready(ready_timeout):
            raise DeviceError(f"device not ready after {ready_timeout:.0f} s")
        hand = runner.new_hand()
    if hand.phase is Phase.BETS_OPEN:
        for seat in seats:
            hand.place_bets(seat, model.bets())
        runner.close_bets()
    while hand.phase is Phase.DECISIONS:
        street, board = hand.street or "", hand.board_visible()
        decisions = [
            (
                s,
                model.decide(
                    street, [hand.seats[s].hole[n] for n in (1, 2)], board, hand.legal_actions(s)
                ),
            )
            for s in hand.seats_to_act
        ]
        if street_as_one_step:
            runner.act_many(decisions, advance=True)
        else:
            for seat, action in decisions:
                runner.act(seat, action)
            runner.advance()
    if hand.phase is Phase.SHOWDOWN:
        runner.reveal()
    if hand.phase is Phase.REVEALED:
        runner.settle()
    return hand
