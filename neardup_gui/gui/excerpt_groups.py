"""The Groups tab while excerpts are looked for: each document that holds others, with the excerpts inside it
(review/pairs.excerpt_groups). Nothing here is ticked or proposed for removal: an excerpt is no copy, and the
document that holds it has text it does not."""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.models import Document, Similarity
from ..core.review.pairs import ExcerptGroup, PairTable, excerpt_groups, inner_share
from ..core.review.rules import human_size
from ..core.review.words import percent

COLUMNS = (
    QT_TRANSLATE_NOOP("ExcerptGroups", "Document"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "Inside"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "Size"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "Folder"),
)
TIPS = (
    QT_TRANSLATE_NOOP("ExcerptGroups", "A document that holds others (in bold), and under it each one inside it"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "How much of the excerpt is inside the document above it"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "The file's size"),
    QT_TRANSLATE_NOOP("ExcerptGroups", "Where the file is"),
)
NAME, INSIDE, SIZE, FOLDER = range(len(COLUMNS))


class ExcerptGroupsModel(QAbstractItemModel):
    """Two levels: a document that holds excerpts (internal id 0), and its excerpts (internal id: the row of
    their document + 1), among the groups the filter keeps."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table: PairTable | None = None
        self.docs: Mapping[int, Document] = {}
        self._groups: tuple[ExcerptGroup, ...] = ()
        self._shown: list[ExcerptGroup] = []
        self._share = np.empty(0)
        self._filter = ""

    def set_table(self, table: PairTable | None, docs: Mapping[int, Document]) -> None:
        """Show the excerpts of ``table`` (an excerpt table; None: none yet) by the document they are inside."""
        self.beginResetModel()
        self.table, self.docs = table, docs
        self._groups = excerpt_groups(table, docs) if table is not None else ()
        self._share = inner_share(table) if table is not None else np.empty(0)
        self._arrange()
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        """Only the groups with a document whose path contains ``text``."""
        self.beginResetModel()
        self._filter = text.strip().casefold()
        self._arrange()
        self.endResetModel()

    def _arrange(self) -> None:
        wanted = self._filter
        if not wanted or self.table is None:
            self._shown = list(self._groups)
            return
        path_has = {d for d, doc in self.docs.items() if wanted in doc.display_path.casefold()}
        inner = self.table.inner
        assert inner is not None
        self._shown = [g for g in self._groups if g.outer in path_has or any(int(inner[k]) in path_has for k in g.rows)]

    @property
    def groups(self) -> int:
        """How many documents hold excerpts (all, not only those the filter shows)."""
        return len(self._groups)

    # -- what a row holds ------------------------------------------------------------------
    def _group(self, index: QModelIndex | QPersistentModelIndex) -> ExcerptGroup:
        return self._shown[index.row() if index.internalId() == 0 else index.internalId() - 1]

    def document(self, index: QModelIndex | QPersistentModelIndex) -> Document | None:
        """The document of a row: the one that holds, or an excerpt."""
        if not index.isValid() or self.table is None:
            return None
        group = self._group(index)
        if index.internalId() == 0:
            return self.docs[group.outer]
        assert self.table.inner is not None
        return self.docs[int(self.table.inner[group.rows[index.row()]])]

    def pair(self, index: QModelIndex | QPersistentModelIndex) -> tuple[Document, Document, Similarity] | None:
        """The document that holds (left) and an excerpt (right: the row's, or for the holder's own row its first)
        with the excerpt's numbers against it, as the pair view shows a member against its keeper."""
        if not index.isValid() or self.table is None:
            return None
        group = self._group(index)
        k = group.rows[0 if index.internalId() == 0 else index.row()]
        s = self.table.similarity.at(k)
        inner = int(self.table.inner[k]) if self.table.inner is not None else -1
        if inner != int(self.table.a[k]):  # a inside b is the right inside the left: the excerpt is b here
            s = Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba, s.containment_ab)
        return self.docs[group.outer], self.docs[inner], s

    def index_of(self, outer: int, inner: int | None = None) -> QModelIndex:
        """The row of the group of ``outer``, or of its excerpt ``inner`` (invalid when not shown)."""
        for row, group in enumerate(self._shown):
            if group.outer != outer:
                continue
            parent = self.index(row, 0)
            if inner is None or self.table is None or self.table.inner is None:
                return parent
            for child, k in enumerate(group.rows):
                if int(self.table.inner[k]) == inner:
                    return self.index(child, 0, parent)
        return QModelIndex()

    # -- the tree ------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1 if parent.isValid() else 0)

    def parent(self, index: QModelIndex = QModelIndex()):  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        if not parent.isValid():
            return len(self._shown)
        if parent.internalId() != 0 or parent.column() != 0:
            return 0
        return len(self._shown[parent.row()].rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return len(COLUMNS)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> str | None:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("ExcerptGroups", COLUMNS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return QCoreApplication.translate("ExcerptGroups", TIPS[section])
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> str | QFont | None:
        doc = self.document(index)
        if doc is None:
            return None
        holder, column = index.internalId() == 0, index.column()
        if role == Qt.ItemDataRole.FontRole and holder and column == NAME:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return doc.display_path
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == NAME:
            return os.path.basename(doc.display_path)
        if column == FOLDER:
            return os.path.dirname(doc.display_path)
        if column == SIZE:
            return human_size(doc.size)
        group = self._group(index)
        if holder:
            count = len(group.rows)
            return self.tr("holds %n excerpt(s)", "", count)
        return percent(float(self._share[group.rows[index.row()]]))
