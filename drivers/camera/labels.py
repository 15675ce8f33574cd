"""Evaluation labels: the ``labels.csv`` format and conversion from labelme corner boxes.

CSV columns (``shared/data/cards/README.md``): ``file`` (path relative to the CSV), ``rank``
(``A 2 .. 10 J Q K``), ``suit`` (``c d h s``), ``n_cards``, ``cards_all`` (every card in the image,
space-separated). Extra columns are ignored. A labelme file has one rectangle per visible corner
index labelled like ``10H``; an image's cards are the distinct labels.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError, ConfigError

FIELDS = ("file", "rank", "suit", "n_cards", "cards_all")
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


@dataclass(frozen=True)
class LabelledImage:
    """One evaluation image.

    Attributes:
        path: the image file (absolute or relative to the working directory).
        cards: every card shown in it, in label order, no repeats.
    """

    path: Path
    cards: tuple[Card, ...]


def _rank_text(card: Card) -> str:
    return "10" if card.rank == 10 else str(card)[0]


def read_labels(csv_path: Path) -> list[LabelledImage]:
    """Read a labels CSV; ``file`` entries are resolved against the CSV's folder.

    Raises:
        ConfigError: unreadable file, missing columns, or a row whose cards do not parse (names
            the row).
    """
    try:
        with csv_path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise ConfigError(f"cannot read labels {csv_path}: {e}") from e
    out = []
    for n, row in enumerate(rows, start=2):
        if not row.get("file"):
            raise ConfigError(f"{csv_path}:{n}: no 'file' column")
        try:
            texts = (row.get("cards_all") or "").split()
            if not texts:
                texts = [f"{row['rank']}{row['suit']}"]
            cards = tuple(dict.fromkeys(parse_card(t) for t in texts))
        except (CardError, KeyError, TypeError) as e:
            raise ConfigError(f"{csv_path}:{n}: bad card label: {e}") from e
        # normpath: "../x" must not depend on the CSV's folder still existing
        out.append(LabelledImage(Path(os.path.normpath(csv_path.parent / row["file"])), cards))
    return out


def write_labels(images: Iterable[LabelledImage], csv_path: Path) -> None:
    """Write ``images`` as a labels CSV; ``file`` is made relative to the CSV's folder."""
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(FIELDS)
        for img in images:
            first = img.cards[0]
            rel = os.path.relpath(img.path.resolve(), csv_path.parent.resolve())
            w.writerow(
                [
                    Path(rel).as_posix(),
                    _rank_text(first),
                    first.suit,
                    len(img.cards),
                    " ".join(_rank_text(c) + c.suit for c in img.cards),
                ]
            )


def labels_from_labelme(folder: Path) -> list[LabelledImage]:
    """Labels from every labelme ``*.json`` under ``folder`` (recursively, sorted).

    Raises:
        ConfigError: a JSON file that is not labelme, or a shape label that is not a card.
    """
    out = []
    for path in sorted(folder.rglob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            shapes = doc["shapes"]
            cards = tuple(dict.fromkeys(parse_card(str(s["label"])) for s in shapes))
            image = path.parent / str(doc.get("imagePath") or path.with_suffix(".jpg").name)
        except (OSError, ValueError, KeyError, TypeError, CardError) as e:
            raise ConfigError(f"{path}: not a labelme card file: {e}") from e
        if not image.exists():
            image = path.with_suffix(".jpg")
        if cards:
            out.append(LabelledImage(image, cards))
    return out


def card_of_path(path: Path) -> Card | None:
    """The card named by an image's file name or, failing that, its folder (``10c``, ``Ah``)."""
    for name in (path.stem, path.parent.name):
        m = re.fullmatch(r"(10|[2-9TJQKA])([shdc])", name.strip(), flags=re.IGNORECASE)
        if m:
            return parse_card(m.group(0))
    return None


def iter_images(folder: Path) -> Iterator[Path]:
    """Image files under ``folder``, recursively, sorted by path."""
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES:
            yield p


def labels_from_names(paths: Iterable[Path]) -> list[LabelledImage]:
    """Single-card labels from image names (``10c.png``, ``Ah/1.jpg``); unnamed ones skipped."""
    out = []
    for p in paths:
        card = card_of_path(p)
        if card is not None:
            out.append(LabelledImage(p, (card,)))
    return out
