"""The Groups tab: the filter and action bars, the groups tree with its mark column, and below it the
pair view or the whole group. Widgets only: the window wires them to the review."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.models import Method
from ..core.review.rules import KeeperRule
from .controller import Marks
from .delegates import MixedScriptRowDelegate
from .diff_view import DiffView
from .group_view import GroupView
from .models import BITS_COLUMN, EXPERT_COLUMNS, SIMILARITY_COLUMN, GroupFilterModel, GroupRole, GroupTreeModel

KEEPER_RULES = (
    (
        KeeperRule.ORIGINAL,
        QT_TRANSLATE_NOOP("GroupsPage", "The original"),
        QT_TRANSLATE_NOOP(
            "GroupsPage", "The copy with the most identical twins; a document you edit (text, Word, OpenDocument) "
                          "over a web page or e-book, and those over a PDF; then the oldest"
        ),
    ),
    (
        KeeperRule.OLDEST,
        QT_TRANSLATE_NOOP("GroupsPage", "The oldest"),
        QT_TRANSLATE_NOOP("GroupsPage", "The file modified longest ago"),
    ),
    (
        KeeperRule.NEWEST,
        QT_TRANSLATE_NOOP("GroupsPage", "The newest"),
        QT_TRANSLATE_NOOP("GroupsPage", "The file modified last"),
    ),
    (
        KeeperRule.LARGEST,
        QT_TRANSLATE_NOOP("GroupsPage", "The largest"),
        QT_TRANSLATE_NOOP("GroupsPage", "The biggest file"),
    ),
    (
        KeeperRule.SHORTEST_PATH,
        QT_TRANSLATE_NOOP("GroupsPage", "The shortest path"),
        QT_TRANSLATE_NOOP("GroupsPage", "The file nearest the top of its folders"),
    ),
)
"""The keeper rules the Keep box offers: (rule, label, tooltip), English here, translated where shown."""


def fill_keeper_rules(box: QComboBox) -> None:
    """The keeper rules as a menu's items, each with its explanation as the item's tooltip."""
    for rule, label, tip in KEEPER_RULES:
        box.addItem(QCoreApplication.translate("GroupsPage", label), rule)
        box.setItemData(box.count() - 1, QCoreApplication.translate("GroupsPage", tip), Qt.ItemDataRole.ToolTipRole)


class GroupsPage(QWidget):
    """Everything on the Groups tab."""

    columns_changed = Signal()  # the person showed or hid a column

    def __init__(self, marks: Marks, keeper_rule: KeeperRule, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group_model = GroupTreeModel(marks, self)
        self.group_proxy = GroupFilterModel(self)
        self.group_proxy.setSourceModel(self.group_model)
        self.tree = QTreeView(self)
        self.tree.setModel(self.group_proxy)
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(MixedScriptRowDelegate(self.tree))
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(0, Qt.SortOrder.DescendingOrder)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)  # Shift/Ctrl: many rows
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._column_menu)
        self.tree.setColumnWidth(0, 330)
        self.tree.setColumnWidth(1, 200)
        self._columns_sized = False
        self._method = Method.MINHASH
        self._hidden: set[int] = set(EXPERT_COLUMNS)  # the columns the person keeps hidden
        self._apply_columns()
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter by path…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setToolTip(self.tr("Show only groups with a member whose path contains this text (Ctrl+F)"))
        self.kind_filter = QComboBox(self)
        self.kind_filter.addItem(self.tr("All groups"), "all")
        self.kind_filter.addItem(self.tr("Exact duplicates"), "exact")
        self.kind_filter.addItem(self.tr("Near duplicates"), "near")
        self.kind_filter.setToolTip(self.tr("Exact: the same text after normalising; near: similar"))
        self.keep_button = self._tool_button(
            self.tr("Keep this one"), self.tr("Make the selected document the group's keeper (Ctrl+K)")
        )
        self.not_dup_button = self._tool_button(
            self.tr("Not a duplicate"),
            self.tr(
                "Set the selected document apart from its group: it is not a duplicate of them, now and after "
                "rescans; Edit ▸ Undo takes it back (Ctrl+D)"
            ),
        )
        self.trash_button = self._tool_button(
            self.tr("Move others to trash…"),
            self.tr(
                "Move every member except the keeper to the system trash, after confirmation (Del). Files in "
                "reference folders are never moved."
            ),
        )
        self.open_button = self._tool_button(
            self.tr("Open"), self.tr("Open the selected document with its application (Ctrl+Return)")
        )
        self.reveal_button = self._tool_button(
            self.tr("Show in folder"), self.tr("Open the folder that holds the selected document (Ctrl+Shift+R)")
        )
        self.filter_edit.setMinimumWidth(120)
        self.filter_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        bar = self._bar(self.tr("Groups"))
        bar.addWidget(self.filter_edit)
        bar.addWidget(self.kind_filter)
        for b in (self.keep_button, self.not_dup_button, self.trash_button, self.open_button, self.reveal_button):
            bar.addWidget(b)
        self.diff = DiffView(self)
        self.group_view = GroupView(self)
        self.detail = QStackedWidget(self)  # the pair view for a member's row, the whole group for a group's
        self.detail.addWidget(self.diff)
        self.detail.addWidget(self.group_view)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.addWidget(self.tree)
        self.split.addWidget(self.detail)
        self.split.setStretchFactor(0, 2)
        self.split.setStretchFactor(1, 3)
        groups_layout = QVBoxLayout(self)
        groups_layout.addWidget(bar)
        self.mark_rule_button = self._tool_button(
            self.tr("Mark all but the keepers"),
            self.tr(
                "Tick every member of every group except the file it keeps; files in reference "
                "folders are never ticked (Ctrl+M). Tick or untick any file by hand in the first column."
            ),
        )
        self.mark_by_rule_button = self._tool_button(
            self.tr("Mark by rule…"),
            self.tr("Tick the files in a folder, matching a name, by date or by size (Ctrl+Shift+K)"),
        )
        self.unmark_button = self._tool_button(self.tr("Unmark all"), self.tr("Untick every file (Ctrl+Shift+M)"))
        self.marked_label = QLabel("", self)
        self.keeper_rule = QComboBox(self)
        fill_keeper_rules(self.keeper_rule)
        self.keeper_rule.setCurrentIndex(self.keeper_rule.findData(keeper_rule))
        self.keeper_rule.setToolTip(
            self.tr(
                "Which file each group keeps unless you chose one (Keep this one). A file in a reference folder "
                "is always kept first."
            )
        )
        keeper_label = QLabel(self.tr("Keep:"), self)
        keeper_label.setBuddy(self.keeper_rule)
        self.trash_marked_button = self._tool_button(
            self.tr("Move marked to trash…"),
            self.tr(
                "Move every ticked file to the system trash, all groups at once, after one "
                "confirmation (Shift+Del). A group's keeper and files in reference folders never move."
            ),
        )
        self.move_marked_button = self._tool_button(
            self.tr("Move marked to folder…"),
            self.tr(
                "Move every ticked file into a folder you choose, keeping their folders below it, after one "
                "confirmation; Edit ▸ Undo puts them back. A group's keeper and reference files never move."
            ),
        )
        self.copy_marked_button = self._tool_button(
            self.tr("Copy paths"), self.tr("Copy the paths of the ticked files, one a line (Ctrl+Shift+C)")
        )
        marks_bar = self._bar(self.tr("Marks"))
        # what acts first, so that a narrow window hides the keeper rule (also in Preferences) behind »
        for b in (self.mark_rule_button, self.mark_by_rule_button, self.unmark_button, self.trash_marked_button,
                  self.move_marked_button, self.copy_marked_button):
            marks_bar.addWidget(b)
        self.marked_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.marked_label.setMinimumWidth(60)
        marks_bar.addWidget(self.marked_label)
        marks_bar.addWidget(keeper_label)
        marks_bar.addWidget(self.keeper_rule)
        groups_layout.addWidget(marks_bar)
        groups_layout.addWidget(self.split, 1)

    def shown_group_ids(self) -> frozenset[int] | None:
        """The ids of the groups the filter shows, or None when it shows them all."""
        proxy, model = self.group_proxy, self.group_model
        if proxy.rowCount() == model.rowCount():
            return None
        rows = range(proxy.rowCount())
        return frozenset(model.data(proxy.mapToSource(proxy.index(row, 0)), GroupRole) for row in rows)

    def size_columns_once(self) -> None:
        """The number columns fit what the first grouping shows (later ones keep the person's widths)."""
        if self._columns_sized or not self.group_proxy.rowCount():
            return
        self._columns_sized = True
        self.tree.expand(self.group_proxy.index(0, 0))  # members' numbers are what the columns hold
        for col in range(SIMILARITY_COLUMN, self.group_model.columnCount()):
            if not self.tree.isColumnHidden(col):
                self._fit_column(col)
        others = sum(self.tree.columnWidth(c) for c in range(1, self.group_model.columnCount())
                     if not self.tree.isColumnHidden(c))
        self.tree.setColumnWidth(0, max(self.tree.columnWidth(0), self.tree.viewport().width() - others - 4))

    def show_method(self, method: Method) -> None:
        """Show the fingerprint bits only where that method groups (only the active method's numbers)."""
        self._method = method
        self._apply_columns()
        self.group_view.show_method(method is not Method.MINHASH)
        self.diff.method = method

    def hidden_columns(self) -> list[int]:
        """The columns the person chose to hide (remembered by the window)."""
        return sorted(self._hidden)

    def set_hidden_columns(self, hidden: list[int]) -> None:
        self._hidden = {c for c in hidden if 0 < c < self.group_model.columnCount()}
        self._apply_columns()

    def _apply_columns(self) -> None:
        """Hide what the person hid, and the bits where this method has none; a column shown again fits."""
        for col in range(1, self.group_model.columnCount()):
            hide = col in self._hidden or (col == BITS_COLUMN and self._method is Method.MINHASH)
            shown_again = self.tree.isColumnHidden(col) and not hide
            self.tree.setColumnHidden(col, hide)
            if shown_again:
                self._fit_column(col)

    def _fit_column(self, col: int) -> None:
        """Wide enough for its title and the rows on screen (and a little more for rows not shown yet)."""
        width = max(self.tree.sizeHintForColumn(col), self.tree.header().sectionSizeHint(col)) + 12
        self.tree.setColumnWidth(col, max(self.tree.columnWidth(col), width))

    def _show_column(self, col: int, shown: bool) -> None:
        (self._hidden.discard if shown else self._hidden.add)(col)
        self._apply_columns()
        self.columns_changed.emit()

    def _column_menu(self, position) -> None:
        """The header's menu: the columns that may be shown or hidden (the expert measures among them)."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        model = self.group_model
        for col in range(1, model.columnCount()):
            if col == BITS_COLUMN and self._method is Method.MINHASH:
                continue  # this method's grouping has no bits to show
            action = menu.addAction(str(model.headerData(col, Qt.Orientation.Horizontal)))
            action.setCheckable(True)
            action.setChecked(not self.tree.isColumnHidden(col))
            action.toggled.connect(lambda shown, c=col: self._show_column(c, shown))
        menu.exec(self.tree.header().mapToGlobal(position))

    def _bar(self, name: str) -> QToolBar:
        """A row of controls that fits any width: what does not fit is behind its » button."""
        bar = QToolBar(name, self)
        bar.setFloatable(False)
        bar.setMovable(False)
        return bar

    def _tool_button(self, text: str, tip: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setToolTip(tip)
        return button
