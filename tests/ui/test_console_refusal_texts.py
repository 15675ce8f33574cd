"""The core's refusals on the banked console are sentences in the dealer's language
(5): never the core's English words, which go to the log."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from dealer_assist.errors import BetError, HandStateError, IllegalActionError, RuleError
from ui.console.texts import message_text
from ui.console.view import Message
from ui.kit.format import money
from ui.kit.i18n import install_language, reset_language
from ui.kit.refusals import command_error

CORE = [
    IllegalActionError("seat 3 cannot check: it must bet 4x or check (UTH preflop)"),
    HandStateError("no decision expected in phase settled"),
    BetError("blind", "must equal the ante"),
    RuleError("something the console did not foresee"),
]


def _message(e: Exception) -> Message:
    err = command_error(e)  # type: ignore[arg-type]
    return Message(err.code, text=err.message, args=err.args)


@pytest.mark.parametrize("error", CORE, ids=lambda e: type(e).__name__)
def test_a_core_refusal_is_a_sentence_not_the_core_words(
    error: Exception, qapp: QCoreApplication, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO")
    shown = message_text(_message(error), "EUR")
    assert str(error) not in shown
    assert shown.endswith(("again", "shown", "limits"))
    assert str(error) in caplog.text  # the detail is kept for the log


def test_in_italian(qapp: QCoreApplication) -> None:
    translators = install_language(qapp, "it")
    try:
        shown = {message_text(_message(e), "EUR") for e in CORE}
    finally:
        for translator in translators:
            QCoreApplication.removeTranslator(translator)
        install_language(qapp, "en")
    assert any("Decisione non possibile" in s for s in shown), shown
    assert any("Puntata rifiutata" in s for s in shown), shown
    assert all(str(e) not in s for e in CORE for s in shown)


def test_reset_language_takes_italian_off_again(qapp: QCoreApplication) -> None:
    install_language(qapp, "it")
    install_language(qapp, "it")  # a console reopened in the same process
    assert "Puntata rifiutata" in message_text(_message(CORE[2]), "EUR")
    reset_language()
    shown = message_text(_message(CORE[2]), "EUR")
    assert "Puntata rifiutata" not in shown and shown.endswith("limits")
    assert money(250050, "EUR") == "€\xa02,500.50"  # English separators again
