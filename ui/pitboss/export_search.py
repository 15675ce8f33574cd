"""The hand search's results as a file: CSV (``csv``) or an A4 landscape PDF (reportlab), the
columns of the window's table with amounts in euros, written whole through a temporary file
(0600, :func:`ui.export_files.replace_file`). The window's *Export* menu calls them through the
session (role checked, the export logged with the file's SHA-256)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from dealer_assist.pitboss.filters import HandRow
from ui.export_files import ExportError
from ui.export_files import escape as _escape
from ui.export_files import replace_file as _replace
from ui.pitboss.export import money

COLUMNS = (
    "Table",
    "Hand",
    "Recorded (UTC)",
    "Game",
    "Dealer badge",
    "Outcome",
    "Top payout or pot (EUR)",
    "Wagered (EUR)",
    "Seats",
    "Flags",
    "Void reason",
    "Integrity alert",
)


def search_grid(rows: Sequence[HandRow]) -> list[list[str]]:
    """The rows as text, titles first (amounts as ``1234.50`` euros)."""
    out = [list(COLUMNS)]
    for r in rows:
        out.append(
            [
                r.table_id,
                str(r.position),
                r.recorded_at.strftime("%Y-%m-%d %H:%M:%S"),
                r.game,
                r.dealer or "",
                r.status,
                "" if r.top_amount is None else money(r.top_amount),
                "" if r.wagered is None else money(r.wagered),
                " ".join(map(str, r.seats)),
                ", ".join(r.flags),
                r.void_reason or "",
                ", ".join(r.alerts),
            ]
        )
    return out


def write_search(rows: Sequence[HandRow], path: str | Path, title: str) -> Path:
    """Write ``rows`` to ``path`` as ``.csv`` or ``.pdf`` (by its suffix; ``title`` heads the
    PDF: who, when, the filter). Raises ExportError for another suffix or a failed write."""
    p = Path(path)
    suffix = p.suffix.lower()
    grid = search_grid(rows)
    if suffix == ".csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(grid)
        data = buf.getvalue().encode("utf-8")
    elif suffix == ".pdf":
        data = _pdf(grid, title, p)
    else:
        raise ExportError(f"{p}: the search is exported as .csv or .pdf, not {suffix or 'none'}")
    return _replace(p, lambda f: f.write(data))


def _pdf(grid: list[list[str]], title: str, path: Path) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf, pagesize=landscape(A4), title="Hand search", invariant=1, leftMargin=20, rightMargin=20
    )
    table = Table(grid, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 6.5),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("ALIGN", (6, 1), (7, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
            ]
        )
    )
    for i, row in enumerate(grid[1:], start=1):
        if row[-1]:  # a hand an open integrity alert covers
            table.setStyle(
                TableStyle([("BACKGROUND", (0, i), (-1, i), colors.HexColor("#e06666"))])
            )
    story = [
        Paragraph("Hand search", styles["Title"]),
        Paragraph(_escape(title), styles["Normal"]),
        Spacer(1, 8),
        table,
    ]
    try:
        doc.build(story)
    except Exception as e:  # reportlab raises plain exceptions of its own
        raise ExportError(f"{path}: the PDF could not be made: {e}") from e
    return buf.getvalue()
