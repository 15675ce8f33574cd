"""What the poker presenter asks of the table service, beyond the commands every table shares
(:mod:`ui.kit.commands`): one frozen value per request.

Each command carries ``seq``, the number the presenter gave it (the reply snapshot repeats it),
and what that request needs, typed; :meth:`ui.poker.service.PokerService.execute` runs each by
its class. ``kind`` is a short name for logs and tests, never used to dispatch. Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from dealer_assist.engine.voids import VoidReason
from ui.kit.commands import Command


@dataclass(frozen=True)
class NewHand(Command):
    """Start the next hand (between hands)."""

    kind: ClassVar[str] = "new_hand"


@dataclass(frozen=True)
class Act(Command):
    """``seat`` folds, checks, calls, bets, raises or completes (``action``); ``to`` is the
    total of a bet, raise or completion (minor units), None for the others."""

    kind: ClassVar[str] = "act"
    seat: int
    action: str
    to: int | None = None


@dataclass(frozen=True)
class Show(Command):
    """``seat`` shows its hand at the showdown (``shown`` False: mucks it)."""

    kind: ClassVar[str] = "show"
    seat: int
    shown: bool = True


@dataclass(frozen=True)
class Undo(Command):
    """Take back the last action (while the runner allows it)."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class VoidHand(Command):
    """The dealer voids the hand in progress."""

    kind: ClassVar[str] = "void"
    reason: VoidReason = field(default_factory=lambda: VoidReason("dealer_void"))


@dataclass(frozen=True)
class SeatPlayer(Command):
    """A player sits down in ``seat`` as ``name`` with a buy-in of ``amount`` (minor units)."""

    kind: ClassVar[str] = "seat_player"
    seat: int
    name: str
    amount: int


@dataclass(frozen=True)
class TopUp(Command):
    """``amount`` more chips (minor units) for the player in ``seat``."""

    kind: ClassVar[str] = "top_up"
    seat: int
    amount: int


@dataclass(frozen=True)
class SeatChange(Command):
    """A change of the player in ``seat`` between hands (its class says which)."""

    kind: ClassVar[str] = "seat_change"
    seat: int


@dataclass(frozen=True)
class SitOut(SeatChange):
    """The player in ``seat`` sits out from the next hand."""

    kind: ClassVar[str] = "sit_out"


@dataclass(frozen=True)
class SitIn(SeatChange):
    """The player in ``seat`` is dealt in again from the next hand."""

    kind: ClassVar[str] = "sit_in"


@dataclass(frozen=True)
class Leave(SeatChange):
    """The player in ``seat`` leaves with their stack."""

    kind: ClassVar[str] = "leave"


@dataclass(frozen=True)
class PlaceButton(SeatChange):
    """The dealer places the button in front of ``seat``."""

    kind: ClassVar[str] = "button"


@dataclass(frozen=True)
class Reshuffle(Command):
    """The dealer has loaded the burns with the stub when the deck ran short: the device
    shuffles them as the street's new deck."""

    kind: ClassVar[str] = "reshuffle"


@dataclass(frozen=True)
class SignOffPot(Command):
    """A pit boss's badge and PIN for the pot whose award waits on a sign-off."""

    kind: ClassVar[str] = "signoff"
    badge: str
    pin: str = field(repr=False)
