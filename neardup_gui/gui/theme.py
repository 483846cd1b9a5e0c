"""Light or dark: Fusion with a palette that follows the desktop's colour scheme, or the one chosen in
Preferences."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


def system_is_dark() -> bool:
    """Whether the desktop asks for dark (Qt >= 6.5 reports it; older Qt: light)."""
    hints = QGuiApplication.styleHints()
    return bool(getattr(hints, "colorScheme", None) and hints.colorScheme() == Qt.ColorScheme.Dark)


def apply_colour_scheme(theme: str = "system") -> None:
    """Fusion, with a dark palette for "dark", or for "system" when the desktop asks for dark."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    app.setStyle("Fusion")
    dark = theme == "dark" or (theme not in ("light", "dark") and system_is_dark())
    if not dark:
        app.setPalette(app.style().standardPalette())
        return
    p = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#1f2227"),
        (QPalette.ColorRole.WindowText, "#e6e9ef"),
        (QPalette.ColorRole.Base, "#16191f"),
        (QPalette.ColorRole.AlternateBase, "#1e222a"),
        (QPalette.ColorRole.Text, "#e6e9ef"),
        (QPalette.ColorRole.Button, "#2a2e36"),
        (QPalette.ColorRole.ButtonText, "#e6e9ef"),
        (QPalette.ColorRole.Highlight, "#3d6fe0"),
        (QPalette.ColorRole.HighlightedText, "#ffffff"),
        (QPalette.ColorRole.ToolTipBase, "#2a2e36"),
        (QPalette.ColorRole.ToolTipText, "#e6e9ef"),
        (QPalette.ColorRole.PlaceholderText, "#8a93a5"),
        (QPalette.ColorRole.Link, "#8fb0ff"),
    ):
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b7280"))
    app.setPalette(p)
