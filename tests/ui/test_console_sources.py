"""The console's table service with the table's card sources (issues 4 and 5), without a window:
the failover chain from the table's [[sources]] with the dealer's keypad last, cards typed while
the worker waits for them (progress snapshots name the position, never a card), the keypad's
slow card timeout, voiding a typed deal at once, the unreadable-card policy "void", a device
that stops answering between hands, and the pit boss roster (scrypt-hashed PINs)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.config import SourceConfig, TableConfig, load_table_config
from dealer_assist.engine.rules import Action
from dealer_assist.engine.state import Position
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import ConfigError, DeviceError
from dealer_assist.storage.journal import Journal
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from drivers.failover.chain import FailoverSource
from tests.fixtures.console_conftest import emulator_url
from ui.console.dispatch import execute
from ui.console.presenter import ConsolePresenter
from ui.console.service import TableService
from ui.console.snapshot import TableSnapshot
from ui.console.view import Step
from ui.kit.boot import source_factory
from ui.kit.card_source import Timeouts
from ui.kit.commands import Command
from ui.kit.fault_texts import not_ready_text
from ui.kit.pitboss import PitBossRoster
from ui.kit.service_parts import ServiceParts

NO_DEVICE = "/dev/dealer-assist-no-such-tty"


def with_sources(config: TableConfig, *urls: str) -> TableConfig:
    return dataclasses.replace(config, sources=tuple(SourceConfig(u) for u in urls))


class Typist:
    """The dealer at the keypad: types the next card of ``deck`` each time a snapshot asks for
    one (waits ``first_delay`` s before the first), given the snapshots of the table's ticks
    (``service.wait(each=typist)``)."""

    def __init__(self, service: TableService, deck: list[Card], first_delay: float = 0.0):
        self.service = service
        self.deck = deck
        self.first_delay = first_delay
        self.seen: list[TableSnapshot] = []
        self.typed: list[tuple[Position, Card]] = []
        self.stop_after: int | None = None
        self.stopped = False
        self._waited = False

    def __call__(self, snap: TableSnapshot) -> None:
        self.seen.append(snap)
        if not (snap.manual_entry and snap.awaiting) or len(self.typed) > snap.placed:
            return
        if self.stop_after is not None and len(self.typed) >= self.stop_after:
            self.stopped = True
            return
        if not self._waited:
            time.sleep(self.first_delay)
            self._waited = True
        card = self.deck[len(self.typed)]
        self.typed.append((snap.awaiting[0], card))
        self.service.enter_card(card)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[list[TableService]]:
    made: list[TableService] = []
    yield made
    for s in made:
        s.close()


def test_keypad_is_the_last_resort_and_typing_does_not_time_out(
    tmp_path: Path, services: list[TableService]
) -> None:
    config = with_sources(load_table_config(game="uth"), NO_DEVICE)
    service = TableService(
        ServiceParts(
            config,
            source_factory(config),
            Journal(str(tmp_path / "j.db")),
            timeouts=Timeouts(card=0.4, slow_card=30.0),
        )
    )
    services.append(service)
    deck = list(FULL_DECK[10:21])
    typist = Typist(service, deck, first_delay=1.0)  # longer than card_timeout
    snap = service.open(1)
    chain = service.link.card_source.source
    assert isinstance(chain, FailoverSource)
    assert [s.name for s in chain.sources] == ["serial", "manual"]
    assert snap.phase is Phase.BETS_OPEN and snap.error is None
    assert snap.device.source == "manual" and snap.device.source_kind == "manual"
    notice = snap.notice
    assert notice is not None and (notice.from_source, notice.to_source) == ("serial", "manual")
    assert notice.manual and NO_DEVICE in notice.reason
    started = time.monotonic()
    snap = service.deal(
        {2: {"ante": 500, "blind": 500}, 5: {"ante": 1000, "blind": 1000, "trips": 100}}, 2
    )
    assert snap.phase is Phase.DEALING and snap.error is None  # the step returns at once
    snap = service.wait(each=typist)
    assert time.monotonic() - started > 1.0
    assert snap.error is None and snap.phase is Phase.DECISIONS, snap.error
    hand = service.hand
    assert hand is not None
    # the keypad was asked for each position in dealing order, and got each card there
    assert [p for p, _ in typist.typed] == hand.game.initial_deal([2, 5])
    for pos, card in typist.typed:
        placed = next(c for c in hand.cards if c.position == pos)
        assert placed.card == card and placed.manual and placed.source == "manual"
    # progress snapshots never carry a card (nothing is face up during the deal)
    assert len(typist.seen) >= 11
    assert all(c is None for s in typist.seen for c in (*s.board, *s.dealer))
    for seat in (2, 5):
        service.act(seat, Action("preflop", "check"))
    service.dealer_step()
    for seat in (2, 5):
        service.act(seat, Action("flop", "check"))
    service.dealer_step()
    for seat in (2, 5):
        service.act(seat, Action("river", "fold"))
    snap = service.dealer_step()
    assert snap.phase is Phase.SETTLED
    assert service.runner is not None
    stored = service.runner.stored
    assert stored is not None and stored.status == "settled"
    assert len(stored.extra["cards"]) == 11
    assert all(c["source"] == "manual" and c["manual"] for c in stored.extra["cards"])
    assert [c["card"] for c in stored.extra["cards"]] == [str(c) for c in deck]


def test_dealer_voids_a_typed_deal_at_once(tmp_path: Path, services: list[TableService]) -> None:
    config = with_sources(load_table_config(game="uth"), "manual://")
    service = TableService(
        ServiceParts(
            config,
            source_factory(config),
            Journal(str(tmp_path / "j.db")),
            timeouts=Timeouts(slow_card=30.0),
        )
    )
    services.append(service)
    typist = Typist(service, list(FULL_DECK[:11]))
    typist.stop_after = 3
    service.open(1)
    started = time.monotonic()
    service.deal({1: {"ante": 500, "blind": 500}}, 2)
    while not typist.stopped:  # the worker's ticks while the dealer types 3 cards
        assert time.monotonic() - started < 10
        typist(service.tick(0.05))
    assert service.busy  # the deal still waits for its cards: the void is an ordinary step
    snap = service.void(VoidReason("dealer_void"), 3)
    assert time.monotonic() - started < 10  # not the 30 s card timeout
    assert snap.phase is Phase.VOID and snap.void_reason == VoidReason("dealer_void")
    assert [(s, b) for s, b in snap.void_returns] == [(1, (("ante", 500), ("blind", 500)))]
    assert service.void(VoidReason("dealer_void"), 4).error is None  # a second void: no-op
    assert service.runner is not None
    stored = service.runner.stored
    assert stored is not None and stored.status == "void"
    assert len(stored.extra["cards"]) == 3


def test_unreadable_card_voids_by_default(tmp_path: Path, services: list[TableService]) -> None:
    config = load_table_config(game="uth")
    assert config.unreadable_card == "void"
    src = config.sources[0]
    url = emulator_url(5, "unreadable_at=4")
    service = TableService(
        ServiceParts(
            config,
            lambda: open_source(url, pin_model=src.pin_model, pin_serial=src.pin_serial),
            None,
            timeouts=Timeouts(card=3.0),
        )
    )
    services.append(service)

    def run(cmd: Command) -> None:
        p.on_snapshot(execute(service, cmd))
        p.on_snapshot(service.wait())  # the worker's ticks, until the deal is in (or void)

    p = ConsolePresenter(config, run)
    p.start()
    p.tap_seat(3)
    p.tap_chip(500)
    p.rien_ne_va_plus()
    view = p.view()
    assert view.step is Step.VOID and view.entry is None
    assert view.void_reason is not None and view.void_reason.code == "unreadable_card"


def test_not_ready_blocks_rien_ne_va_plus_and_the_new_hand() -> None:
    """Device status as the worker reports it between hands (plain snapshot data)."""
    from ui.kit.status import DeviceStatus

    config = load_table_config(game="uth")
    sent: list[Command] = []
    p = ConsolePresenter(config, sent.append)
    ok = DeviceStatus(connected=True, ready=True, link="connected", source="emulator")
    jam = dataclasses.replace(ok, ready=False, faults=("JAM",), why_not_ready="fault JAM")
    p.on_snapshot(TableSnapshot(phase=Phase.BETS_OPEN, hand_uid="h1", device=ok))
    p.tap_seat(1)
    p.tap_chip(500)
    action = p.view().action
    assert action is not None and action.enabled and not p.view().not_ready
    p.on_snapshot(TableSnapshot(phase=Phase.BETS_OPEN, hand_uid="h1", device=jam))
    view = p.view()
    assert view.not_ready and view.action is not None and not view.action.enabled
    p.rien_ne_va_plus()  # the button is disabled; a stray call must not deal either
    assert [c.kind for c in sent] == []
    assert not_ready_text(view.device) == (
        "Cards jammed in the shuffler: clear the jam on the shuffler"
    )  # what to do, not the code
    p.on_snapshot(TableSnapshot(phase=Phase.SETTLED, hand_uid="h1", device=jam))
    p.cursor = 99  # settlement done
    action = p.view().action
    assert action is not None and action.kind == "new_hand" and not action.enabled


def test_reconnection_is_visible_between_hands(services: list[TableService]) -> None:
    config = load_table_config(game="uth")
    src = config.sources[0]
    url = emulator_url(6)
    service = TableService(
        ServiceParts(
            config,
            lambda: open_source(
                url,
                pin_model=src.pin_model,
                pin_serial=src.pin_serial,
                heartbeat_timeout=0.5,
                reopen_interval=0.2,
            ),
            None,
        )
    )
    services.append(service)
    snap = service.open(1)
    assert snap.device.ready and snap.device.source_kind == "device"
    emulator = service.active_source
    assert isinstance(emulator, EmulatorSource) and emulator.emulator.pid is not None
    pid = emulator.emulator.pid
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 8
    while not snap.device.reconnect_attempts:
        assert time.monotonic() < deadline, snap.device
        time.sleep(0.1)
        snap = service.tick()
    assert not snap.device.ready and snap.device.link in ("lost", "reconnecting")
    assert "reconnecting… attempt" in not_ready_text(snap.device)
    assert snap.void_reason is not None and snap.void_reason.code == "link_lost"  # bets were open
    refused = service.acknowledge_void(2)  # read; the next hand waits for the device
    assert refused.error is not None and refused.error.code == "device_not_ready"
    assert refused.void_reason is None and refused.phase is Phase.VOID


def test_pit_boss_roster_keeps_only_scrypt_hashes(tmp_path: Path) -> None:
    path = tmp_path / "pit_bosses.json"
    roster = PitBossRoster(path).load()
    assert roster.badges == ()
    roster.add("4711", "2468")
    roster.add("12", "97531")
    roster.save()
    text = path.read_text("utf-8")
    # no PIN as a value anywhere (a hex hash may contain "2468" by chance: values, not text)
    stored = json.loads(text)["pit_bosses"]
    values = [v for e in stored.values() for v in e.values()]
    assert "2468" not in values and "97531" not in values
    assert all(set(e) <= {"salt", "hash", "n", "r", "p"} for e in stored.values()), stored
    entry = stored["4711"]
    assert len(bytes.fromhex(entry["salt"])) == 16 and len(bytes.fromhex(entry["hash"])) == 32
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    again = PitBossRoster(path).load()
    assert again.badges == ("12", "4711")
    assert again.verify("4711", "2468") and again.verify("12", "97531")
    assert not again.verify("4711", "2469") and not again.verify("99", "2468")
    roster.add("4711", "1357")  # a new PIN, a new salt
    assert json.loads(text)["pit_bosses"]["4711"]["salt"] != roster._entries["4711"]["salt"]
    with pytest.raises(ConfigError, match="at least 4 digits"):
        roster.add("5", "12")
    with pytest.raises(ConfigError, match="badge"):
        roster.add("ab", "1234")
    path.write_text('{"pit_bosses": {"1": {"salt": "zz"}}}', "utf-8")
    with pytest.raises(ConfigError, match="malformed"):
        PitBossRoster(path).load()


def test_keypad_refuses_cards_when_a_reader_deals(services: list[TableService]) -> None:
    config = load_table_config(game="uth")
    src = config.sources[0]
    url = emulator_url(2)
    service = TableService(
        ServiceParts(
            config,
            lambda: open_source(url, pin_model=src.pin_model, pin_serial=src.pin_serial),
            None,
        )
    )
    services.append(service)
    service.open(1)
    with pytest.raises(DeviceError, match="manual entry is off"):
        service.enter_card(FULL_DECK[0])


def test_thb_streets_are_typed_burns_included(tmp_path: Path, services: list[TableService]) -> None:
    """THB deals the flop, the turn and the river later, each after a burn: the keypad is asked
    for each of them while the dealer's step waits."""
    config = with_sources(load_table_config(game="thb"), "manual://")
    service = TableService(
        ServiceParts(
            config,
            source_factory(config),
            Journal(str(tmp_path / "j.db")),
            timeouts=Timeouts(card=0.3, slow_card=30.0),
        )
    )
    services.append(service)
    deck = list(FULL_DECK[5:20])
    typist = Typist(service, deck)
    service.open(1)
    service.deal({1: {"ante": 1000}, 4: {"ante": 500, "bonus": 100}}, 2)
    snap = service.wait(each=typist)
    seq = 3
    while snap.phase in (Phase.DECISIONS, Phase.SHOWDOWN):
        for seat in snap.to_act:
            legal = next(s.legal for s in snap.seats if s.seat == seat)
            snap = service.act(seat, legal[0], seq)  # bet: both stay in
            seq += 1
        snap = service.dealer_step(seq)
        seq += 1
        assert snap.error is None, snap.error
        snap = service.wait(each=typist)
    assert snap.phase is Phase.SETTLED
    asked = [str(p) for p, _ in typist.typed]
    assert asked[6:] == [
        "burn 1",
        "board 1",
        "board 2",
        "board 3",
        "burn 2",
        "board 4",
        "burn 3",
        "board 5",
    ]
    assert service.runner is not None
    stored = service.runner.stored
    assert stored is not None and stored.status == "settled"
    assert [c["card"] for c in stored.extra["cards"]] == [str(c) for c in deck[:14]]
    assert stored.extra["burns"] == [str(deck[i]) for i in (6, 10, 12)]


def test_roster_command_asks_the_pin_twice(tmp_path: Path) -> None:
    import argparse

    from ui.commands import console as command

    path = tmp_path / "pb.json"
    args = argparse.Namespace(pit_bosses=path, add_pit_boss="31", remove_pit_boss=None)
    answers = iter(["8642", "8642"])
    assert command.manage_roster(args, ask=lambda _: next(answers)) == 0
    assert PitBossRoster(path).load().verify("31", "8642")
    answers = iter(["1111", "2222"])
    with pytest.raises(ConfigError, match="differ"):
        command.manage_roster(args, ask=lambda _: next(answers))
    gone = argparse.Namespace(pit_bosses=path, add_pit_boss=None, remove_pit_boss="31")
    assert command.manage_roster(gone) == 0
    assert PitBossRoster(path).load().badges == ()
    with pytest.raises(ConfigError, match="no pit boss 31"):
        command.manage_roster(gone)
