"""One hand: its detail (cards with their source, bets, decisions in order, results, device
events, void reason), its replay step by step (Prev/Next: the state after each operation) and
the dispute recompute beside the recorded settlement, every difference marked. Hole cards (and
the dealer's and burned cards) show as hidden until the role allows and the view is logged."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.games import GAME_CODES, get_game
from dealer_assist.pitboss.corrections import change_text, changes_of
from dealer_assist.pitboss.recompute import Recompute
from dealer_assist.pitboss.replay import ReplayStep
from ui.money import fmt_money
from ui.pitboss.service import HandView
from ui.pitboss.texts import ALERT_STYLE, alert_sentence, tr

#: The record's fields that are amounts (minor units): shown with their unit.
MONEY_FIELDS = frozenset(
    {"net", "amount", "stake", "paid", "won", "to", "wagered", "payout", "stack", "bet"}
).union(*(get_game(code).required_boxes + get_game(code).optional_boxes for code in GAME_CODES))
HIDDEN = "▮▮"
MARK = QColor("#f4c7c3")


class HandScreen(QWidget):
    """The hand screen; ``reveal_asked``/``recompute_asked`` ask the window (which runs them on
    the worker and calls :meth:`show_holes` / :meth:`show_recompute`)."""

    reveal_asked = Signal(str, int)
    recompute_asked = Signal(str, int)

    def __init__(self) -> None:
        super().__init__()
        self.view: HandView | None = None
        self.holes_visible = False
        self.step = 0
        self.title = QLabel(self.tr("No hand open: search and open one"))
        self.title.setStyleSheet("font-weight: bold; font-size: 14pt")
        self.alert = QLabel()  # an open integrity alert covering the hand: said above all else
        self.alert.setWordWrap(True)
        self.alert.setStyleSheet(ALERT_STYLE)
        self.alert.setVisible(False)
        self.reveal = QPushButton(self.tr("Show hole cards"))
        self.recompute = QPushButton(self.tr("Recompute with today's rules"))
        self.cards = QTableWidget(0, 4)
        self.cards.setHorizontalHeaderLabels(
            [self.tr("Position"), self.tr("Card"), self.tr("Source"), self.tr("Device")]
        )
        self.facts = QPlainTextEdit()
        self.facts.setReadOnly(True)
        self.prev = QPushButton(self.tr("◀ Prev"))
        self.next = QPushButton(self.tr("Next ▶"))
        self.step_label = QLabel()
        self.step_text = QPlainTextEdit()
        self.step_text.setReadOnly(True)
        self.diffs = QTableWidget(0, 3)
        self.diffs.setHorizontalHeaderLabels(
            [self.tr("Field"), self.tr("Recorded and paid"), self.tr("Recomputed today")]
        )
        self.diffs.horizontalHeader().setStretchLastSection(True)
        self.verdict = QLabel()
        self.notes = QListWidget()
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.reveal)
        top.addWidget(self.recompute)
        left = QSplitter()
        left.addWidget(self.cards)
        left.addWidget(self.facts)
        steps = QWidget()
        sl = QVBoxLayout(steps)
        nav = QHBoxLayout()
        for w in (self.prev, self.step_label, self.next):
            nav.addWidget(w)
        sl.addLayout(nav)
        sl.addWidget(self.step_text)
        rec = QWidget()
        rl = QVBoxLayout(rec)
        rl.addWidget(self.verdict)
        rl.addWidget(self.diffs)
        bottom = QSplitter()
        bottom.addWidget(steps)
        bottom.addWidget(rec)
        box = QVBoxLayout(self)
        box.addWidget(self.alert)
        box.addLayout(top)
        box.addWidget(left, 1)
        box.addWidget(bottom, 1)
        self.prev.clicked.connect(lambda: self.go(self.step - 1))
        self.next.clicked.connect(lambda: self.go(self.step + 1))
        self.reveal.clicked.connect(self._ask_reveal)
        self.recompute.clicked.connect(self._ask_recompute)
        self._enable()

    def _key(self) -> tuple[str, int] | None:
        if self.view is None:
            return None
        return self.view.detail.table_id, self.view.detail.position

    def _ask(self, signal: Callable[[str, int], None]) -> None:
        key = self._key()
        if key is not None:
            signal(*key)

    def _ask_reveal(self) -> None:
        self._ask(self.reveal_asked.emit)

    def _ask_recompute(self) -> None:
        self._ask(self.recompute_asked.emit)

    def _enable(self) -> None:
        have = self.view is not None
        n = len(self.view.replay.steps) if self.view else 0
        self.reveal.setEnabled(
            have and bool(self.view and self.view.holes_allowed) and not self.holes_visible
        )
        self.recompute.setEnabled(have)
        self.prev.setEnabled(have and self.step > 0)
        self.next.setEnabled(have and self.step < n - 1)

    def show_hand(self, view: HandView) -> None:
        """Show a hand just opened (hole cards hidden, the replay at its first step)."""
        self.view, self.holes_visible = view, False
        d = view.detail
        status = tr(d.status) + (f" — {d.void_reason}" if d.void_reason else "")
        self.title.setText(
            self.tr("%1 hand %2 (%3): %4")
            .replace("%1", d.table_id)
            .replace("%2", str(d.position))
            .replace("%3", d.game)
            .replace("%4", status)
        )
        self.diffs.setRowCount(0)
        self.verdict.setText("")
        self.alert.setText(alert_sentence(view.alerts))
        self.alert.setVisible(bool(view.alerts))
        self._fill()
        self.go(0)

    def show_holes(self) -> None:
        """Show the hole cards (the window calls this once the view is logged)."""
        self.holes_visible = True
        self._fill()
        self.go(self.step)

    def _card(self, text: str, hidden: bool) -> str:
        return HIDDEN if hidden and not self.holes_visible else text

    def _fill(self) -> None:
        if self.view is None:
            return
        d = self.view.detail
        self.cards.setRowCount(len(d.cards))
        for i, c in enumerate(d.cards):
            for j, v in enumerate((c.position, self._card(c.card, c.hole), tr(c.source), c.device)):
                self.cards.setItem(i, j, QTableWidgetItem(v))
        parts = [
            (self.tr("Bets"), d.bets),
            (self.tr("Decisions in order"), d.decisions),
            (self.tr("Results"), d.results),
            (self.tr("Device events"), d.events),
        ]
        fixed = changes_of(self.view.replay)  # after the fact: who, authorised by whom, when
        if fixed:
            said = [change_text(c, fmt_money) for c in fixed]
            parts.insert(2, (self.tr("Corrections and undos"), tuple(said)))
        lines = [f"{d.started_at} → {d.ended_at}"]
        if d.void_reason:
            lines.append(self.tr("Void reason: %1").replace("%1", d.void_reason))
        for head, items in parts:
            lines += ["", head + ":", *(f"  {x}" for x in items)]
        self.facts.setPlainText("\n".join(lines))
        self._enable()

    def go(self, n: int) -> None:
        """Show replay step ``n`` (clamped)."""
        if self.view is None or not self.view.replay.steps:
            self.step_label.setText((self.view.replay.stopped or "") if self.view else "")
            self._enable()
            return
        steps = self.view.replay.steps
        self.step = max(0, min(n, len(steps) - 1))
        self.step_label.setText(
            self.tr("Step %1 of %2")
            .replace("%1", str(self.step + 1))
            .replace("%2", str(len(steps)))
        )
        self.step_text.setPlainText(self._step_text(steps[self.step]))
        self._enable()

    def _step_text(self, s: ReplayStep) -> str:
        board = " ".join(s.board) or "—"
        dealer = " ".join(self._card(c, True) for c in s.dealer) or "—"
        lines = [
            s.title,
            "",
            self.tr("Board: %1").replace("%1", board),
            self.tr("Dealer: %1").replace("%1", dealer),
        ]
        for seat in s.seats:
            up = seat.up + (False,) * (len(seat.hole) - len(seat.up))  # Stud's up cards: public
            hole = " ".join(self._card(c, not u) for c, u in zip(seat.hole, up, strict=True))
            hole = hole or "—"
            money = self.view.money if self.view else str
            stakes = ", ".join(f"{k} {money(v)}" for k, v in sorted(seat.stakes.items()))
            acts = "; ".join(seat.actions)
            lines.append(
                self.tr("Seat %1").replace("%1", str(seat.seat)) + f": {hole}  [{stakes}]  {acts}"
            )
        if s.result is not None:
            lines.append(self.tr("Result as folded: settled"))
        replay = self.view.replay if self.view else None
        if replay and replay.stopped and s is replay.steps[-1]:
            lines.append(self.tr("Replay stopped: %1").replace("%1", replay.stopped))
        return "\n".join(lines)

    def _value(self, path: str, value: object) -> str:
        """A difference's value: an amount (its path ends with a money field) in the hand's
        unit, anything else as it is."""
        field = path.rsplit(".", 1)[-1].split("[", 1)[0]
        if self.view and field in MONEY_FIELDS and type(value) is int:
            return self.view.money(value)
        return str(value)

    def show_recompute(self, result: Recompute) -> None:
        """Show the recompute: the verdict and each difference, marked."""
        if result.error:
            self.verdict.setText(result.error)
        elif result.agrees:
            self.verdict.setText(self.tr("The recompute agrees with what was recorded and paid"))
        else:
            text = self.tr("Differences between the record and the recompute: %1")
            self.verdict.setText(text.replace("%1", str(len(result.differences))))
        self.verdict.setStyleSheet("" if result.agrees else "color: #a50e0e; font-weight: bold")
        self.diffs.setRowCount(len(result.differences))
        for i, d in enumerate(result.differences):
            for j, v in enumerate(
                (d.path, self._value(d.path, d.recorded), self._value(d.path, d.recomputed))
            ):
                item = QTableWidgetItem(v)
                item.setBackground(QBrush(MARK))
                self.diffs.setItem(i, j, item)
        self.diffs.resizeColumnsToContents()
