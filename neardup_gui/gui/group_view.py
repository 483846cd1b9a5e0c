"""The whole group at once: every member with its numbers against the file the group keeps.

Selecting a group's row shows this instead of the pair view; activating a member (double-click or
Return) asks the window to compare it with the keeper.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.models import Document, Group, Similarity
from ..core.review.rules import human_size, in_folders
from ..core.review.words import kind_label, listed, similarity_details, similarity_words
from .item_models import NUMBERS_ALIGNMENT, bold_font, column_header

COLUMNS = (
    QT_TRANSLATE_NOOP("GroupMembersModel", "Document"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Folder"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Similarity"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Bits differ"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Size"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Modified"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Type"),
)
TIPS = (
    QT_TRANSLATE_NOOP("GroupMembersModel", "File name; the file the group keeps comes first"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Folder of the file"),
    QT_TRANSLATE_NOOP(
        "GroupMembersModel",
        "How much of the text is the same as the keeper's; hover over a value for the exact measures",
    ),
    QT_TRANSLATE_NOOP(
        "GroupMembersModel",
        "Word fingerprint: how many of its 64 bits differ from the keeper's (SimHash Hamming distance)",
    ),
    QT_TRANSLATE_NOOP("GroupMembersModel", "File size"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "Last modified"),
    QT_TRANSLATE_NOOP("GroupMembersModel", "The file's format: text, PDF, DOCX, ODT, RTF, EPUB or HTML"),
)
"""The members table's columns and their tooltips, in English: translated (context "GroupMembersModel") where
shown."""
BITS_COLUMN = 3


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
        docs: Mapping[int, Document],
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
        return column_header("GroupMembersModel", COLUMNS, TIPS, section, orientation, role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        doc = self.rows[index.row()]
        col = index.column()
        keeper = self.keeper is not None and doc.id == self.keeper.id
        s = self.sims.get(doc.id)
        if role == Qt.ItemDataRole.DisplayRole:
            numbers = (self.tr("keep"), "") if keeper or s is None else (similarity_words(s), str(s.hamming))
            name = os.path.basename(doc.display_path)
            return (
                self.tr("{name}  ✓ marked").format(name=name) if doc.id in self.marked else name,
                os.path.dirname(doc.display_path),
                *numbers,
                human_size(doc.size),
                time.strftime("%Y-%m-%d %H:%M", time.localtime(doc.mtime_ns / 1e9)),
                kind_label(doc.kind),
            )[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [doc.display_path]
            if keeper:
                lines.append(self.tr("The file this group keeps."))
            elif s is not None:
                lines.append(similarity_details(s))
            if in_folders(doc.path, self.reference_folders):
                lines.append(self.tr("In a reference folder: never proposed for removal."))
            return "\n".join(lines)
        if role == Qt.ItemDataRole.FontRole and keeper:
            return bold_font()
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3, 4):
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
        for col, width in enumerate((280, 200, 150, 80, 80, 130, 50)):
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
        docs: Mapping[int, Document],
        marked: frozenset[int],
        reference_folders: tuple[str, ...],
        topic: tuple[str, ...] = (),
    ) -> None:
        title = (
            self.tr(
                "{count} documents with the same text. Numbers are against the file kept, {name}; "
                "double-click a member to see what differs."
            )
            if group.exact
            else self.tr(
                "{count} documents with nearly the same text: every two of them are duplicates at your "
                "setting. Each is measured against the file kept, {name}. Double-click a member to see "
                "what differs."
            )
        )
        title = title.format(count=len(group.members), name=os.path.basename(keeper.display_path))
        if topic:
            title = self.tr("About: {topic}.").format(topic=listed(topic)) + " " + title
        self.title.setText(title)
        self.model.set_group(group, keeper, docs, marked, reference_folders)

    def show_method(self, simhash: bool) -> None:
        """The fingerprint bits only where that method groups."""
        self.table.setColumnHidden(BITS_COLUMN, not simhash)

    def current_document(self) -> Document | None:
        """The member selected in the table, if one is."""
        index = self.table.currentIndex()
        selected = index.isValid() and self.table.selectionModel().isSelected(index)
        return self.model.rows[index.row()] if selected else None

    def clear(self) -> None:
        self.title.setText("")
        self.model.set_group(None, None, {}, frozenset(), ())
