"""``dealer-assist audit``: check the hand journal's hash chain and show stored hands.

``audit verify --db PATH_OR_URL``: exit 0 and ``OK: N hands, chain verifies`` when every hash,
link and signature checks out; exit 1 and ``FAIL: hand N: reason`` naming the first bad hand
otherwise. Signatures are checked against the pinned public keys (``--public-key``, the
``journal.public_key`` of ``--config``), the floor's (``--floor URL`` or the config's
``[floor] url``, which also compares the chain with the floor's copy and with the signer's
checkpoints the floor received: :mod:`ui.commands.audit_witness`) or, failing those, the
journal's own key folder (said: not pinned);
entries written before the table signed its chain are reported (``unsigned before position N``),
a failure with ``--require-signed`` (docs/AUDIT.md).
A journal with table records (changes between hands: buy-ins, sit-outs, the button...) in its
chain says ``OK: N entries (H hands, T table records), chain verifies``.
``audit show --db PATH_OR_URL HAND_ID [--json] [--currency CODE]``: one hand, readable (amounts as
money, e.g. ``EUR 10.00``) or as JSON (amounts in integer minor units, as stored; the hand's
``operations`` at the top, each with its ``kind``: ``operations_from`` says whether the journal
kept them or they were derived from the record of an older entry); a table record readable as its
change and the seats after it.
``audit recompute --db PATH_OR_URL [HAND_ID]``: every hand folded again, the first that disagrees
named (:mod:`ui.commands.audit_recompute`).
``audit show --db PATH_OR_URL`` (no HAND_ID): one line per journal entry that can be read: its entry
number (the HAND_ID to show it), table, ``hand N`` or ``table record N`` (counted apart), game,
end, status (a table record's kind); then the counts.
``audit show ... --export FILE``: the hand (or every readable hand) as JSON in FILE (``0600``),
signed with the table's key (``FILE.sig``; ``audit verify-export FILE`` checks it).
A missing database, a database without a journal or an unknown hand: message, exit 2. Neither
action creates or changes a database: the journal is opened read-only (a read-only copy, archive
or mount is fine; no migrations, so a schema this program cannot read as it is is named). On a
damaged file both still give every hand that reads back and name the damaged ranges
(``hands 120-130 unreadable``).
``audit acknowledge --db PATH_OR_URL --by NAME``: an operator accepts a journal that failed
verify, so a table may append to it again (the chain head and the verified-up-to mark are
re-anchored at the last stored entry; the full verify keeps reporting the break).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from dealer_assist.errors import JournalError
from dealer_assist.ports import TABLE_RECORD
from ui.commands import (
    audit_recompute,
    audit_restore,
    audit_salvage,
    audit_signing,
    audit_witness,
)
from ui.commands.audit_format import format_hand

if TYPE_CHECKING:
    from dealer_assist.ports import VerifyResult
    from dealer_assist.storage import Journal
    from dealer_assist.storage.signing import KeyRing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``audit`` with its ``verify`` and ``show`` actions to the CLI."""
    parser = subparsers.add_parser(
        "audit",
        help="verify the hand journal's hash chain, show stored hands",
        description="Verify the tamper-evident hand journal or show a stored hand.",
    )
    actions = parser.add_subparsers(dest="audit_action", required=True, metavar="ACTION")
    verify = actions.add_parser("verify", help="recompute every hash and check the chain")
    verify.add_argument("--db", required=True, metavar="PATH_OR_URL", help="journal database")
    verify.add_argument(
        "--keys",
        metavar="DIR",
        help="the journal's key folder (default keys/ beside a SQLite journal)",
    )
    audit_signing.add_trust_options(verify)
    verify.add_argument(
        "--require-signed",
        action="store_true",
        help="an unsigned entry is a failure, even before a legacy checkpoint",
    )
    verify.add_argument(
        "--allow-unsigned",
        action="store_true",
        help="count unsigned entries before the first signed one instead of failing them "
        "(reads an old journal never upgraded; the default needs a signed legacy checkpoint)",
    )
    verify.set_defaults(func=run_verify)
    show = actions.add_parser("show", help="print one stored hand")
    show.add_argument("--db", required=True, metavar="PATH_OR_URL", help="journal database")
    show.add_argument(
        "hand_id",
        type=int,
        nargs="?",
        metavar="HAND_ID",
        help="the hand to print (default: list every readable hand)",
    )
    show.add_argument(
        "--json",
        action="store_true",
        help="print the hand as JSON (amounts in integer minor units)",
    )
    show.add_argument(
        "--currency",
        default="EUR",
        metavar="CODE",
        help="currency of the table's amounts (default EUR, the shipped tables'; "
        "the journal does not store it)",
    )
    show.add_argument(
        "--export",
        metavar="FILE",
        help="write the hand(s) as JSON to FILE, signed with the table's key (FILE.sig)",
    )
    show.add_argument(
        "--keys",
        metavar="DIR",
        help="the key folder to sign the export with (default keys/ beside it)",
    )
    show.set_defaults(func=run_show)
    ack = actions.add_parser("acknowledge", help="accept a journal that failed verify")
    ack.add_argument("--db", required=True, metavar="PATH_OR_URL", help="journal database")
    ack.add_argument("--by", required=True, metavar="NAME", help="the operator acknowledging")
    ack.set_defaults(func=run_acknowledge)
    audit_signing.register(actions)
    audit_recompute.register(actions)
    audit_restore.register(actions)


def _journal(db: str, keys: str | None = None) -> Journal:
    from dealer_assist.storage import Journal  # deferred: keeps other commands' start fast

    return Journal(db, create=False, read_only=True, keys=keys)


def run_verify(args: argparse.Namespace) -> int:
    """``audit verify``: 0 when the chain verifies, 1 when it does not, 2 when unreadable."""
    from dealer_assist.errors import DealerAssistError

    salvaged = audit_salvage.salvage_if_damaged(args, run_verify)  # a file SQLite refuses
    if salvaged is not None:
        return salvaged

    try:
        audit_signing.floor_from_config(args)
        with _journal(args.db, args.keys) as journal:
            ring = audit_signing.trusted_keys(args, journal)
            _read_keys(journal, ring)  # a bad key file is named as such, not as damage
            try:
                result = journal.verify(
                    ring, require_signed=args.require_signed, checkpoint=not args.allow_unsigned
                )
                hands = journal.count(hands_only=True) if result.ok else result.hands_checked
            except JournalError as e:
                return _damaged(journal, str(e))
            if not result.ok and _damaged(journal, None) == 1:
                print(f"first failure: hand {result.first_bad_hand}: {result.reason}")
                return 1
            note = None if result.ok else journal.acknowledgement()
            keys = _key_lines(journal, ring, result)
            floor = []
            if args.floor:
                table = audit_signing.config_table_id(args.config) if args.config else None
                floor = audit_witness.floor_lines(journal, args.floor, table)
            if args.config:
                floor += audit_signing.notary_lines(journal, args.config)
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    failed = [line for line in keys + floor if line.startswith(("FAIL", "first changed"))]
    if result.ok and failed:
        failed.append(f"the chain itself verifies ({result.hands_checked} entries)")
        print("\n".join(failed))
        return 1
    if result.ok:
        records = result.hands_checked - hands
        what = f"{result.hands_checked} hands"
        if records:  # table records share the chain (and its numbering) with the hands
            what = f"{result.hands_checked} entries ({hands} hands, {records} table records)"
        print(f"OK: {what}, chain verifies")
        if result.head_hash:
            print(f"head hash: {result.head_hash}")
        print("\n".join(keys + floor))
        return 0
    where = f"hand {result.first_bad_hand}: " if result.first_bad_hand is not None else ""
    print(f"FAIL: {where}{result.reason}")
    if result.first_bad_hand is not None:
        print(f"first changed hand: {result.first_bad_hand}")
    print(f"{result.hands_checked} hands before it verify")
    if note:
        print(f"the break was {note}")
    print("\n".join(line for line in keys + floor if line))
    return 1


def _read_keys(journal: Journal, ring: KeyRing) -> None:
    """Read every table's key now. Raises JournalError for a key file that holds no key."""
    try:
        tables = journal.table_ids()
    except JournalError:
        return  # a damaged file: the verify names the damage
    for table in tables:
        ring.for_table(table)


def _key_lines(journal: Journal, ring: KeyRing, result: VerifyResult) -> list[str]:
    """What the signatures were checked against; FAIL lines for a key folder whose key is not
    the pinned one (a replaced key not yet used)."""
    lines = []
    if result.unsigned:
        first = result.signed_from
        lines.append(
            f"unsigned before position {first}: {result.unsigned} entries written before the "
            f"table signed its chain"
            if first
            else f"unsigned: all {result.unsigned} entries "
            f"(written before signing; dealer-assist audit keygen)"
        )
    for table in journal.table_ids():
        key = ring.for_table(table)
        local = None if journal.key_store is None else journal.key_store.public_key(table)
        if key is None:
            if result.signed_from is not None:
                lines.append(f"signatures of table {table} not checked: no public key")
            continue
        trust = "" if key.pinned else " NOT pinned: a replaced key is not caught (--public-key)"
        lines.append(f"table {table}: key {key.key_id} ({key.source}){trust}")
        if key.pinned and local is not None and local.hex != key.hex:
            lines.append(
                f"FAIL: table {table}'s key folder holds key {local.key_id} ({local.source}), "
                f"not the pinned key {key.key_id}: the key was replaced"
            )
    if result.signatures_checked:
        lines.append(f"signatures: {result.signatures_checked} verify")
    return lines


def run_show(args: argparse.Namespace) -> int:
    """``audit show``: print hand ``HAND_ID``; 2 when the journal or the hand is missing."""
    salvaged = audit_salvage.salvage_if_damaged(args, run_show)  # a file SQLite refuses
    if salvaged is not None:
        return salvaged
    try:
        with _journal(args.db, args.keys) as journal:
            if args.export:
                return _export(journal, args)
            if args.hand_id is None:
                return _list_hands(journal)
            try:
                hand = journal.get_hand(args.hand_id)
            except JournalError as e:
                raise JournalError(_in_damage(journal, args.hand_id) or str(e)) from e
    except JournalError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    if args.json:
        doc = {**hand.content(), "prev_hash": hand.prev_hash, "hash": hand.hash}
        ops = audit_recompute.operations_doc(hand)  # at the top, not again inside extra
        doc["extra"] = {k: v for k, v in hand.extra.items() if k != "operations"}
        print(json.dumps({**doc, **ops}, indent=2, ensure_ascii=False))
    else:
        print("\n".join(format_hand(hand, args.currency)))
    return 0


def _export(journal: Journal, args: argparse.Namespace) -> int:
    """``show --export``: the hand(s) as JSON (amounts in minor units) in a ``0600`` file,
    then ``FILE.sig``. Raises JournalError (nothing to export, no key: the file is removed)."""
    from pathlib import Path

    from dealer_assist.at_rest import open_private
    from dealer_assist.errors import ConfigError

    if args.hand_id is None:
        chosen = list(journal.iter_hands())
    else:
        chosen = [journal.get_hand(args.hand_id)]
    if not chosen:
        raise JournalError("no hand to export")
    docs = [{**h.content(), "prev_hash": h.prev_hash, "hash": h.hash} for h in chosen]
    path = Path(args.export)
    try:
        with open_private(path) as out:
            json.dump(
                docs[0] if args.hand_id is not None else docs, out, indent=2, ensure_ascii=False
            )
            out.write("\n")
    except ConfigError as e:
        raise JournalError(str(e)) from e
    try:
        sig = audit_signing.sign_export_file(path, chosen[0].table_id, journal.key_store)
    except JournalError:
        path.unlink(missing_ok=True)  # an unsigned export is not left behind
        raise
    print(f"exported {len(docs)} {'entry' if len(docs) == 1 else 'entries'} to {path}")
    print(f"signature: {sig}")
    return 0


def run_acknowledge(args: argparse.Namespace) -> int:
    """``audit acknowledge``: 0 when acknowledged or nothing to acknowledge, 2 on errors."""
    from dealer_assist.storage import Journal

    try:
        with Journal(args.db, create=False, supervise=False) as journal:
            result = journal.acknowledge(args.by)
            last = journal.last_hand()
    except JournalError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    if result is None:
        print("nothing to acknowledge: chain verifies")
        return 0
    print(f"acknowledged by {args.by}: hand {result.first_bad_hand}: {result.reason}")
    print(f"appends continue after entry {0 if last is None else last.hand_id}")
    return 0


def _damaged(journal: Journal, error: str | None) -> int:
    """Name the damaged ranges of a file that cannot be read whole and the readable hands:
    1 when some rows are unreadable, 0 when none are (the failure is elsewhere). ``error``: the
    whole-journal read already failed (then there is always a FAIL to print)."""
    from dealer_assist.storage.verify import format_ranges

    found = journal.salvage()
    if found.error is None and error is None:
        return 0
    why = found.error or error
    bad = format_ranges(found.unreadable) or "none"
    print(f"FAIL: damaged journal ({why}): hands {bad} unreadable")
    print(f"readable: hands {format_ranges(found.readable) or 'none'}")
    return 1


def _in_damage(journal: Journal, hand_id: int) -> str | None:
    """Why ``hand_id`` cannot be shown when it lies in a damaged range, else ``None``."""
    from dealer_assist.storage.verify import format_ranges

    try:
        found = journal.salvage()
    except JournalError:
        return None
    for first, last in found.unreadable:
        if first <= hand_id <= last and found.error is not None:
            return (
                f"hand {hand_id} is unreadable ({found.error}): hands "
                f"{format_ranges(found.unreadable)} unreadable; readable: hands "
                f"{format_ranges(found.readable) or 'none'}"
            )
    return None


def _list_hands(journal: Journal) -> int:
    """One line per readable stored hand; damaged ranges named. 0, or 1 when some are not."""
    from dealer_assist.storage.verify import format_ranges

    found = journal.salvage()
    # the journal numbers its entries (what HAND_ID names); hands and table records are also
    # counted apart, so "hand 12" is the twelfth hand, not the twelfth entry
    counts = {"hand": 0, "table record": 0}
    rows = [("entry", "table", "kind", "game", "ended", "status")]
    for first, last in found.readable:
        for hand_id in range(first, last + 1):
            hand = journal.get_hand(hand_id)
            kind = "table record" if hand.status == TABLE_RECORD else "hand"
            counts[kind] += 1
            if kind == "hand":
                status = hand.status + (f": {hand.void_reason}" if hand.void_reason else "")
            else:
                status = str(hand.record.get("kind", "?"))
            ended = str(hand.content()["ended_at"])
            rows.append(
                (
                    str(hand.hand_id),
                    hand.table_id,
                    f"{kind} {counts[kind]}",
                    hand.game,
                    ended,
                    status,
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].rjust(max(7, widths[0]))]
        cells += [cell.ljust(w) for cell, w in zip(row[1:5], widths[1:], strict=True)]
        print("  ".join([*cells, row[5]]))
    print(
        f"{counts['hand']} hands, {counts['table record']} table records"
        + (" (counted among the readable entries)" if found.unreadable else "")
    )
    if found.unreadable and found.error is not None:
        print(f"hands {format_ranges(found.unreadable)} unreadable ({found.error})")
        return 1
    return 0
