"""Large payouts signed off at the table, over the real table service, the real
serial emulator and real SQLite journals: a seat above the ``[signoff]`` tier cannot be marked
paid without a pit boss's badge and PIN, a wrong PIN changes nothing, the right one records who,
when, the amount, the seat and its cards (a step under ``<table>#payout``, durable: a real
``kill -9`` and a restart show it still waiting or signed), and the walk's end journals it as a
table record the pit-boss application reads."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import SignoffTier, TableConfig
from dealer_assist.storage.journal import Journal
from dealer_assist.table.payouts import PAYOUT_SUFFIX, SIGNOFF_KIND
from tests.ui.test_console_presenter import Table
from tests.ui.test_console_walk import Clock, big, play_to_reveal, walk_table
from ui.console.texts import message_text
from ui.console.view import Step
from ui.kit.pitboss import PitBossRoster

pytestmark = pytest.mark.integration
REPO = Path(__file__).parent.resolve().parents[1]
BADGE, PIN = "4711", "246813"


def signoff_table(tmp: Path, name: str = "s.db") -> tuple[Table, Clock]:
    """A walk table whose every winning seat needs a pit boss (tier above 0)."""
    roster = PitBossRoster(tmp / "roster.json")
    roster.add(BADGE, PIN)
    t, clock = walk_table(tmp, name=name, roster=roster)
    config: TableConfig = dataclasses.replace(
        t.service.config, signoff=(SignoffTier(0, "pit_boss"), SignoffTier(10**9, "shift_manager"))
    )
    t.service.config = config
    return t, clock


def settled(t: Table, clock: Clock) -> None:
    play_to_reveal(t, clock)
    big(t, clock)  # settle: the walk opens on the first seat
    assert t.view().step is Step.SETTLEMENT


def _signoff_steps(db: Path, table: str) -> list[dict[str, object]]:
    j = Journal(str(db))
    j.open()
    try:
        steps = j.pending_steps(table + PAYOUT_SUFFIX)
    finally:
        j.close()
    return [s.payload for s in steps if s.kind == SIGNOFF_KIND]


def test_a_large_payout_waits_for_the_pit_boss_pin_and_records_who_when_how_much(
    tmp_path: Path,
) -> None:
    t, clock = signoff_table(tmp_path)
    settled(t, clock)
    waiting = t.p.snap.signoff_waiting
    assert waiting, "no winning seat with this seed"
    seat = waiting[0]
    net = next(s.net for s in t.service.hand.settlement.seats if s.seat == seat)  # type: ignore[union-attr]
    # the service refuses the paid mark (whatever sends it), the presenter does not advance
    snap = t.service.mark_paid(seat)
    assert snap.error is not None and snap.error.code == "signoff_required"
    assert seat not in snap.paid
    order = list(t.p.snap.settlement.settlement_order)  # type: ignore[union-attr]
    while order[t.p.cursor or 0] != seat:
        big(t, clock)  # the seats before it need no sign-off: paid
    big(t, clock)  # Next on the waiting seat: refused, the walk stays on it
    assert order[t.p.cursor or 0] == seat
    assert t.view().message is not None and t.view().message.code == "signoff_required"  # type: ignore[union-attr]
    said = message_text(t.view().message, t.config.currency)  # type: ignore[arg-type]
    assert f"Seat {seat}" in said and "badge and PIN" in said
    assert seat not in t.p.snap.paid and seat not in t.p.paid
    # a wrong PIN: refused, nothing written
    t.p.sign_off(seat, BADGE, "0000")
    assert t.p.snap.error is not None and t.p.snap.error.code == "pit_boss"
    assert t.p.snap.signed == () and seat in t.p.snap.signoff_waiting
    assert _signoff_steps(tmp_path / "s.db", t.config.table_id) == []
    # no PIN at all: refused too
    t.p.sign_off(seat, BADGE, "")
    assert t.p.snap.error is not None and t.p.snap.error.code == "pit_boss"
    # the right PIN: signed, durable, then the seat can be paid
    t.p.sign_off(seat, BADGE, PIN)
    assert t.p.snap.error is None and t.p.snap.signed == (seat,)
    assert seat not in t.p.snap.signoff_waiting
    (rec,) = _signoff_steps(tmp_path / "s.db", t.config.table_id)
    assert rec["seat"] == seat and rec["amount"] == net and rec["by"] == BADGE
    assert rec["role"] == "pit_boss" and str(rec["at"]).endswith("+00:00")
    assert len(rec["cards"]) == 2  # the seat's hole cards as read
    snap = t.service.mark_paid(seat)
    assert snap.error is None and seat in snap.paid
    # the walk ends when the next hand opens: the sign-off joins the chain as a table record
    uid = t.p.snap.hand_uid
    for s in t.p.snap.signoff_waiting:
        t.p.sign_off(s, BADGE, PIN)
    t.service.new_hand()
    journal = t.service.journal
    assert journal is not None
    records = [h for h in journal.iter_hands() if h.status == "table"]
    ours = [h.record for h in records if h.record.get("seat") == seat]
    assert len(ours) == 1 and ours[0]["kind"] == SIGNOFF_KIND and ours[0]["hand_uid"] == uid
    assert ours[0]["by"] == BADGE and ours[0]["amount"] == net
    assert journal.verify().ok
    t.service.close()


def test_kill_9_keeps_a_sign_off_waiting_and_a_signed_one_signed(tmp_path: Path) -> None:
    """A real console process (service + presenter) killed with SIGKILL after one large payout
    was signed off: the restart shows it signed, the other winners still waiting."""
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from pathlib import Path
        import tests.ui.test_console_presenter as tp
        tp.close_at_teardown = lambda obj: obj  # no pytest here: the kill closes everything
        from tests.ui.test_console_signoff import signoff_table, settled, BADGE, PIN
        t, clock = signoff_table(Path({str(tmp_path)!r}), name="k.db")
        settled(t, clock)
        waiting = t.p.snap.signoff_waiting
        t.service.sign_off(waiting[0], BADGE, PIN)
        print("SIGNED", t.p.snap.hand_uid, *waiting, flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("SIGNED"), line
        os.killpg(proc.pid, signal.SIGKILL)  # the console and its emulator
        proc.wait(10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    _, uid, *seats = line.split()
    waited = [int(s) for s in seats]
    t, _ = signoff_table(tmp_path, name="k.db")
    t.p.on_snapshot(t.service.tick())
    snap = t.p.snap
    assert snap.hand_uid == uid and snap.resumed
    assert snap.signed == (waited[0],)
    assert list(snap.signoff_waiting) == waited[1:]
    t.service.close()


def test_the_pit_boss_signs_off_on_the_settlement_pad(tmp_path: Path, qtbot: Any) -> None:
    """Taps on the window: the pad shows on the waiting seat, a wrong PIN is refused on the
    message line, the right one signs it off and Next pays it."""
    from PySide6.QtCore import Qt

    from ui.console.window import ConsoleWindow
    from ui.kit.boot import qt_app

    qt_app()
    t, clock = signoff_table(tmp_path)
    win = ConsoleWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    settled(t, clock)
    seat = t.p.snap.signoff_waiting[0]
    order = list(t.p.snap.settlement.settlement_order)  # type: ignore[union-attr]
    while order[t.p.cursor or 0] != seat:
        big(t, clock)
    page = win.side.settlement
    assert page.pad.isVisible() and page.pad_title.text().startswith("Pit boss badge")

    def tap(keys: list[str]) -> None:
        for k in keys:
            qtbot.mouseClick(page.keys[k], Qt.MouseButton.LeftButton)

    tap([*BADGE, "next", "0", "0", "0", "0"])
    assert page.pad_title.text() == "PIN: ••••"  # never the digits
    tap(["next"])
    assert t.p.snap.error is not None and t.p.snap.error.code == "pit_boss"
    assert not t.p.snap.signed and page.pad.isVisible()
    tap([*BADGE, "next", *PIN, "next"])
    assert t.p.snap.signed == (seat,) and not page.pad.isVisible()
    big(t, clock)  # Next: now it is paid
    assert seat in t.p.snap.paid
    t.service.close()


def test_with_the_pitboss_users_store_its_roles_count(tmp_path: Path) -> None:
    """The pit-boss application's users file beside the journal (as ``dealer-assist console``
    finds it): a pit boss cannot sign a shift manager's tier, the shift manager can; the
    console's roster is not asked then."""
    from dealer_assist.pitboss.roles import Role
    from dealer_assist.pitboss.users import new_user
    from dealer_assist.storage.access import LocalUsers
    from ui.kit.boot import pitboss_users

    users = LocalUsers(tmp_path)
    users.put_user(new_user("1001", Role.PIT_BOSS, "111111"), by="test")
    users.put_user(new_user("2002", Role.SHIFT_MANAGER, "222222"), by="test")
    t, clock = signoff_table(tmp_path)
    found = pitboss_users(str(tmp_path / "s.db"))
    assert found is not None
    t.service.link.signers = found
    t.service.config = dataclasses.replace(
        t.service.config, signoff=(SignoffTier(0, "shift_manager"),)
    )
    settled(t, clock)
    seat = t.p.snap.signoff_waiting[0]
    snap = t.service.sign_off(seat, BADGE, PIN)  # the roster's pit boss: not in the users file
    assert snap.error is not None and snap.error.code == "pit_boss"
    snap = t.service.sign_off(seat, "1001", "111111")  # a pit boss: below the tier's role
    assert snap.error is not None and snap.error.code == "signoff_role" and snap.signed == ()
    snap = t.service.sign_off(seat, "2002", "9999")  # wrong PIN
    assert snap.error is not None and snap.error.code == "pit_boss" and snap.signed == ()
    snap = t.service.sign_off(seat, "2002", "222222")
    assert snap.error is None and snap.signed == (seat,)
    (rec,) = _signoff_steps(tmp_path / "s.db", t.config.table_id)
    assert rec["by"] == "2002" and rec["role"] == "shift_manager"
    t.service.close()
