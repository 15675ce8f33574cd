"""``settle --jobs N``: JSON Lines settled in N worker processes, in input order.

The records of a JSON Lines input are independent, so they are settled in batches by a pool of
forked workers (the caller's line settler, :func:`ui.commands.settle.settle_line`, in each, the
modules imported once before the fork) and the results taken back batch by batch in input
order: stdout, stderr and the exit code are those of one process, byte for byte. The pool's
feeder reads the input ahead of the workers (the whole input may be held in memory, as the
output already is). Where processes cannot be forked (no ``fork`` start method), the records
are settled here, in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import islice

#: Lines sent to a worker at a time: a batch's work (~0.3 ms a record) well above the cost of
#: sending it and its results between processes.
BATCH = 200

Line = tuple[int, bytes | None]
Result = tuple[str, str | None] | None
Settler = Callable[[int, bytes | None], Result]


def settle_in_workers(lines: Iterable[Line], jobs: int, settle_line: Settler) -> Iterator[Result]:
    """``settle_line`` of each of ``lines`` in ``jobs`` worker processes, in input order. The
    settler is passed in, not imported: the command imports this module, never the reverse (a
    module-level function, so a worker finds it by name in its forked copy).

    Raises:
        DealerAssistError: the input cannot be read (raised where the results reach it).
    """
    import multiprocessing

    from dealer_assist.record import settle_record  # noqa: F401 -- imported once, before the fork

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: one process
        yield from (settle_line(n, line) for n, line in lines)
        return
    with context.Pool(jobs) as pool:
        for results in pool.imap(partial(_settle_batch, settle_line), _batches(iter(lines))):
            yield from results


def _batches(lines: Iterator[Line]) -> Iterator[list[Line]]:
    while batch := list(islice(lines, BATCH)):
        yield batch


def _settle_batch(settle_line: Settler, batch: list[Line]) -> list[Result]:
    return [settle_line(n, line) for n, line in batch]
