"""What the window shows before there are results: what neardup does, and the one next step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class EmptyPage(QWidget):
    """A headline, a sentence for the situation (no folders, folders not scanned yet, scanning) and the
    buttons that move it on (Add folder…, Scan now)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        headline = QLabel("<h2>" + self.tr("Find duplicate documents") + "</h2>", self)
        headline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = QLabel(self)
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text.setWordWrap(True)
        self.text.setFixedWidth(560)  # a readable measure; fixed, so the wrapped height is right
        self.add_button = QPushButton(self.tr("Add folder…"), self)
        self.add_button.setToolTip(self.tr("Choose a folder of text files and PDFs to scan"))
        self.scan_button = QPushButton(self.tr("Scan now"), self)
        self.scan_button.setToolTip(self.tr("Scan the folders listed on the left (F5)"))

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.scan_button)
        buttons.addStretch(1)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(self.text)
        centred.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(headline)
        layout.addLayout(centred)
        layout.addLayout(buttons)
        layout.addStretch(3)

    def show_state(self, *, has_folders: bool, scanning: bool) -> None:
        """Say what happens next: add a folder, scan the folders listed, or wait for the scan."""
        if scanning:
            self.text.setText(
                self.tr(
                    "Scanning… the groups appear here when it is done. You can cancel at any time: "
                    "what was read is kept, and the next scan continues from there."
                )
            )
        elif has_folders:
            self.text.setText(
                self.tr(
                    "Ready to scan the folders on the left. Only files whose size or date changed are read again "
                    "next time."
                )
            )
        else:
            self.text.setText(
                self.tr(
                    "Add a folder of uploads — text files in any encoding, Markdown, PDFs — or drop "
                    "folders onto this window. neardup groups the documents that are the same or "
                    "nearly the same, shows what differs, and never deletes a file."
                )
            )
        self.scan_button.setVisible(has_folders and not scanning)
        self.add_button.setVisible(not scanning)
