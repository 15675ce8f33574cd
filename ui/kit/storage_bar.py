"""The bar of the journal's storage: red while the journal refuses writes (the
hand stays pending, nothing is dealt; *Retry* once the storage is freed), amber for a notice (the
disk getting full, the journal answering again; *OK* dismisses it). Drawn from the view on the
GUI thread; the sentence is :mod:`ui.kit.storage_notice`'s, translated here."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy

from ui.kit.labels import restyle, set_text
from ui.kit.status import StorageBanner
from ui.kit.translate import tr, trf


class StorageView(Protocol):
    """What the bar draws from a view."""

    @property
    def storage(self) -> StorageBanner | None:
        """The storage fault, or the notice the dealer has not dismissed; None when none."""

    @property
    def busy(self) -> bool:
        """A command is on its way (Retry waits for it)."""


class StorageSink(Protocol):
    """The presenter the bar's button tells."""

    def tap_retry(self) -> None:
        """Try the journal again."""

    def dismiss_storage(self) -> None:
        """The dealer has read the notice."""


class StorageBar(QFrame):
    """The storage banner of a view (hidden when ``view.storage`` is None)."""

    def __init__(self, presenter: StorageSink) -> None:
        super().__init__()
        self.presenter = presenter
        lay = QHBoxLayout(self)
        lay.setContentsMargins(24, 8, 16, 8)
        self.text = QLabel("")
        self.text.setObjectName("storageText")
        self.text.setWordWrap(True)  # never cut at 1280x800
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.text, 1)
        self.button = QPushButton("")
        self.button.setObjectName("noticeOk")
        self.button.setMinimumWidth(160)
        self.button.clicked.connect(self._tapped)
        lay.addWidget(self.button)
        self._fault: bool | None = None
        self._lay = lay
        self.hide()

    def set_compact(self, compact: bool) -> None:
        """Smaller type and margins (a small screen with other bars up)."""
        m = (16, 4, 12, 4) if compact else (24, 8, 16, 8)
        self._lay.setContentsMargins(*m)
        restyle(self.text, compact=compact)

    def show_view(self, view: StorageView) -> None:
        """Visible while the view has a storage banner."""
        banner = view.storage
        if banner is None:
            set_text(self.text, "")
            self.hide()
            return
        fault = banner.fault
        if fault != self._fault:  # red for a fault, amber for a notice (the theme's bars)
            self._fault = fault
            self.setObjectName("notReady" if fault else "notice")
            self.text.setObjectName("notReadyText" if fault else "noticeText")
            for w in (self, self.text):
                w.style().unpolish(w)
                w.style().polish(w)
        set_text(self.text, ("⚠ " if fault else "") + trf(banner.text, *banner.args))
        self.button.setText(tr("Retry") if fault else tr("OK"))
        self.button.setEnabled(not (fault and view.busy))
        self.show()

    def _tapped(self) -> None:
        if self._fault:
            self.presenter.tap_retry()
        else:
            self.presenter.dismiss_storage()
