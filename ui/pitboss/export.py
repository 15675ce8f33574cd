"""The shift report: per table its hands, drop, win, hold, theoretical hold and alerts, as CSV
(``csv``) or PDF (reportlab), signed with a detached ``FILE.sig``
(docs/STATISTICS.md, docs/AUDIT.md).

The report is built from any :class:`~dealer_assist.audit.stats.StatsSource` (a table's journal
or the floor); the theoretical hold of each table's game is the simulated main-game hold
(:func:`dealer_assist.games.hold.main_game_hold`) with its band for the table's hands; a hold
outside the band is the table's alert. Files are written beside the target and renamed into
place (nothing half-written), then signed; ``dealer-assist audit verify-export`` checks them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.audit.stats import StatsRow, StatsSource, variance_alerts
from dealer_assist.events import iso_utc
from dealer_assist.games.hold import Estimate, main_game_hold
from dealer_assist.pitboss.filters import AlertRow, is_open_integrity
from dealer_assist.storage.signed_export import sign_export
from dealer_assist.storage.signing import Signer
from ui.export_files import ExportError
from ui.export_files import escape as _escape
from ui.export_files import replace_file as _replace

if TYPE_CHECKING:
    from dealer_assist.storage.floor.checkpoints import TableWitness

COLUMNS = {
    "en": (
        "Table",
        "Game",
        "Hands",
        "Hands/h",
        "Drop",
        "Win",
        "Hold",
        "Theoretical hold",
        "95% band",
        "Alerts",
    ),
    "it": (
        "Tavolo",
        "Gioco",
        "Mani",
        "Mani/ora",
        "Drop",
        "Vincita",
        "Hold",
        "Hold teorico",
        "Banda 95%",
        "Allarmi",
    ),
}
HEADINGS = {
    "en": {
        "title": "Shift report",
        "from": "From",
        "to": "To",
        "source": "Source",
        "total": "Total",
        "alert": "hold outside its 95% band",
        "none": "none",
        "sim": "Theoretical hold: simulated main game, %1 hands, seed %2 (95% interval)",
        "witnessed": "witnessed",
        "not": "%1 not witnessed",
        "no_floor": "no floor: not witnessed",
        "no_cp": "none",
        "floor_cps": "Floor checkpoints (the signer's head the floor holds at the end)",
        "cp": "position %1, hash %2, key %3, signed %4, received %5",
    },
    "it": {
        "title": "Rapporto di turno",
        "from": "Dal",
        "to": "Al",
        "source": "Origine",
        "total": "Totale",
        "alert": "hold fuori dalla sua banda al 95%",
        "none": "nessuno",
        "sim": "Hold teorico: gioco principale simulato, %1 mani, seme %2 (intervallo al 95%)",
        "witnessed": "attestato",
        "not": "%1 non attestati",
        "no_floor": "nessun floor: non attestato",
        "no_cp": "nessuno",
        "floor_cps": "Checkpoint del floor (la testa del firmatario che il floor ha alla fine)",
        "cp": "posizione %1, hash %2, chiave %3, firmato %4, ricevuto %5",
    },
}
#: the floor's witness of each table, before the alerts: short in the PDF's grid, in full
#: (the whole hash and signature, to check against the table's key) in the CSV
WITNESS_COLUMNS = {
    "en": (
        ("Checkpoint", "Witness"),
        (
            "Checkpoint position",
            "Checkpoint hash",
            "Checkpoint signature",
            "Checkpoint key id",
            "Checkpoint signed at",
            "Checkpoint received at",
            "Witness",
        ),
    ),
    "it": (
        ("Checkpoint", "Attestazione"),
        (
            "Posizione checkpoint",
            "Hash checkpoint",
            "Firma checkpoint",
            "Chiave checkpoint",
            "Checkpoint firmato",
            "Checkpoint ricevuto",
            "Attestazione",
        ),
    ),
}


@dataclass(frozen=True)
class ReportRow:
    """One table of the report: its figures, the theoretical hold and band (``None`` for a
    game without one), and the alert sentences."""

    stats: StatsRow
    theoretical: Fraction | None
    band: tuple[float, float] | None
    alerts: tuple[str, ...] = ()
    integrity: tuple[str, ...] = ()
    """The kinds of the open integrity alerts of this table (a tampered chain, a key...)."""
    witness: TableWitness | None = None
    """The floor's latest checkpoint of the table and its records witnessed (``None``: one
    journal, no floor to witness it)."""


@dataclass(frozen=True)
class ShiftReport:
    """A shift report over ``[start, end)`` of ``source`` (a path or the floor's name)."""

    start: datetime
    end: datetime
    source: str
    rows: tuple[ReportRow, ...]
    sim_hands: int
    sim_seed: int
    totals: StatsRow | None = field(default=None)
    integrity: tuple[str, ...] = ()
    """Every open integrity alert as a sentence (those of no table too)."""

    @property
    def alert_sentences(self) -> list[str]:
        """Every alert of the report: the holds outside their band, then the integrity
        alerts (empty only when there are none: the report says "none" then)."""
        return [a for r in self.rows for a in r.alerts] + list(self.integrity)


def build_report(
    source: StatsSource,
    start: datetime,
    end: datetime,
    name: str,
    *,
    pit: str | None = None,
    sim_hands: int = 20_000,
    sim_seed: int = 1,
    theory: Callable[[str], Estimate | None] | None = None,
    integrity: Sequence[AlertRow] = (),
    witness: Callable[[str], TableWitness] | None = None,
) -> ShiftReport:
    """The report of every table in ``source`` over ``[start, end)`` (of ``pit`` when given),
    with the open integrity alerts of ``integrity`` (:data:`INTEGRITY_ALERTS` kinds, not
    acknowledged) on their tables' rows and in the report's alerts, and each table's
    ``witness(table_id)`` (the floor's :meth:`~dealer_assist.storage.floor.Floor.witness` over
    the range; ``None``: one journal, "no floor: not witnessed").

    Raises:
        DealerAssistError: the source cannot be read (JournalError, FloorError).
    """

    def simulated(game: str) -> Estimate | None:
        return main_game_hold(game, sim_hands, sim_seed)

    theory = theory or simulated
    rows = source.stats(start, end, ("table",), pit=pit)
    alerts = {a.row.key: a for a in variance_alerts(rows, theory)}
    open_ = [a for a in integrity if is_open_integrity(a)]
    out = []
    for row in rows:
        est = theory(row.games[0]) if len(row.games) == 1 else None
        alert = alerts.get(row.key)
        kinds = tuple(sorted({a.kind for a in open_ if a.table_id in (None, row.key[0])}))
        out.append(
            ReportRow(
                row,
                est.hold if est else None,
                est.band(row.hands) if est else None,
                (alert.sentence(),) if alert else (),
                kinds,
                witness(row.key[0]) if witness else None,
            )
        )
    totals = None
    if rows:
        totals = StatsRow(
            ("table",),
            ("",),
            tuple(sorted({g for r in rows for g in r.games})),
            sum(r.hands for r in rows),
            sum(r.drop for r in rows),
            sum(r.win for r in rows),
            min(r.first for r in rows),
            max(r.last for r in rows),
        )
    sentences = tuple(_integrity_sentence(a) for a in open_)
    return ShiftReport(start, end, name, tuple(out), sim_hands, sim_seed, totals, sentences)


def _integrity_sentence(a: AlertRow) -> str:
    where = a.table_id or "every table"
    at = "" if a.position is None else f" at position {a.position}"
    since = iso_utc(a.raised_at)
    return f"integrity alert {a.kind}: table {where}{at}: {a.detail} (open since {since})"


def money(cents: int) -> str:
    """``123456`` -> ``'1234.56'`` (euros, two decimals: spreadsheets read it)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def percent(value: Fraction | float) -> str:
    """``Fraction(1, 40)`` -> ``'2.50%'``."""
    return f"{float(value) * 100:.2f}%"


def _lang(language: str) -> str:
    if language not in COLUMNS:
        raise ExportError(f"language must be one of {', '.join(COLUMNS)}, got {language!r}")
    return language


def witness_text(w: TableWitness | None, language: str = "en") -> str:
    """``'witnessed'``, ``'3 not witnessed'`` or ``'no floor: not witnessed'``."""
    h = HEADINGS[_lang(language)]
    if w is None:
        return h["no_floor"]
    return h["witnessed"] if w.not_witnessed == 0 else h["not"].replace("%1", str(w.not_witnessed))


def _witness_cells(w: TableWitness | None, lang: str, full: bool) -> list[str]:
    cp = w.checkpoint if w is not None else None
    status = witness_text(w, lang)
    if not full:
        return [f"{cp.position} {cp.hash[:8]}…" if cp else HEADINGS[lang]["no_cp"], status]
    if cp is None:
        return ["", "", "", "", "", "", status]
    return [
        str(cp.position),
        cp.hash,
        cp.signature or "",
        cp.key_id or "",
        cp.signed_at or "",
        iso_utc(cp.received_at),
        status,
    ]


def table_rows(report: ShiftReport, language: str = "en", *, full: bool = False) -> list[list[str]]:
    """The report's grid as text, titles first, a total row last; ``full``: the witness
    columns in full (the CSV), else short (the PDF's grid)."""
    lang = _lang(language)
    h = HEADINGS[lang]
    wcols = WITNESS_COLUMNS[lang][1 if full else 0]
    out = [[*COLUMNS[lang][:-1], *wcols, COLUMNS[lang][-1]]]
    blank = [""] * len(wcols)
    for r in report.rows:
        s = r.stats
        out.append(
            [
                s.key[0],
                ", ".join(s.games),
                str(s.hands),
                s.hands_per_hour_text(),
                money(s.drop),
                money(s.win),
                percent(s.hold),
                percent(r.theoretical) if r.theoretical is not None else "",
                f"{percent(r.band[0])} .. {percent(r.band[1])}" if r.band else "",
                *_witness_cells(r.witness, lang, full),
                "; ".join(([h["alert"]] if r.alerts else []) + list(r.integrity)),
            ]
        )
    t = report.totals
    everywhere = "; ".join(report.integrity) if report.integrity else ""
    if t is not None:
        out.append(
            [
                h["total"],
                ", ".join(t.games),
                str(t.hands),
                t.hands_per_hour_text(),
                money(t.drop),
                money(t.win),
                percent(t.hold),
                "",
                "",
                *blank,
                everywhere,
            ]
        )
    elif everywhere:
        out.append([h["total"], "", "0", "", "", "", "", "", "", *blank, everywhere])
    return out


def write_csv(report: ShiftReport, path: str | Path, *, language: str = "en") -> Path:
    """The report as CSV (UTF-8, a header row, one row per table, the total). Raises
    ExportError."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(table_rows(report, language, full=True))
    data = buf.getvalue().encode("utf-8")
    return _replace(Path(path), lambda f: f.write(data))


def write_pdf(report: ShiftReport, path: str | Path, *, language: str = "en") -> Path:
    """The report as an A4 landscape PDF: the range and source, the grid, the alerts in full,
    how the theoretical hold was made. Raises ExportError."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    lang = _lang(language)
    h = HEADINGS[lang]
    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=landscape(A4), title=h["title"], invariant=1)
    grid = Table(table_rows(report, lang), repeatRows=1, hAlign="LEFT")
    grid.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 8),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("ALIGN", (2, 1), (8, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
            ]
        )
    )
    head = (
        f"{h['from']} {iso_utc(report.start)} &nbsp; {h['to']} {iso_utc(report.end)} "
        f"&nbsp; {h['source']}: {_escape(report.source)}"
    )
    sim = h["sim"].replace("%1", str(report.sim_hands)).replace("%2", str(report.sim_seed))
    story = [
        Paragraph(h["title"], styles["Title"]),
        Paragraph(head, styles["Normal"]),
        Spacer(1, 10),
        grid,
        Spacer(1, 10),
        Paragraph(sim, styles["Normal"]),
    ]
    story += [Spacer(1, 6), Paragraph(h["floor_cps"], styles["Heading3"])]
    story += [
        Paragraph(
            _escape(f"{r.stats.key[0]}: {_checkpoint_line(r.witness, lang)}"), styles["Normal"]
        )
        for r in report.rows
    ]
    alerts = report.alert_sentences
    story += [Spacer(1, 6), Paragraph(COLUMNS[lang][-1], styles["Heading3"])]
    story += [Paragraph(_escape(a), styles["Normal"]) for a in alerts] or [
        Paragraph(h["none"], styles["Normal"])
    ]
    try:
        doc.build(story)
    except Exception as e:  # reportlab raises plain exceptions of its own
        raise ExportError(f"{path}: the PDF could not be made: {e}") from e
    data = buf.getvalue()
    return _replace(Path(path), lambda f: f.write(data))


def _checkpoint_line(w: TableWitness | None, lang: str) -> str:
    h = HEADINGS[lang]
    cp = w.checkpoint if w is not None else None
    if cp is None:
        return f"{h['no_cp']}; {witness_text(w, lang)}"
    line = (
        h["cp"]
        .replace("%1", str(cp.position))
        .replace("%2", f"{cp.hash[:16]}…")
        .replace("%3", cp.key_id or "-")
        .replace("%4", cp.signed_at or "-")
        .replace("%5", iso_utc(cp.received_at))
    )
    return f"{line}; {witness_text(w, lang)}"


def export_report(
    report: ShiftReport,
    path: str | Path,
    signer: Signer,
    signer_name: str,
    *,
    language: str = "en",
) -> tuple[Path, Path]:
    """Write the report as ``.csv`` or ``.pdf`` (by ``path``'s suffix) and sign it with
    ``signer`` (the key of ``signer_name``: a table id or ``site``); ``(file, FILE.sig)``.

    Raises:
        ExportError: another suffix, or the file could not be written. JournalError: it
            could not be signed.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        write_csv(report, p, language=language)
    elif suffix == ".pdf":
        write_pdf(report, p, language=language)
    else:
        raise ExportError(f"{p}: the report is .csv or .pdf, not {suffix or 'no suffix'}")
    return p, sign_export(p, signer, signer_name)
