"""Qt item models over the core's results: the groups tree and the problems table."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from ..core.i18n import QT_TRANSLATE_NOOP, localize, split_details
from ..core.match.matcher import MatchResult
from ..core.models import Document, Group, Member
from ..core.review.rules import GroupSummary, Listing, human_size, in_folders, kept_anywhere, trash_plan
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

FOLDER_COLUMN, SIMILARITY_COLUMN, BITS_COLUMN, JACCARD_COLUMN, CONTAINMENT_COLUMN = 1, 2, 3, 4, 5
SIZE_COLUMN, TYPE_COLUMN = 6, 8
ROWS_AT_ONCE = 1_000
"""Groups handed to the tree at a time (more as it is scrolled to the end: fetchMore)."""
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
    """Groups at the top level, their members below: the groups the filter passes, in the order asked for
    (``sort``), each group's keeper first. The model sorts and filters itself: a QSortFilterProxyModel calls
    Python for every comparison and every row (at 80,000 groups, half a minute on the GUI thread), where a
    sort by key and a look in one string a group cost a tenth of a second. A top-level row lists the group
    ``summaries[_listed[row]]``; a member's index carries its group's place in ``summaries`` (plus one),
    which no sort or filter changes."""

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
        # document -> (its group's place in summaries, its place in the group), for each group it is listed under
        self._place_of_doc: Mapping[int, list[tuple[int, int]]] = {}
        self._place_of_group: dict[int, int] = {}  # group id -> its place in summaries
        self._listed: list[int] = []  # the places of the groups listed, in order
        self._sorted: tuple[object, list[int]] = (None, [])  # (the order, every group's place in it)
        self._fetched = 0  # the listed groups handed to views so far (fetchMore): the first rows of _listed
        self._row_of: dict[int, int] = {}  # a listed group's place -> its row
        self._member_order: dict[int, list[int]] = {}  # a group's place -> its members' places, in order (when asked)
        # a group's place -> its members' paths (lower-case) and its keywords (GroupTopics.keywords): what a
        # filter looks in, made when first asked (the keywords' text shared with the topics, not copied)
        self._texts: dict[int, tuple[str, str]] = {}
        self.sort_column, self.sort_order = 0, Qt.SortOrder.DescendingOrder
        self.kind = "all"  # the groups listed: all, exact or near ones
        self.text = ""  # the text a listed group's topic or a member's path holds (lower-case)
        # what a filter looks in, made a few groups at a time while the window is idle: a first filter of
        # 80,000 groups would otherwise stop the window for seconds
        self._warming = QTimer(self)
        self._warming.setInterval(0)
        self._warming.timeout.connect(self._warm)
        self._warmed = 0  # the groups (by place) whose text a filter looks in is made
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
        listing: Listing | None = None,
    ) -> None:
        """Show a grouping with its keepers (group id -> document id, chosen by the session), the files a
        person chose to keep (``chosen``), what each group is about (``topics``) and its ``listing`` (made
        here when not given: the session's View has it)."""
        self.beginResetModel()
        self.topics = topics if topics is not None else GroupTopics.none()
        if listing is None:
            listing = Listing.of(result) if result else Listing()
        self.summaries = list(listing.summaries)
        self.docs = result.documents_by_id if result else {}
        self.reference_folders = reference_folders
        self.keepers = dict(keepers)
        self.kept = kept_anywhere((s.group for s in self.summaries), self.keepers, chosen)
        self.chosen = chosen
        self._place_of_doc = listing.places
        self._place_of_group = {s.group.id: place for place, s in enumerate(self.summaries)}
        self._texts, self._sorted = {}, (None, [])
        self._list()
        self.endResetModel()
        self._warmed = 0
        self._warming.start()

    # the order and the filter -----------------------------------------------------------------
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Groups by the column's value (a group's own: its size, its lowest similarity…), members inside
        each group likewise, the keeper always first; equal ones keep the grouping's order."""
        self.sort_column, self.sort_order = column, order
        self._relist()

    def set_filter(self, *, kind: str | None = None, text: str | None = None) -> None:
        """List only the groups of this kind (all, exact, near), and those whose topic, or a member's path,
        contains the text (any case)."""
        if kind is not None:
            self.kind = kind
        if text is not None:
            self.text = text.strip().lower()
        self._relist()

    def _list(self) -> None:
        column, descending = self.sort_column, self.sort_order == Qt.SortOrder.DescendingOrder
        if self._sorted[0] != (column, descending):  # sorted once an order, not on every key typed in the filter
            keys = [self._group_key(s, column) for s in self.summaries]
            self._sorted = ((column, descending), sorted(range(len(keys)), key=keys.__getitem__, reverse=descending))
        listed = self._sorted[1]  # stable either way
        if self.kind != "all":
            exact = self.kind == "exact"
            listed = [place for place in listed if self.summaries[place].group.exact == exact]
        if self.text:
            listed = [place for place in listed if self._mentions(place, self.text)]
        self._listed = listed
        self._row_of = {place: row for row, place in enumerate(listed)}
        self._member_order = {}
        self._fetched = min(len(listed), ROWS_AT_ONCE)

    def _relist(self) -> None:
        """List again (another order, another filter): rows selected, current or expanded follow their
        groups and members; those of groups no longer listed are let go."""
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        places = [self._place_of(index) for index in before]
        self._list()
        rows = [row for place, _member, _column in places if (row := self._row_of.get(place)) is not None]
        self._fetched = max([self._fetched, *(row + 1 for row in rows)])  # the rows kept stay fetched
        self.changePersistentIndexList(before, [self._index_at(*place) for place in places])
        self.layoutChanged.emit()

    # rows handed to views a thousand at a time: a tree view lays out every row it is given, asking
    # Python for each (at 80,000 groups, a second the window did not answer after each grouping)
    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802 - Qt's name
        return not parent.isValid() and self._fetched < len(self._listed)

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802 - Qt's name
        if self.canFetchMore(parent):
            self._fetch_through(self._fetched + ROWS_AT_ONCE - 1)

    def _fetch_through(self, row: int) -> None:
        """Hand views the listed groups up to ``row`` (and the rest of its thousand)."""
        last = min(len(self._listed), (row // ROWS_AT_ONCE + 1) * ROWS_AT_ONCE) - 1
        if last >= self._fetched:
            self.beginInsertRows(QModelIndex(), self._fetched, last)
            self._fetched = last + 1
            self.endInsertRows()

    @property
    def listed_count(self) -> int:
        """The groups the filter lists, fetched or not."""
        return len(self._listed)

    def group_index(self, row: int) -> QModelIndex:
        """The index of the ``row``-th group listed, fetched first if need be."""
        if not 0 <= row < len(self._listed):
            return QModelIndex()
        self._fetch_through(row)
        return self.createIndex(row, 0, 0)

    def _place_of(self, index: QModelIndex | QPersistentModelIndex) -> tuple[int, int, int]:
        """(group's place, member's place or -1 for the group's own row, column) of an index."""
        key = _index_key(index)
        if key == 0:
            return self._listed[index.row()], -1, index.column()
        return key - 1, self._members_of(key - 1)[index.row()], index.column()

    def _index_at(self, place: int, member: int, column: int) -> QModelIndex:
        row = self._row_of.get(place)
        if row is None:
            return QModelIndex()
        if member < 0:
            return self.createIndex(row, column, 0)
        return self.createIndex(self._members_of(place).index(member), column, place + 1)

    def _members_of(self, place: int) -> list[int]:
        """The group's members' places in the order listed (sorted when the group is first looked into)."""
        order = self._member_order.get(place)
        if order is None:
            s = self.summaries[place]
            members, keeper = s.group.members, self.keepers.get(s.group.id)
            column, descending = self.sort_column, self.sort_order == Qt.SortOrder.DescendingOrder
            rest = [k for k, m in enumerate(members) if m.document_id != keeper]
            rest.sort(key=lambda k: self._member_key(members[k], column), reverse=descending)
            order = self._member_order[place] = [k for k, m in enumerate(members) if m.document_id == keeper] + rest
        return order

    def _warm(self, slice_s: float = 0.02) -> None:
        """Make what a filter looks in for the next groups, for at most ``slice_s`` (then events go on)."""
        end = time.perf_counter() + slice_s
        while self._warmed < len(self.summaries) and time.perf_counter() < end:
            self._mentions(self._warmed, "\0")  # (no text holds it: each part is made and kept)
            self._warmed += 1
        if self._warmed >= len(self.summaries):
            self._warming.stop()

    def _mentions(self, place: int, text: str) -> bool:
        """Whether a member's path, or what the group is about, holds the text (lower-case)."""
        texts = self._texts.get(place)
        group = self.summaries[place].group
        if texts is None:  # kept: the filter asks again on every key typed (at 80,000 groups 0.07 s a key, not 0.7)
            docs = self.docs
            paths = "\n".join(docs[m.document_id].display_path for m in group.members).lower()
            texts = self._texts[place] = (paths, self.topics.keywords(group.id))
        paths, keywords = texts
        return (
            text in paths
            or text in keywords
            or (GroupTopics.names_topics(text) and self.topics.mentions(group.id, text))  # its topic as it reads
        )

    def listed_group_ids(self) -> frozenset[int] | None:
        """The ids of the groups listed, or None when the filter lists them all."""
        if len(self._listed) == len(self.summaries):
            return None
        return frozenset(self.summaries[place].group.id for place in self._listed)

    def lists(self, group_id: int) -> bool:
        """Whether the group is listed (it passes the filter)."""
        place = self._place_of_group.get(group_id)
        return place is not None and place in self._row_of

    # marks ----------------------------------------------------------------------------------
    def _marks_changed(self, changed: frozenset[int]) -> None:
        """The marks changed (a rule, a click, an action): the check boxes of the groups they touch are
        painted again (a click repaints one group, not ten thousand)."""
        role = [Qt.ItemDataRole.CheckStateRole]
        places = {place for d in changed for place, _k in self._place_of_doc.get(d, ())}
        for row in sorted(row for place in places if (row := self._row_of.get(place, self._fetched)) < self._fetched):
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
        if row < 0 or not 0 <= column < len(COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < self._fetched else QModelIndex()
        if _index_key(parent) != 0 or parent.column() != 0:
            return QModelIndex()
        place = self._listed[parent.row()]
        return self.createIndex(row, column, place + 1) if row < self.summaries[place].members else QModelIndex()

    def parent(self, index: QModelIndex = QModelIndex()):  # type: ignore[override]
        if not index.isValid() or _index_key(index) == 0:
            return QModelIndex()
        row = self._row_of.get(_index_key(index) - 1)
        return self.createIndex(row, 0, 0) if row is not None else QModelIndex()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        if not parent.isValid():
            return self._fetched
        if _index_key(parent) == 0 and parent.column() == 0:
            return self.summaries[self._listed[parent.row()]].members
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
        return self.summaries[self._listed[index.row()] if key == 0 else key - 1]

    def member(self, index: QModelIndex | QPersistentModelIndex) -> Member | None:
        if not index.isValid() or _index_key(index) == 0:
            return None
        place = _index_key(index) - 1
        return self.summaries[place].group.members[self._members_of(place)[index.row()]]

    def document(self, index: QModelIndex | QPersistentModelIndex) -> Document | None:
        m = self.member(index)
        return self.docs[m.document_id] if m else None

    def index_of(self, doc_id: int) -> QModelIndex:
        """The document's row under the first listed group it is in (invalid when none is listed)."""
        for place, k in self._place_of_doc.get(doc_id, ()):
            if place in self._row_of:
                self._fetch_through(self._row_of[place])
                return self._index_at(place, k, 0)
        return QModelIndex()

    def _keeps_a_group(self, doc_id: int) -> bool:
        return any(
            self.keepers.get(self.summaries[place].group.id) == doc_id
            for place, _k in self._place_of_doc.get(doc_id, ())
        )

    def groups_listing(self, doc_id: int) -> list[int]:
        """The ids of the groups a document is in."""
        return [self.summaries[place].group.id for place, _k in self._place_of_doc.get(doc_id, ())]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        s = self.summary(index)
        m = self.member(index)
        col = index.column()
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

    @staticmethod
    def _group_key(s: GroupSummary, column: int) -> Any:
        """What a group's row sorts by in the column: its size, its keeper's path, its lowest similarity…"""
        if column == 0:
            return s.members
        if column == FOLDER_COLUMN:
            return s.representative.display_path.lower()
        if column == BITS_COLUMN:
            return s.worst_hamming
        if column in (SIMILARITY_COLUMN, JACCARD_COLUMN):
            return s.worst_jaccard
        if column == SIZE_COLUMN:
            return s.total_size
        if column == TYPE_COLUMN:
            return "exact" if s.group.exact else "near"
        return 0

    def _member_key(self, m: Member, column: int) -> Any:
        """What a member's row sorts by in the column."""
        doc, sim = self.docs[m.document_id], m.similarity
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
        )[column]

    def name(self, s: GroupSummary) -> str:
        """What a group is called: what it is about, else its first file's name."""
        topic = self.topics.get(s.group.id)
        return listed(topic) if topic else os.path.basename(s.representative.display_path)

    def _group_data(self, s: GroupSummary, col: int, role: int):
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
