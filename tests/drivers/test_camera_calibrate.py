"""Learning a calibration from photos: cards scaled to the size the degraded copies are meant
for, and what a floor person is told when cards are missing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import ConfigError
from drivers.camera.calibrate import (
    CARD_LONG_SIDE,
    calibrate_from_folder,
    card_sized,
    cards_to_show,
)
from drivers.camera.calibration import read_image
from drivers.camera.detect import find_cards
from drivers.camera.synthetic import SceneSettings, felt, render_scene
from tests.fixtures.camera_faces import FACES

if not FACES.is_dir():
    pytest.skip(f"shared card photos not found under {FACES}", allow_module_level=True)


def _face(card: str) -> np.ndarray:
    name = card.replace("T", "10")
    return read_image(FACES / name / f"{name}.png")


def _long_side(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def test_a_face_of_card_size_is_learned_as_it_is() -> None:
    face = _face("Qh")
    assert card_sized(face) is face


def test_a_phone_photos_card_is_scaled_to_the_calibration_size(tmp_path: Path) -> None:
    """Photos of big cards (12 phone megapixels: cards 2000 pixels tall) are learned, and
    self-checked, at the card size the degraded copies are meant for: quicker, and the blurred
    copies are then as blurred as a table camera sees a card."""
    rng = np.random.default_rng(3)
    settings = SceneSettings(size=(1600, 1200), card_height=(900.0, 1000.0), tilt=0.04)
    cards = parse_cards(
        ["2s", "3h", "4d", "5c", "6s", "7h", "8d", "9s", "Tc", "Jh", "Qd", "Kc", "As"]
    )
    folder = tmp_path / "photos"
    folder.mkdir()
    for card in cards:
        frame, quads = render_scene([_face(str(card))], rng, settings, felt(rng, settings.size))
        assert quads and _long_side(quads[0]) > 850
        cv2.imwrite(str(folder / f"{card}.jpg"), frame)
    calibration, report = calibrate_from_folder(folder)
    assert set(report.cards) == set(cards) and not report.skipped
    assert calibration.rank_height == pytest.approx(33.0, abs=3.0)  # as the PR 15 faces
    for _path, card, img in report.images:
        assert max(img.shape[:2]) < 1600 * CARD_LONG_SIDE / 850
        biggest = find_cards(img)[0]
        assert _long_side(biggest) == pytest.approx(CARD_LONG_SIDE, rel=0.05), card


def test_the_cards_to_show_cover_what_is_missing_with_fewest_cards() -> None:
    assert cards_to_show([2, 3, 4, 5, 6, 7, 8], []) == list(
        parse_cards(["2s", "3h", "4d", "5c", "6s", "7h", "8d"])
    )
    assert cards_to_show([9], ["h", "c"]) == [Card(9, "h"), Card(14, "c")]
    # a card whose photo was not read is not asked for again when another will do
    assert cards_to_show([9], [], frozenset({Card(9, "s")})) == [Card(9, "h")]


def test_a_folder_without_some_suit_says_which_cards_to_add(tmp_path: Path) -> None:
    folder = tmp_path / "no_clubs"
    folder.mkdir()
    for card in ["2s", "3h", "4d", "5s", "6h", "7d", "8s", "9h", "Td", "Js", "Qh", "Kd", "As"]:
        cv2.imwrite(str(folder / f"{card}.png"), _face(card))
    with pytest.raises(ConfigError) as e:
        calibrate_from_folder(folder)
    text = str(e.value)
    assert "no readable card of clubs" in text
    assert "missing 39:" in text and " 2c 3c " in text
    assert "show next: Ac " in text
