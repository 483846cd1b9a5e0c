"""The Groups tab: the filter and action bars, the groups tree with its mark column, and below it the
pair view or the whole group. Widgets only: the window wires them to the review."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..core.review import KeeperRule
from .controller import Marks
from .delegates import MixedScriptRowDelegate
from .diff_view import DiffView
from .group_view import GroupView
from .models import GroupFilterModel, GroupTreeModel

KEEPER_RULES = (
    (
        KeeperRule.ORIGINAL,
        "The original",
        "The copy with the most identical twins; a text file over a PDF; then the oldest",
    ),
    (KeeperRule.OLDEST, "The oldest", "The file modified longest ago"),
    (KeeperRule.NEWEST, "The newest", "The file modified last"),
    (KeeperRule.LARGEST, "The largest", "The biggest file"),
    (KeeperRule.SHORTEST_PATH, "The shortest path", "The file nearest the top of its folders"),
)


class GroupsPage(QWidget):
    """Everything on the Groups tab."""

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
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.setColumnWidth(0, 330)
        self.tree.setColumnWidth(1, 230)
        for col, width in ((2, 100), (3, 70), (4, 95), (5, 80), (6, 130), (7, 50)):
            self.tree.setColumnWidth(col, width)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter by path…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setToolTip("Show only groups with a member whose path contains this text (Ctrl+F)")
        self.kind_filter = QComboBox(self)
        self.kind_filter.addItem("All groups", "all")
        self.kind_filter.addItem("Exact duplicates", "exact")
        self.kind_filter.addItem("Near duplicates", "near")
        self.kind_filter.setToolTip("Exact: the same text after normalising; near: similar")
        self.keep_button = self._tool_button("Keep this one", "Make the selected document the group's keeper (Ctrl+K)")
        self.not_dup_button = self._tool_button(
            "Not a duplicate",
            "Set the selected document apart from its group: it is not a duplicate of them, now and after "
            "rescans; Edit ▸ Undo takes it back (Ctrl+D)",
        )
        self.trash_button = self._tool_button(
            "Move others to trash…",
            "Move every member except the keeper to the system trash, after confirmation (Del). Files in reference "
            "folders are never moved.",
        )
        self.open_button = self._tool_button("Open", "Open the selected document with its application (Ctrl+Return)")
        self.reveal_button = self._tool_button(
            "Show in folder", "Open the folder that holds the selected document (Ctrl+Shift+R)"
        )
        bar = QHBoxLayout()
        bar.addWidget(self.filter_edit, 2)
        bar.addWidget(self.kind_filter)
        bar.addStretch(1)
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
        groups_layout.addLayout(bar)
        self.mark_rule_button = self._tool_button(
            "Mark all but the keepers",
            "Tick every member of every group except the file it keeps; files in reference "
            "folders are never ticked (Ctrl+M). Tick or untick any file by hand in the first column.",
        )
        self.mark_by_rule_button = self._tool_button(
            "Mark by rule…", "Tick the files in a folder, matching a name, by date or by size (Ctrl+Shift+K)"
        )
        self.unmark_button = self._tool_button("Unmark all", "Untick every file (Ctrl+Shift+M)")
        self.marked_label = QLabel("", self)
        self.keeper_rule = QComboBox(self)
        for rule, label, tip in KEEPER_RULES:
            self.keeper_rule.addItem(label, rule)
            self.keeper_rule.setItemData(self.keeper_rule.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        self.keeper_rule.setCurrentIndex(self.keeper_rule.findData(keeper_rule))
        self.keeper_rule.setToolTip(
            "Which file each group keeps unless you chose one (Keep this one). A file in a reference folder "
            "is always kept first."
        )
        keeper_label = QLabel("Keep:", self)
        keeper_label.setBuddy(self.keeper_rule)
        self.trash_marked_button = self._tool_button(
            "Move marked to trash…",
            "Move every ticked file to the system trash, all groups at once, after one "
            "confirmation (Shift+Del). A group's keeper and files in reference folders never move.",
        )
        self.move_marked_button = self._tool_button(
            "Move marked to folder…",
            "Move every ticked file into a folder you choose, keeping their folders below it, after one "
            "confirmation; Edit ▸ Undo puts them back. A group's keeper and reference files never move.",
        )
        self.copy_marked_button = self._tool_button(
            "Copy paths", "Copy the paths of the ticked files, one a line (Ctrl+Shift+C)"
        )
        marks_bar = QHBoxLayout()
        for b in (self.mark_rule_button, self.mark_by_rule_button, self.unmark_button):
            marks_bar.addWidget(b)
        marks_bar.addWidget(self.marked_label, 1)
        marks_bar.addWidget(keeper_label)
        marks_bar.addWidget(self.keeper_rule)
        for b in (self.trash_marked_button, self.move_marked_button, self.copy_marked_button):
            marks_bar.addWidget(b)
        groups_layout.addLayout(marks_bar)
        groups_layout.addWidget(self.split, 1)

    def _tool_button(self, text: str, tip: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setToolTip(tip)
        return button
