"""Spades probe: single-card photos of common deck designs, shipped calibration, per suit.

    python bench/camera_spades.py [--calibration FILE] [--photos 160] [--seed 4242]

The shipped calibration's own templates are the PR 15 deck's, whose narrow round-headed spade
is unlike the classic spade of most decks; this probe counts, per suit, the single-card photos
(drivers/camera/synthetic.py: a card 300..650 px tall, tilted, on felt, wood, leather or a desk,
JPEG) read, wrong and not read, in four sets of new deck designs (seeds no training or template
set used):

- ``poker index``: suits from the machine's fonts' suit characters (most draw the classic
  shapes; never the drawn suits the shipped calibration's extra sets are made of), rank 7..10 %
  of the card's height: standard poker-size cards;
- ``bridge``: the same print on a bridge-size card (56 mm wide against 63 mm: the reader's warp
  to the poker shape widens its marks by 1.11);
- ``jumbo``: the same, rank 12..18 % of the card's height;
- ``other designs``: :func:`~drivers.camera.decks.random_style` designs (a third with drawn
  suits), as the "other decks" sets of bench/camera_eval.py.

The figures of docs/CAMERA.md ("Common decks' spades") are this script's, run in this tree and
in a checkout of the previous code side by side. Exit 1 when any card was read wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card
from drivers.camera.calibration import Calibration, resolve_calibration
from drivers.camera.deck_print import render_face
from drivers.camera.decks import DeckStyle, random_style
from drivers.camera.evaluate import one_thread
from drivers.camera.geometry import CARD_H, CARD_W, Image
from drivers.camera.reader import IndexReader
from drivers.camera.synthetic import SceneSettings, jpeg, photo_background, render_scene
from drivers.camera.training import default_fonts

#: a card photographed alone, as bench/camera_eval.py's single-card photos
PHOTO = SceneSettings(
    card_height=(300.0, 650.0), tilt=0.12, blur=(0.0, 1.3), noise=(2.0, 7.0), gain=(0.7, 1.15)
)
#: a bridge-size card's width over a poker-size card's (57 x 89 mm against 63 x 89 mm)
BRIDGE = 57.0 / 63.0
DESIGNS = 40

Face = Callable[[Card, DeckStyle, np.random.Generator], Image]


def _poker(card: Card, style: DeckStyle, rng: np.random.Generator) -> Image:
    big = render_face(card, style, rng)
    return np.asarray(cv2.resize(big, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA))


def _bridge(card: Card, style: DeckStyle, rng: np.random.Generator) -> Image:
    """The face printed with its marks widened by 1 / BRIDGE, then the card narrowed by
    BRIDGE: the marks keep their printed shape on a narrower card."""
    wide = replace(
        style,
        width=style.width / BRIDGE,
        suit_width=style.suit_width / BRIDGE,
        ten_width=style.ten_width,
    )
    big = render_face(card, wide, rng)
    size = (round(CARD_W * BRIDGE), CARD_H)
    return np.asarray(cv2.resize(big, size, interpolation=cv2.INTER_AREA))


def _font_suits(style: DeckStyle, rng: np.random.Generator, suit_fonts: list[str]) -> DeckStyle:
    """``style`` with its suits from one of the fonts' suit characters (never drawn)."""
    return replace(style, suit_font=str(suit_fonts[int(rng.integers(len(suit_fonts)))]))


def _designs(seed: int, rank_fonts: list[str], suit_fonts: list[str]) -> dict[str, list[DeckStyle]]:
    rng = np.random.default_rng(seed)
    poker = [
        replace(
            _font_suits(random_style(rng, rank_fonts, suit_fonts), rng, suit_fonts),
            rank_height=float(rng.uniform(0.07, 0.1)),
        )
        for _ in range(DESIGNS)
    ]
    jumbo = [replace(s, rank_height=float(rng.uniform(0.12, 0.18))) for s in poker]
    other_rng = np.random.default_rng(seed + 1)
    other = [random_style(other_rng, rank_fonts, suit_fonts) for _ in range(DESIGNS)]
    return {"poker index": poker, "bridge": poker, "jumbo": jumbo, "other designs": other}


def _photos(styles: list[DeckStyle], face: Face, count: int, seed: int) -> list[tuple[Image, Card]]:
    """``count`` single-card photos, designs in turn (each suit about equally often)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        card = Card.from_index(int(rng.integers(52)))
        style = styles[i % len(styles)]
        surface = photo_background(rng, PHOTO.size)
        frame, quads = render_scene([face(card, style, rng)], rng, PHOTO, surface)
        if quads:
            out.append((jpeg(frame, int(rng.integers(60, 96))), card))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--calibration", type=Path, default=None, help="default: the shipped one")
    ap.add_argument("--photos", type=int, default=160, help="photos per set")
    ap.add_argument("--seed", type=int, default=4242)
    args = ap.parse_args()
    calibration, used = (
        (Calibration.load(args.calibration), args.calibration)
        if args.calibration
        else resolve_calibration()
    )
    print(f"calibration: {used}")
    reader = IndexReader(calibration)
    rank_fonts, suit_fonts = default_fonts()
    faces: dict[str, Face] = {"bridge": _bridge}
    wrong_total = 0
    print(
        f"\n{'set':<14} {'suit':<5} {'photos':>6} {'read':>5} {'wrong':>5}  unread spades by reason"
    )
    with one_thread():
        for k, (name, styles) in enumerate(_designs(args.seed, rank_fonts, suit_fonts).items()):
            photos = _photos(styles, faces.get(name, _poker), args.photos, args.seed + 10 + k)
            tally: dict[str, Counter[str]] = {s: Counter() for s in "shdc"}
            reasons: Counter[str] = Counter()
            for frame, card in photos:
                got = {d.reading.card for d in reader.read_frame(frame)} - {None}
                t = tally[card.suit]
                t["photos"] += 1
                t["read"] += card in got
                t["wrong"] += len(got - {card})
                if card.suit == "s" and card not in got:
                    detections = reader.read_frame(frame)
                    reasons[detections[0].reading.reason if detections else "not found"] += 1
            for suit in "shdc" + "*":
                t = sum(tally.values(), Counter()) if suit == "*" else tally[suit]
                why = ", ".join(f"{r} {n}" for r, n in reasons.most_common()) if suit == "s" else ""
                print(
                    f"{name:<14} {suit if suit != '*' else 'all':<5} {t['photos']:>6} "
                    f"{t['read']:>5} {t['wrong']:>5}  {why}"
                )
                wrong_total += t["wrong"] if suit == "*" else 0
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main())
