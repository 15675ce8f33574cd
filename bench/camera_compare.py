"""A camera bench run side by side in this checkout and another one, alternately: ratios.

    git worktree add /work/wt-base-cam BASE && (cd /work/wt-base-cam && python3 -m venv .venv
        && .venv/bin/pip install -q -e ".[test]")
    taskset -c 0 python bench/camera_compare.py --base /work/wt-base-cam [--rounds 3]
                                                [--script camera_eval.py] [-- ARGS...]

Runs ``bench/SCRIPT ARGS`` in the base checkout (with its own ``.venv``) and in this one, base
first, then this one first, and so on for ``--rounds``: on a machine shared with other jobs both
see the same load. Rows of the printed table (``set reader images cards read ... ms p50 ms p90``,
as bench/camera_eval.py prints them) are matched by set and reader; per row it prints the read,
wrong and unknown counts of both (they must be equal: same reads), the medians over the rounds
of each run's ``ms p50`` and the ratio this / base. Other lines (camera_robustness.py) are
compared as text: identical or not.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^(?P<name>.{24}) (?P<reader>\S+(?: search)?)\s+(?P<images>\d+)\s+(?P<cards>\d+)\s+"
    r"(?P<read>\d+)\s+\S+%\s+(?P<wrong>\d+)\s+(?P<unknown>\d+)\s+\S+\s+(?P<p50>[\d.]+)\s+"
    r"(?P<p90>[\d.]+)$"
)


def run(tree: Path, script: str, args: list[str]) -> str:
    """stdout of ``bench/script args`` run in ``tree`` with its interpreter."""
    python = tree / ".venv" / "bin" / "python" if tree != REPO else Path(sys.executable)
    done = subprocess.run(
        [str(python), str(tree / "bench" / script), *args],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    return done.stdout + (
        f"\n[exit {done.returncode}] {done.stderr[-300:]}" if done.returncode else ""
    )


def rows(text: str) -> tuple[dict[tuple[str, str], dict[str, str]], list[str]]:
    """Table rows by (set, reader), and the other lines."""
    table, other = {}, []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            table[(m["name"].strip(), m["reader"])] = m.groupdict()
        elif line.strip() and "calibrated from" not in line:
            other.append(line)
    return table, other


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (with .venv)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--script", default="camera_eval.py")
    ap.add_argument("args", nargs="*", help="arguments of the script (after --)")
    a = ap.parse_args()
    trees = {"base": a.base.resolve(), "this": REPO}
    got: dict[str, list[str]] = {"base": [], "this": []}
    for r in range(a.rounds):
        order = ["base", "this"] if r % 2 == 0 else ["this", "base"]
        for who in order:
            got[who].append(run(trees[who], a.script, a.args))
            print(f"round {r + 1}: {who} done", file=sys.stderr)
    parsed = {who: [rows(t) for t in texts] for who, texts in got.items()}
    keys = list(parsed["this"][0][0])
    if keys:
        print(
            f"{'set':<24} {'reader':<10} {'read b/t':>9} {'wrong b/t':>9} {'unkn b/t':>9} "
            f"{'ms base':>8} {'ms this':>8} {'ratio':>6}"
        )
    for key in keys:
        b = [p[0].get(key) for p in parsed["base"]]
        t = [p[0][key] for p in parsed["this"]]
        if any(x is None for x in b):
            print(f"{key[0]:<24} {key[1]:<10} (not in the base output)")
            continue
        mb = statistics.median(float(x["p50"]) for x in b if x)
        mt = statistics.median(float(x["p50"]) for x in t)
        b0, t0 = b[0] or {}, t[0]
        print(
            f"{key[0]:<24} {key[1]:<10} {b0['read'] + '/' + t0['read']:>9} "
            f"{b0['wrong'] + '/' + t0['wrong']:>9} {b0['unknown'] + '/' + t0['unknown']:>9} "
            f"{mb:>8.1f} {mt:>8.1f} {mt / mb:>6.2f}"
        )
    for who in ("base", "this"):
        others = {tuple(p[1]) for p in parsed[who]}
        if len(others) > 1:
            print(f"{who}: the other lines differ between rounds")
    if tuple(parsed["base"][0][1]) != tuple(parsed["this"][0][1]):
        print("\nother lines, base:\n" + "\n".join(parsed["base"][0][1]))
        print("\nother lines, this:\n" + "\n".join(parsed["this"][0][1]))
    elif parsed["this"][0][1]:
        print("\nother lines (identical in both):\n" + "\n".join(parsed["this"][0][1]))
    print(f"\n(ms: median over {a.rounds} rounds of each run's ms p50; ratio this / base)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
