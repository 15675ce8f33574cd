"""``dealer-assist camera``: learn the house deck (calibrate) and measure recognition (eval).

    dealer-assist camera calibrate --from FOLDER [--out FILE]
    dealer-assist camera eval FOLDER [--labels CSV | --labelme] [--calibration FILE] [--json]
    dealer-assist camera labels FOLDER --out CSV      (labelme corner boxes -> labels CSV)

Also runnable as ``python -m ui.commands.camera ACTION ...``.

Needs the ``camera`` extra (opencv-python-headless); without it the command is not offered.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2  # noqa: F401  (import error hides the command when the camera extra is missing)

from dealer_assist.errors import ConfigError, DealerAssistError
from drivers.camera.calibration import (
    BUILTIN_CALIBRATION,
    Calibration,
    calibrate_from_folder,
    default_calibration_path,
    resolve_calibration,
)
from drivers.camera.evaluate import ImageResult, evaluate
from drivers.camera.labels import (
    LabelledImage,
    iter_images,
    labels_from_labelme,
    labels_from_names,
    read_labels,
    write_labels,
)
from drivers.camera.reader import IndexReader


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
        help="learn the deck's index templates from one image per card",
        description="Learn rank/suit index templates from single-card images named by card "
        "(file or folder name like 10c, Ah, Qs).",
    )
    cal.add_argument("--from", dest="source", type=Path, required=True, metavar="FOLDER")
    cal.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"calibration file to write (default: {default_calibration_path()})",
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


def _calibrate(args: argparse.Namespace) -> int:
    out: Path = args.out or default_calibration_path()
    calibration, report = calibrate_from_folder(args.source)
    calibration.save(out)
    print(f"learned {len(set(report.cards))} cards ({report.indexes} indexes) from {args.source}")
    for path, reason in report.skipped:
        print(f"  skipped {path}: {reason}")
    check = evaluate(IndexReader(calibration), labels_from_names(iter_images(args.source)))
    print(
        f"self-check on the same images: {check.correct}/{check.labelled} read, "
        f"{check.wrong} wrong, {check.unknown} unknown"
    )
    print(f"written {out}")
    return 0


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
    folder: Path = args.folder
    if not folder.is_dir():
        raise ConfigError(f"not a folder: {folder}")
    if args.labels is not None:
        root = folder.resolve()
        images = [i for i in read_labels(args.labels) if i.path.resolve().is_relative_to(root)]
    elif args.labelme:
        images = labels_from_labelme(folder)
    else:
        images = labels_from_names(iter_images(folder))
    if not images:
        raise ConfigError(f"no labelled images under {folder}")
    return images


def _names(cards: tuple[object, ...]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _eval(args: argparse.Namespace) -> int:
    reader = IndexReader(_load_calibration(args.calibration), search=not args.no_search)
    images = _select(args)

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
    parser = argparse.ArgumentParser(prog="dealer-assist")
    sub = parser.add_subparsers(dest="command", required=True)
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
