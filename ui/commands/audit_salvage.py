"""``audit verify`` and ``audit show`` of a SQLite journal file SQLite cannot open any more (cut
short by a page or more, its schema or chain pages damaged: "database disk image is
malformed"): the rows are read from the file's pages (:mod:`dealer_assist.storage.pages`) into
a temporary copy, the same command runs on the copy (against the original's key folder), and
the damaged range is named. Nothing is written beside the damaged file."""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from dealer_assist.errors import JournalError

_DAMAGE = re.compile(r"malformed|not a database|disk image|file is encrypted", re.I)


def _sqlite_file(db: str) -> Path | None:
    if "://" in db:
        if not db.startswith("sqlite:///"):
            return None
        db = db.removeprefix("sqlite:///").split("?", 1)[0]
    path = Path(db)
    return path if path.is_file() else None


def salvage_if_damaged(
    args: argparse.Namespace, run: Callable[[argparse.Namespace], int]
) -> int | None:
    """When ``args.db`` is a SQLite file SQLite refuses as damaged: ``run`` on a copy read from
    its pages, the damage said, its exit status (at least 1, but one hand shown: its own);
    else None (run as usual)."""
    from dealer_assist.storage import Journal
    from dealer_assist.storage.pages import salvage_pages
    from dealer_assist.storage.signing import default_keys_folder
    from dealer_assist.storage.verify import format_ranges

    path = _sqlite_file(args.db)
    if getattr(args, "salvaged_from", None) is not None or path is None:
        return None
    try:
        with Journal(str(path), create=False, read_only=True):
            return None
    except JournalError as e:
        if not _DAMAGE.search(str(e)):
            return None
        why = str(e)
    with tempfile.TemporaryDirectory(prefix="dealer-assist-salvage-") as tmp:
        copy = Path(tmp) / path.name
        try:
            found = salvage_pages(path, copy)
        except JournalError as e:
            print(f"dealer-assist audit: {why}; {e}")
            return 2
        cut = (
            f"cut short: {found.pages} of {found.expected} pages"
            if found.pages < found.expected
            else f"{found.pages} pages"
        )
        print(f"FAIL: damaged journal file {path} ({why}; {cut}): read from its pages")
        sub = argparse.Namespace(**vars(args))
        sub.db, sub.salvaged_from = str(copy), path
        sub.keys = args.keys or str(default_keys_folder(path))
        code = run(sub)
        with Journal(str(copy), create=False, read_only=True) as journal:
            pages = journal.salvage()
        bad = format_ranges(pages.unreadable)
        print(f"readable from the file's pages: hands {format_ranges(pages.readable) or 'none'}")
        if bad:
            head = pages.unreadable[-1][1]
            print(
                f"damaged: hands {bad} (the file's chain head records {head}); the floor "
                "keeps every hand it was forwarded: dealer-assist audit restore --db "
                f"{path} --from-floor URL -o NEW rebuilds it"
            )
        else:
            print("damaged: no hand; the file's later pages held no hand the chain head records")
        # one hand shown whole is that hand's answer; a verify or a list of a damaged file fails
        return code if getattr(args, "hand_id", None) is not None else max(code, 1)
