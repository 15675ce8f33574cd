"""The card source as the console's service sees it: the real source, plus two hooks.

The table runner blocks while a deal waits for its cards (a manual deal: until the dealer has
typed every card). The service still has to tell the screen which position the keypad fills next
and to honour the dealer's "void hand" meanwhile. The runner calls :meth:`WatchedSource.deal`
right after it has recorded the deal (the hand's pending positions are set) and
:meth:`WatchedSource.next_event` between two events it handled, so those are the moments the
hooks run, on the runner's own (worker) thread.

The optional capabilities the runner looks for with ``isinstance``
(:mod:`dealer_assist.source`: ``link_status``, ``request_status``,
``recover_history``) are always present here and forwarded; for a source without them they answer
as the runner would without them (a link judged from LinkLost/LinkRestored, no STATUS, no
history).
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent, LinkLost, LinkRestored
from dealer_assist.source import CardSource, LinkStats, LinkStatus, SourceIdentity


class WatchedSource:
    """Forwards the :class:`~dealer_assist.source.CardSource` API to ``inner`` and runs hooks.

    Args:
        inner: the real card source (a FailoverSource, a TCRP/1 device, a ManualSource...).
        before_poll: called (worker thread) each time the runner asks for the next event; if it
            returns True the call returns None at once without reading the source (the hook
            changed the hand, e.g. voided it, and the runner must look again).
        after_deal: called with ``n`` after a DEAL for ``n`` cards was accepted.

    Errors are the inner source's.
    """

    def __init__(
        self,
        inner: CardSource,
        *,
        before_poll: Callable[[], bool] | None = None,
        after_deal: Callable[[int], None] | None = None,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.before_poll = before_poll
        self.after_deal = after_deal
        self._lost = False
        self._lost_reason = ""

    @property
    def identity(self) -> SourceIdentity | None:
        """The inner source's identity."""
        return self.inner.identity

    @property
    def stats(self) -> LinkStats:
        """The inner source's counters."""
        return self.inner.stats

    @property
    def link_status(self) -> LinkStatus:
        """The inner source's link status, or one judged from its LinkLost/LinkRestored."""
        status = getattr(self.inner, "link_status", None)
        if isinstance(status, LinkStatus):
            return status
        if self._lost:
            return LinkStatus("lost", last_error=self._lost_reason)
        return LinkStatus("connected")

    def open(self) -> None:
        """Open the inner source (its DeviceError passes through)."""
        self.inner.open()

    def close(self) -> None:
        """Close the inner source; safe to call twice."""
        self.inner.close()

    def shuffle(self) -> None:
        """Forwarded."""
        self.inner.shuffle()

    def deal(self, n: int) -> None:
        """Forwarded; then the ``after_deal`` hook."""
        self.inner.deal(n)
        if self.after_deal is not None:
            self.after_deal(n)

    def request_status(self) -> None:
        """The inner source's STATUS request. Raises DeviceError when it has none."""
        ask = getattr(self.inner, "request_status", None)
        if ask is None:
            raise DeviceError(f"{self.name} cannot report its state")
        ask()

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        """The inner source's history, [] when it keeps none."""
        recover = getattr(self.inner, "recover_history", None)
        if recover is None:
            return []
        history: list[DeviceEvent] = recover(timeout)
        return history

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The ``before_poll`` hook, then the inner source's next event."""
        if self.before_poll is not None and self.before_poll():
            return None
        event = self.inner.next_event(timeout)
        if isinstance(event, LinkLost):
            self._lost, self._lost_reason = True, event.reason
        elif isinstance(event, LinkRestored):
            self._lost = False
        return event
