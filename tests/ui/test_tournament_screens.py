"""The tournament screens, Qt offscreen with pytest-qt, over real SQLite
journals written by the director's desk (and, for the EUR 250 cap, hands played over the pty
emulator by the tournament director): the room's clock shows the level the core says and
counts down with a controlled clock, the break's countdown, the pause, and says what keeps it
from reading a journal; the director's console journals each step with its operator and shows
each refusal as the core's sentence (a rebuy past EUR 250); the dealer's level strip runs the
action clock and the time bank; Italian texts; nothing cut at 1920x1080 or 1280x800."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QTableWidget

from dealer_assist.config import load_table_config
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_driving import play_hand
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from drivers.factory import open_source
from tests.ui.test_console_text_fit import cut_texts
from ui.commands.simulate_poker import SimulatedSeat
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.kit.service_parts import ServiceParts
from ui.tournament.board import countdown
from ui.tournament.clock_window import ClockWindow
from ui.tournament.desk import DirectorDesk
from ui.tournament.director_window import DeskWorker, DirectorWindow
from ui.tournament.feed import JournalFeed
from ui.tournament.level_strip import LevelStrip

EMULATOR = "emulator://?seed=3&shuffle_time=0.01&card_interval=0.001"
NAMES = ["Ada", "Bea", "Carlo", "Dino", "Elsa", "Fabio"]


class Clock:
    """A wall clock the test moves, starting at the real time (to the second): hands played
    over the emulator are journaled at the real time, and a fixed start would put them in a
    later level whenever the suite runs more than a level after it (a test that failed from
    2026-12-01 20:30 UTC on)."""

    def __init__(self) -> None:
        self.t = utc_now().replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.t

    def move(self, **kw: float) -> None:
        self.t += timedelta(**kw)


def stud_break() -> TournamentStructure:
    """Two Stud levels of 20 minutes with a 10-minute break between, then a last level."""
    return structure_from_dict({
        "tournament": {"name": "Screens Stud", "game": "stud", "chip": 25,
                       "starting_stack": 1000, "max_seats": 8, "min_players": 6,
                       "entry_fee_cents": 5000},
        "clock": {"action_seconds": 30, "time_bank_seconds": 60, "time_bank": "automatic"},
        "levels": [
            {"small_limit": 100, "ante": 25, "bring_in": 25, "minutes": 20},
            {"small_limit": 200, "ante": 50, "bring_in": 50, "minutes": 20},
            {"small_limit": 400, "ante": 100, "bring_in": 100},
        ],
        "breaks": [{"after_level": 1, "minutes": 10}],
        "prizes": {"kind": "percentages", "percentages": [70, 30]},
    })  # fmt: skip


def holdem_dear() -> TournamentStructure:
    """Hold'em with an entry of EUR 150 and rebuys at the entry fee: the first rebuy would pass
    EUR 250 a player."""
    return structure_from_dict({
        "tournament": {"name": "Dear Holdem", "game": "holdem", "chip": 25,
                       "starting_stack": 1000, "max_seats": 9, "min_players": 6,
                       "entry_fee_cents": 15000},
        "levels": [
            {"small_blind": 50, "big_blind": 100, "minutes": 30},
            {"small_blind": 100, "big_blind": 200},
        ],
        "rebuy": {"max": 3, "until_level": 2},
        "prizes": {"kind": "winner_takes_all"},
    })  # fmt: skip


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


@pytest.fixture
def english(qtbot: Any) -> Iterator[None]:
    app = qt_app()
    install_language(app, "en")
    yield


def desk_for(journal: Journal, structure: TournamentStructure, clock: Clock) -> DirectorDesk:
    desk = DirectorDesk(journal, "ROOM", structure, now=clock)
    desk.open(seed=5, players=len(NAMES), by="Anna")
    for n in NAMES:
        desk.register(n, by="Anna")
    desk.draw(by="Anna")
    desk.start(by="Anna")
    return desk


def window(qtbot: Any, clock: Clock, size: tuple[int, int] = (1920, 1080)) -> ClockWindow:
    win = ClockWindow(now=clock)
    qtbot.addWidget(win)
    for _ in range(2):
        win.resize(*size)
        QCoreApplication.processEvents()
    win.show()
    return win


# -- the room's clock -------------------------------------------------------------------------


def test_the_clock_shows_the_level_the_core_says_and_counts_down(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    s = stud_break()
    desk = desk_for(journal, s, clock)
    win = window(qtbot, clock)
    win.set_snapshot(desk.snapshot())
    assert win.banner.text() == "LEVEL 1"
    assert win.time.text() == "20:00"
    assert win.blinds.text() == "Limits 100 / 200"
    assert win.forced.text() == "Ante 25 · Bring-in 25"
    assert win.next.text() == "Next level 2: Limits 200 / 400 · Ante 50 · Bring-in 50"
    assert win.brk.text() == "Break in 20:00 (10 minutes)"
    assert win.values["left"].text() == "6 of 6"
    assert win.values["avg"].text() == "1,000"
    assert win.values["pool"].text() == "€\u00a0300.00"
    assert [r.text() for r in win.rows if r.isVisible()] == ["€\u00a0210.00", "€\u00a090.00"]
    clock.move(minutes=3, seconds=1.2)
    win.refresh()
    assert win.time.text() == "16:59"
    view = desk.snapshot().clock_at(clock()).view(s)
    assert win.time.text() == countdown(view.level_ms_left or 0)
    # the clock's level is the core's: past level 1 and its break, level 2
    clock.move(minutes=17 + 10 + 5)
    win.refresh()
    core = desk.snapshot().clock_at(clock()).view(s)
    assert (core.level.number, core.on_break) == (2, False)
    assert win.banner.text() == "LEVEL 2"
    assert win.time.text() == "14:59"  # 5:01.2 into it, rounded up
    assert win.blinds.text() == "Limits 200 / 400"
    assert cut_texts(win) == []


def test_the_break_countdown_and_the_pause(qtbot: Any, journal: Journal, english: None) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    win = window(qtbot, clock)
    clock.move(minutes=20, seconds=4)
    win.set_snapshot(desk.snapshot())
    assert win.banner.text() == "BREAK"
    assert win.time.text() == "9:56"
    assert win.under.text() == "Play resumes in"
    assert win.blinds.text() == "Limits 200 / 400"  # what the next level plays
    assert win.next.text() == "After the break: level 2"
    clock.move(minutes=9)
    win.refresh()
    assert win.time.text() == "0:56"
    # the director pauses during the break: the countdown stops, in the journal too
    desk.pause(by="Anna")
    win.set_snapshot(desk.snapshot())
    clock.move(minutes=5)
    win.refresh()
    assert win.banner.text() == "LEVEL 1 · PAUSED"
    assert win.time.text() == "0:56"
    last = list(journal.iter_hands())[-1]
    assert last.record["tournament"]["event"] == ev.PAUSED and last.record["by"] == "Anna"
    desk.resume(by="Anna")
    win.set_snapshot(desk.snapshot())
    clock.move(seconds=57)
    win.refresh()
    assert (win.banner.text(), win.time.text()) == ("LEVEL 2", "19:59")


def test_the_clock_reads_the_journal_off_the_gui_thread_and_says_what_is_wrong(
    qtbot: Any, journal: Journal, tmp_path: Path, english: None
) -> None:
    clock = Clock()
    missing = tmp_path / "none.db"
    feed = JournalFeed(str(missing), interval=0.05, now=clock)
    win = ClockWindow(now=clock, feed=feed)
    qtbot.addWidget(win)
    win.show()
    win.start()
    qtbot.waitUntil(lambda: win.problem.isVisible(), timeout=5000)
    assert win.problem.text() == f"No journal at {missing}"
    assert win.banner.text() == "WAITING FOR THE JOURNAL"
    win.close()
    # a journal without a tournament, then one appears: the clock follows it
    feed = JournalFeed(journal.url_or_path, interval=0.05, now=clock)
    win = ClockWindow(now=clock, feed=feed)
    qtbot.addWidget(win)
    win.show()
    win.start()
    qtbot.waitUntil(lambda: win.problem.isVisible(), timeout=5000)
    assert win.problem.text().startswith("No tournament in this journal yet")
    desk = desk_for(journal, stud_break(), clock)
    qtbot.waitUntil(lambda: win.snap is not None and win.snap.clock.running, timeout=5000)
    assert not win.problem.isVisible()
    assert win.snap is not None and win.snap.tournament_id == "ROOM"
    assert win.banner.text() == "LEVEL 1" and win.values["left"].text() == "6 of 6"
    desk.pause(by="Anna")
    qtbot.waitUntil(lambda: win.banner.text() == "LEVEL 1 · PAUSED", timeout=5000)
    win.close()


# -- the director's console -------------------------------------------------------------------


def cell(table: QTableWidget, row: int, col: int) -> str:
    item = table.item(row, col)
    return item.text() if item is not None else ""


def run_step(qtbot: Any, win: DirectorWindow, step: Any) -> str:
    step()
    qtbot.waitUntil(lambda: not win.worker.busy, timeout=10000)
    return win.message.text()


def console(qtbot: Any, journal: Journal, structure: TournamentStructure, clock: Clock,
            operator: str = "Anna") -> DirectorWindow:  # fmt: skip
    def open_desk() -> DirectorDesk:
        desk = DirectorDesk(journal, "ROOM", structure, now=clock)
        if not desk.state.opened:
            desk.open(seed=5, players=len(NAMES), by=operator or "director")
        return desk

    worker = DeskWorker(open_desk)
    win = DirectorWindow(worker, operator=operator, now=clock)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    run_step(qtbot, win, win.refresh)
    return win


def test_the_directors_console_journals_each_step_with_its_operator(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    win = console(qtbot, journal, stud_break(), clock, operator="")
    try:
        before = journal.count()
        win.name.setText("Ada")
        assert run_step(qtbot, win, win.register).startswith("Name the operator first")
        assert journal.count() == before  # nothing written
        win.operator.setText("Anna")
        for n in NAMES:
            win.name.setText(n)
            said = run_step(qtbot, win, win.register)
        assert said == "Fabio registered: entry fee €\u00a050.00 (authorised by Anna)"
        regs = [h for h in journal.iter_hands()
                if h.record.get("tournament", {}).get("event") == ev.REGISTERED]  # fmt: skip
        assert [h.record["tournament"]["purchase"]["authorised_by"] for h in regs] == ["Anna"] * 6
        assert {h.record["by"] for h in regs} == {"Anna"}
        win.name.setText("Ada")
        assert run_step(qtbot, win, win.register) == "Refused: entry for Ada: already registered"
        assert run_step(qtbot, win, win.start).startswith("Refused: draw the seats")
        assert run_step(qtbot, win, win.draw) == "Seats drawn from the tournament's seed"
        seats = [tuple(cell(win.seat_list, i, j) for j in range(3))
                 for i in range(win.seat_list.rowCount())]  # fmt: skip
        assert sorted(p for _t, _s, p in seats) == sorted(NAMES)
        assert {t for t, _s, _p in seats} == {"1"}
        again = run_step(qtbot, win, win.draw)
        assert again == "Refused: the seats are already drawn"
        assert run_step(qtbot, win, win.start) == "The clock is running"
        clock.move(minutes=2)
        assert run_step(qtbot, win, win.pause) == "Clock paused by Anna"
        assert win.clock.text().endswith("· PAUSED · 6 of 6")
        assert win.buttons["resume"].isVisibleTo(win) and not win.buttons["pause"].isVisibleTo(win)
        assert run_step(qtbot, win, win.pause) == "Refused: the clock is already paused"
        assert run_step(qtbot, win, win.resume) == "Clock resumed by Anna"
        win.players.selectRow(1)
        said = run_step(qtbot, win, win.undo)
        assert said == "Refused: Bea is not out: no bust to undo"
        said = run_step(qtbot, win, win.rebuy)
        assert said == "Refused: rebuy for Bea: this tournament has no rebuys"
        assert cut_texts(win) == []
    finally:
        win.close()
        win.worker.close()


class NoChoices:
    """Players who never rebuy, take the add-on or sit out between hands by themselves."""

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        return False

    def takes_addon(self, player: str, hand: int) -> bool:
        return False

    def sits_out(self, player: str, hand: int) -> int:
        return 0


def play_until(journal: Journal, structure: TournamentStructure, tid: str, *,
               out: bool = False) -> str:  # fmt: skip
    """Hands at the tournament's table over the pty emulator until a player is below the
    starting stack with chips left (``out``: eliminated); that player."""
    base = load_table_config(None, game=structure.game)
    base = dataclasses.replace(base, seats=structure.max_seats, sources=())
    sources: list[Any] = []

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        src = open_source(EMULATOR, name=table_id)
        sources.append(src)
        src.open()
        return TournamentTable(dataclasses.replace(base, table_id=table_id), src, view,
                               structure)  # fmt: skip

    game = get_pot_game(structure.game)
    rng = random.Random(3)
    director = Director(journal, tid, make_table=make_table, by="dealer")
    try:
        for _ in range(40):
            st = director.state
            full = structure.starting_stack
            short = [n for n, c in st.stacks().items()
                     if (st.entrants[n].out if out else 0 < c < full)]  # fmt: skip
            if short:
                return short[0]
            director.between_hands(NoChoices())  # the button drawn, the busted out
            nxt = director.next_hand()
            style = game.player_styles[0]
            seats = {s: SimulatedSeat(game.simulated_player(style, rng), rng)
                     for s in director.state.at_table(nxt.table.table_id)}  # fmt: skip
            play_hand(nxt.table.table, seats, rng, by="dealer")
            director.hand_done("test hand")
    finally:
        for src in sources:
            src.close()
    raise AssertionError("no player went short (or out) in 40 hands")


def test_a_rebuy_past_eur_250_is_refused_with_the_cores_sentence(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    s = holdem_dear()
    desk = desk_for(journal, s, clock)
    short = play_until(journal, s, "ROOM")
    desk.refresh()
    with pytest.raises(PurchaseRefused, match=r"EUR 250\.00") as refused:
        desk.rebuy(short, by="Anna")
    win = console(qtbot, journal, s, clock)
    try:
        rows = [cell(win.players, i, 0) for i in range(win.players.rowCount())]
        win.players.selectRow(rows.index(short))
        before = journal.count()
        said = run_step(qtbot, win, win.rebuy)
        assert said == f"Refused: {refused.value}"
        assert "EUR 250.00" in said and said.startswith(f"Refused: rebuy for {short}:")
        assert win.message.property("kind") == "refused"
        assert journal.count() == before
        assert cell(win.players, rows.index(short), 5) == "0"  # no rebuy counted
    finally:
        win.close()
        win.worker.close()


def test_a_bust_undone_brings_the_player_back_with_a_rebuy_and_reranks(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    s = structure_from_dict({
        "tournament": {"name": "Short Holdem", "game": "holdem", "chip": 25,
                       "starting_stack": 200, "max_seats": 9, "min_players": 6,
                       "entry_fee_cents": 2000},
        "levels": [{"small_blind": 50, "big_blind": 100, "minutes": 30},
                   {"small_blind": 100, "big_blind": 200}],
        "rebuy": {"max": 2, "until_level": 1},
        "prizes": {"kind": "winner_takes_all"},
    })  # fmt: skip
    desk_for(journal, s, clock)
    busted = play_until(journal, s, "ROOM", out=True)
    win = console(qtbot, journal, s, clock)
    try:
        names = [cell(win.players, i, 0) for i in range(win.players.rowCount())]
        row = names.index(busted)
        assert cell(win.players, row, 7) == "Out"
        win.players.selectRow(row)
        said = run_step(qtbot, win, win.undo)
        assert said == f"Bust of {busted} undone (authorised by Anna)"
        assert [cell(win.players, row, j) for j in (3, 4, 5, 7)] == [
            "200", "€ 40.00", "1", "Playing"]  # fmt: skip
        assert win.last is not None and busted in {p for _t, _s, p in win.last.seats}
        # the journal: the undo on the desk, the rebuy as the seat taken, both by Anna
        tail = list(journal.iter_hands())[-2:]
        parts = [h.record["tournament"] for h in tail]
        assert [p["event"] for p in parts] == [ev.UNDONE, ev.SEATED]
        assert parts[1]["purchase"]["kind"] == "rebuy"
        assert {h.record["by"] for h in tail} == {"Anna"}
        desk = DirectorDesk(journal, "ROOM", s)  # the fold from the start says the same
        assert busted not in desk.state.eliminations.out
        assert desk.state.stack(busted) == 200
        desk.state.check_chips("after the undo")
        # a player still in cannot be undone; nothing written
        before = journal.count()
        win.players.selectRow(row)
        assert run_step(qtbot, win, win.undo) == f"Refused: {busted} is not out: no bust to undo"
        assert journal.count() == before
    finally:
        win.close()
        win.worker.close()


# -- the dealer's level strip -----------------------------------------------------------------


def test_the_level_strip_runs_the_action_clock_and_the_time_bank(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    strip = LevelStrip(now=clock)
    qtbot.addWidget(strip)
    strip.table_id = "elsewhere"
    strip.set_snapshot(desk.snapshot())
    assert strip.snap is None and not strip.isVisible()  # not a table of this tournament
    strip.table_id = desk.state.tables[0]
    strip.set_snapshot(desk.snapshot())
    strip.resize(860, strip.sizeHint().height())  # its width over a 1280x800 console's felt
    assert strip.isVisible()
    assert strip.level.text() == "Level 1"
    assert strip.amounts.text() == "Limits 100 / 200 · Ante 25 · Bring-in 25"
    assert strip.left.text() == "20:00 left in the level"
    assert strip.action.text() == "Action clock 30 s · time bank 60 s"
    strip.on_turn(("h1", 3, "third"), "Ada")
    clock.move(seconds=10)
    strip.refresh()
    assert strip.action.text() == "Ada: 0:20 · time bank 1:00"
    clock.move(seconds=25)  # 5 s past the action clock: the bank runs (automatic)
    strip.refresh()
    assert strip.action.text() == "Ada: time bank 0:55"
    strip.on_turn(("h1", 4, "third"), "Bea")  # Ada acted: her bank settled
    assert strip.banks.left("Ada") == 55_000
    clock.move(seconds=91)
    strip.refresh()
    assert strip.action.text() == "Bea: time is up (check if possible, else fold)"
    assert cut_texts(strip) == []
    strip.stop()


# -- Italian, sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_italian_texts_and_nothing_cut(qtbot: Any, journal: Journal, size: tuple[int, int]) -> None:
    app = qt_app()
    translators = install_language(app, "it")
    try:
        clock = Clock()
        desk = desk_for(journal, stud_break(), clock)
        win = window(qtbot, clock, size)
        win.set_snapshot(desk.snapshot())
        assert (win.banner.text(), win.blinds.text()) == ("LIVELLO 1", "Limiti 100 / 200")
        assert win.brk.text() == "Pausa fra 20:00 (10 minuti)"
        assert win.values["left"].text() == "6 di 6"
        assert cut_texts(win) == []
        clock.move(minutes=21)
        win.refresh()
        assert (win.banner.text(), win.under.text()) == ("PAUSA", "Si riprende fra")
        assert cut_texts(win) == []
        d = console(qtbot, journal, stud_break(), clock)
        try:
            d.resize(*size)
            d.players.selectRow(0)
            said = run_step(qtbot, d, d.rebuy)
            assert said == "Rifiutato: rebuy for Ada: this tournament has no rebuys"
            assert d.windowTitle() == "Console del direttore"
            assert d.buttons["draw"].text() == "Sorteggia i posti"
            assert cut_texts(d) == []
        finally:
            d.close()
            d.worker.close()
    finally:
        for t in translators:
            app.removeTranslator(t)
        install_language(app, "en")


def test_a_tournament_tables_poker_console_shows_the_level_strip(
    qtbot: Any, journal: Journal, english: None
) -> None:
    from drivers.manual import ManualSource
    from ui.poker.app import PokerConsole

    desk = desk_for(journal, stud_break(), Clock())
    table = desk.state.tables[0]
    config = dataclasses.replace(load_table_config(game="stud"), table_id=table, seats=8,
                                 journal_url=str(journal.url_or_path))  # fmt: skip
    plain = PokerConsole(
        ServiceParts(config, ManualSource, Journal(str(journal.url_or_path))), lang="en"
    )
    assert plain.level_strip is None  # not a tournament table: nothing added
    plain.close()
    parts = ServiceParts(config, ManualSource, Journal(str(journal.url_or_path)))
    console = PokerConsole(parts, lang="en", tournament="")
    win = console.window
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    console.start()
    try:
        strip = console.level_strip
        assert strip is not None
        qtbot.waitUntil(lambda: strip.isVisible(), timeout=10000)
        qtbot.wait(200)  # the layout the strip's showing asks for
        assert strip.level.text() == "Level 1"
        assert strip.amounts.text() == "Limits 100 / 200 · Ante 25 · Bring-in 25"
        assert strip.parent() is win.centralWidget()
        assert strip.geometry().right() <= win.side.geometry().left()  # over the felt
        assert cut_texts(strip) == []
    finally:
        console.close()
