"""No text is cut off at 1920x1080 in Italian (the longest texts) nor at 1280x800: every visible
label's text fits its width (a wrapping label: its words and lines; a label that shrinks its
font: the whole text), and a seat's status badge shows its whole text in its full size. Real
console, real emulator, Qt offscreen; screenshots in artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import Qt
from PySide6.QtWidgets import QLabel, QWidget

from tests.fixtures.console_conftest import (
    Shots,
    big,
    console_app,  # noqa: F401 (fixture)
    console_factory,  # noqa: F401 (fixture)
    decide,
    emulator_url,
    enter_bets,
    tap,
    wait_step,
)
from ui.console.view import Step
from ui.kit.labels import FitLabel


def cut_texts(root: QWidget) -> list[str]:
    """The visible labels under ``root`` whose text does not fit (what it needs, what it got)."""
    out = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or Qt.mightBeRichText(text):
            continue
        if isinstance(label, FitLabel):
            shown, size = label.shown()  # a smaller font is fine, a cut text is not
            if shown != text:
                out.append(f"{text!r} drawn as {shown!r} at {size}px")
            continue
        metrics = label.fontMetrics()
        room = label.contentsRect().width() - 2 * label.margin()
        parts = text.split() if label.wordWrap() else text.split("\n")
        widest = max(metrics.horizontalAdvance(p) for p in parts)
        needed_h = label.heightForWidth(label.width()) if label.wordWrap() else 0
        if widest > room or needed_h > label.height():
            out.append(f"{text!r}: needs {widest}x{needed_h} px, has {room}x{label.height()}")
    return out


def test_italian_texts_fit_at_full_hd(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", url=emulator_url(5), lang="it", size=(1920, 1080))
    win = console.window
    shots = Shots("text_fit_italian")
    wait_step(qtbot, console, Step.BETS)
    for seat in range(1, 8):
        enter_bets(qtbot, console, seat, ante=1000, trips=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    shots.take(win, "preflop_da_decidere")
    badges = [t.badge for t in win.table.tiles.values()]
    assert {b.shown() for b in badges} == {("Da decidere", badges[0].font().pixelSize())}
    assert cut_texts(win) == []
    for seat in range(1, 8):
        decide(qtbot, console, seat, "Check")
    qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=5000)
    shots.take(win, "preflop_tutti_hanno_deciso")
    assert win.side.play.title.text() == "Tutti i posti hanno deciso"
    assert cut_texts(win) == []


def test_small_screen_texts_fit(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", url=emulator_url(6), size=(1280, 800))
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 3, ante=500)
    enter_bets(qtbot, console, 5, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    qtbot.waitUntil(lambda: win.top.beat.text().startswith("last heartbeat"), timeout=3000)
    Shots("text_fit_small").take(win, "preflop_1280x800")
    assert cut_texts(win) == []


def test_fault_texts_fit_at_1280x800_in_italian(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    """The jam's void alarm and the red "not ready" bar (5: the dealer's sentences,
    longer than the device's codes) are not cut at 1280x800 in Italian, the longer language."""
    url = emulator_url(4, "jam_at=3&jam_clear_after=2.5")
    console = console_factory("uth", url=url, lang="it", size=(1280, 800))
    win = console.window
    shots = Shots("text_fit_faults")
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 4, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.VOID)
    assert "Carte inceppate nella miscelatrice" in win.alarm.reason.text()
    shots.take(win, "alarm_jam")
    assert cut_texts(win) == []
    tap(qtbot, win.alarm.ack)
    wait_step(qtbot, console, Step.IDLE)
    assert win.not_ready.isVisible()
    assert win.not_ready.text.text().startswith("Carte inceppate nella miscelatrice")
    shots.take(win, "not_ready_jam")
    assert cut_texts(win) == []
