"""Qt item models over the core's results: the groups tree and the problems table."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Mapping

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from ..core.i18n import QT_TRANSLATE_NOOP, localize, split_details
from ..core.match.matcher import MatchResult
from ..core.models import Document, Group, Member
from ..core.review.rules import GroupSummary, human_size, in_folders, kept_anywhere, summarise, trash_plan
from ..core.review.topics import GroupTopics
from ..core.review.words import (
    kind_label,
    listed,
    percent,
    percent_range,
    similarity_details,
    similarity_words,
    status_label,
)
from .controller import Marks

DocumentRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2
GroupRole = Qt.ItemDataRole.UserRole + 3

COLUMNS = (
    QT_TRANSLATE_NOOP("GroupTreeModel", "Document"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Folder"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Similarity"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Bits differ"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Jaccard"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Containment"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Size"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Modified"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Type"),
)
TIPS = (
    QT_TRANSLATE_NOOP("GroupTreeModel", "File name; a group row names the file it keeps"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Folder of the file"),
    QT_TRANSLATE_NOOP(
        "GroupTreeModel",
        "How much of the text is the same as the keeper's (a group shows its "
        "lowest–highest); hover over a value for the exact measures",
    ),
    QT_TRANSLATE_NOOP(
        "GroupTreeModel",
        "Word fingerprint: how many of its 64 bits differ from the keeper's "
        "(SimHash Hamming distance; a group shows its largest)",
    ),
    QT_TRANSLATE_NOOP("GroupTreeModel", "For experts: exact Jaccard similarity of the shingle sets, to the keeper"),
    QT_TRANSLATE_NOOP(
        "GroupTreeModel",
        "For experts: share of the smaller text found inside the other (an "
        "excerpt inside a longer document scores 1.0)",
    ),
    QT_TRANSLATE_NOOP("GroupTreeModel", "File size (a group shows the total)"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "Last modified"),
    QT_TRANSLATE_NOOP("GroupTreeModel", "The file's format: text, PDF, DOCX, ODT, RTF, EPUB or HTML"),
)
"""The group tree's columns and their tooltips, in English: translated (context "GroupTreeModel") where shown."""

FOLDER_COLUMN, SIMILARITY_COLUMN, BITS_COLUMN, JACCARD_COLUMN, CONTAINMENT_COLUMN, TYPE_COLUMN = 1, 2, 3, 4, 5, 8
EXPERT_COLUMNS = (JACCARD_COLUMN, CONTAINMENT_COLUMN)
"""Hidden until asked for (the header's menu): the exact measures behind the similarity shown."""

NUMBERS_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
"""How the tables align a column of numbers."""


@functools.cache
def bold_font() -> QFont:
    """The font of a group's row and of the file a group keeps (made once: data() is asked per paint)."""
    font = QFont()
    font.setBold(True)
    return font


def _index_key(index: QModelIndex | QPersistentModelIndex) -> int:
    return int(index.internalId())


def column_header(
    context: str, names: tuple[str, ...], tips: tuple[str, ...], section: int, orientation: Qt.Orientation, role: int
) -> str | None:
    """headerData of a table of members: a column's name, and its tooltip in plain words, translated in
    ``context`` (the names and tips are marked with QT_TRANSLATE_NOOP in it)."""
    if orientation == Qt.Orientation.Horizontal:
        if role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate(context, names[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return QCoreApplication.translate(context, tips[section])
    return None


class GroupTreeModel(QAbstractItemModel):
    """Groups at the top level, their members below. Row i of a group is member i."""

    def __init__(self, marks: Marks | None = None, parent=None) -> None:
        super().__init__(parent)
        self.summaries: list[GroupSummary] = []
        self.docs: Mapping[int, Document] = {}
        self.keepers: dict[int, int] = {}
        self.reference_folders: tuple[str, ...] = ()
        self.marks = marks if marks is not None else Marks()  # ticked in the first column; shared
        self.kept: set[int] = set()  # documents that are kept (review.kept_anywhere)
        self.chosen: frozenset[int] = frozenset()  # those a person chose to keep
        self.topics = GroupTopics.none()  # group id -> what it is about (core/review/topics.py)
        # document -> (its group's row, its row in the group), for each group it is listed under
        self._place_of_doc: dict[int, list[tuple[int, int]]] = {}
        self.marks.changed.connect(self._marks_changed)

    @property
    def marked(self) -> frozenset[int]:
        return self.marks.ids

    def set_result(
        self,
        result: MatchResult | None,
        keepers: dict[int, int],
        reference_folders: tuple[str, ...] = (),
        chosen: frozenset[int] = frozenset(),
        topics: GroupTopics | None = None,
    ) -> None:
        """Show a grouping with its keepers (group id -> document id, chosen by the session), the files a
        person chose to keep (``chosen``) and what each group is about (``topics``)."""
        self.beginResetModel()
        self.topics = topics if topics is not None else GroupTopics.none()
        self.summaries = summarise(result) if result else []
        self.docs = result.documents_by_id if result else {}
        self.reference_folders = reference_folders
        self.keepers = dict(keepers)
        self.kept = kept_anywhere((s.group for s in self.summaries), self.keepers, chosen)
        self.chosen = chosen
        self._place_of_doc = {}
        for row, s in enumerate(self.summaries):
            for k, m in enumerate(s.group.members):
                self._place_of_doc.setdefault(m.document_id, []).append((row, k))
        self.endResetModel()

    # marks ----------------------------------------------------------------------------------
    def _marks_changed(self, changed: frozenset[int]) -> None:
        """The marks changed (a rule, a click, an action): the check boxes of the groups they touch are
        painted again (a click repaints one group, not ten thousand)."""
        role = [Qt.ItemDataRole.CheckStateRole]
        for row in sorted({row for d in changed for row, _k in self._place_of_doc.get(d, ())}):
            parent = self.index(row, 0)
            self.dataChanged.emit(parent, parent, role)
            self.dataChanged.emit(self.index(0, 0, parent), self.index(self.rowCount(parent) - 1, 0, parent), role)

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() == 0:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def setData(self, index: QModelIndex | QPersistentModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802 - Qt's name
        if role != Qt.ItemDataRole.CheckStateRole or index.column() != 0 or not index.isValid():
            return False
        checked = Qt.CheckState(value) == Qt.CheckState.Checked
        member = self.member(index)
        ids = {member.document_id} if member is not None else self._movable(self.summary(index).group)
        self.marks.update(ids, checked)  # repaints through _marks_changed
        return True

    def _movable(self, group: Group) -> set[int]:
        """What a group's own tick ticks: every member but its keeper and files in reference folders (what
        the trash would take), as *Mark all but the keepers* and *Mark Selected* do."""
        keeper = self.keepers.get(group.id, group.representative)
        return {d.id for d in trash_plan(group, keeper, self.docs, self.reference_folders, self.kept).documents}

    # structure ------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: QModelIndex = QModelIndex()):  # type: ignore[override]
        if not index.isValid() or _index_key(index) == 0:
            return QModelIndex()
        return self.createIndex(_index_key(index) - 1, 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        if not parent.isValid():
            return len(self.summaries)
        if _index_key(parent) == 0 and parent.column() == 0:
            return self.summaries[parent.row()].members
        return 0

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt's name
        header = column_header("GroupTreeModel", COLUMNS, TIPS, section, orientation, role)
        if role == Qt.ItemDataRole.ToolTipRole and header:
            return header + "\n" + self.tr("Right-click a column's title to show or hide columns.")
        return header

    # content --------------------------------------------------------------------------------
    def summary(self, index: QModelIndex | QPersistentModelIndex) -> GroupSummary:
        key = _index_key(index)
        return self.summaries[index.row() if key == 0 else key - 1]

    def member(self, index: QModelIndex | QPersistentModelIndex) -> Member | None:
        if not index.isValid() or _index_key(index) == 0:
            return None
        return self.summary(index).group.members[index.row()]

    def document(self, index: QModelIndex | QPersistentModelIndex) -> Document | None:
        m = self.member(index)
        return self.docs[m.document_id] if m else None

    def index_of(self, doc_id: int) -> QModelIndex:
        """The document's row under the first group it is listed under (invalid when it is in no group)."""
        places = self._place_of_doc.get(doc_id)
        return self.index(places[0][1], 0, self.index(places[0][0], 0)) if places else QModelIndex()

    def _keeps_a_group(self, doc_id: int) -> bool:
        return any(
            self.keepers.get(self.summaries[row].group.id) == doc_id for row, _k in self._place_of_doc.get(doc_id, ())
        )

    def groups_listing(self, doc_id: int) -> list[int]:
        """The ids of the groups a document is listed under."""
        return [self.summaries[row].group.id for row, _k in self._place_of_doc.get(doc_id, ())]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        s = self.summary(index)
        m = self.member(index)
        col = index.column()
        if role == GroupRole:
            return s.group.id
        if m is None:
            return self._group_data(s, col, role)
        doc = self.docs[m.document_id]
        if role == DocumentRole:
            return doc
        if role == Qt.ItemDataRole.CheckStateRole and col == 0:
            return Qt.CheckState.Checked if doc.id in self.marked else Qt.CheckState.Unchecked
        keeper = self.keepers.get(s.group.id) == doc.id
        kept_elsewhere = not keeper and doc.id in self.kept
        sim = m.similarity
        if role == Qt.ItemDataRole.DisplayRole:
            name = os.path.basename(doc.display_path)
            return (
                self.tr("{name}  — keep").format(name=name)
                if keeper
                else self.tr("{name}  — kept, as you chose").format(name=name)
                if kept_elsewhere and doc.id in self.chosen and not self._keeps_a_group(doc.id)
                else self.tr("{name}  — kept by another group").format(name=name)
                if kept_elsewhere
                else name,
                os.path.dirname(doc.display_path),
                "" if keeper else similarity_words(sim),
                "" if keeper else str(sim.hamming),
                "" if keeper else f"{sim.jaccard:.3f}",
                "" if keeper else f"{sim.containment:.3f}",
                human_size(doc.size),
                time.strftime("%Y-%m-%d %H:%M", time.localtime(doc.mtime_ns / 1e9)),
                kind_label(doc.kind),
            )[col]
        if role == SortRole:
            return (
                doc.display_path.lower(),
                doc.display_path.lower(),
                sim.jaccard,
                sim.hamming,
                sim.jaccard,
                sim.containment,
                doc.size,
                doc.mtime_ns,
                doc.kind,
            )[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = doc.display_path if keeper else f"{doc.display_path}\n{similarity_details(sim)}"
            if keeper:
                tip += "\n" + self.tr("The file this group keeps; the others are measured against it.")
            elif kept_elsewhere:
                tip += "\n" + self.tr("Another group keeps this file, so it is never proposed for removal.")
            others = [str(g) for g in self.groups_listing(doc.id) if g != s.group.id]
            if others:
                tip += "\n" + self.tr(
                    "Also listed under group {ids}: it is a duplicate of documents there that are "
                    "not duplicates of this group's."
                ).format(ids=", ".join(others))
            if in_folders(doc.path, self.reference_folders):
                tip += "\n" + self.tr("In a reference folder: an original, never proposed for removal.")
            return tip
        if role == Qt.ItemDataRole.FontRole and keeper and col == 0:
            return bold_font()
        if role == Qt.ItemDataRole.ForegroundRole and in_folders(doc.path, self.reference_folders):
            return QApplication.palette().color(QPalette.ColorRole.Link)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3, 4, 5, 6):
            return NUMBERS_ALIGNMENT
        return None

    def name(self, s: GroupSummary) -> str:
        """What a group is called: what it is about, else its first file's name."""
        topic = self.topics.get(s.group.id)
        return listed(topic) if topic else os.path.basename(s.representative.display_path)

    def _group_data(self, s: GroupSummary, col: int, role: int):
        kind = "exact" if s.group.exact else "near"
        if role == Qt.ItemDataRole.CheckStateRole and col == 0:
            if not any(m.document_id in self.marked for m in s.group.members):
                return Qt.CheckState.Unchecked
            movable = self._movable(s.group)
            return Qt.CheckState.Checked if movable <= self.marked else Qt.CheckState.PartiallyChecked
        if role == Qt.ItemDataRole.DisplayRole and col == 0:  # named only when its name is asked for
            # its name first: a narrow column cuts the end of a row
            title = (
                self.tr("Group {id} · {name} — {count} documents · exact")
                if s.group.exact
                else self.tr("Group {id} · {name} — {count} documents · near")
            )
            return title.format(id=s.group.id, count=s.members, name=self.name(s))
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                "",
                os.path.dirname(s.representative.display_path),
                self.tr("same text") if s.group.exact else percent_range(s.worst_jaccard, s.best_jaccard),
                str(s.worst_hamming),
                f"{s.worst_jaccard:.3f}–{s.best_jaccard:.3f}"
                if s.worst_jaccard != s.best_jaccard
                else f"{s.worst_jaccard:.3f}",
                "",
                human_size(s.total_size),
                "",
                "",
            )[col]
        if role == SortRole:
            return (
                s.members,
                s.representative.display_path.lower(),
                s.worst_jaccard,
                s.worst_hamming,
                s.worst_jaccard,
                0.0,
                s.total_size,
                0,
                kind,
            )[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            topic = self.topics.get(s.group.id, ())
            about = self.tr("About: {topic} (the words its documents share)\n").format(topic=listed(topic))
            said = (about if topic else "") + self.tr(
                "{count} documents; the keeper is {path}\n"
                "Every two documents of the group are duplicates at your setting. Each member is measured "
                "against the keeper: from {lowest} to {highest} of the text is the same."
            ).format(
                count=s.members,
                path=self.docs[self.keepers.get(s.group.id, s.group.representative)].display_path,
                lowest=percent(s.worst_jaccard),
                highest=percent(s.best_jaccard),
            )
            return said
        if role == Qt.ItemDataRole.FontRole and col == 0:
            return bold_font()
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3, 4, 5, 6):
            return NUMBERS_ALIGNMENT
        return None


class GroupFilterModel(QSortFilterProxyModel):
    """Sorts by real values; filters whole groups by kind and by text (a group stays, with all its
    members, when its topic or any member's path contains the text)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SortRole)
        self.kind = "all"
        self.text = ""

    def set_kind(self, kind: str) -> None:
        self._refilter(lambda: setattr(self, "kind", kind))

    def set_text(self, text: str) -> None:
        self._refilter(lambda: setattr(self, "text", text.strip().lower()))

    def _refilter(self, change) -> None:
        """Qt >= 6.10 brackets a filter change; older Qt re-runs the row filter after it."""
        direction = getattr(getattr(QSortFilterProxyModel, "Direction", None), "Rows", None)
        if direction is not None and hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(direction)
        else:
            change()
            self.invalidateRowsFilter()

    def lessThan(self, left: QModelIndex | QPersistentModelIndex, right: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802 - Qt's name
        """Members sort by the column, but a group's keeper stays its first row either way."""
        if left.parent().isValid():
            model: GroupTreeModel = self.sourceModel()  # type: ignore[assignment]
            keeper = model.keepers.get(model.summary(left).group.id)
            ascending = self.sortOrder() == Qt.SortOrder.AscendingOrder
            left_doc, right_doc = model.document(left), model.document(right)
            if left_doc is not None and left_doc.id == keeper:
                return ascending
            if right_doc is not None and right_doc.id == keeper:
                return not ascending
        return super().lessThan(left, right)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802 - Qt's name
        if source_parent.isValid():
            return True
        model: GroupTreeModel = self.sourceModel()  # type: ignore[assignment]
        summary = model.summaries[source_row]
        if self.kind != "all" and summary.group.exact != (self.kind == "exact"):
            return False
        if not self.text:
            return True
        if model.topics.mentions(summary.group.id, self.text):
            return True
        return any(self.text in model.docs[m.document_id].display_path.lower() for m in summary.group.members)


class ProblemsModel(QAbstractTableModel):
    """Every file that could not be compared, with the reason and what to do."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ProblemsModel", "File"),
        QT_TRANSLATE_NOOP("ProblemsModel", "Status"),
        QT_TRANSLATE_NOOP("ProblemsModel", "What to do"),
    )

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[Document] = []

    def set_documents(self, documents: tuple[Document, ...] | list[Document]) -> None:
        self.beginResetModel()
        self.rows = sorted((d for d in documents if d.status != "ok"), key=lambda d: (str(d.status), d.path))
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt's name
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("ProblemsModel", self.HEADERS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        doc = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            # the reason in plain words; what the library or the system said only in its tooltip
            message = doc.message if role == Qt.ItemDataRole.ToolTipRole else split_details(doc.message)[0]
            return (doc.display_path, status_label(doc.status), localize("Problem", message))[index.column()]
        if role == DocumentRole:
            return doc
        return None
