"""The project's exception tree.

Every error the product raises on purpose derives from :class:`DealerAssistError`. Library errors
(pyserial, pyusb, SQLAlchemy, OpenCV) are translated at the boundary with ``raise ... from e``.
"""

from __future__ import annotations

import re
from typing import Any


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
        code: the table limit broken, for a screen to say in its own words: ``missing`` (a
            mandatory box is empty), ``below_min``, ``above_max``; ``""`` for any other rule
            (then ``reason`` says it).
        limit: the limit ``code`` names, minor units (the box's minimum for ``missing``, 0 when
            the box has no limits); 0 without a code.
    """

    def __init__(self, box: str, reason: str, *, code: str = "", limit: int = 0) -> None:
        super().__init__(f"{box}: {reason}" if box else reason)
        self.box = box
        self.reason = reason
        self.code = code
        self.limit = limit


class IllegalActionError(RuleError, ValueError):
    """A decision that is not legal for the seat on the current street."""


class HandStateError(RuleError):
    """An operation that the hand's current phase does not allow."""


class ExposedCardMismatch(HandStateError):
    """The card the dealer entered as exposed is not the one the reader read at that place (the
    exposed-card form checks it; nothing is recorded)."""


class Refusal:
    """What a rule refusal says beside its English message, for a screen to say it in the
    dealer's language: ``rule``, a stable code naming the rule (``below_minimum``,
    ``out_of_turn``...), and ``values``, the message's values by name (chips as integers in
    minor units, seats as numbers, action kinds and phases as their codes). The codes of the
    betting engine are listed in :data:`dealer_assist.engine.betting.RULES` and
    :data:`dealer_assist.engine.peer_checks.RULES`."""

    rule: str = ""
    values: dict[str, int | str]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled whole (a process pool's error): rebuilt from the rule and the message
        return (type(self), (self.rule, str(self)), dict(self.__dict__))


class ActionRefused(Refusal, IllegalActionError):
    """An :class:`IllegalActionError` with its rule's code and values (:class:`Refusal`); the
    message is the same English sentence as ever (``raise to 250 is below the minimum raise to
    400``). ``values`` is not ``args``: that is the exception's own tuple."""

    def __init__(self, rule: str, message: str, **values: int | str) -> None:
        super().__init__(message)
        self.rule = rule
        self.values = values


class StateRefused(Refusal, HandStateError):
    """A :class:`HandStateError` with its rule's code and values (:class:`Refusal`)."""

    def __init__(self, rule: str, message: str, **values: int | str) -> None:
        super().__init__(message)
        self.rule = rule
        self.values = values


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


class StorageFaultError(JournalError):
    """The journal's storage failed in a way that may pass: the hand in
    progress stays pending in the step log, journaled or voided by the resume rules once the
    storage works again. ``advice`` is what the operator or the dealer should do first (then
    resume: run the job again, or the console's resume)."""

    advice = "fix the storage"

    def __init__(self, message: str, *, advice: str | None = None) -> None:
        super().__init__(message)
        if advice is not None:
            self.advice = advice


class StorageFullError(StorageFaultError):
    """The disk of the journal (or of the records file) is full, or too full to start a hand
    (the SQLite WAL needs headroom), or refused a write (file size limit, disk I/O error)."""

    advice = "free space on that disk"


class StorageLowError(StorageFullError):
    """No new hand: the journal's disk has less free space than the table's refusal threshold
    (the hand in progress may still finish). ``free_bytes`` and ``refuse_bytes`` say how much."""

    def __init__(self, message: str, *, free_bytes: int, refuse_bytes: int) -> None:
        super().__init__(message)
        self.free_bytes = free_bytes
        self.refuse_bytes = refuse_bytes


class StorageBusyError(StorageFaultError):
    """The journal stayed locked by another connection beyond the busy timeout and the retries
    (SQLite ``database is locked``; PostgreSQL lock or serialization failures)."""

    advice = "close the other program that is writing to the journal"


class StorageLostError(StorageFaultError):
    """The connection to the journal's database server was lost and could not be made again
    within the retries (PostgreSQL stopped, restarted, unreachable, or the connection killed)."""

    advice = "check that the database server is running and reachable"


class DeviceError(DealerAssistError):
    """A card source failed: transport, protocol, identity or timeout."""


class TransportError(DeviceError):
    """The byte transport (serial, TCP, USB) failed or is closed."""


class WriteTimeoutError(TransportError):
    """A write did not complete within the transport's write timeout: the far end did not take
    the bytes (busy, its buffer full). Unlike other transport errors the link may still be up,
    and part of a frame may have gone out (the far end drops it by its CRC)."""


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


#: How much of an offending value an error message quotes (a hostile record of megabytes
#: must not come back as a megabyte of stderr).
QUOTE_LIMIT = 100


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` itself if at most ``limit`` characters, else its first ``limit`` characters and
    ``… [N chars]`` (N the full length), for messages that embed text taken from input."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text)} chars]"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` clipped by :func:`clip`: what an error message shows of an input value.

    An integer too long for ``repr`` (Python's 4,300-digit limit) is described by its size.
    """
    try:
        text = repr(value)
    except ValueError:  # int beyond sys.get_int_max_str_digits()
        return f"<integer of about {int(value.bit_length() * 0.30103) + 1} digits>"  # type: ignore[attr-defined]
    return clip(text, limit)


_OPENERS = {"'": "'", '"': '"', "[": "]", "{": "}"}


def shorten_quoted(message: str, limit: int = QUOTE_LIMIT) -> str:
    """``message`` with each quoted literal (a Python ``repr`` of a string, list or dict, as error
    messages embed input values) longer than ``limit`` characters clipped by :func:`clip`.

    For messages built by code that does not clip its values itself; a quote mark inside a word
    (``dealer's``) does not open a literal.
    """
    out: list[str] = []
    i = plain = 0
    n = len(message)
    while i < n:
        ch = message[i]
        if ch in _OPENERS and (ch in "[{" or i == 0 or message[i - 1] in " ([{,:="):
            end = _literal_end(message, i)
            out.append(_clip_words(message[plain:i], limit))
            out.append(clip(message[i:end], limit))
            i = plain = end
        else:
            i += 1
    out.append(_clip_words(message[plain:], limit))
    return "".join(out)


def _clip_words(text: str, limit: int) -> str:
    """Each run of more than ``limit`` non-blank characters (an unquoted input value, a long key
    in a field path) clipped by :func:`clip`."""
    if len(text) <= limit:
        return text
    return re.sub(rf"\S{{{limit + 1},}}", lambda m: clip(m.group(), limit), text)


def _literal_end(text: str, start: int) -> int:
    """Index just past the literal opening at ``start`` (the end of ``text`` if unclosed)."""
    closers: list[str] = []
    i, n = start, len(text)
    while i < n:
        ch = text[i]
        if closers and closers[-1] in "'\"":
            if ch == "\\":
                i += 1
            elif ch == closers[-1]:
                closers.pop()
        elif ch in _OPENERS:
            closers.append(_OPENERS[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
        i += 1
        if not closers:
            return i
    return n
