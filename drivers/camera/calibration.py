"""Calibration: the house deck's rank and suit index templates, learned from card images.

A calibration is learned from one image per card (file or folder named by the card, e.g.
``10c/10c.png`` or ``Ah.jpg``): each card is found and rectified, both printed indexes are read,
and the marks of each rank (over all suits) and each suit (over all ranks) are averaged into one
template. Also kept: the typical ink redness of red and of black suits, to place the colour
threshold for this deck. Stored as a compressed ``.npz`` file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import platformdirs

from dealer_assist.cards import Card
from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from drivers.camera.geometry import CARD_H, CARD_W, Glyph, Image, as_image
from drivers.camera.glyphs import IndexGlyphs, corners, extract_index
from drivers.camera.labels import card_of_path, iter_images
from drivers.camera.locate import card_images

RANKS = tuple(range(2, 15))
SUITS = ("s", "h", "d", "c")
RED_SUITS = frozenset("hd")
FORMAT_VERSION = 1


def default_calibration_path() -> Path:
    """``camera-calibration.npz`` in the user data folder (platformdirs)."""
    return Path(platformdirs.user_data_dir("dealer-assist", appauthor=False)) / (
        "camera-calibration.npz"
    )


@dataclass(frozen=True)
class Calibration:
    """Index templates of one deck design.

    Attributes:
        ranks: rank 2..14 -> mean rank mark, float32 (RANK_SIZE[1], RANK_SIZE[0]) in 0..1.
        suits: ``s h d c`` -> mean suit mark, float32 (SUIT_SIZE[1], SUIT_SIZE[0]) in 0..1.
        red_redness: mean ink redness of red-suit indexes (see ``glyphs.ink_redness``).
        black_redness: mean ink redness of black-suit indexes.
        ten_parts: connected parts of this deck's ``10`` mark (usually 2).
        rank_holes: rank -> enclosed holes of its mark in this deck (most common count).
        suit_notch: suit -> mean upper-notch depth of its mark (see ``glyphs.upper_notch``).
        source: where it was learned from.
        created: UTC ISO timestamp.
    """

    ranks: dict[int, Glyph]
    suits: dict[str, Glyph]
    red_redness: float
    black_redness: float
    ten_parts: int = 2
    rank_holes: dict[int, int] = field(default_factory=dict)
    suit_notch: dict[str, float] = field(default_factory=dict)
    source: str = ""
    created: str = field(default_factory=lambda: utc_now().isoformat())

    def save(self, path: Path) -> None:
        """Write the calibration to ``path`` (.npz). Raises ConfigError if it cannot be written."""
        meta = {
            "version": FORMAT_VERSION,
            "red_redness": self.red_redness,
            "black_redness": self.black_redness,
            "ten_parts": self.ten_parts,
            "rank_holes": {str(r): n for r, n in self.rank_holes.items()},
            "suit_notch": self.suit_notch,
            "source": self.source,
            "created": self.created,
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        arrays.update({f"rank_{r}": g for r, g in self.ranks.items()})
        arrays.update({f"suit_{s}": g for s, g in self.suits.items()})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                np.savez_compressed(f, **arrays)
        except OSError as e:
            raise ConfigError(f"cannot write calibration {path}: {e}") from e

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """Read a calibration written by :meth:`save`.

        Raises:
            ConfigError: missing, unreadable or not a calibration file (names the path).
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("version") != FORMAT_VERSION:
                    raise ValueError(f"unsupported version {meta.get('version')}")
                return cls(
                    ranks={r: data[f"rank_{r}"].astype(np.float32) for r in RANKS},
                    suits={s: data[f"suit_{s}"].astype(np.float32) for s in SUITS},
                    red_redness=float(meta["red_redness"]),
                    black_redness=float(meta["black_redness"]),
                    ten_parts=int(meta["ten_parts"]),
                    rank_holes={int(r): int(n) for r, n in meta["rank_holes"].items()},
                    suit_notch={str(k): float(v) for k, v in meta["suit_notch"].items()},
                    source=str(meta["source"]),
                    created=str(meta["created"]),
                )
        except (OSError, KeyError, ValueError, TypeError, AttributeError) as e:
            raise ConfigError(f"cannot read camera calibration {path}: {e}") from e


@dataclass
class CalibrationReport:
    """What :func:`calibrate_from_folder` used and skipped.

    Attributes:
        cards: cards learned (one or two indexes read).
        indexes: index samples used (up to two per card).
        skipped: (file, reason) of images not used.
    """

    cards: list[Card] = field(default_factory=list)
    indexes: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


def read_image(path: Path) -> Image:
    """Read a BGR image; raises ConfigError when it cannot be decoded."""
    try:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error as e:
        raise ConfigError(f"cannot read image {path}: {e}") from e
    if img is None:
        raise ConfigError(f"cannot read image {path}")
    return as_image(img)


def _samples(img: Image) -> list[IndexGlyphs]:
    """Index readings from the largest card in ``img`` (both corners)."""
    cards = card_images(img)
    if not cards:
        return []
    found = [extract_index(c) for c in corners(cards[0])]
    return [g for g in found if g is not None]


def calibrate_from_folder(folder: Path) -> tuple[Calibration, CalibrationReport]:
    """Learn the index templates from single-card images named by card.

    Args:
        folder: directory searched recursively; each image shows one card face and is named by
            it (file stem or parent folder, e.g. ``10c/10c.png``, ``Qh.jpg``).

    Returns:
        the calibration and a report of what was used.

    Raises:
        ConfigError: the folder is missing, or some rank or suit got no readable sample.
    """
    if not folder.is_dir():
        raise ConfigError(f"calibration folder not found: {folder}")
    report = CalibrationReport()
    by_rank: dict[int, list[Glyph]] = {r: [] for r in RANKS}
    by_suit: dict[str, list[Glyph]] = {s: [] for s in SUITS}
    redness: dict[bool, list[float]] = {True: [], False: []}
    ten_parts: list[int] = []
    holes: dict[int, list[int]] = {r: [] for r in RANKS}
    notch: dict[str, list[float]] = {s: [] for s in SUITS}
    for path in iter_images(folder):
        card = card_of_path(path)
        if card is None:
            report.skipped.append((str(path), "name is not a card"))
            continue
        samples = _samples(read_image(path))
        if not samples:
            report.skipped.append((str(path), "no card index found"))
            continue
        report.cards.append(card)
        for g in samples:
            report.indexes += 1
            by_rank[card.rank].append(g.rank)
            by_suit[card.suit].append(g.suit)
            redness[card.suit in RED_SUITS].append(g.redness)
            holes[card.rank].append(g.rank_holes)
            notch[card.suit].append(g.suit_notch)
            if card.rank == 10:
                ten_parts.append(g.rank_parts)
    missing = [str(r) for r, v in by_rank.items() if not v] + [
        s for s, v in by_suit.items() if not v
    ]
    if missing:
        raise ConfigError(f"calibration from {folder}: no readable sample for {', '.join(missing)}")
    calibration = Calibration(
        ranks={r: np.mean(v, axis=0).astype(np.float32) for r, v in by_rank.items()},
        suits={s: np.mean(v, axis=0).astype(np.float32) for s, v in by_suit.items()},
        red_redness=float(np.mean(redness[True])) if redness[True] else 0.5,
        black_redness=float(np.mean(redness[False])) if redness[False] else 0.0,
        ten_parts=int(np.median(ten_parts)) if ten_parts else 2,
        rank_holes={r: max(set(v), key=v.count) for r, v in holes.items()},
        suit_notch={s: float(np.mean(v)) for s, v in notch.items()},
        source=str(folder),
    )
    return calibration, report


__all__ = [
    "CARD_H",
    "CARD_W",
    "Calibration",
    "CalibrationReport",
    "calibrate_from_folder",
    "default_calibration_path",
]
