"""Start the desktop app: QApplication, icon, palette that follows the system's light/dark setting."""

from __future__ import annotations

import sys
from importlib import resources

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from .. import __version__
from .main_window import MainWindow


def app_icon() -> QIcon:
    with resources.as_file(resources.files("neardup_gui.resources") / "neardup.svg") as path:
        return QIcon(str(path))


def apply_colour_scheme(app: QApplication) -> None:
    """Fusion, with a dark palette when the system asks for dark (Qt >= 6.5 reports it)."""
    app.setStyle("Fusion")
    hints = QGuiApplication.styleHints()
    dark = getattr(hints, "colorScheme", None) and hints.colorScheme() == Qt.ColorScheme.Dark
    if not dark:
        return
    p = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#1f2227"), (QPalette.ColorRole.WindowText, "#e6e9ef"),
        (QPalette.ColorRole.Base, "#16191f"), (QPalette.ColorRole.AlternateBase, "#1e222a"),
        (QPalette.ColorRole.Text, "#e6e9ef"), (QPalette.ColorRole.Button, "#2a2e36"),
        (QPalette.ColorRole.ButtonText, "#e6e9ef"), (QPalette.ColorRole.Highlight, "#3d6fe0"),
        (QPalette.ColorRole.HighlightedText, "#ffffff"), (QPalette.ColorRole.ToolTipBase, "#2a2e36"),
        (QPalette.ColorRole.ToolTipText, "#e6e9ef"), (QPalette.ColorRole.PlaceholderText, "#8a93a5"),
        (QPalette.ColorRole.Link, "#8fb0ff"),
    ):
        p.setColor(role, QColor(colour))
    app.setPalette(p)


GUI_SWITCH_INTERVAL = 0.001
"""Seconds a Python thread holds the GIL before another may run (Python's default is 0.005). Jobs such
as a pair's comparison run in Python threads; every item the GUI thread paints calls Python and must
wait for the GIL, so at the default a screen of the pair view took 0.8 s to paint while a 1 MB pair was
compared beside it, and 0.2 s at 1 ms (tests/bench/pair_view --gui)."""


def create_app(argv: list[str]) -> QApplication:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *argv])
    app.setApplicationName("neardup")
    app.setOrganizationName("neardup")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("neardup")
    app.setWindowIcon(app_icon())
    apply_colour_scheme(app)
    return app


def run(argv: list[str]) -> int:
    """`neardup-gui [FOLDER...]`: folders given are added to the folder list."""
    app = create_app(argv)
    window = MainWindow(QSettings(), folders=[a for a in argv if not a.startswith("-")])
    window.show()
    return app.exec()
