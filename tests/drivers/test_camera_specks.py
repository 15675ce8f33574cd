"""The index search's speck filter: it drops exactly the ink components that fit in a small
square, and the marks the search finds stay the same."""

from __future__ import annotations

import cv2
import numpy as np

from drivers.camera.geometry import darkest
from drivers.camera.search import SearchSettings, _marks, drop_specks


def _components(mask: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """(x, y, w, h, area) of every 8-connected component, in a stable order."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return sorted(tuple(int(v) for v in stats[i]) for i in range(1, n))


def test_drop_specks_removes_exactly_the_lone_pixels() -> None:
    rng = np.random.default_rng(3)
    for density in (0.02, 0.1, 0.3):
        mask = np.where(rng.random((90, 130)) < density, 255, 0).astype(np.uint8)
        cv2.rectangle(mask, (20, 30), (60, 70), 255, 1)  # a big ring with specks inside
        mask[0, 0] = mask[89, 129] = 255  # lone pixels on the border too
        mask[0, 1] = mask[1, 0] = mask[1, 1] = mask[89, 128] = mask[88, 128] = 0
        mask[88, 129] = 0
        before = _components(mask)
        kept = drop_specks(mask)
        assert _components(kept) == [c for c in before if c[4] > 1]
        assert np.all(kept[kept > 0] == mask[kept > 0])  # no pixel added
        assert any(c[4] == 1 for c in before)


def test_specks_do_not_change_the_marks_the_search_finds() -> None:
    rng = np.random.default_rng(5)
    dark = np.full((360, 640), 200, np.uint8)
    for x, y in rng.integers(20, 600, (12, 2)):
        cv2.putText(dark, "K", (int(x), int(y) % 330 + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 30, 2)
    noisy = dark.copy()
    specks = rng.random(dark.shape) < 0.05
    noisy[specks] = 20  # isolated dark pixels, as sensor noise on felt leaves them
    settings = SearchSettings()
    with_specks = _marks(noisy, settings, [], 640)
    assert len(with_specks[0]) > 0
    # the same marks as a search that traced every speck and then dropped it by size
    ink = cv2.adaptiveThreshold(
        noisy,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        max(3, int(settings.block * 640) | 1),
        settings.offset,
    )
    contours, hierarchy = cv2.findContours(ink, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    lo = settings.rank_size[0] * 640 / settings.suit_ratio[1]
    sizes = sorted(
        max(cv2.boundingRect(c)[2:])
        for c, h in zip(contours, hierarchy[0], strict=True)
        if h[3] < 0
        and len(c) > 3
        and lo <= max(cv2.boundingRect(c)[2:]) <= 0.08 * 640
        and 0.1 < cv2.contourArea(c) / (cv2.boundingRect(c)[2] * cv2.boundingRect(c)[3]) < 0.95
        and cv2.boundingRect(c)[0] > 0
        and cv2.boundingRect(c)[1] > 0
    )
    assert sorted(with_specks[1].tolist()) == sizes


def test_darkest_is_the_least_channel_of_every_pixel() -> None:
    rng = np.random.default_rng(11)
    # a frame, an index region and odd sizes, and views of each
    for h, w in ((720, 1280), (363, 641), (133, 65), (1, 60_001), (60_001, 1), (2, 3), (1, 1)):
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        assert np.array_equal(darkest(img), img.min(axis=2))
        view = img[h // 3 :, w // 4 : max(w // 4 + 1, w - 7)]
        assert np.array_equal(darkest(view), view.min(axis=2))
    # the last pixel of a row may be the darkest only by its red (no byte of the next row)
    img = np.full((300, 300, 3), 200, np.uint8)
    img[:, -1, 2] = 7
    img[1:, 0, 0] = 3
    got = darkest(img)
    assert np.all(got[:, -1] == 7) and np.all(got[1:, 0] == 3) and got[0, 0] == 200
