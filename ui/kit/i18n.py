"""Language of the console: Qt translators for ``it`` (``ui/i18n/console_it.qm``) or English
(the source texts)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

from dealer_assist.errors import ConfigError
from ui.kit import format as fmt

LANGUAGES = ("it", "en")

# every translator install_language put on an application, so that one call takes them all
# off again (a console closed and reopened in the same process, a test after another)
_installed: list[tuple[QCoreApplication, QTranslator]] = []


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
    _installed.extend((app, t) for t in out)
    return out


class ConsoleLanguage:
    """A console's language on the running Qt application, from its start until it closes
    (:func:`install_language` when made, :meth:`remove` when the console closes).

    Raises ConfigError when the Qt application does not exist yet (``ui.kit.boot.qt_app``), for
    a language other than ``it``/``en`` or a missing ``.qm``.
    """

    def __init__(self, lang: str) -> None:
        app = QCoreApplication.instance()
        if app is None:
            raise ConfigError("create the Qt application first (ui.kit.boot.qt_app)")
        self.lang = lang
        self.translators = install_language(app, lang)

    def remove(self) -> None:
        """Take this console's translators off the application (idempotent)."""
        app = QCoreApplication.instance()
        if app is not None:
            for t in self.translators:
                app.removeTranslator(t)
        self.translators = []


def reset_language() -> None:
    """Take off every translator :func:`install_language` installed and go back to English
    number formats. Safe to call when none is installed."""
    while _installed:
        app, translator = _installed.pop()
        app.removeTranslator(translator)
    fmt.set_language("en")
