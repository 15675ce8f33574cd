"""The simulated USB card reader: descriptors, plug state, claims and the firmware's packet pipes.

Shape (DEVICE_PROTOCOL.md, "Transports"): one configuration (value 1) with a vendor-specific
interface (class 0xFF) holding one bulk IN (0x81) and one bulk OUT (0x01) endpoint of 64-byte
packets; iSerial names the unit. Optionally a HID-like interface comes first, so the vendor
interface is number 1 (to exercise ``?interface=N``).

The firmware is an :class:`~drivers.emulator.shuffler.EmulatedShuffler` driven by the wall clock
whenever the host touches the device. Its frames go into one byte stream that leaves in 64-byte
packets, so a frame may span packets and a packet may hold several frames; host OUT transfers are
fed to it packet by packet. Unplugging invalidates every handle (ENODEV) and replugging is a new
attachment on a new address with the firmware powered up again (HELLO with seq 0), as on a real
bus.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from drivers.emulator.shuffler import EmulatedShuffler

PACKET_SIZE = 64
VENDOR_CLASS = 0xFF
EP_IN = 0x81
EP_OUT = 0x01
_MAX_BACKLOG = 64 * 1024  # bytes the firmware keeps for a host that does not read
_LOG_PACKETS = 4096


@dataclass
class DeviceDescriptor:
    """The standard device descriptor plus the bus fields libusb adds (pyusb reads them all)."""

    idVendor: int
    idProduct: int
    iManufacturer: int = 1
    iProduct: int = 2
    iSerialNumber: int = 3
    bLength: int = 18
    bDescriptorType: int = 1
    bcdUSB: int = 0x0200
    bDeviceClass: int = 0
    bDeviceSubClass: int = 0
    bDeviceProtocol: int = 0
    bMaxPacketSize0: int = 64
    bcdDevice: int = 0x0100
    bNumConfigurations: int = 1
    bus: int | None = 1
    address: int | None = 1
    port_number: int | None = 1
    port_numbers: tuple[int, ...] | None = (1,)
    speed: int | None = 2  # libusb_speed: full speed, 64-byte bulk packets


@dataclass
class EndpointDescriptor:
    """A standard endpoint descriptor (bmAttributes 2 = bulk)."""

    bEndpointAddress: int
    bmAttributes: int = 2
    wMaxPacketSize: int = PACKET_SIZE
    bInterval: int = 0
    bLength: int = 7
    bDescriptorType: int = 5
    bRefresh: int = 0
    bSynchAddress: int = 0
    extra_descriptors: list[int] = field(default_factory=list)


@dataclass
class InterfaceDescriptor:
    """A standard interface descriptor with its endpoints."""

    bInterfaceNumber: int
    bInterfaceClass: int
    endpoints: list[EndpointDescriptor]
    iInterface: int = 0
    bAlternateSetting: int = 0
    bInterfaceSubClass: int = 0
    bInterfaceProtocol: int = 0
    bLength: int = 9
    bDescriptorType: int = 4
    extra_descriptors: list[int] = field(default_factory=list)

    @property
    def bNumEndpoints(self) -> int:
        """Number of endpoints (endpoint 0 excluded)."""
        return len(self.endpoints)


@dataclass
class ConfigDescriptor:
    """A standard configuration descriptor with its interfaces."""

    interfaces: list[InterfaceDescriptor]
    bConfigurationValue: int = 1
    iConfiguration: int = 0
    bmAttributes: int = 0x80
    bMaxPower: int = 50
    bLength: int = 9
    bDescriptorType: int = 2
    extra_descriptors: list[int] = field(default_factory=list)

    @property
    def bNumInterfaces(self) -> int:
        """Number of interfaces."""
        return len(self.interfaces)

    @property
    def wTotalLength(self) -> int:
        """Bytes of the whole configuration as a device would send it."""
        return self.bLength + sum(i.bLength + 7 * len(i.endpoints) for i in self.interfaces)


class SimUsbDevice:
    """One simulated TCRP/1 USB card reader.

    Args:
        firmware: the device's protocol state machine (powered up at every plug).
        vid, pid: idVendor / idProduct.
        serial: the iSerial string.
        product, manufacturer: the other string descriptors.
        hid_first: put a HID-like interface (number 0) before the vendor one (number 1).
        plugged: start attached to the bus.

    Attributes the tests switch: ``access_denied`` (open fails with EACCES, as libusb without
    udev rules), ``not_supported`` (open fails with LIBUSB_ERROR_NOT_SUPPORTED, as on Windows
    without WinUSB), ``kernel_driver`` (a kernel driver holds the vendor interface until
    detached).
    Logs of what crossed the bus: ``in_packets`` (device to host), ``out_packets``.
    """

    def __init__(
        self,
        firmware: EmulatedShuffler,
        *,
        vid: int = 0x1209,
        pid: int = 0x0001,
        serial: str = "SIM-0001",
        product: str = "TCRP/1 simulated card reader",
        manufacturer: str = "dealer-assist",
        hid_first: bool = False,
        plugged: bool = True,
    ) -> None:
        self.firmware = firmware
        self.strings = {1: manufacturer, 2: product, 3: serial, 4: "TCRP/1"}
        self.descriptor = DeviceDescriptor(idVendor=vid, idProduct=pid, address=0)
        vendor = InterfaceDescriptor(
            bInterfaceNumber=1 if hid_first else 0,
            bInterfaceClass=VENDOR_CLASS,
            endpoints=[EndpointDescriptor(EP_IN), EndpointDescriptor(EP_OUT)],
            iInterface=4,
        )
        interfaces = [vendor]
        if hid_first:
            hid = InterfaceDescriptor(
                bInterfaceNumber=0,
                bInterfaceClass=0x03,
                endpoints=[EndpointDescriptor(0x82, bmAttributes=3, wMaxPacketSize=8)],
            )
            interfaces.insert(0, hid)
        self.config = ConfigDescriptor(interfaces)
        self.access_denied = False
        self.not_supported = False
        self.kernel_driver = False
        self.in_packets: deque[bytes] = deque(maxlen=_LOG_PACKETS)
        self.out_packets: deque[bytes] = deque(maxlen=_LOG_PACKETS)
        self.cond = threading.Condition()
        self.generation = 0  # one per attachment: handles of an old one get ENODEV
        self.plugged = False
        self.configuration = 0
        self.claims: dict[int, object] = {}  # interface number -> handle that claimed it
        self._stream = bytearray()
        if plugged:
            self.plug()

    @property
    def serial(self) -> str:
        """The iSerial string."""
        return self.strings[3]

    # -- bus events --------------------------------------------------------------------------

    def plug(self) -> None:
        """Attach to the bus: a new address, unconfigured, firmware powered up (HELLO seq 0)."""
        with self.cond:
            if self.plugged:
                return
            self.generation += 1
            self.descriptor.address = (self.descriptor.address or 0) % 127 + 1
            self.plugged = True
            self.configuration = 0
            self.claims.clear()
            self._stream.clear()
            self._push(self.firmware.start(time.monotonic()))
            self.cond.notify_all()

    def unplug(self) -> None:
        """Detach: every handle of this attachment fails with ENODEV from now on."""
        with self.cond:
            self.plugged = False
            self.claims.clear()
            self._stream.clear()
            self.cond.notify_all()

    # -- firmware pipes (call with ``cond`` held) --------------------------------------------

    def _push(self, frames: list[bytes]) -> None:
        for raw in frames:
            self._stream += raw
        if len(self._stream) > _MAX_BACKLOG:  # nobody reads: the oldest bytes are lost
            del self._stream[: len(self._stream) - _MAX_BACKLOG]

    def run_firmware(self, now: float) -> None:
        """Let the firmware's timers run up to ``now`` (monotonic seconds)."""
        self._push(self.firmware.tick(now))

    def next_deadline(self) -> float:
        """When the firmware next has something to do (monotonic seconds)."""
        return self.firmware.next_deadline()

    def host_out(self, data: bytes, now: float) -> None:
        """An OUT transfer from the host, delivered to the firmware packet by packet."""
        for start in range(0, len(data), PACKET_SIZE):
            packet = data[start : start + PACKET_SIZE]
            self.out_packets.append(packet)
            self._push(self.firmware.receive(packet, now))
        self.cond.notify_all()

    def take_in_packets(self, size: int) -> bytes:
        """Up to ``size`` bytes as whole IN packets of 64 bytes; the transfer ends after a
        short packet, or when the firmware has nothing more (as with a zero-length packet).
        The caller checks for overflow first (``size`` below the next packet's length)."""
        out = bytearray()
        while self._stream and len(out) + min(PACKET_SIZE, len(self._stream)) <= size:
            packet = bytes(self._stream[:PACKET_SIZE])
            del self._stream[:PACKET_SIZE]
            self.in_packets.append(packet)
            out += packet
            if len(packet) < PACKET_SIZE:
                break
        return bytes(out)

    @property
    def pending_in(self) -> int:
        """Bytes the firmware has queued for the host."""
        return len(self._stream)
