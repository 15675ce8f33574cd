"""A pyusb backend (``usb.backend.IBackend``) serving :class:`SimUsbDevice` objects.

It behaves like pyusb's libusb1 backend where the driver can tell: the same method signatures,
``USBError`` with libusb's messages, codes and errno values (EACCES on open without permission,
EBUSY on a claimed interface, ENODEV after unplug, ETIMEDOUT as ``USBTimeoutError``, EOVERFLOW),
timeouts in milliseconds with 0 meaning "wait for ever", and string descriptors read through
GET_DESCRIPTOR control transfers. The firmware runs on the wall clock while a transfer waits.
"""

from __future__ import annotations

import array
import errno
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import usb.backend
import usb.core

from drivers.usbsim.device import (
    PACKET_SIZE,
    ConfigDescriptor,
    DeviceDescriptor,
    EndpointDescriptor,
    InterfaceDescriptor,
    SimUsbDevice,
)

# libusb error codes and texts (libusb.h / pyusb's libusb1 backend)
_ERRORS = {
    errno.EIO: (-1, "Input/output error"),
    errno.EINVAL: (-2, "Invalid parameter"),
    errno.EACCES: (-3, "Access denied (insufficient permissions)"),
    errno.ENODEV: (-4, "No such device (it may have been disconnected)"),
    errno.ENOENT: (-5, "Entity not found"),
    errno.EBUSY: (-6, "Resource busy"),
    errno.ETIMEDOUT: (-7, "Operation timed out"),
    errno.EOVERFLOW: (-8, "Overflow"),
    errno.EPIPE: (-9, "Pipe error"),
}
_GET_DESCRIPTOR = 0x06
_DESC_STRING = 3
_LANGID_EN_US = 0x0409


def usb_error(code: int) -> usb.core.USBError:
    """The USBError libusb1 would raise for ``code`` (an errno value)."""
    backend_code, text = _ERRORS[code]
    if code == errno.ETIMEDOUT:
        return usb.core.USBTimeoutError(text, backend_code, code)
    return usb.core.USBError(text, backend_code, code)


@dataclass(frozen=True)
class _Attachment:
    """The backend's device id: one device during one attachment (libusb_device)."""

    device: SimUsbDevice
    generation: int


@dataclass(frozen=True, eq=False)
class _Handle:
    """An open device handle (libusb_device_handle); each open is a distinct handle."""

    att: _Attachment


class SimUsbBackend(usb.backend.IBackend):  # type: ignore[misc]  # pyusb is untyped
    """pyusb backend over simulated devices. Pass it as ``backend=`` to pyusb or to
    :class:`~drivers.transport.usb.UsbTransport`.

    Args:
        devices: the devices on the simulated bus (more with :meth:`add`).
    """

    def __init__(self, devices: Iterable[SimUsbDevice] = ()) -> None:
        super().__init__()
        self.devices: list[SimUsbDevice] = list(devices)

    def add(self, device: SimUsbDevice) -> SimUsbDevice:
        """Put ``device`` on the bus (it is plugged or not as it says) and return it."""
        self.devices.append(device)
        return device

    # -- enumeration and descriptors ---------------------------------------------------------

    def enumerate_devices(self) -> Iterator[_Attachment]:
        """The attached devices."""
        found = []
        for device in list(self.devices):
            with device.cond:
                if device.plugged:
                    found.append(_Attachment(device, device.generation))
        yield from found

    def get_parent(self, dev: _Attachment) -> None:
        """Root hub devices are not simulated."""
        return None

    def get_device_descriptor(self, dev: _Attachment) -> DeviceDescriptor:
        """The device descriptor (cached by the host: readable after unplug, like libusb)."""
        return dev.device.descriptor

    def get_configuration_descriptor(self, dev: _Attachment, config: int) -> ConfigDescriptor:
        """Configuration by logical index (only 0 exists)."""
        if config != 0:
            raise usb_error(errno.ENOENT)
        return dev.device.config

    def get_interface_descriptor(
        self, dev: _Attachment, intf: int, alt: int, config: int
    ) -> InterfaceDescriptor:
        """Interface by logical index; one alternate setting each."""
        cfg = self.get_configuration_descriptor(dev, config)
        if intf >= cfg.bNumInterfaces:
            raise IndexError(f"Invalid interface index {intf}")
        if alt != 0:
            raise IndexError(f"Invalid alternate setting index {alt}")
        return cfg.interfaces[intf]

    def get_endpoint_descriptor(
        self, dev: _Attachment, ep: int, intf: int, alt: int, config: int
    ) -> EndpointDescriptor:
        """Endpoint by logical index."""
        i = self.get_interface_descriptor(dev, intf, alt, config)
        if ep >= i.bNumEndpoints:
            raise IndexError(f"Invalid endpoint index {ep}")
        return i.endpoints[ep]

    # -- handles -----------------------------------------------------------------------------

    def open_device(self, dev: _Attachment) -> _Handle:
        """libusb_open: ENODEV when detached, EACCES when access is denied,
        NotImplementedError when the OS driver does not allow libusb (Windows without WinUSB)."""
        device = dev.device
        with device.cond:
            self._check_attached(dev)
            if device.access_denied:
                raise usb_error(errno.EACCES)
            if device.not_supported:  # pyusb turns LIBUSB_ERROR_NOT_SUPPORTED into this
                raise NotImplementedError(
                    "Operation not supported or unimplemented on this platform"
                )
        return _Handle(dev)

    def close_device(self, dev_handle: _Handle) -> None:
        """libusb_close: drops the handle's claims; never fails."""
        device = dev_handle.att.device
        with device.cond:
            for number, owner in list(device.claims.items()):
                if owner == dev_handle:
                    del device.claims[number]

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        """libusb_set_configuration: EBUSY while another handle holds an interface."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            if config_value not in (0, device.config.bConfigurationValue):
                raise usb_error(errno.ENOENT)
            if any(owner != dev_handle for owner in device.claims.values()):
                raise usb_error(errno.EBUSY)
            device.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        """The active bConfigurationValue (0 = unconfigured)."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            return device.configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        """Only alternate setting 0 exists."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            self._interface(device, intf)
            if altsetting != 0:
                raise usb_error(errno.ENOENT)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        """libusb_claim_interface: ENOENT unconfigured/unknown, EBUSY claimed elsewhere or by a
        kernel driver."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            self._interface(device, intf)
            owner = device.claims.get(intf)
            if owner is not None and owner != dev_handle:
                raise usb_error(errno.EBUSY)
            if device.kernel_driver and self._is_vendor(device, intf):
                raise usb_error(errno.EBUSY)
            device.claims[intf] = dev_handle

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        """libusb_release_interface: ENODEV after unplug, ENOENT when not claimed."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            if device.claims.get(intf) != dev_handle:
                raise usb_error(errno.ENOENT)
            del device.claims[intf]

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        """True while the simulated kernel driver holds the vendor interface."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            return device.kernel_driver and self._is_vendor(device, intf)

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        """Detach the simulated kernel driver."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            if not (device.kernel_driver and self._is_vendor(device, intf)):
                raise usb_error(errno.ENOENT)
            device.kernel_driver = False

    def attach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        """Give the vendor interface back to the simulated kernel driver."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            device.kernel_driver = True

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        """Endpoints never halt in the simulation."""
        with dev_handle.att.device.cond:
            self._check_attached(dev_handle.att)

    def reset_device(self, dev_handle: _Handle) -> None:
        """A port reset: the firmware powers up again on the same attachment."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            device.configuration = 0
            device.claims.clear()
        device.unplug()
        device.plug()

    # -- transfers ---------------------------------------------------------------------------

    def ctrl_transfer(
        self,
        dev_handle: _Handle,
        bmRequestType: int,
        bRequest: int,
        wValue: int,
        wIndex: int,
        data: array.array[int],
        timeout: int,
    ) -> int:
        """Standard GET_DESCRIPTOR for string descriptors; other requests stall (EPIPE)."""
        device = dev_handle.att.device
        with device.cond:
            self._check_attached(dev_handle.att)
            if bmRequestType != 0x80 or bRequest != _GET_DESCRIPTOR or wValue >> 8 != _DESC_STRING:
                raise usb_error(errno.EPIPE)
            index = wValue & 0xFF
            if index == 0:
                body = _LANGID_EN_US.to_bytes(2, "little")
            elif index in device.strings and wIndex == _LANGID_EN_US:
                body = device.strings[index].encode("utf-16-le")
            else:
                raise usb_error(errno.EPIPE)
            desc = bytes([2 + len(body), _DESC_STRING]) + body
            n = min(len(desc), len(data))
            data[:n] = array.array("B", desc[:n])
            return n

    def bulk_write(
        self, dev_handle: _Handle, ep: int, intf: int, data: array.array[int], timeout: int
    ) -> int:
        """An OUT transfer to the firmware; returns the bytes written."""
        device = dev_handle.att.device
        with device.cond:
            self._check_io(dev_handle, ep, intf, out=True)
            device.host_out(data.tobytes(), time.monotonic())
        return len(data)

    def bulk_read(
        self, dev_handle: _Handle, ep: int, intf: int, buff: array.array[int], timeout: int
    ) -> int:
        """An IN transfer: waits up to ``timeout`` ms (0 = for ever) for the firmware's packets.

        Raises USBTimeoutError when nothing came, USBError ENODEV when unplugged meanwhile,
        EOVERFLOW when ``buff`` is smaller than the packet the device sends.
        """
        device = dev_handle.att.device
        deadline = None if timeout == 0 else time.monotonic() + timeout / 1000.0
        with device.cond:
            while True:
                self._check_io(dev_handle, ep, intf, out=False)
                now = time.monotonic()
                device.run_firmware(now)
                if device.pending_in:
                    if len(buff) < min(PACKET_SIZE, device.pending_in):
                        raise usb_error(errno.EOVERFLOW)
                    data = device.take_in_packets(len(buff))
                    buff[: len(data)] = array.array("B", data)
                    return len(data)
                if deadline is not None and now >= deadline:
                    raise usb_error(errno.ETIMEDOUT)
                wake = device.next_deadline()
                if deadline is not None:
                    wake = min(wake, deadline)
                device.cond.wait(max(0.0, min(wake - now, 1.0)))

    def intr_read(
        self, dev_handle: _Handle, ep: int, intf: int, buff: array.array[int], timeout: int
    ) -> int:
        """The HID-like interface never reports (a timeout, like an idle keyboard)."""
        self._check_attached(dev_handle.att)
        time.sleep(timeout / 1000.0)
        raise usb_error(errno.ETIMEDOUT)

    # -- checks ------------------------------------------------------------------------------

    @staticmethod
    def _check_attached(att: _Attachment) -> None:
        device = att.device
        if not device.plugged or att.generation != device.generation:
            raise usb_error(errno.ENODEV)

    @staticmethod
    def _interface(device: SimUsbDevice, number: int) -> InterfaceDescriptor:
        if device.configuration == 0:
            raise usb_error(errno.ENOENT)
        for i in device.config.interfaces:
            if i.bInterfaceNumber == number:
                return i
        raise usb_error(errno.ENOENT)

    @classmethod
    def _is_vendor(cls, device: SimUsbDevice, number: int) -> bool:
        return any(
            i.bInterfaceNumber == number and i.bInterfaceClass == 0xFF
            for i in device.config.interfaces
        )

    def _check_io(self, dev_handle: _Handle, ep: int, intf: int, *, out: bool) -> None:
        device = dev_handle.att.device
        self._check_attached(dev_handle.att)
        if device.claims.get(intf) != dev_handle:
            raise usb_error(errno.EBUSY if intf in device.claims else errno.ENOENT)
        interface = self._interface(device, intf)
        wanted = [e for e in interface.endpoints if e.bEndpointAddress == ep]
        if not wanted or bool(ep & 0x80) == out:
            raise usb_error(errno.EINVAL)
