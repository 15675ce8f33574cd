"""TCRP/1 frame codec (DEVICE_PROTOCOL.md, "Frames").

A frame is ASCII ``$<seq>,<TYPE>[,<field>]...*<CRC>\\r\\n``, at most 128 bytes, where CRC is
CRC-16/CCITT-FALSE of the bytes between ``$`` and ``*`` as four upper-case hex digits.
:func:`encode_frame` builds one; :class:`FrameParser` recovers frames from a byte stream,
skipping noise and dropping (and counting) anything malformed, without ever raising.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from dealer_assist.errors import ProtocolError

MAX_FRAME_BYTES = 128
SEQ_MODULUS = 65536
_FORBIDDEN = frozenset("$*,\r\n")
_TYPE_RE = re.compile(r"[A-Z][A-Z0-9_]*\Z")
_SEQ_RE = re.compile(rb"[0-9]{1,5}\Z")
_CRC_RE = re.compile(rb"[0-9A-Fa-f]{4}\Z")  # we send upper case; accept either


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF, no reflection, xorout 0).

    Returns an int 0..65535; ``crc16_ccitt_false(b"123456789") == 0x29B1`` (the spec's check
    value). ``binascii.crc_hqx`` is exactly this CRC when seeded with 0xFFFF.
    """
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One decoded TCRP/1 frame.

    Attributes:
        seq: 0..65535, the sender's sequence number.
        type: upper-case frame type, e.g. ``CARD``.
        fields: the comma-separated fields after the type (may be empty).
        raw: the exact bytes it was decoded from (empty when built in code); not compared.
    """

    seq: int
    type: str
    fields: tuple[str, ...] = ()
    raw: bytes = field(default=b"", compare=False, repr=False)


def _check_text(what: str, text: str) -> None:
    if not text.isascii() or not text.isprintable() or _FORBIDDEN.intersection(text):
        raise ProtocolError(f"TCRP/1 {what} {text!r} must be printable ASCII without $ * , CR LF")


def encode_frame(seq: int, type: str, fields: Sequence[str] = ()) -> bytes:
    """Encode one frame as bytes, ``\\r\\n`` included.

    Args:
        seq: 0..65535.
        type: upper-case letters, digits, ``_``; starts with a letter (``HELLO``, ``CARD``).
        fields: printable ASCII texts without ``$ * ,`` CR LF.

    Raises:
        ProtocolError: seq out of range, bad type or field, or the frame exceeds 128 bytes.
    """
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < SEQ_MODULUS:
        raise ProtocolError(f"TCRP/1 seq must be 0..65535, got {seq!r}")
    if not isinstance(type, str) or not _TYPE_RE.match(type):
        raise ProtocolError(f"TCRP/1 frame type must be upper-case, got {type!r}")
    for f in fields:
        if not isinstance(f, str):
            raise ProtocolError(f"TCRP/1 field must be text, got {f!r}")
        _check_text("field", f)
    body = ",".join([str(seq), type, *fields]).encode("ascii")
    frame = b"$" + body + b"*" + f"{crc16_ccitt_false(body):04X}".encode("ascii") + b"\r\n"
    if len(frame) > MAX_FRAME_BYTES:
        raise ProtocolError(f"TCRP/1 frame of {len(frame)} bytes exceeds {MAX_FRAME_BYTES}")
    return frame


def decode_frame(raw: bytes) -> Frame | None:
    """Decode exactly one complete frame (``$`` ... ``\\r\\n``); None if it is not valid."""
    if len(raw) > MAX_FRAME_BYTES or not raw.startswith(b"$") or not raw.endswith(b"\r\n"):
        return None
    star = raw.rfind(b"*")
    if star < 1:
        return None
    body, crc_text = raw[1:star], raw[star + 1 : -2]
    if not _CRC_RE.match(crc_text) or int(crc_text, 16) != crc16_ccitt_false(body):
        return None
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        return None
    if not text.isprintable() or "$" in text or "*" in text:
        return None
    parts = text.split(",")
    if len(parts) < 2 or not _SEQ_RE.match(parts[0].encode()) or not _TYPE_RE.match(parts[1]):
        return None
    seq = int(parts[0])
    if seq >= SEQ_MODULUS:
        return None
    return Frame(seq, parts[1], tuple(parts[2:]), raw=bytes(raw))


class FrameParser:
    """Incremental frame parser for one direction of a link.

    ``feed(data)`` accepts any bytes, in any chunking, and returns the complete valid frames
    in arrival order. Bytes before a ``$`` are skipped (``skipped_bytes``); a frame with a bad
    CRC, bad syntax, or more than 128 bytes, or one cut short by a new ``$``, is dropped and
    counted in ``dropped``. It never raises on input.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.dropped = 0
        self.skipped_bytes = 0

    def reset(self) -> None:
        """Forget any partial frame (after the transport was reopened); counters are kept."""
        self._buf.clear()

    def feed(self, data: bytes) -> list[Frame]:
        """Add received bytes; return the frames they completed (possibly none)."""
        buf = self._buf
        buf += data
        out: list[Frame] = []
        while buf:
            start = buf.find(b"$")
            if start < 0:
                self.skipped_bytes += len(buf)
                buf.clear()
                break
            if start:
                self.skipped_bytes += start
                del buf[:start]
            end = buf.find(b"\n", 1)
            nxt = buf.find(b"$", 1)
            if nxt != -1 and (end == -1 or nxt < end):
                self.dropped += 1  # a frame cut short by the start of the next one
                del buf[:nxt]
                continue
            if end == -1:
                if len(buf) > MAX_FRAME_BYTES:
                    self.dropped += 1  # over-length; its tail is skipped as noise
                    buf.clear()
                break
            raw = bytes(buf[: end + 1])
            del buf[: end + 1]
            frame = decode_frame(raw)
            if frame is None:
                self.dropped += 1
            else:
                out.append(frame)
        return out
