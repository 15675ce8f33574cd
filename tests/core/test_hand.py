"""The hand state machine: bets, deal plan, decisions, visibility, settlement, void."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import BetError, HandStateError, IllegalActionError
from dealer_assist.games import get_game
from dealer_assist.record import settle_record


def uth_hand() -> BankedHand:
    return BankedHand(get_game("uth"), load_table_config(game="uth"), "t-1")


def deal(hand: BankedHand, texts: str) -> None:
    for i, card in enumerate(parse_cards(texts.split()), start=1):
        hand.place_card(card, source="test", deck_id="d1", index=i)


def test_bets_checked_against_limits_and_left_unchanged_on_error() -> None:
    hand = uth_hand()
    hand.place_bets(3, {"ante": 1000, "blind": 1000, "trips": 500})
    before = dict(hand.seats[3].bets)
    for bad, box in [
        ({"ante": 1000, "blind": 500}, "blind"),
        ({"ante": 100, "blind": 100}, "ante"),  # below the table minimum (500)
        ({"ante": 1000, "blind": 1000, "trips": 50_000}, "trips"),
        ({"ante": 1000}, "blind"),
        ({"ante": 1000, "blind": 1000, "play": 4000}, "play"),
    ]:
        with pytest.raises(BetError) as err:
            hand.place_bets(3, bad)
        assert err.value.box == box
        assert hand.seats[3].bets == before
    with pytest.raises(BetError):
        hand.place_bets(8, {"ante": 1000, "blind": 1000})
    assert sorted(hand.seats) == [3]


def test_uth_full_hand_matches_settle_and_hides_cards_until_their_step() -> None:
    hand = uth_hand()
    hand.place_bets(1, {"ante": 1000, "blind": 1000, "trips": 500})
    hand.place_bets(6, {"ante": 1000, "blind": 1000})
    plan = hand.close_bets()
    assert [str(p) for p in plan] == [
        "board 1",
        "board 2",
        "board 3",
        "board 4",
        "board 5",
        "seat 1 card 1",
        "seat 1 card 2",
        "seat 6 card 1",
        "seat 6 card 2",
        "dealer 1",
        "dealer 2",
    ]
    with pytest.raises(HandStateError):
        hand.place_bets(2, {"ante": 1000, "blind": 1000})
    deal(hand, "Ah Kd 7c 7s 2h As Ac 3c 9d Qs Jd")
    assert hand.phase is Phase.DECISIONS and hand.street == "preflop"
    assert hand.board_visible() == () and not hand.dealer_visible()
    with pytest.raises(IllegalActionError):
        hand.act(1, Action("preflop", "play", 2))
    hand.act(1, Action("preflop", "play", 4))
    hand.act(6, Action("preflop", "check"))
    assert hand.legal_actions(1) == []
    hand.advance()
    assert hand.street == "flop" and len(hand.board_visible()) == 3
    hand.act(6, Action("flop", "check"))
    hand.advance()
    assert hand.street == "river" and len(hand.board_visible()) == 5
    with pytest.raises(HandStateError):
        hand.advance()  # seat 6 has not decided
    hand.act(6, Action("river", "fold"))
    hand.advance()
    assert hand.phase is Phase.SHOWDOWN and not hand.dealer_visible()
    hand.reveal()
    assert hand.dealer_visible()
    settlement = hand.settle()
    expected = settle_record(hand.to_hand_record().to_json())
    assert settlement.to_json() == expected
    assert settlement.settlement_order == [6, 1]
    assert settlement.seats[1].net == 12000  # HAND_RECORD.md example: full house, 4x play


def test_thb_deals_one_at_a_time_then_burns_and_streets() -> None:
    hand = BankedHand(get_game("thb"), load_table_config(game="thb"), "t-2")
    hand.place_bets(2, {"ante": 500, "bonus": 100})
    hand.place_bets(5, {"ante": 500})
    plan = hand.close_bets()
    assert [str(p) for p in plan] == [
        "seat 2 card 1",
        "seat 5 card 1",
        "dealer 1",
        "seat 2 card 2",
        "seat 5 card 2",
        "dealer 2",
    ]
    deal(hand, "Ah 7c Qs Ad 2d Jd")
    assert hand.seats[2].hole == {1: parse_card("Ah"), 2: parse_card("Ad")}
    hand.act(2, Action("preflop", "bet"))
    hand.act(5, Action("preflop", "fold"))
    assert [str(p) for p in hand.advance()] == ["burn 1", "board 1", "board 2", "board 3"]
    assert hand.phase is Phase.DEALING
    for i, c in enumerate(parse_cards(["3s", "Kc", "8h", "4d"]), start=7):
        hand.place_card(c, source="test", index=i)
    assert hand.street == "flop" and [str(c) for c in hand.board_visible()] == ["Kc", "8h", "4d"]
    hand.act(2, Action("flop", "bet"))
    assert [str(p) for p in hand.advance()] == ["burn 2", "board 4"]
    for c in parse_cards(["5s", "9c"]):
        hand.place_card(c, source="test")
    hand.act(2, Action("turn", "check"))
    assert [str(p) for p in hand.advance()] == ["burn 3", "board 5"]
    for c in parse_cards(["6s", "Th"]):
        hand.place_card(c, source="test")
    assert hand.phase is Phase.SHOWDOWN
    assert [str(c) for c in hand.burns] == ["3s", "5s", "6s"]
    hand.reveal()
    s = hand.settle()
    seat2 = next(x for x in s.seats if x.seat == 2)
    assert [b.box for b in seat2.bets] == ["bonus", "ante", "flop", "turn"]
    assert seat2.bets[0].net == 3000  # A-A pays 30:1 on the Bonus


def test_thb_everyone_folds_no_board_dealt() -> None:
    hand = BankedHand(get_game("thb"), load_table_config(game="thb"), "t-3")
    hand.place_bets(1, {"ante": 500, "bonus": 100})
    hand.close_bets()
    deal(hand, "Ah Qc Ad 9d")
    hand.act(1, Action("preflop", "fold"))
    assert hand.advance() == []
    assert hand.phase is Phase.SHOWDOWN and hand.board == ()
    hand.reveal()
    s = hand.settle()
    assert s.dealer_hand is None and s.seats[0].hand is None and s.seats[0].net == 2500


def test_void_returns_every_wager() -> None:
    hand = uth_hand()
    hand.place_bets(2, {"ante": 1000, "blind": 1000, "trips": 200})
    hand.close_bets()
    deal(hand, "Ah Kd 7c 7s 2h As Ac 3c 9d")
    hand.act(2, Action("preflop", "play", 3))
    hand.void(VoidReason("device_fault", "JAM"))
    v = hand.void_settlement()
    assert v["void"]["code"] == "device_fault"
    boxes = {b["box"]: b for b in v["seats"][0]["bets"]}
    assert boxes["play"]["stake"] == 3000 and all(b["net"] == 0 for b in boxes.values())
    with pytest.raises(HandStateError):
        hand.void(VoidReason("device_fault"))
    assert VoidReason("device_fault", "JAM").text("it") == "Guasto della miscelatrice (JAM)"


def test_extra_card_is_refused() -> None:
    hand = uth_hand()
    hand.place_bets(1, {"ante": 1000, "blind": 1000})
    hand.close_bets()
    deal(hand, "Ah Kd 7c 7s 2h As Ac 3c 9d")
    with pytest.raises(HandStateError):
        hand.place_card(parse_card("2c"), source="test")
