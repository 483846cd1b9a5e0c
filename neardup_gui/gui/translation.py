"""The app's language: chosen in Preferences or taken from the system, loaded into Qt at start.

neardup's own catalogue (``resources/translations/neardup_<language>.qm``) and Qt's
(``qtbase_<language>.qm``, shipped in the PySide6 wheel: the buttons of standard dialogs) are installed
into the application, and the engine is told to translate through Qt too (``core.i18n``), so the
window, its dialogs, the controller's messages and the HTML report all speak one language.
"""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from ..core import i18n
from ..core.i18n import QT_TRANSLATE_NOOP

QT_WORDS = (  # Qt's own words its catalogues lack (Qt 6's file dialog); lupdate reads them here, Qt asks by text
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Choose"),
)


def system_language() -> str:
    """The language of the desktop's locale (first of its UI languages)."""
    languages = QLocale.system().uiLanguages()
    return i18n.language_of_locale(languages[0] if languages else QLocale.system().name())


def chosen_language(preference: str) -> str:
    """The language to speak: the one chosen in Preferences, or the system's ("" or unknown)."""
    return preference if preference in i18n.LANGUAGES else system_language()


_installed: list[QTranslator] = []


def install_language(app: QCoreApplication, language: str) -> None:
    """Load ``language`` into ``app`` (the app's catalogue, then Qt's own, replacing those loaded
    before) and into the engine. Widgets made afterwards speak it. Qt asks the last installed first: its
    own words come from its catalogue, and from ours where it has none (QT_WORDS)."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    translators: list[QTranslator] = []
    folder = resources.files("neardup_gui.resources") / "translations"
    with resources.as_file(folder / f"neardup_{language}.qm") as ours:
        translator = QTranslator(app)
        if translator.load(str(ours)):
            translators.append(translator)
    qt = QTranslator(app)
    if language != i18n.SOURCE_LANGUAGE and qt.load(
        f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    ):
        translators.append(qt)
    for translator in translators:
        app.installTranslator(translator)
    _installed.extend(translators)
    i18n.set_language(language)
    i18n.use_translator(QCoreApplication.translate)
