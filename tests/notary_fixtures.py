"""The notary as the tests run it: a separate process (``python -m dealer_assist.notary serve``)
on a Unix socket in a short temporary folder (socket paths are limited to ~100 bytes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.notary.client import NotaryClient, NotaryUnavailableError

REPO = Path(__file__).resolve().parents[1]


class NotaryProcess:
    """A notary process over ``state`` listening on ``socket``; :meth:`start`, :meth:`kill`
    (SIGKILL: no clean exit) and :meth:`stop` (SIGTERM)."""

    def __init__(
        self,
        state: Path,
        socket: Path,
        extra: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.state, self.socket = state, socket
        self.extra, self.env = list(extra or ()), env  # e.g. the key store's options
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20.0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dealer_assist.notary", "serve", "--state", str(self.state),
             "--socket", str(self.socket), *self.extra],
            cwd=REPO, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        client = NotaryClient(self.socket, "probe", timeout=1.0)
        deadline = time.monotonic() + timeout
        while True:  # wait for the state "answers", not for a time
            try:
                client.head()
                return
            except NotaryUnavailableError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise RuntimeError(f"the notary did not start: {err}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture(name="notary")
def notary_fixture() -> Iterator[NotaryProcess]:
    folder = Path(tempfile.mkdtemp(prefix="nt", dir="/tmp"))
    proc = NotaryProcess(folder / "state", folder / "n.sock")
    proc.start()
    try:
        yield proc
    finally:
        proc.kill()
        for p in sorted(folder.rglob("*"), reverse=True):
            p.unlink() if not p.is_dir() else p.rmdir()
        os.rmdir(folder)
