"""The notary killed while a table deals: the table stops with a sentence, nothing is signed twice,
and it deals on once the notary is back.

    python bench/notary_outage.py [--hands 60] [--kill-after 15]

Runs ``dealer-assist simulate`` on a table TOML with a ``[notary]``, SIGKILLs the notary once
the journal holds ``--kill-after`` entries, prints the simulate's exit status and last lines,
starts the notary again, runs the same simulate again (it resumes on the same journal), and
checks: every entry signed, the notary's head at the journal's last entry with its hash,
``audit verify --public-key`` OK. The table forwards to a floor (a schema of its own on the test
server, its key enrolled) that is down for the whole first run (its ``[floor] url`` a closed
port) and up for the second: the floor's records and checkpoints are counted at the end (none
lost, none twice).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.games import DEFAULT_GAME  # noqa: E402
from dealer_assist.notary.client import NotaryClient, NotaryUnavailableError  # noqa: E402
from dealer_assist.storage.floor import Floor  # noqa: E402
from dealer_assist.storage.floor.migration import migrate_floor  # noqa: E402

FLOOR_DB = "postgresql://postgres@127.0.0.1:5432/test"

TABLE = "UTH-01"


def start_notary(tmp: Path, sock: Path) -> subprocess.Popen[bytes]:
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
    client = NotaryClient(sock, TABLE, timeout=1)
    for _ in range(400):
        try:
            client.head()
            return proc
        except NotaryUnavailableError:
            time.sleep(0.05)
    raise SystemExit("the notary did not start")


def entries(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
    except sqlite3.Error:
        return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=60)
    p.add_argument("--kill-after", type=int, default=15)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="outage", dir="/tmp"))
    sock, db, toml = tmp / "n.sock", tmp / "uth.db", tmp / "uth.toml"
    admin = psycopg.connect(FLOOR_DB, autocommit=True)
    schema = f"outage_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    url = FLOOR_DB.replace("postgresql://", "postgresql+psycopg://") + (
        f"?options=-csearch_path%3D{schema}"
    )
    down = "postgresql+psycopg://postgres@127.0.0.1:9/test"  # nothing listens: the floor down
    base = (REPO / "config" / "uth.toml").read_text() + f'\n[notary]\nsocket = "{sock}"\n'
    toml.write_text(base + f'[floor]\nurl = "{down}"\n')
    cmd = [
        sys.executable,
        "-m",
        "ui.cli",
        "simulate",
        "--hands",
        str(args.hands),
        "--table",
        str(toml),
        "--db",
        str(db),
        "--no-progress",
    ]
    notary = start_notary(tmp, sock)
    try:
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
        with Floor(url) as floor:
            floor.enrol(TABLE, DEFAULT_GAME, key, "SM-1")
        sim = subprocess.Popen(
            cmd, cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        while entries(db) < args.kill_after and sim.poll() is None:
            time.sleep(0.02)
        notary.send_signal(signal.SIGKILL)
        notary.wait()
        killed_at = entries(db)
        out, _ = sim.communicate(timeout=600)
        print(
            f"notary SIGKILLed at {killed_at} entries; simulate exit {sim.returncode}; "
            f"journal {entries(db)} entries"
        )
        print("simulate said: " + " | ".join(out.strip().splitlines()[-2:]))
        with sqlite3.connect(db) as con:
            unsigned = con.execute("SELECT count(*) FROM hands WHERE signature IS NULL").fetchone()
        print(f"unsigned while the notary is down: {unsigned[0]}")
        notary = start_notary(tmp, sock)
        toml.write_text(base + f'[floor]\nurl = "{url}"\n')  # the floor is back too
        again = subprocess.run(cmd, cwd=REPO, text=True, capture_output=True, timeout=900)
        print(
            f"notary back; simulate again: exit {again.returncode}; journal {entries(db)} entries"
        )
        if again.returncode != 0:
            print(
                "simulate said: "
                + " | ".join((again.stdout + again.stderr).strip().splitlines()[-3:])
            )
        with sqlite3.connect(db) as con:
            unsigned = con.execute("SELECT count(*) FROM hands WHERE signature IS NULL").fetchone()
            last = con.execute(
                "SELECT hand_id, hash FROM hands ORDER BY hand_id DESC LIMIT 1"
            ).fetchone()
        head = NotaryClient(sock, TABLE).head()
        print(
            f"unsigned after: {unsigned[0]}; notary head {head.position} = journal's last "
            f"{last[0]}: {head.position == last[0] and head.hash == last[1]}"
        )
        pub = tmp / "notary.pub"
        pub.write_text(str(head.public_key))
        verify = subprocess.run(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "audit",
                "verify",
                "--db",
                str(db),
                "--public-key",
                str(pub),
                "--config",
                str(toml),
            ],
            cwd=REPO,
            text=True,
            capture_output=True,
        )
        print(f"audit verify: exit {verify.returncode}: " + " | ".join(verify.stdout.splitlines()))
        with Floor(url) as floor:
            rows = admin.execute(
                f'SELECT count(*), count(DISTINCT position) FROM "{schema}".floor_records'
            ).fetchone()
            checks = floor.checkpoints(TABLE)
            print(
                f"floor (down for the first run): {rows[0]} records of {entries(db)} journaled "
                f"({entries(db) - rows[1]} lost, {rows[0] - rows[1]} twice); "
                f"{len(checks)} checkpoint(s) of the signer, {sum(c.verified for c in checks)} "
                f"verified, the last at {checks[-1].position if checks else 0}; witnessed "
                f"{floor.witness_counts(TABLE)}"
            )
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()
        if notary.poll() is None:
            notary.terminate()
            notary.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
