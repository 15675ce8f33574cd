"""A large pot's sign-off at the poker console (issue 16 part 3; docs/console.md "Large-pot
sign-off"), Qt-free.

The runner stops the award of a pot above a ``[signoff]`` tier
(:mod:`dealer_assist.table.pot_signoff`: each pot as it is pushed, by its whole amount); the
snapshot says which (:class:`PotWait`); the dealer hands the console to a pit boss, who types
badge and PIN on the pad (:class:`SignoffPad`, the banked console's digit pad
:func:`ui.console.widgets.pin_pad.pin_pad` on screen); :func:`sign_pot` checks them with the same
check the banked console's payouts use (:func:`ui.console.signoff.signer_role`: the pit-boss
application's users and roles when the table has them, else the console's roster of pit bosses;
neither: nothing can be signed) and the tier's role (a shift manager also signs a pit boss's
tier). A wrong badge or PIN, or a role below the tier's, changes nothing; a right one is kept
durably (the runner's step) before the answer comes back to the screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.errors import HandStateError
from dealer_assist.pitboss.users import UserStore
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.table.pot_signoff import covers
from ui.console.pitboss import PitBossRoster
from ui.console.signoff import signer_role
from ui.console.snapshot import CommandError

PIN_MAX = 12
"""Digits a badge or a PIN may have on the pad."""


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
    runner: PeerRunner, roster: PitBossRoster | None, signers: UserStore | None, badge: str,
    pin: str,
) -> CommandError | None:  # fmt: skip
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


@dataclass
class SignoffPad:
    """The badge and PIN being typed for a pot's sign-off: ``field`` ``badge``, then ``pin``;
    the PIN stays here, the screen shows its length."""

    badge: str = ""
    pin: str = ""
    field: str = "badge"

    def key(self, key: str) -> tuple[str, str] | None:
        """A tap of the pad (a digit, ``back``, ``next``): ``(badge, pin)`` when ``next``
        ends the PIN (the pad is cleared then), else None."""
        if key == "back":
            if self.field == "pin":
                self.pin = self.pin[:-1]
            else:
                self.badge = self.badge[:-1]
        elif key == "next":
            if self.field == "badge" and self.badge:
                self.field = "pin"
            elif self.field == "pin" and self.pin:
                done = (self.badge, self.pin)
                self.clear()
                return done
        elif key.isdigit() and len(key) == 1:
            if self.field == "pin" and len(self.pin) < PIN_MAX:
                self.pin += key
            elif self.field == "badge" and len(self.badge) < PIN_MAX:
                self.badge += key
        return None

    def clear(self) -> None:
        """Back to an empty badge."""
        self.badge, self.pin, self.field = "", "", "badge"
