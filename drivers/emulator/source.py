"""A card source that owns its emulator: ``emulator://?seed=7&...`` in
:func:`drivers.factory.open_source`. open() starts the emulator on a pty and connects a
:class:`~drivers.tcrp.device.TcrpDevice` to it over that real serial device; close() closes the
link and stops the child. :meth:`EmulatorSource.load_cards` is the dealer putting cards into the
shoe (a :class:`~dealer_assist.source.CardLoader`, out of band: not TCRP/1)."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.cards import Card
from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent
from dealer_assist.source import LinkStats, LinkStatus, SourceIdentity
from drivers.emulator.process import EmulatorProcess
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.serial_port import SerialTransport


class EmulatorSource:
    """TCRP/1 over a pty to a child emulator, as a :class:`~dealer_assist.source.CardSource`.

    Args:
        emulator_args: emulator options, e.g. ``["--seed", "7"]``.
        name, pin_model, pin_serial, timings: as for :class:`TcrpDevice`.
        baudrate: the pty line speed (a pty ignores it; kept for symmetry).

    The pty is opened exclusively (lock and ``TIOCEXCL``, :mod:`drivers.transport.serial_port`):
    another program opening it while the table holds it is refused, as on a real reader's port.

    Errors: as TcrpDevice, plus DeviceError when the emulator cannot start.
    """

    def __init__(
        self,
        emulator_args: Sequence[str] = (),
        *,
        name: str = "emulator",
        pin_model: str | None = None,
        pin_serial: str | None = None,
        timings: TcrpTimings | None = None,
        baudrate: int = 115200,
    ) -> None:
        self.name = name
        self.emulator = EmulatorProcess(emulator_args, control=True)
        self._pin_model = pin_model
        self._pin_serial = pin_serial
        self._timings = timings
        self._baudrate = baudrate
        self._device: TcrpDevice | None = None  # kept after close for its counters
        self._open = False

    def open(self) -> None:
        """Start the emulator and handshake with it. Raises DeviceError (or a subclass)."""
        if self._open:
            return
        path = self.emulator.start()
        device = TcrpDevice(
            SerialTransport(path, self._baudrate, exclusive=True),  # the pty is the table's alone
            name=self.name,
            pin_model=self._pin_model,
            pin_serial=self._pin_serial,
            timings=self._timings,
        )
        self._device = device
        try:
            device.open()
        except BaseException:
            self.emulator.stop()
            raise
        self._open = True

    def close(self) -> None:
        """Close the link and stop the emulator; safe to call twice."""
        self._open = False
        if self._device is not None:
            self._device.close()
        self.emulator.stop()

    def _require(self) -> TcrpDevice:
        if self._device is None or not self._open:
            raise DeviceError(f"{self.name} is not open")
        return self._device

    @property
    def device(self) -> TcrpDevice | None:
        """The protocol device once opened (kept after close for its counters)."""
        return self._device

    @property
    def identity(self) -> SourceIdentity | None:
        """The identity from the last handshake, or None before it."""
        return self._device.identity if self._device is not None else None

    @property
    def stats(self) -> LinkStats:
        """Link counters of the last session (zeros before open)."""
        return self._device.stats if self._device is not None else LinkStats()

    def shuffle(self) -> None:
        """See :meth:`TcrpDevice.shuffle`."""
        self._require().shuffle()

    def deal(self, n: int) -> None:
        """See :meth:`TcrpDevice.deal`."""
        self._require().deal(n)

    def load_cards(self, cards: Sequence[Card]) -> None:
        """The dealer puts ``cards`` (e.g. the burns) into the emulated shoe; the next SHUFFLE
        makes a new deck of the undealt stub and these cards, its SHUFFLED count stub + loaded
        (GAMES.md "Seven Card Stud" 5, rules text 002). Nothing is checked: a card still in the
        shoe or one never dealt goes in as given, for the host's checks to catch. Returns once
        the emulator took them, so a SHUFFLE sent afterwards includes them.

        Raises:
            CardError: an empty load or an item that is not a Card.
            DeviceError: the source is not open, or the emulator did not take the cards.
        """
        self._require()
        self.emulator.load_cards(cards)

    def resume(self) -> None:
        """End the emulator's silence now (see :meth:`EmulatorProcess.resume`).

        Raises:
            DeviceError: the source is not open, or the emulator did not answer.
        """
        self._require()
        self.emulator.resume()

    def request_status(self) -> None:
        """See :meth:`TcrpDevice.request_status`."""
        self._require().request_status()

    @property
    def link_status(self) -> LinkStatus:
        """See :attr:`TcrpDevice.link_status` (``closed`` before open)."""
        if self._device is None or not self._open:
            return LinkStatus("closed")
        return self._device.link_status

    def recover_history(self, timeout: float = 2.0) -> list[DeviceEvent]:
        """See :meth:`TcrpDevice.recover_history`."""
        return self._require().recover_history(timeout)

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """See :meth:`TcrpDevice.next_event`; events left after close can still be taken."""
        if self._device is None:
            return None
        return self._device.next_event(timeout)
