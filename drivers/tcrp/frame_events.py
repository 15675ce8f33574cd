"""A TCRP/1 device frame as the :mod:`dealer_assist.events` event it stands for.

:func:`frame_event` converts one in-order device frame (HELLO, STATE, SHUFFLED, CARD, FAULT,
CLEAR); a frame whose fields do not fit its type (a CARD without its deck, index or card, an
index that is not a number >= 1, a card text that is neither a card nor ``XX``) raises
:class:`BadFrame`: the receive loop NAKs such a frame so the device sends it again, and its
history recovery skips it.
"""

from __future__ import annotations

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

UNREADABLE = "XX"


class BadFrame(Exception):
    """A CRC-valid frame whose fields do not fit its type (NAKed by the receive loop)."""


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
    """The card, or None for ``XX`` (unreadable); any other text is a malformed field (the
    frame was garbled in the device, not a card it could not read: it is asked again)."""
    if text == UNREADABLE:
        return None
    try:
        return parse_card(text)
    except CardError as e:
        raise BadFrame(f"field 3 is not a card: {text[:20]!r}") from e
