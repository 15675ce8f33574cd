"""The console's main window: top bar, table, side panel, and the void alarm over them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QVBoxLayout, QWidget

from dealer_assist.config import TableConfig
from dealer_assist.games import get_game
from ui.console.presenter import ConsolePresenter
from ui.console.snapshot import TableSnapshot
from ui.console.texts import phase_name
from ui.console.view import ConsoleView
from ui.console.widgets.alarm import VoidAlarm
from ui.console.widgets.panel import SidePanel
from ui.console.widgets.table import TableArea
from ui.kit import theme
from ui.kit.bars import BarStack
from ui.kit.dealer_box import DealerControl, attach_to_top_bar
from ui.kit.tap_guard import TapGuard
from ui.kit.topbar import TopBar, local_now
from ui.kit.translate import tr

# From this size on the console uses its full sizes; below (e.g. 1280x800) its compact ones.
WIDE = 1700
TALL = 950


class ConsoleWindow(QMainWindow):
    """Draws every :class:`ConsoleView` the presenter publishes.

    Args:
        presenter: the view-model (the window subscribes to it).
        config: the table.
        lang: ``it`` or ``en`` (the void reason text comes from the core in that language).
        mirror: seat 1 on the right (see :mod:`ui.console.widgets.table`).
    """

    def __init__(
        self,
        presenter: ConsolePresenter,
        config: TableConfig,
        lang: str,
        *,
        mirror: bool = False,
        clock: Callable[[], datetime] = local_now,
    ) -> None:
        super().__init__()
        self.presenter = presenter
        self.setWindowTitle(tr("Dealer console") + f" — {config.table_id}")
        central = QWidget()
        central.setObjectName("central")
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.top = TopBar(clock=clock)
        outer.addWidget(self.top)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        # the bars take their height from the table, which adapts, not from the side panel,
        # which is as tall as a small screen allows
        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        self.bars = BarStack(presenter)
        left.addWidget(self.bars)
        self.not_ready, self.notice, self.storage = (
            self.bars.not_ready,
            self.bars.notice,
            self.bars.storage,
        )
        rows = presenter.book.game.box_rows
        self.table = TableArea(config.seats, rows, mirror=mirror)
        left.addWidget(self.table, 1)
        body.addLayout(left, 1)
        self.side = SidePanel(presenter)
        body.addWidget(self.side)
        outer.addLayout(body, 1)
        # the window is the screen's size: what it holds must fit it (the layout tests check);
        # a resize from the full sizes to 1280x800 was held at the full layout's height
        central.setMinimumSize(1, 1)
        self.setCentralWidget(central)
        self.alarm = VoidAlarm(presenter, lang, central)
        # the dealer on the box: the top bar says who, a button in the bottom left corner changes it
        self.dealer = DealerControl(presenter, banked_between, central, self.table, bottom=True)
        attach_to_top_bar(self.top, self.top.hand, self.dealer.status)
        # a tap counts only on a decision or the big button that stood still (double taps)
        self.guard = TapGuard(presenter.steady_hold, presenter.clock, self)
        self.guard.watch(self.side.big)
        for tile in self.table.tiles.values():
            tile.guard = self.guard
            self.guard.watch(tile.change)
            tile.tapped.connect(presenter.tap_seat)
            tile.box_tapped.connect(presenter.tap_box)
            tile.decided.connect(presenter.decide)
            tile.undone.connect(presenter.undo_or_correct)
        presenter.subscribe(self.show_view)
        self._beat = QTimer(self)
        self._beat.timeout.connect(self.top.refresh_device)
        self._beat.timeout.connect(presenter.expire)  # an armed void left alone disarms
        self._beat.start(1000)
        self._fit_side()
        # Full screen has no title bar: Ctrl+Q closes the console (no single key, so no accident).
        self._quit = QShortcut(QKeySequence("Ctrl+Q"), self)
        self._quit.activated.connect(self.close)
        self.show_view(presenter.view())

    def show_view(self, view: ConsoleView) -> None:
        """Draw ``view`` everywhere."""
        colors = theme.PHASE_COLORS.get(view.step.value, (theme.SLATE, theme.TEXT))
        banner = phase_name(view.step, view.street, view.game)
        table = f"{view.table_id} · {get_game(view.game).title}"
        self.top.show_status(banner, colors, table, view.hand_no, view.device)
        self.bars.show_view(view)
        self.table.show_view(view)
        self.side.show_view(view)
        self.alarm.show_view(view)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit_side()
        super().resizeEvent(event)
        central = self.centralWidget()
        if central is not None and self.alarm.isVisible():
            self.alarm.setGeometry(central.rect())

    def _fit_side(self) -> None:
        compact = self.width() < WIDE or self.height() < TALL
        # one width on every screen, the card keypads' too (five rank keys a row): a panel that
        # widened for a keypad squeezed the seats left under the dealer's next tap
        self.side.setFixedWidth(380 if compact else 460)
        self.side.set_compact(compact)
        self.top.set_compact(compact)
        self.bars.set_small(compact)


def banked_between(snap: TableSnapshot) -> bool:
    """A banked table is between hands: no hand yet, or the last one settled or void and its
    alarm acknowledged (bets open is a hand already opened: its dealer opened it)."""
    return snap.phase in (None, "settled", "void") and snap.void_reason is None
