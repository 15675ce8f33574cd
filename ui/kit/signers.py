"""Who signs a large payout or pot at the table (both consoles): the pit-boss application's
users store when the table has one (a user's role), else the console's roster (its badges are
pit bosses). A wrong badge or PIN is a refusal, never an exception."""

from __future__ import annotations

from dealer_assist.config import SIGNOFF_ROLES
from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.pitboss.users import UserStore, login
from ui.kit.pitboss import PitBossRoster, check_badge
from ui.kit.status import CommandError


def signer_role(
    roster: PitBossRoster | None, signers: UserStore | None, badge: str, pin: str
) -> str | CommandError:
    """The role of ``badge`` when ``pin`` is theirs, else the refusal (``pit_boss``)."""
    try:
        check_badge(badge)
    except ConfigError as e:
        return CommandError("pit_boss", str(e))
    if signers is not None:
        try:
            return login(signers, badge, pin).role.value
        except DealerAssistError:
            return CommandError("pit_boss", "unknown badge or wrong PIN")
    if roster is None or not roster.badges:
        return CommandError("signoff_no_store", "no PIN store: a large payout cannot be signed")
    if not roster.verify(badge, pin):
        return CommandError("pit_boss", "unknown badge or wrong PIN")
    return "pit_boss"


def ranks(who: str, role: str) -> bool:
    """True when role ``who`` may sign what needs ``role`` (a shift manager signs a pit boss's)."""
    return who in SIGNOFF_ROLES and SIGNOFF_ROLES.index(who) >= SIGNOFF_ROLES.index(role)
