"""The live Hold'em hand (6): PeerHand on operations.

Random hands are played operation by operation (forced bets, cards, actions, undos, showdown
shows and mucks, awards) and each one's journaled record, settled by ``settle``, must give the
live settlement exactly; chips are conserved; illegal actions leave the hand as it was; the
dealer's view never shows a hole card before its player shows it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.engine.operations import (
    ActionUndone,
    Bet,
    CardDealt,
    HandOpened,
    HandVoided,
    Showdown,
    operation_from_json,
)
from dealer_assist.engine.peer_facts import PeerPhase
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.errors import ConfigError, HandStateError, IllegalActionError, RuleError
from dealer_assist.events import utc_now
from dealer_assist.games.holdem import HoldemSettings, forced_bets
from dealer_assist.games.holdem_hand import HoldemGame, holdem_game, holdem_setup
from dealer_assist.record import settle_record

STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")


def _hand(
    rng: random.Random,
    betting: str,
    *,
    seats: list[int] | None = None,
    stack: int | None = None,
    button: int | None = None,
    **game: Any,
) -> PeerHand:
    seats = seats or sorted(rng.sample(range(1, 10), rng.randint(2, 9)))
    stacks = {
        s: stack or rng.choice([rng.randint(1, 60) * 100, rng.randint(1, 9) * 50, 20000])
        for s in seats
    }
    button = button or rng.choice(seats)
    dead_blind = game.pop("dead_blind", False)
    chip = game.pop("chip", 1)
    # forced bets are whole chips: a record with an ante of 10 at chip 25 is refused
    ante = -(-game.pop("ante", rng.choice([0, 10])) // chip) * chip
    g = HoldemGame(betting=betting, blinds=(50, 100), ante=ante, chip=chip, **game)  # type: ignore[arg-type]
    dead, live, bb = forced_bets(seats, button, g.blinds, g.ante, ante_by_big=False)
    posts = [(s, "ante", a) for s, a in dead.items()]
    posts += [
        (s, "small_blind" if i == 0 and len(live) == 2 else "big_blind", a)
        for i, (s, a) in enumerate(live.items())
    ]
    plain = True
    if dead_blind and len(seats) > 2:
        back = rng.choice([s for s in seats if s not in live])  # a player back from sitting out
        posts += [(back, "big_blind", 100), (back, "ante", 50)]  # big blind live, small dead
        plain = False
    setup = holdem_setup(
        g,
        table_seats=9,
        seats=seats,
        stacks=stacks,
        button=button,
        posts=posts,
        big_blind=bb,
        plain=plain,
    )
    hand = PeerHand(setup, f"test-{rng.random()}")
    hand.apply(HandOpened(started_at=utc_now()))
    while hand.phase is PeerPhase.POSTING:
        op = hand.automatic()
        assert op is not None
        hand.apply(op)  # the forced bets
    return hand


def _deal(hand: PeerHand, deck: list[Card]) -> None:
    hand.apply(
        CardDealt(
            deck_id="d1", index=52 - len(deck) + 1, card=deck.pop(), source="test", at=utc_now()
        )
    )


def _play(hand: PeerHand, rng: random.Random, *, check_privacy: bool = True) -> None:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    while not hand.is_over:
        op = hand.automatic()
        if op is not None:
            hand.apply(op)
            continue
        if hand.pending_deal:
            _deal(hand, deck)
            continue
        seat = hand.actor
        assert seat is not None, f"nobody to act in phase {hand.phase}"
        if check_privacy:
            view = hand.view("dealer")
            for sv in view.seats:
                if sv.seat not in hand.shown:
                    assert all(c is None for c in sv.hole), "a hole card on the dealer's screen"
        space = hand.legal(seat)
        kind = rng.choice(space.kinds)
        if kind in ("show", "muck"):
            hand.apply(Showdown(seat=seat, shown=kind == "show"))
            continue
        to = None
        if kind in ("bet", "raise") and space.amount is not None:
            r = space.amount
            to = rng.choice([r.minimum, r.maximum])
        if hand.bets and rng.random() < 0.04:
            undo = ActionUndone(seat=hand.bets[-1][0].seat, at=utc_now())
            if hand.can(undo):
                hand.apply(undo)
                continue
        hand.apply(Bet(seat=seat, bet=kind, to=to))  # type: ignore[arg-type]


@pytest.mark.parametrize("betting", STRUCTURES)
def test_live_hands_settle_as_their_records(betting: str) -> None:
    rng = random.Random(f"live-{betting}")
    side_pots = splits = 0
    for _ in range(300):
        chip = 1 if betting == "fixed_limit" else rng.choice([1, 25])
        hand = _hand(rng, betting, chip=chip, dead_blind=rng.random() < 0.3)
        _play(hand, rng)
        result = hand.result()
        assert result is not None and hand.status == "settled"
        record = json.loads(json.dumps(hand.record_json()))
        assert settle_record(record) == result
        assert sum(s["net"] for s in result["seats"]) + result["rake"] == 0
        before = sum(hand.setup.stacks.values())
        assert sum(s["stack"] for s in result["seats"]) + result["rake"] == before
        side_pots += len(result["pots"]) > 1
        splits += any(len(p["winners"]) > 1 for p in result["pots"])
    assert side_pots > 20 and splits > 0  # the random hands reach what they must test


def test_replay_of_the_operations_gives_the_same_hand() -> None:
    rng = random.Random(7)
    for _ in range(50):
        hand = _hand(rng, rng.choice(STRUCTURES))
        _play(hand, rng)
        again = PeerHand(hand.setup, hand.hand_uid)
        for op in hand.operations:
            again.apply(operation_from_json(op.kind, json.loads(json.dumps(op.to_json()))))
        assert again.result() == hand.result()
        assert again.record_json() == hand.record_json()


def test_a_refused_action_names_the_rule_and_changes_nothing() -> None:
    hand = _hand(random.Random(1), "no_limit", seats=[1, 2, 3], stack=10000, ante=0)
    deck = list(FULL_DECK)
    while hand.pending_deal:
        _deal(hand, deck)
    before = (hand.record_json(), hand.put_in(), hand.actor, len(hand.operations))
    actor = hand.actor
    assert actor is not None
    other = next(s for s in hand.setup.seats if s != actor)
    with pytest.raises(IllegalActionError, match=f"seat {other} acted out of turn"):
        hand.apply(Bet(seat=other, bet="fold"))
    with pytest.raises(IllegalActionError, match="below the minimum raise to 200"):
        hand.apply(Bet(seat=actor, bet="raise", to=150))
    with pytest.raises(IllegalActionError, match="more than seat"):
        hand.apply(Bet(seat=actor, bet="raise", to=10**9))
    with pytest.raises(IllegalActionError, match="cannot check"):
        hand.apply(Bet(seat=actor, bet="check"))
    assert (hand.record_json(), hand.put_in(), hand.actor, len(hand.operations)) == before


def test_no_action_before_the_street_is_dealt_and_no_undo_after_a_card() -> None:
    hand = _hand(random.Random(2), "no_limit", seats=[1, 2, 3], stack=10000, button=1, ante=0)
    assert hand.phase is PeerPhase.PLAY and len(hand.pending_deal) == 6
    with pytest.raises(HandStateError, match="being dealt"):
        hand.apply(Bet(seat=1, bet="fold"))
    deck = list(FULL_DECK)
    while hand.pending_deal:
        _deal(hand, deck)
    # seats 1 (button), 2 small blind, 3 big blind: seat 1 opens, then 2 calls, 3 checks
    hand.apply(Bet(seat=1, bet="call"))
    hand.apply(Bet(seat=2, bet="call"))
    hand.apply(ActionUndone(seat=2, at=utc_now()))  # a mis-tap taken back
    assert hand.actor == 2 and hand.put_in()[2] == 50
    hand.apply(Bet(seat=2, bet="call"))
    hand.apply(Bet(seat=3, bet="check"))
    assert [p.kind for p in hand.pending_deal] == ["burn", "board", "board", "board"]
    with pytest.raises(HandStateError):
        hand.apply(ActionUndone(seat=2, at=utc_now()))  # the last action is seat 3's
    hand.apply(ActionUndone(seat=3, at=utc_now()))  # before the flop's first card: allowed
    hand.apply(Bet(seat=3, bet="check"))
    _deal(hand, deck)
    with pytest.raises(HandStateError, match="a card was dealt"):
        hand.apply(ActionUndone(seat=3, at=utc_now()))


def test_all_in_run_out_deals_each_street_and_turns_every_hand_up() -> None:
    hand = _hand(random.Random(3), "no_limit", seats=[2, 5], stack=5000, ante=0)
    deck = list(FULL_DECK)
    while hand.pending_deal:
        _deal(hand, deck)
    seat = hand.actor
    assert seat is not None
    space = hand.legal(seat)
    assert space.amount is not None
    hand.apply(Bet(seat=seat, bet="raise", to=space.amount.maximum))
    other = hand.actor
    assert other is not None
    hand.apply(Bet(seat=other, bet="call"))
    deals = []
    while hand.pending_deal:
        deals.append(len(hand.pending_deal))
        while hand.pending_deal and len(hand.pending_deal) <= deals[-1]:
            before = len(hand.pending_deal)
            _deal(hand, deck)
            if len(hand.pending_deal) >= before:
                break
    assert deals == [4, 2, 2]  # burn + flop, burn + turn, burn + river
    assert hand.actor is None and hand.phase is PeerPhase.SHOWDOWN
    while not hand.is_over:
        op = hand.automatic()
        assert op is not None, "an all-in showdown needs nobody"
        hand.apply(op)
    assert set(hand.shown) == {2, 5} and not hand.mucked


def test_muck_is_refused_when_it_would_leave_a_pot_without_a_hand() -> None:
    rng = random.Random(4)
    for _ in range(200):
        hand = _hand(rng, "fixed_limit", ante=0)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        while not hand.is_over and hand.phase is not PeerPhase.SHOWDOWN:
            op = hand.automatic()
            if op is not None:
                hand.apply(op)
            elif hand.pending_deal:
                _deal(hand, deck)
            else:
                seat = hand.actor
                assert seat is not None
                kinds = hand.legal(seat).kinds
                hand.apply(Bet(seat=seat, bet="check" if "check" in kinds else "call"))
        if hand.phase is PeerPhase.SHOWDOWN and hand.actor is not None:
            while hand.actor is not None and len(hand.show_order) - len(hand.mucked) > 1:
                hand.apply(Showdown(seat=hand.actor, shown=False))
            last = hand.actor
            if last is not None:
                assert hand.legal(last).kinds == ("show",)
                with pytest.raises(IllegalActionError, match="last one left"):
                    hand.apply(Showdown(seat=last, shown=False))
                return
    pytest.fail("no showdown reached")


def test_void_returns_every_chip() -> None:
    hand = _hand(random.Random(5), "no_limit", seats=[1, 4, 6], stack=3000, ante=10)
    deck = list(FULL_DECK)
    while hand.pending_deal:
        _deal(hand, deck)
    actor = hand.actor
    assert actor is not None
    hand.apply(Bet(seat=actor, bet="call"))
    hand.apply(HandVoided(code="device_fault", detail="test", at=utc_now()))
    result = hand.result()
    assert result is not None and hand.status == "void"
    assert {s["seat"]: s["stack"] for s in result["seats"]} == dict(hand.setup.stacks)
    assert sum(r["amount"] for r in result["returned"]) == sum(hand.put_in().values())
    with pytest.raises(RuleError):
        hand.apply(Bet(seat=actor, bet="fold"))


def test_the_settings_in_force_are_recorded_and_read_back() -> None:
    settings = HoldemSettings(no_cap_heads_up=False, reopen_by_sum=False, button="dead")
    rng = random.Random(6)
    hand = _hand(rng, "fixed_limit", seats=[3, 7], settings=settings)
    _play(hand, rng)
    record = hand.record_json()
    assert record["settings"]["no_cap_heads_up"] is False
    assert record["settings"]["button"] == "dead"
    assert settle_record(json.loads(json.dumps(record))) == hand.result()


def test_the_table_file_is_checked_naming_the_key() -> None:
    game = holdem_game(
        {"betting": "pot_limit", "blinds": [100, 200], "buy_in": {"min": 1, "max": 9}}
    )
    assert game.structure().kind == "pot_limit"
    for bad, key in [
        ({"blinds": [300, 200]}, "blinds"),
        ({"betting": "spread"}, "poker.betting"),
        ({"buy_in": {"min": 10}}, "poker.buy_in"),
        ({"settings": {"button": "sideways"}}, "poker.settings.button"),
        ({"rake": {"percent": 120}}, "poker.rake.percent"),
        ({"blind": [1, 2]}, "poker.blind"),
    ]:
        with pytest.raises(ConfigError, match=key):
            holdem_game(bad)
