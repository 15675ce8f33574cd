"""The bars over a table, top to bottom: the device not ready, the card source switched, the
journal's storage. Each says something the dealer must act on, so none is hidden: on a small
screen (1280x800) with more than one up they are drawn compact (smaller type, tighter
margins), and the switch notice does not repeat the reason the device bar above already gives.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QVBoxLayout, QWidget

from ui.kit.banner import BarView, NoticeBar, NoticeSink, NotReadyBar
from ui.kit.storage_bar import StorageBar, StorageSink, StorageView


class BarsView(BarView, StorageView, Protocol):
    """What the stacked bars draw from a view."""


class BarsSink(NoticeSink, StorageSink, Protocol):
    """The presenter the bars' buttons tell."""


class BarStack(QWidget):
    """The three bars in one column (hidden bars take no room).

    Args:
        presenter: told when the notice is read, the storage retried or its notice read.
    """

    def __init__(self, presenter: BarsSink) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.not_ready = NotReadyBar()
        self.notice = NoticeBar(presenter)
        self.storage = StorageBar(presenter)
        for bar in (self.not_ready, self.notice, self.storage):
            lay.addWidget(bar)
        self._small = False
        self._up = 0

    def set_small(self, small: bool) -> None:
        """The screen is small (1280x800): several bars up are drawn compact."""
        if small != self._small:
            self._small = small
            self._fit()

    def show_view(self, view: BarsView) -> None:
        """Each bar from ``view``, then compact or not by how many are up."""
        self.not_ready.show_view(view)
        said = self.not_ready.text.text() if view.not_ready else ""
        self.notice.show_view(view, said=said)
        self.storage.show_view(view)
        self._up = sum((view.not_ready, view.notice is not None, view.storage is not None))
        self._fit()

    def _fit(self) -> None:
        compact = self._small and self._up > 1
        for bar in (self.not_ready, self.notice, self.storage):
            bar.set_compact(compact)
