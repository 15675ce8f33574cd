"""The requests both consoles' presenters send their table service: the numbered base
:class:`Command` and the commands whose meaning is the same at every table.

Each command carries ``seq``, the number the presenter gave it (the reply snapshot repeats it),
and what that request needs, typed; each console runs them by their class
(:mod:`ui.console.dispatch`, :data:`ui.poker.service.STEPS`). The commands whose fields differ
by family (acting, undo, void, a new hand) are the consoles' own
(:mod:`ui.console.commands`, :mod:`ui.poker.commands`). ``kind`` is a short name for logs and
tests, never used to dispatch. Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from dealer_assist.cards import Card


@dataclass(frozen=True)
class Command:
    """A request to a table service, numbered ``seq`` (the reply snapshot repeats it)."""

    kind: ClassVar[str] = "tick"
    seq: int


@dataclass(frozen=True)
class OpenTable(Command):
    """Connect the source and the journal and resume an interrupted hand (also *Retry* of a
    failed connection); a banked table then opens a new hand, a poker table waits for the
    dealer's *New hand*."""

    kind: ClassVar[str] = "open"


@dataclass(frozen=True)
class AcknowledgeVoid(Command):
    """The dealer has read the void alarm."""

    kind: ClassVar[str] = "ack"


@dataclass(frozen=True)
class ChangeDealer(Command):
    """The incoming dealer's ``badge`` on the box (between hands)."""

    kind: ClassVar[str] = "dealer"
    badge: str


@dataclass(frozen=True)
class RetryStorage(Command):
    """After a storage fault: ask the journal again."""

    kind: ClassVar[str] = "retry"


@dataclass(frozen=True)
class Identify(Command):
    """The dealer's reading of an unreadable card."""

    kind: ClassVar[str] = "identify"
    card: Card = field(repr=False)  # may be a hole card: never logged


@dataclass(frozen=True)
class Confirm(Command):
    """The pit boss's reading of the unreadable card, with badge and PIN."""

    kind: ClassVar[str] = "confirm"
    card: Card = field(repr=False)
    badge: str
    pin: str = field(repr=False)


@dataclass(frozen=True)
class Tick(Command):
    """Nothing asked: the table's state now."""
