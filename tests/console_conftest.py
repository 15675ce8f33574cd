"""Shared helpers of the console tests (imported by tests/test_console_*.py).

Qt runs offscreen. Screenshots go to artifacts/screenshots/<test>/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from dealer_assist.cards import Card  # noqa: E402
from dealer_assist.config import TableConfig, load_table_config  # noqa: E402
from dealer_assist.storage.journal import Journal  # noqa: E402
from drivers.factory import open_source  # noqa: E402
from ui.console.app import Console, qt_app  # noqa: E402
from ui.console.presenter import Step  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts" / "screenshots"
# Fast emulator: short shuffle and card interval keep a hand well under a second.
FAST = "shuffle_time=0.05&card_interval=0.01"
TEXT_GETTERS = (
    "text", "toolTip", "accessibleName", "accessibleDescription", "whatsThis", "statusTip",
    "windowTitle", "placeholderText",
)  # fmt: skip
RANKS = {10: ("T", "10"), 11: ("J",), 12: ("Q",), 13: ("K",), 14: ("A",)}
SUITS = {"s": ("s", "♠", "spades", "picche"), "h": ("h", "♥", "hearts", "cuori"),
         "d": ("d", "♦", "diamonds", "quadri"), "c": ("c", "♣", "clubs", "fiori")}  # fmt: skip


def emulator_url(seed: int, extra: str = "") -> str:
    """A fast emulator URL for ``seed`` with extra query options (``jam_at=3``...)."""
    return f"emulator://?seed={seed}&{FAST}" + (f"&{extra}" if extra else "")


def table(game: str = "uth") -> TableConfig:
    """The shipped table of ``game``."""
    return load_table_config(game=game)


def card_patterns(card: Card) -> list[re.Pattern[str]]:
    """Every way a card could be written on a widget: ``As``, ``A♠``, ``10♥``, ``Th``,
    ``A of spades``, ``A di picche`` (short forms only as whole tokens: ``Th`` is not in
    ``The``)."""
    ranks = RANKS.get(card.rank, (str(card.rank),))
    out = []
    for r in ranks:
        for s in SUITS[card.suit]:
            if len(s) == 1:
                out.append(re.compile(rf"(?<![A-Za-z0-9]){re.escape(r + s)}(?![A-Za-z])"))
            else:
                out.append(re.compile(rf"\b{re.escape(r)} (of|di) {s}\b", re.IGNORECASE))
    return out


def widget_strings(root: QWidget) -> list[str]:
    """Text, tooltip, accessible name/description, what's-this, status tip and window title of
    ``root`` and every widget under it, hidden ones included."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        for name in TEXT_GETTERS:
            getter = getattr(w, name, None)
            if not callable(getter):
                continue
            try:
                value = getter()
            except TypeError:
                continue
            if isinstance(value, str) and value:
                out.append(value)
    return out


def tap(qtbot: object, widget: QWidget) -> None:
    """A finger tap: press and release in the middle of ``widget``."""
    if not widget.isVisible() or not widget.isEnabled():
        raise AssertionError(f"cannot tap {widget!r}: visible={widget.isVisible()} "
                             f"enabled={widget.isEnabled()}")  # fmt: skip
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]


class Shots:
    """Saves numbered screenshots of a window under artifacts/screenshots/<name>/."""

    def __init__(self, name: str) -> None:
        self.dir = ARTIFACTS / name
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0
        self.saved: list[Path] = []

    def take(self, window: QWidget, label: str) -> Path:
        """Grab ``window`` now."""
        self.n += 1
        path = self.dir / f"{self.n:02d}_{label}.png"
        QApplication.sendPostedEvents()  # pending relayouts first, as a screen would show
        QApplication.processEvents()
        if not window.grab().save(str(path)):
            raise AssertionError(f"could not save {path}")
        self.saved.append(path)
        return path


ConsoleFactory = Callable[..., Console]


@pytest.fixture
def console_app(qapp: QApplication) -> Iterator[QApplication]:
    """The application with the console's style sheet and font, restored afterwards (other
    Qt tests in the session keep their own look)."""
    sheet, font = qapp.styleSheet(), qapp.font()
    app = qt_app()
    yield app
    app.setStyleSheet(sheet)
    app.setFont(font)


@pytest.fixture
def console_factory(console_app: QApplication, tmp_path: Path) -> Iterator[ConsoleFactory]:
    """Builds started consoles on the real emulator (over a pty) with a SQLite journal in
    ``tmp_path``; closes them at the end of the test."""
    made: list[Console] = []

    def make(
        game: str = "uth", *, url: str | None = None, lang: str = "en",
        size: tuple[int, int] = (1920, 1080), card_timeout: float = 3.0,
    ) -> Console:  # fmt: skip
        config = table(game)
        src = config.sources[0]
        source_url = url or emulator_url(7)

        def make_source():  # type: ignore[no-untyped-def]
            return open_source(source_url, pin_model=src.pin_model, pin_serial=src.pin_serial)

        journal = Journal(str(tmp_path / f"journal-{len(made)}.db"))
        console = Console(config, make_source, journal, lang=lang, card_timeout=card_timeout)
        console.window.resize(*size)
        console.window.show()
        console.start()
        made.append(console)
        return console

    yield make
    for c in made:
        c.close()


def wait_step(qtbot: object, console: Console, step: Step, timeout: int = 15000) -> None:
    """Wait until the console shows ``step`` and no command is in flight."""

    def ready() -> None:
        view = console.presenter.view()
        if view.step is not step or view.busy:
            raise AssertionError(f"step {view.step}, busy {view.busy}, message {view.message}")

    qtbot.waitUntil(ready, timeout=timeout)  # type: ignore[attr-defined]
