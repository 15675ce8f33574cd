"""Camera pipeline on synthetic frames (PR 15 card faces warped onto felt, with noise) and its
building blocks: corner ordering, hole counting, voting."""

from __future__ import annotations

import itertools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import ConfigError
from drivers.camera.calibration import Calibration
from drivers.camera.detect import find_cards
from drivers.camera.geometry import CARD_H, CARD_W, order_corners, quad_aspect
from drivers.camera.glyphs import holes, ink_redness
from drivers.camera.locate import locate_cards
from drivers.camera.reader import IndexReader
from drivers.camera.reading import Detection, Reading
from drivers.camera.synthetic import SceneSettings, felt, render_scene, render_spread
from drivers.camera.vote import Voter, VoteSettings
from tests.fixtures.camera_faces import FACES


def test_order_corners_is_portrait_clockwise_from_a_short_side() -> None:
    w, h = 63.0, 88.0
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]])
    for angle in (0.3, 1.2, 2.0, 4.0):
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        pts = rect @ rot.T + [200, 150]
        for perm in itertools.permutations(range(4)):
            q = order_corners(pts[list(perm)])
            assert np.linalg.norm(q[1] - q[0]) == pytest.approx(w)
            assert np.linalg.norm(q[2] - q[1]) == pytest.approx(h)
            (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[1]
            cross = ax * by - ay * bx
            assert cross > 0  # clockwise on screen (y down): not mirrored
    assert quad_aspect(order_corners(rect)) == pytest.approx(h / w)


def test_holes_counts_and_places_them() -> None:
    eight = np.zeros((30, 20), np.float32)
    cv2.circle(eight, (10, 8), 6, 1.0, 2)
    cv2.circle(eight, (10, 21), 7, 1.0, 2)
    assert holes(eight)[0] == 2
    six = np.zeros((30, 20), np.float32)
    cv2.line(six, (14, 2), (5, 18), 1.0, 2)
    cv2.circle(six, (10, 21), 6, 1.0, 2)
    n, y = holes(six)
    assert n == 1 and y > 0.6  # the hole of a 6 is low
    bar = np.zeros((30, 20), np.float32)
    bar[5:25, 8:12] = 1.0
    assert holes(bar) == (0, -1.0)


def _card(text: str) -> Card:
    return parse_card(text)


def _detection(x: float, card: Card | None) -> Detection:
    quad = np.array([[x, 0], [x + 60, 0], [x + 60, 84], [x, 84]], np.float32)
    return Detection(quad, Reading(card, card, 0.9, 0.5, "" if card else "low score"))


def test_ink_redness_takes_the_stock_as_the_white() -> None:
    region = np.full((60, 40, 3), (235, 240, 245), np.float32)  # BGR: a slightly warm stock
    mask = np.zeros((60, 40), np.uint8)
    mask[10:30, 10:30] = 255
    for ink, red in (((30, 30, 35), False), ((45, 40, 190), True)):
        for gain in ((1, 1, 1), (1.25, 1.0, 0.7), (0.6, 0.85, 1.15), (0.45, 0.45, 0.45)):
            img = region.copy()
            img[10:30, 10:30] = ink
            img = np.clip(img * np.array(gain, np.float32), 0, 255).astype(np.uint8)
            value = ink_redness(img, mask)
            if red:
                assert value > 0.5, (gain, value)
            else:
                assert abs(value) < 0.05, (gain, value)


def test_voter_reports_a_card_once_it_is_stable() -> None:
    voter = Voter(VoteSettings(window=5, agree=4, settle=8, keep=2))
    ah, kd = _card("Ah"), _card("Kd")
    # one misread among the first frames delays the report until four agree in the window
    frames = [ah, kd, ah, ah, ah, ah, ah, ah]
    out = [voter.update([_detection(100, c)]) for c in frames]
    assert out[:6] == [[], [], [], [], [], []]
    assert out[6] == [ah]
    assert out[7] == []  # reported once
    # the same card moved elsewhere (a new track) is not a new card of this deck
    for _ in range(6):
        assert voter.update([_detection(400, ah)]) == []
    voter.new_deck()
    for _ in range(6):  # still on the table after the new deck: not reported again
        assert voter.update([_detection(400, ah)]) == []


def test_voter_settles_unreadable_cards_and_forgets_gone_ones() -> None:
    voter = Voter(VoteSettings(window=5, agree=4, settle=8, keep=2))
    decisions = [voter.update([_detection(100, None)]) for _ in range(10)]
    flat = [d for frame in decisions for d in frame]
    assert flat == [None]  # one "unreadable" after settle frames, once
    for _ in range(3):
        voter.update([])
    assert voter.tracks == 0


def test_vote_settings_are_checked() -> None:
    with pytest.raises(ConfigError):
        VoteSettings(window=3, agree=4)
    with pytest.raises(ConfigError):
        VoteSettings(window=5, agree=4, settle=2)


needs_faces = pytest.mark.skipif(not FACES.is_dir(), reason=f"card faces not found at {FACES}")


def _hits(detections: list[Detection], truth: list[Card], quads: list[np.ndarray]) -> list[str]:
    """'ok', 'wrong' or 'unknown' per detection (a card must sit under its own quad)."""
    out = []
    for d in detections:
        if d.reading.card is None:
            out.append("unknown")
            continue
        c = d.quad.mean(axis=0)
        under = [
            t
            for t, q in zip(truth, quads, strict=True)
            if cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0
        ]
        out.append("ok" if d.reading.card in under else "wrong")
    return out


@needs_faces
def test_synthetic_scenes_are_read(calibration: Calibration, faces: dict[Card, np.ndarray]) -> None:
    reader = IndexReader(calibration, search=False)
    rng = np.random.default_rng(2024)
    deck = sorted(faces, key=str)
    placed, results = 0, []
    for _ in range(12):
        chosen = [deck[i] for i in rng.choice(len(deck), 4, replace=False)]
        frame, quads = render_scene([faces[c] for c in chosen], rng)
        placed += len(quads)
        results += _hits(reader.read_frame(frame), chosen[: len(quads)], quads)
    assert results.count("wrong") == 0
    assert results.count("ok") >= 0.95 * placed, results


@needs_faces
def test_overlapping_spread_is_read_by_its_indexes(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    reader = IndexReader(calibration)
    rng = np.random.default_rng(7)
    deck = sorted(faces, key=str)
    placed = read = 0
    for _ in range(8):
        chosen = [deck[i] for i in rng.choice(len(deck), 5, replace=False)]
        frame, _ = render_spread([faces[c] for c in chosen], rng)
        got = {d.reading.card for d in reader.read_frame(frame) if d.reading.card is not None}
        assert got <= set(chosen), got - set(chosen)  # never a card that is not there
        placed += len(chosen)
        read += len(got)
    assert read >= 0.6 * placed


@needs_faces
def test_blank_felt_shows_no_card(calibration: Calibration) -> None:
    reader = IndexReader(calibration)
    rng = np.random.default_rng(3)
    for _ in range(3):
        frame = felt(rng)
        frame = np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
        assert reader.read_frame(frame) == []


def test_blank_cloth_is_not_taken_for_a_card_the_size_of_the_frame() -> None:
    rng = np.random.default_rng(4)
    for _ in range(4):  # Otsu splits a cloth's texture; the frame's own outline is no card
        cloth = felt(rng)
        areas = [cv2.contourArea(c.quad) for c in locate_cards(cloth, flat_fallback=False)]
        assert all(a < 0.1 * 1280 * 720 for a in areas), areas


@needs_faces
def test_card_photographed_at_an_angle_is_found_and_read(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    """A phone held ~45 degrees off the vertical stretches the card's outline to ~2.1:1."""
    face = faces[parse_card("9c")]
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    # the card's far (top) edge foreshortened: 2.1 times as long as wide on the image
    dst = np.array([[560, 100], [720, 100], [740, 460], [540, 460]], np.float32)
    frame = felt(np.random.default_rng(5))
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(face, m, (1280, 720))
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (1280, 720)) > 127
    frame[inside] = warped[inside]
    quads = find_cards(frame)
    assert len(quads) == 1 and 1.9 < quad_aspect(quads[0]) < 2.3
    read = [d.reading.card for d in IndexReader(calibration, search=False).read_frame(frame)]
    assert read == [parse_card("9c")]


def _index_box(calibration: Calibration, face: np.ndarray) -> tuple[int, int, int, int]:
    """The rank mark's box (x0, y0, x1, y1) on a face image, from the calibrated layout."""
    h, w = face.shape[:2]
    sx, sy = w / CARD_W, h / CARD_H
    rx, ry = calibration.layout[0] * sx, calibration.layout[1] * sy
    half = 0.6 * calibration.rank_height * sy
    return int(rx - half), int(ry - half), int(rx + half), int(ry + half)


def _corrupt(face: np.ndarray, box: tuple[int, int, int, int], kind: str) -> np.ndarray:
    """Both printed indexes of ``face`` with their rank mark spoiled in the same way."""
    out = face.copy()
    for turned in (False, True):
        img = cv2.rotate(out, cv2.ROTATE_180) if turned else out
        x0, y0, x1, y1 = box
        if kind == "scribble":  # the rank replaced by a shapeless blot
            img[y0:y1, x0:x1] = 255
            cv2.ellipse(
                img, ((x0 + x1) // 2, (y0 + y1) // 2), (6, 14), 30, 0, 360, (20, 20, 20), -1
            )
            cv2.line(img, (x0 + 2, y1 - 4), (x1 - 2, y0 + 4), (20, 20, 20), 3)
        else:  # "half": the upper half of the rank wiped out
            img[y0 : (y0 + y1) // 2, x0:x1] = 255
        out = cv2.rotate(img, cv2.ROTATE_180) if turned else img
    return out


@needs_faces
@pytest.mark.parametrize("name", ["7h", "Qs", "3d", "Kc", "9s", "Ah"])
def test_corrupted_index_is_unknown_not_wrong(
    calibration: Calibration, faces: dict[Card, np.ndarray], name: str
) -> None:
    reader = IndexReader(calibration)
    card = parse_card(name)
    box = _index_box(calibration, faces[card])
    scribbled = _corrupt(faces[card], box, "scribble")
    reading = reader.read_card(cv2.resize(scribbled, (CARD_W, CARD_H)))
    assert reading.card is None, reading
    rng = np.random.default_rng(len(name))
    for kind in ("scribble", "half"):
        frame, quads = render_scene([_corrupt(faces[card], box, kind)], rng)
        assert quads
        for d in reader.read_frame(frame):
            assert d.reading.card in (None, card), (kind, d.reading)


@needs_faces
def test_small_blurred_cards_are_not_guessed(
    calibration: Calibration, faces: dict[Card, np.ndarray]
) -> None:
    # small, blurred, noisy cards: a club's lobes melt into a spade's outline
    harsh = SceneSettings(card_height=(80.0, 150.0), noise=(4.0, 10.0), blur=(1.0, 2.2), tilt=0.12)
    deck = sorted(faces, key=str)
    assert calibration.min_detail > 0  # learned from the calibration's own stress copies
    unlimited = replace(calibration, min_detail=0.0)
    wrong = {"limit": 0, "none": 0}
    for name, cal in (("limit", calibration), ("none", unlimited)):
        reader = IndexReader(cal)
        rng = np.random.default_rng(99)
        for i in range(16):
            chosen = [deck[j] for j in rng.choice(len(deck), 4, replace=False)]
            images = [faces[c] for c in chosen]
            if i % 2:
                frame, quads = render_spread(images, rng, harsh)
                there = set(chosen)
            else:
                frame, quads = render_scene(images, rng, harsh)
                there = set(chosen[: len(quads)])
            got = {d.reading.card for d in reader.read_frame(frame) if d.reading.card}
            wrong[name] += len(got - there)
    assert wrong["limit"] == 0
    assert wrong["none"] > 0  # the scenes are hard enough that the limit is what protects
