"""The poker console's layout at the tables' real screens: Hold'em with 9 players and Stud with 8,
long player names, every banner shown (device not ready, card-source switch, storage fault, the
"resumed" notice), in English and Italian, at 1280x800 and 1920x1080: no text cut or elided, no
button's text cut, no two of the panel's buttons over each other, and on the felt no tile, card
row, bet, mark, pot line, board or community card over another. Real service and SQLite journal,
the window offscreen (pytest-qt); the screenshots are saved under artifacts/screenshots.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from tests.conftest import REPO
from tests.fixtures import poker_table as poker_tests
from tests.fixtures.layout_checks import layout_faults
from tests.fixtures.poker_table import Table
from tests.ui.test_poker_console_stud import StudTable
from ui.kit.status import SourceNotice, StorageBanner
from ui.kit.storage_notice import LOST
from ui.poker.commands import Act, PlaceButton, Reshuffle, SeatPlayer, Show
from ui.poker.window import PokerWindow

SHOTS = REPO / "artifacts" / "screenshots" / "poker_layout"
SIZES = ((1280, 800), (1920, 1080))
NAMES = (
    "Massimiliano Bartolomei",
    "Anna-Maria Castellani",
    "Bruno Dell'Acqua",
    "Carla Fumagalli",
    "Dario Giordanelli",
    "Elena Lombardozzi",
    "Franco Montecchi",
    "Giulia Pellegrini",
    "Hugo Quattrocchi",
)
GAMES = {"holdem": 9, "stud": 8}


@pytest.fixture(
    params=[(g, lang) for g in GAMES for lang in ("en", "it")], ids=lambda p: f"{p[0]}-{p[1]}"
)
def console(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> Iterator[tuple[Table, PokerWindow, str, str]]:
    from ui.kit.boot import qt_app
    from ui.kit.format import set_language
    from ui.kit.i18n import install_language

    game, lang = request.param
    app = qt_app()
    translators = install_language(app, lang) if lang == "it" else []
    set_language(lang)
    monkeypatch.setattr(poker_tests, "cfg", lambda: load_table_config(game=game))
    t: Any = Table(tmp_path) if game == "holdem" else StudTable(tmp_path)  # its card source
    win = PokerWindow(t.p, t.config, lang)
    qtbot.addWidget(win)
    win.show()
    try:
        yield t, win, game, lang
    finally:
        t.close()
        for tr_ in translators:
            app.removeTranslator(tr_)
        set_language("en")


def seat_everyone(t: Table, game: str) -> None:
    high = t.config.poker.buy_in[1]
    for seat in range(1, GAMES[game] + 1):
        t.run(SeatPlayer(800 + seat, seat=seat, name=NAMES[seat - 1], amount=high - 100 * seat))
        assert t.p.snap.error is None, t.p.snap.error
    if game == "holdem":
        t.run(PlaceButton(899, seat=9))


def with_banners(t: Table) -> None:
    """Every banner at once: the source switched to the keypad, the journal's storage lost, the
    device not ready, the hand resumed after a restart."""
    s = t.p.snap
    notice = SourceNotice(1, "usb-shuffler", "manual", "link lost", manual=True)
    t.p.on_snapshot(
        replace(
            s,
            notice=notice,
            storage=StorageBanner(LOST, (), True, 1),
            device=replace(s.device, ready=False, why_not_ready="door open"),
            resumed=s.in_hand,
        )
    )


def felt_overlaps(win: PokerWindow) -> list[str]:
    """The felt's named widgets (tiles, card rows, bets, marks, button, board, community card,
    pots) that overlap another, by name."""
    felt = win.felt
    named: list[tuple[str, Any]] = [(f"tile {s}", w) for s, w in felt.tiles.items()]
    named += [(f"cards {s}", w) for s, w in felt.shown.items()]
    named += [(f"bet {s}", w) for s, w in felt.bets.items()]
    named += [(f"mark {s}", w) for s, w in felt.marks.items()]
    named += [
        ("button", felt.button),
        ("board", felt.board_box),
        ("pots", felt.pots),
        ("community", felt.community),
    ]
    shown = [(n, w.geometry()) for n, w in named if w.isVisible()]
    out = []
    for i, (a, ra) in enumerate(shown):
        for b, rb in shown[i + 1 :]:
            if ra.intersects(rb):
                out.append(f"{a} over {b}")
    return out


def rich_cut(win: PokerWindow) -> list[str]:
    """The panel's rich-text labels (the award, the facts) whose lines need more height than
    they have (the plain texts are :func:`layout_faults`')."""
    out = []
    for label in (win.side.awards, win.side.facts):
        need = label.heightForWidth(label.width())
        if label.isVisible() and need > label.height():
            out.append(f"{label.objectName()}: needs {need} px, has {label.height()}")
    return out


def check(app: Any, win: PokerWindow, name: str, game: str, lang: str) -> list[str]:
    faults = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        win.resize(*size)
        for _ in range(4):
            app.processEvents()
        found = layout_faults(win, size, lang) + felt_overlaps(win) + rich_cut(win)
        view = win.presenter.view()  # every bar the view raises is on screen, none hidden
        raised = (
            ("device not ready", view.not_ready, win.not_ready),
            ("source switched", view.notice is not None, win.notice),
            ("storage", view.storage is not None, win.storage),
        )
        found += [f"the {n} bar is hidden" for n, up, bar in raised if up and not bar.isVisible()]
        faults += [f"{game} {lang} {size} {name}: {f}" for f in found]
        win.grab().save(str(SHOTS / f"{game}-{name}-{lang}-{size[0]}x{size[1]}.png"))
    return faults


def test_every_poker_screen_fits_with_long_names_and_every_banner(
    console: tuple[Table, PokerWindow, str, str],
) -> None:
    from ui.kit.boot import qt_app

    app = qt_app()
    t, win, game, lang = console
    seat_everyone(t, game)
    faults = []
    with_banners(t)
    t.p.tap_seat(2)
    faults += check(app, win, "between", game, lang)
    t.p.tap_seat(2)
    t.p.tap_new_hand()
    t.deal({})
    with_banners(t)
    faults += check(app, win, "first-street", game, lang)
    t.p.tap_digit("3")  # 3.00, below the minimum raise of 4.00: the hint says why
    faults += check(app, win, "amount-refused", game, lang)
    for _ in range(200):  # everybody calls or checks to the showdown
        legal = t.p.snap.legal
        if t.p.snap.new_deck:  # Stud, eight players to seventh street: a community card
            faults += check(app, win, "deck-short", game, lang)
            t.run(Reshuffle(t.p.outbox.seq + 1000 + _))
            t.deal({})
            continue
        if not t.p.snap.in_hand or legal is None:
            break
        kind = next(k for k in ("show", "check", "call", "bring_in") if k in legal.kinds)
        cmd = (
            Show(0, seat=legal.seat, shown=True)
            if kind == "show"
            else (Act(0, seat=legal.seat, action=kind))
        )
        t.run(replace(cmd, seq=t.p.outbox.seq + 1000 + _))
        t.deal({})
    assert t.p.step() == "settled", t.p.step()
    if game == "stud":  # eight players to seventh street: the card for everyone, named
        assert win.felt.community.isVisible()
        assert win.felt.community.text() == ("Carta comune" if lang == "it" else "Community card")
    faults += check(app, win, "award", game, lang)
    assert faults == [], "\n".join(faults)
