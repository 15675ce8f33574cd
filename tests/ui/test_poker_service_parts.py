"""The poker service's collaborators, each alone over real things: the hand's steps on a real
peer runner over the keypad source and a real journal, the large pots' floor requests without a
floor (the storage fault is the kit's: tests/ui/test_kit_table_link.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError, StateRefused
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_runner import PeerRunner
from drivers.manual import ManualSource
from ui.kit.device_watch import DeferredHand
from ui.kit.floor_relay import FloorRelay
from ui.kit.service_parts import ServiceParts
from ui.poker.hand_steps import HandSteps
from ui.poker.service_signoff import PotSignoffs


def test_the_deferred_hand_of_the_poker_table_asks_the_device_nothing() -> None:
    now = [0.0]
    deferred = DeferredHand(lambda: now[0], ask_every=None)
    deferred.want(15.0)
    now[0] = 14.0
    deferred.want(15.0)  # a second ask keeps the first one's limit
    now[0] = 15.0

    class Busy:  # the only two things the wait reads, and no ask_status: never called
        waiting = True
        device_busy = False

    assert deferred.due(Busy()) == "late"  # type: ignore[arg-type]


@pytest.fixture
def runner(tmp_path: Path) -> PeerRunner:
    config = load_table_config(game="holdem")
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    source = ManualSource()
    source.open()
    r = PeerRunner(
        config, source, journal, card_timeout=5.0, shuffle_timeout=15.0, signoff=config.signoff
    )
    yield r
    source.close()
    journal.close()


def test_hand_steps_refuse_with_their_rule_and_change_nothing(runner: PeerRunner) -> None:
    steps = HandSteps(runner.config, "dealer")
    runner.resume()
    with pytest.raises(StateRefused) as e:
        steps.void(runner, VoidReason("dealer_void"))
    assert e.value.rule == "no_hand_to_void"
    with pytest.raises(StateRefused) as e:
        steps.reshuffle(runner)
    assert e.value.rule == "no_new_deck" and steps.reshuffled == ""
    with pytest.raises(HandStateError):  # no unreadable card waits
        steps.identify(runner, parse_card("As"))
    assert runner.hand is None and not steps.deferred.wanted
    steps.tick(runner)  # nothing wanted: no hand opens at a tick
    assert runner.hand is None


def test_pot_signoffs_without_a_floor_or_a_table(runner: PeerRunner) -> None:
    pots = PotSignoffs("T1")
    floor = FloorRelay()
    pots.reconcile(floor, runner, 1)  # no relay: nothing to do, nothing raised
    floor.stop()
    refused = pots.sign_here(None, None, None, "1042", "1234")
    assert refused is not None and refused.code == "state"
    refused = pots.sign_here(runner, None, None, "1042", "1234")  # no pot waits
    assert refused is not None and refused.code == "state"


def test_every_poker_command_class_has_its_step() -> None:
    from ui.kit import commands as kit_commands
    from ui.poker import commands
    from ui.poker.service import STEPS

    classes = {
        v
        for module in (commands, kit_commands)
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, kit_commands.Command)
    }
    answered_by_execute = {kit_commands.Command, kit_commands.OpenTable, kit_commands.Tick}
    assert set(STEPS) == classes - answered_by_execute - {commands.SeatChange}


def test_the_service_runs_typed_commands_by_their_class(tmp_path: Path) -> None:
    from ui.kit.commands import OpenTable, Tick
    from ui.poker.commands import NewHand, PlaceButton, SeatPlayer
    from ui.poker.service import PokerService

    config = load_table_config(game="holdem")
    service = PokerService(ServiceParts(config, ManualSource, Journal(str(tmp_path / "j.db"))))
    try:
        snap = service.execute(NewHand(1))
        assert snap.error is not None and snap.error.message == "not connected"
        assert service.execute(OpenTable(2)).error is None
        low = config.poker.buy_in[0]
        snap = service.execute(SeatPlayer(3, seat=4, name="Anna", amount=low))
        assert snap.seq == 3 and snap.error is None
        seat = snap.seat(4)
        assert seat is not None and (seat.name, seat.stack) == ("Anna", low)
        assert service.execute(PlaceButton(4, seat=4)).button == 4
        assert service.execute(Tick(9)).seq == 4  # a tick answers no command
    finally:
        service.close()
