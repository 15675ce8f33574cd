"""``--records``: a table's settled hands as HAND_RECORD JSON lines, written crash-safely.

The file mirrors the journal: one line per settled hand of the table (its record, ``hand_id``,
``hand_uid`` and ``settlement``), in journal order, appended, never truncated. Each line is one
``write`` on an append-only descriptor followed by ``fsync``, so a ``kill -9`` leaves at most a
partial last line. :meth:`RecordsFile.open` repairs that line (cuts it off) and finds where the
file stops (its last hand, checked against the journal); :meth:`RecordsFile.catch_up` appends
every settled hand journaled after it: on a restart, the hands the crash kept out of the file
(the one it interrupted, journaled by the resume, too). A new file starts after the journal's
last entry when the job began; until its first line that start is kept beside it
(``<file>.start``), so a crash before the first line loses nothing either.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Any

from dealer_assist.at_rest import private_file
from dealer_assist.errors import ConfigError, JournalError, StorageFullError
from dealer_assist.ports import StoredHand
from dealer_assist.storage.journal import Journal

CHUNK = 65536  # bytes read at a time from the end, looking for the last whole line
MODE = 0o600  # the start file (no cards in it)


class RecordsFile:
    """The ``--records`` file of one table (see the module docstring).

    Args:
        path: the JSON Lines file (created when missing, 0600: its cards are the table's).
        table_id: the table whose settled hands it holds.
        group: the journal's group: the file is 0640 and owned by it
            (:func:`dealer_assist.at_rest.private_file`).

    Call :meth:`open` once the journal is open and before the table resumes, then
    :meth:`catch_up` after each hand; :meth:`close` at the end. Errors: JournalError when the
    file cannot be read or written (names it and the OS reason); ConfigError when its last hand
    is not in this journal.
    """

    def __init__(self, path: str | Path, table_id: str, *, group: str | None = None) -> None:
        self.path = Path(path)
        self.table_id = table_id
        self.group = group
        self.start_file = self.path.with_name(self.path.name + ".start")
        self.last = 0  # the journal hand_id of the file's last line (0: none yet)
        self.repaired = 0  # bytes of a partial last line cut off by open()
        self.written = 0  # lines appended by this job
        self._scanned = 0  # journal entries up to this id have been looked at
        self._fd: int | None = None

    def open(self, journal: Journal) -> None:
        """Repair the file's tail and find where it stops (see the module docstring)."""
        try:
            private_file(self.path, group=self.group)
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
            self.last = self._repair_tail(self._fd)
        except OSError as e:
            raise JournalError(f"records file {self.path}: {e.strerror or e}") from e
        if self.last:
            self._check_in(journal)
            with contextlib.suppress(OSError):  # left by a crash right after the first line
                self.start_file.unlink(missing_ok=True)
        else:
            self.last = self._start(journal)
        self._scanned = self.last

    def notice(self) -> str | None:
        """The sentence of a repair :meth:`open` made, or None."""
        if not self.repaired:
            return None
        return (
            f"records file {self.path}: a half-written last line ({self.repaired} bytes) "
            "cut off; its hand is appended again"
        )

    def catch_up(self, journal: Journal) -> int:
        """Append every settled hand of the table journaled after the file's last; how many."""
        before = self.written
        for entry in journal.iter_hands(self._scanned + 1):
            self._scanned = entry.hand_id
            if entry.table_id == self.table_id and entry.status == "settled":
                self._append(entry)
        return self.written - before

    def close(self) -> None:
        """Close the file; safe to call twice."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    # -- the file -------------------------------------------------------------------------------
    def _append(self, entry: StoredHand) -> None:
        if self._fd is None:
            raise JournalError(f"records file {self.path} is not open")
        line = {
            **entry.record,
            "hand_id": entry.hand_id,
            "hand_uid": entry.hand_uid,
            "settlement": entry.settlement,
        }
        data = (json.dumps(line, ensure_ascii=False) + "\n").encode()
        size = os.fstat(self._fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError as e:
            with contextlib.suppress(OSError):  # no half line left behind (a full disk)
                os.ftruncate(self._fd, size)
            text = (
                f"records file {self.path}: cannot write hand {entry.hand_id}: "
                f"{e.strerror or e} (the next run appends it)"
            )
            if e.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)):
                raise StorageFullError(text) from e
            raise JournalError(text) from e
        self.last = entry.hand_id
        self.written += 1
        if self.written == 1:
            with contextlib.suppress(OSError):  # the file has a first line: it is its own start
                self.start_file.unlink()

    def _repair_tail(self, fd: int) -> int:
        """Cut a partial or unreadable last line; the hand_id of the last good line (0: none)."""
        size = os.fstat(fd).st_size
        while size:
            end, line = _last_line(fd, size)
            hand_id = _hand_id(line) if end else 0
            if end == size and hand_id:
                return hand_id
            keep = end if hand_id else max(0, end - len(line) - 1)
            self.repaired += size - keep
            os.ftruncate(fd, keep)
            os.fsync(fd)
            size = keep
        return 0

    def _check_in(self, journal: Journal) -> None:
        """The file's last hand is this journal's (a file of another journal is refused)."""
        uid = _last_uid(self._fd, self.path)
        try:
            stored = journal.get_hand(self.last)
        except JournalError:
            stored = None
        if stored is None or stored.hand_uid != uid:
            raise ConfigError(
                f"--records {self.path}: its last hand {self.last} ({uid}) is not in journal "
                f"{journal.url_or_path}: give a new file or the journal it belongs to"
            )

    def _start(self, journal: Journal) -> int:
        """Where an empty file starts: its kept start, else the journal's last entry now."""
        try:
            saved = json.loads(self.start_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = None
        if isinstance(saved, dict) and saved.get("table_id") == self.table_id:
            after = saved.get("after")
            if isinstance(after, int) and 0 <= after <= journal.count():
                return after
        after = journal.count()
        tmp = self.start_file.with_name(self.start_file.name + ".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, MODE)
            try:
                os.write(fd, json.dumps({"table_id": self.table_id, "after": after}).encode())
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.start_file)
            _fsync_dir(self.path.parent)
        except OSError as e:
            raise JournalError(f"records file {self.start_file}: {e.strerror or e}") from e
        return after


def _last_line(fd: int, size: int) -> tuple[int, bytes]:
    """(end, line): the offset just after the file's last newline (0: none) and the line that
    newline ends (without it)."""
    buf = b""
    pos = size
    while pos > 0:
        step = min(CHUNK, pos)
        pos -= step
        buf = os.pread(fd, step, pos) + buf
        end = buf.rfind(b"\n")
        if end < 0:
            continue
        start = buf.rfind(b"\n", 0, end)
        if start >= 0 or pos == 0:
            return pos + end + 1, buf[start + 1 : end]
    return 0, b""


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _hand_id(line: bytes) -> int:
    value = _parse(line)
    hand_id = value.get("hand_id") if value else None
    return hand_id if isinstance(hand_id, int) and hand_id > 0 else 0


def _last_uid(fd: int | None, path: Path) -> str | None:
    if fd is None:
        raise JournalError(f"records file {path} is not open")
    _, line = _last_line(fd, os.fstat(fd).st_size)
    value = _parse(line) or {}
    uid = value.get("hand_uid")
    return uid if isinstance(uid, str) else None


def _fsync_dir(folder: Path) -> None:
    """The folder's entry of a new file made durable (POSIX; a no-op where it cannot be)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
