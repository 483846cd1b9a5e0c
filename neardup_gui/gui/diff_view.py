"""The pair view: two files side by side with their own line numbers, changed words highlighted, an
overview of every change beside the scroll bar, and next/previous difference.

The texts are compared once (core.review.compare.compare, off the GUI thread); wrapping to the pane's
width is only layout (core.review.layout.Layout), redone when the pane is resized, so numbers and marks
never depend on the window's size. Long lines wrap, or, with wrapping off, both sides scroll sideways
together.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontDatabase, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollBar,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import localize
from ..core.jobs import NEVER_CANCELLED, CancelToken, Progress, no_progress
from ..core.models import Document, Method, Similarity, Status
from ..core.review.compare import PAGE_BREAK, ChunkKind, Comparison, Region, compare, first_screen, share_in_words
from ..core.review.layout import DisplayRow, Layout
from ..core.review.passages import shared_passages
from ..core.review.words import inside, percent
from ..core.store.stored_text import DocumentText
from .worker import Job, JobRunner


@dataclass(frozen=True, slots=True)
class LayoutRequest:
    """How the view wants a pair laid out: ``columns`` per side (0: no wrapping), the width of a Han
    character in columns in the view's font, and whether layout differences count."""

    columns: int
    wide: float
    ignore_layout: bool


def compute_pair(
    left: str,
    right: str,
    request: LayoutRequest,
    *,
    only_first_screen: bool = False,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Layout:
    """The job the view runs in the background: the texts compared, then laid out for the pane. For a
    large pair the quick first job compares ``only_first_screen`` (from a little before the first
    difference to a few screens after it: ``core.review.compare.first_screen``); the whole comparison follows."""
    how = first_screen if only_first_screen else compare
    return Layout(how(left, right, ignore_layout=request.ignore_layout, cancel=cancel), request.columns, request.wide)


_LARGE = 200_000  # characters: a pair this large is laid out again in the background, not at once


class DiffModel(QAbstractTableModel):
    """The rows of a pair's layout: left number, left text, right number, right text."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.layout: Layout | None = None

    @property
    def rows(self) -> Layout | tuple[()]:
        return self.layout if self.layout is not None else ()

    def set_layout(self, layout: Layout | None) -> None:
        self.beginResetModel()
        self.layout = layout
        self.endResetModel()

    def row(self, index: int) -> DisplayRow:
        assert self.layout is not None
        return self.layout[index]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() or self.layout is None else len(self.layout)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 4

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid() or self.layout is None:
            return None
        row = self.layout[index.row()]
        side = row.left if index.column() < 2 else row.right
        if role == Qt.ItemDataRole.DisplayRole:
            if side is None:
                return ""
            if index.column() in (0, 2):
                return "" if side.continued else str(side.number)
            return "".join(s.text for s in side.segments)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() in (0, 2) and side is not None:
            return (self.tr("Line {number}, continued") if side.continued else self.tr("Line {number}")).format(
                number=side.number
            )
        return None


@functools.cache
def _first_shared_row(layout: Layout) -> int | None:
    """The first row of the first run of lines both texts hold that is not a stray line alike (a run of at
    least three lines, or as long as the longest run is)."""
    runs: list[list[int]] = []  # [first chunk, lines] of each run of chunks alike
    after_change = True
    for k, chunk in enumerate(layout.comparison.chunks):
        if chunk.is_change:
            after_change = True
            continue
        if after_change:
            runs.append([k, 0])
        runs[-1][1] += len(chunk.left)
        after_change = False
    if not runs:
        return None
    enough = min(3, max(lines for _k, lines in runs))
    return layout.chunk_rows(next(k for k, lines in runs if lines >= enough)).start


def _colours(dark: bool) -> dict[str, QColor]:
    """The pair view's colours for a light or dark palette (made once: every painted cell asks)."""
    if dark:
        return {
            "del_line": QColor(86, 36, 43),
            "ins_line": QColor(30, 70, 45),
            "del_word": QColor(140, 50, 62),
            "ins_word": QColor(44, 112, 66),
            "absent": QColor(40, 42, 48),
            "replace": QColor(214, 160, 60),
            "delete": QColor(220, 90, 100),
            "insert": QColor(80, 180, 110),
        }
    return {
        "del_line": QColor(253, 231, 233),
        "ins_line": QColor(227, 246, 232),
        "del_word": QColor(247, 185, 192),
        "ins_word": QColor(168, 226, 184),
        "absent": QColor(244, 245, 247),
        "replace": QColor(222, 150, 30),
        "delete": QColor(212, 63, 78),
        "insert": QColor(46, 160, 80),
    }


class SegmentDelegate(QStyledItemDelegate):
    """Paints a side of a row: the line's colour by change kind, changed words stronger, quiet lines
    grey, a continuation row's number as a hook. Text is clipped to the cell, never elided: in wrapping
    mode every row fits; otherwise the sideways scroll bar (``x_offset``) reaches the rest."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        self.x_offset = 0
        self.current: dict[tuple[bool, int], list[tuple[int, int]]] = {}  # stepped to: (left?, line) -> spans

    def show_current(self, region: Region | None) -> None:
        """Outline the changes of the region stepped to (several regions can share a row of a long line)."""
        self.current = {}
        if region is not None:
            for on_left, spans in ((True, region.left), (False, region.right)):
                for number, start, end in spans:
                    self.current.setdefault((on_left, number), []).append((start, end))

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        model = cast(DiffModel, index.model())  # this delegate paints DiffModel's rows only
        row = model.row(index.row())
        col = index.column()
        side = row.left if col < 2 else row.right
        palette = option.palette
        colours = _colours(palette.color(QPalette.ColorRole.Base).lightness() < 128)
        rect: QRect = option.rect
        muted = palette.color(QPalette.ColorRole.PlaceholderText)
        painter.save()
        painter.setClipRect(rect)
        if col in (0, 2):
            painter.fillRect(rect, palette.color(QPalette.ColorRole.AlternateBase))
            if side is not None:
                painter.setPen(muted)
                align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                painter.drawText(rect.adjusted(0, 0, -6, 0), align, "↪" if side.continued else str(side.number))
            painter.restore()
            return
        if side is not None and side.changed:  # a changed line; its unchanged neighbours in the chunk stay plain
            painter.fillRect(rect, colours["del_line" if col == 1 else "ins_line"])
        elif side is None:
            painter.fillRect(rect, colours["absent"])
        text = "".join(s.text for s in side.segments) if side is not None else ""
        if side is not None and side.segments:
            metrics = option.fontMetrics
            if side.quiet and text.strip() == "" and PAGE_BREAK in text:
                pen = QPen(muted)
                pen.setStyle(Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawLine(rect.left() + 4, rect.center().y(), rect.right() - 4, rect.center().y())
                painter.restore()
                return
            x = rect.left() + 4 - self.x_offset
            baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) // 2
            painter.setPen(muted if side.quiet else palette.color(QPalette.ColorRole.Text))
            for seg in side.segments:
                width = metrics.horizontalAdvance(seg.text)
                if x + width >= rect.left() and x <= rect.right():
                    if seg.changed and row.kind == "replace":
                        painter.fillRect(
                            QRect(x, rect.top() + 1, width, rect.height() - 2),
                            colours["del_word" if col == 1 else "ins_word"],
                        )
                    painter.drawText(x, baseline, seg.text)
                x += width
                if x > rect.right():
                    break
        spans = self.current.get((col == 1, side.number)) if side is not None else None
        if side is not None and spans:
            self._outline(painter, rect, side.start, text, spans, palette.color(QPalette.ColorRole.Highlight))
        painter.restore()

    def _outline(
        self, painter: QPainter, rect: QRect, row_start: int, text: str, spans: list[tuple[int, int]], colour: QColor
    ) -> None:
        """A frame around the parts of ``spans`` (offsets in the line) that this row shows."""
        metrics = self.view.fontMetrics()
        row_end = row_start + len(text)
        painter.setPen(QPen(colour, 2))
        for start, end in spans:
            a, b = max(start, row_start), min(end, row_end)
            if a > b or (a == b and not (start == end and row_start <= start <= row_end)):
                continue
            x = rect.left() + 4 - self.x_offset + metrics.horizontalAdvance(text[: a - row_start])
            width = max(4, metrics.horizontalAdvance(text[a - row_start : b - row_start]))
            painter.drawRect(QRect(x - 1, rect.top() + 1, width + 2, rect.height() - 3))


class OverviewRuler(QWidget):
    """A strip beside the scroll bar with a mark for every change, where it is in the whole pair, and the
    part on screen outlined. A click scrolls there."""

    clicked = Signal(float)  # where, from 0 (top) to 1 (bottom)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedWidth(14)
        self.setToolTip(self.tr("Where the differences are in the whole pair; click to go there"))
        self.spans: list[tuple[int, int, ChunkKind]] = []
        self.total = 0
        self.visible = (0, 0)

    def set_changes(self, spans: list[tuple[int, int, ChunkKind]], total: int) -> None:
        self.spans, self.total = spans, total
        self.update()

    def set_visible(self, first: int, last: int) -> None:
        if (first, last) != self.visible:
            self.visible = (first, last)
            self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.AlternateBase))
        if self.total:
            height = self.height()
            colours = _colours(palette.color(QPalette.ColorRole.Base).lightness() < 128)
            for start, end, kind in self.spans:
                top = int(start * height / self.total)
                bottom = max(top + 3, int(end * height / self.total))
                painter.fillRect(2, top, self.width() - 4, bottom - top, colours[kind])
            first, last = self.visible
            top = int(first * height / self.total)
            bottom = max(top + 4, int((last + 1) * height / self.total))
            painter.setPen(palette.color(QPalette.ColorRole.Mid))
            painter.drawRect(0, top, self.width() - 1, min(bottom, height - 1) - top)
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self.height():
            self.clicked.emit(max(0.0, min(1.0, event.position().y() / self.height())))


class DiffView(QWidget):
    """Header with the pair's names and numbers, a summary of what changed, navigation and the two
    options, then the aligned table with its overview ruler."""

    options_changed = Signal()
    laid_out = Signal(object)  # a Layout shown: the first screen of a large pair, then the whole

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.runner: JobRunner | None = None  # where comparisons run; the window gives its own
        self.model = DiffModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.delegate = SegmentDelegate(self.table)
        self.table.setItemDelegate(self.delegate)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
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
        self.sideways = QScrollBar(Qt.Orientation.Horizontal, self)  # both sides together, when not wrapping
        self.sideways.valueChanged.connect(self._scrolled_sideways)
        self.sideways.hide()
        self.ruler = OverviewRuler(self)
        self.ruler.clicked.connect(self._ruler_clicked)
        self.table.verticalScrollBar().valueChanged.connect(lambda _v: self._update_ruler_window())

        self.title = QLabel(self._placeholder(), self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.numbers = QLabel("", self)
        self.numbers.setTextFormat(Qt.TextFormat.RichText)
        self.numbers.setWordWrap(True)  # a long line wraps instead of widening the pane
        self.numbers.setToolTip(self._numbers_tip(None, without_boilerplate=False))
        self.method = Method.MINHASH  # the grouping method, whose own number is shown beside the similarity
        self.position = QLabel("", self)
        self.position.setObjectName("diff-summary")
        self.passage = QLabel("", self)
        self.passage.setTextFormat(Qt.TextFormat.PlainText)
        self.passage.setToolTip(self.tr("The longest passage both documents share word for word"))
        # elided to the room it has; never widens the pane (a long passage once made the window 2,600 px wide)
        self.passage.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.ignore_layout = QCheckBox(self.tr("Ignore spacing and line breaks"), self)
        self.ignore_layout.setChecked(True)
        self.ignore_layout.setToolTip(
            self.tr(
                "Compare what a reader reads: spacing, blank lines, line breaks inside a paragraph, words split "
                "with a hyphen at a line's end and page headers or footers repeated on every page of a PDF are not "
                "counted as differences. Such lines are shown in grey."
            )
        )
        self.wrap_lines = QCheckBox(self.tr("Wrap long lines"), self)
        self.wrap_lines.setChecked(True)
        self.wrap_lines.setToolTip(self.tr("Off: long lines stay on one row, and both sides scroll sideways together"))
        self.previous_button = QToolButton(self)
        self.previous_button.setText(self.tr("▲ Previous"))
        self.previous_button.setToolTip(self.tr("Previous difference (Shift+F3)"))
        self.next_button = QToolButton(self)
        self.next_button.setText(self.tr("▼ Next"))
        self.next_button.setToolTip(self.tr("Next difference (F3)"))
        self.previous_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))
        self.ignore_layout.toggled.connect(self._ignore_layout_toggled)
        self.wrap_lines.toggled.connect(self._wrap_toggled)

        summary = QHBoxLayout()
        summary.addWidget(self.position, 1)
        summary.addWidget(self.previous_button)
        summary.addWidget(self.next_button)
        options = QHBoxLayout()
        options.addWidget(self.passage, 1)
        options.addWidget(self.ignore_layout)
        options.addWidget(self.wrap_lines)
        table_row = QHBoxLayout()
        table_row.setSpacing(2)
        table_row.addWidget(self.table, 1)
        table_row.addWidget(self.ruler)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.numbers)
        layout.addLayout(summary)
        layout.addLayout(options)
        layout.addLayout(table_row, 1)
        layout.addWidget(self.sideways)

        self._texts: tuple[str, str] | None = None
        self._request = 0  # results of an older request are dropped
        self._shown: tuple[Document, Document] | None = None  # the pair show_pair shows (as read: path, size, time)
        self._changes: list[int] = []
        self._current = -1
        self._at_shared = False  # show_pair: open where the texts first run alike
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(80)
        self._relayout.timeout.connect(self._lay_out_again)
        # the text column's width is known only once the header has laid itself out, after the resize
        header.sectionResized.connect(self._section_resized)
        self._update_navigation()

    def _placeholder(self) -> str:
        return self.tr("Select a document in a group to compare it with the file the group keeps.")

    def _numbers_tip(self, similarity: Similarity | None, *, without_boilerplate: bool) -> str:
        lines = [self.tr("How much of the two texts is the same, and the exact measures behind it:")]
        if similarity is not None:
            s = similarity
            lines.append(
                self.tr(
                    "{share} of the phrases are shared (Jaccard {jaccard}; estimated {estimate})\n"
                    "{left_in_right} of the left text is inside the right; {right_in_left} of the right inside the "
                    "left\n"
                    "{bits} of 64 fingerprint bits differ (SimHash Hamming distance)"
                ).format(
                    share=percent(s.jaccard),
                    jaccard=f"{s.jaccard:.3f}",
                    estimate=f"{s.jaccard_estimate:.3f}",
                    left_in_right=percent(s.containment_ba),
                    right_in_left=percent(s.containment_ab),
                    bits=s.hamming,
                )
            )
        if without_boilerplate:
            lines.append(
                self.tr(
                    "Passages that open or close 10 % or more of the collection's documents (letterheads, "
                    "notices, footers) are left out of these numbers (Leave out common text)."
                )
            )
        return "\n".join(lines)

    # -- what the window calls --------------------------------------------------------------
    def show_pending(
        self, left: Document, right: Document, similarity: Similarity, *, without_boilerplate: bool = False
    ) -> None:
        """A pair's names and numbers while its texts are compared; see show_numbers."""
        self._request += 1
        self._texts = None
        notes = [
            f"{os.path.basename(d.display_path)}: {localize('Problem', d.message)}"
            for d in (left, right)
            if d.status is Status.OK and d.message
        ]  # text from OCR, damaged bytes
        self.title.setText("\n".join([f"{left.display_path}   ↔   {right.display_path}", *notes]))
        self.show_numbers(similarity, without_boilerplate=without_boilerplate)
        self._set_layout(None)
        self.passage.setText("")
        self.position.setText(self.tr("Comparing…"))

    def show_numbers(self, similarity: Similarity, *, without_boilerplate: bool = False) -> None:
        """The pair's similarity in words, with the grouping method's own number beside it (``method``);
        every measure in the tooltip. ``without_boilerplate`` when they leave out passages common to the
        collection."""
        s = similarity
        share = f"<b>{percent(s.jaccard)}</b>"
        where = inside(s)  # "b": the keeper, on the left, inside the member
        if s.same_text:
            words = self.tr("<b>The same text</b>")
        elif where == "b":
            words = self.tr("{share} the same: the left text is inside the right one").format(share=share)
        elif where == "a":
            words = self.tr("{share} the same: the right text is inside the left one").format(share=share)
        else:
            words = self.tr("{share} of the text is the same").format(share=share)
        expert = []
        if self.method is not Method.SIMHASH:
            expert.append(self.tr("Jaccard {value}").format(value=f"{s.jaccard:.3f}"))
        if self.method is not Method.MINHASH:
            expert.append(self.tr("%n of 64 bits different", "", s.hamming))
        if without_boilerplate:
            expert.append(self.tr("common text left out"))
        quiet = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        self.numbers.setText(f"{words} · <span style='color: {quiet}'>{' · '.join(expert)}</span>")
        self.numbers.setToolTip(self._numbers_tip(s, without_boilerplate=without_boilerplate))

    def compare_documents(self, left: Document, right: Document, load: Callable[[Document], DocumentText]) -> None:
        """Read both files and compare them in the background (after show_pending)."""
        request = self._request
        unreadable = self.tr("{path}: {problem}")  # the problem arrives in words already (core.texts)

        def work(*, progress: Progress, cancel: CancelToken) -> tuple[str, str] | str:
            a, b = load(left), load(right)
            if a.text is None or b.text is None:
                doc, loaded = (left, a) if a.text is None else (right, b)
                return unreadable.format(path=doc.display_path, problem=loaded.problem)
            return a.text, b.text

        self._start(work, request, lambda texts: self._texts_read(request, texts))

    @staticmethod
    def share_options(*views: DiffView) -> None:
        """These pair views show texts the same way: their options are one choice."""
        for one in views:
            for other in views:
                if other is not one:
                    one.options_changed.connect(lambda one=one, other=other: other.take_options(one))

    def take_options(self, other: DiffView) -> None:
        self.ignore_layout.setChecked(other.ignore_layout.isChecked())
        self.wrap_lines.setChecked(other.wrap_lines.isChecked())

    def show_pair(
        self,
        left: Document,
        right: Document,
        similarity: Similarity,
        load: Callable[[Document], DocumentText] | None,
        cores: frozenset[int],
        *,
        at_shared: bool = False,
    ) -> None:
        """Show a pair and compare it in the background; the pair shown already only gets its numbers
        updated (a new grouping measured it from another keeper). ``cores``: the contents whose numbers
        leave common text out. ``at_shared``: open where the two texts first run alike (an excerpt, where it
        sits in the document that holds it), not at the first difference."""
        self._at_shared = at_shared
        without = left.content_id in cores or right.content_id in cores
        if self._shown == (left, right):
            self.show_numbers(similarity, without_boilerplate=without)
            return
        self.show_pending(left, right, similarity, without_boilerplate=without)
        self._shown = (left, right)
        if load is not None:
            self.compare_documents(left, right, load)

    def clear(self) -> None:
        """Show no pair (the one shown is no longer in the groups)."""
        self.show_problem(self._placeholder())
        self.numbers.setText("")
        self.passage.setText("")

    def show_problem(self, message: str) -> None:
        self._request += 1
        self._shown = None
        self._texts = None
        self._set_layout(None)
        self.position.setText("")
        self.title.setText(message)

    def go(self, step: int) -> None:
        """To the next (1) or previous (-1) difference, from the one shown or from what is on screen."""
        if not self._changes:
            return
        top = self.table.rowAt(0)
        current = self.current_change_row
        if top >= 0 and (current is None or not self._row_visible(current)):
            # the person scrolled away: step from what is on screen
            later = [k for k, row in enumerate(self._changes) if row > top]
            self._current = (
                (later[0] - 1 if later else len(self._changes) - 1)
                if step > 0
                else (later[0] if later else len(self._changes))
            )
        self._current = max(0, min(len(self._changes) - 1, self._current + step))
        self._scroll_to_change()

    @property
    def current_change_row(self) -> int | None:
        return self._changes[self._current] if 0 <= self._current < len(self._changes) else None

    @property
    def current_region(self) -> Region | None:
        """The difference stepped to (outlined), if any."""
        comparison = self.comparison
        if comparison is None or not 0 <= self._current < len(comparison.changed_regions):
            return None
        return comparison.changed_regions[self._current]

    @property
    def comparison(self) -> Comparison | None:
        return self.model.layout.comparison if self.model.layout is not None else None

    def layout_request(self) -> LayoutRequest:
        """The layout this pane wants now."""
        metrics = self.table.fontMetrics()
        column = max(1, metrics.horizontalAdvance("M"))
        wide = max(1.0, metrics.horizontalAdvance("中") / column)
        usable = self.table.columnWidth(1) - 10 - self.table.verticalScrollBar().sizeHint().width() // 2
        columns = max(20, usable // column - 1) if self.wrap_lines.isChecked() else 0
        return LayoutRequest(columns, wide, self.ignore_layout.isChecked())

    # -- comparing and laying out ---------------------------------------------------------------
    def _start(self, work: Callable[..., object], request: int, returned: Callable[[object], None]) -> None:
        job = Job(work)
        job.signals.returned.connect(returned)
        job.signals.errored.connect(lambda message: self._failed(request, message))
        if self.runner is None:
            raise RuntimeError("DiffView.runner is not set")
        self.runner.start(job)

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.show_problem(message.split("\n\n")[0])

    def _texts_read(self, request: int, texts: object) -> None:
        if request != self._request:
            return  # the person moved on to another pair
        if isinstance(texts, str):
            self.show_problem(texts)
            return
        self._texts = cast(tuple[str, str], texts)
        self._compare(first=True)

    def _compare(self, *, first: bool) -> None:
        """Compare the texts shown with the options set; the first time, open at the first difference.
        A large pair shows its first screen at once (compared from its first difference on), and the whole
        comparison replaces it when ready, keeping the place and the difference stepped to."""
        if self._texts is None:
            return
        self._request += 1
        request = self._request
        left, right = self._texts
        wanted = self.layout_request()
        anchor = None if first else self._top_line()

        def work(*, progress: Progress, cancel: CancelToken) -> Layout:
            return compute_pair(left, right, wanted, progress=progress, cancel=cancel)

        def whole() -> None:
            if request == self._request:
                self._start(work, request, lambda layout: self._laid_out(request, cast(Layout, layout), anchor))

        self.position.setText(self.tr("Comparing…"))
        if not first or len(left) + len(right) < _LARGE:
            whole()
            return

        def first_part(*, progress: Progress, cancel: CancelToken) -> Layout:
            return compute_pair(left, right, wanted, only_first_screen=True, progress=progress, cancel=cancel)

        def shown(layout: object) -> None:
            if cast(Layout, layout).comparison.changed_regions:  # else it would open where nothing differs
                self._laid_out(request, cast(Layout, layout), None)
            QTimer.singleShot(0, self, whole)  # once the first screen is painted (painting waits on a busy thread)

        self._start(first_part, request, shown)

    def _laid_out(self, request: int, layout: Layout, anchor: tuple[int, bool, int] | None) -> None:
        if request != self._request:
            return
        before = self.model.layout
        following = before is not None and not before.comparison.complete
        again = following or (before is not None and before.comparison is layout.comparison)
        if again:  # the whole comparison after the first screen, or the same at another width: stay
            anchor = self._place()
        self._set_layout(layout)
        self.laid_out.emit(layout)
        comparison = layout.comparison
        passages = shared_passages(comparison, top=1)
        if passages:
            room = self.width() - self.ignore_layout.sizeHint().width() - self.wrap_lines.sizeHint().width() - 260
            shown = self.passage.fontMetrics().elidedText(passages[0], Qt.TextElideMode.ElideRight, max(120, room))
            self.passage.setText(self.tr("Longest shared passage: “{passage}”").format(passage=shown))
            self.passage.setToolTip(passages[0])
        else:
            self.passage.setText(self.tr("No passage of 30 characters or more is shared word for word."))
            self.passage.setToolTip("")
        shared = _first_shared_row(layout) if self._at_shared and not again and anchor is None else None
        if anchor is not None:
            self._scroll_to_line(*anchor)
        elif shared is not None and self._changes:
            self._current = -1  # F3 steps on from what is on screen
            self._scroll_to(shared, QAbstractItemView.ScrollHint.PositionAtTop)

            def settled(row: int = shared) -> None:  # once the table has its final size, unless laid out anew
                if self.model.layout is layout:
                    self._scroll_to(row, QAbstractItemView.ScrollHint.PositionAtTop)

            QTimer.singleShot(0, self, settled)
            self._update_navigation()
        elif self._changes:
            self._current = max(0, self._current) if again else 0
            self._scroll_to_change()
            QTimer.singleShot(0, self, self._scroll_to_change)  # again once the table has its final size; not if gone
        self._update_summary()
        if following:
            self._lay_out_again()  # the pane may have changed width while the whole was compared

    def _set_layout(self, layout: Layout | None) -> None:
        keep = self.current_change_row is not None and layout is not None and self.model.layout is not None
        current = self._current
        self.model.set_layout(layout)
        self._changes = layout.change_rows() if layout is not None else []
        self._current = current if keep and current < len(self._changes) else -1
        self.ruler.set_changes(layout.change_spans() if layout is not None else [], len(layout) if layout else 0)
        self._update_sideways()
        self._update_ruler_window()
        self._update_navigation()

    def _update_summary(self) -> None:
        comparison = self.comparison
        if comparison is None:
            return
        if not comparison.regions:
            self.position.setText(
                self.tr("The same text; only spacing or line breaks differ (shown in grey).")
                if comparison.layout_differs
                else self.tr("The same text.")
            )
            return
        if not comparison.complete:
            self.position.setText(
                self.tr("Difference {number} · comparing the rest…").format(number=self._current + 1)
                if self._current >= 0
                else self.tr("Differences found · comparing the rest…")
            )
            return
        n = comparison.regions
        where = (
            self.tr("Difference {number} of {total}").format(number=self._current + 1, total=n)
            if self._current >= 0
            else self.tr("%n difference(s)", "", n)
        )
        parts = [where, self.tr("{share} of the text differs").format(share=share_in_words(comparison.share))]
        if comparison.ignore_layout:
            parts.append(self.tr("spacing and line breaks ignored"))
        self.position.setText(" · ".join(parts))

    def _lay_out_again(self) -> None:
        """The pane's width changed: the same comparison, wrapped anew, at the same place."""
        layout = self.model.layout
        if layout is None:
            return
        wanted = self.layout_request()
        if wanted.columns == layout.columns and wanted.wide == layout.wide:
            return
        comparison = layout.comparison
        if comparison.total_chars < _LARGE:
            place = self._place()
            self._set_layout(Layout(comparison, wanted.columns, wanted.wide))
            self._go_to(place)
            return
        self._request += 1
        request = self._request

        def work(*, progress: Progress, cancel: CancelToken) -> Layout:
            return Layout(comparison, wanted.columns, wanted.wide)

        # where to stay is taken when it is ready: the person may scroll meanwhile
        self._start(work, request, lambda new: self._laid_out(request, cast(Layout, new), None))

    def _ignore_layout_toggled(self, _on: bool) -> None:
        self.options_changed.emit()
        self._compare(first=False)

    def _wrap_toggled(self, _on: bool) -> None:
        self.options_changed.emit()
        self._lay_out_again()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._relayout_soon()
        self._update_sideways()

    def _section_resized(self, index: int, _old: int, _new: int) -> None:
        if index == 1:
            self._relayout_soon()

    def _relayout_soon(self) -> None:
        if self.model.layout is not None:
            self._relayout.start()

    # -- places ----------------------------------------------------------------------------
    def _top_line(self) -> tuple[int, bool, int]:
        """The file line at the top of the pane (left side if it has one there), and where in it the top
        row begins (a long wrapped line): where to stay."""
        top = max(0, self.table.rowAt(0))
        if self.model.layout is None or not len(self.model.layout):
            return 1, True, 0
        row = self.model.row(min(top, len(self.model.layout) - 1))
        if row.left is not None:
            return row.left.number, True, row.left.start
        assert row.right is not None
        return row.right.number, False, row.right.start

    def _place(self) -> tuple[int, bool, int] | None:
        """Where to stay when the texts are laid out anew: on the difference stepped to while it is in
        sight (None; rewrapped, it can move below the pane: a last line's did), else the line at the top."""
        row = self.current_change_row
        return None if row is not None and self._row_visible(row) else self._top_line()

    def _go_to(self, place: tuple[int, bool, int] | None) -> None:
        if place is None:
            self._scroll_to_change()
        else:
            self._scroll_to_line(*place)

    def _scroll_to_line(self, number: int, left: bool, offset: int = 0) -> None:
        if self.model.layout is None or not len(self.model.layout):
            return
        row = self.model.layout.row_of_line(number, left=left, offset=offset)
        self._scroll_to(row, QAbstractItemView.ScrollHint.PositionAtTop)

    def _scroll_to(self, row: int, where: QAbstractItemView.ScrollHint) -> None:
        """Scroll to ``row`` of the layout just set: the table lays its rows out first (it would do so
        later, and scroll within the range of the layout before: a large pair's first screen)."""
        self.table.doItemsLayout()
        self.table.scrollTo(self.model.index(row, 1), where)

    def _row_visible(self, row: int) -> bool:
        top = self.table.rowAt(0)
        bottom = self.table.rowAt(self.table.viewport().height() - 1)
        return top >= 0 and top <= row <= (bottom if bottom >= 0 else self.model.rowCount() - 1)

    def _scroll_to_change(self) -> None:
        row = self.current_change_row
        if row is None:
            return
        self._scroll_to(row, QAbstractItemView.ScrollHint.PositionAtCenter)
        if not self.wrap_lines.isChecked():
            self._reveal_sideways(row)
        self._update_navigation()
        self._update_summary()

    def _reveal_sideways(self, row: int) -> None:
        """Not wrapping: scroll sideways so the beginning of the difference stepped to is in sight (a long
        line can hold many)."""
        region = self.current_region
        display = self.model.row(row)
        if region is None:
            return
        on_left, (_number, start, _end) = region.first()
        side = display.left if on_left else display.right
        if side is None:
            return
        text = "".join(seg.text for seg in side.segments)
        target = self.table.fontMetrics().horizontalAdvance(text[: max(0, start - side.start)])
        width = self.table.columnWidth(1)
        if not self.sideways.value() <= target <= self.sideways.value() + width - 40:
            self.sideways.setValue(max(0, target - width // 3))

    def _ruler_clicked(self, fraction: float) -> None:
        rows = self.model.rowCount()
        if rows:
            row = min(rows - 1, int(fraction * rows))
            self._scroll_to(row, QAbstractItemView.ScrollHint.PositionAtCenter)

    def _update_ruler_window(self) -> None:
        first = max(0, self.table.rowAt(0))
        last = self.table.rowAt(self.table.viewport().height() - 1)
        self.ruler.set_visible(first, last if last >= 0 else max(first, self.model.rowCount() - 1))

    def _update_sideways(self) -> None:
        layout = self.model.layout
        if layout is None or layout.columns:
            self.sideways.hide()
            self.sideways.setValue(0)
            return
        widest = layout.widest() * max(1, self.table.fontMetrics().horizontalAdvance("M")) + 12
        excess = max(0, widest - self.table.columnWidth(1))
        self.sideways.setRange(0, excess)
        self.sideways.setPageStep(self.table.columnWidth(1))
        self.sideways.setSingleStep(self.table.fontMetrics().horizontalAdvance("M") * 4)
        self.sideways.setVisible(excess > 0)

    def _scrolled_sideways(self, value: int) -> None:
        self.delegate.x_offset = value
        self.table.viewport().update()

    def _update_navigation(self) -> None:
        self.previous_button.setEnabled(self._current > 0)
        self.next_button.setEnabled(bool(self._changes) and self._current < len(self._changes) - 1)
        self.delegate.show_current(self.current_region)
        self.table.viewport().update()
