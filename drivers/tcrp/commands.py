"""The command layer of a TCRP/1 device: a command sent from the caller's thread, and its answer.

A command (HELLO, SHUFFLE, DEAL, STATUS) waits for its ACK or NAK and is sent again for want of
one, ``command_retries`` times ``command_interval`` apart (DEVICE_PROTOCOL.md, "Reliability";
3 times 300 ms by default). A NAK raises :class:`~dealer_assist.errors.CommandRefusedError` (the
device is there and said no, with its reason code); no answer at all raises a plain
ProtocolError. After an identity alarm commands refuse. The worker's receive loop hands every
ACK and NAK to :meth:`CommandChannel._resolve`, which ends the wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from dealer_assist.errors import (
    CommandRefusedError,
    DeviceError,
    DeviceIdentityError,
    ProtocolError,
)
from drivers.tcrp.frame import Frame, encode_frame
from drivers.tcrp.state import DeviceState, PendingCommand


class CommandChannel(DeviceState):
    """Commands with their ACK/NAK and retries, one in flight at a time."""

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
            pending = PendingCommand(seq)
            with self._cond:
                self._pending[seq] = pending
            try:
                for attempt in range(1 + self._t.command_retries):
                    if attempt:
                        with self._stats_lock:
                            self._stats.command_retries += 1
                    if type_ == "HELLO":  # its answer may re-base a sequence that moved on
                        self._window.hello_sent(time.monotonic())
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

    def _resolve(self, frame: Frame) -> None:
        """An ACK or NAK from the worker: the command it answers stops waiting."""
        if not frame.fields or not frame.fields[0].isdigit():
            return
        with self._cond:
            pending = self._pending.get(int(frame.fields[0]))
            if pending is not None and not pending.answer:
                pending.answer = frame.type
                pending.reason = frame.fields[1] if len(frame.fields) > 1 else ""
                self._cond.notify_all()
