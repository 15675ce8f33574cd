"""Shared helpers for the floor tests (no tests here).

The floor is the real PostgreSQL server at 127.0.0.1:5432 (trust, database ``test``), in a schema
of its own per test, dropped afterwards; the tests skip, with the reason, when it cannot be
reached. :class:`TcpProxy` stands between a forwarder and that server so a test can take the
floor "down" (connections cut, new ones refused) and bring it back without touching the server
other people use.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.storage import GENESIS_HASH, Journal, canonical_json, chain_hash
from dealer_assist.storage.floor import Floor
from tests.test_journal_fixtures import PG_DB, PG_HOST, PG_PORT, _pg_admin, make_entry


@dataclass
class FloorDb:
    """A migrated floor schema for one test: ``url`` for :class:`Floor` (``url_via(port)``
    through a proxy), ``sql()`` to read or tamper through the plain driver."""

    user: str
    schema: str
    admin: Any
    app: str

    def url_via(self, port: int = PG_PORT, host: str = PG_HOST) -> str:
        """The floor's URL on ``host:port`` (the server itself, or a proxy)."""
        return (f"postgresql+psycopg://{self.user}@{host}:{port}/{PG_DB}"
                f"?options=-csearch_path%3D{self.schema}&application_name={self.app}")  # fmt: skip

    @property
    def url(self) -> str:
        """The floor's URL on the server itself."""
        return self.url_via()

    def sql(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement in the floor's schema, committed; its rows if it returns any."""
        cur = self.admin.execute(f'SET search_path TO "{self.schema}"')
        cur = self.admin.execute(text, params)
        return cur.fetchall() if cur.description else []

    def terminate_backends(self) -> int:
        """``pg_terminate_backend`` of every connection of this floor's application; how many."""
        rows = self.admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (self.app,),
        ).fetchall()
        return len(rows)


def make_floor_db() -> Iterator[FloorDb]:
    """Generator for a fixture: a fresh, migrated floor schema, dropped afterwards."""
    admin, dsn = _pg_admin()
    user = dsn.split("//", 1)[1].split("@", 1)[0]
    schema = f"ft_{uuid.uuid4().hex[:16]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    db = FloorDb(user, schema, admin, f"floor_test_{schema}")
    try:
        Floor(db.url).migrate()
        yield db
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def fill(journal: Journal, n: int, start: int = 0, table_id: str = "UTH-3") -> None:
    """Append ``n`` settled hands (through the product's journal code) to ``journal``."""
    for i in range(start, start + n):
        journal.append_hand(make_entry(i, table_id=table_id, hand_uid=f"{table_id}-{i}"))


def rewrite_and_rehash(path: Path, position: int, extra: dict[str, Any]) -> None:
    """What an attacker with write access to a SQLite journal does: change one entry's
    ``extra`` and recompute its hash, every later hash and the chain head (so the journal's
    own verify passes)."""
    con = sqlite3.connect(path)
    try:
        con.execute(
            "UPDATE hands SET extra = ? WHERE hand_id = ?", (canonical_json(extra), position)
        )
        con.commit()
    finally:
        con.close()
    with Journal(str(path), create=False, supervise=False) as journal:
        hands = list(journal.iter_hands(position))
        prev = journal.get_hand(position - 1).hash if position > 1 else GENESIS_HASH
    con = sqlite3.connect(path)
    try:
        for hand in hands:
            digest = chain_hash(prev, {**hand.content()})
            con.execute("UPDATE hands SET prev_hash = ?, hash = ? WHERE hand_id = ?",
                        (prev, digest, hand.hand_id))  # fmt: skip
            prev = digest
        con.execute("UPDATE chain_head SET last_hash = ? WHERE id = 1", (prev,))
        con.execute("UPDATE verify_mark SET hash = (SELECT hash FROM hands "
                    "WHERE hands.hand_id = verify_mark.hand_id)")  # fmt: skip
        con.commit()
    finally:
        con.close()


class TcpProxy:
    """A TCP relay on 127.0.0.1:``port`` to ``target``, on one thread: :meth:`down` closes
    every relayed connection and stops listening (connections are refused), :meth:`up`
    listens again on the same port."""

    def __init__(self, target: tuple[str, int] = (PG_HOST, PG_PORT)) -> None:
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._up = threading.Event()
        self._up.set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="test-tcp-proxy")
        self._thread.start()

    def down(self) -> None:
        """Cut every connection and refuse new ones."""
        self._up.clear()
        self._settle()

    def up(self) -> None:
        """Listen again."""
        self._up.set()
        self._settle()

    def close(self) -> None:
        """Stop the relay thread (idempotent)."""
        self._stop.set()
        self._thread.join(5)

    def _settle(self) -> None:
        done = threading.Event()
        self._pending = done
        done.wait(2)

    def _loop(self) -> None:
        sel = selectors.DefaultSelector()
        peers: dict[socket.socket, socket.socket] = {}
        listener: socket.socket | None = None

        def drop(s: socket.socket) -> None:
            for one in (s, peers.pop(s, None)):
                if one is None:
                    continue
                peers.pop(one, None)
                with contextlib.suppress(KeyError, ValueError):
                    sel.unregister(one)
                one.close()

        try:
            while not self._stop.is_set():
                if self._up.is_set() and listener is None:
                    listener = socket.socket()
                    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    listener.bind(("127.0.0.1", self.port))
                    listener.listen(16)
                    sel.register(listener, selectors.EVENT_READ)
                elif not self._up.is_set() and listener is not None:
                    sel.unregister(listener)
                    listener.close()
                    listener = None
                    for s in list(peers):
                        drop(s)
                pending = getattr(self, "_pending", None)
                if pending is not None:
                    pending.set()
                for key, _ in sel.select(timeout=0.02):
                    s = key.fileobj
                    assert isinstance(s, socket.socket)
                    if s is listener:
                        client, _ = listener.accept()
                        try:
                            upstream = socket.create_connection(self.target, timeout=2)
                        except OSError:
                            client.close()
                            continue
                        upstream.settimeout(None)
                        peers[client], peers[upstream] = upstream, client
                        sel.register(client, selectors.EVENT_READ)
                        sel.register(upstream, selectors.EVENT_READ)
                        continue
                    if s not in peers:
                        continue
                    try:
                        data = s.recv(65536)
                        if data:
                            peers[s].sendall(data)
                    except OSError:
                        data = b""
                    if not data:
                        drop(s)
        finally:
            for s in list(peers):
                drop(s)
            if listener is not None:
                listener.close()
            sel.close()
