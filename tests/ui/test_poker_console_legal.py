"""The poker console draws what the engine's ``legal()`` offers and says why the rest is not: a
short stack's only raise at no limit is its all-in (never "fixed limit"), a raise a short
all-in did not reopen stays "Raise", greyed with the reason, and an amount the rule does not
allow is never drawn on an enabled button. Real service, real SQLite journal, the window
offscreen (pytest-qt)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import TableConfig
from tests.fixtures import poker_table as poker_tests
from tests.fixtures.poker_table import Table, cfg
from ui.kit.format import set_language
from ui.poker.commands import Act, PlaceButton, SeatPlayer
from ui.poker.window import PokerWindow


def short_stacks() -> TableConfig:
    """The Hold'em table with a buy-in from 1.00: the short stacks a hand leaves, seated."""
    c = cfg()
    return replace(c, poker=replace(c.poker, buy_in=(100, c.poker.buy_in[1])))


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    monkeypatch.setattr(poker_tests, "cfg", short_stacks)
    t = Table(tmp_path)
    yield t
    t.close()


def seat(t: Table, players: tuple[tuple[int, str, int], ...], button: int) -> None:
    """Seat ``players`` as the service does (any stack: a short one is what the hand left)."""
    for s, name, stack in players:
        t.run(SeatPlayer(900 + s, seat=s, name=name, amount=stack))
        assert t.p.snap.error is None, t.p.snap.error
    t.run(PlaceButton(950, seat=button))
    assert t.p.snap.button == button


def window(t: Table, qtbot: Any, size: tuple[int, int] = (1280, 800)) -> PokerWindow:
    set_language("en")  # the money's separators: an Italian test before may have set them
    win = PokerWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.show()
    win.resize(*size)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == size)
    return win


def plain(widget: Any) -> str:
    """A widget's text with the money's no-break spaces as spaces."""
    return str(widget.text()).replace("\xa0", " ")


def act(t: Table, kind: str, to: int | None = None) -> None:
    seq = t.p.outbox.seq + 100
    t.run(Act(seq, seat=t.p.snap.actor or 0, action=kind, to=to))
    assert t.p.snap.error is None, t.p.snap.error
    t.deal({})


def test_a_short_stacks_only_raise_is_its_all_in_not_fixed_limit(table: Table, qtbot: Any) -> None:
    t = table
    win = window(t, qtbot)
    # three-handed, button 1: seat 1 acts first preflop with 3.00 against the big blind's 2.00
    seat(t, ((1, "Anna", 300), (3, "Bruno", 40000), (5, "Carla", 40000)), button=1)
    t.p.tap_new_hand()
    t.deal({})
    legal = t.p.snap.legal
    assert legal is not None and legal.seat == 1
    assert (legal.minimum, legal.maximum, legal.fixed_limit) == (300, 300, False)
    facts = plain(win.side.facts)
    assert "fixed limit" not in facts
    assert "all-in € 3.00 only" in facts, facts
    raise_ = win.side.bar.buttons["raise"]
    assert raise_.isVisible() and raise_.isEnabled()  # the one total comes keyed
    assert "€ 3.00" in plain(raise_)


def test_a_raise_not_reopened_is_greyed_raise_with_the_reason(table: Table, qtbot: Any) -> None:
    t = table
    win = window(t, qtbot)
    # button 1, blinds 3 and 5; seat 5 has 5.00: its all-in to 5.00 over 4.00 is no full raise
    seat(t, ((1, "Anna", 40000), (3, "Bruno", 40000), (5, "Carla", 500)), button=1)
    t.p.tap_new_hand()
    t.deal({})
    act(t, "raise", 400)  # seat 1
    act(t, "call")  # seat 3
    act(t, "raise", 500)  # seat 5 all-in, 1.00 more
    legal = t.p.snap.legal
    assert legal is not None and legal.seat == 1
    assert "raise" not in legal.kinds and legal.closed == (("raise", "short_all_in"),)
    bar = win.side.bar
    assert bar.buttons["raise"].isVisible() and not bar.buttons["raise"].isEnabled()
    assert not bar.buttons["bet"].isVisible()  # never relabelled "Bet"
    assert bar.buttons["raise"].text() == "Raise"
    assert "short all-in did not reopen the betting" in plain(win.side.facts)
    assert bar.buttons["call"].isEnabled()


def test_an_amount_below_the_minimum_is_never_an_enabled_bet(table: Table, qtbot: Any) -> None:
    t = table
    win = window(t, qtbot)
    seat(t, ((1, "Anna", 40000), (3, "Bruno", 40000), (5, "Carla", 40000)), button=1)
    t.p.tap_new_hand()
    t.deal({})
    act(t, "call")
    act(t, "call")
    act(t, "check")  # the flop: seat 3 first, a bet open
    assert t.p.snap.legal is not None and t.p.snap.legal.bet_kind == "bet"
    bet = win.side.bar.buttons["bet"]
    t.p.tap_chip(100)  # 1.00: below the minimum bet of 2.00
    assert bet.isVisible() and not bet.isEnabled()
    assert "1.00" not in plain(bet)
    assert "minimum" in plain(win.side.hint) and "€ 2.00" in plain(win.side.hint)
    t.p.tap_chip(100)  # 2.00: legal
    assert bet.isEnabled() and "€ 2.00" in plain(bet)


def test_the_numeric_keypad_and_the_pot_keys_key_the_engines_amounts(
    table: Table, qtbot: Any
) -> None:
    from PySide6.QtCore import Qt

    t = table
    win = window(t, qtbot, (1920, 1080))  # the chips and the digits both shown
    seat(t, ((1, "Anna", 40000), (3, "Bruno", 40000), (5, "Carla", 40000)), button=1)
    t.p.tap_new_hand()
    t.deal({})
    keys = win.side.keypad
    qtbot.waitUntil(keys.isVisible)  # moved from the between-hands page: shown once queued
    assert keys.chips[0].isVisible() and keys.digits["1"].isVisible()

    def tap(key: Any) -> None:
        qtbot.mouseClick(key, Qt.MouseButton.LeftButton)

    for digit in "154":  # a raise to 154.00: three taps, not six chips
        tap(keys.digits[digit])
    assert t.p.amount == 15400 and "€ 154.00" in plain(win.side.bar.buttons["raise"])
    tap(keys.digits["back"])
    assert t.p.amount == 1500
    tap(keys.chips[0])  # a chip adds; a digit after it starts a new number
    assert t.p.amount == 1600
    tap(keys.digits["3"])
    assert t.p.amount == 300
    legal = t.p.snap.legal
    assert legal is not None and legal.pot is not None and legal.half_pot is not None
    # 3.00 in (blinds 1 + 2), seat 1 calls 2.00 into 5.00: the pot raise is to 7.00
    assert (legal.half_pot, legal.pot) == (400, 700)  # half: 2 + 2.50, down to the chip: 4.00
    tap(keys.pot)
    assert t.p.amount == legal.pot and win.side.bar.buttons["raise"].isEnabled()
    tap(keys.half)
    assert t.p.amount == legal.half_pot
    act(t, "raise", 700)
    assert t.p.snap.seat(1) is not None and t.p.snap.seat(1).bet == 700  # type: ignore[union-attr]
