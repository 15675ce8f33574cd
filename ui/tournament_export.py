"""A tournament's results table exported: CSV (the ``csv`` module) and PDF (reportlab).

Both writers build the whole file beside the target and rename it into place, so a failure
leaves no half-written export (and an older export under the same name stays as it was).
Amounts are written in euros with two decimals (the table holds cents). Column titles in
English or Italian (``language``).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from dealer_assist.errors import ConfigError
from dealer_assist.games import get_pot_game
from dealer_assist.tournament.results import ResultsTable
from ui.export_files import ExportError
from ui.export_files import escape as _escape
from ui.export_files import replace_file as _replace

TITLES = {
    "en": ("Place", "Player", "Prize", "Special prizes", "Paid", "Rebuys", "Add-on"),
    "it": ("Posizione", "Giocatore", "Premio", "Premi speciali", "Pagato", "Re-buy", "Add-on"),
}
HEADINGS = {
    "en": {
        "entrants": "Entrants",
        "rebuys": "Rebuys",
        "addons": "Add-ons",
        "fees": "Fees",
        "pool": "Prize pool",
        "yes": "yes",
        "in_play": "in play",
        "special": "Special prizes",
    },
    "it": {
        "entrants": "Iscritti",
        "rebuys": "Re-buy",
        "addons": "Add-on",
        "fees": "Diritti di partecipazione",
        "pool": "Montepremi",
        "yes": "sì",
        "in_play": "in gioco",
        "special": "Premi speciali",
    },
}


def game_name(code: str) -> str:
    """The pot game's title from its plug-in (``Seven Card Stud``); an unknown code as given."""
    try:
        return get_pot_game(code).title
    except ConfigError:
        return code


#: hand categories in Italian as rules text 002 names them (English: the code, spaced)
CATEGORIES_IT = {
    "royal_flush": "scala reale",
    "straight_flush": "scala colore",
    "four_of_a_kind": "poker",
    "full_house": "full",
    "flush": "colore",
    "straight": "scala",
    "three_of_a_kind": "tris",
    "two_pair": "doppia coppia",
    "pair": "coppia",
    "high_card": "carta più alta",
}


def category_name(code: str, language: str = "en") -> str:
    """``royal_flush`` -> ``royal flush`` (en) / ``scala reale`` (it)."""
    if language == "it":
        return CATEGORIES_IT.get(code, code.replace("_", " "))
    return code.replace("_", " ")


def money(cents: int) -> str:
    """``123456`` -> ``'1234.56'`` (euros, two decimals, no separator: spreadsheets read it)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def rows(table: ResultsTable, language: str = "en") -> list[list[str]]:
    """The results as text rows, titles first: place (``=`` before a shared one), player, prize,
    special prizes, paid (euros), rebuys, add-on."""
    h = HEADINGS[_lang(language)]
    out = [list(TITLES[_lang(language)])]
    for r in table.rows:
        place = f"={r.place}" if r.shared > 1 else str(r.place)
        if r.in_play:
            place = f"{place} ({h['in_play']})"
        out.append(
            [
                place,
                r.player,
                money(r.prize_cents),
                money(r.special_cents),
                money(r.paid_cents),
                str(r.rebuys),
                h["yes"] if r.addon else "",
            ]
        )
    return out


def _lang(language: str) -> str:
    if language not in TITLES:
        raise ExportError(f"language must be one of {', '.join(TITLES)}, got {language!r}")
    return language


def write_csv(table: ResultsTable, path: str | Path, *, language: str = "en") -> Path:
    """The results as CSV (UTF-8, comma separated, a header row). Returns the path written.

    Raises:
        ExportError: the file could not be written.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows(table, language))
    data = buf.getvalue().encode("utf-8")
    return _replace(Path(path), lambda f: f.write(data))


def write_pdf(
    table: ResultsTable, path: str | Path, *, language: str = "en", compress: bool = True
) -> Path:
    """The results as a one-table A4 PDF: the tournament's name and game, entrants, rebuys,
    add-ons, fees, the prize pool, the ranking, the special prizes. Returns the path written.

    Raises:
        ExportError: the file could not be written, or reportlab failed.
    """
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    lang = _lang(language)
    h = HEADINGS[lang]
    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf, pagesize=A4, title=table.name, pageCompression=int(compress), invariant=1
    )
    summary = (
        f"{h['entrants']}: {table.entrants} &nbsp; {h['rebuys']}: {table.rebuys} &nbsp; "
        f"{h['addons']}: {table.addons} &nbsp; {h['fees']}: EUR {money(table.fees_cents)}"
        f" &nbsp; {h['pool']}: EUR {money(table.pool_cents)}"
    )
    grid = Table(rows(table, lang), repeatRows=1, hAlign="LEFT")
    grid.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("ALIGN", (2, 1), (5, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
            ]
        )
    )
    story = [
        Paragraph(_escape(table.name), styles["Title"]),
        Paragraph(game_name(table.game), styles["Heading2"]),
        Paragraph(summary, styles["Normal"]),
        Spacer(1, 12),
        grid,
    ]
    if table.specials:
        story += [Spacer(1, 12), Paragraph(h["special"], styles["Heading3"])]
        story += [
            Paragraph(
                _escape(
                    f"{a.player}: {category_name(a.category, lang)} ({a.hand}), "
                    f"EUR {money(a.cents)}"
                ),
                styles["Normal"],
            )
            for a in table.specials
        ]
    try:
        doc.build(story)
    except Exception as e:  # reportlab raises plain exceptions of its own
        raise ExportError(f"{path}: the PDF could not be made: {e}") from e
    data = buf.getvalue()
    return _replace(Path(path), lambda f: f.write(data))
