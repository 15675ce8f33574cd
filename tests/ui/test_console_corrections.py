"""A pit boss's correction on the record: refused with a sentence at a table without a roster
(a badge alone authorises nothing); with one, journaled with the dealer on the box, the pit
boss, the decision and stakes before and after and when, and shown by ``audit show`` and the
pit boss's hand screen. Over the real table service, the serial emulator and a SQLite journal."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.pitboss.detail import hand_detail
from dealer_assist.pitboss.replay import replay
from dealer_assist.storage.journal import Journal
from tests.ui.test_console_presenter import FAST, Table
from tests.ui.test_console_walk import Clock, big
from ui.cli import main
from ui.console.commands import Correct
from ui.console.dispatch import execute
from ui.console.presenter import ConsolePresenter
from ui.console.texts import message_text
from ui.kit.pitboss import PitBossRoster
from ui.pitboss.hand_view import HandScreen
from ui.pitboss.service import HandView

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytestmark = pytest.mark.integration


def _table(tmp_path: Path, roster: PitBossRoster | None = None) -> tuple[Table, Clock]:
    """:func:`walk_table` with dealer ``D-12`` on the box (the table's ``[table] dealer``)."""
    clock = Clock()
    t = Table("uth", f"emulator://?seed=3&{FAST}", tmp_path / "j.db")
    t.config = t.service.config = replace(t.config, dealer="D-12")
    t.service.roster = roster
    t.p = ConsolePresenter(t.config, t._send, clock=clock)
    t.p.subscribe(t.views.append)
    t.p.start()
    return t, clock


def _to_the_flop(tmp_path: Path, roster: PitBossRoster | None) -> tuple[Table, Clock]:
    t, clock = _table(tmp_path, roster)
    t.bet(2, ante=1000)
    t.bet(5, ante=1000)
    big(t, clock)
    t.p.decide(2, Action("preflop", "check"))  # mis-tapped: the player played 4x
    t.p.decide(5, Action("preflop", "play", 4))
    big(t, clock)  # the flop is out: only a pit boss may change the preflop now
    return t, clock


def test_without_a_roster_a_correction_is_refused_with_a_sentence(tmp_path: Path) -> None:
    t, _ = _to_the_flop(tmp_path, None)
    assert [s.seat for s in t.view().seats if s.correctable] == [2, 5]
    t.p.undo_or_correct(2)
    view = t.view()
    assert view.correct is None  # no badge pad that would authorise nothing
    assert view.message is not None and view.message.code == "no_roster"
    assert "badge and PIN" in message_text(view.message, "EUR")
    # a command that reaches the service anyway: refused, nothing changed, nothing journaled
    snap = execute(
        t.service, Correct(0, seat=2, action=Action("preflop", "play", 4), badge="4711", pin="")
    )
    assert snap.error is not None and snap.error.code == "no_roster"
    hand = t.service.hand
    assert hand is not None and hand.seats[2].actions == [Action("preflop", "check")]
    steps = t.service.journal.pending_steps(t.config.table_id)  # type: ignore[union-attr]
    assert not [s for s in steps if s.kind == "correct"]


def test_a_correction_is_journaled_and_shown_with_who_what_and_when(
    tmp_path: Path, qtbot: QtBot, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = PitBossRoster(tmp_path / "roster.json")
    roster.add("4711", "2468")
    t, clock = _to_the_flop(tmp_path, roster)
    t.p.undo_or_correct(2)
    t.p.choose_correction(Action("preflop", "play", 4))
    for key in ("4", "7", "1", "1", "next", "2", "4", "6", "8", "next"):
        t.p.correction_key(key)
    assert t.p.snap.error is None
    hand = t.service.hand
    assert hand is not None and hand.stakes(2)["play"] == 4000
    for _ in range(8):  # to the journal: nobody has anything left to decide
        if hand.phase is Phase.SETTLED:
            break
        big(t, clock)
    assert hand.phase is Phase.SETTLED
    t.service.close()
    db = tmp_path / "j.db"
    with Journal(str(db), create=False, read_only=True) as j:
        stored = [h for h in j.iter_hands() if h.status != "table"][-1]
    fix = next(e for e in stored.extra["operations"] if e["kind"] == "correct")
    assert (fix["seat"], fix["was"], fix["action"], fix["multiple"]) == (2, "check", "play", 4)
    assert (fix["pit_boss"], fix["by"]) == ("4711", "D-12") and fix["at"].endswith("+00:00")

    assert main(["audit", "show", "--db", str(db), str(stored.hand_id)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "decision corrected" in x)
    assert "seat 2: decision corrected: preflop check -> preflop play x4" in line
    assert "play EUR 0.00 -> EUR 40.00" in line
    assert "made by D-12, authorised by pit boss 4711" in line and fix["at"] in line

    screen = HandScreen()
    qtbot.addWidget(screen)
    screen.show_hand(HandView(hand_detail(stored), replay(stored), False))
    facts = screen.facts.toPlainText()
    assert "Corrections and undos:" in facts
    assert "preflop check -> preflop play x4" in facts and "pit boss 4711" in facts


def test_an_undo_names_the_dealer_and_what_was_taken_back(tmp_path: Path) -> None:
    t, clock = _table(tmp_path)
    t.bet(3, ante=1000)
    big(t, clock)
    t.p.decide(3, Action("preflop", "play", 4))
    t.p.undo_or_correct(3)  # same street: the dealer takes the mis-tap back
    hand = t.service.hand
    assert hand is not None and hand.seats[3].actions == []
    steps = t.service.journal.pending_steps(t.config.table_id)  # type: ignore[union-attr]
    undo = next(s.payload for s in steps if s.kind == "undo")
    assert (undo["seat"], undo["by"]) == (3, "D-12")
