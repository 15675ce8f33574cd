"""Host side of TCRP/1 against the emulator in a child process over a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer_assist.errors import (
    CommandRefusedError,
    DeviceError,
    DeviceIdentityError,
    ProtocolError,
)
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    FaultCleared,
    IdentityChanged,
    LinkLost,
    LinkRestored,
)
from drivers.emulator.process import EmulatorProcess
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.frame import FrameParser, encode_frame
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.serial_port import SerialTransport
from tests.conftest import Closer

FAST = ["--shuffle-time", "0.05", "--card-interval", "0.003"]
Start = Callable[..., TcrpDevice]


@pytest.fixture
def start(closer: Closer) -> Start:
    """start(*emulator_args, pin_model=..., open=True) -> TcrpDevice on a fresh emulator pty
    (device and emulator closed at teardown)."""

    def _start(*args: str, open_: bool = True, **kw: object) -> TcrpDevice:
        emulator = closer.add(EmulatorProcess([*FAST, *args]))
        path = emulator.start()
        assert path.startswith("/dev/pts/")
        device = TcrpDevice(SerialTransport(path), name="t", **kw)  # type: ignore[arg-type]
        closer.add(device)
        if open_:
            device.open()
        return device

    return _start


def collect(
    device: TcrpDevice, until: Callable[[list[DeviceEvent]], bool], timeout: float = 10.0
) -> list[DeviceEvent]:
    """Events until ``until(events)`` holds; fails after ``timeout`` seconds."""
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + timeout
    while not until(events):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; got {[e.kind for e in events]}"
        event = device.next_event(min(left, 0.2))
        if event is not None:
            events.append(event)
    return events


def cards_of(events: list[DeviceEvent]) -> list[CardRead]:
    return [e for e in events if isinstance(e, CardRead)]


def n_cards(n: int) -> Callable[[list[DeviceEvent]], bool]:
    return lambda events: len(cards_of(events)) >= n


def shuffled(device: TcrpDevice) -> DeckShuffled:
    device.shuffle()
    events = collect(device, lambda ev: any(isinstance(e, DeckShuffled) for e in ev))
    return next(e for e in events if isinstance(e, DeckShuffled))


def test_handshake_reports_identity(start: Start) -> None:
    device = start("--serial", "SN-42", "--model", "ACME-7", "--firmware", "2.1")
    assert device.identity is not None
    assert (device.identity.model, device.identity.serial, device.identity.firmware) == (
        "ACME-7",
        "SN-42",
        "2.1",
    )
    hello = collect(device, lambda ev: any(isinstance(e, DeviceHello) for e in ev))[-1]
    assert isinstance(hello, DeviceHello) and hello.serial == "SN-42" and hello.source == "t"
    device.open()  # idempotent
    device.close()
    device.close()
    assert not device.is_open
    device.open()  # a new session on the same device: handshake again
    assert device.is_open and device.identity is not None and device.identity.serial == "SN-42"
    device.request_status()
    state = collect(device, lambda ev: any(e.kind == "state" for e in ev))[-1]
    assert state.kind == "state" and getattr(state, "state", None) == "IDLE"


def test_pinning(start: Start) -> None:
    with pytest.raises(DeviceIdentityError, match="serial 'SN-1'"):
        start("--serial", "SN-1", pin_serial="SN-2")
    with pytest.raises(DeviceIdentityError, match="model"):
        start("--model", "OTHER", pin_model="TCRP-EMU")
    device = start("--serial", "SN-3", pin_model="TCRP-EMU", pin_serial="SN-3")
    assert device.identity is not None and device.identity.serial == "SN-3"


def test_deal_a_whole_deck_in_order_exactly_once(start: Start, tmp_path: Path) -> None:
    log = tmp_path / "dealt.jsonl"
    device = start("--seed", "21", "--dealt-log", str(log))
    deck = shuffled(device)
    assert deck.count == 52
    for _ in range(13):
        device.deal(4)
    cards = cards_of(collect(device, n_cards(52)))
    assert [c.index for c in cards] == list(range(1, 53))
    assert len({c.card for c in cards}) == 52 and None not in {c.card for c in cards}
    assert {c.deck_id for c in cards} == {deck.deck_id}
    dealt = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(d["deck_id"], d["index"], d["card"]) for d in dealt] == [
        (c.deck_id, c.index, str(c.card)) for c in cards
    ]
    assert device.stats.frames_dropped == 0 and device.stats.command_retries == 0


def test_lossy_link_still_delivers_every_card_once_in_order(start: Start, tmp_path: Path) -> None:
    log = tmp_path / "dealt.jsonl"
    device = start("--seed", "5", "--corrupt", "0.05", "--drop", "0.05", "--dealt-log", str(log))
    cards: list[CardRead] = []
    for _ in range(2):  # two decks
        shuffled(device)
        for _ in range(13):
            device.deal(4)
        cards += cards_of(collect(device, n_cards(52)))
    assert [c.index for c in cards] == list(range(1, 53)) * 2
    dealt = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(d["deck_id"], d["index"], d["card"]) for d in dealt] == [
        (c.deck_id, c.index, str(c.card)) for c in cards
    ]
    stats = device.stats
    assert stats.frames_dropped > 0 and stats.resend_requests > 0 and stats.duplicates > 0
    assert device.lost_frames == 0


def test_jam_fault_and_clear(start: Start) -> None:
    device = start("--jam-at", "5", "--jam-clear-after", "0.3")
    shuffled(device)
    device.deal(8)
    events = collect(device, n_cards(8))
    kinds = [(e.kind, getattr(e, "index", None)) for e in events if e.kind != "state"]
    fault = next(e for e in events if isinstance(e, DeviceFault))
    assert fault.code == "JAM"
    assert kinds.index(("fault", None)) == 4  # after cards 1-4
    assert kinds.index(("clear", None)) == 5
    assert next(e for e in events if isinstance(e, FaultCleared)).code == "JAM"
    assert [c.index for c in cards_of(events)] == list(range(1, 9))


def test_unreadable_card_is_none(start: Start) -> None:
    device = start("--unreadable-at", "3")
    shuffled(device)
    device.deal(4)
    cards = cards_of(collect(device, n_cards(4)))
    assert [c.card is None for c in cards] == [False, False, True, False]


def test_silent_device_fails_the_handshake(start: Start) -> None:
    t0 = time.monotonic()
    with pytest.raises(ProtocolError, match="no answer to HELLO after 4 attempts"):
        start("--silence-after", "0")
    assert 1.1 < time.monotonic() - t0 < 3.0  # 4 attempts 300 ms apart, then give up


def test_nak_is_a_refusal_with_its_reason(start: Start) -> None:
    device = start()
    with pytest.raises(CommandRefusedError) as refused:
        device.deal(2)  # no shuffled deck yet
    error = refused.value
    assert (error.command, error.reason, error.source) == ("DEAL", "NO_DECK", "t")
    assert str(error) == "t: device refused DEAL: NO_DECK"
    assert isinstance(error, ProtocolError)  # callers catching ProtocolError still do
    assert device.stats.command_retries == 0  # a NAK is an answer: nothing is sent again
    with pytest.raises(DeviceError):
        device.deal(0)


def test_jammed_device_refuses_with_fault(start: Start) -> None:
    device = start("--jam-at", "2", "--jam-clear-after", "60")  # the emulator's fault switch
    shuffled(device)
    device.deal(3)
    collect(device, lambda ev: any(isinstance(e, DeviceFault) for e in ev))
    for command in (device.shuffle, lambda: device.deal(1)):
        with pytest.raises(CommandRefusedError) as refused:
            command()
        assert refused.value.reason == "FAULT"
    assert "device refused SHUFFLE: FAULT" in _refusal(device.shuffle)
    assert device.is_open and device.link_status.state == "connected"


def test_no_answer_is_not_a_refusal(start: Start) -> None:
    device = start("--silence-after", "4")  # handshake, then not a frame more
    with pytest.raises(ProtocolError, match="no answer to SHUFFLE after 4 attempts") as err:
        device.shuffle()
    assert not isinstance(err.value, CommandRefusedError)
    assert device.stats.command_retries == 3


def _refusal(command: Callable[[], None]) -> str:
    with pytest.raises(CommandRefusedError) as refused:
        command()
    return str(refused.value)


class PtyPeer:
    """A minimal TCRP/1 device on the master side of a real pty, in a thread: it answers HELLO
    with ACK and HELLO, and refuses every other command with a NAK whose reason ``refuse``
    gives per command type ("" = a NAK without a reason)."""

    def __init__(self, refuse: dict[str, str]) -> None:
        self.refuse = refuse
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.seq = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _send(self, type_: str, *fields: str) -> None:
        os.write(self.master, encode_frame(self.seq, type_, fields))
        self.seq += 1

    def _run(self) -> None:
        parser = FrameParser()
        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            for frame in parser.feed(os.read(self.master, 4096)):
                if frame.type == "HELLO":
                    self._send("ACK", str(frame.seq))
                    self._send("HELLO", "TCRP1", "PEER", "1.0", "P-1")
                elif frame.type != "ACK":
                    reason = self.refuse.get(frame.type, "")
                    self._send("NAK", str(frame.seq), *([reason] if reason else []))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


def test_refusal_reasons_from_another_device_over_a_raw_pty() -> None:
    peer = PtyPeer({"DEAL": "LID_OPEN"})
    device = TcrpDevice(SerialTransport(peer.path), name="peer")
    try:
        device.open()
        assert device.identity is not None and device.identity.model == "PEER"
        with pytest.raises(CommandRefusedError) as refused:
            device.deal(5)
        assert refused.value.reason == "LID_OPEN"  # a code the emulator never sends
        assert str(refused.value) == "peer: device refused DEAL: LID_OPEN"
        with pytest.raises(CommandRefusedError) as refused:
            device.shuffle()
        assert (refused.value.command, refused.value.reason) == ("SHUFFLE", "")
        assert str(refused.value) == "peer: device refused SHUFFLE: no reason given"
    finally:
        device.close()
        peer.close()


def test_reopen_after_close_is_a_new_session(start: Start) -> None:
    device = start()
    shuffled(device)
    device.close()
    device.close()  # idempotent
    assert not device.is_open and device.link_status.state == "closed"
    device.open()
    device.open()  # idempotent
    assert device.is_open and device.identity is not None
    deck = shuffled(device)
    device.deal(2)
    cards = cards_of(collect(device, n_cards(2)))
    assert [(c.deck_id, c.index) for c in cards] == [(deck.deck_id, 1), (deck.deck_id, 2)]
    workers = [t for t in threading.enumerate() if t.name == "tcrp-t" and t.is_alive()]
    assert len(workers) == 1  # the first session's worker ended with its close()


def test_silence_link_lost_then_restored_and_recovered(start: Start) -> None:
    # frames 1-4 are HELLO, STATE, and the handshake's ACK and HELLO; the rest go unsent
    # for 6 s (starting with the first BEAT, about 1 s after the emulator started)
    device = start("--silence-after", "4", "--silence-for", "6")
    opened = time.monotonic()
    events = collect(device, lambda ev: any(isinstance(e, LinkLost) for e in ev), timeout=6.0)
    lost_after = time.monotonic() - opened
    assert 2.9 <= lost_after <= 4.6, lost_after
    with pytest.raises(ProtocolError, match="no answer"):
        device.shuffle()  # the device takes it, but its ACK is not heard
    assert device.stats.command_retries == 3
    events = collect(
        device,
        lambda ev: any(isinstance(e, DeckShuffled) for e in ev),
        timeout=6.0,
    )
    assert isinstance(events[0], LinkRestored)  # and the silenced frames came back by RESEND
    assert device.stats.resend_requests > 0


def test_identity_change_mid_session_is_an_alarm(start: Start) -> None:
    device = start("--swap-at", "2", "--swap-serial", "EMU-EVIL", pin_serial="EMU-0001")
    shuffled(device)
    device.deal(3)
    events = collect(device, lambda ev: any(isinstance(e, IdentityChanged) for e in ev))
    alarm = events[-1]
    assert isinstance(alarm, IdentityChanged)
    assert (alarm.expected, alarm.got) == ("TCRP-EMU/EMU-0001", "TCRP-EMU/EMU-EVIL")
    assert device.identity_alarm and device.identity is not None
    assert device.identity.serial == "EMU-0001"  # never silently accepted
    with pytest.raises(DeviceIdentityError):
        device.shuffle()


def test_device_restart_resyncs(start: Start) -> None:
    device = start("--restart-at", "3")
    shuffled(device)
    device.deal(3)
    events = collect(device, lambda ev: any(isinstance(e, DeviceHello) and e.restarted for e in ev))
    assert [c.index for c in cards_of(events)] == [1, 2, 3]
    deck = shuffled(device)  # the restarted device (seq from 0 again) is followed normally
    device.deal(2)
    cards = cards_of(collect(device, n_cards(2)))
    assert [(c.deck_id, c.index) for c in cards] == [(deck.deck_id, 1), (deck.deck_id, 2)]
    assert not device.identity_alarm


def test_emulator_death_is_link_lost_and_close_is_prompt(start: Start) -> None:
    emulator = EmulatorProcess(FAST)
    path = emulator.start()
    device = TcrpDevice(SerialTransport(path), timings=TcrpTimings(reopen_interval=0.2))
    try:
        device.open()
        emulator.stop()
        events = collect(device, lambda ev: any(isinstance(e, LinkLost) for e in ev), 5.0)
        assert isinstance(events[-1], LinkLost) and events[-1].reason.startswith("transport")
        with pytest.raises(DeviceError):
            device.shuffle()
    finally:
        t0 = time.monotonic()
        device.close()
        emulator.stop()
    assert time.monotonic() - t0 < 1.0


def test_open_fails_cleanly_without_a_device(tmp_path: Path) -> None:
    device = TcrpDevice(SerialTransport(str(tmp_path / "no-such-tty")))
    with pytest.raises(DeviceError):
        device.open()
    assert not device.is_open
    with pytest.raises(DeviceError, match="not open"):
        device.shuffle()
