"""Camera recognition figures: read rate, wrong, unknown, and ms per 1280x720 frame on one core.

    python bench/camera_eval.py [--cards ../shared/data/cards] [--calibration FILE]
                                [--repeat 3] [--scenes 40] [--decks 12] [--holdout]
    python bench/camera_eval.py --stress 40 [--seed 1]

Calibrates from ``pr15_data_cards`` (unless a calibration file is given), then reads:
- the geaxgx test photos (labels.csv rows under test_photos);
- the FaltoGH photos, whose labelme corner boxes are converted to the labels CSV format here
  (written to a temporary folder, then read back like any labels file);
- synthetic 1280x720 frames: PR 15 faces scattered on felt, and spread hands that overlap;
- synthetic frames of other deck designs (``--decks`` random styles from the machine's fonts,
  see drivers/camera/decks.py), scattered and spread: decks the calibration never saw;
- single-card photos of the PR 15 faces and of the other designs, and of jumbo-index designs
  (rank 12..18 % of the card's height, pips closer in: drivers.camera.decks.JUMBO_RANK).
Each set with the full reader, without the index search, and with the calibrated templates
only (no shape classifier), to show what each part brings. ``--holdout`` also trains a shape
model without two font families and reads decks printed in those families only: the honest
figure for print the classifier never saw (takes a minute or two).

``--stress N`` is the safety check instead: N frames for each of four card sizes (normal,
medium, harsh: small and blurred, big), scattered and spread, PR 15 faces, other deck
designs and jumbo-index designs; it prints placed, read and wrong cards and exits with 1 when
any card was wrong.

Times: each frame read ``--repeat`` times, fastest kept (less noise from other processes), then
median and 90th percentile over the frames, with cv2.setNumThreads(1). ``--clock cpu`` times
the reading thread's CPU time (``time.thread_time``) instead of the wall clock: on a machine
shared with other jobs the wall time also counts their turns (set ``OPENBLAS_NUM_THREADS=1``
so that numpy's products stay on the thread as well). Real photos are scaled
to fit a 1280x720 frame for the time figure. The "still" rows read the scattered and spread
scenes as a still table, 6 consecutive frames each with the camera noise drawn again: "full"
reads every frame, "reuse" as the camera source does (drivers/camera/reuse.py: a still frame's
reads given again for at most 2 frames); their times are per frame, the mean over the 6 frames.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card, parse_card
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.calibration import Calibration, read_image
from drivers.camera.deck_print import render_face
from drivers.camera.decks import DeckStyle, family, random_style
from drivers.camera.evaluate import EvalSummary, evaluate, one_thread
from drivers.camera.geometry import CARD_H, CARD_W, Image
from drivers.camera.labels import labels_from_labelme, read_labels, write_labels
from drivers.camera.reader import IndexReader
from drivers.camera.reuse import FrameReuse
from drivers.camera.shapes import ShapeModel, default_model
from drivers.camera.synthetic import (
    SceneSettings,
    jpeg,
    photo_background,
    render_scene,
    render_spread,
)
from drivers.camera.training import default_fonts, fit, make_samples

REPO = Path(__file__).resolve().parents[1]
HEADER = (
    f"{'set':<24} {'reader':<10} {'images':>6} {'cards':>6} {'read':>5} {'rate':>6} "
    f"{'wrong':>5} {'unknown':>7} {'single':>7} {'ms p50':>8} {'ms p90':>7}"
)


def _p90(values: list[float]) -> float:
    return float(np.percentile(values, 90)) if values else 0.0


def _row(name: str, mode: str, s: EvalSummary) -> str:
    single_ok, singles = s.single
    pct = 100.0 * s.correct / max(1, s.labelled)
    hd = [r.ms_hd for r in s.results]
    singles_text = f"{single_ok}/{singles}" if singles else "-"
    return (
        f"{name:<24} {mode:<10} {len(s.results):>6} {s.labelled:>6} "
        f"{s.correct:>5} {pct:>5.1f}% {s.wrong:>5} {s.unknown:>7} {singles_text:>7} "
        f"{s.ms_hd_median:>8.1f} {_p90(hd):>7.1f}"
    )


@dataclass
class _Tally:
    frames: int = 0
    placed: int = 0
    read: int = 0
    wrong: int = 0
    unknown: int = 0

    def row(self, name: str, mode: str, times: list[float]) -> str:
        return (
            f"{name:<24} {mode:<10} {self.frames:>6} {self.placed:>6} {self.read:>5} "
            f"{100.0 * self.read / max(1, self.placed):>5.1f}% {self.wrong:>5} "
            f"{self.unknown:>7} {'-':>7} {statistics.median(times):>8.1f} {_p90(times):>7.1f}"
        )


Scene = tuple[Image, set[Card]]


#: the clock of the times (``--clock``): wall time, or the reading thread's CPU time
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def _read_scenes(
    reader: IndexReader,
    scenes: list[Scene],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[_Tally, list[float]]:
    tally, times = _Tally(), []
    for frame, there in scenes:
        best = float("inf")
        for _ in range(repeat):
            t0 = clock()
            detections = reader.read_frame(frame)
            best = min(best, (clock() - t0) * 1000.0)
        times.append(best)
        got = {d.reading.card for d in detections if d.reading.card is not None}
        tally.frames += 1
        tally.placed += len(there)
        tally.read += len(got & there)
        tally.wrong += len(got - there)
        tally.unknown += sum(1 for d in detections if d.reading.card is None)
    return tally, times


#: frames of a still table per scene (camera noise drawn again for each frame)
STILL_FRAMES = 6


def _read_still(
    reader: IndexReader,
    scenes: list[Scene],
    repeat: int,
    reuse: bool,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[_Tally, list[float]]:
    """Each scene as :data:`STILL_FRAMES` consecutive frames of a still table, read by
    ``reader`` (``reuse``: through :class:`~drivers.camera.reuse.FrameReuse`, as the camera
    source reads). Times: per frame, the mean over the sequence (fastest of ``repeat``)."""
    tally, times = _Tally(), []
    rng = np.random.default_rng(99)
    for frame, there in scenes:
        noise = [rng.normal(0.0, 3.0, frame.shape) for _ in range(STILL_FRAMES)]
        frames = [np.clip(frame + n, 0, 255).astype(np.uint8) for n in noise]
        best, got = float("inf"), []
        for _ in range(repeat):
            read = FrameReuse(reader.read_frame).read_frame if reuse else reader.read_frame
            t0 = clock()
            got = [read(f) for f in frames]
            best = min(best, (clock() - t0) * 1000.0 / len(frames))
        times.append(best)
        for detections in got:
            cards = {d.reading.card for d in detections if d.reading.card is not None}
            tally.frames += 1
            tally.placed += len(there)
            tally.read += len(cards & there)
            tally.wrong += len(cards - there)
            tally.unknown += sum(1 for d in detections if d.reading.card is None)
    return tally, times


def _scenes(
    face: Callable[[Card, np.random.Generator], Image],
    count: int,
    spread: bool,
    seed: int,
    settings: SceneSettings | None = None,
) -> list[Scene]:
    """``count`` frames: 4 cards scattered, or 2..6 cards spread, faces from ``face``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(2, 7)) if spread else 4
        chosen = [Card.from_index(int(i)) for i in rng.choice(52, n, replace=False)]
        images = [face(c, rng) for c in chosen]
        if spread:
            frame, quads = render_spread(images, rng, settings)
        else:
            frame, quads = render_scene(images, rng, settings)
        out.append((frame, set(chosen if spread else chosen[: len(quads)])))
    return out


#: a card photographed alone (a phone or webcam photo of one card): big, tilted, on felt, wood,
#: leather or a light desk, JPEG-compressed (quality 60..95)
PHOTO = SceneSettings(
    card_height=(300.0, 650.0), tilt=0.12, blur=(0.0, 1.3), noise=(2.0, 7.0), gain=(0.7, 1.15)
)


def _photos(
    face: Callable[[Card, np.random.Generator], Image], count: int, seed: int
) -> list[Scene]:
    """``count`` single-card photos (see :data:`PHOTO`), faces from ``face``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        card = Card.from_index(int(rng.integers(52)))
        surface = photo_background(rng, PHOTO.size)
        frame, quads = render_scene([face(card, rng)], rng, PHOTO, surface)
        if quads:
            out.append((jpeg(frame, int(rng.integers(60, 96))), {card}))
    return out


def _deck_faces(styles: list[DeckStyle]) -> Callable[[Card, np.random.Generator], Image]:
    """Faces printed in ``styles`` in turn: a new deck design every few frames."""
    calls = {"n": 0}

    def face(card: Card, rng: np.random.Generator) -> Image:
        style = styles[(calls["n"] // 24) % len(styles)]  # ~6 frames per design
        calls["n"] += 1
        big = render_face(card, style, rng)
        return np.asarray(cv2.resize(big, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA))

    return face


def _holdout_model(families: set[str]) -> tuple[ShapeModel, list[str], list[str]]:
    """A shape model trained without ``families``; and those families' fonts (rank, suit)."""
    rank_fonts, suit_fonts = default_fonts()
    keep = [f for f in rank_fonts if family(f) not in families]
    model = fit(make_samples(160, 21, keep, [f for f in suit_fonts if f in keep]), seed=21)
    # the limits (detail, distances) of the packaged model, measured on its own held-out fonts
    model = replace(model, meta=default_model().meta)
    held = [f for f in rank_fonts if family(f) in families]
    return model, held, [f for f in suit_fonts if f in held]


#: card sizes of the safety check (card heights in a 1280x720 frame, blur, noise, tilt)
STRESS = {
    "normal": SceneSettings(),
    "medium": SceneSettings(
        card_height=(120.0, 230.0), noise=(3.0, 8.0), blur=(0.4, 1.5), tilt=0.1
    ),
    "harsh": SceneSettings(
        card_height=(80.0, 170.0), noise=(4.0, 10.0), blur=(0.8, 2.2), tilt=0.12
    ),
    "big": SceneSettings(card_height=(300.0, 600.0), blur=(0.0, 1.5), tilt=0.15),
}


def _stress(
    calibration: Calibration,
    pr15: dict[Card, Image],
    rank_fonts: list[str],
    suit_fonts: list[str],
    count: int,
    seed: int,
) -> int:
    """Safety check: placed, read and wrong cards over many synthetic frames; 1 if any wrong."""
    reader = IndexReader(calibration)
    rng = np.random.default_rng(5000 + seed)
    styles = [random_style(rng, rank_fonts, suit_fonts) for _ in range(max(1, count // 3))]
    jumbo_rng = np.random.default_rng(6000 + seed)
    jumbo = [
        replace(random_style(jumbo_rng, rank_fonts, suit_fonts), rank_height=h)
        for h in jumbo_rng.uniform(0.12, 0.18, max(1, count // 3))
    ]
    faces = {
        "PR 15": lambda c, _r: pr15[c],
        "other decks": _deck_faces(styles),
        "jumbo decks": _deck_faces(jumbo),
    }
    wrong_total = 0
    print(f"\n{'deck':<12} {'cards':<7} {'layout':<9} {'placed':>6} {'read':>5} {'wrong':>5}")
    with one_thread():
        for deck, face in faces.items():
            for size, settings in STRESS.items():
                for spread in (False, True):
                    scenes = _scenes(face, count, spread, 100 * seed + 7 + spread, settings)
                    tally, _ = _read_scenes(reader, scenes, 1)
                    wrong_total += tally.wrong
                    layout = "spread" if spread else "scattered"
                    print(
                        f"{deck:<12} {size:<7} {layout:<9} {tally.placed:>6} {tally.read:>5} "
                        f"{tally.wrong:>5}"
                    )
    return 1 if wrong_total else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--cards", type=Path, default=REPO.parent / "shared" / "data" / "cards")
    ap.add_argument("--calibration", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--decks", type=int, default=12, help="deck designs for the unseen-deck sets")
    ap.add_argument("--holdout", action="store_true", help="also the held-out font families set")
    ap.add_argument(
        "--stress",
        type=int,
        default=0,
        metavar="N",
        help="only the safety check: N synthetic frames per card size, layout and deck",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed offset of the --stress frames")
    ap.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall time, or the reading thread's CPU time (robust to other processes' load)",
    )
    args = ap.parse_args()
    clock = CLOCKS[args.clock]
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
    pr15 = {
        parse_card(d.name): read_image(d / f"{d.name}.png")
        for d in sorted((geaxgx / "pr15_data_cards").iterdir())
    }
    rank_fonts, suit_fonts = default_fonts()
    style_rng = np.random.default_rng(1000)  # not a training seed: designs never trained on
    styles = [random_style(style_rng, rank_fonts, suit_fonts) for _ in range(args.decks)]
    if args.stress:
        return _stress(calibration, pr15, rank_fonts, suit_fonts, args.stress, args.seed)
    sets: list[tuple[str, list[Scene]]] = []
    for spread in (False, True):
        kind = "spread" if spread else "scattered"
        sets.append(
            (f"PR 15 faces {kind}", _scenes(lambda c, _r: pr15[c], args.scenes, spread, 7 + spread))
        )
        sets.append(
            (f"other decks {kind}", _scenes(_deck_faces(styles), args.scenes, spread, 17 + spread))
        )
    sets.append(("PR 15 faces photo", _photos(lambda c, _r: pr15[c], args.scenes * 2, 37)))
    sets.append(("other decks photo", _photos(_deck_faces(styles), args.scenes * 2, 47)))
    jumbo_rng = np.random.default_rng(3000)
    jumbo = [
        replace(random_style(jumbo_rng, rank_fonts, suit_fonts), rank_height=h)
        for h in jumbo_rng.uniform(0.12, 0.18, args.decks)
    ]
    sets.append(("jumbo decks photo", _photos(_deck_faces(jumbo), args.scenes * 2, 67)))
    print(f"\n{HEADER}")
    modes: list[tuple[str, dict[str, bool]]] = [
        ("full", {}),
        ("no search", {"search": False}),
        ("templates", {"shapes": False}),
    ]
    with one_thread():
        for mode, options in modes:
            reader = IndexReader(
                calibration, search=options.get("search", True), shapes=options.get("shapes", True)
            )
            for name, images in (("geaxgx test photos", photos), ("FaltoGH photos", falto_images)):
                summary = evaluate(reader, images, repeat=args.repeat, clock=clock)
                print(_row(name, mode, summary))
            for name, scenes in sets:
                tally, times = _read_scenes(reader, scenes, args.repeat, clock)
                print(tally.row(name, mode, times))
            if mode == "full":  # a still table: every frame read, then as the source reads
                for name, scenes in sets[:4]:
                    still = name.replace("scattered", "still").replace("spread", "still spread")
                    for how in (False, True):
                        tally, times = _read_still(reader, scenes, args.repeat, how, clock)
                        print(tally.row(still, "reuse" if how else "full", times))
        if args.holdout:
            held_families = {"P052", "URWGothic"}
            model, held_rank, held_suit = _holdout_model(held_families)
            rng = np.random.default_rng(2000)
            held_styles = [random_style(rng, held_rank, held_suit) for _ in range(args.decks)]
            reader = IndexReader(calibration, shapes=model)
            for spread in (False, True):
                name = f"held-out fonts {'spread' if spread else 'scattered'}"
                scenes = _scenes(_deck_faces(held_styles), args.scenes, spread, 27 + spread)
                tally, times = _read_scenes(reader, scenes, args.repeat, clock)
                print(tally.row(name, "full", times))
            photos_held = _photos(_deck_faces(held_styles), args.scenes * 2, 57)
            tally, times = _read_scenes(reader, photos_held, args.repeat, clock)
            print(tally.row("held-out fonts photo", "full", times))
            print(f"(held-out families: {', '.join(sorted(held_families))})")
    what = "CPU time of the reading thread" if args.clock == "cpu" else "wall time"
    print(f"\nms: per 1280x720 frame ({what}), one OpenCV thread, fastest of --repeat runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
