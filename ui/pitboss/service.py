"""The application's session, Qt-free: who is logged in, what they may do (the pure role checks of
:mod:`dealer_assist.pitboss.roles`), and the access log written before each view is returned.
Every method may block on the database: the window calls them on its worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_assist.events import iso_utc, utc_now
from dealer_assist.pitboss.detail import HandDetail, hand_detail
from ui.money import fmt_money

if TYPE_CHECKING:
    from dealer_assist.audit.stats import StatsSource
    from dealer_assist.games.hold import Estimate
    from dealer_assist.storage.floor.checkpoints import TableWitness
from dealer_assist.pitboss.filters import (
    TAMPER_STATUS,
    AlertRow,
    FloorSnapshot,
    HandFilter,
    HandRow,
    HandSource,
    Page,
    Sort,
    covering,
    covers,
    is_open_integrity,
)
from dealer_assist.pitboss.recompute import Recompute, recompute
from dealer_assist.pitboss.replay import Replay, replay
from dealer_assist.pitboss.roles import Action, PermissionDeniedError, Role, allowed, require
from dealer_assist.pitboss.signoffs import (
    Confirmation,
    SignoffDesk,
    SignoffError,
    SignoffRow,
    check_may_confirm,
)
from dealer_assist.pitboss.users import (
    MIN_PIN,
    AccessEntry,
    AccessLog,
    LoginRefusedError,
    User,
    UserError,
    UserStore,
    authenticate,
    hash_pin,
    locked_badges,
    pin_must_change,
)
from dealer_assist.pitboss.users import login as check_login


@dataclass(frozen=True)
class HandView:
    """What the hand screen shows: the detail, the replay, ``holes_allowed`` (the role may see
    hole cards; they are still hidden until asked for, and that view is logged)."""

    detail: HandDetail
    replay: Replay
    holes_allowed: bool
    alerts: tuple[AlertRow, ...] = ()
    """The open integrity alerts that cover this hand (a tampered chain, a changed key...)."""
    money: Callable[[int], str] = fmt_money
    """How the screen writes this hand's amounts: euros (``EUR 12.50``), or chips for a
    tournament hand (its record's ``tournament``)."""


class Session:
    """One run of the application over ``source`` with its ``users`` and access ``log``;
    ``signoffs`` the floor's large-payout sign-off requests (default: the floor's when
    ``source`` is a floor, none for one journal)."""

    def __init__(
        self,
        source: HandSource,
        users: UserStore,
        log: AccessLog,
        signoffs: SignoffDesk | None = None,
    ) -> None:
        self.source = source
        self.users = users
        self.log = log
        self.user: User | None = None
        self._open_integrity: tuple[AlertRow, ...] | None = None
        self.must_change_pin = False
        """The user logged in with a PIN shorter than the minimum: nothing but
        :meth:`change_pin` until it is replaced."""
        self.signoffs = signoffs if signoffs is not None else _floor_desk(source)

    def _log(
        self,
        action: str,
        table_id: str | None = None,
        position: int | None = None,
        detail: str = "",
    ) -> None:
        user = self._user()
        self.log.record(
            AccessEntry(utc_now(), user.badge, user.role.value, action, table_id, position, detail)
        )

    def _user(self) -> User:
        if self.user is None:
            raise PermissionDeniedError("nobody is logged in")
        return self.user

    def _require(self, action: Action) -> User:
        user = self._pin_ok()
        require(user.role, action)
        return user

    def _pin_ok(self) -> User:
        user = self._user()
        if self.must_change_pin:
            raise PermissionDeniedError(
                f"your PIN is shorter than {MIN_PIN} digits: choose a new PIN of at least "
                f"{MIN_PIN} digits before anything else"
            )
        return user

    def require(self, action: Action) -> User:
        """The logged-in user when their role may do ``action`` (and their PIN needs no
        change). Raises PermissionDeniedError."""
        return self._require(action)

    @property
    def role(self) -> Role | None:
        """The logged-in user's role."""
        return None if self.user is None else self.user.role

    def login(self, badge: str, pin: str) -> User:
        """Log in; a refusal is logged too (badge as typed). A badge with
        :data:`~dealer_assist.pitboss.users.LOCK_AFTER` wrong PINs in a row is refused for
        :data:`~dealer_assist.pitboss.users.LOCK_FOR` without its PIN being tried (logged
        ``login_locked``). Raises LoginRefusedError."""
        user = authenticate(self.users, self.log, badge, pin, utc_now())
        self.user = user
        self.must_change_pin = pin_must_change(pin)
        return user

    def change_pin(self, old: str, new: str) -> None:
        """Replace the logged-in user's PIN (``old`` checked again; ``new``: :data:`MIN_PIN`
        to 32 digits), logged ``pin_changed``; the session may then do what the role allows.

        Raises:
            LoginRefusedError: ``old`` is not the user's PIN.
            UserError: ``new`` is too short, too long or not digits (the sentence says which).
        """
        user = self._user()
        check_login(self.users, user.badge, old)
        if new == old:
            raise UserError("the new PIN is the old one: choose another")
        changed = User(user.badge, user.role, hash_pin(new))
        self.users.put_user(changed, user.badge)
        self.user, self.must_change_pin = changed, False
        self._log("pin_changed")

    def locked_badges(self) -> list[tuple[str, datetime]]:
        """The badges locked now by wrong PINs and until when (read from the access log), for
        a role that reads the log (shift manager, auditor). Raises PermissionDeniedError."""
        self._require(Action.VIEW_ACCESS_LOG)
        return locked_badges(self.log.entries(), utc_now())

    def logout(self) -> None:
        """Log out (logged)."""
        if self.user is not None:
            self._log("logout")
        self.user, self.must_change_pin = None, False

    def search(self, where: HandFilter, sort: Sort, offset: int, limit: int) -> Page:
        """A page of the hand search, each row with the open integrity alerts that cover it
        (read again with each first page)."""
        self._require(Action.SEARCH)
        page = self.source.search(where, sort, offset, limit)
        alerts = self._integrity(fresh=offset == 0)
        if not alerts:
            return page
        rows = tuple(replace(r, alerts=covering(alerts, r.table_id, r.position)) for r in page.rows)
        return replace(page, rows=rows)

    def _integrity(self, *, fresh: bool) -> tuple[AlertRow, ...]:
        if fresh or self._open_integrity is None:
            self._open_integrity = tuple(
                a for a in self.source.snapshot(utc_now()).alerts if is_open_integrity(a)
            )
        return self._open_integrity

    def snapshot(self) -> FloorSnapshot:
        """The floor view now; a table with an open integrity alert has the status
        :data:`~dealer_assist.pitboss.filters.TAMPER_STATUS`, whatever its last hand was."""
        self._require(Action.VIEW_FLOOR)
        snap = self.source.snapshot(utc_now())
        alerts = tuple(a for a in snap.alerts if is_open_integrity(a))
        self._open_integrity = alerts
        hit = {a.table_id for a in alerts}
        if not hit:
            return snap
        tables = tuple(
            replace(t, status=TAMPER_STATUS) if t.table_id in hit or None in hit else t
            for t in snap.tables
        )
        return replace(snap, tables=tables)

    def open_hand(self, table_id: str, position: int) -> HandView:
        """A hand's detail and replay, with the open integrity alerts that cover it; the view
        is logged before it is returned."""
        user = self._require(Action.VIEW_DETAIL)
        hand = self.source.hand(table_id, position)
        alerts = tuple(a for a in self._integrity(fresh=True) if covers(a, table_id, position))
        self._log("view_detail", table_id, position)
        holes = allowed(user.role, Action.VIEW_HOLE_CARDS)
        money = chips_text if hand.record.get("tournament") else fmt_money
        return HandView(hand_detail(hand, money), replay(hand, money), holes, alerts, money)

    def reveal_hole_cards(self, table_id: str, position: int) -> None:
        """Allow the hole cards of a hand on screen: role checked, the view logged.
        Raises PermissionDeniedError."""
        self._require(Action.VIEW_HOLE_CARDS)
        self._log("view_hole_cards", table_id, position)

    def recompute(self, table_id: str, position: int) -> Recompute:
        """The dispute recompute of a hand (logged)."""
        self._require(Action.RECOMPUTE)
        hand = self.source.hand(table_id, position)
        result = recompute(hand)
        self._log(
            "recompute",
            table_id,
            position,
            "agrees" if result.agrees else f"{len(result.differences)} differences",
        )
        return result

    def acknowledge(self, key: str) -> AlertRow:
        """Acknowledge alert ``key`` as the logged-in user. Raises PermissionDeniedError for
        a role that may not (the auditor)."""
        user = self._require(Action.ACKNOWLEDGE)
        row = self.source.acknowledge(key, user.badge)
        self._log("acknowledge", row.table_id, row.position, f"alert {key} {row.kind}")
        return row

    def waiting_signoffs(self) -> list[SignoffRow]:
        """The large payouts waiting for a pit boss at the tables (none without a floor)."""
        self._require(Action.VIEW_FLOOR)
        return [] if self.signoffs is None else self.signoffs.waiting()

    def confirm_signoff(self, row: SignoffRow, pin: str) -> Confirmation:
        """Confirm the waiting sign-off ``row`` as the logged-in user, who enters their PIN
        again; the floor records who and when, the table then pays. The access log has the
        confirmation (``signoff_confirm``: won, or "already closed" when the table signed it
        first: nothing changed) or the refusal (``signoff_refused``) before this returns.

        Raises:
            LoginRefusedError: the PIN is not the user's.
            PermissionDeniedError: an auditor or a dealer; a pit boss for a shift manager's tier.
            SignoffError: no floor here, or no such request.
        """
        user = self._pin_ok()
        req = row.request
        what = f"request #{row.id} hand {req.hand_uid} seat {req.seat} amount {req.amount}"
        try:
            check_may_confirm(user.role, req.role)
            if self.signoffs is None:
                raise SignoffError("no floor here: sign-offs are confirmed at the table")
            check_login(self.users, user.badge, pin)
        except (PermissionDeniedError, LoginRefusedError, SignoffError) as e:
            self._log("signoff_refused", req.table_id, req.hand_no or None, f"{what}: {e}")
            raise
        done = self.signoffs.confirm(row.id, user.badge, user.role.value, utc_now())
        closed = done.row.confirmed_by if done.row.state == "confirmed" else done.row.state
        result = "confirmed" if done.won else f"already closed ({closed}): nothing changed"
        self._log("signoff_confirm", req.table_id, req.hand_no or None, f"{what}: {result}")
        return done

    def export_search(self, where: HandFilter, sort: Sort, path: str | Path) -> tuple[Path, int]:
        """Every hand of the search (not only the rows loaded) written to ``path`` (``.csv``
        or ``.pdf``, 0600), each with its integrity alerts; logged ``export`` with the count
        and the file's SHA-256. Returns (file, hands). Raises PermissionDeniedError (a
        dealer), ExportError."""
        from ui.pitboss.export_search import write_search

        user = self._require(Action.EXPORT)
        rows: list[HandRow] = []
        offset = 0
        while True:
            page = self.search(where, sort, offset, 1000)
            rows += page.rows
            offset += len(page.rows)
            if not page.more:
                break
        title = f"{len(rows)} hands; {_filter_text(where)}; by {user.badge} at {iso_utc(utc_now())}"
        out = write_search(rows, path, title)
        self._log("export", detail=f"search: {len(rows)} hands to {out} sha256 {_sha256(out)}")
        return out, len(rows)

    def export_report(
        self,
        start: datetime,
        end: datetime,
        path: str | Path,
        language: str = "en",
        theory: Callable[[str], Estimate | None] | None = None,
    ) -> Path:
        """The shift report over ``[start, end)`` written to ``path`` (``.csv`` or ``.pdf``,
        0600; the same report as ``pitboss report``, with the open integrity alerts), logged
        ``export`` with the file's SHA-256. Raises PermissionDeniedError, ExportError,
        DealerAssistError (the source)."""
        from ui.pitboss.export import build_report, write_csv, write_pdf

        self._require(Action.EXPORT)
        name = str(getattr(self.source, "path", "floor"))
        report = build_report(
            stats_factory(self.source)(),
            start,
            end,
            name,
            theory=theory,
            integrity=self._integrity(fresh=True),
            witness=floor_witness(self.source, start, end),
        )
        p = Path(path)
        if p.suffix.lower() not in (".csv", ".pdf"):
            from ui.export_files import ExportError

            raise ExportError(f"{p}: the report is exported as .csv or .pdf")
        write = write_pdf if p.suffix.lower() == ".pdf" else write_csv
        out = write(report, p, language=language)
        self._log(
            "export",
            detail=f"shift report {iso_utc(start)} to {iso_utc(end)}: {out} sha256 {_sha256(out)}",
        )
        return out

    def close(self) -> None:
        """Close the source."""
        self.source.close()


def chips_text(minor: int) -> str:
    """A tournament hand's amount: ``5,000 chips`` (chips are not money)."""
    return f"{minor:,} chips"


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _filter_text(where: HandFilter) -> str:
    fields = {k: v for k, v in vars(where).items() if v not in (None, ())}
    return ", ".join(f"{k}={v}" for k, v in fields.items()) or "every hand"


def stats_factory(source: object) -> Callable[[], StatsSource]:
    """What opens the statistics of the window's hand source: the floor's
    (:class:`~dealer_assist.storage.floor.stats.FloorStats` over its shared
    :class:`~dealer_assist.storage.floor.Floor`) or a journal's (its path, opened read-only per
    query)."""
    from dealer_assist.storage.floor import Floor

    floor = getattr(source, "floor", None)
    if isinstance(floor, Floor):
        from dealer_assist.storage.floor.stats import FloorStats

        return lambda: FloorStats(floor)
    from dealer_assist.storage.stats import JournalStats

    path = str(getattr(source, "path", ""))
    return lambda: JournalStats(path)


def floor_witness(
    source: object, start: datetime, end: datetime
) -> Callable[[str], TableWitness] | None:
    """What gives a report each table's floor witness over ``[start, end)`` (``source``: a
    :class:`~dealer_assist.storage.floor.Floor` or the window's hand source); ``None`` for one
    journal (no floor: not witnessed)."""
    from dealer_assist.storage.floor import Floor

    floor = source if isinstance(source, Floor) else getattr(source, "floor", None)
    if not isinstance(floor, Floor):
        return None
    return lambda table_id: floor.witness(table_id, start, end)


def _floor_desk(source: HandSource) -> SignoffDesk | None:
    """The sign-off requests of the floor ``source`` searches, None for one journal."""
    from dealer_assist.storage.floor.floor import Floor
    from dealer_assist.storage.floor.signoffs import FloorSignoffs

    floor = getattr(source, "floor", None)
    return FloorSignoffs(floor) if isinstance(floor, Floor) else None


def open_backend(
    floor: str | None, db: str | Path | None
) -> tuple[HandSource, UserStore, AccessLog]:
    """The source, users and access log of ``--floor URL`` or ``--db PATH`` (open).

    Raises:
        DealerAssistError: neither or both given, or the database cannot be opened.
    """
    from dealer_assist.errors import ConfigError

    if (floor is None) == (db is None):
        raise ConfigError("give one of --floor URL or --db PATH")
    if floor is not None:
        from dealer_assist.storage.floor.access import FloorAccess, check_access
        from dealer_assist.storage.floor.search import FloorSearch

        fs = FloorSearch(floor)
        fs.open()
        try:
            check_access(fs.floor)  # created by `floor migrate`, never by the application
        except BaseException:
            fs.close()
            raise
        access = FloorAccess(fs.floor)
        return fs, access, access
    from dealer_assist.storage.access import LocalAccessLog, LocalUsers
    from dealer_assist.storage.search import JournalSearch

    js = JournalSearch(Path(str(db)))
    js.open()
    folder = Path(str(db)).parent
    return js, LocalUsers(folder), LocalAccessLog(folder)


@dataclass
class AccessStores:
    """The users and access log of ``--floor URL`` or ``--db PATH`` without the hands (what a
    command that logs in needs); :meth:`close` releases the floor's connection."""

    users: UserStore
    log: AccessLog
    floor: Any = None

    def close(self) -> None:
        """Close the floor (nothing for a journal's files); safe twice."""
        if self.floor is not None:
            self.floor.close()
            self.floor = None


def open_access(floor: str | None, db: str | Path | None) -> AccessStores:
    """The users and access log of ``floor`` (checked: ``floor migrate`` made them) or of the
    journal ``db``'s folder.

    Raises:
        DealerAssistError: neither or both given, no journal at ``db``, the floor cannot be
            opened or lacks the pit-boss tables.
    """
    from dealer_assist.errors import ConfigError, JournalError

    if (floor is None) == (db is None):
        raise ConfigError("give one of --floor URL or --db PATH")
    if floor is not None:
        from dealer_assist.storage.floor.access import FloorAccess, check_access
        from dealer_assist.storage.floor.floor import Floor

        f = Floor(floor)
        f.open()
        try:
            check_access(f)
        except BaseException:
            f.close()
            raise
        access = FloorAccess(f)
        return AccessStores(access, access, f)
    from dealer_assist.storage.access import LocalAccessLog, LocalUsers

    path = Path(str(db))
    if not path.is_file():
        raise JournalError(f"no journal at {path}")
    return AccessStores(LocalUsers(path.parent), LocalAccessLog(path.parent))
