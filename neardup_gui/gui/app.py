"""Start the desktop app: QApplication, its language, icon, and a palette that follows the system's
light/dark setting or the one chosen in Preferences."""

from __future__ import annotations

import sys
from importlib import resources

from PySide6.QtCore import QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from .. import __version__
from .main_window import MainWindow
from .theme import apply_colour_scheme
from .translation import chosen_language, install_language


def app_icon() -> QIcon:
    with resources.as_file(resources.files("neardup_gui.resources") / "neardup.svg") as path:
        return QIcon(str(path))


GUI_SWITCH_INTERVAL = 0.001
"""Seconds a Python thread holds the GIL before another may run (Python's default is 0.005). Jobs such
as a pair's comparison run in Python threads; every item the GUI thread paints calls Python and must
wait for the GIL, so at the default a screen of the pair view took 0.8 s to paint while a 1 MB pair was
compared beside it, and 0.2 s at 1 ms (tests/bench/pair_view --gui)."""


def create_app(argv: list[str], language: str = "", theme: str = "system") -> QApplication:
    """The application, speaking ``language`` (a key of ``core.i18n.LANGUAGES``; "" for the system's)."""
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *argv])
    install_language(app, chosen_language(language))
    app.setApplicationName("neardup")
    app.setOrganizationName("neardup")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("neardup")
    app.setWindowIcon(app_icon())
    apply_colour_scheme(theme)
    return app


def split_arguments(argv: list[str]) -> tuple[list[str], str | None]:
    """(folders, database) of `neardup-gui [--db FILE] [FOLDER...]`; Qt's own options (-style…) left out."""
    folders: list[str] = []
    database = None
    args = iter(argv)
    for arg in args:
        if arg == "--db":
            database = next(args, None)
        elif arg.startswith("--db="):
            database = arg[len("--db=") :]
        elif not arg.startswith("-"):
            folders.append(arg)
    return folders, database or None


def run(argv: list[str]) -> int:
    """`neardup-gui [--db FILE] [FOLDER...]`: folders given are added to the folder list; --db opens another
    database for this run (a Spark result loaded by `neardup import-spark`, say)."""
    remembered = QSettings("neardup", "neardup")
    app = create_app(
        argv,
        language=str(remembered.value("language", "") or ""),
        theme=str(remembered.value("theme", "system") or "system"),
    )
    folders, database = split_arguments(argv)
    window = MainWindow(QSettings(), folders=folders, database=database)
    window.show()
    return app.exec()
