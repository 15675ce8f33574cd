"""Hold'em between hands (dealer_assist.games.holdem_table): the button, the blinds, new and
returning players, heads-up, buy-ins; every laid-out hand replayed as a real hand record
(``POT_RULES.settle``) and its settlement carried into the next session."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import HandStateError, InvalidRecordError, TableError
from dealer_assist.games.holdem import HoldemSettings
from dealer_assist.games.holdem_plugin import POT_RULES
from dealer_assist.games.holdem_table import (
    HandSetup,
    PokerTable,
    Post,
    after_hand,
    draw_button,
    leave,
    next_hand,
    seat_player,
    set_button,
    sit_in,
    sit_out,
    top_up,
)
from dealer_assist.games.seats import eligible
from dealer_assist.games.session import TableSession

MOVING = PokerTable(blinds=(100, 200), chip=100, buy_in_min=8000, buy_in_max=40000, seats=9)
DEAD = replace(MOVING, settings=HoldemSettings(button="dead"))


def seated(table: PokerTable, seats: dict[int, int], button: int) -> TableSession:
    s = TableSession("HOLDEM-01")
    for seat, stack in seats.items():
        s = seat_player(s, table, seat, f"P{seat}", stack, by="floor")
    return set_button(s, button)


def record_of(setup: HandSetup, table: PokerTable, *, with_posts: bool) -> dict[str, Any]:
    """The hand as a record where everybody folds to the big blind."""
    deck = [str(c) for c in FULL_DECK]
    rec: dict[str, Any] = {
        "game": "holdem",
        "betting": "no_limit",
        "seats": table.seats,
        "button": setup.button,
        "blinds": list(table.blinds),
        "ante": table.ante,
        "chip": table.chip,
        "players": [
            {"seat": s, "stack": setup.stacks[s], "hole": deck[2 * i : 2 * i + 2]}
            for i, s in enumerate(setup.seats)
        ],
        "board": deck[-5:],
    }
    if table.ante_kind:
        rec["ante_kind"] = table.ante_kind
    if with_posts or not setup.plain:
        rec["posts"] = setup.posts_json()
    posted = {s: 0 for s in setup.seats}
    for p in setup.posts:
        posted[p.seat] += p.amount
    big = setup.big_blind
    assert big is not None
    order = sorted(setup.seats, key=lambda s: (s <= big, s))  # from the seat after the big blind
    rec["actions"] = [
        {"street": "preflop", "seat": s, "action": "fold"}
        for s in order
        if s != setup.big_blind and posted[s] < setup.stacks[s]  # an all-in poster cannot act
    ]
    try:
        POT_RULES.settle(rec)
    except InvalidRecordError as e:  # an all-in poster is still in: the big blind checks
        if f"seat {setup.big_blind} is to act" not in str(e):
            raise
        rec["actions"].append({"street": "preflop", "seat": setup.big_blind, "action": "check"})
    return rec


def play(
    session: TableSession, table: PokerTable, *, void: bool = False
) -> tuple[HandSetup, TableSession]:
    """One hand laid out, replayed as a record (everybody folds to the big blind), settled."""
    setup = next_hand(session, table)
    settlement = POT_RULES.settle(record_of(setup, table, with_posts=False))
    assert settlement == POT_RULES.settle(record_of(setup, table, with_posts=True))
    return setup, after_hand(session, table, setup, None if void else settlement, void=void)


def blinds(setup: HandSetup) -> tuple[int, int | None, int | None]:
    """(button, small blind seat or None, big blind seat)."""
    small = next((p.seat for p in setup.posts if p.type == "small_blind"), None)
    return setup.button, small, setup.big_blind


# -- the button ---------------------------------------------------------------------------------


def test_moving_button_goes_round_the_seats_dealt_in() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    seen = []
    for _ in range(8):
        setup, s = play(s, MOVING)
        assert setup.plain
        seen.append(blinds(setup))
    assert seen[:4] == [(1, 3, 5), (3, 5, 7), (5, 7, 1), (7, 1, 3)]
    assert seen[4:] == seen[:4]
    assert s.hands == 8 and s.button == 7
    assert sum(p.stack or 0 for p in s.seats.values()) == 80000  # chips conserved


def test_moving_button_with_players_joining_leaving_and_sitting_out() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    setup, s = play(s, MOVING)  # B1 S3 G5
    s = seat_player(s, MOVING, 4, "New", 10000)  # owes a big blind: posts it at once
    assert s.seats[4].owes == ("big_blind",) and not s.seats[4].waiting
    setup, s = play(s, MOVING)  # B3, seat 4 in the small blind's place, G5
    # seat 4 posts a big blind live and its small blind dead; the real big blind's post first
    assert blinds(setup) == (3, None, 5) and 4 in setup.seats and not setup.plain
    assert setup.posts == (
        Post(4, "ante", 100),
        Post(5, "big_blind", 200),
        Post(4, "big_blind", 200),
    )
    assert s.seats[4].owes == ()
    s = leave(s, 7)
    setup, s = play(s, MOVING)
    assert blinds(setup) == (4, 5, 1) and setup.plain
    s = sit_out(s, 1)
    setup, s = play(s, MOVING)
    assert blinds(setup) == (5, 3, 4) and 1 not in setup.seats
    assert s.seats[1].owes == ("small_blind",)  # the small blind passed seat 1 (5 -> 3)
    setup, s = play(s, MOVING)
    assert blinds(setup) == (3, 4, 5) and s.seats[1].owes == ("small_blind",)
    setup, s = play(s, MOVING)
    assert blinds(setup) == (4, 5, 3)
    assert s.seats[1].owes == ("small_blind", "big_blind")  # and then the big blind (5 -> 3)


def test_dead_button_when_the_big_blind_leaves() -> None:
    s = seated(DEAD, {1: 20000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, button=1)
    setup, s = play(s, DEAD)
    assert blinds(setup) == (1, 2, 3)
    s = leave(s, 3)
    setup, s = play(s, DEAD)  # the big blind moves one seat; no small blind: seat 3 is empty
    assert blinds(setup) == (2, None, 4) and not setup.plain
    setup, s = play(s, DEAD)  # the button on the empty seat 3: a dead button
    assert blinds(setup) == (3, 4, 5) and 3 not in setup.seats
    setup, s = play(s, DEAD)
    assert blinds(setup) == (4, 5, 1)
    # a moving button would have put seat 4 in the small blind right away, skipping its big one
    m = seated(MOVING, {1: 20000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, button=1)
    _, m = play(m, MOVING)
    setup, m = play(leave(m, 3), MOVING)
    assert blinds(setup) == (2, 4, 5)


def test_dead_button_new_player_between_small_blind_and_button_waits() -> None:
    s = seated(DEAD, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    setup, s = play(s, DEAD)  # B1 S3 G5
    s = seat_player(s, DEAD, 4, "New", 10000)
    setup, s = play(s, DEAD)  # B3 S5 G7: seat 4 is between the small blind and the button
    assert blinds(setup) == (3, 5, 7) and 4 not in setup.seats
    setup, s = play(s, DEAD)  # B5 S7 G1: seat 4 posts a big blind behind the blinds
    assert blinds(setup) == (5, 7, 1) and 4 in setup.seats
    assert [p.type for p in setup.posts if p.seat == 4] == ["big_blind"]
    setup, s = play(s, DEAD)
    assert blinds(setup) == (7, 1, 3) and 4 in setup.seats and setup.plain


# -- heads-up -----------------------------------------------------------------------------------


@pytest.mark.parametrize("table", [MOVING, DEAD], ids=["moving", "dead"])
def test_three_to_two_players_nobody_takes_the_big_blind_twice(table: PokerTable) -> None:
    s = seated(table, {2: 20000, 4: 20000, 6: 20000}, button=2)
    setup, s = play(s, table)
    assert blinds(setup) == (2, 4, 6)
    s = leave(s, 6)  # the big blind leaves
    setup, s = play(s, table)
    assert blinds(setup) == (4, 4, 2)  # heads-up: the button posts the small blind
    assert setup.plain
    setup, s = play(s, table)
    assert blinds(setup) == (2, 2, 4)
    bigs = []
    for _ in range(6):
        setup, s = play(s, table)
        assert setup.button == blinds(setup)[1]
        bigs.append(setup.big_blind)
    assert all(a != b for a, b in itertools.pairwise(bigs))


def test_two_to_three_players() -> None:
    for table in (MOVING, DEAD):
        s = seated(table, {2: 20000, 4: 20000}, button=2)
        setup, s = play(s, table)
        assert blinds(setup) == (2, 2, 4)  # heads-up: the button posts the small blind
        s = seat_player(s, table, 6, "Third", 10000)
        setup, s = play(s, table)
        assert set(setup.seats) == {2, 4, 6}
        if table is DEAD:  # the big blind moves to the next seat: the new player's
            assert blinds(setup) == (2, 4, 6) and setup.plain
        else:  # the button moves on: the new player in the small blind's place posts both
            assert blinds(setup) == (4, None, 2)
            assert [(p.type, p.amount) for p in setup.posts if p.seat == 6] == [
                ("ante", 100),
                ("big_blind", 200),
            ]
        nxt, s = play(s, table)
        assert nxt.plain and nxt.button == {2: 4, 4: 6}[setup.button]


def test_new_player_waits_for_the_big_blind_when_the_table_says_so() -> None:
    table = replace(MOVING, new_player="wait_for_big_blind")
    s = seated(table, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    _, s = play(s, table)  # B1 S3 G5
    s = seat_player(s, table, 6, "New", 10000)
    assert s.seats[6].waiting
    setup, s = play(s, table)  # B3 S5 G7: the big blind passed seat 6, it comes in on it
    assert 6 in setup.seats and setup.big_blind == 6 and setup.plain
    assert blinds(setup) == (3, 5, 6)
    s2 = seated(table, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    _, s2 = play(s2, table)  # B1 S3 G5
    s2 = seat_player(s2, table, 2, "New", 10000)  # just behind the button: waits an orbit
    waited = 0
    while True:
        setup, s2 = play(s2, table)
        if 2 in setup.seats:
            break
        waited += 1
    assert waited == 2 and setup.big_blind == 2


# -- missed blinds ------------------------------------------------------------------------------


def test_missed_blinds_posted_on_return() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    _, s = play(s, MOVING)  # B1 S3 G5
    s = sit_out(s, 7)
    assert s.seats[7].out_since == 1
    setup, s = play(s, MOVING)  # B3 S5 G1: the big blind passed seat 7
    assert 7 not in setup.seats and s.seats[7].owes == ("big_blind",)
    setup, s = play(s, MOVING)  # B5 S1 G3: the small blind passed it too
    assert s.seats[7].owes == ("big_blind", "small_blind")
    s = sit_in(s, 7, table=MOVING)
    assert not s.seats[7].waiting and s.change is not None
    assert s.change.payload["missed_since"] == 1
    setup, s = play(s, MOVING)  # B7 S1 G3: seat 7 posts both, the big live, the small dead
    assert blinds(setup) == (7, 1, 3) and 7 in setup.seats
    assert [(p.type, p.amount) for p in setup.posts if p.seat == 7] == [
        ("ante", 100),
        ("big_blind", 200),
    ]
    assert s.seats[7].owes == ()


def test_back_before_any_blind_passed_owes_nothing() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    _, s = play(s, MOVING)  # B1 S3 G5
    s = sit_out(s, 3)  # it just posted the small blind
    setup, s = play(s, MOVING)  # B5 S7 G1: neither blind passes seat 3
    assert blinds(setup) == (5, 7, 1) and s.seats[3].owes == ()
    s = sit_in(s, 3, table=MOVING)
    setup, s = play(s, MOVING)
    assert setup.plain and blinds(setup) == (7, 1, 3)


def test_missed_blinds_wait_for_the_big_blind() -> None:
    waits = HoldemSettings(button="dead", missed_blinds="wait_for_big_blind")
    table = replace(DEAD, settings=waits)
    s = seated(table, {1: 20000, 3: 20000, 5: 20000, 7: 20000}, button=1)
    _, s = play(s, table)  # B1 S3 G5
    s = sit_out(s, 7)
    _, s = play(s, table)  # G1: passed seat 7
    s = sit_in(s, 7, table=table)
    assert s.seats[7].waiting and s.seats[7].owes == ("big_blind",)
    dealt = []
    for _ in range(4):
        setup, s = play(s, table)
        dealt.append((7 in setup.seats, setup.big_blind))
    # G3, G5 without seat 7; then the big blind reaches it
    assert dealt[:3] == [(False, 3), (False, 5), (True, 7)]
    assert s.seats[7].owes == () and not s.seats[7].waiting


def test_void_hand_moves_nothing_and_marks_nothing() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000}, button=1)
    _, s = play(s, MOVING)
    s = sit_out(s, 1)
    before = s
    setup, s = play(s, MOVING, void=True)
    assert s.hands == before.hands + 1
    assert (s.seats, s.button, s.marks) == (before.seats, before.button, before.marks)
    assert next_hand(s, MOVING) == setup  # the same hand again


# -- stacks, antes, bust ------------------------------------------------------------------------


def test_bust_player_is_not_dealt_in_and_a_rebuy_is_a_buy_in() -> None:
    s = seated(MOVING, {1: 20000, 3: 8000, 5: 20000}, button=1)
    setup = next_hand(s, MOVING)
    lost = {
        "seats": [
            {"seat": 1, "stack": 20000 - 100},
            {"seat": 3, "stack": 0},
            {"seat": 5, "stack": 20000 + 8000 + 100},
        ]
    }
    s = after_hand(s, MOVING, setup, lost, void=False)
    assert s.seats[3].stack == 0 and 3 in s.seats  # busted, still seated
    setup, s = play(s, MOVING)  # heads-up B5 G1: no blind passes seat 3 (it would be button)
    assert setup.seats == (1, 5) and s.seats[3].owes == ()
    setup, s = play(s, MOVING)  # B1 G5
    assert setup.seats == (1, 5) and s.seats[3].owes == ("big_blind",)  # it passed seat 3
    with pytest.raises(TableError, match="rebuy after busting is a buy-in: 1000 is below"):
        top_up(s, MOVING, 3, 1000)
    s = top_up(s, MOVING, 3, 8000)
    assert s.seats[3].stack == 8000
    setup, s = play(s, MOVING)
    assert 3 in setup.seats and s.seats[3].owes == ()


def test_fewer_than_two_players_with_chips() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000}, button=1)
    s = sit_out(s, 3)
    with pytest.raises(HandStateError, match="fewer than 2 players with chips are dealt in"):
        next_hand(s, MOVING)
    with pytest.raises(HandStateError, match="button is not placed"):
        next_hand(replace(sit_in(s, 3, table=MOVING), button=None), MOVING)


def test_antes_and_the_big_blind_ante_are_posted() -> None:
    table = replace(MOVING, ante=25, chip=25)
    s = seated(table, {1: 20000, 3: 20000, 5: 20000}, button=1)
    setup, s = play(s, table)
    kinds = [p.type for p in setup.posts]
    assert setup.plain and kinds == ["ante", "ante", "ante", "small_blind", "big_blind"]
    by_big = replace(table, ante=200, ante_kind="big_blind")
    setup, s = play(s, by_big)
    assert setup.plain and setup.posts[-1] == Post(setup.big_blind or 0, "ante", 200)
    assert sum(p.stack or 0 for p in s.seats.values()) == 60000


def test_settlement_is_checked() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000}, button=1)
    setup = next_hand(s, MOVING)
    good = POT_RULES.settle(record_of(setup, MOVING, with_posts=False))
    bad = {
        **good,
        "seats": [
            {**good["seats"][0], "stack": good["seats"][0]["stack"] + 100},
            *good["seats"][1:],
        ],
    }
    with pytest.raises(InvalidRecordError, match=r"settlement\.seats: stacks 60100"):
        after_hand(s, MOVING, setup, bad, void=False)
    with pytest.raises(InvalidRecordError, match="no stack for seat"):
        after_hand(s, MOVING, setup, {**good, "seats": good["seats"][1:]}, void=False)
    with pytest.raises(InvalidRecordError, match=r"settlement.seats\[0\].stack"):
        after_hand(s, MOVING, setup, {"seats": [{"seat": 1, "stack": "9"}]}, void=False)


# -- buy-ins and the other operations -----------------------------------------------------------


def test_buy_in_bounds_and_refusals_name_the_rule() -> None:
    s = TableSession("HOLDEM-01")
    with pytest.raises(TableError, match="below the table's minimum 8000"):
        seat_player(s, MOVING, 1, "A", 7900)
    with pytest.raises(TableError, match="above the table's maximum 40000"):
        seat_player(s, MOVING, 1, "A", 40100)
    with pytest.raises(TableError, match="not a whole number of 100 chips"):
        seat_player(s, MOVING, 1, "A", 8050)
    with pytest.raises(TableError, match=r"not a seat of this table \(1..9\)"):
        seat_player(s, MOVING, 10, "A", 8000)
    with pytest.raises(TableError, match="positive integer"):
        seat_player(s, MOVING, 1, "A", 8000.0)  # type: ignore[arg-type]
    s = seat_player(s, MOVING, 1, "A", 8000, by="floor")
    assert s.change is not None and s.change.kind == "buy_in"
    assert s.change.payload["amount"] == 8000 and s.change.payload["by"] == "floor"
    assert s.seats[1].owes == ()  # before the first hand nobody owes a blind
    with pytest.raises(TableError, match="seat 1: taken by A"):
        seat_player(s, MOVING, 1, "B", 8000)
    with pytest.raises(TableError, match="stack 40100, above the table's maximum buy-in 40000"):
        top_up(s, MOVING, 1, 32100)
    with pytest.raises(HandStateError, match="only between hands"):
        top_up(s, MOVING, 1, 100, in_hand=True)
    with pytest.raises(TableError, match="nobody sits there"):
        top_up(s, MOVING, 2, 100)
    s = top_up(s, MOVING, 1, 32000)
    assert s.seats[1].stack == 40000
    with pytest.raises(TableError, match="is not sitting out"):
        sit_in(s, 1, table=MOVING)
    s = sit_out(s, 1)
    with pytest.raises(TableError, match="already sitting out"):
        sit_out(s, 1)
    gone = leave(s, 1)
    assert 1 not in gone.seats and gone.change is not None
    assert gone.change.payload["amount"] == 40000  # the stack leaves with the player
    assert 1 in s.seats  # never mutated


def test_button_by_the_dealer_or_a_seeded_draw() -> None:
    s = seated(MOVING, {1: 20000, 3: 20000, 5: 20000}, button=1)
    with pytest.raises(TableError, match="seat 2: nobody sits there"):
        set_button(s, 2)
    drawn = [draw_button(s, seed).button for seed in range(30)]
    assert set(drawn) == {1, 3, 5}  # every player can draw it
    again = draw_button(s, 7)
    assert again.button == draw_button(s, 7).button and again.change is not None
    assert again.change.payload["seed"] == 7 and again.change.payload["how"] == "draw"
    _, played = play(s, MOVING)
    assert played.marks and not set_button(played, 5).marks  # a new first hand from there


# -- many hands, at random ----------------------------------------------------------------------


@pytest.mark.parametrize("button", ["moving", "dead"])
@pytest.mark.parametrize("missed", ["post_both", "wait_for_big_blind"])
def test_many_hands_with_players_coming_and_going(button: str, missed: str) -> None:
    """300 hands, players joining, leaving, sitting out and busting at random: every hand is a
    valid record, nobody sitting out or busted is dealt in, the chips are conserved, the
    session survives its JSON, and everybody keeps taking the big blind."""
    settings = HoldemSettings(button=button, missed_blinds=missed)  # type: ignore[arg-type]
    table = PokerTable(
        blinds=(100, 200), chip=100, buy_in_min=400, buy_in_max=4000, seats=6, settings=settings
    )
    rng = random.Random(f"{button}-{missed}")
    s = seated(table, {1: 2000, 2: 2000, 4: 2000}, button=2)
    bank = 6000  # chips brought minus chips taken away
    bigs: dict[int, int] = {}
    for hand in range(300):
        for _ in range(rng.randrange(3)):
            seat = rng.randint(1, 6)
            player = s.seats.get(seat)
            if player is None:
                amount = rng.randrange(4, 41) * 100
                s, bank = seat_player(s, table, seat, f"N{hand}", amount), bank + amount
            elif not player.stack:
                amount = rng.randrange(4, 41) * 100
                s, bank = top_up(s, table, seat, amount), bank + amount
            elif rng.random() < 0.3:
                s, bank = leave(s, seat), bank - player.stack
            elif player.sitting_out:
                s = sit_in(s, seat, table=table)
            else:
                s = sit_out(s, seat)
        assert TableSession.from_json(json.loads(json.dumps(s.to_json()))) == s
        try:
            setup = next_hand(s, table)
        except HandStateError as e:
            assert "fewer than 2 players" in str(e)
            assert len(eligible(s)) < 2
            for seat, player in sorted(s.seats.items()):  # everybody back, with chips
                if player.sitting_out:
                    s = sit_in(s, seat, table=table)
                if not player.stack:
                    s, bank = top_up(s, table, seat, 2000), bank + 2000
            for seat in sorted(set(range(1, 7)) - set(s.seats))[:2]:
                s, bank = seat_player(s, table, seat, "Fill", 2000), bank + 2000
            continue
        for seat in setup.seats:
            p = s.seats[seat]
            assert not p.sitting_out and p.stack and setup.stacks[seat] == p.stack
        assert setup.big_blind in setup.seats
        if button == "moving" or len(setup.seats) == 2:
            assert setup.button in setup.seats
        bigs[setup.big_blind] = hand
        _, s = play(s, table, void=rng.random() < 0.05)
        assert sum(p.stack or 0 for p in s.seats.values()) == bank
    assert len(bigs) >= 6  # every seat took the big blind at some point
