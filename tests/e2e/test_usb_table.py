"""The table runner on a simulated USB reader (pyusb over drivers.usbsim): hands settle and are
journaled with source "usb"; unplugging mid-hand voids the hand; replugging reconnects."""

from __future__ import annotations

import time
from pathlib import Path

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.events import CardRead, DeviceEvent, LinkLost, LinkRestored
from dealer_assist.players import PlayerModel
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.emulator.settings import EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.factory import open_source
from drivers.usbsim import SimUsbBackend, SimUsbDevice
from tests.conftest import close_at_teardown
from ui.commands.simulate import play_hand


def test_unplug_mid_hand_voids_and_replug_reconnects(tmp_path: Path) -> None:
    sim = SimUsbDevice(
        EmulatedShuffler(EmulatorConfig(seed=11, shuffle_time=0.01, card_interval=0.005)),
        serial="T-1",
    )
    source = open_source(
        "usb://1209:0001?serial=T-1",
        backend=SimUsbBackend([sim]),
        name="usb",
        reopen_interval=0.05,
    )
    config = load_table_config(game="uth")
    seen: list[DeviceEvent] = []
    cut = {"armed": False, "cards": 0}

    def on_event(event: DeviceEvent) -> None:
        seen.append(event)
        if cut["armed"] and isinstance(event, CardRead):
            cut["cards"] += 1
            if cut["cards"] == 3:
                sim.unplug()  # the cable comes out after the third card of the deal

    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))  # also when the play fails
    journal.open()
    source.open()
    try:
        runner = HeadlessTable(config, source, journal, card_timeout=2.0, on_event=on_event)
        model = PlayerModel(config, 3)
        first = play_hand(runner, model, [1, 2, 3])
        assert first.phase is Phase.SETTLED

        cut["armed"] = True
        voided = play_hand(runner, model, [1, 2, 3])
        cut["armed"] = False
        assert voided.phase is Phase.VOID and voided.void_reason is not None
        assert voided.void_reason.code == "link_lost"
        assert "unplugged" in voided.void_reason.detail
        assert not runner.device_ready
        acknowledge = getattr(runner, "acknowledge_void", None)  # the void alarm
        if acknowledge is not None:
            acknowledge()

        sim.plug()
        deadline = time.monotonic() + 5
        while not runner.device_ready:
            assert time.monotonic() < deadline, "the reader did not come back after replug"
            runner.poll(0.1)
        assert any(isinstance(e, LinkRestored) for e in seen)
        third = play_hand(runner, model, [1, 2, 3])
        assert third.phase is Phase.SETTLED
    finally:
        source.close()
    try:
        stored = list(journal.iter_hands())
        assert [h.status for h in stored] == ["settled", "void", "settled"]
        assert journal.verify().ok
        assert "Link to the shuffler lost" in (stored[1].void_reason or "")
        assert any(e["kind"] == "link_lost" for e in stored[1].events)
        for hand in (stored[0], stored[2]):
            cards = hand.extra["cards"]
            assert cards and {c["source"] for c in cards} == {"usb"}
            assert not any(c["manual"] for c in cards)
        assert sum(isinstance(e, LinkLost) for e in seen) == 1
    finally:
        journal.close()
