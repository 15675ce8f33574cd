"""Shared helpers of the console tests (imported by tests/test_console_*.py).

Qt runs offscreen. Screenshots go to artifacts/screenshots/<test>/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from drivers.factory import open_source
from tests.conftest import Closer
from ui.console.app import Console
from ui.console.view import Step
from ui.kit.boot import qt_app
from ui.kit.card_keypad import CardKeypad
from ui.kit.card_view import CardView
from ui.kit.pitboss import PitBossRoster
from ui.kit.translate import tr

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
NO_GUARDS = {"tap_guard": 0.0, "alarm_guard": 0.0, "reenter_window": 0.0, "steady_hold": 0.0}


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
def console_factory(
    console_app: QApplication, tmp_path: Path, closer: Closer
) -> Iterator[ConsoleFactory]:
    """Builds started consoles on the real emulator (over a pty) with a SQLite journal in
    ``tmp_path``; closes them at the end of the test (also one whose start failed)."""
    made: list[Console] = []

    def make(
        game: str = "uth", *, url: str | None = None, lang: str = "en",
        size: tuple[int, int] = (1920, 1080), card_timeout: float = 3.0,
        config: TableConfig | None = None, make_source: Callable[[], CardSource] | None = None,
        roster: PitBossRoster | None = None, guards: dict[str, float] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Console:  # fmt: skip
        config = config or table(game)
        src = config.sources[0]
        source_url = url or emulator_url(7)

        def one_source() -> CardSource:
            return open_source(source_url, pin_model=src.pin_model, pin_serial=src.pin_serial)

        journal = Journal(str(tmp_path / f"journal-{len(made)}.db"))
        # taps come faster than a hand can: the guards against double taps are off unless a
        # test asks for them (tests/test_console_walk.py)
        guards = NO_GUARDS if guards is None else guards
        more = {"clock": clock} if clock is not None else {}
        console = Console(config, make_source or one_source, journal, lang=lang,
                          card_timeout=card_timeout, roster=roster, guards=guards,
                          **more)  # fmt: skip
        closer.add(console)
        console.window.resize(*size)
        console.window.show()
        console.start()
        made.append(console)
        return console

    yield make
    for c in made:  # before the application's look is restored; the closer is the safety net
        c.close()


def wait_step(qtbot: object, console: Console, step: Step, timeout: int = 15000) -> None:
    """Wait until the console shows ``step`` and no command is in flight."""

    def ready() -> None:
        view = console.presenter.view()
        if view.step is not step or view.busy:
            raise AssertionError(f"step {view.step}, busy {view.busy}, message {view.message}")

    qtbot.waitUntil(ready, timeout=timeout)  # type: ignore[attr-defined]


QUALIFICATION_TEXTS = ("Dealer qualifies", "Dealer does not qualify", "Banco qualificato",
                       "Banco non qualificato", "Dealer:", "Banco:", "qualif")  # fmt: skip


def hidden_now(console: Console) -> set[Card]:
    """Cards that must not be visible now (read from the worker's hand while it is idle)."""
    hand = console.service.hand
    assert hand is not None
    hidden = {c for st in hand.seats.values() for c in st.hole.values()}
    hidden |= set(hand.board[len(hand.board_visible()) :])
    if not hand.dealer_visible():
        hidden |= set(hand.dealer_cards)
    return hidden


def privacy_walk(console: Console, hidden: set[Card] | None = None) -> int:
    """Fail if a hidden card (``hidden``, default :func:`hidden_now`) or the qualification is in
    any widget's text, tooltip, accessible name/description, what's-this, status tip or window
    title, painted by a card widget, or chosen on a card keypad. Returns how many strings were
    checked."""
    hidden = hidden_now(console) if hidden is None else hidden
    assert hidden, "nothing is hidden: the walk would prove nothing"
    strings = widget_strings(console.window)
    assert len(strings) > 50
    for card in hidden:
        for pattern in card_patterns(card):
            leaks = [s for s in strings if pattern.search(s)]
            assert not leaks, f"hidden card {card} readable in {leaks}"
    for text in (*QUALIFICATION_TEXTS, tr("Dealer qualifies"),
                 tr("Dealer does not qualify — Ante pushes")):  # fmt: skip
        leaks = [s for s in strings if text.lower() in s.lower()]
        assert not leaks, f"qualification readable before the reveal: {leaks}"
    faces = [w.face for w in console.window.findChildren(CardView)]
    assert not [f for f in faces if isinstance(f, Card) and f in hidden]
    keypads = console.window.findChildren(CardKeypad)
    assert len(keypads) >= 3  # manual, identification, exposed card
    assert not [k.selection() for k in keypads if k.selection() in hidden]
    return len(strings)


def enter_bets(qtbot: Any, console: Console, seat: int, **boxes: int) -> None:
    """Tap the seat, then for each box its tab and the chips (largest first)."""
    side = console.window.side.bets
    tap(qtbot, console.window.table.tiles[seat])
    for box, amount in boxes.items():
        tap(qtbot, side.tabs[box])
        for chip in sorted(console.config.chips, reverse=True):
            while amount >= chip:
                tap(qtbot, next(c for c in side.chips if c.value == chip))
                amount -= chip
        assert amount == 0


def decide(qtbot: Any, console: Console, seat: int, label: str) -> None:
    """Tap the seat's decision button whose first line is ``label``; it must be one of the
    seat's legal decisions (the only buttons shown)."""
    tile = console.window.table.tiles[seat]
    button = next((b for b in tile.buttons if b.text().split("\n")[0] == label), None)
    assert button is not None, f"seat {seat}: no {label!r} in {[b.text() for b in tile.buttons]}"
    tap(qtbot, button)


def big(qtbot: Any, console: Console) -> None:
    """Tap the dealer's big button (once it is lit: a step such as a paid seat's mark may still
    be on its way to the journal)."""
    button = console.window.side.big
    qtbot.waitUntil(lambda: button.isVisible() and button.isEnabled(), timeout=5000)
    tap(qtbot, button)


def type_card(qtbot: Any, keypad: CardKeypad, card: Card) -> None:
    """Rank, suit and Confirm on a card keypad, by taps."""
    text = str(card)
    tap(qtbot, keypad.rank_buttons[text[0]])
    tap(qtbot, keypad.suit_buttons[text[1]])
    assert keypad.selection() == card
    tap(qtbot, keypad.confirm_button)
