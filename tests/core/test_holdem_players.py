"""Simulated Hold'em players and random hand records (dealer_assist.games.holdem_players): the
records settle for every betting structure, conserve chips, repeat for a seed, and the styles
play differently."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dealer_assist.cards import Card, parse_cards
from dealer_assist.engine.betting import Limits, RoundState
from dealer_assist.engine.peer import STRUCTURES, Structure
from dealer_assist.engine.state import ActionSpace, AmountRange
from dealer_assist.errors import ConfigError
from dealer_assist.games.holdem_players import STYLES, Player, random_record, strength
from dealer_assist.record import settle_record


def _all_ins(record: dict[str, Any], settlement: dict[str, Any]) -> int:
    """Seats that put their whole stack in (the returned bet counted back in)."""
    back = {r["seat"]: r["amount"] for r in settlement["returned"]}
    stacks = {p["seat"]: p["stack"] for p in record["players"]}
    return sum(
        1 for s in settlement["seats"] if s["put_in"] + back.get(s["seat"], 0) == stacks[s["seat"]]
    )


@pytest.mark.parametrize("styles", [None, ("tight", "loose", "all_in_happy")])
@pytest.mark.parametrize("betting", STRUCTURES)
def test_random_records_settle_and_conserve_chips(
    betting: Structure, styles: tuple[str, ...] | None
) -> None:
    shapes: Counter[str] = Counter()
    for seed in range(300):
        record = random_record(random.Random(seed), betting=betting, styles=styles)
        got = settle_record(record)
        start = sum(p["stack"] for p in record["players"])
        assert sum(s["net"] for s in got["seats"]) + got["rake"] == 0, seed
        assert sum(s["stack"] for s in got["seats"]) + got["rake"] == start, seed
        shapes["showdown" if any(p["category"] for p in got["pots"]) else "won uncalled"] += 1
        shapes["side pots" if len(got["pots"]) > 1 else "one pot"] += 1
        shapes.update(k for k in ("mucked", "rake", "settings", "ante_kind") if k in record)
    # the records cover what the settlement must handle, not one easy shape
    for shape in ("showdown", "won uncalled", "side pots", "mucked", "rake", "ante_kind"):
        assert shapes[shape] >= 5, (shape, shapes)


def test_a_seed_gives_the_same_record_and_seeds_differ() -> None:
    for betting in STRUCTURES:
        assert random_record(random.Random(7), betting=betting) == random_record(
            random.Random(7), betting=betting
        )
    records = [random_record(random.Random(s), betting="no_limit") for s in range(20)]
    assert len({repr(r) for r in records}) == 20


def test_records_follow_the_seat_count_asked() -> None:
    for seed in range(30):
        record = random_record(random.Random(seed), betting="pot_limit", seats=3, table_seats=6)
        assert len(record["players"]) == 3 and record["seats"] == 6
        assert all(1 <= p["seat"] <= 6 for p in record["players"])
    with pytest.raises(ConfigError, match=r"seats must be 2\.\.6"):
        random_record(random.Random(0), betting="no_limit", seats=7, table_seats=6)
    with pytest.raises(ConfigError, match="unknown player style"):
        random_record(random.Random(0), betting="no_limit", styles=["maniac"])


def _style_rates(style: str, hands: int = 300) -> tuple[float, float]:
    """(all-ins per seat, folds per action) over ``hands`` no-limit hands of one style."""
    all_ins = seats = folds = actions = 0
    for seed in range(hands):
        record = random_record(random.Random(seed), betting="no_limit", styles=[style])
        got = settle_record(record)
        all_ins += _all_ins(record, got)
        seats += len(record["players"])
        folds += sum(1 for a in record["actions"] if a["action"] == "fold")
        actions += len(record["actions"])
    return all_ins / seats, folds / max(actions, 1)


def test_the_styles_play_differently() -> None:
    tight_all_in, tight_folds = _style_rates("tight")
    happy_all_in, _ = _style_rates("all_in_happy")
    _, loose_folds = _style_rates("loose")
    _, station_folds = _style_rates("calling_station")
    assert happy_all_in > 2 * tight_all_in, (happy_all_in, tight_all_in)
    assert tight_folds > 1.5 * loose_folds > 1.5 * station_folds, (tight_folds, station_folds)
    # facing the same raise with the same hand, all_in_happy goes all the way far more often
    space = ActionSpace(1, ("fold", "call", "raise"), amount=AmountRange(400, 5000, 25))
    hole = parse_cards(["Qs", "Qh"])
    shoves: Counter[str] = Counter()
    for style in STYLES:
        player = Player(style, random.Random(5))
        for _ in range(400):
            kind, to = player.choose(space, hole=hole, board=(), pot=600, to_call=200)
            shoves[style] += kind == "raise" and to == 5000
    assert shoves["all_in_happy"] > 3 * max(shoves["tight"], shoves["loose"], 1), shoves


def _space(**kw: Any) -> ActionSpace:
    return ActionSpace(1, **kw)


def test_a_player_chooses_only_legal_actions_and_amounts() -> None:
    rng = random.Random(3)
    strong, weak = parse_cards(["As", "Ah"]), parse_cards(["7c", "2d"])
    raise_space = _space(kinds=("fold", "call", "raise"), amount=AmountRange(400, 5000, 25))
    for style in STYLES:
        player = Player(style, rng)
        for hole in (strong, weak):
            for _ in range(50):
                kind, to = player.choose(raise_space, hole=hole, board=(), pot=600, to_call=200)
                assert kind in raise_space.kinds
                if kind == "raise":
                    assert to is not None and raise_space.amount is not None
                    assert raise_space.amount.allows(to), (style, to)
                else:
                    assert to is None
        # nothing to call: a player never folds for free
        kind, _ = player.choose(
            _space(kinds=("fold", "check")), hole=weak, board=(), pot=300, to_call=0
        )
        assert kind == "check"
    with pytest.raises(ConfigError):
        Player("tight", rng).choose(_space(), hole=weak, board=(), pot=0, to_call=0)


def test_a_player_drives_a_betting_round_to_its_end() -> None:
    """The same players at a live table: a round driven only through legal()."""
    rng = random.Random(11)
    stacks = {1: 1000, 2: 300, 3: 5000}
    round_ = RoundState([1, 2, 3], stacks, Limits("no_limit", 100), 1)
    styles = ("loose", "all_in_happy", "tight")
    players = {s: Player(style, rng) for s, style in zip(stacks, styles, strict=True)}
    hole = parse_cards(["Kd", "Kc"])
    moves = 0
    while round_.actor is not None:
        seat = round_.actor
        kind, to = players[seat].choose(
            round_.legal(seat),
            hole=hole,
            board=(),
            pot=sum(round_.committed.values()),
            to_call=round_.high - round_.committed[seat],
        )
        round_.act(seat, kind, to)
        moves += 1
        assert moves < 50
    assert moves >= 3  # everyone acted at least once


def test_strength_orders_hands_sensibly() -> None:
    def cards(text: str) -> tuple[Card, ...]:
        return parse_cards(text.split())

    aces, suited, junk = cards("As Ah"), cards("Ks Qs"), cards("7c 2d")
    assert strength(aces, ()) > strength(suited, ()) > strength(junk, ())
    board = cards("Ad 7h 2s")
    assert strength(cards("As Kh"), board) > strength(cards("Qs Jh"), board)
    # the board's pair is everybody's: a hand that adds nothing is weak
    paired = cards("9d 9h 4s 2c Kd")
    assert strength(cards("Qs Jh"), paired) < strength(cards("4d 5h"), paired)
