"""The camera card source: frames in, CardRead events out, as a CardSource.

``open_source("camera://0?width=1280&height=720")`` or ``open_source("file:///path")`` (see
:mod:`drivers.camera.frames` for the URL syntax) builds a :class:`CameraSource`. Source options,
as keyword arguments or URL query keys: ``calibration`` (file; default: the house deck's in the
user data folder, else the shipped one: ``calibration.resolve_calibration``),
``vote``/``agree``/``settle``/``keep`` (:class:`~drivers.camera.vote.VoteSettings` window, agree,
settle, keep), ``open_timeout``, ``frame_timeout`` (seconds), ``deck_size``, ``search`` (0 to
switch the index search for overlapping cards off), ``reuse`` (frames a still frame's reads are
given again at most, :mod:`~drivers.camera.reuse`; default 2, 0 reads every frame).

A camera cannot shuffle or deal: :meth:`CameraSource.shuffle` starts a new deck (cards already on
the table are not reported again) and :meth:`CameraSource.deal` only notes how many cards are
expected. Cards are reported as the dealer lays them out and they become stable.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path

import cv2

from dealer_assist.errors import ConfigError, DeviceError, DeviceIdentityError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceHello,
    LinkLost,
    LinkRestored,
)
from dealer_assist.source import LinkStats, SourceIdentity
from drivers.camera.calibration import Calibration, resolve_calibration
from drivers.camera.frames import FrameReader, frame_reader, parse_frame_url
from drivers.camera.reader import IndexReader
from drivers.camera.reading import Detection
from drivers.camera.reuse import FrameReuse, ReuseSettings
from drivers.camera.vote import Voter, VoteSettings

log = logging.getLogger(__name__)

_VOTE_KEYS = {"vote": "window", "agree": "agree", "settle": "settle", "keep": "keep"}
_FLOAT_KEYS = ("open_timeout", "frame_timeout")
SOURCE_KEYS = frozenset({"calibration", "deck_size", "search", "reuse", *_VOTE_KEYS, *_FLOAT_KEYS})


class CameraSource:
    """Cards read by a camera (or from a recording), as a :class:`~dealer_assist.source.CardSource`.

    Args:
        frames: the frame reader (see :func:`drivers.camera.frames.frame_reader`).
        calibration: the deck's templates.
        name: the source name put on every event.
        vote: frame voting settings.
        open_timeout: seconds open() waits for the camera or file to open.
        frame_timeout: seconds without a frame before LinkLost (a camera that stopped).
        deck_size: cards reported in DeckShuffled (a camera cannot count the deck).
        search: also look for indexes of overlapping cards (see ``drivers.camera.search``).
        reuse: following frames a still frame's reads may be given again (see
            ``drivers.camera.reuse``; 0 reads every frame).
        pin_model, pin_serial: identity the source must have (model ``camera`` or ``file``,
            serial the camera number or path); None = not pinned.

    Events: DeviceHello at open; DeckShuffled after shuffle(); CardRead for each card that
    became stable (``card`` None when one stayed unreadable); LinkLost / LinkRestored when frames
    stop and come back, and LinkLost at the end of a recording.

    Errors: open() raises DeviceError (cannot open, timed out) or DeviceIdentityError (pins).
    """

    def __init__(
        self,
        frames: FrameReader,
        calibration: Calibration,
        *,
        name: str = "camera",
        vote: VoteSettings | None = None,
        open_timeout: float = 10.0,
        frame_timeout: float = 3.0,
        deck_size: int = 52,
        search: bool = True,
        reuse: int = ReuseSettings.frames,
        pin_model: str | None = None,
        pin_serial: str | None = None,
    ) -> None:
        self.name = name
        self._frames = frames
        self._calibration = calibration
        self._vote = vote or VoteSettings()
        self._open_timeout = open_timeout
        self._frame_timeout = frame_timeout
        self._deck_size = deck_size
        self._search = search
        self._reuse = ReuseSettings(frames=reuse)
        self._pin_model = pin_model
        self._pin_serial = pin_serial
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self._lock = threading.Lock()  # voter, deck, stats, link state
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._identity: SourceIdentity | None = None
        self._stats = LinkStats()
        self._voter = Voter(self._vote)
        self._deck_id = ""
        self._index = 0
        self._expected = 0
        self._last_frame = 0.0
        self._lost = False
        self._ended = False

    # -- CardSource ------------------------------------------------------------------------

    @property
    def identity(self) -> SourceIdentity | None:
        """Model ``camera``/``file``, OpenCV's version, camera number or path; None before open."""
        return self._identity

    @property
    def stats(self) -> LinkStats:
        """Frames processed (``frames_received``) and frames that failed (``frames_dropped``)."""
        with self._lock:
            return replace(self._stats)

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""
        return self._thread is not None

    @property
    def expected(self) -> int:
        """Cards announced by deal() and not yet reported."""
        with self._lock:
            return self._expected

    def open(self) -> None:
        """Open the camera or recording in the worker thread and wait for it.

        Raises:
            DeviceError: it cannot be opened, or not within ``open_timeout`` seconds.
            DeviceIdentityError: model or serial differ from the pinned ones.
        """
        if self._thread is not None:
            return
        identity = SourceIdentity(
            model="camera" if self._frames.live else "file",
            firmware=f"opencv-{cv2.__version__}",
            serial=self._frames.description.partition(":")[2],
        )
        wrong = [
            f"{what} {got!r} is not {pin!r}"
            for what, got, pin in (
                ("model", identity.model, self._pin_model),
                ("serial", identity.serial, self._pin_serial),
            )
            if pin is not None and got != pin
        ]
        if wrong:
            raise DeviceIdentityError(f"{self.name}: wrong device: " + ", ".join(wrong))
        opened = threading.Event()
        failure: list[BaseException] = []
        self._stop = threading.Event()
        with self._lock:  # a new session: fresh counters, tracks and deck
            self._stats = LinkStats()
            self._voter = Voter(self._vote)
            self._deck_id = _new_deck_id()
            self._index = 0
            self._lost = self._ended = False
            self._last_frame = time.monotonic()
        hello = DeviceHello(
            source=self.name,
            model=identity.model,
            firmware=identity.firmware,
            serial=identity.serial,
        )
        thread = threading.Thread(
            target=self._run,
            args=(self._stop, opened, failure, hello),
            name=f"camera-{self.name}",
            daemon=True,  # a camera stuck in its driver must not keep the process alive
        )
        thread.start()
        if not opened.wait(self._open_timeout):
            self._stop.set()
            raise DeviceError(
                f"{self.name}: {self._frames.description} did not open within "
                f"{self._open_timeout:g} s"
            )
        if failure:
            thread.join(self._open_timeout)
            err = failure[0]
            if isinstance(err, DeviceError):
                raise err
            raise DeviceError(f"{self.name}: {err}") from err
        self._thread = thread
        self._identity = identity

    def close(self) -> None:
        """Stop the worker (it releases the camera); safe to call twice."""
        thread, self._thread = self._thread, None
        self._stop.set()
        if thread is not None:
            thread.join(max(1.0, self._frame_timeout))
            if thread.is_alive():
                log.warning("%s: camera worker still busy after close", self.name)

    def shuffle(self) -> None:
        """Start a new deck: a DeckShuffled event follows at once. Raises DeviceError if closed."""
        self._require_open()
        with self._lock:
            self._voter.new_deck()
            self._deck_id = _new_deck_id()
            self._index = 0
            self._expected = 0
            event = DeckShuffled(source=self.name, deck_id=self._deck_id, count=self._deck_size)
        self._emit(event)

    def deal(self, n: int) -> None:
        """Note that ``n`` (1..52) more cards are coming; the camera reports them as it sees them.

        Raises:
            DeviceError: n out of range, or the source is not open.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 52:
            raise DeviceError(f"deal count must be 1..52, got {n!r}")
        self._require_open()
        with self._lock:
            self._expected += n

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""
        self._check_stalled()
        try:
            if timeout <= 0:
                return self._events.get_nowait()
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    # -- worker ----------------------------------------------------------------------------

    def _require_open(self) -> None:
        if self._thread is None:
            raise DeviceError(f"{self.name} is not open")

    def _emit(self, event: DeviceEvent) -> None:
        self._events.put(event)

    def _check_stalled(self) -> None:
        """LinkLost when a live camera stopped delivering frames (its read may hang)."""
        with self._lock:
            stalled = (
                self._thread is not None
                and not self._lost
                and not self._ended
                and time.monotonic() - self._last_frame > self._frame_timeout
            )
            if stalled:
                self._lost = True
        if stalled:
            self._emit(LinkLost(source=self.name, reason=f"no frame for {self._frame_timeout:g} s"))

    def _run(
        self,
        stop: threading.Event,
        opened: threading.Event,
        failure: list[BaseException],
        hello: DeviceHello,
    ) -> None:
        frames = self._frames
        try:
            # a table camera never sees a flattened card filling the frame; a missing shape
            # model is reported by open() like a camera that does not open
            reader = IndexReader(self._calibration, search=self._search, flat_fallback=False)
            frames.open(self._open_timeout)
        except BaseException as e:  # reported to open(), which raises it
            failure.append(e)
            opened.set()
            return
        if not stop.is_set():  # open() gave up waiting: this session never started
            self._emit(hello)  # before any card of this session
        opened.set()
        try:
            self._loop(stop, frames, FrameReuse(reader.read_frame, self._reuse))
        finally:
            frames.close()

    def _loop(self, stop: threading.Event, frames: FrameReader, reader: FrameReuse) -> None:
        pace = 1.0 / frames.pace if frames.pace > 0 else 0.0
        next_at = time.monotonic()
        while not stop.is_set():
            try:
                frame = frames.read(self._frame_timeout)
            except DeviceError as e:
                self._on_failure(str(e))
                stop.wait(min(1.0, self._frame_timeout))
                continue
            if frame is None:
                with self._lock:
                    self._ended = True
                self._emit(LinkLost(source=self.name, reason=f"end of {frames.description}"))
                return
            try:
                self._on_frame(reader.read_frame(frame))
            except Exception as e:  # one bad frame must not silence the camera: count it, go on
                log.exception("%s: frame not processed", self.name)
                self._on_failure(f"frame not processed: {e}")
            if pace:
                next_at += pace
                stop.wait(max(0.0, next_at - time.monotonic()))

    def _on_failure(self, reason: str) -> None:
        with self._lock:
            self._stats.frames_dropped += 1
            first = not self._lost and self._frames.live
            if first:
                self._lost = True
        log.warning("%s: %s", self.name, reason)
        if first:
            self._emit(LinkLost(source=self.name, reason=reason))

    def _on_frame(self, detections: list[Detection]) -> None:
        events: list[DeviceEvent] = []
        with self._lock:
            self._stats.frames_received += 1
            self._last_frame = time.monotonic()
            if self._lost:
                self._lost = False
                events.append(LinkRestored(source=self.name))
            for card in self._voter.update(detections):
                self._index += 1
                self._expected = max(0, self._expected - 1)
                events.append(
                    CardRead(source=self.name, deck_id=self._deck_id, index=self._index, card=card)
                )
        for event in events:
            self._emit(event)


def _new_deck_id() -> str:
    return "cam-" + uuid.uuid4().hex[:8]


def open_source(
    url: str,
    *,
    pin_model: str | None = None,
    pin_serial: str | None = None,
    name: str | None = None,
    **opts: object,
) -> CameraSource:
    """A camera source for ``camera://...`` or ``file://...`` (not yet opened).

    Options come from ``opts`` or the URL query (``opts`` win); see the module doc.

    Raises:
        DeviceError: a bad URL.
        ConfigError: an unknown option, a bad value, or no usable calibration file.
    """
    spec = parse_frame_url(url)
    options: dict[str, object] = {**spec.extra, **opts}
    unknown = set(options) - SOURCE_KEYS
    if unknown:
        raise ConfigError(
            f"unknown camera source option(s) for {url}: {', '.join(sorted(unknown))}"
        )
    vote_args = {
        field_name: _positive_int(key, options[key])
        for key, field_name in _VOTE_KEYS.items()
        if key in options
    }
    vote = VoteSettings(**vote_args)
    timeouts = {k: _positive_float(k, options[k]) for k in _FLOAT_KEYS if k in options}
    deck_size = _positive_int("deck_size", options.get("deck_size", 52))
    search = str(options.get("search", "1")).lower() not in ("0", "false", "no", "off")
    reuse = _positive_int("reuse", options.get("reuse", ReuseSettings.frames))
    cal_path = options.get("calibration")
    calibration, _ = resolve_calibration(Path(str(cal_path)) if cal_path is not None else None)
    return CameraSource(
        frame_reader(spec),
        calibration,
        name=name or spec.scheme,
        vote=vote,
        deck_size=deck_size,
        search=search,
        reuse=reuse,
        pin_model=pin_model,
        pin_serial=pin_serial,
        **timeouts,
    )


def _positive_int(key: str, value: object) -> int:
    try:
        number = int(str(value))
    except ValueError as e:
        raise ConfigError(f"camera option {key} must be an integer, got {value!r}") from e
    if number < 0:
        raise ConfigError(f"camera option {key} must be >= 0, got {value!r}")
    return number


def _positive_float(key: str, value: object) -> float:
    try:
        number = float(str(value))
    except ValueError as e:
        raise ConfigError(f"camera option {key} must be seconds, got {value!r}") from e
    if not number > 0 or number == float("inf"):
        raise ConfigError(f"camera option {key} must be finite and > 0, got {value!r}")
    return number
