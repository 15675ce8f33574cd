"""What a pit boss types on a console's digit pad (:func:`ui.kit.pin_pad.pin_pad`): the badge
and the PIN, and the order the fields come in. Qt-free; one implementation for both consoles.

:class:`PitBossEntry` keeps the digits (the PIN never leaves it but in :meth:`~PitBossEntry.
take`); :func:`identify_key` is the pad of an unreadable card (badge, PIN, then the card on
the card keypad), :func:`signoff_key` the pad of a sign-off (badge, PIN, then sent).
:class:`PinPad` is one pad with its own entry and field.
"""

from __future__ import annotations

PIN_DIGITS = 12
"""Digits a badge or a PIN may have on the pad."""


class PitBossEntry:
    """The badge and PIN being typed on a pit boss's pad (at the banked console one entry is
    shared by its pads, one at a time). The PIN never leaves here but in :meth:`take`."""

    def __init__(self) -> None:
        self.badge = ""
        self.pin = ""

    def key(self, field: str, key: str) -> None:
        """A digit (up to :data:`PIN_DIGITS`) or ``back`` on ``field`` (``badge`` or ``pin``);
        any other key, or field, is ignored."""
        value = self.pin if field == "pin" else self.badge
        if key == "back":
            value = value[:-1]
        elif key.isdigit() and len(key) == 1 and len(value) < PIN_DIGITS:
            value += key
        else:
            return
        if field == "pin":
            self.pin = value
        elif field == "badge":
            self.badge = value

    def clear(self) -> None:
        """Forget what was typed."""
        self.badge, self.pin = "", ""

    def take(self) -> tuple[str, str]:
        """The badge and PIN typed, forgotten here."""
        typed = self.badge, self.pin
        self.clear()
        return typed

    def take_pin(self) -> str:
        """The PIN typed, forgotten here (the badge stays: a refused card is typed again)."""
        pin, self.pin = self.pin, ""
        return pin


def identify_key(entry: PitBossEntry, field: str, key: str, *, need_pin: bool) -> str:
    """A key of the pad of an unreadable card on ``field`` (``badge``, ``pin``, ``card``): a
    digit or ``back`` typed into ``entry``, ``next`` (badge -> PIN -> the card; the PIN skipped
    when ``need_pin`` is False, a field left empty stays) or ``badge``/``pin`` (back to that
    field); the field now."""
    if key == "badge" or (key == "pin" and need_pin):
        return key
    if key == "next":
        if field == "badge" and entry.badge:
            return "pin" if need_pin else "card"
        if field == "pin" and entry.pin:
            return "card"
        return field
    entry.key(field, key)
    return field


def signoff_key(entry: PitBossEntry, field: str, key: str) -> tuple[str, tuple[str, str] | None]:
    """A key of a sign-off's pad on ``field`` (``badge``, ``pin``): a digit or ``back`` typed
    into ``entry``, ``next`` (badge -> PIN -> sent; a field left empty stays); the field now
    and, when ``next`` ended the PIN, the badge and PIN taken from ``entry`` (else None)."""
    if key == "next":
        if field == "badge" and entry.badge:
            return "pin", None
        if field == "pin" and entry.pin:
            return "badge", entry.take()
        return field, None
    entry.key(field, key)
    return field, None


class PinPad:
    """One pad with its :class:`PitBossEntry` and field (``field`` ``badge``, then ``pin``,
    then on an unreadable card's pad ``card``); ``entry``: one shared with other pads (the
    banked console's), default its own."""

    def __init__(self, entry: PitBossEntry | None = None) -> None:
        self.entry = entry if entry is not None else PitBossEntry()
        self.field = "badge"

    @property
    def badge(self) -> str:
        """The badge typed."""
        return self.entry.badge

    @property
    def pin_len(self) -> int:
        """Digits of the PIN typed (the screen shows dots)."""
        return len(self.entry.pin)

    def identify(self, key: str, *, need_pin: bool) -> None:
        """A key of an unreadable card's pad (:func:`identify_key`)."""
        self.field = identify_key(self.entry, self.field, key, need_pin=need_pin)

    def signoff(self, key: str) -> tuple[str, str] | None:
        """A key of a sign-off's pad (:func:`signoff_key`): the badge and PIN once sent."""
        self.field, done = signoff_key(self.entry, self.field, key)
        return done

    def clear(self) -> None:
        """Back to an empty badge."""
        self.entry.clear()
        self.field = "badge"
