"""The consoles' translation calls (see :mod:`ui.console.texts` for how lupdate collects them).

``tr``/``trf`` translate in the default, empty context, where ``ui/i18n/console_it.ts`` keeps the
console's Italian; every text module of the console and the poker console calls them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

CONTEXT = ""  # lupdate files bare tr() calls under the empty context


def tr(text: object) -> str:
    """``text`` translated (the literal must be visible to lupdate, see the module doc)."""
    return QCoreApplication.translate(CONTEXT, str(text))


def trf(text: str, *args: object) -> str:
    """``tr(text)`` with ``%1``, ``%2``... replaced by ``args`` (Qt's placeholder style)."""
    out = tr(text)
    for i in range(len(args), 0, -1):  # %10 before %1
        out = out.replace(f"%{i}", str(args[i - 1]))
    return out
