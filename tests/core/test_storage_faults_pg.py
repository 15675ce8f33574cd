"""Storage faults on PostgreSQL, with the real server (127.0.0.1:5432, trust,
database ``test``; skipped when absent): connections killed with ``pg_terminate_backend`` from a
second connection between writes (the pool pings before lending: replaced, no error), inside an
append waiting for a row lock (retried, the hand stored once) and every 0.3 s under a running
``simulate`` (every hand journaled); an unreachable server (a lost connection after the
retries, in a sentence).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import StorageLostError
from dealer_assist.storage.faults import RETRIES, ResilientJournal, StorageNotice
from dealer_assist.storage.journal import Journal
from dealer_assist.table.recovery import sort_pending
from tests.fixtures.journal_fixtures import make_backend, make_entry
from tests.ui.test_storage_faults import TABLE, _journal, _simulate

pytestmark = pytest.mark.integration


# -- PostgreSQL: connections killed, the server unreachable -------------------------------------


ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"  # the user make_backend found


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A journal URL in a schema of its own, with an application name to find its backends."""
    global ADMIN_DSN
    backend = make_backend("postgres", tmp_path)
    made = next(backend)
    ADMIN_DSN = str(made.pg_dsn)
    name = f"dafaults{uuid.uuid4().hex[:10]}"
    yield f"{made.url}&application_name={name}", name
    next(backend, None)


def _terminate(name: str, *, waiting: bool = False) -> int:
    """pg_terminate_backend from a second connection: the backends of ``name`` (``waiting``:
    only one waiting for a lock); how many."""
    import psycopg

    where = "application_name = %s" + (" and wait_event_type = 'Lock'" if waiting else "")
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        row = conn.execute(
            f"select count(pg_terminate_backend(pid)) from pg_stat_activity where {where}",
            (name,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.postgres
def test_a_pooled_connection_the_server_killed_is_replaced_before_the_next_write(
    pg_url: tuple[str, str],
) -> None:
    url, name = pg_url
    journal = _journal(url)
    journal.write_step(TABLE, "h1", 0, "open", {})
    assert _terminate(name) >= 1
    began = time.monotonic()
    journal.write_step(TABLE, "h1", 1, "bets", {})
    took = time.monotonic() - began
    assert [s.step_no for s in journal.pending_steps(TABLE)] == [0, 1]
    assert journal.faults == 0 and took < 2  # pool_pre_ping: no error, no retry


@pytest.mark.postgres
def test_a_connection_killed_inside_an_append_is_retried_and_the_hand_stored_once(
    pg_url: tuple[str, str],
) -> None:
    import psycopg

    url, name = pg_url
    notes: list[StorageNotice] = []
    journal = _journal(url, on_notice=notes.append)
    journal.write_step(TABLE, "h1", 0, "open", {})
    schema = url.split("search_path%3D", 1)[1].split("&", 1)[0]
    blocker = psycopg.connect(ADMIN_DSN, options=f"-csearch_path={schema}")
    blocker.execute("select * from chain_head where id = 1 for update")  # the append waits
    result: list[Any] = []
    entry = make_entry(1, hand_uid="h1", table_id=TABLE)
    appender = threading.Thread(target=lambda: result.append(journal.append_hand(entry)))
    appender.start()
    try:
        deadline = time.monotonic() + 10
        killed = 0
        while not killed and time.monotonic() < deadline:
            killed = _terminate(name, waiting=True)  # the journal's, inside its transaction
            time.sleep(0.02)
        assert killed == 1
    finally:
        blocker.rollback()
        blocker.close()
        appender.join(30)
    assert result and result[0].hand_uid == "h1"
    assert journal.count() == 1 and journal.pending_steps(TABLE) == []
    assert journal.faults >= 1 and notes and "answered again" in str(notes[0])


@pytest.mark.postgres
def test_simulate_goes_on_while_its_connections_are_killed(
    pg_url: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    url, name = pg_url
    stop = threading.Event()
    kills: list[int] = []

    schema = url.split("search_path%3D", 1)[1].split("&", 1)[0]

    def hands() -> int:
        import psycopg

        try:
            with psycopg.connect(ADMIN_DSN, options=f"-csearch_path={schema}") as conn:
                row = conn.execute("select count(*) from hands").fetchone()
        except psycopg.Error:
            return 0
        return int(row[0]) if row else 0

    def killer() -> None:  # once the table deals, its connections killed every 0.3 s
        while not stop.wait(0.05) and hands() < 2:
            pass
        while not stop.wait(0.3):
            kills.append(_terminate(name))

    thread = threading.Thread(target=killer, name="pg-killer")
    thread.start()
    try:
        status, out, err = _simulate(["--hands", "25", "--db", url], capsys)
    finally:
        stop.set()
        thread.join()
    assert status == 0, err
    assert sum(kills) >= 3, kills
    assert "hands: 25 (settled" in out
    with Journal(url, create=False) as journal:
        assert journal.verify().ok and journal.count() == 25
        assert sort_pending(journal.pending_steps(TABLE)).hands == []


def test_an_unreachable_server_is_a_lost_connection_after_the_retries() -> None:
    pytest.importorskip("psycopg")
    waits: list[float] = []
    journal = ResilientJournal("postgresql+psycopg://postgres@127.0.0.1:1/test", sleep=waits.append)
    with pytest.raises(StorageLostError) as caught:
        journal.open()
    assert waits == RETRIES["lost"].delays() == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert "connection to the journal's database was lost" in str(caught.value)
    assert caught.value.advice.startswith("check that the database server")
