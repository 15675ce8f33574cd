"""Receive-side sequencing of device frames (DEVICE_PROTOCOL.md, "Reliability").

:class:`ReceiveWindow` turns frames in arrival order (with losses, retransmissions and
reordering) into frames in device order, each exactly once:

- the seq of the first frame after opening starts the sequence; a HELLO with seq 0 is a device
  restart and starts it again. The same HELLO again within ``restart_window`` may be a mere
  retransmission: the next frame decides (after a restart its seq follows 0, after a
  retransmission it follows the old sequence), so nothing is lost or processed twice;
- seqs compare modulo 65536: up to 32768 behind the next expected one is a duplicate, ahead of
  it means frames were missed: later frames are held and a RESEND from the first missing seq
  is asked, repeated every ``resend_interval`` while the gap lasts;
- a frame more than :data:`MAX_AHEAD` (256, the device's history) ahead cannot be a gap RESEND
  fills: it is dropped and counted in ``far_ahead``, never held nor jumped to (one forged frame
  20,000 ahead would otherwise make every later real frame a "duplicate" for hours). When
  ``hello_after`` such frames come in a row the verdict asks the host to send HELLO (at most
  every ``hello_interval``); the device's answer, a HELLO within ``hello_wait`` of a HELLO the
  host sent (:meth:`ReceiveWindow.hello_sent`), re-bases the sequence if it too is far ahead
  (a device whose sequence really moved on while the link was silent);
- a frame whose fields are malformed (``malformed`` given to :meth:`ReceiveWindow.accept`) is
  neither acknowledged nor taken: the verdict says NAK, and the device sends it again;
- a frame held ahead of a gap is delivered only once it is *confirmed*: a second copy with the
  same contents came (the device's answer to RESEND resends every kept frame from the gap on).
  A CRC-valid frame slipped in early under a seq the device has not used yet (a second device
  on the line, forged frames) is never confirmed, so it never reaches the game;
- a frame whose seq is already held, or was delivered, with other contents is a *conflict*
  (``Verdict.conflict``: both frames): neither is delivered, the seq is passed over, and the
  host voids the hand and raises the alarm;
- a gap that RESEND does not fill within ``gap_timeout`` makes the verdict ask STATUS: the
  device's ACK of it carries the device's own seq (:meth:`ReceiveWindow.status_answer`), and a
  held frame at or beyond it, received before the question, cannot be the device's: it is set
  aside as *suspect* (compared with the device's frame of that seq when it comes). After
  twice ``gap_timeout`` the unconfirmed held frames are set aside the same way and the missing
  frames before the nearest confirmed one are given up as lost; the window never jumps to an
  unconfirmed frame (one forged frame 250 ahead would otherwise make every later real frame a
  "duplicate").

Pure logic: no I/O, time passed in (monotonic seconds).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from drivers.tcrp.frame import SEQ_MODULUS, Frame

UNACKED_TYPES = frozenset({"BEAT", "ACK", "NAK"})
MAX_AHEAD = 256  # the device's history (DEVICE_PROTOCOL.md, Reliability): what RESEND can fill
_HALF = SEQ_MODULUS // 2
_RECENT = 2 * MAX_AHEAD  # delivered frames kept to compare a late copy with


@dataclass
class _Held:
    """A frame held ahead of a gap: when it came, and whether a second copy confirmed it."""

    frame: Frame
    at: float
    confirmed: bool = False


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
        conflict: (the frame held or delivered first, this one): two frames with one seq and
            different contents; neither is delivered (a second device, or forged frames).
        ask_status: a gap RESEND did not fill: send STATUS and pass the device's ACK of it to
            :meth:`ReceiveWindow.status_answer`.
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
    conflict: tuple[Frame, Frame] | None = None
    ask_status: bool = False


class ReceiveWindow:
    """Ordering and dedupe state for one link session; see the module docstring.

    Args:
        max_held: most out-of-order frames kept while waiting for a gap to fill.
        resend_interval: seconds between repeated RESEND requests for the same gap.
        gap_timeout: seconds after which a gap RESEND did not fill asks STATUS; after twice
            this the unconfirmed held frames are set aside and the missing ones before the
            nearest confirmed frame are given up (counted in ``lost``).
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
        self._held: dict[int, _Held] = {}
        self._recent: OrderedDict[int, Frame] = OrderedDict()  # delivered, by seq
        self._conflicted: dict[int, tuple[Frame, Frame]] = {}  # seqs passed over
        self._suspect: dict[int, Frame] = {}  # held frames the device did not confirm
        self.conflicts = 0  # seqs that came with two different contents
        self.set_aside = 0  # held frames never confirmed by the device
        self._status_asked_at: float | None = None
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
            held = self._held.pop(seq)
            if held.confirmed:
                self._deliver(held.frame, verdict)
            else:
                self._set_aside(held.frame)
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
        self._recent.clear()
        self._conflicted.clear()
        self._suspect.clear()

    def _take(self, frame: Frame, now: float, verdict: Verdict) -> None:
        if self.expected is None:
            self.expected = frame.seq
        if self.first_seq is None:
            self.first_seq = frame.seq
        seq = frame.seq
        ahead = (seq - self.expected) % SEQ_MODULUS
        if seq in self._conflicted and ahead != 0:
            verdict.duplicate = True  # a copy of one of the two: passed over already
        elif ahead == 0:
            self._conflicted.pop(seq, None)  # due again: the sequence wrapped round
            first = self._held.pop(seq, None)
            earlier = first.frame if first is not None else self._suspect.pop(seq, None)
            if earlier is not None and earlier != frame:
                self._conflict(earlier, frame, verdict)
            else:
                self._deliver(frame, verdict)
            self.expected = (self.expected + 1) % SEQ_MODULUS
            self._drain(verdict, now)
        elif ahead < _HALF:
            self._hold(frame, now, verdict)
        else:
            verdict.duplicate = True
            self._last_duplicate_at = now
            delivered = self._recent.get(seq)
            if delivered is not None and delivered != frame:
                self._conflict(delivered, frame, verdict)

    def _hold(self, frame: Frame, now: float, verdict: Verdict) -> None:
        """A frame ahead of the expected one: held unconfirmed, or its second copy."""
        seq = frame.seq
        held = self._held.get(seq)
        if held is not None:
            verdict.duplicate = True
            self._last_duplicate_at = now
            if held.frame == frame:
                held.confirmed = True
            else:
                del self._held[seq]
                self._conflict(held.frame, frame, verdict)
        elif seq in self._suspect:
            if self._suspect[seq] != frame:
                self._conflict(self._suspect.pop(seq), frame, verdict)
            # the same again: still not the device's answer; compared when its seq is due
        elif len(self._held) >= self.max_held:
            verdict.ack = False  # not kept: let the device send it again later
        else:
            if not self._held:
                self._gap_since = now
                self._last_resend = float("-inf")
                self._status_asked_at = None
            self._held[seq] = _Held(frame, now)
        if now - self._last_resend >= self.resend_interval:
            self._last_resend = now
            verdict.resend_from = self.expected

    def _conflict(self, first: Frame, second: Frame, verdict: Verdict) -> None:
        self._conflicted[first.seq] = (first, second)
        if len(self._conflicted) > _RECENT:
            del self._conflicted[next(iter(self._conflicted))]
        self.conflicts += 1
        verdict.conflict = (first, second)

    def _deliver(self, frame: Frame, verdict: Verdict) -> None:
        verdict.deliver.append(frame)
        self._recent[frame.seq] = frame
        self._recent.move_to_end(frame.seq)
        if len(self._recent) > _RECENT:
            self._recent.popitem(last=False)

    def _set_aside(self, frame: Frame) -> None:
        self._suspect[frame.seq] = frame
        self.set_aside += 1
        if len(self._suspect) > _RECENT:
            del self._suspect[next(iter(self._suspect))]

    def status_answer(self, device_seq: int) -> None:
        """The device's ACK of the STATUS the verdict asked came with ``device_seq``, the
        device's own seq then: every held frame at or beyond it that came before the question
        was not sent by this device; it is set aside, and the gap is no longer waited for."""
        asked = self._status_asked_at
        if asked is None:
            return
        for seq, held in list(self._held.items()):
            if held.at <= asked and (seq - device_seq) % SEQ_MODULUS < _HALF:
                del self._held[seq]
                self._set_aside(held.frame)

    def poll(self, now: float) -> Verdict:
        """Timers: repeat RESEND while a gap lasts; ask STATUS after ``gap_timeout``; after
        twice that, set unconfirmed frames aside and give up the gap before a confirmed one."""
        verdict = Verdict()
        if not self._held or self.expected is None:
            return verdict
        waited = now - self._gap_since
        if waited >= 2 * self.gap_timeout:
            for seq in [s for s, h in self._held.items() if not h.confirmed]:
                self._set_aside(self._held.pop(seq).frame)
            if self._held:
                exp = self.expected
                nearest = min(self._held, key=lambda s: (s - exp) % SEQ_MODULUS)
                self.lost += (nearest - exp) % SEQ_MODULUS
                self.expected = nearest
                self._drain(verdict, now)
            return verdict
        if waited >= self.gap_timeout and self._status_asked_at is None:
            self._status_asked_at = now
            verdict.ask_status = True
        if now - self._last_resend >= self.resend_interval:
            self._last_resend = now
            verdict.resend_from = self.expected
        return verdict

    def _drain(self, verdict: Verdict, now: float) -> None:
        progressed = False
        while self.expected is not None:
            held = self._held.get(self.expected)
            if held is not None and held.confirmed:
                del self._held[self.expected]
                self._deliver(held.frame, verdict)
            elif self.expected not in self._conflicted or held is not None:
                break
            self.expected = (self.expected + 1) % SEQ_MODULUS
            progressed = True
        if progressed and self._held:
            # a later gap, or held frames not yet confirmed: the RESEND already asked covers
            # them, so only restart the timers
            self._gap_since = now
            self._last_resend = now
            self._status_asked_at = None
        if self._held and self.expected in self._held and verdict.resend_from is None:
            verdict.resend_from = self.expected  # the next frame is here, unconfirmed: again


def _signed(diff: int) -> int:
    """``diff`` modulo 65536 as -32768..32767."""
    d = diff % SEQ_MODULUS
    return d - SEQ_MODULUS if d >= _HALF else d
