"""The floor as witness in ``audit verify`` (``--floor URL``, or the ``[floor] url`` of
``--config``): the journal compared with the floor's copy of each table's chain, and with the
signer's checkpoints the floor received (its head, sent with every batch and at least each
minute). A journal cut below a checkpoint, deleted and restarted at hand 1, or holding another
hash at a checkpoint's position fails, naming the position (docs/AUDIT.md "Witnesses")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealer_assist.storage import Journal


def floor_lines(journal: Journal, url: str, table_id: str | None = None) -> list[str]:
    """The journal compared with the floor's copy and the signer's checkpoints, per table of
    the journal (``table_id``, the config's, for an empty journal); ``FAIL`` lines (and
    ``first changed hand: N``) for a difference.

    Raises:
        FloorError: the floor cannot be read. JournalError: the journal cannot be read.
    """
    from dealer_assist.storage.crosscheck import compare_with_floor
    from dealer_assist.storage.floor.checkpoints import compare_chain
    from dealer_assist.storage.floor.floor import Floor

    lines = []
    with Floor(url) as floor:
        # an empty journal (deleted, restarted) still has its table on the floor to meet
        for table in journal.table_ids() or ([table_id] if table_id else []):
            c = compare_with_floor(journal, floor, table)
            if c.ok:
                more = f" ({c.not_forwarded} not yet forwarded)" if c.not_forwarded else ""
                lines.append(f"floor: table {table}: {c.reason}{more}")
            else:
                lines.append(f"FAIL: floor: table {table}: {c.reason}")
                lines.append(f"first changed hand: {c.first_changed}")
            checks = floor.checkpoints(table)
            mine = (h for h in journal.iter_hands() if h.table_id == table)
            w = compare_chain(mine, checks, "the journal")
            if w.ok:
                if checks:
                    lines.append(f"floor: table {table}: {w.reason}")
                continue
            lines.append(f"FAIL: signer's checkpoints: table {table}: {w.reason}")
            lines.append(f"first changed hand: {w.first_bad}")
    return lines
