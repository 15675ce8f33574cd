"""Frame readers behind the camera source: a camera or video file (cv2.VideoCapture) or a folder
of images, and the ``camera://`` / ``file://`` URL syntax.

URLs:
- ``camera://0?width=1280&height=720&fps=30``: camera number 0 (or ``camera:///dev/video2``);
  width, height and fps are requested from the driver, which may pick the nearest it supports.
- ``file:///path/to/video.mp4`` or ``file://relative/folder``: a video file, or a folder of images
  read in name order. ``fps=N`` paces playback (default 0 = as fast as they are processed),
  ``hold=N`` shows each image of a folder for N frames, ``loop=1`` starts over at the end.

Any other query key is left for the source (see :mod:`drivers.camera.source`). Readers are used
from one worker thread; ``read`` waits at most the given timeout where the backend allows it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qsl, unquote, urlsplit

import cv2

from dealer_assist.errors import DeviceError
from drivers.camera.geometry import Image, as_image
from drivers.camera.labels import iter_images

FRAME_KEYS = frozenset({"width", "height", "fps", "hold", "loop"})


@dataclass(frozen=True)
class FrameUrl:
    """A parsed ``camera://`` or ``file://`` URL.

    Attributes:
        scheme: ``camera`` or ``file``.
        target: camera number or device path (camera), or the file or folder path (file).
        width, height: requested capture size in pixels (camera), None = driver default.
        fps: camera: requested frame rate; file: playback pace (0 = unpaced).
        hold: frames per image of a folder.
        loop: start a file or folder over at its end.
        extra: the remaining query keys (source options), as text.
    """

    scheme: str
    target: str
    width: int | None = None
    height: int | None = None
    fps: float = 0.0
    hold: int = 1
    loop: bool = False
    extra: Mapping[str, str] = field(default_factory=dict)


def _number(url: str, key: str, text: str, *, integer: bool) -> float:
    try:
        value = int(text) if integer else float(text)
    except ValueError as e:
        raise DeviceError(f"{url}: {key} must be a number, got {text!r}") from e
    if value < 0 or value != value:  # negative or NaN
        raise DeviceError(f"{url}: {key} must be >= 0, got {text!r}")
    return value


def parse_frame_url(url: str) -> FrameUrl:
    """Parse a camera or file URL (see the module doc).

    Raises:
        DeviceError: not a camera/file URL, no target, or a bad number.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("camera", "file"):
        raise DeviceError(f"not a camera or file URL: {url!r}")
    target = unquote(parts.netloc + parts.path)
    if not target:
        raise DeviceError(f"{url!r} names no camera or file")
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    opts = {k: v for k, v in query.items() if k in FRAME_KEYS}
    w = opts.get("width")
    h = opts.get("height")
    hold = int(_number(url, "hold", opts.get("hold", "1"), integer=True))
    return FrameUrl(
        scheme=scheme,
        target=target,
        width=int(_number(url, "width", w, integer=True)) if w else None,
        height=int(_number(url, "height", h, integer=True)) if h else None,
        fps=_number(url, "fps", opts.get("fps", "0"), integer=False),
        hold=max(1, hold),
        loop=opts.get("loop", "0").lower() in ("1", "true", "yes"),
        extra={k: v for k, v in query.items() if k not in FRAME_KEYS},
    )


class FrameReader(Protocol):
    """A stream of BGR frames, opened and read from one worker thread."""

    description: str
    live: bool  # a camera (failures are faults) rather than a recording (end = end of stream)
    pace: float  # frames per second to play a recording at; 0 = as fast as processed

    def open(self, timeout: float) -> None:
        """Start the stream; DeviceError when it cannot be opened."""

    def read(self, timeout: float) -> Image | None:
        """The next frame, or None at the end of a recording; DeviceError on failure."""

    def close(self) -> None:
        """Release the stream; safe to call twice."""


class CaptureFrames:
    """Frames from cv2.VideoCapture: a camera (number or device path) or a video file.

    Open and read timeouts are passed to the backend (CAP_PROP_OPEN/READ_TIMEOUT_MSEC, honoured
    by FFmpeg and some camera backends); the source also watches for frames that stop coming.
    """

    def __init__(self, spec: FrameUrl) -> None:
        self.spec = spec
        self.live = spec.scheme == "camera"
        self.pace = 0.0 if self.live else spec.fps
        self.description = f"{spec.scheme}:{spec.target}"
        self._cap: cv2.VideoCapture | None = None

    def open(self, timeout: float) -> None:
        """Open the camera or file. Raises DeviceError naming it when that fails."""
        if self._cap is not None:
            return
        ms = max(1, int(timeout * 1000))
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        target: int | str = self.spec.target
        if self.live and self.spec.target.isdigit():
            target = int(self.spec.target)
        elif not self.live and not Path(self.spec.target).is_file():
            raise DeviceError(f"{self.description}: no such file")
        try:
            cap = cv2.VideoCapture(target, cv2.CAP_ANY, params)
            if not cap.isOpened():
                raise DeviceError(f"{self.description}: cannot open")
            if self.live:
                for prop, value in (
                    (cv2.CAP_PROP_FRAME_WIDTH, self.spec.width),
                    (cv2.CAP_PROP_FRAME_HEIGHT, self.spec.height),
                    (cv2.CAP_PROP_FPS, self.spec.fps or None),
                ):
                    if value:
                        cap.set(prop, float(value))
        except cv2.error as e:
            raise DeviceError(f"{self.description}: {e}") from e
        self._cap = cap

    def read(self, timeout: float) -> Image | None:
        """The next frame; None at the end of a video file.

        Raises:
            DeviceError: not open, or the camera gave no frame (unplugged, busy, timed out).
        """
        if self._cap is None:
            raise DeviceError(f"{self.description} is not open")
        try:
            ok, frame = self._cap.read()
        except cv2.error as e:
            raise DeviceError(f"{self.description}: {e}") from e
        if ok and frame is not None:
            return as_image(frame)
        if self.live:
            raise DeviceError(f"{self.description}: no frame from the camera")
        if self.spec.loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
            if ok and frame is not None:
                return as_image(frame)
        return None

    def close(self) -> None:
        """Release the capture; safe to call twice."""
        cap, self._cap = self._cap, None
        if cap is not None:
            with contextlib.suppress(cv2.error):  # a broken device: nothing more to release
                cap.release()


class FolderFrames:
    """Frames from the images of a folder, in path order, each held for ``hold`` frames."""

    live = False

    def __init__(self, spec: FrameUrl) -> None:
        self.spec = spec
        self.description = f"file:{spec.target}"
        self.pace = spec.fps
        self._paths: list[Path] = []
        self._at = 0
        self._current: Image | None = None
        self._left = 0

    def open(self, timeout: float) -> None:
        """List the images. Raises DeviceError when the folder is missing or holds none."""
        folder = Path(self.spec.target)
        if not folder.is_dir():
            raise DeviceError(f"{self.description}: no such folder")
        self._paths = list(iter_images(folder))
        if not self._paths:
            raise DeviceError(f"{self.description}: no images in the folder")
        self._at, self._left = 0, 0

    def read(self, timeout: float) -> Image | None:
        """The next frame; None after the last image (unless looping).

        Raises:
            DeviceError: an image cannot be decoded.
        """
        if self._left == 0:
            if self._at >= len(self._paths):
                if not self.spec.loop or not self._paths:
                    return None
                self._at = 0
            path = self._paths[self._at]
            self._at += 1
            try:
                img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            except cv2.error as e:
                raise DeviceError(f"{self.description}: {path.name}: {e}") from e
            if img is None:
                raise DeviceError(f"{self.description}: cannot decode {path.name}")
            self._current = as_image(img)
            self._left = self.spec.hold
        self._left -= 1
        return self._current

    def close(self) -> None:
        """Forget the listing; safe to call twice."""
        self._paths, self._current, self._left = [], None, 0


def frame_reader(spec: FrameUrl) -> FrameReader:
    """The reader for a parsed URL: a folder of images, or cv2.VideoCapture for the rest."""
    if spec.scheme == "file" and Path(spec.target).is_dir():
        return FolderFrames(spec)
    return CaptureFrames(spec)
