"""The built-in emulator dies with the table that started it: a kill -9 of
the parent leaves no emulator process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHILD = """
import sys, time
from drivers.emulator.process import EmulatorProcess
p = EmulatorProcess(["--seed", "1"])
p.start()
print(p.pid, flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process tree of Linux")
def test_the_emulator_stops_when_its_parent_is_killed() -> None:
    table = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert table.stdout is not None
        emulator = int(table.stdout.readline())
        assert _alive(emulator)
        table.send_signal(signal.SIGKILL)
        table.wait(10)
        deadline = time.monotonic() + 10
        while _alive(emulator) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(emulator), "the emulator outlived the table that started it"
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
