"""TCRP/1 (DEVICE_PROTOCOL.md): the frame codec, receive-side sequencing and the host-side
protocol device :class:`~drivers.tcrp.device.TcrpDevice` with its
:class:`~drivers.tcrp.timings.TcrpTimings` (the device's parts: receive loop, commands, history
recovery, link, identity watch; see :mod:`drivers.tcrp.device`)."""

from drivers.tcrp.device import PROTOCOL_ID, TcrpDevice
from drivers.tcrp.frame import (
    MAX_FRAME_BYTES,
    Frame,
    FrameParser,
    crc16_ccitt_false,
    decode_frame,
    encode_frame,
)
from drivers.tcrp.timings import TcrpTimings

__all__ = [
    "MAX_FRAME_BYTES",
    "PROTOCOL_ID",
    "Frame",
    "FrameParser",
    "TcrpDevice",
    "TcrpTimings",
    "crc16_ccitt_false",
    "decode_frame",
    "encode_frame",
]
