"""The soak command end to end (noise, faults, real kill -9 of the table process) and the
cross-check it relies on, shown to catch a wrong card, a lost hand and a duplicated one."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from dealer_assist.ports import HandEntry
from dealer_assist.storage.journal import Journal
from dealer_assist.table.crosscheck import cross_check, read_dealt_log


def test_soak_with_noise_faults_and_kill_9(tmp_path: Path) -> None:
    work = tmp_path / "work"
    # enough hands that the table cannot finish them between the four kills (a kill comes at
    # most 1 s after a start; a fast machine journals about 25 hands a second)
    cmd = [
        sys.executable,
        "-m",
        "ui.cli",
        "soak",
        "--hands",
        "120",
        "--kill",
        "4",
        "--corrupt",
        "0.01",
        "--drop",
        "0.01",
        "--faults",
        "0.01",
        "--seed",
        "5",
        "--seats",
        "3",
        "--kill-max-delay",
        "1.0",
        "--workdir",
        str(work),
        "--no-progress",
    ]
    # its own session: on a timeout the emulator and table processes it started go too
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    assert proc.returncode == 0, out + err
    assert "kills 4/4" in out and "4 killed, 0 failed on their own" in out
    assert re.search(r"wrong cards accepted: 0 \(of [1-9]\d* journal cards\)", out), out
    assert "hands lost: 0, duplicated: 0" in out
    assert "settlements that differ when settled again: 0" in out
    assert "journal verify: OK" in out
    settled = int(re.search(r"hands settled: (\d+)", out).group(1))  # type: ignore[union-attr]
    void = int(re.search(r"hands void: (\d+)", out).group(1))  # type: ignore[union-attr]
    assert settled + void >= 120 and settled > 0
    assert re.search(r"frames: device sent [1-9]", out)
    with Journal(str(work / "soak.db"), create=False) as journal:
        hands = list(journal.iter_hands())
        assert len({h.hand_uid for h in hands}) == len(hands) == settled + void
        dealt = read_dealt_log(work / "dealt.jsonl")
        started = (work / "started.txt").read_text().split()
        check = cross_check(journal, dealt, started=started)
        assert check.ok and check.cards > 0, check
        # the check is not blind: a wrong card, a lost and a duplicated hand are all caught
        first = next(h for h in hands if h.extra["cards"]).extra["cards"][0]
        key = (first["deck_id"], first["index"])
        other = next(c for c in ("As", "Kd") if c != dealt[key])
        bad = cross_check(journal, {**dealt, key: other}, started=[*started, "T-lost"])
        assert len(bad.wrong_cards) == 1 and bad.lost == ["T-lost"] and not bad.ok
        copy = hands[-1]
        entry = HandEntry(
            **{
                f.name: getattr(copy, f.name)
                for f in dataclasses.fields(HandEntry)
                if f.name != "hand_uid"
            },
            hand_uid="again",
        )
        journal.append_hand(entry)
        twice = cross_check(journal, dealt, started=started)
        assert twice.duplicated and not twice.ok
    emu = json.loads((work / "emulator-stats.json").read_text())
    assert emu["dropped"] > 0 and emu["corrupted"] > 0
