"""``dealer-assist phh``: Hold'em and Stud hands to and from PHH hand histories (docs/PHH.md).

``phh export --db PATH [--table T] [--from ISO] [--to ISO] [-o FILE.phhs]``: the journal's settled
pot-game hands, each as the one fold of its operations gives it (which must be what the journal
stores), as a ``.phhs`` file or on stdout (read-only: the journal is opened with
``create=False``); ``--from`` inclusive, ``--to`` exclusive, on the hand's start (a time without
an offset is UTC). ``phh import FILE.phh[s] [...] [-o FILE.jsonl]``: hand records as JSON Lines,
what ``dealer-assist settle`` reads. A malformed hand: ``FILE[KEY]: field: reason`` on stderr,
exit 2, nothing written.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from dealer_assist.errors import DealerAssistError, InvalidRecordError, JournalError
from dealer_assist.games.holdem import CODE
from dealer_assist.games.stud import CODE as STUD
from dealer_assist.interchange import dumps_phhs, loads_phh_text, phh_to_record, record_to_phh


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``phh`` with its ``export`` and ``import`` actions to the CLI."""
    parser = subparsers.add_parser(
        "phh",
        help="export journaled Hold'em and Stud hands as PHH, import PHH hand histories",
        description="PHH (Poker Hand History) files to and from the hand journal and hand records.",
    )
    actions = parser.add_subparsers(dest="phh_action", required=True, metavar="ACTION")
    export = actions.add_parser(
        "export", help="settled Hold'em and Stud hands of a journal as .phhs"
    )
    export.add_argument("--db", required=True, metavar="PATH_OR_URL", help="journal database")
    export.add_argument("--table", metavar="T", help="only this table's hands")
    export.add_argument(
        "--from",
        dest="start",
        metavar="ISO",
        type=_when,
        help="hands started at or after this time (ISO-8601; UTC if no offset)",
    )
    export.add_argument(
        "--to",
        dest="end",
        metavar="ISO",
        type=_when,
        help="hands started before this time (ISO-8601; UTC if no offset)",
    )
    export.add_argument("-o", "--output", metavar="FILE.phhs", help="output file (default stdout)")
    export.set_defaults(func=run_export)
    imp = actions.add_parser("import", help="PHH hands as hand records (JSON Lines)")
    imp.add_argument("files", nargs="+", metavar="FILE.phh[s]", help="PHH files to read")
    imp.add_argument("-o", "--output", metavar="FILE.jsonl", help="output file (default stdout)")
    imp.add_argument(
        "--unit",
        type=_unit,
        metavar="AMOUNT",
        help="what one unit of the records is in the files' amounts, e.g. 0.01 for "
        "amounts in currency with cents (default 1: whole units)",
    )
    imp.set_defaults(func=run_import)


def _unit(text: str) -> Decimal:
    try:
        unit = Decimal(text)
    except InvalidOperation as e:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from e
    if not unit.is_finite() or unit <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return unit


def _when(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not an ISO-8601 time: {text!r}") from e
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def run_export(args: argparse.Namespace) -> int:
    """``phh export``: 0 with the hands written (none is not an error), 2 when the journal
    cannot be read or a stored hand cannot be written as PHH (naming the hand). Each hand is
    the one fold of its operations (its record and settlement as the fold gives them,
    :func:`~dealer_assist.pitboss.recompute.folded_record`); a hand whose fold is not what the
    journal stores, or that does not fold, is refused the same way."""
    # deferred: keeps other commands' start fast
    from dealer_assist.pitboss.recompute import folded_record
    from dealer_assist.storage import Journal

    hands: list[dict[str, Any]] = []
    try:
        with Journal(args.db, create=False) as journal:
            for hand in journal.iter_hands():
                if hand.game not in (CODE, STUD) or hand.status != "settled":
                    continue
                if args.table is not None and hand.table_id != args.table:
                    continue
                if (args.start is not None and hand.started_at < args.start) or (
                    args.end is not None and hand.started_at >= args.end
                ):
                    continue
                try:
                    record, settlement = folded_record(hand)
                    hands.append(
                        record_to_phh(
                            record,
                            settlement,
                            hand_id=hand.hand_id,
                            table=hand.table_id,
                            time=hand.started_at,
                        )
                    )
                except InvalidRecordError as e:
                    print(f"dealer-assist phh: hand {hand.hand_id}: {e}", file=sys.stderr)
                    return 2
    except JournalError as e:
        print(f"dealer-assist phh: {e}", file=sys.stderr)
        return 2
    _write(args.output, dumps_phhs(hands) if hands else "")
    print(f"{len(hands)} hands exported", file=sys.stderr)
    return 0


def run_import(args: argparse.Namespace) -> int:
    """``phh import``: 0 with every hand written as a record, 2 when any hand is malformed
    (each one named on stderr; nothing is written)."""
    lines: list[str] = []
    bad = 0
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                hands = loads_phh_text(f.read(), path)
        except OSError as e:
            raise DealerAssistError(f"cannot read {path}: {e.strerror}") from e
        except InvalidRecordError as e:
            print(f"dealer-assist phh: {e}", file=sys.stderr)
            bad += 1
            continue
        for name, phh in hands.items():
            try:
                record = phh_to_record(phh, args.unit)
            except InvalidRecordError as e:
                print(f"dealer-assist phh: {name}: {e}", file=sys.stderr)
                bad += 1
                continue
            lines.append(json.dumps(record, ensure_ascii=False))
    if bad:
        return 2
    _write(args.output, "".join(line + "\n" for line in lines))
    return 0


def _write(path: str | None, text: str) -> None:
    """All at once at the end, so an error leaves nothing half-written. A file is readable by
    its owner only (0600, the temporary file's mode kept by the rename): it holds every hole
    card of the hands."""
    if path is None:
        sys.stdout.write(text)
        return
    from pathlib import Path

    from ui.export_files import replace_file

    replace_file(Path(path), lambda f: f.write(text.encode("utf-8")))
