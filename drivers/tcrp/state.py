"""What the parts of a :class:`~drivers.tcrp.device.TcrpDevice` share.

:class:`DeviceState` is the base of the device's parts (:mod:`~drivers.tcrp.commands`,
:mod:`~drivers.tcrp.history`, :mod:`~drivers.tcrp.receive`, :mod:`~drivers.tcrp.device`): the
settings stored by the constructor, the locks between the caller's thread and the worker, the
event queue, one session's counters and link state (:meth:`DeviceState._reset_session`, the
collaborators that own their state: the commands awaiting an answer
(:class:`~drivers.tcrp.commands.CommandChannel`) and the history recovery
(:class:`~drivers.tcrp.history.HistoryRecovery`)), and the link-level writes every part makes (host
sequence numbers, frames without an answer awaited).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence

from dealer_assist.events import DeviceEvent
from dealer_assist.source import LinkState, LinkStats, SourceIdentity
from drivers.tcrp.commands import CommandChannel
from drivers.tcrp.frame import SEQ_MODULUS, FrameParser, encode_frame
from drivers.tcrp.history import HistoryRecovery
from drivers.tcrp.sequence import ReceiveWindow
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.base import Transport


class DeviceState:
    """Settings, locks, the event queue and the session state of one TCRP/1 device.

    Args: as :class:`~drivers.tcrp.device.TcrpDevice`. Nothing is opened here.
    """

    def __init__(
        self,
        transport: Transport,
        *,
        name: str = "tcrp",
        pin_model: str | None = None,
        pin_serial: str | None = None,
        timings: TcrpTimings | None = None,
    ) -> None:
        self.name = name
        self._transport = transport
        self._pin_model = pin_model
        self._pin_serial = pin_serial
        self._t = timings or TcrpTimings()
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()  # pending commands, received HELLOs
        self._write_lock = threading.Lock()  # host seq counter and transport writes
        self._stats_lock = threading.Lock()
        self._commands = CommandChannel(name, self._cond, self._t)
        self._history = HistoryRecovery(name, self._cond, self._t.history_quiet)
        self._reset_session()

    def _reset_session(self) -> None:
        self._parser = FrameParser()
        self._window = ReceiveWindow(
            resend_interval=self._t.resend_interval, gap_timeout=self._t.gap_timeout
        )
        self._stats = LinkStats()
        self._bad_frames = 0
        self._host_seq = 0
        self._commands.reset()
        self._hello_count = 0
        self._last_hello: tuple[str, SourceIdentity] | None = None
        self._identity: SourceIdentity | None = None
        self._identity_alarm = False
        self._link_lost = False
        self._last_rx = time.monotonic()
        self._link_state: LinkState = "connected"
        self._attempts = 0
        self._next_attempt_at = 0.0
        self._last_error = ""
        self._status_probe: int | None = None  # host seq of the STATUS a gap asked
        self._history.reset()
        self._lost_before = 0  # frames lost by the windows of earlier links of this session
        self._far_before = 0  # frames dropped far ahead by those windows
        self._conflicts_before = 0  # frame conflicts seen by those windows
        self.worker_errors = 0  # unexpected exceptions the worker survived (a bug if not 0)

    # -- link-level writes -----------------------------------------------------------------

    def _take_seq(self) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) % SEQ_MODULUS
        return seq

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            self._transport.write(data)

    def _send(self, type_: str, fields_: Sequence[str] = ()) -> None:
        """A link-level frame (ACK, NAK, RESEND, HELLO probe): no answer awaited."""
        if type_ == "HELLO":
            self._window.hello_sent(time.monotonic())
        with self._write_lock:
            self._transport.write(encode_frame(self._take_seq(), type_, fields_))

    # -- events ----------------------------------------------------------------------------

    def _emit(self, event: DeviceEvent) -> None:
        self._events.put(event)

    def _drain_events(self) -> None:
        while True:
            try:
                self._events.get_nowait()
            except queue.Empty:
                return
