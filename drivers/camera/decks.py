"""Synthetic deck designs: card faces whose corner index is printed in a chosen font and style.

Used to train and test recognition on decks it was not calibrated with: the rank characters come
from a font file (rendered with OpenCV's own font engine, ``cv2.FontFace``), the suit marks from a
font's suit characters or drawn from simple shapes; each :class:`DeckStyle` also varies the index
size and place, the width (condensed or extended print), the stroke weight, the gap between the
``1`` and ``0`` of a ten, the suit size and the ink colours. Nothing here runs at the table.

This module holds the designs: the fonts they may print in (:func:`find_fonts`, checked by
:func:`plain_zero` and :func:`font_has_suits`), :class:`DeckStyle` and :func:`random_style`, and
the layout rules of a jumbo index. The marks are drawn by :mod:`~drivers.camera.deck_marks`;
faces and index regions printed in a style by :mod:`~drivers.camera.deck_print`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from drivers.camera.deck_marks import SUIT_TEXT, Mask, drawn_suit, glyph_mask

#: OpenCV's built-in font faces (always available, whatever fonts the machine has)
BUILTIN_FONTS = ("sans", "serif")
#: font file name parts that are not plausible card index print: slanted, script, symbol,
#: monospaced (slashed zero), hairline, maths or variable fonts; and fonts made for other
#: scripts, whose Latin digits copy a family already listed. Some families name their italics
#: and monospaced faces by code: Linux Libertine/Biolinum ``_RI``/``_RBI``/``_RZI`` and ``_M``,
#: ParaType ``..56F``/``..76F`` and ``PTM``.
EXCLUDED_FONT_PARTS = (
    "italic",
    "oblique",
    "slanted",
    "ita.",
    "_ri.",
    "_rbi.",
    "_rzi.",
    "56f.",
    "76f.",
    "linlibertine_m.",
    "ptm55f",
    "ptm75f",
    "[",
    "mono",
    "symbol",
    "dingbat",
    "d050000l",
    "z003",
    "math",
    "extralight",
    "light",
    "thin",
    "hairline",
    "arabic",
    "kufi",
    "naskh",
    "nastaliq",
    "urdu",
    "bengali",
    "devanagari",
    "gujarati",
    "gurmukhi",
    "kannada",
    "khojki",
    "malayalam",
    "oriya",
    "sinhala",
    "tamil",
    "telugu",
    "nushu",
)
#: rank height (fraction of the card's) above which a design is a jumbo index (see
#: deck_print.render_face)
JUMBO_RANK = 0.11
#: a jumbo design's pips: sized as for a standard index of this rank height, and their layout
#: drawn in towards the middle by these factors (x, y)
JUMBO_PIP_RANK = 0.09
JUMBO_PIP_SPREAD = (0.55, 0.85)
#: a jumbo design's court picture starts this far in (fractions of width and height; standard
#: designs 0.2, 0.13): clear of the index, as such decks print it
JUMBO_PICTURE = (0.34, 0.2)
#: share of random deck designs whose ten has a plain stem for its ``1`` (DeckStyle.ten_stem)
TEN_STEM_SHARE = 0.4


#: where the machine's fonts are (the training command's default; the tests use their own)
SYSTEM_FONTS = (Path("/usr/share/fonts"),)


def find_fonts(folders: Sequence[Path] = SYSTEM_FONTS) -> list[str]:
    """Upright text fonts (``.ttf``/``.otf``) under ``folders``, sorted; see
    :data:`EXCLUDED_FONT_PARTS`. Type 1 duplicates of OpenType fonts are not used."""
    found: set[str] = set()
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.suffix.lower() not in (".ttf", ".otf"):
                continue
            name = path.name.lower()
            if any(part in name for part in EXCLUDED_FONT_PARTS):
                continue
            found.add(str(path))
    return sorted(found)


#: families whose file names do not say so: ParaType's PT Sans (``PTS``, caption ``PTC``,
#: narrow ``PTN``) and PT Serif (``PTF``, caption ``PTZ``); STIX and its older STIXGeneral; Gentium
#: and its Book weights; EB Garamond's optical sizes. And designs derived from another family,
#: which validation must not hold out apart: GNU FreeSans and FreeSerif from URW's Nimbus Sans
#: and Nimbus Roman, Carlito from Lato
_FAMILY_ALIASES = {
    "FreeSans": "NimbusSans",
    "FreeSerif": "NimbusRoman",
    "Carlito": "Lato",
    "EBGaramond08": "EBGaramond",
    "EBGaramond12": "EBGaramond",
    "PTS": "PTSans",
    "PTC": "PTSans",
    "PTN": "PTSans",
    "PTF": "PTSerif",
    "PTZ": "PTSerif",
    "STIXGeneral": "STIX",
    "GentiumBookPlus": "Gentium",
    "GentiumPlus": "Gentium",
}


def family(font: str) -> str:
    """A font's family key, to keep families apart in validation: the file name up to the
    first ``-`` or ``_``, without width, weight, display or optical-size parts
    (``NimbusSansNarrow-Bold`` and ``NimbusSans-Regular`` are one family, so are
    ``NotoSansDisplay`` and ``NotoSans``), or the family of :data:`_FAMILY_ALIASES`."""
    key = re.split(r"[-_]", Path(font).stem)[0]
    for part in ("Condensed", "Narrow", "Bold", "Display"):
        key = key.replace(part, "")
    if re.fullmatch(r"PT[SCNFZ]\d\dF", key):  # ParaType's coded file names
        key = key[:3]
    return _FAMILY_ALIASES.get(key, key)


def pick_font(rng: np.random.Generator, fonts: Sequence[str]) -> str:
    """A random font of ``fonts``: a family first, each family equally likely, then one of
    its files (a family shipped in 16 widths and weights is not 16 times as likely)."""
    families: dict[str, list[str]] = {}
    for font in fonts:
        families.setdefault(family(font), []).append(font)
    chosen = families[str(rng.choice(sorted(families)))]
    return str(chosen[int(rng.integers(len(chosen)))])


def plain_zero(font: str) -> bool:
    """Whether the font's ``0`` is plain, as on card indexes: one hole and one part (no
    slashed or dotted zero), and as tall as its ``8`` (lining figures; old-style figures, whose
    ``0`` and ``1`` are x-height, print a ``10`` no card uses)."""
    m = glyph_mask(font, "0")
    eight = glyph_mask(font, "8")
    if m.size == 0 or eight.size == 0 or m.shape[0] < 0.9 * eight.shape[0]:
        return False
    parts, _ = cv2.connectedComponents((m > 127).astype(np.uint8))
    background = np.pad((m < 128).astype(np.uint8), 1, constant_values=1)
    n, _ = cv2.connectedComponents(background, connectivity=4)
    return int(parts) - 1 == 1 and int(n) - 2 == 1  # minus the labels 0 and the outside


def font_has_suits(font: str) -> bool:
    """Whether ``font`` draws the four suit characters itself (not OpenCV's fallback font)."""
    fallback = [glyph_mask("uni", SUIT_TEXT[s]) for s in "shdc"]
    own = [glyph_mask(font, SUIT_TEXT[s]) for s in "shdc"]
    if any(m.size == 0 for m in own):
        return False
    if all(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(own, fallback, strict=True)):
        return False
    return _suits_look_right(dict(zip("shdc", own, strict=True)))


#: the same-colour partner of each suit (the pair a font's glyph must be told apart within)
_PARTNER = {"s": "c", "c": "s", "h": "d", "d": "h"}


def _suits_look_right(marks: dict[str, Mask]) -> bool:
    """Each suit glyph is more like the drawn mark of its own suit than of its partner's.
    GNU FreeSerif Bold draws U+2660 as a club and U+2663 as a spade; a font like that would
    teach the classifier the wrong suits."""

    def unit(mask: Mask) -> np.ndarray:
        v = cv2.resize(mask, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float64).ravel()
        v -= v.mean()
        return v / max(float(np.linalg.norm(v)), 1e-9)

    drawn = {k: unit(drawn_suit(k, (0.5, 0.5, 0.5))) for k in "shdc"}
    return all(
        float(unit(m) @ drawn[k]) > float(unit(m) @ drawn[_PARTNER[k]]) for k, m in marks.items()
    )


@dataclass(frozen=True)
class DeckStyle:
    """How one deck design prints its corner index (all sizes relative, see attributes).

    Attributes:
        rank_font: font file or built-in OpenCV font name for the rank characters.
        suit_font: font for the suit marks, or None for drawn suits (:func:`drawn_suit`).
        rank_height: rank mark height, fraction of the card height.
        width: horizontal scale of the rank characters (0.7 condensed .. 1.2 extended).
        weight: stroke change, fraction of the rank height (negative: lighter).
        ten_gap: gap between the ``1`` and ``0`` of a ten, fraction of the rank height
            (negative: the digits touch or overlap).
        ten_width: extra horizontal scale of the ten's digits (many decks squeeze the ``10`` to
            the width of the other ranks).
        ten_stem: the ten's ``1`` is a plain stem as thick as the ``0``'s strokes, without the
            font's flag and foot (as many card decks print it).
        suit_height: suit mark height, fraction of the rank height.
        suit_width: horizontal scale of the suit mark.
        suit_gap: gap under the rank mark before the suit, fraction of the rank height.
        x: index centre, fraction of the card width.
        y: rank mark top, fraction of the card height.
        red, black: ink colours (B, G, R).
        stock: card stock colour (B, G, R).
        shape: drawn-suit shape parameters (see :func:`drawn_suit`), each 0..1.
    """

    rank_font: str
    suit_font: str | None
    rank_height: float = 0.09
    width: float = 1.0
    weight: float = 0.0
    ten_gap: float = 0.05
    ten_width: float = 1.0
    ten_stem: bool = False
    suit_height: float = 0.75
    suit_width: float = 1.0
    suit_gap: float = 0.15
    x: float = 0.08
    y: float = 0.05
    red: tuple[int, int, int] = (40, 30, 210)
    black: tuple[int, int, int] = (20, 20, 20)
    stock: tuple[int, int, int] = (250, 250, 250)
    shape: tuple[float, float, float] = (0.5, 0.5, 0.5)


def random_style(
    rng: np.random.Generator, rank_fonts: Sequence[str], suit_fonts: Sequence[str]
) -> DeckStyle:
    """A random plausible deck design from the given fonts (suits drawn in a third of them)."""
    suit_font = None
    if suit_fonts and rng.random() < 0.67:
        suit_font = pick_font(rng, suit_fonts)
    rank_height = float(rng.uniform(0.06, 0.105))
    red_r = int(rng.integers(170, 240))
    return DeckStyle(
        rank_font=pick_font(rng, rank_fonts),
        suit_font=suit_font,
        rank_height=rank_height,
        width=float(rng.uniform(0.65, 1.2)),
        weight=float(rng.uniform(-0.01, 0.05)),
        ten_gap=float(rng.uniform(-0.04, 0.15)),
        ten_width=float(rng.uniform(0.55, 1.0)) if rng.random() < 0.5 else 1.0,
        suit_height=float(rng.uniform(0.55, 0.95)),
        suit_width=float(rng.uniform(0.7, 1.2)),
        suit_gap=float(rng.uniform(0.1, 0.4)),
        x=float(rng.uniform(0.06, 0.11)),
        y=float(rng.uniform(0.03, 0.07)),
        red=(int(rng.integers(20, 90)), int(rng.integers(10, 70)), red_r),
        black=tuple(int(v) for v in rng.integers(0, 50) + rng.integers(0, 15, 3)),  # type: ignore[arg-type]
        stock=tuple(int(v) for v in rng.integers(238, 256, 3)),  # type: ignore[arg-type]
        shape=(float(rng.random()), float(rng.random()), float(rng.random())),
        ten_stem=bool(rng.random() < TEN_STEM_SHARE),
    )
