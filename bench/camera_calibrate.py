"""Time of ``dealer-assist camera calibrate --from`` on phone photos, as a floor person takes them.

    python bench/camera_calibrate.py [--photos 26] [--size 4032x3024] [--repeat 1]
                                     [--python PY --tree DIR]...

Writes ``--photos`` synthetic phone photos (JPEG quality 92, ``--size``, default 12 MP) of the
PR 15 faces, each card 45..75 % of the photo's height, tilted, on felt, wood, leather or a desk,
slightly blurred, covering every rank and suit; then runs the command in a child process and
prints its wall time, CPU time (user + system) and the lines it printed (learned cards,
self-check). ``--tree DIR --python PY`` (repeatable) runs the same photos with another checkout
(``git worktree add /work/wt-base-cam BASE`` with its own venv), alternating the trees per
round, so a loaded machine slows both alike; ``taskset -c 0`` in front pins it to one core.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card
from drivers.camera.calibration import read_image
from drivers.camera.synthetic import SceneSettings, jpeg, photo_background, render_scene

REPO = Path(__file__).resolve().parents[1]
FACES = (
    REPO.parent / "shared" / "data" / "cards" / "geaxgx_playing-card-detection" / "pr15_data_cards"
)


def photo_cards(count: int) -> list[Card]:
    """``count`` cards (at most 52) covering every rank and suit when ``count`` >= 13: rank by
    rank, the suit turning each card (2s 3h 4d 5c 6s ...), then the rest of the deck."""
    suits = "shdc"
    order = [Card(r, suits[i % 4]) for i, r in enumerate(range(2, 15))]
    for k in range(1, 4):
        order += [Card(r, suits[(i + k) % 4]) for i, r in enumerate(range(2, 15))]
    return order[: max(1, min(52, count))]


def write_photos(folder: Path, cards: list[Card], size: tuple[int, int], seed: int = 5) -> None:
    """One JPEG phone photo per card, named by it (``As.jpg``)."""
    rng = np.random.default_rng(seed)
    w, h = size
    settings = SceneSettings(
        size=size, card_height=(0.45 * h, 0.75 * h), tilt=0.06, blur=(0.5, 1.5), noise=(2.0, 5.0)
    )
    for card in cards:
        name = str(card).replace("T", "10")
        face = read_image(FACES / name / f"{name}.png")
        frame, quads = render_scene([face], rng, settings, photo_background(rng, (w, h)))
        if not quads:
            raise SystemExit(f"could not place {card} in a {w}x{h} photo")
        cv2.imwrite(str(folder / f"{card}.jpg"), jpeg(frame, 92), [cv2.IMWRITE_JPEG_QUALITY, 92])


def run(python: str, tree: Path, folder: Path, out: Path) -> tuple[float, float, str]:
    """(wall s, CPU s, output) of ``camera calibrate --from folder`` by ``python`` in ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [python, "-m", "ui.commands.camera", "calibrate", "--from", str(folder), "--out", str(out)],
        cwd=tree,
        capture_output=True,
        text=True,
        env=env,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (
        wall,
        cpu,
        done.stdout + (f"exit {done.returncode}: {done.stderr[-400:]}" if done.returncode else ""),
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--photos", type=int, default=26)
    ap.add_argument("--size", default="4032x3024", help="photo width x height, pixels")
    ap.add_argument("--repeat", type=int, default=1, help="rounds (each tree once per round)")
    ap.add_argument("--tree", type=Path, action="append", default=[], help="another checkout")
    ap.add_argument("--python", action="append", default=[], help="its interpreter (per --tree)")
    args = ap.parse_args()
    if len(args.tree) != len(args.python):
        ap.error("give one --python per --tree")
    w, h = (int(v) for v in args.size.lower().split("x"))
    trees = [(REPO, sys.executable), *zip(args.tree, args.python, strict=True)]
    cards = photo_cards(args.photos)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "photos"
        folder.mkdir()
        write_photos(folder, cards, (w, h))
        print(f"{len(cards)} photos {w}x{h}: {' '.join(map(str, cards))}")
        times: dict[Path, list[tuple[float, float]]] = {t: [] for t, _ in trees}
        for round_ in range(args.repeat):
            for tree, python in trees if round_ % 2 == 0 else trees[::-1]:
                wall, cpu, text = run(python, tree, folder, Path(tmp) / "cal.npz")
                times[tree].append((wall, cpu))
                print(f"\n{tree} round {round_ + 1}: wall {wall:.1f} s, CPU {cpu:.1f} s")
                print("  " + "\n  ".join(text.strip().splitlines()))
        print()
        for tree, got in times.items():
            walls = [t[0] for t in got]
            cpus = [t[1] for t in got]
            print(
                f"{tree}: wall median {statistics.median(walls):.1f} s (fastest {min(walls):.1f}),"
                f" CPU median {statistics.median(cpus):.1f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
