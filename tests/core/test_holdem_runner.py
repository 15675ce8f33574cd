"""A Hold'em table through the runner: seats, buy-ins and the button
journaled as chained table records, hands dealt street by street through the card source,
a restart that picks the hand up with every stack right, voids that return every chip.

Real SQLite journal files and the keypad source (drivers.manual): cards go in as a dealer would
type them, in the order the runner asks for them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import load_table_config
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DealerAssistError, HandStateError
from dealer_assist.games.session import TableSession
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_runner import PeerRunner
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown

STACKS = {1: 20000, 3: 8000, 5: 30000, 8: 12000}


def _open(path: Path) -> tuple[PeerRunner, ManualSource, Journal]:
    journal = Journal(str(path))
    journal.open()
    close_at_teardown(journal)
    source = ManualSource()
    source.open()
    close_at_teardown(source)
    runner = PeerRunner(load_table_config(game="holdem"), source, journal, card_timeout=30)
    return runner, source, journal


def _seat_everyone(runner: PeerRunner) -> None:
    for seat, stack in STACKS.items():
        runner.seat_player(seat, f"player {seat}", stack, by="floor")
    runner.set_button(1)


def _feed(runner: PeerRunner, source: ManualSource, hand: PeerHand, deck: list[Card]) -> None:
    """Type the cards the hand waits for."""
    for _ in range(200):
        runner.poll(0.01)
        if not hand.pending_deal:
            return
        if source.expected <= 0:
            continue  # the deck's SHUFFLED or the DEAL is on its way
        source.enter(deck.pop())
    raise AssertionError("the deal did not end")


def _play(
    runner: PeerRunner, source: ManualSource, rng: random.Random, *, stop_after: int | None = None
) -> PeerHand:
    hand = runner.hand if runner.hand is not None and not runner.hand.is_over else runner.new_hand()
    assert hand is not None
    used = {c for p in hand.cards for c in [p.card]}
    deck = [c for c in FULL_DECK if c not in used]
    rng.shuffle(deck)
    actions = 0
    for _ in range(500):
        if hand.is_over:
            return hand
        _feed(runner, source, hand, deck)
        seat = hand.actor
        if seat is None:
            runner.poll(0.01)
            continue
        if stop_after is not None and actions >= stop_after:
            return hand
        space = hand.legal(seat)
        kind = rng.choice(space.kinds)
        if kind in ("show", "muck"):
            runner.show(seat, shown=kind == "show")
        else:
            to = space.amount.minimum if kind in ("bet", "raise") and space.amount else None
            runner.act(seat, kind, to)
            actions += 1
    raise AssertionError("the hand did not end")


def _total(session: TableSession) -> int:
    return sum(p.stack or 0 for p in session.seats.values())


def test_hands_carry_stacks_and_the_button_and_every_change_is_journaled(tmp_path: Path) -> None:
    runner, source, journal = _open(tmp_path / "j.db")
    _seat_everyone(runner)
    rng = random.Random(11)
    buttons = []
    for _ in range(8):
        hand = _play(runner, source, rng)
        assert hand.status == "settled" and runner.stored is not None
        assert settle_record(runner.stored.record) == runner.stored.settlement
        buttons.append(hand.setup.button)
        assert runner.session is not None
        rake = hand.result()["rake"]  # type: ignore[index]
        assert _total(runner.session) + rake == sum(STACKS.values())
    assert buttons[:4] == [1, 3, 5, 8] and buttons[4:] == [1, 3, 5, 8]  # clockwise, every hand
    assert journal.verify().ok
    kinds = [h.status for h in journal.iter_hands()]
    assert kinds.count("settled") == 8 and len(kinds) == 8 + len(STACKS) + 1  # + table records

    again, _, _ = _open(tmp_path / "j.db")  # a restart: the session from the journal
    assert again.resume() is None
    restored = TableSession.of_journal("HOLDEM-01", again.journal)
    assert restored.seats == runner.session.seats  # type: ignore[union-attr]
    assert restored.button == runner.session.button  # type: ignore[union-attr]


def test_a_restart_mid_hand_resumes_it_with_every_stack_right(tmp_path: Path) -> None:
    runner, source, _ = _open(tmp_path / "j.db")
    _seat_everyone(runner)
    rng = random.Random(12)
    hand = _play(runner, source, rng, stop_after=3)
    assert not hand.is_over
    put_in = hand.put_in()
    # the process dies here: nothing is closed, the step log holds the hand
    runner2, source2, journal2 = _open(tmp_path / "j.db")
    resumed = runner2.resume()
    assert resumed is not None and resumed.hand_uid == hand.hand_uid
    assert resumed.put_in() == put_in and resumed.actor == hand.actor
    done = _play(runner2, source2, rng)
    assert done.status == "settled"
    assert runner2.stored is not None and runner2.stored.extra.get("resumed") == 1
    assert runner2.session is not None
    assert _total(runner2.session) + done.result()["rake"] == sum(STACKS.values())  # type: ignore[index]
    assert journal2.verify().ok


def test_a_void_returns_every_chip_and_the_button_stays(tmp_path: Path) -> None:
    runner, source, journal = _open(tmp_path / "j.db")
    _seat_everyone(runner)
    rng = random.Random(13)
    hand = _play(runner, source, rng, stop_after=2)
    assert sum(hand.put_in().values()) > 0
    stored = runner.void(VoidReason("dealer_void", "cards exposed in the deal"))
    assert stored is not None and stored.status == "void"
    assert runner.session is not None
    assert {s: p.stack for s, p in runner.session.seats.items()} == STACKS
    runner.acknowledge_void()
    nxt = _play(runner, source, rng)
    assert nxt.setup.button == hand.setup.button  # GAMES.md "Misdeals": the button does not move
    assert journal.verify().ok


def test_table_changes_only_between_hands_and_refusals_name_the_rule(tmp_path: Path) -> None:
    runner, _source, _ = _open(tmp_path / "j.db")
    with pytest.raises(DealerAssistError, match=r"8000|buy"):
        runner.seat_player(2, "too short", 100)
    _seat_everyone(runner)
    hand = runner.new_hand()
    with pytest.raises(HandStateError, match="only between hands"):
        runner.top_up(3, 1000)
    assert not hand.is_over


def test_undo_before_the_next_card_only(tmp_path: Path) -> None:
    runner, source, _ = _open(tmp_path / "j.db")
    _seat_everyone(runner)
    hand = runner.new_hand()
    deck = list(FULL_DECK)
    _feed(runner, source, hand, deck)
    first = hand.actor
    assert first is not None
    runner.act(first, "call")
    runner.undo()
    assert hand.actor == first and hand.put_in()[first] == 0
    with pytest.raises(HandStateError, match="no action to undo"):
        runner.undo()
    while hand.street == "preflop" and hand.actor is not None:
        runner.act(hand.actor, "call" if "call" in hand.legal(hand.actor).kinds else "check")
    assert hand.pending_deal  # the flop is asked for: the last action stands
    with pytest.raises(HandStateError, match="already asked for"):
        runner.undo()
