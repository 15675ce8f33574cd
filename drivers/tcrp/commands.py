"""The command layer of a TCRP/1 device: a command sent from the caller's thread, and its answer.

A command (HELLO, SHUFFLE, DEAL, STATUS) waits for its ACK or NAK and is sent again for want of
one, ``command_retries`` times ``command_interval`` apart (DEVICE_PROTOCOL.md, "Reliability";
3 times 300 ms by default). A NAK raises :class:`~dealer_assist.errors.CommandRefusedError` (the
device is there and said no, with its reason code); no answer at all raises a plain
ProtocolError. The worker's receive loop hands every ACK and NAK to
:meth:`CommandChannel.resolve`, which ends the wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dealer_assist.errors import CommandRefusedError, DeviceError, ProtocolError, TransportError
from drivers.tcrp.frame import Frame, encode_frame
from drivers.tcrp.timings import TcrpTimings


@dataclass
class PendingCommand:
    """A command sent and waiting for its ACK or NAK."""

    seq: int
    answer: str = ""  # "ACK" or "NAK" once answered
    reason: str = ""


class CommandChannel:
    """Commands with their ACK/NAK and retries, one in flight at a time.

    Owns the commands awaiting an answer (:meth:`reset` at each new session) and the lock that
    keeps one in flight.

    Args:
        name: the device's source name (in errors).
        cond: the device's condition: held while the pending commands are read or written, and
            notified when one is answered or the device closes.
        timings: ``command_retries`` and ``command_interval`` are used.
    """

    def __init__(self, name: str, cond: threading.Condition, timings: TcrpTimings) -> None:
        self._name = name
        self._cond = cond
        self._t = timings
        self._lock = threading.Lock()  # one command in flight at a time
        self._pending: dict[int, PendingCommand] = {}

    def reset(self) -> None:
        """A new session: no command awaits an answer."""
        with self._cond:
            self._pending = {}

    def send(
        self,
        type_: str,
        fields_: Sequence[str],
        *,
        take_seq: Callable[[], int],
        transmit: Callable[[bytes, int], None],
        stop: threading.Event,
        done: Callable[[], bool] | None = None,
    ) -> None:
        """Send the command and wait for its answer, sent again for want of one.

        ``take_seq()`` gives the host seq (once); ``transmit(frame, attempt)`` writes the frame
        (attempt 0 first, then each retry); ``done()``, when given, also ends a wait (checked
        with the condition held); ``stop`` set means the device closed.

        Raises:
            CommandRefusedError: the device NAKed it (with its reason).
            ProtocolError: no answer after the retries.
            DeviceError: the device was closed meanwhile.
            TransportError: from ``transmit``, when the last attempt's write failed (a write
                that failed or timed out counts as an attempt without answer).
        """
        with self._lock:
            seq = take_seq()
            frame = encode_frame(seq, type_, fields_)
            pending = PendingCommand(seq)
            with self._cond:
                self._pending[seq] = pending
            failed: TransportError | None = None  # the last attempt's write failure
            try:
                for attempt in range(1 + self._t.command_retries):
                    try:
                        transmit(frame, attempt)
                        failed = None
                    except TransportError as e:
                        # a write timed out, or the link is being reopened: the next
                        # attempt may find it back
                        failed = e
                    with self._cond:
                        answered = self._cond.wait_for(
                            lambda: (
                                bool(pending.answer)
                                or (done is not None and done())
                                or stop.is_set()
                            ),
                            self._t.command_interval,
                        )
                    if stop.is_set():
                        raise DeviceError(f"{self._name} was closed during {type_}")
                    if answered:
                        break
            finally:
                with self._cond:
                    self._pending.pop(seq, None)
        if pending.answer == "NAK":
            raise CommandRefusedError(type_, pending.reason, source=self._name)
        if not answered and failed is not None:
            raise failed
        if not answered:
            raise ProtocolError(
                f"{self._name}: no answer to {type_} after {1 + self._t.command_retries} attempts"
            )

    def resolve(self, frame: Frame) -> None:
        """An ACK or NAK from the worker: the command it answers stops waiting."""
        if not frame.fields or not frame.fields[0].isdigit():
            return
        with self._cond:
            pending = self._pending.get(int(frame.fields[0]))
            if pending is not None and not pending.answer:
                pending.answer = frame.type
                pending.reason = frame.fields[1] if len(frame.fields) > 1 else ""
                self._cond.notify_all()
