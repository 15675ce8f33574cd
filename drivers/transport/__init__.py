"""Byte transports under the TCRP/1 device: serial ports and pyserial URLs (``socket://``,
``loop://``); USB bulk endpoints later. A transport only moves bytes; framing is in
:mod:`drivers.tcrp`."""

from drivers.transport.base import Transport
from drivers.transport.serial_port import SerialTransport

__all__ = ["SerialTransport", "Transport"]
