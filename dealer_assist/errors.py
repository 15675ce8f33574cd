"""The project's exception tree.

Every error the product raises on purpose derives from :class:`DealerAssistError`. Library errors
(pyserial, pyusb, SQLAlchemy, OpenCV) are translated at the boundary with ``raise ... from e``.
"""

from __future__ import annotations


class DealerAssistError(Exception):
    """Root of every error raised by dealer-assist."""


class CardError(DealerAssistError, ValueError):
    """A card text that is not a card, or a card given twice (GAMES.md, "Card text")."""


class InvalidRecordError(DealerAssistError, ValueError):
    """A hand record that breaks HAND_RECORD.md.

    Attributes:
        field: dotted path of the offending field, e.g. ``players[0].bets.blind``.
        reason: what is wrong with it.
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class RuleError(DealerAssistError):
    """An operation the rules of the game do not allow now (a hand's ``verify`` raises a
    subclass naming the rule; the hand is left unchanged)."""


class OperationError(DealerAssistError, ValueError):
    """An operation's JSON that cannot be read: unknown kind, newer schema version, a missing or
    mistyped field (the message names the operation and the field)."""


class BetError(RuleError, ValueError):
    """A wager the table refuses (limits, Blind != Ante, bets after "rien ne va plus").

    The hand the bet was aimed at is left unchanged.

    Attributes:
        box: the box the refusal is about (``ante``, ``trips``...), or ``""`` for the whole bet.
        reason: why.
    """

    def __init__(self, box: str, reason: str) -> None:
        super().__init__(f"{box}: {reason}" if box else reason)
        self.box = box
        self.reason = reason


class IllegalActionError(RuleError, ValueError):
    """A decision that is not legal for the seat on the current street."""


class HandStateError(RuleError):
    """An operation that the hand's current phase does not allow."""


class TableError(RuleError, ValueError):
    """A change to the table between hands that its rules refuse: a seat taken or empty, a
    buy-in or top-up outside the table's bounds, a player already sitting out...

    Attributes:
        seat: the seat the refusal is about (None for the whole table).
        reason: why, naming the rule (``buy-in 5000 is below the table's minimum 8000``).
    """

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}" if seat is not None else reason)
        self.seat = seat
        self.reason = reason


class ConfigError(DealerAssistError):
    """A table or pay-table configuration that cannot be used; names the key."""


class JournalError(DealerAssistError):
    """The hand journal could not be read or written."""


class ChainBrokenError(JournalError):
    """The journal's hash chain does not verify; ``hand_id`` names the first bad hand."""

    def __init__(self, hand_id: int | str, reason: str) -> None:
        super().__init__(f"hand {hand_id}: {reason}")
        self.hand_id = hand_id
        self.reason = reason


class DeviceError(DealerAssistError):
    """A card source failed: transport, protocol, identity or timeout."""


class TransportError(DeviceError):
    """The byte transport (serial, TCP, USB) failed or is closed."""


class ProtocolError(DeviceError):
    """The device broke TCRP/1 (NAK, no answer after retries, bad handshake)."""


class CommandRefusedError(ProtocolError):
    """The device answered a host command with NAK: it is there and listening, and said no.

    Unlike a command that got no answer (a plain :class:`ProtocolError`), a refusal proves the
    link works; the reason says why (DEVICE_PROTOCOL.md, "ACK / NAK": ``BUSY``, ``FAULT``,
    ``NO_DECK``, ``NOT_ENOUGH``, ``BAD_ARG``, ``UNKNOWN`` from the emulator; a device may send
    others, or none).

    Attributes:
        command: the refused TCRP/1 command (``SHUFFLE``, ``DEAL``, ``STATUS``, ``HELLO``).
        reason: the NAK's reason code as the device sent it, ``""`` when it gave none.
        source: the name of the card source that sent the command.
    """

    def __init__(self, command: str, reason: str, *, source: str = "") -> None:
        where = f"{source}: " if source else ""
        super().__init__(f"{where}device refused {command}: {reason or 'no reason given'}")
        self.command = command
        self.reason = reason
        self.source = source


class DeviceIdentityError(DeviceError):
    """The device is not the pinned model/serial, or changed identity mid-session."""


class LinkLostError(DeviceError):
    """Nothing was received from the device within the heartbeat timeout."""
