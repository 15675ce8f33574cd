"""The hand search's results as a Qt table model: pages fetched on the worker thread as the view
scrolls (``canFetchMore``/``fetchMore``), sorted by the database when a header is clicked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from dealer_assist.pitboss.filters import HandFilter, HandRow, Page, Sort
from ui.pitboss.texts import ALERT_COLOUR, euros, tr
from ui.pitboss.worker import Jobs

PAGE = 100
_TITLES = (  # the column titles texts.py does not list
    QT_TRANSLATE_NOOP("PitBoss", "Dealer badge"),
    QT_TRANSLATE_NOOP("PitBoss", "Top payout or pot (EUR)"),
    QT_TRANSLATE_NOOP("PitBoss", "Wagered (EUR)"),
)
Index = QModelIndex | QPersistentModelIndex
#: (header, the row's value, the sort key or None: not sortable)
COLUMNS: tuple[tuple[str, Callable[[HandRow], Any], str | None], ...] = (
    ("Table", lambda r: r.table_id, "table_id"),
    ("Hand", lambda r: r.position, "position"),
    (
        "Recorded (UTC)",
        lambda r: r.recorded_at.strftime("%Y-%m-%d %H:%M:%S"),
        "recorded_at",
    ),
    ("Game", lambda r: r.game, "game"),
    ("Dealer badge", lambda r: r.dealer or "", None),
    ("Outcome", lambda r: tr(r.status), "status"),
    (
        "Top payout or pot (EUR)",
        lambda r: "" if r.top_amount is None else euros(r.top_amount),
        "top_amount",
    ),
    (
        "Wagered (EUR)",
        lambda r: "" if r.wagered is None else euros(r.wagered),
        "wagered",
    ),
    ("Seats", lambda r: " ".join(str(s) for s in r.seats), None),
    ("Flags", lambda r: ", ".join(tr(f) for f in r.flags), None),
    ("Void reason", lambda r: r.void_reason or "", None),
    ("Integrity alert", lambda r: ", ".join(tr(a) for a in r.alerts), None),
)


def alert_sentence_kinds(kinds: tuple[str, ...]) -> str:
    """The tooltip of a row covered by open integrity alerts of ``kinds``."""
    return tr("Open integrity alert: %1. These records are not proven as they stand").replace(
        "%1", ", ".join(tr(k) for k in kinds)
    )


class HandsModel(QAbstractTableModel):
    """Rows of ``search(filter, sort, offset, limit)`` run through ``jobs``; ``error`` carries
    a failed page's sentence, ``loaded`` the row count after each page."""

    error = Signal(str)
    loaded = Signal(int)

    def __init__(self, jobs: Jobs, search: Callable[[HandFilter, Sort, int, int], Page]) -> None:
        super().__init__()
        self._jobs = jobs
        self._search = search
        self._rows: list[HandRow] = []
        self._filter = HandFilter()
        self._sort = Sort()
        self._more = False
        self._loading = False
        self._generation = 0  # a page of an older query is dropped

    def row(self, n: int) -> HandRow:
        """The row ``n`` as loaded."""
        return self._rows[n]

    def query(self) -> tuple[HandFilter, Sort]:
        """The filter and order on screen (what an export writes, every page of it)."""
        return self._filter, self._sort

    def set_filter(self, where: HandFilter) -> None:
        """Run a new search (first page now, the rest as the view scrolls)."""
        self._filter = where
        self._restart()

    def _restart(self) -> None:
        self.beginResetModel()
        self._rows, self._more, self._loading = [], True, False
        self._generation += 1
        self.endResetModel()
        self.fetchMore(QModelIndex())

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Rows loaded so far."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """The columns of :data:`COLUMNS`."""
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The cell's text (amounts right-aligned)."""
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[index.column()][1](self._rows[index.row()])
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (1, 6, 7):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        row = self._rows[index.row()]
        if row.alerts and role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(QColor(ALERT_COLOUR))  # every cell of a hand an open alert covers
        if row.alerts and role == Qt.ItemDataRole.ToolTipRole:
            return alert_sentence_kinds(row.alerts)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Column titles, translated."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return tr(COLUMNS[section][0])
        return super().headerData(section, orientation, role)

    def canFetchMore(self, parent: Index) -> bool:
        """More rows exist and no page is on its way."""
        return not parent.isValid() and self._more and not self._loading

    def fetchMore(self, parent: Index) -> None:
        """Ask the worker for the next page."""
        if parent.isValid() or self._loading or not self._more:
            return
        self._loading = True
        gen, where, sort, offset = self._generation, self._filter, self._sort, len(self._rows)
        self._jobs.submit(
            lambda: self._search(where, sort, offset, PAGE),
            lambda page: self._page(gen, page),
            self._failed,
        )

    def _page(self, gen: int, page: Page) -> None:
        if gen != self._generation:
            return
        self._loading = False
        self._more = page.more
        if page.rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(page.rows) - 1)
            self._rows.extend(page.rows)
            self.endInsertRows()
        self.loaded.emit(len(self._rows))

    def _failed(self, text: str) -> None:
        self._loading, self._more = False, False
        self.error.emit(text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column`` in the database (columns without a sort key keep the order)."""
        key = COLUMNS[column][2]
        if key is None:
            return
        self._sort = Sort(key, order == Qt.SortOrder.DescendingOrder)
        self._restart()
