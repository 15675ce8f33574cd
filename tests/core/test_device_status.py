"""Readiness after a failover: the new source starts afresh."""

from __future__ import annotations

from dealer_assist.events import (
    DeviceFault,
    DeviceStateChanged,
    IdentityChanged,
    LinkLost,
    SourceSwitched,
)
from dealer_assist.table.device_status import SECOND_READER, ReadinessTracker


def test_switch_clears_the_left_sources_alarm_fault_and_state() -> None:
    tracker = ReadinessTracker()
    for event in (
        DeviceStateChanged(state="DEALING"),
        DeviceFault(code="JAM"),
        IdentityChanged(expected="EMU-0001", got="EMU-9999"),
        LinkLost(reason="transport"),
    ):
        tracker.update(event)
    assert tracker.why_not_ready() != ""
    tracker.update(SourceSwitched(from_source="serial", to_source="usb", reason="link lost"))
    assert tracker.why_not_ready() == ""
    assert (tracker.state, tracker.faults, tracker.identity_alarm) == ("", [], False)
    assert SourceSwitched(from_source="a", to_source="b", reason="r").kind == "source_switched"


def test_a_lost_link_after_missing_frames_is_not_ready_and_says_second_reader() -> None:
    tracker = ReadinessTracker()
    assert tracker.ready
    tracker.second_reader = True  # frames went missing earlier on this link
    assert tracker.ready
    tracker.update(LinkLost(reason="transport"))
    assert not tracker.ready
    assert SECOND_READER in tracker.why_not_ready()
    assert tracker.status(None).ready is False
