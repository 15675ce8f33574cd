"""Calibration: the house deck's rank and suit index templates and limits, as the reader uses them.

What a :class:`Calibration` holds, how it is stored (a compressed ``.npz`` file: arrays plus a
JSON ``meta`` entry) and which one is used (:func:`resolve_calibration`: the house deck's, else
the shipped one). It is learned from named card images by
:func:`drivers.camera.calibrate.calibrate_from_folder`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import platformdirs

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from drivers.camera.geometry import Glyph, Image, as_image

RANKS = tuple(range(2, 15))
SUITS = ("s", "h", "d", "c")
RED_SUITS = frozenset("hd")
#: 2 since 2026-11-30: ink redness measured with the card stock as the white (glyphs.ink_redness)
FORMAT_VERSION = 2


#: shipped calibration, learned from the PR 15 card faces (MIT, see models/README.md); used
#: until the house deck is calibrated, so a fresh install reads cards (less surely than the
#: house deck's own calibration would)
BUILTIN_CALIBRATION = Path(__file__).with_name("models") / "builtin-calibration.npz"


def default_calibration_path() -> Path:
    """``camera-calibration.npz`` in the user data folder (platformdirs)."""
    folder = Path(platformdirs.user_data_dir("dealer-assist", appauthor=False))
    return folder / "camera-calibration.npz"


def resolve_calibration(path: Path | None = None) -> tuple[Calibration, Path]:
    """The calibration to read with, and the file it came from.

    ``path`` when given; else the house deck's (:func:`default_calibration_path`) when one was
    written by ``dealer-assist camera calibrate``; else the shipped
    :data:`BUILTIN_CALIBRATION`.

    Raises:
        ConfigError: the file chosen is missing or not a calibration (names the path).
    """
    if path is not None:
        return Calibration.load(path), path
    house = default_calibration_path()
    target = house if house.exists() else BUILTIN_CALIBRATION
    return Calibration.load(target), target


@dataclass(frozen=True)
class Calibration:
    """Index templates and limits of one deck design.

    Attributes:
        ranks: rank 2..14 -> mean rank mark, float32 (RANK_SIZE[1], RANK_SIZE[0]) in 0..1.
        suits: ``s h d c`` -> mean suit mark, float32 (SUIT_SIZE[1], SUIT_SIZE[0]) in 0..1.
        red_redness: mean ink redness of red-suit indexes (see ``glyphs.ink_redness``).
        black_redness: mean ink redness of black-suit indexes.
        ten_parts: connected parts of this deck's ``10`` mark (usually 2).
        rank_holes: rank -> hole counts its mark shows in this deck (see ``glyphs.holes``).
        hole_y: rank -> (low, high) mean hole height of its marks with holes, fraction of the
            mark's height (5th..95th percentile widened by
            :data:`~drivers.camera.calibrate.HOLE_Y_SLACK`).
        suit_notch: suit -> (10th, 90th percentile) of its upper-notch depth.
        layout: median (rank centre x, y, suit centre x, y) of the top-left index in canonical
            card pixels (CARD_W x CARD_H); all 0 when unknown.
        rank_height: median rank mark height in canonical card pixels; 0 when unknown.
        min_detail: least resolvable detail of a suit mark (``glyphs.detail``) for an index to be
            read; learned from :data:`~drivers.camera.calibrate.STRESS` copies, 0 = no limit.
        source: where it was learned from.
        created: UTC ISO timestamp.
        marks: the deck's own marks for the shape classifier (:mod:`~drivers.camera.shapes`):
            ``rank_shape`` (n, SHAPE_SIZE, SHAPE_SIZE) uint8 0..255, ``rank_aspect`` (n,),
            ``rank`` (n,) 2..14, ``suit_shape``, ``suit_aspect``, ``suit`` (index into
            ``"shdc"``); empty when the calibration has none (older files).
    """

    ranks: dict[int, Glyph]
    suits: dict[str, Glyph]
    red_redness: float
    black_redness: float
    ten_parts: int = 2
    rank_holes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    hole_y: dict[int, tuple[float, float]] = field(default_factory=dict)
    suit_notch: dict[str, tuple[float, float]] = field(default_factory=dict)
    layout: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    rank_height: float = 0.0
    min_detail: float = 0.0
    source: str = ""
    created: str = field(default_factory=lambda: utc_now().isoformat())
    marks: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    suit_sets: dict[str, dict[str, Glyph]] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        """Write the calibration to ``path`` (.npz). Raises ConfigError if it cannot be written."""
        meta = {
            "version": FORMAT_VERSION,
            "red_redness": self.red_redness,
            "black_redness": self.black_redness,
            "ten_parts": self.ten_parts,
            "rank_holes": {str(r): list(n) for r, n in self.rank_holes.items()},
            "hole_y": {str(r): list(v) for r, v in self.hole_y.items()},
            "suit_notch": {s: list(v) for s, v in self.suit_notch.items()},
            "layout": list(self.layout),
            "rank_height": self.rank_height,
            "min_detail": self.min_detail,
            "source": self.source,
            "created": self.created,
            "suit_sets": list(self.suit_sets),
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        arrays.update({f"rank_{r}": g for r, g in self.ranks.items()})
        arrays.update({f"suit_{s}": g for s, g in self.suits.items()})
        arrays.update({f"marks_{k}": v for k, v in self.marks.items()})
        for i, suits in enumerate(self.suit_sets.values()):
            arrays.update({f"suitset{i}_{s}": g for s, g in suits.items()})
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
                if meta.get("version") == 1:
                    raise ValueError(
                        "written by an earlier version, whose ink colour measure has changed: "
                        "calibrate the house deck again (dealer-assist camera calibrate)"
                    )
                if meta.get("version") != FORMAT_VERSION:
                    raise ValueError(f"unsupported version {meta.get('version')}")
                return cls(
                    ranks={r: data[f"rank_{r}"].astype(np.float32) for r in RANKS},
                    suits={s: data[f"suit_{s}"].astype(np.float32) for s in SUITS},
                    red_redness=float(meta["red_redness"]),
                    black_redness=float(meta["black_redness"]),
                    ten_parts=int(meta["ten_parts"]),
                    rank_holes={
                        int(r): tuple(int(x) for x in n) for r, n in meta["rank_holes"].items()
                    },
                    hole_y={int(r): (float(v[0]), float(v[1])) for r, v in meta["hole_y"].items()},
                    suit_notch={
                        str(s): (float(v[0]), float(v[1])) for s, v in meta["suit_notch"].items()
                    },
                    layout=as_layout(meta.get("layout", [0, 0, 0, 0])),
                    rank_height=float(meta.get("rank_height", 0.0)),
                    min_detail=float(meta.get("min_detail", 0.0)),
                    source=str(meta["source"]),
                    created=str(meta["created"]),
                    marks={
                        k[6:]: np.asarray(data[k]) for k in data.files if k.startswith("marks_")
                    },
                    suit_sets={
                        str(name): {s: data[f"suitset{i}_{s}"].astype(np.float32) for s in SUITS}
                        for i, name in enumerate(meta.get("suit_sets", []))
                    },
                )
        except (OSError, KeyError, IndexError, ValueError, TypeError, AttributeError) as e:
            raise ConfigError(f"cannot read camera calibration {path}: {e}") from e


def as_layout(values: list[float]) -> tuple[float, float, float, float]:
    """Four numbers (rank centre x, y, suit centre x, y) as a :attr:`Calibration.layout`.

    Raises:
        ValueError: not exactly four numbers.
    """
    a, b, c, d = (float(v) for v in values)
    return a, b, c, d


def read_image(path: Path) -> Image:
    """Read a BGR image; raises ConfigError when it cannot be decoded."""
    try:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error as e:
        raise ConfigError(f"cannot read image {path}: {e}") from e
    if img is None:
        raise ConfigError(f"cannot read image {path}")
    return as_image(img)
