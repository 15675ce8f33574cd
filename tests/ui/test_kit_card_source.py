"""The consoles' card source alone (:class:`ui.kit.card_source.TableSource`): opened once and
kept for a retry, the keypad's cards only into the keypad, the runner's timeouts for the source
in use, the switch notices numbered."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import CardError, DeviceError
from dealer_assist.events import SourceSwitched
from drivers.manual import ManualSource
from ui.kit.card_source import TableSource, Timeouts, timeouts
from ui.kit.sources import MANUAL_SHUFFLE_TIMEOUT


def test_source_is_built_once_and_closed_twice_safely() -> None:
    built: list[ManualSource] = []

    def make() -> ManualSource:
        built.append(ManualSource())
        return built[-1]

    slot = TableSource(make)
    assert slot.active is None and slot.kind == ""
    first = slot.open()
    assert slot.open() is first and len(built) == 1  # a retry opens the same source
    assert slot.kind == "manual" and slot.active is first
    slot.close()
    slot.close()
    assert slot.source is None


def test_keypad_cards_go_to_the_keypad_only_once_each() -> None:
    slot = TableSource(ManualSource)
    with pytest.raises(DeviceError):
        slot.enter(parse_card("As"))  # nothing open: no keypad in use
    slot.open()
    slot.enter(parse_card("As"))
    with pytest.raises(CardError):
        slot.enter(parse_card("As"))


def test_runner_timeouts_follow_the_source_in_use() -> None:
    slot = TableSource(ManualSource, Timeouts(card=5.0, shuffle=15.0, slow_card=90.0))
    runner: Any = SimpleNamespace(card_timeout=0.0, shuffle_timeout=0.0)
    slot.prepare(None)  # no runner yet: nothing to do
    slot.open()
    slot.prepare(runner)
    assert (runner.card_timeout, runner.shuffle_timeout) == (90.0, MANUAL_SHUFFLE_TIMEOUT)
    assert timeouts("device", 5.0, 90.0, 15.0) == (5.0, 15.0)
    assert timeouts("camera", 5.0, 90.0, 15.0) == (90.0, 15.0)


def test_switch_notices_are_numbered() -> None:
    slot = TableSource(ManualSource)
    event = SourceSwitched(from_source="shuffler", to_source="manual", reason="link lost")
    assert slot.switched(event).number == 1
    assert slot.switched(event).number == 2 and slot.notice is not None
