"""``dealer-assist camera``: learn the house deck (calibrate) and measure recognition (eval).

    dealer-assist camera calibrate --from FOLDER [--out FILE]
    dealer-assist camera calibrate --camera URL [--out FILE] [--save-faces DIR] [--cards "As Ks"]
                                   [--frames N] [--card-timeout S] [--no-check]
    dealer-assist camera eval FOLDER [--labels CSV | --labelme] [--calibration FILE] [--json]
    dealer-assist camera labels FOLDER --out CSV      (labelme corner boxes -> labels CSV)

Also runnable as ``python -m ui.commands.camera ACTION ...``.

Needs the ``camera`` extra (opencv-python-headless); without it the command is not offered.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2  # an import error hides the command when the camera extra is missing
from tqdm import tqdm

from dealer_assist.cards import RANK_CHARS, Card, parse_cards
from dealer_assist.errors import ConfigError, DealerAssistError
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.calibration import (
    BUILTIN_CALIBRATION,
    Calibration,
    default_calibration_path,
    resolve_calibration,
)
from drivers.camera.evaluate import ImageResult, evaluate, evaluate_images
from drivers.camera.frames import frame_reader, parse_frame_url
from drivers.camera.geometry import Image
from drivers.camera.labels import (
    LabelledImage,
    card_of_path,
    iter_images,
    labels_from_labelme,
    labels_from_names,
    read_labels,
    write_labels,
)
from drivers.camera.live_calibration import (
    CALIBRATION_ORDER,
    CapturedCard,
    CaptureSettings,
    LiveCalibrationError,
    Notice,
    capture_cards,
)
from drivers.camera.reader import IndexReader

#: source options a ``--camera`` URL may carry besides the frame keys (seconds)
_CAMERA_TIMEOUTS = ("open_timeout", "frame_timeout")


def register(subparsers: Any) -> None:
    """Add the ``camera`` command and its sub-commands to the CLI's sub-parsers."""
    parser = subparsers.add_parser(
        "camera",
        help="camera card recognition: calibrate the house deck, evaluate on photos",
        description="Camera card recognition (fallback card source).",
    )
    sub = parser.add_subparsers(dest="camera_command", required=True, metavar="ACTION")

    cal = sub.add_parser(
        "calibrate",
        help="learn the house deck from one image per card, or shown card by card to a camera",
        description="Learn rank/suit index templates of the house deck: from single-card images "
        "named by card (file or folder name like 10c, Ah, Qs), or from the cards shown one by "
        "one to the table camera when asked.",
    )
    where = cal.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--from", dest="source", type=Path, metavar="FOLDER", help="images named by card"
    )
    where.add_argument(
        "--camera",
        metavar="URL",
        help="camera://0?width=1280&height=720, or file://PATH (video or image folder): "
        "show each card when asked",
    )
    cal.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"calibration file to write (default: {default_calibration_path()})",
    )
    live = cal.add_argument_group("with --camera")
    live.add_argument(
        "--save-faces",
        type=Path,
        metavar="DIR",
        help="keep the captured faces as DIR/As/1.png ... (each card as soon as it is taken; "
        "faces already in DIR are learned too, so a stopped run continues with --cards)",
    )
    live.add_argument(
        "--cards",
        metavar="CARDS",
        help='cards to ask for, in order, e.g. "As Ks 10h" (default: the 52 cards, suit by '
        "suit, ace first)",
    )
    live.add_argument(
        "--frames",
        type=_positive_int,
        default=CaptureSettings.faces,
        metavar="N",
        help=f"faces taken per card (default {CaptureSettings.faces})",
    )
    live.add_argument(
        "--card-timeout",
        type=_seconds,
        default=CaptureSettings.card_timeout,
        metavar="S",
        help=f"seconds allowed per card (default {CaptureSettings.card_timeout:g})",
    )
    live.add_argument(
        "--no-check",
        action="store_true",
        help="take each card as the one asked for, even when the current calibration reads it "
        "as another card",
    )
    cal.set_defaults(func=_calibrate)

    ev = sub.add_parser(
        "eval",
        help="read labelled photos and print cards read, unknown, wrong and ms per frame",
        description="Evaluate recognition on labelled images under FOLDER. Exit status 1 when "
        "any card was reported as certain but is not in its image.",
    )
    ev.add_argument("folder", type=Path, metavar="FOLDER")
    how = ev.add_mutually_exclusive_group()
    how.add_argument(
        "--labels",
        type=Path,
        metavar="CSV",
        help="labels CSV (file, rank, suit, n_cards, cards_all); only rows under FOLDER are used",
    )
    how.add_argument(
        "--labelme", action="store_true", help="take labels from labelme *.json files in FOLDER"
    )
    ev.add_argument("--calibration", type=Path, metavar="FILE", help="calibration file")
    ev.add_argument(
        "--no-search",
        action="store_true",
        help="only cards with a visible outline (no index search for overlapping cards)",
    )
    ev.add_argument("--repeat", type=int, default=1, help="time each frame N times, keep fastest")
    ev.add_argument("--json", action="store_true", help="also print the totals as one JSON line")
    ev.add_argument("--quiet", action="store_true", help="totals only, no line per image")
    ev.set_defaults(func=_eval)

    lab = sub.add_parser(
        "labels",
        help="convert labelme corner boxes under FOLDER to a labels CSV",
        description="Write a labels CSV (one row per image, cards_all = distinct box labels).",
    )
    lab.add_argument("folder", type=Path, metavar="FOLDER")
    lab.add_argument("--out", type=Path, required=True, metavar="CSV")
    lab.set_defaults(func=_labels)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be seconds > 0, got {text!r}")
    return value


def _calibrate(args: argparse.Namespace) -> int:
    out: Path = args.out or default_calibration_path()
    if args.camera is None:
        keys = ("save_faces", "cards", "no_check")
        given = [f"--{k.replace('_', '-')}" for k in keys if getattr(args, k)]
        if given:
            raise ConfigError(f"{' and '.join(given)} need --camera")
        return _learn(args.source, out, str(args.source))
    return _calibrate_live(args, out)


def _bar(total: int, what: str) -> tqdm[Any]:
    """A progress bar on stderr (none when stderr is not a terminal, as in a log)."""
    return tqdm(total=total, desc=what, unit="image", file=sys.stderr, disable=None, leave=False)


def _learn(folder: Path, out: Path, source: str) -> int:
    """Learn from ``folder``, write ``out``, print the report and the self-check."""
    paths = list(iter_images(folder)) if folder.is_dir() else []
    t0 = time.perf_counter()
    with _bar(len(paths), "learning") as bar:
        calibration, report = calibrate_from_folder(folder, progress=lambda _p: bar.update())
    calibration = replace(calibration, source=source)
    print(
        f"learned {len(set(report.cards))} cards ({report.indexes} indexes) from {source} "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    for path, reason in report.skipped:
        print(f"  skipped {path}: {reason}")
    learned = [(LabelledImage(p, (card,)), img) for p, card, img in report.images]
    with _bar(len(learned), "self-check") as bar:
        check = evaluate_images(
            IndexReader(calibration), learned, progress=lambda _r: bar.update(), hd=False
        )
    print(
        f"self-check on the same images: {check.correct}/{check.labelled} read, "
        f"{check.wrong} wrong, {check.unknown} unknown"
    )
    calibration.save(out)
    print(f"written {out}")
    return 0


def _live_cards(text: str | None) -> tuple[Card, ...]:
    if text is None:
        return CALIBRATION_ORDER
    cards = parse_cards(text.replace(",", " ").split())
    if not cards:
        raise ConfigError("--cards names no card")
    return cards


def _save_faces(folder: Path, got: CapturedCard) -> None:
    """Write ``got`` as ``folder/<card>/1.png ...``, replacing that card's earlier faces; the
    card's folder is written aside and renamed into place, so it is whole or absent."""
    final = folder / str(got.card)
    partial = folder / f".{got.card}.partial"
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for n, face in enumerate(got.faces, start=1):
            if not cv2.imwrite(str(partial / f"{n}.png"), face):
                raise OSError(f"cannot encode {partial / f'{n}.png'}")
        shutil.rmtree(final, ignore_errors=True)
        partial.rename(final)
    except (OSError, cv2.error) as e:
        shutil.rmtree(partial, ignore_errors=True)
        raise ConfigError(f"cannot save the faces of {got.card} in {folder}: {e}") from e


def _check_coverage(cards: tuple[Card, ...], saved: Path | None) -> None:
    """Refuse before the camera opens when the cards to show, with the faces already in
    ``saved``, would leave a rank or suit without a sample (learning would then fail and the
    faces shown be lost)."""
    have = set(cards)
    if saved is not None and saved.is_dir():
        have |= {c for c in (card_of_path(p) for p in iter_images(saved)) if c is not None}
    missing = [RANK_CHARS[r - 2] for r in range(2, 15) if all(c.rank != r for c in have)]
    missing += [s for s in "shdc" if all(c.suit != s for c in have)]
    if missing:
        raise ConfigError(
            f"the cards to show leave no sample of {' '.join(missing)}: the calibration needs "
            "every rank and suit (show more cards, or keep earlier faces in --save-faces DIR)"
        )


def _identifier() -> tuple[Callable[[Image], Card | None], Path]:
    """A check of the card shown: the card the current calibration (the house deck's, else
    the shipped one; the shipped one when the house file is unreadable) reads certainly on a
    face, None when it reads none or several."""
    try:
        calibration, used = resolve_calibration()
    except ConfigError:
        calibration, used = Calibration.load(BUILTIN_CALIBRATION), BUILTIN_CALIBRATION
    reader = IndexReader(calibration, search=False)

    def identify(face: Image) -> Card | None:
        cards = {d.reading.card for d in reader.read_frame(face)}
        cards.discard(None)
        return cards.pop() if len(cards) == 1 else None

    return identify, used


def _calibrate_live(args: argparse.Namespace, out: Path) -> int:
    url: str = args.camera
    cards = _live_cards(args.cards)
    spec = parse_frame_url(url)
    unknown = sorted(set(spec.extra) - set(_CAMERA_TIMEOUTS))
    if unknown:
        raise ConfigError(f"{url}: unknown option(s) for calibrate: {', '.join(unknown)}")
    timeouts: dict[str, float] = {}
    for key in _CAMERA_TIMEOUTS:
        if key in spec.extra:
            try:
                timeouts[key] = _seconds(spec.extra[key])
            except argparse.ArgumentTypeError as e:
                raise ConfigError(f"{url}: {key} {e}") from e
    settings = CaptureSettings(
        faces=args.frames,
        card_timeout=args.card_timeout,
        open_timeout=timeouts.get("open_timeout", CaptureSettings.open_timeout),
        frame_timeout=timeouts.get("frame_timeout", CaptureSettings.frame_timeout),
    )
    saved: Path | None = args.save_faces
    _check_coverage(cards, saved)

    def tell(notice: Notice) -> None:
        print(notice.text, flush=True)

    identify = None
    if not args.no_check:
        identify, used = _identifier()
        print(f"each card shown is checked with {used} (--no-check: not checked)")
    print(
        f"calibrating {len(cards)} cards from {url}: show each card alone, face up, when asked",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="dealer-assist-faces-") as tmp:
        folder = saved or Path(tmp)
        try:
            captured = capture_cards(
                frame_reader(spec),
                cards,
                tell,
                settings,
                on_card=lambda got: _save_faces(folder, got),
                identify=identify,
            )
        except LiveCalibrationError as e:
            left = " ".join(str(c) for c in cards[len(e.captured) :])
            if saved is not None and e.captured:
                print(
                    f"the faces of {len(e.captured)} card(s) are kept in {saved}; to go on: "
                    f'dealer-assist camera calibrate --camera "{url}" --save-faces {saved} '
                    f'--cards "{left}"',
                    file=sys.stderr,
                )
            elif e.captured:
                print(
                    "nothing was saved (--save-faces DIR keeps the captured faces)",
                    file=sys.stderr,
                )
            raise
        source = f"{url} ({sum(len(c.faces) for c in captured)} faces"
        source += f" in {saved})" if saved is not None else ")"
        return _learn(folder, out, source)


def _load_calibration(path: Path | None) -> Calibration:
    calibration, source = resolve_calibration(path)
    if source == BUILTIN_CALIBRATION:
        # stderr: the figures on stdout stay parseable (--json)
        print(
            f"using the shipped calibration ({source.name}); for the house deck run "
            "'dealer-assist camera calibrate --from FOLDER'",
            file=sys.stderr,
        )
    return calibration


def _select(args: argparse.Namespace) -> list[LabelledImage]:
    """The labelled images to evaluate; ConfigError naming what to give when there are none."""
    folder: Path = args.folder
    if not folder.is_dir():
        raise ConfigError(f"not a folder: {folder}")
    if args.labels is not None:
        root = folder.resolve()
        images = [i for i in read_labels(args.labels) if i.path.resolve().is_relative_to(root)]
        missing = f"no row of {args.labels} names an image under {folder}"
    elif args.labelme:
        images = labels_from_labelme(folder)
        missing = f"no labelme *.json files with card boxes under {folder}"
    else:
        images = labels_from_names(iter_images(folder))
        missing = (
            f"no labelled images under {folder}: without labels an image must be named by its "
            "card (Ah.png, 10c/1.jpg); give --labels CSV (file, rank, suit, n_cards, cards_all) "
            "or --labelme (labelme *.json beside the images)"
        )
    if not images:
        raise ConfigError(missing)
    return images


def _names(cards: tuple[object, ...]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _eval(args: argparse.Namespace) -> int:
    images = _select(args)  # a wrong folder or labels is told before any calibration notice
    reader = IndexReader(_load_calibration(args.calibration), search=not args.no_search)

    def show(r: ImageResult) -> None:
        if not args.quiet:
            print(
                f"{r.path}: truth {_names(r.truth)} | read {_names(r.read)} | "
                f"wrong {_names(r.wrong)} | unknown {r.unknown} | {r.ms:.1f} ms"
            )

    summary = evaluate(reader, images, repeat=args.repeat, progress=show)
    single_ok, singles = summary.single
    labelled = max(1, summary.labelled)
    print(
        f"images {len(summary.results)}, cards labelled {summary.labelled}: "
        f"read {summary.correct} ({100.0 * summary.correct / labelled:.1f}%), "
        f"wrong {summary.wrong}, unknown {summary.unknown}, missed {summary.missed}"
    )
    if singles:
        print(
            f"single-card images read: {single_ok}/{singles} ({100.0 * single_ok / singles:.1f}%)"
        )
    print(
        f"ms per frame (one core): median {summary.ms_median:.1f} at native size, "
        f"median {summary.ms_hd_median:.1f} per 1280x720 frame"
    )
    if args.json:
        print(json.dumps(summary.as_dict()))
    return 1 if summary.wrong else 0


def _labels(args: argparse.Namespace) -> int:
    images = labels_from_labelme(args.folder)
    if not images:
        raise ConfigError(f"no labelme files under {args.folder}")
    write_labels(images, args.out)
    print(f"{len(images)} images, {sum(len(i.cards) for i in images)} cards -> {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m ui.commands.camera ...``: the same sub-commands without the full CLI."""
    from ui.cli import CommandParser, Parser  # the CLI's parsers: no abbreviated options

    parser = Parser(prog="dealer-assist")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    register(sub)
    args = parser.parse_args(["camera", *(sys.argv[1:] if argv is None else argv)])
    try:
        status: int = args.func(args)
    except DealerAssistError as e:
        print(f"dealer-assist camera: {e}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
