"""The pit-boss main window: login first, then the floor, the hand search and the hand screen as
tabs of one QTabWidget (other screens, e.g. statistics, are further tabs). Every database call
goes through :class:`~ui.pitboss.worker.Jobs` (off the GUI thread); errors are said in the
status bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QTabWidget,
    QWidget,
)

from dealer_assist.audit.stats import ShiftPlan
from dealer_assist.pitboss.roles import Action, allowed
from dealer_assist.pitboss.users import MIN_PIN
from ui.pitboss.floor_view import FloorScreen
from ui.pitboss.hand_view import HandScreen
from ui.pitboss.search_model import HandsModel
from ui.pitboss.search_view import SearchView
from ui.pitboss.service import Session
from ui.pitboss.stats_tab import stats_tab_for
from ui.pitboss.texts import tr
from ui.pitboss.worker import Jobs

REFRESH_MS = 15_000
SIGNOFF_REFRESH_MS = 3_000  # a table's payout walk waits on them: read them more often


class LoginDialog(QDialog):
    """Badge and PIN; the check runs on the worker; a refusal is said and the PIN cleared. A
    PIN shorter than the minimum (set before it rose) is accepted once, then the dialog asks for
    a new one (twice) before it lets the user in."""

    def __init__(self, session: Session, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.jobs = session, jobs
        self.setWindowTitle(self.tr("Pit boss — log in"))
        self.badge = QLineEdit()
        self.pin = QLineEdit()
        self.new_pin = QLineEdit()
        self.new_pin_again = QLineEdit()
        for field in (self.pin, self.new_pin, self.new_pin_again):
            field.setEchoMode(QLineEdit.EchoMode.Password)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a50e0e")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.form = QFormLayout(self)
        self.form.addRow(self.tr("Badge"), self.badge)
        self.form.addRow(self.tr("PIN"), self.pin)
        self.form.addRow(self.tr("New PIN"), self.new_pin)
        self.form.addRow(self.tr("New PIN again"), self.new_pin_again)
        self.form.addRow(self.message)
        self.form.addRow(self.buttons)
        self._show_change(False)
        self.buttons.accepted.connect(self.try_login)
        self.buttons.rejected.connect(self.reject)

    def _show_change(self, on: bool) -> None:
        for field in (self.new_pin, self.new_pin_again):
            self.form.setRowVisible(field, on)
        self.badge.setReadOnly(on)
        self.pin.setReadOnly(on)

    @property
    def changing(self) -> bool:
        """Whether the dialog asks for a new PIN (the user is logged in with a short one)."""
        return self.session.user is not None and self.session.must_change_pin

    def try_login(self) -> None:
        """Check badge and PIN on the worker; accept when they are right (or, asked for a new
        PIN, store it first)."""
        if self.changing:
            self._change()
            return
        badge, pin = self.badge.text(), self.pin.text()
        self.buttons.setEnabled(False)
        self.jobs.submit(lambda: self.session.login(badge, pin), self._logged_in, self._refused)

    def _logged_in(self, _user: object) -> None:
        self.buttons.setEnabled(True)
        if not self.session.must_change_pin:
            self.accept()
            return
        self._show_change(True)
        self.message.setText(
            self.tr(
                "Your PIN is shorter than %1 digits: choose a new PIN of at least %1 digits"
            ).replace("%1", str(MIN_PIN))
        )
        self.new_pin.setFocus()

    def _change(self) -> None:
        old, new = self.pin.text(), self.new_pin.text()
        if new != self.new_pin_again.text():
            self.message.setText(self.tr("The two new PINs differ: type them again"))
            self.new_pin.clear()
            self.new_pin_again.clear()
            return
        self.buttons.setEnabled(False)
        self.jobs.submit(
            lambda: self.session.change_pin(old, new),
            lambda _r: self.accept(),
            self._change_refused,
        )

    def _change_refused(self, text: str) -> None:
        self.buttons.setEnabled(True)
        self.new_pin.clear()
        self.new_pin_again.clear()
        self.message.setText(text)

    def reject(self) -> None:
        """Cancel; a user logged in only to change a short PIN is logged out."""
        if self.changing:
            self.jobs.submit(self.session.logout, lambda _r: None, lambda _t: None)
        super().reject()

    def _refused(self, text: str) -> None:
        self.buttons.setEnabled(True)
        self.pin.clear()
        self.message.setText(
            self.tr("Badge or PIN not recognised") if "recognised" in text else text
        )


class PitBossWindow(QMainWindow):
    """The window over ``session`` (logged in before it is shown: see :func:`run`)."""

    def __init__(self, session: Session, jobs: Jobs, shifts: ShiftPlan | None = None) -> None:
        super().__init__()
        self.session, self.jobs = session, jobs
        self.tabs = QTabWidget()
        self.floor = FloorScreen()
        self.model = HandsModel(jobs, session.search)
        self.search = SearchView(self.model, shifts)  # the shift picker's plan (--shifts)
        self.hand = HandScreen()
        self.tabs.addTab(self.floor, self.tr("Floor and alerts"))
        self.tabs.addTab(self.search, self.tr("Hand search"))
        self.tabs.addTab(self.hand, self.tr("Hand"))
        self.stats = stats_tab_for(session.source)
        self.tabs.addTab(self.stats, self.tr("Statistics"))
        self.setCentralWidget(self.tabs)
        self.language = "en"  # the exported report's (run() sets the window's)
        self.export_menu = self.menuBar().addMenu(self.tr("Export"))
        for text, what, suffix in (
            (self.tr("Search results as CSV…"), "search", ".csv"),
            (self.tr("Search results as PDF…"), "search", ".pdf"),
            (self.tr("Shift report as CSV…"), "report", ".csv"),
            (self.tr("Shift report as PDF…"), "report", ".pdf"),
        ):
            action = self.export_menu.addAction(text)
            action.triggered.connect(lambda _c=False, w=what, x=suffix: self._ask_export(w, x))
        self.floor.refresh_asked.connect(self.refresh_floor)
        self.floor.acknowledge_asked.connect(self.acknowledge)
        self.floor.signoffs.confirm_asked.connect(self.confirm_signoff)
        self.search.open_hand.connect(self.open_hand)
        self.hand.reveal_asked.connect(self.reveal)
        self.hand.recompute_asked.connect(self.recompute)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh_floor)
        self.signoff_timer = QTimer(self)
        self.signoff_timer.timeout.connect(self.refresh_signoffs)
        self._signoffs_asked = False  # one read in flight at a time
        self.resize(1280, 800)

    def start(self) -> None:
        """After the login: the user in the title, the role's buttons, the first data."""
        user = self.session.user
        if user is None:
            return
        self.setWindowTitle(
            self.tr("Pit boss — %1 (%2)")
            .replace("%1", user.badge)
            .replace("%2", tr(user.role.value))
        )
        self.floor.may_acknowledge = allowed(user.role, Action.ACKNOWLEDGE)
        self.export_menu.setEnabled(allowed(user.role, Action.EXPORT))
        self.floor.signoffs.role = user.role
        self.floor.signoffs.setVisible(self.session.signoffs is not None)  # a floor's only
        said = self.windowTitle()
        index = getattr(self.session.source, "index", None)  # one journal: verified at open
        if index is not None:
            said += " · " + (
                self.tr("journal verified: %1 entries, %2 signatures")
                .replace("%1", str(index.position))
                .replace("%2", str(index.signatures))
            )
        self.statusBar().showMessage(said)
        self.refresh_floor()
        self.search.run()
        self.timer.start(REFRESH_MS)
        if self.session.signoffs is not None:
            self.signoff_timer.start(SIGNOFF_REFRESH_MS)

    def _run(self, fn: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.jobs.submit(fn, done, self._error)

    def _error(self, text: str) -> None:
        self.statusBar().showMessage(text)

    def refresh_floor(self) -> None:
        """Read the floor view again (and the sign-offs waiting)."""
        self._run(self.session.snapshot, self.floor.show_snapshot)
        role = self.session.role
        if role is not None and allowed(role, Action.VIEW_ACCESS_LOG):
            self._run(self.session.locked_badges, self.floor.show_locks)
        self.refresh_signoffs()

    def refresh_signoffs(self) -> None:
        """Read the sign-offs waiting again (a floor's; skipped while a read is in flight)."""
        if self.session.signoffs is None or self._signoffs_asked:
            return
        self._signoffs_asked = True

        def shown(rows: Any) -> None:
            self._signoffs_asked = False
            self.floor.signoffs.show_rows(rows)

        def failed(text: str) -> None:
            self._signoffs_asked = False
            self._error(text)

        self.jobs.submit(self.session.waiting_signoffs, shown, failed)

    def confirm_signoff(self, row: Any, pin: str) -> None:
        """Confirm a waiting sign-off with the user's PIN (checked, recorded and logged by the
        session on the worker); the answer on the panel, then the list again."""
        panel = self.floor.signoffs

        def done(result: Any) -> None:
            req = result.row.request
            where = panel.where(req)
            if result.won:
                panel.say(
                    self.tr("Sign-off confirmed: %1, the table pays").replace("%1", where),
                    refused=False,
                )
            else:
                panel.say(
                    self.tr("Already signed off at the table: %1, nothing changed").replace(
                        "%1", where
                    ),
                    refused=True,
                )
            self.refresh_signoffs()

        def refused(text: str) -> None:
            if "recognised" in text:
                text = self.tr("PIN not recognised: nothing confirmed")
            elif "may not" in text:
                text = self.tr("Your role may not confirm this sign-off: nothing confirmed")
            panel.say(text, refused=True)
            self.refresh_signoffs()

        self.jobs.submit(lambda: self.session.confirm_signoff(row, pin), done, refused)

    def acknowledge(self, key: str) -> None:
        """Acknowledge alert ``key``, then refresh."""
        self._run(lambda: self.session.acknowledge(key), lambda _a: self.refresh_floor())

    def open_hand(self, table_id: str, position: int) -> None:
        """Open a hand (the view logged by the session first) on the hand tab."""

        def shown(view: Any) -> None:
            self.hand.show_hand(view)
            self.tabs.setCurrentWidget(self.hand)

        self._run(lambda: self.session.open_hand(table_id, position), shown)

    def reveal(self, table_id: str, position: int) -> None:
        """Show the hole cards once the session has checked the role and logged the view."""
        self._run(
            lambda: self.session.reveal_hole_cards(table_id, position),
            lambda _r: self.hand.show_holes(),
        )

    def recompute(self, table_id: str, position: int) -> None:
        """The dispute recompute beside the record."""
        self._run(lambda: self.session.recompute(table_id, position), self.hand.show_recompute)

    def _ask_export(self, what: str, suffix: str) -> None:
        name = f"{'hands' if what == 'search' else 'shift_report'}{suffix}"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export"), name, f"*{suffix}")
        if path:
            (self.export_search if what == "search" else self.export_report)(path)

    def export_search(self, path: str) -> None:
        """Write every hand of the search on screen to ``path`` (.csv or .pdf, 0600) on the
        worker (role checked and logged by the session); the result in the status bar."""
        where, sort = self.model.query()

        def done(result: Any) -> None:
            out, n = result
            self.statusBar().showMessage(
                self.tr("Exported %1 hands to %2").replace("%1", str(n)).replace("%2", str(out))
            )

        self._run(lambda: self.session.export_search(where, sort, path), done)

    def export_report(self, path: str) -> None:
        """Write the shift report over the Statistics tab's range to ``path`` (.csv or .pdf,
        0600) on the worker; the result in the status bar."""
        start, end = self.stats.range()
        lang = self.language

        def done(out: Any) -> None:
            self.statusBar().showMessage(
                self.tr("Shift report written to %1").replace("%1", str(out))
            )

        self._run(lambda: self.session.export_report(start, end, path, lang), done)

    def closeEvent(self, event: Any) -> None:
        """Stop the refresh; the worker is stopped by whoever made it."""
        self.timer.stop()
        self.signoff_timer.stop()
        super().closeEvent(event)
