"""The poker console's main window: the shared top bar, the felt and the side panel."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QVBoxLayout, QWidget

from dealer_assist.config import TableConfig
from ui.console import theme
from ui.console.texts import tr, trf
from ui.console.widgets.seat import set_text
from ui.console.widgets.topbar import TopBar
from ui.poker.presenter import PokerPresenter, PokerView
from ui.poker.texts import step_name
from ui.poker.widgets.felt import Felt
from ui.poker.widgets.panel import PokerPanel

WIDE = 1700  # from this size on the full sizes; below (1280x800) the compact ones
TALL = 950
STEP_COLORS = {"between": "idle", "betting": "decisions", "dealing": "dealing",
               "showdown": "showdown", "settled": "settlement"}  # fmt: skip
PANEL_STYLE = f"""
#pFacts {{ font-size: 24px; font-weight: bold; color: {theme.TEXT}; }}
#pAmount {{ font-size: 36px; font-weight: bold; color: {theme.GOLD}; background: {theme.PANEL_2};
           border-radius: 12px; padding: 6px 14px; }}
#pAmount[ok="false"] {{ color: #ff9a9a; }}
#pAwards {{ font-size: 21px; color: {theme.TEXT}; }}
#pAction {{ min-height: 84px; font-size: 24px; }}
#pAction[kind="fold"] {{ background: #9b2c2c; }}
#pAction[kind="check"], #pAction[kind="call"] {{ background: {theme.BLUE}; }}
#pAction[kind="bet"], #pAction[kind="raise"] {{ background: {theme.GREEN}; }}
#pAction:disabled {{ background: #27302d; color: #6d7a74; }}
#pFacts[compact="true"] {{ font-size: 18px; }}
#pAmount[compact="true"] {{ font-size: 26px; padding: 2px 10px; }}
#pAction[compact="true"] {{ min-height: 70px; font-size: 19px; }}
#bigButton[kind="muck"] {{ background: {theme.SLATE}; color: #ffffff; }}
"""


class PokerTopBar(TopBar):
    """The banked console's top bar drawn from a poker view (banner, table, hand, device)."""

    def show_poker(self, view: PokerView, table_id: str) -> None:
        """Banner, table line, hand number and the card source's status."""
        colors = theme.PHASE_COLORS.get(STEP_COLORS.get(view.step, view.step), (theme.SLATE,
                                        theme.TEXT))  # fmt: skip
        self.phase.setStyleSheet(f"#phase {{ background: {colors[0]}; color: {colors[1]}; }}")
        set_text(self.phase, step_name(view.step, view.snap.street).upper())
        set_text(self.table, f"{table_id} · Texas Hold'em")
        hand_no = view.snap.hand_no
        set_text(self.hand, trf("Hand %1", hand_no) if hand_no else "")
        self._device = view.snap.device
        self.refresh_device()


class PokerWindow(QMainWindow):
    """Draws every :class:`PokerView` the presenter publishes.

    Args:
        presenter: the view-model (the window subscribes to it).
        config: the table.
    """

    def __init__(self, presenter: PokerPresenter, config: TableConfig) -> None:
        super().__init__()
        self.presenter = presenter
        self.config = config
        self.setWindowTitle(tr("Dealer console") + f" — {config.table_id}")
        central = QWidget()
        central.setObjectName("central")
        central.setStyleSheet(PANEL_STYLE)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.top = PokerTopBar()
        outer.addWidget(self.top)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        self.felt = Felt(config.seats, config.currency, presenter.tap_seat)
        body.addWidget(self.felt, 1)
        self.side = PokerPanel(presenter, tuple(config.chips), config.currency)
        body.addWidget(self.side)
        outer.addLayout(body, 1)
        self.setCentralWidget(central)
        presenter.subscribe(self.show_view)
        self._beat = QTimer(self)
        self._beat.timeout.connect(self.top.refresh_device)
        self._beat.start(1000)
        self._fit()
        self._quit = QShortcut(QKeySequence("Ctrl+Q"), self)
        self._quit.activated.connect(self.close)
        self.show_view(presenter.view())

    def show_view(self, view: PokerView) -> None:
        """Draw ``view`` everywhere."""
        self.top.show_poker(view, self.config.table_id)
        self.felt.show_view(view)
        self.side.show_view(view)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit()
        super().resizeEvent(event)

    def _fit(self) -> None:
        compact = self.width() < WIDE or self.height() < TALL
        self.side.setFixedWidth(420 if compact else 560)
        self.side.set_compact(compact)
        self.top.set_compact(compact)
