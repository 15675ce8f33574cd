"""A whole tournament rehearsed through the real director, clock and table consoles
(``dealer-assist tournament rehearse``), offscreen, on a fast clock.

The director is the director's console's own desk (:class:`~ui.tournament.desk.DirectorDesk`:
registration, the seat draw, the clock, the pause), its tournament director doing what falls due
between hands (:meth:`~dealer_assist.tournament.director.Director.between_hands`: busted
players rebuy or go out, rebuys and add-ons, tables broken and balanced, the level records);
each table is its dealer's console (:class:`~ui.tournament.rehearsal_table.TableRig`: the real
poker service and presenter, the level strip and its time-outs), every hand started, dealt and
decided by taps as a dealer would, all in one journal. The room's clock
(:class:`~ui.tournament.clock_window.ClockWindow`) reads the same journal for the screenshots.

The clock is the rehearsal's own (:class:`FastClock`): aware UTC, it starts when the
rehearsal does and moves only when the rehearsal moves it: each decision takes ``think``
seconds (``--speed``), a time-out the action clock and the time bank, a break its minutes, the
director's pause a minute. So levels change in the middle of hands, breaks fall due, and the
whole tournament runs in seconds, the same at any machine speed. Who rebuys or takes the add-on
is a seeded choice (:class:`RehearsalPlayers`); the decks and the decisions are seeded too.

What happens is counted in :class:`~ui.tournament.rehearsal_report.Figures`, each hand checked
against its level (:func:`~ui.tournament.rehearsal_report.check_hand`).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.games.session import TableSession
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.records import journal_event, part_of
from dealer_assist.tournament.results import ResultsTable
from dealer_assist.tournament.structure import TournamentStructure
from ui.records import RecordsFile
from ui.tournament.clock_window import ClockWindow
from ui.tournament.desk import DirectorDesk
from ui.tournament.rehearsal_report import Figures, check_hand
from ui.tournament.rehearsal_table import HandPlayed, RehearsalError, TableRig
from ui.tournament.table_config import assigned_table

DIRECTOR = "director"  # the operator the director's records name
REBUY_RATE = 0.7  # a busted player who may rebuy does so with this probability
ADDON_RATE = 0.6  # a player in the add-on's window takes it (asked once a hand)
PAUSE_AT = 3  # the director pauses the clock before the tournament's hand number 3
PAUSE_SECONDS = 60
TIMEOUT_AT = 5  # the first player who may check or fold in hand 5 or later lets time run out
SIT_OUT_HANDS = 2  # a timed-out player comes back after this many of the tournament's hands
MAX_HANDS = 5000  # a tournament that does not end in this many hands: a bug, said
SIZE = (1920, 1080)
BETWEEN_SECONDS = 5  # between two hands of a table: the pot pushed, the cards shuffled


class FastClock:
    """The rehearsal's clock (module doc): aware UTC from ``start``, moved only by
    :meth:`advance`."""

    def __init__(self, start: datetime) -> None:
        self.t = start

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move on by ``seconds`` (>= 0)."""
        self.t += timedelta(seconds=max(seconds, 0.0))

    def at_least(self, moment: datetime | None) -> None:
        """Never before ``moment`` (a rehearsal resumed on a journal its clock ran ahead of)."""
        if moment is not None and moment > self.t:
            self.t = moment


class RehearsalPlayers:
    """The players' choices between hands (the director's :class:`Players`), hashes of (seed,
    hand, player): a busted player who may rebuy does so with :data:`REBUY_RATE`, a player in
    the add-on's window takes it with :data:`ADDON_RATE`; nobody tops up or sits out of their
    own accord (a time-out does it)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        """Busted: :data:`REBUY_RATE`; a short stack never."""
        return busted and draw_number(self.seed, "rebuy", hand, player) < REBUY_RATE

    def takes_addon(self, player: str, hand: int) -> bool:
        """:data:`ADDON_RATE` each hand of the window."""
        return draw_number(self.seed, "addon", hand, player) < ADDON_RATE

    def sits_out(self, player: str, hand: int) -> int:
        """Never (0)."""
        return 0


@dataclass(frozen=True)
class Options:
    """A rehearsal: the structure, ``players`` named ``Player-01`` ..., the seed, the journal
    (``url``), the records file (None: none), ``think`` (seconds of the fast clock a decision
    takes), the screenshots folder (None: none) and the screens' language."""

    structure: TournamentStructure
    players: int
    seed: int
    url: str
    records: str | None = None
    think: float = 10.0
    screenshots: Path | None = None
    lang: str = "en"
    tournament_id: str = ""

    def check(self) -> None:
        """Raises ConfigError naming a bad option."""
        s = self.structure
        if self.players < max(2, s.min_players):
            raise ConfigError(
                f"--players {self.players}: the structure needs at least {max(2, s.min_players)}"
            )
        fastest = min(lv.action_seconds for lv in s.levels)
        if not 0 < self.think < fastest:
            raise ConfigError(
                f"--speed {self.think:g}: a decision's seconds must be more than 0 "
                f"and less than the action clock ({fastest} s)"
            )


class Rehearsal:
    """One rehearsal (module doc) on ``options``; ``clock`` its fast clock. :meth:`run` plays it
    to the end (a journal that has it already: resumed where it stopped)."""

    def __init__(self, app: QApplication, options: Options, clock: FastClock) -> None:
        options.check()
        self.app = app
        self.o = options
        self.clock = clock
        self.structure = options.structure
        self.tid = options.tournament_id or "REHEARSAL"
        self.figures = Figures()
        self.players = RehearsalPlayers(options.seed)
        self.journal = Journal(options.url)
        self.desk: DirectorDesk | None = None
        self.rigs: dict[str, TableRig] = {}
        self.records: dict[str, RecordsFile] = {}
        self.room: ClockWindow | None = None
        self._seen = 0
        self._timeouts = 0  # sit-outs the tables journaled for a player out of time
        self._shot: set[str] = set()

    # -- setup ----------------------------------------------------------------------------------
    def _open(self) -> DirectorDesk:
        o = self.o
        self.journal.open()
        desk = self.desk = DirectorDesk(self.journal, self.tid, self.structure, now=self.clock)
        st = desk.state
        self.clock.at_least(st.clock.as_of)
        if not st.opened:
            desk.open(seed=o.seed, players=o.players, by=DIRECTOR)
        for i in range(1, o.players + 1):
            if f"Player-{i:02d}" not in desk.state.ledger.accounts and desk.state.draw is None:
                desk.register(f"Player-{i:02d}", by=DIRECTOR)
        if desk.state.draw is None:
            desk.draw(by=DIRECTOR)
        if not desk.state.started:
            desk.start(by=DIRECTOR)
        elif desk.state.clock.paused and desk.state.finished is None:
            desk.resume(by=DIRECTOR)  # a rehearsal resumed: its restart's pause lifted
        self._earlier(desk)
        for table in desk.state.tables:
            config, _tid = assigned_table(o.url, self.tid, table)
            if o.records:
                rec = RecordsFile(
                    _records_path(o.records, table, len(desk.state.tables)),
                    table,
                    group=config.journal_group,
                )
                rec.open(self.journal)
                self.records[table] = rec
                self.figures.records.append(str(rec.path))
            rig = TableRig(
                config,
                o.url,
                self.tid,
                now=self.clock,
                advance=self.clock.advance,
                record=functools.partial(self._record, table),
                seed=o.seed,
            )
            self.rigs[table] = rig
        return desk

    def _earlier(self, desk: DirectorDesk) -> None:
        """What a run before a crash did (its hands, the pause, the time-out), so that a
        resumed rehearsal does each once; the first look between hands counts the rest."""
        self._seen = 0
        for stored in self.journal.iter_hands(1):
            part = part_of(stored, self.tid) or {}
            event = part.get("event")
            if stored.table_id in desk.state.tables and stored.status == "settled":
                record = stored.record
                level = record.get("tournament", {}).get("level")
                self.figures.hands.append(
                    check_hand(
                        self.structure,
                        self.tid,
                        stored.table_id,
                        stored.hand_uid or "",
                        record,
                        level,
                    )
                )
            if event == ev.PAUSED and part.get("why") != "restart":
                self.figures.pauses += 1
            elif event == ev.SAT_OUT and part.get("why") == "timed_out":
                self._timeouts += 1

    def close(self) -> None:
        """Close the consoles, the records files and the journal (idempotent)."""
        for rig in self.rigs.values():
            rig.close()
        for rec in self.records.values():
            rec.close()
        if self.room is not None:
            self.room.close()
        self.journal.close()

    # -- the run --------------------------------------------------------------------------------
    def run(self) -> ResultsTable:
        """Play the tournament to one winner; its results (journaled).

        Raises:
            RehearsalError: it could not go on (said with the table and hand).
            DealerAssistError: a journal, a configuration or a chip check that failed.
        """
        desk = self._open()
        d = desk.director
        for rig in self.rigs.values():  # a hand a crash left: finished first
            if not desk.state.at_table(rig.table_id):
                continue
            rig.open()
            snap = rig.driver.p.snap
            if snap.in_hand:  # resumed by the console's service, at the level it started at
                rig.show(desk.snapshot())
                played = self._play(rig, resumed=True)
                level = int(played.stored.record["tournament"]["level"])
                self.figures.resumed.append((rig.table_id, snap.hand_uid, level))
        for _ in range(MAX_HANDS):
            self._between()
            if d.finished:
                break
            rig = self._next_rig()
            if d.state.hands >= PAUSE_AT and self.figures.pauses == 0:
                self._pause(rig)
            rig.show(desk.snapshot())
            why = rig.new_hand()
            if why:
                if desk.clock_now().on_break:
                    self._break(why)
                    continue
                raise RehearsalError(f"{rig.table_id}: no hand starts: {why}")
            self._play(rig)
        else:
            raise RehearsalError(f"the tournament did not end in {MAX_HANDS} hands")
        results = d.finish()
        self._shoot_room("end")
        return results

    def _next_rig(self) -> TableRig:
        """The table that plays next: of those with two players with chips, the one that has
        played fewest hands (the tables of a room play at once; here in turn)."""
        st = self._desk().state
        live = [
            t for t in st.tables if sum(1 for n in st.at_table(t).values() if st.stack(n) > 0) >= 2
        ]
        if not live:
            raise RehearsalError("no table has two players with chips")
        tid = min(live, key=lambda t: (st.table_hands.get(t, 0), st.tables.index(t)))
        rig = self.rigs[tid]
        if not rig.opened:
            rig.open()
        return rig

    @property
    def state(self) -> Any:
        """The tournament as its journal says (the director's fold). Raises RehearsalError
        before :meth:`run`."""
        return self._desk().state

    def _desk(self) -> DirectorDesk:
        if self.desk is None:
            raise RehearsalError("the rehearsal is not open")
        return self.desk

    def _between(self) -> None:
        """What falls due between hands (the director's), counted from the records it wrote."""
        desk = self._desk()
        desk.refresh()
        st = desk.state
        before = {t: len(st.at_table(t)) for t in st.tables}
        desk.director.between_hands(self.players)
        desk.refresh()
        self.clock.advance(BETWEEN_SECONDS)
        moved_from: set[str] = set()
        moved_to: list[str] = []
        for stored in self.journal.iter_hands(self._seen + 1):
            self._seen = stored.hand_id
            part = part_of(stored, self.tid)
            event = part.get("event") if part is not None else None
            f = self.figures
            f.rebuys += event == ev.REBUY
            f.addons += event == ev.ADDON
            f.eliminated += event == ev.ELIMINATED
            if event == ev.MOVED_OUT:
                f.moves += 1
                moved_from.add(stored.table_id)
            elif event == ev.MOVED_IN:
                moved_to.append(stored.table_id)
        for t in sorted(moved_from):
            if before.get(t, 0) and not st.at_table(t) and len(st.alive()) > 1:
                self.figures.tables_broken.append(t.rsplit("-", 1)[-1])
        self._notes()
        for t in sorted(moved_from):  # the table the players went to, before its next hand
            if t.rsplit("-", 1)[-1] in self.figures.tables_broken and moved_to:
                self._shoot_table(moved_to[0], "table_break")

    def _notes(self) -> None:
        """Each console told of the tournament now: what its strip's notes say (a player with
        no chips, out, moved) is counted."""
        snap = self._desk().snapshot()
        for rig in self.rigs.values():
            if not rig.opened:
                continue
            rig.driver.feed(rig.driver.service.tick())  # the console's worker ticks
            rig.show(snap)
            for line in rig.strip.notes.text().splitlines():
                if line not in self.figures.notes:
                    self.figures.notes.append(line)

    def _pause(self, rig: TableRig) -> None:
        """The director pauses the clock: the console refuses a new hand; a minute later the
        clock runs again."""
        desk = self._desk()
        desk.pause(by=DIRECTOR)
        self.figures.pauses += 1
        rig.show(desk.snapshot())
        why = rig.new_hand()
        if not why:
            raise RehearsalError(f"{rig.table_id}: a hand started while the clock was paused")
        self.figures.refused.append(why)
        self._shoot_room("paused")
        self.clock.advance(PAUSE_SECONDS)
        desk.resume(by=DIRECTOR)

    def _break(self, why: str) -> None:
        """A break is on: the console refused the hand; its minutes run on the fast clock."""
        desk = self._desk()
        self.figures.refused.append(why)
        view = desk.clock_now().view(self.structure)
        brk = self.structure.break_after(view.level.number)
        self.figures.breaks.append((view.level.number, brk.minutes if brk else 0))
        self._shoot_room("break")
        self.clock.advance((view.break_ms_left or 0) / 1000 + 1)

    def _play(self, rig: TableRig, *, resumed: bool = False) -> HandPlayed:
        desk = self._desk()
        st = desk.state
        number = st.hands
        out = {n for n in st.at_table(rig.table_id).values() if n in rig.timeouts.out}
        rng = random.Random(f"{self.o.seed}:{rig.table_id}:{rig.driver.hands}")
        time_out = self._timeouts == 0 and number >= TIMEOUT_AT and not resumed
        counted = self._timeouts
        level = rig.driver.live.level.number if rig.driver.live.level is not None else 0

        def moment() -> None:
            if rig.level_shown is not None and rig.level_shown != level:
                self._shoot_table(rig.table_id, "level_change_mid_hand")
            if self._timeouts > counted:
                self._shoot_table(rig.table_id, "time_out")

        played = rig.play(rng, think=self.o.think, time_out=time_out, moment=moment)
        desk.refresh()
        desk.state.check_chips(f"after hand {played.stored.hand_uid} at {rig.table_id}")
        rec = played.stored.record
        dealt = {
            desk.state.at_table(rig.table_id).get(int(p["seat"])) for p in rec.get("players", [])
        }
        self.figures.sat_out_hands += len(out & dealt)
        self.figures.sat_out_taps += played.sat_out_taps
        self.figures.hands.append(
            check_hand(
                self.structure,
                self.tid,
                rig.table_id,
                played.stored.hand_uid or "",
                rec,
                played.level_at_end,
                played.timed_out,
            )
        )
        for r in self.records.values():
            r.catch_up(self.journal)
        if any(t == rig.table_id for _n, t, _may in desk.snapshot().busted):
            self._shoot_table(rig.table_id, "no_chips")  # the prompt, before the director acts
        self._notes()
        return played

    def _record(self, table: str, event: str, fields: dict[str, Any]) -> None:
        """A table's sit-out record (:class:`~ui.tournament.timeouts.TimeOuts`), journaled as
        the console's strip journals it; the rehearsal's player comes back
        :data:`SIT_OUT_HANDS` hands later (the director sits them in)."""
        desk = self._desk()
        part = {"id": self.tid, "event": event, **fields}
        if event == ev.SAT_OUT:
            part["back_at"] = desk.state.hands + SIT_OUT_HANDS
            self._timeouts += fields.get("why") == "timed_out"
        journal_event(
            self.journal,
            self.tid,
            part,
            TableSession(self.tid),
            by="console",
            game=self.structure.game,
        )
        desk.refresh()

    # -- screenshots ----------------------------------------------------------------------------
    def _shoot_table(self, table: str, what: str) -> None:
        if self.o.screenshots is None or what in self._shot:
            return
        rig = self.rigs.get(table)
        if rig is None:
            return
        self._shot.add(what)
        rig.show(self._desk().snapshot())
        win = rig.window(self.o.lang)
        win.show()
        self._save(win, f"tournament_rehearsal_{what}_{self.o.lang}.png")

    def _shoot_room(self, what: str) -> None:
        if self.o.screenshots is None or what in self._shot:
            return
        self._shot.add(what)
        if self.room is None:
            self.room = ClockWindow(now=self.clock)
            self.room.show()
        self.room.set_snapshot(self._desk().snapshot())
        self._save(self.room, f"tournament_rehearsal_clock_{what}_{self.o.lang}.png")

    def _save(self, w: QWidget, name: str) -> None:
        folder = self.o.screenshots
        if folder is None:
            return
        for _ in range(2):
            w.resize(*SIZE)
            for _ in range(3):
                self.app.processEvents()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        if not w.grab().save(str(path)):
            raise DealerAssistError(f"rehearse: could not save {path}")
        self.figures.screenshots.append(str(path))


def _records_path(path: str, table_id: str, tables: int) -> Path:
    """``--records``: the file itself with one table, else ``NAME.T1.jsonl`` ... a table."""
    p = Path(path)
    if tables <= 1:
        return p
    return p.with_name(f"{p.stem}.{table_id.rsplit('-', 1)[-1]}{p.suffix or '.jsonl'}")
