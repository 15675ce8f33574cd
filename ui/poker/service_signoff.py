"""The poker table's large-pot sign-offs through the floor: a mixin of
:class:`ui.poker.service.PokerService`, kept apart so that module stays small; the banked
console's :mod:`ui.console.service_signoff` is the model.

With a floor (``signoff_relay``, a :class:`~dealer_assist.storage.floor.signoff_relay.SignoffRelay`
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

from dealer_assist.config import TableConfig
from dealer_assist.pitboss.signoffs import POT_SEAT, SignoffKey, SignoffRequest
from dealer_assist.pitboss.users import UserStore
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.table.peer_runner import PeerRunner
from ui.kit.pitboss import PitBossRoster
from ui.kit.status import CommandError
from ui.poker.seating import Seating
from ui.poker.signoff import pot_request_for, sign_pot, sign_pot_from_floor


class PokerFloorSignoffSteps:
    """Floor sign-offs of :class:`~ui.poker.service.PokerService` (see the module docstring)."""

    config: TableConfig
    runner: PeerRunner | None
    seating: Seating | None
    signoff_relay: SignoffRelay | None = None  # this table has a floor (started at a step)
    _pot_offered: dict[SignoffKey, SignoffRequest] | None = None
    _pot_console: dict[SignoffKey, str] | None = None  # pots signed at the console: by whom

    def _pot_hand_no(self) -> int:
        """The hand's number as the console shows it (the session's count, the open hand)."""
        session = self.seating.session if self.seating is not None else None
        hand = self.runner.hand if self.runner is not None else None
        hands = session.hands if session is not None else 0
        return hands + 1 if hand is not None and not hand.is_over else hands

    def _relay_pot_signoffs(self) -> None:
        """Reconcile the held pot with the floor's requests (worker thread; see the module doc).

        Raises:
            JournalError: the sign-off step of a confirmation could not be written (nothing
                signed: the confirmation is taken again at the next tick).
        """
        relay = self.signoff_relay
        if relay is None:
            return
        relay.start()  # idempotent: its thread runs while the service is open
        if self._pot_offered is None:
            self._pot_offered = {}
        offered, runner = self._pot_offered, self.runner
        for row in relay.confirmations():
            if runner is not None and row.key in offered and sign_pot_from_floor(runner, row):
                relay.taken(row)
                offered.pop(row.key, None)
        wanted: dict[SignoffKey, SignoffRequest] = {}
        req = pot_request_for(self.config.table_id, runner, self._pot_hand_no())
        if req is not None:
            wanted[req.key] = offered.get(req.key) or req
        for key in [k for k in offered if k not in wanted]:
            offered.pop(key)
            signed = self._pot_signed(key)
            if signed is not None:
                relay.withdraw(key, signed, f"signed at the console by {signed}")
            else:
                relay.withdraw(key, None, "the hand went on without it")
        for key, request in wanted.items():
            if key not in offered:
                offered[key] = request
                relay.offer(request)

    def _sign_pot_here(
        self, roster: PitBossRoster | None, signers: UserStore | None, badge: str, pin: str
    ) -> CommandError | None:
        """The console's ``signoff`` step (:func:`ui.poker.signoff.sign_pot`), remembering who
        signed which pot: a settled hand's sign-offs leave the runner's log once journaled,
        and the floor's request is cancelled in the signer's name."""
        runner = self.runner
        if runner is None:
            return CommandError("state", "not connected")
        before = pot_request_for(self.config.table_id, runner, 0)
        refused = sign_pot(runner, roster, signers, badge, pin)
        if refused is None and before is not None:
            if self._pot_console is None:
                self._pot_console = {}
            self._pot_console[before.key] = badge
        return refused

    def _pot_signed(self, key: SignoffKey) -> str | None:
        """Who signed the pot of ``key`` at the table (None: not signed, or another hand's)."""
        runner = self.runner
        so = runner.pot_signoffs.signed(key[1], key[2] - POT_SEAT) if runner is not None else None
        if so is not None:
            return so.by
        return (self._pot_console or {}).pop(key, None)
