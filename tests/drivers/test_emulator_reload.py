"""The Seven Card Stud deck shortage on the emulated shuffler (GAMES.md "Seven Card Stud" 5,
rules text 002): the dealer loads the burns, SHUFFLE makes a new deck of the undealt stub and the
loaded cards. Over a real pty (EmulatorSource) and on the state machine with a virtual clock."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.errors import CardError, CommandRefusedError, DeviceError
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent
from dealer_assist.source import CardLoader
from dealer_assist.table.crosscheck import read_dealt_log
from drivers.emulator.control import ControlChannel, answer
from drivers.emulator.process import EmulatorProcess
from drivers.emulator.shuffler import EmulatedShuffler
from drivers.emulator.source import EmulatorSource
from tests.conftest import Closer
from tests.drivers.test_emulator_shuffler import Host, fast

FAST = ["--shuffle-time", "0.02", "--card-interval", "0.002"]
STUD_8_TO_6TH = (24, 1, 8, 1, 8, 1, 8)  # 3rd street, then a burn before 4th, 5th and 6th


def take(source: EmulatorSource, kind: type[DeviceEvent], n: int) -> list[DeviceEvent]:
    """Events of ``source`` up to the ``n``-th of ``kind``; fails after 10 s."""
    events: list[DeviceEvent] = []
    deadline = time.monotonic() + 10
    while sum(isinstance(e, kind) for e in events) < n:
        assert time.monotonic() < deadline, [e.kind for e in events]
        event = source.next_event(0.2)
        if event is not None:
            events.append(event)
    return events


def shuffle(source: EmulatorSource) -> DeckShuffled:
    source.shuffle()
    found = [e for e in take(source, DeckShuffled, 1) if isinstance(e, DeckShuffled)]
    return found[0]


def deal(source: EmulatorSource, n: int) -> list[Card]:
    source.deal(n)
    reads = [e for e in take(source, CardRead, n) if isinstance(e, CardRead)]
    cards = [r.card for r in reads]
    assert None not in cards
    return [c for c in cards if c is not None]


def stud_to_sixth(source: EmulatorSource) -> tuple[list[Card], list[Card]]:
    """Deal 8 players to 6th street with 3 burns (51 cards): (cards dealt, the burns)."""
    dealt: list[Card] = []
    burns: list[Card] = []
    for n in STUD_8_TO_6TH:
        cards = deal(source, n)
        dealt += cards
        if n == 1:
            burns += cards
    return dealt, burns


def open_emulator(closer: Closer, *args: str) -> EmulatorSource:
    source = closer.add(EmulatorSource([*FAST, *args]))
    source.open()
    return source


def test_burns_loaded_with_the_stub_make_a_deck_of_four(closer: Closer, tmp_path: Path) -> None:
    log = tmp_path / "dealt.jsonl"
    source = open_emulator(closer, "--seed", "21", "--dealt-log", str(log))
    assert isinstance(source, CardLoader)
    first = shuffle(source)
    assert first.count == 52
    dealt, burns = stud_to_sixth(source)
    assert len(dealt) == 51 and len(set(dealt)) == 51 and len(burns) == 3
    stub = set(FULL_DECK) - set(dealt)
    assert len(stub) == 1
    source.load_cards(burns)
    second = shuffle(source)
    assert second.count == 4 and second.deck_id != first.deck_id
    card = deal(source, 1)[0]
    assert card in set(burns) | stub
    rest = deal(source, 3)
    assert sorted([card, *rest], key=str) == sorted([*burns, *stub], key=str)
    with pytest.raises(CommandRefusedError):
        source.deal(1)  # the four cards are all there was
    logged = read_dealt_log(log)  # the cross-check sees the new deck's cards too
    assert [logged[(second.deck_id, i)] for i in range(1, 5)] == [str(c) for c in [card, *rest]]
    assert len([k for k in logged if k[0] == first.deck_id]) == 51


def test_reload_indexes_restart_at_one(closer: Closer) -> None:
    source = open_emulator(closer, "--seed", "22")
    shuffle(source)
    burns = deal(source, 2)
    deal(source, 5)
    source.load_cards(burns)
    new = shuffle(source)
    assert new.count == 52 - 7 + 2
    source.deal(3)
    reads = [e for e in take(source, CardRead, 3) if isinstance(e, CardRead)]
    assert [(r.deck_id, r.index) for r in reads] == [(new.deck_id, i) for i in (1, 2, 3)]


def test_load_without_undealt_cards_shuffles_only_the_loaded(closer: Closer) -> None:
    source = open_emulator(closer, "--seed", "23")
    shuffle(source)
    deck = deal(source, 52)  # 8 players to 6th street with 4 burns: no stub left
    burns = [deck[0], deck[25], deck[34], deck[43]]
    source.load_cards(burns[:2])
    source.load_cards(burns[2:])  # loads add up
    new = shuffle(source)
    assert new.count == 4
    assert sorted(deal(source, 4), key=str) == sorted(burns, key=str)


def test_load_of_a_card_never_dealt_is_obeyed(closer: Closer) -> None:
    source = open_emulator(closer, "--seed", "24")
    shuffle(source)
    dealt = deal(source, 10)
    still_inside = next(c for c in FULL_DECK if c not in dealt)
    source.load_cards([still_inside, dealt[3]])
    new = shuffle(source)
    assert new.count == 44  # 42 undealt + 2 loaded: the device does not judge the load
    cards = deal(source, 44)
    assert cards.count(still_inside) == 2  # a duplicate for the host's checks to catch
    assert cards.count(dealt[3]) == 1
    assert set(cards) == (set(FULL_DECK) - set(dealt)) | {dealt[3]}


def test_same_seed_same_reloaded_deck() -> None:
    runs = []
    for _ in range(2):
        source = EmulatorSource([*FAST, "--seed", "25"])
        source.open()
        try:
            shuffle(source)
            _, burns = stud_to_sixth(source)
            source.load_cards(burns)
            new = shuffle(source)
            runs.append((new.deck_id, burns, deal(source, 4)))
        finally:
            source.close()
    assert runs[0] == runs[1]


def test_without_a_load_shuffle_is_a_full_new_deck(closer: Closer) -> None:
    source = open_emulator(closer, "--seed", "26")
    shuffle(source)
    deal(source, 30)
    new = shuffle(source)  # the dealer put all the cards back: nothing loaded
    assert new.count == 52
    assert sorted(deal(source, 52), key=str) == sorted(FULL_DECK, key=str)


def test_load_errors(closer: Closer) -> None:
    source = EmulatorSource([*FAST, "--seed", "27"])
    with pytest.raises(DeviceError, match="not open"):
        source.load_cards([parse_card("As")])
    closer.add(source)
    source.open()
    with pytest.raises(CardError, match="at least one card"):
        source.load_cards([])
    with pytest.raises(CardError, match="not a card"):
        source.load_cards(["As"])  # type: ignore[list-item]
    plain = closer.add(EmulatorProcess(FAST))  # started without control
    plain.start()
    with pytest.raises(DeviceError, match="control=True"):
        plain.load_cards([parse_card("As")])


def test_control_process_answers_in_order(closer: Closer) -> None:
    emulator = closer.add(EmulatorProcess(FAST, control=True))
    emulator.start()
    assert emulator.load_cards([parse_card("As"), parse_card("Kd")]) == 2
    assert emulator.load_cards([parse_card("As")]) == 3
    emulator.stop()
    with pytest.raises(DeviceError, match="not running"):
        emulator.load_cards([parse_card("As")])


# -- the state machine and the line protocol, no processes ----------------------------------


def texts(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def test_a_load_during_a_shuffle_waits_for_the_next() -> None:
    h = Host(fast(seed=31))
    h.send("SHUFFLE")
    h.run(0.1)
    h.send("DEAL", "5")
    h.run(0.2)
    burns = [f.fields[2] for f in h.of("CARD")][:2]
    h.dev.load_cards(burns)
    h.send("SHUFFLE")
    h.dev.load_cards(["2c"])  # the shoe is closed: for the SHUFFLE after this one
    assert h.dev.loaded == ("2c",)
    h.run(0.1)
    assert h.of("SHUFFLED")[-1].fields[1] == str(47 + 2)
    h.send("SHUFFLE")
    h.run(0.1)
    assert h.of("SHUFFLED")[-1].fields[1] == str(49 + 1)
    assert not h.dev.loaded  # taken by that SHUFFLE


def test_a_load_before_the_first_deck_is_all_the_shoe_holds() -> None:
    h = Host(fast(seed=32))
    h.dev.load_cards([parse_card("Ah"), "td"])
    h.send("SHUFFLE")
    h.run(0.1)
    assert h.of("SHUFFLED")[-1].fields[1] == "2"
    h.send("DEAL", "3")
    assert h.of("NAK")[-1].fields[1] == "NOT_ENOUGH"
    h.send("DEAL", "2")
    h.run(0.1)
    assert sorted(f.fields[2] for f in h.of("CARD")) == ["Ah", "Td"]


def test_a_bad_card_text_loads_nothing() -> None:
    dev = EmulatedShuffler(fast(seed=33))
    with pytest.raises(CardError, match="1x"):
        dev.load_cards(["As", "1x"])
    assert dev.loaded == ()


def test_control_lines() -> None:
    dev = EmulatedShuffler(fast(seed=34))
    assert answer(dev, "LOAD As kd 10h") == "LOADED 3 3"
    assert dev.loaded == ("As", "Kd", "Th")
    assert answer(dev, "   ") == ""
    assert answer(dev, "LOAD").startswith("ERROR")
    assert answer(dev, "LOAD Qs Zz").startswith("ERROR not a card: 'Zz'")
    assert answer(dev, "UNLOAD As").startswith("ERROR unknown command 'UNLOAD'")
    assert answer(dev, "load 2c") == "LOADED 1 4"


def test_control_channel_split_and_overlong_lines() -> None:
    dev = EmulatedShuffler(fast(seed=35))
    replies: list[str] = []
    r, w = os.pipe()
    try:
        channel = ControlChannel(dev, r, replies.append)
        os.write(w, b"LOAD As K")
        assert channel.on_readable() and replies == []
        os.write(w, b"d\nLOAD 2c\n")
        assert channel.on_readable()
        os.write(w, b"LOAD " + b"As " * 2000)
        assert channel.on_readable()
        os.write(w, b"Kd\nLOAD 3c\n")  # the end of the long line is dropped, the next one runs
        assert channel.on_readable()
        os.close(w)
        w = -1
        assert not channel.on_readable()  # end of input: the runner stops watching
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
    assert replies[:2] == ["LOADED 2 2", "LOADED 1 3"]
    assert replies[2].startswith("ERROR control line longer")
    assert replies[3:] == ["LOADED 1 4"]
    assert dev.loaded == ("As", "Kd", "2c", "3c")
