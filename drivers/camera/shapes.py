"""Deck-independent shape classifier for index marks: nearest prototypes of many print styles.

The calibrated templates (:mod:`~drivers.camera.reader`) describe one deck; a deck printed in
another font scores low against them. This classifier learned each rank and suit from many
styles instead (fonts on the build machine, condensed and extended, light and bold, blurred and
small, see :mod:`~drivers.camera.training`), plus the house deck's own marks when a calibration
holds them. A rank mark is described by its outline directions (gradient orientations summed
over 8 x 8 cells, as in HOG), its blurred silhouette, both on the mark scaled into a square with
its aspect kept, and by its aspect; a suit mark by its silhouette and aspect. A linear
projection learned from the training marks (PCA, then whitening of the spread within each class,
as in LDA) keeps what tells the classes apart; a mark is then compared with each class's
prototypes (k-means centres of its samples).

Its evidence is the distance to the nearest prototype of the best class and the ratio of that
distance to the nearest prototype of any other class: a clear mark is near its class and far
from the others (small ratio); a mark unlike anything learned (a scrap of a court picture) is far
from everything (large distance). The limits on both are set by the reader.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.errors import ConfigError
from drivers.camera.glyphs import SHAPE_SIZE, IndexGlyphs

FORMAT_VERSION = 2
#: the model shipped with the package (trained by ``python -m drivers.camera.training``)
DEFAULT_MODEL = Path(__file__).with_name("models") / "shapes.npz"
#: cell size of the gradient-orientation features, and the orientations they are measured along
CELL = 8
ORIENTATIONS = 9
#: side of the blurred silhouette part of the features
SILHOUETTE = 16
SUITS = "shdc"
#: rank label of the "not a rank" class (suit marks, lone digits): such a vote reads nothing
NOT_A_RANK = 0
#: Gaussian blur of the silhouette, pixels, and the zero margin that keeps marks apart
SOFT_SIGMA = 1.0
_MARGIN = 3
_KERNEL = cv2.getGaussianKernel(2 * _MARGIN + 1, SOFT_SIGMA).astype(np.float32).ravel()
_ANGLES = np.arange(ORIENTATIONS) * np.pi / ORIENTATIONS
#: (3, ORIENTATIONS): cos^2, 2 cos sin, sin^2 of each direction (see :func:`_orientations`)
_MOMENTS = np.stack(
    [np.cos(_ANGLES) ** 2, 2 * np.cos(_ANGLES) * np.sin(_ANGLES), np.sin(_ANGLES) ** 2]
).astype(np.float32)

Features = npt.NDArray[np.float32]


def _orientations(shapes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Gradient-orientation histograms of (n, S, S) marks, as in HOG: the gradient (central
    differences, zero at the border) projected on ORIENTATIONS directions and squared
    (unsigned, smooth binning), summed over CELL x CELL cells, blocks of 2 x 2 cells normalised
    to unit length; (n, 324) for 32-pixel squares.

    (gx cos a + gy sin a)^2 expands to gx^2 cos^2 a + 2 gx gy cos a sin a + gy^2 sin^2 a, so
    only the cell sums of gx^2, gx gy and gy^2 are needed.
    """
    n, size, _ = shapes.shape
    gx = np.zeros_like(shapes)
    gy = np.zeros_like(shapes)
    np.subtract(shapes[:, :, 2:], shapes[:, :, :-2], out=gx[:, :, 1:-1])
    np.subtract(shapes[:, 2:, :], shapes[:, :-2, :], out=gy[:, 1:-1, :])
    k = size // CELL
    products = np.stack([gx * gx, gx * gy, gy * gy], axis=-1)
    sums = products.reshape(n, k, CELL, k, CELL, 3).sum(axis=(2, 4))
    cells = (sums @ _MOMENTS).reshape(n, k * k, ORIENTATIONS)
    # 2 x 2-cell blocks by one gather (a sliding-window view cost more than the rest)
    blocks = cells[:, _blocks(k)].reshape(n, (k - 1) * (k - 1), 4 * ORIENTATIONS)
    blocks = blocks / (np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3)
    return np.asarray(blocks.reshape(n, -1), np.float32)


@lru_cache(maxsize=4)
def _blocks(k: int) -> npt.NDArray[np.intp]:
    """((k - 1)^2, 4): the cells (row-major in a k x k grid) of each 2 x 2 block, row-major."""
    i, j = np.mgrid[0 : k - 1, 0 : k - 1]
    first = (i * k + j).reshape(-1, 1)
    return np.asarray(first + np.array([0, 1, k, k + 1]), np.intp)


def _silhouettes(shapes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """(n, SILHOUETTE**2): the marks blurred (SOFT_SIGMA, zero outside), averaged down to
    SILHOUETTE squares, centred and scaled to unit length."""
    n, size, _ = shapes.shape
    f = size // SILHOUETTE
    if n == 1:  # the reader's case: OpenCV alone, same numbers
        soft = cv2.sepFilter2D(
            shapes[0], cv2.CV_32F, _KERNEL, _KERNEL, borderType=cv2.BORDER_CONSTANT
        )
        small = cv2.resize(soft, (SILHOUETTE, SILHOUETTE), interpolation=cv2.INTER_AREA)
        sil = np.asarray(small, np.float32).reshape(1, -1)
    else:
        pad = np.pad(shapes, ((0, 0), (_MARGIN, _MARGIN), (_MARGIN, _MARGIN)))
        tall = pad.reshape(n * (size + 2 * _MARGIN), size + 2 * _MARGIN)
        soft = cv2.sepFilter2D(tall, cv2.CV_32F, _KERNEL, _KERNEL, borderType=cv2.BORDER_CONSTANT)
        soft = np.asarray(soft, np.float32).reshape(n, size + 2 * _MARGIN, size + 2 * _MARGIN)
        soft = soft[:, _MARGIN:-_MARGIN, _MARGIN:-_MARGIN]
        sil = soft.reshape(n, SILHOUETTE, f, SILHOUETTE, f).mean(axis=(2, 4)).reshape(n, -1)
    sil = sil - sil.mean(axis=1, keepdims=True)
    sil /= np.linalg.norm(sil, axis=1, keepdims=True) + 1e-9
    return np.asarray(sil, np.float32)


def _log_aspect(aspects: npt.ArrayLike, n: int) -> npt.NDArray[np.float32]:
    a = np.maximum(np.asarray(aspects, np.float64).reshape(n, 1), 1e-3)
    return np.asarray(0.5 * np.log(a), np.float32)


def rank_features(shapes: npt.ArrayLike, aspects: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Features of rank marks: (n, RANK_FEATURES) from (n, SHAPE_SIZE, SHAPE_SIZE) marks
    (:attr:`IndexGlyphs.rank_shape`, float32 0..1) and their width/height ``aspects``.

    Outline directions (orientation histograms, unit length), blurred silhouette (centred, unit
    length), half the log of the aspect: characters differ in both.
    """
    sh = np.asarray(shapes, np.float32).reshape(-1, SHAPE_SIZE, SHAPE_SIZE)
    n = len(sh)
    h = _orientations(sh)
    h /= np.linalg.norm(h, axis=1, keepdims=True) + 1e-9
    return np.concatenate([h, _silhouettes(sh), _log_aspect(aspects, n)], axis=1)


def suit_features(shapes: npt.ArrayLike, aspects: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Features of suit marks: (n, SUIT_FEATURES), the blurred silhouette and half the log of
    the aspect (suits are told apart by their outline mass, and at small sizes the outline
    directions add more noise than information)."""
    sh = np.asarray(shapes, np.float32).reshape(-1, SHAPE_SIZE, SHAPE_SIZE)
    return np.concatenate([_silhouettes(sh), _log_aspect(aspects, len(sh))], axis=1)


def _marks_features(
    shapes: list[npt.NDArray[np.float32]], aspects: list[float], outline: bool
) -> npt.NDArray[np.float32]:
    """:func:`rank_features` (``outline``) or :func:`suit_features` of a few marks as the
    reader measures one: the outline directions of all at once, the silhouette of each by the
    one-mark path (the numbers :meth:`ShapeModel.rank` gives)."""
    sh = np.stack(shapes)
    parts = [np.vstack([_silhouettes(one[None]) for one in sh]), _log_aspect(aspects, len(sh))]
    if outline:
        h = _orientations(sh)
        h /= np.linalg.norm(h, axis=1, keepdims=True) + 1e-9
        parts.insert(0, h)
    return np.concatenate(parts, axis=1)


_ZERO = np.zeros((1, SHAPE_SIZE, SHAPE_SIZE), np.float32)
RANK_FEATURES = rank_features(_ZERO, [1.0]).shape[1]
SUIT_FEATURES = suit_features(_ZERO, [1.0]).shape[1]


@lru_cache(maxsize=8)
def _colour_mask(colour: str) -> npt.NDArray[np.bool_]:
    """Which of :data:`SUITS` are in ``colour`` (``"hd"``, ``"sc"``)."""
    return np.array([s in colour for s in SUITS])


@dataclass(frozen=True)
class Vote:
    """The classifier's opinion on one mark.

    Attributes:
        value: best class (rank 2..14, or suit letter).
        ratio: nearest-prototype distance of the best class over that of the runner-up class
            (0..1; small is clear).
        distance: nearest-prototype distance of the best class (whitened feature units; large
            means unlike anything learned).
    """

    value: int | str
    ratio: float
    distance: float


#: the classifier's opinions on several indexes worked out together (the reader's
#: ``shape_votes``): by ``id`` of an index's :class:`~drivers.camera.glyphs.IndexGlyphs`, its
#: rank vote and its suit mark's distances to each suit (None where the ink's colour is unsure)
ShapeVotes = dict[int, tuple[Vote, npt.NDArray[np.float32] | None]]


@dataclass(frozen=True)
class _Space:
    """One projection and its labelled prototypes (ranks or suits), sorted by label; build with
    :meth:`of`."""

    mean: Features
    proj: npt.NDArray[np.float32]
    protos: npt.NDArray[np.float32]
    labels: npt.NDArray[np.int64]
    norms: npt.NDArray[np.float32]  # squared length of each prototype
    starts: npt.NDArray[np.intp]  # first prototype of each label
    values: npt.NDArray[np.int64]  # the label of each run
    protos_t: npt.NDArray[np.float32]  # the prototypes as columns (one product for many marks)

    @classmethod
    def of(
        cls,
        mean: npt.ArrayLike,
        proj: npt.ArrayLike,
        protos: npt.ArrayLike,
        labels: npt.ArrayLike,
    ) -> _Space:
        """A space with its prototypes sorted by label and distances prepared."""
        lab = np.asarray(labels, np.int64)
        order = np.argsort(lab, kind="stable")
        lab = lab[order]
        pro = np.ascontiguousarray(np.asarray(protos, np.float32)[order])
        starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
        return cls(
            np.asarray(mean, np.float32),
            np.asarray(proj, np.float32),
            pro,
            lab,
            (pro * pro).sum(axis=1),
            starts,
            lab[starts],
            np.ascontiguousarray(pro.T),
        )

    def project(self, x: Features) -> Features:
        """Features (d,) in this space's whitened coordinates."""
        return np.asarray((x - self.mean) @ self.proj, np.float32)

    def project_many(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Features (n, d) in this space's whitened coordinates, (n, k)."""
        return np.asarray((x - self.mean) @ self.proj, np.float32)

    def vote(
        self, z: Features, allowed: npt.NDArray[np.bool_] | None = None
    ) -> tuple[int, float, float]:
        """(label, ratio, distance) of projected features ``z``; ``allowed`` (indexed by label
        value) masks the labels that may win."""
        return self.vote_nearest(self.nearest(z), allowed)

    def nearest(self, z: Features) -> npt.NDArray[np.float32]:
        """Distance of projected features ``z`` to each label's nearest prototype, by run."""
        d2 = self.norms - 2.0 * (self.protos @ z) + float(z @ z)
        return np.asarray(np.sqrt(np.maximum(np.minimum.reduceat(d2, self.starts), 0.0)))

    def nearest_many(self, z: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """:meth:`nearest` of projected features ``z`` (n, k): (n, runs), one product with the
        prototypes for all (the same distances up to float rounding)."""
        zz = (z * z).sum(axis=1, keepdims=True)
        d2 = self.norms[None, :] - 2.0 * (z @ self.protos_t) + zz
        return np.asarray(np.sqrt(np.maximum(np.minimum.reduceat(d2, self.starts, axis=1), 0.0)))

    def vote_nearest(
        self, best: npt.NDArray[np.float32], allowed: npt.NDArray[np.bool_] | None = None
    ) -> tuple[int, float, float]:
        """:meth:`vote` from :meth:`nearest`'s distances (one product for several votes)."""
        if allowed is not None:
            best = np.where(allowed[self.values], best, np.inf)
        order = np.argsort(best)
        first = float(best[order[0]])
        second = float(best[order[1]]) if len(order) > 1 else float("inf")
        return int(self.values[order[0]]), first / max(second, 1e-9), first

    def plus(self, z: npt.NDArray[np.float32], labels: npt.NDArray[np.int64]) -> _Space:
        """This space with extra prototypes ``z`` (n, k) labelled ``labels``."""
        return _Space.of(
            self.mean,
            self.proj,
            np.vstack([self.protos, z]),
            np.concatenate([self.labels, labels]),
        )


@dataclass(frozen=True)
class ShapeModel:
    """The trained classifier (see the module doc).

    Attributes:
        ranks, suits: projection and prototypes; rank labels are 2..14, suit labels index
            :data:`SUITS`.
        rank_holes: rank -> enclosed-hole counts seen in at least 2 % of its training marks.
        hole_y: rank -> (low, high) 1st..99th percentile of the mean hole height of its marks.
        meta: JSON-able facts about the training (styles, fonts, seed, sample counts).
    """

    ranks: _Space
    suits: _Space
    rank_holes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    hole_y: dict[int, tuple[float, float]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def rank(self, g: IndexGlyphs) -> Vote:
        """Best rank (2..14) for the index's rank mark; :data:`NOT_A_RANK` when it looks most
        like no rank at all (a pip, a lone digit)."""
        z = self.ranks.project(rank_features(g.rank_shape[None], [g.rank_aspect])[0])
        label, ratio, dist = self.ranks.vote(z)
        return Vote(label, ratio, dist)

    def rank_votes(self, marks: Sequence[IndexGlyphs]) -> list[Vote]:
        """:meth:`rank` of several indexes (a frame's), with one product with the prototypes
        for all of them instead of one a mark: the same votes up to float rounding."""
        if not marks:
            return []
        x = _marks_features([g.rank_shape for g in marks], [g.rank_aspect for g in marks], True)
        near = self.ranks.nearest_many(self.ranks.project_many(x))
        return [Vote(*self.ranks.vote_nearest(row)) for row in near]

    def suit_distances(self, marks: Sequence[IndexGlyphs]) -> npt.NDArray[np.float32]:
        """Each index's suit mark's distance to each suit's nearest prototype, (n, 4) in the
        order of :data:`SUITS` (for :meth:`suit_votes`), one product for all of them."""
        if not marks:
            return np.zeros((0, len(SUITS)), np.float32)
        x = _marks_features([g.suit_shape for g in marks], [g.suit_aspect for g in marks], False)
        return self.suits.nearest_many(self.suits.project_many(x))

    def suit(self, g: IndexGlyphs, colour: str = SUITS) -> Vote:
        """Best suit among ``colour`` (``"hd"`` for red ink, ``"sc"`` for black) for the
        index's suit mark."""
        return self.suit_votes(g, colour)[1]

    def suit_votes(
        self, g: IndexGlyphs, colour: str, nearest: npt.NDArray[np.float32] | None = None
    ) -> tuple[Vote, Vote]:
        """(best of all four suits, best among ``colour``) for the index's suit mark, from
        one projection of its features (or from its row of :meth:`suit_distances`)."""
        if nearest is None:
            z = self.suits.project(suit_features(g.suit_shape[None], [g.suit_aspect])[0])
            nearest = self.suits.nearest(z)
        label, ratio, dist = self.suits.vote_nearest(nearest)
        anywhere = Vote(SUITS[label], ratio, dist)
        label, ratio, dist = self.suits.vote_nearest(nearest, _colour_mask(colour))
        return anywhere, Vote(SUITS[label], ratio, dist)

    def with_marks(
        self,
        rank_marks: tuple[npt.NDArray[np.float32], npt.ArrayLike, npt.ArrayLike] | None,
        suit_marks: tuple[npt.NDArray[np.float32], npt.ArrayLike, npt.ArrayLike] | None,
    ) -> ShapeModel:
        """This model plus extra prototypes: the house deck's own print, from a calibration.

        Each of ``rank_marks`` and ``suit_marks`` is (shapes (n, SHAPE_SIZE, SHAPE_SIZE) float32
        0..1, aspects (n,), labels (n,): rank 2..14 or index into :data:`SUITS`), or None.
        """
        out_r, out_s = self.ranks, self.suits
        if rank_marks is not None and len(rank_marks[0]):
            shapes, aspects, labels = rank_marks
            z = out_r.project_many(rank_features(shapes, aspects))
            out_r = out_r.plus(z, np.asarray(labels, np.int64))
        if suit_marks is not None and len(suit_marks[0]):
            shapes, aspects, labels = suit_marks
            z = out_s.project_many(suit_features(shapes, aspects))
            out_s = out_s.plus(z, np.asarray(labels, np.int64))
        return ShapeModel(out_r, out_s, self.rank_holes, self.hole_y, self.meta)

    def save(self, path: Path) -> None:
        """Write the model as ``.npz``; raises ConfigError when it cannot be written."""
        meta = {
            "version": FORMAT_VERSION,
            "feature_size": [RANK_FEATURES, SUIT_FEATURES],
            "rank_holes": {str(r): list(v) for r, v in self.rank_holes.items()},
            "hole_y": {str(r): list(v) for r, v in self.hole_y.items()},
            "meta": self.meta,
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for name, space in (("rank", self.ranks), ("suit", self.suits)):
            arrays[f"{name}_mean"] = space.mean.astype(np.float32)
            arrays[f"{name}_proj"] = space.proj.astype(np.float32)
            arrays[f"{name}_protos"] = space.protos.astype(np.float16)
            arrays[f"{name}_labels"] = space.labels.astype(np.int8)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                np.savez_compressed(f, **arrays)
        except OSError as e:
            raise ConfigError(f"cannot write shape model {path}: {e}") from e

    @classmethod
    def load(cls, path: Path) -> ShapeModel:
        """Read a model written by :meth:`save`.

        Raises:
            ConfigError: missing, unreadable, or written for other features (names the path).
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("version") != FORMAT_VERSION or meta.get("feature_size") != [
                    RANK_FEATURES,
                    SUIT_FEATURES,
                ]:
                    raise ValueError("written by another version")

                def space(name: str) -> _Space:
                    return _Space.of(
                        np.asarray(data[f"{name}_mean"], np.float32),
                        np.asarray(data[f"{name}_proj"], np.float32),
                        np.asarray(data[f"{name}_protos"], np.float32),
                        np.asarray(data[f"{name}_labels"], np.int64),
                    )

                return cls(
                    space("rank"),
                    space("suit"),
                    {int(r): tuple(int(x) for x in v) for r, v in meta["rank_holes"].items()},
                    {int(r): (float(v[0]), float(v[1])) for r, v in meta["hole_y"].items()},
                    dict(meta.get("meta", {})),
                )
        except (OSError, KeyError, ValueError, TypeError) as e:
            raise ConfigError(f"cannot read shape model {path}: {e}") from e


@lru_cache(maxsize=1)
def default_model() -> ShapeModel:
    """The packaged model (:data:`DEFAULT_MODEL`), loaded once; raises ConfigError if missing."""
    return ShapeModel.load(DEFAULT_MODEL)
