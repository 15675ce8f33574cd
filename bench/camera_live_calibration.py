"""Live calibration figures: frames per second of the capture loop, and the time to learn 52 cards.

    python bench/camera_live_calibration.py [--cards ../shared/data/cards] [--faces 5]

A synthetic camera run (PR 15 faces on 1280x720 felt, a pixel of pose jitter, sensor noise): for
each card one frame of it moving in, 7 frames lying still, 6 frames of empty felt.

- fps: :func:`drivers.camera.live_calibration.capture_cards` over the first 8 cards' frames,
  rendered beforehand and handed over from memory (the time of a camera driver is not in it),
  with cv2.setNumThreads(1); frames / wall time, and the same per kind of frame (empty felt, a
  card lying still) from the per-frame work alone.
- 52 cards: the whole deck captured (frames rendered on the fly, not timed), the faces written
  as the CLI writes them, then ``calibrate_from_folder`` and the self-check timed, as
  ``dealer-assist camera calibrate --camera`` runs them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.evaluate import evaluate
from drivers.camera.geometry import Image, Quad, rectify
from drivers.camera.labels import iter_images, labels_from_names
from drivers.camera.live_calibration import CALIBRATION_ORDER, CaptureSettings, capture_cards
from drivers.camera.reader import IndexReader
from drivers.camera.still_card import face_detail, single_cards
from drivers.camera.synthetic import felt, rounded_mask

STILL, EMPTY = 7, 6


class Table:
    """Frames of one camera: felt, cards laid on it with a pixel of jitter, sensor noise."""

    def __init__(self, faces: Path, seed: int = 1) -> None:
        self.faces = faces
        self.rng = np.random.default_rng(seed)
        self.felt = felt(self.rng).astype(np.float32)
        self.noise = [self.rng.normal(0, 3, self.felt.shape).astype(np.float32) for _ in range(4)]

    def face(self, card: Card) -> Image:
        name = str(card).replace("T", "10")
        return np.asarray(cv2.imread(str(self.faces / name / f"{name}.png")), np.uint8)

    def quad(self, face: Image) -> Quad:
        h, w = face.shape[:2]
        height = self.rng.uniform(200, 280)
        half = np.array([w, h]) * height / h / 2
        a = self.rng.uniform(-0.5, 0.5) + (np.pi / 2 if self.rng.random() < 0.2 else 0.0)
        rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        centre = self.rng.uniform([420, 260], [860, 460])
        return np.asarray(
            np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half @ rot + centre, "f4"
        )

    def shot(self, face: Image | None = None, quad: Quad | None = None) -> Image:
        frame = self.felt.copy()
        if face is not None and quad is not None:
            q = quad + self.rng.uniform(-1, 1, (4, 2)).astype(np.float32)
            x, y, w, h = cv2.boundingRect(q)
            fh, fw = face.shape[:2]
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
            m = cv2.getPerspectiveTransform(src, q - np.float32([x, y]))
            warped = np.asarray(cv2.warpPerspective(face, m, (w, h)), np.float32)
            alpha = np.asarray(cv2.warpPerspective(rounded_mask(fh, fw), m, (w, h)), np.float32)
            roi = frame[y : y + h, x : x + w]
            roi[:] = roi * (1 - alpha[..., None] / 255) + warped * alpha[..., None] / 255
        frame += self.noise[int(self.rng.integers(len(self.noise)))]
        return np.clip(frame, 0, 255).astype(np.uint8)

    def run(self, cards: tuple[Card, ...]) -> Iterator[Image]:
        for _ in range(EMPTY):
            yield self.shot()
        for card in cards:
            face = self.face(card)
            quad = self.quad(face)
            yield self.shot(face, quad + np.float32(50))
            for _ in range(STILL):
                yield self.shot(face, quad)
            for _ in range(EMPTY):
                yield self.shot()


class MemoryFrames:
    """A FrameReader over frames from an iterator (pre-rendered list or a generator)."""

    live = False
    pace = 0.0
    description = "memory:synthetic"

    def __init__(self, frames: Iterator[Image]) -> None:
        self._frames = frames

    def open(self, timeout: float) -> None:
        pass

    def read(self, timeout: float) -> Image | None:
        return next(self._frames, None)

    def close(self) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cards", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/cards"
    )
    parser.add_argument("--faces", type=int, default=5, help="faces per card (CLI default 5)")
    args = parser.parse_args()
    faces_dir = args.cards / "geaxgx_playing-card-detection" / "pr15_data_cards"
    cv2.setNumThreads(1)
    settings = CaptureSettings(faces=args.faces)

    table = Table(faces_dir)
    frames = list(table.run(CALIBRATION_ORDER[:8]))
    start = time.perf_counter()
    got = capture_cards(MemoryFrames(iter(frames)), CALIBRATION_ORDER[:8], lambda n: None, settings)
    wall = time.perf_counter() - start
    used = got[-1].frames[-1] + 1
    print(f"capture loop: {used} frames 1280x720 in {wall:.2f} s = {used / wall:.0f} fps")

    def per_frame(frame: Image) -> float:
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            quads = single_cards(frame)
            if len(quads) == 1:
                face_detail(rectify(frame, quads[0]))
            best = min(best, time.perf_counter() - t)
        return best * 1000

    empty = [per_frame(f) for f in frames[:EMPTY]]
    still = [per_frame(f) for f in frames[EMPTY + 1 : EMPTY + 1 + STILL]]
    print(
        f"per frame (fastest of 5, median): empty felt {statistics.median(empty):.1f} ms, "
        f"card lying still (detect + rectify + index detail) {statistics.median(still):.1f} ms"
    )

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        table = Table(faces_dir, seed=2)
        captured = capture_cards(
            MemoryFrames(table.run(CALIBRATION_ORDER)), CALIBRATION_ORDER, lambda n: None, settings
        )
        capture_s = time.perf_counter() - start
        for got_card in captured:
            (folder / str(got_card.card)).mkdir()
            for n, face in enumerate(got_card.faces, start=1):
                cv2.imwrite(str(folder / str(got_card.card) / f"{n}.png"), face)
        print(
            f"52 cards captured ({sum(len(c.faces) for c in captured)} faces) in {capture_s:.1f} s "
            "including rendering the frames"
        )
        start = time.perf_counter()
        calibration, report = calibrate_from_folder(folder)
        learn_s = time.perf_counter() - start
        start = time.perf_counter()
        check = evaluate(IndexReader(calibration), labels_from_names(iter_images(folder)))
        check_s = time.perf_counter() - start
    print(
        f"learn: {len(set(report.cards))} cards, {report.indexes} indexes in {learn_s:.1f} s; "
        f"self-check {check.correct}/{check.labelled} read, {check.wrong} wrong, "
        f"{check.unknown} unknown in {check_s:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
