"""A large pot's sign-off at the poker console (docs/console.md "Large-pot
sign-off"), Qt-free.

The runner stops the award of a pot above a ``[signoff]`` tier
(:mod:`dealer_assist.table.pot_signoff`: each pot as it is pushed, by its whole amount); the
snapshot says which (:class:`PotWait`); the dealer hands the console to a pit boss, who types
badge and PIN on the pad (the kit's :class:`~ui.kit.pin_entry.PinPad`, the digit pad
:func:`ui.kit.pin_pad.pin_pad` on screen); :func:`sign_pot` checks them with the same
check the banked console's payouts use (:func:`ui.kit.signers.signer_role`: the pit-boss
application's users and roles when the table has them, else the console's roster of pit bosses;
neither: nothing can be signed) and the tier's role (a shift manager also signs a pit boss's
tier). A wrong badge or PIN, or a role below the tier's, changes nothing; a right one is kept
durably (the runner's step) before the answer comes back to the screen.

From the pit-boss application (a table with a ``[floor]``): the held pot is posted to the floor
as a request (:func:`pot_request_for`, relayed by :mod:`ui.poker.service_signoff`); a
confirmation given there is the same step and the same ``pot_signoff`` table record
(:func:`sign_pot_from_floor`: ``via`` ``pitboss``, the application user's badge). Whichever
comes first wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.errors import HandStateError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.signoffs import SignoffRequest, SignoffRow, pot_request
from dealer_assist.pitboss.users import UserStore
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.table.pot_signoff import covers
from ui.kit.pitboss import PitBossRoster
from ui.kit.signers import signer_role
from ui.kit.status import CommandError


@dataclass(frozen=True)
class PotWait:
    """The pot whose award waits for a sign-off: ``pot`` (0 the main pot, 1.. side pots),
    ``amount`` (minor units), ``winners`` ``(seat, share)``, ``role`` that must sign it."""

    pot: int
    amount: int
    winners: tuple[tuple[int, int], ...]
    role: str


def pot_wait(runner: PeerRunner | None) -> PotWait | None:
    """What the runner's hand waits on (None: no pot waits)."""
    held = runner.held_pot if runner is not None else None
    if held is None:
        return None
    award, role = held
    return PotWait(award.pot, award.amount, tuple(sorted(award.shares.items())), role)


def sign_pot(
    runner: PeerRunner,
    roster: PitBossRoster | None,
    signers: UserStore | None,
    badge: str,
    pin: str,
) -> CommandError | None:
    """Sign off the pot the hand waits on with ``badge`` and ``pin``; the refusal otherwise,
    nothing changed: ``pit_boss`` (unknown badge or wrong PIN), ``signoff_role`` (a role
    below the tier's), ``signoff_no_store`` (no PIN store at the table), ``state`` (no pot
    waits).

    Raises:
        JournalError: the sign-off cannot be kept (nothing changes; the screen says the fault).
    """
    held = runner.held_pot
    if held is None:
        return CommandError("state", "no pot waits for a sign-off")
    need = held[1]
    who = signer_role(roster, signers, badge, pin)
    if isinstance(who, CommandError):
        return who
    if not covers(who, need):
        return CommandError("signoff_role", f"a {need} must sign this pot off", (need,))
    try:
        runner.sign_pot(badge, who)
    except HandStateError as e:  # the hand moved on meanwhile (voided)
        return CommandError("state", str(e))
    return None


def pot_request_for(
    table_id: str, runner: PeerRunner | None, hand_no: int
) -> SignoffRequest | None:
    """The floor request for the pot the runner's hand waits on (``hand_no``: the table's hand
    number, shown in the application), else None."""
    held = runner.held_pot if runner is not None else None
    hand = runner.hand if runner is not None else None
    if held is None or hand is None:
        return None
    award, role = held
    cards = {s: tuple(str(c) for c in hand.holes[s]) for s in sorted(award.shares)}
    return pot_request(
        table_id,
        hand.hand_uid,
        hand_no,
        award.pot,
        award.amount,
        cards,
        tuple(str(c) for c in hand.board),
        role,
        utc_now(),
    )


def sign_pot_from_floor(runner: PeerRunner, row: SignoffRow) -> bool:
    """Sign off the pot of ``row`` as confirmed in the pit-boss application (durable on
    return): the console's step, ``via`` ``pitboss``, by the application user's badge at the
    confirmation's time. False, nothing written, when the hand no longer waits on that pot
    (signed at the console first, another hand) or the confirmer's role is below the tier's.

    Raises:
        JournalError: the sign-off cannot be kept (nothing changes; taken again next time).
    """
    held, hand, req = runner.held_pot, runner.hand, row.request
    if held is None or hand is None or hand.hand_uid != req.hand_uid:
        return False
    award, need = held
    by, at, who = row.confirmed_by, row.confirmed_at, row.confirmed_role or ""
    if award.pot != req.pot or by is None or at is None or not covers(who, need):
        return False
    try:
        runner.sign_pot(by, who, at=at, via="pitboss")
    except HandStateError:  # the hand moved on meanwhile (voided)
        return False
    return True
