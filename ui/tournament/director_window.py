"""The director's console (``dealer-assist tournament director``): registrations with the entry
fee, the seeded seat draw shown as a table and seat list, the clock started, paused and
resumed, rebuys, add-ons and a bust undone, each authorised by the operator named at the top.

Every step is the :class:`~ui.tournament.desk.DirectorDesk`'s, run on the console's own worker
thread (:class:`DeskWorker`: the journal is opened, written and read there, never on the GUI
thread); what comes back is a :class:`Outcome` as a Qt signal: the step's refusal shown as the
core's sentence (the EUR 250 cap: ``rebuy for Ada: ... EUR 250.00 a player``), or what was
done, and the tournament as the journal now says. Nothing is refused silently.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.errors import DealerAssistError
from dealer_assist.events import utc_now
from ui.kit import format as fmt
from ui.kit import theme
from ui.kit.labels import FitLabel, set_text
from ui.kit.translate import tr, trf
from ui.tournament.board import Snapshot, countdown
from ui.tournament.desk import DirectorDesk, Row
from ui.tournament.texts import CONFIRM, TAKEN_BACK, chips, level_amounts

REFRESH_MS = 2000  # the tables' hands read back this often
TICK_MS = 500
STYLE = f"""
#dcTitle {{ font-size: 30px; font-weight: bold; color: {theme.TEXT}; }}
#dcClock {{ font-size: 24px; color: {theme.GOLD}; font-weight: bold; }}
#dcLabel {{ font-size: 20px; color: {theme.MUTED}; }}
#dcField {{ font-size: 22px; min-height: 52px; padding: 0 10px; background: {theme.PANEL_2};
           color: {theme.TEXT}; border: 1px solid {theme.LINE}; border-radius: 6px; }}
#dcButton {{ font-size: 20px; min-height: 64px; padding: 0 16px; }}
#dcMessage {{ font-size: 21px; padding: 10px 14px; border-radius: 8px;
             background: {theme.PANEL_2}; color: {theme.TEXT}; }}
#dcMessage[kind="refused"] {{ background: {theme.RED_DARK}; color: #ffffff; }}
#dcMessage[kind="done"] {{ background: #1f4d33; color: #ffffff; }}
QTableWidget {{ font-size: 19px; background: {theme.PANEL}; color: {theme.TEXT};
                gridline-color: {theme.LINE}; selection-background-color: {theme.BLUE};
                selection-color: #ffffff; }}
QHeaderView::section {{ font-size: 18px; background: {theme.PANEL_2}; color: {theme.MUTED};
                       border: 0; border-right: 1px solid {theme.LINE}; padding: 4px 8px; }}
"""
STATUS = {
    "registered": QT_TRANSLATE_NOOP("", "Registered"),
    "playing": QT_TRANSLATE_NOOP("", "Playing"),
    "sitting_out": QT_TRANSLATE_NOOP("", "Sitting out"),
    "moving": QT_TRANSLATE_NOOP("", "Moving"),
    "out": QT_TRANSLATE_NOOP("", "Out"),
}

Step = Callable[[DirectorDesk], "tuple[str, tuple[object, ...]] | None"]
"""A desk step: what to say when it is done (a source text and its arguments), or None."""


@dataclass(frozen=True)
class Outcome:
    """What a desk step came back with: ``done`` (what happened, a source text and its
    arguments) or ``refused`` (the core's sentence), and the tournament after it."""

    done: tuple[str, tuple[object, ...]] | None
    refused: str | None
    snapshot: Snapshot | None
    rows: tuple[Row, ...]
    seats: tuple[tuple[int, int, str], ...]
    fee_cents: int


class DeskWorker(QObject):
    """Runs desk steps one at a time on its own thread; each answer is :attr:`outcome`."""

    outcome = Signal(object)

    def __init__(self, open_desk: Callable[[], DirectorDesk]) -> None:
        super().__init__()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="director-desk")
        self.desk: DirectorDesk | None = None
        self._open = open_desk
        self.busy = False

    def submit(self, step: Step) -> None:
        """Run ``step(desk)`` on the worker; it returns what to say, or raises a refusal."""
        self.busy = True
        self._pool.submit(self._run, step)

    def _run(self, step: Step) -> None:
        done, refused = None, None
        try:
            if self.desk is None:
                self.desk = self._open()
            done = step(self.desk)
        except DealerAssistError as e:
            refused = str(e)
        desk = self.desk
        snap = None
        if desk is not None and desk.state.structure is not None:
            snap = desk.snapshot()
        self.outcome.emit(Outcome(done, refused, snap, desk.rows() if desk else (),
                                  desk.seats() if desk else (),
                                  desk.structure.entry_fee_cents if desk else 0))  # fmt: skip

    def close(self) -> None:
        """Finish the step running and stop the thread."""
        self._pool.shutdown(wait=True)


def _button(text: str) -> QPushButton:
    b = QPushButton(text)
    b.setObjectName("dcButton")
    return b


class DirectorWindow(QMainWindow):
    """The director's console over ``worker`` (its desk opened on the worker's thread).

    Args:
        worker: the desk's worker. operator: the operator's name to start with (empty: the
            operator types it; every step needs it). now: the wall clock.
    """

    def __init__(self, worker: DeskWorker, *, operator: str = "",
                 now: Callable[[], datetime] = utc_now) -> None:  # fmt: skip
        super().__init__()
        self.worker = worker
        self.now = now
        self.last: Outcome | None = None
        self.setWindowTitle(tr("Director's console"))
        central = QWidget()
        central.setStyleSheet(STYLE)
        self.setCentralWidget(central)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(24, 16, 24, 16)
        outer.setSpacing(10)
        top = QHBoxLayout()
        self.title = FitLabel(tr("Director's console"), min_px=14)
        self.title.setObjectName("dcTitle")
        top.addWidget(self.title, 1)
        op = QLabel(tr("Operator"))
        op.setObjectName("dcLabel")
        top.addWidget(op)
        self.operator = QLineEdit(operator)
        self.operator.setObjectName("dcField")
        self.operator.setPlaceholderText(tr("name or badge"))
        self.operator.setFixedWidth(260)
        top.addWidget(self.operator)
        outer.addLayout(top)
        self.clock = FitLabel("", min_px=12)
        self.clock.setObjectName("dcClock")
        outer.addWidget(self.clock)
        reg = QHBoxLayout()
        self.name = QLineEdit()
        self.name.setObjectName("dcField")
        self.name.setPlaceholderText(tr("Player's name"))
        self.name.returnPressed.connect(self.register)
        reg.addWidget(self.name, 1)
        self.register_button = _button(tr("Register"))
        self.register_button.clicked.connect(self.register)
        reg.addWidget(self.register_button)
        self.fee = QLabel("")
        self.fee.setObjectName("dcLabel")
        reg.addWidget(self.fee)
        outer.addLayout(reg)
        body = QHBoxLayout()
        body.setSpacing(16)
        self.players = self._table(
            [
                tr("Player"),
                tr("Table"),
                tr("Seat"),
                tr("Chips"),
                tr("Paid"),
                tr("Rebuys"),
                tr("Add-on"),
                tr("Status"),
            ]
        )
        body.addWidget(self.players, 3)
        self.seat_list = self._table([tr("Table"), tr("Seat"), tr("Player")])
        body.addWidget(self.seat_list, 2)
        outer.addLayout(body, 1)
        grid = QGridLayout()
        grid.setSpacing(10)
        self.buttons: dict[str, QPushButton] = {}
        for i, (key, text, slot) in enumerate((
            ("draw", tr("Draw the seats"), self.draw), ("start", tr("Start the clock"), self.start),
            ("pause", tr("Pause the clock"), self.pause),
            ("resume", tr("Resume the clock"), self.resume),
            ("rebuy", tr("Rebuy"), self.rebuy), ("addon", tr("Add-on"), self.addon),
            ("undo", tr("Undo bust"), self.undo),
            ("undo_purchase", tr("Undo rebuy or add-on"), self.undo_purchase),
        )):  # fmt: skip
            b = self.buttons[key] = _button(text)
            b.clicked.connect(slot)
            grid.addWidget(b, i // 4, i % 4)
        outer.addLayout(grid)
        said = QHBoxLayout()
        self.message = QLabel(tr("Name the operator, then register the players."))
        self.message.setObjectName("dcMessage")
        self.message.setWordWrap(True)
        said.addWidget(self.message, 1)
        # a rebuy or add-on waits for the director's confirmation (nothing journaled before)
        self.pending: tuple[str, str, str] | None = None  # (kind, player, by)
        self._quoting = False
        self.confirm_button = _button(tr("Confirm"))
        self.confirm_button.clicked.connect(self.confirm)
        self.cancel_button = _button(tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        for b in (self.confirm_button, self.cancel_button):
            said.addWidget(b)
            b.hide()
        outer.addLayout(said)
        worker.outcome.connect(self.show_outcome)
        self._tick = QTimer(self)
        self._tick.timeout.connect(self.show_clock)
        self._refresh = QTimer(self)
        self._refresh.timeout.connect(self.refresh)
        self._quit = QShortcut(QKeySequence("Ctrl+Q"), self)
        self._quit.activated.connect(self.close)

    def _table(self, headers: list[str]) -> QTableWidget:
        t = QTableWidget(0, len(headers))
        t.setHorizontalHeaderLabels(headers)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.verticalHeader().hide()
        header = t.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        stretch = 2 if len(headers) == 3 else 0  # the player's name takes what is left
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        return t

    def start_timers(self) -> None:
        """Read the journal now, then refresh the clock line and the tables' hands."""
        self.refresh()
        self._tick.start(TICK_MS)
        self._refresh.start(REFRESH_MS)

    # -- the steps ------------------------------------------------------------------------------
    def _by(self) -> str | None:
        by = self.operator.text().strip()
        if not by:
            self._say(tr("Name the operator first: every step is journaled with who "
                         "authorised it."), "refused")  # fmt: skip
            self.operator.setFocus()
        return by or None

    def _selected(self) -> str | None:
        row = self.players.currentRow()
        item = self.players.item(row, 0) if row >= 0 else None
        if item is None:
            self._say(tr("Select a player in the list first."), "refused")
            return None
        return item.text()

    def _go(self, step: Step) -> None:
        if self.worker.busy:
            self._say(tr("Wait: the previous step is still being journaled."), "refused")
            return
        self._busy(True)
        self.worker.submit(step)

    def register(self) -> None:
        """Register the name typed, with the entry fee."""
        by, name = self._by(), self.name.text().strip()
        if by is None:
            return
        if not name:
            self._say(tr("Type the player's name first."), "refused")
            return

        def step(d: DirectorDesk) -> tuple[str, tuple[object, ...]]:
            d.register(name, by=by)
            return str(QT_TRANSLATE_NOOP("", "%1 registered: entry fee %2 (authorised by %3)")), (
                name,
                fmt.money(d.structure.entry_fee_cents),
                by,
            )

        self.name.clear()
        self._go(step)

    def _do(self, act: Callable[[DirectorDesk], None], text: object, *args: object) -> None:
        def step(d: DirectorDesk) -> tuple[str, tuple[object, ...]]:
            act(d)
            return str(text), args

        self._go(step)

    def draw(self) -> None:
        """The seeded seat draw."""
        if (by := self._by()) is not None:
            self._do(
                lambda d: d.draw(by=by),
                QT_TRANSLATE_NOOP("", "Seats drawn from the tournament's seed"),
            )

    def start(self) -> None:
        """Start the tournament clock."""
        if (by := self._by()) is not None:
            self._do(lambda d: d.start(by=by), QT_TRANSLATE_NOOP("", "The clock is running"))

    def pause(self) -> None:
        """Pause the clock."""
        if (by := self._by()) is not None:
            self._do(lambda d: d.pause(by=by), QT_TRANSLATE_NOOP("", "Clock paused by %1"), by)

    def resume(self) -> None:
        """Resume the clock."""
        if (by := self._by()) is not None:
            self._do(lambda d: d.resume(by=by), QT_TRANSLATE_NOOP("", "Clock resumed by %1"), by)

    def rebuy(self) -> None:
        """A rebuy for the selected player: quoted, then confirmed (:meth:`confirm`)."""
        self._quote("rebuy")

    def addon(self) -> None:
        """The add-on for the selected player: quoted, then confirmed (:meth:`confirm`)."""
        self._quote("addon")

    def _quote(self, kind: str) -> None:
        """Ask the core what the purchase would be (its fee and chips, or its refusal); the
        director confirms it or cancels it. Nothing is journaled before the confirmation."""
        by, p = self._by(), self._selected()
        if by is None or p is None:
            return
        self.pending, self._quoting = (kind, p, by), True

        def step(d: DirectorDesk) -> tuple[str, tuple[object, ...]]:
            q = d.quote(p, kind)
            text = CONFIRM[kind]
            return str(text), (p, fmt.money(q.amount_cents), chips(q.chips))

        self._go(step)

    def confirm(self) -> None:
        """The director confirms the purchase quoted: journaled now."""
        if self.pending is None:
            return
        kind, p, by = self.pending
        self._confirming(None)
        if kind == "rebuy":
            self._do(lambda d: d.rebuy(p, by=by),
                     QT_TRANSLATE_NOOP("", "Rebuy for %1 (authorised by %2)"), p, by)  # fmt: skip
        else:
            self._do(lambda d: d.addon(p, by=by),
                     QT_TRANSLATE_NOOP("", "Add-on for %1 (authorised by %2)"), p, by)  # fmt: skip

    def cancel(self) -> None:
        """The purchase quoted is not made (nothing was journaled)."""
        if self.pending is not None:
            self._say(trf("Cancelled: nothing sold to %1", self.pending[1]), "")
        self._confirming(None)

    def _confirming(self, pending: tuple[str, str, str] | None) -> None:
        self.pending = pending
        for b in (self.confirm_button, self.cancel_button):
            b.setVisible(pending is not None)

    def undo_purchase(self) -> None:
        """Take back the selected player's last rebuy or add-on (before its chips are
        played)."""
        by, p = self._by(), self._selected()
        if by is None or p is None:
            return

        def step(d: DirectorDesk) -> tuple[str, tuple[object, ...]]:
            q = d.undo_purchase(p, by=by)
            return str(TAKEN_BACK[q.kind]), (p, fmt.money(q.amount_cents), chips(q.chips), by)

        self._go(step)

    def undo(self) -> None:
        """Take back the selected player's bust."""
        by, p = self._by(), self._selected()
        if by is not None and p is not None:
            self._do(
                lambda d: d.undo(p, by=by),
                QT_TRANSLATE_NOOP("", "Bust of %1 undone (authorised by %2)"),
                p,
                by,
            )

    def refresh(self) -> None:
        """Read back what the tables journaled (nothing said)."""
        if not self.worker.busy:
            self._busy(True)
            self.worker.submit(lambda d: d.refresh())

    # -- drawing --------------------------------------------------------------------------------
    def show_outcome(self, out: Outcome) -> None:
        """Draw a step's outcome: the refusal or what was done, then the tournament."""
        self.worker.busy = False
        self._busy(False)
        self.last = out
        if self._quoting:  # a purchase quoted: confirmed or cancelled by the director
            self._quoting = False
            self._confirming(self.pending if out.refused is None else None)
        if out.refused is not None:
            self._say(trf("Refused: %1", out.refused), "refused")
        elif out.done is not None:
            self._say(trf(out.done[0], *out.done[1]), "done")
        if out.snapshot is not None:
            title = tr("Director's console")
            set_text(self.title, f"{title} — {out.snapshot.structure.name}")
        set_text(self.fee, trf("Entry fee %1", fmt.money(out.fee_cents)) if out.fee_cents else "")
        self._fill(self.players, [
            (r.player, str(r.table or ""), str(r.seat or ""), chips(r.chips),
             fmt.money(r.paid_cents), str(r.rebuys), tr("yes") if r.addon else "",
             tr(STATUS.get(r.status, r.status))) for r in out.rows])  # fmt: skip
        self._fill(self.seat_list, [(str(t), str(s), p) for t, s, p in out.seats])
        self.show_clock()

    def _fill(self, table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
        keep = table.currentRow()
        table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = table.item(i, j)
                if item is None:
                    item = QTableWidgetItem()
                    table.setItem(i, j, item)
                if item.text() != text:
                    item.setText(text)
                align = Qt.AlignmentFlag.AlignVCenter
                align |= Qt.AlignmentFlag.AlignRight if j in (3, 4) and table is self.players \
                    else Qt.AlignmentFlag.AlignLeft  # fmt: skip
                item.setTextAlignment(align)
        if 0 <= keep < len(rows):
            table.selectRow(keep)

    def show_clock(self) -> None:
        """The clock line: level, its amounts, the time left (or the break, the pause)."""
        snap = self.last.snapshot if self.last else None
        if snap is None:
            set_text(self.clock, "")
            return
        b = snap.board(self.now())
        amounts = level_amounts(b.game, b.level)
        if not b.started:
            text = trf("Level %1 · %2 · the clock has not started", b.level.number, amounts)
        elif b.on_break:
            text = trf("Break · %1 left", countdown(b.break_ms_left or 0))
        else:
            left = countdown(b.level_ms_left) if b.level_ms_left is not None else "—"
            text = trf("Level %1 · %2 · %3 left", b.level.number, amounts, left)
            if b.paused:
                text = trf("%1 · PAUSED", text)
        set_text(self.clock, f"{text} · {trf('%1 of %2', b.players_left, b.entrants)}")
        self.buttons["pause"].setVisible(not b.paused)
        self.buttons["resume"].setVisible(b.paused)

    def _say(self, text: str, kind: str) -> None:
        self.message.setText(text)
        if self.message.property("kind") != kind:
            self.message.setProperty("kind", kind)
            self.message.style().unpolish(self.message)
            self.message.style().polish(self.message)

    def _busy(self, busy: bool) -> None:
        for b in (*self.buttons.values(), self.register_button, self.confirm_button,
                  self.cancel_button):  # fmt: skip
            b.setEnabled(not busy)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._tick.stop()
        self._refresh.stop()
        super().closeEvent(event)
