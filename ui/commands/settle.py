"""``dealer-assist settle [FILE|-]``: hand records in, settlements out (HAND_RECORD.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.record import settle_record


def register(sub: Any) -> None:
    """Add the ``settle`` sub-command."""
    p = sub.add_parser(
        "settle",
        help="settle hand records (JSON object or JSON Lines) per HAND_RECORD.md",
        description="Read one hand record (a JSON object) or JSON Lines of records and print the "
        "settlement of each. Invalid records: exit 2, the field and reason on stderr.",
    )
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Settle the records in ``args.file``; 0 if all settled, 2 if any was invalid."""
    text = sys.stdin.read() if args.file == "-" else _read(args.file)
    try:
        single = json.loads(text)
    except json.JSONDecodeError:
        return _settle_lines(text)
    try:
        result = settle_record(single)
    except DealerAssistError as e:
        print(f"dealer-assist settle: invalid hand record: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise DealerAssistError(f"cannot read {path}: {e.strerror}") from e


def _settle_lines(text: str) -> int:
    """JSON Lines: one output line per input line, an error object in place of a bad record."""
    status = 0
    out: list[str] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            result: dict[str, Any] = settle_record(json.loads(line))
        except json.JSONDecodeError as e:
            result, status = {"error": f"line {n}: not JSON: {e.msg}"}, 2
        except DealerAssistError as e:
            result, status = {"error": f"line {n}: {e}"}, 2
        if "error" in result:
            print(f"dealer-assist settle: {result['error']}", file=sys.stderr)
        out.append(json.dumps(result, ensure_ascii=False))
    # Written at the end in one go, so a crash mid-way leaves nothing half-written.
    sys.stdout.write("".join(line + "\n" for line in out))
    return status
