"""The shape classifier's votes worked out for a frame's indexes together are the votes it gives
one index at a time, and a frame read that way reads each card as it is read alone."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card
from drivers.camera.calibration import Calibration
from drivers.camera.geometry import CARD_H
from drivers.camera.glyphs import IndexGlyphs, extract_index
from drivers.camera.locate import locate_cards
from drivers.camera.reader import IndexReader, _corners
from drivers.camera.synthetic import render_scene, render_spread


def _marks(faces: dict[Card, np.ndarray]) -> list[IndexGlyphs]:
    """Indexes of every face, upright and half turned, sharp and blurred."""
    out = []
    for face in faces.values():
        for img in (face, cv2.rotate(face, cv2.ROTATE_180), cv2.GaussianBlur(face, (0, 0), 2.5)):
            g = extract_index(img)
            if g is not None:
                out.append(g)
    return out


def test_votes_of_many_marks_are_the_votes_of_each(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    reader = IndexReader(calibration)
    model = reader.shapes
    assert model is not None
    marks = _marks(faces)
    assert len(marks) > 100
    for g, vote in zip(marks, model.rank_votes(marks), strict=True):
        alone = model.rank(g)
        assert vote.value == alone.value
        assert vote.ratio == pytest.approx(alone.ratio, rel=1e-4)
        assert vote.distance == pytest.approx(alone.distance, rel=1e-4)
    for g, row in zip(marks, model.suit_distances(marks), strict=True):
        for colour in ("hd", "sc"):
            together, alone = model.suit_votes(g, colour, row), model.suit_votes(g, colour)
            for a, b in zip(together, alone, strict=True):
                assert a.value == b.value
                assert (a.ratio, a.distance) == pytest.approx((b.ratio, b.distance), rel=1e-4)
    # the reader asks only about marks sharp enough for the classifier, suits of a clear colour
    votes = reader.shape_votes(marks)
    sharp = [g for g in marks if reader._shape_sharp(g)]
    assert 0 < len(votes) == len(sharp) < len(marks)
    assert all((votes[id(g)][1] is None) == (not reader._colour(g)) for g in sharp)


def test_a_frame_reads_each_card_as_it_is_read_alone(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    reader = IndexReader(calibration, search=False)
    rng = np.random.default_rng(12)
    deck = sorted(faces, key=str)
    compared = 0
    for spread in (False, True):
        for _ in range(4):
            chosen = [faces[deck[i]] for i in rng.choice(len(deck), 4, replace=False)]
            frame = (render_spread if spread else render_scene)(chosen, rng)[0]
            # each card's indexes read with the classifier asked about one at a time
            alone = {
                c.quad.tobytes(): reader._read_marks(_corners(c.index_region, CARD_H), {})
                for c in locate_cards(frame, reader.detector, flat_fallback=True)
            }
            for d in reader.read_frame(frame):
                assert d.reading == alone[d.quad.tobytes()]
                compared += 1
    assert compared >= 16
