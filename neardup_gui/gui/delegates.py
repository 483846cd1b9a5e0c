"""Item delegates shared by the views."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QTextLayout
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem


def mixed_script_line_height(font: QFont) -> int:
    """The height of one line mixing Latin and Han in ``font``: Han comes from a fallback font (Noto Sans
    CJK, WenQuanYi…) with taller ascent and descent, so such a line is taller than the font's own
    metrics say (18 px against 14 px for DejaVu Sans 9 pt with Noto Sans CJK)."""
    layout = QTextLayout("Ag_汉字", font)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    return int(line.height() + 0.999)


class MixedScriptRowDelegate(QStyledItemDelegate):
    """Rows tall enough for a name that mixes Latin and Han: with uniform row heights taken from the
    font's own metrics, a Chinese file name pushes the baseline down and underscores are cut off. The
    ``paths`` columns are cut in their middle: a path's start and its last folder stay (Legal/…, Backup/…)."""

    def __init__(self, parent: QObject | None = None, paths: frozenset[int] = frozenset()) -> None:
        super().__init__(parent)
        self._paths = paths

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        if index.column() in self._paths:
            option.textElideMode = Qt.TextElideMode.ElideMiddle

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)
        return QSize(hint.width(), max(hint.height(), mixed_script_line_height(option.font) + 4))
