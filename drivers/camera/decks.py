"""Synthetic deck designs: card faces whose corner index is printed in a chosen font and style.

Used to train and test recognition on decks it was not calibrated with: the rank characters come
from a font file (rendered with OpenCV's own font engine, ``cv2.FontFace``), the suit marks from a
font's suit characters or drawn from simple shapes; each :class:`DeckStyle` also varies the index
size and place, the width (condensed or extended print), the stroke weight, the gap between the
``1`` and ``0`` of a ten, the suit size and the ink colours. Nothing here runs at the table.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from dealer_assist.cards import Card
from drivers.camera.geometry import CARD_H, CARD_W, Image, as_image
from drivers.camera.glyphs import INDEX_ROI

Mask = npt.NDArray[np.uint8]

RANK_TEXT = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_TEXT = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
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
#: rank height (fraction of the card's) above which a design is a jumbo index (see render_face)
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
#: high-resolution rendering scale (times the canonical card) before the camera view shrinks it
HIRES = 4
#: font size used to cut glyph masks, pixels
GLYPH_PX = 160


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


@functools.cache
def _font_face(font: str) -> cv2.FontFace:
    """One FontFace per font for the life of the process. OpenCV 5's glyph cache outlives a
    freed FontFace: a new face created at the same address was seen to draw the old font's
    glyphs (a Caladea ``Q`` came out as another font's ``2``), which mislabels synthetic
    decks."""
    return cv2.FontFace(font)


@functools.lru_cache(maxsize=4096)
def glyph_mask(font: str, text: str) -> Mask:
    """255 on the ink of ``text`` in ``font`` (a font file or built-in name), rendered
    :data:`GLYPH_PX` pixels high and cropped to its ink; empty (0, 0) when nothing renders."""
    face = _font_face(font)
    canvas = np.zeros((3 * GLYPH_PX, 3 * GLYPH_PX * max(1, len(text))), np.uint8)
    cv2.putText(canvas, text, (GLYPH_PX // 2, 2 * GLYPH_PX), (255, 255, 255), face, GLYPH_PX)
    ys, xs = np.nonzero(canvas > 127)
    if ys.size == 0:
        return np.zeros((0, 0), np.uint8)
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


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


def _bezier(p0: npt.ArrayLike, p1: npt.ArrayLike, p2: npt.ArrayLike, n: int = 24) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    a, b, c = (np.asarray(p, np.float64) for p in (p0, p1, p2))
    return np.asarray((1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c)


def _heart_outline(size: float, yscale: float) -> np.ndarray:
    """The classic parametric heart (point down), ``size`` pixels wide, its height stretched by
    ``yscale``; points (n, 2) with the top-left of its box at (0, 0)."""
    t = np.linspace(0, 2 * np.pi, 200)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) * yscale
    pts = np.stack([x - x.min(), y - y.min()], axis=1)
    return np.asarray(pts * size / 32.0)


def drawn_suit(suit: str, shape: tuple[float, float, float], size: int = 200) -> Mask:
    """A suit mark drawn from a parametric heart, circles and curves, cropped to its ink.

    ``shape`` (each 0..1) varies the design: aspect (a), stem or lobe size (b), side curvature
    or stem flare (c). ``size`` is the drawing's scale in pixels.
    """
    a, b, c = shape
    img = np.zeros((2 * size, 2 * size), np.uint8)
    s = float(size)
    off = np.array([s / 2, s / 4])

    def poly(points: np.ndarray) -> None:
        cv2.fillPoly(img, [np.round(points + off).astype(np.int32)], 255, cv2.LINE_AA)

    def circle(cx: float, cy: float, r: float) -> None:
        cv2.circle(img, (round(cx + off[0]), round(cy + off[1])), round(r), 255, -1, cv2.LINE_AA)

    def stem(top: float, bottom: float, cx: float) -> None:
        half = s * (0.03 + 0.04 * b)
        flare = s * (0.12 + 0.1 * c)
        left = _bezier((cx - half, top), (cx - half, bottom - 0.05 * s), (cx - flare, bottom))
        right = _bezier((cx + flare, bottom), (cx + half, bottom - 0.05 * s), (cx + half, top))
        poly(np.vstack([left, right]))

    if suit == "h":
        poly(_heart_outline(s, 0.9 + 0.25 * a))
    elif suit == "s":
        body = _heart_outline(s, 0.9 + 0.2 * a)
        body[:, 1] = body[:, 1].max() - body[:, 1]  # point up
        poly(body)
        h = float(body[:, 1].max())
        stem(0.6 * h, h + s * (0.2 + 0.15 * b), s / 2)
    elif suit == "d":
        hw = s * (0.36 + 0.14 * a)
        cx, top, bottom = s / 2, 0.0, 1.2 * s
        mid = (top + bottom) / 2
        k = 0.25 * c - 0.05  # sides bend inwards by this share of the way to the centre
        corners = [(cx, top), (cx + hw, mid), (cx, bottom), (cx - hw, mid), (cx, top)]
        sides = []
        for (x0, y0), (x1, y1) in itertools.pairwise(corners):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            sides.append(_bezier((x0, y0), (mx + k * (cx - mx), my + k * (mid - my)), (x1, y1)))
        poly(np.vstack(sides))
    else:  # clubs
        r = s * (0.2 + 0.05 * b)
        cx = s / 2
        spread = 1.0 + 0.2 * a
        circle(cx, r, r)
        circle(cx - spread * r, 2.5 * r, r)
        circle(cx + spread * r, 2.5 * r, r)
        circle(cx, 2.0 * r, 0.7 * r)
        stem(2.2 * r, 3.5 * r + s * (0.15 + 0.1 * c), cx)
    ys, xs = np.nonzero(img > 127)
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def stem_mask(zero: Mask) -> Mask:
    """A plain ``1``: a bar as tall as ``zero`` (a font's ``0`` mask, 255 on ink) and as thick
    as its side strokes (the ink run at mid-height, left side): uint8 (h, thickness), all 255.
    ``zero`` itself when it has no ink at mid-height."""
    row = zero[zero.shape[0] // 2] > 127
    ink = np.flatnonzero(row)
    if ink.size == 0:
        return zero
    gaps = np.flatnonzero(~row[ink[0] :])
    thick = int(gaps[0]) if gaps.size else int(ink.size)
    return np.full((zero.shape[0], max(1, thick)), 255, np.uint8)


def _fit(mask: Mask, height: int, xscale: float) -> Mask:
    """``mask`` scaled to ``height`` pixels, its width also multiplied by ``xscale``."""
    h, w = mask.shape
    k = height / h
    size = (max(1, round(w * k * xscale)), max(1, height))
    return as_image(cv2.resize(mask, size, interpolation=cv2.INTER_AREA))


def _embolden(mask: Mask, px: float) -> Mask:
    """Thicker (``px`` > 0) or thinner strokes, ``px`` pixels per side."""
    r = round(abs(px))
    if r < 1:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    pad = cv2.copyMakeBorder(mask, r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    out = cv2.dilate(pad, kernel) if px > 0 else cv2.erode(pad, kernel)
    return as_image(out)


def rank_mask(style: DeckStyle, rank: int, height: int, text: str | None = None) -> Mask:
    """The rank mark of ``rank`` in ``style``, ``height`` pixels tall (ink 255); ``text``
    prints other characters in its place (lone digits: what a misaligned search may see)."""
    text = RANK_TEXT[rank] if text is None else text
    parts = [glyph_mask(style.rank_font, ch) for ch in text]
    if style.ten_stem and text in ("10", "1"):  # a lone 1: what a misaligned search may see
        parts[0] = stem_mask(glyph_mask(style.rank_font, "0"))
    top = max(p.shape[0] for p in parts)
    stroke = style.weight * height  # pixels added (or taken) on each side
    inner = max(1.0, height - 2 * max(stroke, 0.0))  # so that the bold mark is ``height`` tall
    xscale = style.width * (style.ten_width if rank == 10 else 1.0)
    scaled = [
        _embolden(_fit(p, max(1, round(inner * p.shape[0] / top)), xscale), stroke) for p in parts
    ]
    if len(scaled) == 1:
        return scaled[0]
    gap = round(style.ten_gap * height)
    h = max(p.shape[0] for p in scaled)
    w = scaled[0].shape[1] + scaled[1].shape[1] + gap
    out = np.zeros((h, max(w, scaled[0].shape[1], scaled[1].shape[1])), np.uint8)
    x = 0
    for p in scaled:
        y = h - p.shape[0]  # bottom-aligned on the baseline
        region = out[y : y + p.shape[0], x : x + p.shape[1]]
        np.maximum(region, p[:, : region.shape[1]], out=region)
        x += p.shape[1] + gap
    return out


def suit_mask(style: DeckStyle, suit: str, height: int) -> Mask:
    """The suit mark of ``suit`` in ``style``, ``height`` pixels tall (ink 255)."""
    if style.suit_font is None:
        src = drawn_suit(suit, style.shape)
    else:
        src = glyph_mask(style.suit_font, SUIT_TEXT[suit])
    return _fit(src, max(1, height), style.suit_width)


def _paste(img: np.ndarray, mask: Mask, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Blend ``colour`` into ``img`` (float, h x w x 3) through ``mask`` with top-left (x, y)."""
    h, w = mask.shape
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.shape[1], x + w), min(img.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] / 255.0
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + np.array(colour, np.float32) * a


def draw_index(
    img: np.ndarray, card: Card, style: DeckStyle, scale: float, text: str | None = None
) -> None:
    """Print ``card``'s index top-left on ``img`` (float BGR, a card ``scale`` times the
    canonical size); ``text`` replaces the rank characters (see :func:`rank_mask`)."""
    colour = style.red if card.suit in "hd" else style.black
    rank_h = round(style.rank_height * CARD_H * scale)
    rank = rank_mask(style, card.rank, rank_h, text)
    suit = suit_mask(style, card.suit, round(style.suit_height * rank_h))
    # the index column is centred and kept clear of the card's edge: by the widest ten or suit
    widest = max(
        rank_mask(style, 10, rank_h).shape[1],
        *(suit_mask(style, s, round(style.suit_height * rank_h)).shape[1] for s in "shdc"),
    )
    cx = max(style.x * CARD_W * scale, widest / 2 + 0.03 * CARD_W * scale)
    top = round(style.y * CARD_H * scale)
    _paste(img, rank, round(cx - rank.shape[1] / 2), top, colour)
    suit_top = top + rank.shape[0] + round(style.suit_gap * rank_h)
    _paste(img, suit, round(cx - suit.shape[1] / 2), suit_top, colour)


#: pip centres (x, y as fractions of the card) of the number cards, in the usual layouts
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.8), (0.68, 0.8)],
}
_PIPS[5] = [*_PIPS[4], (0.5, 0.5)]
_PIPS[6] = [*_PIPS[4], (0.32, 0.5), (0.68, 0.5)]
_PIPS[7] = [*_PIPS[6], (0.5, 0.35)]
_PIPS[8] = [*_PIPS[7], (0.5, 0.65)]
_PIPS[9] = [*_PIPS[4], (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6), (0.5, 0.5)]
_PIPS[10] = [*_PIPS[4], (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6), (0.5, 0.3), (0.5, 0.7)]
_PIPS[14] = [(0.5, 0.5)]


def render_face(
    card: Card, style: DeckStyle, rng: np.random.Generator, scale: float = 2.0
) -> Image:
    """A whole card face (BGR, ``scale`` times CARD_W x CARD_H) printed in ``style``: both
    indexes, pips for number cards and aces, a framed picture for court cards."""
    h, w = round(CARD_H * scale), round(CARD_W * scale)
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.stock
    colour = style.red if card.suit in "hd" else style.black
    # a jumbo index leaves less room: the pips keep a standard size and close in towards the
    # middle, the court picture shrinks
    jumbo = style.rank_height > JUMBO_RANK
    pip_rank = JUMBO_PIP_RANK if jumbo else style.rank_height
    pip_h = round(pip_rank * CARD_H * scale * (2.6 if card.rank == 14 else 1.4))
    if card.rank in _PIPS:
        pip = suit_mask(style, card.suit, pip_h)
        for px, py in _PIPS[card.rank]:
            m = pip if py <= 0.5 else np.flipud(pip)
            if jumbo:
                kx, ky = JUMBO_PIP_SPREAD
                px, py = 0.5 + kx * (px - 0.5), 0.5 + ky * (py - 0.5)
            _paste(img, m, round(px * w - m.shape[1] / 2), round(py * h - m.shape[0] / 2), colour)
    else:  # court card: a frame filled with coloured shapes
        fx, fy = JUMBO_PICTURE if jumbo else (0.2, 0.13)
        x0, y0, x1, y1 = round(fx * w), round(fy * h), round((1 - fx) * w), round((1 - fy) * h)
        for _ in range(40):
            c = tuple(int(v) for v in rng.integers(0, 255, 3))
            centre = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            axes = (int(rng.integers(5, w // 6)), int(rng.integers(5, h // 8)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, c, -1)
        img[:y0], img[y1:], img[:, :x0], img[:, x1:] = (style.stock,) * 4
        cv2.rectangle(img, (x0, y0), (x1, y1), style.black, max(1, round(scale)))
    for turned in (False, True):
        if turned:
            img = np.ascontiguousarray(img[::-1, ::-1])
        draw_index(img, card, style, scale)
    return as_image(np.clip(img, 0, 255))


def render_index_region(
    card: Card,
    style: DeckStyle,
    rng: np.random.Generator,
    card_px: float,
    blur: float = 0.5,
    noise: float = 3.0,
    text: str | None = None,
) -> Image:
    """The top-left index region (:data:`INDEX_ROI` of a canonical card) as a camera sees it
    when the card is ``card_px`` pixels tall: printed at :data:`HIRES` times the canonical size,
    slightly turned and sheared (an imperfect card outline), shrunk to the camera's resolution,
    blurred (``blur`` sigma, camera pixels), noisy (``noise`` grey levels), lit unevenly, then
    warped back to canonical pixels as the reader does. ``text`` replaces the rank characters."""
    x0, y0, x1, y1 = INDEX_ROI
    rw, rh = round((x1 - x0) * CARD_W), round((y1 - y0) * CARD_H)
    img = np.empty((rh * HIRES, rw * HIRES, 3), np.float32)
    img[:] = style.stock
    draw_index(img, card, style, HIRES, text)
    # small misfit of the card outline: rotation, shear, scale, shift (canonical pixels)
    angle = rng.uniform(-2.5, 2.5)
    m = np.asarray(cv2.getRotationMatrix2D((0.0, 0.0), angle, rng.uniform(0.95, 1.05)), np.float64)
    m[0, 1] += rng.uniform(-0.04, 0.04)
    m[:, 2] += rng.uniform(-2.0, 2.0, 2) * HIRES
    img = np.asarray(
        cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE),
        np.float32,
    )
    k = card_px / CARD_H  # camera pixels per canonical pixel
    small = cv2.resize(
        img, (max(4, round(rw * k)), max(4, round(rh * k))), interpolation=cv2.INTER_AREA
    )
    if blur > 0.2:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    ramp = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.75, 1.0), small.shape[0])
    small = small * ramp[:, None, None] * rng.uniform(0.96, 1.04, 3)
    small = small + rng.normal(0, noise, small.shape)
    small = as_image(np.clip(small, 0, 255))
    return as_image(cv2.resize(small, (rw, rh), interpolation=cv2.INTER_LINEAR))
