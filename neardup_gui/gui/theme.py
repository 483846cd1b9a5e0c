"""Light or dark: Fusion with a palette that follows the desktop's colour scheme, or the one chosen in
Preferences; legible in both (WCAG AA: quiet text 4.5:1, a check box's outline 3:1, tests/gui/test_theme.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget


def mixed(a: QColor, b: QColor, share_of_a: float) -> QColor:
    """``a`` and ``b`` mixed, ``share_of_a`` of ``a``."""
    k = share_of_a
    return QColor(
        round(a.red() * k + b.red() * (1 - k)),
        round(a.green() * k + b.green() * (1 - k)),
        round(a.blue() * k + b.blue() * (1 - k)),
    )


def quiet_text(palette: QPalette) -> QColor:
    """Text that says less than the text beside it (hints, the experts' numbers) and is still read
    easily: 4.5:1 or more against the window in both palettes."""
    return mixed(palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window), 0.65)


class OutlinedStyle(QProxyStyle):
    """Fusion, with check boxes outlined in a colour that stands out: Fusion draws their edge in the
    window's colour darkened, which a dark palette's base swallows (unticked boxes were invisible) and a
    light one's shows at 2.3:1."""

    def drawPrimitive(  # noqa: N802 - Qt's name
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element is QStyle.PrimitiveElement.PE_IndicatorCheckBox:  # item views' checks come here too
            palette = option.palette
            edge = mixed(palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base), 0.5)
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(QPen(edge, 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()


def system_is_dark() -> bool:
    """Whether the desktop asks for dark (Qt >= 6.5 reports it; older Qt: light)."""
    hints = QGuiApplication.styleHints()
    return bool(getattr(hints, "colorScheme", None) and hints.colorScheme() == Qt.ColorScheme.Dark)


def apply_colour_scheme(theme: str = "system") -> None:
    """Fusion, with a dark palette for "dark", or for "system" when the desktop asks for dark."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    app.setStyle(OutlinedStyle("Fusion"))
    dark = theme == "dark" or (theme not in ("light", "dark") and system_is_dark())
    if not dark:
        light = app.style().standardPalette()
        light.setColor(QPalette.ColorRole.PlaceholderText, quiet_text(light))
        app.setPalette(light)
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
        (QPalette.ColorRole.Link, "#8fb0ff"),
    ):
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b7280"))
    p.setColor(QPalette.ColorRole.PlaceholderText, quiet_text(p))
    app.setPalette(p)
