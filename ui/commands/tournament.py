"""``dealer-assist tournament simulate``: a whole tournament headless, over the pty emulator.

Seeded simulated players (the game's own, as ``simulate --game``) register, draw their seats
and play the tournament of ``--structure`` to its final ranking: one emulator on a real
pseudo-terminal per table, the tables played one hand at a time in turn, broken and balanced as
players go out; every hand, purchase, level change, break, sit-out and elimination journaled in
one hash chain (:mod:`dealer_assist.tournament.director`). A time-based level runs on the
simulated clock: each hand lasts ``--seconds-per-hand`` (default 120 s), a break its minutes.

Rebuys, add-ons and sit-outs are the players' seeded choices (the same question after a restart
gets the same answer); chips are checked after every hand and every record: a difference stops
the run with the hand or record that broke it. Killed at any moment (``kill -9``), the same
command resumes from the journal (the hand in progress continued or voided by the rules, the
tournament folded from its records) and ends with the same ranking and prizes.

Prints the results (place, player, prize), the per-level summary (level, hands, players left,
average stack) and the chip check.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import re
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from dealer_assist.at_rest import data_folder
from dealer_assist.config import load_table_config
from dealer_assist.errors import ConfigError, JournalError
from dealer_assist.games import get_pot_game
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.director import SECONDS_PER_HAND, Director
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.play import Tournament
from dealer_assist.tournament.results import ResultsTable
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure, euros
from dealer_assist.tournament.structure_reader import load_structure
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from ui.commands import tournament_rehearse, tournament_screens
from ui.commands.simulate_poker import SimulatedSeat
from ui.records import RecordsFile
from ui.stop import StopRequest

BY = "simulate"
REBUY_RATE = 0.7  # a busted player who may rebuy does so with this probability
TOP_UP_RATE = 0.05  # a short player who may rebuy does so, each hand
ADDON_RATE = 0.35  # a player in the add-on's window takes it, each hand
SIT_OUT_RATE = 0.01  # a player sits out for 1..3 hands


def register(sub: Any) -> None:
    """Add the ``tournament`` command and its ``simulate`` sub-command."""
    p = sub.add_parser(
        "tournament",
        help="tournaments (rules text 002): headless simulation",
        description="Tournaments: structure, entries, clock, ranking, prizes.",
    )
    tsub = p.add_subparsers(dest="tournament_command", required=True, metavar="SUBCOMMAND")
    s = tsub.add_parser(
        "simulate",
        help="play a whole tournament with seeded players over the pty emulator",
        description="Play a tournament to its final ranking with seeded simulated players, "
        "one emulated shuffler on a pseudo-terminal per table; a rerun on the same journal "
        "resumes it.",
    )
    s.add_argument(
        "--structure", required=True, help="tournament structure TOML (config/tournaments/*.toml)"
    )
    s.add_argument("--players", type=int, required=True, help="players who register")
    s.add_argument("--seed", type=int, default=1, help="seed of the draw, decks and players")
    s.add_argument(
        "--journal",
        help="journal: SQLite path or postgresql+psycopg:// URL "
        "(default: in the data folder, by structure and seed)",
    )
    s.add_argument(
        "--records",
        help="append each settled hand as a HAND_RECORD JSON line "
        "(one file per table: NAME.T1.jsonl ... when there are several)",
    )
    s.add_argument(
        "--seconds-per-hand",
        type=int,
        default=SECONDS_PER_HAND,
        metavar="S",
        help="the simulated clock: a hand's length (default %(default)s)",
    )
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=run)
    tournament_screens.register(tsub)  # clock, director (the screens' own module)
    tournament_rehearse.register(tsub)  # the whole tournament through the real consoles


def tournament_id(structure: TournamentStructure, seed: int, players: int) -> str:
    """The tournament's id in the journal: the structure's name, players and seed."""
    # the whole name (it was cut at 24 characters: "SEVEN-CARD-STUD-FREEZEOU"); an apostrophe
    # joins its word ("Hold'em" -> HOLDEM)
    name = structure.name.replace("'", "").replace("’", "")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").upper() or "T"
    return f"{slug}-{players}P-S{seed}"


class SeededPlayers:
    """The simulated players' choices between hands, hashes of (seed, hand, player)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        """A busted player rebuys with REBUY_RATE, a short one with TOP_UP_RATE."""
        rate = REBUY_RATE if busted else TOP_UP_RATE
        return draw_number(self.seed, "rebuy", hand, player) < rate

    def takes_addon(self, player: str, hand: int) -> bool:
        """ADDON_RATE each hand of the window."""
        return draw_number(self.seed, "addon", hand, player) < ADDON_RATE

    def sits_out(self, player: str, hand: int) -> int:
        """1..3 hands with SIT_OUT_RATE, else 0."""
        x = draw_number(self.seed, "sit_out", hand, player)
        return 1 + int(x / SIT_OUT_RATE * 3) if x < SIT_OUT_RATE else 0


def player_names(game: str, seed: int, n: int) -> list[str]:
    """``style-NN`` for players 1..n, the game's simulated styles drawn from the seed."""
    styles = get_pot_game(game).player_styles
    return [
        f"{styles[int(draw_number(seed, 'style', i) * len(styles))]}-{i:02d}"
        for i in range(1, n + 1)
    ]


def run(args: argparse.Namespace) -> int:
    """The simulation (module docstring); 0 when it ran to its end with every chip accounted,
    1 when the chips in play at the end are not the starting stacks + rebuys + add-ons.

    Raises:
        ConfigError: a bad option or structure (names it). DeviceError, JournalError (said in a
            sentence; a rerun resumes). ChipsNotConserved: the hand or record that broke it.
    """
    started = time.monotonic()
    # what is loaded by now (every command's modules) lives to the end: out of the collections
    # each new hand runs (the table runner's gc.collect between hands), which it would dominate
    gc.freeze()
    structure = load_structure(args.structure)
    if args.players < 2:
        raise ConfigError("--players must be at least 2")
    if args.seconds_per_hand < 1:
        raise ConfigError("--seconds-per-hand must be at least 1")
    tid = tournament_id(structure, args.seed, args.players)
    url = args.journal or str(data_folder() / f"tournament-{tid.lower()}.db")
    base = load_table_config(None, game=structure.game)
    base = dataclasses.replace(base, seats=structure.max_seats, journal_url=url, sources=())
    journal = Journal(url, group=base.journal_group)
    sources: dict[str, Any] = {}
    records: dict[str, RecordsFile] = {}

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        source = open_source(
            f"emulator://?seed={args.seed}&shuffle_time=0.01&card_interval=0.001", name=table_id
        )
        sources[table_id] = source
        source.open()
        if args.records:
            rec = RecordsFile(
                _records_path(args.records, table_id, args.players, structure),
                table_id,
                group=base.journal_group,
            )
            rec.open(journal)
            records[table_id] = rec
        config = dataclasses.replace(base, table_id=table_id)
        return TournamentTable(config, source, view, structure)

    def reseed(table: TournamentTable, seed: int) -> None:
        source = sources.get(table.table_id)
        if isinstance(source, EmulatorSource):
            source.emulator.reseed(seed)

    game = get_pot_game(structure.game)

    def seat_players(table: TournamentTable, rng: Any) -> Mapping[int, Any]:
        out = {}
        for seat, name in director.state.at_table(table.table_id).items():
            style = name.rsplit("-", 1)[0]
            style = style if style in game.player_styles else game.player_styles[0]
            out[seat] = SimulatedSeat(game.simulated_player(style, rng), rng)
        return out

    bar = None
    stop = StopRequest().install()  # SIGTERM/SIGINT: the tournament stops between hands
    try:
        journal.open()
        director = Director(journal, tid, make_table=make_table, by=BY)
        ran = director.state.structure
        if ran is not None and ran.to_dict() != structure.to_dict():
            raise ConfigError(
                f"{args.structure}: the journal's tournament {tid} runs with "
                "another structure (changed since it started): use another "
                "--journal or the structure it started with"
            )
        if director.state.finished is None:
            bar = None if args.no_progress else tqdm(unit="hand", file=sys.stderr)

            def after_hand() -> None:
                for rec in records.values():
                    rec.catch_up(journal)
                if bar is not None:
                    bar.set_postfix(left=len(director.state.alive()), refresh=False)
                    bar.update()

            say = lambda line: print(line, flush=True)  # noqa: E731
            t = Tournament(
                director,
                SeededPlayers(args.seed),
                seat_players,
                reseed=reseed,
                say=say,
                after_hand=after_hand,
                should_stop=lambda: stop.requested,
            )
            t.run(
                structure,
                seed=args.seed,
                names=player_names(structure.game, args.seed, args.players),
                seconds_per_hand=args.seconds_per_hand,
            )
            after_hand()
            if t.stopped:
                return _stopped(stop, director.state, url)
        results = director.finish()
    except JournalError as e:
        raise JournalError(
            f"stopped: {e}; run the same command again on this journal to resume the tournament"
        ) from e
    finally:
        stop.restore()
        if bar is not None:
            bar.close()
        for source in sources.values():
            source.close()
        for rec in records.values():
            rec.close()
        journal.close()
    ok = report(sys.stdout, director.state, results, url=url, seconds=time.monotonic() - started)
    return 0 if ok else 1


def _stopped(stop: StopRequest, state: TournamentState, url: str) -> int:
    """An ordinary stop between hands: one sentence on stderr, where the tournament stands on
    stdout, exit 0."""
    print(
        stop.sentence(
            f"after hand {state.hands} of tournament {state.tournament_id}: every "
            "hand and record journaled, no table has a hand to resume; the same "
            "command continues the tournament"
        ),
        file=sys.stderr,
    )
    print(
        f"tournament {state.tournament_id}: {state.hands} hands played, "
        f"{len(state.alive())} players left, journal {url}"
    )
    return 0


def _records_path(path: str, table_id: str, players: int, s: TournamentStructure) -> Path:
    p = Path(path)
    if -(-players // s.max_seats) <= 1:
        return p
    return p.with_name(f"{p.stem}.{table_id.rsplit('-', 1)[-1]}{p.suffix or '.jsonl'}")


def report(
    out: TextIO, state: TournamentState, results: ResultsTable, *, url: str, seconds: float
) -> bool:
    """The results, the per-level summary and the chip check; whether the chips add up."""
    lines = [
        f"tournament {state.tournament_id} ({results.name}, {results.game}), journal {url}",
        f"entrants {results.entrants}, rebuys {results.rebuys}, add-ons {results.addons}, "
        f"prize pool {euros(results.pool_cents)}",
        "",
    ]
    prizes = [euros(r.prize_cents + r.special_cents) for r in results.rows]
    # columns as wide as their longest entry (a player's name may pass 16 characters)
    name_w = max([16, *(len(r.player) for r in results.rows)])
    prize_w = max([5, *map(len, prizes)])
    lines.append(f"{'place':<6} {'player':<{name_w}} {'prize':>{prize_w}}")
    for r, prize in zip(results.rows, prizes, strict=True):
        place = f"{r.place}" + ("=" if r.shared > 1 else "")
        lines.append(f"{place:<6} {r.player:<{name_w}} {prize:>{prize_w}}")
    for a in results.specials:
        lines.append(f"special prize: {a.player} {a.category} in hand {a.hand} ({euros(a.cents)})")
    lines += ["", "level  hands  players left  average stack"]
    for lv in sorted(state.levels.values(), key=lambda x: x.level):
        lines.append(f"{lv.level:<6} {lv.hands:<6} {lv.players_left:<13} {lv.average_stack}")
    led = state.ledger
    kinds = {
        k: sum(p.chips for p in led.purchases if p.kind == k)
        for k in ("entry", "second_half", "rebuy", "addon")
    }
    start = kinds["entry"] + kinds["second_half"]
    total = state.chips_in_play()
    ok = total == start + kinds["rebuy"] + kinds["addon"] == led.chips_issued
    check = (
        f"{total} in play = starting stacks {start} + rebuys {kinds['rebuy']} + add-ons "
        f"{kinds['addon']}"
    )
    if state.final is not None:  # heats: the final's fresh stacks, the heats' chips taken off
        f = state.final
        ok = total == led.chips_issued + f.chips - f.retired and f.chips > 0
        check = (
            f"{total} in play = starting stacks {start} + rebuys {kinds['rebuy']} + "
            f"add-ons {kinds['addon']} - taken off at the heats' end {f.retired} + the "
            f"final's starting stacks {f.chips}"
        )
    lines += [
        "",
        f"hands: {state.hands} settled, {state.voids} void",
        f"chips conserved: {'yes' if ok else 'NO'}, checked after every hand and record: {check}",
        f"time: {seconds:.1f} s",
        f"verify with: dealer-assist audit verify --db {url}",
    ]
    out.write("\n".join(lines) + "\n")
    return ok
