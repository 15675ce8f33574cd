"""Privacy in typed cards, Qt offscreen: the card keypad (the manual deal, the
unreadable card, the exposed-card form) does not echo the chosen card in large type, and a
refused duplicate says the same words whether the card is face up or typed before and face
down, in both consoles and both languages, never naming the card or where it is."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication, QLabel

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError
from drivers.manual import ManualSource
from ui.console import texts
from ui.console.view import Message
from ui.kit.card_keypad import CardKeypad, card_label
from ui.kit.i18n import qm_path
from ui.kit.refusals import command_error
from ui.poker import texts as poker_texts
from ui.poker.presenter import Message as PokerMessage

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # read when pytest-qt makes the app

pytestmark = pytest.mark.gui


@pytest.fixture(params=["en", "it"])
def lang(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The console's language for the test (the Italian catalogue installed for ``it``)."""
    translator = QTranslator()
    if request.param == "it":
        assert translator.load(str(qm_path("it")))
        QCoreApplication.installTranslator(translator)
    try:
        yield str(request.param)
    finally:
        QCoreApplication.removeTranslator(translator)


def make_keypad(qtbot: Any) -> CardKeypad:
    keypad = CardKeypad()
    qtbot.addWidget(keypad)
    keypad.resize(700, 500)
    keypad.show()
    qtbot.waitExposed(keypad)
    return keypad


def shown_texts(keypad: CardKeypad) -> list[str]:
    return [w.text() for w in keypad.findChildren(QLabel) if w.isVisible()]


def test_the_chosen_card_is_not_echoed(qtbot: Any) -> None:
    keypad = make_keypad(qtbot)
    card = parse_card("Qh")
    keypad.choose("Q", "h")
    assert keypad.selection() == card
    assert not [t for t in shown_texts(keypad) if card_label(card) in t]
    assert not keypad.preview.isVisible()
    keypad.set_echo(True)  # a table may turn a small echo on: never large type
    assert keypad.preview.isVisible() and keypad.preview.text() == card_label(card)
    size = keypad.preview.styleSheet().split("font-size:")[1].split("px")[0]
    assert int(size) <= 20


def test_a_refused_card_gets_the_same_words_face_up_or_face_down(qtbot: Any, lang: str) -> None:
    keypad = make_keypad(qtbot)
    face_up, typed = parse_card("As"), parse_card("7d")
    keypad.set_unavailable([face_up])  # e.g. a board card turned face up
    keypad.choose("7", "d")
    assert keypad.confirm() == typed  # typed, dealt face down: unavailable from now on
    keypad.choose("A", "s")
    up_hint = keypad.hint.text()
    assert not keypad.confirm_button.isEnabled()
    keypad.choose("7", "d")
    down_hint = keypad.hint.text()
    assert not keypad.confirm_button.isEnabled()
    assert up_hint == down_hint != ""
    # the core's refusal of a card (a face-down one the keypad could not know) says it too,
    # in the banked and the poker console
    core = command_error(CardError("7d was already dealt from deck D1"))
    assert core.code == "card_taken" and "7d" not in core.message
    assert texts.message_text(Message(core.code), "EUR") == up_hint
    assert poker_texts.message_text(PokerMessage("card_taken"), "EUR") == up_hint
    for card in (face_up, typed):
        assert card_label(card) not in up_hint and str(card) not in up_hint
    if lang == "it":
        assert up_hint != "That card is already in this deck: look again and enter the right card"
    assert "table" not in up_hint and "tavolo" not in up_hint  # not "on the table"


def test_the_manual_source_does_not_name_a_card_entered_twice() -> None:
    source = ManualSource()
    source.open()
    try:
        source.shuffle()
        source.deal(2)
        source.enter("Kc")
        with pytest.raises(CardError) as info:
            source.enter(Card(13, "c"))
        assert "Kc" not in str(info.value) and "K" not in str(info.value)
        assert source.entered == (parse_card("Kc"),)  # nothing changed
    finally:
        source.close()
