"""A table's journal rebuilt from the floor database's copy (``dealer-assist audit restore``):
the floor holds every entry the table forwarded, hashed and signed as the table wrote it; the
damaged journal still holds some of them (read from its pages) and perhaps a few the floor never
received (after the floor's head).

The restore walks positions 1, 2, ... in chain order. A position both sides hold must have the
same hash on both (else the damaged file or the floor was changed: nothing is written); a
position only the floor holds is taken from the floor; after the floor's head the damaged file's
entries are taken while they continue the chain. Every entry's hash is recomputed from its
content and linked to the one before, and the finished file is verified whole (hashes, links,
signatures against the key ring given, e.g. the floor's copy of the table's key) before it
replaces nothing: it is written under a temporary name beside ``out`` and renamed into place
only when it verifies, so a failed restore leaves no file behind.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa

from dealer_assist.errors import JournalError
from dealer_assist.ports import StoredHand, VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.engine import journal_url, make_engine, migrate, write_transaction
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.hand_index import search_rows
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.rows import hand_values
from dealer_assist.storage.schema import chain_head, hand_search, hands
from dealer_assist.storage.signing import KeyRing
from dealer_assist.storage.verify import _runs

_BATCH = 500


@dataclass(frozen=True)
class RestoreResult:
    """What a restore did.

    Attributes:
        table_id: the table restored.
        out: the restored journal file (``None`` when nothing was written).
        positions: the restored chain's last position (0: nothing restored).
        head_hash: the restored chain head's hash.
        from_file: positions taken from the damaged file that the floor holds too, each with
            the floor's hash (ranges).
        from_floor: positions the damaged file no longer reads, taken from the floor (ranges).
        not_forwarded: positions after the floor's head taken from the damaged file (ranges).
        floor_head: the floor's head position of the table.
        file_head: the damaged file's chain-head record (position, hash), ``None`` unreadable.
        lost: positions up to the file's chain head that neither side holds (ranges).
        verify: the verify of the restored file (its hashes, links and signatures).
        failure: why nothing was written (``None`` when the file was written).
    """

    table_id: str
    out: Path | None
    positions: int
    head_hash: str
    from_file: tuple[tuple[int, int], ...]
    from_floor: tuple[tuple[int, int], ...]
    not_forwarded: tuple[tuple[int, int], ...]
    floor_head: int
    file_head: tuple[int, str] | None
    lost: tuple[tuple[int, int], ...] = ()
    verify: VerifyResult | None = None
    failure: str | None = None

    @property
    def reaches_file_head(self) -> bool:
        """The restored chain holds the damaged file's own chain-head record (its position,
        with its hash): nothing the file recorded is missing."""
        return self.file_head is not None and self.file_head in self.hashes

    #: (position, hash) of the restored chain's head and of the damaged file's head position
    hashes: tuple[tuple[int, str], ...] = ()


@dataclass
class _Walk:
    chain: list[StoredHand] = field(default_factory=list)
    from_file: list[int] = field(default_factory=list)
    from_floor: list[int] = field(default_factory=list)
    not_forwarded: list[int] = field(default_factory=list)
    prev: str = GENESIS_HASH

    def take(self, hand: StoredHand, where: str) -> str | None:
        """Append ``hand`` (the next position) when it links and hashes; else the reason."""
        if hand.prev_hash != self.prev:
            return f"position {hand.hand_id} ({where}) does not link to the position before"
        if chain_hash(hand.prev_hash, hand.content()) != hand.hash:
            return f"position {hand.hand_id} ({where}): its content does not match its hash"
        self.chain.append(hand)
        self.prev = hand.hash
        return None


def file_head(journal: Journal) -> tuple[int, str] | None:
    """The chain-head record (last position, its hash) of a journal, ``None`` unreadable."""
    try:
        with journal.reading("read the chain head") as conn:
            row = conn.execute(
                sa.select(chain_head.c.last_hand_id, chain_head.c.last_hash).where(
                    chain_head.c.id == 1
                )
            ).one_or_none()
    except (JournalError, sa.exc.SQLAlchemyError):
        return None
    return None if row is None else (int(row[0]), str(row[1]))


def readable_entries(
    journal: Journal, table_id: str, ranges: tuple[tuple[int, int], ...]
) -> dict[int, StoredHand]:
    """The entries of ``table_id`` that read back whole in the ``ranges`` of hand ids (a
    damaged journal's readable ranges, :meth:`Journal.salvage`), by position."""
    found: dict[int, StoredHand] = {}
    for lo, hi in ranges:
        for hand in _range(journal, lo, hi):
            if hand.table_id == table_id:
                found[hand.hand_id] = hand
    return found


def _range(journal: Journal, lo: int, hi: int) -> Iterator[StoredHand]:
    try:
        for hand in journal.iter_hands(lo):
            if hand.hand_id > hi:
                return
            yield hand
    except JournalError:  # a row that no longer decodes: read the rest one by one
        for position in range(lo, hi + 1):
            with contextlib.suppress(JournalError):
                yield journal.get_hand(position)


def restore_from_floor(
    local: dict[int, StoredHand],
    floor: Floor,
    table_id: str,
    out: Path,
    keys: KeyRing,
    *,
    head: tuple[int, str] | None = None,
) -> RestoreResult:
    """Rebuild ``table_id``'s journal into the new SQLite file ``out`` from the floor's copy and
    the ``local`` entries still readable in the damaged journal (by position); ``head``: the
    damaged file's chain-head record when it reads.

    A position held by both with different hashes, a floor copy that does not verify
    (:meth:`Floor.verify`), or a restored file whose verify against ``keys`` fails: nothing is
    written, the reason in :attr:`RestoreResult.failure`.

    Raises:
        JournalError: ``out`` exists or its folder does not; the file cannot be written.
        FloorError / FloorUnavailableError: the floor cannot be read.
    """
    if out.exists():
        raise JournalError(f"{out} exists: the restore writes a new file, it replaces none")
    floor_head = (floor.head(table_id) or (0, GENESIS_HASH))[0]
    walk = _Walk()

    def result(
        failure: str | None,
        written: Path | None = None,
        verified: VerifyResult | None = None,
        lost: tuple[tuple[int, int], ...] = (),
    ) -> RestoreResult:
        return RestoreResult(
            table_id,
            written,
            len(walk.chain),
            walk.prev,
            tuple(_runs(walk.from_file)),
            tuple(_runs(walk.from_floor)),
            tuple(_runs(walk.not_forwarded)),
            floor_head,
            head,
            lost,
            verified,
            failure,
            _at(walk.chain, head),
        )

    checked = floor.verify(table_id) if floor_head else None
    if checked is not None and not checked.ok:
        return result(
            f"the floor's copy of {table_id} does not verify: position "
            f"{checked.first_bad_hand}: {checked.reason}"
        )
    for theirs in floor.iter_records(table_id) if floor_head else ():
        mine = local.get(theirs.hand_id)
        if mine is not None and mine.hash != theirs.hash:
            return result(
                f"position {theirs.hand_id} differs between the damaged file (hash "
                f"{mine.hash[:16]}…) and the floor's copy ({theirs.hash[:16]}…): "
                "one of them was changed after it was forwarded"
            )
        why = walk.take(mine or theirs, "the floor's copy" if mine is None else "both")
        if why is not None:
            return result(why)
        (walk.from_floor if mine is None else walk.from_file).append(theirs.hand_id)
    position = len(walk.chain) + 1
    while position in local:  # not forwarded yet: the damaged file's own, while they chain on
        if walk.take(local[position], "the damaged file") is not None:
            break
        walk.not_forwarded.append(position)
        position += 1
    end = max([head[0] if head else 0, *local])
    lost = tuple((a, b) for a, b in _runs(list(range(position, end + 1))))
    if not walk.chain:
        return result("neither the damaged file nor the floor holds an entry of " + table_id)
    verified = _write(out, walk.chain, keys)
    if not verified.ok:
        return result(
            f"the restored chain does not verify: position {verified.first_bad_hand}: "
            f"{verified.reason}",
            None,
            verified,
            lost,
        )
    return result(None, out, verified, lost)


def _at(chain: list[StoredHand], head: tuple[int, str] | None) -> tuple[tuple[int, str], ...]:
    """(position, hash) of the restored chain at the file's head position (when it reaches
    it) and at its own head."""
    wanted = {len(chain)} | ({head[0]} if head else set())
    return tuple((h.hand_id, h.hash) for h in chain if h.hand_id in wanted)


def _write(out: Path, chain: list[StoredHand], keys: KeyRing) -> VerifyResult:
    """Write ``chain`` into a new journal file beside ``out``, verify it against ``keys`` and
    rename it to ``out`` when it verifies (else remove it); its verify."""
    if not out.parent.is_dir():
        raise JournalError(f"cannot write {out}: the folder {out.parent} does not exist")
    part = out.with_name(f".{out.name}.restoring")
    _remove(part)
    engine = make_engine(journal_url(str(part)), create=True)
    try:
        migrate(engine, create=True)
        for i in range(0, len(chain), _BATCH):
            batch = chain[i : i + _BATCH]
            with write_transaction(engine) as conn:
                conn.execute(sa.insert(hands), [hand_values(h) for h in batch])
                rows = search_rows(batch)
                if rows:
                    conn.execute(sa.insert(hand_search), rows)
                conn.execute(
                    sa.update(chain_head)
                    .where(chain_head.c.id == 1)
                    .values(last_hand_id=batch[-1].hand_id, last_hash=batch[-1].hash)
                )
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    except sa.exc.SQLAlchemyError as e:
        engine.dispose()
        _remove(part)
        raise JournalError(f"cannot write {part}: {e}") from e
    engine.dispose()
    with Journal(str(part), create=False, read_only=True) as journal:
        verified = journal.verify(keys, checkpoint=True)
    if not verified.ok:
        _remove(part)
        return verified
    os.replace(part, out)
    return verified


def _remove(part: Path) -> None:
    for name in (part.name, part.name + "-wal", part.name + "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (part.parent / name).unlink()
