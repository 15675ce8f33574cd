"""The built-in TCRP/1 device emulator: a seeded shuffler state machine
(:class:`~drivers.emulator.shuffler.EmulatedShuffler`) served on a pseudo-terminal or on TCP
127.0.0.1 (``python -m drivers.emulator`` / ``dealer-assist emulator``), with fault switches
for testing the host, and :class:`~drivers.emulator.process.EmulatorProcess` to run it as a
child process. :mod:`~drivers.emulator.control` is the dealer putting cards into the shoe (out
of band, not TCRP/1; the capability is :class:`~dealer_assist.source.CardLoader`)."""

from drivers.emulator.settings import DealtCard, EmulatorConfig, EmulatorStats
from drivers.emulator.shuffler import EmulatedShuffler

__all__ = ["DealtCard", "EmulatedShuffler", "EmulatorConfig", "EmulatorStats"]
