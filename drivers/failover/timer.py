"""When the failback's next attempt is due (:class:`RevivalTimer`).

Shared by the failback thread (:mod:`~drivers.failover.failback`), which waits for it, and by the
chain and its standby (:mod:`~drivers.failover.standby`), which restart it when a source was just
left or failed again, so that source gets some time before it is tried again.
"""

from __future__ import annotations

import time


class RevivalTimer:
    """When the next failback attempt is due; never when ``interval`` is None.

    Args:
        interval: seconds between attempts (finite, > 0), or None for no failback.
    """

    def __init__(self, interval: float | None) -> None:
        self.interval = interval
        self.due_at = 0.0  # time.monotonic() seconds

    def schedule(self) -> None:
        """The next attempt one interval from now (a no-op without failback)."""
        if self.interval is not None:
            self.due_at = time.monotonic() + self.interval
