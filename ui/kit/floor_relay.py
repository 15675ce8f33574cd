"""A table's sign-offs through the floor, for both consoles: :class:`FloorRelay` owns the
requests a console offered to the pit-boss application and keeps them in step with what the
hand waits on.

With a floor (``relay``, a :class:`~dealer_assist.storage.floor.signoff_relay.SignoffRelay`
whose own thread talks to the floor), after every step and at every tick (the worker's thread,
which owns the runner), :meth:`FloorRelay.reconcile`: a confirmation given in the application
for something the table waits on is applied as the console's own sign-off (the family's
``apply``: the same step, ``via: "pitboss"``) and reported taken; then each request the hand
waits on now is offered (once); a request no longer wanted is withdrawn, in the name of who
signed it at the console, or as ended when nobody did (cancelled on the floor; never sent when
it was never posted). What is waited on, how a confirmation applies and who signed are the
family's (:mod:`ui.console.service_signoff`: a large payout's seat in the walk;
:mod:`ui.poker.service_signoff`: the pot the award holds). The service never waits for the floor:
the console's sign-off works the same with the floor down. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dealer_assist.pitboss.signoffs import SignoffKey, SignoffRequest, SignoffRow
from dealer_assist.storage.floor.signoff_relay import SignoffRelay

Wanted = Callable[[], Mapping[SignoffKey, SignoffRequest]]
"""The requests the hand waits on now, by key."""


class FloorRelay:
    """The requests a table offered to the floor (see the module docstring).

    ``relay`` is None (no floor) until the console's start sets it.
    """

    def __init__(self) -> None:
        self.relay: SignoffRelay | None = None
        self._offered: dict[SignoffKey, SignoffRequest] = {}

    def stop(self) -> None:
        """Stop the relay's thread (the console closes)."""
        if self.relay is not None:
            self.relay.stop()

    def reconcile(
        self,
        wanted: Wanted,
        apply: Callable[[SignoffRow], bool],
        signed_by: Callable[[SignoffKey], str | None],
        ended: str,
    ) -> None:
        """Apply the floor's confirmations, then offer what ``wanted()`` holds and withdraw
        what it no longer does (worker thread; see the module docstring).

        Args:
            wanted: the requests the hand waits on now (asked before the confirmations, and
                again after one applied: an award may hold the next pot).
            apply: signs off as the floor's ``row`` confirms (durable on return); False,
                nothing written, when the table no longer waits on it.
            signed_by: who signed the request of a key at the console (None: nobody did).
            ended: the floor's reason for a request withdrawn that nobody signed.

        Raises:
            JournalError: the sign-off step of a confirmation could not be written (nothing
                signed: the confirmation is taken again at the next tick).
        """
        relay = self.relay
        if relay is None:
            return
        relay.start()  # idempotent: its thread runs while the service is open
        offered = self._offered
        now = wanted()
        signed = False
        for row in relay.confirmations():
            if (row.key in offered or row.key in now) and apply(row):
                relay.taken(row)
                offered.pop(row.key, None)
                signed = True
        if signed:
            now = wanted()
        for key in [k for k in offered if k not in now]:
            offered.pop(key)
            by = signed_by(key)
            if by is not None:
                relay.withdraw(key, by, f"signed at the console by {by}")
            else:
                relay.withdraw(key, None, ended)
        for key, request in now.items():
            if key not in offered:
                offered[key] = request
                relay.offer(request)
