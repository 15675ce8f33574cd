"""The pit-boss application's pure core: roles and what each may do, the search filter's
checks, the recompute's differences, PIN hashing and the login check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealer_assist.pitboss.filters import FilterError, HandFilter, HandRow, status_of
from dealer_assist.pitboss.recompute import diff
from dealer_assist.pitboss.roles import (
    CHANGES,
    Action,
    PermissionDeniedError,
    Role,
    allowed,
    parse_role,
    require,
)
from dealer_assist.pitboss.users import (
    LoginRefusedError,
    User,
    UserError,
    login,
    new_user,
    pin_must_change,
)

T = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_auditor_sees_everything_and_changes_nothing() -> None:
    for action in Action:
        if action in CHANGES:
            with pytest.raises(PermissionDeniedError, match="auditor changes nothing"):
                require(Role.AUDITOR, action)
        else:
            require(Role.AUDITOR, action)


def test_a_dealer_never_sees_hole_cards_and_a_pit_boss_does() -> None:
    assert not allowed(Role.DEALER, Action.VIEW_HOLE_CARDS)
    assert not allowed(Role.DEALER, Action.ACKNOWLEDGE)
    assert allowed(Role.PIT_BOSS, Action.VIEW_HOLE_CARDS)
    assert allowed(Role.PIT_BOSS, Action.ACKNOWLEDGE)
    assert not allowed(Role.PIT_BOSS, Action.MANAGE_USERS)
    assert allowed(Role.SHIFT_MANAGER, Action.MANAGE_USERS)


def test_roles_by_name() -> None:
    assert parse_role("Pit boss") is Role.PIT_BOSS
    assert parse_role("shift-manager") is Role.SHIFT_MANAGER
    with pytest.raises(PermissionDeniedError, match="no role 'cashier'"):
        parse_role("cashier")


class _Store:
    def __init__(self, *users: User) -> None:
        self.users = {u.badge: u for u in users}

    def get_user(self, badge: str) -> User | None:
        return self.users.get(badge)

    def put_user(self, user: User, by: str | None) -> None:
        self.users[user.badge] = user

    def has_users(self) -> bool:
        return bool(self.users)


def test_pins_are_hashed_and_a_wrong_pin_or_badge_is_refused() -> None:
    user = new_user("PB-7", Role.PIT_BOSS, "482135")
    assert "482135" not in user.pin_hash and user.pin_hash.startswith("$argon2")
    store = _Store(user)
    assert login(store, "PB-7", "482135") == user
    with pytest.raises(LoginRefusedError, match="badge or PIN not recognised"):
        login(store, "PB-7", "482136")
    with pytest.raises(LoginRefusedError, match="badge or PIN not recognised"):
        login(store, "PB-8", "482135")
    with pytest.raises(UserError, match="badge"):
        new_user("two words", Role.DEALER, "123456")


@pytest.mark.parametrize(
    ("pin", "said"),
    [
        ("12", "a PIN of 2 digits is too short: choose at least 6 digits"),
        ("12345", "a PIN of 5 digits is too short: choose at least 6 digits"),
        ("12345a", "a PIN is digits only"),
        ("1" * 33, "too long: at most 32 digits"),
    ],
)
def test_a_pin_is_six_to_thirty_two_digits(pin: str, said: str) -> None:
    with pytest.raises(UserError, match=said):
        new_user("PB-9", Role.DEALER, pin)
    assert pin_must_change(pin)
    assert not pin_must_change("123456") and new_user("PB-9", Role.DEALER, "123456")


def _row(**kw: object) -> HandRow:
    base: dict[str, object] = {
        "table_id": "UTH-1",
        "position": 3,
        "recorded_at": T,
        "game": "uth",
        "status": "settled",
        "void_reason": None,
        "wagered": 1000,
        "top_amount": 500,
        "seats": (1, 3),
        "flags": (),
    }
    base.update(kw)
    return HandRow(**base)  # type: ignore[arg-type]


def test_the_filter_matches_field_by_field() -> None:
    assert HandFilter().matches(_row())
    assert HandFilter(seat=3).matches(_row()) and not HandFilter(seat=2).matches(_row())
    assert HandFilter(min_amount=500).matches(_row())
    assert not HandFilter(min_amount=501).matches(_row())
    void = _row(status="void", void_reason="Device fault: JAM", flags=("device_fault",))
    assert HandFilter(void_reason="jam").matches(void)
    assert not HandFilter(void_reason="jam").matches(_row())
    assert HandFilter(flags=("device_fault",)).matches(void)
    assert not HandFilter(flags=("device_fault", "manual_card")).matches(void)
    assert HandFilter(since=T, until=T.replace(hour=13)).matches(_row())
    assert not HandFilter(since=T.replace(hour=11), until=T).matches(_row())


def test_a_filter_that_cannot_be_is_refused_naming_the_field() -> None:
    with pytest.raises(FilterError, match="since: a time with its time zone"):
        HandFilter(since=datetime(2026, 1, 1))
    with pytest.raises(FilterError, match="until: must be after since"):
        HandFilter(since=T, until=T)
    with pytest.raises(FilterError, match="flags: unknown jam"):
        HandFilter(flags=("jam",))
    with pytest.raises(FilterError, match="outcome"):
        HandFilter(outcome="won")  # type: ignore[arg-type]


def test_a_tables_status() -> None:
    assert status_of("settled", (), T, T) == "dealing"
    assert status_of("void", (), T, T) == "void_alarm"
    assert status_of("settled", ("device_fault",), T, T) == "faulted"
    assert status_of("settled", (), T, T.replace(hour=13)) == "offline"
    assert status_of(None, (), None, T) == "offline"


def test_differences_are_matched_by_seat_and_box() -> None:
    recorded = {
        "seats": [
            {"seat": 2, "net": 100, "bets": [{"box": "ante", "net": 100}]},
            {"seat": 1, "net": 0},
        ]
    }
    today = {
        "seats": [
            {"seat": 1, "net": 0},
            {"seat": 2, "net": 90, "bets": [{"box": "ante", "net": 90}]},
        ]
    }
    found = {(d.path, d.recorded, d.recomputed) for d in diff(recorded, today)}
    assert found == {("seats[seat=2].net", 100, 90), ("seats[seat=2].bets[box=ante].net", 100, 90)}
    assert diff(today, today) == []
