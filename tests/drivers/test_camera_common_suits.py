"""The shipped calibration reads the common decks' spades: its other prints' suit sets
(drivers/camera/common_suits.py), tried only where the deck's own templates leave a card unread.

The cards are printed in the repository's DejaVu fonts (tests/fixtures/data/fonts), not in the
FreeSans suits the shipped set is made of, and never taken from a photo set.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card, parse_card
from drivers.camera.calibrate import degraded
from drivers.camera.calibration import BUILTIN_CALIBRATION, SUITS, Calibration, read_image
from drivers.camera.common_suits import COMMON_FONTS
from drivers.camera.deck_print import render_face
from drivers.camera.decks import DeckStyle
from drivers.camera.geometry import CARD_H, CARD_W, Image
from drivers.camera.reader import IndexReader
from tests.fixtures.camera_faces import FACES

DECK_FONTS = Path(__file__).parent.resolve().parent / "fixtures" / "data" / "fonts" / "deck"
ROOT = Path(__file__).resolve().parents[2]
#: a bridge-size card's marks after the reader's warp to the poker shape: 63 / 57 mm wider
BRIDGE_WIDENING = 63.0 / 57.0


@pytest.fixture(scope="module")
def shipped() -> Calibration:
    return Calibration.load(BUILTIN_CALIBRATION)


def _seen(card: Card, style: DeckStyle, rng: np.random.Generator) -> Image:
    """``card`` printed in ``style`` as a camera sees it 300 pixels tall (blur 0.6 px, noise),
    warped back to the canonical card."""
    big = render_face(card, style, rng).astype(np.float32)
    small = cv2.resize(big, (214, 300), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 0.6) + rng.normal(0, 2.0, small.shape)
    small = np.clip(small, 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(small, (CARD_W, CARD_H), interpolation=cv2.INTER_LINEAR))


def _black_cards_read(calibration: Calibration, style: DeckStyle) -> tuple[int, int, int]:
    """(spades read, clubs read, cards read wrong) of the 26 black cards printed in ``style``."""
    reader = IndexReader(calibration, search=False)
    rng = np.random.default_rng(3)
    spades = clubs = wrong = 0
    for rank in range(2, 15):
        for suit in "sc":
            card = Card(rank, suit)
            got = reader.read_card(_seen(card, style, rng)).card
            spades += got == card and suit == "s"
            clubs += got == card and suit == "c"
            wrong += got is not None and got != card
    return spades, clubs, wrong


@pytest.mark.parametrize("font", ["DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"])
def test_the_shipped_calibration_reads_the_spades_of_a_common_bridge_size_deck(
    shipped: Calibration, font: str
) -> None:
    """A bridge-size card's classic spade, widened by the warp to the poker shape, looks like a
    club to the PR 15 templates alone (1 and 6 of 13 read); the shipped common-deck set reads
    them, and reads no card wrong."""
    style = DeckStyle(
        rank_font=str(DECK_FONTS / font),
        suit_font=str(DECK_FONTS / font),
        suit_width=BRIDGE_WIDENING,  # bridge decks print a condensed rank: kept as printed
    )
    spades, clubs, wrong = _black_cards_read(shipped, style)
    assert (spades, clubs, wrong) == (13, 13, 0)
    own_spades, _, own_wrong = _black_cards_read(replace(shipped, suit_sets={}), style)
    assert own_spades <= 8 and own_wrong == 0


def test_another_prints_set_never_changes_what_the_decks_own_templates_read(
    shipped: Calibration,
) -> None:
    """Each PR 15 face and its degraded copies: a card read by the deck's own templates is read
    the same with the common-deck set; the set only reads cards they leave unread."""
    with_set = IndexReader(shipped, search=False)
    own = IndexReader(replace(shipped, suit_sets={}), search=False)
    checked = 0
    for folder in sorted(FACES.iterdir())[::4]:
        for img in degraded(read_image(folder / f"{folder.name}.png")):
            before = own.read_frame(img)
            if before and before[0].reading.card is not None:
                assert with_set.read_frame(img)[0].reading.card == before[0].reading.card
                assert before[0].reading.card == parse_card(folder.name)
                checked += 1
    assert checked > 30


def test_the_shipped_calibration_carries_the_common_deck_suit_sets(
    shipped: Calibration, tmp_path: Path
) -> None:
    """The shipped file holds the sets :func:`common_suit_sets` renders today (the build is
    reproducible). Rendered in a process of its own, as the build tool runs: an earlier
    ``cv2.putText`` in a Hershey font (other tests draw some) changes what OpenCV's built-in
    sans face draws afterwards."""
    assert list(shipped.suit_sets) == list(COMMON_FONTS)
    out = tmp_path / "sets.npz"
    script = (
        "import sys, numpy as np\n"
        "from drivers.camera.common_suits import common_suit_sets\n"
        "sets = common_suit_sets()\n"
        "np.savez(sys.argv[1], **{f'{n}_{s}': t for n, v in sets.items() for s, t in v.items()})\n"
    )
    subprocess.run([sys.executable, "-c", script, str(out)], check=True, cwd=ROOT, timeout=300)
    fresh = np.load(out)
    for name in COMMON_FONTS:
        for suit in SUITS:
            rendered = fresh[f"{name}_{suit}"]
            assert abs(shipped.suit_sets[name][suit] - rendered).max() < 1e-3, (name, suit)


def test_a_calibration_keeps_its_suit_sets_through_save_and_load(
    shipped: Calibration, tmp_path: Path
) -> None:
    path = tmp_path / "cal.npz"
    shipped.save(path)
    again = Calibration.load(path)
    assert list(again.suit_sets) == list(shipped.suit_sets)
    for name, suits in shipped.suit_sets.items():
        for suit in SUITS:
            assert np.array_equal(again.suit_sets[name][suit], suits[suit])
    replace(shipped, suit_sets={}).save(path)
    assert Calibration.load(path).suit_sets == {}
