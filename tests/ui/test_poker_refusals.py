"""The game rules' refusals in the dealer's language: every refusal of the betting engine
(dealer_assist/engine/betting.py, peer_checks.py) carries a stable code and its values
(ActionRefused / StateRefused), its English message as before; every code has a sentence on the
poker console and an Italian one; a real refused raise in the Italian console says it in Italian
with the console's money.
"""

from __future__ import annotations

import ast
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from dealer_assist.engine import betting, peer_checks
from dealer_assist.engine.betting import Limits, RoundState
from dealer_assist.errors import ActionRefused, IllegalActionError
from tests.conftest import REPO
from tests.fixtures.poker_table import Table
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.poker import hand_steps
from ui.poker.commands import Act
from ui.poker.texts import _REFUSALS, message_text
from ui.poker.window import PokerWindow


def raised_codes(module: Any) -> set[str]:
    """The first argument of every ActionRefused(...) / StateRefused(...) in ``module``."""
    tree = ast.parse(Path(module.__file__).read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
            "ActionRefused",
            "StateRefused",
        ):
            first = node.args[0]
            if isinstance(first, ast.Constant):
                out.add(str(first.value))
            elif isinstance(first, ast.Name):  # a name given one of literals: rule = a if .. else b
                for a in ast.walk(tree):
                    if isinstance(a, ast.Assign) and any(
                        getattr(x, "id", "") == first.id for x in a.targets
                    ):
                        out |= {
                            c.value
                            for c in ast.walk(a.value)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)
                        }
    return out


@pytest.fixture
def italian(qtbot: Any) -> Iterator[None]:
    app = qt_app()
    translators = install_language(app, "it")
    yield
    for t in translators:
        app.removeTranslator(t)


def test_every_refusal_code_is_listed_and_raised() -> None:
    for module in (betting, peer_checks):
        assert raised_codes(module) == set(module.RULES), module.__name__
    assert not set(betting.RULES) & set(peer_checks.RULES)  # one meaning per code
    assert raised_codes(hand_steps) == set(hand_steps.RULES)


def test_every_refusal_code_has_a_sentence_and_an_italian_one(italian: None) -> None:
    from ui.kit.translate import tr

    codes = set(betting.RULES) | set(peer_checks.RULES) | set(hand_steps.RULES)
    assert codes <= set(_REFUSALS), codes - set(_REFUSALS)
    for code in codes:
        text, keys = _REFUSALS[code]
        assert tr(text) != str(text), f"{code}: {text} has no Italian"
        assert str(text).count("%") == len(keys) or not keys, code  # each value said
    catalogue = (REPO / "ui/i18n/console_it.ts").read_text()
    assert "Il posto %1 non è nella mano" in catalogue


def test_the_message_stays_the_english_sentence_and_carries_its_values() -> None:
    r = RoundState(
        [1, 2, 3],
        {1: 8000, 2: 7900, 3: 7800},
        Limits("no_limit", 200, 100),
        1,
        committed={2: 100, 3: 200},
        high=200,
    )
    with pytest.raises(IllegalActionError) as caught:
        r.verify(1, "raise", 250)
    e = caught.value
    assert isinstance(e, ActionRefused)
    assert str(e) == "raise to 250 is below the minimum raise to 400"
    assert e.rule == "below_minimum" and e.values == {"kind": "raise", "to": 250, "low": 400}
    with pytest.raises(ActionRefused) as turn:
        r.verify(2, "call")
    assert turn.value.rule == "out_of_turn" and turn.value.values == {"seat": 2, "actor": 1}
    assert str(turn.value) == "seat 2 acted out of turn (seat 1 is to act)"
    again = pickle.loads(pickle.dumps(e))  # across a process pool: the same refusal
    assert (type(again), str(again), again.rule, again.values) == (
        ActionRefused,
        str(e),
        e.rule,
        e.values,
    )


def test_a_refused_raise_in_the_italian_console_says_it_in_italian(
    tmp_path: Path, italian: None, qtbot: Any
) -> None:
    t = Table(tmp_path)
    try:
        win = PokerWindow(t.p, t.config, "it")
        qtbot.addWidget(win)
        win.show()
        t.seat_all()
        t.p.tap_new_hand()
        t.deal({})
        legal = t.p.snap.legal
        assert legal is not None and legal.minimum == 400
        # the presenter lets no such amount through: the core's refusal, as a command reaching it
        t.run(Act(99, seat=legal.seat, action="raise", to=300))
        m = t.p.message
        assert m is not None and m.code == "rule" and m.rule == "below_minimum"
        text = message_text(m, t.config.currency)
        assert text.startswith("Rifiutato: Rilancia a ") and "sotto il minimo, almeno" in text
        assert "below" not in text and "raise" not in text  # nothing of the core's English
        assert "4,00" in text or "4.00" in text  # 400 minor units, the console's money
        shown = [w.text() for w in win.findChildren(type(win.storage.text)) if w.isVisible()]
        assert any("sotto il minimo" in s for s in shown), shown
    finally:
        t.close()
