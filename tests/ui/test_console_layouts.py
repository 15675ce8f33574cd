"""Every screen of the banked console (UTH and THB) in English and Italian at 1280x800 and
1920x1080, with each banner (device not ready, card source changed, storage fault), the three
at once where the device bar shows, and the longest line for the dealer: the window keeps the
screen's size, no text is cut (a label's words, a button's lines, a shrinking label's whole
text) and no two of the table's pieces overlap (the seats, the board, the dealer's cards and
their labels, the Dealer change button), nor the side panel's buttons; from the first screen
to the void alarm of the next hand no seat's tile moves up or down or changes height. The real table
service, emulator and SQLite journal drive the screens; the window draws each view offscreen;
screenshots in artifacts/screenshots/layout_*."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QPushButton,
    QStyle,
    QStyleOptionButton,
    QWidget,
)

from dealer_assist.engine.rules import Action
from dealer_assist.events import utc_now
from tests.fixtures.console_conftest import Shots, console_app  # noqa: F401
from tests.ui.test_console_text_fit import cut_texts
from tests.ui.test_console_walk import big, walk_table
from ui.console.bets import BetIssue
from ui.console.view import ConsoleView, Message, Step
from ui.console.window import ConsoleWindow
from ui.kit.i18n import install_language
from ui.kit.pitboss import PitBossRoster
from ui.kit.status import SourceNotice, StorageBanner

pytestmark = pytest.mark.integration
SIZES = ((1280, 800), (1920, 1080))


def _rect(widget: QWidget, root: QWidget) -> QRect:
    return QRect(widget.mapTo(root, QPoint(0, 0)), widget.size())


def _text_rect(label: QLabel, root: QWidget) -> QRect:
    """Where a one-line label's text is drawn (its alignment in its rectangle)."""
    box = _rect(label, root)
    width = min(box.width(), label.fontMetrics().horizontalAdvance(label.text()) + 8)
    align = label.alignment()
    if align & Qt.AlignmentFlag.AlignRight:
        x = box.right() - width
    elif align & Qt.AlignmentFlag.AlignHCenter:
        x = box.center().x() - width // 2
    else:
        x = box.left()
    return QRect(x, box.top(), width, box.height())


def cut_buttons(root: QWidget) -> list[str]:
    """Visible buttons whose text lines are wider than the room inside the button's border and
    padding (the style's contents rectangle: the style sheet pads a button 10 px a side)."""
    out = []
    for b in root.findChildren(QPushButton):
        text = b.text()
        if not b.isVisible() or not text:
            continue
        option = QStyleOptionButton()
        b.initStyleOption(option)
        room = b.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, b)
        widest = max(b.fontMetrics().horizontalAdvance(line) for line in text.split("\n"))
        if widest > room.width():
            out.append(f"{text!r}: needs {widest} px, has {room.width()} in {b.width()}")
    return out


def overlaps(win: ConsoleWindow) -> list[str]:
    """Pairs of the table's visible pieces, or of the side panel's buttons, that overlap."""
    table = win.table
    pieces: list[tuple[str, QRect]] = [
        (f"seat {n}", _rect(t, win)) for n, t in table.tiles.items() if t.isVisible()
    ]
    pieces += [(f"board {i + 1}", _rect(c, win)) for i, c in enumerate(table.board)]
    pieces += [(f"dealer {i + 1}", _rect(c, win)) for i, c in enumerate(table.dealer)]
    labels = (
        ("board label", table.board_label),
        ("dealer label", table.dealer_label),
        ("dealer hand", table.dealer_hand),
        ("qualify", table.qualify),
    )
    for name, label in labels:
        if label.isVisible() and label.text():
            pieces.append((name, _text_rect(label, win)))
    if win.dealer.isVisible():
        pieces.append(("Dealer change", _rect(win.dealer, win)))
    squeezed: list[str] = []
    for n, tile in table.tiles.items():  # a seat's boxes never squeezed onto each other
        if tile.isVisible() and tile.grid.isVisible():
            boxes = [(b.box, _rect(b, win)) for b in tile.boxes.values() if b.isVisible()]
            squeezed += [
                f"seat {n}: {a} / {b}"
                for i, (a, ra) in enumerate(boxes)
                for b, rb in boxes[i + 1 :]
                if ra.intersects(rb)
            ]
    area = _rect(table, win)
    out = squeezed + [f"{n} leaves the table area" for n, r in pieces if not area.contains(r)]
    out += [
        f"{a} / {b}"
        for i, (a, ra) in enumerate(pieces)
        for b, rb in pieces[i + 1 :]
        if ra.intersects(rb)
    ]
    side = win.side
    buttons = [
        (b.text() or b.accessibleName(), _rect(b, win))
        for b in side.findChildren(QAbstractButton)
        if b.isVisible()
    ]
    out += [f"{t!r} leaves the side panel" for t, r in buttons if not _rect(side, win).contains(r)]
    out += [
        f"{a!r} / {b!r}"
        for i, (a, ra) in enumerate(buttons)
        for b, rb in buttons[i + 1 :]
        if ra.intersects(rb)
    ]
    page = side.settlement  # the list's rows as wide as its viewport (not drawn past its edge)
    if page.isVisible():
        port = page.scroller.viewport()
        out += [
            f"settlement row {w.seat} is {w.width()} px in a list {port.width()} px wide"
            for w in page._widgets
            if w.isVisible() and w.width() > port.width()
        ]
    ack = win.alarm.ack
    if (
        win.alarm.isVisible()
        and ack.isVisible()
        and _rect(ack, win).intersects(_rect(win.side.big, win))
    ):
        out.append("Acknowledged over the big button")
    return out


def banners(view: ConsoleView) -> dict[str, ConsoleView]:
    """``view`` with each banner up in turn, its longest text: the red bar while the device is
    not ready (between hands: shown with the card source's notice, as after a cable pulled),
    the card source changed, the journal's fault; and the longest line for the dealer."""
    device = dataclasses.replace(
        view.device,
        connected=False,
        link="reconnecting",
        reconnect_attempts=12,
        next_attempt_in=4.0,
        why_not_ready="link lost",
        faults=("JAM", "DOOR_OPEN"),
        last_heard=utc_now(),
    )
    notice = SourceNotice(3, "serial", "manual", "Shuffler cable disconnected", manual=True)
    storage = StorageBanner(
        "The journal cannot be written: %1. The hand waits; call the pit boss if it lasts.",
        ("disk I/O error",),
        fault=True,
        number=2,
    )
    out = {
        "notice": dataclasses.replace(view, notice=notice),
        "storage": dataclasses.replace(view, storage=storage),
        "message": dataclasses.replace(view, message=_longest_message(view)),
        # a cable pulled and the journal failing while seats decide: both bars up at once
        "two": dataclasses.replace(view, notice=notice, storage=storage),
    }
    if view.step in (Step.BETS, Step.IDLE, Step.REVEAL, Step.SETTLEMENT):
        out["not_ready"] = dataclasses.replace(view, not_ready=True, device=device)
        # all three at once: none hidden, the table still fits under them
        out["all"] = dataclasses.replace(
            view, not_ready=True, device=device, notice=notice, storage=storage
        )
    return out


def _longest_message(view: ConsoleView) -> Message:
    """The longest line the dealer may read on this screen: a bet refused while bets are open,
    the exposed card that is not the reader's, a decision refused, a large payout to sign."""
    if view.step is Step.BETS:
        return Message("bet_issue", 3, BetIssue("above_max", "trips", 1_000_000))
    if view.expose is not None:
        return Message("exposed_mismatch", text="board 2")
    if view.step is Step.DECISIONS:
        return Message("illegal")
    return Message("signoff_required", 7)


class Screens:
    """A console window over the presenter of a real table, each screen checked and saved."""

    def __init__(self, tmp_path: Path, game: str, lang: str, qtbot: Any) -> None:
        roster = PitBossRoster(tmp_path / "roster.json")
        roster.add("4711", "2468")
        self.t, self.clock = walk_table(tmp_path, game=game, roster=roster)
        app = QApplication.instance()
        self.translators = install_language(app, lang) if app is not None else []
        self.win = ConsoleWindow(self.t.p, self.t.config, lang)
        qtbot.addWidget(self.win)
        self.win.show()
        self.lang, self.game = lang, game
        self.found: list[str] = []
        self.shots = {size: Shots(f"layout_{game}_{lang}_{size[0]}x{size[1]}") for size in SIZES}
        self.places: dict[tuple[int, int], dict[str, dict[int, QRect]]] = {s: {} for s in SIZES}
        self.sides: dict[tuple[int, int], dict[str, int]] = {s: {} for s in SIZES}
        self.chips: dict[tuple[int, int], dict[str, QRect]] = {s: {} for s in SIZES}

    def close(self) -> None:
        app = QApplication.instance()
        for tr in self.translators:
            if app is not None:
                app.removeTranslator(tr)

    def check(self, name: str) -> None:
        """This screen as it is, then with every banner: at both sizes."""
        view = self.t.p.view()
        for size in SIZES:
            more = banners(view).items()
            shown = [(name, view), *((f"{name}+{k}", v) for k, v in more)]
            for label, each in shown:
                self.win.resize(*size)
                self.win.show_view(each)
                QApplication.sendPostedEvents()
                QApplication.processEvents()
                if label == name or label.endswith(("not_ready", "message", "all", "two")):
                    self.shots[size].take(self.win, label)
                if label == name:  # where the seats are on this screen, without banners
                    self.places[size][name] = {
                        n: _rect(t, self.win) for n, t in self.win.table.tiles.items()
                    }
                    self.sides[size][name] = self.win.side.width()
                    if self.win.side.bets.isVisible():  # where the chips are
                        self.chips[size][name] = _rect(self.win.side.bets.chips[0], self.win)
                where = f"{self.game} {self.lang} {size[0]}x{size[1]} {label}"
                found = cut_texts(self.win) + cut_buttons(self.win) + overlaps(self.win)
                if (self.win.width(), self.win.height()) != size:  # the screen's, not grown
                    found.append(f"the window is {self.win.width()}x{self.win.height()}")
                self.found += [f"{where}: {f}" for f in found]
        self.win.show_view(self.t.p.view())

    def jumps(self) -> list[str]:
        """Seats whose tile is not as high or as tall as on the first screen (same size, no banner),
        and a side panel not as wide: a tile that grows at *rien ne va plus* or shrinks at the
        reveal, or a panel that widens for a keypad (the seats squeezed left), moves what the
        dealer is about to tap."""
        out = []
        for (w, h), screens in self.places.items():
            (first, rects), *rest = screens.items()
            out += [
                f"{self.game} {self.lang} {w}x{h} {name}: seat {n} at {r.getRect()}, "
                f"on {first} at {rects[n].getRect()}"
                for name, each in rest
                for n, r in each.items()
                if (r.top(), r.height()) != (rects[n].top(), rects[n].height())
            ]
        for (w, h), widths in self.sides.items():
            first_width = next(iter(widths.values()))
            out += [
                f"{self.game} {self.lang} {w}x{h} {name}: the side panel {px} px wide, "
                f"{first_width} px on the first screen"
                for name, px in widths.items()
                if px != first_width
            ]
        for (w, h), rects in self.chips.items():  # the chips stay put once a seat is chosen
            (first_name, first_rect), *others = rects.items()
            out += [
                f"{self.game} {self.lang} {w}x{h} {name}: the first chip at {r.getRect()}, "
                f"on {first_name} at {first_rect.getRect()}"
                for name, r in others
                if r != first_rect
            ]
        return out

    def decide_all(self) -> None:
        t = self.t
        for seat in list(t.p.snap.to_act):
            legal = next(s for s in t.p.snap.seats if s.seat == seat).legal
            choice = next(
                (a for a in legal if a.action == "check"),
                next(a for a in legal if a.action != "fold"),
            )
            t.p.decide(seat, choice)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("game", ["uth", "thb"])
def test_every_banked_screen_fits_in_both_sizes(
    qtbot: Any,
    console_app: Any,  # noqa: F811
    tmp_path: Path,
    game: str,
    lang: str,
) -> None:
    s = Screens(tmp_path, game, lang, qtbot)
    t, clock = s.t, s.clock
    try:
        s.check("bets_empty")
        bonus = "trips" if game == "uth" else "bonus"
        for seat in range(1, t.config.seats + 1):
            t.bet(seat, ante=1000, **{bonus: 500})
        t.bet(t.config.seats, ante=50000, **{bonus: 5000})  # the list's longest row: paid first
        t.p.tap_seat(3)
        s.check("bets_keypad")
        big(t, clock)
        s.check("decisions")
        s.decide_all()
        s.check("decided")
        big(t, clock)
        t.p.undo_or_correct(2)  # a pit boss corrects the last street's decision
        if t.view().correct is not None:
            t.p.choose_correction(t.view().correct.choices[0])  # type: ignore[union-attr]
            s.check("correction")
            t.p.correction_key("cancel")
        t.p.open_exposed()
        t.p.choose_exposed("board")
        s.check("exposed_card")
        t.p.cancel_exposed()
        while t.view().step is Step.DECISIONS:
            s.decide_all()
            big(t, clock)
        s.check("reveal")
        big(t, clock)
        s.check("settlement")
        for _ in range(3):
            big(t, clock)
        s.check("settlement_paid")
        while t.view().action is not None and t.view().action.kind == "next":
            big(t, clock)
        t.p.open_history()
        s.check("history")
        t.p.close_history()
        big(t, clock)  # the next hand
        t.bet(4, ante=1000)
        for seat in (1, 7):  # the void alarm's longest lines: every box, the largest amounts
            t.bet(seat, ante=50000, **{bonus: 5000})
        big(t, clock)
        t.p.decide(4, Action("preflop", "fold") if game == "thb" else Action("preflop", "check"))
        for seat in (1, 7):
            t.p.decide(
                seat, Action("preflop", "bet") if game == "thb" else Action("preflop", "play", 4)
            )
        clock.wait(1.0)
        t.p.void_hand()
        t.p.void_hand()
        s.check("void_alarm")  # seats without a bet in this hand: their tiles stay put too
    finally:
        s.close()
    found = s.found + s.jumps()
    assert found == [], "\n".join(found)
