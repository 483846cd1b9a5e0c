"""The folders to scan, which of them are reference folders, and what files to take from them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.fingerprint import ocr
from ..core.i18n import QT_TRANSLATE_NOOP, localize
from ..core.models import ScanOptions
from ..core.review.words import endings
from .settings import AppState, FileDialogs

TYPE_GROUPS: dict[str, frozenset[str]] = {
    "text": frozenset({"text"}),
    "pdf": frozenset({"pdf"}),
    "office": frozenset({"doc", "docx", "odt", "rtf", "wps"}),  # "office" since before sheets: saved choices hold
    "sheets": frozenset({"xls", "xlsx", "ods", "et"}),
    "slides": frozenset({"ppt", "pptx", "odp", "dps"}),
    "web": frozenset({"html", "epub"}),
    "mail": frozenset({"email"}),
}
"""The file-type boxes of the folders panel and the kinds of file (extract.KINDS) each stands for; images are
scanned while OCR reads scans."""

OCR_LANGUAGES = (
    ("chi_sim+eng", QT_TRANSLATE_NOOP("FoldersPanel", "Chinese and English")),
    ("eng", QT_TRANSLATE_NOOP("FoldersPanel", "English")),
    ("chi_sim", QT_TRANSLATE_NOOP("FoldersPanel", "Chinese (simplified)")),
)
"""What OCR can be asked to read: Tesseract's language codes, and their names."""


class FolderDrops(QObject):
    """Folders dropped onto a window (its event filter) join the panel's list."""

    def __init__(self, panel: FoldersPanel, say: Callable[[str, int], None]) -> None:
        super().__init__(panel)
        self._panel, self._say = panel, say

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop) or not isinstance(
            event, QDropEvent
        ):
            return False
        folders = [
            url.toLocalFile()
            for url in event.mimeData().urls()
            if url.isLocalFile() and os.path.isdir(url.toLocalFile())
        ]
        if kind == QEvent.Type.Drop:
            folders = [folder for folder in folders if self._panel.add_folder(folder)]
            if folders:
                count = len(folders)
                self._say(self.tr("Added %n folder(s). Press Scan (F5) to look for duplicates.", "", count), 6000)
        if folders:
            event.acceptProposedAction()
        return bool(folders)


class FoldersPanel(QWidget):
    changed = Signal()

    def __init__(self, dialogs: FileDialogs, parent=None) -> None:
        super().__init__(parent)
        self._dialogs = dialogs
        title = QLabel("<b>" + self.tr("Folders") + "</b>", self)
        self.list = QListWidget(self)
        self.list.setToolTip(
            self.tr(
                "Folders to scan. Tick a folder to make it a reference folder: its files are "
                "originals and are never proposed for removal."
            )
        )
        self.list.setAlternatingRowColors(True)
        self.add_button = QPushButton(self.tr("Add folder…"), self)
        self.add_button.setToolTip(self.tr("Choose a folder to scan (you can also drop folders onto the window)"))
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Stop scanning the selected folder (its files are not touched)"))
        self.include = QLineEdit(self)
        self.include.setPlaceholderText(self.tr("only these, e.g. *.md; contracts/*"))
        self.include.setToolTip(
            self.tr("Glob patterns, separated by ';' — only matching files are scanned (empty: all)")
        )
        self.exclude = QLineEdit(self)
        self.exclude.setPlaceholderText(self.tr("skip these, e.g. drafts; *.log"))
        self.exclude.setToolTip(self.tr("Glob patterns, separated by ';' — matching files and folders are skipped"))
        # The file types, in groups a person thinks in; each box stands for the kinds beside it (extract.KINDS),
        # and its tooltip says what is read of them and lists their endings
        text_label = self.tr("Text and Markdown")
        self.type_boxes: dict[str, QCheckBox] = {}
        for key, label, tip in (
            (
                "text",
                text_label,
                self.tr(
                    "Plain text in any common encoding (UTF-8, GB18030, Big5…);\n"
                    "tables saved as .csv or .tsv are read here too, as text"
                ),
            ),
            (
                "pdf",
                "PDF",  # a format's name: the same in every language
                self.tr("PDFs with a text layer (scanned PDFs are listed as problems, unless OCR reads them)"),
            ),
            (
                "office",
                self.tr("Documents (Word, WPS, ODT, RTF)"),
                self.tr(
                    "Word (.doc and .docx), WPS writer, OpenDocument text and RTF:\n"
                    "the body and its tables, then footnotes, endnotes and text boxes (of .rtf: the body and "
                    "tables);\nnot headers, comments or field codes"
                ),
            ),
            (
                "sheets",
                self.tr("Spreadsheets (Excel, WPS, ODS)"),
                self.tr(
                    "Excel (.xls and .xlsx), WPS spreadsheets and OpenDocument spreadsheets:\n"
                    "each cell's value (a date as 2024-03-05, whatever its format), row by row, sheet by sheet; a "
                    "formula's result, not the formula.\n"
                    "Tables saved as .csv or .tsv are read as text, under “{text}”."
                ).format(text=text_label),
            ),
            (
                "slides",
                self.tr("Slides (PowerPoint, WPS, ODP)"),
                self.tr(
                    "PowerPoint (.ppt and .pptx), WPS presentations and OpenDocument presentations:\n"
                    "the text of each slide in order, then the speaker notes"
                ),
            ),
            (
                "web",
                self.tr("Web pages and e-books"),
                self.tr("Web pages and EPUB e-books: the text a reader sees, without scripts or styles"),
            ),
            (
                "mail",
                self.tr("Saved e-mail"),
                self.tr("The subject and the text of the message; attachments are named, not compared"),
            ),
        ):
            box = QCheckBox(label, self)
            box.setToolTip(tip + "\n" + self.tr("Files ending in {endings}").format(endings=endings(TYPE_GROUPS[key])))
            box.setChecked(True)
            self.type_boxes[key] = box
        self.ocr = QCheckBox(self.tr("Read scans and images with OCR (slow)"), self)
        self.ocr.setToolTip(
            self.tr(
                "PDFs without a text layer and images (.png, .jpg, .tif, .bmp) are read by Tesseract OCR, a few "
                "seconds "
                "a page; what it reads is kept, so each page is read once"
            )
        )
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
        folder = self._dialogs.folder(self, "add_folder", self.tr("Add a folder to scan"))
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
            self.tr("{folder}\nTicked: reference folder (originals, never proposed for removal)").format(folder=folder)
        )
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
        return [
            self.list.item(i).text()
            for i in range(self.list.count())
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]

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

    def scan_options(self) -> ScanOptions:
        return ScanOptions(
            roots=tuple(self.folders()),
            include=self.patterns("include"),
            exclude=self.patterns("exclude"),
            kinds=self.kinds(),
            ocr=self.ocr_choice(),
        )

    def scan_problem(self) -> tuple[str, str] | None:
        """Why a scan cannot start (a title and a sentence), or None: a folder gone, no type ticked, no OCR."""
        missing = [f for f in self.folders() if not os.path.isdir(f)]
        languages = self.ocr_choice()
        if missing:
            return self.tr("Folder not found"), self.tr(
                "These folders are not there any more; remove them or reconnect the drive:\n\n{folders}"
            ).format(folders="\n".join(missing))
        if not self.kinds():
            return self.tr("Nothing to scan"), self.tr("Tick at least one file type.")
        if languages and (problem := ocr.unavailable(languages)):
            return self.tr("OCR is not installed"), localize("Problem", problem)
        return None

    def remember(self, state: AppState) -> None:
        """Put what the panel shows into ``state`` (the settings)."""
        state.folders, state.reference_folders = self.folders(), self.reference_folders()
        state.include, state.exclude, state.file_types = self.include.text(), self.exclude.text(), self.types()
        state.ocr, state.ocr_languages = self.ocr.isChecked(), str(self.ocr_languages.currentData())

    def restore(self, state: AppState, folders: Iterable[str]) -> None:
        """Show ``folders`` (reference folders as ``state`` says) and ``state``'s choices."""
        for folder in folders:
            self.add_folder(folder, folder in state.reference_folders)
        self.include.setText(state.include)
        self.exclude.setText(state.exclude)
        self.set_types(state.file_types)
        self.set_ocr_choice(state.ocr, state.ocr_languages)
