"""The table service's large-payout sign-offs through the floor: :class:`FloorSignoffs`, held
by :class:`ui.console.service.TableService` as ``floor``, owns the requests it offered.

With a floor (``floor.relay``, a :class:`~dealer_assist.storage.floor.signoff_relay.SignoffRelay`
whose own thread talks to the floor), after every step and at every tick (the worker's thread,
which owns the runner): each seat the walk waits on for a sign-off is offered to the floor as a
request (:func:`ui.console.signoff.request_for`); a confirmation given in the pit-boss
application is applied as the console's own sign-off (:func:`ui.console.signoff.sign_from_floor`,
``via: "pitboss"``: the same step, the same table record) and reported taken; a seat signed at
the console first, or a walk that ended, closes its request (cancelled on the floor; never sent
when it was never posted). The service never waits for the floor: the console's sign-off works
the same with the floor down, and the snapshot (the worker's Qt signal) carries the result.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig
from dealer_assist.pitboss.signoffs import SignoffKey, SignoffRequest
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.table.banked_runner import BankedRunner
from ui.console.signoff import request_for, sign_from_floor, waiting


class FloorSignoffs:
    """The walk's sign-off requests on the floor (see the module docstring).

    ``relay`` is None (no floor) until the console's start sets it.
    """

    def __init__(self) -> None:
        self.relay: SignoffRelay | None = None
        self._offered: dict[SignoffKey, SignoffRequest] = {}

    def stop(self) -> None:
        """Stop the relay's thread (the console closes)."""
        if self.relay is not None:
            self.relay.stop()

    def reconcile(self, config: TableConfig, runner: BankedRunner | None, hand_no: int) -> None:
        """Reconcile the walk of ``runner``'s hand at the table ``config`` (``hand_no``: the
        table's number of the hand) with the floor's requests (worker thread; see the module doc).

        Raises:
            JournalError: the sign-off step of a confirmation could not be written (nothing
                signed: the confirmation is taken again at the next tick).
        """
        relay = self.relay
        if relay is None:
            return
        relay.start()  # idempotent: its thread runs while the service is open
        offered = self._offered
        wanted: dict[SignoffKey, SignoffRequest] = {}
        if runner is not None and runner.hand is not None:
            for seat in waiting(config, runner):
                key = (config.table_id, runner.hand.hand_uid, seat)
                req = offered.get(key) or request_for(config, runner, seat, hand_no)
                if req is not None:
                    wanted[key] = req
        for row in relay.confirmations():
            if runner is not None and row.key in wanted and sign_from_floor(config, runner, row):
                relay.taken(row)
                del wanted[row.key]
                offered.pop(row.key, None)
        for key in [k for k in offered if k not in wanted]:
            offered.pop(key)
            marks = runner.payouts.current() if runner is not None else None
            same_walk = runner is not None and marks is not None and marks.hand_uid == key[1]
            signed = runner.payouts.signed(key[2]) if runner is not None and same_walk else None
            if signed is not None:
                relay.withdraw(key, signed.by, f"signed at the console by {signed.by}")
            else:
                relay.withdraw(key, None, "the payout walk ended without it")
        for key, req in wanted.items():
            if key not in offered:
                offered[key] = req
                relay.offer(req)
