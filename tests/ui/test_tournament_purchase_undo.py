"""A rebuy or add-on taken back by the director (issue: an add-on was sold with one tap, no
confirmation or undo): the director's desk quotes a purchase without journaling it (the
console asks for a confirmation), and takes a confirmed one back while its chips have not been
played: the fee refunded off the prize pool, the chips off the stack, a player left with none
out and ranked; refused once a hand was dealt at the table. Read back by a fresh fold of the
journal (a restart). Real SQLite journals, the real table console (service and presenter),
the director's console offscreen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.storage.journal import Journal
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.prizes import prize_pool
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict
from tests.e2e.test_tournament_live_table import driver_for, play_out
from tests.ui.test_tournament_screens import Clock, cell, console, desk_for, run_step
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language


def rebuy_holdem() -> TournamentStructure:
    return structure_from_dict(
        {
            "tournament": {
                "name": "Undo Holdem",
                "game": "holdem",
                "chip": 25,
                "starting_stack": 1000,
                "max_seats": 9,
                "min_players": 6,
                "entry_fee_cents": 2000,
            },
            "levels": [
                {"small_blind": 100, "big_blind": 200, "minutes": 30},
                {"small_blind": 200, "big_blind": 400},
            ],
            "rebuy": {"max": 2, "until_level": 2},
            "addon": {"fee_cents": 2000, "chips": 1000, "from_level": 1, "until_level": 2},
            "prizes": {"kind": "winner_takes_all"},
        }
    )


@pytest.fixture
def english(qtbot: Any) -> None:
    install_language(qt_app(), "en")


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def folded(journal: Journal) -> TournamentState:
    state = TournamentState("ROOM")
    for stored in journal.iter_hands(1):
        state.take(stored)
    return state


def test_an_add_on_is_quoted_confirmed_and_taken_back_before_a_hand(journal: Journal) -> None:
    clock = Clock()
    s = rebuy_holdem()
    desk = desk_for(journal, s, clock)
    ada = desk.state.ledger.players[0]
    before = journal.count()
    quote = desk.quote(ada, "addon")
    assert (quote.kind, quote.amount_cents, quote.chips) == ("addon", 2000, 1000)
    assert journal.count() == before  # a quote journals nothing
    desk.addon(ada, by="Anna")
    assert desk.state.stack(ada) == 2000 and desk.state.ledger.account(ada).addon
    pool = prize_pool(s, desk.state.ledger.fees_cents)
    taken = desk.undo_purchase(ada, by="Anna")
    assert taken.kind == "addon"
    for st in (desk.state, folded(journal)):  # as the desk says, and as a restart reads it
        assert st.stack(ada) == 1000
        assert not st.ledger.account(ada).addon
        assert prize_pool(s, st.ledger.fees_cents) == pool - 2000
        assert st.chips_in_play() == st.ledger.chips_issued == 6 * 1000
        st.check_chips("after the undo")
        e = st.entrants[ada]
        assert (e.table, e.out) == (desk.state.tables[0], False)
    with pytest.raises(PurchaseRefused, match="no rebuy or add-on to take back"):
        desk.undo_purchase(ada, by="Anna")
    # bought again, then a hand is dealt at the table: its chips are in play, no undo
    desk.addon(ada, by="Anna")
    d = driver_for(journal, desk, clock)
    try:
        d.new_hand()
        assert d.p.snap.error is None, d.p.snap.error
        play_out(d, random.Random(1))
    finally:
        d.close()
    desk.refresh()
    count = journal.count()
    with pytest.raises(PurchaseRefused, match="a hand was dealt at ROOM-T1"):
        desk.undo_purchase(ada, by="Anna")
    assert journal.count() == count


def test_a_busted_players_rebuy_taken_back_puts_them_out_ranked(journal: Journal) -> None:
    clock = Clock()
    desk = desk_for(journal, rebuy_holdem(), clock)
    d = driver_for(journal, desk, clock)
    rng = random.Random(7)
    busted = None
    try:
        for _ in range(40):  # the table's console plays until a player has no chips
            d.new_hand()
            assert d.p.snap.error is None, d.p.snap.error
            play_out(d, rng)
            desk.refresh()
            busted = next((n for n in desk.state.alive() if desk.state.stack(n) == 0), None)
            if busted is not None:
                break
    finally:
        d.close()
    assert busted is not None, "nobody busted in 40 hands"
    desk.rebuy(busted, by="Anna")
    assert desk.state.stack(busted) == 1000
    desk.undo_purchase(busted, by="Anna")
    for st in (desk.state, folded(journal)):
        assert st.entrants[busted].out and st.stack(busted) == 0
        assert st.ledger.account(busted).rebuys == 0
        assert busted in st.eliminations.out
        places = {p.player: p.place for p in st.eliminations.ranking(list(st.ledger.players))}
        assert places[busted] == len(st.ledger.players)  # the first out: the last place
        st.check_chips("after the undo")


def test_the_directors_console_asks_to_confirm_and_takes_a_purchase_back(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    s = rebuy_holdem()
    desk_for(journal, s, clock)
    win = console(qtbot, journal, s, clock)
    rows = [cell(win.players, i, 0) for i in range(win.players.rowCount())]
    ada = rows[0]
    win.players.selectRow(0)
    before = journal.count()
    said = run_step(qtbot, win, win.addon)
    assert said == f"Confirm the add-on for {ada}: €\u00a020.00 for 1,000 chips?"
    assert win.confirm_button.isVisible() and win.cancel_button.isVisible()
    assert journal.count() == before  # nothing sold before the confirmation
    win.cancel()
    assert not win.confirm_button.isVisible() and journal.count() == before
    assert win.message.text() == f"Cancelled: nothing sold to {ada}"
    run_step(qtbot, win, win.addon)
    said = run_step(qtbot, win, win.confirm)
    assert said == f"Add-on for {ada} (authorised by Anna)"
    assert not win.confirm_button.isVisible()
    assert [folded(journal).stack(ada), journal.count()] == [2000, before + 1]
    said = run_step(qtbot, win, win.undo_purchase)
    assert said == (
        f"Add-on of {ada} taken back: €\u00a020.00 refunded, 1,000 chips off (authorised by Anna)"
    )
    st = folded(journal)
    assert st.stack(ada) == 1000 and not st.ledger.account(ada).addon
    last = list(journal.iter_hands())[-2:]
    assert [e.record["tournament"]["event"] for e in last] == [ev.PURCHASE_UNDONE] * 2
    assert all(e.record["by"] == "Anna" for e in last)
    said = run_step(qtbot, win, win.undo_purchase)  # nothing left to take back: refused
    assert said.startswith("Refused: ") and "no rebuy or add-on to take back" in said


def test_the_tables_console_shows_the_directors_change_before_its_next_hand(
    journal: Journal,
) -> None:
    clock = Clock()
    desk = desk_for(journal, rebuy_holdem(), clock)
    d = driver_for(journal, desk, clock)
    try:
        ada = desk.state.ledger.players[0]
        seat = next(s.seat for s in d.p.snap.seats if s.name == ada)
        desk.addon(ada, by="Anna")  # the director's desk, its own journal connection
        clock.move(seconds=2)
        d.feed(d.service.tick())  # the console's worker ticks between hands
        assert next(s.stack for s in d.p.snap.seats if s.seat == seat) == 2000
        desk.undo_purchase(ada, by="Anna")
        clock.move(seconds=2)
        d.feed(d.service.tick())
        assert next(s.stack for s in d.p.snap.seats if s.seat == seat) == 1000
    finally:
        d.close()
