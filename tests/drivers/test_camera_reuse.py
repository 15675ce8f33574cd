"""A still frame's reads given again (drivers.camera.reuse): only while nothing changed, for a
bounded number of frames, and never across a change of the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import ConfigError
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.geometry import Image
from drivers.camera.reader import IndexReader
from drivers.camera.reading import Detection
from drivers.camera.reuse import FrameReuse, ReuseSettings
from drivers.camera.source import open_source
from drivers.camera.synthetic import SceneSettings, render_scene
from tests.fixtures.camera_faces import FACES

if not FACES.is_dir():
    pytest.skip(f"card faces not found at {FACES}", allow_module_level=True)

CLEAN = SceneSettings(noise=(0.0, 0.0), blur=(0.0, 0.0))


@pytest.fixture(scope="module")
def reader() -> IndexReader:
    return IndexReader(calibrate_from_folder(FACES)[0], flat_fallback=False)


def _scene(names: list[str], seed: int) -> tuple[Image, set[Card]]:
    rng = np.random.default_rng(seed)
    faces = [cv2.imread(str(FACES / n / f"{n}.png")) for n in names]
    scene, quads = render_scene(faces, rng, CLEAN)
    return scene, {parse_card(n) for n in names[: len(quads)]}


def _noisy(scene: Image, rng: np.random.Generator, sigma: float = 6.0) -> Image:
    return np.clip(scene + rng.normal(0, sigma, scene.shape), 0, 255).astype(np.uint8)


def _cards(detections: list[Detection]) -> set[Card]:
    return {d.reading.card for d in detections if d.reading.card is not None}


def test_a_still_table_is_read_every_third_frame(reader: IndexReader) -> None:
    scene, there = _scene(["Ah", "7c", "Qs"], 1)
    rng = np.random.default_rng(2)
    reuse = FrameReuse(reader.read_frame)
    got = [_cards(reuse.read_frame(_noisy(scene, rng))) for _ in range(7)]
    assert got[0] == there and all(g == there for g in got)
    # frames 1, 4 and 7 read; the two after each read answered from it
    assert (reuse.read_count, reuse.reuse_count) == (3, 4)


def test_a_changed_table_is_read_at_once(reader: IndexReader) -> None:
    first, cards_first = _scene(["Ah", "7c", "Qs"], 1)
    rng = np.random.default_rng(3)
    reuse = FrameReuse(reader.read_frame, ReuseSettings(frames=50))
    assert _cards(reuse.read_frame(_noisy(first, rng))) == cards_first
    # the same layout with one card swapped for another: that card's blocks change
    second, cards_second = _scene(["Ah", "7c", "Kd"], 1)
    assert cards_second != cards_first
    assert _cards(reuse.read_frame(_noisy(second, rng))) == cards_second
    # a card taken away
    third, cards_third = _scene(["Ah"], 1)
    assert _cards(reuse.read_frame(_noisy(third, rng))) == cards_third
    assert (reuse.read_count, reuse.reuse_count) == (3, 0)


def test_a_slow_change_adds_up_against_the_frame_read(reader: IndexReader) -> None:
    scene, _ = _scene(["Ah", "7c"], 4)
    reuse = FrameReuse(reader.read_frame, ReuseSettings(frames=50, tolerance=8.0))
    reuse.read_frame(scene)
    # each frame 3 grey levels darker than the one before: never 8 from the previous frame,
    # but 9 from the frame read by the third one
    for step in (1, 2, 3):
        reuse.read_frame(np.clip(scene.astype(np.int16) - 3 * step, 0, 255).astype(np.uint8))
    assert (reuse.read_count, reuse.reuse_count) == (2, 2)


def test_reuse_off_reads_every_frame_and_bad_settings_are_refused(reader: IndexReader) -> None:
    scene, there = _scene(["Ah", "7c"], 5)
    reuse = FrameReuse(reader.read_frame, ReuseSettings(frames=0))
    assert all(_cards(reuse.read_frame(scene)) == there for _ in range(3))
    assert (reuse.read_count, reuse.reuse_count) == (3, 0)
    with pytest.raises(ConfigError, match="frame reuse"):
        ReuseSettings(frames=-1)
    with pytest.raises(ConfigError, match="reuse must be >= 0"):
        open_source(f"file://{FACES / 'Ah'}", reuse="-1")
    with pytest.raises(ConfigError, match="reuse must be an integer"):
        open_source(f"file://{FACES / 'Ah'}", reuse="two")
