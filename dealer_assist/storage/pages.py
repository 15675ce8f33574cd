"""Page-level salvage of a damaged SQLite journal file (cut short, pages overwritten): the rows
SQLite itself refuses to read ("database disk image is malformed") read from the file's table
b-tree leaf pages directly, into a fresh copy the ordinary read-only code can audit.

The file format (https://www.sqlite.org/fileformat2.html): page 1 holds the schema
(``sqlite_master``); every table-leaf page (type 13) holds cells of (payload size, rowid,
record), a record being a header of serial types then the values; a payload larger than the
page spills into a chain of overflow pages. A cell whose overflow pages are past the end of the
file (or damaged) is not read. Rows go into the copy's table of the same column count whose
checks they pass (a ``hands`` row: a 64-hex ``hash``); nothing is written to the damaged file.
"""

from __future__ import annotations

import sqlite3
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.errors import JournalError

_TABLE_LEAF = 13
_TABLE_INTERIOR = 5
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class PageSalvage:
    """What the page scan found: ``pages`` in the file (whole ones), ``expected`` pages the
    header says the file had, ``rows`` read per table."""

    pages: int
    expected: int
    rows: dict[str, int]


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    value = 0
    for n in range(9):
        byte = buf[i + n]
        if n == 8:
            return (value << 8) | byte, i + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, i + n + 1
    raise IndexError("varint")


def _values(record: bytes) -> list[Any]:
    size, i = _varint(record, 0)
    types = []
    while i < size:
        t, i = _varint(record, i)
        types.append(t)
    out: list[Any] = []
    pos = size
    for t in types:
        if t == 0:
            out.append(None)
        elif 1 <= t <= 6:
            n = (1, 2, 3, 4, 6, 8)[t - 1]
            out.append(int.from_bytes(record[pos : pos + n], "big", signed=True))
            pos += n
        elif t == 7:
            out.append(struct.unpack(">d", record[pos : pos + 8])[0])
            pos += 8
        elif t in (8, 9):
            out.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            chunk = record[pos : pos + n]
            if len(chunk) < n:
                raise IndexError("record cut short")
            out.append(bytes(chunk) if t % 2 == 0 else chunk.decode("utf-8"))
            pos += n
        else:
            raise ValueError(f"serial type {t}")
    return out


class _File:
    def __init__(self, data: bytes) -> None:
        if data[:16] != b"SQLite format 3\x00":
            raise JournalError("not a SQLite file (its header is gone)")
        size = int.from_bytes(data[16:18], "big")
        self.page_size = 65536 if size == 1 else size
        self.usable = self.page_size - data[20]
        self.data = data
        self.pages = len(data) // self.page_size
        self.expected = int.from_bytes(data[28:32], "big") or self.pages
        self.schema_pages: set[int] = set()

    def page(self, no: int) -> bytes:
        if not 1 <= no <= self.pages:
            raise IndexError(f"page {no} is past the end of the file")
        return self.data[(no - 1) * self.page_size : no * self.page_size]

    def tree_cells(self, root: int) -> list[tuple[int, bytes]]:
        """The readable cells of the table b-tree at ``root`` (interior pages followed)."""
        out: list[tuple[int, bytes]] = []
        todo, seen = [root], set()
        while todo:
            no = todo.pop()
            if no in seen:
                continue
            seen.add(no)
            try:
                page = self.page(no)
            except IndexError:
                continue  # past the end: its rows are lost
            head = 100 if no == 1 else 0
            if page[head] == _TABLE_INTERIOR:
                count = int.from_bytes(page[head + 3 : head + 5], "big")
                todo.append(int.from_bytes(page[head + 8 : head + 12], "big"))
                for c in range(count):
                    at = int.from_bytes(page[head + 12 + 2 * c : head + 14 + 2 * c], "big")
                    todo.append(int.from_bytes(page[at : at + 4], "big"))
            else:
                out += self.leaf_cells(no)
        if root == 1:
            self.schema_pages = seen
        return out

    def leaf_cells(self, no: int) -> list[tuple[int, bytes]]:
        """(rowid, record) of every readable cell of table-leaf page ``no`` ([] otherwise)."""
        page, head = self.page(no), 100 if no == 1 else 0
        if page[head] != _TABLE_LEAF:
            return []
        count = int.from_bytes(page[head + 3 : head + 5], "big")
        out = []
        for c in range(count):
            at = int.from_bytes(page[head + 8 + 2 * c : head + 10 + 2 * c], "big")
            try:
                out.append(self._cell(page, at))
            except (IndexError, ValueError):
                continue  # a cell cut by the damage
        return out

    def _cell(self, page: bytes, at: int) -> tuple[int, bytes]:
        total, i = _varint(page, at)
        rowid, i = _varint(page, i)
        u, x = self.usable, self.usable - 35
        if total <= x:
            return rowid, page[i : i + total]
        m = ((u - 12) * 32 // 255) - 23
        k = m + (total - m) % (u - 4)
        local = k if k <= x else m
        payload = bytearray(page[i : i + local])
        nxt = int.from_bytes(page[i + local : i + local + 4], "big")
        seen = set()
        while len(payload) < total:
            if nxt in seen:
                raise ValueError("overflow loop")
            seen.add(nxt)
            over = self.page(nxt)
            payload += over[4 : 4 + min(u - 4, total - len(payload))]
            nxt = int.from_bytes(over[:4], "big")
        return rowid, bytes(payload)


def salvage_pages(damaged: Path, copy: Path) -> PageSalvage:
    """Read the rows of ``damaged`` page by page into a new SQLite file ``copy`` with the same
    schema (from page 1). Raises JournalError when the file cannot be read or has no schema."""
    try:
        data = damaged.read_bytes()
    except OSError as e:
        raise JournalError(f"cannot read {damaged}: {e.strerror}") from e
    f = _File(data)
    schema = [v for _, rec in f.tree_cells(1) if len(v := _values(rec)) == 5 and v[0] == "table"]
    if not schema:
        raise JournalError(f"{damaged}: its schema page is unreadable")
    con = sqlite3.connect(copy)
    try:
        tables: dict[int, list[tuple[str, list[str]]]] = {}
        for _, name, _, _, sql in schema:
            if name.startswith("sqlite_") or not sql:
                continue
            con.execute(sql)
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            tables.setdefault(len(cols), []).append((name, cols))
        rows: dict[str, int] = {}
        schema_pages = f.schema_pages
        for no in range(2, f.pages + 1):
            if no in schema_pages:
                continue
            for rowid, rec in f.leaf_cells(no):
                try:
                    values = _values(rec)
                except (IndexError, ValueError, UnicodeDecodeError):
                    continue
                name = _insert(con, tables.get(len(values), []), rowid, values)
                if name:
                    rows[name] = rows.get(name, 0) + 1
        con.commit()
    finally:
        con.close()
    return PageSalvage(f.pages, f.expected, rows)


def _insert(
    con: sqlite3.Connection, candidates: list[tuple[str, list[str]]], rowid: int, values: list[Any]
) -> str:
    for name, cols in candidates:
        row = dict(zip(cols, values, strict=True))
        if name == "hands":
            digest = row.get("hash")
            if not (isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX):
                continue
            row["hand_id"] = rowid  # the INTEGER PRIMARY KEY is the rowid (NULL in the record)
        try:
            marks = ", ".join("?" * len(row))
            con.execute(
                f'INSERT OR IGNORE INTO "{name}" ({", ".join(row)}) VALUES ({marks})',
                list(row.values()),
            )
        except sqlite3.Error:
            continue
        return name
    return ""
