"""The host side of TCRP/1: a :class:`~dealer_assist.source.CardSource` over any transport.

One worker thread reads the transport with a short timeout, parses frames, acknowledges them,
restores device order (:mod:`drivers.tcrp.sequence`) and turns them into
:mod:`dealer_assist.events`, which the caller takes with :meth:`TcrpDevice.next_event`.
Commands (HELLO, SHUFFLE, DEAL, STATUS) are sent from the caller's thread and wait for ACK/NAK,
retried 3 times 300 ms apart (DEVICE_PROTOCOL.md, "Reliability"). A NAK raises
:class:`~dealer_assist.errors.CommandRefusedError` (the device is there and said no, with its
reason code); no answer at all raises a plain ProtocolError. Identity pinning and the
mid-session identity alarm follow "Security".

A closed device can be opened again (a new session: fresh counters, sequence and identity check);
each session's worker has its own stop flag, so a worker that outlived close() never runs on
into the next session.

Reconnection (issue 4): when nothing is heard for the heartbeat timeout the worker probes with
HELLO, then reopens the transport, with a delay that doubles from ``reopen_interval`` up to
``reconnect_max``; a failed transport is reopened on the same schedule. :attr:`link_status`
shows it. After a restart of the host, :meth:`TcrpDevice.recover_history` asks the device to
resend the frames it keeps from before the new session (RESEND) and returns them as events.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import (
    CardError,
    CommandRefusedError,
    ConfigError,
    DealerAssistError,
    DeviceError,
    DeviceIdentityError,
    ProtocolError,
    TransportError,
)
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    DeviceStateChanged,
    FaultCleared,
    IdentityChanged,
    LinkLost,
    LinkRestored,
)
from dealer_assist.source import LinkState, LinkStats, LinkStatus, SourceIdentity
from drivers.tcrp.frame import SEQ_MODULUS, Frame, FrameParser, encode_frame
from drivers.tcrp.sequence import ReceiveWindow, Verdict
from drivers.transport.base import Transport

log = logging.getLogger(__name__)

PROTOCOL_ID = "TCRP1"
UNREADABLE = "XX"
DEVICE_HISTORY = 256  # frames a device keeps for RESEND (DEVICE_PROTOCOL.md, Reliability)


@dataclass(frozen=True)
class TcrpTimings:
    """Timeouts and retry counts of a TCRP/1 link, in seconds (all finite).

    Attributes:
        hello_timeout: how long open() waits for the device HELLO.
        command_interval: wait for ACK/NAK before a command is sent again (spec: 0.3).
        command_retries: times a command is sent again for want of an answer (spec: 3).
        heartbeat_timeout: nothing received this long means the link is lost (spec: 3.0).
        read_timeout: the worker's read timeout; bounds event latency and close() time.
        resend_interval: seconds between RESEND requests while a gap lasts.
        gap_timeout: a gap not filled after this long is abandoned (frames counted as lost).
        reopen_interval: first delay before reconnecting a lost link; doubles per attempt.
        reconnect_max: the cap of that delay.
        join_timeout: how long close() waits for the worker thread.
        history_quiet: :meth:`TcrpDevice.recover_history` stops once no history frame came
            for this long.
    """

    hello_timeout: float = 3.0
    command_interval: float = 0.3
    command_retries: int = 3
    heartbeat_timeout: float = 3.0
    read_timeout: float = 0.01
    resend_interval: float = 0.3
    gap_timeout: float = 3.0
    reopen_interval: float = 1.0
    reconnect_max: float = 10.0
    join_timeout: float = 2.0
    history_quiet: float = 0.3

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "command_retries":
                if not isinstance(value, int) or not 0 <= value <= 20:
                    raise ConfigError(f"command_retries must be 0..20, got {value!r}")
            elif not isinstance(value, int | float) or not (0 < value < 3600):
                raise ConfigError(f"{f.name} must be finite and > 0 seconds, got {value!r}")
            elif math.isnan(value):
                raise ConfigError(f"{f.name} is NaN")


class _BadFrame(Exception):
    """A valid frame whose fields do not fit its type (counted as dropped)."""


@dataclass
class _Pending:
    seq: int
    answer: str = ""  # "ACK" or "NAK" once answered
    reason: str = ""


class TcrpDevice:
    """A TCRP/1 device behind a transport, as a :class:`~dealer_assist.source.CardSource`.

    Args:
        transport: the byte link (opened by :meth:`open`, closed by :meth:`close`).
        name: the source name put on every event.
        pin_model, pin_serial: required identity from the configuration; None = not pinned.
        timings: see :class:`TcrpTimings`.

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
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()  # pending commands, received HELLOs
        self._write_lock = threading.Lock()  # host seq counter and transport writes
        self._command_lock = threading.Lock()  # one command in flight at a time
        self._stats_lock = threading.Lock()
        self._reset_session()

    def _reset_session(self) -> None:
        self._parser = FrameParser()
        self._window = ReceiveWindow(
            resend_interval=self._t.resend_interval, gap_timeout=self._t.gap_timeout
        )
        self._stats = LinkStats()
        self._bad_frames = 0
        self._host_seq = 0
        self._pending: dict[int, _Pending] = {}
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
        self._capture: dict[int, Frame] | None = None  # history frames, see recover_history
        self._capture_start = 0
        self._history_guard_until = 0.0
        self._lost_before = 0  # frames lost by the windows of earlier links of this session
        self.worker_errors = 0  # unexpected exceptions the worker survived (a bug if not 0)

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

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        try:
            if timeout <= 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    # -- commands --------------------------------------------------------------------------

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

    def _command(
        self,
        type_: str,
        fields_: Sequence[str] = (),
        *,
        check_alarm: bool = True,
        done: Callable[[], bool] | None = None,
    ) -> None:
        if self._thread is None:
            raise DeviceError(f"{self.name} is not open")
        if check_alarm and self._identity_alarm:
            raise DeviceIdentityError(
                f"{self.name}: device identity changed mid-session; close and reopen to re-pin"
            )
        with self._command_lock:
            with self._write_lock:
                seq = self._take_seq()
            frame = encode_frame(seq, type_, fields_)
            pending = _Pending(seq)
            with self._cond:
                self._pending[seq] = pending
            try:
                for attempt in range(1 + self._t.command_retries):
                    if attempt:
                        with self._stats_lock:
                            self._stats.command_retries += 1
                    self._write(frame)
                    with self._cond:
                        answered = self._cond.wait_for(
                            lambda: (
                                bool(pending.answer)
                                or (done is not None and done())
                                or self._stop.is_set()
                            ),
                            self._t.command_interval,
                        )
                    if self._stop.is_set():
                        raise DeviceError(f"{self.name} was closed during {type_}")
                    if answered:
                        break
            finally:
                with self._cond:
                    self._pending.pop(seq, None)
        if pending.answer == "NAK":
            raise CommandRefusedError(type_, pending.reason, source=self.name)
        if not answered:
            raise ProtocolError(
                f"{self.name}: no answer to {type_} after {1 + self._t.command_retries} attempts"
            )

    def _take_seq(self) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) % SEQ_MODULUS
        return seq

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            self._transport.write(data)

    def _send(self, type_: str, fields_: Sequence[str] = ()) -> None:
        """A link-level frame (ACK, RESEND, HELLO after reopen): no answer awaited."""
        with self._write_lock:
            self._transport.write(encode_frame(self._take_seq(), type_, fields_))

    # -- worker ----------------------------------------------------------------------------

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if not self._transport.is_open:
                    stop.wait(min(0.05, max(0.0, self._next_attempt_at - time.monotonic())))
                    self._on_timers(time.monotonic())
                    continue
                data = self._transport.read(4096, self._t.read_timeout)
                now = time.monotonic()
                if data:
                    for frame in self._parser.feed(data):
                        self._on_frame(frame, now)
                    with self._stats_lock:
                        self._stats.frames_dropped = self._parser.dropped + self._bad_frames
                self._on_timers(now)
            except TransportError as e:
                self._on_transport_error(e)
            except Exception:  # keep the link alive; a bug here must not silence the table
                self.worker_errors += 1
                log.exception("%s: error in the TCRP/1 worker", self.name)
                stop.wait(self._t.read_timeout)

    def _on_transport_error(self, e: TransportError) -> None:
        log.warning("%s: %s", self.name, e)
        self._last_error = str(e)
        self._mark_lost(f"transport: {e}")
        with self._write_lock:
            self._transport.close()
        self._parser.reset()
        if self._link_state == "connected":
            self._attempts = 0
        self._link_state = "reconnecting"
        self._schedule_attempt(time.monotonic())

    def _backoff(self) -> float:
        """Seconds before the next attempt: reopen_interval doubled per attempt made, capped."""
        doublings = min(max(self._attempts - 1, 0), 30)  # 2**30 s is past any cap
        return float(min(self._t.reopen_interval * 2**doublings, self._t.reconnect_max))

    def _schedule_attempt(self, now: float) -> None:
        self._next_attempt_at = now + self._backoff()

    def _attempt_reconnect(self, now: float) -> None:
        """One attempt. A silent link that is still open gets a HELLO probe, and keeps its
        receive window: frames missed meanwhile come back by RESEND. A failed transport is
        reopened, and the new link's first frame starts the device sequence (DEVICE_PROTOCOL.md:
        the device may have restarted meanwhile and its HELLO with seq 0 gone unheard)."""
        self._attempts += 1
        try:
            if not self._transport.is_open:
                with self._write_lock:
                    self._transport.open()
                self._parser.reset()
                self._new_window()
            self._send("HELLO")  # the device answers with HELLO: identity is checked again
        except DealerAssistError as e:
            self._last_error = str(e)
            log.info("%s: reconnection attempt %d failed: %s", self.name, self._attempts, e)
            with self._write_lock:
                self._transport.close()
            self._link_state = "reconnecting"
        self._schedule_attempt(now)

    def _new_window(self) -> None:
        self._lost_before += self._window.lost
        self._window = ReceiveWindow(
            resend_interval=self._t.resend_interval, gap_timeout=self._t.gap_timeout
        )

    def _mark_lost(self, reason: str) -> None:
        if not self._link_lost:
            self._link_lost = True
            self._emit(LinkLost(source=self.name, reason=reason))

    def _on_timers(self, now: float) -> None:
        self._apply(self._window.poll(now))
        if self._link_state == "connected" and now - self._last_rx > self._t.heartbeat_timeout:
            self._mark_lost(f"nothing received for {self._t.heartbeat_timeout:g} s")
            self._link_state, self._attempts = "lost", 0
            self._next_attempt_at = now  # probe at once
        if self._link_state != "connected" and now >= self._next_attempt_at:
            self._attempt_reconnect(now)

    def _on_frame(self, frame: Frame, now: float) -> None:
        self._last_rx = now
        if self._link_state != "connected":
            self._link_state, self._attempts, self._last_error = "connected", 0, ""
        if self._link_lost:
            self._link_lost = False
            self._emit(LinkRestored(source=self.name))
        if self._history_frame(frame, now):
            return
        if frame.type in ("ACK", "NAK"):
            self._resolve(frame)  # at once, even out of order: it only ends a wait
        verdict = self._window.accept(frame, now)
        if verdict.ack:
            self._send("ACK", (str(frame.seq),))
        if verdict.duplicate or verdict.earlier_duplicate:
            with self._stats_lock:
                self._stats.duplicates += verdict.duplicate + verdict.earlier_duplicate
        self._apply(verdict)

    def _apply(self, verdict: Verdict) -> None:
        if verdict.resend_from is not None:
            self._send("RESEND", (str(verdict.resend_from),))
            with self._stats_lock:
                self._stats.resend_requests += 1
        for frame in verdict.deliver:
            with self._stats_lock:
                self._stats.frames_received += 1
            try:
                restarted = verdict.restarted and frame.type == "HELLO" and frame.seq == 0
                self._process(frame, restarted=restarted)
            except _BadFrame as e:
                self._bad_frames += 1
                log.warning("%s: dropped %s frame seq %d: %s", self.name, frame.type, frame.seq, e)

    def _resolve(self, frame: Frame) -> None:
        if not frame.fields or not frame.fields[0].isdigit():
            return
        with self._cond:
            pending = self._pending.get(int(frame.fields[0]))
            if pending is not None and not pending.answer:
                pending.answer = frame.type
                pending.reason = frame.fields[1] if len(frame.fields) > 1 else ""
                self._cond.notify_all()

    def _process(self, frame: Frame, *, restarted: bool) -> None:
        """Turn one in-order device frame into events (BEAT/ACK/NAK only mark liveness)."""
        if frame.type == "HELLO":
            self._on_hello(frame.fields, restarted)
            return
        event = frame_event(frame, self.name)
        if event is not None:
            self._emit(event)
        elif frame.type not in ("BEAT", "ACK", "NAK"):
            log.info("%s: ignored unknown frame type %s", self.name, frame.type)

    # -- history after a host restart -------------------------------------------------------

    def recover_history(self, timeout: float = 2.0) -> list[DeviceEvent]:
        """Events of the frames the device sent before this session's first frame, oldest
        first: what a table that restarted missed while it was down.

        Sends RESEND from 256 frames before the session's first frame (the device resends all
        it still keeps), collects those frames until none came for ``history_quiet`` seconds,
        asks again from the oldest hole, or again when nothing came (at most 3 rounds,
        ``timeout`` seconds in all), and
        converts them without emitting them. Until 2 s after it returns, more frames of that
        range are taken as late history and dropped, so none reaches the game twice, none
        restarts the sequence (a resent HELLO seq 0) and no stale ACK ends a new command.
        Returns [] before the first frame; never raises for a silent device.
        """
        start = self._window.first_seq
        if self._thread is None or start is None:
            return []
        captured: dict[int, Frame] = {}
        with self._cond:
            self._capture_start, self._capture = start, captured
        deadline = time.monotonic() + max(0.0, timeout)
        ask = (start - DEVICE_HISTORY) % SEQ_MODULUS
        try:
            for _ in range(3):
                self._send("RESEND", (str(ask),))
                with self._stats_lock:
                    self._stats.resend_requests += 1
                self._wait_quiet(captured, deadline)
                with self._cond:
                    empty, hole = not captured, _oldest_hole(captured, start)
                if time.monotonic() >= deadline:
                    break
                if empty:
                    continue  # the request or its whole answer was lost on the line: again
                if hole is None:
                    break
                ask = hole
        except TransportError as e:
            log.warning("%s: history request failed: %s", self.name, e)
        finally:
            with self._cond:
                self._capture = None
                self._history_guard_until = time.monotonic() + 2.0
                frames = sorted(captured.values(), key=lambda fr: -((start - fr.seq) % SEQ_MODULUS))
        events: list[DeviceEvent] = []
        for fr in frames:
            try:
                event = frame_event(fr, self.name)
            except _BadFrame:
                continue
            if event is not None:
                events.append(event)
        return events

    def _wait_quiet(self, captured: dict[int, Frame], deadline: float) -> None:
        count, changed = -1, time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= deadline:
                return
            if len(captured) != count:
                count, changed = len(captured), now
            elif now - changed >= self._t.history_quiet:
                return
            self._stop.wait(0.02)

    def _history_frame(self, frame: Frame, now: float) -> bool:
        """True for a resent history frame (kept while capturing, else dropped)."""
        with self._cond:
            if self._capture is None and now >= self._history_guard_until:
                return False
            behind = (self._capture_start - frame.seq) % SEQ_MODULUS
            if not 0 < behind <= DEVICE_HISTORY:
                return False
            if self._capture is not None:
                self._capture.setdefault(frame.seq, frame)
        with self._stats_lock:
            self._stats.duplicates += 1
        return True

    def _on_hello(self, f: tuple[str, ...], restarted: bool) -> None:
        if len(f) < 4:
            raise _BadFrame(f"HELLO needs protocol, model, firmware, serial: {f}")
        protocol, ident = f[0], SourceIdentity(model=f[1], firmware=f[2], serial=f[3])
        with self._cond:
            self._last_hello = (protocol, ident)
            self._hello_count += 1
            self._cond.notify_all()
        session = self._identity
        if session is not None and (ident.model, ident.serial) != (session.model, session.serial):
            self._identity_alarm = True
            log.error("%s: device identity changed to %s/%s", self.name, ident.model, ident.serial)
            self._emit(
                IdentityChanged(
                    source=self.name,
                    expected=f"{session.model}/{session.serial}",
                    got=f"{ident.model}/{ident.serial}",
                )
            )
            return
        if session is not None:
            self._identity = ident  # same device; the firmware may have been updated
        self._emit(
            DeviceHello(
                source=self.name,
                model=ident.model,
                firmware=ident.firmware,
                serial=ident.serial,
                restarted=restarted,
            )
        )

    def _emit(self, event: DeviceEvent) -> None:
        self._events.put(event)

    def _drain_events(self) -> None:
        while True:
            try:
                self._events.get_nowait()
            except queue.Empty:
                return


def frame_event(frame: Frame, source: str) -> DeviceEvent | None:
    """The event of one device frame (a HELLO gives :class:`DeviceHello`, ``restarted`` when
    its seq is 0); None for BEAT, ACK, NAK and unknown types.

    Raises:
        _BadFrame: the fields do not fit the type (the caller counts the frame as dropped).
    """
    t, f = frame.type, frame.fields
    if t == "HELLO":
        if len(f) < 4:
            raise _BadFrame(f"HELLO needs protocol, model, firmware, serial: {f}")
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


def _oldest_hole(captured: dict[int, Frame], start: int) -> int | None:
    """The oldest seq missing between the oldest captured frame and ``start``, or None."""
    if not captured:
        return None
    behind = {(start - s) % SEQ_MODULUS for s in captured}
    missing = [d for d in range(1, max(behind)) if d not in behind]
    return (start - max(missing)) % SEQ_MODULUS if missing else None


def _field(f: tuple[str, ...], i: int) -> str:
    if len(f) <= i or not f[i]:
        raise _BadFrame(f"field {i + 1} missing")
    return f[i]


def _int(f: tuple[str, ...], i: int, minimum: int) -> int:
    text = _field(f, i)
    if not text.isdigit() or int(text) < minimum:
        raise _BadFrame(f"field {i + 1} is not an integer >= {minimum}: {text!r}")
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
