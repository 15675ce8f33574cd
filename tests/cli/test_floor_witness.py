"""The floor as witness: the signer's head goes to the floor with every batch and at least each
minute; ``audit verify --config`` checks the journal against those checkpoints (a cut tail, a
journal deleted and restarted at hand 1, an entry rewritten at a checkpoint fail, naming the
position); ``floor enrol`` pins the key (a shift manager's login); a re-created floor marks
re-sent history "not witnessed" (docs/AUDIT.md "Witnesses")."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dealer_assist.notary.client import NotaryClient
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.storage import Journal
from dealer_assist.storage.floor import Floor, FloorError, Pusher
from dealer_assist.storage.floor.access import FloorAccess
from dealer_assist.storage.floor.push import notary_checkpoints
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from tests.fixtures.journal_fixtures import make_entry
from tests.fixtures.notary_fixtures import NotaryProcess, notary_fixture  # noqa: F401 - the fixture
from ui.cli import main

TABLE = "UTH-3"
BEFORE = datetime(2001, 1, 1, tzinfo=UTC)  # recorded before any enrolment (the floor's now)
AFTER = datetime(2100, 1, 1, tzinfo=UTC)  # recorded after it


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def floor(floor_db: FloorDb) -> Iterator[Floor]:
    with Floor(floor_db.url) as f:
        yield f


class Clock:
    """An injected clock that moves only when told."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def notary_client(n: NotaryProcess) -> NotaryClient:
    return NotaryClient(n.socket, TABLE, timeout=2.0)


def deal(db: Path, n: NotaryProcess, count: int, start: int = 1, when: datetime = AFTER) -> None:
    with Journal(str(db), notary=notary_client(n), clock=lambda: when) as j:
        for i in range(start, start + count):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))


def forward(db: Path, floor: Floor, n: NotaryProcess) -> Pusher:
    with Journal(str(db), create=False, supervise=False) as j:
        pusher = Pusher(
            j, floor, signed_only=True, checkpoint_of=notary_checkpoints(notary_client(n))
        )
        pusher.push()
    return pusher


def enrol_key(floor: Floor, n: NotaryProcess) -> None:
    head = notary_client(n).head()
    assert head.public_key is not None
    floor.enrol(TABLE, "uth", head.public_key, "SM-1")


def config(tmp_path: Path, n: NotaryProcess, floor_db: FloorDb) -> Path:
    toml = tmp_path / "table.toml"
    toml.write_text(
        f'[table]\nid = "{TABLE}"\n[notary]\nsocket = "{n.socket}"\n'
        f'[floor]\nurl = "{floor_db.url}"\n',
        encoding="utf-8",
    )
    return toml


def verify(capsys: pytest.CaptureFixture[str], db: Path, toml: Path) -> tuple[int, str]:
    code = main(["audit", "verify", "--db", str(db), "--config", str(toml)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_signers_head_goes_with_every_batch_and_at_least_each_minute(
    tmp_path: Path, floor: Floor, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    deal(db, notary, 3)
    asked: list[int] = []
    heads = notary_checkpoints(notary_client(notary))

    def counted() -> object:
        asked.append(1)
        return heads()

    clock = Clock(AFTER)
    with Journal(str(db), create=False, supervise=False) as j:
        pusher = Pusher(j, floor, signed_only=True, checkpoint_of=counted, clock=clock)  # type: ignore[arg-type]
        pusher.push()
        assert len(asked) == 1  # with the batch
        clock.now += timedelta(seconds=59)
        pusher.push()
        assert len(asked) == 1  # nothing stored, not a minute yet
        clock.now += timedelta(seconds=1)
        pusher.push()
        assert len(asked) == 2  # a minute: the head again, nothing new stored
    checks = floor.checkpoints(TABLE)
    assert [(c.position, c.verified) for c in checks] == [(3, False)]  # no key enrolled yet
    deal(db, notary, 2, start=4)
    with Journal(str(db), create=False, supervise=False) as j:
        pusher.journal = j
        pusher.push()  # a batch: its head at once
    assert len(asked) == 3
    assert [c.position for c in floor.checkpoints(TABLE)] == [3, 5]


def test_enrolment_verifies_the_checkpoints_and_a_recreated_floor_is_not_witnessed(
    tmp_path: Path, floor_db: FloorDb, floor: Floor, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    deal(db, notary, 3, when=BEFORE)  # dealt before this floor knew the table
    enrol_key(floor, notary)
    deal(db, notary, 2, start=4, when=AFTER)
    forward(db, floor, notary)  # everything re-sent at once, with one checkpoint
    checks = floor.checkpoints(TABLE)
    assert [(c.position, c.verified) for c in checks] == [(5, True)]
    assert floor.witness_counts(TABLE) == {False: 3, True: 2}
    rows = floor_db.sql("SELECT position, witnessed FROM floor_records ORDER BY position")
    assert rows == [(1, False), (2, False), (3, False), (4, True), (5, True)]
    with pytest.raises(FloorError, match="enrolled with another key"):
        floor.enrol(TABLE, "uth", "ab" * 32, "SM-2")
    assert [a.kind for a in floor.alerts(table_id=TABLE)] == ["key_changed"]
    floor.register(TABLE, "uth", public_key="cd" * 32)  # a table presenting another key
    assert floor.tables()[0].public_key == notary_client(notary).head().public_key


def test_a_checkpoint_not_signed_by_the_enrolled_key_or_behind_is_refused(
    tmp_path: Path, floor: Floor, notary: NotaryProcess
) -> None:
    from dealer_assist.storage.floor.checkpoints import Checkpoint

    db = tmp_path / "j.db"
    deal(db, notary, 4)
    enrol_key(floor, notary)
    forward(db, floor, notary)
    head = notary_client(notary).head()
    forged = Checkpoint(6, "ab" * 32, "cd" * 64, head.key_id, head.signed_at)
    assert floor.checkpoint(TABLE, forged).refused is not None
    with Journal(str(db), create=False, read_only=True) as j:
        second = j.get_hand(2)
    behind = Checkpoint(2, second.hash, second.signature, second.key_id)
    result = floor.checkpoint(TABLE, behind)
    assert result.refused is not None and "was at 4" in result.refused
    # a true signature presented at another position: the floor takes a head only at a
    # record it holds with that hash (the signature covers the hash, not the position)
    moved = floor.checkpoint(TABLE, Checkpoint(50, head.hash, head.signature, head.key_id))
    assert moved.deferred and not moved.stored and moved.refused is None
    kinds = sorted(a.kind for a in floor.alerts(table_id=TABLE))
    assert kinds == ["bad_checkpoint", "signer_rewound"]
    assert [c.position for c in floor.checkpoints(TABLE)] == [4]


def _cut(db: Path, keep: int) -> None:
    con = sqlite3.connect(db)
    last = con.execute("SELECT hash FROM hands WHERE hand_id = ?", (keep,)).fetchone()[0]
    con.execute("DELETE FROM hands WHERE hand_id > ?", (keep,))
    con.execute("DELETE FROM hand_search WHERE hand_id > ?", (keep,))
    con.execute("UPDATE chain_head SET last_hand_id = ?, last_hash = ?", (keep, last))
    con.execute("DELETE FROM verify_mark")
    con.commit()
    con.close()


def test_audit_verify_checks_the_journal_against_the_floors_checkpoints(
    tmp_path: Path,
    floor_db: FloorDb,
    floor: Floor,
    notary: NotaryProcess,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "j.db"
    deal(db, notary, 5)
    enrol_key(floor, notary)
    forward(db, floor, notary)
    toml = config(tmp_path, notary, floor_db)
    code, out = verify(capsys, db, toml)
    assert code == 0, out
    assert "1 checkpoint(s) of the signer match, up to position 5" in out
    # the notary itself away (the auditor's machine): the floor's checkpoints still witness
    notary.stop()
    copy = tmp_path / "cut.db"
    copy.write_bytes(db.read_bytes())
    _cut(copy, 3)
    code, out = verify(capsys, copy, toml)
    assert code == 1, out
    assert (
        "FAIL: signer's checkpoints: table UTH-3: the signer's checkpoint on the floor is at "
        "position 5 but the journal ends at 3"
    ) in out
    assert "first changed hand: 4" in out
    for p in tmp_path.glob("j.db*"):
        p.unlink()  # the journal deleted; a new one started at hand 1 with a key of its own
    with Journal(str(db), keys=tmp_path / "own-keys", clock=lambda: AFTER) as j:
        j.append_hand(make_entry(1, hand_uid="new1"))
    code, out = verify(capsys, db, toml)
    assert code == 1, out
    assert (
        "FAIL: signer's checkpoints: table UTH-3: the signer's checkpoint on the floor is "
        "at position 5 but the journal ends at 1" in out
    )
    for p in tmp_path.glob("j.db*"):
        p.unlink()
    with Journal(str(db), keys=tmp_path / "own-keys") as j:  # an empty new journal
        pass
    code, out = verify(capsys, db, toml)
    assert code == 1 and "the journal ends at 0" in out, out


def test_floor_verify_checks_the_floors_rows_against_the_checkpoints(
    tmp_path: Path,
    floor_db: FloorDb,
    floor: Floor,
    notary: NotaryProcess,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "j.db"
    deal(db, notary, 3, when=BEFORE)
    enrol_key(floor, notary)
    deal(db, notary, 1, start=4)
    forward(db, floor, notary)
    code = main(["floor", "verify", "--floor", floor_db.url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 verified checkpoint(s) of its signer, up to 4" in out
    assert "3 record(s) NOT witnessed" in out
    # the floor's own copy rewritten consistently (its user can): the checkpoint tells
    floor_db.sql("UPDATE floor_checkpoints SET hash = %s", ("ee" * 32,))
    code = main(["floor", "verify", "--floor", floor_db.url])
    out = capsys.readouterr().out
    assert code == 1 and "FAIL: UTH-3: position 4: the floor's copy holds hash" in out, out


def test_floor_enrol_needs_a_shift_managers_login(
    tmp_path: Path,
    floor_db: FloorDb,
    floor: Floor,
    notary: NotaryProcess,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    access = FloorAccess(floor)
    access.put_user(new_user("SM-1", Role.SHIFT_MANAGER, "246813"), by="setup")
    access.put_user(new_user("PB-1", Role.PIT_BOSS, "135792"), by="setup")
    deal(tmp_path / "j.db", notary, 1)
    pub = tmp_path / "UTH-3.pub"
    pub.write_text(str(notary_client(notary).head().public_key), encoding="utf-8")
    toml = config(tmp_path, notary, floor_db)

    def enrol(badge: str, pin: str) -> tuple[int, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(pin + "\n"))
        code = main(
            [
                "floor",
                "enrol",
                "--table",
                str(toml),
                "--key",
                str(pub),
                "--by",
                badge,
                "--pin-stdin",
            ]
        )
        out = capsys.readouterr()
        return code, out.out + out.err

    code, out = enrol("SM-1", "000000")
    assert code == 2 and "not recognised" in out, out
    code, out = enrol("PB-1", "135792")
    assert code == 2 and "only a shift manager enrols" in out, out
    assert floor.tables() == [] or floor.tables()[0].public_key is None
    code, out = enrol("SM-1", "246813")
    assert code == 0 and "table UTH-3: enrolled" in out, out
    assert floor.tables()[0].public_key == notary_client(notary).head().public_key
    actions = [(e.badge, e.action) for e in access.entries()]
    assert ("SM-1", "login_refused") in actions and ("SM-1", "enrol") in actions
    other = tmp_path / "other.pub"
    other.write_text("ab" * 32, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("246813\n"))
    code = main(
        ["floor", "enrol", "--table", str(toml), "--key", str(other), "--by", "SM-1", "--pin-stdin"]
    )
    out = capsys.readouterr().out
    assert code == 1 and "enrolled with another key" in out, out
    assert [a.kind for a in floor.alerts(table_id=TABLE)] == ["key_changed"]


def test_the_notarys_key_command_prints_the_same_key_the_notary_signs_with(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    import subprocess
    import sys

    def key() -> str:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "dealer_assist.notary",
                "key",
                "--state",
                str(notary.state),
                "--table",
                "UTH-9",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return run.stdout.strip()

    first = key()
    assert len(first) == 64 and key() == first  # made once, then shown
    deal_with = NotaryClient(notary.socket, "UTH-9", timeout=2.0)
    with Journal(str(tmp_path / "k.db"), notary=deal_with) as j:
        j.append_hand(make_entry(1, table_id="UTH-9", hand_uid="k1"))
    assert deal_with.head().public_key == first


def test_a_head_the_floor_refuses_is_said_by_the_pusher_and_floor_status_shows_the_signer(
    tmp_path: Path,
    floor_db: FloorDb,
    floor: Floor,
    notary: NotaryProcess,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from dealer_assist.storage.floor.checkpoints import Checkpoint

    db = tmp_path / "j.db"
    deal(db, notary, 2)
    enrol_key(floor, notary)
    forward(db, floor, notary)
    assert main(["floor", "status", "--floor", floor_db.url]) == 0
    out = capsys.readouterr().out
    assert "signer of UTH-3: head 2 (verified), last seen" in out, out
    head = notary_client(notary).head()
    deal(db, notary, 1, start=3)
    with Journal(str(db), create=False, supervise=False) as j:
        pusher = Pusher(
            j, floor, checkpoint_of=lambda: Checkpoint(3, head.hash, head.signature, head.key_id)
        )
        result = pusher.push()
    # entry 2's true signature presented for position 3: the floor holds another hash there
    assert result.checkpoint_refused is not None and "but the floor holds hash" in (
        result.checkpoint_refused
    )
    assert [c.position for c in floor.checkpoints(TABLE)] == [2]
