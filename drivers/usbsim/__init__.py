"""A simulated USB card reader for tests and demos, written as a pyusb backend.

:class:`~drivers.usbsim.backend.SimUsbBackend` implements ``usb.backend.IBackend`` (enumeration,
descriptors, configuration, claim, bulk transfers, string descriptors through control transfers)
for :class:`~drivers.usbsim.device.SimUsbDevice` objects, whose firmware is the TCRP/1
:class:`~drivers.emulator.shuffler.EmulatedShuffler`. pyusb's own code runs on top of it exactly
as on libusb; tests can unplug and replug the device, deny access or hold the interface.
"""

from drivers.usbsim.backend import SimUsbBackend
from drivers.usbsim.device import PACKET_SIZE, SimUsbDevice

__all__ = ["PACKET_SIZE", "SimUsbBackend", "SimUsbDevice"]
