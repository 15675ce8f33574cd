"""The poker console killed with SIGKILL in the middle of a hand (a real process, offscreen), then
started again on the same journal: the hand resumes with every stack, bet and chip put in as
they were, the seat to act the same, and the console says it was resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.poker_table import PLAYERS, SIDE, Table, act, deck_for

ROOT = Path(__file__).parent.resolve().parents[1]

# The console process: the real PokerConsole (worker thread, window offscreen, journal on disk),
# tapped through its presenter as the dealer taps the screen; the cards typed on the keypad
# source from the stacked deck. It prints the table once Dario is all-in and Anna has called,
# then waits to be killed.
CHILD = r"""
import itertools, json, sys, time
from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.poker_table import PLAYERS, SIDE, deck_for
from ui.kit.boot import qt_app
from ui.kit.service_parts import ServiceParts
from ui.poker.app import PokerConsole

app = qt_app()
parts = ServiceParts(load_table_config(game="holdem"), ManualSource, Journal(sys.argv[1]))
console = PokerConsole(parts, lang="en")
console.window.resize(1280, 800)
console.window.show()
console.start()
p = console.presenter
p.clock = itertools.count(0.0, 1.0).__next__

def wait(pred, what):
    deadline = time.monotonic() + 30
    while not pred():
        if time.monotonic() > deadline:
            raise SystemExit("timed out: " + what)
        app.processEvents()
        time.sleep(0.005)

def settle():
    wait(lambda: not p.view().busy, "the answer")

wait(lambda: p.snap.device.connected, "the source")
for seat, name, stack in PLAYERS:
    p.tap_seat(seat)
    p.set_name(name)
    p.amount = stack
    p.tap_seat_player()
    settle()
p.tap_seat(1)
p.tap_seat_change("button")
settle()
cards = deck_for(*SIDE)
rest = iter([c for c in FULL_DECK if c not in cards.values()])
entered = set()

def deal():
    wait(lambda: p.snap.in_hand, "the hand")
    while True:
        wait(lambda: p.snap.legal is not None or p.snap.pending, "the table")
        if p.snap.legal is not None:
            return
        for pos in p.snap.pending:
            if pos not in entered:
                entered.add(pos)
                console.service.enter_card(cards.get(pos) or next(rest))
        before = p.snap.pending
        wait(lambda: p.snap.pending != before or p.snap.legal is not None, "the cards")

p.tap_new_hand()
deal()
p.amount = p.snap.legal.maximum
p.tap_action("raise")  # Dario all-in
settle()
wait(lambda: p.snap.actor == 1, "Anna's turn")
p.tap_action("call")  # Anna
settle()
wait(lambda: p.snap.actor == 3, "Bruno's turn")
s = p.snap
print(json.dumps({"uid": s.hand_uid, "actor": s.actor,
                  "seats": {x.seat: [x.stack, x.bet, x.put_in] for x in s.seats}}), flush=True)
while True:
    app.processEvents()
    time.sleep(0.05)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_console_killed_mid_hand_resumes_it_with_every_stack_and_bet(tmp_path: Path) -> None:
    journal = tmp_path / "j.db"  # the file Table(tmp_path) opens
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(journal)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line, f"the console process ended early (exit {child.poll()})"
        before = json.loads(line)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    seats = {int(k): v for k, v in before["seats"].items()}
    assert seats[7] == [0, 8000, 8000] and seats[1][1] == 8000  # all-in, called: mid-hand
    again = Table(tmp_path)  # a new console's service and presenter on the same journal
    try:
        snap = again.p.snap
        assert snap.resumed and snap.in_hand and snap.hand_uid == before["uid"]
        assert snap.actor == before["actor"] == 3
        assert {s.seat: [s.stack, s.bet, s.put_in] for s in snap.seats} == seats
        # and it plays on to the award the deck says
        cards = deck_for(*SIDE)
        again.entered |= {
            (snap.hand_uid, f"seat {s} card {n}") for s in (1, 3, 5, 7) for n in (1, 2)
        }
        act(again, "fold", None, cards)  # Bruno
        act(again, "call", None, cards)  # Carla
        act(again, "bet", 2500, cards)
        act(again, "call", None, cards)
        while again.p.snap.in_hand:
            act(again, "check", None, cards)
        after = dict(again.p.snap.after)
        assert after == {1: 34500, 3: 9900, 5: 9500, 7: 24100}
        assert sum(after.values()) == sum(p[2] for p in PLAYERS)
    finally:
        again.close()
