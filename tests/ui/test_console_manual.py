"""The console with its card sources failing over, by simulated taps under a virtual screen (Qt
offscreen) on the real TCRP/1 emulator over a pseudo-terminal (issues 4 and 5):

- the shuffler dies mid-hand: the hand voids (alarm), the keypad takes over with a visible notice,
  and the next hand is typed card by card — the screen names each position, never shows a typed
  card back, and the runner's card timeout does not void it while the dealer types;
- an unreadable card with ``dealer_identifies``: the dealer enters it, a pit boss (badge + PIN
  from a scrypt roster) enters it too; a wrong PIN and a different card are refused; then a card
  exposed by mistake is recorded and play goes on;
- a jammed shuffler between hands: "device not ready" blocks the next hand until it clears.

Screenshots go to artifacts/screenshots/<test>/ (docs/screenshots/ holds copies).
"""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QAbstractButton, QApplication

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.config import SourceConfig
from dealer_assist.engine.state import Position
from dealer_assist.table.crosscheck import read_dealt_log
from drivers.failover.table import open_table_sources
from tests.fixtures.console_conftest import (
    Shots,
    big,
    console_app,  # noqa: F401 (fixture)
    console_factory,  # noqa: F401 (fixture)
    decide,
    emulator_url,
    enter_bets,
    hidden_now,
    privacy_walk,
    table,
    tap,
    type_card,
    wait_step,
)
from ui.console.app import Console
from ui.console.view import Step
from ui.kit.card_texts import position_text
from ui.kit.pitboss import PitBossRoster


def finish_hand(qtbot: Any, console: Console, seats: tuple[int, ...]) -> None:
    """Check, check, fold, then the dealer's cards: the hand settles."""
    for label in ("Check", "Check", "Fold"):
        wait_step(qtbot, console, Step.DECISIONS)
        for seat in seats:
            decide(qtbot, console, seat, label)
        qtbot.waitUntil(lambda: console.window.side.big.isEnabled(), timeout=5000)
        big(qtbot, console)
    wait_step(qtbot, console, Step.REVEAL)


def next_hand(qtbot: Any, console: Console) -> None:
    """After a void: the hand opens when the device is ready (the dealer taps New hand)."""

    def opened() -> None:
        view = console.presenter.view()
        if view.step is Step.IDLE and console.window.side.big.isEnabled():
            tap(qtbot, console.window.side.big)
        assert view.step is Step.BETS and not view.busy

    qtbot.waitUntil(opened, timeout=10000)


def test_shuffler_dies_mid_hand_then_the_dealer_types_every_card(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
) -> None:
    base = table("uth")
    src = base.sources[0]
    url = emulator_url(11, "card_interval=0.25")  # slow enough to be cut mid-deal
    config = dataclasses.replace(
        base, sources=(SourceConfig(url, src.pin_model, src.pin_serial),)
    )  # then the keypad, added by open_table_sources
    console = console_factory(
        config=config,
        make_source=lambda: open_table_sources(config, switch_after=0.3),
        card_timeout=1.5,
    )
    win, p = console.window, console.presenter
    shots = Shots("source_failover_manual")
    wait_step(qtbot, console, Step.BETS)
    assert "emulator" in win.top.device.text()
    enter_bets(qtbot, console, 2, ante=500)
    enter_bets(qtbot, console, 6, ante=1000)
    big(qtbot, console)
    qtbot.waitUntil(lambda: p.snap.placed >= 2, timeout=5000)  # progress while it deals
    emulator = console.service.active_source
    os.kill(emulator.emulator.pid, signal.SIGKILL)
    wait_step(qtbot, console, Step.VOID)
    assert win.alarm.isVisible()
    assert "Link to the shuffler lost" in win.alarm.reason.text()
    shots.take(win, "void_source_lost")
    tap(qtbot, win.alarm.ack)
    qtbot.waitUntil(lambda: win.notice.isVisible(), timeout=5000)
    notice = win.notice.text.text()
    assert "Card source changed: emulator → manual." in notice
    assert "types every card on the keypad" in notice
    assert win.notice.reason.text().startswith("Reason: Shuffler cable disconnected")
    next_hand(qtbot, console)
    assert win.top.device.text() == "Source: manual · cards typed on the keypad"
    shots.take(win, "source_switched")
    tap(qtbot, win.notice.ok)
    assert not win.notice.isVisible()

    enter_bets(qtbot, console, 2, ante=500)
    enter_bets(qtbot, console, 6, ante=1000, trips=500)
    big(qtbot, console)  # rien ne va plus: now the dealer deals and types
    wait_step_manual(qtbot, console)
    page = win.side.entry
    assert page.isVisible() and page.manual_keys.isVisible()
    assert win.top.phase.text() == "MANUAL ENTRY"
    assert page.position.text() == "Board — card 1" and page.progress.text() == "Card 1 of 11"
    qtbot.wait(2000)  # the dealer is slow: longer than the 1.5 s card timeout
    assert p.view().step is Step.MANUAL
    deck = list(FULL_DECK[20:31])
    plan: list[Position | None] = []  # as the screen names them
    for i, card in enumerate(deck):
        view = p.view()
        assert view.entry is not None and view.entry.number == i + 1
        plan.append(view.entry.position)
        assert page.position.text() == position_text(view.entry.position)
        if i == 7:
            privacy_walk(console, set(deck[:i]))  # every typed card is face down
            shots.take(win, "manual_entry")
        type_card(qtbot, page.manual_keys, card)
        assert page.manual_keys.preview.text() == "—"  # not shown back
        qtbot.waitUntil(lambda: p.view().entry is None or not p.view().entry.waiting)
    wait_step(qtbot, console, Step.DECISIONS)
    privacy_walk(console)
    assert [str(pos) for pos in plan][:6] == [
        "board 1",
        "board 2",
        "board 3",
        "board 4",
        "board 5",
        "seat 2 card 1",
    ]
    finish_hand(qtbot, console, (2, 6))
    stored = console.service.runner.stored
    assert stored is not None and stored.status == "settled"
    cards = stored.extra["cards"]
    assert [c["card"] for c in cards] == [str(c) for c in deck]
    assert all(c["source"] == "manual" and c["manual"] for c in cards)


def fits(console: Console) -> None:
    """At 1280x800 the card keypads fit: the window keeps its size, every visible key of the
    side panel is a 64 px touch target and lies inside the panel."""
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    win = console.window
    assert (win.width(), win.height()) == (1280, 800)
    side = win.side
    keys = [b for b in side.findChildren(QAbstractButton) if b.isVisible()]
    assert len(keys) >= 15  # a pad and the void button at least
    small = [b.text() for b in keys if min(b.width(), b.height()) < 64]
    assert not small, f"touch targets under 64 px: {small}"
    for b in keys:
        corner = b.mapTo(side, b.rect().bottomRight())
        assert side.rect().contains(corner), f"{b.text()!r} leaves the panel"


def wait_step_manual(qtbot: Any, console: Console) -> None:
    """The manual step shows while the worker still waits for the deal (busy is expected)."""
    qtbot.waitUntil(lambda: console.presenter.view().step is Step.MANUAL, timeout=10000)


def test_unreadable_card_identified_then_an_exposed_card(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
    tmp_path: Path,
    card_log: Path,
) -> None:
    roster = PitBossRoster(tmp_path / "pit_bosses.json")
    roster.add("4711", "2468")
    dealt_log = card_log
    config = dataclasses.replace(table("uth"), unreadable_card="dealer_identifies")
    url = emulator_url(13, f"unreadable_at=3&dealt_log={dealt_log}")
    console = console_factory(config=config, url=url, roster=roster, size=(1280, 800))
    win, p = console.window, console.presenter
    page = win.side.entry
    shots = Shots("unreadable_card")
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 3, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.IDENTIFY)
    assert page.title.text() == "Unreadable card" and page.position.text() == "Board — card 3"
    ident = console.service.runner.identification
    assert ident is not None
    log = read_dealt_log(dealt_log)
    actual = parse_card(log[(ident.deck_id, ident.index)])
    first = parse_card(log[(ident.deck_id, 1)])  # already on the table, face down
    type_card(qtbot, page.ident_keys, first)  # a misreading: refused without naming the card
    qtbot.waitUntil(lambda: not p.view().busy)
    assert win.side.message.text().startswith("That card is already in this deck")
    privacy_walk(console, hidden_now(console) | {actual})
    type_card(qtbot, page.ident_keys, actual)  # the dealer reads it
    qtbot.waitUntil(lambda: p.view().entry is not None and p.view().entry.mode == "confirm")
    assert page.pinpad.isVisible() and page.title.text() == "Pit boss confirmation"
    privacy_walk(console, hidden_now(console) | {actual})
    shots.take(win, "pit_boss")
    fits(console)

    def pit_boss(badge: str, pin: str, card: Card) -> None:
        for digit in badge:
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        for digit in pin:
            tap(qtbot, page.pinpad.keys[digit])
        assert page.pinpad.pin.text() == "PIN: " + "•" * len(pin)  # never the digits
        tap(qtbot, page.pinpad.keys["next"])
        assert page.ident_keys.isVisible()
        fits(console)
        type_card(qtbot, page.ident_keys, card)
        qtbot.waitUntil(lambda: not p.view().busy, timeout=10000)

    log = read_dealt_log(dealt_log)
    dealt = {v for (deck, _), v in log.items() if deck == ident.deck_id}
    other = next(c for c in FULL_DECK if str(c) not in dealt)
    pit_boss("4711", "1111", other)  # wrong PIN: nothing changes
    assert win.side.message.text().startswith("Pit boss not recognised")
    assert p.view().entry is not None and p.view().entry.pin_field == "badge"
    assert console.service.runner.identification is not None
    pit_boss("4711", "2468", other)  # the same card is taken again; it is not the dealer's
    assert win.side.message.text().startswith("The pit boss entered a different card")
    assert p.view().entry is not None and p.view().entry.mode == "identify"
    type_card(qtbot, page.ident_keys, actual)
    qtbot.waitUntil(lambda: p.view().entry is not None and p.view().entry.mode == "confirm")
    pit_boss("4711", "2468", actual)
    wait_step(qtbot, console, Step.DECISIONS)
    privacy_walk(console)

    # a card exposed by mistake: recorded, not a misdeal
    tap(qtbot, win.side.play.expose)
    form = win.side.exposed
    assert form.isVisible() and list(form.places) == ["seat 3", "dealer", "board"]
    assert not form.record.isEnabled()
    tap(qtbot, form.places["seat 3"])
    exposed = console.service.hand.seats[3].hole[1]
    form.keys.choose(str(exposed)[0], str(exposed)[1])
    shots.take(win, "exposed_card")
    fits(console)
    tap(qtbot, form.record)
    wait_step(qtbot, console, Step.DECISIONS)
    assert win.side.message.text() == "Exposed card recorded (Seat 3). Play goes on."
    assert "Exposed cards recorded: 1" in win.side.play.hint.text()
    assert form.keys.preview.text() == "—"
    finish_hand(qtbot, console, (3,))
    stored = console.service.runner.stored
    assert stored is not None and stored.status == "settled"
    card = next(c for c in stored.extra["cards"] if c["index"] == ident.index)
    assert card["card"] == str(actual) and card["manual"]
    assert (card["identified_by"], card["confirmed_by"]) == ("dealer", "4711")
    assert [(e["position"], e["card"]) for e in stored.extra["exposed_cards"]] == [
        ("seat 3", str(exposed))
    ]


def test_device_not_ready_blocks_the_next_hand_until_the_fault_clears(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
) -> None:
    console = console_factory(url=emulator_url(4, "jam_at=3&jam_clear_after=2.5"))
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    assert not win.not_ready.isVisible()
    enter_bets(qtbot, console, 4, ante=500)
    big(qtbot, console)
    wait_step(qtbot, console, Step.VOID)
    tap(qtbot, win.alarm.ack)
    wait_step(qtbot, console, Step.IDLE)
    assert win.not_ready.isVisible()
    assert win.not_ready.text.text().startswith("Cards jammed in the shuffler: clear the jam")
    assert win.side.big.text() == "New hand" and not win.side.big.isEnabled()
    Shots("device_not_ready").take(win, "not_ready")
    qtbot.waitUntil(lambda: win.side.big.isEnabled(), timeout=8000)  # the jam clears
    assert not win.not_ready.isVisible()
    big(qtbot, console)
    wait_step(qtbot, console, Step.BETS)
