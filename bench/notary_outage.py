"""The notary killed while a table deals: the table stops with a sentence, nothing is signed twice,
and it deals on once the notary is back.

    python bench/notary_outage.py [--hands 60] [--kill-after 15]

Runs ``dealer-assist simulate`` on a table TOML with a ``[notary]``, SIGKILLs the notary once
the journal holds ``--kill-after`` entries, prints the simulate's exit status and last lines,
starts the notary again, runs the same simulate again (it resumes on the same journal), and
checks: every entry signed, the notary's head at the journal's last entry with its hash,
``audit verify --public-key`` OK.
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
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dealer_assist.notary.client import NotaryClient, NotaryUnavailableError  # noqa: E402

TABLE = "UTH-01"


def start_notary(tmp: Path, sock: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "dealer_assist.notary", "serve", "--state",
                             str(tmp / "state"), "--socket", str(sock)], cwd=REPO)  # fmt: skip
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
    toml.write_text((REPO / "config" / "uth.toml").read_text() + f'\n[notary]\nsocket = "{sock}"\n')
    cmd = [sys.executable, "-m", "ui.cli", "simulate", "--hands", str(args.hands),
           "--table", str(toml), "--db", str(db), "--no-progress"]  # fmt: skip
    notary = start_notary(tmp, sock)
    try:
        sim = subprocess.Popen(cmd, cwd=REPO, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)  # fmt: skip
        while entries(db) < args.kill_after and sim.poll() is None:
            time.sleep(0.02)
        notary.send_signal(signal.SIGKILL)
        notary.wait()
        killed_at = entries(db)
        out, _ = sim.communicate(timeout=600)
        print(f"notary SIGKILLed at {killed_at} entries; simulate exit {sim.returncode}; "
              f"journal {entries(db)} entries")  # fmt: skip
        print("simulate said: " + " | ".join(out.strip().splitlines()[-2:]))
        with sqlite3.connect(db) as con:
            unsigned = con.execute("SELECT count(*) FROM hands WHERE signature IS NULL").fetchone()
        print(f"unsigned while the notary is down: {unsigned[0]}")
        notary = start_notary(tmp, sock)
        again = subprocess.run(cmd, cwd=REPO, text=True, capture_output=True, timeout=900)
        print(
            f"notary back; simulate again: exit {again.returncode}; journal {entries(db)} entries"
        )
        with sqlite3.connect(db) as con:
            unsigned = con.execute("SELECT count(*) FROM hands WHERE signature IS NULL").fetchone()
            last = con.execute(
                "SELECT hand_id, hash FROM hands ORDER BY hand_id DESC LIMIT 1"
            ).fetchone()
        head = NotaryClient(sock, TABLE).head()
        print(f"unsigned after: {unsigned[0]}; notary head {head.position} = journal's last "
              f"{last[0]}: {head.position == last[0] and head.hash == last[1]}")  # fmt: skip
        pub = tmp / "notary.pub"
        pub.write_text(str(head.public_key))
        verify = subprocess.run([sys.executable, "-m", "ui.cli", "audit", "verify", "--db", str(db),
                                 "--public-key", str(pub), "--config", str(toml)], cwd=REPO,
                                text=True, capture_output=True)  # fmt: skip
        print(f"audit verify: exit {verify.returncode}: " + " | ".join(verify.stdout.splitlines()))
    finally:
        if notary.poll() is None:
            notary.terminate()
            notary.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
