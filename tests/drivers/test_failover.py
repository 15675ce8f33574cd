"""FailoverSource: sources killed between and during hands, through the real table runner, and
brought back (failback at the next hand).

Sources are the emulator in a child process on a real pty, simulated USB readers driven through
pyusb (drivers.usbsim) and the manual keypad source.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import SourceConfig, TableConfig, load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.views import Phase
from dealer_assist.errors import CommandRefusedError, ConfigError, DeviceError, ProtocolError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    LinkLost,
    SourceSwitched,
    event_to_json,
)
from dealer_assist.players import PlayerModel
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.emulator.process import EmulatorProcess
from drivers.emulator.settings import EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from drivers.failover.chain import FailoverSource
from drivers.failover.table import open_table_sources
from drivers.manual import ManualSource
from drivers.tcrp.device import TcrpDevice
from drivers.usbsim import SimUsbBackend, SimUsbDevice
from tests.conftest import close_at_teardown

SEATS = [1, 2, 3]


def sim(serial: str, **cfg: object) -> SimUsbDevice:
    config = EmulatorConfig(seed=3, shuffle_time=0.01, card_interval=0.004, **cfg)  # type: ignore[arg-type]
    return SimUsbDevice(EmulatedShuffler(config), serial=serial)


def usb(backend: SimUsbBackend, serial: str, name: str) -> CardSource:
    return open_source(
        f"usb://1209:0001?serial={serial}", backend=backend, name=name, reopen_interval=0.05
    )


class Table:
    """A runner on a failover chain, with a journal and every event it handled."""

    def __init__(self, tmp_path: Path, sources: list[CardSource], **kw: float | None) -> None:
        self.config = load_table_config(game="uth")
        self.failover = FailoverSource(sources, **kw)
        self.events: list[DeviceEvent] = []
        self.on_card: Callable[[CardRead], None] | None = None
        self.journal = Journal(str(tmp_path / "j.db"))
        close_at_teardown(self)  # also when open() or the test fails before tables.append()
        self.journal.open()
        self.failover.open()
        self.runner = HeadlessTable(
            self.config, self.failover, self.journal, card_timeout=2.0, on_event=self._on_event
        )
        self.model = PlayerModel(self.config, 9)

    def _on_event(self, event: DeviceEvent) -> None:
        self.events.append(event)
        if isinstance(event, CardRead) and self.on_card is not None:
            self.on_card(event)

    def hand(self) -> BankedHand:
        hand = play_hand(self.runner, self.model)
        acknowledge_void(self.runner)
        return hand

    def wait(self, what: Callable[[], bool], timeout: float = 8.0) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            assert time.monotonic() < deadline, f"timed out; events: {self.kinds()}"
            self.runner.poll(0.05)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def switches(self) -> list[SourceSwitched]:
        return [e for e in self.events if isinstance(e, SourceSwitched)]

    def close(self) -> None:
        self.failover.close()
        self.journal.close()


def play_hand(runner: HeadlessTable, model: PlayerModel) -> BankedHand:
    from ui.commands.simulate import play_hand as play

    return play(runner, model, SEATS)


def acknowledge_void(runner: HeadlessTable) -> None:
    """The dealer reads the void alarm, where the runner asks for it."""
    acknowledge = getattr(runner, "acknowledge_void", None)
    if acknowledge is not None:
        acknowledge()


@pytest.fixture
def tables() -> Iterator[list[Table]]:
    made: list[Table] = []
    yield made
    for table in made:
        table.close()


def card_sources(hand: BankedHand) -> set[str]:
    return {c.source for c in hand.cards}


def test_source_killed_between_hands_next_hand_on_next_source(
    tmp_path: Path, tables: list[Table]
) -> None:
    shuffler = EmulatorSource(["--seed", "2", "--shuffle-time", "0.01", "--card-interval", "0.002"],
                              name="serial")  # fmt: skip
    backend = SimUsbBackend([sim("U-1")])
    table = Table(tmp_path, [shuffler, usb(backend, "U-1", "usb"), ManualSource()],
                  switch_after=0.3)  # fmt: skip
    tables.append(table)
    first = table.hand()
    assert first.phase is Phase.SETTLED and card_sources(first) == {"serial"}

    pid = shuffler.emulator.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)  # the shuffler dies between hands
    table.wait(lambda: bool(table.switches()))
    switch = table.switches()[0]
    assert (switch.from_source, switch.to_source) == ("serial", "usb")
    assert "link lost" in switch.reason
    assert table.kinds().index("link_lost") < table.kinds().index("source_switched")
    assert table.runner.device_ready

    second = table.hand()
    assert second.phase is Phase.SETTLED and card_sources(second) == {"usb"}
    stored = list(table.journal.iter_hands())
    assert [h.status for h in stored] == ["settled", "settled"]
    assert {c["source"] for c in stored[0].extra["cards"]} == {"serial"}
    assert {c["source"] for c in stored[1].extra["cards"]} == {"usb"}


def test_source_failing_mid_hand_voids_then_fails_over(tmp_path: Path, tables: list[Table]) -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    table = Table(tmp_path, [usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")],
                  switch_after=0.3)  # fmt: skip
    tables.append(table)
    assert table.hand().phase is Phase.SETTLED
    cards = []

    def cut(card: CardRead) -> None:
        cards.append(card)
        if len(cards) == 3:
            a.unplug()

    table.on_card = cut
    void = table.hand()
    table.on_card = None
    assert void.phase is Phase.VOID and void.void_reason is not None
    assert void.void_reason.code == "link_lost"
    table.wait(lambda: bool(table.switches()))
    assert table.switches()[0].to_source == "usb-b"
    third = table.hand()
    assert third.phase is Phase.SETTLED and card_sources(third) == {"usb-b"}
    stored = list(table.journal.iter_hands())
    assert [h.status for h in stored] == ["settled", "void", "settled"]
    assert {c["source"] for c in stored[1].extra["cards"]} <= {"usb-a"}
    assert {c["source"] for c in stored[2].extra["cards"]} == {"usb-b"}
    assert table.journal.verify().ok


def test_quick_replug_keeps_the_preferred_source(tmp_path: Path, tables: list[Table]) -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    table = Table(tmp_path, [usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")],
                  switch_after=5.0)  # fmt: skip
    tables.append(table)
    a.unplug()
    table.wait(lambda: "link_lost" in table.kinds())
    a.plug()
    table.wait(lambda: table.runner.device_ready)
    hand = table.hand()
    assert hand.phase is Phase.SETTLED and card_sources(hand) == {"usb-a"}
    assert not table.switches()


def test_identity_change_fails_over_at_once() -> None:
    a = sim("A-1", swap_at=4)  # after 4 cards another device answers on this cable
    backend = SimUsbBackend([a, sim("B-1")])
    failover = FailoverSource(
        [usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")], switch_after=60.0
    )
    failover.open()
    try:
        failover.shuffle()
        drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        failover.deal(6)
        events = drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        kinds = [e.kind for e in events]
        assert kinds.count("card") == 4
        assert kinds.index("identity_changed") < kinds.index("source_switched")
        switch = events[-1]
        assert isinstance(switch, SourceSwitched) and switch.to_source == "usb-b"
        assert "identity changed" in switch.reason  # no waiting: an identity alarm does not heal
        assert failover.identity is not None and failover.identity.serial == "EMU-0001"
        assert failover.active is failover.sources[1]
    finally:
        failover.close()


def test_lost_source_is_replaced_at_the_next_shuffle() -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    failover = FailoverSource(
        [usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")], switch_after=60.0
    )
    failover.open()
    try:
        a.unplug()
        events = drain(failover, lambda ev: any(isinstance(e, LinkLost) for e in ev))
        assert failover.active_index == 0  # still waiting for it to come back
        failover.shuffle()  # a new hand does not wait
        events = drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        assert isinstance(events[0], SourceSwitched) and events[0].to_source == "usb-b"
        assert failover.active_index == 1
        shuffled = next(e for e in events if isinstance(e, DeckShuffled))
        assert shuffled.source == "usb-b"
        assert failover.identity is not None and failover.switches == (events[0],)
    finally:
        failover.close()


def test_refusal_is_not_a_failure() -> None:
    backend = SimUsbBackend([sim("A-1", jam_at=2, jam_clear_after=60.0), sim("B-1")])
    failover = FailoverSource([usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")])
    failover.open()
    try:
        with pytest.raises(CommandRefusedError, match="NO_DECK") as refused:
            failover.deal(2)  # NAK: the device is fine, it has no deck yet
        assert isinstance(refused.value, ProtocolError) and refused.value.command == "DEAL"
        failover.shuffle()
        drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        failover.deal(3)
        drain(failover, lambda ev: any(e.kind == "fault" for e in ev))  # jammed at card 2
        with pytest.raises(CommandRefusedError) as refused:
            failover.shuffle()  # a new hand on a jammed device: refused, not replaced
        assert refused.value.reason == "FAULT"
        assert failover.active_index == 0 and not failover.switches
        assert not any(isinstance(e, SourceSwitched) for e in drain_now(failover))
    finally:
        failover.close()


def test_unavailable_first_source_at_start_is_announced() -> None:
    backend = SimUsbBackend([sim("B-1")])
    failover = FailoverSource([usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")])
    failover.open()
    try:
        event = failover.next_event(1.0)
        assert isinstance(event, SourceSwitched)
        assert (event.from_source, event.to_source) == ("usb-a", "usb-b")
        assert event.skipped and "usb-a" in event.skipped[0]
        assert event_to_json(event)["kind"] == "source_switched"
    finally:
        failover.close()
    nothing = FailoverSource([usb(SimUsbBackend([]), "A-1", "usb-a")])
    with pytest.raises(DeviceError, match="no card source could be opened: usb-a: no USB"):
        nothing.open()


def test_keypad_cards_pass_through_whatever_source_is_active() -> None:
    backend = SimUsbBackend([sim("A-1")])
    manual = ManualSource()
    failover = FailoverSource([usb(backend, "A-1", "usb"), manual])
    failover.open()
    try:
        assert failover.manual is manual and failover.active_index == 0
        manual.enter("As")
        events = drain(failover, lambda ev: any(isinstance(e, CardRead) for e in ev))
        card = next(e for e in events if isinstance(e, CardRead))
        assert card.manual and card.source == "manual" and str(card.card) == "As"
    finally:
        failover.close()


def test_manual_is_the_last_resort_from_config(tmp_path: Path) -> None:
    base = load_table_config(game="uth")
    config = table_with(base, [SourceConfig("usb://1209:0001", options={
        "backend": SimUsbBackend([]), "hello_timeout": 1.0})])  # fmt: skip
    failover = close_at_teardown(open_table_sources(config, switch_after=0.1))
    assert [s.name for s in failover.sources] == ["usb", "manual"]
    failover.open()
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    journal.open()
    stop = threading.Event()
    manual = failover.manual
    assert manual is not None and failover.active is manual

    def dealer() -> None:  # enters each expected card, as from the keypad
        deck = iter(FULL_DECK)
        while not stop.is_set():
            if manual.expected:
                manual.enter(next(deck))
            time.sleep(0.005)

    thread = threading.Thread(target=dealer, daemon=True)
    thread.start()
    try:
        runner = HeadlessTable(config, failover, journal, card_timeout=3.0)
        hand = play_hand(runner, PlayerModel(config, 1))
        assert hand.phase is Phase.SETTLED
        stored = journal.last_hand()
        assert stored is not None
        cards = stored.extra["cards"]
        assert len(cards) == 2 * len(SEATS) + 2 + 5
        assert all(c["source"] == "manual" and c["manual"] for c in cards)
    finally:
        stop.set()
        thread.join(2)
        failover.close()
        journal.close()


def test_open_table_sources_names_and_errors() -> None:
    base = load_table_config(game="uth")
    backend = SimUsbBackend([])
    config = table_with(base, [
        SourceConfig("emulator://?seed=1", "TCRP-EMU", "EMU-0001", {"baudrate": 115200}),
        SourceConfig("usb://1209:0001", options={"backend": backend}),
        SourceConfig("usb://1209:0002", options={"backend": backend, "name": "reader"}),
        SourceConfig("usb://1209:0003", options={"backend": backend}),
        SourceConfig("/dev/ttyUSB0"),
    ])  # fmt: skip
    failover = open_table_sources(config)
    names = [s.name for s in failover.sources]
    assert names == ["emulator", "usb", "reader", "usb-2", "serial", "manual"]
    bad = table_with(base, [SourceConfig("/dev/ttyS0"), SourceConfig("usb://zz:1")])
    with pytest.raises(ConfigError, match=r"sources\[1\] \(usb://zz:1\)"):
        open_table_sources(bad)
    with pytest.raises(ConfigError, match="no card source"):
        open_table_sources(table_with(base, []), manual_last=False)


def table_with(config: TableConfig, sources: list[SourceConfig]) -> TableConfig:
    import dataclasses

    return dataclasses.replace(config, sources=tuple(sources))


def drain_now(source: CardSource) -> list[DeviceEvent]:
    """The events waiting now."""
    events = []
    event = source.next_event(0)
    while event is not None:
        events.append(event)
        event = source.next_event(0)
    return events


def drain(
    source: CardSource, until: Callable[[list[DeviceEvent]], bool], timeout: float = 5.0
) -> list[DeviceEvent]:
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + timeout
    while not until(events):
        assert time.monotonic() < deadline, [e.kind for e in events]
        event = source.next_event(0.1)
        if event is not None:
            events.append(event)
    return events


def test_usb_reader_unplugged_between_hands_falls_back_to_the_camera(tmp_path: Path) -> None:
    """The camera source of drivers.camera (file:// folder of felt frames, a placeholder
    calibration: no card is on the felt) takes over from the unplugged USB reader."""
    import cv2
    import numpy as np

    from drivers.camera.calibration import RANKS, SUITS, Calibration
    from drivers.camera.glyphs import RANK_SIZE, SUIT_SIZE
    from drivers.camera.source import CameraSource

    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(2):
        felt = np.full((180, 320, 3), (40, 110 + i, 30), np.uint8)
        assert cv2.imwrite(str(frames / f"{i}.png"), felt)
    calibration = tmp_path / "cal.npz"
    Calibration(
        ranks={r: np.zeros((RANK_SIZE[1], RANK_SIZE[0]), np.float32) for r in RANKS},
        suits={s: np.zeros((SUIT_SIZE[1], SUIT_SIZE[0]), np.float32) for s in SUITS},
        red_redness=0.5,
        black_redness=0.0,
    ).save(calibration)
    base = load_table_config(game="uth")
    reader = sim("A-1")
    config = table_with(base, [
        SourceConfig("usb://1209:0001", options={"backend": SimUsbBackend([reader]),
                                                 "reopen_interval": 0.05}),
        SourceConfig(f"file://{frames}?fps=30&loop=1", options={"calibration": str(calibration)}),
    ])  # fmt: skip
    failover = open_table_sources(config, switch_after=0.2)
    assert [s.name for s in failover.sources] == ["usb", "file", "manual"]
    failover.open()
    try:
        reader.unplug()
        events = drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        switch = events[-1]
        assert isinstance(switch, SourceSwitched)
        assert (switch.from_source, switch.to_source) == ("usb", "file")
        assert isinstance(failover.active, CameraSource)
        failover.shuffle()
        shuffled = drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        assert [e.source for e in shuffled if isinstance(e, DeckShuffled)] == ["file"]
        assert not any(isinstance(e, CardRead) for e in shuffled)  # empty felt: no card
    finally:
        failover.close()


def test_status_link_and_history_follow_the_active_source() -> None:
    a = sim("A-1")
    failover = FailoverSource([usb(SimUsbBackend([a]), "A-1", "usb"), ManualSource()],
                              switch_after=60.0)  # fmt: skip
    assert failover.link_status.state == "closed"
    failover.open()
    try:
        assert failover.link_status.state == "connected"
        history = failover.recover_history(0.3)
        assert all(e.source == "usb" for e in history)
        failover.request_status()
        events = drain(failover, lambda ev: any(e.kind == "state" for e in ev))
        assert next(e for e in events if e.kind == "state").source == "usb"
        a.unplug()
        drain(failover, lambda ev: any(isinstance(e, LinkLost) for e in ev))
        assert failover.link_status.state in ("lost", "reconnecting")
        failover.shuffle()  # replaced by the keypad at the new hand
        assert failover.active is failover.manual
        assert failover.link_status.state == "connected"
        assert failover.recover_history(0.1) == []
        with pytest.raises(DeviceError, match="manual cannot report its state"):
            failover.request_status()
    finally:
        failover.close()
    assert failover.link_status.state == "closed"


# -- failback ----------------------------------------------------------------------------------


class LinkedShuffler:
    """The emulator in its own process on a real pty, configured by a stable path: a symlink to
    the pty, as udev's /dev/serial/by-id/... names a USB-serial shuffler. While the emulator is
    down the link dangles and opening it fails, as for an unplugged shuffler."""

    def __init__(self, link: Path, args: list[str]) -> None:
        self.link = link
        self.args = args
        self.process: EmulatorProcess | None = None

    def start(self) -> None:
        self.process = close_at_teardown(EmulatorProcess(self.args))
        pty = self.process.start()
        fresh = self.link.with_name(self.link.name + ".new")
        fresh.symlink_to(pty)
        fresh.replace(self.link)  # atomic: the link never points nowhere while it runs

    def kill(self) -> None:
        process, self.process = self.process, None
        assert process is not None and process.pid is not None
        os.kill(process.pid, signal.SIGKILL)  # no goodbye: the cable is pulled
        process.stop()  # reaps it

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()


@pytest.fixture
def shuffler(tmp_path: Path) -> Iterator[LinkedShuffler]:
    link = LinkedShuffler(tmp_path / "shuffler", ["--seed", "5", "--shuffle-time", "0.01",
                                                  "--card-interval", "0.002"])  # fmt: skip
    link.start()
    yield link
    link.stop()


def test_shuffler_back_between_hands_takes_over_at_the_next_hand(
    tmp_path: Path, shuffler: LinkedShuffler, tables: list[Table]
) -> None:
    serial = open_source(str(shuffler.link), name="serial", reopen_interval=0.05)
    reader = SimUsbDevice(
        EmulatedShuffler(EmulatorConfig(seed=3, shuffle_time=0.01, card_interval=0.004,
                                        serial="USB-0001")),  # its own identity in HELLO
        serial="U-1",
    )  # fmt: skip
    backend = SimUsbBackend([reader])
    table = Table(tmp_path, [serial, usb(backend, "U-1", "usb"), ManualSource()],
                  switch_after=0.3, failback_interval=0.1)  # fmt: skip
    tables.append(table)
    failover = table.failover
    first = table.hand()
    assert first.phase is Phase.SETTLED and card_sources(first) == {"serial"}

    shuffler.kill()  # between hands
    table.wait(lambda: bool(table.switches()))
    assert (table.switches()[0].from_source, table.switches()[0].to_source) == ("serial", "usb")
    second = table.hand()  # the failback attempts meanwhile find the link dangling
    assert second.phase is Phase.SETTLED and card_sources(second) == {"usb"}
    assert failover.standby is None and failover.active is failover.sources[1]

    def restart_mid_hand(card: CardRead) -> None:
        table.on_card = None
        shuffler.start()  # the shuffler works again while this hand is being dealt
        deadline = time.monotonic() + 15.0
        while failover.standby is None:  # reopened by the failback thread, mid-hand
            assert time.monotonic() < deadline, "the shuffler was not reopened"
            time.sleep(0.02)

    table.on_card = restart_mid_hand
    third = table.hand()
    assert failover.standby is serial  # ready, but the hand in progress kept its source
    assert third.phase is Phase.SETTLED and card_sources(third) == {"usb"}
    assert len(table.switches()) == 1 and failover.active is failover.sources[1]

    before = len(table.events)
    fourth = table.hand()  # the next hand goes back to it, with the notice
    assert fourth.phase is Phase.SETTLED and card_sources(fourth) == {"serial"}
    back = table.switches()[1]
    assert (back.from_source, back.to_source) == ("usb", "serial")
    assert "serial works again" in back.reason
    kinds = [e.kind for e in table.events[before:]]
    assert kinds.index("source_switched") < kinds.index("shuffled") < kinds.index("card")
    assert failover.active is serial and failover.switches == tuple(table.switches())
    assert event_to_json(back)["to_source"] == "serial"

    stored = list(table.journal.iter_hands())
    assert [h.status for h in stored] == ["settled"] * 4
    per_hand = [{c["source"] for c in h.extra["cards"]} for h in stored]
    assert per_hand == [{"serial"}, {"usb"}, {"usb"}, {"serial"}]
    # each hand names the device that shuffled its deck, also when the switch came at the shuffle
    devices = [h.extra["device"] for h in stored]
    assert devices[0] == devices[3] != devices[1] == devices[2]
    assert table.journal.verify().ok


def test_emulator_source_is_reopened_and_taken_back_at_a_new_hand() -> None:
    """emulator:// owns its emulator: a reopen after its death starts a fresh one."""
    emulator = open_source("emulator://?seed=4&shuffle_time=0.01&card_interval=0.002",
                           name="serial")  # fmt: skip
    assert isinstance(emulator, EmulatorSource)
    backend = SimUsbBackend([sim("U-1")])
    failover = FailoverSource([emulator, usb(backend, "U-1", "usb")], switch_after=0.2,
                              failback_interval=0.1)  # fmt: skip
    failover.open()
    try:
        pid = emulator.emulator.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        assert failover.active_index == 1
        drain(failover, lambda ev: failover.standby is emulator, timeout=15.0)
        assert emulator.emulator.pid not in (None, pid)  # a new child
        failover.shuffle()
        events = drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        back = events[0]
        assert isinstance(back, SourceSwitched) and (back.from_source, back.to_source) == (
            "usb",
            "serial",
        )
        assert [e.source for e in events if isinstance(e, DeckShuffled)] == ["serial"]
        assert failover.active is emulator and failover.standby is None
    finally:
        failover.close()
    assert emulator.emulator.pid is None  # close() stopped the child


def test_usb_reader_replugged_comes_back_at_the_next_shuffle_only() -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    failover = FailoverSource([usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")],
                              switch_after=0.1, failback_interval=0.1)  # fmt: skip
    failover.open()
    try:
        a.unplug()
        drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        failover.shuffle()
        drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        failover.deal(2)  # a hand on usb-b
        a.plug()
        cards = drain(failover, lambda ev: failover.standby is not None
                      and sum(isinstance(e, CardRead) for e in ev) == 2)  # fmt: skip
        assert {e.source for e in cards if isinstance(e, CardRead)} == {"usb-b"}
        assert failover.active_index == 1 and len(failover.switches) == 1

        # it fails again before the next hand: not taken, tried again later
        standby = failover.standby
        a.unplug()
        assert isinstance(standby, TcrpDevice)
        drain(failover, lambda ev: standby.link_status.state != "connected")
        failover.shuffle()
        assert failover.active_index == 1 and failover.standby is None
        assert len(failover.switches) == 1

        a.plug()
        drain(failover, lambda ev: failover.standby is not None)
        failover.shuffle()
        events = drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        back = events[0]
        assert isinstance(back, SourceSwitched)
        assert (back.from_source, back.to_source, back.skipped) == ("usb-b", "usb-a", ())
        assert [e.source for e in events if isinstance(e, DeckShuffled)] == ["usb-a"]
        assert failover.active_index == 0 and len(failover.switches) == 2
    finally:
        failover.close()


def test_failback_can_be_turned_off() -> None:
    a, b = sim("A-1"), sim("B-1")
    backend = SimUsbBackend([a, b])
    failover = FailoverSource([usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b")],
                              switch_after=0.1, failback_interval=None)  # fmt: skip
    failover.open()
    try:
        assert not any(t.name == "failback-failover" for t in threading.enumerate())
        a.unplug()
        drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        a.plug()
        failover.shuffle()
        assert failover.active_index == 1 and failover.standby is None
    finally:
        failover.close()
    with pytest.raises(ConfigError, match="failback_interval"):
        FailoverSource([ManualSource()], failback_interval=float("inf"))


def test_a_failing_source_hands_over_to_a_working_standby() -> None:
    a, b, c = sim("A-1"), sim("B-1"), sim("C-1")
    backend = SimUsbBackend([a, b, c])
    failover = FailoverSource(
        [usb(backend, "A-1", "usb-a"), usb(backend, "B-1", "usb-b"), usb(backend, "C-1", "usb-c")],
        switch_after=0.1,
        failback_interval=0.1,
    )
    failover.open()
    try:
        a.unplug()
        drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        a.plug()
        drain(failover, lambda ev: failover.standby is failover.sources[0])
        b.unplug()  # the source in use fails before the next hand: the standby, not usb-c
        events = drain(failover, lambda ev: any(isinstance(e, SourceSwitched) for e in ev))
        switch = events[-1]
        assert isinstance(switch, SourceSwitched)
        assert (switch.from_source, switch.to_source) == ("usb-b", "usb-a")
        assert "link lost" in switch.reason
        assert failover.active_index == 0 and failover.standby is None
        failover.shuffle()
        shuffled = drain(failover, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
        assert [e.source for e in shuffled if isinstance(e, DeckShuffled)] == ["usb-a"]
    finally:
        failover.close()
