"""The strip a tournament table's dealer console shows under its top bar: the level, its blinds
or limits (ante, bring-in), the time left in the level, and the action clock of the seat to act
with its time bank (rules text 002; GAMES.md "Action clock").

The level comes from the tournament's journal (:class:`~ui.tournament.feed.JournalFeed`, off
the GUI thread), the seat to act from the console's view (``snap.actor``); the action clock
runs here (:class:`~dealer_assist.tournament.action_clock.DecisionClock`): it begins when the
action reaches a seat and ends when it moves on, the time bank drawn as the structure says
(``automatic`` when the action clock runs out, or ``on_request``: the dealer taps "Time bank"
when the player asks). A decision that drew on a bank is journaled when it ends (and what is
left every few seconds while a bank is drawn), and the banks are rebuilt from the journal when
the tournament first shows (:mod:`ui.tournament.bank_journal`, on its own thread): a restart
finds each bank where it was, not full. Decisions that end before the banks are read back are
journaled once they are, counted from the bank read back. The strip stays hidden until the
journal shows a tournament playing at this table. No card here.

:func:`attach_level_strip` puts it in a poker console's window (the one hook).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
)

from dealer_assist.config import TableConfig
from dealer_assist.events import utc_now
from dealer_assist.tournament.action_clock import DecisionClock, DecisionOutcome, TimeBanks
from dealer_assist.tournament.errors import ClockError
from ui.kit import theme
from ui.kit.labels import FitLabel, set_text
from ui.kit.translate import tr, trf
from ui.tournament.bank_journal import INTERIM_SECONDS, BankJournal
from ui.tournament.board import Board, Snapshot, countdown, last_minute
from ui.tournament.feed import JournalFeed
from ui.tournament.table_notes import table_notes
from ui.tournament.texts import blinds, forced
from ui.tournament.timeouts import TimeOuts

TICK_MS = 200
STYLE = f"""
#lsStrip {{ background: {theme.PANEL_2}; border-bottom: 2px solid {theme.GOLD_DARK}; }}
#lsLevel {{ color: #1a1406; background: {theme.GOLD}; font-weight: bold; font-size: 22px;
           border-radius: 8px; padding: 2px 12px; }}
#lsAmounts {{ color: {theme.TEXT}; font-size: 22px; font-weight: bold; }}
#lsLeft {{ color: {theme.GOLD}; font-size: 22px; font-weight: bold; }}
#lsAction {{ color: {theme.TEXT}; font-size: 22px; }}
#lsAction[kind="idle"] {{ color: {theme.MUTED}; font-size: 18px; }}
#lsAction[kind="bank"] {{ color: #8cc8ff; font-weight: bold; }}
#lsAction[kind="out"] {{ color: #ff9a9a; font-weight: bold; }}
#lsBank {{ font-size: 18px; min-height: 36px; padding: 0 12px; }}
#lsNotes {{ color: #1a1406; background: {theme.GOLD}; font-size: 20px; font-weight: bold;
           border-radius: 6px; padding: 4px 10px; }}
"""


def _fit(name: str) -> FitLabel:
    lab = FitLabel(min_px=11)
    lab.setObjectName(name)
    return lab


class LevelStrip(QFrame):
    """The strip (module doc). ``now``: the wall clock (a test passes its own)."""

    def __init__(self, *, now: Callable[[], datetime] = utc_now) -> None:
        super().__init__()
        self.now = now
        self.setObjectName("lsStrip")
        self.setStyleSheet(STYLE)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(16, 4, 16, 4)
        rows.setSpacing(2)
        top, bottom = QHBoxLayout(), QHBoxLayout()
        for row in (top, bottom):
            row.setSpacing(18)
            rows.addLayout(row)
        self.level, self.amounts = _fit("lsLevel"), _fit("lsAmounts")
        self.left, self.action = _fit("lsLeft"), _fit("lsAction")
        top.addWidget(self.level)
        top.addWidget(self.amounts, 1)
        top.addWidget(self.left)
        bottom.addWidget(self.action, 1)
        self.bank = QPushButton(tr("Time bank"))
        self.bank.setObjectName("lsBank")
        self.bank.clicked.connect(self.open_bank)
        self.bank.hide()
        bottom.addWidget(self.bank)
        self.back = QPushButton()  # "Ada is back": the first of this table's sit-outs
        self.back.setObjectName("lsBank")
        self.back.clicked.connect(self.tap_back)
        self.back.hide()
        bottom.addWidget(self.back)
        # the tournament's changes at this table between hands (no chips, out, moves)
        self._in_hand = False
        self._hand_level = 0  # the level of the hand in progress (0: none)
        self.notes = QLabel()
        self.notes.setObjectName("lsNotes")
        self.notes.setWordWrap(True)
        self.notes.hide()
        rows.addWidget(self.notes)
        self.timeouts: TimeOuts | None = None  # the table enforces time-outs (a console)
        self._names: tuple[str, ...] = ()  # the players seated at this table
        self._timed_turn: tuple[Any, ...] | None = None
        self.feed: JournalFeed | None = None
        self.snap: Snapshot | None = None
        self.board: Board | None = None
        self.table_id: str | None = None
        self.banks = TimeBanks()
        self.decision: DecisionClock | None = None
        self._bank_journal: BankJournal | None = None  # None: the banks are not journaled
        self._loaded: str | None = None  # the tournament whose banks were read back
        self._loading: str | None = None  # asked of the journal, not answered yet
        # decisions ended before the banks were read back: (outcome, hand), journaled after
        self._early: list[tuple[DecisionOutcome, str | None]] = []
        self._interim_at: datetime | None = None  # when what is left was last journaled
        self._said: str | None = None  # a journal problem, shown on the strip
        self._turn: tuple[Any, ...] = ()
        # since when the tournament's clock is stopped (the director's pause, a break): the
        # action clock stops with it, and runs again from where it stood
        self._stopped_at: datetime | None = None
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.refresh)
        self._timer.start(TICK_MS)
        self.hide()

    @property
    def bank_journal(self) -> BankJournal | None:
        """Where the banks are journaled (None: nowhere; the banks live in memory)."""
        return self._bank_journal

    @bank_journal.setter
    def bank_journal(self, bj: BankJournal | None) -> None:
        self._bank_journal = bj
        if bj is not None:
            bj.loaded.connect(self._on_loaded)
            bj.failed.connect(self._on_failed)

    def banks_ready(self) -> bool:
        """The banks are read back (or not journaled): what the strip shows is the journal's."""
        return self._bank_journal is None or (
            self.snap is not None and self._loaded == self.snap.tournament_id
        )

    # -- what it is told ------------------------------------------------------------------------
    def set_snapshot(self, snap: Snapshot) -> None:
        """The tournament as its journal says; shown when it plays at ``table_id`` (or no table
        was named)."""
        if self.table_id is not None and self.table_id not in snap.tables:
            return
        self.snap = snap
        if self.timeouts is not None:
            self.timeouts.set_journaled(snap.sitting_out)
        bj = self._bank_journal
        tid = snap.tournament_id
        if bj is not None and tid not in (self._loaded, self._loading):
            self._loading = tid  # once: the banks the decisions before a restart left
            bj.request_load(tid)
        self.show()
        self.refresh()

    def _on_loaded(self, tournament_id: str, banks: TimeBanks) -> None:
        if self.snap is None or tournament_id != self.snap.tournament_id:
            return
        self._loaded, self._loading, self._said = tournament_id, None, None
        read = banks
        for outcome, hand in self._early:  # counted again from the bank read back
            p, used = outcome.player, outcome.bank_ms_used
            start = read.left(p) if p in read.banks else outcome.bank_ms_left + used
            fixed = dataclasses.replace(outcome, bank_ms_left=max(start - used, 0))
            read = read.settle(fixed)
            self._submit(fixed, hand)
        self._early = []
        self.banks = TimeBanks({**self.banks.banks, **read.banks})
        d = self.decision
        if d is not None and d.player in read.banks:  # begun on a full bank: the one read back
            ms = read.left(d.player)
            self.decision = dataclasses.replace(d, bank_ms=ms, bank_open=d.bank_open and ms > 0)
        self.refresh()

    def _on_failed(self, kind: str, detail: str) -> None:
        if kind == "load":
            self._loading = None  # asked again with the next snapshot
            self._said = trf("Time banks not read back: %1", detail)
        else:
            self._said = trf("Time bank not journaled: %1", detail)
        self.refresh()

    def on_turn(self, turn: tuple[Any, ...], player: str | None) -> None:
        """The action is at ``player`` (None: nobody); ``turn`` identifies the decision (hand,
        seat, street): a new one starts the action clock, the old one's bank is settled."""
        if turn == self._turn:
            return
        now = self.action_now()
        if self.decision is not None:
            outcome = self.decision.finish(now)
            self.banks = self.banks.settle(outcome)
            self.decision = None
            if outcome.bank_ms_used > 0:
                self._journal(outcome)
        self._turn = turn
        self._interim_at = None
        if player is None or self.snap is None:
            self.refresh()
            return
        s = self.snap.structure
        if player not in self.banks.banks:
            self.banks = self.banks.with_left(player, s.time_bank_seconds * 1000)
        level = self.board.level.number if self.board else self.snap.clock.level
        self.decision = DecisionClock.begin(s, level, player, now, self.banks)
        self.refresh()

    def on_view(self, view: Any) -> None:
        """A poker console's view: the seat to act while the betting runs."""
        snap = view.snap
        self._in_hand = snap.in_hand  # the notes are for between hands
        self._hand_level = snap.hand_level if snap.in_hand else 0
        self._names = tuple(s.name for s in snap.seats if s.name)
        actor = snap.actor if view.step == "betting" else None
        name = None
        if actor is not None:
            seat = next((s for s in snap.seats if s.seat == actor), None)
            name = (seat.name if seat is not None and seat.name else None) or trf("Seat %1", actor)
        self.on_turn((snap.hand_uid, actor, snap.street), name)

    def _journal(self, outcome: DecisionOutcome) -> None:
        """The decision's bank use into the journal (queued in order, on the journal's
        thread); before the banks are read back it waits for them."""
        hand = self._turn[0] if self._turn else None
        hand_uid = None if hand is None else str(hand)
        if not self.banks_ready():
            self._early.append((outcome, hand_uid))
            return
        self._submit(outcome, hand_uid)

    def _submit(self, outcome: DecisionOutcome, hand_uid: str | None) -> None:
        if self._bank_journal is None or self.snap is None:
            return
        self._bank_journal.submit(self.snap.tournament_id, self.table_id or "",
                                  self.snap.structure.game, outcome, hand_uid)  # fmt: skip

    def _journal_interim(self, now: datetime) -> None:
        """While the bank is drawn: what is left, every :data:`INTERIM_SECONDS` (a crash
        mid-decision then loses at most that much of it)."""
        d = self.decision
        if d is None or self._bank_journal is None or not self.banks_ready():
            return
        st = d.status(now)
        if not st.drawing_bank:
            return
        if self._interim_at is not None and now - self._interim_at < timedelta(
            seconds=INTERIM_SECONDS
        ):
            return
        self._interim_at = now
        used = d.bank_ms - st.bank_ms_left
        t = int((now - d.started_at) / timedelta(milliseconds=1))
        self._journal(DecisionOutcome(d.player, t, used, st.bank_ms_left, False))

    def action_now(self) -> datetime:
        """The action clock's moment: now, or while the tournament's clock is stopped (pause,
        break) the moment it stopped (no action clock runs then)."""
        t = self._stopped_at
        if t is None:
            return self.now()
        d = self.decision
        return max(t, d.started_at) if d is not None else t

    def _hold(self, now: datetime, since: datetime | None) -> None:
        """The action clock stops when the tournament's does (``since``: the moment it
        stopped, None: it runs) and runs again from where it stood: the decision's start is
        moved on by the time it was stopped."""
        if since is not None and self._stopped_at is None:
            self._stopped_at = min(since, now)
        elif since is None and self._stopped_at is not None:
            d = self.decision
            held = self.action_now()  # where the decision's clock stood (begun during it: 0)
            gap = max(now - self._stopped_at, timedelta(0))
            self._stopped_at = None
            if d is not None:
                self.decision = dataclasses.replace(d, started_at=d.started_at + (now - held))
            if self._interim_at is not None:
                self._interim_at += gap

    def _stopped_since(self, b: Board, now: datetime) -> datetime | None:
        """Since when the tournament's clock is stopped (None: it runs): the pause's moment,
        or the break's start (its elapsed time back from now)."""
        snap = self.snap
        if snap is None:
            return None
        if b.paused or b.finished:
            return snap.clock.as_of or now
        if b.on_break:
            brk = snap.structure.break_after(b.level.number)
            total = brk.minutes * 60_000 if brk is not None else 0
            return now - timedelta(milliseconds=max(total - (b.break_ms_left or 0), 0))
        return None

    def open_bank(self) -> None:
        """The player asks for the time bank (``on_request``); refused: said on the strip."""
        if self.decision is None:
            return
        try:
            self.decision = self.decision.open_bank(self.action_now())
        except ClockError as e:
            set_text(self.action, trf("Refused: %1", str(e)))
            return
        self.refresh()

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Draw the level and the action clock at ``now()``."""
        if self.snap is None:
            return
        now = self.now()
        b = self.board = self.snap.board(now)
        self._hold(now, self._stopped_since(b, now))
        lv = b.level
        set_text(self.level, trf("Level %1", lv.number))
        amounts = f"{blinds(b.game, lv)} · {forced(b.game, lv)}"
        hl = self._hand_level
        if hl and (hl != lv.number or b.on_break):  # the level changed during the hand
            own = self.snap.structure.level(hl)
            amounts = trf("This hand: level %1, %2 · level %3 from the next hand", hl,
                          f"{blinds(b.game, own)} · {forced(b.game, own)}",
                          (b.next_level or lv).number if b.on_break else lv.number)  # fmt: skip
        set_text(self.amounts, amounts)
        if b.paused:
            left = tr("Clock paused")
        elif b.on_break:
            left = trf("Break: %1 left", countdown(b.break_ms_left or 0))
        elif b.level_ms_left is not None and last_minute(b):  # the end-of-level warning
            left = trf("Last minute of the level: %1", countdown(b.level_ms_left))
        elif b.level_ms_left is not None:
            left = trf("%1 left in the level", countdown(b.level_ms_left))
        elif b.hands_left is not None:
            left = trf("%1 hands left in the level", b.hands_left)
        else:
            left = tr("Last level")
        set_text(self.left, left)
        self._journal_interim(self.action_now())
        self._action(self.action_now())
        self._sit_outs()
        notes = table_notes(self.snap, self.table_id) if self.table_id else []
        notes = [] if self._in_hand else notes
        if self.notes.text() != "\n".join(notes):
            self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))

    def _sit_outs(self) -> None:
        """The table's own taps for a player in sit-out, and the dealer's *is back* button."""
        t = self.timeouts
        if t is None:
            return
        t.tick()
        here = [n for n in self._names if n in t.out]
        if here:
            self.back.setText(trf("%1 is back", here[0]))
            names = ", ".join(here)  # a variable: lupdate takes a literal 2nd argument as a comment
            self.back.setToolTip(trf("Sitting out: %1", names))
        self.back.setVisible(bool(here))

    def tap_back(self) -> None:
        """The first player in sit-out at this table is back (from the next hand)."""
        t = self.timeouts
        if t is None:
            return
        here = [n for n in self._names if n in t.out]
        if here:
            t.back(here[0])
        self.refresh()

    def journal_part(self, event: str, fields: dict[str, Any]) -> None:
        """A tournament record of this table (a sit-out, a return) into the journal, on the
        journal's thread (nowhere without a journal or before the tournament shows)."""
        if self._bank_journal is None or self.snap is None:
            return
        part = {"id": self.snap.tournament_id, "event": event, **fields}
        self._bank_journal.submit_part(self.snap.tournament_id, self.snap.structure.game, part)

    def _action(self, now: datetime) -> None:
        if self._said is not None:  # a journal problem stays shown until the dealer sees it
            set_text(self.action, self._said)
            self._kind("out")
            return
        d = self.decision
        if d is None and self.snap is not None:
            s = self.snap.structure
            set_text(self.action, trf("Action clock %1 s · time bank %2 s",
                                      s.level(self.snap.clock.level).action_seconds,
                                      s.time_bank_seconds))  # fmt: skip
            self._kind("idle")
            self.bank.hide()
            return
        if d is None:
            return
        st = d.status(now)
        if st.timed_out:
            set_text(self.action, trf("%1: time is up (check if possible, else fold)", d.player))
            self._kind("out")
            if self.timeouts is not None and self._timed_turn != self._turn:
                self._timed_turn = self._turn  # once: checked or folded, sat out
                self.timeouts.timed_out(d.player)
        elif st.drawing_bank:
            set_text(self.action, trf("%1: time bank %2", d.player, countdown(st.bank_ms_left)))
            self._kind("bank")
        else:
            set_text(
                self.action,
                trf(
                    "%1: %2 · time bank %3",
                    d.player,
                    countdown(st.action_ms_left),
                    countdown(st.bank_ms_left),
                ),
            )
            self._kind("")
        on_request = self.snap is not None and self.snap.structure.time_bank == "on_request"
        self.bank.setVisible(on_request and not d.bank_open and d.bank_ms > 0
                             and not st.timed_out)  # fmt: skip

    def _kind(self, kind: str) -> None:
        if self.action.property("kind") != kind:
            self.action.setProperty("kind", kind)
            self.action.style().unpolish(self.action)
            self.action.style().polish(self.action)

    def stop(self) -> None:
        """Stop the timer and the journal feed (idempotent)."""
        self._timer.stop()
        if self.feed is not None:
            self.feed.stop()
        if self._bank_journal is not None:
            self._bank_journal.close()


def place_strip(window: QMainWindow, strip: LevelStrip) -> None:
    """Over the felt, under the top bar: the first of the column left of the side panel (the
    felt gives up the height, the window keeps its size); else right under the top bar."""
    central = window.centralWidget()
    outer = central.layout() if central is not None else None
    if not isinstance(outer, QBoxLayout):
        return
    item = outer.itemAt(1)
    body = item.layout() if item is not None else None
    first = body.itemAt(0) if isinstance(body, QBoxLayout) else None
    left = first.layout() if first is not None else None
    if isinstance(left, QBoxLayout):
        left.insertWidget(0, strip)
    else:
        outer.insertWidget(1, strip)


def attach_level_strip(
    window: QMainWindow,
    presenter: Any,
    config: TableConfig,
    *,
    url: str | None = None,
    tournament_id: str | None = None,
    now: Callable[[], datetime] = utc_now,
) -> LevelStrip:
    """Put a :class:`LevelStrip` over ``window``'s felt, fed by the tournament's journal
    (``url``, default the table's) and by ``presenter``'s views; :meth:`LevelStrip.stop` at
    the console's close. Without a journal the strip stays hidden."""
    strip = LevelStrip(now=now)
    strip.table_id = config.table_id
    strip.timeouts = TimeOuts(presenter, strip.journal_part, config.table_id)
    place_strip(window, strip)
    presenter.subscribe(strip.on_view)
    journal = url or config.journal_url
    if journal:
        feed = JournalFeed(journal, tournament_id=tournament_id, table_id=config.table_id,
                           now=now)  # fmt: skip
        strip.bank_journal = BankJournal(journal)
        feed.snapshot.connect(strip.set_snapshot)
        strip.feed = feed
        feed.start()
    return strip
