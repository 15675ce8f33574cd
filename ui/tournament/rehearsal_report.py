"""What a tournament rehearsal measured and its summary (``dealer-assist tournament rehearse``),
Qt-free.

Every hand's record is checked against the structure: its ``"tournament"`` field names the
level it was played at, and its forced bets (Stud: ante, bring-in and limits; Hold'em: blinds
and ante) must be that level's exactly (rules text 002, "Importo del limite minore"; GAMES.md
"Levels": the level in force when the hand starts) and the hand must settle with them
(:func:`~dealer_assist.record.settle_record`, the chips posted and paid as the record says).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from dealer_assist.errors import DealerAssistError
from dealer_assist.games import POT_GAME_CODES, get_pot_game
from dealer_assist.record import settle_record
from dealer_assist.tournament.results import ResultsTable
from dealer_assist.tournament.structure import TournamentStructure, euros


def level_bets(structure: TournamentStructure, number: int) -> dict[str, Any]:
    """The forced bets and limits a hand of level ``number`` posts, as its record names them:
    Stud ``ante``, ``bring_in``, ``limits`` [small, big]; Hold'em ``ante``, ``blinds``
    [small, big] (chips). Raises ConfigError for a level the structure does not have."""
    lv = structure.level(number)
    return get_pot_game(structure.game).level_bets(lv.ante, lv.bring_in, lv.small, lv.big)


def posted_bets(record: Mapping[str, Any]) -> dict[str, Any]:
    """The forced bets and limits ``record`` posted (the keys :func:`level_bets` names)."""
    game = record.get("game")
    if game not in POT_GAME_CODES:
        return {}
    return {k: record.get(k) for k in get_pot_game(str(game)).forced_bet_fields}


@dataclass(frozen=True)
class HandLine:
    """One rehearsed hand: table, hand uid, the level its record names (0: none), the bets it
    posted, whether they are that level's and it settles, the level in force when it ended
    (None: a break), and the time-outs the table enforced in it ``(player, kind)``."""

    table: str
    hand_uid: str
    level: int
    posted: dict[str, Any]
    ok: bool
    level_at_end: int | None
    timeouts: tuple[tuple[str, str], ...] = ()

    @property
    def level_changed(self) -> bool:
        """The level changed while the hand was played (it finished at its own)."""
        return self.level_at_end != self.level


def check_hand(
    structure: TournamentStructure,
    tournament_id: str,
    table: str,
    hand_uid: str,
    record: Mapping[str, Any],
    level_at_end: int | None,
    timeouts: tuple[tuple[str, str], ...] = (),
) -> HandLine:
    """``record`` checked (module doc)."""
    part = record.get("tournament")
    level = int(part.get("level", 0)) if isinstance(part, Mapping) else 0
    posted = posted_bets(record)
    ok = isinstance(part, Mapping) and part.get("id") == tournament_id and level >= 1
    if ok:
        try:
            ok = posted == level_bets(structure, level)
            settle_record(dict(record))
        except DealerAssistError:
            ok = False
    return HandLine(table, hand_uid, level, posted, ok, level_at_end, timeouts)


@dataclass
class Figures:
    """What the rehearsal counted: the hands, the breaks run, the director's pauses, the
    new-hand taps the console refused (a break, a pause), the rebuys and add-ons sold, the
    players moved and the tables broken, the eliminations, the screenshots saved."""

    hands: list[HandLine] = field(default_factory=list)
    breaks: list[tuple[int, int]] = field(default_factory=list)  # (after level, minutes)
    pauses: int = 0
    refused: list[str] = field(default_factory=list)
    rebuys: int = 0
    addons: int = 0
    moves: int = 0
    tables_broken: list[str] = field(default_factory=list)
    eliminated: int = 0
    sat_out_hands: int = 0  # hands dealt to a player in sit-out (forced bets posted)
    sat_out_taps: int = 0  # checks and folds the table tapped for a player in sit-out
    screenshots: list[str] = field(default_factory=list)
    resumed: list[tuple[str, str, int]] = field(default_factory=list)  # (table, hand, level)
    notes: list[str] = field(default_factory=list)  # said on the tables' consoles, once each
    records: list[str] = field(default_factory=list)

    @property
    def timeouts(self) -> list[tuple[str, str, str]]:
        """(hand, player, kind) of each time-out the table enforced (check or fold)."""
        return [(h.hand_uid, p, k) for h in self.hands for p, k in h.timeouts]


def report(
    out: TextIO,
    f: Figures,
    results: ResultsTable,
    *,
    tournament_id: str,
    url: str,
    structure: TournamentStructure,
    chips_ok: bool,
    chips: str,
) -> bool:
    """Print the summary; True when every hand posted its level's bets and the chips add up."""
    hands = f.hands
    good = sum(h.ok for h in hands)
    by_table: dict[str, int] = {}
    for h in hands:
        by_table[h.table] = by_table.get(h.table, 0) + 1
    levels = sorted({h.level for h in hands})
    changed = [h for h in hands if h.level_changed]
    tables = ", ".join(f"{t.rsplit('-', 1)[-1]} {n}" for t, n in by_table.items())
    lines = [
        f"resumed: hand {u} at {t}, continued at its own level {n} and settled"
        for t, u, n in f.resumed
    ]
    lines += [
        f"tournament {tournament_id} ({structure.name}, {structure.game}), journal {url}",
        f"entrants {results.entrants}, rebuys {results.rebuys}, add-ons {results.addons}, "
        f"prize pool {euros(results.pool_cents)}",
        f"hands: {len(hands)} ({tables})",
        f"levels played: {', '.join(str(n) for n in levels)}",
        "level  hands  forced bets posted",
    ]
    for n in levels:
        at = [h for h in hands if h.level == n]
        bets = " ".join(f"{k} {v}" for k, v in at[0].posted.items())
        lines.append(f"{n:<6} {len(at):<6} {bets}")
    lines += [
        f"hands posting their level's bets: {good} of {len(hands)}",
        f"level changes in the middle of a hand: {len(changed)} (each hand finished at its "
        "own level, the next hand at the new one)",
        "breaks: " + (", ".join(f"after level {a} ({m} min)" for a, m in f.breaks) or "none"),
        f"director's pauses: {f.pauses}; new hands refused by the console: {len(f.refused)}"
        + (f" ({'; '.join(sorted(set(f.refused)))})" if f.refused else ""),
        f"time-outs: {len(f.timeouts)}"
        + "".join(f"; {p} in hand {u}: {k} by the table" for u, p, k in f.timeouts)
        + f"; then in sit-out until back: dealt in {f.sat_out_hands} hands (forced bets "
        f"posted), checked or folded by the table {f.sat_out_taps} times",
        f"rebuys: {f.rebuys}, add-ons: {f.addons}",
        f"table breaks: {len(f.tables_broken)}"
        + (f" ({', '.join(f.tables_broken)})" if f.tables_broken else "")
        + f", players moved: {f.moves}, eliminated: {f.eliminated}",
        f"said on the tables' consoles: {len(f.notes)} notes (players with no chips, out, "
        "moved)" + "".join(f"\n  {n}" for n in f.notes),
        "",
        "place  player           prize",
    ]
    for r in results.rows:
        place = f"{r.place}" + ("=" if r.shared > 1 else "")
        lines.append(f"{place:<6} {r.player:<16} {euros(r.prize_cents + r.special_cents)}")
    winner = next((r.player for r in results.rows if r.place == 1), "?")
    lines += [f"winner: {winner}", f"chips conserved: {'yes' if chips_ok else 'NO'} ({chips})"]
    for path in f.records:
        lines.append(f"records: {path}")
    for path in f.screenshots:
        lines.append(f"screenshot: {path}")
    lines.append(f"verify with: dealer-assist audit verify --db {url}")
    out.write("\n".join(lines) + "\n")
    return good == len(hands) and chips_ok
