"""The folders to scan, which of them are reference folders, and what files to take from them."""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import QT_TRANSLATE_NOOP

TYPE_GROUPS: dict[str, frozenset[str]] = {
    "text": frozenset({"text"}),
    "pdf": frozenset({"pdf"}),
    "office": frozenset({"docx", "odt", "rtf"}),
    "web": frozenset({"html", "epub"}),
}
"""The file-type boxes of the folders panel and the kinds of file (extract.KINDS) each stands for; images are
scanned while OCR reads scans."""

OCR_LANGUAGES = (
    ("chi_sim+eng", QT_TRANSLATE_NOOP("FoldersPanel", "Chinese and English")),
    ("eng", QT_TRANSLATE_NOOP("FoldersPanel", "English")),
    ("chi_sim", QT_TRANSLATE_NOOP("FoldersPanel", "Chinese (simplified)")),
)
"""What OCR can be asked to read: Tesseract's language codes, and their names."""


class FoldersPanel(QWidget):
    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        title = QLabel("<b>" + self.tr("Folders") + "</b>", self)
        self.list = QListWidget(self)
        self.list.setToolTip(self.tr("Folders to scan. Tick a folder to make it a reference folder: its files are "
                                     "originals and are never proposed for removal."))
        self.list.setAlternatingRowColors(True)
        self.add_button = QPushButton(self.tr("Add folder…"), self)
        self.add_button.setToolTip(self.tr("Choose a folder to scan (you can also drop folders onto the window)"))
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Stop scanning the selected folder (its files are not touched)"))
        self.include = QLineEdit(self)
        self.include.setPlaceholderText(self.tr("only these, e.g. *.md; contracts/*"))
        self.include.setToolTip(
            self.tr("Glob patterns, separated by ';' — only matching files are scanned (empty: all)"))
        self.exclude = QLineEdit(self)
        self.exclude.setPlaceholderText(self.tr("skip these, e.g. drafts; *.log"))
        self.exclude.setToolTip(self.tr("Glob patterns, separated by ';' — matching files and folders are skipped"))
        # The file types, in groups a person thinks in; each box stands for the kinds beside it (extract.KINDS)
        self.type_boxes: dict[str, QCheckBox] = {}
        for key, label, tip in (
            ("text", self.tr("Text and Markdown"), self.tr(".txt, .md, .rst, .csv, .log … in any common encoding")),
            ("pdf", "PDF",  # a format's name: the same in every language
             self.tr("PDFs with a text layer (scanned PDFs are listed as problems, unless OCR reads them)")),
            ("office", self.tr("Word, OpenDocument and RTF"),
             self.tr(".docx, .odt and .rtf: the body and tables, and the footnotes of .docx and .odt "
                     "(older .doc files are not read)")),
            ("web", self.tr("Web pages and e-books"),
             self.tr(".html, .htm and .epub: the text a reader sees, without scripts or styles")),
        ):
            box = QCheckBox(label, self)
            box.setToolTip(tip)
            box.setChecked(True)
            self.type_boxes[key] = box
        self.ocr = QCheckBox(self.tr("Read scans and images with OCR (slow)"), self)
        self.ocr.setToolTip(self.tr(
            "PDFs without a text layer and images (.png, .jpg, .tif, .bmp) are read by Tesseract OCR, a few seconds "
            "a page; what it reads is kept, so each page is read once"))
        self.ocr_languages = QComboBox(self)
        for code, name in OCR_LANGUAGES:
            self.ocr_languages.addItem(QCoreApplication.translate("FoldersPanel", name), code)
        self.ocr_languages.setToolTip(self.tr("The languages of the scans' text"))
        self.ocr_languages.setEnabled(False)
        self.ocr.toggled.connect(self.ocr_languages.setEnabled)

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.list, 1)
        hint = QLabel(self.tr("☑ reference folder: originals, never moved to the trash"), self)
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(placeholder-text);")
        layout.addWidget(hint)
        layout.addLayout(buttons)
        layout.addWidget(QLabel(self.tr("Include"), self))
        layout.addWidget(self.include)
        layout.addWidget(QLabel(self.tr("Exclude"), self))
        layout.addWidget(self.exclude)
        layout.addWidget(QLabel(self.tr("File types"), self))
        for box in self.type_boxes.values():
            layout.addWidget(box)
        layout.addWidget(self.ocr)
        layout.addWidget(self.ocr_languages)

        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.itemChanged.connect(lambda _item: self.changed.emit())
        self.list.itemSelectionChanged.connect(lambda: self.remove_button.setEnabled(bool(self.list.selectedItems())))
        for pattern in (self.include, self.exclude):
            pattern.editingFinished.connect(self.changed.emit)
        for box in (*self.type_boxes.values(), self.ocr):
            box.toggled.connect(lambda _on: self.changed.emit())
        self.ocr_languages.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.remove_button.setEnabled(False)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to scan"))
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str, reference: bool = False) -> bool:
        folder = os.path.abspath(folder)
        if folder in self.folders() or not os.path.isdir(folder):
            return False
        item = QListWidgetItem(folder)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if reference else Qt.CheckState.Unchecked)
        item.setToolTip(
            self.tr("{folder}\nTicked: reference folder (originals, never proposed for removal)").format(folder=folder))
        self.list.addItem(item)
        self.changed.emit()
        return True

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.changed.emit()

    def folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def reference_folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]

    def set_reference(self, folder: str, reference: bool) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).text() == folder:
                self.list.item(i).setCheckState(Qt.CheckState.Checked if reference else Qt.CheckState.Unchecked)

    def patterns(self, which: str) -> tuple[str, ...]:
        field = self.include if which == "include" else self.exclude
        return tuple(p.strip() for p in field.text().split(";") if p.strip())

    def kinds(self) -> frozenset[str]:
        """The kinds of file the ticked type boxes stand for (images too when OCR reads scans)."""
        ticked = {kind for key, box in self.type_boxes.items() if box.isChecked() for kind in TYPE_GROUPS[key]}
        return frozenset(ticked | {"image"} if self.ocr.isChecked() else ticked)

    def ocr_choice(self) -> str:
        """The languages OCR reads scans in (ScanOptions.ocr), or "" when scans are not read."""
        return str(self.ocr_languages.currentData()) if self.ocr.isChecked() else ""

    def set_ocr_choice(self, on: bool, languages: str) -> None:
        self.ocr.setChecked(on)
        index = self.ocr_languages.findData(languages)
        self.ocr_languages.setCurrentIndex(max(0, index))

    def types(self) -> list[str]:
        """The ticked type boxes' keys (what the settings remember)."""
        return [key for key, box in self.type_boxes.items() if box.isChecked()]

    def set_types(self, keys: list[str]) -> None:
        for key, box in self.type_boxes.items():
            box.setChecked(key in keys)
