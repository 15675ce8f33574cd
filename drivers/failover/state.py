"""What the parts of a :class:`~drivers.failover.chain.FailoverSource` share.

:class:`ChainState` is the base of the failover's parts (:mod:`~drivers.failover.standby`,
:mod:`~drivers.failover.failback`, :mod:`~drivers.failover.chain`): the chain and the settings
checked and stored by the constructor, the lock, the notices queued for the caller, which source
is in use and what failed, the standby and the failback thread's state; and the failback's
timer, which every part restarts.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Sequence

from dealer_assist.errors import ConfigError
from dealer_assist.events import DeviceEvent, SourceSwitched
from dealer_assist.source import CardSource, Readiness
from drivers.manual import ManualSource


class ChainState:
    """The state of one failover chain; nothing is opened here.

    Args and errors: as :class:`~drivers.failover.chain.FailoverSource`.
    """

    def __init__(
        self,
        sources: Sequence[CardSource],
        *,
        name: str = "failover",
        switch_after: float = 5.0,
        retry_interval: float = 5.0,
        failback_interval: float | None = 5.0,
    ) -> None:
        if not sources:
            raise ConfigError("a failover needs at least one card source")
        if len({id(s) for s in sources}) != len(sources):
            raise ConfigError("a card source appears twice in the failover chain")
        if not 0 <= switch_after < 3600 or not 0 < retry_interval < 3600:
            raise ConfigError("switch_after and retry_interval must be finite seconds")
        if failback_interval is not None and not 0 < failback_interval < 3600:
            raise ConfigError(
                f"failback_interval must be finite seconds > 0 or None, got {failback_interval!r}"
            )
        self.name = name
        self._sources = tuple(sources)
        self._manual = next((s for s in sources if isinstance(s, ManualSource)), None)
        self._switch_after = switch_after
        self._retry_interval = retry_interval
        self._lock = threading.RLock()
        self._notices: deque[DeviceEvent] = deque()
        self._history: list[SourceSwitched] = []
        self._open = False
        self._active: int | None = None
        self._lost_since: float | None = None
        self._lost_reason = ""
        self._failure: str | None = None
        self._last_failed = ""
        self._retry_at = 0.0
        # failback: the reviver thread reopens sources above the active one (see _revive_once)
        self._failback_interval = failback_interval
        self._standby: int | None = None  # reopened, waiting for the next hand
        self._standby_health = Readiness()
        self._reviving: int | None = None  # being opened by the reviver right now
        self._revive_at = 0.0
        self._reviver: threading.Thread | None = None
        self._reviver_stop = threading.Event()

    def _schedule_revival(self) -> None:
        if self._failback_interval is not None:
            self._revive_at = time.monotonic() + self._failback_interval
