"""``dealer-assist audit restore --db DAMAGED --from-floor URL -o RESTORED [--table ID]``: a
table's journal rebuilt from the floor database's copy of its chain
(:mod:`dealer_assist.storage.restore`), checked against what the damaged file still reads.

The damaged file is read as ``audit verify`` reads it (from its pages when SQLite refuses it:
:mod:`dealer_assist.storage.pages`); nothing is written beside it. Every position both hold must
have the same hash; the restored file is verified whole (hashes, links, signatures against the
floor's copy of the table's public key, or ``--public-key``) before it is put at ``-o``.

Exit 0: the restored file reaches the damaged file's chain-head record (or, that record
unreadable, the last entry either side holds) and verifies. Exit 1: hands lost (neither side
holds them; the verified part before them is written), or a conflict / a failed verify (nothing
written). Exit 2: unreadable input, no floor, ``-o`` exists.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.errors import DealerAssistError, JournalError
from ui.commands.audit_salvage import _DAMAGE, _sqlite_file

if TYPE_CHECKING:
    from dealer_assist.storage import Journal
    from dealer_assist.storage.floor.floor import Floor
    from dealer_assist.storage.restore import RestoreResult
    from dealer_assist.storage.signing import KeyRing


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``audit restore`` to the audit actions."""
    p = actions.add_parser(
        "restore",
        help="rebuild a damaged journal from the floor's copy, verified",
        description="Rebuild a table's journal from the floor database's copy of its chain, "
        "checked position by position against what the damaged file still reads.",
    )
    p.add_argument("--db", required=True, metavar="PATH", help="the damaged journal file")
    p.add_argument(
        "--from-floor",
        required=True,
        metavar="URL",
        dest="from_floor",
        help="the floor database (postgresql+psycopg://...)",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="PATH",
        help="the restored journal file to write (must not exist)",
    )
    p.add_argument(
        "--table", metavar="ID", help="the table to restore (default: the damaged file's own)"
    )
    p.add_argument(
        "--public-key",
        metavar="FILE",
        help="check signatures against this pinned key (default: the floor's copy "
        "of the table's key)",
    )
    p.add_argument(
        "--keys", metavar="DIR", help="the damaged journal's key folder (default keys/ beside it)"
    )
    p.set_defaults(func=run_restore)


@contextlib.contextmanager
def _readable(db: str) -> Iterator[tuple[Journal | None, str]]:
    """The damaged journal as it can be read (its page copy when SQLite refuses it; ``None``
    when not even its pages read) and a sentence saying how."""
    from dealer_assist.storage import Journal
    from dealer_assist.storage.pages import salvage_pages

    path = _sqlite_file(db)
    if path is None:
        raise JournalError(f"no journal file at {db} (audit restore rebuilds a SQLite file)")
    try:
        with Journal(str(path), create=False, read_only=True) as journal:
            yield journal, f"{path} opens"
            return
    except JournalError as e:
        if not _DAMAGE.search(str(e)):
            raise
        why = str(e)
    with tempfile.TemporaryDirectory(prefix="dealer-assist-restore-") as tmp:
        copy = Path(tmp) / path.name
        try:
            found = salvage_pages(path, copy)
        except JournalError as e:
            yield None, f"{path}: {why}; {e}"
            return
        cut = (
            f"cut short: {found.pages} of {found.expected} pages"
            if found.pages < found.expected
            else f"{found.pages} pages"
        )
        with Journal(str(copy), create=False, read_only=True) as journal:
            yield journal, f"{path}: {why} ({cut}), read from its pages"


def run_restore(args: argparse.Namespace) -> int:
    """``audit restore``: 0 restored whole and verified, 1 hands lost or refused, 2 error."""
    from dealer_assist.storage.floor.floor import Floor

    out = Path(args.output).expanduser().absolute()
    try:
        if out.exists():
            raise JournalError(f"{out} exists: the restore writes a new file, it replaces none")
        with _readable(args.db) as (journal, how), Floor(args.from_floor) as floor:
            print(f"damaged journal: {how}")
            result = _restore(args, journal, floor, out)
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    return _report(result)


def _restore(
    args: argparse.Namespace, journal: Journal | None, floor: Floor, out: Path
) -> RestoreResult:
    from dealer_assist.storage.restore import file_head, readable_entries, restore_from_floor
    from dealer_assist.storage.verify import format_ranges

    tables = journal.table_ids() if journal is not None else []
    table = args.table or (tables[0] if len(tables) == 1 else None)
    if table is None:
        which = ", ".join(tables) if tables else "none readable"
        raise JournalError(f"name the table to restore with --table (the file's tables: {which})")
    ranges = journal.salvage().readable if journal is not None else ()
    local = readable_entries(journal, table, ranges) if journal is not None else {}
    head = file_head(journal) if journal is not None else None
    read = format_ranges(ranges) or "none"
    print(f"readable in the damaged file: hands {read} ({len(local)} of table {table})")
    ring = _key_ring(args, floor, table)
    return restore_from_floor(local, floor, table, out, ring, head=head)


def _key_ring(args: argparse.Namespace, floor: Floor, table: str) -> KeyRing:
    """The floor's copy of the table's key (pinned), or ``--public-key``; the damaged file's
    key folder said when it holds another key."""
    from dealer_assist.storage.crosscheck import floor_public_keys
    from dealer_assist.storage.signing import KeyRing, KeyStore, default_keys_folder
    from dealer_assist.storage.signing import load_public_key as load

    keys = floor_public_keys(floor, [table])
    pinned = load(args.public_key) if args.public_key else None
    folder = Path(args.keys) if args.keys else default_keys_folder(Path(args.db).absolute())
    local = KeyStore(folder)
    key = pinned or keys.get(table)
    mine = local.public_key(table) if folder.is_dir() else None
    if key is None:
        note = " (NOT pinned: the floor holds no key of the table)" if mine else ""
        print(f"signatures checked against: the key folder {folder}{note}")
        return KeyRing({}, None, local)
    print(f"signatures checked against: table {table}'s key {key.key_id} ({key.source})")
    if mine is not None and mine.hex != key.hex:
        print(f"note: the key folder {folder} holds another key ({mine.key_id})")
    return KeyRing({table: key} if pinned is None else {}, pinned, None)


def _report(r: RestoreResult) -> int:
    from dealer_assist.storage.verify import format_ranges

    def span(ranges: tuple[tuple[int, int], ...]) -> str:
        return f"hands {format_ranges(ranges)}" if ranges else "none"

    print(
        f"the floor holds positions 1-{r.floor_head} of table {r.table_id}"
        if r.floor_head
        else f"the floor holds no position of table {r.table_id}"
    )
    if r.failure is not None:
        print(f"FAIL: {r.failure}; nothing written")
        return 1
    v = r.verify
    print(f"from the damaged file, identical to the floor's copy: {span(r.from_file)}")
    print(f"from the floor (unreadable in the damaged file): {span(r.from_floor)}")
    print(f"from the damaged file, not yet on the floor: {span(r.not_forwarded)}")
    if v is not None:
        signed = f"; signatures: {v.signatures_checked} verify" if v.signatures_checked else ""
        unsigned = f"; {v.unsigned} unsigned" if v.unsigned else ""
        print(
            f"verified: {v.hands_checked} entries, every hash recomputed and linked"
            f"{signed}{unsigned}"
        )
    head = f"position {r.positions}, hash {r.head_hash[:16]}…"
    if r.file_head is None:
        print(f"the damaged file's chain-head record is unreadable: restored up to {head}")
    elif r.reaches_file_head:
        print(f"the restored head is the damaged file's chain-head record ({head})")
    else:
        fp, fh = r.file_head
        print(
            f"FAIL: the damaged file's chain-head record is position {fp} (hash {fh[:16]}…), "
            f"the restored head {head}"
        )
    if r.lost:
        print(
            f"FAIL: lost: {span(r.lost)} (neither the damaged file nor the floor holds them); "
            f"{r.out} holds the {r.positions} entries before"
        )
        return 1
    if r.file_head is not None and not r.reaches_file_head:
        return 1
    print(
        f"OK: {r.out} holds {r.positions} entries of table {r.table_id}, chain verifies; put "
        "it in the damaged file's place (its keys/ folder beside it)"
    )
    return 0
