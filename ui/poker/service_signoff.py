"""The poker table's large-pot sign-offs through the floor: :class:`PotSignoffs`, held by
:class:`ui.poker.service.PokerService` as ``pots``, owns the requests it offered and who signed
which pot at the console.

With a floor (``relay``, a :class:`~dealer_assist.storage.floor.signoff_relay.SignoffRelay`
whose own thread talks to the floor), after every step and at every tick (the worker's thread,
which owns the runner): a confirmation given in the pit-boss application for the pot the award
waits on is applied as the console's own sign-off (:func:`ui.poker.signoff.sign_pot_from_floor`,
``via: "pitboss"``: the same step, the same ``pot_signoff`` table record) and reported taken;
then the pot held now (the next one, after an award) is offered to the floor as a request
(:func:`ui.poker.signoff.pot_request_for`: seat ``POT_SEAT + pot``,
:mod:`dealer_assist.pitboss.signoffs`); a pot signed at the console first, or a hand that went
on without it (voided), closes its request (cancelled on the floor; never sent when it was never
posted). The service never waits for the floor: the console's sign-off works the same with the
floor down.
"""

from __future__ import annotations

from dealer_assist.pitboss.signoffs import POT_SEAT, SignoffKey, SignoffRequest
from dealer_assist.pitboss.users import UserStore
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.table.peer_runner import PeerRunner
from ui.kit.pitboss import PitBossRoster
from ui.kit.status import CommandError
from ui.poker.signoff import pot_request_for, sign_pot, sign_pot_from_floor


class PotSignoffs:
    """The held pots' requests on the floor (see the module docstring).

    Args:
        table_id: the table the requests name.

    ``relay`` is None (no floor) until the console's start sets it.
    """

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.relay: SignoffRelay | None = None
        self._offered: dict[SignoffKey, SignoffRequest] = {}
        self._console: dict[SignoffKey, str] = {}  # pots signed at the console: by whom

    def stop(self) -> None:
        """Stop the relay's thread (the console closes)."""
        if self.relay is not None:
            self.relay.stop()

    def reconcile(self, runner: PeerRunner | None, hand_no: int) -> None:
        """Reconcile the pot ``runner``'s hand holds (``hand_no``: the table's number of the
        hand) with the floor's requests (worker thread; see the module docstring).

        Raises:
            JournalError: the sign-off step of a confirmation could not be written (nothing
                signed: the confirmation is taken again at the next tick).
        """
        relay = self.relay
        if relay is None:
            return
        relay.start()  # idempotent: its thread runs while the service is open
        offered = self._offered
        for row in relay.confirmations():
            if runner is not None and row.key in offered and sign_pot_from_floor(runner, row):
                relay.taken(row)
                offered.pop(row.key, None)
        wanted: dict[SignoffKey, SignoffRequest] = {}
        req = pot_request_for(self.table_id, runner, hand_no)
        if req is not None:
            wanted[req.key] = offered.get(req.key) or req
        for key in [k for k in offered if k not in wanted]:
            offered.pop(key)
            signed = self._signed(runner, key)
            if signed is not None:
                relay.withdraw(key, signed, f"signed at the console by {signed}")
            else:
                relay.withdraw(key, None, "the hand went on without it")
        for key, request in wanted.items():
            if key not in offered:
                offered[key] = request
                relay.offer(request)

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
