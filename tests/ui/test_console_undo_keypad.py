"""The undo of a chip acts on the selected seat and names it; the manual keypad frees a card
dropped by *Re-enter the last card* and leaves no rank or suit key lit after an entry or a
refusal (a lit key would tell onlookers a face-down card). Qt offscreen, the real table service
and SQLite journal; the keypad is the card source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QPushButton

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from tests.fixtures.console_conftest import (  # noqa: F401
    Shots,
    console_app,
    console_factory,
    enter_bets,
    tap,
    wait_step,
)
from tests.fixtures.console_conftest import type_card as typed
from tests.ui.test_console_sources import NO_DEVICE, with_sources
from tests.ui.test_console_walk import Clock, walk_table
from ui.console.texts import message_text
from ui.console.view import Step
from ui.kit.boot import source_factory
from ui.kit.card_keypad import CardKeypad

pytestmark = pytest.mark.integration


def test_the_chip_undo_takes_back_the_selected_seats_chip_and_names_it(tmp_path: Path) -> None:
    t, _ = walk_table(tmp_path)
    t.p.tap_seat(1)
    t.p.tap_chip(1000)  # seat 1: Ante 10
    t.p.tap_seat(7)
    t.p.tap_box(7, "trips")
    t.p.tap_chip(500)  # seat 7: Trips 5, the last chip on the table
    t.p.tap_seat(1)  # the dealer looks at seat 1 again...
    assert t.view().can_undo_chip
    t.p.undo_chip()  # ...and its undo takes back seat 1's chip, not seat 7's Trips
    assert t.p.book.amount(1, "ante") == 0 and t.p.book.amount(7, "trips") == 500
    message = t.view().message
    assert message is not None and message_text(message, "EUR").startswith("Seat 1:")
    assert not t.view().can_undo_chip  # seat 1 has nothing more to take back
    t.p.tap_seat(7)
    assert t.view().can_undo_chip
    t.p.tap_seat(3)
    assert not t.view().can_undo_chip  # an empty seat: nothing to undo


def test_the_chip_undo_button_names_the_seat(qtbot: Any, console_factory: Any) -> None:  # noqa: F811
    console = console_factory("uth", size=(1280, 800))
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 7, ante=1000, trips=500)
    tap(qtbot, console.window.table.tiles[1])
    undo: QPushButton = console.window.side.bets.undo_chip
    assert not undo.isEnabled() and "1" in undo.text()
    assert "seat 1" in undo.accessibleName()
    tap(qtbot, console.window.table.tiles[7])
    assert undo.isEnabled() and "7" in undo.text() and "seat 7" in undo.toolTip()


def _lit(keys: CardKeypad) -> list[str]:
    return [
        b.text()
        for b in (*keys.rank_buttons.values(), *keys.suit_buttons.values())
        if b.isChecked()
    ]


def test_a_card_typed_again_is_free_and_no_key_stays_lit(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
) -> None:
    config = with_sources(load_table_config(game="uth"), NO_DEVICE)
    clock = Clock()  # the re-enter window does not run out while the test taps
    console = console_factory(
        config=config,
        make_source=source_factory(config),
        size=(1280, 800),
        clock=clock,
        guards={"tap_guard": 0.0, "alarm_guard": 0.0, "steady_hold": 0.0},
    )
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 4, ante=1000)
    tap(qtbot, win.side.big)
    qtbot.waitUntil(lambda: console.presenter.view().step is Step.MANUAL, timeout=10000)
    keys = win.side.entry.manual_keys
    deck = list(FULL_DECK[30:39])

    def type_card(qtbot: Any, keys: CardKeypad, card: Any) -> None:
        qtbot.waitUntil(keys.isEnabled, timeout=5000)  # the card before is in the deal
        typed(qtbot, keys, card)

    type_card(qtbot, keys, deck[0])
    mistyped = deck[5]
    type_card(qtbot, keys, mistyped)  # held: not in the deal yet
    assert _lit(keys) == []  # entered: nothing lit
    qtbot.waitUntil(lambda: win.side.reenter.isVisible(), timeout=5000)
    tap(qtbot, win.side.reenter)  # the dealer drops it...
    qtbot.waitUntil(lambda: not win.side.reenter.isVisible(), timeout=5000)
    qtbot.waitUntil(lambda: keys.isEnabled(), timeout=5000)  # the first card is in the deal
    keys.choose(str(mistyped)[0], str(mistyped)[1])  # ...and it may be typed where it goes
    assert keys.confirm_button.isEnabled() and keys.hint.text() == ""
    keys.clear()
    type_card(qtbot, keys, deck[1])
    first = str(deck[0])
    keys.choose(first[0], first[1])  # typed already: refused
    assert keys.hint.text() != "" and not keys.confirm_button.isEnabled()
    assert _lit(keys) == []  # refused: nothing lit either
    Shots("keypad_refusal_1280x800").take(win, "refused")
    for card in deck[2:]:
        type_card(qtbot, keys, card)
        assert _lit(keys) == []
    clock.wait(5.0)  # the last card's re-enter window runs out: it goes to the deal
    qtbot.waitUntil(lambda: console.presenter.view().step is Step.DECISIONS, timeout=10000)
    hand = console.service.hand
    assert hand is not None and [c.card for c in hand.cards] == deck
