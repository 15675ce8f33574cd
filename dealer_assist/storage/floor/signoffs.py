"""The floor's large-payout sign-off requests (``floor_signoffs``, revision f0004;
docs/PITBOSS.md "Sign-offs waiting").

One row per ``(table_id, hand_uid, seat)``: the table posts it while its payout walk waits on
the seat (:meth:`FloorSignoffs.post`, idempotent: a restart or a retry posts it once); the
pit-boss application lists the waiting ones and confirms one (:meth:`FloorSignoffs.confirm`,
which records who, their role and when only while it waits: the first to close it wins); the
table reads the confirmations of its requests (:meth:`FloorSignoffs.confirmed`), applies one
and says so (:meth:`FloorSignoffs.taken`), or cancels a request signed at its console first or
whose walk ended (:meth:`FloorSignoffs.cancel`). Each method is one short transaction of
:class:`~dealer_assist.storage.floor.floor.Floor` (its timeouts and error translation).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg
from sqlalchemy.dialects.postgresql import insert as pg_insert

from dealer_assist.events import utc_now
from dealer_assist.pitboss.signoffs import (
    CANCELLED,
    CONFIRMED,
    WAITING,
    Confirmation,
    SignoffError,
    SignoffKey,
    SignoffRequest,
    SignoffRow,
)
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.schema import UTCDateTime

_meta = sa.MetaData()
floor_signoffs = sa.Table(
    "floor_signoffs",
    _meta,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("hand_uid", sa.String, nullable=False),
    sa.Column("hand_no", sa.BigInteger, nullable=False),
    sa.Column("seat", sa.SmallInteger, nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("cards", pg.ARRAY(sa.String), nullable=False),
    sa.Column("role", sa.String(32), nullable=False),
    sa.Column("requested_at", UTCDateTime, nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("confirmed_by", sa.String(64), nullable=True),
    sa.Column("confirmed_role", sa.String(32), nullable=True),
    sa.Column("confirmed_at", UTCDateTime, nullable=True),
    sa.Column("cancelled_by", sa.String(64), nullable=True),
    sa.Column("cancelled_at", UTCDateTime, nullable=True),
    sa.Column("taken_at", UTCDateTime, nullable=True),
    sa.Column("detail", sa.Text, nullable=False),
)
_c = floor_signoffs.c


def _row(m: Mapping[Any, Any]) -> SignoffRow:
    request = SignoffRequest(
        m["table_id"],
        m["hand_uid"],
        int(m["hand_no"]),
        int(m["seat"]),
        int(m["amount"]),
        tuple(m["cards"]),
        m["role"],
        m["requested_at"],
    )
    return SignoffRow(
        int(m["id"]),
        request,
        m["state"],
        m["confirmed_by"],
        m["confirmed_role"],
        m["confirmed_at"],
        m["cancelled_by"],
        m["cancelled_at"],
        m["taken_at"],
        m["detail"],
    )


def _where(key: SignoffKey) -> sa.ColumnElement[bool]:
    table_id, hand_uid, seat = key
    return sa.and_(_c.table_id == table_id, _c.hand_uid == hand_uid, _c.seat == seat)


class FloorSignoffs:
    """The sign-off requests in ``floor``'s database (open; schema f0004 or later).

    Every method raises :class:`~dealer_assist.storage.floor.errors.FloorUnavailableError`
    when the floor cannot be reached and :class:`~dealer_assist.storage.floor.errors.FloorError`
    for another database error; nothing is half-written (one transaction each).
    """

    def __init__(self, floor: Floor) -> None:
        self.floor = floor

    # -- the table's side -------------------------------------------------------------------
    def post(self, request: SignoffRequest) -> SignoffRow:
        """Store ``request`` (waiting) unless the floor holds it already; the row either way
        (a request posted again after a restart keeps its first row and state)."""
        values = {
            "table_id": request.table_id,
            "hand_uid": request.hand_uid,
            "hand_no": request.hand_no,
            "seat": request.seat,
            "amount": request.amount,
            "cards": list(request.cards),
            "role": request.role,
            "requested_at": request.requested_at,
            "received_at": utc_now(),
            "state": WAITING,
            "detail": "",
        }
        with self.floor._transaction("post a sign-off request") as conn:
            conn.execute(
                pg_insert(floor_signoffs)
                .values(values)
                .on_conflict_do_nothing(index_elements=["table_id", "hand_uid", "seat"])
            )
            row = conn.execute(sa.select(floor_signoffs).where(_where(request.key))).one()
        return _row(row._mapping)

    def confirmed(self, table_id: str) -> list[SignoffRow]:
        """The requests of ``table_id`` confirmed in the application and not yet taken by the
        table, oldest first."""
        query = (
            sa.select(floor_signoffs)
            .where(_c.table_id == table_id, _c.state == CONFIRMED, _c.taken_at.is_(None))
            .order_by(_c.id)
        )
        with self.floor._transaction("read confirmed sign-offs") as conn:
            return [_row(r._mapping) for r in conn.execute(query)]

    def taken(self, request_id: int, at: datetime | None = None) -> None:
        """The table applied confirmed request ``request_id`` (signed the seat off)."""
        with self.floor._transaction("mark a sign-off taken") as conn:
            conn.execute(
                sa.update(floor_signoffs)
                .where(_c.id == request_id, _c.state == CONFIRMED, _c.taken_at.is_(None))
                .values(taken_at=at or utc_now(), detail="signed off at the table")
            )

    def cancel(self, key: SignoffKey, by: str | None, detail: str) -> SignoffRow | None:
        """Close the request ``key`` that the table did not take: signed at the console first
        (``by`` the signer) or its walk over (``by`` None). A confirmation given meanwhile and
        not taken stays recorded but changes nothing. The row, None when the floor holds none."""
        with self.floor._transaction("cancel a sign-off request") as conn:
            conn.execute(
                sa.update(floor_signoffs)
                .where(_where(key), _c.state != CANCELLED, _c.taken_at.is_(None))
                .values(state=CANCELLED, cancelled_by=by, cancelled_at=utc_now(), detail=detail)
            )
            row = conn.execute(sa.select(floor_signoffs).where(_where(key))).one_or_none()
        return None if row is None else _row(row._mapping)

    # -- the application's side -------------------------------------------------------------
    def waiting(self) -> list[SignoffRow]:
        """Every request waiting for a pit boss, oldest first (the partial index of waiting
        requests)."""
        query = sa.select(floor_signoffs).where(_c.state == WAITING).order_by(_c.id)
        with self.floor._transaction("list sign-offs waiting") as conn:
            return [_row(r._mapping) for r in conn.execute(query)]

    def get(self, request_id: int) -> SignoffRow:
        """Request ``request_id``. Raises SignoffError when the floor holds none."""
        with self.floor._transaction("read a sign-off request") as conn:
            row = conn.execute(sa.select(floor_signoffs).where(_c.id == request_id)).one_or_none()
        if row is None:
            raise SignoffError(f"no sign-off request #{request_id} on the floor")
        return _row(row._mapping)

    def confirm(self, request_id: int, badge: str, role: str, at: datetime) -> Confirmation:
        """Record ``badge`` (of ``role``) confirming request ``request_id`` at ``at`` if it
        still waits (``won``); otherwise nothing changes and the row says who closed it first.
        The caller has checked the PIN and the role (:mod:`dealer_assist.pitboss.signoffs`).

        Raises:
            SignoffError: no such request.
        """
        with self.floor._transaction("confirm a sign-off") as conn:
            won = conn.execute(
                sa.update(floor_signoffs)
                .where(_c.id == request_id, _c.state == WAITING)
                .values(
                    state=CONFIRMED,
                    confirmed_by=badge,
                    confirmed_role=role,
                    confirmed_at=at,
                    detail="confirmed in the pit-boss application",
                )
                .returning(_c.id)
            ).first()
            row = conn.execute(sa.select(floor_signoffs).where(_c.id == request_id)).one_or_none()
        if row is None:
            raise SignoffError(f"no sign-off request #{request_id} on the floor")
        return Confirmation(_row(row._mapping), won is not None)
