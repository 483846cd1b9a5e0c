"""What the window shows as chosen but applies only at the next scan, said under the thresholds while it
waits (controller.rescan_reasons), with Scan Again beside it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QStyle, QWidget


class RescanNote(QFrame):
    """One sentence a setting that waits for a scan, and a button that starts it (the Scan action's:
    actions.py); hidden while nothing waits."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)  # set apart from the controls above, in either palette
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        icon = QLabel(self)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation).pixmap(size, size))
        self.text = QLabel(self)
        self.text.setWordWrap(True)  # a narrow window, or Chinese: the sentences wrap, the window does not widen
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scan_button = QPushButton(self.tr("Scan Again"), self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.scan_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.setAccessibleName(self.tr("Settings that apply at the next scan"))
        self.hide()

    def show_reasons(self, reasons: Sequence[str]) -> None:
        """Say ``reasons`` (a sentence each), or hide when there are none."""
        self.text.setText("\n".join(reasons))
        self.setVisible(bool(reasons))
