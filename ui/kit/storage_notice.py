"""The dealer's sentences of a storage fault and of a journal disk getting full,
for the console (and any window) to show translated: ``trf(text, *args)`` of
:func:`storage_text` (``ui/console/texts.py``; the Italian is in ``ui/i18n/it_storage.py``).

The texts are collected by lupdate (``QT_TRANSLATE_NOOP`` in the default, empty context, as the
console's own texts). A fault keeps the hand pending in the step log: the dealer frees the
storage and resumes the table (the hand is then journaled, resumed or voided by the rules).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.errors import (
    JournalError,
    StorageBusyError,
    StorageFullError,
    StorageLostError,
    StorageLowError,
)
from dealer_assist.storage.faults import MiB, StorageNotice


def _text(source: object) -> str:
    return str(source)


FULL = _text(
    QT_TRANSLATE_NOOP(
        "", "The journal's disk is full: the hand stays pending. Free space, then resume the table."
    )
)
BUSY = _text(
    QT_TRANSLATE_NOOP(
        "",
        "The journal is locked by another program: the hand stays pending. "
        "Close that program, then resume the table.",
    )
)
LOST = _text(
    QT_TRANSLATE_NOOP(
        "",
        "The connection to the journal's database is lost: the hand stays pending. "
        "Check the database server, then resume the table.",
    )
)
OTHER = _text(
    QT_TRANSLATE_NOOP(
        "", "The journal cannot be written: the hand stays pending. Call the floor supervisor."
    )
)
REFUSED = _text(
    QT_TRANSLATE_NOOP(
        "", "No new hand: the journal's disk has only %1 MiB free (at least %2 MiB are needed)."
    )
)
LOW = _text(
    QT_TRANSLATE_NOOP(
        "", "The journal's disk has only %1 MiB free: free space soon (below %2 MiB no new hand)."
    )
)
RECOVERED = _text(QT_TRANSLATE_NOOP("", "The journal answers again: play goes on."))


def _mib(n: int) -> str:
    return f"{n / MiB:.0f}" if n >= 10 * MiB else f"{n / MiB:.1f}"


def storage_text(what: JournalError | StorageNotice) -> tuple[str, tuple[str, ...]]:
    """The English source text and its ``%1``, ``%2``... arguments for a storage error the
    table raised (the hand stays pending) or a :class:`StorageNotice` the journal gave
    (``ResilientJournal(on_notice=...)``): pass both to the console's ``trf``."""
    if isinstance(what, StorageNotice):
        if what.kind == "low_space":
            return LOW, (_mib(what.free_bytes), _mib(what.refuse_bytes))
        return RECOVERED, ()
    if isinstance(what, StorageLowError):
        return REFUSED, (_mib(what.free_bytes), _mib(what.refuse_bytes))
    if isinstance(what, StorageFullError):
        return FULL, ()
    if isinstance(what, StorageBusyError):
        return BUSY, ()
    if isinstance(what, StorageLostError):
        return LOST, ()
    return OTHER, ()
