"""The Pairs tab: every verified pair of duplicates at the setting (not only the pairs groups are made of),
sortable and filterable, with the pair view below and Keep left / Keep right / Not a duplicate per pair.
Widgets and their model only: what the buttons do is the review's (controller.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.models import Document, Find, SharedPassages, Similarity
from ..core.review.pairs import PairTable
from ..core.review.rules import Listing, human_size
from ..core.review.words import percent, similarity_details, similarity_words
from .controller import Marks
from .delegates import MixedScriptRowDelegate
from .diff_view import DiffView
from .overflow_bar import OverflowBar
from .passage_view import PassageView

PAIR_COLUMNS = (
    QT_TRANSLATE_NOOP("PairsModel", "Left"),
    QT_TRANSLATE_NOOP("PairsModel", "Right"),
    QT_TRANSLATE_NOOP("PairsModel", "Similarity"),
    QT_TRANSLATE_NOOP("PairsModel", "Containment"),
    QT_TRANSLATE_NOOP("PairsModel", "Left size"),
    QT_TRANSLATE_NOOP("PairsModel", "Right size"),
    QT_TRANSLATE_NOOP("PairsModel", "Listed together"),
    QT_TRANSLATE_NOOP("PairsModel", "Longest passage"),
    QT_TRANSLATE_NOOP("PairsModel", "Passages"),
)
PAIR_TIPS = (
    QT_TRANSLATE_NOOP("PairsModel", "One document of the pair (the first by path)"),
    QT_TRANSLATE_NOOP("PairsModel", "The other document"),
    QT_TRANSLATE_NOOP("PairsModel", "How much of the text the two share; hover over a value for the exact measures"),
    QT_TRANSLATE_NOOP(
        "PairsModel",
        "Share of the smaller text found inside the other (an excerpt inside a longer document scores 100 %)",
    ),
    QT_TRANSLATE_NOOP("PairsModel", "Size of the left file"),
    QT_TRANSLATE_NOOP("PairsModel", "Size of the right file"),
    QT_TRANSLATE_NOOP(
        "PairsModel",
        "The groups that list both documents; \u201c\u2014\u201d: none does (each is grouped with other duplicates)",
    ),
    QT_TRANSLATE_NOOP("PairsModel", "The longest passage both documents hold word for word, in words"),
    QT_TRANSLATE_NOOP("PairsModel", "How many passages the two documents share"),
)
EXCERPT_COLUMNS = (
    QT_TRANSLATE_NOOP("PairsModel", "Excerpt"),
    QT_TRANSLATE_NOOP("PairsModel", "Found in"),
)
EXCERPT_TIPS = (
    QT_TRANSLATE_NOOP("PairsModel", "The document inside the other"),
    QT_TRANSLATE_NOOP("PairsModel", "The document that holds it"),
)
LEFT, RIGHT, SIMILARITY, CONTAINMENT, LEFT_SIZE, RIGHT_SIZE, TOGETHER, LONGEST, PASSAGES = range(9)
HIDDEN = {
    Find.DUPLICATES: (LONGEST, PASSAGES),
    Find.EXCERPTS: (LONGEST, PASSAGES),
    Find.PASSAGES: (CONTAINMENT, LEFT_SIZE, RIGHT_SIZE),
}
"""The columns each search's pairs do without. Listed together stays: an excerpt or a passage of a copy that
a group already lists says so."""
SHOWN_FIRST = {Find.DUPLICATES: SIMILARITY, Find.EXCERPTS: CONTAINMENT, Find.PASSAGES: LONGEST}
"""The column each search's pairs are sorted by at first (the most alike first)."""


class PairsModel(QAbstractTableModel):
    """The rows of a PairTable, shown in the order chosen (sort) among those the filter keeps: the table
    stays in numpy, so a hundred thousand pairs sort and filter at once."""

    def __init__(self, marks: Marks, parent=None) -> None:
        super().__init__(parent)
        self.marks = marks
        self.marks.changed.connect(lambda _changed: self._names_changed())
        self.kept: frozenset[int] = frozenset()  # documents a group keeps: shown in bold
        self.listed = Find.DUPLICATES  # what the table's pairs are
        self.table: PairTable | None = None
        self.docs: Mapping[int, Document] = {}
        self._left = self._right = np.empty(0, dtype=np.int64)  # document ids, left the first by path
        self._listing = Listing()  # the grouping's: which groups list both documents of a pair
        self._rows = np.empty(0, dtype=np.int64)  # table rows in display order
        self._sort = (SIMILARITY, Qt.SortOrder.DescendingOrder)
        self._filter = ""
        self._keys: dict[int, np.ndarray] = {}  # a column's sort key over the whole table, made once a table

    def set_table(
        self,
        table: PairTable | None,
        docs: Mapping[int, Document],
        listing: Listing,
        kept: frozenset[int] = frozenset(),
        find: Find = Find.DUPLICATES,
    ) -> None:
        """Show ``table``: the first of each pair by path on the left, or of excerpts, the one inside.
        ``listing``: the grouping's (which groups list both of a pair)."""
        self.beginResetModel()
        self.table, self.docs, self.kept, self.listed, self._listing = table, docs, kept, find, listing
        self._keys = {}
        if table is None:
            self._left = self._right = np.empty(0, dtype=np.int64)
        else:
            first = table.a_first if table.inner is None else table.a == table.inner  # the excerpt on the left
            self._left, self._right = np.where(first, table.a, table.b), np.where(first, table.b, table.a)
        self._arrange()
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        self.beginResetModel()
        self._filter = text.strip().casefold()
        self._arrange()
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order)
        self._arrange()
        self.layoutChanged.emit()

    def _arrange(self) -> None:
        table = self.table
        if table is None:
            self._rows = np.empty(0, dtype=np.int64)
            return
        rows = np.arange(len(table))
        if self._filter:
            docs = self.docs  # the pairs' documents, not the whole collection's
            ids = table.documents().tolist()
            wanted = np.array([d for d in ids if self._filter in docs[d].display_path.casefold()], dtype=np.int64)
            rows = rows[np.isin(self._left, wanted) | np.isin(self._right, wanted)]
        column, order = self._sort
        if column not in self._keys:
            self._keys[column] = self._key(column)
        key = self._keys[column][rows]
        ranked = rows[np.argsort(key, kind="stable")]
        self._rows = ranked[::-1] if order == Qt.SortOrder.DescendingOrder else ranked

    def _key(self, column: int) -> np.ndarray:
        table = self.table
        assert table is not None
        if column in (LEFT, RIGHT):
            ids = self._left if column == LEFT else self._right
            names = [os.path.basename(self.docs[d].display_path).casefold() for d in ids.tolist()]
            order = {name: n for n, name in enumerate(sorted(set(names)))}
            return np.array([order[name] for name in names], dtype=np.int64)
        if column == SIMILARITY:
            return table.similarity.jaccard
        if column == CONTAINMENT:
            return table.similarity.containment
        if column in (LONGEST, PASSAGES):
            if not table.passages:
                return np.zeros(len(table), dtype=np.int64)
            return table.passages.longest if column == LONGEST else table.passages.counts
        if column in (LEFT_SIZE, RIGHT_SIZE):
            ids = self._left if column == LEFT_SIZE else self._right
            return np.array([self.docs[d].size for d in ids.tolist()], dtype=np.int64)
        # by the first group that lists both; pairs no group lists together first
        return np.array([next(iter(self._together(k)), 0) for k in range(len(table))], dtype=np.int64)

    def _together(self, k: int) -> list[int]:
        """The groups that list both documents of the table's pair ``k`` (made when shown: a million
        documents' groups have hundreds of thousands of pairs)."""
        assert self.table is not None
        places = self._listing.places
        a, b = int(self.table.a[k]), int(self.table.b[k])
        of_b = {place for place, _k in places.get(b, ())}
        return [self._listing.summaries[place].group.id for place, _k in places.get(a, ()) if place in of_b]

    # -- what a row holds ------------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self.table) if self.table is not None else 0

    def pair_at(self, row: int) -> tuple[Document, Document, Similarity] | None:
        """The documents of a shown row (left, right) and the right one's numbers against the left, as the
        pair view shows a member against its keeper."""
        if not 0 <= row < len(self._rows) or self.table is None:
            return None
        k = int(self._rows[row])
        left, right = self.docs[int(self._left[k])], self.docs[int(self._right[k])]
        s = self.table.similarity.at(k)
        if right.id == int(self.table.a[k]):  # a inside b is the right inside the left
            return left, right, s
        return left, right, Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba, s.containment_ab)

    def row_of(self, left: int, right: int) -> int | None:
        """The shown row of the pair of these documents, or None."""
        table = self.table
        if table is None:
            return None
        at = table.row_of(left, right)
        if at is None:
            return None
        where = np.flatnonzero(self._rows == at)
        return int(where[0]) if len(where) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(PAIR_COLUMNS)

    def headerData(  # noqa: N802 - Qt's name
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> str | None:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(PAIR_COLUMNS):
            return None
        excerpts = self.listed is Find.EXCERPTS and section in (LEFT, RIGHT)
        if role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("PairsModel", (EXCERPT_COLUMNS if excerpts else PAIR_COLUMNS)[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return QCoreApplication.translate("PairsModel", (EXCERPT_TIPS if excerpts else PAIR_TIPS)[section])
        return None

    def _names_changed(self) -> None:
        if self._rows.size:
            self.dataChanged.emit(
                self.index(0, LEFT),
                self.index(len(self._rows) - 1, RIGHT),
                [Qt.ItemDataRole.FontRole, Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole],
            )

    def data(  # one branch a column
        self,
        index: QModelIndex | QPersistentModelIndex,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> str | QFont | None:
        if not index.isValid() or self.table is None:
            return None
        k = int(self._rows[index.row()])
        column, tip = index.column(), role == Qt.ItemDataRole.ToolTipRole
        left, right = self.docs[int(self._left[k])], self.docs[int(self._right[k])]
        if column in (LEFT, RIGHT):  # a file kept in bold, a ticked one struck through (as it will go)
            doc = left if column == LEFT else right
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(doc.id in self.kept)
                font.setStrikeOut(doc.id in self.marks)
                return font
            if tip:
                state = self.tr("kept") if doc.id in self.kept else self.tr("ticked") if doc.id in self.marks else ""
                return doc.display_path + (f"\n{state}" if state else "")
            if role != Qt.ItemDataRole.DisplayRole:
                return None
            name = os.path.basename(doc.display_path)
            if os.path.basename(left.display_path) == os.path.basename(right.display_path):
                # two files of one name: the ends of their folders that tell them apart
                folders = telling_ends(os.path.dirname(left.display_path), os.path.dirname(right.display_path))
                folder = folders[0] if column == LEFT else folders[1]
                return self.tr("{name} — in {folder}").format(name=name, folder=folder)
            return name
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        if column == SIMILARITY:
            pair = self.pair_at(index.row())
            assert pair is not None
            if tip:
                return similarity_details(pair[2])
            return similarity_words(pair[2])
        if column == CONTAINMENT:
            if CONTAINMENT not in self._keys:  # the larger way of each pair, worked out once a table
                self._keys[CONTAINMENT] = self._key(CONTAINMENT)
            return None if tip else percent(float(self._keys[CONTAINMENT][k]))
        if column in (LEFT_SIZE, RIGHT_SIZE):
            return None if tip else human_size((left if column == LEFT_SIZE else right).size)
        if column in (LONGEST, PASSAGES):
            if tip or not self.table.passages:
                return None
            if column not in self._keys:  # worked out once a table, as the sort's keys
                self._keys[column] = self._key(column)
            value = int(self._keys[column][k])
            return f"{value:,}" if column == PASSAGES else self.tr("%n word(s)", "", value)
        return None if tip else ", ".join(map(str, self._together(k))) or "\u2014"

    def passages_at(self, row: int) -> SharedPassages | None:
        """The passages the documents of a shown row share (a table of shared passages only)."""
        if not 0 <= row < len(self._rows) or self.table is None or not self.table.passages:
            return None
        return self.table.passages[int(self._rows[row])]


def telling_ends(a: str, b: str) -> tuple[str, str]:
    """The shortest ends of two folders' paths that differ (Legal, Downloads; a/Legal, b/Legal), or the
    whole paths when one holds the other."""
    parts_a, parts_b = Path(a).parts, Path(b).parts
    for length in range(1, min(len(parts_a), len(parts_b))):
        if parts_a[-length:] != parts_b[-length:]:
            return str(Path(*parts_a[-length:])), str(Path(*parts_b[-length:]))
    return a, b


class PairsPage(QWidget):
    """Everything on the Pairs tab: the pairs of what is looked for (duplicates, excerpts, documents that share
    passages), and below, the pair selected: compared (duplicates, excerpts) or its passages (shared passages)."""

    pair_selected = Signal(object)  # (left, right, similarity) | None

    def __init__(self, marks: Marks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.listed = Find.DUPLICATES  # what the table lists
        self.model = PairsModel(marks, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(MixedScriptRowDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(SIMILARITY, Qt.SortOrder.DescendingOrder)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in (
            (LEFT, 200),
            (RIGHT, 200),
            (SIMILARITY, 110),
            (CONTAINMENT, 100),
            (LEFT_SIZE, 80),
            (RIGHT_SIZE, 80),
            (LONGEST, 110),
            (PASSAGES, 70),
        ):
            # never narrower than its heading with the sort arrow ("Longest passage" was cut at 110)
            self.table.setColumnWidth(column, max(width, header.sectionSizeHint(column)))
        self.place_passage_columns()
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter by path…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setToolTip(self.tr("Show only pairs with a document whose path contains this text"))
        self.filter_edit.setMinimumWidth(120)
        self.filter_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.filter_edit.textChanged.connect(self.model.set_filter)
        self.filter_edit.textChanged.connect(lambda _text: self.table.scrollToTop())  # the filter's list from its start
        self.count_label = QLabel("", self)
        self.keep_left_button = QPushButton(self.tr("Keep left"), self)  # actions.py: what they do, their keys
        self.keep_right_button = QPushButton(self.tr("Keep right"), self)
        self.not_dup_button = QPushButton(self.tr("Not a duplicate"), self)
        self.not_dup_button.setToolTip(
            self.tr("These two are not duplicates, now and after rescans; Edit ▸ Undo takes it back (Ctrl+D)")
        )
        self.bar = bar = OverflowBar(self.tr("Pairs"), self)
        bar.addWidget(self.filter_edit)
        bar.addWidget(self.count_label)
        for b in (self.keep_left_button, self.keep_right_button, self.not_dup_button):
            bar.addWidget(b)
        self.diff = DiffView(self)
        self.passages = PassageView(self)
        self.detail = QStackedWidget(self)
        self.detail.addWidget(self.diff)
        self.detail.addWidget(self.passages)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.addWidget(self.table)
        self.split.addWidget(self.detail)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(bar)
        layout.addWidget(self.split, 1)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _previous: self._row_changed())
        self.model.modelReset.connect(self._shown_changed)
        self.model.layoutChanged.connect(self._shown_changed)
        self.show_find(Find.DUPLICATES)

    def show_table(
        self,
        table: PairTable | None,
        docs: Mapping[int, Document],
        listing: Listing,
        kept: frozenset[int] = frozenset(),
        find: Find = Find.DUPLICATES,
    ) -> None:
        """A new table (a new grouping, or another search): the pair selected before stays selected if it is
        still listed, else the row where it was (the next pair, after a decision took it out). Each search's
        pairs are first shown the most alike first."""
        pair = self.current_pair()
        row = self.table.currentIndex().row()
        changed = find is not self.listed
        if changed:
            pair, row = None, 0
        self.model.set_table(table, docs, listing, kept, find)
        if changed:  # after the new table is in: the old one's pair is not compared for nothing
            self.show_find(find)
        again = self.model.row_of(pair[0].id, pair[1].id) if pair is not None else None
        if again is None and self.model.rowCount():
            again = min(max(row, 0), self.model.rowCount() - 1)
        if again is not None:
            self.table.setCurrentIndex(self.model.index(again, LEFT))
        self._shown_changed()

    def current_pair(self) -> tuple[Document, Document, Similarity] | None:
        index = self.table.currentIndex()
        return self.model.pair_at(index.row()) if index.isValid() else None

    def current_passages(self) -> SharedPassages | None:
        """The passages the pair selected shares (while shared passages are listed)."""
        index = self.table.currentIndex()
        return self.model.passages_at(index.row()) if index.isValid() else None

    def place_passage_columns(self) -> None:
        """The passage columns beside the numbers, not after the groups (also where a header remembered from
        before they were had put them)."""
        header = self.table.horizontalHeader()
        if header.visualIndex(LONGEST) > header.visualIndex(TOGETHER):
            for column, place in ((LONGEST, header.visualIndex(CONTAINMENT) + 1), (PASSAGES, None)):
                target = place if place is not None else header.visualIndex(LONGEST) + 1
                header.moveSection(header.visualIndex(column), target)

    def show_find(self, find: Find, *, sort: bool = True) -> None:
        """The columns, buttons, order (unless ``sort`` is False: the order the person left) and pair view of
        what is listed: a pair of duplicates has Keep left, Keep right and Not a duplicate; an excerpt is not a
        copy to remove, nor are two documents that share a passage (and the duplicates' decisions do not apply
        to them)."""
        self.listed = find
        if sort:
            self.table.sortByColumn(SHOWN_FIRST[find], Qt.SortOrder.DescendingOrder)
        duplicates = find is Find.DUPLICATES
        for b in (self.keep_left_button, self.keep_right_button, self.not_dup_button):
            self.bar.set_wanted(b, duplicates)
        for column in range(len(PAIR_COLUMNS)):
            self.table.setColumnHidden(column, column in HIDDEN[find])
        self.detail.setCurrentWidget(self.passages if self.listed is Find.PASSAGES else self.diff)

    def _shown_changed(self) -> None:
        total, shown = self.model.total, self.model.rowCount()
        table = self.model.table
        if self.listed is Find.EXCERPTS:
            counted = (
                self.tr("%Ln excerpt(s)", "", total)
                if shown == total
                else self.tr("{shown} of %Ln excerpt(s)", "", total).format(shown=QLocale().toString(shown))
            )
        elif self.listed is Find.PASSAGES:
            counted = (
                self.tr("%Ln pair(s) that share passages", "", total)
                if shown == total
                else self.tr("{shown} of %Ln pair(s) that share passages", "", total).format(
                    shown=QLocale().toString(shown)
                )
            )
        else:
            counted = (
                self.tr("%Ln pair(s)", "", total)
                if shown == total
                else self.tr("{shown} of %Ln pair(s)", "", total).format(shown=QLocale().toString(shown))
            )
        text = counted
        if table is not None and table.incomplete:
            count = table.incomplete
            text += " · " + self.tr(
                "in %n very large group(s) only the pairs known: those that joined them, and "
                "each member with its keeper",
                "",
                count,
            )
        self.count_label.setText(text)
        self._row_changed()

    def _row_changed(self) -> None:
        self.pair_selected.emit(self.current_pair())
