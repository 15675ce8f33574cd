"""The host side of TCRP/1: a :class:`~dealer_assist.source.CardSource` over any transport.

:class:`TcrpDevice` is the session: open() starts the worker, handshakes (HELLO) and checks the
pinned identity (DEVICE_PROTOCOL.md, "Security"); close() ends it. A closed device can be opened
again (a new session: fresh counters, sequence and identity check); each session's worker has its
own stop flag, so a worker that outlived close() never runs on into the next session. Events are
taken with :meth:`TcrpDevice.next_event`; :attr:`TcrpDevice.link_status` shows the link.

Its parts, one module each:

- :mod:`~drivers.tcrp.receive`: the worker thread's receive loop (frames in order, ACKs,
  events) and reconnection with backoff;
- :mod:`~drivers.tcrp.commands`: commands (HELLO, SHUFFLE, DEAL, STATUS) sent from the caller's
  thread, waiting for ACK/NAK, retried 3 times 300 ms apart (DEVICE_PROTOCOL.md, "Reliability");
- :mod:`~drivers.tcrp.history`: :class:`~drivers.tcrp.history.HistoryRecovery`, a collaborator
  owning its capture: after a restart of the host, :meth:`TcrpDevice.recover_history` asks the
  device through it to resend the frames it keeps from before the new session (RESEND);
- :mod:`~drivers.tcrp.state`: the state they share; :mod:`~drivers.tcrp.frame_events`: a frame
  as its event; :mod:`~drivers.tcrp.timings`: :class:`~drivers.tcrp.timings.TcrpTimings`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from dealer_assist.errors import DeviceError, DeviceIdentityError, ProtocolError
from dealer_assist.events import DeviceEvent
from dealer_assist.source import LinkStats, LinkStatus, SourceIdentity
from drivers.tcrp.receive import ReceiveLoop

log = logging.getLogger(__name__)

PROTOCOL_ID = "TCRP1"


class TcrpDevice(ReceiveLoop):
    """A TCRP/1 device behind a transport, as a :class:`~dealer_assist.source.CardSource`.

    Args (stored by the constructor of :class:`~drivers.tcrp.state.DeviceState`):
        transport: the byte link (opened by :meth:`open`, closed by :meth:`close`).
        name: the source name put on every event.
        pin_model, pin_serial: required identity from the configuration; None = not pinned.
        timings: see :class:`~drivers.tcrp.timings.TcrpTimings`.

    Errors: ``open`` raises TransportError, ProtocolError (no/bad handshake) or
    DeviceIdentityError (pin mismatch); commands raise CommandRefusedError (NAK, with the
    device's reason), ProtocolError (no answer after the retries), TransportError,
    DeviceIdentityError (after an identity alarm) or DeviceError (not open).
    """

    # -- CardSource ------------------------------------------------------------------------

    @property
    def identity(self) -> SourceIdentity | None:
        """The identity accepted at the handshake (firmware updated by later HELLOs)."""
        return self._identity

    @property
    def identity_alarm(self) -> bool:
        """True once a HELLO with another model/serial arrived; commands then refuse."""
        return self._identity_alarm

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link counters."""
        with self._stats_lock:
            return replace(self._stats)

    @property
    def lost_frames(self) -> int:
        """Device frames given up after a gap that RESEND did not fill (normally 0)."""
        return self._lost_before + self._window.lost

    @property
    def link_status(self) -> LinkStatus:
        """The link now: connected, lost (probing), reconnecting (transport reopening) or
        closed, with the attempts so far and the seconds to the next one."""
        if self._thread is None:
            return LinkStatus("closed", last_error=self._last_error)
        if self._link_state == "connected":
            return LinkStatus("connected")
        wait = max(0.0, self._next_attempt_at - time.monotonic())
        return LinkStatus(self._link_state, self._attempts, wait, self._last_error)

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""
        return self._thread is not None

    def open(self) -> None:
        """Open the transport, start the worker, handshake and check the pinned identity. No-op
        when open; after close() it starts a new session.

        Raises:
            TransportError: the transport cannot be opened.
            ProtocolError: no HELLO within ``hello_timeout``, or not a TCRP1 device.
            DeviceIdentityError: model or serial differ from the pinned ones.
        """
        if self._thread is not None:
            return
        self._transport.open()
        self._reset_session()
        self._drain_events()
        self._stop = threading.Event()  # this session's: an old worker keeps its own, set one
        self._thread = threading.Thread(
            target=self._run, args=(self._stop,), name=f"tcrp-{self.name}", daemon=True
        )
        self._thread.start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop the worker and close the transport; safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            with self._cond:
                self._cond.notify_all()  # a command waiting for its ACK gives up now
            thread.join(self._t.join_timeout)
            if thread.is_alive():
                log.warning("%s: worker alive after %.1f s", self.name, self._t.join_timeout)
        with self._write_lock:
            self._transport.close()

    def shuffle(self) -> None:
        """Send SHUFFLE and wait for its ACK; a DeckShuffled event follows.

        Raises:
            CommandRefusedError: NAK (e.g. ``BUSY``, ``FAULT``); ProtocolError: no answer;
            TransportError, DeviceIdentityError, DeviceError: see the class.
        """
        self._command("SHUFFLE")

    def deal(self, n: int) -> None:
        """Send DEAL n (1..52) and wait for its ACK; ``n`` CardRead events follow.

        Raises:
            DeviceError: n out of range, or not open; CommandRefusedError on NAK (e.g.
            ``NO_DECK``, ``NOT_ENOUGH``); ProtocolError when no answer came.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 52:
            raise DeviceError(f"deal count must be 1..52, got {n!r}")
        self._command("DEAL", (str(n),))

    def request_status(self) -> None:
        """Send STATUS; the device answers with a STATE event. Raises DeviceError
        (CommandRefusedError on NAK, ProtocolError when no answer came)."""
        self._command("STATUS")

    def recover_history(self, timeout: float = 2.0) -> list[DeviceEvent]:
        """Events of the frames the device sent before this session's first frame, oldest
        first: what a table that restarted missed while it was down (RESEND from 256 frames
        before it, at most 3 rounds in ``timeout`` seconds; see
        :meth:`~drivers.tcrp.history.HistoryRecovery.recover`). Until 2 s after it returns,
        more frames of that range are dropped, so none reaches the game twice, none restarts
        the sequence (a resent HELLO seq 0) and no stale ACK ends a new command. Returns []
        when not open or before the first frame; never raises for a silent device."""
        start = self._window.first_seq
        if self._thread is None or start is None:
            return []
        return self._history.recover(
            start, send_resend=self._send_resend, stop=self._stop, timeout=timeout
        )

    def _send_resend(self, seq: int) -> None:
        """RESEND from ``seq``, counted. Raises TransportError."""
        self._send("RESEND", (str(seq),))
        with self._stats_lock:
            self._stats.resend_requests += 1

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        try:
            if timeout <= 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    # -- commands and handshake ------------------------------------------------------------

    def _command(
        self,
        type_: str,
        fields_: Sequence[str] = (),
        *,
        check_alarm: bool = True,
        done: Callable[[], bool] | None = None,
    ) -> None:
        """Send a command through the command channel and wait for its answer. Raises as the
        class says; after an identity alarm DeviceIdentityError (unless ``check_alarm`` is
        off, for the handshake)."""
        if self._thread is None:
            raise DeviceError(f"{self.name} is not open")
        if check_alarm and self._identity_alarm:
            raise DeviceIdentityError(
                f"{self.name}: device identity changed mid-session; close and reopen to re-pin"
            )
        self._commands.send(
            type_,
            fields_,
            take_seq=self._take_seq_locked,
            transmit=self._transmit_hello if type_ == "HELLO" else self._transmit,
            stop=self._stop,
            done=done,
        )

    def _take_seq_locked(self) -> int:
        with self._write_lock:
            return self._take_seq()

    def _transmit(self, frame: bytes, attempt: int) -> None:
        if attempt:
            with self._stats_lock:
                self._stats.command_retries += 1
        self._write(frame)

    def _transmit_hello(self, frame: bytes, attempt: int) -> None:
        if attempt:
            with self._stats_lock:
                self._stats.command_retries += 1
        self._window.hello_sent(time.monotonic())  # its answer may re-base a moved-on sequence
        self._write(frame)

    def _handshake(self) -> None:
        with self._cond:
            seen = self._hello_count
        self._command("HELLO", check_alarm=False, done=lambda: self._hello_count > seen)
        with self._cond:
            got = self._cond.wait_for(lambda: self._hello_count > seen, self._t.hello_timeout)
            if not got or self._last_hello is None:
                raise ProtocolError(
                    f"{self.name}: no HELLO from the device within {self._t.hello_timeout} s"
                )
            protocol, ident = self._last_hello
        if protocol != PROTOCOL_ID:
            raise ProtocolError(f"{self.name}: device speaks {protocol!r}, not {PROTOCOL_ID}")
        wrong = [
            f"{what} {got!r} (pinned {pin!r})"
            for what, pin, got in (
                ("model", self._pin_model, ident.model),
                ("serial", self._pin_serial, ident.serial),
            )
            if pin is not None and pin != got
        ]
        if wrong:
            raise DeviceIdentityError(f"{self.name}: wrong device: " + ", ".join(wrong))
        self._identity = ident
