"""Language of the console: Qt translators for ``it`` (``ui/i18n/console_it.qm``) or English
(the source texts)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

from dealer_assist.errors import ConfigError
from ui.kit import format as fmt

LANGUAGES = ("it", "en")


def qm_path(lang: str) -> Path:
    """Path of the compiled translation of ``lang``."""
    return Path(str(resources.files("ui").joinpath("i18n", f"console_{lang}.qm")))


def install_language(app: QCoreApplication, lang: str) -> list[QTranslator]:
    """Install the translators of ``lang`` on ``app`` and set the number format.

    Returns the translators (keep them alive as long as the application).
    Raises ConfigError for a language other than ``it``/``en`` or a missing ``.qm``.
    """
    if lang not in LANGUAGES:
        raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    fmt.set_language(lang)
    if lang == "en":
        return []
    out = []
    console = QTranslator(app)
    path = qm_path(lang)
    if not console.load(str(path)):
        raise ConfigError(f"translation file missing or unreadable: {path}")
    app.installTranslator(console)
    out.append(console)
    qt = QTranslator(app)  # Qt's own texts (standard buttons); optional
    if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        out.append(qt)
    return out
