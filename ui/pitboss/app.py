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
    QFormLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QTabWidget,
    QWidget,
)

from dealer_assist.pitboss.roles import Action, allowed
from ui.pitboss.floor_view import FloorScreen
from ui.pitboss.hand_view import HandScreen
from ui.pitboss.search_model import HandsModel
from ui.pitboss.search_view import SearchView
from ui.pitboss.service import Session
from ui.pitboss.stats_tab import stats_tab_for
from ui.pitboss.texts import tr
from ui.pitboss.worker import Jobs

REFRESH_MS = 15_000


class LoginDialog(QDialog):
    """Badge and PIN; the check runs on the worker; a refusal is said and the PIN cleared."""

    def __init__(self, session: Session, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.jobs = session, jobs
        self.setWindowTitle(self.tr("Pit boss — log in"))
        self.badge = QLineEdit()
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.message = QLabel()
        self.message.setStyleSheet("color: #a50e0e")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        form = QFormLayout(self)
        form.addRow(self.tr("Badge"), self.badge)
        form.addRow(self.tr("PIN"), self.pin)
        form.addRow(self.message)
        form.addRow(self.buttons)
        self.buttons.accepted.connect(self.try_login)
        self.buttons.rejected.connect(self.reject)

    def try_login(self) -> None:
        """Check badge and PIN on the worker; accept when they are right."""
        badge, pin = self.badge.text(), self.pin.text()
        self.buttons.setEnabled(False)
        self.jobs.submit(
            lambda: self.session.login(badge, pin), lambda _u: self.accept(), self._refused
        )

    def _refused(self, text: str) -> None:
        self.buttons.setEnabled(True)
        self.pin.clear()
        self.message.setText(
            self.tr("Badge or PIN not recognised") if "recognised" in text else text
        )


class PitBossWindow(QMainWindow):
    """The window over ``session`` (logged in before it is shown: see :func:`run`)."""

    def __init__(self, session: Session, jobs: Jobs) -> None:
        super().__init__()
        self.session, self.jobs = session, jobs
        self.tabs = QTabWidget()
        self.floor = FloorScreen()
        self.model = HandsModel(jobs, session.search)
        self.search = SearchView(self.model)
        self.hand = HandScreen()
        self.tabs.addTab(self.floor, self.tr("Floor and alerts"))
        self.tabs.addTab(self.search, self.tr("Hand search"))
        self.tabs.addTab(self.hand, self.tr("Hand"))
        self.tabs.addTab(stats_tab_for(session.source), self.tr("Statistics"))
        self.setCentralWidget(self.tabs)
        self.floor.refresh_asked.connect(self.refresh_floor)
        self.floor.acknowledge_asked.connect(self.acknowledge)
        self.search.open_hand.connect(self.open_hand)
        self.hand.reveal_asked.connect(self.reveal)
        self.hand.recompute_asked.connect(self.recompute)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh_floor)
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
        self.statusBar().showMessage(self.windowTitle())
        self.refresh_floor()
        self.search.run()
        self.timer.start(REFRESH_MS)

    def _run(self, fn: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.jobs.submit(fn, done, self._error)

    def _error(self, text: str) -> None:
        self.statusBar().showMessage(text)

    def refresh_floor(self) -> None:
        """Read the floor view again."""
        self._run(self.session.snapshot, self.floor.show_snapshot)

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

    def closeEvent(self, event: Any) -> None:
        """Stop the refresh; the worker is stopped by whoever made it."""
        self.timer.stop()
        super().closeEvent(event)
