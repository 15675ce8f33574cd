"""The emulated shuffler as a state machine (no I/O): behaviour, reliability and fault switches."""

from __future__ import annotations

import re

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import ConfigError
from drivers.emulator.control import answer
from drivers.emulator.settings import DealtCard, EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.tcrp.frame import Frame, FrameParser, encode_frame

CARD_TEXTS = {str(c) for c in FULL_DECK}


class Host:
    """Drives an EmulatedShuffler with a virtual clock and collects what it sends."""

    def __init__(self, config: EmulatorConfig, *, ack: bool = True) -> None:
        self.dealt: list[DealtCard] = []
        self.dev = EmulatedShuffler(config, on_deal=self.dealt.append)
        self.parser = FrameParser()
        self.now = 0.0
        self.seq = 0
        self.last_seq = -1
        self.ack = ack
        self.frames: list[tuple[float, Frame]] = []
        self.acked: set[int] = set()
        self._take(self.dev.start(self.now))

    def _take(self, out: list[bytes]) -> list[Frame]:
        new = self.parser.feed(b"".join(out))
        self.frames += [(self.now, f) for f in new]
        if self.ack:
            for f in new:
                if f.type not in ("BEAT", "ACK", "NAK") and f.seq not in self.acked:
                    self.acked.add(f.seq)
                    self.send("ACK", str(f.seq))
        return new

    def send(self, type_: str, *fields: str, seq: int | None = None) -> list[Frame]:
        if seq is None:
            seq, self.seq = self.seq, self.seq + 1
        if type_ != "ACK":
            self.last_seq = seq  # the command's seq, for checking its ACK
        return self._take(self.dev.receive(encode_frame(seq, type_, fields), self.now))

    def run(self, seconds: float, step: float = 0.005) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = round(self.now + step, 6)
            self._take(self.dev.tick(self.now))

    def types(self) -> list[str]:
        return [f.type for _, f in self.frames]

    def of(self, type_: str) -> list[Frame]:
        return [f for _, f in self.frames if f.type == type_]


def fast(**kw: object) -> EmulatorConfig:
    settings: dict[str, object] = {"shuffle_time": 0.05, "card_interval": 0.01, **kw}
    return EmulatorConfig(**settings)  # type: ignore[arg-type]


def test_power_up_hello_seq0_then_idle() -> None:
    h = Host(fast(seed=1))
    assert h.frames[0][1] == Frame(0, "HELLO", ("TCRP1", "TCRP-EMU", "1.0.0", "EMU-0001"))
    assert h.frames[1][1] == Frame(1, "STATE", ("IDLE",))


def test_shuffle_and_deal_sequence() -> None:
    h = Host(fast(seed=2))
    h.send("SHUFFLE")
    shuffle_seq = str(h.last_seq)
    h.run(0.1)
    h.send("DEAL", "3")
    deal_seq = str(h.last_seq)
    h.run(0.1)
    flow = [(f.type, f.fields) for _, f in h.frames[2:] if f.type != "BEAT"]
    deck_id = h.of("SHUFFLED")[0].fields[0]
    cards = [f.fields for f in h.of("CARD")]
    assert flow == [
        ("ACK", (shuffle_seq,)),
        ("STATE", ("SHUFFLING",)),
        ("SHUFFLED", (deck_id, "52")),
        ("STATE", ("READY",)),
        ("ACK", (deal_seq,)),
        ("STATE", ("DEALING",)),
        *[("CARD", c) for c in cards],
        ("STATE", ("READY",)),
    ]
    assert [c[:2] for c in cards] == [(deck_id, "1"), (deck_id, "2"), (deck_id, "3")]
    logged = [(d.deck_id, str(d.index), d.card) for d in h.dealt]
    assert logged == [tuple(c) for c in cards]


def test_seeded_shuffles_are_reproducible_and_differ_by_seed() -> None:
    def deck(seed: int) -> list[str]:
        h = Host(fast(seed=seed, card_interval=0.001))
        h.send("SHUFFLE")
        h.run(0.06)
        h.send("DEAL", "52")
        h.run(0.2, step=0.001)
        return [f.fields[2] for f in h.of("CARD")]

    a, b = deck(7), deck(7)
    assert a == b and sorted(a) == sorted(CARD_TEXTS)
    assert deck(8) != a


def test_no_message_reveals_an_undealt_card() -> None:
    h = Host(fast(seed=3))
    h.send("SHUFFLE")
    h.run(0.1)
    for _ in range(10):
        h.send("DEAL", "5")
        h.send("STATUS")
        h.run(0.1)
    dealt: set[str] = set()
    for _, f in h.frames:
        if f.type == "CARD":
            dealt.add(f.fields[2])
        tokens = set(re.split(r"[^0-9A-Za-z]+", ",".join(f.fields)))
        assert not (tokens & CARD_TEXTS) - dealt, f"{f} shows a card not dealt yet"
    assert len(dealt) == 50


def test_beat_every_second_in_any_state() -> None:
    h = Host(fast(seed=4))
    h.run(3.05)
    beats = [t for t, f in h.frames if f.type == "BEAT"]
    assert beats == pytest.approx([1.0, 2.0, 3.0], abs=0.006)


def test_unacked_frames_resent_every_200ms_five_times() -> None:
    h = Host(fast(seed=5), ack=False)
    h.run(2.0)
    hello = [t for t, f in h.frames if f.type == "HELLO"]
    assert hello == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8, 1.0], abs=0.006)
    assert all(f.seq == 0 for f in h.of("HELLO"))  # a retransmission keeps its seq


def test_acked_frames_are_not_resent_and_resend_replays_history() -> None:
    h = Host(fast(seed=6))
    h.run(1.5)
    assert len(h.of("HELLO")) == 1 and len(h.of("STATE")) == 1
    before = len(h.frames)
    replay = h.send("RESEND", "1")
    assert [f.seq for f in replay] == list(range(1, h.frames[before - 1][1].seq + 1))


def test_host_hello_answered_with_ack_then_hello() -> None:
    h = Host(fast(seed=6))
    out = h.send("HELLO")
    assert [f.type for f in out] == ["ACK", "HELLO"] and out[0].fields == (str(h.last_seq),)


def test_retried_command_is_answered_not_redone() -> None:
    h = Host(fast(seed=7))
    h.send("SHUFFLE", seq=5)
    h.run(0.1)
    first = h.of("ACK")[-1]
    again = h.send("SHUFFLE", seq=5)  # our ACK was lost: the host retries with the same seq
    assert again == [first]
    h.run(0.1)
    assert len(h.of("SHUFFLED")) == 1


@pytest.mark.parametrize(
    ("setup", "command", "reason"),
    [
        ([], ("DEAL", "2"), "NO_DECK"),
        ([("SHUFFLE",)], ("DEAL", "0"), "BAD_ARG"),
        ([("SHUFFLE",)], ("DEAL", "x"), "BAD_ARG"),
        ([("SHUFFLE",)], ("SHUFFLE",), "BUSY"),
        ([], ("PING",), "UNKNOWN"),
    ],
)
def test_nak_reasons(setup: list[tuple[str, ...]], command: tuple[str, ...], reason: str) -> None:
    h = Host(fast(seed=8))
    for c in setup:
        h.send(*c)
    out = h.send(*command)
    assert out[0].type == "NAK" and out[0].fields[1] == reason


def test_deal_more_than_left_is_refused() -> None:
    h = Host(fast(seed=8, card_interval=0.001))
    h.send("SHUFFLE")
    h.run(0.06)
    h.send("DEAL", "50")
    assert h.send("DEAL", "3")[0].fields[1] == "NOT_ENOUGH"
    h.run(0.2, step=0.001)
    h.send("DEAL", "2")
    h.run(0.05, step=0.001)
    assert len(h.of("CARD")) == 52 and h.dev.state == "IDLE"


def test_jam_stops_dealing_then_clears() -> None:
    h = Host(fast(seed=9, jam_at=3, jam_clear_after=0.5))
    h.send("SHUFFLE")
    h.run(0.1)
    h.send("DEAL", "5")
    h.run(0.2)
    assert [f.fields[1] for f in h.of("CARD")] == ["1", "2"]
    assert h.of("FAULT")[0].fields == ("JAM", "card 3") and h.dev.state == "FAULT"
    assert h.send("DEAL", "1")[0].type == "NAK"
    h.run(0.6)
    assert h.of("CLEAR")[0].fields == ("JAM",)
    assert [f.fields[1] for f in h.of("CARD")] == ["1", "2", "3", "4", "5"]


def test_duplicate_and_unreadable_cards() -> None:
    h = Host(fast(seed=10, duplicate_at=4, unreadable_at=2))
    h.send("SHUFFLE")
    h.run(0.1)
    h.send("DEAL", "6")
    h.run(0.2)
    cards = [f.fields[2] for f in h.of("CARD")]
    assert cards[1] == "XX" and h.dealt[1].actual in CARD_TEXTS
    assert cards[3] in {cards[0], h.dealt[1].actual, cards[2]}  # a card already dealt
    assert len({d.actual for d in h.dealt}) == 5


def test_corrupt_and_drop_lose_frames_on_the_wire() -> None:
    h = Host(fast(seed=11, corrupt=0.3, drop=0.3))
    h.run(20.0, step=0.05)
    assert h.dev.stats.corrupted > 0 and h.dev.stats.dropped > 0
    assert h.parser.dropped >= h.dev.stats.corrupted  # every corrupted frame fails its CRC
    assert len(h.of("BEAT")) < 20


def test_silence_after_n_frames_for_a_while() -> None:
    h = Host(fast(seed=12, silence_after=3, silence_for=2.0))
    h.run(5.05)
    times = [t for t, f in h.frames if f.type == "BEAT"]
    # frames: HELLO, STATE, BEAT at 1 s; the fourth (BEAT at 2 s) starts 2 s of silence
    assert times == pytest.approx([1.0, 4.0, 5.0], abs=0.006)
    assert h.dev.stats.silenced == 2


def test_a_silence_for_good_ends_when_resumed() -> None:
    h = Host(fast(seed=12, silence_after=3))
    h.run(5.05)
    assert [t for t, f in h.frames if f.type == "BEAT"] == pytest.approx([1.0], abs=0.006)
    assert answer(h.dev, "RESUME") == "RESUMED"
    h.run(2.05)
    beats = [t for t, f in h.frames if f.type == "BEAT"]
    assert len(beats) == 3 and beats[-1] == pytest.approx(7.0, abs=0.006)
    assert answer(h.dev, "RESUME now").startswith("ERROR RESUME takes no arguments")


def test_restart_and_swap_send_hello_seq0() -> None:
    h = Host(fast(seed=13, swap_at=2, swap_serial="EMU-9999"))
    h.send("SHUFFLE")
    h.run(0.1)
    h.send("DEAL", "2")
    h.run(0.1)
    hello = h.of("HELLO")[-1]
    assert hello.seq == 0 and hello.fields[3] == "EMU-9999"


def test_random_faults_pause_dealing() -> None:
    h = Host(fast(seed=14, fault_rate=0.5, fault_code="MISREAD", fault_clear_after=0.05))
    h.send("SHUFFLE")
    h.run(0.1)
    h.send("DEAL", "10")
    h.run(2.0)
    assert len(h.of("CARD")) == 10
    assert len(h.of("FAULT")) == len(h.of("CLEAR")) > 0
    assert all(f.fields[0] == "MISREAD" for f in h.of("FAULT"))


@pytest.mark.parametrize(
    "kw", [{"corrupt": 1.5}, {"drop": -0.1}, {"fault_code": "NOPE"}, {"jam_at": -1}]
)
def test_bad_config_rejected(kw: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        EmulatorConfig(**kw)  # type: ignore[arg-type]
