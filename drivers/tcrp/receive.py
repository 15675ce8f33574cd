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

from dealer_assist.errors import DealerAssistError, TransportError, WriteTimeoutError
from dealer_assist.events import FrameConflict, LinkLost, LinkRestored
from dealer_assist.source import LinkState, LinkStatus, SourceIdentity
from drivers.tcrp.commands import CommandChannel
from drivers.tcrp.frame import Frame, FrameParser
from drivers.tcrp.frame_events import BadFrame, frame_event
from drivers.tcrp.history import HistoryRecovery
from drivers.tcrp.identity import IdentityWatch
from drivers.tcrp.link import Link
from drivers.tcrp.sequence import Verdict
from drivers.tcrp.timings import TcrpTimings

log = logging.getLogger(__name__)

#: writes in a row that timed out before the link is taken for dead and reopened
WRITE_TIMEOUTS_DEAD = 3


def backoff(attempts: int, timings: TcrpTimings) -> float:
    """Seconds before the next reconnection attempt after ``attempts`` made:
    ``reopen_interval`` doubled per attempt made after the first, capped at
    ``reconnect_max``."""
    doublings = min(max(attempts - 1, 0), 30)  # 2**30 s is past any cap
    return float(min(timings.reopen_interval * 2**doublings, timings.reconnect_max))


class ReceiveLoop:
    """The worker of one session: frames in, ACKs and RESENDs out, events queued; the link's
    reconnection.

    Owns the frame parser, the liveness and reconnection state (connected, lost, reconnecting;
    attempts, the time of the next one, the last error), the STATUS a gap asked and the count
    of bad frames. Works on the session's :class:`~drivers.tcrp.link.Link`, and hands answers
    to the device's collaborators: ACK/NAK to the command channel, resent history to the
    history recovery, HELLOs to the identity watch.

    Args:
        name: the device's source name (on the events, in the log).
        link, identity, commands, history: the session's collaborators (see above).
        timings: heartbeat, read and reconnection timings.
    """

    def __init__(
        self,
        name: str,
        *,
        link: Link,
        identity: IdentityWatch,
        commands: CommandChannel,
        history: HistoryRecovery,
        timings: TcrpTimings,
    ) -> None:
        self._name = name
        self._link = link
        self._identity = identity
        self._commands = commands
        self._history = history
        self._t = timings
        self._parser = FrameParser()
        self._bad_frames = 0
        self._link_lost = False
        self._last_rx = time.monotonic()
        self._link_state: LinkState = "connected"
        self._attempts = 0
        self._next_attempt_at = 0.0
        self.last_error = ""  # of the transport or the last reconnection attempt
        self._status_probe: int | None = None  # host seq of the STATUS a gap asked
        self.worker_errors = 0  # unexpected exceptions the worker survived (a bug if not 0)

    @property
    def status(self) -> LinkStatus:
        """The link now: connected, lost (probing) or reconnecting (transport reopening), with
        the attempts so far and the seconds to the next one."""
        if self._link_state == "connected":
            return LinkStatus("connected")
        wait = max(0.0, self._next_attempt_at - time.monotonic())
        return LinkStatus(self._link_state, self._attempts, wait, self.last_error)

    def run(self, stop: threading.Event) -> None:
        """The worker thread's body, until ``stop`` is set."""
        transport = self._link.transport
        while not stop.is_set():
            try:
                if not transport.is_open:
                    stop.wait(min(0.05, max(0.0, self._next_attempt_at - time.monotonic())))
                    self._on_timers(time.monotonic())
                    continue
                data = transport.read(4096, self._t.read_timeout)
                now = time.monotonic()
                if data:
                    for frame in self._parser.feed(data):
                        self._on_frame(frame, now)
                    self._link.set_dropped(
                        self._parser.dropped + self._bad_frames + self._link.far_ahead_frames
                    )
                self._on_timers(now)
            except WriteTimeoutError as e:
                self._on_write_timeout(e)
            except TransportError as e:
                self._on_transport_error(e)
            except Exception:  # keep the link alive; a bug here must not silence the table
                self.worker_errors += 1
                log.exception("%s: error in the TCRP/1 worker", self._name)
                stop.wait(self._t.read_timeout)

    def _on_write_timeout(self, e: WriteTimeoutError) -> None:
        """An ACK or RESEND the device did not take in time: the link stays up, because the
        device sends an unacknowledged frame again (DEVICE_PROTOCOL.md, "Reliability") and a
        starved far end catches up. Only writes that keep timing out mean a dead link."""
        self.last_error = str(e)
        if self._link.write_timeouts_in_row >= WRITE_TIMEOUTS_DEAD:
            self._on_transport_error(e)
        else:
            log.warning("%s: %s (the link stays up)", self._name, e)

    def _on_transport_error(self, e: TransportError) -> None:
        log.warning("%s: %s", self._name, e)
        self.last_error = str(e)
        self._mark_lost(f"transport: {e}")
        with self._link.write_lock:
            self._link.transport.close()
        self._parser.reset()
        if self._link_state == "connected":
            self._attempts = 0
        self._link_state = "reconnecting"
        self._schedule_attempt(time.monotonic())

    def _schedule_attempt(self, now: float) -> None:
        self._next_attempt_at = now + backoff(self._attempts, self._t)

    def _attempt_reconnect(self, now: float) -> None:
        """One attempt. A silent link that is still open gets a HELLO probe, and keeps its
        receive window: frames missed meanwhile come back by RESEND. A failed transport is
        reopened, and the new link's first frame starts the device sequence (DEVICE_PROTOCOL.md:
        the device may have restarted meanwhile and its HELLO with seq 0 gone unheard)."""
        self._attempts += 1
        link = self._link
        try:
            if not link.transport.is_open:
                with link.write_lock:
                    link.transport.open()
                self._parser.reset()
                link.new_window()
            link.send("HELLO")  # the device answers with HELLO: identity is checked again
        except DealerAssistError as e:
            self.last_error = str(e)
            log.info("%s: reconnection attempt %d failed: %s", self._name, self._attempts, e)
            with link.write_lock:
                link.transport.close()
            self._link_state = "reconnecting"
        self._schedule_attempt(now)

    def _mark_lost(self, reason: str) -> None:
        if not self._link_lost:
            self._link_lost = True
            self._link.emit(LinkLost(source=self._name, reason=reason))

    def _on_timers(self, now: float) -> None:
        self._apply(self._link.window.poll(now))
        if self._link_state == "connected" and now - self._last_rx > self._t.heartbeat_timeout:
            self._mark_lost(f"nothing received for {self._t.heartbeat_timeout:g} s")
            self._link_state, self._attempts = "lost", 0
            self._next_attempt_at = now  # probe at once
        if self._link_state != "connected" and now >= self._next_attempt_at:
            self._attempt_reconnect(now)

    def _on_frame(self, frame: Frame, now: float) -> None:
        link = self._link
        self._last_rx = now
        if self._link_state != "connected":
            self._link_state, self._attempts, self.last_error = "connected", 0, ""
        if self._link_lost:
            self._link_lost = False
            link.emit(LinkRestored(source=self._name))
        if self._history.is_history(frame, now):  # a resent frame from before the session
            link.count(duplicates=1)
            return
        if frame.type in ("ACK", "NAK"):
            self._commands.resolve(frame)  # at once, even out of order: it only ends a wait
            if self._status_probe is not None and frame.fields[:1] == (str(self._status_probe),):
                self._status_probe = None
                link.window.status_answer(frame.seq)
        verdict = link.window.accept(frame, now, malformed=_malformed(frame, self._name))
        if verdict.ack:
            link.send("ACK", (str(frame.seq),))
        elif verdict.nak:
            self._bad_frames += 1
            log.warning(
                "%s: NAK %s frame seq %d: %s", self._name, frame.type, frame.seq, verdict.nak
            )
            link.send("NAK", (str(frame.seq), "BAD_FIELDS"))
        elif verdict.far_ahead:
            log.warning(
                "%s: dropped %s frame seq %d: more than 256 ahead of %s",
                self._name,
                frame.type,
                frame.seq,
                link.window.expected,
            )
        if verdict.ask_hello:
            log.warning("%s: frames keep coming from far ahead: HELLO", self._name)
            link.send("HELLO")
        if verdict.duplicate or verdict.earlier_duplicate:
            link.count(duplicates=verdict.duplicate + verdict.earlier_duplicate)
        self._apply(verdict)

    def _apply(self, verdict: Verdict) -> None:
        link = self._link
        if verdict.conflict is not None:
            first, second = (_text(f) for f in verdict.conflict)
            log.error(
                "%s: device frame %d came twice with different contents (%s, then %s):"
                " a second device on the line, or forged frames",
                self._name,
                verdict.conflict[0].seq,
                first,
                second,
            )
            link.emit(
                FrameConflict(
                    source=self._name, seq=verdict.conflict[0].seq, first=first, second=second
                )
            )
        if verdict.ask_status:
            # its ACK comes back through this thread, after the probe is noted
            self._status_probe = link.send("STATUS")
        if verdict.resend_from is not None:
            link.send_resend(verdict.resend_from)
        for frame in verdict.deliver:
            link.count(frames_received=1)
            try:
                restarted = verdict.restarted and frame.type == "HELLO" and frame.seq == 0
                self._process(frame, restarted=restarted)
            except BadFrame as e:
                self._bad_frames += 1
                log.warning("%s: dropped %s frame seq %d: %s", self._name, frame.type, frame.seq, e)

    def _process(self, frame: Frame, *, restarted: bool) -> None:
        """Turn one in-order device frame into events (BEAT/ACK/NAK only mark liveness)."""
        if frame.type == "HELLO":
            f = frame.fields
            if len(f) < 4:
                raise BadFrame(f"HELLO needs protocol, model, firmware, serial: {f}")
            ident = SourceIdentity(model=f[1], firmware=f[2], serial=f[3])
            self._link.emit(self._identity.heard(f[0], ident, restarted=restarted))
            return
        event = frame_event(frame, self._name)
        if event is not None:
            self._link.emit(event)
        elif frame.type not in ("BEAT", "ACK", "NAK"):
            log.info("%s: ignored unknown frame type %s", self._name, frame.type)


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
