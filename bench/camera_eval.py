"""Camera recognition figures: read rate, wrong, unknown, and ms per 1280x720 frame on one core.

    python bench/camera_eval.py [--cards ../shared/data/cards] [--calibration FILE]
                                [--repeat 3] [--scenes 40]

Calibrates from ``pr15_data_cards`` (unless a calibration file is given), then reads:
- the geaxgx test photos (labels.csv rows under test_photos);
- the FaltoGH photos, whose labelme corner boxes are converted to the labels CSV format here
  (written to a temporary folder, then read back like any labels file);
- synthetic 1280x720 frames: PR 15 faces scattered on felt, and spread hands that overlap.
Each set with and without the index search. Times: each frame read ``--repeat`` times, fastest
kept (less noise from other processes), then median and 90th percentile over the frames, with
cv2.setNumThreads(1). Real photos are scaled to fit a 1280x720 frame for the time figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from dealer_assist.cards import Card, parse_card
from drivers.camera.calibration import Calibration, calibrate_from_folder, read_image
from drivers.camera.evaluate import EvalSummary, evaluate, one_thread
from drivers.camera.geometry import Image
from drivers.camera.labels import labels_from_labelme, read_labels, write_labels
from drivers.camera.reader import IndexReader
from drivers.camera.synthetic import render_scene, render_spread

REPO = Path(__file__).resolve().parents[1]


def _p90(values: list[float]) -> float:
    return float(np.percentile(values, 90)) if values else 0.0


def _row(name: str, search: bool, s: EvalSummary) -> str:
    single_ok, singles = s.single
    pct = 100.0 * s.correct / max(1, s.labelled)
    hd = [r.ms_hd for r in s.results]
    singles_text = f"{single_ok}/{singles}" if singles else "-"
    return (
        f"{name:<22} {'on' if search else 'off':<6} {len(s.results):>6} {s.labelled:>6} "
        f"{s.correct:>5} {pct:>5.1f}% {s.wrong:>5} {s.unknown:>7} {singles_text:>7} "
        f"{s.ms_hd_median:>8.1f} {_p90(hd):>7.1f}"
    )


def _synthetic(
    reader: IndexReader, faces: dict[Card, Image], scenes: int, spread: bool, repeat: int
) -> tuple[int, int, int, int, list[float]]:
    """(placed, read, wrong, unknown, ms per frame) over ``scenes`` synthetic frames."""
    rng = np.random.default_rng(11 if spread else 7)
    deck = sorted(faces, key=str)
    placed = read = wrong = unknown = 0
    times: list[float] = []
    for _ in range(scenes):
        n = int(rng.integers(2, 7)) if spread else 4
        chosen = [deck[i] for i in rng.choice(len(deck), n, replace=False)]
        images = [faces[c] for c in chosen]
        frame, quads = render_spread(images, rng) if spread else render_scene(images, rng)
        there = set(chosen[: len(quads)])
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            detections = reader.read_frame(frame)
            best = min(best, (time.perf_counter() - t0) * 1000.0)
        times.append(best)
        got = {d.reading.card for d in detections if d.reading.card is not None}
        placed += len(there)
        read += len(got & there)
        wrong += len(got - there)
        unknown += sum(1 for d in detections if d.reading.card is None)
    return placed, read, wrong, unknown, times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=Path, default=REPO.parent / "shared" / "data" / "cards")
    ap.add_argument("--calibration", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scenes", type=int, default=40)
    args = ap.parse_args()
    geaxgx = args.cards / "geaxgx_playing-card-detection"
    falto = args.cards / "FaltoGH_CARDETECT"
    if not geaxgx.is_dir():
        print(f"no card data at {args.cards}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    if args.calibration:
        calibration = Calibration.load(args.calibration)
    else:
        calibration, report = calibrate_from_folder(geaxgx / "pr15_data_cards")
        print(
            f"calibrated from pr15_data_cards: {len(set(report.cards))} cards, "
            f"{report.indexes} indexes, {time.perf_counter() - t0:.1f} s"
        )
    photos = [i for i in read_labels(geaxgx / "labels.csv") if i.path.parent.name == "test_photos"]
    with tempfile.TemporaryDirectory() as tmp:
        falto_csv = Path(tmp) / "faltogh_labels.csv"
        write_labels(labels_from_labelme(falto), falto_csv)
        falto_images = read_labels(falto_csv)
    faces = {
        parse_card(d.name): read_image(d / f"{d.name}.png")
        for d in sorted((geaxgx / "pr15_data_cards").iterdir())
    }
    print(
        f"\n{'set':<22} {'search':<6} {'images':>6} {'cards':>6} {'read':>5} {'rate':>6} "
        f"{'wrong':>5} {'unknown':>7} {'single':>7} {'ms p50':>8} {'ms p90':>7}"
    )
    with one_thread():
        for search in (True, False):
            reader = IndexReader(calibration, search=search)
            for name, images in (("geaxgx test photos", photos), ("FaltoGH photos", falto_images)):
                print(_row(name, search, evaluate(reader, images, repeat=args.repeat)))
            for spread in (False, True):
                placed, read, wrong, unknown, times = _synthetic(
                    reader, faces, args.scenes, spread, args.repeat
                )
                name = "synthetic spread hands" if spread else "synthetic scattered"
                print(
                    f"{name:<22} {'on' if search else 'off':<6} {args.scenes:>6} {placed:>6} "
                    f"{read:>5} {100.0 * read / max(1, placed):>5.1f}% {wrong:>5} {unknown:>7} "
                    f"{'-':>7} {statistics.median(times):>8.1f} {_p90(times):>7.1f}"
                )
    print("\nms: per 1280x720 frame, one OpenCV thread, fastest of --repeat runs per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
