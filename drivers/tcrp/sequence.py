"""Receive-side sequencing of device frames (DEVICE_PROTOCOL.md, "Reliability").

:class:`ReceiveWindow` turns frames in arrival order (with losses, retransmissions and
reordering) into frames in device order, each exactly once:

- the seq of the first frame after opening starts the sequence; a HELLO with seq 0 is a device
  restart and starts it again. The same HELLO again within ``restart_window`` may be a mere
  retransmission: the next frame decides (after a restart its seq follows 0, after a
  retransmission it follows the old sequence), so nothing is lost or processed twice;
- seqs compare modulo 65536: up to 32768 behind the next expected one is a duplicate, ahead of
  it means frames were missed: later frames are held and a RESEND from the first missing seq
  is asked, repeated every ``resend_interval`` while the gap lasts; after ``gap_timeout`` the
  missing frames are given up as lost and the held ones are delivered.

Pure logic: no I/O, time passed in (monotonic seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drivers.tcrp.frame import SEQ_MODULUS, Frame

UNACKED_TYPES = frozenset({"BEAT", "ACK", "NAK"})
_HALF = SEQ_MODULUS // 2


@dataclass
class Verdict:
    """What to do after one received frame.

    Attributes:
        ack: send ACK for this frame's seq (every frame but BEAT/ACK/NAK, duplicates included).
        deliver: frames to process now, in device order (this one and any it released).
        duplicate: the frame was seen before and must not be processed again.
        earlier_duplicate: a HELLO held back for a decision turned out to be a retransmission.
        restarted: the sequence restarted; the HELLO with seq 0 in ``deliver`` is the restart.
        resend_from: send RESEND with this device seq, or None.
    """

    ack: bool = False
    deliver: list[Frame] = field(default_factory=list)
    duplicate: bool = False
    earlier_duplicate: bool = False
    restarted: bool = False
    resend_from: int | None = None


class ReceiveWindow:
    """Ordering and dedupe state for one link session; see the module docstring.

    Args:
        max_held: most out-of-order frames kept while waiting for a gap to fill.
        resend_interval: seconds between repeated RESEND requests for the same gap.
        gap_timeout: seconds after which a gap is abandoned (frames counted in ``lost``).
        restart_window: seconds within which an identical seq-0 HELLO is a retransmission.
    """

    def __init__(
        self,
        *,
        max_held: int = 256,
        resend_interval: float = 0.3,
        gap_timeout: float = 3.0,
        restart_window: float = 1.5,
    ) -> None:
        self.max_held = max_held
        self.resend_interval = resend_interval
        self.gap_timeout = gap_timeout
        self.restart_window = restart_window
        self.expected: int | None = None
        self.first_seq: int | None = None  # seq of the first frame of this session
        self.lost = 0
        self._held: dict[int, Frame] = {}
        self._gap_since = 0.0
        self._last_resend = 0.0
        self._restart_hello: tuple[tuple[str, ...], float] | None = None
        self._deferred: Frame | None = None  # a repeated restart HELLO awaiting the next frame
        self._last_duplicate_at = float("-inf")

    def accept(self, frame: Frame, now: float) -> Verdict:
        """Account one valid received frame; returns what to send and what to process."""
        verdict = Verdict(ack=frame.type not in UNACKED_TYPES)
        if frame.type == "HELLO" and frame.seq == 0:
            prev = self._restart_hello
            if prev and prev[0] == frame.fields and now - prev[1] < self.restart_window:
                # the restart HELLO again, soon: a retransmission, or a second restart? The
                # next frame tells (its seq follows 0 or the old sequence): decide then.
                if self._deferred is None:
                    self._deferred = frame
                return verdict
            self._deferred = None
            self._restart(frame, now, verdict)
        elif self._deferred is not None:
            hello, self._deferred = self._deferred, None
            if self.expected is not None and abs(_signed(frame.seq - 1)) < abs(
                _signed(frame.seq - self.expected)
            ):
                self._restart(hello, now, verdict)
                self._take(hello, now, verdict)
            else:
                verdict.earlier_duplicate = True
                self._last_duplicate_at = now
        self._take(frame, now, verdict)
        return verdict

    def _restart(self, hello: Frame, now: float, verdict: Verdict) -> None:
        verdict.restarted = True
        self._restart_hello = (hello.fields, now)
        if now - self._last_duplicate_at < 2 * self.restart_window and self.expected:
            # frames after the restart may have been taken for old duplicates: ask again
            verdict.resend_from = 1
        self.expected = 0
        self._held.clear()

    def _take(self, frame: Frame, now: float, verdict: Verdict) -> None:
        if self.expected is None:
            self.expected = frame.seq
        if self.first_seq is None:
            self.first_seq = frame.seq
        ahead = (frame.seq - self.expected) % SEQ_MODULUS
        if ahead == 0:
            verdict.deliver.append(frame)
            self.expected = (self.expected + 1) % SEQ_MODULUS
            self._drain(verdict, now)
        elif ahead < _HALF:
            if frame.seq in self._held:
                verdict.duplicate = True
                self._last_duplicate_at = now
            elif len(self._held) >= self.max_held:
                verdict.ack = False  # not kept: let the device send it again later
            else:
                if not self._held:
                    self._gap_since = now
                    self._last_resend = float("-inf")
                self._held[frame.seq] = frame
            if now - self._last_resend >= self.resend_interval:
                self._last_resend = now
                verdict.resend_from = self.expected
        else:
            verdict.duplicate = True
            self._last_duplicate_at = now

    def poll(self, now: float) -> Verdict:
        """Timers: repeat RESEND while a gap lasts; give the gap up after ``gap_timeout``."""
        verdict = Verdict()
        if not self._held or self.expected is None:
            return verdict
        if now - self._gap_since >= self.gap_timeout:
            exp = self.expected
            nearest = min(self._held, key=lambda s: (s - exp) % SEQ_MODULUS)
            self.lost += (nearest - exp) % SEQ_MODULUS
            self.expected = nearest
            self._drain(verdict, now)
        elif now - self._last_resend >= self.resend_interval:
            self._last_resend = now
            verdict.resend_from = self.expected
        return verdict

    def _drain(self, verdict: Verdict, now: float) -> None:
        progressed = False
        while self.expected is not None and self.expected in self._held:
            verdict.deliver.append(self._held.pop(self.expected))
            self.expected = (self.expected + 1) % SEQ_MODULUS
            progressed = True
        if progressed and self._held:
            # a later gap: the RESEND already asked covers it, so only restart its timers
            self._gap_since = now
            self._last_resend = now


def _signed(diff: int) -> int:
    """``diff`` modulo 65536 as -32768..32767."""
    d = diff % SEQ_MODULUS
    return d - SEQ_MODULUS if d >= _HALF else d
