"""The receive window cannot be blinded (DEVICE_PROTOCOL.md, Reliability): a frame
more than 256 ahead is dropped and counted, never held nor jumped to; a CRC-valid CARD whose fields
are malformed is NAKed, not acknowledged, and taken when the device sends it again."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.events import CardRead
from dealer_assist.players import PlayerModel
from dealer_assist.storage.journal import Journal
from dealer_assist.table.crosscheck import cross_check, read_dealt_log
from dealer_assist.table.driving import HeadlessTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.tcrp.device import TcrpDevice
from drivers.tcrp.frame import Frame, FrameParser, encode_frame
from drivers.tcrp.sequence import ReceiveWindow
from drivers.tcrp.timings import TcrpTimings
from drivers.transport.serial_port import SerialTransport
from tests.conftest import Closer
from tests.drivers.test_fuzz_tcrp import FakeLine


def card(seq: int, index: int | str = 1, text: str = "As") -> Frame:
    return Frame(seq, "CARD", ("D1", str(index), text))


# -- the window alone ---------------------------------------------------------------------------


def test_a_frame_far_ahead_is_dropped_and_the_sequence_goes_on() -> None:
    w = ReceiveWindow(gap_timeout=1.0)
    w.accept(card(100), 0.0)
    v = w.accept(Frame(100 + 20_000, "BEAT"), 0.1)
    assert v.far_ahead and not v.ack and v.deliver == [] and v.resend_from is None
    assert w.far_ahead == 1 and w.expected == 101
    assert w.poll(5.0).deliver == [] and w.expected == 101  # nothing held: nothing to jump to
    got = [f.seq for s in range(101, 106) for f in w.accept(card(s, s - 99), 6.0).deliver]
    assert got == [101, 102, 103, 104, 105] and w.lost == 0


def test_257_ahead_is_far_256_ahead_is_a_gap() -> None:
    w = ReceiveWindow()
    w.accept(card(0), 0.0)  # expected 1
    assert w.accept(card(1 + 257), 0.0).far_ahead
    v = w.accept(card(1 + 256), 0.0)
    assert not v.far_ahead and v.ack and v.resend_from == 1


def test_far_ahead_frames_that_go_on_ask_hello_and_its_answer_rebases() -> None:
    w = ReceiveWindow(hello_after=3, hello_interval=5.0, hello_wait=2.0)
    w.accept(card(10), 0.0)
    asked = [w.accept(Frame(5000 + i, "BEAT"), 0.1 * i).ask_hello for i in range(6)]
    assert asked == [False, False, True, False, False, False]  # once per hello_interval
    assert w.far_ahead == 6
    hello = Frame(5010, "HELLO", ("TCRP1", "M", "1", "S"))
    assert w.accept(hello, 1.0).far_ahead  # not asked by the host: a HELLO is no exception
    w.hello_sent(1.1)
    v = w.accept(hello, 1.2)
    assert v.deliver == [hello] and w.expected == 5011 and w.lost == 5010 - 11
    assert w.accept(card(5011), 1.3).deliver == [card(5011)]
    # a forged far HELLO long after the host's HELLO is dropped like any far frame
    assert w.accept(Frame(30000, "HELLO", hello.fields), 9.0).far_ahead


def test_a_malformed_frame_is_nakked_not_taken_and_its_resend_is() -> None:
    w = ReceiveWindow()
    w.accept(card(7), 0.0)
    bad = card(8, "x")
    v = w.accept(bad, 0.1, malformed="field 2 is not an integer")
    assert v.nak and not v.ack and v.deliver == [] and w.expected == 8
    v = w.accept(card(9, 3), 0.2)  # the frame after it is held: the gap asks RESEND from 8
    assert v.resend_from == 8 and v.deliver == []
    v = w.accept(card(8, 2), 0.3)  # the device sent it again, well formed (RESEND 8: 8, 9)
    assert [f.seq for f in v.deliver] == [8]
    assert [f.seq for f in w.accept(card(9, 3), 0.3).deliver] == [9]  # 9 confirmed


# -- the device over a real pty -----------------------------------------------------------------


class Line(FakeLine):
    """The fake device line, keeping every frame the host wrote (``sent``)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Frame] = []

    def read_host(self) -> list[str]:
        frames = self.host.feed(_read(self.master))
        self.sent.extend(frames)
        return [f.type for f in frames]


@pytest.fixture
def line(closer: Closer) -> Iterator[tuple[Line, TcrpDevice]]:
    fake = closer.add(Line())
    timings = TcrpTimings(hello_timeout=2.0, heartbeat_timeout=30.0, gap_timeout=0.2)
    device = closer.add(TcrpDevice(SerialTransport(fake.path), name="rw", timings=timings))

    def answer_hello() -> None:
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            for f in fake.host.feed(_read(fake.master)):
                if f.type == "HELLO":
                    os.write(fake.master, encode_frame(0, "ACK", (str(f.seq),)))
                    os.write(fake.master, encode_frame(1, "HELLO", ("TCRP1", "RW", "1", "R1")))
                    return
            time.sleep(0.005)

    t = threading.Thread(target=answer_hello)
    t.start()
    closer.callback(t.join)
    device.open()
    t.join()
    yield fake, device


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return b""


def host_frames(fake: Line) -> list[Frame]:
    """What the host wrote since the last call (waits until it had the time to answer)."""
    time.sleep(0.05)
    fake.read_host()
    out, fake.sent = fake.sent, []
    return out


def cards_out(device: TcrpDevice) -> list[tuple[str, int, str]]:
    out = []
    while (event := device.next_event(0)) is not None:
        if isinstance(event, CardRead):
            out.append((event.deck_id, event.index, str(event.card)))
    return out


def test_a_forged_frame_20000_ahead_does_not_blind_the_host(
    line: tuple[Line, TcrpDevice],
) -> None:
    fake, device = line
    fake.write(encode_frame(2 + 20_000, "BEAT"))
    time.sleep(0.4)  # past the gap timeout: the old window jumped to the forged seq here
    for i in range(3):
        fake.write(encode_frame(2 + i, "CARD", ("D7", str(i + 1), ("Qh", "2c", "Td")[i])))
    assert cards_out(device) == [("D7", 1, "Qh"), ("D7", 2, "2c"), ("D7", 3, "Td")]
    assert device.far_ahead_frames == 1 and device.lost_frames == 0
    assert device.stats.frames_dropped == 1 and device.worker_errors == 0


def test_far_ahead_frames_that_continue_make_the_host_say_hello(
    line: tuple[Line, TcrpDevice],
) -> None:
    fake, device = line
    host_frames(fake)
    for i in range(3):
        fake.write(encode_frame(9000 + i, "BEAT"))
    assert [f.type for f in host_frames(fake)] == ["HELLO"]
    assert device.far_ahead_frames == 3


def test_a_malformed_card_is_nakked_and_taken_when_sent_again(
    line: tuple[Line, TcrpDevice],
) -> None:
    fake, device = line
    host_frames(fake)
    for fields in (("D7", "one", "Qh"), ("D7", "1"), ("D7", "1", "Zz"), ("D7", "0", "Qh")):
        fake.write(encode_frame(2, "CARD", fields))
        answer = host_frames(fake)
        assert [(f.type, f.fields[:1]) for f in answer] == [("NAK", ("2",))], fields
    assert cards_out(device) == []
    fake.write(encode_frame(2, "CARD", ("D7", "1", "Qh")))  # the device's retransmission
    assert [(f.type, f.fields) for f in host_frames(fake)] == [("ACK", ("2",))]
    assert cards_out(device) == [("D7", 1, "Qh")]
    assert device.stats.frames_dropped == 4


# -- a table behind a line that carries one forged frame ----------------------------------------


class Tap:
    """A TCP relay between the table and an emulator that forwards whole frames and can slip a
    forged one in between two of the device's (``inject``); ``last_seq`` is the device's."""

    def __init__(self, upstream: str, mangle: Callable[[Frame], bytes] | None = None) -> None:
        self.mangle = mangle  # what to send instead of a device frame (its raw bytes: as is)
        host, port = upstream.removeprefix("socket://").rsplit(":", 1)
        self.upstream = (host, int(port))
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.last_seq = 0
        self._inject: list[bytes] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._serve, daemon=True)]
        self._threads[0].start()

    def inject(self, frame: bytes) -> None:
        with self._lock:
            self._inject.append(frame)

    def _serve(self) -> None:
        table, _ = self.server.accept()
        device = socket.create_connection(self.upstream)
        for sock in (table, device):
            sock.settimeout(0.05)
        up = threading.Thread(target=self._pump, args=(table, device, False), daemon=True)
        up.start()
        self._threads.append(up)
        self._pump(device, table, True)
        table.close()
        device.close()

    def _pump(self, src: socket.socket, dst: socket.socket, from_device: bool) -> None:
        parser = FrameParser()
        while not self._stop.is_set():
            try:
                data = src.recv(4096)
            except TimeoutError:
                data = b""
            except OSError:
                return
            if from_device:
                with self._lock:
                    forged, self._inject = self._inject, []
                for raw in forged:
                    dst.sendall(raw)
                for frame in parser.feed(data):
                    self.last_seq = frame.seq
                    dst.sendall(self.mangle(frame) if self.mangle else frame.raw)
            elif data:
                dst.sendall(data)
            if not data and src.fileno() < 0:
                return

    def close(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(2)
        self.server.close()


def test_one_forged_beat_20000_ahead_voids_no_later_hand(tmp_path: Path, closer: Closer) -> None:
    emu = closer.add(
        EmulatorProcess(
            ["--seed", "5", "--shuffle-time", "0.01", "--card-interval", "0.001"], tcp_port=0
        )
    )
    tap = closer.add(Tap(emu.start()))
    journal = closer.add(Journal(str(tmp_path / "j.db")))
    journal.open()
    timings = TcrpTimings(gap_timeout=0.3)  # the old window jumped to the forged seq after this
    device = closer.add(TcrpDevice(SerialTransport(tap.url), name="serial", timings=timings))
    device.open()
    config = load_table_config(game="uth")
    table = HeadlessTable(config, device, journal, card_timeout=2.0)
    model = PlayerModel(config, 5)
    assert play_hand(table, model, [1, 2, 3]).phase is Phase.SETTLED
    tap.inject(encode_frame((tap.last_seq + 20_000) % 65536, "BEAT"))
    time.sleep(1.5)  # a BEAT a second carries it, and the gap timeout passes
    played = [play_hand(table, model, [1, 2, 3]) for _ in range(4)]
    assert [h.phase for h in played] == [Phase.SETTLED] * 4, [h.void_reason for h in played]
    assert device.far_ahead_frames == 1 and device.lost_frames == 0
    assert journal.count() == 5


def test_a_card_garbled_in_the_device_is_nakked_and_its_resend_dealt(
    tmp_path: Path, closer: Closer
) -> None:
    """The first copy of the 5th card of the second hand's deck comes with an index that is no
    number (CRC valid): the host NAKs it, the device sends it again and the hand settles
    (before: ACKed and dropped, the card never came and the hand was void)."""
    decks: list[str] = []
    mangled: list[int] = []

    def mangle(frame: Frame) -> bytes:
        if frame.type == "SHUFFLED":
            decks.append(frame.fields[0])
        if frame.type == "CARD" and len(decks) == 2 and frame.fields[1] == "5" and not mangled:
            mangled.append(frame.seq)
            return encode_frame(frame.seq, "CARD", (frame.fields[0], "5x", frame.fields[2]))
        return frame.raw

    emu = closer.add(
        EmulatorProcess(
            ["--seed", "6", "--shuffle-time", "0.01", "--card-interval", "0.001"], tcp_port=0
        )
    )
    tap = closer.add(Tap(emu.start(), mangle))
    journal = closer.add(Journal(str(tmp_path / "j.db")))
    journal.open()
    device = closer.add(TcrpDevice(SerialTransport(tap.url), name="serial"))
    device.open()
    config = load_table_config(game="uth")
    table = HeadlessTable(config, device, journal, card_timeout=2.0)
    model = PlayerModel(config, 5)
    played = [play_hand(table, model, [1, 2, 3]) for _ in range(3)]
    assert mangled, "the garbled card was not sent"
    assert [h.phase for h in played] == [Phase.SETTLED] * 3, [h.void_reason for h in played]
    second = list(journal.iter_hands())[1]
    indexes = [e["index"] for e in second.events if e["kind"] == "card"]
    assert indexes == list(range(1, len(indexes) + 1)) and 5 in indexes
    assert device.stats.frames_dropped >= 1 and device.lost_frames == 0


# -- a second device on the line: forged frames inside the window -------------------------------


def test_a_forged_beat_250_ahead_blinds_nothing(tmp_path: Path, closer: Closer) -> None:
    """Inside the window (250 ahead: a gap RESEND could fill) the forged BEAT is held, never
    confirmed: the host asks STATUS, sets it aside, and every later hand settles (before: the
    gap timeout jumped to it and 250 real frames were taken for duplicates: a hand void)."""
    emu = closer.add(
        EmulatorProcess(
            ["--seed", "5", "--shuffle-time", "0.01", "--card-interval", "0.001"], tcp_port=0
        )
    )
    tap = closer.add(Tap(emu.start()))
    journal = closer.add(Journal(str(tmp_path / "j.db")))
    journal.open()
    timings = TcrpTimings(gap_timeout=0.3)
    device = closer.add(TcrpDevice(SerialTransport(tap.url), name="serial", timings=timings))
    device.open()
    config = load_table_config(game="uth")
    table = HeadlessTable(config, device, journal, card_timeout=2.0)
    model = PlayerModel(config, 5)
    assert play_hand(table, model, [1, 2, 3]).phase is Phase.SETTLED
    tap.inject(encode_frame((tap.last_seq + 250) % 65536, "BEAT"))
    played = [play_hand(table, model, [1, 2, 3]) for _ in range(4)]
    assert [h.phase for h in played] == [Phase.SETTLED] * 4, [h.void_reason for h in played]
    assert device.lost_frames == 0 and device.frame_conflicts == 0
    assert journal.count() == 5


def test_a_forged_card_under_the_next_seq_voids_the_hand_and_keeps_both_frames(
    tmp_path: Path, closer: Closer
) -> None:
    """The lab's case over a real pty to an emulator process: a CRC-valid CARD slipped in
    early under the next card's seq (the emulator as a second device on the line). The host
    sees the conflict, the hand is voided ``frame_conflict`` with every wager back, both
    frames are the hand's device events, and no card of the journal differs from what the
    device dealt."""
    dealt = tmp_path / "dealt.jsonl"
    emu = closer.add(
        EmulatorProcess(
            [
                "--seed",
                "11",
                "--shuffle-time",
                "0.01",
                "--card-interval",
                "0.001",
                "--forge-every",
                "20",
                "--dealt-log",
                str(dealt),
            ]
        )
    )
    journal = closer.add(Journal(str(tmp_path / "j.db")))
    journal.open()
    device = closer.add(TcrpDevice(SerialTransport(emu.start()), name="serial"))
    device.open()
    config = load_table_config(game="uth")
    table = HeadlessTable(config, device, journal, card_timeout=2.0)
    model = PlayerModel(config, 7)
    played = []
    for _ in range(16):
        played.append(play_hand(table, model, [1, 2, 3]))
        table.acknowledge_void("test")
    voids = [h for h in played if h.phase is Phase.VOID]
    codes = {h.void_reason.code for h in voids if h.void_reason is not None}
    assert voids and codes == {"frame_conflict"}, codes
    assert len(voids) < len(played)  # the hands without a forged frame settle
    assert device.frame_conflicts >= len(voids)
    check = cross_check(journal, read_dealt_log(dealt))
    assert check.wrong_cards == [] and check.cards > 0 and check.verify_ok
    assert check.conflicted == check.conflicted_void == len(voids) and check.ok
    stored = [s for s in journal.iter_hands(1) if s.status == "void"]
    for hand in stored:
        conflict = [e for e in hand.events if e["kind"] == "frame_conflict"]
        assert len(conflict) == 1 and conflict[0]["first"] != conflict[0]["second"]
        assert conflict[0]["first"].startswith("CARD,")  # the forged one, held first
        assert hand.extra["void"]["code"] == "frame_conflict"
        assert "second device or forged frames" in hand.extra["void"]["text_en"]
        assert hand.settlement is not None  # every wager back
        assert {(seat["result"], seat["net"]) for seat in hand.settlement["seats"]} == {("void", 0)}
