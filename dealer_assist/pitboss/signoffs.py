"""Large payouts signed off from the pit-boss application (docs/PITBOSS.md
"Sign-offs waiting"): the request a table posts to the floor while its payout walk waits on a
seat, the request as the floor keeps it, and who may confirm it.

A table whose walk stops on a seat above a ``[signoff]`` tier (:mod:`ui.console.signoff`) posts a
:class:`SignoffRequest` (table, hand, seat, amount, the seat's cards as read, the tier's role);
a pit boss of that role (a shift manager also for a pit boss's tier, never an auditor or a
dealer: :func:`check_may_confirm`) confirms it in the application with their PIN; the table picks
the confirmation up and signs the seat off as if at its console. Whichever comes first wins: a
sign-off at the console cancels the request (:data:`CANCELLED`), and a confirmation of a request
no longer waiting changes nothing (:attr:`Confirmation.won` is False).

A poker table's large pot (:mod:`dealer_assist.table.pot_signoff`) is asked the same way, in the
same columns (no schema change): its ``seat`` is :data:`POT_SEAT` plus the pot's index (0 the
main pot, 1.. the side pots; no table has 1000 seats), its ``amount`` the pot's whole amount, and
its ``cards`` each winner's cards after a marker ``#<seat>``, then ``#board`` and the board
(:func:`pot_request`; read back by :attr:`SignoffRequest.pot`, :attr:`~SignoffRequest.winners`,
:attr:`~SignoffRequest.card_groups`).

Pure: the floor keeps the rows (:mod:`dealer_assist.storage.floor.signoffs`), the application's
session decides with the functions here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from dealer_assist.config import SIGNOFF_ROLES
from dealer_assist.errors import DealerAssistError
from dealer_assist.pitboss.roles import Action, PermissionDeniedError, Role, require

WAITING, CONFIRMED, CANCELLED = "waiting", "confirmed", "cancelled"
"""A request's states on the floor: waiting for a pit boss; confirmed in the application (the
table takes it); cancelled (signed at the console first, or the walk ended without it)."""
STATES = (WAITING, CONFIRMED, CANCELLED)

SignoffKey = tuple[str, str, int]
"""``(table_id, hand_uid, seat)``: one request per seat of a hand (a pot: ``POT_SEAT + pot``)."""

POT_SEAT = 1000
"""The ``seat`` of a poker pot's request is ``POT_SEAT + pot`` (see the module docstring)."""
BOARD = "board"
"""The marker of the board's cards in a pot request's ``cards`` (``#board``)."""


class SignoffError(DealerAssistError, ValueError):
    """A sign-off request that cannot be (the message names the field), or one the floor does
    not hold."""


@dataclass(frozen=True)
class SignoffRequest:
    """What a table asks the floor: ``seat`` of ``hand_uid`` (the table's hand number
    ``hand_no``, 0 when unknown) at ``table_id`` wins ``amount`` (minor units, its net), above
    a tier that needs ``role`` (one of :data:`~dealer_assist.config.SIGNOFF_ROLES`); ``cards``
    the seat's cards as read (``("As", "Kd")``); ``requested_at`` when the walk stopped (UTC).

    Raises:
        SignoffError: an empty table or hand, a seat below 1, a negative amount, a role not a
            sign-off role, a time without its time zone.
    """

    table_id: str
    hand_uid: str
    hand_no: int
    seat: int
    amount: int
    cards: tuple[str, ...]
    role: str
    requested_at: datetime

    def __post_init__(self) -> None:
        if not self.table_id or not self.hand_uid:
            raise SignoffError("sign-off request: table and hand are required")
        if self.seat < 1:
            raise SignoffError(f"sign-off request: not a seat: {self.seat}")
        if self.amount < 0:
            raise SignoffError(f"sign-off request: amount must not be negative: {self.amount}")
        if self.role not in SIGNOFF_ROLES:
            raise SignoffError(
                f"sign-off request: role must be one of {', '.join(SIGNOFF_ROLES)}, "
                f"got {self.role!r}"
            )
        if self.requested_at.utcoffset() is None:
            raise SignoffError("sign-off request: requested_at needs its time zone (UTC)")

    @property
    def key(self) -> SignoffKey:
        """``(table_id, hand_uid, seat)``."""
        return (self.table_id, self.hand_uid, self.seat)

    @property
    def pot(self) -> int | None:
        """The poker pot asked for (0 the main pot, 1.. side pots); None for a seat's payout."""
        return self.seat - POT_SEAT if self.seat >= POT_SEAT else None

    @property
    def card_groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """A pot request's cards by owner: ``(("3", ("As", "Kd")), ("board", (...)))``, each
        winner's seat then ``board``; a seat's payout: its one group ``(str(seat), cards)``."""
        if self.pot is None:
            return ((str(self.seat), self.cards),)
        groups: list[tuple[str, list[str]]] = []
        for c in self.cards:
            if c.startswith("#"):
                groups.append((c[1:], []))
            elif groups:
                groups[-1][1].append(c)
        return tuple((who, tuple(cs)) for who, cs in groups)

    @property
    def winners(self) -> tuple[int, ...]:
        """A pot request's winning seats (ascending); a seat's payout: that seat."""
        if self.pot is None:
            return (self.seat,)
        return tuple(sorted(int(w) for w, _ in self.card_groups if w.isdigit()))


def pot_request(
    table_id: str,
    hand_uid: str,
    hand_no: int,
    pot: int,
    amount: int,
    cards: Mapping[int, tuple[str, ...]],
    board: tuple[str, ...],
    role: str,
    at: datetime,
) -> SignoffRequest:
    """The floor request for poker pot ``pot`` (0 main, 1.. side) of ``hand_uid``: ``amount``
    its whole amount (minor units), ``cards`` each winner's cards as read (seat -> cards; the
    winners are its keys), ``board`` the board, above a tier of ``role``, held since ``at``.

    Raises:
        SignoffError: a negative pot, no winner, or what :class:`SignoffRequest` refuses.
    """
    if pot < 0 or not cards:
        raise SignoffError(f"pot sign-off request: pot {pot} needs a pot index and its winners")
    flat: list[str] = []
    for seat in sorted(cards):
        flat += [f"#{seat}", *cards[seat]]
    flat += [f"#{BOARD}", *board]
    return SignoffRequest(
        table_id, hand_uid, hand_no, POT_SEAT + pot, amount, tuple(flat), role, at
    )


@dataclass(frozen=True)
class SignoffRow:
    """A request as the floor holds it: its ``id``, the ``request``, its ``state``
    (:data:`STATES`); ``confirmed_by``/``confirmed_role``/``confirmed_at`` who confirmed it in
    the application and when; ``cancelled_by`` (the console's signer, None when the walk
    ended without it) and ``cancelled_at``; ``taken_at`` when the table applied the
    confirmation; ``detail`` a sentence of how it closed."""

    id: int
    request: SignoffRequest
    state: str
    confirmed_by: str | None = None
    confirmed_role: str | None = None
    confirmed_at: datetime | None = None
    cancelled_by: str | None = None
    cancelled_at: datetime | None = None
    taken_at: datetime | None = None
    detail: str = ""

    @property
    def key(self) -> SignoffKey:
        """The request's key."""
        return self.request.key


@dataclass(frozen=True)
class Confirmation:
    """The answer to a confirmation: ``row`` as the floor holds it afterwards; ``won`` True
    when this confirmation is the one recorded (the request was waiting), False when the
    request was confirmed or cancelled before it (nothing changed)."""

    row: SignoffRow
    won: bool


class SignoffDesk(Protocol):
    """The floor's sign-off requests as the application uses them."""

    def waiting(self) -> list[SignoffRow]:
        """The requests waiting for a pit boss, oldest first."""
        ...

    def confirm(self, request_id: int, badge: str, role: str, at: datetime) -> Confirmation:
        """Record ``badge`` (of ``role``) confirming request ``request_id`` at ``at`` if it
        still waits. Raises SignoffError for an unknown request."""
        ...


def may_confirm(role: Role, tier: str) -> bool:
    """True when a user of ``role`` may confirm a payout of the tier that needs ``tier``: the
    tier's role or a higher sign-off role (a shift manager signs a pit boss's tier), never an
    auditor (who changes nothing) or a dealer."""
    if role.value not in SIGNOFF_ROLES or tier not in SIGNOFF_ROLES:
        return False
    return SIGNOFF_ROLES.index(role.value) >= SIGNOFF_ROLES.index(tier)


def check_may_confirm(role: Role, tier: str) -> None:
    """Return when ``role`` may confirm a ``tier`` payout (see :func:`may_confirm`).

    Raises:
        PermissionDeniedError: an auditor or a dealer (the role table's refusal, e.g. "an
            auditor may not confirm_signoff (the auditor changes nothing)"), or a role below
            the tier's ("a pit_boss may not confirm a shift_manager's sign-off").
    """
    require(role, Action.CONFIRM_SIGNOFF)
    if not may_confirm(role, tier):
        raise PermissionDeniedError(f"a {role.value} may not confirm a {tier}'s sign-off")
