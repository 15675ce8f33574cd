"""Words of the pit-boss screens that are data (roles, statuses, alert kinds, card sources,
the search's column titles),
marked for translation; :func:`tr` translates them in the context ``PitBoss``."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QTableView

from ui.money import fmt_money

CONTEXT = "PitBoss"

WORDS = (
    QT_TRANSLATE_NOOP("PitBoss", "dealer"),
    QT_TRANSLATE_NOOP("PitBoss", "pit_boss"),
    QT_TRANSLATE_NOOP("PitBoss", "shift_manager"),
    QT_TRANSLATE_NOOP("PitBoss", "auditor"),
    QT_TRANSLATE_NOOP("PitBoss", "dealing"),
    QT_TRANSLATE_NOOP("PitBoss", "faulted"),
    QT_TRANSLATE_NOOP("PitBoss", "void_alarm"),
    QT_TRANSLATE_NOOP("PitBoss", "offline"),
    QT_TRANSLATE_NOOP("PitBoss", "void"),
    QT_TRANSLATE_NOOP("PitBoss", "settled"),
    QT_TRANSLATE_NOOP("PitBoss", "device_fault"),
    QT_TRANSLATE_NOOP("PitBoss", "link_lost"),
    QT_TRANSLATE_NOOP("PitBoss", "identity_changed"),
    QT_TRANSLATE_NOOP("PitBoss", "chain_break"),
    QT_TRANSLATE_NOOP("PitBoss", "tampered"),
    QT_TRANSLATE_NOOP("PitBoss", "gap"),
    QT_TRANSLATE_NOOP("PitBoss", "tamper_alert"),
    QT_TRANSLATE_NOOP("PitBoss", "key_changed"),
    QT_TRANSLATE_NOOP("PitBoss", "foreign_record"),
    QT_TRANSLATE_NOOP("PitBoss", "journal_behind"),
    QT_TRANSLATE_NOOP("PitBoss", "bad_checkpoint"),
    QT_TRANSLATE_NOOP("PitBoss", "signer_rewound"),
    QT_TRANSLATE_NOOP("PitBoss", "Integrity alert"),
    QT_TRANSLATE_NOOP(
        "PitBoss", "Open integrity alert: %1. These records are not proven as they stand"
    ),
    QT_TRANSLATE_NOOP("PitBoss", "reader"),
    QT_TRANSLATE_NOOP("PitBoss", "camera"),
    QT_TRANSLATE_NOOP("PitBoss", "keypad"),
    QT_TRANSLATE_NOOP("PitBoss", "manual_card"),
    QT_TRANSLATE_NOOP("PitBoss", "camera_card"),
    QT_TRANSLATE_NOOP("PitBoss", "Hand"),
    QT_TRANSLATE_NOOP("PitBoss", "Recorded (UTC)"),
    QT_TRANSLATE_NOOP("PitBoss", "Game"),
    QT_TRANSLATE_NOOP("PitBoss", "Outcome"),
    QT_TRANSLATE_NOOP("PitBoss", "Top payout or pot"),
    QT_TRANSLATE_NOOP("PitBoss", "Wagered"),
    QT_TRANSLATE_NOOP("PitBoss", "Seats"),
    QT_TRANSLATE_NOOP("PitBoss", "Flags"),
    QT_TRANSLATE_NOOP("PitBoss", "Void reason"),
    QT_TRANSLATE_NOOP("PitBoss", "Table"),
)


#: How an open integrity alert looks wherever it is shown (tile, rows, hand screen).
ALERT_COLOUR = "#e06666"
ALERT_STYLE = f"background: {ALERT_COLOUR}; color: white; font-weight: bold; padding: 4px"


def tr(text: str) -> str:
    """``text`` in the installed language (unchanged when there is no translation)."""
    return QCoreApplication.translate(CONTEXT, text)


def alert_sentence(alerts: object) -> str:
    """The banner over a hand covered by open integrity alerts (``AlertRow`` items): their
    kinds, each with its table and position; empty for none."""
    items = [
        f"{tr(a.kind)} ({a.table_id or '*'}{'' if a.position is None else f' #{a.position}'})"
        for a in alerts  # type: ignore[attr-defined]
    ]
    if not items:
        return ""
    return tr("Open integrity alert: %1. These records are not proven as they stand").replace(
        "%1", ", ".join(items)
    )


def euros(minor: int) -> str:
    """An amount in a column titled in EUR: ``123456`` -> ``1,234.56`` (the one unit of the
    window: every amount is euros, the title or the text says so)."""
    return fmt_money(minor, "").strip()


HEADER_PAD = 28
"""Room beside a column title: the header's margins and the sort arrow."""


def fit_columns(view: QTableView) -> None:
    """Size ``view``'s columns to their contents and never narrower than their title (so no
    title is cut; a table wider than its view scrolls)."""
    view.resizeColumnsToContents()
    header = view.horizontalHeader()
    model = view.model()
    if model is None:
        return
    fm = header.fontMetrics()
    for i in range(model.columnCount()):
        title = str(model.headerData(i, Qt.Orientation.Horizontal) or "")
        need = fm.horizontalAdvance(title) + HEADER_PAD
        if header.sectionSize(i) < need:
            header.resizeSection(i, need)
