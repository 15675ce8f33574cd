"""TCRP/1 over USB: UsbTransport and TcrpDevice on pyusb, with the simulated reader as pyusb's
backend (drivers.usbsim), so pyusb's own enumeration, configuration, claim and transfer code runs.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable

import pytest
import usb.core

from dealer_assist.errors import ConfigError, DeviceError, TransportError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceHello,
    LinkLost,
    LinkRestored,
)
from drivers.emulator.settings import EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.factory import open_source
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.frame import Frame, FrameParser, encode_frame
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.usb import UsbTransport, default_backend
from drivers.usbsim import PACKET_SIZE, SimUsbBackend, SimUsbDevice
from tests.conftest import Closer

FAST = TcrpTimings(reopen_interval=0.05, hello_timeout=2.0)


def sim_device(serial: str = "R-0001", card_interval: float = 0.001, **kw: object) -> SimUsbDevice:
    config = EmulatorConfig(seed=5, shuffle_time=0.01, card_interval=card_interval)
    return SimUsbDevice(EmulatedShuffler(config), serial=serial, **kw)  # type: ignore[arg-type]


@pytest.fixture
def closing(closer: Closer) -> Callable[[TcrpDevice | UsbTransport], object]:
    """closing(obj) closes obj at the end of the test (the shared closer)."""
    return closer.add


def collect(
    device: TcrpDevice, until: Callable[[list[DeviceEvent]], bool], timeout: float = 5.0
) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + timeout
    while not until(events):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; events so far: {[type(e).__name__ for e in events]}"
        event = device.next_event(min(left, 0.2))
        if event is not None:
            events.append(event)
    return events


def deal_cards(device: TcrpDevice, n: int) -> list[CardRead]:
    device.shuffle()
    collect(device, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
    device.deal(n)
    events = collect(device, lambda ev: sum(isinstance(e, CardRead) for e in ev) >= n)
    return [e for e in events if isinstance(e, CardRead)]


def test_handshake_and_full_deck_over_simulated_usb(closing: Callable[..., None]) -> None:
    sim = sim_device(serial="R-7")
    source = open_source(
        "usb://1209:0001?serial=R-7", backend=SimUsbBackend([sim]), name="usb", hello_timeout=2.0
    )
    assert isinstance(source, TcrpDevice)
    closing(source)
    source.open()
    assert source.identity is not None and source.identity.model == "TCRP-EMU"
    cards = deal_cards(source, 52)
    assert [c.index for c in cards] == list(range(1, 53))
    assert len({c.card for c in cards}) == 52 and all(c.card is not None for c in cards)
    assert {c.source for c in cards} == {"usb"}
    assert source.stats.frames_dropped == 0 and source.stats.duplicates == 0
    # the bytes really crossed the bus in 64-byte packets, frames spanning packet boundaries
    packets = list(sim.in_packets)
    assert packets and all(1 <= len(p) <= PACKET_SIZE for p in packets)
    assert any(len(p) == PACKET_SIZE and not p.endswith(b"\r\n") for p in packets)
    assert any(p.count(b"$") >= 2 for p in packets)
    assert all(len(p) <= PACKET_SIZE for p in sim.out_packets)
    assert sim.claims and sim.configuration == 1


def test_frames_spanning_packets_reassemble(closing: Callable[..., None]) -> None:
    sim = sim_device()
    transport = UsbTransport(0x1209, 0x0001, backend=SimUsbBackend([sim]))
    closing(transport)
    transport.open()
    assert transport.is_open and transport.packet_size == PACKET_SIZE
    # one host write of five frames (> 64 bytes) leaves as two OUT packets, all understood
    types = ["HELLO", "STATUS", "SHUFFLE", "STATUS", "STATUS"]
    data = b"".join(encode_frame(seq, t) for seq, t in enumerate(types))
    transport.write(data)
    assert len(data) > PACKET_SIZE
    assert [len(p) for p in sim.out_packets] == [PACKET_SIZE, len(data) - PACKET_SIZE]
    parser = FrameParser()
    frames: list[Frame] = []
    deadline = time.monotonic() + 3
    raw = bytearray()
    while time.monotonic() < deadline and not any(f.type == "SHUFFLED" for f in frames):
        chunk = transport.read(7, 0.05)  # smaller than a packet: the rest is kept for later
        assert len(chunk) <= 7
        raw += chunk
        frames += parser.feed(chunk)
    assert parser.dropped == 0
    assert b"".join(sim.in_packets).startswith(bytes(raw))
    acked = sorted(int(f.fields[0]) for f in frames if f.type == "ACK")
    assert acked == [0, 1, 2, 3, 4]
    assert [f.type for f in frames][:2] == ["HELLO", "STATE"]  # power-up frames, seq 0 and 1
    boundaries = 0
    offset = 0
    for packet in sim.in_packets:
        offset += len(packet)
        boundaries += offset < len(raw) and raw[offset - 1 : offset] != b"\n"
    assert boundaries >= 1  # some frame was cut by a packet boundary and still parsed


def test_unplug_mid_deal_is_link_lost_and_replug_reconnects(
    closing: Callable[..., None],
) -> None:
    sim = sim_device(card_interval=0.03)  # slow enough to unplug in the middle
    device = TcrpDevice(
        UsbTransport(0x1209, 0x0001, backend=SimUsbBackend([sim])), name="usb", timings=FAST
    )
    closing(device)
    device.open()
    device.shuffle()
    collect(device, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
    device.deal(20)
    events = collect(device, lambda ev: sum(isinstance(e, CardRead) for e in ev) >= 3)
    sim.unplug()
    events += collect(device, lambda ev: any(isinstance(e, LinkLost) for e in ev))
    lost = next(e for e in events if isinstance(e, LinkLost))
    assert "unplugged" in lost.reason
    assert sum(isinstance(e, CardRead) for e in events) < 20
    time.sleep(0.2)  # reopen attempts fail while it is away
    sim.plug()
    back = collect(
        device,
        lambda ev: (
            any(isinstance(e, LinkRestored) for e in ev)
            and any(isinstance(e, DeviceHello) for e in ev)
        ),
    )
    hello = next(e for e in back if isinstance(e, DeviceHello))
    assert hello.restarted  # the firmware powered up again: HELLO with seq 0
    assert len(deal_cards(device, 5)) == 5


def test_read_after_unplug_raises_transport_error(closing: Callable[..., None]) -> None:
    sim = sim_device()
    transport = UsbTransport(0x1209, 0x0001, backend=SimUsbBackend([sim]))
    closing(transport)
    transport.open()
    sim.unplug()
    with pytest.raises(TransportError, match="unplugged") as info:
        transport.read(64, 0.05)
    assert isinstance(info.value.__cause__, usb.core.USBError)
    assert info.value.__cause__.errno == errno.ENODEV
    with pytest.raises(TransportError, match="unplugged"):
        transport.write(b"$0,STATUS*0000\r\n")
    transport.close()
    transport.close()  # idempotent, even for a vanished device
    with pytest.raises(TransportError, match="not open"):
        transport.read(64, 0.01)


def test_no_device_is_a_clear_error() -> None:
    transport = UsbTransport(0x1209, 0x0001, backend=SimUsbBackend([]))
    with pytest.raises(TransportError, match=r"no USB device 1209:0001 is connected"):
        transport.open()
    assert not transport.is_open
    device = open_source("usb://1209:0001", backend=SimUsbBackend([sim_device(plugged=False)]))
    with pytest.raises(TransportError, match="is connected"):
        device.open()


def test_wrong_serial_lists_the_serials_found() -> None:
    backend = SimUsbBackend([sim_device("A-1"), sim_device("B-2")])
    transport = UsbTransport(0x1209, 0x0001, serial="C-3", backend=backend)
    with pytest.raises(TransportError, match=r"serial 'C-3'.*'A-1', 'B-2'"):
        transport.open()
    right = UsbTransport(0x1209, 0x0001, serial="B-2", backend=backend)
    right.open()
    try:
        assert backend.devices[1].claims and not backend.devices[0].claims
    finally:
        right.close()


@pytest.mark.parametrize("serial", [None, "R-0001"])
def test_permission_denied_points_to_the_udev_rules(serial: str | None) -> None:
    sim = sim_device()
    sim.access_denied = True  # libusb_open -> LIBUSB_ERROR_ACCESS (errno 13)
    transport = UsbTransport(0x1209, 0x0001, serial=serial, backend=SimUsbBackend([sim]))
    with pytest.raises(TransportError, match="permission denied") as info:
        transport.open()
    assert "99-dealer-assist.rules" in str(info.value)
    cause = info.value.__cause__
    assert cause is not None
    if serial is None:
        assert isinstance(cause, usb.core.USBError) and cause.errno == errno.EACCES
    assert not transport.is_open


@pytest.mark.parametrize("serial", [None, "R-0001"])
def test_driver_without_libusb_access_is_a_clear_error(serial: str | None) -> None:
    sim = sim_device()
    sim.not_supported = True  # Windows: the interface is not bound to WinUSB
    transport = UsbTransport(0x1209, 0x0001, serial=serial, backend=SimUsbBackend([sim]))
    with pytest.raises(TransportError, match="1209:0001") as info:
        transport.open()
    assert "udev" in str(info.value) or "WinUSB" in str(info.value)
    assert isinstance(info.value.__cause__, NotImplementedError | ValueError)


def test_busy_interface_is_a_clear_error(closing: Callable[..., None]) -> None:
    backend = SimUsbBackend([sim_device()])
    first = UsbTransport(0x1209, 0x0001, backend=backend)
    closing(first)
    first.open()
    second = UsbTransport(0x1209, 0x0001, backend=backend)
    with pytest.raises(TransportError, match="busy") as info:
        second.open()
    cause = info.value.__cause__
    assert isinstance(cause, usb.core.USBError) and cause.errno == errno.EBUSY
    first.close()
    second.open()  # free again once the other holder let go
    closing(second)


def test_kernel_driver_is_detached(closing: Callable[..., None]) -> None:
    sim = sim_device()
    sim.kernel_driver = True
    transport = UsbTransport(0x1209, 0x0001, backend=SimUsbBackend([sim]))
    closing(transport)
    transport.open()
    assert not sim.kernel_driver and sim.claims


def test_interface_selection(closing: Callable[..., None]) -> None:
    backend = SimUsbBackend([sim_device(hid_first=True)])
    found = UsbTransport(0x1209, 0x0001, backend=backend)
    closing(found)
    found.open()
    assert list(backend.devices[0].claims) == [1]  # the vendor interface, not the HID one
    found.close()
    with pytest.raises(TransportError, match="interface 0 is not a vendor-specific"):
        UsbTransport(0x1209, 0x0001, interface=0, backend=backend).open()
    device = open_source("usb://1209:0001?interface=1", backend=backend)
    assert isinstance(device, TcrpDevice)
    closing(device)
    device.open()
    assert device.identity is not None


@pytest.mark.parametrize(
    ("url", "opts", "error", "text"),
    [
        ("usb://12G9:0001", {}, DeviceError, "hexadecimal"),
        ("usb://1209", {}, DeviceError, "VID:PID"),
        ("usb://1209:0001?speed=9", {}, DeviceError, "speed"),
        ("usb://1209:0001?interface=x", {}, ConfigError, "interface"),
        ("usb://1209:0001", {"baudrate": 9600}, ConfigError, "baudrate"),
        ("usb://1209:0001", {"write_timeout": 0}, ConfigError, "write timeout"),
    ],
)
def test_bad_usb_urls_and_options(
    url: str, opts: dict[str, float], error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=text):
        open_source(url, backend=SimUsbBackend([]), **opts)


def test_default_backend_is_libusb_package() -> None:
    import libusb_package

    backend = default_backend()
    assert backend is libusb_package.get_libusb1_backend()
    # the real libusb, enumerating this machine's bus: this id is not on it
    with pytest.raises(TransportError, match="no USB device 1209:fffe"):
        UsbTransport(0x1209, 0xFFFE).open()
