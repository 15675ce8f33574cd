"""History recovery of a TCRP/1 device: what the device said before this session.

After a restart of the host, :meth:`HistoryRecovery.recover_history` asks the device to resend
the frames it keeps (RESEND from :data:`DEVICE_HISTORY` frames before the session's first frame)
and returns them as events, without emitting them. The worker's receive loop hands every frame
to :meth:`HistoryRecovery._history_frame` first: a resent frame of that range is captured while
recovering, and dropped for a while after, so none reaches the game twice.
"""

from __future__ import annotations

import logging
import time

from dealer_assist.errors import TransportError
from dealer_assist.events import DeviceEvent
from drivers.tcrp.frame import SEQ_MODULUS, Frame
from drivers.tcrp.frame_events import BadFrame, frame_event
from drivers.tcrp.state import DeviceState

log = logging.getLogger(__name__)

DEVICE_HISTORY = 256  # frames a device keeps for RESEND (DEVICE_PROTOCOL.md, Reliability)


class HistoryRecovery(DeviceState):
    """The frames from before the session, asked for, captured and converted."""

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
            except BadFrame:
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


def _oldest_hole(captured: dict[int, Frame], start: int) -> int | None:
    """The oldest seq missing between the oldest captured frame and ``start``, or None."""
    if not captured:
        return None
    behind = {(start - s) % SEQ_MODULUS for s in captured}
    missing = [d for d in range(1, max(behind)) if d not in behind]
    return (start - max(missing)) % SEQ_MODULUS if missing else None
