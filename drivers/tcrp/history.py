"""History recovery of a TCRP/1 device: what the device said before this session.

After a restart of the host, :meth:`~drivers.tcrp.device.TcrpDevice.recover_history` asks the
device, through :meth:`HistoryRecovery.recover`, to resend the frames it keeps (RESEND from
:data:`DEVICE_HISTORY` frames before the session's first frame) and returns them as events,
without emitting them. The worker's receive loop hands every frame to
:meth:`HistoryRecovery.is_history` first: a resent frame of that range is captured while
recovering, and dropped for a while after, so none reaches the game twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from dealer_assist.errors import TransportError
from dealer_assist.events import DeviceEvent
from drivers.tcrp.frame import SEQ_MODULUS, Frame
from drivers.tcrp.frame_events import BadFrame, frame_event

log = logging.getLogger(__name__)

DEVICE_HISTORY = 256  # frames a device keeps for RESEND (DEVICE_PROTOCOL.md, Reliability)
_GUARD = 2.0  # seconds after a recovery during which late history frames are still dropped


class HistoryRecovery:
    """The frames from before the session, asked for, captured and converted.

    Owns the capture (which frames came back, from which start) and the guard after it; one
    per device, :meth:`reset` at each new session.

    Args:
        name: the device's source name (on the events, in the log).
        cond: the device's condition, held while the capture is read or written (the worker
            writes it, the caller's thread reads it).
        quiet: seconds without a frame after which a round of resent frames is complete
            (``TcrpTimings.history_quiet``).
    """

    def __init__(self, name: str, cond: threading.Condition, quiet: float) -> None:
        self._name = name
        self._cond = cond
        self._quiet = quiet
        self.reset()

    def reset(self) -> None:
        """A new session: nothing captured, no guard."""
        self._capture: dict[int, Frame] | None = None
        self._capture_start = 0
        self._guard_until = 0.0

    def recover(
        self,
        start: int,
        *,
        send_resend: Callable[[int], None],
        stop: threading.Event,
        timeout: float,
    ) -> list[DeviceEvent]:
        """Events of the frames the device sent before ``start`` (the session's first frame
        seq), oldest first: what a table that restarted missed while it was down.

        Asks with ``send_resend(seq)`` (a RESEND from that seq) from 256 frames before
        ``start`` (the device resends all it still keeps), collects those frames until none
        came for ``quiet`` seconds, asks again from the oldest hole, or again when nothing came
        (at most 3 rounds, ``timeout`` seconds in all, less if ``stop`` is set), and converts
        them without emitting them. Until 2 s after it returns, more frames of that range are
        taken as late history and dropped (:meth:`is_history`). Never raises for a silent
        device; a transport error ends the asking and is logged.
        """
        captured: dict[int, Frame] = {}
        with self._cond:
            self._capture_start, self._capture = start, captured
        deadline = time.monotonic() + max(0.0, timeout)
        ask = (start - DEVICE_HISTORY) % SEQ_MODULUS
        try:
            for _ in range(3):
                send_resend(ask)
                self._wait_quiet(captured, deadline, stop)
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
            log.warning("%s: history request failed: %s", self._name, e)
        finally:
            with self._cond:
                self._capture = None
                self._guard_until = time.monotonic() + _GUARD
                frames = sorted(captured.values(), key=lambda fr: -((start - fr.seq) % SEQ_MODULUS))
        events: list[DeviceEvent] = []
        for fr in frames:
            try:
                event = frame_event(fr, self._name)
            except BadFrame:
                continue
            if event is not None:
                events.append(event)
        return events

    def _wait_quiet(
        self, captured: dict[int, Frame], deadline: float, stop: threading.Event
    ) -> None:
        count, changed = -1, time.monotonic()
        while not stop.is_set():
            now = time.monotonic()
            if now >= deadline:
                return
            if len(captured) != count:
                count, changed = len(captured), now
            elif now - changed >= self._quiet:
                return
            stop.wait(0.02)

    def is_history(self, frame: Frame, now: float) -> bool:
        """True for a resent history frame (kept while capturing, else dropped): the caller
        counts it as a duplicate and takes it no further."""
        with self._cond:
            if self._capture is None and now >= self._guard_until:
                return False
            behind = (self._capture_start - frame.seq) % SEQ_MODULUS
            if not 0 < behind <= DEVICE_HISTORY:
                return False
            if self._capture is not None:
                self._capture.setdefault(frame.seq, frame)
        return True


def _oldest_hole(captured: dict[int, Frame], start: int) -> int | None:
    """The oldest seq missing between the oldest captured frame and ``start``, or None."""
    if not captured:
        return None
    behind = {(start - s) % SEQ_MODULUS for s in captured}
    missing = [d for d in range(1, max(behind)) if d not in behind]
    return (start - max(missing)) % SEQ_MODULUS if missing else None
