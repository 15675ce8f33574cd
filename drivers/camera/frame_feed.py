"""Frames read in a worker thread, taken by the caller with a timeout (:class:`FrameFeed`).

A :class:`~drivers.camera.frames.FrameReader` can block in its driver (a camera stuck in
``read()``); behind a feed it cannot block the caller's prompts or timeouts. Used by the live
calibration (:func:`~drivers.camera.live_calibration.capture_cards`).
"""

from __future__ import annotations

import queue
import threading
import time

from dealer_assist.errors import DeviceError
from drivers.camera.frames import FrameReader


class FrameFeed:
    """A frame reader driven by a worker thread; the caller takes frames with a timeout.

    Items: ("frame", image), ("error", DeviceError) for a failed read (the worker retries),
    ("end", None) at the end of a recording. The queue holds two frames: a file is read ahead
    but never skipped; a live camera that runs faster than the processing waits in its driver.
    """

    def __init__(self, frames: FrameReader, open_timeout: float, frame_timeout: float) -> None:
        self._frames = frames
        self._open_timeout = open_timeout
        self._frame_timeout = frame_timeout
        self._queue: queue.Queue[tuple[str, object]] = queue.Queue(maxsize=2)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        """Open the reader in the worker. Raises DeviceError when it fails or times out."""
        opened = threading.Event()
        failure: list[BaseException] = []
        thread = threading.Thread(
            target=self._run,
            args=(opened, failure),
            name="camera-calibration",
            daemon=True,  # a camera stuck in its driver must not keep the process alive
        )
        thread.start()
        if not opened.wait(self._open_timeout):
            self._stop.set()
            raise DeviceError(
                f"{self._frames.description} did not open within {self._open_timeout:g} s"
            )
        if failure:
            thread.join(self._open_timeout)
            err = failure[0]
            if isinstance(err, DeviceError):
                raise err
            raise DeviceError(f"{self._frames.description}: {err}") from err
        self._thread = thread

    def get(self, timeout: float) -> tuple[str, object]:
        """The next item; raises queue.Empty after ``timeout`` seconds."""
        return self._queue.get(timeout=max(0.0, timeout))

    def close(self) -> None:
        """Stop the worker (it closes the reader); safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            while True:  # unblock a worker waiting to put a frame
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break
            thread.join(max(1.0, self._frame_timeout))

    def _put(self, item: tuple[str, object]) -> None:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _run(self, opened: threading.Event, failure: list[BaseException]) -> None:
        frames = self._frames
        try:
            frames.open(self._open_timeout)
        except BaseException as e:  # reported to open(), which raises it
            failure.append(e)
            opened.set()
            return
        opened.set()
        try:
            pace = 1.0 / frames.pace if frames.pace > 0 else 0.0
            next_at = time.monotonic()
            while not self._stop.is_set():
                try:
                    frame = frames.read(self._frame_timeout)
                except DeviceError as e:
                    self._put(("error", e))
                    self._stop.wait(0.1)
                    continue
                if frame is None:
                    self._put(("end", None))
                    return
                self._put(("frame", frame))
                if pace:
                    next_at += pace
                    self._stop.wait(max(0.0, next_at - time.monotonic()))
        finally:
            frames.close()
