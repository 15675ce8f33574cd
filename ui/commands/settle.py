"""``dealer-assist settle [FILE|-]``: hand records in, settlements out (HAND_RECORD.md).

Hostile input never traces back: the input is read as bytes and split on ``\\n`` only
(a U+2028 inside a string is not a line break; a UTF-8 byte-order mark at the very start is
dropped), each line decoded as strict UTF-8, JSON decoded with duplicate keys, NaN/Infinity,
integers over Python's digit limit and nesting deeper than
:data:`~ui.commands.settle_json.MAX_DEPTH` refused (:mod:`ui.commands.settle_json`), and a
record longer than :data:`MAX_RECORD_BYTES` skipped without being held in memory. Every such
problem is an ``InvalidRecordError`` naming the line and the field; in JSON Lines only that
line fails.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from dealer_assist.errors import DealerAssistError, InvalidRecordError, clip, shorten_quoted
from ui.commands.settle_json import NotJson, decode, encode

#: Longest record (one JSON Lines line, or a whole single-object input) read, in bytes. A real
#: record is a few KiB; a bigger one is refused before it is decoded.
MAX_RECORD_BYTES = 1 << 20
#: Longest stretch without a line end read past :data:`MAX_RECORD_BYTES` while skipping a
#: record too long: after that the input is not read further (``settle /dev/zero`` ends).
MAX_SKIP_BYTES = 16 << 20
#: The UTF-8 byte-order mark: accepted (and dropped) at the very start of the input.
_BOM = b"\xef\xbb\xbf"


def register(sub: Any) -> None:
    """Add the ``settle`` sub-command."""
    p = sub.add_parser(
        "settle",
        help="settle hand records (JSON object or JSON Lines) per HAND_RECORD.md",
        description="Read one hand record (a JSON object) or JSON Lines of records and print the "
        "settlement of each. Invalid records: exit 2, the field and reason on stderr.",
    )
    p.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="settle JSON Lines in N worker processes (default 1: this process); the output "
        "and the refusals in input order, byte for byte as with 1; the whole input is read "
        "ahead",
    )
    p.set_defaults(func=run)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return jobs


def run(args: argparse.Namespace) -> int:
    """Settle the records in ``args.file``; 0 if all settled, 2 if any was invalid or the input
    was empty.

    Raises:
        DealerAssistError: the file cannot be opened or read.
    """
    jobs = getattr(args, "jobs", 1)
    if args.file == "-":
        return _collecting_less(settle_stream, sys.stdin.buffer, jobs)
    try:
        f = open(args.file, "rb")  # noqa: SIM115 -- closed below; only opening errors are ours
    except OSError as e:
        raise DealerAssistError(f"cannot read {args.file}: {e.strerror}") from e
    with f:
        return _collecting_less(settle_stream, f, jobs)


#: Young objects allocated between two collections of the cycle collector while settling
#: (Python's default: 700).
GC_YOUNG = 50_000


def _collecting_less(settle: Callable[[BinaryIO, int], int], stream: BinaryIO, jobs: int) -> int:
    """``settle(stream, jobs)`` with the cycle collector's youngest generation collected after
    :data:`GC_YOUNG` allocations instead of Python's 700 (thresholds restored after), and
    what is alive at the process's exit frozen (:func:`gc.freeze` from :mod:`atexit`).

    A record's objects are freed by their reference counts (decoded JSON and a settlement hold
    no cycle), so each collection walks the record in hand for nothing: at 700 one ran every
    few records. The command's process ends after it, and the collections at the end of a
    process walk every object alive (the modules, the evaluator's caches): frozen, they skip
    them (~20 M instructions a run). Frozen at exit, not here: a process that goes on (the
    tests, a caller of :func:`ui.cli.main`) keeps collecting what it frees later.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, *thresholds[1:])
    try:
        return settle(stream, jobs)
    finally:
        gc.set_threshold(*thresholds)
        atexit.register(gc.freeze)


def settle_stream(stream: BinaryIO, jobs: int = 1) -> int:
    """Settle the records read from the byte ``stream``: settlements on stdout (one indented
    object, or JSON Lines), each refusal on stderr naming the line and the field (HAND_RECORD.md).
    JSON Lines in ``jobs`` worker processes when ``jobs`` > 1 (the same bytes out, in order).

    Returns:
        0 if every record settled; 2 if any was refused or the input was empty.

    Raises:
        DealerAssistError: the stream cannot be read.
    """
    lines = _lines(stream)
    head: list[tuple[int, bytes | None]] = []
    size = 0
    for n, line in lines:  # up to one record's worth: a single object, or JSON Lines
        head.append((n, line))
        size += MAX_RECORD_BYTES + 1 if line is None or line is ENDLESS else len(line)
        if size > MAX_RECORD_BYTES:
            break
    else:
        whole = b"".join(line or b"" for _, line in head)
        if not whole.strip():
            print("dealer-assist settle: empty input: no hand record", file=sys.stderr)
            return 2
        single = _single(whole, head)
        if single is not None:
            return single
    return _settle_lines(_chain(head, lines), jobs)


def _single(whole: bytes, head: list[tuple[int, bytes | None]]) -> int | None:
    """Settle ``whole`` as one JSON object and print it indented; None if it is JSON Lines."""
    filled = [(n, line.strip()) for n, line in head if line and line.strip()]
    if len(filled) > 1 and _object_shaped(filled[0][1]):
        return None  # JSON Lines, not decoded twice
    try:
        obj = decode(whole)
    except NotJson as e:
        if len(filled) > 1 and any(_object_shaped(line) for _, line in filled):
            return None  # several values, one a line of its own: JSON Lines
        return _fail(f"{e.where()}: not a hand record: {e.why}")
    except InvalidRecordError as e:
        obj = e
    # A one-line input names its line, like JSON Lines; a document spread over lines is the record.
    where = f"line {filled[0][0]}: " if len(filled) == 1 else ""
    try:
        if isinstance(obj, InvalidRecordError):
            raise obj
        result = _guarded(obj)
    except DealerAssistError as e:
        return _fail(f"{where}invalid hand record: {_message(e)}")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


def _settle_lines(lines: Iterator[tuple[int, bytes | None]], jobs: int = 1) -> int:
    """JSON Lines: one output line per input line, an error object in place of a bad record;
    with ``jobs`` > 1 settled in that many worker processes, in input order
    (:mod:`ui.commands.settle_jobs`)."""
    if jobs > 1:
        from ui.commands.settle_jobs import settle_in_workers

        results = settle_in_workers(lines, jobs, settle_line)
    else:
        results = (settle_line(n, line) for n, line in lines)
    status = 0
    out: list[str] = []
    for result in results:
        if result is None:
            continue
        text, error = result
        if error is not None:
            status = 2
            print(f"dealer-assist settle: {error}", file=sys.stderr)
        out.append(text)
    # Written at the end in one go, so a crash mid-way leaves nothing half-written.
    sys.stdout.writelines(out)
    return status


def settle_line(n: int, line: bytes | None) -> tuple[str, str | None] | None:
    """Line ``n`` of JSON Lines settled: ``(output line, None)``, or ``(error object line,
    the error)`` for a line refused; None for a blank line (no output). ``line`` None: a line
    too long (skipped); :data:`ENDLESS`: no line end in sight (the input's last)."""
    if line is not None and (not line or line.isspace()):  # not line.strip(): no copy
        return None
    if line is ENDLESS:
        error = (
            f"line {n}: record: no line end within {MAX_RECORD_BYTES + MAX_SKIP_BYTES} "
            "bytes: the rest of the input is not read"
        )
        return json.dumps({"error": error}, ensure_ascii=False) + "\n", error
    try:
        if line is None:
            raise InvalidRecordError("record", f"longer than {MAX_RECORD_BYTES} bytes")
        result: dict[str, Any] = _guarded(decode(line))
        return encode(result) + "\n", None
    except NotJson as e:
        error = f"line {n}{e.where(', ')}: not JSON: {e.why}"
    except DealerAssistError as e:
        error = f"line {n}: {_message(e)}"
    except MemoryError:  # the settlements held so far filled the memory
        error = f"line {n}: record: out of memory"
    return json.dumps({"error": error}, ensure_ascii=False) + "\n", error


def _fail(message: str) -> int:
    print(f"dealer-assist settle: {message}", file=sys.stderr)
    return 2


def _message(e: DealerAssistError) -> str:
    """The error's text with every quoted input value cut to about 100 characters (the game
    modules quote values whole)."""
    if isinstance(e, InvalidRecordError):
        return f"{clip(e.field)}: {shorten_quoted(e.reason)}"
    return shorten_quoted(str(e))


_settle_record: Callable[[Any], dict[str, Any]] | None = None


def _guarded(obj: Any) -> dict[str, Any]:
    """``settle_record(obj)``, a record too big for the memory left refused like any invalid
    record."""
    global _settle_record
    if _settle_record is None:  # imported on the first record: not for --help or a bad argument
        from dealer_assist.record import settle_record

        _settle_record = settle_record
    try:
        result = _settle_record(obj)
    except MemoryError as e:
        raise InvalidRecordError("record", "too big to settle in the memory available") from e
    return result


# -- reading ---------------------------------------------------------------------------------


def _lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)`` for each ``\\n``-separated line; ``None`` in place of a line
    longer than :data:`MAX_RECORD_BYTES`, whose bytes are skipped, never held; :data:`ENDLESS`
    (and nothing after it) when no line end comes within :data:`MAX_SKIP_BYTES` more."""
    n = 0
    while True:
        try:
            line: bytes | None = stream.readline(MAX_RECORD_BYTES + 1)
            if not line:
                return
            if n == 0 and line.startswith(_BOM):
                line = line[len(_BOM) :]  # a byte-order mark some editors write: not text
            if len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
                skipped = 0
                while line and not line.endswith(b"\n"):
                    if skipped >= MAX_SKIP_BYTES:
                        yield n + 1, ENDLESS
                        return
                    line = stream.readline(1 << 16)
                    skipped += len(line)
                line = None
        except OSError as e:
            raise DealerAssistError(f"cannot read the input: {e.strerror}") from e
        n += 1
        yield n, line


#: In place of a line with no end in sight (see :func:`_lines`): the input's last.
ENDLESS = b"\0endless"


def _chain(
    head: list[tuple[int, bytes | None]], rest: Iterator[tuple[int, bytes | None]]
) -> Iterator[tuple[int, bytes | None]]:
    yield from head
    yield from rest


def _object_shaped(line: bytes) -> bool:
    """Whether a stripped line looks like a whole JSON object (JSON Lines); the first line of an
    indented document is ``{`` or ends with ``,``."""
    return len(line) > 1 and line.startswith(b"{") and line.endswith(b"}")
