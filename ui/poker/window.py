"""The poker console's main window: the shared top bar, the felt and the side panel, shaped by
the game's plug-in (its cards per seat and on the board, its forced bet decided by a seat)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QVBoxLayout, QWidget

from dealer_assist.config import TableConfig
from dealer_assist.games import get_pot_game
from ui.kit import theme
from ui.kit.bars import BarStack
from ui.kit.dealer_box import DealerControl, attach_to_top_bar
from ui.kit.topbar import TopBar, local_now
from ui.kit.translate import tr
from ui.poker.presenter import PokerPresenter, PokerView
from ui.poker.snapshot import FORCED_KIND, PokerSnapshot
from ui.poker.texts import step_name, title
from ui.poker.widgets.alarm import PokerVoidAlarm
from ui.poker.widgets.felt import Felt
from ui.poker.widgets.panel import PokerPanel

WIDE = 1700  # from this size on the full sizes; below (1280x800) the compact ones
TALL = 950
STEP_COLORS = {
    "between": "idle",
    "betting": "decisions",
    "dealing": "dealing",
    "showdown": "showdown",
    "settled": "settlement",
    "manual": "manual",
    "identify": "identify",
    "new_deck": "identify",
}
PANEL_STYLE = f"""
#pFacts {{ font-size: 24px; font-weight: bold; color: {theme.TEXT}; }}
#pAmount {{ font-size: 36px; font-weight: bold; color: {theme.GOLD}; background: {theme.PANEL_2};
           border-radius: 12px; padding: 6px 14px; }}
#pAmount[ok="false"] {{ color: #ff9a9a; }}
#pAwards {{ font-size: 21px; color: {theme.TEXT}; }}
#pAwards[compact="true"] {{ font-size: 18px; }}
#pAction {{ min-height: 84px; font-size: 24px; }}
#pAction[kind="fold"] {{ background: #9b2c2c; }}
#pAction[kind="check"], #pAction[kind="call"], #pAction[kind="bring_in"] {{
    background: {theme.BLUE}; }}
#pAction[kind="bet"], #pAction[kind="raise"], #pAction[kind="complete"] {{
    background: {theme.GREEN}; }}
#pAction:disabled {{ background: #27302d; color: #6d7a74; }}
#pFacts[compact="true"] {{ font-size: 18px; }}
#pAmount[compact="true"] {{ font-size: 26px; padding: 2px 10px; }}
#pAction[compact="true"] {{ min-height: 70px; font-size: 19px; }}
#pDigit {{ min-height: 60px; min-width: 40px; font-size: 26px; font-weight: bold; padding: 0; }}
#pDigit[compact="true"] {{ min-height: 40px; font-size: 20px; }}
#pPreset {{ min-width: 40px; padding: 0 4px; }}
#pPreset[compact="true"] {{ min-height: 54px; font-size: 17px; }}
#bigButton[kind="muck"] {{ background: {theme.SLATE}; color: #ffffff; }}
#bigButton[kind="muck"], #bigButton[kind="show"] {{ font-size: 26px; }}
#pResumed {{ font-size: 19px; font-weight: bold; color: #1a1406; background: {theme.GOLD};
            border-radius: 8px; padding: 6px 10px; }}
"""


class PokerTopBar(TopBar):
    """The consoles' top bar drawn from a poker view (banner, table, hand, device)."""

    game = ""  # the game's code (its title on the table line)

    def show_poker(self, view: PokerView, table_id: str) -> None:
        """Banner, table line, hand number and the card source's status."""
        colors = theme.PHASE_COLORS.get(
            STEP_COLORS.get(view.step, view.step), (theme.SLATE, theme.TEXT)
        )
        self.show_status(
            step_name(view.step, view.snap.street),
            colors,
            f"{table_id} · {title(self.game)}",
            view.snap.hand_no,
            view.snap.device,
        )


class PokerWindow(QMainWindow):
    """Draws every :class:`PokerView` the presenter publishes.

    Args:
        presenter: the view-model (the window subscribes to it).
        config: the table.
        lang: ``it`` or ``en`` (the core's void reason texts).
        clock: the local time of day the top bar shows (a long shift's dealer reads it there).
    """

    def __init__(
        self,
        presenter: PokerPresenter,
        config: TableConfig,
        lang: str = "en",
        *,
        clock: Callable[[], datetime] = local_now,
    ) -> None:
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
        self.top = PokerTopBar(clock=clock)  # the time of day, as at the banked console
        self.top.game = config.game
        outer.addWidget(self.top)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        left = QVBoxLayout()  # the bars over the felt, which adapts its height
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        # the device not ready, the card source switched, the journal's storage: all shown,
        # compact on a small screen when more than one is up (as at the banked console)
        self.bars = BarStack(presenter)
        self.not_ready, self.notice = self.bars.not_ready, self.bars.notice
        self.storage = self.bars.storage
        left.addWidget(self.bars)
        streets = get_pot_game(config.game).streets
        self.felt = Felt(
            config.seats,
            config.currency,
            presenter.tap_seat,
            hole_cards=sum(len(st.hole) for st in streets),
            board_cards=sum(st.board for st in streets),
        )
        left.addWidget(self.felt, 1)
        body.addLayout(left, 1)
        # the forced bet a seat decides is a setting of the table's game (Stud's bring_in)
        forced = getattr(config.poker, FORCED_KIND, 0)
        self.side = PokerPanel(
            presenter,
            tuple(config.chips),
            config.currency,
            forced if isinstance(forced, int) else 0,
        )
        body.addWidget(self.side)
        outer.addLayout(body, 1)
        # the screen's size is the window's: what the panel holds must fit it (the layout tests
        # check), it never makes the window taller than the screen (a resize from the full
        # sizes to 1280x800 was clamped to the full layout's height before it turned compact)
        central.setMinimumSize(1, 1)
        self.setCentralWidget(central)
        self.alarm = PokerVoidAlarm(presenter, config.currency, lang, central)
        # the dealer on the box: the top bar says who, a button in the felt's corner changes it
        self.dealer = DealerControl(presenter, poker_between, central, self.felt)
        attach_to_top_bar(self.top, self.top.hand, self.dealer.status)
        presenter.subscribe(self.show_view)
        self._beat = QTimer(self)
        self._beat.timeout.connect(self.top.refresh_device)
        self._beat.start(1000)
        self._wide = False
        self._fit()
        self._quit = QShortcut(QKeySequence("Ctrl+Q"), self)
        self._quit.activated.connect(self.close)
        self.show_view(presenter.view())

    def show_view(self, view: PokerView) -> None:
        """Draw ``view`` everywhere."""
        self.top.show_poker(view, self.config.table_id)
        self.bars.show_view(view)
        wide = view.entry is not None  # the card keypad needs a wider panel than the chips
        if wide != self._wide:
            self._wide = wide
            self._fit()
        self.felt.show_view(view)
        self.side.show_view(view)
        self.alarm.show_view(view)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit()
        super().resizeEvent(event)
        # the texts fitted to the panel's width and the keys of the size: drawn again for it
        self.show_view(self.presenter.view())
        central = self.centralWidget()
        if central is not None and self.alarm.isVisible():
            self.alarm.setGeometry(central.rect())

    def _fit(self) -> None:
        compact = self.width() < WIDE or self.height() < TALL
        self.side.setFixedWidth(420 if compact else (620 if self._wide else 560))
        self.side.set_compact(compact)
        self.top.set_compact(compact)
        self.bars.set_small(compact)


def poker_between(snap: PokerSnapshot) -> bool:
    """A poker-room table is between hands: no hand in progress, no void alarm waiting."""
    return not snap.in_hand and not snap.alarm
