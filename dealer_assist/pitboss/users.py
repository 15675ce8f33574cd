"""Users of the pit-boss application: badge, role, PIN hashed with argon2 (argon2-cffi), the
login check, and the access log's entries (docs/PITBOSS.md "Login and the access log").

The stores (a floor database, a users file beside one journal) implement :class:`UserStore`
and :class:`AccessLog`; this module decides, they keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from dealer_assist.errors import DealerAssistError
from dealer_assist.pitboss.roles import Role

_HASHER = PasswordHasher()
MIN_PIN = 6
"""The fewest digits of a PIN (a user with a shorter one from before must change it at the next
login before anything else: :func:`pin_must_change`)."""
MAX_PIN = 32
LOCK_AFTER = 5
"""Wrong PINs in a row (for one badge as typed, known or not) that lock it."""
LOCK_FOR = timedelta(minutes=15)
"""How long a locked badge is refused, from its last wrong PIN."""


class LoginRefusedError(DealerAssistError):
    """Unknown badge or wrong PIN (one message for both: which one is not said)."""


class UserError(DealerAssistError, ValueError):
    """A badge or PIN that cannot be (the message names which and why)."""


@dataclass(frozen=True)
class User:
    """A user: ``badge`` (their id), ``role``, ``pin_hash`` (argon2 encoded)."""

    badge: str
    role: Role
    pin_hash: str


@dataclass(frozen=True)
class AccessEntry:
    """One line of the access log: who (badge, role), when (UTC), what (``action``: ``login``,
    ``login_refused``, ``view_detail``, ``view_hole_cards``, ``recompute``, ``acknowledge``,
    ``user_added``), on which hand (``table_id``/``position``) and a ``detail``."""

    at: datetime
    badge: str
    role: str | None
    action: str
    table_id: str | None = None
    position: int | None = None
    detail: str = ""


class UserStore(Protocol):
    """Where users are kept."""

    def get_user(self, badge: str) -> User | None:
        """The user with ``badge``, ``None`` if none."""
        ...

    def put_user(self, user: User, by: str | None) -> None:
        """Add or replace ``user`` (``by``: who did it)."""
        ...

    def has_users(self) -> bool:
        """Whether any user is stored."""
        ...


class AccessLog(Protocol):
    """Where the access log is appended (never rewritten)."""

    def record(self, entry: AccessEntry) -> None:
        """Append ``entry`` durably before the view it logs is shown."""
        ...

    def entries(self) -> list[AccessEntry]:
        """Every entry, oldest first."""
        ...


def check_badge(badge: str) -> str:
    """``badge`` stripped. Raises UserError when empty, longer than 64 or with spaces inside."""
    b = badge.strip()
    if not b or len(b) > 64 or any(c.isspace() for c in b):
        raise UserError(f"badge: 1 to 64 characters without spaces, got {badge!r}")
    return b


def check_pin(pin: str) -> str:
    """``pin`` when it is :data:`MIN_PIN` to :data:`MAX_PIN` digits. Raises UserError with the
    sentence the screens and the command show."""
    if not (pin.isascii() and pin.isdigit()):
        raise UserError(f"a PIN is digits only: choose {MIN_PIN} to {MAX_PIN} digits")
    if len(pin) < MIN_PIN:
        raise UserError(
            f"a PIN of {len(pin)} digits is too short: choose at least {MIN_PIN} digits"
        )
    if len(pin) > MAX_PIN:
        raise UserError(f"a PIN of {len(pin)} digits is too long: at most {MAX_PIN} digits")
    return pin


def pin_must_change(pin: str) -> bool:
    """Whether ``pin`` (just checked right at a login) is one a user must replace before
    anything else: shorter than :data:`MIN_PIN` digits (set before the minimum rose) or not
    digits."""
    try:
        check_pin(pin)
    except UserError:
        return True
    return False


def hash_pin(pin: str) -> str:
    """The argon2 hash of ``pin``. Raises UserError for a PIN that is not :data:`MIN_PIN` to
    :data:`MAX_PIN` digits (:func:`check_pin`)."""
    return _HASHER.hash(check_pin(pin))


def new_user(badge: str, role: Role, pin: str) -> User:
    """A user with ``pin`` hashed. Raises UserError (see :func:`check_badge`, :func:`hash_pin`)."""
    return User(check_badge(badge), role, hash_pin(pin))


def locked_until(entries: Sequence[AccessEntry], badge: str, now: datetime) -> datetime | None:
    """When ``badge`` (as typed, stripped) may try again, ``None`` when it is not locked:
    :data:`LOCK_AFTER` ``login_refused`` entries of it in a row (no ``login`` of it between)
    lock it for :data:`LOCK_FOR` after the last of them. Read from the access log, so a lock
    survives a restart of the application and is in the log the shift manager reads."""
    key = badge.strip()[:64] or "?"
    failures: list[datetime] = []
    for entry in entries:
        if entry.badge != key:
            continue
        if entry.action == "login":
            failures = []
        elif entry.action == "login_refused":
            failures.append(entry.at)
    if len(failures) < LOCK_AFTER:
        return None
    until = failures[-1] + LOCK_FOR
    return until if until > now else None


def locked_badges(entries: Sequence[AccessEntry], now: datetime) -> list[tuple[str, datetime]]:
    """Every badge (as typed) locked at ``now`` with the time its lock ends, in badge order: what
    the shift manager's screen shows (:func:`locked_until` of each badge in the log)."""
    badges = sorted({e.badge for e in entries if e.action == "login_refused"})
    out = []
    for badge in badges:
        until = locked_until(entries, badge, now)
        if until is not None:
            out.append((badge, until))
    return out


def login(store: UserStore, badge: str, pin: str) -> User:
    """The user of ``badge`` when ``pin`` is theirs.

    Raises:
        LoginRefusedError: no such badge, or the PIN does not match.
    """
    user = store.get_user(badge.strip())
    if user is None:
        _HASHER.hash(pin or "x")  # the same work for an unknown badge as for a wrong PIN
        raise LoginRefusedError("badge or PIN not recognised")
    try:
        _HASHER.verify(user.pin_hash, pin)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        raise LoginRefusedError("badge or PIN not recognised") from None
    return user


def authenticate(store: UserStore, log: AccessLog, badge: str, pin: str, now: datetime) -> User:
    """:func:`login` with the access log: a badge locked by :data:`LOCK_AFTER` wrong PINs is
    refused without its PIN being tried (logged ``login_locked``), a refusal is logged
    ``login_refused`` (the badge as typed), a login ``login`` (with "PIN must change" when
    :func:`pin_must_change`). The window's session and the commands both log in through it.

    Raises:
        LoginRefusedError: locked, unknown badge or wrong PIN.
    """
    typed = badge.strip()[:64] or "?"
    until = locked_until(log.entries(), badge, now)
    if until is not None:
        log.record(AccessEntry(now, typed, None, "login_locked", detail=f"until {until:%H:%M} UTC"))
        raise LoginRefusedError(
            f"too many wrong PINs: this badge is locked until {until:%H:%M} UTC"
        )
    try:
        user = login(store, badge, pin)
    except LoginRefusedError:
        log.record(AccessEntry(now, typed, None, "login_refused"))
        raise
    detail = "PIN must change" if pin_must_change(pin) else ""
    log.record(AccessEntry(now, user.badge, user.role.value, "login", detail=detail))
    return user
