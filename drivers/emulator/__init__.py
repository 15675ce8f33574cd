"""The built-in TCRP/1 device emulator: a seeded shuffler state machine
(:class:`~drivers.emulator.shuffler.EmulatedShuffler`) served on a pseudo-terminal or on TCP
127.0.0.1 (``python -m drivers.emulator`` / ``dealer-assist emulator``), with fault switches
for testing the host, and :class:`~drivers.emulator.process.EmulatorProcess` to run it as a
child process. :class:`~drivers.emulator.control.CardLoader` is the dealer putting cards into
the shoe (out of band, not TCRP/1)."""

from drivers.emulator.control import CardLoader
from drivers.emulator.shuffler import DealtCard, EmulatedShuffler, EmulatorConfig, EmulatorStats

__all__ = ["CardLoader", "DealtCard", "EmulatedShuffler", "EmulatorConfig", "EmulatorStats"]
