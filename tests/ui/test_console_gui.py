"""The console under a virtual screen (Qt offscreen), driven by simulated taps through the real
TCRP/1 emulator on a pseudo-terminal: a full UTH hand, the privacy walk before every reveal, the
void alarm from a jammed shuffler, THB, Italian, touch-target sizes, and a screenshot of every
phase (artifacts/screenshots/)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from dealer_assist.record import settle_record
from tests.fixtures.console_conftest import (
    Shots,
    big,
    console_app,  # noqa: F401 (fixture)
    console_factory,  # noqa: F401 (fixture)
    decide,
    emulator_url,
    enter_bets,
    privacy_walk,
    tap,
    wait_step,
)
from ui.console.texts import outcome_text, total_text
from ui.console.view import Step


def test_full_uth_hand_by_taps_privacy_and_settlement(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", url=emulator_url(31))
    win = console.window
    shots = Shots("uth_full_hand")
    wait_step(qtbot, console, Step.BETS)
    shots.take(win, "bets_open_empty")
    enter_bets(qtbot, console, 1, ante=1000, trips=500)
    enter_bets(qtbot, console, 4, ante=2500)
    enter_bets(qtbot, console, 7, ante=500, trips=100)
    tiles = win.table.tiles
    assert tiles[1].boxes["blind"].amount.text() == "10"  # the Blind follows the Ante
    assert tiles[4].boxes["ante"].amount.text() == "25"
    shots.take(win, "bets_open")
    big(qtbot, console)  # rien ne va plus
    assert console.presenter.view().step is Step.DEALING
    shots.take(win, "rien_ne_va_plus")
    walks = 0
    wait_step(qtbot, console, Step.DECISIONS)
    # preflop: only the legal buttons, and the dealer's button waits for every seat
    assert [b.text().split("\n")[0] for b in tiles[1].buttons] == ["Play 4x", "Play 3x", "Check"]
    assert tiles[2].buttons == []
    assert not win.side.big.isEnabled()
    walks += privacy_walk(console)
    shots.take(win, "preflop")
    decide(qtbot, console, 1, "Play 4x")
    decide(qtbot, console, 4, "Check")
    decide(qtbot, console, 7, "Check")
    qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=5000)
    assert win.side.big.text() == "Turn the flop"
    walks += privacy_walk(console)
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    assert console.presenter.view().street == "flop"
    assert tiles[1].buttons == []  # seat 1 played 4x: nothing more to decide
    assert [b.text().split("\n")[0] for b in tiles[4].buttons] == ["Play 2x", "Check"]
    walks += privacy_walk(console)
    shots.take(win, "flop")
    decide(qtbot, console, 4, "Play 2x")
    decide(qtbot, console, 7, "Check")
    qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=5000)
    assert win.side.big.text() == "Turn the river"  # UTH: the last two cards
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    assert [b.text().split("\n")[0] for b in tiles[7].buttons] == ["Play 1x", "Fold"]
    walks += privacy_walk(console)
    shots.take(win, "river")
    decide(qtbot, console, 7, "Fold")
    qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=5000)
    assert win.side.big.text() == "Turn the dealer's cards"
    walks += privacy_walk(console)  # last look before the reveal
    big(qtbot, console)
    wait_step(qtbot, console, Step.REVEAL)
    shots.take(win, "reveal")
    hand = console.service.hand
    assert hand is not None
    expected = settle_record(hand.to_hand_record().to_json())
    qualifies = expected["dealer"]["qualifies"]
    want = "Dealer qualifies" if qualifies else "Dealer does not qualify — Ante pushes"
    assert win.table.qualify.text() == want and win.table.qualify.isVisible()
    assert [w.face for w in win.table.dealer] == list(hand.dealer_cards)
    big(qtbot, console)  # settle: the list, seat N first
    wait_step(qtbot, console, Step.SETTLEMENT)
    rows = win.side.settlement._widgets
    assert [r.seat for r in console.presenter.view().settlement] == [7, 4, 1]
    assert expected["settlement_order"] == [7, 4, 1]
    cur = "EUR"
    for i, seat in enumerate(expected["seats"]):
        view = console.presenter.view()
        current = [r for r in view.settlement if r.state == "current"]
        assert [r.seat for r in current] == [seat["seat"]]
        assert [s.seat for s in view.seats if s.highlighted] == [seat["seat"]]
        texts = [
            label.text()
            for label in win.side.settlement._widgets[i].findChildren(QWidget)
            if hasattr(label, "text")
        ]
        assert total_text(seat["net"], cur) in texts
        for b in seat["bets"]:
            assert outcome_text(b["outcome"], b["net"], cur) in texts
        shots.take(win, f"settlement_seat{seat['seat']}")
        big(qtbot, console)  # next
    assert len(rows) == 3
    assert win.side.big.text() == "New hand"
    stored = console.service.runner.stored
    assert stored is not None and stored.settlement == expected
    big(qtbot, console)
    wait_step(qtbot, console, Step.BETS)
    assert walks > 250
    shots.take(win, "next_hand_bets_open")
    assert len(shots.saved) == 11 and all(p.stat().st_size > 10_000 for p in shots.saved)


def test_void_alarm_from_a_jammed_shuffler(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", url=emulator_url(4, "jam_at=3&jam_clear_after=0.3"))
    win = console.window
    shots = Shots("void_alarm")
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 2, ante=1500, trips=200)
    enter_bets(qtbot, console, 6, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.VOID)
    alarm = win.alarm
    assert alarm.isVisible() and alarm.geometry() == win.centralWidget().rect()
    assert (
        alarm.reason.text() == "Shuffler fault\nCards jammed in the shuffler: clear the jam on "
        "the shuffler"
    )  # what to do, not the device's code
    cells = [w.text().replace("\u00a0", " ") for w in alarm.table.findChildren(QLabel)]
    assert cells == [
        "Seat 6",
        "Ante € 5.00",
        "Blind € 5.00",
        "Return € 10.00",
        "Seat 2",
        "Ante € 15.00",
        "Blind € 15.00",
        "Trips € 2.00",
        "Return € 32.00",
    ]
    assert alarm.returns.text().replace("\u00a0", " ") == "Total returned: € 42.00"
    shots.take(win, "void_alarm")
    stored = console.service.runner.stored
    assert stored is not None and stored.status == "void"  # journaled before the dealer acks
    assert all(b["net"] == 0 for s in stored.settlement["seats"] for b in s["bets"])
    tap(qtbot, alarm.ack)
    qtbot.waitUntil(lambda: not alarm.isVisible(), timeout=5000)

    def next_hand() -> None:
        step = console.presenter.view().step
        if step is Step.IDLE and win.side.big.isEnabled():
            tap(qtbot, win.side.big)  # the jam was still clearing: the dealer tries again
        assert step is Step.BETS

    qtbot.waitUntil(next_hand, timeout=10000)


def test_thb_hand_and_italian(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("thb", url=emulator_url(8), lang="it")
    win = console.window
    shots = Shots("thb_italian")
    wait_step(qtbot, console, Step.BETS)
    assert win.top.phase.text() == "PUNTATE APERTE"
    enter_bets(qtbot, console, 1, ante=1000, bonus=500)
    enter_bets(qtbot, console, 5, ante=500)
    shots.take(win, "puntate_aperte")
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    assert [b.text().split("\n")[0] for b in win.table.tiles[1].buttons] == ["Punta", "Passa"]
    labels = []
    while console.presenter.view().step in (Step.DECISIONS, Step.SHOWDOWN):
        privacy_walk(console)
        shots.take(win, f"{console.presenter.view().street or 'showdown'}")
        for seat in (1, 5):
            if win.table.tiles[seat].buttons:
                decide(qtbot, console, seat, "Punta")
        qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=5000)
        labels.append(win.side.big.text())
        big(qtbot, console)
        # the step returns at once; the street's cards (THB deals them now) follow on ticks
        qtbot.waitUntil(
            lambda: (
                not console.presenter.view().busy
                and console.presenter.view().step is not Step.DEALING
            ),
            timeout=10000,
        )
    assert labels == [
        "Scopri il Flop",
        "Scopri il Turn",
        "Scopri il River",
        "Scopri le carte del Banco",
    ]
    wait_step(qtbot, console, Step.REVEAL)
    assert win.top.phase.text() == "SCOPERTURA"
    assert not win.table.qualify.isVisible()  # THB: no qualification
    big(qtbot, console)
    wait_step(qtbot, console, Step.SETTLEMENT)
    shots.take(win, "pagamenti")
    view = console.presenter.view()
    assert [r.seat for r in view.settlement] == [5, 1]
    assert view.settlement[1].boxes[0].box == "bonus"  # Bonus is always settled first
    first = win.side.settlement._widgets[0]
    texts = [w.text() for w in first.findChildren(QWidget) if hasattr(w, "text")]
    assert "Posto 5" in texts[0] and any(t.startswith(("Paga", "Ritira", "Saldo")) for t in texts)
    assert win.side.big.text() == "Avanti"


def test_touch_targets_and_small_screen(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", url=emulator_url(12), size=(1280, 800))
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 3, ante=500)
    enter_bets(qtbot, console, 5, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.DECISIONS)
    Shots("small_screen").take(win, "preflop_1280x800")
    assert (win.width(), win.height()) == (1280, 800)  # nothing forced the window larger
    targets = [*win.findChildren(QAbstractButton), *win.table.tiles.values()]
    small = [
        (type(w).__name__, w.text() if isinstance(w, QAbstractButton) else "", w.size())
        for w in targets
        if w.isVisible() and w.objectName() != "box" and min(w.width(), w.height()) < 64
    ]
    assert not small, f"touch targets under 64 px: {small}"
    buttons = win.table.tiles[3].buttons
    assert len(buttons) == 3 and all(b.height() >= 64 for b in buttons)
    inside = win.table.rect()
    for tile in win.table.tiles.values():
        assert inside.contains(tile.geometry()), f"seat {tile.seat} leaves the table area"


def test_seat_one_is_on_the_dealers_left(console_app: Any) -> None:  # noqa: F811
    """The dealer faces the players from the straight edge (the bottom of the screen): seat 1
    (first base, the dealer's left) is the lowest tile on the left, seat 7 on the right;
    ``mirror`` flips it for a screen read from the players' side."""
    from dealer_assist.config import load_table_config
    from ui.console.presenter import ConsolePresenter
    from ui.console.window import ConsoleWindow

    config = load_table_config(game="uth")
    for mirror in (False, True):
        window = ConsoleWindow(
            ConsolePresenter(config, lambda cmd: None), config, "en", mirror=mirror
        )
        window.resize(1920, 1080)
        window.show()
        console_app.processEvents()
        tiles = window.table.tiles
        xs = [tiles[n].geometry().center().x() for n in range(1, 8)]
        assert xs == sorted(xs, reverse=mirror)
        ys = [tiles[n].y() for n in range(1, 8)]
        assert ys[0] == ys[6] == max(ys) and ys[3] == min(ys)  # an arc, ends by the dealer
        window.close()
