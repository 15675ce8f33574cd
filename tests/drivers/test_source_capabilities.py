"""The optional capabilities of a card source (dealer_assist.source) and ForwardingSource, the
base of wrapping sources: forwarded when the inner source has them, safe defaults when not."""

from __future__ import annotations

import pytest

from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent, DeviceStateChanged, LinkLost, LinkRestored
from dealer_assist.source import (
    ForwardingSource,
    HistorySource,
    LinkAware,
    LinkStats,
    LinkStatus,
    Readiness,
    SourceIdentity,
    StatusRequester,
)
from drivers.manual import ManualSource


class Scripted:
    """A bare CardSource (no optional capability) that returns scripted events."""

    def __init__(self, events: list[DeviceEvent]) -> None:
        self.name = "scripted"
        self.events = list(events)
        self.calls: list[str] = []

    @property
    def identity(self) -> SourceIdentity | None:
        return SourceIdentity("M", "1.0", "S-1")

    @property
    def stats(self) -> LinkStats:
        return LinkStats(frames_received=7)

    def open(self) -> None:
        self.calls.append("open")

    def close(self) -> None:
        self.calls.append("close")

    def shuffle(self) -> None:
        self.calls.append("shuffle")

    def deal(self, n: int) -> None:
        self.calls.append(f"deal {n}")

    def next_event(self, timeout: float) -> DeviceEvent | None:
        return self.events.pop(0) if self.events else None


class Capable(Scripted):
    """A CardSource with every optional capability."""

    @property
    def link_status(self) -> LinkStatus:
        return LinkStatus("reconnecting", attempts=2, next_attempt_in=1.5, last_error="EIO")

    def request_status(self) -> None:
        self.calls.append("status")

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        return [DeviceStateChanged(source=self.name, state="IDLE")]


def test_capabilities_are_checked_with_isinstance() -> None:
    bare, capable = Scripted([]), Capable([])
    for protocol in (LinkAware, StatusRequester, HistorySource):
        assert not isinstance(bare, protocol)
        assert isinstance(capable, protocol)
        assert isinstance(ForwardingSource(bare), protocol)  # a wrapper always has them
    assert not isinstance(ManualSource(), StatusRequester)


def test_forwarding_source_forwards_the_card_source_api() -> None:
    inner = Scripted([DeviceStateChanged(source="scripted", state="READY")])
    wrapper = ForwardingSource(inner)
    assert wrapper.name == "scripted"
    assert wrapper.identity == SourceIdentity("M", "1.0", "S-1")
    assert wrapper.stats.frames_received == 7
    wrapper.open()
    wrapper.shuffle()
    wrapper.deal(3)
    wrapper.close()
    assert inner.calls == ["open", "shuffle", "deal 3", "close"]
    event = wrapper.next_event(0)
    assert isinstance(event, DeviceStateChanged) and event.state == "READY"
    assert wrapper.next_event(0) is None


def test_forwarding_defaults_when_the_inner_source_lacks_a_capability() -> None:
    inner = Scripted(
        [LinkLost(source="scripted", reason="silent 3 s"), LinkRestored(source="scripted")]
    )
    wrapper = ForwardingSource(inner)
    assert wrapper.link_status == LinkStatus("connected")
    wrapper.next_event(0)
    assert wrapper.link_status == LinkStatus("lost", last_error="silent 3 s")
    wrapper.next_event(0)
    assert wrapper.link_status == LinkStatus("connected")
    with pytest.raises(DeviceError, match=r"^scripted cannot report its state$"):
        wrapper.request_status()
    assert wrapper.recover_history(0.1) == []


def test_forwarding_uses_the_inner_capabilities() -> None:
    inner = Capable([LinkLost(source="scripted", reason="x")])
    wrapper = ForwardingSource(inner)
    wrapper.next_event(0)
    assert wrapper.link_status == inner.link_status  # the driver's own, not judged from events
    wrapper.request_status()
    assert inner.calls == ["status"]
    assert [e.kind for e in wrapper.recover_history(0.1)] == ["state"]


def test_a_subclass_overrides_and_calls_super() -> None:
    class Counting(ForwardingSource):
        def __init__(self, inner: Scripted) -> None:
            super().__init__(inner)
            self.dealt = 0

        def deal(self, n: int) -> None:
            super().deal(n)
            self.dealt += n

    inner = Scripted([])
    wrapper = Counting(inner)
    wrapper.deal(2)
    wrapper.deal(3)
    assert (wrapper.dealt, inner.calls) == (5, ["deal 2", "deal 3"])


def test_readiness_follows_the_events() -> None:
    readiness = Readiness()
    assert readiness.ready
    readiness.update(DeviceStateChanged(source="s", state="DOOR_OPEN"))
    assert readiness.why_not_ready() == "device state DOOR_OPEN"
    readiness.update(DeviceStateChanged(source="s", state="READY"))
    readiness.update(LinkLost(source="s", reason="r"))
    assert (readiness.ready, readiness.why_not_ready()) == (False, "link lost")
