"""The whole group at once: every member with its numbers against the file the group keeps.

Selecting a group's row shows this instead of the pair view; activating a member (double-click or
Return) asks the window to compare it with the keeper.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ..core.models import Document, Group, Similarity
from ..core.review import human_size, in_folders
from .models import NUMBERS_ALIGNMENT, bold_font, column_header

COLUMNS = ("Document", "Folder", "Jaccard", "Containment", "Hamming", "Size", "Modified", "Type")
TIPS = (
    "File name; the file the group keeps comes first",
    "Folder of the file",
    "Exact Jaccard similarity of the shingle sets, to the file the group keeps",
    "Share of the smaller text found inside the other, against the file the group keeps",
    "Differing bits of the 64-bit SimHash, against the file the group keeps",
    "File size",
    "Last modified",
    "text or pdf",
)


class GroupMembersModel(QAbstractTableModel):
    """One row a member, the keeper first, then the most similar."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.group: Group | None = None
        self.keeper: Document | None = None
        self.rows: list[Document] = []
        self.sims: dict[int, Similarity] = {}  # each member against the keeper
        self.marked: frozenset[int] = frozenset()
        self.reference_folders: tuple[str, ...] = ()

    def set_group(
        self,
        group: Group | None,
        keeper: Document | None,
        docs: dict[int, Document],
        marked: frozenset[int],
        reference_folders: tuple[str, ...],
    ) -> None:
        """Show a group measured from its keeper (the session's groups are: the keeper comes first)."""
        self.beginResetModel()
        self.group, self.keeper = group, keeper
        self.sims = {m.document_id: m.similarity for m in group.members} if group is not None else {}
        self.marked, self.reference_folders = marked, reference_folders
        self.rows = [docs[m.document_id] for m in group.members] if group is not None else []
        self.endResetModel()

    def set_marked(self, marked: frozenset[int]) -> None:
        """The marks changed: the names (which say "✓ marked") are painted again."""
        self.marked = marked
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 0), [Qt.ItemDataRole.DisplayRole])

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt's name
        return column_header(COLUMNS, TIPS, section, orientation, role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        doc = self.rows[index.row()]
        col = index.column()
        keeper = self.keeper is not None and doc.id == self.keeper.id
        s = self.sims.get(doc.id)
        if role == Qt.ItemDataRole.DisplayRole:
            numbers = ("keep", "", "") if keeper or s is None else (
                f"{s.jaccard:.3f}", f"{s.containment:.3f}", str(s.hamming))
            mark = "  ✓ marked" if doc.id in self.marked else ""
            return (
                os.path.basename(doc.display_path) + mark,
                os.path.dirname(doc.display_path),
                *numbers,
                human_size(doc.size),
                time.strftime("%Y-%m-%d %H:%M", time.localtime(doc.mtime_ns / 1e9)),
                doc.kind,
            )[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            where = "\nIn a reference folder: never proposed for removal." if in_folders(
                doc.path, self.reference_folders) else ""
            if keeper:
                return f"{doc.display_path}\nThe file this group keeps.{where}"
            if s is None:
                return doc.display_path + where
            return (f"{doc.display_path}\nAgainst the file kept: Jaccard {s.jaccard:.3f}, containment "
                    f"{s.containment_ab:.3f} of this in it, {s.containment_ba:.3f} of it in this, "
                    f"Hamming {s.hamming}{where}")
        if role == Qt.ItemDataRole.FontRole and keeper:
            return bold_font()
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3, 4, 5):
            return NUMBERS_ALIGNMENT
        return None


class GroupView(QWidget):
    """A title line and the members' table."""

    activated = Signal(object)  # Document: compare this member with the keeper

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = GroupMembersModel(self)
        self.title = QLabel("", self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((280, 230, 75, 95, 75, 80, 130, 50)):
            self.table.setColumnWidth(col, width)
        self.table.activated.connect(lambda index: self.activated.emit(self.model.rows[index.row()]))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)

    def show_group(
        self,
        group: Group,
        keeper: Document,
        docs: dict[int, Document],
        marked: frozenset[int],
        reference_folders: tuple[str, ...],
    ) -> None:
        kind = "the same text" if group.exact else "nearly the same text"
        self.title.setText(
            f"{len(group.members)} documents with {kind}. Numbers are against the file kept, "
            f"{os.path.basename(keeper.display_path)}; double-click a member to see what differs."
        )
        self.model.set_group(group, keeper, docs, marked, reference_folders)

    def clear(self) -> None:
        self.title.setText("")
        self.model.set_group(None, None, {}, frozenset(), ())
