"""What the banked console's presenter asks of the table service, beyond the commands every
table shares (:mod:`ui.kit.commands`): one frozen value per request.

Each command carries ``seq``, the number the presenter gave it (the reply snapshot repeats it),
and what that request needs, typed; :mod:`ui.console.dispatch` runs each on the service by its
class. ``kind`` is a short name for logs and tests, never used to dispatch. Qt-free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from dealer_assist.cards import Card
from dealer_assist.engine.rules import Action
from dealer_assist.engine.voids import VoidReason
from ui.kit.commands import Command


@dataclass(frozen=True)
class NewHand(Command):
    """Open bets on a new hand."""

    kind: ClassVar[str] = "new_hand"


@dataclass(frozen=True)
class Deal(Command):
    """*Rien ne va plus*: every seat's bets (seat -> box -> minor units), locked, then the deal."""

    kind: ClassVar[str] = "deal"
    bets: Mapping[int, Mapping[str, int]]


@dataclass(frozen=True)
class Act(Command):
    """A seat's decision on the current street (one of its legal actions)."""

    kind: ClassVar[str] = "act"
    seat: int
    action: Action


@dataclass(frozen=True)
class DealerStep(Command):
    """The big button moves the hand on: the next board cards, or the dealer's cards."""

    kind: ClassVar[str] = "dealer_step"


@dataclass(frozen=True)
class VoidHand(Command):
    """The dealer voids the hand in progress."""

    kind: ClassVar[str] = "void"
    reason: VoidReason


@dataclass(frozen=True)
class RecordExposed(Command):
    """A card exposed by mistake at ``position`` (``seat 3``, ``dealer``, ``board``), the card
    when the dealer entered it."""

    kind: ClassVar[str] = "exposed"
    position: str
    card: Card | None = field(default=None, repr=False)


@dataclass(frozen=True)
class MarkPaid(Command):
    """The dealer paid (or collected) ``seat`` in the payout walk and moved on."""

    kind: ClassVar[str] = "paid"
    seat: int


@dataclass(frozen=True)
class SignOff(Command):
    """A pit boss's badge and PIN for ``seat``'s large payout."""

    kind: ClassVar[str] = "sign_off"
    seat: int
    badge: str
    pin: str = field(repr=False)


@dataclass(frozen=True)
class Undo(Command):
    """Take back ``seat``'s decision on this street."""

    kind: ClassVar[str] = "undo"
    seat: int


@dataclass(frozen=True)
class Correct(Command):
    """A pit boss corrects ``seat``'s decision on a street already past."""

    kind: ClassVar[str] = "correct"
    seat: int
    action: Action
    badge: str
    pin: str = field(repr=False)


@dataclass(frozen=True)
class OpenHistory(Command):
    """The last hands; with a pit boss's ``badge`` (and ``pin``) their hole cards too."""

    kind: ClassVar[str] = "history"
    badge: str = ""
    pin: str = field(default="", repr=False)


@dataclass(frozen=True)
class CloseHistory(Command):
    """Close the hand history."""

    kind: ClassVar[str] = "close_history"
