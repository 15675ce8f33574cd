"""ManualSource: the dealer's keypad as a card source (manual=True cards, per-deck checks)."""

from __future__ import annotations

import threading

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import CardError, ConfigError, DeviceError
from dealer_assist.events import CardRead, DeckShuffled, DeviceHello
from drivers.factory import open_source
from drivers.manual import ManualSource


def test_entered_cards_are_manual_reads_in_order() -> None:
    source = ManualSource(name="keypad")
    with pytest.raises(DeviceError, match="not open"):
        source.enter("As")
    source.open()
    source.open()  # idempotent
    hello = source.next_event(0)
    assert isinstance(hello, DeviceHello) and hello.model == "manual"
    assert source.identity is not None and source.identity.serial == "keypad"
    source.shuffle()
    shuffled = source.next_event(0)
    assert isinstance(shuffled, DeckShuffled) and shuffled.count == 52
    assert shuffled.deck_id == source.deck_id and shuffled.deck_id.startswith("manual-")
    source.deal(3)
    assert source.expected == 3
    first = source.enter("As")
    second = source.enter(parse_card("Td"))
    assert source.expected == 1
    events = [source.next_event(0), source.next_event(0)]
    assert events == [first, second]
    for event, index, text in zip(events, (1, 2), ("As", "Td"), strict=True):
        assert isinstance(event, CardRead)
        assert event.manual and event.source == "keypad" and event.index == index
        assert event.deck_id == shuffled.deck_id and str(event.card) == text
        assert event.at.tzinfo is not None
    assert source.next_event(0.01) is None
    assert source.stats.frames_received == 2
    assert source.entered == (parse_card("As"), parse_card("Td"))


def test_refuses_bad_and_repeated_cards_until_a_new_deck() -> None:
    source = ManualSource()
    source.open()
    source.enter("Kh")
    with pytest.raises(CardError, match="already entered"):
        source.enter("Kh")
    with pytest.raises(CardError):
        source.enter("1x")
    with pytest.raises(DeviceError, match=r"1\.\.52"):
        source.deal(0)
    old = source.deck_id
    source.new_deck()  # silently (another source shuffled)
    assert source.deck_id != old and source.entered == ()
    again = source.enter("Kh")
    assert again.index == 1
    source.close()
    source.close()
    with pytest.raises(DeviceError):
        source.shuffle()


def test_cards_from_another_thread_arrive_in_index_order() -> None:
    source = ManualSource()
    source.open()
    source.next_event(0)
    texts = [f"{r}{s}" for r in "23456789TJQKA" for s in "shdc"]
    threads = [
        threading.Thread(target=lambda part=part: [source.enter(t) for t in part])
        for part in (texts[:26], texts[26:])
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    events = [source.next_event(1.0) for _ in range(52)]
    assert all(isinstance(e, CardRead) for e in events)
    assert [e.index for e in events if isinstance(e, CardRead)] == list(range(1, 53))
    assert {str(e.card) for e in events if isinstance(e, CardRead)} == set(texts)


def test_factory_builds_manual_sources() -> None:
    source = open_source("manual://")
    assert isinstance(source, ManualSource) and source.name == "manual"
    named = open_source("manual://", name="keypad-2")
    assert named.name == "keypad-2"
    with pytest.raises(DeviceError, match="no path"):
        open_source("manual://x")
    with pytest.raises(ConfigError, match="pin"):
        open_source("manual://", pin_serial="X")
    with pytest.raises(ConfigError, match="hello_timeout"):
        open_source("manual://", hello_timeout=1.0)
