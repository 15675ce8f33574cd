"""The Dealer control's table side, for both consoles (banked and poker-room): the incoming
dealer's badge put on the box between hands (:mod:`dealer_assist.table.dealers`: a journaled
``dealer_change`` table record; every hand after it carries the badge).

A badge is an id, not a secret: no PIN. With the pit-boss application's users store at the
console (``signers``) and the table's named setting ``[table] dealer_known_only = true``
(:attr:`~dealer_assist.config.TableConfig.dealer_known_only`), the badge must be a user whose
role is ``dealer``; without the store that setting refuses every badge (nothing can be checked).

Refusals (a :class:`~ui.kit.status.CommandError`, the badge in ``args``):
``dealer_in_hand`` (a hand is in progress), ``dealer_badge`` (not a badge id), ``dealer_same``
(that dealer is on the box already), ``dealer_unknown`` (not a known dealer).
"""

from __future__ import annotations

from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.errors import TableError
from dealer_assist.games.session import TableSession
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import UserStore
from dealer_assist.table.dealers import check_badge, record_dealer_change
from dealer_assist.table.runner import TableRunner
from ui.kit.status import CommandError

REFUSALS = ("dealer_in_hand", "dealer_badge", "dealer_same", "dealer_unknown")
"""The codes of the dealer control's own refusals."""


def refusal(
    config: TableConfig,
    session: TableSession | None,
    badge: str,
    *,
    in_hand: bool,
    users: UserStore | None = None,
) -> CommandError | None:
    """Why ``badge`` may not take the box now (None: it may). ``session``: the table's now."""
    if in_hand:
        return CommandError("dealer_in_hand", "a dealer changes between hands only")
    try:
        text = check_badge(badge)
    except TableError as e:
        return CommandError("dealer_badge", str(e), (str(badge)[:64],))
    if session is not None and session.dealer == text:
        return CommandError("dealer_same", f"dealer {text} is already on the box", (text,))
    if config.dealer_known_only:
        user = users.get_user(text) if users is not None else None
        if user is None or user.role is not Role.DEALER:
            return CommandError("dealer_unknown", f"badge {text} is not a known dealer", (text,))
    return None


def change_dealer(
    config: TableConfig,
    runner: TableRunner[Any],
    badge: str,
    *,
    users: UserStore | None = None,
) -> CommandError | None:
    """Put ``badge`` on the box at ``runner``'s table (journaled on return); the refusal
    otherwise, nothing written. Raises JournalError when the record cannot be written (the
    service says it as a storage fault)."""
    hand = runner.hand
    in_hand = hand is not None and not hand.is_over
    session = runner.session or TableSession.of_journal(config.table_id, runner.journal)
    refused = refusal(config, session, badge, in_hand=in_hand, users=users)
    if refused is not None:
        return refused
    runner.session = session
    record_dealer_change(runner, badge)
    return None


def on_box(runner: TableRunner[Any] | None) -> str:
    """The badge of the dealer on the box at ``runner``'s table ("" when nobody or no table)."""
    session = runner.session if runner is not None else None
    return session.dealer or "" if session is not None else ""
