"""Run the emulator as a child process (``python -m drivers.emulator``) and learn where it
listens from the first line it prints."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import IO

from dealer_assist.errors import DeviceError


class EmulatorProcess:
    """The emulator in a child process.

    Args:
        args: extra emulator options, e.g. ``["--seed", "7", "--jam-at", "5"]``.
        tcp_port: serve on TCP 127.0.0.1 (0 = any free port) instead of a pty.
        start_timeout: seconds start() waits for the emulator's first line.
        stop_timeout: seconds stop() waits after SIGTERM before SIGKILL.
        stderr: where the child's logs go (None = inherit, or a file / subprocess.DEVNULL).
        python: the interpreter (default: the running one).
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
    ) -> None:
        self.args = list(args)
        self.tcp_port = tcp_port
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.stderr = stderr
        self.python = python or sys.executable
        self._proc: subprocess.Popen[bytes] | None = None
        self._where: str | None = None

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
        return [self.python, "-m", "drivers.emulator", *mode, *self.args]

    def start(self) -> str:
        """Start the child and return where it listens (pty path or socket URL).

        Raises:
            DeviceError: it could not start, exited, or printed nothing within start_timeout.
        """
        if self._where is not None:
            return self._where
        try:
            self._proc = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.stderr
            )
        except OSError as e:
            raise DeviceError(f"cannot start the emulator: {e}") from e
        try:
            line = _read_line(self._proc, self.start_timeout)
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
        if proc.stdout is not None:
            proc.stdout.close()


def _read_line(proc: subprocess.Popen[bytes], timeout: float) -> str:
    """The first stdout line of ``proc`` within ``timeout`` seconds (no partial-line reads)."""
    stdout = proc.stdout
    if stdout is None:
        raise DeviceError("emulator has no stdout pipe")
    fd = stdout.fileno()
    deadline = time.monotonic() + timeout
    buf = b""
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            raise DeviceError(f"emulator printed no address within {timeout} s")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(1.0)
            raise DeviceError(f"emulator exited (status {proc.returncode}) before listening")
        buf += chunk
    return buf.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
