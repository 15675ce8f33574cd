"""The poker-room console's window at work (pytest-qt, offscreen): the card keypad, an
unreadable card, the device bar, a console abandoned mid-hand and resumed."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from pathlib import Path
from typing import Any

from dealer_assist.cards import Card, parse_card
from tests.fixtures.console_conftest import card_patterns, widget_strings
from tests.fixtures.poker_table import (
    PLAYERS,
    SIDE,
    Table,
    act,
    cfg,
    deck_for,
    seat_two,
    start_window,
)
from ui.kit.commands import Tick
from ui.poker.snapshot import PokerSnapshot


def test_manual_entry_on_the_card_keypad_echoes_no_card_and_names_no_duplicate(
    qtbot: Any, tmp_path: Path
) -> None:
    from tests.fixtures.console_conftest import tap, type_card

    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.step() == "manual", timeout=5000)
        page = win.side.entry
        keys = page.manual_keys
        assert keys.isVisible() and page.position.text() == "Seat 3 — card 1"
        assert not keys.preview.isVisible()
        holes = [parse_card(c) for c in ("As", "Kd", "Qh", "Jc")]
        typed: list[Card] = []
        for card in holes:
            before = len(p.snap.awaiting)
            tap(qtbot, keys.rank_buttons[str(card)[0]])
            tap(qtbot, keys.suit_buttons[str(card)[1]])
            assert keys.preview.text() == "—"  # the chosen card is not echoed
            tap(qtbot, keys.confirm_button)
            typed.append(card)
            qtbot.waitUntil(lambda b=before: len(p.snap.awaiting) < b or p.step() != "manual",
                            timeout=5000)  # fmt: skip
            strings = widget_strings(win)
            for c in typed:
                assert not any(x.search(t) for x in card_patterns(c) for t in strings), c
            if len(typed) == 2:  # a hole card typed again: refused, not named, not shown
                type_card(qtbot, keys, typed[0])
                qtbot.waitUntil(lambda: p.message is not None, timeout=3000)
                assert p.message is not None and p.message.code == "card_taken"
                text = win.side.message.text()
                assert text.startswith("That card is already in this deck")  # as the keypad
                assert not any(x.search(text) for x in card_patterns(typed[0]))
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=5000)
        assert all(not s.shown for s in p.snap.seats)
        stored = console.service.runner.hand
        assert stored is not None and stored.view("dealer").pending == ()
    finally:
        console.close()


def test_an_unreadable_card_is_entered_by_the_dealer_and_confirmed_by_a_pit_boss(
    qtbot: Any, tmp_path: Path, card_log: Path
) -> None:
    import dataclasses

    from dealer_assist.table.crosscheck import read_dealt_log
    from drivers.factory import open_source
    from tests.fixtures.console_conftest import emulator_url, tap, type_card
    from ui.kit.pitboss import PitBossRoster

    roster = PitBossRoster(tmp_path / "pit_bosses.json")
    roster.add("4711", "2468")
    config = dataclasses.replace(cfg(), unreadable_card="dealer_identifies")
    dealt_log = card_log
    url = emulator_url(21, f"unreadable_at=2&dealt_log={dealt_log}")
    console = start_window(qtbot, tmp_path, config=config, roster=roster,
                           make_source=lambda: open_source(url))  # fmt: skip
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.step() == "identify", timeout=10000)
        page = win.side.entry
        assert page.title.text() == "Unreadable card" and page.ident_keys.isVisible()
        runner = console.service.runner
        ident = runner.identification
        assert ident is not None
        actual = parse_card(read_dealt_log(dealt_log)[(ident.deck_id, ident.index)])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.view().entry is not None and p.view().entry.mode == "confirm",
                        timeout=5000)  # fmt: skip
        assert not any(x.search(t) for x in card_patterns(actual) for t in widget_strings(win))
        for digit in "4711":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        for digit in "1111":  # a wrong PIN: nothing changes
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.message is not None and p.message.code == "pit_boss",
                        timeout=5000)  # fmt: skip
        assert runner.identification is not None
        for digit in "4711":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        for digit in "2468":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=10000)
        assert runner.identification is None
        assert all(not s.shown for s in p.snap.seats)
    finally:
        console.close()


def test_device_not_ready_bar_source_notice_and_the_held_off_acknowledgement(
    qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import QRect

    from dealer_assist.events import SourceSwitched
    from tests.fixtures.console_conftest import tap
    from ui.kit.status import DeviceStatus
    from ui.poker.presenter import ACK_HOLD_S

    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        # a failover to another source: the amber notice until the dealer taps OK
        console.bridge.send(Tick(0))  # a tick on the worker
        console.service.runner.handle(SourceSwitched(from_source="usb", to_source="manual",
                                                     reason="link lost"))  # fmt: skip
        qtbot.waitUntil(lambda: win.notice.isVisible(), timeout=5000)
        assert "usb → manual" in win.notice.text.text()
        assert (
            win.notice.reason.text() == "Reason: Shuffler cable disconnected or shuffler "
            "switched off: plug the cable back in and switch it on"
        )
        tap(qtbot, win.notice.ok)
        assert not win.notice.isVisible()
        # the device not ready between hands: the red bar, and New hand waits
        sick = DeviceStatus(connected=True, ready=False, faults=("JAM",), source="usb",
                            source_kind="device", why_not_ready="fault JAM")  # fmt: skip
        p.on_snapshot(replace_device(p.snap, sick))
        assert win.not_ready.isVisible() and "Cards jammed" in win.not_ready.text.text()
        assert p.view().not_ready
        well = DeviceStatus(connected=True, ready=True, source="manual", source_kind="manual")
        p.on_snapshot(replace_device(p.snap, well))
        assert not win.not_ready.isVisible()
        # the void alarm: "Acknowledged" away from every button tapped to void, held off
        clock = iter(float(x) for x in range(1000, 2000))
        p.clock = lambda: next(clock)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.snap.in_hand, timeout=5000)

        def spots() -> list[QRect]:  # the buttons tapped now: void, confirm, New hand
            shown = [b for b in (win.side.bar.void, win.side.void2, win.side.entry.void,
                                 win.side.new_btn) if b.isVisible()]  # fmt: skip
            return [QRect(b.mapTo(win, b.rect().topLeft()), b.size()) for b in shown]

        taps = spots()
        assert taps
        p.tap_void()
        p.tap_void()
        qtbot.waitUntil(lambda: p.step() == "void", timeout=5000)
        ack = win.alarm.ack
        assert win.alarm.isVisible()
        where = QRect(ack.mapTo(win, ack.rect().topLeft()), ack.size())
        assert not any(where.intersects(s) for s in taps)
        sent = len([c for c in console.presenter.outbox.waiting])
        p.clock = lambda: 1000.0 + 1.5  # before the hold-off has passed since the alarm
        p._alarm_at = 1001.0
        p.tap_ack()
        assert p.step() == "void" and len(p.outbox.waiting) == sent
        p.clock = lambda: 1001.0 + ACK_HOLD_S + 0.1
        p.on_snapshot(p.snap)
        tap(qtbot, ack)
        qtbot.waitUntil(lambda: p.step() == "between", timeout=5000)
        assert win.side.new_btn.isVisible() and not any(where.intersects(s) for s in spots())
    finally:
        console.close()


def replace_device(snap: PokerSnapshot, device: Any) -> PokerSnapshot:
    import dataclasses

    return dataclasses.replace(snap, device=device, seq=snap.seq)


def test_a_console_abandoned_mid_hand_resumes_it_with_every_stack_right(
    qtbot: Any, tmp_path: Path
) -> None:
    cards = deck_for(*SIDE)
    first = Table(tmp_path)
    first.seat_all()
    first.p.tap_new_hand()
    first.deal(cards)
    act(first, "raise", first.p.snap.legal.maximum if first.p.snap.legal else 0, cards)
    act(first, "call", None, cards)  # Dario all-in, Anna calls: then the process dies
    before = first.p.snap
    uid, actor = before.hand_uid, before.actor
    put_in = {s.seat: s.put_in for s in before.seats}
    # nothing is closed: a new console on the same journal file
    again = Table(tmp_path)
    try:
        snap = again.p.snap
        assert snap.resumed and snap.in_hand and snap.hand_uid == uid and snap.actor == actor
        assert {s.seat: s.put_in for s in snap.seats} == put_in
        assert {s.seat: s.stack for s in snap.seats} == {s.seat: s.stack for s in before.seats}
        again.entered |= {(uid, f"seat {s} card {n}") for s in (1, 3, 5, 7) for n in (1, 2)}
        act(again, "fold", None, cards)  # Bruno
        act(again, "call", None, cards)  # Carla
        act(again, "bet", 2500, cards)
        act(again, "call", None, cards)
        while again.p.snap.in_hand:
            act(again, "check", None, cards)
        final = again.p.snap
        assert final.phase == "settled" and final.journaled and not final.resumed
        after = dict(final.after)
        assert after == {1: 34500, 3: 9900, 5: 9500, 7: 24100}
        assert sum(after.values()) == sum(p[2] for p in PLAYERS)
        stored = again.service.journal.last_hand() if again.service.journal else None
        assert stored is not None and stored.extra.get("resumed") == 1
    finally:
        again.close()


def test_the_window_says_the_hand_was_resumed_after_a_restart(qtbot: Any, tmp_path: Path) -> None:
    first = start_window(qtbot, tmp_path, name="r.db")
    p = first.presenter
    seat_two(first, qtbot)
    p.tap_new_hand()
    qtbot.waitUntil(lambda: p.step() == "manual", timeout=5000)
    uid = p.snap.hand_uid
    first.bridge.shutdown()  # the worker stops: the step log holds the hand, as after kill -9
    first.window.close()
    second = start_window(qtbot, tmp_path, name="r.db")
    try:
        q, win = second.presenter, second.window
        qtbot.waitUntil(lambda: q.snap.hand_uid == uid and q.snap.resumed, timeout=10000)
        label = win.side.resumed
        assert label.isVisible() and label.text() == "Resumed after a restart: the hand goes on"
    finally:
        second.close()
