"""The pair view: two synchronised sides with line numbers, changed words highlighted, the pair's
numbers in a header, and next/previous difference. The alignment is computed off the GUI thread."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFontDatabase, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.diff import DiffRow, change_rows, shared_passages, side_by_side, stats
from ..core.jobs import NEVER_CANCELLED, CancelToken, Progress, no_progress
from ..core.models import Document, Similarity


def compute_pair(left: str, right: str, width: int, *, progress: Progress = no_progress,
                  cancel: CancelToken = NEVER_CANCELLED) -> list[DiffRow]:
    """The job the view runs in the background: lines cut to ``width`` characters, then aligned."""
    return side_by_side(left, right, width=width, cancel=cancel)


_NUMBERS_TIP = ("Why these two matched: Hamming distance of the 64-bit SimHashes, estimated (MinHash) and exact "
                "Jaccard of the 3-unit shingle sets, and containment each way")
_BOILERPLATE_TIP = (". Jaccard and containment leave out the passages found in 10 % or more of the collection "
                    "(Ignore boilerplate).")


class DiffModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[DiffRow] = []

    def set_rows(self, rows: list[DiffRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 4

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return str(row.left_no or "")
            if col == 2:
                return str(row.right_no or "")
            segs = row.left if col == 1 else row.right
            return "".join(s.text for s in segs) if segs else ""
        if role == Qt.ItemDataRole.ToolTipRole and col in (1, 3):
            segs = row.left if col == 1 else row.right
            return "".join(s.text for s in segs) if segs else None
        return None


class SegmentDelegate(QStyledItemDelegate):
    """Paints a side of a row: the line's colour by change kind, changed words stronger."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        model = cast(DiffModel, index.model())  # this delegate paints DiffModel's rows only
        row = model.rows[index.row()]
        col = index.column()
        palette = option.palette
        dark = palette.color(QPalette.ColorRole.Base).lightness() < 128
        colours = _colours(dark)
        painter.save()
        rect: QRect = option.rect
        if col in (0, 2):
            painter.fillRect(rect, palette.color(QPalette.ColorRole.AlternateBase))
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            number = row.left_no if col == 0 else row.right_no
            painter.drawText(rect.adjusted(0, 0, -6, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             str(number or ""))
            painter.restore()
            return
        segs = row.left if col == 1 else row.right
        side_changed = row.kind != "equal" and segs is not None
        if side_changed:
            painter.fillRect(rect, colours["del_line" if col == 1 else "ins_line"])
        elif segs is None:
            painter.fillRect(rect, colours["absent"])
        if segs:
            metrics = option.fontMetrics
            x = rect.left() + 4
            baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) // 2
            painter.setPen(palette.color(QPalette.ColorRole.Text))
            right_edge = rect.right() - metrics.horizontalAdvance("…")
            for seg in segs:
                text = seg.text
                width = metrics.horizontalAdvance(text)
                clipped = x + width > right_edge
                if clipped:
                    text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(0, rect.right() - x))
                    width = metrics.horizontalAdvance(text)
                if seg.changed and row.kind == "replace":
                    painter.fillRect(QRect(x, rect.top() + 1, width, rect.height() - 2),
                                     colours["del_word" if col == 1 else "ins_word"])
                painter.drawText(x, baseline, text)
                x += width
                if clipped:
                    break
        painter.restore()


def _colours(dark: bool) -> dict[str, QColor]:
    if dark:
        return {"del_line": QColor(86, 36, 43), "ins_line": QColor(30, 70, 45), "del_word": QColor(140, 50, 62),
                "ins_word": QColor(44, 112, 66), "absent": QColor(40, 42, 48)}
    return {"del_line": QColor(253, 231, 233), "ins_line": QColor(227, 246, 232), "del_word": QColor(247, 185, 192),
            "ins_word": QColor(168, 226, 184), "absent": QColor(244, 245, 247)}


_PLACEHOLDER = "Select a document in a group to compare it with the file the group keeps."


class DiffView(QWidget):
    """Header with the pair's numbers, navigation, and the aligned table."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = DiffModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(SegmentDelegate(self.table))
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.table.setFont(mono)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 4)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        number_width = self.table.fontMetrics().horizontalAdvance("000000") + 8
        header.resizeSection(0, number_width)
        header.resizeSection(2, number_width)

        self.title = QLabel(_PLACEHOLDER, self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.numbers = QLabel("", self)
        self.numbers.setTextFormat(Qt.TextFormat.RichText)
        self.numbers.setWordWrap(True)  # a long line wraps instead of widening the pane
        self.numbers.setToolTip(_NUMBERS_TIP)
        self.position = QLabel("", self)
        self.passage = QLabel("", self)
        self.passage.setTextFormat(Qt.TextFormat.PlainText)
        self.passage.setToolTip("The longest passage both documents share word for word")
        self.previous_button = QToolButton(self)
        self.previous_button.setText("▲ Previous")
        self.previous_button.setToolTip("Previous difference (Shift+F3)")
        self.previous_button.setShortcut("Shift+F3")
        self.next_button = QToolButton(self)
        self.next_button.setText("▼ Next")
        self.next_button.setToolTip("Next difference (F3)")
        self.next_button.setShortcut("F3")
        self.previous_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))

        top = QHBoxLayout()
        top.addWidget(self.numbers, 1)
        top.addWidget(self.position)
        top.addWidget(self.previous_button)
        top.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(top)
        layout.addWidget(self.passage)
        layout.addWidget(self.table, 1)
        self._changes: list[int] = []
        self._current = -1
        self._update_navigation()

    def show_pending(self, left: Document, right: Document, similarity: Similarity, *,
                     without_boilerplate: bool = False) -> None:
        """A pair's names and numbers while its texts are compared; see show_numbers."""
        self.title.setText(f"{left.display_path}   ↔   {right.display_path}")
        self.show_numbers(similarity, without_boilerplate=without_boilerplate)
        self.model.set_rows([])
        self.passage.setText("")
        self.position.setText("comparing…")
        self._changes, self._current = [], -1
        self._update_navigation()

    def show_numbers(self, similarity: Similarity, *, without_boilerplate: bool = False) -> None:
        """The pair's numbers; ``without_boilerplate`` when the Jaccard and containment shown leave out
        passages common to the collection."""
        s = similarity
        note = " · <i>boilerplate left out</i>" if without_boilerplate else ""
        self.numbers.setText(
            f"Hamming <b>{s.hamming}</b> · Jaccard <b>{s.jaccard:.3f}</b> (estimate {s.jaccard_estimate:.3f}) · "
            f"containment <b>{s.containment_ba:.3f}</b> of left in right, "
            f"<b>{s.containment_ab:.3f}</b> of right in left{note}")
        self.numbers.setToolTip(_NUMBERS_TIP + (_BOILERPLATE_TIP if without_boilerplate else ""))

    def clear(self) -> None:
        """Show no pair (the one shown is no longer in the groups)."""
        self.show_problem(_PLACEHOLDER)
        self.numbers.setText("")
        self.passage.setText("")

    def show_problem(self, message: str) -> None:
        self.model.set_rows([])
        self.position.setText("")
        self.title.setText(message)
        self._changes, self._current = [], -1
        self._update_navigation()

    def show_rows(self, rows: list[DiffRow]) -> None:
        self.model.set_rows(rows)
        passages = shared_passages(rows, top=1)
        if passages:
            shown = self.passage.fontMetrics().elidedText(passages[0], Qt.TextElideMode.ElideRight,
                                                          max(200, self.width() - 260))
            self.passage.setText(f"Longest shared passage: “{shown}”")
            self.passage.setToolTip(passages[0])
        else:
            self.passage.setText("No passage of 30 characters or more is shared word for word.")
        self._changes = change_rows(rows)
        st = stats(rows)
        if not self._changes:
            self.position.setText("the texts differ only in spacing, case or width")
        else:
            n = len(self._changes)
            self.position.setText(f"{n} difference{'s' if n != 1 else ''} · {st.changed} changed, "
                                  f"{st.deleted} removed, {st.inserted} added lines")
        self._current = -1
        self._update_navigation()
        if self._changes:
            self.go(1)

    def go(self, step: int) -> None:
        if not self._changes:
            return
        self._current = max(0, min(len(self._changes) - 1, self._current + step))
        row = self._changes[self._current]
        self.table.scrollTo(self.model.index(row, 1), QAbstractItemView.ScrollHint.PositionAtCenter)
        self._update_navigation()

    def _update_navigation(self) -> None:
        self.previous_button.setEnabled(self._current > 0)
        self.next_button.setEnabled(bool(self._changes) and self._current < len(self._changes) - 1)

    @property
    def current_change_row(self) -> int | None:
        return self._changes[self._current] if 0 <= self._current < len(self._changes) else None

    def line_width(self) -> int:
        """How many characters fit on one side now: lines are cut to this before aligning."""
        # the delegate's padding and the elision mark; and the scroll bar the rows will bring takes its
        # width from the two text columns
        usable = self.table.columnWidth(1) - 12 - self.table.verticalScrollBar().sizeHint().width() // 2
        return max(40, usable // max(1, self.table.fontMetrics().horizontalAdvance("M")))
