"""The poker table's large-pot sign-offs through the floor: :class:`PotSignoffs`, held by
:class:`ui.poker.service.PokerService` as ``pots``, says what the kit's
:class:`~ui.kit.floor_relay.FloorRelay` (the service's ``link.floor``) offers, and remembers who
signed which pot at the console.

The pot the award holds now (the next one, after an award) is the request
(:func:`ui.poker.signoff.pot_request_for`: seat ``POT_SEAT + pot``,
:mod:`dealer_assist.pitboss.signoffs`); a confirmation given in the pit-boss application is
applied as the console's own sign-off (:func:`ui.poker.signoff.sign_pot_from_floor`,
``via: "pitboss"``: the same step, the same ``pot_signoff`` table record); a pot signed at the
console first is withdrawn in its signer's name, a hand that went on without it (voided) as
ended.
"""

from __future__ import annotations

from dealer_assist.pitboss.signoffs import POT_SEAT, SignoffKey, SignoffRequest
from dealer_assist.pitboss.users import UserStore
from dealer_assist.table.peer_runner import PeerRunner
from ui.kit.floor_relay import FloorRelay
from ui.kit.pitboss import PitBossRoster
from ui.kit.status import CommandError
from ui.poker.signoff import pot_request_for, sign_pot, sign_pot_from_floor


class PotSignoffs:
    """The held pots as floor requests, and who signed them at the console (see the module
    docstring).

    Args:
        table_id: the table the requests name.
    """

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self._console: dict[SignoffKey, str] = {}  # pots signed at the console: by whom

    def reconcile(self, floor: FloorRelay, runner: PeerRunner | None, hand_no: int) -> None:
        """Reconcile the pot ``runner``'s hand holds (``hand_no``: the table's number of the
        hand) with ``floor``'s requests (worker thread; see the module docstring).

        Raises:
            JournalError: the sign-off step of a confirmation could not be written (nothing
                signed: the confirmation is taken again at the next tick).
        """

        def wanted() -> dict[SignoffKey, SignoffRequest]:
            req = pot_request_for(self.table_id, runner, hand_no)
            return {req.key: req} if req is not None else {}

        floor.reconcile(
            wanted,
            lambda row: runner is not None and sign_pot_from_floor(runner, row),
            lambda key: self._signed(runner, key),
            "the hand went on without it",
        )

    def sign_here(
        self,
        runner: PeerRunner | None,
        roster: PitBossRoster | None,
        signers: UserStore | None,
        badge: str,
        pin: str,
    ) -> CommandError | None:
        """The console's sign-off of the pot ``runner``'s hand waits on
        (:func:`ui.poker.signoff.sign_pot`), remembering who signed which pot: a settled
        hand's sign-offs leave the runner's log once journaled, and the floor's request is
        cancelled in the signer's name.

        Raises:
            JournalError: the sign-off cannot be kept (nothing changes).
        """
        if runner is None:
            return CommandError("state", "not connected")
        before = pot_request_for(self.table_id, runner, 0)
        refused = sign_pot(runner, roster, signers, badge, pin)
        if refused is None and before is not None:
            self._console[before.key] = badge
        return refused

    def _signed(self, runner: PeerRunner | None, key: SignoffKey) -> str | None:
        """Who signed the pot of ``key`` at the table (None: not signed, or another hand's)."""
        so = runner.pot_signoffs.signed(key[1], key[2] - POT_SEAT) if runner is not None else None
        if so is not None:
            return so.by
        return self._console.pop(key, None)
