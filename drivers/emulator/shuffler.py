"""The emulated TCRP/1 shuffler: a state machine with time passed in, no I/O.

Behaviour (DEVICE_PROTOCOL.md): HELLO with seq 0 on start-up (and after a restart), BEAT every
``beat_interval``; SHUFFLE -> ACK, STATE SHUFFLING, SHUFFLED deck_id,52, STATE READY;
DEAL n -> ACK, STATE DEALING, n CARD frames (index 1, 2, 3 ... within the deck), STATE READY;
STATUS -> ACK, STATE; HELLO -> ACK, HELLO; RESEND s -> the kept frames from s on. The last
``history`` frames are kept; frames other than BEAT/ACK/NAK are resent every
``retransmit_interval`` until ACKed, at most ``retransmit_limit`` times. A card's text appears
only in the CARD frame that deals it: nothing reports the deck order.

Fault switches (all off by default, randomness from ``seed``): jam at card N, corrupt or drop a
fraction of outgoing (and incoming) frames, go silent after N frames, a duplicate or unreadable
card at card N, random faults (one code, or ``ANY``), a restart or a device swap (new serial)
after N cards; dealing errors at card N of a deck: stop dealing (missing cards), one card more
than asked, an index that skips or repeats, a card from another deck, a reshuffle on its own;
a deck count other than 52. ``forge_every``: a second device on the line (a lab's test of the
host, not a device fault): before about one card in N, a CRC-valid CARD under the seq the
device will use next, with the next index and a card the device does not deal then; it is
neither kept in the history nor in the dealt log.

The dealer's hands (out of band, not TCRP/1): :meth:`EmulatedShuffler.load_cards` puts cards
into the shoe (the burns of a Seven Card Stud deck shortage, GAMES.md "Seven Card Stud" 5,
rules text 002). The next SHUFFLE then shuffles the undealt stub of the current deck together
with the loaded cards into a new deck (new deck_id, ``count`` = stub + loaded); without a load
SHUFFLE gives a full new deck as before. Loaded cards are not checked: a card the device still
holds or one it never dealt is shuffled in as given, as a real device would.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from dealer_assist.cards import FULL_DECK, Card, parse_card
from drivers.emulator.settings import (
    ANY_FAULT,
    FAULT_CODES,
    DealtCard,
    EmulatorConfig,
    EmulatorStats,
)
from drivers.tcrp.frame import SEQ_MODULUS, FrameParser, encode_frame

_NO_ACK = frozenset({"BEAT", "ACK", "NAK"})
_CORRUPT_CHARS = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CARD_TEXTS = tuple(str(c) for c in FULL_DECK)


@dataclass
class _Unacked:
    next_at: float
    left: int


@dataclass
class _Deck:
    deck_id: str
    cards: list[str]
    dealt: list[str] = field(default_factory=list)
    jammed: bool = False
    stalled: bool = False
    index_offset: int = 0


class EmulatedShuffler:
    """The TCRP/1 device state machine. Each call returns the bytes to send, in order.

    Args:
        config: see :class:`EmulatorConfig`.
        on_deal: called for every card dealt (for the dealt log).
    """

    def __init__(
        self, config: EmulatorConfig, *, on_deal: Callable[[DealtCard], None] | None = None
    ) -> None:
        self.config = config
        self.on_deal = on_deal
        self.stats = EmulatorStats()
        self.serial = config.serial
        self._deck_rng = random.Random(config.seed)
        self._fault_rng = random.Random(f"{config.seed}:faults")
        self._id_rng = random.Random(f"{config.seed}:ids")
        self._forge_rng = random.Random(f"{config.seed}:forge")
        self._parser = FrameParser()
        self._out: list[bytes] = []
        self._seq = 0
        self._history: OrderedDict[int, tuple[str, bytes]] = OrderedDict()
        self._unacked: dict[int, _Unacked] = {}
        self._answers: OrderedDict[int, tuple[str, tuple[str, ...], int]] = OrderedDict()
        self.state = "IDLE"
        self._deck: _Deck | None = None
        self._decks = 0
        self._to_deal = 0
        self._next_card_at = math.inf
        self._shuffle_done_at = math.inf
        self._fault: str | None = None
        self._fault_clear_at = math.inf
        self._next_beat_at = math.inf
        self._silent_until = -math.inf
        self._silenced_once = False
        self._total_dealt = 0
        self._loaded: list[str] = []  # in the shoe for the next SHUFFLE
        self._shuffling_load: list[str] | None = None  # taken by the SHUFFLE under way

    # -- public ----------------------------------------------------------------------------

    def start(self, now: float) -> list[bytes]:
        """Power-up: HELLO with seq 0, then STATE IDLE."""
        self._power_up(now)
        return self._flush()

    def receive(self, data: bytes, now: float) -> list[bytes]:
        """Bytes from the host; returns the answers. ``drop_in``/``corrupt_in`` lose that
        fraction of host frames (a corrupted frame fails its CRC: lost as well)."""
        cfg, rng = self.config, self._fault_rng
        for frame in self._parser.feed(data):
            if cfg.drop_in and rng.random() < cfg.drop_in:
                self.stats.dropped_in += 1
                continue
            if cfg.corrupt_in and rng.random() < cfg.corrupt_in:
                self.stats.corrupted_in += 1
                continue
            self._on_host_frame(frame.seq, frame.type, frame.fields, now)
        return self._flush()

    def tick(self, now: float) -> list[bytes]:
        """Timers: heartbeat, retransmissions, shuffle end, dealing, fault clearing."""
        if now >= self._next_beat_at:
            self._emit("BEAT", (), now)
            self._next_beat_at = max(self._next_beat_at + self.config.beat_interval, now)
        for seq, entry in list(self._unacked.items()):
            if now < entry.next_at:
                continue
            if entry.left <= 0 or seq not in self._history:
                del self._unacked[seq]
                continue
            entry.left -= 1
            entry.next_at += self.config.retransmit_interval  # on the original cadence
            if entry.next_at <= now:
                entry.next_at = now + self.config.retransmit_interval
            self.stats.retransmitted += 1
            self._transmit(self._history[seq][1], now)
        if now >= self._shuffle_done_at:
            self._finish_shuffle(now)
        if now >= self._fault_clear_at:
            self._clear_fault(now)
        while now >= self._next_card_at and self._to_deal and self._fault is None:
            self._next_card_at += self.config.card_interval
            self._deal_one(now)
        return self._flush()

    def load_cards(self, cards: Iterable[Card | str]) -> None:
        """The dealer puts ``cards`` into the shoe (out of band: no frame is sent). The next
        SHUFFLE the device accepts shuffles them with the undealt stub of the current deck (none
        after the deck ran out, a restart, or before the first deck) into a new deck; loads add
        up until then. Cards are not checked against the deck: a duplicate or a card never dealt
        goes in as given (a dealer error for the host to catch). :attr:`loaded` lists them.

        Raises:
            CardError: a text is not a card (nothing of this call is loaded).
        """
        texts = [str(c) if isinstance(c, Card) else str(parse_card(c)) for c in cards]
        self._loaded += texts

    def reseed(self, seed: int) -> None:
        """The next shuffles draw from a deck generator seeded with ``seed`` (a simulation's
        hook, out of band like :meth:`load_cards`: a simulated tournament deals its hand N the
        same deck whether or not a restart came before it). Deck ids and faults are unchanged."""
        self._deck_rng = random.Random(seed)

    def end_silence(self) -> None:
        """A silence (``silence_after``) ends now; frames go out again from the next send or
        retransmission. It does not start again: a run is silent once at most."""
        self._silent_until = -math.inf

    @property
    def loaded(self) -> tuple[str, ...]:
        """Cards loaded for the next SHUFFLE, in load order."""
        return tuple(self._loaded)

    def next_deadline(self) -> float:
        """The earliest time :meth:`tick` has something to do (monotonic seconds)."""
        dealing = self._next_card_at if self._to_deal and self._fault is None else math.inf
        retx = min((u.next_at for u in self._unacked.values()), default=math.inf)
        return min(self._next_beat_at, retx, self._shuffle_done_at, self._fault_clear_at, dealing)

    # -- frames out ------------------------------------------------------------------------

    def _flush(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    def _emit(self, type_: str, fields_: tuple[str, ...], now: float) -> int:
        seq = self._seq
        self._seq = (seq + 1) % SEQ_MODULUS
        raw = encode_frame(seq, type_, fields_)
        self._history[seq] = (type_, raw)
        while len(self._history) > self.config.history:
            old, _ = self._history.popitem(last=False)
            self._unacked.pop(old, None)
        if type_ == "HELLO":  # a new HELLO replaces any unacknowledged older one
            for s in [s for s in self._unacked if self._history[s][0] == "HELLO"]:
                del self._unacked[s]
        if type_ not in _NO_ACK:
            self._unacked[seq] = _Unacked(
                now + self.config.retransmit_interval, self.config.retransmit_limit
            )
        self.stats.frames += 1
        cfg = self.config
        after = cfg.silence_after
        if after is not None and not self._silenced_once and self.stats.frames > after:
            self._silenced_once = True
            self._silent_until = math.inf if cfg.silence_for is None else now + cfg.silence_for
        self._transmit(raw, now)
        return seq

    def _transmit(self, raw: bytes, now: float) -> None:
        if now < self._silent_until:
            self.stats.silenced += 1
            return
        rng = self._fault_rng
        if self.config.drop and rng.random() < self.config.drop:
            self.stats.dropped += 1
            return
        if self.config.corrupt and rng.random() < self.config.corrupt:
            self.stats.corrupted += 1
            raw = corrupt_frame(raw, rng)
        self._out.append(raw)

    # -- host frames -----------------------------------------------------------------------

    def _on_host_frame(self, seq: int, type_: str, f: tuple[str, ...], now: float) -> None:
        if type_ == "ACK":
            if f and f[0].isdigit():
                self._unacked.pop(int(f[0]), None)
            return
        if type_ == "RESEND":
            if f and f[0].isdigit():
                self._resend_from(int(f[0]), now)
            return
        if type_ == "HELLO":  # always answered: a restarted host starts its seq again
            self._answers.clear()
            self._emit("ACK", (str(seq),), now)
            self._emit("HELLO", self._hello_fields(), now)
            return
        cached = self._answers.get(seq)
        if cached is not None and cached[:2] == (type_, f):
            answer_seq = cached[2]  # a retried command: repeat the answer, do not redo it
            if answer_seq in self._history:
                self.stats.resent += 1
                self._transmit(self._history[answer_seq][1], now)
            return
        reason = self._command(type_, f)
        self._answers[seq] = (type_, f, self._seq)
        while len(self._answers) > 64:
            self._answers.popitem(last=False)
        if reason:
            self._emit("NAK", (str(seq), reason), now)
        else:
            self._emit("ACK", (str(seq),), now)
            self._after_ack(type_, f, now)

    def _command(self, type_: str, f: tuple[str, ...]) -> str:
        """Validate one command; the NAK reason, or '' to accept it."""
        if type_ == "STATUS":
            return ""
        if type_ == "SHUFFLE":
            if self._fault is not None:
                return "FAULT"
            return "BUSY" if self.state in ("SHUFFLING", "DEALING") else ""
        if type_ == "DEAL":
            if len(f) != 1 or not f[0].isdigit() or not 1 <= int(f[0]) <= 52:
                return "BAD_ARG"
            if self._fault is not None:
                return "FAULT"
            if self.state == "SHUFFLING":
                return "BUSY"
            if self._deck is None:
                return "NO_DECK"
            if int(f[0]) > len(self._deck.cards) - self._to_deal:
                return "NOT_ENOUGH"
            return ""
        return "UNKNOWN"

    def _after_ack(self, type_: str, f: tuple[str, ...], now: float) -> None:
        if type_ == "STATUS":
            self._emit("STATE", (self.state,), now)
        elif type_ == "SHUFFLE":
            if self._loaded:  # the shoe closes: later loads wait for the next SHUFFLE
                self._shuffling_load, self._loaded = self._loaded, []
            self._set_state("SHUFFLING", now)
            self._shuffle_done_at = now + self.config.shuffle_time
        elif type_ == "DEAL":
            if not self._to_deal:
                self._next_card_at = now + self.config.card_interval
            self._to_deal += int(f[0])
            if self.state != "DEALING":
                self._set_state("DEALING", now)

    def _resend_from(self, start: int, now: float) -> None:
        if not self._history:
            return
        seqs = list(self._history)
        if start in self._history:
            seqs = seqs[seqs.index(start) :]
        else:
            behind = (self._seq - start) % SEQ_MODULUS
            if behind == 0 or behind > SEQ_MODULUS // 2:
                return  # not sent yet: nothing to resend
        for s in seqs:
            self.stats.resent += 1
            self._transmit(self._history[s][1], now)

    # -- device behaviour ------------------------------------------------------------------

    def _hello_fields(self) -> tuple[str, ...]:
        return ("TCRP1", self.config.model, self.config.firmware, self.serial)

    def _power_up(self, now: float) -> None:
        self._seq = 0
        self._history.clear()
        self._unacked.clear()
        self._answers.clear()
        self._deck = None
        self._to_deal = 0
        if self._shuffling_load is not None:  # a shuffle cut short: the cards stay in the shoe
            self._loaded[:0], self._shuffling_load = self._shuffling_load, None
        self._next_card_at = self._shuffle_done_at = self._fault_clear_at = math.inf
        self._fault = None
        self.state = "IDLE"
        self._next_beat_at = now + self.config.beat_interval
        self._emit("HELLO", self._hello_fields(), now)
        self._emit("STATE", ("IDLE",), now)

    def _set_state(self, state: str, now: float) -> None:
        self.state = state
        self._emit("STATE", (state,), now)

    def _finish_shuffle(self, now: float, *, fault: bool = False) -> None:
        self._shuffle_done_at = math.inf
        load = None if fault else self._shuffling_load
        if load is not None:  # the stub and the loaded cards: what is in the shoe
            self._shuffling_load = None
            cards = [*(self._deck.cards if self._deck is not None else ()), *load]
        else:
            full = [str(c) for c in FULL_DECK]
            cards = (full * 2)[: self.config.deck_count]  # past 52: a second copy (a fault)
        self._deck_rng.shuffle(cards)
        self._decks += 1
        deck_id = f"D{self._decks:04d}-{self._id_rng.getrandbits(32):08X}"
        self._deck = _Deck(deck_id, cards)
        self._emit("SHUFFLED", (deck_id, str(len(cards))), now)
        self._set_state("READY", now)

    def _enter_fault(self, code: str, detail: str, clear_after: float, now: float) -> None:
        if code == ANY_FAULT:
            code = self._fault_rng.choice(FAULT_CODES)
        self.stats.faults += 1
        self._fault = code
        self._fault_clear_at = now + clear_after
        self._emit("FAULT", (code, detail) if detail else (code,), now)
        self._set_state("DOOR_OPEN" if code == "DOOR_OPEN" else "FAULT", now)

    def _clear_fault(self, now: float) -> None:
        code, self._fault = self._fault, None
        self._fault_clear_at = math.inf
        if code is None:
            return
        self._emit("CLEAR", (code,), now)
        if self._to_deal:
            self._next_card_at = now + self.config.card_interval
        self._set_state("DEALING" if self._to_deal else "READY", now)

    def _deal_one(self, now: float) -> None:
        deck, cfg = self._deck, self.config
        if deck is None or not deck.cards:
            self._to_deal = 0
            self._set_state("IDLE", now)
            return
        n = len(deck.dealt) + 1
        if cfg.jam_at == n and not deck.jammed:
            deck.jammed = True
            self._enter_fault("JAM", f"card {n}", cfg.jam_clear_after, now)
            return
        if cfg.fault_rate and self._fault_rng.random() < cfg.fault_rate:
            self._enter_fault(cfg.fault_code, f"card {n}", cfg.fault_clear_after, now)
            return
        if cfg.stall_at == n and not deck.stalled:
            deck.stalled = True  # stops short: the rest of the DEAL never comes
            self._to_deal, self._next_card_at = 0, math.inf
            self._set_state("READY", now)
            return
        if cfg.duplicate_at == n and deck.dealt:
            actual = self._fault_rng.choice(deck.dealt)  # an extra copy of a dealt card
        else:
            actual = deck.cards.pop(0)
        reported = "XX" if cfg.unreadable_at == n else actual
        deck.index_offset += (cfg.skip_index_at == n) - (cfg.repeat_index_at == n)
        deck_id = f"{deck.deck_id}W" if cfg.wrong_deck_at == n else deck.deck_id
        index = n + deck.index_offset
        deck.dealt.append(actual)
        self._to_deal -= 1
        self._total_dealt += 1
        if cfg.extra_at == n:
            self._to_deal += 1  # one card more than asked
        if cfg.forge_every and self._forge_rng.random() < 1 / cfg.forge_every:
            self._forge(deck, deck_id, index, now)
        self._emit("CARD", (deck_id, str(index), reported), now)
        if self.on_deal is not None:
            self.on_deal(DealtCard(deck_id, index, reported, actual))
        if cfg.reshuffle_at == n:
            self._to_deal, self._next_card_at = 0, math.inf
            self._finish_shuffle(now, fault=True)  # a full new deck on its own, mid-hand
            return
        if not self._to_deal:
            self._next_card_at = math.inf
            self._set_state("READY" if deck.cards else "IDLE", now)
            if not deck.cards:
                self._deck = None
        if cfg.swap_at == self._total_dealt:
            self.serial = cfg.swap_serial or f"{cfg.serial}-SWAP"
            self._power_up(now)
        elif cfg.restart_at == self._total_dealt:
            self._power_up(now)

    def _forge(self, deck: _Deck, deck_id: str, index: int, now: float) -> None:
        """Slip in a CARD forged under the seq after the one the next CARD takes."""
        upcoming = deck.cards[0] if deck.cards and self._to_deal else None
        card = self._forge_rng.choice([c for c in _CARD_TEXTS if c != upcoming])
        self.stats.forged += 1
        seq = (self._seq + 1) % SEQ_MODULUS
        self._transmit(encode_frame(seq, "CARD", (deck_id, str(index + 1), card)), now)


def corrupt_frame(raw: bytes, rng: random.Random) -> bytes:
    """``raw`` with one byte between ``$`` and ``*`` replaced, so its CRC no longer matches
    (CRC-16 detects every single-byte change)."""
    star = raw.rfind(b"*")
    if star < 2:
        return raw[:-2] + b"?\r\n"
    pos = rng.randrange(1, star)
    new = rng.choice([c for c in _CORRUPT_CHARS if c != raw[pos]])
    return raw[:pos] + bytes([new]) + raw[pos + 1 :]
