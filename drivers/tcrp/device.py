"""The host side of TCRP/1: a :class:`~dealer_assist.source.CardSource` over any transport.

One worker thread reads the transport with a short timeout, parses frames, acknowledges them,
restores device order (:mod:`drivers.tcrp.sequence`) and turns them into
:mod:`dealer_assist.events`, which the caller takes with :meth:`TcrpDevice.next_event`.
Commands (HELLO, SHUFFLE, DEAL, STATUS) are sent from the caller's thread and wait for ACK/NAK,
retried 3 times 300 ms apart (DEVICE_PROTOCOL.md, "Reliability"). Identity pinning and the
mid-session identity alarm follow "Security".
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
from dealer_assist.source import LinkStats, SourceIdentity
from drivers.tcrp.frame import SEQ_MODULUS, Frame, FrameParser, encode_frame
from drivers.tcrp.sequence import ReceiveWindow, Verdict
from drivers.transport.base import Transport

log = logging.getLogger(__name__)

PROTOCOL_ID = "TCRP1"
UNREADABLE = "XX"


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
        reopen_interval: seconds between attempts to reopen a failed transport.
        join_timeout: how long close() waits for the worker thread.
    """

    hello_timeout: float = 3.0
    command_interval: float = 0.3
    command_retries: int = 3
    heartbeat_timeout: float = 3.0
    read_timeout: float = 0.01
    resend_interval: float = 0.3
    gap_timeout: float = 3.0
    reopen_interval: float = 1.0
    join_timeout: float = 2.0

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
    DeviceIdentityError (pin mismatch); commands raise ProtocolError (NAK, no answer),
    TransportError, DeviceIdentityError (after an identity alarm) or DeviceError (not open).
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
        self._reopen_at = 0.0

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
        return self._window.lost

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""
        return self._thread is not None

    def open(self) -> None:
        """Open the transport, start the worker, handshake and check the pinned identity.

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
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"tcrp-{self.name}", daemon=True)
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
        """Send SHUFFLE and wait for its ACK; a DeckShuffled event follows. Raises DeviceError."""
        self._command("SHUFFLE")

    def deal(self, n: int) -> None:
        """Send DEAL n (1..52) and wait for its ACK; ``n`` CardRead events follow.

        Raises:
            DeviceError: n out of range, or not open; ProtocolError on NAK or no answer.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 52:
            raise DeviceError(f"deal count must be 1..52, got {n!r}")
        self._command("DEAL", (str(n),))

    def request_status(self) -> None:
        """Send STATUS; the device answers with a STATE event. Raises DeviceError."""
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
            raise ProtocolError(f"{self.name}: device refused {type_}: {pending.reason or '-'}")
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

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if not self._transport.is_open:
                    self._try_reopen()
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
                log.exception("%s: error in the TCRP/1 worker", self.name)
                self._stop.wait(self._t.read_timeout)

    def _on_transport_error(self, e: TransportError) -> None:
        log.warning("%s: %s", self.name, e)
        self._mark_lost(f"transport: {e}")
        with self._write_lock:
            self._transport.close()
        self._parser.reset()
        self._reopen_at = time.monotonic() + self._t.reopen_interval

    def _try_reopen(self) -> None:
        delay = self._reopen_at - time.monotonic()
        if delay > 0:
            self._stop.wait(min(delay, 0.1))
            return
        self._reopen_at = time.monotonic() + self._t.reopen_interval
        try:
            with self._write_lock:
                self._transport.open()
            self._send("HELLO")  # the device answers with HELLO: identity is checked again
        except DealerAssistError as e:
            log.info("%s: reopen failed: %s", self.name, e)

    def _mark_lost(self, reason: str) -> None:
        if not self._link_lost:
            self._link_lost = True
            self._emit(LinkLost(source=self.name, reason=reason))

    def _on_timers(self, now: float) -> None:
        self._apply(self._window.poll(now))
        if now - self._last_rx > self._t.heartbeat_timeout:
            self._mark_lost(f"nothing received for {self._t.heartbeat_timeout:g} s")

    def _on_frame(self, frame: Frame, now: float) -> None:
        self._last_rx = now
        if self._link_lost:
            self._link_lost = False
            self._emit(LinkRestored(source=self.name))
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
        t, f, src = frame.type, frame.fields, self.name
        if t == "HELLO":
            self._on_hello(f, restarted)
        elif t == "STATE":
            self._emit(DeviceStateChanged(source=src, state=_field(f, 0)))
        elif t == "SHUFFLED":
            self._emit(DeckShuffled(source=src, deck_id=_field(f, 0), count=_int(f, 1, 0)))
        elif t == "CARD":
            deck_id, index, text = _field(f, 0), _int(f, 1, 1), _field(f, 2)
            self._emit(CardRead(source=src, deck_id=deck_id, index=index, card=_card(text)))
        elif t == "FAULT":
            detail = f[1] if len(f) > 1 else ""
            self._emit(DeviceFault(source=src, code=_field(f, 0), detail=detail))
        elif t == "CLEAR":
            self._emit(FaultCleared(source=src, code=_field(f, 0)))
        elif t not in ("BEAT", "ACK", "NAK"):
            log.info("%s: ignored unknown frame type %s", self.name, t)

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
