"""Reuse a frame's reads while the table lies still: a cheap frame difference, bounded staleness.

A table camera sees the same still cards for hundreds of frames. :class:`FrameReuse` keeps the
detections of the last frame it read in full together with that frame's block means (the
frame averaged over ``block`` x ``block`` squares, every channel), and gives them again for a
following frame whose block means all lie within ``tolerance`` grey levels of them: camera
noise averages out over a block (sigma 10 per pixel is 0.6 over 16 x 16), while a card put down,
moved, taken away or a hand over the table moves whole blocks by tens of levels.

Safety: the comparison is with the frame last read, never with the previous frame, so a slow
change adds up until it forces a read; and a read is given again for at most ``frames``
following frames, whatever the difference says. With the default of 2 and the vote's 4 of 5
frames (:mod:`~drivers.camera.vote`), a card is reported only when at least two reads of
different frames agreed: the vote still sees independent reads, as without reuse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2

from dealer_assist.errors import ConfigError
from drivers.camera.geometry import Image, as_image
from drivers.camera.reading import Detection


@dataclass(frozen=True)
class ReuseSettings:
    """Limits of :class:`FrameReuse`.

    Attributes:
        frames: following frames a read may be given again at most (0: every frame is read).
        block: side of the squares whose means are compared, pixels.
        tolerance: grey levels any block mean (any channel) may differ from the frame read.
    """

    frames: int = 2
    block: int = 16
    tolerance: float = 8.0

    def __post_init__(self) -> None:
        if self.frames < 0 or self.block < 1 or not self.tolerance >= 0:
            raise ConfigError(
                f"frame reuse needs frames >= 0, block >= 1, tolerance >= 0; got {self}"
            )


def block_means(frame: Image, block: int) -> Image:
    """``frame`` (h, w, channels) uint8 averaged over ``block`` x ``block`` squares (the last
    ones partial): (ceil(h / block), ceil(w / block), channels) uint8, rounded."""
    h, w = frame.shape[:2]
    size = (-(-w // block), -(-h // block))
    return as_image(cv2.resize(frame, size, interpolation=cv2.INTER_AREA))


class FrameReuse:
    """``read`` (a frame's reader, such as :meth:`~drivers.camera.reader.IndexReader.read_frame`)
    with the reads of a still frame given again (see the module doc).

    Pure computation, one instance per frame stream and thread. ``read_count`` and
    ``reuse_count`` count the frames read and the frames answered from the last read.
    """

    def __init__(
        self, read: Callable[[Image], list[Detection]], settings: ReuseSettings | None = None
    ) -> None:
        self._read = read
        self.settings = settings or ReuseSettings()
        self._means: Image | None = None
        self._detections: list[Detection] = []
        self._age = 0
        self.read_count = 0
        self.reuse_count = 0

    def read_frame(self, frame: Image) -> list[Detection]:
        """The detections of ``frame`` (BGR uint8): read, or those of the last frame read when
        ``frame`` differs from it by no more than the tolerance and the read is fresh enough."""
        s = self.settings
        if s.frames == 0:
            self.read_count += 1
            return self._read(frame)
        means = block_means(frame, s.block)
        if self._age < s.frames and self._still(means):
            self._age += 1
            self.reuse_count += 1
            return list(self._detections)
        self._detections = self._read(frame)
        self._means = means
        self._age = 0
        self.read_count += 1
        return list(self._detections)

    def forget(self) -> None:
        """Drop the last read: the next frame is read (a new deck, a camera reopened)."""
        self._means = None
        self._detections = []

    def _still(self, means: Image) -> bool:
        last = self._means
        if last is None or last.shape != means.shape:
            return False
        return float(cv2.norm(last, means, cv2.NORM_INF)) <= self.settings.tolerance


__all__ = ["FrameReuse", "ReuseSettings", "block_means"]
