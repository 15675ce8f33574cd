"""Eliminations and the ranking (GAMES.md "Ranking"; rules text 002, "Formule di gioco").

Players are ranked in reverse order of elimination. Players eliminated in the same hand rank by
their stack at the start of that hand (more chips, better place); equal stacks share the place
(TDA). Places are numbered as in sport: two sharing 5th place are both 5th, the next is 7th.
The director may undo a bust (a wrong settlement corrected): the ranking is recomputed from
the remaining busts, so the others' places follow.

:class:`Eliminations` is the fold of :class:`EliminationRecord` (bust / undo) records that the
director journals. The heats formula (each heat played down to its qualifiers, who play a
final) is combined by :func:`combine_heats`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.tournament.errors import RankingError


@dataclass(frozen=True)
class Bust:
    """``player`` went out in hand ``hand`` (its id: table and hand uid), having started that
    hand with ``start_stack`` chips."""

    player: str
    hand: str
    start_stack: int


@dataclass(frozen=True)
class EliminationRecord:
    """A record the director journals: ``bust`` (with hand and start stack) or ``undo`` (a bust
    taken back), with who authorised it."""

    kind: str
    player: str
    hand: str = ""
    start_stack: int = 0
    authorised_by: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "kind": self.kind,
            "player": self.player,
            "hand": self.hand,
            "start_stack": self.start_stack,
            "authorised_by": self.authorised_by,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EliminationRecord:
        """What ``to_json`` wrote. Raises RankingError naming a bad field."""
        kind, player, hand = data.get("kind"), data.get("player"), data.get("hand", "")
        stack, by = data.get("start_stack", 0), data.get("authorised_by", "")
        if kind not in ("bust", "undo") or not isinstance(player, str) or not player:
            raise RankingError(f"not an elimination record: {dict(data)!r}")
        if not isinstance(hand, str) or not isinstance(by, str):
            raise RankingError(f"elimination record of {player}: hand and authorised_by are text")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise RankingError(f"elimination record of {player}: start_stack {stack!r}")
        return cls(kind, player, hand, stack, by)


@dataclass(frozen=True)
class Placing:
    """One line of a ranking: ``place`` (1 best), the ``player``, how many share the place
    (``shared``, 1 when alone), and ``in_play`` for a player not eliminated."""

    place: int
    player: str
    shared: int
    in_play: bool


@dataclass(frozen=True)
class Eliminations:
    """The busts so far, in the order they happened."""

    busts: tuple[Bust, ...] = ()

    @classmethod
    def fold(cls, records: Iterable[EliminationRecord]) -> Eliminations:
        """The eliminations after ``records`` in order. Raises RankingError as :meth:`apply`."""
        e = cls()
        for r in records:
            e = e.apply(r)
        return e

    def apply(self, record: EliminationRecord) -> Eliminations:
        """The eliminations after ``record``."""
        if record.kind == "bust":
            return self.bust(Bust(record.player, record.hand, record.start_stack))
        return self.undo(record.player)

    @property
    def out(self) -> frozenset[str]:
        """Players eliminated."""
        return frozenset(b.player for b in self.busts)

    def bust(self, b: Bust) -> Eliminations:
        """``b.player`` is out. Raises RankingError if already out or the hand is unnamed."""
        if b.player in self.out:
            raise RankingError(f"{b.player} is already out")
        if not b.hand:
            raise RankingError(f"the bust of {b.player} needs the hand it happened in")
        if b.start_stack < 0:
            raise RankingError(f"the bust of {b.player}: start stack {b.start_stack}")
        return Eliminations((*self.busts, b))

    def undo(self, player: str) -> Eliminations:
        """The bust of ``player`` taken back (they play on); the others are re-ranked. Raises
        RankingError if ``player`` is not out."""
        if player not in self.out:
            raise RankingError(f"{player} is not out: no bust to undo")
        return Eliminations(tuple(b for b in self.busts if b.player != player))

    def partita_over(self, entrants: Sequence[str], qualifiers: int = 1) -> bool:
        """True when the partita is over (rules text 002, "Formule di gioco"): the second-to-last
        player is out (``qualifiers = 1``), or only the ``qualifiers`` who go on to the next
        round of the formula are left."""
        return sum(p not in self.out for p in entrants) <= max(qualifiers, 1)

    def ranking(self, entrants: Sequence[str]) -> tuple[Placing, ...]:
        """Every entrant placed, best first: players still in share place 1 (``in_play`` while
        more than one is left; the last one is the winner).

        Ties are listed in ``entrants`` order. Raises RankingError if a bust names a player
        who is not an entrant."""
        order = {p: i for i, p in enumerate(entrants)}
        unknown = [b.player for b in self.busts if b.player not in order]
        if unknown:
            raise RankingError(f"{unknown[0]} is not an entrant")
        alive = [p for p in entrants if p not in self.out]
        rows = [Placing(1, p, len(alive), len(alive) > 1) for p in alive]
        better = len(alive)
        groups: dict[str, list[Bust]] = {}
        for b in self.busts:  # dicts keep the order of each hand's first bust
            groups.setdefault(b.hand, []).append(b)
        for group in reversed(list(groups.values())):
            group.sort(key=lambda b: (-b.start_stack, order[b.player]))
            for b in group:
                above = sum(o.start_stack > b.start_stack for o in group)
                same = sum(o.start_stack == b.start_stack for o in group)
                rows.append(Placing(better + above + 1, b.player, same, False))
            better += len(group)
        return tuple(rows)


def combine_heats(
    final: Sequence[Placing], heats: Sequence[Sequence[Placing]]
) -> tuple[Placing, ...]:
    """The tournament's ranking under the heats formula: the final's ranking first; then the
    players each heat eliminated, by their place in their heat, those with the same heat place in
    different heats sharing the place (listed by heat order).

    ``heats``: each heat's ranking (its qualifiers ``in_play``, or also present in ``final``).
    Raises RankingError if a finalist is missing from the heats or a player is in two heats.
    """
    finalists = {p.player for p in final}
    seen: set[str] = set()
    by_place: dict[int, list[str]] = {}
    for heat in heats:
        for row in heat:
            if row.player in seen:
                raise RankingError(f"{row.player} is in two heats")
            seen.add(row.player)
            if row.player not in finalists and not row.in_play:
                by_place.setdefault(row.place, []).append(row.player)
            elif row.player not in finalists:
                raise RankingError(f"{row.player} qualified from a heat but is not in the final")
    if not finalists <= seen:
        raise RankingError(f"{sorted(finalists - seen)[0]} played the final but no heat")
    rows = list(final)
    better = len(final)
    for place in sorted(by_place):
        players = by_place[place]
        rows.extend(Placing(better + 1, p, len(players), False) for p in players)
        better += len(players)
    return tuple(rows)
