"""The worker thread of a TCRP/1 device: the receive loop, and reconnection.

One worker reads the transport with a short timeout, parses frames, acknowledges them, restores
device order (:mod:`drivers.tcrp.sequence`) and turns them into :mod:`dealer_assist.events`
(:mod:`drivers.tcrp.frame_events`), queued for :meth:`~drivers.tcrp.device.TcrpDevice.next_event`.
ACK and NAK end a command's wait (:mod:`~drivers.tcrp.commands`); resent history frames go to
the history recovery (:mod:`~drivers.tcrp.history`). A HELLO with another model or serial than
the session's raises the identity alarm (DEVICE_PROTOCOL.md, "Security").

Two frames with one seq and different contents (:class:`~dealer_assist.events.FrameConflict`:
a second device on the line, or forged frames) are neither taken; the event names both, and the
table voids the hand. A gap RESEND does not fill is put to the device with STATUS: the seq of
its ACK says where the device's own sequence is (:meth:`ReceiveWindow.status_answer`).

A frame whose fields do not fit its type (a CRC-valid CARD without an index, with an index that
is not a number, a card text that is not a card) is NAKed, not acknowledged: the device sends it
again, and the receive window never takes it. A frame more than 256 ahead is dropped
and counted (``far_ahead_frames``); when such frames go on the worker sends HELLO.

Reconnection: when nothing is heard for the heartbeat timeout the worker probes with
HELLO, then reopens the transport, with a delay that doubles from ``reopen_interval`` up to
``reconnect_max``; a failed transport is reopened on the same schedule.
"""

from __future__ import annotations

import logging
import threading
import time

from dealer_assist.errors import DealerAssistError, TransportError
from dealer_assist.events import (
    DeviceHello,
    FrameConflict,
    IdentityChanged,
    LinkLost,
    LinkRestored,
)
from dealer_assist.source import SourceIdentity
from drivers.tcrp.frame import Frame, encode_frame
from drivers.tcrp.frame_events import BadFrame, frame_event
from drivers.tcrp.sequence import ReceiveWindow, Verdict
from drivers.tcrp.state import DeviceState

log = logging.getLogger(__name__)


class ReceiveLoop(DeviceState):
    """The worker: frames in, ACKs and RESENDs out, events queued; the link's reconnection."""

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
                        self._stats.frames_dropped = (
                            self._parser.dropped + self._bad_frames + self.far_ahead_frames
                        )
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

    @property
    def far_ahead_frames(self) -> int:
        """Frames dropped this session for being more than 256 ahead of the expected seq."""
        return self._far_before + self._window.far_ahead

    @property
    def frame_conflicts(self) -> int:
        """Seqs this session that came with two different contents (a second device on the
        line, forged frames); each was reported as a FrameConflict event."""
        return self._conflicts_before + self._window.conflicts

    def _new_window(self) -> None:
        self._lost_before += self._window.lost
        self._far_before += self._window.far_ahead
        self._conflicts_before += self._window.conflicts
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
        if self._history.is_history(frame, now):  # a resent frame from before the session
            with self._stats_lock:
                self._stats.duplicates += 1
            return
        if frame.type in ("ACK", "NAK"):
            self._commands.resolve(frame)  # at once, even out of order: it only ends a wait
            if self._status_probe is not None and frame.fields[:1] == (str(self._status_probe),):
                self._status_probe = None
                self._window.status_answer(frame.seq)
        verdict = self._window.accept(frame, now, malformed=_malformed(frame, self.name))
        if verdict.ack:
            self._send("ACK", (str(frame.seq),))
        elif verdict.nak:
            self._bad_frames += 1
            log.warning(
                "%s: NAK %s frame seq %d: %s", self.name, frame.type, frame.seq, verdict.nak
            )
            self._send("NAK", (str(frame.seq), "BAD_FIELDS"))
        elif verdict.far_ahead:
            log.warning("%s: dropped %s frame seq %d: more than 256 ahead of %s",
                        self.name, frame.type, frame.seq, self._window.expected)  # fmt: skip
        if verdict.ask_hello:
            log.warning("%s: frames keep coming from far ahead: HELLO", self.name)
            self._send("HELLO")
        if verdict.duplicate or verdict.earlier_duplicate:
            with self._stats_lock:
                self._stats.duplicates += verdict.duplicate + verdict.earlier_duplicate
        self._apply(verdict)

    def _apply(self, verdict: Verdict) -> None:
        if verdict.conflict is not None:
            first, second = (_text(f) for f in verdict.conflict)
            log.error("%s: device frame %d came twice with different contents (%s, then %s):"
                      " a second device on the line, or forged frames",
                      self.name, verdict.conflict[0].seq, first, second)  # fmt: skip
            self._emit(FrameConflict(source=self.name, seq=verdict.conflict[0].seq,
                                     first=first, second=second))  # fmt: skip
        if verdict.ask_status:
            with self._write_lock:
                seq = self._take_seq()
                self._status_probe = seq
                self._transport.write(encode_frame(seq, "STATUS", ()))
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
            except BadFrame as e:
                self._bad_frames += 1
                log.warning("%s: dropped %s frame seq %d: %s", self.name, frame.type, frame.seq, e)

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

    def _on_hello(self, f: tuple[str, ...], restarted: bool) -> None:
        if len(f) < 4:
            raise BadFrame(f"HELLO needs protocol, model, firmware, serial: {f}")
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


def _text(frame: Frame) -> str:
    """A frame as ``TYPE,field,...`` for the log and the journal."""
    return ",".join((frame.type, *frame.fields))


def _malformed(frame: Frame, source: str) -> str:
    """Why the frame's fields do not fit its type, "" when they do (or it has none to check)."""
    try:
        frame_event(frame, source)
    except BadFrame as e:
        return str(e)
    return ""
