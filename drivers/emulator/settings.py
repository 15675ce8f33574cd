"""Settings and reports of the emulated shuffler: its fault codes, :class:`EmulatorConfig` (every
timing and fault switch, checked when made), :class:`DealtCard` (a card that left the device)
and :class:`EmulatorStats` (what it did to its frames). The state machine that uses them is
:class:`drivers.emulator.shuffler.EmulatedShuffler`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from dealer_assist.errors import ConfigError

FAULT_CODES = (
    "JAM",
    "DOOR_OPEN",
    "MISSING_CARD",
    "EXTRA_CARD",
    "DUPLICATE_CARD",
    "MISREAD",
    "ELEVATOR",
    "POWER",
    "INTERNAL",
)
ANY_FAULT = "ANY"  # fault_code: a random one of FAULT_CODES each time


@dataclass(frozen=True)
class EmulatorConfig:
    """Settings of the emulated device. Times in seconds, fractions 0..1, card numbers count
    from 1 within a deck (``swap_at``/``restart_at`` count all cards dealt since start)."""

    seed: int = 0
    model: str = "TCRP-EMU"
    firmware: str = "1.0.0"
    serial: str = "EMU-0001"
    beat_interval: float = 1.0
    retransmit_interval: float = 0.2
    retransmit_limit: int = 5
    history: int = 256
    shuffle_time: float = 0.1
    card_interval: float = 0.01
    jam_at: int | None = None
    jam_clear_after: float = 1.0
    corrupt: float = 0.0
    drop: float = 0.0
    silence_after: int | None = None
    silence_for: float | None = None  # None: silent for good
    duplicate_at: int | None = None
    unreadable_at: int | None = None
    fault_rate: float = 0.0
    fault_code: str = "MISREAD"
    fault_clear_after: float = 0.5
    restart_at: int | None = None
    swap_at: int | None = None
    swap_serial: str | None = None
    corrupt_in: float = 0.0
    drop_in: float = 0.0
    stall_at: int | None = None
    extra_at: int | None = None
    skip_index_at: int | None = None
    repeat_index_at: int | None = None
    wrong_deck_at: int | None = None
    reshuffle_at: int | None = None
    deck_count: int = 52
    forge_every: int | None = None  # about one card in N: a forged CARD under the next seq

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _FRACTIONS and not 0.0 <= v <= 1.0:
                raise ConfigError(f"emulator {f.name} must be a fraction 0..1, got {v}")
            if isinstance(v, float) and not math.isfinite(v):
                raise ConfigError(f"emulator {f.name} must be finite, got {v}")
            if isinstance(v, int | float) and not isinstance(v, bool) and v < 0:
                raise ConfigError(f"emulator {f.name} must not be negative, got {v}")
        if self.fault_code not in (*FAULT_CODES, ANY_FAULT):
            raise ConfigError(f"emulator fault_code must be one of {FAULT_CODES} or {ANY_FAULT}")
        if not 1 <= self.deck_count <= 104:
            raise ConfigError(f"emulator deck_count must be 1..104, got {self.deck_count}")
        if self.forge_every is not None and self.forge_every < 1:
            raise ConfigError(f"emulator forge_every must be >= 1, got {self.forge_every}")
        if self.beat_interval <= 0 or self.retransmit_interval <= 0 or self.history < 1:
            raise ConfigError("emulator beat/retransmit intervals and history must be > 0")


_FRACTIONS = frozenset({"corrupt", "drop", "fault_rate", "corrupt_in", "drop_in"})


@dataclass(frozen=True)
class DealtCard:
    """One card that left the emulated device: ``deck_id`` and ``index`` as reported in its
    CARD frame, ``card`` as reported (``XX`` when unreadable), ``actual`` the card physically
    dealt."""

    deck_id: str
    index: int
    card: str
    actual: str


@dataclass
class EmulatorStats:
    """What the emulator did to its outgoing frames (for logs and tests)."""

    frames: int = 0
    retransmitted: int = 0
    resent: int = 0
    dropped: int = 0
    corrupted: int = 0
    silenced: int = 0
    dropped_in: int = 0
    corrupted_in: int = 0
    faults: int = 0
    forged: int = 0
