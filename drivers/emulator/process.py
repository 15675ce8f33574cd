"""Run the emulator as a child process (``python -m drivers.emulator``) and learn where it
listens from the first line it prints; with ``control=True`` it also takes the dealer's
commands (:mod:`drivers.emulator.control`) on its stdin."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO

from dealer_assist.cards import Card
from dealer_assist.errors import DeviceError
from drivers.emulator.control import ERROR, LOADED, RESUME, RESUMED, SEED, SEEDED, load_line


class EmulatorProcess:
    """The emulator in a child process.

    Args:
        args: extra emulator options, e.g. ``["--seed", "7", "--jam-at", "5"]``.
        tcp_port: serve on TCP 127.0.0.1 (0 = any free port) instead of a pty.
        start_timeout: seconds start() waits for the emulator's first line.
        stop_timeout: seconds stop() waits after SIGTERM before SIGKILL.
        stderr: where the child's logs go (None = inherit, or a file / subprocess.DEVNULL).
        python: the interpreter (default: the running one).
        control: run it with ``--control`` so :meth:`load_cards` works (stdin becomes a pipe).
        control_timeout: seconds :meth:`load_cards` waits for the emulator's answer.
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        tcp_port: int | None = None,
        start_timeout: float = 10.0,
        stop_timeout: float = 3.0,
        stderr: int | IO[bytes] | None = None,
        python: str | None = None,
        control: bool = False,
        control_timeout: float = 5.0,
    ) -> None:
        self.args = list(args)
        self.tcp_port = tcp_port
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.stderr = stderr
        self.python = python or sys.executable
        self.control = control
        self.control_timeout = control_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._where: str | None = None
        self._out = b""  # stdout read past the last line taken
        self._control_lock = threading.Lock()

    @property
    def where(self) -> str | None:
        """The pty path or ``socket://127.0.0.1:PORT`` once started, else None."""
        return self._where

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._proc.pid if self._proc is not None else None

    def command(self) -> list[str]:
        """The child's command line."""
        mode = ["--pty"] if self.tcp_port is None else ["--tcp", str(self.tcp_port)]
        control = ["--control"] if self.control else []
        parent = ["--parent-pid", str(os.getpid())]  # it dies with the table that started it
        return [self.python, "-m", "drivers.emulator", *mode, *control, *parent, *self.args]

    def start(self) -> str:
        """Start the child and return where it listens (pty path or socket URL).

        Raises:
            DeviceError: it could not start, exited, or printed nothing within start_timeout.
        """
        if self._where is not None:
            return self._where
        try:
            self._proc = subprocess.Popen(
                self.command(),
                stdin=subprocess.PIPE if self.control else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
            )
        except OSError as e:
            raise DeviceError(f"cannot start the emulator: {e}") from e
        self._out = b""
        try:
            line = self._read_line(self.start_timeout, "printed no address")
        except DeviceError:
            self.stop()
            raise
        self._where = line
        return line

    def stop(self) -> None:
        """Terminate the child (SIGTERM, then SIGKILL after stop_timeout) and reap it; safe to
        call twice."""
        proc, self._proc = self._proc, None
        self._where = None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(self.stop_timeout)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def load_cards(self, cards: Sequence[Card]) -> int:
        """The dealer puts ``cards`` into the emulated shoe (control line ``LOAD``); the next
        SHUFFLE shuffles them with the undealt stub into a new deck. Returns how many cards are
        loaded in all, once the emulator confirmed it.

        Raises:
            CardError: an empty load or an item that is not a Card.
            DeviceError: not started with ``control=True``, not running, no answer within
                ``control_timeout``, or the emulator refused the line (its reason quoted).
        """
        line = load_line(cards)
        reply = self._command(line, "LOAD")
        words = reply.split()
        if words[:1] == [ERROR]:
            raise DeviceError(f"the emulator refused {line!r}: {reply[len(ERROR) :].strip()}")
        if len(words) != 3 or words[0] != LOADED or not words[2].isdigit():
            raise DeviceError(f"unexpected emulator answer to LOAD: {reply!r}")
        return int(words[2])

    def reseed(self, seed: int) -> None:
        """The next shuffles draw from a deck generator seeded with ``seed`` (control line
        ``SEED``; a simulation deals the same deck for the same hand after a restart).

        Raises:
            DeviceError: as :meth:`load_cards`; a negative seed.
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise DeviceError(f"the emulator's seed must be an integer >= 0, got {seed!r}")
        reply = self._command(f"{SEED} {seed}", SEED)
        if reply.split() != [SEEDED, str(seed)]:
            raise DeviceError(f"unexpected emulator answer to SEED: {reply!r}")

    def resume(self) -> None:
        """End a silence (``--silence-after``) now, as a cable plugged back in: the device
        transmits again, its unacknowledged frames resent as usual (control line ``RESUME``).
        A test of a lost link uses it to decide when the link comes back, instead of a time.

        Raises:
            DeviceError: as :meth:`load_cards`.
        """
        reply = self._command(RESUME, RESUME)
        if reply != RESUMED:
            raise DeviceError(f"unexpected emulator answer to RESUME: {reply!r}")

    def _command(self, line: str, what: str) -> str:
        """Send one control line and return the emulator's answer line.

        Raises:
            DeviceError: not started with ``control=True``, not running, the input closed, or
                no answer within ``control_timeout``.
        """
        with self._control_lock:
            proc = self._proc
            if proc is None or self._where is None:
                raise DeviceError("the emulator is not running")
            if not self.control or proc.stdin is None:
                raise DeviceError("the emulator was started without control=True")
            try:
                proc.stdin.write(line.encode("ascii") + b"\n")
                proc.stdin.flush()
            except OSError as e:
                raise DeviceError(f"cannot reach the emulator's control input: {e}") from e
            return self._read_line(self.control_timeout, f"did not answer {what}")

    def _read_line(self, timeout: float, what: str) -> str:
        """The next stdout line of the child within ``timeout`` seconds."""
        proc = self._proc
        stdout = proc.stdout if proc is not None else None
        if proc is None or stdout is None:
            raise DeviceError("emulator has no stdout pipe")
        fd = stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._out:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DeviceError(f"emulator {what} within {timeout} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(1.0)
                raise DeviceError(f"emulator exited (status {proc.returncode}): it {what}")
            self._out += chunk
        line, self._out = self._out.split(b"\n", 1)
        return line.decode("utf-8", "replace").strip()
