"""Synthetic table scenes: card faces warped onto a felt background, with noise.

For tests and benchmarks of the pipeline where no camera is at hand, and to check a calibration:
:func:`render_scene` lays card images onto a 1280x720 green felt with a random position, rotation,
scale and perspective tilt, then adds blur, sensor noise and a brightness/colour cast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from drivers.camera.geometry import Image, Quad, as_image

FELT_BGR = (40, 110, 30)


@dataclass(frozen=True)
class SceneSettings:
    """Ranges of the random scene.

    Attributes:
        size: frame (width, height) in pixels.
        card_height: card height range in pixels (on a 720 p table camera: 150..300).
        tilt: largest perspective corner shift, as a fraction of the card height.
        noise: sensor noise standard deviation range, grey levels.
        blur: Gaussian blur sigma range, pixels.
        gain: brightness factor range (each channel drawn separately within +-3 %).
    """

    size: tuple[int, int] = (1280, 720)
    card_height: tuple[float, float] = (170.0, 300.0)
    tilt: float = 0.08
    noise: tuple[float, float] = (2.0, 6.0)
    blur: tuple[float, float] = (0.0, 1.0)
    gain: tuple[float, float] = (0.8, 1.1)


def felt(rng: np.random.Generator, size: tuple[int, int] = (1280, 720)) -> Image:
    """A plain green felt frame (w, h) with a faint cloth texture."""
    w, h = size
    base = np.empty((h, w, 3), np.float32)
    base[:] = FELT_BGR
    texture = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 2)
    return as_image(np.clip(base + texture[..., None], 0, 255))


def rounded_mask(h: int, w: int, radius: float = 0.06) -> Image:
    """255 inside a card outline with rounded corners (radius as a fraction of the width)."""
    r = max(1, int(radius * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def _placement(
    rng: np.random.Generator, card: Image, s: SceneSettings, taken: list[Quad]
) -> Quad | None:
    ch, cw = card.shape[:2]
    fw, fh = s.size
    for _ in range(50):
        height = rng.uniform(*s.card_height)
        scale = height / ch
        angle = rng.uniform(0, 2 * np.pi)
        c, si = np.cos(angle), np.sin(angle)
        local = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) - [cw / 2, ch / 2]
        local *= scale
        rot = local @ np.array([[c, si], [-si, c]])
        rot += rng.uniform(-s.tilt, s.tilt, (4, 2)) * height
        lo, hi = rot.min(axis=0), rot.max(axis=0)
        if np.any(hi - lo >= [fw - 4, fh - 4]):
            continue
        centre = rng.uniform(-lo + 2, [fw, fh] - hi - 2)
        quad: Quad = np.asarray(rot + centre, dtype=np.float32)
        box = cv2.boundingRect(quad)
        if all(not _overlap(box, cv2.boundingRect(q)) for q in taken):
            return quad
    return None


def _overlap(a: Sequence[int], b: Sequence[int]) -> bool:
    gap = 8
    return not (
        a[0] + a[2] + gap <= b[0]
        or b[0] + b[2] + gap <= a[0]
        or a[1] + a[3] + gap <= b[1]
        or b[1] + b[3] + gap <= a[1]
    )


def render_scene(
    cards: Sequence[Image],
    rng: np.random.Generator,
    settings: SceneSettings | None = None,
    background: Image | None = None,
) -> tuple[Image, list[Quad]]:
    """Lay ``cards`` (BGR portrait faces) on felt, not overlapping, and degrade the frame.

    Returns:
        the BGR frame (h, w, 3) and, per card placed, its corners in the frame. Placing stops
        at the first card that does not fit: the placed cards are ``cards[:len(quads)]``.
    """
    s = settings or SceneSettings()
    frame = np.asarray(background if background is not None else felt(rng, s.size), np.float64)
    quads: list[Quad] = []
    for card in cards:
        quad = _placement(rng, card, s, quads)
        if quad is None:
            break  # the placed cards stay a prefix of ``cards``
        ch, cw = card.shape[:2]
        src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad)
        size = (frame.shape[1], frame.shape[0])
        warped = np.asarray(cv2.warpPerspective(card, m, size, flags=cv2.INTER_LINEAR), np.float64)
        alpha = cv2.warpPerspective(rounded_mask(ch, cw), m, size, flags=cv2.INTER_LINEAR)
        a = np.asarray(alpha, np.float64)[..., None] / 255.0
        frame = frame * (1 - a) + warped * a
        quads.append(quad)
    gain = rng.uniform(*s.gain) * rng.uniform(0.97, 1.03, 3)
    frame = frame * gain
    sigma = rng.uniform(*s.blur)
    if sigma > 0.3:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.float64)
    frame = frame + rng.normal(0, rng.uniform(*s.noise), frame.shape)
    return as_image(np.clip(frame, 0, 255)), quads


def render_spread(
    cards: Sequence[Image],
    rng: np.random.Generator,
    settings: SceneSettings | None = None,
    step: float = 0.32,
) -> tuple[Image, list[Quad]]:
    """Lay ``cards`` overlapping in a row, each shifted ``step`` card widths from the last and
    covering its right part, as a dealer spreads a hand: only the top-left index of every card
    but the last stays visible. The whole row is turned and tilted at random.

    Returns:
        the BGR frame and each card's corners (including the covered parts), in laying order.
    """
    s = settings or SceneSettings()
    fw, fh = s.size
    frame = felt(rng, s.size).astype(np.float64)
    ch, cw = cards[0].shape[:2]
    height = rng.uniform(*s.card_height)
    k = height / ch
    angle = rng.uniform(-0.6, 0.6) + (np.pi if rng.random() < 0.5 else 0.0)
    rot = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])
    width = (1 + step * (len(cards) - 1)) * cw * k
    centre = np.array([fw / 2, fh / 2]) + rng.uniform(-0.1, 0.1, 2) * [fw, fh]
    quads: list[Quad] = []
    for i, card in enumerate(cards):
        x = -width / 2 + i * step * cw * k
        top, bottom = -height / 2, height / 2
        local = np.array([[x, top], [x + cw * k, top], [x + cw * k, bottom], [x, bottom]])
        local += rng.uniform(-0.01, 0.01, (4, 2)) * height
        quad = np.asarray(local @ rot + centre, np.float32)
        src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad)
        warped = np.asarray(cv2.warpPerspective(card, m, (fw, fh)), np.float64)
        alpha = cv2.warpPerspective(rounded_mask(ch, cw), m, (fw, fh))
        a = np.asarray(alpha, np.float64)[..., None] / 255.0
        frame = frame * (1 - a) + warped * a
        quads.append(quad)
    frame = frame * rng.uniform(*s.gain) * rng.uniform(0.97, 1.03, 3)
    sigma = rng.uniform(*s.blur)
    if sigma > 0.3:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.float64)
    frame = frame + rng.normal(0, rng.uniform(*s.noise), frame.shape)
    return as_image(np.clip(frame, 0, 255)), quads


def photo_background(rng: np.random.Generator, size: tuple[int, int] = (1280, 720)) -> Image:
    """A surface a card is photographed on: felt, wood grain, dark leather or a light desk
    (w, h), each with a random tint and texture."""
    w, h = size
    kind = int(rng.integers(0, 4))
    if kind == 0:
        return felt(rng, size)
    colour = {1: (30, 60, 110), 2: (25, 25, 30), 3: (170, 180, 185)}[kind]
    base = np.empty((h, w, 3), np.float32)
    base[:] = np.array(colour, np.float32) * rng.uniform(0.7, 1.2, 3).astype(np.float32)
    sigma = float(rng.uniform(1, 6))
    texture = cv2.GaussianBlur(rng.normal(0, 12, (h, w)).astype(np.float32), (0, 0), sigma)
    if kind == 1:  # wood grain
        grain = np.sin(np.linspace(0, rng.uniform(20, 80), w)).astype(np.float32) * 15
        texture = texture + grain[None, :]
    return as_image(np.clip(base + texture[..., None], 0, 255))


def jpeg(frame: Image, quality: int) -> Image:
    """``frame`` after JPEG compression at ``quality`` (1..100), as a phone or webcam stores it."""
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return frame
    return as_image(cv2.imdecode(buf, cv2.IMREAD_COLOR))
