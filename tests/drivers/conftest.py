"""Fixtures of the camera tests: a calibration learned from the PR 15 faces, and the faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card, parse_card
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.calibration import Calibration
from tests.fixtures.camera_faces import FACES


@pytest.fixture(scope="module")
def calibration() -> Calibration:
    """A calibration learned from the PR 15 faces (skips when they are not there)."""
    if not FACES.is_dir():
        pytest.skip(f"card faces not found at {FACES}")
    return calibrate_from_folder(FACES)[0]


@pytest.fixture(scope="module")
def faces() -> dict[Card, np.ndarray]:
    """Card -> its PR 15 face image (BGR), skipping when they are not there."""
    if not FACES.is_dir():
        pytest.skip(f"card faces not found at {FACES}")
    return {parse_card(d.name): cv2.imread(str(d / f"{d.name}.png")) for d in FACES.iterdir()}
