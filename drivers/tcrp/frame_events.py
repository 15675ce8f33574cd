"""A TCRP/1 device frame as the :mod:`dealer_assist.events` event it stands for.

:func:`frame_event` converts one in-order device frame (HELLO, STATE, SHUFFLED, CARD, FAULT,
CLEAR); a frame whose fields do not fit its type raises :class:`BadFrame`, and the caller counts
it as dropped. Used by the device's receive loop and by its history recovery alike.
"""

from __future__ import annotations

import logging

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    DeviceStateChanged,
    FaultCleared,
)
from drivers.tcrp.frame import Frame

log = logging.getLogger(__name__)

UNREADABLE = "XX"


class BadFrame(Exception):
    """A valid frame whose fields do not fit its type (counted as dropped)."""


def frame_event(frame: Frame, source: str) -> DeviceEvent | None:
    """The event of one device frame (a HELLO gives :class:`DeviceHello`, ``restarted`` when
    its seq is 0); None for BEAT, ACK, NAK and unknown types.

    Raises:
        BadFrame: the fields do not fit the type (the caller counts the frame as dropped).
    """
    t, f = frame.type, frame.fields
    if t == "HELLO":
        if len(f) < 4:
            raise BadFrame(f"HELLO needs protocol, model, firmware, serial: {f}")
        return DeviceHello(
            source=source, model=f[1], firmware=f[2], serial=f[3], restarted=frame.seq == 0
        )
    if t == "STATE":
        return DeviceStateChanged(source=source, state=_field(f, 0))
    if t == "SHUFFLED":
        return DeckShuffled(source=source, deck_id=_field(f, 0), count=_int(f, 1, 0))
    if t == "CARD":
        deck_id, index, text = _field(f, 0), _int(f, 1, 1), _field(f, 2)
        return CardRead(source=source, deck_id=deck_id, index=index, card=_card(text))
    if t == "FAULT":
        return DeviceFault(source=source, code=_field(f, 0), detail=f[1] if len(f) > 1 else "")
    if t == "CLEAR":
        return FaultCleared(source=source, code=_field(f, 0))
    return None


def _field(f: tuple[str, ...], i: int) -> str:
    if len(f) <= i or not f[i]:
        raise BadFrame(f"field {i + 1} missing")
    return f[i]


def _int(f: tuple[str, ...], i: int, minimum: int) -> int:
    text = _field(f, i)
    if not text.isdigit() or int(text) < minimum:
        raise BadFrame(f"field {i + 1} is not an integer >= {minimum}: {text!r}")
    return int(text)


def _card(text: str) -> Card | None:
    """The card, or None for ``XX``; an unparseable text is treated as unreadable too."""
    if text == UNREADABLE:
        return None
    try:
        return parse_card(text)
    except CardError:
        log.warning("device reported a card that is not one: %r (taken as unreadable)", text)
        return None
