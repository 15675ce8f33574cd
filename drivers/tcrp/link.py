"""The link of one TCRP/1 session: what the device's caller thread and its worker both touch.

:class:`Link` owns the transport's writes (the host sequence number and the lock that keeps
frames whole), the receive window (:class:`~drivers.tcrp.sequence.ReceiveWindow`, with the
counters of the windows of earlier links of the session), the link counters
(:class:`~dealer_assist.source.LinkStats`) and the event queue. A
:class:`~drivers.tcrp.device.TcrpDevice` makes one per session and hands it to its receive loop
(:class:`~drivers.tcrp.receive.ReceiveLoop`); a worker that outlived its session keeps writing
into its own, never into the next session's.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import replace

from dealer_assist.errors import WriteTimeoutError
from dealer_assist.events import DeviceEvent
from dealer_assist.source import LinkStats
from drivers.tcrp.frame import SEQ_MODULUS, encode_frame
from drivers.tcrp.sequence import ReceiveWindow
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.base import Transport


class Link:
    """Writes, receive window, counters and events of one session over ``transport``.

    Args:
        transport: the byte link (opened and closed by the device and its receive loop,
            always with :attr:`write_lock` held).
        timings: ``resend_interval`` and ``gap_timeout`` size each receive window.
        write_lock: held for the host seq counter and every write, open and close of the
            transport (the device's: one for all its sessions' workers).
    """

    def __init__(
        self, transport: Transport, timings: TcrpTimings, write_lock: threading.Lock
    ) -> None:
        self.transport = transport
        self._t = timings
        self.write_lock = write_lock
        self._stats_lock = threading.Lock()
        self._host_seq = 0
        self._stats = LinkStats()
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self.window = self._make_window()
        self._lost_before = 0  # frames lost by the windows of earlier links of this session
        self._far_before = 0  # frames dropped far ahead by those windows
        self._conflicts_before = 0  # frame conflicts seen by those windows
        self._timeouts_in_row = 0  # writes timed out since the last that went through

    # -- writes ----------------------------------------------------------------------------

    def take_seq(self) -> int:
        """The next host seq (modulo 65536), for a command sent by the command channel."""
        with self.write_lock:
            return self._take_seq()

    def _take_seq(self) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) % SEQ_MODULUS
        return seq

    def write(self, data: bytes) -> None:
        """Write an encoded frame whole. Raises WriteTimeoutError (the far end did not take
        it in time) or TransportError."""
        with self.write_lock:
            self._write(data)

    def send(self, type_: str, fields_: Sequence[str] = ()) -> int:
        """A link-level frame (ACK, NAK, RESEND, STATUS from a gap, HELLO probe): no answer is
        awaited here. Returns its host seq. Raises WriteTimeoutError or TransportError."""
        if type_ == "HELLO":
            self.window.hello_sent(time.monotonic())
        with self.write_lock:
            seq = self._take_seq()
            self._write(encode_frame(seq, type_, fields_))
        return seq

    @property
    def write_timeouts_in_row(self) -> int:
        """Writes that timed out since the last one that went through."""
        return self._timeouts_in_row

    def _write(self, data: bytes) -> None:
        try:
            self.transport.write(data)
        except WriteTimeoutError:
            self._timeouts_in_row += 1
            self.count(write_timeouts=1)
            raise
        self._timeouts_in_row = 0

    def send_resend(self, seq: int) -> None:
        """RESEND from device seq ``seq``, counted in ``resend_requests``. Raises
        TransportError."""
        self.send("RESEND", (str(seq),))
        self.count(resend_requests=1)

    # -- receive window --------------------------------------------------------------------

    def new_window(self) -> None:
        """A reopened transport: a fresh receive window (its first frame starts the device
        sequence); the old one's counters are kept for the session's totals."""
        self._lost_before += self.window.lost
        self._far_before += self.window.far_ahead
        self._conflicts_before += self.window.conflicts
        self.window = self._make_window()

    def _make_window(self) -> ReceiveWindow:
        return ReceiveWindow(
            resend_interval=self._t.resend_interval, gap_timeout=self._t.gap_timeout
        )

    @property
    def lost_frames(self) -> int:
        """Device frames given up this session after a gap RESEND did not fill."""
        return self._lost_before + self.window.lost

    @property
    def far_ahead_frames(self) -> int:
        """Frames dropped this session for being more than 256 ahead of the expected seq."""
        return self._far_before + self.window.far_ahead

    @property
    def frame_conflicts(self) -> int:
        """Seqs this session that came with two different contents."""
        return self._conflicts_before + self.window.conflicts

    # -- counters --------------------------------------------------------------------------

    def count(self, **increments: int) -> None:
        """Add to the :class:`~dealer_assist.source.LinkStats` fields named (e.g.
        ``duplicates=1``)."""
        with self._stats_lock:
            for name, n in increments.items():
                setattr(self._stats, name, getattr(self._stats, name) + n)

    def set_dropped(self, frames: int) -> None:
        """``frames_dropped`` is now ``frames`` (bad CRC, bad fields, far ahead)."""
        with self._stats_lock:
            self._stats.frames_dropped = frames

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link counters."""
        with self._stats_lock:
            return replace(self._stats)

    # -- events ----------------------------------------------------------------------------

    def emit(self, event: DeviceEvent) -> None:
        """Queue an event for :meth:`next_event`."""
        self._events.put(event)

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        try:
            if timeout <= 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None
