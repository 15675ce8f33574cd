"""The driver reconnects by itself with a capped backoff, the state is visible, and the table
refuses a new hand until the device is back ("Between hands")."""

from __future__ import annotations

import itertools
import socket
import time
from pathlib import Path

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceHello, LinkLost, LinkRestored
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.receive import backoff
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.serial_port import SerialTransport
from tests.conftest import close_at_teardown
from tests.core.test_misdeal import play

FAST = ["--shuffle-time", "0.01", "--card-interval", "0.001"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_backoff_doubles_to_its_cap_and_is_visible() -> None:
    timings = TcrpTimings(reopen_interval=0.1, reconnect_max=0.5)
    d = TcrpDevice(SerialTransport("loop://"), timings=timings)
    delays = [backoff(attempts, timings) for attempts in range(0, 8)]
    assert delays == [0.1, 0.1, 0.2, 0.4, 0.5, 0.5, 0.5, 0.5]
    assert d.link_status.state == "closed"


def test_device_gone_reconnects_by_itself_and_the_table_waits(tmp_path: Path) -> None:
    port = free_port()
    emu = close_at_teardown(EmulatorProcess([*FAST, "--seed", "1"], tcp_port=port))
    where = emu.start()
    config = load_table_config(game="uth")
    timings = {"reopen_interval": 0.1, "reconnect_max": 0.4, "heartbeat_timeout": 1.0}
    source = open_source(where, name="serial", **timings)
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    journal.open()
    seen = []
    try:
        source.open()
        runner = HeadlessTable(config, source, journal, card_timeout=2.0, on_event=seen.append)
        assert play(runner).phase is Phase.SETTLED
        emu.stop()  # the device goes away between hands
        attempts_at: list[tuple[float, int]] = []
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            runner.poll(0.02)
            status = runner.device_status
            if status.reconnect_attempts and (
                not attempts_at or attempts_at[-1][1] != status.reconnect_attempts
            ):
                attempts_at.append((time.monotonic(), status.reconnect_attempts))
                assert status.link == "reconnecting" and not status.ready
                assert status.next_attempt_in is not None and status.next_attempt_in <= 0.4
                assert status.last_error
        assert len(attempts_at) >= 5, attempts_at
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(attempts_at)]
        assert max(gaps) < 0.4 + 0.25 and gaps[-1] > 0.3, gaps  # doubled, then capped at 0.4
        assert not runner.device_ready
        with pytest.raises(DeviceError, match="not ready"):
            runner.new_hand()
        emu = EmulatorProcess([*FAST, "--seed", "2"], tcp_port=port)  # power back on
        assert emu.start() == where
        assert runner.wait_device_ready(5.0)
        assert runner.device_status.link == "connected"
        assert runner.device_status.reconnect_attempts == 0
        assert play(runner).phase is Phase.SETTLED  # the fresh device deals the next hand
        kinds = [type(e) for e in seen]
        back = kinds.index(LinkRestored)
        assert LinkLost in kinds[:back] and DeviceHello in kinds[back:]  # identity checked again
        assert journal.count() == 2 and journal.verify().ok
    finally:
        source.close()
        journal.close()
        emu.stop()


def test_silent_device_is_probed_then_back() -> None:
    emu = close_at_teardown(
        EmulatorProcess([*FAST, "--silence-after", "6", "--silence-for", "2.5"])
    )
    where = emu.start()
    device = TcrpDevice(
        SerialTransport(where),
        timings=TcrpTimings(heartbeat_timeout=0.5, reopen_interval=0.2, reconnect_max=0.8),
    )
    try:
        device.open()
        states = set()
        deadline = time.monotonic() + 6.0
        while time.monotonic() < deadline:
            status = device.link_status
            states.add(status.state)
            if states & {"lost", "reconnecting"} and status.state == "connected":
                break
            time.sleep(0.02)
        assert {"connected"} < states and states & {"lost", "reconnecting"}, states
        assert device.link_status.state == "connected"
        device.shuffle()  # commands work again
    finally:
        device.close()
        emu.stop()
