"""Camera recognition on real photos (shared/data/cards): calibrate from the PR 15 card faces,
then read the geaxgx test photos and the FaltoGH scenes. No card may be reported wrongly; the
read counts asserted are the ones the pipeline achieves (docs/CAMERA.md explains the misses)."""

from __future__ import annotations

import csv
import json
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import ConfigError
from drivers.camera.calibrate import calibrate_from_folder
from drivers.camera.calibration import Calibration, read_image
from drivers.camera.evaluate import evaluate
from drivers.camera.labels import labels_from_labelme, read_labels, write_labels
from drivers.camera.reader import IndexReader

CARDS = Path(__file__).parent.resolve().parents[1].parent / "shared" / "data" / "cards"
GEAXGX = CARDS / "geaxgx_playing-card-detection"
FALTO = CARDS / "FaltoGH_CARDETECT"

if not (GEAXGX / "pr15_data_cards").is_dir():
    pytest.skip(f"shared card photos not found under {CARDS}", allow_module_level=True)


@pytest.fixture(scope="module")
def calibration_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    calibration, report = calibrate_from_folder(GEAXGX / "pr15_data_cards")
    assert len(set(report.cards)) == 52 and not report.skipped
    path = tmp_path_factory.mktemp("camera") / "calibration.npz"
    calibration.save(path)
    return path


@pytest.fixture(scope="module")
def reader(calibration_file: Path) -> IndexReader:
    return IndexReader(Calibration.load(calibration_file))


def test_calibration_file_round_trip(calibration_file: Path, tmp_path: Path) -> None:
    loaded = Calibration.load(calibration_file)
    assert set(loaded.ranks) == set(range(2, 15)) and set(loaded.suits) == set("shdc")
    copy = tmp_path / "again.npz"
    loaded.save(copy)
    again = Calibration.load(copy)
    for rank, template in loaded.ranks.items():
        np.testing.assert_array_equal(template, again.ranks[rank])
    assert again.suit_notch == loaded.suit_notch and again.layout == loaded.layout
    # red print is much redder than black print in the calibration deck
    assert loaded.red_redness > loaded.black_redness + 0.3


def test_broken_calibration_file_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a calibration")
    with pytest.raises(ConfigError, match=r"bad\.npz"):
        Calibration.load(bad)
    with pytest.raises(ConfigError):
        Calibration.load(tmp_path / "missing.npz")


def test_a_calibration_of_the_earlier_colour_measure_must_be_redone(
    calibration_file: Path, tmp_path: Path
) -> None:
    old = tmp_path / "house.npz"
    with np.load(calibration_file, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    arrays["meta"] = np.array(json.dumps({**meta, "version": 1}))
    np.savez_compressed(old, **arrays)
    with pytest.raises(ConfigError, match=r"house\.npz.*calibrate the house deck again"):
        Calibration.load(old)


def test_a_colour_cast_of_the_light_or_camera_changes_no_card(reader: IndexReader) -> None:
    # a gain per channel (white balance, warm or cool light): the ink colour is measured with
    # the card stock as the white. Subtracting the stock's tint instead once read the FaltoGH
    # 3 of spades as a 3 of diamonds under a cool cast: a black spade measured as red ink, and
    # a spade's head is a diamond's
    images = [i for i in read_labels(GEAXGX / "labels.csv") if i.path.parent.name == "test_photos"]
    with tempfile.TemporaryDirectory() as tmp:
        labels = Path(tmp) / "faltogh.csv"
        write_labels(labels_from_labelme(FALTO), labels)
        images += [i for i in read_labels(labels) if len(i.cards) == 1]
    for gain in ((1.15, 1.0, 0.8), (0.65, 0.85, 1.1), (0.9, 1.1, 0.85)):  # B, G, R
        read = 0
        for item in images:
            frame = read_image(item.path).astype(np.float32) * np.array(gain, np.float32)
            got = {
                d.reading.card for d in reader.read_frame(np.clip(frame, 0, 255).astype(np.uint8))
            }
            got.discard(None)
            assert got <= set(item.cards), (gain, item.path.name, got)
            read += bool(got)
        assert read >= 6, (gain, read)


def test_colours_far_off_or_none_give_unknown_cards_not_wrong_ones(reader: IndexReader) -> None:
    # a camera whose colours are badly off (hues turned by 40 degrees: red ink is no longer red)
    # or a monochrome one: red print measures as black, and the red suit marks are then read
    # among spades and clubs; the classifier's best over all four suits being red stops them
    # (without that check the FaltoGH 2 of hearts was read as the 2 of spades)
    with tempfile.TemporaryDirectory() as tmp:
        labels = Path(tmp) / "faltogh.csv"
        write_labels(labels_from_labelme(FALTO), labels)
        images = read_labels(labels)
    for turn in (40, None):
        for item in images:
            frame = read_image(item.path)
            if turn is None:
                grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
                frame = np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), np.uint8)
            else:
                hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
                hsv[..., 0] = (hsv[..., 0].astype(np.int32) + turn) % 180
                frame = np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), np.uint8)
            got = {d.reading.card for d in reader.read_frame(frame)}
            got.discard(None)
            assert got <= set(item.cards), (turn, item.path.name, got)


def test_calibration_deck_reads_itself(reader: IndexReader) -> None:
    images = [
        i
        for i in read_labels(GEAXGX / "labels.csv")
        if i.path.parent.parent.name == "pr15_data_cards"
    ]
    assert len(images) == 52
    summary = evaluate(reader, images)
    assert summary.wrong == 0
    assert summary.correct == 52


def test_geaxgx_test_photos(reader: IndexReader) -> None:
    images = [i for i in read_labels(GEAXGX / "labels.csv") if i.path.parent.name == "test_photos"]
    assert len(images) == 4
    summary = evaluate(reader, images)
    assert summary.wrong == 0, [r.wrong for r in summary.results]
    read = {r.path.name for r in summary.results if r.correct}
    # the two 2 of clubs photos (a deck close to the calibration faces) are read by templates
    # and shapes; the 10 of clubs is another deck design whose condensed "10", its 1 a plain
    # stem, does not match the templates (0.43): only the shape classifier reads it, since it
    # learned such tens (docs/CAMERA.md, "What fails")
    assert read == {r.path.name for r in summary.results}
    templates_only = IndexReader(reader.calibration, shapes=False)
    old = evaluate(templates_only, images)
    assert old.wrong == 0
    assert {r.path.name for r in old.results if r.correct} == {
        "2c_scene_green_folder.jpg",
        "2c_extracted.jpg",
    }


def test_faltogh_labelme_conversion_matches_its_summary(tmp_path: Path) -> None:
    images = labels_from_labelme(FALTO)
    assert len(images) == 7
    with (FALTO / "labels_summary.csv").open(newline="") as f:
        rows = list(csv.reader(f))[1:]
    summary = {(FALTO / r[0]).resolve(): {parse_card(t) for t in r[5].split()} for r in rows}
    assert {i.path.resolve(): set(i.cards) for i in images} == summary
    out = tmp_path / "falto.csv"
    write_labels(images, out)
    back = read_labels(out)
    assert [(i.path.resolve(), i.cards) for i in back] == [
        (i.path.resolve(), i.cards) for i in images
    ]


def test_faltogh_scenes(reader: IndexReader) -> None:
    summary = evaluate(reader, labels_from_labelme(FALTO))
    assert summary.wrong == 0, [(r.path.name, r.wrong) for r in summary.results]
    single_read, singles = summary.single
    assert (single_read, singles) == (4, 4)  # Qc and 3s on top of a deck, two photos each
    # overlapping fans: a third of the corner indexes are read, the rest stay unread
    assert summary.labelled == 36
    assert summary.correct >= 14


def test_without_index_search_only_clear_outlines_are_read(calibration_file: Path) -> None:
    plain = IndexReader(Calibration.load(calibration_file), search=False)
    summary = evaluate(plain, labels_from_labelme(FALTO))
    assert summary.wrong == 0
    # the two 3 of spades photos; the queens (cut by the photo's border) need the index search
    assert summary.correct >= 2
