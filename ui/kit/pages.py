"""A stack of pages sized by the page shown only.

``QStackedWidget`` asks every page, shown or not, for its minimum size and its height for a
width (word-wrapped labels have one), so a tall hidden page (a card keypad) would make the side
panel, and a 1280x800 window without a window manager, taller than the screen.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QWidget


class PageStack(QStackedWidget):
    """A QStackedWidget whose size is the current page's (see the module doc)."""

    def add_page(self, page: QWidget) -> None:
        """Add ``page``; all but the first are sized as hidden until shown."""
        self.addWidget(page)
        if self.count() > 1:
            page.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def show_page(self, page: QWidget) -> None:
        """Make ``page`` the current one; the others stop counting for the size."""
        if self.currentWidget() is page:
            return
        for i in range(self.count()):
            other = self.widget(i)
            if other is None:
                continue
            shown = other is page
            policy = QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored
            other.setSizePolicy(policy, policy)
        self.setCurrentWidget(page)
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:
        """Only the current page's height-for-width counts."""
        page = self.currentWidget()
        return page is not None and page.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        """The current page's height for ``width`` (-1 without a page)."""
        page = self.currentWidget()
        return page.heightForWidth(width) if page is not None else -1
