"""Forgeries of a notary-signed UTH journal by its own writer, and what catches each by default.

    python bench/forgery.py [--hands 12]

Starts the notary as its own process, enrols the table's key on a floor (a PostgreSQL schema of
its own at 127.0.0.1/test, dropped afterwards), deals ``--hands`` UTH hands with ``dealer-assist
simulate`` on a table TOML with a ``[notary]`` and a ``[floor]`` (the forwarder sends the signer's
checkpoints), then, on a copy of the journal each time, does what the journal's user can do with
sqlite3 and a key of its own (it cannot read the notary's), and runs the default checks:
``audit verify --public-key NOTARY.pub`` (pinned), ``audit verify --config TABLE.toml`` (the
default for the table: the notary's head, the floor's copy and its checkpoints) and whether the
table would deal on it (a new hand's first step). Prints one row a forgery, then the forgeries
of the step log, the notary and the floor, and how many kinds the defaults catch.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.errors import JournalError  # noqa: E402
from dealer_assist.games import DEFAULT_GAME  # noqa: E402
from dealer_assist.notary.client import NotaryClient, NotaryUnavailableError  # noqa: E402
from dealer_assist.notary.protocol import record_message  # noqa: E402
from dealer_assist.ports import StoredHand  # noqa: E402
from dealer_assist.storage import Journal, chain_hash  # noqa: E402
from dealer_assist.storage.rows import hand_values  # noqa: E402

TABLE = "UTH-01"
ATTACKER = Ed25519PrivateKey.generate()  # the journal user's own key: all it can sign with
ATTACKER_ID = "a77ac4e5a77ac4e5"
ATTACKER_PUB = ATTACKER.public_key().public_bytes_raw().hex()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=REPO,
        text=True,
        capture_output=True,
        timeout=600,
    )


def read(db: Path) -> list[StoredHand]:
    with Journal(str(db), create=False, read_only=True) as j:
        return list(j.iter_hands())


def sign(h: str) -> str:
    return ATTACKER.sign(record_message(h)).hex()


def write_chain(db: Path, chain: list[StoredHand], *, resign: bool, strip_from: int = 0) -> None:
    """Replace every row with ``chain`` re-hashed from the start (ids renumbered), signatures
    kept, or made with the attacker's key (``resign``), or removed from ``strip_from``."""
    con = sqlite3.connect(db)
    prev = "0" * 64
    con.execute("DELETE FROM hands")
    con.execute("DELETE FROM hand_search")
    for i, hand in enumerate(chain, start=1):
        h = dataclasses.replace(hand, hand_id=i, prev_hash=prev, hash="")
        h = dataclasses.replace(h, hash=chain_hash(prev, h.content()))
        sig, kid = hand.signature, hand.key_id
        if h.hash != hand.hash and resign:
            sig, kid = sign(h.hash), ATTACKER_ID
        if strip_from and i >= strip_from:
            sig = kid = None
        h = dataclasses.replace(h, signature=sig, key_id=kid)
        values = hand_values(h)
        cols = ",".join(values)
        con.execute(
            f"INSERT INTO hands ({cols}) VALUES ({','.join('?' * len(values))})",
            list(values.values()),
        )
        prev = h.hash
    con.execute("UPDATE chain_head SET last_hand_id = ?, last_hash = ?", (len(chain), prev))
    con.execute("DELETE FROM verify_mark")
    con.commit()
    con.close()


def paid_more(hand: StoredHand) -> StoredHand:
    s = json.loads(json.dumps(hand.settlement))
    s.setdefault("forged", 0)
    s["forged"] += 100_000
    return dataclasses.replace(hand, settlement=s)


def forge_payout_resigned(db: Path, c: list[StoredHand]) -> None:
    c[5] = paid_more(c[5])
    write_chain(db, c, resign=True)


def forge_payout_rehashed(db: Path, c: list[StoredHand]) -> None:
    c[5] = paid_more(c[5])
    write_chain(db, c, resign=False)


def forge_middle_deleted(db: Path, c: list[StoredHand]) -> None:
    del c[5]
    write_chain(db, c, resign=True)


def forge_appended_signed(db: Path, c: list[StoredHand]) -> None:
    c.append(paid_more(dataclasses.replace(c[-1], hand_uid="forged")))
    write_chain(db, c, resign=True)


def forge_appended_unsigned(db: Path, c: list[StoredHand]) -> None:
    c.append(paid_more(dataclasses.replace(c[-1], hand_uid="forged", signature=None)))
    write_chain(db, c, resign=False, strip_from=len(c))


def forge_all_stripped(db: Path, c: list[StoredHand]) -> None:
    write_chain(db, c, resign=False, strip_from=1)


def forge_changed_then_stripped(db: Path, c: list[StoredHand]) -> None:
    c[5] = paid_more(c[5])
    write_chain(db, c, resign=False, strip_from=6)


def forge_tail_cut(db: Path, c: list[StoredHand]) -> None:
    write_chain(db, c[:-3], resign=False)


def forge_restarted(db: Path, c: list[StoredHand]) -> None:
    for p in db.parent.glob(db.name + "*"):
        p.unlink()
    with Journal(str(db), keys=db.parent / "attacker-keys") as j:  # a new journal, own key
        from dealer_assist.ports import HandEntry

        for hand in c[:2]:
            fields = {f.name: getattr(hand, f.name) for f in dataclasses.fields(HandEntry)}
            j.append_hand(HandEntry(**fields))


def forge_notary_resign(db: Path, c: list[StoredHand], notary: NotaryClient) -> str:
    """Ask the notary itself to sign the changed hand 6 again (what a stolen journal needs)."""
    c[5] = paid_more(c[5])
    prev = c[4].hash
    h = dataclasses.replace(c[5], hash="")
    digest = chain_hash(prev, h.content())
    try:
        notary.sign(6, prev, digest)
    except JournalError as e:
        return f"notary refused: {str(e).split('refused: ')[-1][:90]}"
    return "notary SIGNED it"


FORGERIES: list[tuple[str, Callable[[Path, list[StoredHand]], None]]] = [
    ("payout changed, re-hashed, re-signed (own key)", forge_payout_resigned),
    ("payout changed, re-hashed, signatures kept", forge_payout_rehashed),
    ("middle hand deleted, rechained, re-signed", forge_middle_deleted),
    ("forged hand appended, signed (own key)", forge_appended_signed),
    ("every signature stripped", forge_all_stripped),
    ("hand changed, signatures stripped from it on", forge_changed_then_stripped),
    ("tail cut (head moved back 3)", forge_tail_cut),
    ("journal deleted, restarted at hand 1", forge_restarted),
    ("forged hand appended, unsigned (last: the table signs it)", forge_appended_unsigned),
]


FLOOR_DB = "postgresql://postgres@127.0.0.1:5432/test"


def floor_schema() -> tuple[Any, str, str]:
    """A new schema on the test server: (admin connection, schema, the floor's URL)."""
    import psycopg

    admin = psycopg.connect(FLOOR_DB, autocommit=True)
    schema = f"forge_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    url = FLOOR_DB.replace("postgresql://", "postgresql+psycopg://") + (
        f"?options=-csearch_path%3D{schema}"
    )
    return admin, schema, url


def forge_step_card(tmp: Path, sock: Path) -> str:
    """A card changed in the step log of an interrupted hand (as the journal's user can): what
    the resume reads of it (the table voids the hand ``step_forged`` on it). A table of its own
    (UTH-01's signer refuses a new journal: its head says hands exist)."""
    notary = NotaryClient(sock, "UTH-02")
    db = tmp / "steps.db"
    with Journal(str(db), notary=notary) as j:
        j.write_step("UTH-02", "int-1", 0, "open", {})
        j.write_step("UTH-02", "int-1", 1, "card", {"card": "Ah", "index": 1})
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT payload FROM pending_steps WHERE step_no = 1").fetchone()
        con.execute(
            "UPDATE pending_steps SET payload = ? WHERE step_no = 1",
            (text.replace('"Ah"', '"2c"'),),
        )
    with Journal(str(db), notary=notary) as j:
        forged = [s.forged for s in j.pending_steps("UTH-02") if s.forged]
    if not forged:
        return "passes"
    try:
        from dealer_assist.storage.step_signing import notary_uid, step_digest

        digest = step_digest("UTH-02", "int-1", 1, "card", {"card": "2c", "index": 1})
        notary.sign_step(notary_uid("UTH-02", "int-1"), 1, digest)
        resign = "the notary SIGNED it again"
    except JournalError as e:
        resign = f"re-signing refused ({getattr(e, 'code', '?')})"
    return f"resume voids the hand step_forged: {forged[0][:60]}…; {resign}"


def forge_floor(url: str, toml: Path, db: Path, pub: str) -> list[tuple[str, str]]:
    """The floor's side: another key presented, a forged checkpoint, a re-created floor."""
    from dealer_assist.storage.floor import Floor
    from dealer_assist.storage.floor.checkpoints import Checkpoint
    from dealer_assist.storage.floor.migration import migrate_floor

    rows = []
    with Floor(url) as floor:
        try:
            floor.enrol(TABLE, DEFAULT_GAME, ATTACKER_PUB, "attacker")
            rows.append(("another key enrolled for the table", "ACCEPTED"))
        except JournalError as e:
            rows.append(("another key enrolled for the table", f"refused: {str(e)[:70]}"))
        floor.register(TABLE, DEFAULT_GAME, public_key=ATTACKER_PUB)
        head = floor.checkpoints(TABLE)[-1]
        fake = Checkpoint(head.position + 5, "ab" * 32, sign("ab" * 32), ATTACKER_ID)
        got = floor.checkpoint(TABLE, fake)
        rows.append(
            (
                "forged checkpoint (own key) sent to the floor",
                f"refused: {got.refused[:70]}" if got.refused else "ACCEPTED",
            )
        )
        fake = Checkpoint(head.position + 5, "ab" * 32, sign("ab" * 32), head.key_id)
        got = floor.checkpoint(TABLE, fake)  # the table's key id, the attacker's signature
        rows.append(
            (
                "forged checkpoint (the table's key id)",
                f"refused: {got.refused[:70]}" if got.refused else "ACCEPTED",
            )
        )
        old = read(db)[head.position - 4]  # an older head, truly signed by the notary
        behind = Checkpoint(old.hand_id, old.hash, old.signature, old.key_id)
        got = floor.checkpoint(TABLE, behind)  # as from a notary whose state was restored
        rows.append(
            (
                "checkpoint behind the floor's (signer rewound)",
                f"refused: {got.refused[:70]}" if got.refused else "ACCEPTED",
            )
        )
        kinds = sorted({a.kind for a in floor.alerts(table_id=TABLE)})
        rows.append(("  floor alerts raised", ", ".join(kinds)))
    admin, schema, fresh = floor_schema()  # the floor dropped and re-created
    try:
        migrate_floor(Floor(fresh))
        with Floor(fresh) as floor:
            floor.enrol(TABLE, DEFAULT_GAME, pub, "SM-1")
        toml2 = toml.with_name("fresh.toml")
        toml2.write_text(toml.read_text().replace(url, fresh))
        cli("floor", "sync", "--db", str(db), "--table", str(toml2))
        out = cli("floor", "verify", "--floor", fresh).stdout.strip()
        rows.append(("floor re-created, journal re-sent (floor sync)", out[:150]))
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()
    return rows


def verdict(run: subprocess.CompletedProcess[str]) -> str:
    if run.returncode == 0:
        return "passes"
    fail = next((ln for ln in run.stdout.splitlines() if ln.startswith("FAIL")), run.stdout)
    return fail[:70]


def table_deals(db: Path, notary: NotaryClient) -> str:
    try:
        with Journal(str(db), notary=notary) as j:  # as the table opens it (supervised)
            j.write_step(TABLE, "probe", 0, "open", {})  # signs nothing unless it extends
            j.clear_steps(TABLE, "probe")
    except JournalError as e:
        return "refuses: " + str(e).split(": ", 1)[-1][:50]
    return "deals"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=12)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="forge", dir="/tmp"))
    sock = tmp / "n.sock"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dealer_assist.notary",
            "serve",
            "--state",
            str(tmp / "state"),
            "--socket",
            str(sock),
        ],
        cwd=REPO,
    )
    admin, schema, url = floor_schema()
    try:
        from dealer_assist.storage.floor import Floor
        from dealer_assist.storage.floor.migration import migrate_floor

        notary = NotaryClient(sock, TABLE)
        for _ in range(200):
            try:
                notary.head()
                break
            except NotaryUnavailableError:
                time.sleep(0.05)
        key = subprocess.run(
            [
                sys.executable,
                "-m",
                "dealer_assist.notary",
                "key",
                "--state",
                str(tmp / "state"),
                "--table",
                TABLE,
            ],
            cwd=REPO,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
        migrate_floor(Floor(url))
        with Floor(url) as floor:  # the installation: a shift manager enrols the key
            floor.enrol(TABLE, DEFAULT_GAME, key, "SM-1")
        toml = tmp / "uth.toml"
        text = (REPO / "config" / "uth.toml").read_text()
        toml.write_text(text + f'\n[notary]\nsocket = "{sock}"\n[floor]\nurl = "{url}"\n')
        db = tmp / "uth.db"
        run = cli(
            "simulate",
            "--hands",
            str(args.hands),
            "--table",
            str(toml),
            "--db",
            str(db),
            "--no-progress",
        )
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            return 2
        head = notary.head()
        pub = tmp / "notary.pub"
        pub.write_text(str(head.public_key))
        original = read(db)
        with Floor(url) as floor:
            checks = floor.checkpoints(TABLE)
            witnessed = floor.witness_counts(TABLE)
        print(
            f"journal: {len(original)} entries, all signed by the notary: "
            f"{all(h.signature for h in original)}; notary head {head.position}; floor: "
            f"{len(checks)} checkpoint(s) of the signer (verified: "
            f"{sum(c.verified for c in checks)}), records witnessed {witnessed}"
        )
        print(
            f"{'forgery':48} | {'audit verify --public-key (pinned)':70} | "
            f"{'audit verify --config (notary, floor, checkpoints)':70} | table"
        )
        caught = 0
        for name, forge in FORGERIES:
            copy = tmp / "forged.db"
            for q in tmp.glob("forged.db*"):
                q.unlink()
            with sqlite3.connect(db) as con:
                con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            shutil.copy(db, copy)
            forge(copy, read(copy))
            pinned = verdict(cli("audit", "verify", "--db", str(copy), "--public-key", str(pub)))
            cfg = verdict(cli("audit", "verify", "--db", str(copy), "--config", str(toml)))
            deals = table_deals(copy, notary)
            caught += cfg != "passes" or not deals.startswith("deals")
            print(f"{name:48} | {pinned:70} | {cfg:70} | {deals}")
        print(
            f"caught by default (audit verify --config, or the table refusing): {caught} of "
            f"{len(FORGERIES)} journal forgeries"
        )
        print(
            f"{'ask the notary to re-sign changed hand 6':48} | "
            f"{forge_notary_resign(db, read(db), notary)}"
        )
        print(
            f"{'step log: card changed in an interrupted hand':48} | {forge_step_card(tmp, sock)}"
        )
        for name, what in forge_floor(url, toml, db, key):
            print(f"{name:48} | {what}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
