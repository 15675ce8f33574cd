"""Cards of a finished hand's deck that come after it ended: after a settled
hand an alarm names the deck, the next hand is not voided for them (no misleading ``index_gap``),
and every card that left the device, a voided hand's included, is kept in the journal. Over the
real emulator on a pseudo-terminal, with a real SQLite journal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import CardRead
from dealer_assist.players import PlayerModel
from dealer_assist.ports import StoredHand
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.factory import open_source
from tests.conftest import close_at_teardown
from ui.commands.simulate import play_hand

SEATS = [1, 2]  # 2 x 2 hole cards, 2 for the dealer, 5 on the board: 11 cards a hand


@contextmanager
def table(
    tmp_path: Path, query: str = "shuffle_time=0.01&card_interval=0.001"
) -> Iterator[tuple[HeadlessTable, CardSource, Journal]]:
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    source = close_at_teardown(open_source(f"emulator://?seed=3&{query}", name="serial"))
    journal.open()
    source.open()
    try:
        runner = HeadlessTable(load_table_config(game="uth"), source, journal, card_timeout=2.0)
        yield runner, source, journal
    finally:
        source.close()
        journal.close()


def cards(stored: StoredHand) -> list[dict[str, Any]]:
    return [e for e in stored.events if e["kind"] == "card"]


def hands(journal: Journal) -> list[StoredHand]:
    return list(journal.iter_hands())


def test_a_card_dealt_after_the_settlement_raises_an_alarm_naming_the_deck(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as (runner, source, journal):
        model = PlayerModel(runner.config, 5)
        first = play_hand(runner, model, SEATS)
        assert first.phase is Phase.SETTLED and runner.runner.late_card_alarm is None
        deck = cards(hands(journal)[0])[-1]["deck_id"]
        source.deal(1)  # the device deals one card more of the settled hand's deck
        assert runner.driver.until(lambda: runner.runner.late_card_alarm is not None, 3.0)
        alarm = runner.runner.late_card_alarm
        assert alarm is not None and alarm.deck_id == deck and alarm.hand_uid == first.hand_uid
        assert f"deck {deck}" in alarm.text() and alarm.cards[0].startswith("12 ")
        status = runner.device_status
        assert deck in status.late_card and "LATE_CARD" in status.faults
        assert status.ready  # an alarm, not a fault: the next hand may start

        second = play_hand(runner, model, SEATS)
        assert second.phase is Phase.SETTLED, second.void_reason
        stored = hands(journal)[1]
        assert stored.status == "settled"
        (late,) = stored.extra["late_cards"]
        assert (late["hand_uid"], late["hand_status"], late["deck_id"], late["index"]) == (
            first.hand_uid,
            "settled",
            deck,
            12,
        )
        assert late["card"] == cards(stored)[0]["card"] and cards(stored)[0]["deck_id"] == deck
        assert runner.runner.late_card_alarm is None  # carried by the journaled hand
        assert "LATE_CARD" not in runner.device_status.faults
        assert journal.verify().ok


def test_a_late_card_before_the_next_deck_does_not_void_the_next_hand(tmp_path: Path) -> None:
    with table(tmp_path) as (runner, _source, journal):
        model = PlayerModel(runner.config, 5)
        first = play_hand(runner, model, SEATS)
        deck = cards(hands(journal)[0])[-1]["deck_id"]
        hand = runner.new_hand()  # its SHUFFLE is on its way: its deck is not known yet
        runner.runner.handle(
            CardRead(source="serial", deck_id=deck, index=12, card=parse_card("2c"))
        )
        alarm = runner.runner.late_card_alarm
        assert alarm is not None and alarm.deck_id == deck and alarm.cards == ("12 2c",)
        assert hand.void_reason is None and hand.phase is Phase.BETS_OPEN
        played = play_hand(runner, model, SEATS, hand)
        assert played.phase is Phase.SETTLED, played.void_reason  # before: void, "index_gap"
        stored = hands(journal)[1]
        assert stored.status == "settled" and stored.extra["late_cards"][0]["index"] == 12
        assert stored.extra["late_cards"][0]["hand_uid"] == first.hand_uid
        assert any(c["deck_id"] == deck and c["index"] == 12 for c in cards(stored))


def test_every_card_of_a_voided_deal_is_kept_in_the_journal(tmp_path: Path) -> None:
    with table(tmp_path, "shuffle_time=0.01&card_interval=0.05") as (runner, _source, journal):
        model = PlayerModel(runner.config, 5)
        hand = runner.new_hand()
        for seat in SEATS:
            hand.place_bets(seat, model.bets())
        runner.runner.close_bets()  # the deal of 11 cards starts; 50 ms a card
        assert runner.driver.until(lambda: 0 < len(hand.pending_deal) <= 8, 3.0)
        runner.void(VoidReason("dealer_void", "test"))  # the device goes on dealing
        assert runner.runner.late_card_alarm is None  # the rest of a voided deal: no alarm
        play_hand(runner, model, SEATS)
        void, nxt = hands(journal)
        assert void.status == "void"
        deck = cards(void)[0]["deck_id"]
        kept = [c["index"] for c in cards(void)] + [
            r["index"] for r in nxt.extra["late_cards"] if r["deck_id"] == deck
        ]
        assert sorted(kept) == list(range(1, 12))  # all 11, each once
        assert {r["hand_uid"] for r in nxt.extra["late_cards"]} == {void.hand_uid}
        assert nxt.status == "settled"
