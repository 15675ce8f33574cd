"""The pit-boss session over one table's real journal (dealt by ``simulate``), read-only: the
search filters, replay, recompute of a tampered payout, login, roles and the access log."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dealer_assist.pitboss.filters import HandFilter, Sort
from dealer_assist.pitboss.roles import PermissionDeniedError, Role
from dealer_assist.pitboss.users import LoginRefusedError, new_user
from tests.fixtures.pitboss_fixtures import (
    VOID_REASON,
    columns,
    journal_copy,
    raw_hands,
    tamper_payout,
)
from ui.pitboss.service import Session, open_backend

pytestmark = pytest.mark.integration


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return journal_copy(tmp_path)


def session(db: Path, badge: str = "PB-1", role: Role = Role.PIT_BOSS) -> Session:
    s = Session(*open_backend(None, db))
    s.users.put_user(new_user(badge, role, "246813"), "test")
    s.login(badge, "246813")
    return s


def _all(s: Session, where: HandFilter, sort: Sort | None = None) -> list[tuple[str, int]]:
    out, offset = [], 0
    while True:
        page = s.search(where, sort or Sort(), offset, 7)
        out += [(r.table_id, r.position) for r in page.rows]
        offset += len(page.rows)
        if not page.more:
            return out


def test_search_filters_return_the_right_hands(db: Path) -> None:
    hands = raw_hands(db)
    s = session(db)
    try:
        every = _all(s, HandFilter())
        assert sorted(every) == sorted((h.table_id, h.hand_id) for h in hands)
        # newest first by default, paged without a gap or a duplicate
        assert len(set(every)) == len(every)
        assert _all(s, HandFilter(game="holdem")) == []
        assert _all(s, HandFilter(table_id="HOLDEM-01")) == []
        seat3 = {p for _, p in _all(s, HandFilter(table_id="UTH-01", seat=3))}
        assert seat3 == {
            h.hand_id
            for h in hands
            if h.table_id == "UTH-01" and 3 in [p["seat"] for p in h.record.get("players", [])]
        }
        tops = sorted(c for h in hands if (c := columns(h)["top_amount"]) is not None)
        amount = tops[len(tops) // 2]
        big = {p for _, p in _all(s, HandFilter(min_amount=amount))}
        assert big == {h.hand_id for h in hands if (columns(h)["top_amount"] or 0) >= amount}
        assert 0 < len(big) < len(hands)
        voids = _all(s, HandFilter(outcome="void", void_reason="JAMMED"))
        assert voids == [(h.table_id, h.hand_id) for h in hands if h.void_reason == VOID_REASON]
        assert _all(s, HandFilter(flags=("device_fault",))) == voids
        assert _all(s, HandFilter(flags=("manual_card",))) == []
        by_top = s.search(HandFilter(game="uth"), Sort("top_amount", True), 0, 3).rows
        assert [r.top_amount for r in by_top] == sorted(
            [columns(h)["top_amount"] for h in hands if h.game == "uth" and h.status == "settled"],
            reverse=True,
        )[:3]
    finally:
        s.close()


@pytest.mark.parametrize("name", ["uth.db", "holdem.db"])
def test_replay_steps_end_at_the_recorded_result(db: Path, name: str) -> None:
    db = db.with_name(name)
    s = session(db)
    try:
        for h in raw_hands(db):
            if h.status != "settled":
                continue
            view = s.open_hand(h.table_id, h.hand_id)
            assert view.replay.stopped is None, (h.hand_id, view.replay.stopped)
            final = view.replay.final
            assert final is not None and final.result == h.settlement
            if h.game == "uth":  # a fold over operations: cards one by one, then decisions
                kinds = [step.kind for step in view.replay.steps]
                assert kinds[:2] == ["open", "bets"] and kinds[-2:] == ["reveal", "settle"]
                assert kinds.count("card") == len(h.extra["cards"])
                assert view.replay.steps[2].board == ()  # no board card face up yet
            else:  # Hold'em: a fold over PeerHand operations, the action list as recorded
                kinds = [step.kind for step in view.replay.steps]
                assert kinds[0] == "open" and kinds[-1] == "settle" and "pot" in kinds
                assert kinds.count("bet") == len(h.record["actions"])
                assert kinds.count("card") == len(h.extra["cards"])
    finally:
        s.close()


def test_recompute_of_a_tampered_payout_marks_the_difference(db: Path) -> None:
    hand = next(h for h in raw_hands(db) if h.game == "uth" and h.status == "settled")
    s = session(db)
    try:
        assert s.recompute(hand.table_id, hand.hand_id).agrees
    finally:
        s.close()
    tamper_payout(db, hand.hand_id, seat_index=0, add=1000)
    from dealer_assist.pitboss.recompute import recompute
    from dealer_assist.storage.verified_index import JournalNotVerifiedError

    with pytest.raises(JournalNotVerifiedError, match=f"hand {hand.hand_id}: content"):
        session(db)  # the application shows no hand of a journal that does not verify
    changed = next(h for h in raw_hands(db) if h.hand_id == hand.hand_id)
    result = recompute(changed)  # the recompute itself still names the difference
    seat = hand.settlement["seats"][0]  # type: ignore[index]
    assert [(d.path, d.recorded, d.recomputed) for d in result.differences] == [
        (f"seats[seat={seat['seat']}].net", seat["net"] + 1000, seat["net"])
    ]


def test_login_refused_with_a_wrong_pin_and_every_view_is_in_the_access_log(db: Path) -> None:
    s = Session(*open_backend(None, db))
    s.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    s.users.put_user(new_user("AUD-1", Role.AUDITOR, "135724"), "test")
    s.users.put_user(new_user("D-1", Role.DEALER, "111111"), "test")
    hand = raw_hands(db)[3]
    try:
        with pytest.raises(LoginRefusedError):
            s.login("PB-1", "246814")
        assert s.user is None
        with pytest.raises(PermissionDeniedError, match="nobody is logged in"):
            s.open_hand(hand.table_id, hand.hand_id)
        s.login("PB-1", "246813")
        s.open_hand(hand.table_id, hand.hand_id)
        s.reveal_hole_cards(hand.table_id, hand.hand_id)
        s.recompute(hand.table_id, hand.hand_id)
        s.logout()
        s.login("D-1", "111111")
        assert not s.open_hand(hand.table_id, hand.hand_id).holes_allowed
        with pytest.raises(PermissionDeniedError, match="dealer may not view_hole_cards"):
            s.reveal_hole_cards(hand.table_id, hand.hand_id)
        s.logout()
        s.login("AUD-1", "135724")
        void = s.snapshot().alerts[0]
        with pytest.raises(PermissionDeniedError, match="auditor changes nothing"):
            s.acknowledge(void.key)
        assert s.snapshot().alerts[0].acknowledged_by is None
    finally:
        s.close()
    log = [(e.badge, e.action, e.position) for e in s.log.entries()]
    p = hand.hand_id
    assert log == [
        ("PB-1", "login_refused", None),
        ("PB-1", "login", None),
        ("PB-1", "view_detail", p),
        ("PB-1", "view_hole_cards", p),
        ("PB-1", "recompute", p),
        ("PB-1", "logout", None),
        ("D-1", "login", None),
        ("D-1", "view_detail", p),
        ("D-1", "logout", None),
        ("AUD-1", "login", None),
    ]
    for name in ("pitboss_users.json", "pitboss_access.jsonl"):
        assert stat.S_IMODE(os.stat(db.parent / name).st_mode) == 0o600
    assert "246813" not in (db.parent / "pitboss_users.json").read_text()


def test_the_floor_view_and_an_acknowledgement_by_a_pit_boss(db: Path) -> None:
    s = session(db)
    try:
        snap = s.snapshot()
        by_id = {t.table_id: t for t in snap.tables}
        assert set(by_id) == {"UTH-01"}
        assert by_id["UTH-01"].status == "void_alarm" and by_id["UTH-01"].open_alerts == 2
        assert by_id["UTH-01"].hands_last_hour == len(raw_hands(db))
        kinds = sorted(a.kind for a in snap.alerts)
        assert kinds == ["device_fault", "void"]
        row = s.acknowledge(snap.alerts[0].key)
        assert row.acknowledged_by == "PB-1" and row.acknowledged_at is not None
        again = s.acknowledge(snap.alerts[0].key)
        assert again.acknowledged_at == row.acknowledged_at  # the first one stays
    finally:
        s.close()
    assert [e.action for e in s.log.entries()][-2:] == ["acknowledge", "acknowledge"]


def test_the_access_log_printed_for_an_auditor_and_refused_to_a_pit_boss(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from ui.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("864213\n"))
    assert (
        main(
            [
                "pitboss",
                "user",
                "add",
                "--db",
                str(db),
                "--badge",
                "SM-1",
                "--role",
                "shift_manager",
                "--pin-stdin",
            ]
        )
        == 0
    )
    for badge, role in (("AUD-1", "auditor"), ("PB-1", "pit_boss")):
        monkeypatch.setattr("sys.stdin", io.StringIO("864213\n135724\n"))
        assert (
            main(
                [
                    "pitboss",
                    "user",
                    "add",
                    "--db",
                    str(db),
                    "--badge",
                    badge,
                    "--role",
                    role,
                    "--user",
                    "SM-1",
                    "--pin-stdin",
                ]
            )
            == 0
        )
    s = session(db, "PB-2")
    s.open_hand("UTH-01", 1)
    s.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("135724\n"))
    assert main(["pitboss", "log", "--db", str(db), "--user", "PB-1", "--pin-stdin"]) == 2
    assert "pit_boss may not view_access_log" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("135724\n"))
    assert main(["pitboss", "log", "--db", str(db), "--user", "AUD-1", "--pin-stdin"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [" ".join(line.split()[1:]) for line in lines]
    assert said == [
        "bootstrap (-) user_added SM-1 shift_manager",
        "SM-1 (shift_manager) login",
        "SM-1 (shift_manager) user_added AUD-1 auditor",
        "SM-1 (shift_manager) login",
        "SM-1 (shift_manager) user_added PB-1 pit_boss",
        "PB-2 (pit_boss) login",
        "PB-2 (pit_boss) view_detail UTH-01 #1",
        "PB-1 (pit_boss) login",
        "AUD-1 (auditor) login",
        "AUD-1 (auditor) view_access_log",
    ]


def test_user_add_needs_a_shift_manager_logged_in_and_six_digit_pins(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from ui.cli import main
    from ui.commands.pitboss_login import PIN_ENV

    def add(*argv: str, stdin: str = "") -> int:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        return main(["pitboss", "user", "add", "--db", str(db), *argv])

    # an empty store: the first user is the bootstrap, and must be a shift manager
    assert add("--badge", "PB-1", "--role", "pit_boss", "--pin-stdin", stdin="246813\n") == 2
    assert "the first user must be a shift_manager" in capsys.readouterr().err
    assert add("--badge", "SM-1", "--role", "shift_manager", "--pin-stdin", stdin="8642\n") == 2
    assert "a PIN of 4 digits is too short: choose at least 6 digits" in capsys.readouterr().err
    assert add("--badge", "SM-1", "--role", "shift_manager", "--pin-stdin", stdin="864213\n") == 0
    # then nobody adds a user without a login ("by nobody" was possible before)
    assert add("--badge", "X-1", "--role", "shift_manager", "--pin-stdin", stdin="111111\n") == 2
    assert "needs a shift manager logged in" in capsys.readouterr().err
    # a wrong PIN of the shift manager: refused and logged
    assert (
        add(
            "--badge",
            "X-1",
            "--role",
            "dealer",
            "--user",
            "SM-1",
            "--pin-stdin",
            stdin="000000\n111111\n",
        )
        == 2
    )
    assert "not recognised" in capsys.readouterr().err
    # a pit boss may not add users
    assert (
        add(
            "--badge",
            "PB-1",
            "--role",
            "pit_boss",
            "--user",
            "SM-1",
            "--pin-stdin",
            stdin="864213\n246813\n",
        )
        == 0
    )
    assert (
        add(
            "--badge",
            "X-2",
            "--role",
            "dealer",
            "--user",
            "PB-1",
            "--pin-stdin",
            stdin="246813\n111111\n",
        )
        == 2
    )
    assert "pit_boss may not manage_users" in capsys.readouterr().err
    # scripted: the shift manager's PIN from the environment, still checked
    monkeypatch.setenv(PIN_ENV, "864210")
    assert (
        add("--badge", "D-1", "--role", "dealer", "--user", "SM-1", "--pin-stdin", stdin="111111\n")
        == 2
    )
    monkeypatch.setenv(PIN_ENV, "864213")
    assert (
        add("--badge", "D-1", "--role", "dealer", "--user", "SM-1", "--pin-stdin", stdin="111111\n")
        == 0
    )
    log = [(e.badge, e.action, e.detail) for e in Session(*open_backend(None, db)).log.entries()]
    assert [x for x in log if x[1] == "user_added"] == [
        ("bootstrap", "user_added", "SM-1 shift_manager"),
        ("SM-1", "user_added", "PB-1 pit_boss"),
        ("SM-1", "user_added", "D-1 dealer"),
    ]
    assert [b for b, a, _ in log if a == "login_refused"] == ["SM-1", "SM-1"]


def test_a_short_pin_from_before_must_change_at_the_next_login(db: Path) -> None:
    from argon2 import PasswordHasher

    from dealer_assist.pitboss.users import User, UserError

    s = Session(*open_backend(None, db))
    # a user stored before the minimum rose to 6 digits
    s.users.put_user(User("PB-1", Role.PIT_BOSS, PasswordHasher().hash("2468")), "old")
    try:
        s.login("PB-1", "2468")
        assert s.must_change_pin
        with pytest.raises(PermissionDeniedError, match="shorter than 6 digits"):
            s.search(HandFilter(), Sort(), 0, 10)
        with pytest.raises(PermissionDeniedError, match="shorter than 6 digits"):
            s.open_hand("UTH-01", 1)
        with pytest.raises(UserError, match="too short"):
            s.change_pin("2468", "13579")
        s.change_pin("2468", "135790")
        assert not s.must_change_pin
        assert s.search(HandFilter(), Sort(), 0, 10).rows
        s.logout()
        with pytest.raises(LoginRefusedError):
            s.login("PB-1", "2468")
        s.login("PB-1", "135790")
        assert not s.must_change_pin
    finally:
        s.close()
    actions = [(e.action, e.detail) for e in s.log.entries()]
    assert ("login", "PIN must change") in actions and ("pin_changed", "") in actions


def test_five_wrong_pins_lock_the_badge_for_fifteen_minutes_and_it_is_logged(db: Path) -> None:
    from datetime import timedelta

    from dealer_assist.pitboss.users import LOCK_FOR, locked_until

    s = Session(*open_backend(None, db))
    s.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    s.users.put_user(new_user("SM-1", Role.SHIFT_MANAGER, "864213"), "test")
    try:
        for _ in range(5):
            with pytest.raises(LoginRefusedError, match="not recognised"):
                s.login("PB-1", "0000")
        with pytest.raises(LoginRefusedError, match="locked until"):
            s.login("PB-1", "246813")  # the right PIN, not even tried
        assert s.user is None
        s.login("SM-1", "864213")  # another badge is not locked
        actions = [(e.badge, e.action) for e in s.log.entries()]
        assert actions.count(("PB-1", "login_refused")) == 5
        assert ("PB-1", "login_locked") in actions
        last = [e for e in s.log.entries() if e.action == "login_refused"][-1].at
        entries = s.log.entries()
        assert locked_until(entries, "PB-1", last + LOCK_FOR - timedelta(seconds=1)) is not None
        assert locked_until(entries, "PB-1", last + LOCK_FOR) is None  # over: may try again
        assert locked_until(entries, "SM-1", last) is None
    finally:
        s.close()
