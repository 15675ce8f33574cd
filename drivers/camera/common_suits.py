"""The common decks' suit templates, and the shipped calibration that carries them.

The shipped calibration is learned from one deck, the PR 15 faces, whose spade is narrow with a
round head: its suit templates take the classic spade of the decks casinos and home games use
most (a broad head rising to a point, a stem flaring into a foot, as Bicycle-style decks print
it, in standard, bridge and jumbo indexes alike) for a club, and those spades stayed unknown
wherever the shape classifier was not clear enough to overrule the templates.

:func:`common_suit_sets` prints the classic suits of :data:`COMMON_FONTS` (the suit
characters of GNU FreeSans, a font subset the repository ships in ``tests/fixtures/data/fonts``)
on index regions as a camera sees them (:func:`~drivers.camera.deck_print.render_index_region`:
card sizes, blur and noise of :data:`VIEWS`) and cuts them out by the reader's own code; each
suit's template is the mean of its marks, as calibration learns a deck's. Nothing is learned
from a photo. The reader tries each set on its own, only for a card the deck's own templates
leave unread (:class:`~drivers.camera.reader.IndexReader`), so the PR 15 faces read as with
their own templates alone. Tried and not kept: a set of the drawn classic suits
(:func:`~drivers.camera.deck_marks.drawn_suit`; its long stem puts the spade's round lobes into
the template's upper part) read 68 of 103 spades where FreeSans read
90 (the PR 15 templates alone 64), and FreeSerif and FreeSans Bold next to FreeSans read none
more (bench/camera_spades.py's four sets, 100 photos each, 0 wrong in all).

``python -m drivers.camera.common_suits --from FOLDER --out FILE`` writes the shipped
calibration: :func:`~drivers.camera.calibrate.calibrate_from_folder` of the PR 15 faces plus
these sets (models/README.md).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from dealer_assist.cards import Card
from dealer_assist.errors import ConfigError, DealerAssistError
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.calibration import SUITS, Calibration
from drivers.camera.deck_print import render_index_region
from drivers.camera.decks import DeckStyle
from drivers.camera.geometry import CARD_H, Glyph
from drivers.camera.glyphs import extract_region

#: the fonts whose suit characters are the common decks' suit sets: set name -> font file
#: in :data:`FONTS`
COMMON_FONTS = {"FreeSans": "FreeSans.ttf"}
#: the repository's font subsets (their licences are in ``LICENSES/`` there)
FONTS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "data" / "fonts" / "deck"
#: (card height in camera pixels, blur sigma) the marks are seen at, each with every card
VIEWS = ((400.0, 0.3), (300.0, 0.6), (220.0, 0.9))
#: seed of the renders' small misfits and noise (the sets are the same on every build)
SEED = 30


def suit_templates(style: DeckStyle, seed: int = SEED) -> dict[str, Glyph]:
    """``s h d c`` -> the mean suit mark of ``style``'s 52 indexes seen as :data:`VIEWS` say,
    cut out by :func:`~drivers.camera.glyphs.extract_region` (as the reader cuts them).

    Raises:
        DealerAssistError: a suit gave no mark (the style prints no index the reader finds).
    """
    rng = np.random.default_rng(seed)
    marks: dict[str, list[Glyph]] = {s: [] for s in SUITS}
    for px, blur in VIEWS:
        for i in range(52):
            card = Card.from_index(i)
            region = render_index_region(card, style, rng, px, blur, 2.0)
            g = extract_region(region, CARD_H)
            if g is not None:
                marks[card.suit].append(g.suit)
    empty = [s for s, v in marks.items() if not v]
    if empty:
        raise DealerAssistError(f"no {', '.join(empty)} mark found in {style}")
    return {s: np.mean(v, axis=0).astype(np.float32) for s, v in marks.items()}


def common_suit_sets(fonts: Path = FONTS) -> dict[str, dict[str, Glyph]]:
    """Set name -> ``s h d c`` -> template of the suit characters of :data:`COMMON_FONTS`
    (files in ``fonts``), printed under a rank in OpenCV's built-in sans face. Run it in a
    process of its own (as :func:`main` is): an earlier ``cv2.putText`` in a Hershey font changes
    what that face draws afterwards, and so the templates by up to 0.24.

    Raises:
        ConfigError: a font file is missing.
    """
    sets = {}
    for name, file in COMMON_FONTS.items():
        path = fonts / file
        if not path.is_file():
            raise ConfigError(f"font for the {name} suit set not found: {path}")
        sets[name] = suit_templates(DeckStyle(rank_font="sans", suit_font=str(path)))
    return sets


def with_common_suits(calibration: Calibration, fonts: Path = FONTS) -> Calibration:
    """``calibration`` with :func:`common_suit_sets` as its other prints' suit sets."""
    return replace(calibration, suit_sets=common_suit_sets(fonts))


def main(argv: list[str] | None = None) -> int:
    """Write the shipped calibration: a calibration learned from ``--from`` plus the common
    decks' suit sets. Exit 0, or 2 with the error on stderr."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--from", dest="folder", type=Path, required=True, help="card images")
    ap.add_argument("--out", type=Path, required=True, help="calibration file to write")
    args = ap.parse_args(argv)
    try:
        calibration, _ = calibrate_from_folder(args.folder)
        with_common_suits(calibration).save(args.out)
    except DealerAssistError as e:
        print(f"common_suits: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: suit sets {', '.join(COMMON_FONTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
