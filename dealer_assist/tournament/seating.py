"""The seat draw (rules text 002, "Inizio della partita": the players' positions drawn at random),
seeded so that the same seed and the same list of players always give the same seats.

The shuffle is a Fisher-Yates driven by SHA-256 of the seed and a counter (not ``random``), so
the draw a journal records can be recomputed by anyone from the seed, on any Python.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.tournament.errors import PurchaseRefused


@dataclass(frozen=True)
class SeatDraw:
    """Where each player sits: ``seats[player] = (table, seat)``, tables and seats from 1.

    Tables are as many as ``max_seats`` requires and differ by at most one player; each table's
    seats are 1..k in the order drawn. ``seed`` is what the draw came from."""

    seed: int
    seats: Mapping[str, tuple[int, int]]

    @property
    def tables(self) -> dict[int, list[str]]:
        """``{table: [player by seat]}``."""
        out: dict[int, list[tuple[int, str]]] = {}
        for p, (t, s) in self.seats.items():
            out.setdefault(t, []).append((s, p))
        return {t: [p for _, p in sorted(v)] for t, v in sorted(out.items())}

    def to_json(self) -> dict[str, Any]:
        """``{"seed": S, "seats": [[player, table, seat], ...]}`` (by table, then seat)."""
        rows = sorted(self.seats.items(), key=lambda kv: kv[1])
        return {"seed": self.seed, "seats": [[p, t, s] for p, (t, s) in rows]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatDraw:
        """What ``to_json`` wrote. Raises PurchaseRefused (kind ``seat``) for a bad row."""
        try:
            seats = {str(p): (int(t), int(s)) for p, t, s in data["seats"]}
            return cls(int(data["seed"]), seats)
        except (KeyError, TypeError, ValueError) as e:
            raise PurchaseRefused("?", "seat", f"not a seat draw: {e}") from e


def _below(seed: int, counter: int, n: int) -> int:
    """A number in 0..n-1 from SHA-256(seed, counter), rejection-sampled (no modulo bias)."""
    limit = (1 << 64) // n * n
    while True:
        digest = hashlib.sha256(f"seat-draw:{seed}:{counter}".encode()).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % n
        counter += 1 << 32  # another draw for the same step, never a later step's


def draw_seats(seed: int, players: Sequence[str], max_seats: int) -> SeatDraw:
    """The seats of ``players`` (in registration order) at tables of ``max_seats``.

    Raises:
        PurchaseRefused: a player twice, no players, or ``max_seats`` below 2.
    """
    if max_seats < 2 or not players:
        raise PurchaseRefused("?", "seat", "a draw needs players and at least 2 seats a table")
    if len(set(players)) != len(players):
        raise PurchaseRefused("?", "seat", "a player is listed twice")
    order = list(players)
    for i in range(len(order) - 1, 0, -1):
        j = _below(seed, i, i + 1)
        order[i], order[j] = order[j], order[i]
    n_tables = -(-len(order) // max_seats)
    seats: dict[str, tuple[int, int]] = {}
    for k, p in enumerate(order):
        seats[p] = (k % n_tables + 1, k // n_tables + 1)
    return SeatDraw(seed, seats)
