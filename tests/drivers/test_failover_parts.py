"""The failover chain's collaborators, each alone: the standby and the failback's timer, on
simulated USB readers (real TcrpDevice sessions over pyusb's code on a simulated bus)."""

from __future__ import annotations

import time

from dealer_assist.source import CardSource, LinkAware
from drivers.emulator.settings import EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.factory import open_source
from drivers.failover.standby import Standby
from drivers.failover.timer import RevivalTimer
from drivers.usbsim import SimUsbBackend, SimUsbDevice
from tests.conftest import close_at_teardown


def sim(serial: str) -> SimUsbDevice:
    config = EmulatorConfig(seed=3, shuffle_time=0.01, card_interval=0.004)
    return SimUsbDevice(EmulatedShuffler(config), serial=serial)


def usb(backend: SimUsbBackend, serial: str) -> CardSource:
    source = open_source(
        f"usb://1209:0001?serial={serial}", backend=backend, name=serial, reopen_interval=0.05
    )
    return close_at_teardown(source)


def wait_link_not_connected(source: CardSource, standby: Standby, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    assert isinstance(source, LinkAware)
    while source.link_status.state == "connected":
        assert time.monotonic() < deadline, "the unplugged reader's link stayed connected"
        standby.watch()  # its events go into the standby's health, as in the chain
        time.sleep(0.02)


def test_timer_schedules_only_with_an_interval() -> None:
    never = RevivalTimer(None)
    never.schedule()
    assert never.due_at == 0.0
    timer = RevivalTimer(30.0)
    before = time.monotonic()
    timer.schedule()
    assert before + 30.0 <= timer.due_at <= time.monotonic() + 30.0


def test_standby_that_fails_again_is_closed_and_the_timer_restarted() -> None:
    a = sim("A-1")
    source = usb(SimUsbBackend([a]), "A-1")
    timer = RevivalTimer(30.0)
    standby = Standby([source], "chain", timer)
    assert not standby.works()  # no standby yet
    source.open()
    standby.hold(0)
    assert standby.works() and standby.index == 0
    assert timer.due_at == 0.0

    a.unplug()
    wait_link_not_connected(source, standby)
    assert not standby.works()
    assert standby.index is None and not source.is_open  # type: ignore[attr-defined]
    assert timer.due_at > time.monotonic() + 25.0  # tried again one interval later


def test_standby_settles_when_the_active_source_changes() -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    sources = [usb(backend, "A-1"), usb(backend, "B-1")]
    standby = Standby(sources, "chain", RevivalTimer(30.0))
    for source in sources:
        source.open()

    standby.hold(1)  # the chain moved up to sources[0]: a standby below it is closed
    assert standby.settle(0) is None
    assert standby.index is None and not sources[1].is_open  # type: ignore[attr-defined]

    standby.hold(0)  # the standby became the active source: its health comes along
    health = standby.settle(0)
    assert health is not None and health.link_up and not health.identity_alarm
    assert standby.index is None and sources[0].is_open  # type: ignore[attr-defined]
    assert standby.take_over() is None  # nothing left to take over
