"""A poker table's held pot confirmed from the pit-boss application: with a
floor, the pot the award waits on is posted as a request (seat ``POT_SEAT + pot``, the winners'
cards and the board), listed by the app's "Sign-offs waiting" ("Pot 1 (side pot), winners seat
1"), confirmed there by a pit boss with their PIN, and applied by the poker console as its own
pot sign-off (``via: "pitboss"``, the app user's badge, the same ``pot_signoff`` record); the
next pot signed at the console first cancels its request, and a late app confirmation changes
nothing.

Real PostgreSQL (a schema per test), the real relay thread, the real PokerService and
PeerRunner over SQLite (the side-pot hand of tests/ui/test_poker_signoff.py), Qt offscreen."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.signoffs import CANCELLED, POT_SEAT, WAITING
from dealer_assist.pitboss.users import new_user
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.table.pot_signoff import PotSignOff
from tests.conftest import Closer
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from tests.fixtures.poker_table import play_side_pot
from tests.ui.test_poker_signoff import (
    AFTER,
    MANAGER,
    SignoffTable,
    pending_signoffs,
    signoff_records,
)
from tests.ui.test_signoff_app import FAST, USERS, cell, floor_desk, log_of
from ui.pitboss.service import Session, open_backend
from ui.pitboss.signoff_panel import SignoffPanel

pytestmark = pytest.mark.postgres


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def session(floor_db: FloorDb, closer: Closer) -> Session:
    """The pit-boss application's session over the floor, with its users."""
    s = closer.add(Session(*open_backend(floor_db.url, None)))
    for badge, role, pin in USERS:
        s.users.put_user(new_user(badge, role, pin), "test")
    return s


def pump(t: SignoffTable, check: Callable[[], bool], timeout: float = 15.0) -> None:
    """The poker worker's ticks until ``check()``."""
    deadline = time.monotonic() + timeout
    while True:
        t.feed(t.service.tick())
        if check():
            return
        if time.monotonic() > deadline:
            raise AssertionError("not in time")
        time.sleep(0.03)


def test_a_held_pot_is_confirmed_in_the_app_and_the_next_signed_at_the_console_first(
    tmp_path: Path,
    qtbot: Any,
    floor_db: FloorDb,
    session: Session,
    closer: Closer,
) -> None:
    t = SignoffTable(tmp_path)
    closer.add(t)
    relay = closer.add(SignoffRelay(floor_db.url, t.config.table_id, **FAST))
    t.service.link.floor.relay = relay  # as `dealer-assist poker` with a [floor] sets it
    desk = floor_desk(session)
    t.seat_all()
    play_side_pot(t)
    assert t.p.snap.signoff is not None and t.p.snap.signoff.pot == 1  # the side pot waits
    pump(t, lambda: len(desk.waiting()) == 1)
    (row,) = desk.waiting()
    q = row.request
    assert (q.seat, q.pot, q.amount, q.role) == (POT_SEAT + 1, 1, 5000, "pit_boss")
    assert q.hand_uid == t.p.snap.hand_uid and q.winners == (1,)
    assert q.card_groups == (("1", ("Ks", "Kd")), ("board", ("Ah", "9c", "5d", "3s", "Jh")))
    # the app's list says the pot, its winners and cards (hole cards hidden from a dealer)
    panel = SignoffPanel()
    qtbot.addWidget(panel)
    panel.role = Role.PIT_BOSS
    panel.show_rows(desk.waiting())
    texts = [cell(panel, 0, j) for j in range(7)]
    assert texts[3] == "Pot 1 (side pot), winners seat 1" and texts[4] == "50.00"
    assert texts[5] == "1: Ks Kd · board: Ah 9c 5d 3s Jh"
    assert panel.where(q) == f"{q.table_id} pot 1"
    panel.role = Role.DEALER
    panel.show_rows(desk.waiting())
    assert cell(panel, 0, 5).startswith("1: ▮▮ ▮▮ · board: Ah")
    # a pit boss confirms it in the app with their PIN: the console applies it as its own
    session.login("PB-1", "246813")
    assert session.confirm_signoff(row, "246813").won
    pump(t, lambda: t.p.snap.signoff is not None and t.p.snap.signoff.pot == 0)
    assert pending_signoffs(t) == 1  # the console's step, durable
    pump(t, lambda: desk.get(row.id).taken_at is not None)
    # the main pot (a shift manager's tier) is offered in turn; signed at the console first
    pump(t, lambda: [r.request.pot for r in desk.waiting()] == [0])
    (main,) = desk.waiting()
    assert main.request.winners == (7,) and main.request.amount == 24100
    assert main.state == WAITING and main.request.role == "shift_manager"
    t.type_signoff(MANAGER[0], MANAGER[1])
    s = t.p.snap
    assert s.error is None and s.phase == "settled" and s.journaled and dict(s.after) == AFTER
    pump(t, lambda: desk.get(main.id).state == CANCELLED)
    assert desk.get(main.id).cancelled_by == MANAGER[0]
    # a late confirmation in the app changes nothing
    session.login("SM-1", "864213")
    late = session.confirm_signoff(main, "864213")
    assert not late.won and late.row.confirmed_by is None
    assert log_of(session, "signoff_confirm")[-1].endswith("nothing changed")
    for _ in range(10):
        t.feed(t.service.tick())
        time.sleep(0.03)
    records = [PotSignOff.from_json(r) for r in signoff_records(t.tmp / "j.db")]
    assert [(r.pot, r.by, r.via, r.role) for r in records] == [
        (1, "PB-1", "pitboss", "pit_boss"),
        (0, MANAGER[0], "console", "shift_manager"),
    ]
    assert records[0].cards == {1: ("Ks", "Kd")} and records[0].at == desk.get(row.id).confirmed_at
    assert desk.waiting() == []
