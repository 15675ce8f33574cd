"""The card keypad widget (offscreen Qt): touch sizes, choosing and confirming a card, keyboard,
and the keypad feeding a ManualSource."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from dealer_assist.cards import Card, parse_card
from dealer_assist.events import CardRead
from drivers.manual import ManualSource
from ui.kit.card_keypad import TOUCH, CardKeypad

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # read when pytest-qt makes the app


@pytest.fixture
def keypad(qtbot):  # type: ignore[no-untyped-def]
    widget = CardKeypad()
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_every_key_is_a_touch_target(keypad: CardKeypad) -> None:
    keys = [*keypad.rank_buttons.values(), *keypad.suit_buttons.values()]
    keys += [keypad.clear_button, keypad.confirm_button]
    assert len(keypad.rank_buttons) == 13 and len(keypad.suit_buttons) == 4
    for key in keys:
        assert key.width() >= TOUCH and key.height() >= TOUCH, key.text()
    assert keypad.rank_buttons["T"].text() == "10"
    assert [keypad.suit_buttons[s].text() for s in "shdc"] == ["♠", "♥", "♦", "♣"]


def test_rank_suit_confirm_emits_the_card(qtbot, keypad: CardKeypad) -> None:  # type: ignore[no-untyped-def]
    assert not keypad.confirm_button.isEnabled()
    qtbot.mouseClick(keypad.rank_buttons["Q"], Qt.MouseButton.LeftButton)
    assert keypad.selection() is None and not keypad.confirm_button.isEnabled()
    qtbot.mouseClick(keypad.suit_buttons["h"], Qt.MouseButton.LeftButton)
    assert keypad.selection() == parse_card("Qh")
    assert not keypad.preview.isVisible() and keypad.preview.text() == "—"  # not echoed
    assert keypad.rank_buttons["Q"].isChecked() and keypad.suit_buttons["h"].isChecked()
    qtbot.mouseClick(keypad.rank_buttons["T"], Qt.MouseButton.LeftButton)  # change of mind
    assert keypad.selection() == parse_card("Th")
    with qtbot.waitSignal(keypad.cardChosen, timeout=1000) as blocker:
        qtbot.mouseClick(keypad.confirm_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [parse_card("Th")]
    assert keypad.selection() is None and keypad.preview.text() == "—"
    # the same card cannot be confirmed twice
    keypad.choose("T", "h")
    assert not keypad.confirm_button.isEnabled() and keypad.hint.text()
    assert keypad.confirm() is None


def test_unavailable_cards_and_clear(qtbot, keypad: CardKeypad) -> None:  # type: ignore[no-untyped-def]
    keypad.set_unavailable([parse_card("As"), parse_card("2c")])
    keypad.choose("A", "s")
    assert not keypad.confirm_button.isEnabled()
    keypad.choose("A", "d")
    assert keypad.confirm_button.isEnabled()
    qtbot.mouseClick(keypad.clear_button, Qt.MouseButton.LeftButton)
    assert keypad.selection() is None
    assert not any(b.isChecked() for b in keypad.rank_buttons.values())
    keypad.set_unavailable([])
    keypad.choose("A", "s")
    assert keypad.confirm_button.isEnabled()


def test_keyboard_entry(qtbot, keypad: CardKeypad) -> None:  # type: ignore[no-untyped-def]
    chosen: list[Card] = []
    keypad.cardChosen.connect(chosen.append)
    keypad.setFocus()
    qtbot.keyClicks(keypad, "kd")
    assert keypad.selection() == parse_card("Kd")
    qtbot.keyClick(keypad, Qt.Key.Key_Escape)
    assert keypad.selection() is None
    qtbot.keyClicks(keypad, "0c")
    qtbot.keyClick(keypad, Qt.Key.Key_Return)
    assert chosen == [parse_card("Tc")]


def test_keypad_feeds_a_manual_source(qtbot, keypad: CardKeypad) -> None:  # type: ignore[no-untyped-def]
    source = ManualSource()
    source.open()
    source.shuffle()
    keypad.cardChosen.connect(source.enter)
    for rank, suit in (("7", "s"), ("J", "d")):
        qtbot.mouseClick(keypad.rank_buttons[rank], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(keypad.suit_buttons[suit], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(keypad.confirm_button, Qt.MouseButton.LeftButton)
    events = [source.next_event(0) for _ in range(4)]
    cards = [e for e in events if isinstance(e, CardRead)]
    assert [(str(c.card), c.index, c.manual) for c in cards] == [("7s", 1, True), ("Jd", 2, True)]
