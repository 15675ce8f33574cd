"""USB transport: TCRP/1 bytes over a vendor interface's bulk endpoints, on pyusb.

DEVICE_PROTOCOL.md, "Transports": the same byte stream as on a serial line, over a vendor-specific
interface (class 0xFF) with one bulk IN and one bulk OUT endpoint of 64-byte packets; a frame may
span packets and a packet may hold several frames (the frame parser above reassembles them).
The device is found by VID:PID and, when given, its iSerial string.

The pyusb backend is injectable; by default it is the libusb 1.0 that the ``libusb-package`` wheel
installs beside pyusb (Linux, Windows, macOS), falling back to a system libusb. pyusb errors become
:class:`~dealer_assist.errors.TransportError` with a message that says what to do: no such device,
permission denied (install ``config/udev/99-dealer-assist.rules`` on Linux, the WinUSB driver on
Windows), busy (another program holds the interface), unplugged.
"""

from __future__ import annotations

import errno
import logging
import math
import sys
import threading
from importlib import resources
from typing import Any

import usb.core
import usb.util

from dealer_assist.errors import TransportError, WriteTimeoutError

log = logging.getLogger(__name__)

VENDOR_CLASS = 0xFF
UDEV_RULES = "config/udev/99-dealer-assist.rules"
_MAX_TRANSFER = 4096
_ACCESS = (errno.EACCES, errno.EPERM)
_GONE = (errno.ENODEV, errno.EIO, errno.EPIPE, errno.ESHUTDOWN)


def default_backend() -> Any:
    """pyusb's libusb 1.0 backend on the libusb shipped by ``libusb-package`` (else the system's).

    Raises:
        TransportError: no libusb could be loaded.
    """
    backend: Any = None
    try:
        import libusb_package

        backend = libusb_package.get_libusb1_backend()
    except ImportError:
        log.info("libusb-package is not installed; trying the system libusb")
    if backend is None:
        import usb.backend.libusb1

        backend = usb.backend.libusb1.get_backend()
    if backend is None:
        raise TransportError(
            "no libusb 1.0 found for USB card readers: pip install 'dealer-assist[usb]' "
            "(libusb-package ships it for Linux, Windows and macOS)"
        )
    return backend


def udev_rules_path() -> str:
    """Where the shipped udev rules file is (installed package data, else the source tree)."""
    try:
        path = resources.files("config").joinpath("udev/99-dealer-assist.rules")
        if path.is_file():
            return str(path)
    except (ModuleNotFoundError, OSError):
        pass
    return UDEV_RULES


def permission_hint() -> str:
    """What to do about "access denied" on this platform."""
    if sys.platform == "win32":
        return (
            "install the WinUSB driver for the reader's vendor interface (e.g. with Zadig), "
            "then replug it; see docs/USB.md"
        )
    return (
        f"install the udev rules shipped in {udev_rules_path()}: copy the file to "
        "/etc/udev/rules.d/, run 'sudo udevadm control --reload-rules && sudo udevadm trigger', "
        "add the console user to the 'plugdev' group, and replug the reader (docs/USB.md)"
    )


def parse_vid_pid(text: str) -> tuple[int, int]:
    """``"1209:0001"`` -> ``(0x1209, 0x0001)`` (hexadecimal, 1-4 digits each).

    Raises:
        TransportError: not two hexadecimal 16-bit numbers separated by a colon.
    """
    vid_text, sep, pid_text = text.partition(":")
    try:
        if not sep or not vid_text or not pid_text or len(vid_text) > 4 or len(pid_text) > 4:
            raise ValueError(text)
        return int(vid_text, 16), int(pid_text, 16)
    except ValueError as e:
        raise TransportError(
            f"USB id must be VID:PID in hexadecimal, e.g. 1209:0001, not {text!r}"
        ) from e


class UsbTransport:
    """A TCRP/1 USB device as a :class:`~drivers.transport.base.Transport`.

    Args:
        vid, pid: idVendor / idProduct.
        serial: the iSerial string to pick one reader among several (None = the first found).
        interface: bInterfaceNumber of the vendor interface (None = the first of class 0xFF).
        backend: a pyusb backend (None = :func:`default_backend`).
        write_timeout: seconds a write may take (finite).

    open() finds the device, selects its configuration only when needed (re-selecting resets some
    devices), detaches a kernel driver if one holds the interface (Linux), claims the interface and
    locates the bulk endpoints. read() asks for whole packets (no overflow) and keeps what the
    caller did not take. One thread may read while another writes.

    Raises:
        TransportError: everywhere a USB operation fails; the message names the device and the
            remedy, the pyusb error is chained.
    """

    def __init__(
        self,
        vid: int,
        pid: int,
        *,
        serial: str | None = None,
        interface: int | None = None,
        backend: Any = None,
        write_timeout: float = 1.0,
    ) -> None:
        if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
            raise TransportError(f"USB VID/PID out of range: {vid:#x}:{pid:#x}")
        if interface is not None and not 0 <= interface <= 255:
            raise TransportError(f"USB interface number must be 0..255, got {interface}")
        if not 0 < write_timeout < 60:
            raise TransportError(f"write timeout must be finite and positive: {write_timeout}")
        self.vid = vid
        self.pid = pid
        self.serial = serial
        self.interface = interface
        self._backend = backend
        self._write_timeout = write_timeout
        self._lock = threading.Lock()  # open/close
        self._dev: Any = None
        self._intf_number = -1
        self._ep_in = 0
        self._ep_out = 0
        self._packet = 64
        self._rx = bytearray()

    @property
    def url(self) -> str:
        """``usb://VID:PID[?serial=S&interface=N]``."""
        query = [f"serial={self.serial}"] if self.serial is not None else []
        if self.interface is not None:
            query.append(f"interface={self.interface}")
        return f"usb://{self.vid:04x}:{self.pid:04x}" + ("?" + "&".join(query) if query else "")

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""
        return self._dev is not None

    @property
    def packet_size(self) -> int:
        """wMaxPacketSize of the bulk IN endpoint (64 for TCRP/1) once open."""
        return self._packet

    def _name(self) -> str:
        serial = f" serial {self.serial!r}" if self.serial is not None else ""
        return f"USB device {self.vid:04x}:{self.pid:04x}{serial}"

    # -- open / close ------------------------------------------------------------------------

    def open(self) -> None:
        """Find, configure and claim the reader. No-op when open. Raises TransportError."""
        with self._lock:
            if self._dev is not None:
                return
            backend = self._backend if self._backend is not None else default_backend()
            dev = self._find(backend)
            try:
                self._claim(dev)
            except BaseException:
                _dispose(dev)
                raise
            self._rx.clear()
            self._dev = dev

    def close(self) -> None:
        """Release the interface and the device handle; safe to call twice, never raises."""
        with self._lock:
            dev, self._dev = self._dev, None
        if dev is not None:
            try:
                usb.util.release_interface(dev, self._intf_number)
            except (usb.core.USBError, ValueError) as e:  # unplugged: nothing left to release
                log.debug("%s: release_interface: %s", self._name(), e)
            _dispose(dev)

    def _find(self, backend: Any) -> Any:
        try:
            found = list(
                usb.core.find(find_all=True, idVendor=self.vid, idProduct=self.pid, backend=backend)
            )
        except (usb.core.USBError, usb.core.NoBackendError) as e:
            raise TransportError(f"cannot list USB devices: {e}") from e
        if not found:
            raise TransportError(
                f"no {self._name()} is connected: check the cable and the VID:PID "
                "(lsusb on Linux, Device Manager on Windows)"
            )
        if self.serial is None:
            if len(found) > 1:
                log.warning(
                    "%d readers %04x:%04x found; using the first", len(found), self.vid, self.pid
                )
            return found[0]
        denied: BaseException | None = None
        others = []
        for dev in found:
            try:
                serial = dev.serial_number
            except usb.core.USBError as e:
                if e.errno in _ACCESS:
                    denied = e
                    continue
                raise _translate(e, self._name(), "reading the serial number of") from e
            except (ValueError, NotImplementedError) as e:  # strings unreadable: no access
                denied = e
                continue
            finally:
                _dispose(dev)
            if serial == self.serial:
                return dev
            others.append(repr(serial))
        if denied is not None:
            raise TransportError(
                f"permission denied reading the serial number of USB device "
                f"{self.vid:04x}:{self.pid:04x}: {permission_hint()}"
            ) from denied
        raise TransportError(f"no {self._name()} is connected (found serial {', '.join(others)})")

    def _claim(self, dev: Any) -> None:
        name = self._name()
        try:
            cfg = _active_configuration(dev)
            if cfg is None or _vendor_interface(cfg, self.interface) is None:
                dev.set_configuration()
                cfg = dev.get_active_configuration()
            intf = _vendor_interface(cfg, self.interface)
            if intf is None:
                raise TransportError(self._no_interface(cfg))
            number = intf.bInterfaceNumber
            try:
                if dev.is_kernel_driver_active(number):
                    dev.detach_kernel_driver(number)
            except NotImplementedError:  # Windows and macOS backends: no kernel drivers to detach
                pass
            usb.util.claim_interface(dev, number)
        except usb.core.USBError as e:
            raise _translate(e, name, "opening") from e
        except NotImplementedError as e:  # LIBUSB_ERROR_NOT_SUPPORTED: Windows without WinUSB
            raise TransportError(
                f"{name} cannot be opened through libusb ({e}): {permission_hint()}"
            ) from e
        ep_in = _bulk_endpoint(intf, usb.util.ENDPOINT_IN)
        ep_out = _bulk_endpoint(intf, usb.util.ENDPOINT_OUT)
        if ep_in is None or ep_out is None:
            raise TransportError(
                f"{name}: interface {number} has no bulk IN and OUT endpoints: not a TCRP/1 reader"
            )
        self._intf_number = number
        self._ep_in = ep_in.bEndpointAddress
        self._ep_out = ep_out.bEndpointAddress
        self._packet = int(ep_in.wMaxPacketSize) or 64

    def _no_interface(self, cfg: Any) -> str:
        classes = ", ".join(f"{i.bInterfaceNumber}: class {i.bInterfaceClass:#04x}" for i in cfg)
        if self.interface is not None:
            return (
                f"{self._name()}: interface {self.interface} is not a vendor-specific (0xFF) "
                f"interface (interfaces {classes})"
            )
        return f"{self._name()}: no vendor-specific (0xFF) interface (interfaces {classes})"

    # -- I/O ---------------------------------------------------------------------------------

    def _require(self) -> Any:
        dev = self._dev
        if dev is None:
            raise TransportError(f"{self.url} is not open")
        return dev

    def read(self, max_bytes: int, timeout: float) -> bytes:
        """Up to ``max_bytes`` bytes, returning as soon as a transfer brought some, or b"" after
        ``timeout`` seconds (finite; at least 1 ms, since 0 means "for ever" to libusb).

        Raises:
            TransportError: not open, unplugged, or another USB failure.
        """
        if not 0 <= timeout < 3600 or math.isnan(timeout):
            raise TransportError(f"read timeout must be finite: {timeout}")
        if max_bytes < 1:
            return b""
        if not self._rx:
            dev = self._require()
            packets = min(
                max(1, math.ceil(max_bytes / self._packet)), _MAX_TRANSFER // self._packet
            )
            ms = max(1, math.ceil(timeout * 1000))
            try:
                data = dev.read(self._ep_in, packets * self._packet, ms)
            except usb.core.USBTimeoutError:
                return b""
            except usb.core.USBError as e:
                raise _translate(e, self._name(), "reading from") from e
            except (ValueError, AttributeError, TypeError) as e:  # closed under the reader
                raise TransportError(f"read from {self.url} failed: {e}") from e
            self._rx += bytes(data)
        out = bytes(self._rx[:max_bytes])
        del self._rx[:max_bytes]
        return out

    def write(self, data: bytes) -> None:
        """Send all of ``data`` within the write timeout. Raises WriteTimeoutError when the
        timeout passed, TransportError for any other failure."""
        dev = self._require()
        ms = max(1, math.ceil(self._write_timeout * 1000))
        try:
            written = dev.write(self._ep_out, data, ms)
        except usb.core.USBTimeoutError as e:
            raise WriteTimeoutError(
                f"write to {self._name()} timed out after {self._write_timeout:g} s"
            ) from e
        except usb.core.USBError as e:
            raise _translate(e, self._name(), "writing to") from e
        except (ValueError, AttributeError, TypeError) as e:
            raise TransportError(f"write to {self.url} failed: {e}") from e
        if written != len(data):
            raise TransportError(f"write to {self._name()} sent {written} of {len(data)} bytes")


def _translate(e: usb.core.USBError, name: str, action: str) -> TransportError:
    """A TransportError with the remedy for a pyusb error (raise it ``from e``)."""
    code = e.errno
    if code in _ACCESS:
        return TransportError(f"permission denied {action} {name}: {permission_hint()}")
    if code == errno.EBUSY:
        return TransportError(
            f"{name} is busy: another program (or another dealer-assist) holds its interface; "
            "close it, or unplug and replug the reader"
        )
    if code in _GONE:
        return TransportError(f"{name} was unplugged or stopped responding ({action} it: {e})")
    return TransportError(f"USB error {action} {name}: {e}")


def _active_configuration(dev: Any) -> Any:
    """The active configuration, or None when the device is unconfigured."""
    try:
        return dev.get_active_configuration()
    except usb.core.USBError as e:
        if e.errno is None:  # pyusb: "Configuration not set"
            return None
        raise


def _vendor_interface(cfg: Any, number: int | None) -> Any:
    if number is None:
        return usb.util.find_descriptor(cfg, bInterfaceClass=VENDOR_CLASS)
    return usb.util.find_descriptor(cfg, bInterfaceNumber=number, bInterfaceClass=VENDOR_CLASS)


def _bulk_endpoint(intf: Any, direction: int) -> Any:
    return usb.util.find_descriptor(
        intf,
        custom_match=lambda ep: (
            usb.util.endpoint_direction(ep.bEndpointAddress) == direction
            and usb.util.endpoint_type(ep.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK
        ),
    )


def _dispose(dev: Any) -> None:
    try:
        usb.util.dispose_resources(dev)
    except usb.core.USBError as e:
        log.debug("dispose_resources: %s", e)
