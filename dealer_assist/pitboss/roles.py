"""Who may do what in the pit-boss application (docs/PITBOSS.md "Roles").

Segregation of duties: the auditor (surveillance) sees everything a shift manager sees and
changes nothing; a dealer sees the floor and the hands but never a hole card; a pit boss also
sees hole cards and acknowledges alerts; a shift manager also manages users.
"""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import DealerAssistError


class Role(StrEnum):
    """A user's role (the value is what the users store keeps)."""

    DEALER = "dealer"
    PIT_BOSS = "pit_boss"
    SHIFT_MANAGER = "shift_manager"
    AUDITOR = "auditor"


class Action(StrEnum):
    """What a user may ask of the application."""

    VIEW_FLOOR = "view_floor"
    SEARCH = "search"
    VIEW_DETAIL = "view_detail"
    VIEW_HOLE_CARDS = "view_hole_cards"
    RECOMPUTE = "recompute"
    ACKNOWLEDGE = "acknowledge"
    MANAGE_USERS = "manage_users"
    VIEW_ACCESS_LOG = "view_access_log"
    CONFIRM_SIGNOFF = "confirm_signoff"  # a large payout waiting at a table
    REPORT = "report"  # a shift report or the statistics (command or window)
    EXPORT = "export"  # search results or a report written to a file from the window


#: Actions that change something (an auditor may take none of them).
CHANGES = frozenset({Action.ACKNOWLEDGE, Action.MANAGE_USERS, Action.CONFIRM_SIGNOFF})

_SEES = frozenset({Action.VIEW_FLOOR, Action.SEARCH, Action.VIEW_DETAIL, Action.RECOMPUTE})
_REPORTS = frozenset({Action.REPORT, Action.EXPORT})  # not a dealer's
ALLOWED: dict[Role, frozenset[Action]] = {
    Role.DEALER: _SEES,
    Role.PIT_BOSS: _SEES
    | _REPORTS
    | {Action.VIEW_HOLE_CARDS, Action.ACKNOWLEDGE, Action.CONFIRM_SIGNOFF},
    Role.SHIFT_MANAGER: _SEES
    | _REPORTS
    | {
        Action.VIEW_HOLE_CARDS,
        Action.ACKNOWLEDGE,
        Action.MANAGE_USERS,
        Action.VIEW_ACCESS_LOG,
        Action.CONFIRM_SIGNOFF,
    },
    Role.AUDITOR: _SEES | _REPORTS | {Action.VIEW_HOLE_CARDS, Action.VIEW_ACCESS_LOG},
}


class PermissionDeniedError(DealerAssistError):
    """The user's role does not allow the action (the message names both)."""


def parse_role(text: str) -> Role:
    """The role named ``text`` (``pit_boss``, ``pit-boss`` or ``pit boss``).

    Raises:
        PermissionDeniedError: no such role (the message lists the roles).
    """
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Role(key)
    except ValueError:
        names = ", ".join(r.value for r in Role)
        raise PermissionDeniedError(f"no role {text!r}: one of {names}") from None


def allowed(role: Role, action: Action) -> bool:
    """True when ``role`` may do ``action``."""
    return action in ALLOWED[role]


def require(role: Role, action: Action) -> None:
    """Return when ``role`` may do ``action``.

    Raises:
        PermissionDeniedError: it may not (e.g. an auditor acknowledging an alert).
    """
    if not allowed(role, action):
        why = " (the auditor changes nothing)" if role is Role.AUDITOR and action in CHANGES else ""
        raise PermissionDeniedError(f"a {role.value} may not {action.value}{why}")
