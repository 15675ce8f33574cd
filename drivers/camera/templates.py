"""The calibrated deck's templates of one decision (rank, or suit), matched by correlation.

:class:`TemplateBank` holds the candidates' templates softened by a :data:`BLUR_SIGMA` blur
(stroke weight and a pixel of misplacement should not matter) and ranks them for a mark after
subtracting their mean template, which keeps what tells them apart. One of the two opinions per
mark of :class:`~drivers.camera.reader.IndexReader`; the other is the shape classifier.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from drivers.camera.geometry import Glyph, as_glyph

K = TypeVar("K", int, str)

#: pixels of Gaussian blur applied to marks and templates before comparing (stroke weight and a
#: pixel of misplacement should not matter)
BLUR_SIGMA = 1.0


def _soft(glyph: Glyph) -> Glyph:
    return as_glyph(cv2.GaussianBlur(glyph, (0, 0), BLUR_SIGMA))


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Rows of ``v`` centred and scaled to unit length (a dot product is then a correlation)."""
    v = v - v.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.asarray(v / np.maximum(norm, 1e-9), dtype=np.float32)


def _unit_vector(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """:func:`_unit` of one vector, with fewer numpy calls (it runs for every mark)."""
    c = v - np.float32(v.mean())
    return np.asarray(c / max(float(np.sqrt(c @ c)), 1e-9), dtype=np.float32)


class TemplateBank(Generic[K]):
    """Softened templates of the candidates of one decision, ready for matching."""

    def __init__(self, templates: dict[K, Glyph]) -> None:
        self.keys: list[K] = list(templates)
        flat = np.stack([_soft(t).ravel() for t in templates.values()])
        self.mean = flat.mean(axis=0)
        self.plain = _unit(flat)
        self.diff = _unit(flat - self.mean)

    def match(self, glyph: Glyph) -> tuple[K, float, float]:
        """Best template for ``glyph``: (key, its correlation, its lead over the runner-up).

        Candidates are ranked by correlation after subtracting the candidates' mean template,
        which keeps what tells them apart (a club's lobes against a spade's point); the score is
        the plain correlation with the winning template.
        """
        soft = _soft(glyph).ravel()
        diffs = self.diff @ _unit_vector(soft - self.mean)
        order = np.argsort(-diffs)
        best = int(order[0])
        margin = float(diffs[best] - diffs[order[1]]) if len(order) > 1 else 1.0
        return self.keys[best], float(self.plain[best] @ _unit_vector(soft)), margin


class SuitBanks:
    """One template set's suit banks: the red pair, the black pair, and all four suits (for an
    ink whose colour is unsure).

    Args:
        suits: ``s h d c`` -> the set's suit template (see
            :attr:`~drivers.camera.calibration.Calibration.suits`).
    """

    def __init__(self, suits: dict[str, Glyph]) -> None:
        self.red = TemplateBank({k: t for k, t in suits.items() if k in "hd"})
        self.black = TemplateBank({k: t for k, t in suits.items() if k in "sc"})
        self.any = TemplateBank(dict(suits))

    def for_colour(self, colour: str) -> TemplateBank[str]:
        """The bank of the suits ``colour`` allows: ``hd``, ``sc``, or all four for ``""``."""
        return self.red if colour == "hd" else self.black if colour == "sc" else self.any
