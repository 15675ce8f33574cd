"""The engine's pure parts: typed operations, the GameState protocol of the banked family (verify,
can, apply, replay as a fold, views), the peer family's building blocks, the table session."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import UTC, datetime

import pytest

from dealer_assist.cards import FULL_DECK, parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.operations import (
    OPERATIONS,
    Bet,
    BetsPlaced,
    CardDealt,
    DealerRevealed,
    Decision,
    Decisions,
    ForcedBet,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    PotAwarded,
    StreetClosed,
    operation_from_json,
)
from dealer_assist.engine.peer import BettingRound, BettingStructure, DealPlan, StreetSpec
from dealer_assist.engine.state import AmountRange, GameState, Position
from dealer_assist.engine.views import Phase
from dealer_assist.errors import (
    ConfigError,
    HandStateError,
    IllegalActionError,
    OperationError,
    RuleError,
)
from dealer_assist.games import get_game
from dealer_assist.games.session import SeatedPlayer, TableChange, TableSession

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def samples() -> list[Operation]:
    """One operation of every kind, every field set to a non-default value where it has one."""
    card = parse_card("Ah")
    return [
        HandOpened(
            started_at=NOW,
            device={"model": "m", "serial": "s"},
            acks=({"by": "d"},),
            session={"table_id": "T"},
        ),
        BetsPlaced(seats={1: {"ante": 100, "blind": 100}, 7: {"ante": 500, "blind": 500}}),
        CardDealt(
            deck_id="d1",
            index=3,
            card=card,
            source="serial",
            manual=True,
            at=NOW,
            identified_by="D",
            confirmed_by="PB",
        ),
        CardDealt(deck_id="d1", index=4, card=None, source="serial", at=NOW),
        Decision(seat=2, street="preflop", action="play", multiple=4),
        Decisions(decisions=(Decision(seat=1, street="flop", action="check"),), advance=True),
        StreetClosed(),
        DealerRevealed(),
        HandSettled(at=NOW),
        HandVoided(code="device_fault", detail="JAM", causes=({"kind": "fault"},), at=NOW),
        ForcedBet(seat=3, bet="big_blind", amount=200),
        Bet(seat=4, bet="raise", to=600),
        PotAwarded(pot=1, amount=1205, shares={2: 605, 5: 600}, odd_chips_to=(2,)),
    ]


@pytest.mark.parametrize("op", samples(), ids=lambda op: op.kind)
def test_every_operation_survives_json(op: Operation) -> None:
    text = json.dumps(op.to_json())
    back = operation_from_json(op.kind, json.loads(text))
    assert back == op and type(back) is type(op)
    assert json.loads(text)["v"] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        op.kind_ = 1  # type: ignore[attr-defined]


def test_operations_have_distinct_kinds_and_are_keyword_only() -> None:
    assert len(OPERATIONS) == len({c.kind for c in OPERATIONS.values()}) >= 20
    with pytest.raises(TypeError):
        Decision(2, "preflop", "play")  # type: ignore[misc]


def test_a_bad_operation_json_names_the_operation_and_the_field() -> None:
    with pytest.raises(OperationError, match="unknown operation 'shuffle'"):
        operation_from_json("shuffle", {})
    with pytest.raises(OperationError, match=r"act: field 'seat'"):
        operation_from_json("act", {"seat": "2", "street": "flop", "action": "check"})
    with pytest.raises(OperationError, match=r"act: field 'seat'"):
        operation_from_json("act", {"seat": True, "street": "flop", "action": "check"})
    with pytest.raises(OperationError, match=r"act: field 'street' is missing"):
        operation_from_json("act", {"seat": 2, "action": "check"})
    with pytest.raises(OperationError, match="schema version 2"):
        operation_from_json("act", {"v": 2, "seat": 2, "street": "flop", "action": "check"})
    with pytest.raises(OperationError, match=r"card: field 'card'"):
        operation_from_json(
            "card", {"deck_id": "d", "index": 1, "card": "1x", "source": "s", "at": NOW.isoformat()}
        )
    with pytest.raises(OperationError, match="no time zone"):
        operation_from_json("settle", {"at": "2026-12-01T10:00:00"})
    with pytest.raises(OperationError, match="forced_bet: field 'bet'"):
        operation_from_json("forced_bet", {"seat": 1, "bet": "straddle", "amount": 5})


def test_a_version_1_payload_of_the_previous_release_reads() -> None:
    old = {
        "decisions": [{"seat": 1, "street": "preflop", "action": "play", "multiple": 4}],
        "advance": True,
        "events": [{"kind": "card"}],
    }
    op = operation_from_json("acts", old)
    assert op == Decisions(
        decisions=(Decision(seat=1, street="preflop", action="play", multiple=4),), advance=True
    )


def _dealt_uth_hand() -> BankedHand:
    hand = BankedHand(get_game("uth"), load_table_config(game="uth"), "h-1")
    hand.apply(HandOpened(started_at=NOW))
    hand.apply(
        BetsPlaced(
            seats={2: {"ante": 1000, "blind": 1000, "trips": 500}, 5: {"ante": 500, "blind": 500}}
        )
    )
    deck = list(FULL_DECK)
    random.Random(4).shuffle(deck)
    for i, card in enumerate(deck[: len(hand.pending_deal)]):
        hand.apply(CardDealt(deck_id="d", index=i + 1, card=card, source="t", at=NOW))
    return hand


def test_the_banked_hand_follows_the_protocol_and_refuses_without_changing() -> None:
    hand = _dealt_uth_hand()
    assert isinstance(hand, GameState) and hand.actor is None and hand.automatic() is None
    assert hand.phase is Phase.DECISIONS and not hand.pending_deal
    space = hand.legal(2)
    assert space.kinds == ("play", "check") and len(space.choices) == 3
    assert all(hand.can(op) for op in space.choices)
    before = (len(hand.operations), [list(s.actions) for s in hand.seats.values()])
    for bad in (
        Decision(seat=2, street="flop", action="play", multiple=2),
        Decision(seat=3, street="preflop", action="check"),
        StreetClosed(),
        DealerRevealed(),
        HandSettled(at=NOW),
        Decisions(decisions=(Decision(seat=2, street="preflop", action="check"),) * 2),
    ):
        assert not hand.can(bad)
        with pytest.raises(RuleError):
            hand.apply(bad)
    assert (len(hand.operations), [list(s.actions) for s in hand.seats.values()]) == before
    with pytest.raises(IllegalActionError, match="legal: play 4x, play 3x, check"):
        hand.verify(Decision(seat=2, street="preflop", action="fold"))
    with pytest.raises(HandStateError, match="no 'bet' operation"):
        hand.verify(Bet(seat=2, bet="check"))
    op = Decision(seat=2, street="preflop", action="play", multiple=4)
    assert hand.apply(op) is op and hand.operations[-1] is op


def test_replay_is_a_fold_over_the_operations() -> None:
    hand = _dealt_uth_hand()
    hand.apply(
        Decisions(
            decisions=(
                Decision(seat=2, street="preflop", action="check"),
                Decision(seat=5, street="preflop", action="play", multiple=3),
            ),
            advance=True,
        )
    )
    hand.apply(Decision(seat=2, street="flop", action="check"))
    hand.apply(StreetClosed())
    hand.apply(Decision(seat=2, street="river", action="play", multiple=1))
    hand.apply(StreetClosed())
    hand.apply(DealerRevealed())
    hand.apply(HandSettled(at=NOW))
    again = BankedHand(get_game("uth"), load_table_config(game="uth"), "h-1")
    for op in hand.operations:
        again.apply(operation_from_json(op.kind, json.loads(json.dumps(op.to_json()))))
    assert again.result() == hand.result() and again.record_json() == hand.record_json()
    assert again.journal_extra() == hand.journal_extra() and again.status == "settled"
    result = hand.result()
    assert result is not None and sum(s["net"] for s in result["seats"]) != 0


def test_views_show_each_viewer_only_what_it_may_see() -> None:
    hand = _dealt_uth_hand()
    dealer = hand.view("dealer")
    assert all(c is None for c in (*dealer.board, *dealer.dealer))
    assert all(c is None for s in dealer.seats for c in s.hole) and dealer.qualifies is None
    boss = hand.view("pit_boss")
    assert None not in (*boss.board, *boss.dealer, *(c for s in boss.seats for c in s.hole))
    hand.apply(
        Decisions(
            decisions=(
                Decision(seat=2, street="preflop", action="check"),
                Decision(seat=5, street="preflop", action="check"),
            ),
            advance=True,
        )
    )
    dealer = hand.view("dealer")
    assert [c is not None for c in dealer.board] == [True] * 3 + [False] * 2
    assert dealer.result is None
    hand.apply(HandVoided(code="dealer_void", at=NOW))
    done = hand.view("dealer")
    assert done.result is not None and done.result["void"]["code"] == "dealer_void"


def test_deal_plans_place_burns_hole_cards_with_their_face_and_the_board() -> None:
    plan = DealPlan(
        (
            StreetSpec("third", hole=(False, False, True), round=BettingRound("bring_in")),
            StreetSpec("fourth", hole=(True,), round=BettingRound("best_exposed")),
            StreetSpec("flop", burn=1, board=3, round=BettingRound("left_of_button")),
        )
    )
    third = plan.deal("third", [3, 5], dealt=0, burned=0, board=0)
    assert [(str(d.position), d.face_up) for d in third] == [
        ("seat 3 card 1", False),
        ("seat 5 card 1", False),
        ("seat 3 card 2", False),
        ("seat 5 card 2", False),
        ("seat 3 card 3", True),
        ("seat 5 card 3", True),
    ]
    fourth = plan.deal("fourth", [5], dealt=3, burned=0, board=0)
    assert [d.position for d in fourth] == [Position("seat", 4, 5)]
    flop = plan.deal("flop", [1, 2], dealt=2, burned=2, board=0)
    assert [str(d.position) for d in flop] == ["burn 3", "board 1", "board 2", "board 3"]
    assert plan.cards_needed("third", 8) == 24 and plan.cards_needed("flop", 8) == 4
    with pytest.raises(ConfigError, match="no street 'river'"):
        plan.street("river")
    with pytest.raises(ConfigError, match="opener"):
        BettingRound("left_of_dealer")  # type: ignore[arg-type]


def test_betting_structures_are_checked_and_amount_ranges_step() -> None:
    BettingStructure("fixed_limit", 200, 400, max_raises=3, chip_unit=25)
    for bad, key in (
        ({"kind": "spread"}, "structure"),
        ({"small_bet": 0}, "small_bet"),
        ({"chip_unit": 30}, "multiples"),
    ):
        args = {"kind": "no_limit", "small_bet": 200, "big_bet": 200, "chip_unit": 25, **bad}
        with pytest.raises(ConfigError, match=key):
            BettingStructure(**args)  # type: ignore[arg-type]
    r = AmountRange(400, 1000, 25)
    assert r.allows(400) and r.allows(1000) and r.allows(425)
    assert not r.allows(410) and not r.allows(375) and not r.allows(1025)


def test_the_session_round_trips_and_is_restored_from_the_last_hand() -> None:
    s = TableSession(
        "T1",
        4,
        {3: SeatedPlayer("Ann", 12000), 6: SeatedPlayer(sitting_out=True)},
        button=3,
        level=2,
    )
    assert TableSession.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert s.after_hand().hands == 5
    assert TableSession.restore("T1", {"session": s.to_json()}, 99) == s
    assert TableSession.restore("T1", {}, 7) == TableSession("T1", 7)
    assert TableSession.restore("T1", {"session": {**s.to_json(), "table_id": "T2"}}, 1).hands == 1
    with pytest.raises(ConfigError, match="version"):
        TableSession.from_json({**s.to_json(), "v": 9})


def test_the_session_after_a_hand_keeps_every_field_but_the_count_and_the_change() -> None:
    s = TableSession(
        "T1",
        4,
        {3: SeatedPlayer("Ann", 12000, owes=("big_blind",))},
        button=3,
        level=2,
        marks={"big_blind": 3},
        dealer="B-17",
        change=TableChange("button", {"seat": 3}),
    )
    after = s.after_hand()
    kept = {f.name for f in dataclasses.fields(s)} - {"hands", "change"}
    assert {n: getattr(after, n) for n in kept} == {n: getattr(s, n) for n in kept}
    assert (after.hands, after.change) == (5, None)


def test_operations_are_frozen_all_the_way_down() -> None:
    bets = {1: {"ante": 100, "blind": 100}}
    op = BetsPlaced(seats=bets)
    bets[1]["ante"] = 5  # the caller's dict changes: the operation does not
    assert op.seats[1]["ante"] == 100
    with pytest.raises(TypeError):
        op.seats[1]["ante"] = 5  # type: ignore[index]
    voided = HandVoided(code="x", causes=({"kind": "fault", "codes": ["JAM"]},), at=NOW)
    assert voided.causes[0]["codes"] == ("JAM",)
    assert json.loads(json.dumps(voided.to_json()))["causes"] == [
        {"kind": "fault", "codes": ["JAM"]}
    ]


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("exposed", {"card": None, "position": "seat 3", "note": "seat 3", "at": NOW.isoformat()}),
        ("exposed", {"card": "Kd", "position": "", "note": "Kd", "at": NOW.isoformat()}),
        ("identify", {"card": "7c", "dealer": "dealer", "at": NOW.isoformat()}),
        ("confirm", {"pit_boss": "4711", "at": NOW.isoformat()}),
        ("reject", {"pit_boss": "4711", "at": NOW.isoformat()}),
        (
            "void",
            {
                "code": "device_fault",
                "detail": "JAM",
                "text_it": "Guasto",
                "text_en": "Fault",
                "causes": [{"kind": "fault", "code": "JAM"}],
                "at": NOW.isoformat(),
            },
        ),
        ("resume", {"resumes": 2}),
        ("deal", {"n": 9}),
        ("deck", {"deck_id": "D7", "count": 52, "device": {"model": "m", "serial": "s"}}),
        ("void_alarm", {"hand_uid": "T-1", "code": "restart", "detail": ""}),
        ("void_ack", {"hand_uid": "T-1", "code": "restart", "by": "dealer", "at": NOW.isoformat()}),
    ],
)
def test_the_previous_release_s_other_step_payloads_read(kind: str, payload: dict) -> None:
    """Payloads as the release before the operations wrote them (no "v", with "events")."""
    op = operation_from_json(kind, {**payload, "events": [{"kind": "card"}]})
    assert op.kind == kind
    known = {k: v for k, v in op.to_json().items() if k != "v"}
    assert {k: payload[k] for k in known} == known  # every field read back as it was written


def test_a_folded_hand_stays_mucked_on_the_dealer_s_screen() -> None:
    hand = _dealt_uth_hand()
    for street, seat2, seat5 in (
        ("preflop", "check", "check"),
        ("flop", "check", "check"),
        ("river", "fold", "play"),
    ):
        hand.apply(
            Decisions(
                decisions=(
                    Decision(seat=2, street=street, action=seat2),
                    Decision(
                        seat=5, street=street, action=seat5, multiple=1 if seat5 == "play" else None
                    ),
                ),
                advance=True,
            )
        )
    hand.apply(DealerRevealed())
    seats = {s.seat: s for s in hand.view("dealer").seats}
    assert seats[2].folded and seats[2].hole == (None, None)
    assert None not in seats[5].hole and None not in hand.view("dealer").dealer
