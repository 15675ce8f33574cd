"""The banked table's large-payout sign-offs through the floor: what the walk waits on, as the
kit's :class:`~ui.kit.floor_relay.FloorRelay` (the table service's ``link.floor``) offers it.

Each seat the walk waits on for a sign-off is a request (:func:`ui.console.signoff.request_for`);
a confirmation given in the pit-boss application is applied as the console's own sign-off
(:func:`ui.console.signoff.sign_from_floor`, ``via: "pitboss"``: the same step, the same table
record); a seat signed at the console first is withdrawn in its signer's name, a walk that
ended without it as ended.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig
from dealer_assist.pitboss.signoffs import SignoffKey, SignoffRequest
from dealer_assist.table.banked_runner import BankedRunner
from ui.console.signoff import request_for, sign_from_floor, waiting
from ui.kit.floor_relay import FloorRelay


def floor_signoffs(
    floor: FloorRelay, config: TableConfig, runner: BankedRunner | None, hand_no: int
) -> None:
    """Reconcile the walk of ``runner``'s hand at the table ``config`` (``hand_no``: the
    table's number of the hand) with the floor's requests (worker thread).

    Raises:
        JournalError: the sign-off step of a confirmation could not be written (nothing
            signed: the confirmation is taken again at the next tick).
    """

    def wanted() -> dict[SignoffKey, SignoffRequest]:
        if runner is None or runner.hand is None:
            return {}
        uid = runner.hand.hand_uid
        requests = {}
        for seat in waiting(config, runner):
            req = request_for(config, runner, seat, hand_no)
            if req is not None:
                requests[(config.table_id, uid, seat)] = req
        return requests

    def signed_by(key: SignoffKey) -> str | None:
        marks = runner.payouts.current() if runner is not None else None
        if runner is None or marks is None or marks.hand_uid != key[1]:
            return None  # another walk's
        signed = runner.payouts.signed(key[2])
        return signed.by if signed is not None else None

    floor.reconcile(
        wanted,
        lambda row: runner is not None and sign_from_floor(config, runner, row),
        signed_by,
        "the payout walk ended without it",
    )
