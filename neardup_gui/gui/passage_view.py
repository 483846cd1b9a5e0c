"""The pair view of two documents that share passages: each whole text in its own pane, every passage both
hold highlighted in both, the one stepped to (F3, Shift+F3) outlined and brought into view on both sides.

The texts are read and the passages placed in them off the GUI thread
(core.review.passages.passages_in_texts); the panes scroll on their own, as the passages sit at different
places in the two documents.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.jobs import CancelToken, Progress
from ..core.models import Document, SharedPassages
from ..core.review.passages import PassagesInTexts, PassageSpan, passages_in_texts
from ..core.store.stored_text import DocumentText
from .worker import Job, JobRunner

_LINE_ENDS = re.compile(r"\r\n?")  # shown as Qt shows a line break: one position, as \n


def qt_positions(text: str, offsets: list[int]) -> list[int]:
    """Offsets in ``text`` (Python's: code points) as positions in the text a pane shows of it: \r\n one
    position, and a character beyond the Basic Multilingual Plane (an emoji, CJK Extension B) two, as Qt
    counts in UTF-16."""
    if not offsets:
        return []
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    widths = 1 + (codes > 0xFFFF).astype(np.int64)
    widths[:-1][(codes[:-1] == 0x0D) & (codes[1:] == 0x0A)] = 0  # the \r of a \r\n
    ends = np.concatenate(([0], np.cumsum(widths)))
    return ends[np.asarray(offsets, dtype=np.int64)].tolist()


@functools.cache
def _colours(dark: bool) -> tuple[QColor, QColor]:
    """A passage's background, and the one stepped to, in a light or a dark palette."""
    if dark:
        return QColor(92, 78, 30), QColor(150, 112, 20)
    return QColor(255, 238, 176), QColor(255, 200, 60)


class PassageView(QWidget):
    """Names, how much the two share, Previous / Next, then the two texts side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner: JobRunner | None = None  # where texts are read; the window gives its own
        self.title = QLabel(self.tr("Select a pair to see the passages its two documents share."), self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        self.position = QLabel("", self)
        self.position.setObjectName("passage-position")
        self.previous_button = QToolButton(self)
        self.previous_button.setText(self.tr("▲ Previous"))
        self.previous_button.setToolTip(self.tr("Previous shared passage (Shift+F3)"))
        self.next_button = QToolButton(self)
        self.next_button.setText(self.tr("▼ Next"))
        self.next_button.setToolTip(self.tr("Next shared passage (F3)"))
        self.previous_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))
        self.panes = (QPlainTextEdit(self), QPlainTextEdit(self))
        self.names = (QLabel(self), QLabel(self))
        split = QSplitter(Qt.Orientation.Horizontal, self)
        for pane, name in zip(self.panes, self.names, strict=True):
            pane.setReadOnly(True)
            pane.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            pane.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            name.setTextFormat(Qt.TextFormat.PlainText)
            side = QWidget(split)
            side_layout = QVBoxLayout(side)
            side_layout.setContentsMargins(0, 0, 0, 0)
            side_layout.addWidget(name)
            side_layout.addWidget(pane, 1)
            split.addWidget(side)
        self.panes[0].setAccessibleName(self.tr("Left document"))
        self.panes[1].setAccessibleName(self.tr("Right document"))
        steps = QHBoxLayout()
        steps.addWidget(self.position, 1)
        steps.addWidget(self.previous_button)
        steps.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addLayout(steps)
        layout.addWidget(split, 1)
        self._request = 0  # the texts of an older request are dropped
        self._shown: tuple[Document, Document, SharedPassages] | None = None
        self._spans: list[tuple[PassageSpan, PassageSpan]] = []  # the passages placed in both texts, in a's order
        self.current = -1  # the passage stepped to
        self._update_navigation()

    # -- what the window calls --------------------------------------------------------------
    def show_pair(
        self,
        left: Document,
        right: Document,
        found: SharedPassages,
        load: Callable[[Document], DocumentText] | None,
        database: str,
    ) -> None:
        """Show ``found``'s passages in the texts of ``left`` and ``right`` (read in the background); the pair
        shown already stays where it is."""
        if self._shown == (left, right, found):
            return
        self._request += 1
        request = self._request
        self._shown = (left, right, found)
        self._spans, self.current = [], -1
        self.title.setText(f"{left.display_path}   ↔   {right.display_path}")
        self.summary.setText(self._summary(found))
        for pane, name, doc in zip(self.panes, self.names, (left, right), strict=True):
            pane.setPlainText("")
            name.setText(os.path.basename(doc.display_path))
            name.setToolTip(doc.display_path)
        self.position.setText(self.tr("Reading the two documents…"))
        self._update_navigation()
        if load is None:
            return
        swapped = found.a != left.id  # the passages' a is the first by path: the left, unless told otherwise
        documents = (right, left) if swapped else (left, right)

        def work(*, progress: Progress, cancel: CancelToken) -> PassagesInTexts:
            return passages_in_texts(found, documents, load, database, cancel=cancel)

        job = Job(work)
        job.signals.returned.connect(lambda placed: self._placed(request, placed, swapped))
        job.signals.errored.connect(lambda message: self._failed(request, message))
        if self.runner is None:
            raise RuntimeError("PassageView.runner is not set")
        self.runner.start(job)

    def clear(self) -> None:
        self._request += 1
        self._shown = None
        self._spans, self.current = [], -1
        self.title.setText(self.tr("Select a pair to see the passages its two documents share."))
        self.summary.setText("")
        self.position.setText("")
        for pane, name in zip(self.panes, self.names, strict=True):
            pane.setPlainText("")
            name.setText("")
        self._update_navigation()

    def go(self, step: int) -> None:
        """To the next (1) or previous (-1) shared passage, outlined and brought into view in both texts."""
        if not self._spans:
            return
        self.current = max(0, min(len(self._spans) - 1, self.current + step))
        self._highlight()
        spans = self.current_spans()
        assert spans is not None  # stepped to one of them
        for pane, span in zip(self.panes, spans, strict=True):
            cursor = QTextCursor(pane.document())
            cursor.setPosition(span.end)
            pane.setTextCursor(cursor)  # the passage's end first, then its start: the start stays on screen
            cursor.setPosition(span.start)
            pane.setTextCursor(cursor)
            pane.centerCursor()
        self._update_navigation()

    @property
    def passages_shown(self) -> int:
        return len(self._spans)

    def current_spans(self) -> tuple[PassageSpan, PassageSpan] | None:
        """Where the passage stepped to sits in the left and the right text."""
        return self._spans[self.current] if 0 <= self.current < len(self._spans) else None

    # -- the texts arrive ---------------------------------------------------------------------
    def _placed(self, request: int, placed: PassagesInTexts, swapped: bool) -> None:
        if request != self._request:
            return  # the person moved on to another pair
        if placed.texts is None:
            self.position.setText(placed.problem)
            return
        texts = placed.texts[::-1] if swapped else placed.texts
        pairs = [(b, a) if swapped else (a, b) for a, b in placed.placed.spans if a is not None and b is not None]
        sides: list[list[PassageSpan]] = []
        for side, (pane, text) in enumerate(zip(self.panes, texts, strict=True)):
            pane.setPlainText(_LINE_ENDS.sub("\n", text))
            spans = [pair[side] for pair in pairs]
            where = qt_positions(text, [offset for span in spans for offset in (span.start, span.end)])
            sides.append([replace(span, start=where[2 * k], end=where[2 * k + 1]) for k, span in enumerate(spans)])
        self._spans = list(zip(sides[0], sides[1], strict=True))
        if not self._spans:
            self.position.setText(self.tr("A file changed since the scan: scan again to see where the passages are."))
            self._update_navigation()
            return
        self.go(1)

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.position.setText(message.split("\n\n")[0])

    def _highlight(self) -> None:
        passage, current = _colours(self.palette().color(QPalette.ColorRole.Base).lightness() < 128)
        for side, pane in enumerate(self.panes):
            selections = []
            for k, spans in enumerate(self._spans):
                selection = QTextEdit.ExtraSelection()
                cursor = QTextCursor(pane.document())
                cursor.setPosition(spans[side].start)
                cursor.setPosition(spans[side].end, QTextCursor.MoveMode.KeepAnchor)
                selection.cursor = cursor
                text_format = QTextCharFormat()
                text_format.setBackground(current if k == self.current else passage)
                text_format.setFontUnderline(k == self.current)
                selection.format = text_format
                selections.append(selection)
            pane.setExtraSelections(selections)

    def _summary(self, found: SharedPassages) -> str:
        count, longest = len(found.passages), found.longest
        words = sum(p.words for p in found.passages)
        return self.tr(
            "%n shared passage(s): the longest {longest} words in a row, {words} words in all", "", count
        ).format(longest=f"{longest:,}", words=f"{words:,}")

    def _update_navigation(self) -> None:
        count = self.passages_shown
        self.previous_button.setEnabled(self.current > 0)
        self.next_button.setEnabled(0 <= self.current < count - 1 or (count > 0 and self.current < 0))
        if count and self.current >= 0:
            self.position.setText(self.tr("Passage {current} of {count}").format(current=self.current + 1, count=count))
