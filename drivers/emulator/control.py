"""The dealer's hands on the emulated device: a line protocol outside TCRP/1.

TCRP/1 has no message for "these cards were put into the shoe" (and must not: the host never
learns what the device holds). The emulator stands in for the physical act with a control
channel, opt-in with ``--control``: lines on its stdin, one answer line each on its stdout
(after the address line).

    LOAD As Kd 7c      ->  LOADED 3 3      (cards taken by this line, cards loaded in all)
    LOAD               ->  ERROR ...       (no cards, a text that is not a card, an unknown
                                            command: nothing of that line is done)
    SEED 12345         ->  SEEDED 12345    (a simulation's hook: the next shuffles draw from
                                            a deck generator seeded with it)
    RESUME             ->  RESUMED         (a silence ends now: the cable plugged back in)

Loaded cards go into the next SHUFFLE with the undealt stub
(:meth:`~drivers.emulator.shuffler.EmulatedShuffler.load_cards`): the Seven Card Stud deck
shortage, GAMES.md "Seven Card Stud" 5, rules text 002.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from dealer_assist.cards import Card
from dealer_assist.errors import CardError
from drivers.emulator.shuffler import EmulatedShuffler

LOAD = "LOAD"
LOADED = "LOADED"
SEED = "SEED"
SEEDED = "SEEDED"
RESUME = "RESUME"
RESUMED = "RESUMED"
ERROR = "ERROR"
MAX_LINE = 4096  # longer than any sane command: the rest of such a line is an error


def load_line(cards: Sequence[Card]) -> str:
    """The control line that loads ``cards`` (without the newline). Raises CardError for an
    empty load or an item that is not a Card."""
    if not cards:
        raise CardError("LOAD needs at least one card")
    for c in cards:
        if not isinstance(c, Card):
            raise CardError(f"not a card: {c!r} (expected a Card)")
    return " ".join([LOAD, *(str(c) for c in cards)])


def answer(shuffler: EmulatedShuffler, line: str) -> str:
    """Carry out one control line on ``shuffler``; the answer line (``LOADED k n`` or
    ``ERROR why``), or '' for a blank line."""
    words = line.split()
    if not words:
        return ""
    command, args = words[0].upper(), words[1:]
    if command == SEED:
        if len(args) != 1 or not args[0].isdigit():
            return f"{ERROR} {SEED} needs one non-negative integer"
        shuffler.reseed(int(args[0]))
        return f"{SEEDED} {int(args[0])}"
    if command == RESUME:
        if args:
            return f"{ERROR} {RESUME} takes no arguments"
        shuffler.end_silence()
        return RESUMED
    if command != LOAD:
        return f"{ERROR} unknown command {words[0]!r} (expected {LOAD}, {SEED} or {RESUME})"
    if not args:
        return f"{ERROR} {LOAD} needs at least one card"
    try:
        shuffler.load_cards(args)
    except CardError as e:
        return f"{ERROR} {e}"
    return f"{LOADED} {len(args)} {len(shuffler.loaded)}"


class ControlChannel:
    """Reads control lines from ``fd`` (the emulator's stdin) and answers through ``reply``.

    Args:
        shuffler: the device the lines act on.
        fd: a readable file descriptor; the runner selects on :meth:`fileno`.
        reply: writes one answer line (without the newline).
    """

    def __init__(self, shuffler: EmulatedShuffler, fd: int, reply: Callable[[str], None]) -> None:
        self.shuffler = shuffler
        self.fd = fd
        self.reply = reply
        self._buf = b""
        self._skipping = False  # inside a line too long to keep: dropped up to its newline

    def fileno(self) -> int:
        """The descriptor to select on."""
        return self.fd

    def on_readable(self) -> bool:
        """Read what is there and answer each complete line; False once the input ended (or
        failed), after which the runner stops watching it."""
        try:
            chunk = os.read(self.fd, 4096)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        if not chunk:
            return False
        self._buf += chunk
        *lines, self._buf = self._buf.split(b"\n")
        for raw in lines:
            if self._skipping:  # the end of an overlong line, already answered
                self._skipping = False
                continue
            if len(raw) > MAX_LINE:
                self.reply(f"{ERROR} control line longer than {MAX_LINE} bytes")
                continue
            text = answer(self.shuffler, raw.decode("utf-8", "replace"))
            if text:
                self.reply(text)
        if len(self._buf) > MAX_LINE and not self._skipping:
            self.reply(f"{ERROR} control line longer than {MAX_LINE} bytes")
            self._skipping = True
        if self._skipping:
            self._buf = b""
        return True
