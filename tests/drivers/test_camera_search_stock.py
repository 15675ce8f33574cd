"""The index search keeps to the frame's bright areas outside the cards already read: it finds
what a search of the whole frame finds, and nothing is searched where every bright area is a
card read already."""

from __future__ import annotations

import numpy as np

from dealer_assist.cards import Card
from drivers.camera.calibration import Calibration
from drivers.camera.detect import detect_cards
from drivers.camera.reader import IndexReader
from drivers.camera.search import SearchSettings, _stock_box, search_indexes
from drivers.camera.synthetic import render_scene, render_spread


def _read_quads(reader: IndexReader, frame: np.ndarray) -> list[np.ndarray]:
    """The quadrilaterals of the cards the reader finds by their outline (what it skips)."""
    return [d.quad for d in reader.read_frame(frame) if not d.partial]


def test_the_search_in_the_bright_areas_finds_what_the_whole_frame_search_finds(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    reader = IndexReader(calibration)
    rng = np.random.default_rng(31)
    deck = sorted(faces, key=str)
    found_any = 0
    for _ in range(6):
        chosen = [deck[i] for i in rng.choice(len(deck), 5, replace=False)]
        frame, _ = render_spread([faces[c] for c in chosen], rng)
        cards = detect_cards(frame)
        skip = _read_quads(reader, frame)
        box = _stock_box(cards, skip, SearchSettings(), frame.shape[1], frame.shape[0])
        assert box is not None  # a spread hand's cards overlap: most are not found whole
        x0, y0, x1, y1 = box
        assert (x1 - x0) * (y1 - y0) < frame.shape[0] * frame.shape[1]  # part of the felt
        whole = search_indexes(frame, reader, skip)
        kept = search_indexes(frame, reader, skip, cards=cards)
        assert [d.reading.card for d in kept] == [d.reading.card for d in whole]
        for a, b in zip(kept, whole, strict=True):
            assert np.allclose(a.quad, b.quad, atol=1e-3)
        found_any += len(whole)
    assert found_any >= 6


def test_nothing_is_searched_where_every_bright_area_is_a_card_read(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    reader = IndexReader(calibration)
    rng = np.random.default_rng(12)
    deck = sorted(faces, key=str)
    checked = 0
    for _ in range(4):
        chosen = [deck[i] for i in rng.choice(len(deck), 4, replace=False)]
        frame, quads = render_scene([faces[c] for c in chosen], rng)
        skip = _read_quads(reader, frame)
        if len(skip) < len(quads):
            continue  # a card not found by its outline leaves stock to search
        h, w = frame.shape[:2]
        assert _stock_box(detect_cards(frame), skip, SearchSettings(), w, h) is None
        # without the cards' quadrilaterals their stock is searched
        assert _stock_box(detect_cards(frame), [], SearchSettings(), w, h) is not None
        checked += 1
    assert checked >= 2
