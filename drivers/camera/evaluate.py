"""Evaluate the reader on labelled images: cards read, wrong, unknown, and time per frame.

Counting, per image: the set of cards read as certain (a card seen twice counts once) against the
labelled set. ``wrong`` = certain cards not in the image (the one figure that must stay 0);
``unknown`` = card candidates showing an index that was not read; ``missed`` = labelled cards not
read. Time: the median wall time of :meth:`IndexReader.read_frame` per image at its own size, and
per 1280x720 frame (each image scaled to fit and padded), measured with OpenCV on one thread.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from dealer_assist.cards import Card
from drivers.camera.calibration import read_image
from drivers.camera.geometry import Image, as_image
from drivers.camera.labels import LabelledImage
from drivers.camera.reader import IndexReader

HD = (1280, 720)


@dataclass(frozen=True)
class ImageResult:
    """What was read on one labelled image.

    Attributes:
        path: the image.
        truth: labelled cards.
        read: cards read as certain, in detection order, no repeats.
        unknown: candidates with an index that stayed unknown.
        ms: read_frame wall time at the image's own size, milliseconds.
        ms_hd: the same on the image fitted into a 1280x720 frame.
    """

    path: Path
    truth: tuple[Card, ...]
    read: tuple[Card, ...]
    unknown: int
    ms: float
    ms_hd: float

    @property
    def correct(self) -> tuple[Card, ...]:
        """Read cards that are in the image."""
        return tuple(c for c in self.read if c in self.truth)

    @property
    def wrong(self) -> tuple[Card, ...]:
        """Read cards that are not in the image."""
        return tuple(c for c in self.read if c not in self.truth)

    @property
    def missed(self) -> tuple[Card, ...]:
        """Labelled cards not read."""
        return tuple(c for c in self.truth if c not in self.read)


@dataclass
class EvalSummary:
    """Totals over an evaluation (see the module doc for what is counted)."""

    results: list[ImageResult] = field(default_factory=list)

    @property
    def labelled(self) -> int:
        """Labelled cards over all images."""
        return sum(len(r.truth) for r in self.results)

    @property
    def correct(self) -> int:
        """Labelled cards read right."""
        return sum(len(r.correct) for r in self.results)

    @property
    def wrong(self) -> int:
        """Cards read as certain that are not in their image."""
        return sum(len(r.wrong) for r in self.results)

    @property
    def unknown(self) -> int:
        """Candidates left unknown."""
        return sum(r.unknown for r in self.results)

    @property
    def missed(self) -> int:
        """Labelled cards not read."""
        return sum(len(r.missed) for r in self.results)

    @property
    def single(self) -> tuple[int, int]:
        """(single-card images read right with nothing wrong, single-card images)."""
        singles = [r for r in self.results if len(r.truth) == 1]
        ok = sum(1 for r in singles if r.correct and not r.wrong)
        return ok, len(singles)

    @property
    def ms_median(self) -> float:
        """Median ms per image at native size (0.0 when empty)."""
        return statistics.median(r.ms for r in self.results) if self.results else 0.0

    @property
    def ms_hd_median(self) -> float:
        """Median ms per 1280x720 frame (0.0 when empty)."""
        return statistics.median(r.ms_hd for r in self.results) if self.results else 0.0

    def as_dict(self) -> dict[str, object]:
        """The figures as plain JSON-able values."""
        single_ok, singles = self.single
        return {
            "images": len(self.results),
            "labelled": self.labelled,
            "read": self.correct,
            "wrong": self.wrong,
            "unknown": self.unknown,
            "missed": self.missed,
            "single_read": single_ok,
            "single_images": singles,
            "ms_median": round(self.ms_median, 2),
            "ms_per_1280x720_median": round(self.ms_hd_median, 2),
        }


def fit_hd(img: Image, size: tuple[int, int] = HD) -> Image:
    """``img`` scaled to fit ``size`` (w, h) and padded by edge replication to exactly that size."""
    w, h = size
    scale = min(w / img.shape[1], h / img.shape[0])
    resized = as_image(cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    rh, rw = resized.shape[:2]
    top, left = (h - rh) // 2, (w - rw) // 2
    return as_image(
        cv2.copyMakeBorder(resized, top, h - rh - top, left, w - rw - left, cv2.BORDER_REPLICATE)
    )


@contextmanager
def one_thread() -> Iterator[None]:
    """Run OpenCV on one thread inside the block (restored afterwards)."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(before)


def _timed(
    reader: IndexReader, img: Image, repeat: int, clock: Callable[[], float]
) -> tuple[float, list[Card], int]:
    best = float("inf")
    for _ in range(max(1, repeat)):
        t0 = clock()
        detections = reader.read_frame(img)
        best = min(best, (clock() - t0) * 1000.0)
    read = [d.reading.card for d in detections if d.reading.card is not None]
    unknown = sum(1 for d in detections if d.reading.card is None)
    return best, read, unknown


def evaluate(
    reader: IndexReader,
    images: Sequence[LabelledImage],
    *,
    repeat: int = 1,
    progress: Callable[[ImageResult], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> EvalSummary:
    """Read every labelled image and count (see the module doc).

    Args:
        reader: the calibrated reader.
        images: labelled images; each is read once at native size and once fitted to 1280x720.
        repeat: time each read this many times and keep the fastest (less scheduler noise).
        progress: called with each image's result as it is done.
        clock: seconds for the times: wall time by default; ``time.thread_time`` gives the
            reading thread's CPU time, which other processes' load does not inflate.

    Raises:
        ConfigError: an image cannot be read.
    """
    loaded = ((item, read_image(item.path)) for item in images)
    return evaluate_images(reader, loaded, repeat=repeat, progress=progress, clock=clock)


def evaluate_images(
    reader: IndexReader,
    images: Iterable[tuple[LabelledImage, Image]],
    *,
    repeat: int = 1,
    progress: Callable[[ImageResult], None] | None = None,
    hd: bool = True,
    clock: Callable[[], float] = time.perf_counter,
) -> EvalSummary:
    """:func:`evaluate` on images already decoded: (label, BGR image) pairs; ``hd`` False
    skips the read fitted to 1280x720 (its time is then 0), as a self-check needs no time."""
    summary = EvalSummary()
    with one_thread():
        for item, img in images:
            ms, read, unknown = _timed(reader, img, repeat, clock)
            ms_hd = _timed(reader, fit_hd(img), repeat, clock)[0] if hd else 0.0
            result = ImageResult(
                item.path, item.cards, tuple(dict.fromkeys(read)), unknown, ms, ms_hd
            )
            summary.results.append(result)
            if progress is not None:
                progress(result)
    return summary
