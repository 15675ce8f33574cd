"""Seeded draws of a simulated tournament: a number from the seed and the question, the same
after a restart (never from a generator whose state a crash would lose)."""

from __future__ import annotations

import hashlib


def draw_number(seed: int, *words: object) -> float:
    """A number in [0, 1) from SHA-256 of ``seed`` and ``words``: the same question asked after
    a restart gets the same answer (a simulated player's choice between hands)."""
    text = ":".join(str(w) for w in (seed, *words))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2**64
