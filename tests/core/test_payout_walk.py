"""In the core: the chips to pay a box, the payout marks that survive a restart (real
SQLite journal), a mis-tapped decision taken back before the next card, the exposed-card check
against the reader's card, and a settled hand rebuilt from its journaled record."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.banked_checks import ExposedCardMismatch, corrections
from dealer_assist.engine.operations import ActionUndone, CardExposed, DecisionCorrected
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.errors import HandStateError, IllegalActionError
from dealer_assist.events import utc_now
from dealer_assist.games import get_game
from dealer_assist.record import parse_record
from dealer_assist.storage.journal import Journal
from dealer_assist.table.payouts import PayoutLog
from ui.money import chip_breakdown

EUR_CHIPS = (100, 500, 1000, 2500, 10000)


def test_chip_breakdown_from_the_tables_chip_set() -> None:
    assert chip_breakdown(44000, EUR_CHIPS) == ([(10000, 4), (2500, 1), (1000, 1), (500, 1)], 0)
    assert chip_breakdown(44000, list(reversed(EUR_CHIPS))) == chip_breakdown(44000, EUR_CHIPS)
    assert chip_breakdown(750, EUR_CHIPS) == ([(500, 1), (100, 2)], 50)  # 3:2 leaves 50 cents
    assert chip_breakdown(0, EUR_CHIPS) == ([], 0)
    assert chip_breakdown(-2500, EUR_CHIPS) == ([(2500, 1)], 0)
    config = load_table_config(game="uth")
    assert chip_breakdown(44000, config.chips)[0] == [(10000, 4), (2500, 1), (1000, 1), (500, 1)]
    with pytest.raises(ValueError, match="positive"):
        chip_breakdown(100, (100, 0))


def test_payout_marks_survive_a_new_process_and_stay_out_of_the_hands_resume(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "j.db")
    journal = Journal(path)
    journal.open()
    log = PayoutLog(journal, "UTH-01")
    log.start("hand-a", (7, 4, 1))
    assert log.mark("hand-a", 7) and log.mark("hand-a", 4)
    assert not log.mark("hand-a", 4)  # twice: nothing more written
    assert not log.mark("hand-b", 1)  # another hand's walk: nothing
    journal.close()
    again = Journal(path)  # what a restarted console reads
    again.open()
    try:
        assert again.pending_steps("UTH-01") == []  # the hand's resume never sees them
        marks = PayoutLog(again, "UTH-01").restore()
        assert marks is not None
        assert (marks.hand_uid, marks.seats, marks.paid) == ("hand-a", (7, 4, 1), (7, 4))
        log2 = PayoutLog(again, "UTH-01")
        log2.restore()
        assert log2.mark("hand-a", 1)  # numbering goes on after a restart
        assert PayoutLog(again, "UTH-01").restore().paid == (7, 4, 1)  # type: ignore[union-attr]
        log2.start("hand-b", (2,))  # the next walk replaces the old one
        assert PayoutLog(again, "UTH-01").restore().hand_uid == "hand-b"  # type: ignore[union-attr]
        log2.finish()
        assert PayoutLog(again, "UTH-01").restore() is None
    finally:
        again.close()


def _dealt_hand(bets: dict[int, dict[str, int]]) -> BankedHand:
    """A UTH hand with ``bets`` locked and the initial deal placed from a fixed deck."""
    hand = BankedHand(get_game("uth"), load_table_config(game="uth"), "h1")
    for seat, b in bets.items():
        hand.place_bets(seat, b)
    hand.close_bets()
    deck = iter(FULL_DECK)
    while hand.pending_deal:
        hand.place_card(next(deck), source="test")
    return hand


def test_a_decision_is_taken_back_until_the_next_card_is_turned() -> None:
    hand = _dealt_hand({1: {"ante": 1000, "blind": 1000}, 2: {"ante": 500, "blind": 500}})
    check, play4 = Action("preflop", "check"), Action("preflop", "play", 4)
    hand.act(1, check)  # mis-tapped: the player played 4x
    undo = ActionUndone(seat=1, at=utc_now())
    hand.apply(undo)
    assert hand.seats[1].actions == [] and play4 in hand.legal_actions(1)
    hand.act(1, play4)
    assert hand.stakes(1)["play"] == 4000
    with pytest.raises(HandStateError, match="seat 2 has no decision"):
        hand.verify(ActionUndone(seat=2, at=utc_now()))
    hand.act(2, check)
    hand.advance()  # the flop is turned: the preflop decisions stand
    before = [list(s.actions) for s in hand.seats.values()]
    for seat in (1, 2):
        with pytest.raises(HandStateError, match="next cards are already out"):
            hand.apply(ActionUndone(seat=seat, at=utc_now()))
    assert [list(s.actions) for s in hand.seats.values()] == before


def test_the_exposed_card_is_checked_against_the_readers_card_at_that_place() -> None:
    hand = _dealt_hand({3: {"ante": 1000, "blind": 1000}})
    seat_cards = tuple(hand.seats[3].hole[n] for n in sorted(hand.seats[3].hole))
    other = next(c for c in FULL_DECK if c not in seat_cards)
    wrong = CardExposed(card=other, position="seat 3", note="x", at=utc_now())
    with pytest.raises(ExposedCardMismatch) as err:
        hand.apply(wrong)
    assert str(other) not in str(err.value) and all(
        str(c) not in str(err.value) for c in seat_cards
    )
    assert hand.exposed == []
    hand.apply(CardExposed(card=seat_cards[1], position="seat 3", note="ok", at=utc_now()))
    hand.apply(CardExposed(card=hand.dealer_cards[0], position="dealer", note="d", at=utc_now()))
    hand.apply(CardExposed(card=None, position="board", note="unknown", at=utc_now()))
    with pytest.raises(ExposedCardMismatch):
        hand.apply(CardExposed(card=seat_cards[0], position="board", note="b", at=utc_now()))
    assert len(hand.exposed) == 3


def test_a_settled_hand_is_rebuilt_from_its_journaled_record() -> None:
    hand = _dealt_hand(
        {1: {"ante": 1000, "blind": 1000, "trips": 500}, 5: {"ante": 500, "blind": 500}}
    )
    hand.act(1, Action("preflop", "play", 4))
    hand.act(5, Action("preflop", "check"))
    hand.advance()
    hand.act(5, Action("flop", "check"))
    hand.advance()
    hand.act(5, Action("river", "play", 1))
    hand.advance()
    hand.reveal()
    settlement = hand.settle()
    record = parse_record(hand.record_json())
    now = utc_now()
    again = BankedHand.settled(hand.game, hand.config, "h1", record, started_at=now, ended_at=now)
    assert again.phase is Phase.SETTLED and again.settlement == settlement
    assert again.board == hand.board and again.dealer_cards == hand.dealer_cards
    assert {s: again.stakes(s) for s in again.seats} == {s: hand.stakes(s) for s in hand.seats}
    shown = again.view("dealer")
    holes: list[Card | None] = [c for s in shown.seats for c in s.hole]
    assert holes and None not in holes  # after the reveal: what the reader read


def test_a_pit_boss_corrects_a_decision_after_the_next_cards() -> None:
    hand = _dealt_hand({1: {"ante": 1000, "blind": 1000}, 2: {"ante": 500, "blind": 500}})
    check = Action("preflop", "check")
    hand.act(1, check)  # the player had played 4x
    hand.act(2, Action("preflop", "play", 4))
    hand.advance()  # the flop is turned: the dealer alone may not change the preflop now
    assert corrections(hand.facts, 2) == [Action("preflop", "play", 3), check]
    fix = DecisionCorrected(seat=1, action="play", multiple=4, pit_boss="4711", at=utc_now())
    hand.apply(fix)
    assert hand.seats[1].actions == [Action("preflop", "play", 4)]
    assert hand.stakes(1)["play"] == 4000 and 1 not in hand.seats_to_act
    assert hand.legal_actions(2) == []  # played 4x: nothing more to decide
    hand.advance()  # the river: seat 2 played 4x preflop
    # a check instead would leave the flop decision skipped: not offered, refused
    assert corrections(hand.facts, 2) == [Action("preflop", "play", 3)]
    before = list(hand.seats[2].actions)
    with pytest.raises(IllegalActionError):
        hand.apply(DecisionCorrected(seat=2, action="check", pit_boss="4711", at=utc_now()))
    assert hand.seats[2].actions == before
    payload = DecisionCorrected.from_json(fix.to_json())
    assert payload == fix
