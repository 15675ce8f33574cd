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
MIN_PIN = 4
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


def hash_pin(pin: str) -> str:
    """The argon2 hash of ``pin``. Raises UserError for a PIN shorter than 4 or longer than
    32 characters."""
    if not MIN_PIN <= len(pin) <= MAX_PIN:
        raise UserError(f"PIN: {MIN_PIN} to {MAX_PIN} characters")
    return _HASHER.hash(pin)


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
