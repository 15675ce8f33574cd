"""The journal's search columns (table ``hand_search``, revision 0004): what is written beside
each hand, and read back as a search row.

The columns are the floor's too (:func:`~dealer_assist.storage.search_columns.search_columns`, one
source), computed from the hand's content when it is appended (or by the migration for the
hands stored before). Lists are text with a comma at each end (``",1,3,7,"``), so a seat or a
flag is found with ``instr(seats, ',3,')`` and no delimiter can match inside a value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dealer_assist.pitboss.filters import HandRow
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.search_columns import search_columns

#: The index names the search chooses between (revision 0004 creates them).
#: (Every index ends with hand_id, SQLite's rowid; the sort keys' then with recorded_at.)
IX_RECORDED = "ix_hand_search_recorded"  # (recorded_at, table_id)
IX_TABLE = "ix_hand_search_table"  # (table_id, hand_id, recorded_at)
IX_GAME = "ix_hand_search_game"  # (game, table_id, hand_id, recorded_at)
IX_STATUS = "ix_hand_search_status"  # (status, table_id, hand_id, recorded_at)
IX_TOP_AMOUNT = "ix_hand_search_top_amount"  # (top_amount, table_id, hand_id, recorded_at)
IX_WAGERED = "ix_hand_search_wagered"  # (wagered, table_id, hand_id, recorded_at)
IX_VOIDS = "ix_hand_search_voids"  # (recorded_at, table_id) WHERE status = 'void'
IX_DEALER = "ix_hand_search_dealer"  # (dealer, recorded_at, table_id)
#: The plain indexes by name and their columns (the partial ones: :data:`IX_VOIDS` and
#: :func:`flag_index` of each search flag). The one source of the live code (the pit boss's
#: verified index builds them); revision 0004 keeps its own frozen copy, and a test holds the
#: two equal (a change here needs a new revision).
INDEXES: dict[str, tuple[str, ...]] = {
    IX_RECORDED: ("recorded_at", "table_id"),
    IX_TABLE: ("table_id", "hand_id", "recorded_at"),
    IX_GAME: ("game", "table_id", "hand_id", "recorded_at"),
    IX_STATUS: ("status", "table_id", "hand_id", "recorded_at"),
    IX_TOP_AMOUNT: ("top_amount", "table_id", "hand_id", "recorded_at"),
    IX_WAGERED: ("wagered", "table_id", "hand_id", "recorded_at"),
    IX_DEALER: ("dealer", "recorded_at", "table_id"),
}


def flag_index(flag: str) -> str:
    """The partial index of the hands with search flag ``flag`` (one per
    :data:`~dealer_assist.pitboss.filters.FLAGS`): (recorded_at, table_id) WHERE
    ``flag_term(flag)``."""
    return f"ix_hand_search_flag_{flag}"


def flag_term(flag: str, dialect: str = "sqlite") -> str:
    """The SQL that says a hand has ``flag`` (a known flag name, written into the SQL: SQLite
    uses a partial index only for the very term of its WHERE, never for a bound value)."""
    fn = "strpos" if dialect == "postgresql" else "instr"
    return f"{fn}(flags, ',{flag},') > 0"


def encode_list(values: Iterable[Any] | None) -> str | None:
    """``[1, 3]`` as ``",1,3,"``; ``None`` for none."""
    items = [str(v) for v in values or ()]
    return f",{','.join(items)}," if items else None


def decode_list(text: str | None) -> list[str]:
    """The items of :func:`encode_list`'s text (``[]`` for ``None``)."""
    return [v for v in (text or "").split(",") if v]


def search_values(hand: StoredHand) -> dict[str, Any] | None:
    """The ``hand_search`` row of ``hand``; ``None`` for a table record (never a result)."""
    if hand.status == TABLE_RECORD:
        return None
    cols = search_columns(hand)
    return {
        "hand_id": hand.hand_id,
        "table_id": hand.table_id,
        "status": hand.status,
        "game": hand.game,
        "recorded_at": hand.recorded_at,
        "wagered": cols["wagered"],
        "top_amount": cols["top_amount"],
        "seats": encode_list(cols["seats"]),
        "flags": encode_list(cols["flags"]),
        "dealer": cols["dealer"],
        "void_reason": hand.void_reason,
        "void_folded": None if hand.void_reason is None else hand.void_reason.lower(),
    }


def search_rows(hands: Sequence[StoredHand]) -> list[dict[str, Any]]:
    """The ``hand_search`` rows of ``hands`` (table records left out)."""
    return [v for h in hands if (v := search_values(h)) is not None]


def row_of_values(m: Any) -> HandRow:
    """A ``hand_search`` row (a mapping) as the search's :class:`HandRow`."""
    return HandRow(
        table_id=m["table_id"],
        position=int(m["hand_id"]),
        recorded_at=m["recorded_at"],
        game=m["game"],
        status=m["status"],
        void_reason=m["void_reason"],
        wagered=m["wagered"],
        top_amount=m["top_amount"],
        seats=tuple(int(s) for s in decode_list(m["seats"])),
        flags=tuple(decode_list(m["flags"])),
        dealer=m["dealer"],
    )
