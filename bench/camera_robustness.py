"""Camera safety under photographic changes: the real photos turned, rescaled, blurred, lit,
compressed and coloured differently, read again; prints cards read and wrong per change.

    python bench/camera_robustness.py [--cards ../shared/data/cards] [--calibration FILE]

Reads the geaxgx test photos and the FaltoGH photos (labels as in ``camera_eval.py``) once as
they are and once per change below, with the shipped calibration (or ``--calibration``). A
wrong card under any change is a safety fault (exit status 1): the reader must say unknown
instead. Read counts only say how much each change costs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from drivers.camera.calibration import Calibration, read_image, resolve_calibration
from drivers.camera.evaluate import one_thread
from drivers.camera.geometry import Image
from drivers.camera.labels import LabelledImage, labels_from_labelme, read_labels
from drivers.camera.reader import IndexReader

REPO = Path(__file__).resolve().parents[1]
Change = Callable[[Image], Image]


def _u8(img: np.ndarray) -> Image:
    return np.asarray(np.clip(img, 0, 255), np.uint8)


def turned(degrees: float) -> Change:
    def change(img: Image) -> Image:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        c, s = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(h * s + w * c), int(h * c + w * s)
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        return _u8(cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE))

    return change


def gains(b: float, g: float, r: float) -> Change:
    return lambda img: _u8(img.astype(np.float32) * np.array([b, g, r], np.float32))


def gamma(value: float) -> Change:
    return lambda img: _u8(255.0 * (img / 255.0) ** value)


def contrast(k: float) -> Change:
    return lambda img: _u8(128.0 + k * (img.astype(np.float32) - 128.0))


def blurred(sigma: float) -> Change:
    return lambda img: _u8(cv2.GaussianBlur(img, (0, 0), sigma))


def scaled(k: float) -> Change:
    return lambda img: _u8(cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA))


def jpeg(quality: int) -> Change:
    def change(img: Image) -> Image:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return _u8(np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR)))

    return change


def noisy(sigma: float) -> Change:
    return lambda img: _u8(img + np.random.default_rng(0).normal(0.0, sigma, img.shape))


def keystone(k: float) -> Change:
    """Photographed from below: the top edge shorter by ``2k`` of the width."""

    def change(img: Image) -> Image:
        h, w = img.shape[:2]
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = np.array([[k * w, 0], [w - k * w, 0], [w, h], [0, h]], np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        return _u8(cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE))

    return change


def grey(img: Image) -> Image:
    return _u8(cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))


def hue(turn: int) -> Change:
    def change(img: Image) -> Image:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + turn) % 180
        return _u8(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR))

    return change


CHANGES: dict[str, Change] = {
    "none": lambda img: img,
    "turned 90": turned(90),
    "turned 180": turned(180),
    "turned 37": turned(37),
    "keystone 0.2": keystone(0.2),
    "scaled 0.5": scaled(0.5),
    "scaled 0.3": scaled(0.3),
    "blur 1.5 px": blurred(1.5),
    "blur 3 px": blurred(3.0),
    "noise 12": noisy(12.0),
    "jpeg 20": jpeg(20),
    "gamma 0.5": gamma(0.5),
    "gamma 2": gamma(2.0),
    "contrast 0.5": contrast(0.5),
    "overexposed 1.6": gains(1.6, 1.6, 1.6),
    "dim 0.5": gains(0.5, 0.5, 0.5),
    "cool cast": gains(1.15, 1.0, 0.8),
    "warm cast": gains(0.65, 0.85, 1.1),
    "green cast": gains(0.9, 1.1, 0.85),
    "hue +10": hue(10),
    "hue +40": hue(40),
    "monochrome": grey,
}


def _images(cards: Path) -> list[LabelledImage]:
    geaxgx = cards / "geaxgx_playing-card-detection"
    photos = [i for i in read_labels(geaxgx / "labels.csv") if i.path.parent.name == "test_photos"]
    return photos + list(labels_from_labelme(cards / "FaltoGH_CARDETECT"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--cards", type=Path, default=REPO.parent / "shared" / "data" / "cards")
    ap.add_argument("--calibration", type=Path, default=None)
    args = ap.parse_args()
    if not (args.cards / "FaltoGH_CARDETECT").is_dir():
        print(f"no card data at {args.cards}", file=sys.stderr)
        return 2
    calibration = (
        Calibration.load(args.calibration) if args.calibration else resolve_calibration()[0]
    )
    reader = IndexReader(calibration)
    images = [(item, read_image(item.path)) for item in _images(args.cards)]
    labelled = sum(len(item.cards) for item, _ in images)
    print(f"{len(images)} photos, {labelled} labelled cards\n")
    print(f"{'change':<16} {'read':>5} {'wrong':>5}  wrong cards")
    faults = 0
    with one_thread():
        for name, change in CHANGES.items():
            read = wrong = 0
            bad: list[str] = []
            for item, img in images:
                got = {d.reading.card for d in reader.read_frame(change(img))}
                got.discard(None)
                truth = set(item.cards)
                read += len(got & truth)
                wrong += len(got - truth)
                bad += [f"{item.path.name}: {c}" for c in sorted(got - truth, key=str)]
            faults += wrong
            print(f"{name:<16} {read:>5} {wrong:>5}  {', '.join(bad)}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
