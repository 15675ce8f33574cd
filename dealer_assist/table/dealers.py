"""The dealer on the box: who deals at the table, changed between hands.

A dealer change is a table record (:mod:`dealer_assist.table.records`) of kind
:data:`DEALER_CHANGE`: ``{"kind": "dealer_change", "dealer": BADGE, "previous": BADGE | None,
"by": ..., "at": ISO-8601 UTC}``, chained with the hands, carrying the session after it (whose
:attr:`~dealer_assist.games.session.TableSession.dealer` is the new badge). A restarted table
takes the dealer back from the journal's last entry like the rest of its session, and every
hand journaled after the change carries the badge as ``extra["dealer"]``
(:class:`~dealer_assist.table.journaling.HandFacts`), the column the floor's search and the
statistics read (``dealer_assist/storage/search_columns.py``, ``audit/stats.py`` DEALER_KEY).

A badge is an id, not a secret (no PIN): printable, without spaces at either end, at most
:data:`BADGE_MAX` characters. Whether a badge belongs to a known dealer is the console's
setting (a users store), not the table's.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from dealer_assist.errors import HandStateError, TableError
from dealer_assist.games.seats import stamp
from dealer_assist.games.session import TableChange, TableSession
from dealer_assist.table.records import journal_change
from dealer_assist.table.runner import TableRunner

DEALER_CHANGE = "dealer_change"
"""The table record's kind of a dealer change."""

BADGE_MAX = 64
"""The longest badge id (the search column's limit, ``storage/search_columns.py``)."""


def check_badge(badge: Any) -> str:
    """``badge`` as a dealer's badge id (surrounding spaces removed).

    Raises:
        TableError: not a string, empty, longer than :data:`BADGE_MAX` characters, or holding
            a control character (names what was wrong).
    """
    if not isinstance(badge, str):
        raise TableError(None, f"a dealer's badge must be text, got {badge!r}")
    text = badge.strip()
    if not text:
        raise TableError(None, "a dealer's badge is empty")
    if len(text) > BADGE_MAX:
        raise TableError(
            None, f"a dealer's badge has at most {BADGE_MAX} characters, got {len(text)}"
        )
    if not text.isprintable():
        raise TableError(None, f"a dealer's badge has a control character: {text!r}")
    return text


def change_dealer(
    session: TableSession,
    badge: str,
    *,
    at: datetime | None = None,
    by: str = "",
    in_hand: bool = False,
) -> TableSession:
    """The session with dealer ``badge`` on the box and its change (kind
    :data:`DEALER_CHANGE`: the new and the previous badge, ``by`` (default: the new badge, the
    incoming dealer badges in) and ``at``). Pure: nothing is written.

    Raises:
        TableError: a bad badge (:func:`check_badge`), or that dealer is already on the box.
        HandStateError: asked during a hand (``in_hand``).
    """
    if in_hand:
        raise HandStateError("a dealer change only between hands: finish the hand first")
    new = check_badge(badge)
    if new == session.dealer:
        raise TableError(None, f"dealer {new} is already on the box")
    payload = {"dealer": new, "previous": session.dealer, **stamp(at, by or new)}
    return replace(session, dealer=new, change=TableChange(DEALER_CHANGE, payload))


def record_dealer_change(runner: TableRunner[Any], badge: str, *, by: str = "") -> TableSession:
    """Dealer ``badge`` takes the box at ``runner``'s table: the change is journaled (a table
    record with the session after it) before the table takes it, so a crash loses nothing;
    the runner's session is the new one on return. A finished hand a storage fault kept out of
    the journal is journaled first (the chain keeps the hand before the change).

    Raises:
        HandStateError: a hand is in progress (a dealer changes between hands only).
        TableError: as :func:`change_dealer`.
        JournalError: the unsaved hand or the record cannot be written (nothing changes).
    """
    hand = runner.hand
    if hand is not None and not hand.is_over:
        raise HandStateError("a dealer change only between hands: finish the hand first")
    check_badge(badge)  # a bad badge is refused before anything is written
    runner.journal_unsaved()
    session = runner.session or TableSession.of_journal(runner.config.table_id, runner.journal)
    new = change_dealer(session, badge, by=by)
    if runner.journal is not None:
        journal_change(runner.journal, new, game=runner.config.game)
    runner.session = new
    return new


def ensure_dealer(
    runner: TableRunner[Any], badge: str | None, *, by: str = "", keep_current: bool = False
) -> bool:
    """Put dealer ``badge`` on the box when another (or none) is there and no hand is in
    progress (``--dealer`` at start); with ``keep_current`` only when nobody is on the box yet
    (``[table] dealer``: a default, never undoing a change made at the console). True when a
    change was journaled; ``badge`` None or the dealer already there: nothing.

    Raises:
        TableError: a bad badge. JournalError: as :func:`record_dealer_change`.
    """
    if badge is None:
        return False
    wanted = check_badge(badge)
    hand = runner.hand
    session = runner.session or TableSession.of_journal(runner.config.table_id, runner.journal)
    runner.session = session
    if session.dealer == wanted or (hand is not None and not hand.is_over):
        return False
    if keep_current and session.dealer is not None:
        return False
    record_dealer_change(runner, wanted, by=by)
    return True
