"""``dealer-assist audit recompute``: every journaled hand folded again, the first that
disagrees named; and the operations of a hand for ``audit show --json``.

``audit recompute --db PATH_OR_URL [HAND_ID]``: each hand (table records have none) is folded
again from its operations (``extra.operations``; a hand of a release before them: those its
record gives) with today's rules and its recorded pay tables, and the fold's settlement, record
and status are compared with the stored ones (:func:`dealer_assist.pitboss.recompute.recompute`).
Exit 0 and ``OK: N hands fold to what was recorded`` when every hand agrees; exit 1 naming the
first hand that disagrees (``FAIL: hand 7 (UTH-3, uth): seats[seat=2].net: recorded 1500,
recomputed 1000``) or no longer folds; exit 2 when the journal or the hand cannot be read. The
journal is opened read-only, as by ``audit verify``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dealer_assist.pitboss.recompute import Recompute
    from dealer_assist.storage import StoredHand

SHOWN = 20
"""Differences printed for the hand that disagrees (the rest are counted)."""


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``audit recompute`` to the ``audit`` actions."""
    parser = actions.add_parser(
        "recompute", help="fold every hand again and name the first that disagrees"
    )
    parser.add_argument("--db", required=True, metavar="PATH_OR_URL", help="journal database")
    parser.add_argument(
        "hand_id",
        type=int,
        nargs="?",
        metavar="HAND_ID",
        help="only this hand (default: every hand)",
    )
    parser.set_defaults(func=run_recompute)


def run_recompute(args: argparse.Namespace) -> int:
    """``audit recompute``: 0 every hand agrees, 1 a hand disagrees (named), 2 unreadable."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.pitboss.recompute import recompute
    from dealer_assist.storage import Journal

    checked = journaled = 0
    try:
        with Journal(args.db, create=False, read_only=True) as journal:
            chosen = (
                [journal.get_hand(args.hand_id)]
                if args.hand_id is not None
                else journal.iter_hands()
            )
            for hand in chosen:
                if hand.status == "table":
                    continue
                result = recompute(hand)
                if not result.agrees:
                    print("\n".join(_disagreement(hand, result)))
                    return 1
                checked += 1
                journaled += result.source == "journal"
    except DealerAssistError as e:
        print(f"dealer-assist audit: {e}", file=sys.stderr)
        return 2
    if args.hand_id is not None and checked == 0:
        print(f"hand {args.hand_id} is a table record: nothing to recompute")
        return 0
    what = f"{checked} hand{'s' if checked != 1 else ''}"
    print(
        f"OK: {what} fold to what was recorded ({journaled} from their journaled operations, "
        f"{checked - journaled} from their records)"
    )
    return 0


def _disagreement(hand: StoredHand, result: Recompute) -> list[str]:
    where = f"hand {hand.hand_id} ({hand.table_id}, {hand.game}"
    where += f", uid {hand.hand_uid})" if hand.hand_uid else ")"
    if result.error is not None:
        lines = [f"FAIL: {where}: {result.error}"]
    else:
        n = len(result.differences)
        source = "journaled operations" if result.source == "journal" else "record"
        lines = [f"FAIL: {where}: {n} difference{'s' if n != 1 else ''} (folded from its {source})"]
        for d in result.differences[:SHOWN]:
            lines.append(
                f"  {d.path or '(whole)'}: recorded {_text(d.recorded)}, "
                f"recomputed {_text(d.recomputed)}"
            )
        if len(result.differences) > SHOWN:
            lines.append(f"  ... and {len(result.differences) - SHOWN} more")
    lines.append(f"first disagreeing hand: {hand.hand_id}")
    return lines


def _text(value: Any) -> str:
    import json

    return "absent" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def operations_doc(hand: StoredHand) -> dict[str, Any]:
    """The ``operations`` of ``hand`` for ``audit show --json``: each operation's JSON with its
    ``kind``, ``operations_from`` ``journal`` (the entry's own ``extra.operations``) or
    ``record`` (derived from the record of a release before them, by folding it), and
    ``operations_stopped`` when the record's fold stops early (the operations up to there).
    Empty for a table record."""
    from dealer_assist.engine.fold import fold
    from dealer_assist.engine.operations import Operation, operation_entry
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.pitboss.hand_ops import folds, hand_operations
    from dealer_assist.ports import OPERATIONS_KEY

    stored = hand.extra.get(OPERATIONS_KEY)
    if stored is not None:
        return {"operations": stored, "operations_from": "journal"}
    if not folds(hand):
        return {}
    done: list[Operation] = []
    doc: dict[str, Any] = {"operations_from": "record"}
    try:
        start = hand_operations(hand)
        fold(start.state, start.operations, lambda state, op: done.append(op))
    except (DealerAssistError, KeyError, ValueError, TypeError) as e:
        doc["operations_stopped"] = f"{type(e).__name__}: {e}"
    doc["operations"] = [operation_entry(op) for op in done]
    return doc


def change_lines(hand: StoredHand, currency: str) -> list[str]:
    """``audit show``'s lines of the corrections and undos of ``hand`` (who made each, the pit
    boss who authorised it, the decision and stakes before and after, when); none when it had
    none (:mod:`dealer_assist.pitboss.corrections`)."""
    from dealer_assist.pitboss.corrections import change_text, changes
    from ui.money import fmt_money

    found = changes(hand)
    if not found:
        return []
    return [
        f"Corrections and undos ({len(found)}):",
        *(f"  {change_text(c, lambda v: fmt_money(v, currency))}" for c in found),
    ]
