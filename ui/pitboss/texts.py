"""Words of the pit-boss screens that are data (roles, statuses, alert kinds, card sources,
the search's column titles),
marked for translation; :func:`tr` translates them in the context ``PitBoss``."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

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


def tr(text: str) -> str:
    """``text`` in the installed language (unchanged when there is no translation)."""
    return QCoreApplication.translate(CONTEXT, text)
