"""Large payouts signed off from the pit-boss application, end to end: the real
table service on the real emulator with a SQLite journal and its floor relay, the real
PostgreSQL floor (a schema per test), the pit-boss window and the console window (Qt offscreen,
pytest-qt). The walk's waiting seat reaches the application's "sign-offs waiting" with its
amount and cards; a wrong PIN, the auditor and a role below the tier are refused (and logged);
the right PIN confirms it, and the table's walk goes on exactly as if signed at its console
(the same step and table record, ``via: "pitboss"``). A console sign-off first cancels the
request, and a late confirmation changes nothing; with the floor down the console sign-off
works and the request is sent once the floor is back."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from dealer_assist.config import SignoffTier
from dealer_assist.pitboss.roles import PermissionDeniedError, Role
from dealer_assist.pitboss.signoffs import CANCELLED, CONFIRMED, SignoffRow
from dealer_assist.pitboss.users import LoginRefusedError, new_user
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.storage.floor.signoffs import FloorSignoffs
from dealer_assist.table.payouts import SIGNOFF_KIND
from tests.conftest import Closer
from tests.fixtures.console_conftest import console_app, console_factory  # noqa: F401
from tests.fixtures.floor_fixtures import FloorDb, TcpProxy, make_floor_db
from tests.ui.test_console_presenter import Table
from tests.ui.test_console_signoff import BADGE, PIN, _signoff_steps, settled, signoff_table
from tests.ui.test_console_walk import Clock, big
from ui.pitboss.app import PitBossWindow
from ui.pitboss.service import Session, open_backend
from ui.pitboss.worker import Jobs

pytestmark = [pytest.mark.postgres, pytest.mark.integration]
USERS = (
    ("PB-1", Role.PIT_BOSS, "246813"),
    ("SM-1", Role.SHIFT_MANAGER, "864213"),
    ("AUD-1", Role.AUDITOR, "135724"),
)
FAST = {"poll_interval": 0.05, "min_backoff": 0.05, "max_backoff": 0.3}


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def session(floor_db: FloorDb, closer: Closer) -> Session:
    s = closer.add(Session(*open_backend(floor_db.url, None)))
    for badge, role, pin in USERS:
        s.users.put_user(new_user(badge, role, pin), "test")
    return s


def floor_table(tmp: Path, url: str, closer: Closer, tiers: Any = None) -> tuple[Table, Clock]:
    """The console's sign-off table (every winning seat above the pit boss's tier) with a
    relay to the floor at ``url``, started as ``dealer-assist console`` starts it."""
    t, clock = signoff_table(tmp)
    if tiers is not None:
        t.service.config = dataclasses.replace(t.service.config, signoff=tiers)
    relay = closer.add(SignoffRelay(url, t.config.table_id, **FAST))
    t.service.link.floor.relay = relay
    relay.start()  # (the service starts it at its next step too)
    return t, clock


def pump(t: Table, check: Callable[[], bool], timeout: float = 15.0) -> None:
    """The console worker's ticks until ``check()``."""
    deadline = time.monotonic() + timeout
    while True:
        t.p.on_snapshot(t.service.tick())
        if check():
            return
        if time.monotonic() > deadline:
            raise AssertionError("not in time")
        time.sleep(0.03)


def app_window(
    qtbot: Any, session: Session, badge: str, pin: str, closer: Closer
) -> tuple[PitBossWindow, Jobs]:
    jobs = closer.add(Jobs())
    session.login(badge, pin)
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.start()
    win.show()
    qtbot.waitUntil(lambda: jobs.pending == 0, timeout=10000)
    return win, jobs


def shown(qtbot: Any, win: PitBossWindow, jobs: Jobs, n: int) -> None:
    def ready() -> None:
        win.refresh_signoffs()
        qtbot.waitUntil(lambda: jobs.pending == 0, timeout=10000)
        assert len(win.floor.signoffs.rows) == n

    qtbot.waitUntil(ready, timeout=15000)


def confirm_in_app(qtbot: Any, win: PitBossWindow, jobs: Jobs, row: int, pin: str) -> None:
    panel = win.floor.signoffs
    panel.view.selectRow(row)
    qtbot.keyClicks(panel.pin, pin)
    assert panel.confirm.isEnabled()
    qtbot.mouseClick(panel.confirm, Qt.MouseButton.LeftButton)
    assert panel.pin.text() == ""  # the PIN never stays on screen
    qtbot.waitUntil(lambda: jobs.pending == 0, timeout=10000)


def floor_desk(session: Session) -> FloorSignoffs:
    desk = session.signoffs
    assert isinstance(desk, FloorSignoffs)  # the session over a floor has the floor's
    return desk


def cell(panel: Any, i: int, j: int) -> str:
    item = panel.view.item(i, j)
    assert item is not None
    return str(item.text())


def log_of(session: Session, action: str) -> list[str]:
    return [e.detail for e in session.log.entries() if e.action == action]


def test_the_app_confirms_and_the_walk_goes_on_as_at_the_console(
    tmp_path: Path, qtbot: Any, floor_db: FloorDb, session: Session, closer: Closer
) -> None:
    from ui.console.window import ConsoleWindow
    from ui.kit.boot import qt_app

    qt_app()
    t, clock = floor_table(tmp_path, floor_db.url, closer)
    console = ConsoleWindow(t.p, t.config, "en")
    qtbot.addWidget(console)
    console.resize(1280, 800)
    console.show()
    settled(t, clock)
    waiting = t.p.snap.signoff_waiting
    assert len(waiting) >= 1, "no winning seat with this seed"
    seat = waiting[0]
    order = list(t.p.snap.settlement.settlement_order)  # type: ignore[union-attr]
    while order[t.p.cursor or 0] != seat:
        big(t, clock)  # the seats before it need no sign-off: paid
    page = console.side.settlement
    assert page.pad.isVisible()  # the console's pad waits for a badge and PIN
    desk = floor_desk(session)
    pump(t, lambda: len(desk.waiting()) == len(waiting))
    rows = {r.request.seat: r for r in desk.waiting()}
    hand = t.service.hand
    assert hand is not None and hand.settlement is not None
    net = next(s.net for s in hand.settlement.seats if s.seat == seat)
    hole = hand.seats[seat].hole
    req = rows[seat].request
    assert (req.table_id, req.hand_uid, req.amount, req.role) == (
        t.config.table_id,
        hand.hand_uid,
        net,
        "pit_boss",
    )
    assert req.cards == tuple(str(hole[n]) for n in sorted(hole)) and len(req.cards) == 2
    assert req.hand_no == t.p.snap.hand_no and req.requested_at.utcoffset() is not None

    win, jobs = app_window(qtbot, session, "PB-1", "246813", closer)
    shown(qtbot, win, jobs, len(waiting))
    panel = win.floor.signoffs
    assert panel.title.text() == f"Sign-offs waiting: {len(waiting)}"
    i = next(i for i, r in enumerate(panel.rows) if r.request.seat == seat)
    texts = [cell(panel, i, j) for j in range(panel.view.columnCount())]
    assert " ".join(req.cards) in texts and f"{net // 100:,}.{net % 100:02d}" in texts

    # a wrong PIN: refused on the panel, logged, the floor and the table unchanged
    confirm_in_app(qtbot, win, jobs, i, "0000")
    assert "PIN not recognised" in panel.message.text()
    assert desk.get(rows[seat].id).state == "waiting"
    assert len(log_of(session, "signoff_refused")) == 1
    # the right PIN: confirmed on the floor, who and when
    confirm_in_app(qtbot, win, jobs, i, "246813")
    assert "Sign-off confirmed" in panel.message.text()
    row = desk.get(rows[seat].id)
    assert row.state == CONFIRMED and row.confirmed_by == "PB-1" and row.confirmed_at is not None
    (said,) = log_of(session, "signoff_confirm")
    assert f"seat {seat}" in said and said.endswith("confirmed")

    # the table picks it up at its ticks: the same step as the console's, then Next pays it
    pump(t, lambda: seat in t.p.snap.signed)
    assert seat not in t.p.snap.signoff_waiting
    qtbot.waitUntil(lambda: not page.pad.isVisible(), timeout=5000)  # the console's pad goes
    (step,) = [s for s in _signoff_steps(tmp_path / "s.db", t.config.table_id) if s["seat"] == seat]
    assert step["via"] == "pitboss" and step["by"] == "PB-1" and step["amount"] == net
    assert step["role"] == "pit_boss" and step["cards"] == list(req.cards)
    pump(t, lambda: desk.get(row.id).taken_at is not None)
    big(t, clock)  # Next on the seat: paid, as after a console sign-off
    assert seat in t.p.snap.paid
    # the others at the console; the walk's end journals every sign-off as a table record
    for s in t.p.snap.signoff_waiting:
        t.p.sign_off(s, BADGE, PIN)
    pump(t, lambda: not desk.waiting())
    assert all(desk.get(r.id).state == CANCELLED for s, r in rows.items() if s != seat)
    t.service.new_hand()
    journal = t.service.journal
    assert journal is not None
    records = [h.record for h in journal.iter_hands() if h.status == "table"]
    ours = [r for r in records if r.get("kind") == SIGNOFF_KIND]
    assert {r["seat"]: r["via"] for r in ours} == {
        s: "pitboss" if s == seat else "console" for s in waiting
    }
    assert journal.verify().ok
    win.close()
    jobs.stop()
    t.service.close()


def test_wrong_role_and_the_auditor_are_refused(
    tmp_path: Path, qtbot: Any, floor_db: FloorDb, session: Session, closer: Closer
) -> None:
    """A shift manager's tier: the pit boss may not, the auditor never (the button disabled,
    the session refuses and logs it), the shift manager may."""
    t, clock = floor_table(tmp_path, floor_db.url, closer, (SignoffTier(0, "shift_manager"),))
    settled(t, clock)
    desk = floor_desk(session)
    pump(t, lambda: len(desk.waiting()) == len(t.p.snap.signoff_waiting))
    row: SignoffRow = desk.waiting()[0]
    assert row.request.role == "shift_manager"

    win, jobs = app_window(qtbot, session, "AUD-1", "135724", closer)
    shown(qtbot, win, jobs, len(desk.waiting()))
    panel = win.floor.signoffs
    panel.view.selectRow(0)
    assert not panel.pin.isEnabled() and not panel.confirm.isEnabled()
    assert cell(panel, 0, 5) == " ".join(row.request.cards)  # the auditor sees
    with pytest.raises(PermissionDeniedError, match="auditor changes nothing"):
        session.confirm_signoff(row, "135724")
    win.close()
    session.logout()

    win, jobs = app_window(qtbot, session, "PB-1", "246813", closer)
    shown(qtbot, win, jobs, len(desk.waiting()))
    panel = win.floor.signoffs
    panel.view.selectRow(0)
    qtbot.keyClicks(panel.pin, "246813")
    assert not panel.confirm.isEnabled() and "This payout needs a" in panel.confirm.toolTip()
    with pytest.raises(PermissionDeniedError, match="shift_manager's sign-off"):
        session.confirm_signoff(row, "246813")
    win.close()
    session.logout()

    session.login("SM-1", "864213")
    with pytest.raises(LoginRefusedError):
        session.confirm_signoff(row, "246813")  # another user's PIN
    done = session.confirm_signoff(row, "864213")
    assert done.won and done.row.confirmed_role == "shift_manager"
    refused = log_of(session, "signoff_refused")
    assert len(refused) == 3 and all(f"request #{row.id}" in d for d in refused)
    assert desk.get(row.id).state == CONFIRMED
    pump(t, lambda: row.request.seat in t.p.snap.signed)
    (step,) = [
        s
        for s in _signoff_steps(tmp_path / "s.db", t.config.table_id)
        if s["seat"] == row.request.seat
    ]
    assert step["by"] == "SM-1" and step["role"] == "shift_manager" and step["via"] == "pitboss"
    jobs.stop()
    t.service.close()


def test_console_first_cancels_and_a_late_app_confirmation_changes_nothing(
    tmp_path: Path, floor_db: FloorDb, session: Session, closer: Closer
) -> None:
    t, clock = floor_table(tmp_path, floor_db.url, closer)
    settled(t, clock)
    desk = floor_desk(session)
    pump(t, lambda: len(desk.waiting()) == len(t.p.snap.signoff_waiting))
    seat = t.p.snap.signoff_waiting[0]
    row = next(r for r in desk.waiting() if r.request.seat == seat)
    t.p.sign_off(seat, BADGE, PIN)  # at the console, first
    assert t.p.snap.signed == (seat,)
    pump(t, lambda: desk.get(row.id).state == CANCELLED)
    assert desk.get(row.id).cancelled_by == BADGE
    session.login("PB-1", "246813")
    late = session.confirm_signoff(row, "246813")
    assert not late.won and late.row.confirmed_by is None
    assert log_of(session, "signoff_confirm")[-1].endswith("nothing changed")
    for _ in range(10):
        t.p.on_snapshot(t.service.tick())
        time.sleep(0.03)
    (step,) = [s for s in _signoff_steps(tmp_path / "s.db", t.config.table_id) if s["seat"] == seat]
    assert step["by"] == BADGE and step["via"] == "console"
    t.service.close()


def test_floor_down_the_console_signs_then_the_request_goes_when_back(
    tmp_path: Path, floor_db: FloorDb, session: Session, closer: Closer
) -> None:
    proxy = closer.add(TcpProxy())
    proxy.down()
    t, clock = floor_table(tmp_path, floor_db.url_via(proxy.port), closer)
    settled(t, clock)
    waiting = t.p.snap.signoff_waiting
    relay = t.service.link.floor.relay
    assert relay is not None
    pump(t, lambda: relay.rounds >= 2 and relay.status().pending == len(waiting))
    assert not relay.status().reachable
    t.p.sign_off(waiting[0], BADGE, PIN)  # the console's sign-off does not need the floor
    assert t.p.snap.error is None and t.p.snap.signed == (waiting[0],)
    pump(t, lambda: relay.status().pending == len(waiting) - 1)
    proxy.up()
    desk = floor_desk(session)
    pump(t, lambda: relay.status().reachable and relay.status().pending == 0, timeout=20)
    assert sorted(r.request.seat for r in desk.waiting()) == sorted(waiting[1:])
    seats = floor_db.sql("SELECT seat FROM floor_signoffs ORDER BY seat")
    assert [s for (s,) in seats] == sorted(waiting[1:])  # the console-signed one: never sent
    t.service.close()


def test_confirmed_while_the_console_was_closed_the_restart_takes_it(
    tmp_path: Path, floor_db: FloorDb, session: Session, closer: Closer
) -> None:
    """The console closed (or killed) with a request on the floor; the pit boss confirms it
    meanwhile; the restarted console's walk (restored from the step log) posts it again (the
    floor keeps the first row) and takes the confirmation."""
    t, clock = floor_table(tmp_path, floor_db.url, closer)
    settled(t, clock)
    desk = floor_desk(session)
    waiting = t.p.snap.signoff_waiting
    pump(t, lambda: len(desk.waiting()) == len(waiting))
    uid = t.p.snap.hand_uid
    t.service.close()
    row = next(r for r in desk.waiting() if r.request.seat == waiting[0])
    session.login("SM-1", "864213")
    assert session.confirm_signoff(row, "864213").won
    again, _ = floor_table(tmp_path, floor_db.url, closer)  # the same journal, a new relay
    again.p.on_snapshot(again.service.tick())
    assert again.p.snap.hand_uid == uid and again.p.snap.resumed
    pump(again, lambda: waiting[0] in again.p.snap.signed)
    assert floor_db.sql("SELECT count(*) FROM floor_signoffs") == [(len(waiting),)]
    (step,) = [
        s
        for s in _signoff_steps(tmp_path / "s.db", again.config.table_id)
        if s["seat"] == waiting[0]
    ]
    assert step["by"] == "SM-1" and step["via"] == "pitboss"
    pump(again, lambda: desk.get(row.id).taken_at is not None)
    again.service.close()


def test_the_real_console_worker_takes_the_confirmation_by_its_signal(
    qtbot: Any,
    floor_db: FloorDb,
    session: Session,
    closer: Closer,
    console_factory: Any,  # noqa: F811
) -> None:
    """The console as ``dealer-assist console`` runs it (the service on its worker thread, the
    snapshots by Qt signal), played by taps; the app's confirmation closes its pad."""
    from tests.fixtures.console_conftest import big as tap_big
    from tests.fixtures.console_conftest import decide, emulator_url, enter_bets, table, wait_step
    from ui.console.view import Step
    from ui.kit.translate import tr

    config = dataclasses.replace(table("uth"), signoff=(SignoffTier(0, "pit_boss"),))
    console = console_factory("uth", config=config, url=emulator_url(11), size=(1280, 800))
    console.service.link.floor.relay = closer.add(
        SignoffRelay(floor_db.url, config.table_id, **FAST)
    )
    seats = (1, 2, 3, 4, 5, 6, 7)
    wait_step(qtbot, console, Step.BETS)
    for seat in seats:
        enter_bets(qtbot, console, seat, ante=1000, trips=500)
    tap_big(qtbot, console)
    for street in ("preflop", "flop", "river"):
        wait_step(qtbot, console, Step.DECISIONS)
        labels = [b.text().split("\n")[0] for b in console.window.table.tiles[1].buttons]
        for seat in seats:
            decide(qtbot, console, seat, labels[0] if street == "river" else tr("Check"))
        tap_big(qtbot, console)
    wait_step(qtbot, console, Step.REVEAL)
    tap_big(qtbot, console)  # settle: the walk opens
    wait_step(qtbot, console, Step.SETTLEMENT)
    p = console.presenter
    waiting = p.snap.signoff_waiting
    assert waiting, "no winning seat with this seed"
    order = list(p.snap.settlement.settlement_order)
    while order[p.cursor or 0] not in waiting:
        tap_big(qtbot, console)  # a seat without a sign-off: paid
        qtbot.wait(50)
    seat = order[p.cursor or 0]
    page = console.window.side.settlement
    qtbot.waitUntil(page.pad.isVisible, timeout=5000)
    desk = floor_desk(session)
    qtbot.waitUntil(lambda: seat in {r.request.seat for r in desk.waiting()}, timeout=15000)
    row = next(r for r in desk.waiting() if r.request.seat == seat)
    session.login("PB-1", "246813")
    assert session.confirm_signoff(row, "246813").won
    qtbot.waitUntil(lambda: seat in p.snap.signed and not page.pad.isVisible(), timeout=15000)
    tap_big(qtbot, console)  # Next: paid
    qtbot.waitUntil(lambda: seat in p.snap.paid, timeout=5000)
