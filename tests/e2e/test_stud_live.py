"""The live Seven Card Stud hand: PeerHand with the Stud hooks, and the
table through the runner, the seventh-street shortage included.

Random hands are played operation by operation and each journaled record, settled by
``settle``, must give the live settlement exactly; down cards never reach the dealer's view; an
8-handed hand that reaches seventh street turns one community card from a new deck of the burns
and the stub, and a card from outside them voids the hand.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import load_table_config
from dealer_assist.engine.operations import Bet, CardDealt, DeckStarted, HandOpened, Showdown
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.errors import HandStateError, IllegalActionError
from dealer_assist.events import utc_now
from dealer_assist.games.stud_hand import StudGame, stud_setup
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_runner import PeerRunner
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown


def _hand(rng: random.Random, betting: str, n: int) -> PeerHand:
    seats = sorted(rng.sample(range(1, 9), n))
    stacks = {s: rng.choice([rng.randint(1, 40) * 100, 20000, 50]) for s in seats}
    hand = PeerHand(stud_setup(StudGame(betting=betting), table_seats=8, stacks=stacks), "t")  # type: ignore[arg-type]
    hand.apply(HandOpened(started_at=utc_now()))
    return hand


def _play(hand: PeerHand, rng: random.Random, *, stay_in: bool = False) -> None:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    new: list[Card] | None = None
    index = 0
    while not hand.is_over:
        op = hand.automatic()
        if op is not None:
            hand.apply(op)
            continue
        if hand.pending_deal:
            if hand.new_deck_needed:
                new = sorted(hand.reshuffle_cards(), key=str)
                rng.shuffle(new)
                assert hand.deal is not None and len(new) == hand.deal.new_deck_count
                hand.apply(DeckStarted(deck_id="d2", count=len(new)))
                continue
            index += 1
            card = (new if new is not None else deck).pop()
            hand.apply(CardDealt(deck_id="d", index=index, card=card, source="t", at=utc_now()))
            continue
        seat = hand.actor
        assert seat is not None
        view = hand.view("dealer")
        for sv in view.seats:
            for card, up in zip(sv.hole, hand.faces[sv.seat], strict=True):
                if not up and sv.seat not in hand.shown:
                    assert card is None, "a down card on the dealer's screen"
        space = hand.legal(seat)
        if stay_in:
            kind = next(k for k in ("bring_in", "check", "call", *space.kinds) if k in space.kinds)
        else:
            kind = rng.choice(space.kinds)
        if kind in ("show", "muck"):
            hand.apply(Showdown(seat=seat, shown=kind == "show"))
            continue
        to = None
        if kind in ("bet", "raise", "complete") and space.amount is not None:
            to = rng.choice([space.amount.minimum, space.amount.maximum])
        hand.apply(Bet(seat=seat, bet=kind, to=to))  # type: ignore[arg-type]


@pytest.mark.parametrize("betting", ["fixed_limit", "pot_limit", "no_limit"])
def test_live_stud_hands_settle_as_their_records(betting: str) -> None:
    rng = random.Random(f"stud-{betting}")
    for _ in range(250):
        hand = _hand(rng, betting, rng.randint(2, 8))
        _play(hand, rng)
        result = hand.result()
        assert result is not None
        assert settle_record(json.loads(json.dumps(hand.record_json()))) == result
        assert sum(s["net"] for s in result["seats"]) + result["rake"] == 0


def test_eight_players_to_seventh_street_share_a_community_card() -> None:
    rng = random.Random(8)
    for _ in range(10):
        hand = _hand(rng, "fixed_limit", 8)
        _play(hand, rng, stay_in=True)
        record = hand.record_json()
        assert "community" in record and hand.deal is not None
        assert hand.deal.shortage.message() == (
            "stub 1 card + 3 burns = 4, 8 players need 8: shuffle the burns, turn one "
            "community card"
        )
        assert settle_record(json.loads(json.dumps(record))) == hand.result()


def test_the_bring_in_is_the_lowest_door_card_and_may_fold() -> None:
    rng = random.Random(3)
    hand = _hand(rng, "fixed_limit", 4)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    i = 0
    while (ante := hand.automatic()) is not None:
        hand.apply(ante)
    while hand.pending_deal:
        i += 1
        hand.apply(CardDealt(deck_id="d", index=i, card=deck.pop(), source="t", at=utc_now()))
    seat = hand.actor
    assert seat is not None and hand.legal(seat).kinds == ("bring_in", "fold")
    assert hand.view("dealer").opening.startswith("lowest door card: ")
    other = next(s for s in hand.setup.seats if s != seat)
    with pytest.raises(IllegalActionError, match="out of turn"):
        hand.apply(Bet(seat=other, bet="call"))
    hand.apply(Bet(seat=seat, bet="fold"))  # the obligation passes on (rules text 002)
    nxt = hand.actor
    assert nxt is not None and nxt != seat and hand.legal(nxt).kinds == ("bring_in", "fold")


# -- through the runner ----------------------------------------------------------------------


def _runner(tmp_path: Path) -> tuple[PeerRunner, ManualSource, Journal]:
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    close_at_teardown(journal)
    source = ManualSource()
    source.open()
    close_at_teardown(source)
    runner = PeerRunner(load_table_config(game="stud"), source, journal, card_timeout=30)
    for seat in range(1, 9):
        runner.seat_player(seat, f"p{seat}", 10000)
    return runner, source, journal


def _to_seventh(runner: PeerRunner, source: ManualSource, rng: random.Random) -> PeerHand:
    hand = runner.new_hand()
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    for _ in range(2000):
        runner.poll(0.005)
        if hand.is_over or hand.new_deck_needed:
            return hand
        if hand.pending_deal:
            if source.expected > 0:
                source.enter(deck.pop())
            continue
        seat = hand.actor
        if seat is None:
            continue
        kinds = hand.legal(seat).kinds
        runner.act(seat, next(k for k in ("bring_in", "check", "call") if k in kinds))
    raise AssertionError("seventh street not reached")


def test_the_shortage_through_the_runner_deals_a_community_card(tmp_path: Path) -> None:
    runner, source, journal = _runner(tmp_path)
    rng = random.Random(21)
    hand = _to_seventh(runner, source, rng)
    assert hand.new_deck_needed and hand.view("dealer").new_deck
    assert "turn one community card" in hand.view("dealer").shortage
    with pytest.raises(HandStateError):
        runner.act(1, "check")  # nothing before the community card
    runner.reshuffle()  # the dealer loaded the burns: the keypad's deck of 4 cards
    for _ in range(200):
        runner.poll(0.005)
        if source.expected > 0:
            break
    card = sorted(hand.reshuffle_cards(), key=str)[0]
    source.enter(card)
    for _ in range(200):
        runner.poll(0.005)
        if not hand.pending_deal:
            break
    assert hand.board == [card] and not hand.is_over
    while not hand.is_over:
        runner.poll(0.005)
        seat = hand.actor
        if seat is not None:
            kinds = hand.legal(seat).kinds
            if "show" in kinds:
                runner.show(seat)
            else:
                runner.act(seat, "check" if "check" in kinds else "call")
    assert runner.stored is not None and runner.stored.record["community"] == str(card)
    assert settle_record(runner.stored.record) == runner.stored.settlement
    assert journal.verify().ok


def test_a_folded_players_card_in_the_new_deck_voids_the_hand(tmp_path: Path) -> None:
    runner, source, _ = _runner(tmp_path)
    hand = _to_seventh(runner, source, random.Random(22))
    runner.reshuffle()
    for _ in range(200):
        runner.poll(0.005)
        if source.expected > 0:
            break
    held = hand.holes[hand.setup.seats[0]][0]  # a card a player holds: never dealt again
    source.enter(held)
    for _ in range(200):
        runner.poll(0.005)
        if hand.is_over:
            break
    assert hand.status == "void" and runner.stored is not None
    why = hand.void_reason_json()
    assert why is not None and why["code"] == "reshuffle_card"
