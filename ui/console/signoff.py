"""Large payouts signed off at the table: the table's ``[signoff]`` tiers
(:class:`~dealer_assist.config.SignoffTier`) stop the payout walk on a seat whose net win is
above a tier until someone of the tier's role confirms with badge and PIN.

Who may sign: with the pit-boss application's users store (``signers``, a
:class:`~dealer_assist.pitboss.users.UserStore`) the user's role, a shift manager also for a
pit boss's tier; else the console's roster (:class:`~ui.kit.pitboss.PitBossRoster`): its
badges are pit bosses, so a shift manager's tier needs the users store. Without either nothing
can be signed off (a PIN is required: the badge alone never pays a large payout). A wrong badge
or PIN changes nothing.

What is kept: the sign-off is a step of the payout walk's log (``<table>#payout``,
:class:`~dealer_assist.table.payouts.SignOff`), durable before the screen says so, so a
``kill -9`` shows it again; when the walk ends (the next hand opens) each is journaled as a table
record of kind ``payout_signoff`` (who, when, amount, seat, hand, cards as read), in the hash
chain the pit-boss application searches; its uid ``<table>-signoff-<hand>-<seat>`` makes a
retry after a crash store it once.

From the pit-boss application (a table with a floor): the walk's waiting seats are posted to the
floor as requests (:func:`request_for`, relayed by :mod:`ui.console.service_signoff`); a
confirmation given there is the same step and the same table record (:func:`sign_from_floor`,
``via: "pitboss"`` and the application user's badge). Whichever comes first wins.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig, signoff_role
from dealer_assist.engine.views import BankedView, Phase
from dealer_assist.events import utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.pitboss.signoffs import SignoffRequest, SignoffRow
from dealer_assist.pitboss.users import UserStore
from dealer_assist.ports import JournalPort
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.payouts import SIGNOFF_KIND, SignOff
from dealer_assist.table.records import journal_table_record
from ui.kit.pitboss import PitBossRoster
from ui.kit.signers import ranks, signer_role
from ui.kit.status import CommandError


def needed(config: TableConfig, view: BankedView | None, seat: int) -> tuple[str, int] | None:
    """``(role, amount)`` when ``seat``'s payout in the settled hand of ``view`` needs a
    sign-off (its net win in minor units above a tier), else None."""
    if view is None or view.phase != Phase.SETTLED or view.settlement is None:
        return None
    for s in view.settlement.seats:
        if s.seat == seat:
            role = signoff_role(config.signoff, s.net)
            return (role, s.net) if role is not None else None
    return None


def waiting(config: TableConfig, runner: BankedRunner | None) -> tuple[int, ...]:
    """The seats of the walk in progress whose payout waits for a sign-off."""
    view = _view(runner) if runner is not None else None
    if runner is None or view is None or runner.payouts.current() is None:
        return ()
    seats = [s.seat for s in reversed(view.seats)]  # from the highest seat down
    return tuple(s for s in seats if needed(config, view, s) and runner.payouts.signed(s) is None)


def refuse_unsigned(config: TableConfig, runner: BankedRunner, seat: int) -> CommandError | None:
    """The refusal to mark ``seat`` paid while its sign-off is missing, else None."""
    need = needed(config, _view(runner), seat)
    if need is None or runner.payouts.signed(seat) is not None:
        return None
    role, amount = need
    return CommandError(
        "signoff_required",
        f"seat {seat}: a payout of {amount} needs a {role}'s badge and PIN",
        (str(seat), role),
    )


def sign(
    config: TableConfig,
    runner: BankedRunner,
    roster: PitBossRoster | None,
    signers: UserStore | None,
    seat: int,
    badge: str,
    pin: str,
) -> CommandError | None:
    """Sign off ``seat``'s large payout (durable on return); the refusal otherwise, nothing
    changed: ``pit_boss`` (bad badge or PIN), ``signoff_role`` (a role below the tier's),
    ``signoff_no_store``; ``state`` when the seat needs none."""
    hand = _view(runner)
    need = needed(config, hand, seat)
    if need is None or hand is None or runner.payouts.current() is None:
        return CommandError("state", f"seat {seat}: no payout waits for a sign-off")
    role, amount = need
    who = signer_role(roster, signers, badge, pin)
    if isinstance(who, CommandError):
        return who
    if not ranks(who, role):
        return CommandError("signoff_role", f"a {role} must sign this payout", (role,))
    runner.payouts.sign(
        SignOff(hand.hand_uid, seat, amount, role, badge, utc_now(), _cards(hand, seat))
    )
    return None


def _view(runner: BankedRunner) -> BankedView | None:
    """The pit boss's view of the runner's hand (every card dealt), None without a hand."""
    return runner.hand.view("pit_boss") if runner.hand is not None else None


def _cards(view: BankedView, seat: int) -> tuple[str, ...]:
    """``seat``'s cards as read, in the order dealt."""
    hole = next((s.hole for s in view.seats if s.seat == seat), ())
    return tuple(str(c) for c in hole if c is not None)


def request_for(
    config: TableConfig, runner: BankedRunner, seat: int, hand_no: int
) -> SignoffRequest | None:
    """The floor request for ``seat``'s payout while the walk waits on it (``hand_no``: the
    table's hand number, shown in the application), else None."""
    hand = _view(runner)
    need = needed(config, hand, seat)
    if need is None or hand is None or runner.payouts.signed(seat) is not None:
        return None
    role, amount = need
    return SignoffRequest(
        config.table_id, hand.hand_uid, hand_no, seat, amount, _cards(hand, seat), role, utc_now()
    )


def sign_from_floor(config: TableConfig, runner: BankedRunner, row: SignoffRow) -> bool:
    """Sign off the seat of ``row`` as confirmed in the pit-boss application (durable on
    return): the console's step, ``via`` ``pitboss``, by the application user's badge at the
    confirmation's time. False, nothing written, when the walk no longer waits on it (signed at
    the console first, another hand) or the confirmer's role is below the tier's."""
    req = row.request
    hand = _view(runner)
    need = needed(config, hand, req.seat)
    if need is None or hand is None or hand.hand_uid != req.hand_uid:
        return False
    if runner.payouts.current() is None or runner.payouts.signed(req.seat) is not None:
        return False
    role, amount = need
    by, at = row.confirmed_by, row.confirmed_at
    if by is None or at is None or not ranks(row.confirmed_role or "", role):
        return False
    so = SignOff(hand.hand_uid, req.seat, amount, role, by, at, _cards(hand, req.seat), "pitboss")
    return runner.payouts.sign(so)


def journal_signoffs(config: TableConfig, runner: BankedRunner, journal: JournalPort) -> None:
    """The walk's sign-offs as table records (before its marks go); idempotent by uid.

    Raises:
        JournalError: the journal refuses them (the marks stay: the next try journals them).
    """
    marks = runner.payouts.current()
    if marks is None or not marks.signed:
        return
    session = runner.session or TableSession.of_journal(config.table_id, journal)
    for so in marks.signed:
        journal_table_record(
            journal,
            config.table_id,
            SIGNOFF_KIND,
            so.to_json(),
            session,
            game=config.game,
            uid=f"{config.table_id}-signoff-{so.hand_uid}-{so.seat}",
        )
