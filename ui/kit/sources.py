"""The console's card sources and the pit boss's confirmation: what the banked and the poker
console's services share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.errors import ConfigError, HandStateError
from dealer_assist.events import SourceSwitched
from dealer_assist.source import CardSource
from dealer_assist.table.runner import TableRunner
from drivers.failover.chain import FailoverSource
from drivers.manual import ManualSource
from ui.kit.pitboss import PitBossRoster, check_badge
from ui.kit.status import CommandError, SourceNotice

SourceFactory = Callable[[], CardSource]
"""Builds the (unopened) card source, e.g. ``lambda: open_source(url)``."""
WAIT_STEP = 0.05  # seconds: what wait() lets the source take for one event before ticking
MANUAL_SHUFFLE_TIMEOUT = 1.0  # seconds: the keypad's "shuffle" is immediate


def source_kind(source: CardSource | None) -> str:
    """``manual`` (the dealer's keypad), ``camera`` (drivers.camera, also ``file://``),
    ``device`` (a shuffler or reader speaking TCRP/1), or "" for none."""
    if source is None:
        return ""
    if isinstance(source, ManualSource):
        return "manual"
    if type(source).__module__.startswith("drivers.camera"):
        return "camera"
    return "device"


def switch_notice(
    last: SourceNotice | None, event: SourceSwitched, source: CardSource | None
) -> SourceNotice:
    """The notice of a card-source switch (numbered after ``last``); ``manual`` when the
    chain of ``source`` switched to the keypad. Shared by the banked and the poker console."""
    number = last.number + 1 if last is not None else 1
    sources = source.sources if isinstance(source, FailoverSource) else ()
    to = next((s for s in sources if s.name == event.to_source), None)
    return SourceNotice(
        number,
        event.from_source,
        event.to_source,
        event.reason,
        manual=isinstance(to, ManualSource),
    )


def confirm_card(
    runner: TableRunner[Any], roster: PitBossRoster | None, card: Card, badge: str, pin: str
) -> CommandError | None:
    """The pit boss's reading of the unreadable card (see :meth:`TableService.confirm`): None
    when it confirms the dealer's (the deal goes on), else the refusal (``pit_boss``: bad badge
    or PIN, nothing changed; ``ident_mismatch``: another card, the dealer's is rejected).

    Raises:
        HandStateError: no identified card waits for a pit boss.
    """
    ident = runner.identification
    if ident is None or ident.card is None:
        raise HandStateError("no identified card waits for a pit boss")
    try:
        check_badge(badge)
    except ConfigError as e:
        return CommandError("pit_boss", str(e))
    if roster is not None and roster.badges and not roster.verify(badge, pin):
        return CommandError("pit_boss", "unknown badge or wrong PIN")
    if card != ident.card:
        runner.confirm_identification(pit_boss=badge, accept=False)
        return CommandError("ident_mismatch", "the pit boss saw another card")
    runner.confirm_identification(pit_boss=badge)  # the deal goes on
    return None
