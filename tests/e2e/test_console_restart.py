"""What a console restart and a void must not lose or keep: the shipped emulator shuffles with
a seed from the OS at every start (``--seed N`` repeats one), *Repeat last bets* puts back the
journal's last bets after a restart, bets returned by a void are not drawn on the next hand
(Repeat puts them back), and a folded seat whose Trips is paid shows its cards. Real table
service, emulator over a pty and SQLite journals."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Action
from dealer_assist.engine.voids import VoidReason
from dealer_assist.games import get_game
from drivers.factory import seeded_url, with_seed
from tests.ui.test_console_presenter import FAST, Table
from tests.ui.test_console_walk import Clock, big, play_to_reveal, walk_table
from ui.console.presenter import ConsolePresenter
from ui.console.view import Step

pytestmark = pytest.mark.integration


def _first_deal(tmp_path: Path, url: str, name: str) -> list[Card]:
    """The cards of the first hand a console deals from ``url`` (a fresh start each time)."""
    clock = Clock()
    t = Table("uth", url, tmp_path / name)
    t.p = ConsolePresenter(t.config, t._send, clock=clock)
    t.p.start()
    t.bet(2, ante=1000)
    big(t, clock)
    hand = t.service.hand
    assert hand is not None and t.view().step is Step.DECISIONS
    cards = [c.card for c in hand.cards]
    t.service.close()
    return cards


def test_the_shipped_emulator_shuffles_anew_at_every_start_unless_seeded(
    tmp_path: Path,
) -> None:
    config = load_table_config(game="uth")
    shipped = config.sources[0].url
    fast = f"{shipped}{'&' if '?' in shipped else '?'}{FAST}"
    assert "seed" not in shipped
    first, again = _first_deal(tmp_path, fast, "a.db"), _first_deal(tmp_path, fast, "b.db")
    assert first != again  # a restart does not deal the last run's decks again
    seeded = with_seed(config, 5).sources[0].url
    assert seeded_url(seeded, 5) == seeded and "seed=5" in seeded
    one = _first_deal(tmp_path, seeded_url(fast, 5), "c.db")
    assert one == _first_deal(tmp_path, seeded_url(fast, 5), "d.db")  # --seed 5: repeated


def test_repeat_last_bets_after_a_restart(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock, seats=(1, 4))
    big(t, clock)  # settle: journaled
    while t.view().action is not None and t.view().action.kind == "next":
        big(t, clock)  # every seat paid
    big(t, clock)  # the next hand opens
    t.service.close()
    again, clock = walk_table(tmp_path)  # the console started again on the same journal
    if again.view().step is Step.VOID:  # the hand left open at the stop: voided, acknowledged
        clock.wait(1.5)
        again.p.acknowledge_void()
    assert again.view().step is Step.BETS and again.view().can_repeat
    again.p.repeat_last()
    assert again.p.book.ready() == {
        1: {"ante": 1000, "blind": 1000, "trips": 500},
        4: {"ante": 1000, "blind": 1000, "trips": 500},
    }


def test_bets_returned_by_a_void_are_not_drawn_on_the_next_hand(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    t.bet(1, ante=1000, trips=500)
    t.bet(6, ante=2500)
    drafts = t.p.book.ready()
    t.p.on_snapshot(t.service.void(VoidReason("device_fault", "JAM"), t.p.snap.seq))
    clock.wait(1.5)
    t.p.acknowledge_void()
    view = t.view()
    assert view.step is Step.BETS and t.p.book.ready() == {}  # returned: not drawn
    assert all(b.amount == 0 for s in view.seats for row in s.boxes for b in row)
    assert view.can_repeat
    t.p.repeat_last()  # the players left them out: one tap puts them back
    assert t.p.book.ready() == drafts


def test_a_folded_seat_whose_trips_is_paid_shows_its_cards() -> None:
    hand = BankedHand(get_game("uth"), load_table_config(game="uth"), "h1")
    hand.place_bets(1, {"ante": 1000, "blind": 1000, "trips": 500})
    hand.place_bets(2, {"ante": 1000, "blind": 1000, "trips": 500})
    hand.close_bets()
    board = ["7d", "2c", "9s", "Jh", "4c"]
    holes = ["7s", "7h", "3d", "8c"]  # seat 1: three sevens; seat 2: nothing
    for text in (*board, *holes, "Ah", "Kd"):
        hand.place_card(parse_card(text), source="test")
    for street in ("preflop", "flop"):
        for seat in (1, 2):
            hand.act(seat, Action(street, "check"))
        hand.advance()
    hand.act(1, Action("river", "fold"))  # folds three sevens: the Trips still pays
    hand.act(2, Action("river", "fold"))
    hand.advance()
    hand.reveal()
    hand.settle()
    seats = {s.seat: s for s in hand.view("dealer").seats}
    assert seats[1].folded and seats[1].hole == (parse_card("7s"), parse_card("7h"))
    assert seats[2].folded and seats[2].hole == (None, None)  # its Trips lost: mucked unseen
