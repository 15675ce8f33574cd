"""The emulator as a program: TCP mode, the CLI entry points, EmulatorProcess, and the source
factory (emulator://, socket://, errors)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_assist.errors import ConfigError, DeviceError, DeviceIdentityError, ProtocolError
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent
from dealer_assist.source import CardSource
from drivers.emulator.process import EmulatorProcess
from drivers.emulator.source import EmulatorSource
from drivers.factory import emulator_args, open_source
from drivers.tcrp.device import TcrpDevice
from tests.conftest import Closer

FAST = ["--shuffle-time", "0.05", "--card-interval", "0.003"]


def wait_for(source: CardSource, kind: type[DeviceEvent], n: int = 1) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + 10
    while sum(isinstance(e, kind) for e in events) < n:
        assert time.monotonic() < deadline, [e.kind for e in events]
        event = source.next_event(0.2)
        if event is not None:
            events.append(event)
    return events


def shuffle_and_deal(source: CardSource, n: int) -> list[CardRead]:
    source.shuffle()
    wait_for(source, DeckShuffled)
    source.deal(n)
    return [e for e in wait_for(source, CardRead, n) if isinstance(e, CardRead)]


def listeners(port: int) -> set[str]:
    """Local addresses listening on TCP ``port`` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        addr, p = local.split(":")
        if int(p, 16) == port and state == "0A":
            found.add(addr)
    return found


def test_tcp_mode_binds_localhost_and_serves_reconnects() -> None:
    emulator = EmulatorProcess(FAST, tcp_port=0)
    try:
        url = emulator.start()
        assert url.startswith("socket://127.0.0.1:")
        port = int(url.rsplit(":", 1)[1])
        assert listeners(port) == {"0100007F"}  # 127.0.0.1 only
        for expected_first in (1, 4):  # the second connection continues the same deck
            source = open_source(url, pin_serial="EMU-0001")
            assert isinstance(source, TcrpDevice)
            source.open()
            try:
                if expected_first == 1:
                    cards = shuffle_and_deal(source, 3)
                else:
                    source.deal(2)
                    cards = [e for e in wait_for(source, CardRead, 2) if isinstance(e, CardRead)]
                assert cards[0].index == expected_first
            finally:
                source.close()
    finally:
        emulator.stop()
        emulator.stop()


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "ui.cli", "emulator", *args]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_cli_prints_pty_path_first_and_stops_on_signal(sig: signal.Signals, closer: Closer) -> None:
    proc = subprocess.Popen(cli_command("--pty", "--seed", "3"), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        assert path.startswith("/dev/pts/") and os.path.exists(path)
        source = closer.add(open_source(path))
        source.open()
        assert source.identity is not None and source.identity.model == "TCRP-EMU"
        source.close()
        proc.send_signal(sig)
        assert proc.wait(5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_bad_options_fail_fast() -> None:
    command = [sys.executable, "-m", "drivers.emulator", "--corrupt", "3"]
    proc = subprocess.run(command, capture_output=True, timeout=20)
    assert proc.returncode == 2 and b"--corrupt" in proc.stderr
    emulator = EmulatorProcess(["--fault-code", "NOPE"], stderr=subprocess.DEVNULL)
    with pytest.raises(DeviceError, match="exited"):
        emulator.start()
    assert emulator.pid is None


def test_emulator_url_source_owns_its_child(card_log: Path, closer: Closer) -> None:
    log = card_log
    source = open_source(
        f"emulator://?seed=4&card_interval=0.003&shuffle_time=0.05&dealt_log={log}",
        pin_model="TCRP-EMU",
        pin_serial="EMU-0001",
    )
    closer.add(source)
    assert isinstance(source, EmulatorSource) and source.name == "emulator"
    source.open()
    pid = source.emulator.pid
    assert pid is not None
    try:
        cards = shuffle_and_deal(source, 5)
        assert [c.index for c in cards] == [1, 2, 3, 4, 5]
        assert len(log.read_text().splitlines()) == 5
    finally:
        source.close()
        source.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped and reaped
    assert source.stats.frames_received > 0  # counters survive close


def test_emulator_url_pin_mismatch_stops_the_child() -> None:
    source = open_source("emulator://?seed=1&serial=EMU-0002", pin_serial="EMU-0001")
    assert isinstance(source, EmulatorSource)
    with pytest.raises(DeviceIdentityError):
        source.open()
    assert source.emulator.pid is None
    with pytest.raises(DeviceError, match="not open"):
        source.deal(1)


def test_factory_errors() -> None:
    with pytest.raises(DeviceError, match="unknown card source URL scheme 'ftp'"):
        open_source("ftp://example")
    with pytest.raises(DeviceError, match="VID:PID"):
        open_source("usb://nonsense")
    with pytest.raises(ConfigError, match="colour"):
        open_source("loop://", colour="red")
    with pytest.raises(ConfigError, match="hello_timeout"):
        open_source("loop://", hello_timeout="soon")
    with pytest.raises(ConfigError, match="baud"):
        open_source("loop://", baudrate=12345)
    with pytest.raises(DeviceError, match="unrecognized"):
        open_source("emulator://?nonsense=1")
    assert emulator_args("emulator://?seed=9&jam-at=4") == ["--seed", "9", "--jam-at", "4"]


def test_loopback_is_not_a_device() -> None:
    # loop:// echoes our own frames: the handshake must fail, not mistake us for a device
    source = open_source("loop://", hello_timeout=0.5, name="loop")
    t0 = time.monotonic()
    with pytest.raises(ProtocolError):
        source.open()
    assert time.monotonic() - t0 < 3.0
