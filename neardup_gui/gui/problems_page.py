"""The Problems tab: files that could not be compared, what to do about each, Open and Show in folder
(Edit's actions, acting on the row selected here), and Try Again."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from ..core.models import Document
from .delegates import MixedScriptRowDelegate
from .item_models import ProblemsModel


class ProblemsPage(QWidget):
    """A table of the documents that failed, with their plain-words reason; Try Again reads once more the
    ones whose failure may not happen again (the window connects it to a scan)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setItemDelegate(MixedScriptRowDelegate(self.table, paths=frozenset({0})))
        self.table.setColumnWidth(0, 300)  # a path cut in its middle: what to do gets the room
        self.table.setColumnWidth(1, 100)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setToolTip(self.tr("Files that could not be compared, and what to do about each"))

        self.retry_button = QPushButton(self.tr("Try Again"), self)
        self.retry_button.setToolTip(
            self.tr(
                "Read again the files whose reading crashed, ran out of memory or took too long "
                "(a scan of the folders that tries those files once more)"
            )
        )
        self.open_button = QPushButton(self.tr("Open"), self)  # actions.py: what they do, their keys
        self.reveal_button = QPushButton(self.tr("Show in folder"), self)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Files that could not be compared, and what to do about each."), self), 1)
        for button in (self.open_button, self.reveal_button, self.retry_button):
            bar.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

    def current_document(self) -> Document | None:
        index = self.table.currentIndex()
        return self.model.rows[index.row()] if index.isValid() and index.row() < len(self.model.rows) else None

    def set_documents(self, documents: tuple[Document, ...] | list[Document]) -> int:
        """Show the problems among ``documents``; returns how many there are."""
        self.model.set_documents(documents)
        return len(self.model.rows)
