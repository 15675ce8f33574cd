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
  missing frames are given up as lost and the held ones are delivered;
- a frame more than :data:`MAX_AHEAD` (256, the device's history) ahead cannot be a gap RESEND
  fills: it is dropped and counted in ``far_ahead``, never held nor jumped to (one forged frame
  20,000 ahead would otherwise make every later real frame a "duplicate" for hours). When
  ``hello_after`` such frames come in a row the verdict asks the host to send HELLO (at most
  every ``hello_interval``); the device's answer, a HELLO within ``hello_wait`` of a HELLO the
  host sent (:meth:`ReceiveWindow.hello_sent`), re-bases the sequence if it too is far ahead
  (a device whose sequence really moved on while the link was silent);
- a frame whose fields are malformed (``malformed`` given to :meth:`ReceiveWindow.accept`) is
  neither acknowledged nor taken: the verdict says NAK, and the device sends it again.

Pure logic: no I/O, time passed in (monotonic seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drivers.tcrp.frame import SEQ_MODULUS, Frame

UNACKED_TYPES = frozenset({"BEAT", "ACK", "NAK"})
MAX_AHEAD = 256  # the device's history (DEVICE_PROTOCOL.md, Reliability): what RESEND can fill
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
        far_ahead: the frame was more than 256 ahead: dropped and counted, not acknowledged.
        ask_hello: far-ahead frames continue: send HELLO (the device's answer may re-base).
        nak: the frame's fields are malformed: send NAK for its seq (with this reason), no ACK.
    """

    ack: bool = False
    deliver: list[Frame] = field(default_factory=list)
    duplicate: bool = False
    earlier_duplicate: bool = False
    restarted: bool = False
    resend_from: int | None = None
    far_ahead: bool = False
    ask_hello: bool = False
    nak: str = ""


class ReceiveWindow:
    """Ordering and dedupe state for one link session; see the module docstring.

    Args:
        max_held: most out-of-order frames kept while waiting for a gap to fill.
        resend_interval: seconds between repeated RESEND requests for the same gap.
        gap_timeout: seconds after which a gap is abandoned (frames counted in ``lost``).
        restart_window: seconds within which an identical seq-0 HELLO is a retransmission.
        hello_after: far-ahead frames in a row after which HELLO is asked.
        hello_interval: least seconds between two such HELLO requests.
        hello_wait: seconds after a host HELLO within which a far-ahead HELLO re-bases.
    """

    def __init__(
        self,
        *,
        max_held: int = 256,
        resend_interval: float = 0.3,
        gap_timeout: float = 3.0,
        restart_window: float = 1.5,
        hello_after: int = 3,
        hello_interval: float = 5.0,
        hello_wait: float = 2.0,
    ) -> None:
        self.max_held = max_held
        self.resend_interval = resend_interval
        self.gap_timeout = gap_timeout
        self.restart_window = restart_window
        self.hello_after = hello_after
        self.hello_interval = hello_interval
        self.hello_wait = hello_wait
        self.far_ahead = 0  # frames dropped for being more than MAX_AHEAD ahead
        self._far_streak = 0
        self._hello_asked_at = float("-inf")
        self._hello_sent_at = float("-inf")
        self.expected: int | None = None
        self.first_seq: int | None = None  # seq of the first frame of this session
        self.lost = 0
        self._held: dict[int, Frame] = {}
        self._gap_since = 0.0
        self._last_resend = 0.0
        self._restart_hello: tuple[tuple[str, ...], float] | None = None
        self._deferred: Frame | None = None  # a repeated restart HELLO awaiting the next frame
        self._last_duplicate_at = float("-inf")

    def hello_sent(self, now: float) -> None:
        """The host sent HELLO (a probe or a handshake): its answer may re-base a sequence."""
        self._hello_sent_at = now

    def accept(self, frame: Frame, now: float, *, malformed: str = "") -> Verdict:
        """Account one valid received frame; returns what to send and what to process.

        ``malformed``: why the frame's fields do not fit its type ("" when they do); such a
        frame is never taken (nor acknowledged): the verdict says NAK unless it is far ahead.
        """
        verdict = Verdict(ack=frame.type not in UNACKED_TYPES)
        if self._is_far_ahead(frame, now, verdict):
            return verdict
        if malformed:
            verdict.ack, verdict.nak = False, malformed
            return verdict
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

    def _is_far_ahead(self, frame: Frame, now: float, verdict: Verdict) -> bool:
        """Drop and count a frame more than MAX_AHEAD ahead (a seq-0 HELLO is a restart, and
        the HELLO answering the host's re-bases); True when it was dropped."""
        if self.expected is None or self._deferred is not None:
            return False  # nothing to compare with yet, or a restart being decided
        if frame.type == "HELLO" and frame.seq == 0:
            return False
        ahead = (frame.seq - self.expected) % SEQ_MODULUS
        if not MAX_AHEAD < ahead < _HALF:
            self._far_streak = 0
            return False
        if frame.type == "HELLO" and now - self._hello_sent_at < self.hello_wait:
            self._rebase(frame, now, verdict)
            return False
        verdict.ack, verdict.far_ahead = False, True
        self.far_ahead += 1
        self._far_streak += 1
        streak = self._far_streak >= self.hello_after
        if streak and now - self._hello_asked_at >= self.hello_interval:
            self._hello_asked_at = now
            verdict.ask_hello = True
        return True

    def _rebase(self, hello: Frame, now: float, verdict: Verdict) -> None:
        """The device answered the host's HELLO from far ahead: its sequence moved on (frames
        beyond its history were missed). The held frames go first; the rest counts as lost."""
        exp = self.expected if self.expected is not None else hello.seq
        for seq in sorted(self._held, key=lambda s: (s - exp) % SEQ_MODULUS):
            verdict.deliver.append(self._held.pop(seq))
        self.lost += max(0, (hello.seq - exp) % SEQ_MODULUS - len(verdict.deliver))
        self.expected = hello.seq
        self._far_streak = 0
        self._hello_sent_at = float("-inf")  # one re-base per HELLO sent

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
