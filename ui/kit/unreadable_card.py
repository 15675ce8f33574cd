"""An unreadable card at either console: the dealer's reading on the card keypad
(:class:`~ui.kit.commands.Identify`), then the pit boss's (:class:`~ui.kit.commands.Confirm`,
with the badge and PIN typed on the pad first). Qt-free; :class:`UnreadableCard` is a
collaborator of each console's card taps (:mod:`ui.console.card_taps`, :mod:`ui.poker.card_taps`),
which say its refusals in their own console's words.

Privacy: the card typed goes into the command and is never kept here; the PIN never leaves the
pad but in the confirmation sent.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from dealer_assist.cards import Card
from dealer_assist.engine.state import Position
from ui.kit.cards import CardEntry
from ui.kit.commands import Command, Confirm, Identify
from ui.kit.pin_entry import PinPad, PitBossEntry

Make = Callable[[int], Command]
"""A command waiting for its number (the presenter's outbox gives it)."""


class Identifying(Protocol):
    """What a console's snapshot says of the unreadable card: where it is, whether the dealer's
    reading is in (the pit boss's turn), and whether the confirmation needs a PIN."""

    @property
    def ident_position(self) -> Position | None: ...

    @property
    def ident_entered(self) -> bool: ...

    @property
    def pin_required(self) -> bool: ...


class UnreadableCard:
    """The keypad's two readings of an unreadable card and the pit boss's pad.

    Args:
        entry: the badge and PIN typed (one the console's other pads share, default its own).
    """

    def __init__(self, entry: PitBossEntry | None = None) -> None:
        self.pad = PinPad(entry)

    def clear(self) -> None:
        """The pit boss's pad from the start (another turn, a refused badge or PIN)."""
        self.pad.clear()

    def follow(self, old: Identifying, snap: Identifying) -> bool:
        """Follow the service: the pit boss's turn starts with a fresh pad; True when it did."""
        if snap.ident_entered and not old.ident_entered:
            self.clear()
            return True
        return False

    def entry(self, snap: Identifying, *, waiting: bool) -> CardEntry:
        """What the card keypad shows: the dealer's reading (``identify``), then the pit boss's
        (``confirm``, with the pad); ``waiting``: a command is on its way."""
        if not snap.ident_entered:
            return CardEntry("identify", snap.ident_position, waiting=waiting)
        pad = self.pad
        return CardEntry(
            "confirm",
            snap.ident_position,
            waiting=waiting,
            badge=pad.badge,
            pin_len=pad.pin_len,
            pin_field=pad.field,
            pin_required=snap.pin_required,
        )

    def reading(self, entry: CardEntry, card: Card) -> Make | None:
        """The command for ``card`` typed at ``entry`` (an ``identify`` or ``confirm`` entry):
        the dealer's :class:`Identify`, or the pit boss's :class:`Confirm` (the PIN taken from
        the pad, the badge kept: a refused card is typed again). None when the pit boss's badge,
        or a PIN that is required, is missing (the console says ``pit_boss_missing``)."""
        if entry.mode == "identify":
            return partial(Identify, card=card)
        pad = self.pad
        if not pad.badge or (entry.pin_required and not pad.pin_len):
            return None
        return partial(Confirm, card=card, badge=pad.badge, pin=pad.entry.take_pin())

    def key(self, snap: Identifying, key: str) -> bool:
        """A key of the pit boss's pad: a digit, ``back`` (erase one), ``next`` (badge -> PIN ->
        the card) or ``badge``/``pin`` (back to that field); False (ignored) before the
        dealer's reading is in."""
        if not snap.ident_entered:
            return False
        self.pad.identify(key, need_pin=snap.pin_required)
        return True
