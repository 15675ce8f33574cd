"""The host side of TCRP/1: a :class:`~dealer_assist.source.CardSource` over any transport.

:class:`TcrpDevice` is the session: open() starts the worker, handshakes (HELLO) and checks the
pinned identity (DEVICE_PROTOCOL.md, "Security"); close() ends it. A closed device can be opened
again (a new session: fresh counters, sequence and identity check); each session's worker has its
own stop flag and its own collaborators, so a worker that outlived close() never runs on into
the next session. Events are taken with :meth:`TcrpDevice.next_event`;
:attr:`TcrpDevice.link_status` shows the link.

The device holds its collaborators, each owning its state, one module each:

- :mod:`~drivers.tcrp.link`: :class:`~drivers.tcrp.link.Link`, the session's writes (host seq),
  receive window, counters and event queue, made at each open and handed to the others;
- :mod:`~drivers.tcrp.receive`: :class:`~drivers.tcrp.receive.ReceiveLoop`, the worker thread's
  receive loop (frames in order, ACKs, events) and reconnection with backoff;
- :mod:`~drivers.tcrp.identity`: :class:`~drivers.tcrp.identity.IdentityWatch`, the session's
  HELLOs, the identity accepted at the handshake and the alarm when another device answers;
- :mod:`~drivers.tcrp.commands`: :class:`~drivers.tcrp.commands.CommandChannel`, commands
  (HELLO, SHUFFLE, DEAL, STATUS) sent from the caller's thread, waiting for ACK/NAK, retried
  3 times 300 ms apart (DEVICE_PROTOCOL.md, "Reliability");
- :mod:`~drivers.tcrp.history`: :class:`~drivers.tcrp.history.HistoryRecovery`: after a
  restart of the host, :meth:`TcrpDevice.recover_history` asks the device through it to resend
  the frames it keeps from before the new session (RESEND);
- :mod:`~drivers.tcrp.frame_events`: a frame as its event; :mod:`~drivers.tcrp.timings`:
  :class:`~drivers.tcrp.timings.TcrpTimings`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from dealer_assist.errors import DeviceError, DeviceIdentityError, ProtocolError
from dealer_assist.events import DeviceEvent
from dealer_assist.source import LinkStats, LinkStatus, SourceIdentity
from drivers.tcrp.commands import CommandChannel
from drivers.tcrp.history import HistoryRecovery
from drivers.tcrp.identity import IdentityWatch
from drivers.tcrp.link import Link
from drivers.tcrp.receive import ReceiveLoop
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.base import Transport

log = logging.getLogger(__name__)

PROTOCOL_ID = "TCRP1"


class TcrpDevice:
    """A TCRP/1 device behind a transport, as a :class:`~dealer_assist.source.CardSource`.

    Args:
        transport: the byte link (opened by :meth:`open`, closed by :meth:`close`).
        name: the source name put on every event.
        pin_model, pin_serial: required identity from the configuration; None = not pinned.
        timings: see :class:`~drivers.tcrp.timings.TcrpTimings`.

    Nothing is opened by the constructor.

    Errors: ``open`` raises TransportError, ProtocolError (no/bad handshake) or
    DeviceIdentityError (pin mismatch); commands raise CommandRefusedError (NAK, with the
    device's reason), ProtocolError (no answer after the retries), TransportError,
    DeviceIdentityError (after an identity alarm) or DeviceError (not open).
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
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()  # pending commands, received HELLOs, history
        self._write_lock = threading.Lock()  # transport writes, across sessions' workers
        self._commands = CommandChannel(name, self._cond, self._t)
        self._history = HistoryRecovery(name, self._cond, self._t.history_quiet)
        self._new_session()

    def _new_session(self) -> None:
        """Fresh collaborators for a session: link, identity watch, receive loop; the command
        channel and the history recovery start over."""
        self._link = Link(self._transport, self._t, self._write_lock)
        self._identity = IdentityWatch(self.name, self._cond)
        self._commands.reset()
        self._history.reset()
        self._loop = ReceiveLoop(
            self.name,
            link=self._link,
            identity=self._identity,
            commands=self._commands,
            history=self._history,
            timings=self._t,
        )

    # -- CardSource ------------------------------------------------------------------------

    @property
    def identity(self) -> SourceIdentity | None:
        """The identity accepted at the handshake (firmware updated by later HELLOs)."""
        return self._identity.identity

    @property
    def identity_alarm(self) -> bool:
        """True once a HELLO with another model/serial arrived; commands then refuse."""
        return self._identity.alarm

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link counters."""
        return self._link.stats

    @property
    def lost_frames(self) -> int:
        """Device frames given up after a gap that RESEND did not fill (normally 0)."""
        return self._link.lost_frames

    @property
    def far_ahead_frames(self) -> int:
        """Frames dropped this session for being more than 256 ahead of the expected seq."""
        return self._link.far_ahead_frames

    @property
    def frame_conflicts(self) -> int:
        """Seqs this session that came with two different contents (a second device on the
        line, forged frames); each was reported as a FrameConflict event."""
        return self._link.frame_conflicts

    @property
    def worker_errors(self) -> int:
        """Unexpected exceptions this session's worker survived (a bug if not 0)."""
        return self._loop.worker_errors

    @property
    def link_status(self) -> LinkStatus:
        """The link now: connected, lost (probing), reconnecting (transport reopening) or
        closed, with the attempts so far and the seconds to the next one."""
        if self._thread is None:
            return LinkStatus("closed", last_error=self._loop.last_error)
        return self._loop.status

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
        self._new_session()
        self._stop = threading.Event()  # this session's: an old worker keeps its own, set one
        self._thread = threading.Thread(
            target=self._loop.run, args=(self._stop,), name=f"tcrp-{self.name}", daemon=True
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
        start = self._link.window.first_seq
        if self._thread is None or start is None:
            return []
        return self._history.recover(
            start, send_resend=self._link.send_resend, stop=self._stop, timeout=timeout
        )

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        return self._link.next_event(timeout)

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
        if check_alarm and self._identity.alarm:
            raise DeviceIdentityError(
                f"{self.name}: device identity changed mid-session; close and reopen to re-pin"
            )
        self._commands.send(
            type_,
            fields_,
            take_seq=self._link.take_seq,
            transmit=self._transmit_hello if type_ == "HELLO" else self._transmit,
            stop=self._stop,
            done=done,
        )

    def _transmit(self, frame: bytes, attempt: int) -> None:
        if attempt:
            self._link.count(command_retries=1)
        self._link.write(frame)

    def _transmit_hello(self, frame: bytes, attempt: int) -> None:
        if attempt:
            self._link.count(command_retries=1)
        # its answer may re-base a moved-on sequence
        self._link.window.hello_sent(time.monotonic())
        self._link.write(frame)

    def _handshake(self) -> None:
        watch = self._identity
        with self._cond:
            seen = watch.count
        self._command("HELLO", check_alarm=False, done=lambda: watch.count > seen)
        hello = watch.wait_after(seen, self._t.hello_timeout)
        if hello is None:
            raise ProtocolError(
                f"{self.name}: no HELLO from the device within {self._t.hello_timeout} s"
            )
        protocol, ident = hello
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
        watch.identity = ident
