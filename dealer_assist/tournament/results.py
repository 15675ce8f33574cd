"""A tournament's results table: what the screens show and the exports write (CSV and PDF in
``ui/tournament_export.py``). Pure data, built from the structure, the ledger, the ranking, the
payouts and the special prizes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.tournament.money import Ledger
from dealer_assist.tournament.prizes import Payout, SpecialAward
from dealer_assist.tournament.ranking import Placing
from dealer_assist.tournament.structure import TournamentStructure


@dataclass(frozen=True)
class ResultRow:
    """One player's line: place (shared by ``shared``), prize and special prizes won (cents),
    what they paid (cents), rebuys, add-on taken, still in play."""

    place: int
    player: str
    shared: int
    prize_cents: int
    special_cents: int
    paid_cents: int
    rebuys: int
    addon: bool
    in_play: bool


@dataclass(frozen=True)
class ResultsTable:
    """The results: the tournament's name and game, entrants, fees, pool, rows best first, the
    special awards."""

    name: str
    game: str
    entrants: int
    rebuys: int
    addons: int
    fees_cents: int
    pool_cents: int
    rows: tuple[ResultRow, ...]
    specials: tuple[SpecialAward, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (rows and specials as lists of dicts)."""
        return {
            "name": self.name,
            "game": self.game,
            "entrants": self.entrants,
            "rebuys": self.rebuys,
            "addons": self.addons,
            "fees_cents": self.fees_cents,
            "pool_cents": self.pool_cents,
            "rows": [r.__dict__ for r in self.rows],
            "specials": [a.to_json() for a in self.specials],
        }


def results_table(
    structure: TournamentStructure,
    ledger: Ledger,
    ranking: Sequence[Placing],
    payouts: Sequence[Payout] = (),
    pool_cents: int = 0,
    specials: Sequence[SpecialAward] = (),
) -> ResultsTable:
    """The results table in ``ranking`` order, with the prizes of ``payouts``
    (:func:`~dealer_assist.tournament.prizes.payouts`; none yet: 0) and the special awards.

    Raises:
        PurchaseRefused: a ranked player who is not registered in ``ledger``.
    """
    won: dict[str, int] = {}
    for a in specials:
        won[a.player] = won.get(a.player, 0) + a.cents
    prize = {p.player: p.cents for p in payouts}
    rows = []
    for r in ranking:
        acc = ledger.account(r.player)
        rows.append(
            ResultRow(
                r.place,
                r.player,
                r.shared,
                prize.get(r.player, 0),
                won.get(r.player, 0),
                acc.paid_cents,
                acc.rebuys,
                acc.addon,
                r.in_play,
            )
        )
    return ResultsTable(
        structure.name,
        structure.game,
        ledger.count("entry"),
        ledger.count("rebuy"),
        ledger.count("addon"),
        ledger.fees_cents,
        pool_cents,
        tuple(rows),
        tuple(specials),
    )
