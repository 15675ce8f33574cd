"""The pit-boss window (Qt offscreen, pytest-qt) over a real simulated journal: a wrong PIN
refused in the login dialog, the search's pages and sorting, a hand opened with hole cards
hidden until asked for, Prev/Next to the recorded result, the recompute shown, the auditor's
Acknowledge disabled; every view in the access log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from tests.fixtures.pitboss_fixtures import journal_copy, raw_hands
from ui.pitboss.app import LoginDialog, PitBossWindow
from ui.pitboss.hand_view import HIDDEN
from ui.pitboss.service import Session, open_backend
from ui.pitboss.worker import Jobs


@pytest.fixture
def setup(tmp_path: Path, qtbot: QtBot) -> Iterator[tuple[Session, Jobs, Path]]:
    db = journal_copy(tmp_path)
    session = Session(*open_backend(None, db))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.users.put_user(new_user("AUD-1", Role.AUDITOR, "135724"), "test")
    jobs = Jobs()
    yield session, jobs, db
    jobs.stop()
    session.close()


def _idle(qtbot: QtBot, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)


def test_login_refused_with_a_wrong_pin_then_accepted(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path]
) -> None:
    session, jobs, _ = setup
    dialog = LoginDialog(session, jobs)
    qtbot.addWidget(dialog)
    dialog.badge.setText("PB-1")
    dialog.pin.setText("9999")
    dialog.try_login()
    _idle(qtbot, jobs)
    assert dialog.message.text() == "Badge or PIN not recognised"
    assert dialog.pin.text() == "" and session.user is None
    dialog.pin.setText("246813")
    with qtbot.waitSignal(dialog.accepted, timeout=20_000):
        dialog.try_login()
    assert session.user is not None and session.user.badge == "PB-1"


def test_a_pit_boss_opens_replays_and_recomputes_a_hand(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path]
) -> None:
    session, jobs, db = setup
    session.login("PB-1", "246813")
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.start()
    _idle(qtbot, jobs)
    hands = raw_hands(db)
    assert win.model.rowCount() == len(hands)  # 26 hands: one page of 100
    assert win.floor.tables.rowCount() == 1 and win.floor.alert_view.rowCount() == 2
    assert win.floor.ack.isEnabled() is False  # nothing selected yet
    win.floor.alert_view.selectRow(0)
    assert win.floor.ack.isEnabled()
    win.search.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # by hand number
    _idle(qtbot, jobs)
    assert [win.model.row(i).position for i in range(3)] == [h.hand_id for h in hands[:3]]
    target = hands[0]
    win.open_hand(target.table_id, target.hand_id)
    _idle(qtbot, jobs)
    screen = win.hand
    assert win.tabs.currentWidget() is screen
    cells = [screen.cards.item(i, 1).text() for i in range(screen.cards.rowCount())]
    positions = [screen.cards.item(i, 0).text() for i in range(screen.cards.rowCount())]
    holes = [c for c, p in zip(cells, positions, strict=True) if p.startswith("seat")]
    assert holes and set(holes) == {HIDDEN}
    assert screen.reveal.isEnabled()
    win.reveal(target.table_id, target.hand_id)
    _idle(qtbot, jobs)
    cells = [screen.cards.item(i, 1).text() for i in range(screen.cards.rowCount())]
    assert HIDDEN not in cells
    steps = len(screen.view.replay.steps) if screen.view else 0
    assert screen.step == 0 and not screen.prev.isEnabled()
    for _ in range(steps - 1):
        screen.next.click()
    assert not screen.next.isEnabled() and "settled" in screen.step_text.toPlainText()
    screen.prev.click()
    assert screen.step == steps - 2
    screen.recompute.click()
    _idle(qtbot, jobs)
    assert screen.verdict.text() == "The recompute agrees with what was recorded and paid"
    assert [e.action for e in session.log.entries()] == [
        "login",
        "view_detail",
        "view_hole_cards",
        "recompute",
    ]


def test_the_auditor_cannot_acknowledge(qtbot: QtBot, setup: tuple[Session, Jobs, Path]) -> None:
    session, jobs, _ = setup
    session.login("AUD-1", "135724")
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.start()
    _idle(qtbot, jobs)
    win.floor.alert_view.selectRow(0)
    assert not win.floor.ack.isEnabled()
    key = win.floor.alerts[0].key
    win.acknowledge(key)  # even asked directly, the session refuses
    _idle(qtbot, jobs)
    assert "auditor changes nothing" in win.statusBar().currentMessage()
    _idle(qtbot, jobs)
    assert win.floor.alerts[0].acknowledged_by is None
    assert [e.action for e in session.log.entries()] == ["login"]


def test_a_short_pin_from_before_is_changed_in_the_login_dialog(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path]
) -> None:
    from argon2 import PasswordHasher

    from dealer_assist.pitboss.users import User

    session, jobs, _ = setup
    session.users.put_user(User("PB-4", Role.PIT_BOSS, PasswordHasher().hash("2468")), "old")
    dialog = LoginDialog(session, jobs)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.new_pin.isVisible()
    dialog.badge.setText("PB-4")
    dialog.pin.setText("2468")
    dialog.try_login()
    _idle(qtbot, jobs)
    assert dialog.isVisible() and dialog.new_pin.isVisible()  # not let in yet
    assert "shorter than 6 digits" in dialog.message.text()
    dialog.new_pin.setText("13579")
    dialog.new_pin_again.setText("13579")
    dialog.try_login()
    _idle(qtbot, jobs)
    assert "too short" in dialog.message.text() and session.must_change_pin
    dialog.new_pin.setText("135790")
    dialog.new_pin_again.setText("135790")
    with qtbot.waitSignal(dialog.accepted, timeout=20_000):
        dialog.try_login()
    assert not session.must_change_pin
    assert session.users.get_user("PB-4") is not None
    assert [e.action for e in session.log.entries()] == ["login", "pin_changed"]


def test_a_locked_badge_is_shown_to_the_shift_manager_not_to_a_pit_boss(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path]
) -> None:
    from dealer_assist.pitboss.users import LoginRefusedError

    session, jobs, _ = setup
    session.users.put_user(new_user("SM-1", Role.SHIFT_MANAGER, "864213"), "test")
    for _ in range(5):
        with pytest.raises(LoginRefusedError):
            session.login("PB-1", "000000")
    for badge, pin, shown in (
        ("PB-1", "246813", None),
        ("AUD-1", "135724", True),
        ("SM-1", "864213", True),
    ):
        if badge == "PB-1":
            with pytest.raises(LoginRefusedError, match="locked until"):
                session.login(badge, pin)
            continue
        session.login(badge, pin)
        win = PitBossWindow(session, jobs)
        qtbot.addWidget(win)
        win.show()
        win.start()
        _idle(qtbot, jobs)
        assert win.floor.locks.isVisible() is shown
        assert win.floor.locks.text().startswith("Locked after 5 wrong PINs: PB-1 until ")
        win.close()
        session.logout()
    session.login("SM-1", "864213")
    assert session.locked_badges()[0][0] == "PB-1"
    session.logout()
    session.users.put_user(new_user("PB-2", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-2", "246813")
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.show()
    win.start()
    _idle(qtbot, jobs)
    assert not win.floor.locks.isVisible()  # a pit boss does not read the log


def test_the_window_exports_the_search_and_the_shift_report_as_csv_and_pdf(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path], tmp_path: Path
) -> None:
    import csv
    import hashlib
    import os
    import stat
    from datetime import UTC, datetime

    from dealer_assist.pitboss.filters import HandFilter

    session, jobs, db = setup
    session.login("PB-1", "246813")
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.start()
    _idle(qtbot, jobs)
    assert win.export_menu.isEnabled()
    hands = raw_hands(db)
    win.search.model.set_filter(HandFilter(outcome="settled"))
    _idle(qtbot, jobs)
    settled = [h for h in hands if h.status == "settled"]
    out = tmp_path / "out"
    out.mkdir()
    win.export_search(str(out / "hands.csv"))
    win.export_search(str(out / "hands.pdf"))
    win.stats.start_edit.setDateTime(
        win.stats.start_edit.dateTime().fromSecsSinceEpoch(
            int(datetime(2000, 1, 1, tzinfo=UTC).timestamp())
        )
    )
    win.stats.end_edit.setDateTime(
        win.stats.end_edit.dateTime().fromSecsSinceEpoch(
            int(datetime(2100, 1, 1, tzinfo=UTC).timestamp())
        )
    )
    win.export_report(str(out / "shift.csv"))
    win.export_report(str(out / "shift.pdf"))
    _idle(qtbot, jobs)
    assert "Shift report written to" in win.statusBar().currentMessage()
    rows = list(csv.reader((out / "hands.csv").open(encoding="utf-8")))
    assert rows[0][6:8] == ["Top payout or pot (EUR)", "Wagered (EUR)"]
    assert sorted(int(r[1]) for r in rows[1:]) == sorted(h.hand_id for h in settled)
    assert all(r[5] == "settled" and "." in r[7] for r in rows[1:])
    report = list(csv.reader((out / "shift.csv").open(encoding="utf-8")))
    assert report[0][0] == "Table" and report[1][0] == "UTH-01" and report[-1][0] == "Total"
    assert int(report[1][2]) == len(hands)
    for name in ("hands.csv", "hands.pdf", "shift.csv", "shift.pdf"):
        assert stat.S_IMODE(os.stat(out / name).st_mode) == 0o600, name
    for name in ("hands.pdf", "shift.pdf"):
        assert (out / name).read_bytes().startswith(b"%PDF")
    exports = [e for e in session.log.entries() if e.action == "export"]
    assert len(exports) == 4 and {e.badge for e in exports} == {"PB-1"}
    digest = hashlib.sha256((out / "hands.csv").read_bytes()).hexdigest()
    assert (
        f"search: {len(settled)} hands to {out / 'hands.csv'} sha256 {digest}" == exports[0].detail
    )


def test_a_dealer_may_not_export(
    qtbot: QtBot, setup: tuple[Session, Jobs, Path], tmp_path: Path
) -> None:
    session, jobs, _ = setup
    session.users.put_user(new_user("D-1", Role.DEALER, "111111"), "test")
    session.login("D-1", "111111")
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.start()
    _idle(qtbot, jobs)
    assert not win.export_menu.isEnabled()
    win.export_search(str(tmp_path / "x.csv"))  # asked anyway: the session refuses
    _idle(qtbot, jobs)
    assert "dealer may not export" in win.statusBar().currentMessage()
    assert not (tmp_path / "x.csv").exists()
