"""The Groups tab: the filter and action bars, the groups tree with its mark column, and below it the
pair view or the whole group. Widgets only: the window wires them to the review."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, Qt, Signal
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
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.match.matcher import MatchResult
from ..core.models import Document, Group, Method, Status
from ..core.review.pairs import PairTable
from ..core.review.rules import GroupSummary, KeeperRule
from ..core.session import View
from .controller import Marks, ReviewController
from .delegates import MixedScriptRowDelegate
from .diff_view import DiffView
from .excerpt_groups import FOLDER as EXCERPT_FOLDER
from .excerpt_groups import INSIDE as EXCERPT_INSIDE
from .excerpt_groups import NAME as EXCERPT_NAME
from .excerpt_groups import SIZE as EXCERPT_SIZE
from .excerpt_groups import ExcerptGroupsModel
from .group_view import GroupView
from .item_models import (
    BITS_COLUMN,
    EXPERT_COLUMNS,
    FOLDER_COLUMN,
    SIMILARITY_COLUMN,
    GroupTreeModel,
)
from .overflow_bar import OverflowBar
from .settings import AppState

KEEPER_RULES = (
    (
        KeeperRule.ORIGINAL,
        QT_TRANSLATE_NOOP("GroupsPage", "The original"),
        QT_TRANSLATE_NOOP(
            "GroupsPage",
            "The copy with the most identical twins; a document you edit (text, Word, OpenDocument) "
            "over a web page or e-book, and those over a PDF; then the oldest",
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


@dataclass(frozen=True, slots=True)
class SelectionAnchor:
    """The selection before a new grouping, by document (``GroupsPage.selection_anchor``)."""

    documents: tuple[int, ...]  # the selected document, the group's members after it (nearest first),
    #                              then those before it (nearest first); a group's row: all its members
    group_row: bool  # the group's own row was selected, not a member's
    row: int  # the group's place in the list as shown


class GroupsPage(QWidget):
    """Everything on the Groups tab."""

    columns_changed = Signal()  # the person showed or hid a column
    excerpt_selected = Signal(object)  # (holder, excerpt, similarity) | None, while excerpts are shown

    def __init__(self, marks: Marks, keeper_rule: KeeperRule, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group_model = GroupTreeModel(marks, self)
        self.tree = QTreeView(self)
        self.tree.setModel(self.group_model)
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(MixedScriptRowDelegate(self.tree, paths=frozenset({FOLDER_COLUMN})))
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(0, Qt.SortOrder.DescendingOrder)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)  # Shift/Ctrl: many rows
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.tree.installEventFilter(self)  # End: the last group, not the last fetched (eventFilter)
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # a column is fitted to the rows in sight (_fit_column): Qt's default reads a thousand rows through
        # Python's data() and the delegate, a second of the window's time once there are that many groups
        header.setResizeContentsPrecision(0)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._column_menu)
        self.tree.setColumnWidth(0, 330)
        self.tree.setColumnWidth(1, 200)
        self._columns_sized = False
        self._method = Method.MINHASH
        self._hidden: set[int] = set(EXPERT_COLUMNS)  # the columns the person keeps hidden
        self._apply_columns()
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter by path or topic…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setToolTip(
            self.tr("Show only the groups whose topic, or a member's path, contains this text (Ctrl+F)")
        )
        self.kind_filter = QComboBox(self)
        self.kind_filter.addItem(self.tr("All groups"), "all")
        self.kind_filter.addItem(self.tr("Exact duplicates"), "exact")
        self.kind_filter.addItem(self.tr("Near duplicates"), "near")
        self.kind_filter.setToolTip(self.tr("Exact: the same text after normalising; near: similar"))
        self.keep_button = self._tool_button(self.tr("Keep this one"))
        self.not_dup_button = self._tool_button(self.tr("Not a duplicate"))
        self.trash_button = self._tool_button(self.tr("Move others to trash…"))
        self.open_button = self._tool_button(self.tr("Open"))
        self.reveal_button = self._tool_button(self.tr("Show in folder"))
        self.filter_edit.setMinimumWidth(120)
        self.filter_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.bar = bar = self._bar(self.tr("Groups"))
        bar.addWidget(self.filter_edit)
        bar.addWidget(self.kind_filter)
        for b in (self.keep_button, self.not_dup_button, self.trash_button, self.open_button, self.reveal_button):
            bar.addWidget(b)
        # while excerpts are looked for: each document that holds others, with them; nothing to tick
        self.excerpt_model = ExcerptGroupsModel(self)
        self.excerpt_tree = QTreeView(self)
        self.excerpt_tree.setModel(self.excerpt_model)
        self.excerpt_tree.setUniformRowHeights(True)
        self.excerpt_tree.setItemDelegate(MixedScriptRowDelegate(self.excerpt_tree, paths=frozenset({EXCERPT_FOLDER})))
        self.excerpt_tree.setAlternatingRowColors(True)
        for column, width in ((EXCERPT_NAME, 330), (EXCERPT_INSIDE, 150), (EXCERPT_SIZE, 80)):
            self.excerpt_tree.setColumnWidth(column, width)
        self.excerpt_tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.lists = QStackedWidget(self)
        self.lists.addWidget(self.tree)
        self.lists.addWidget(self.excerpt_tree)
        self.diff = DiffView(self)
        self.group_view = GroupView(self)
        self.detail = QStackedWidget(self)  # the pair view for a member's row, the whole group for a group's
        self.detail.addWidget(self.diff)
        self.detail.addWidget(self.group_view)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.addWidget(self.lists)
        self.split.addWidget(self.detail)
        self.split.setStretchFactor(0, 1)  # half each: on a laptop's 700 pixels, a third was three rows
        self.split.setStretchFactor(1, 1)
        groups_layout = QVBoxLayout(self)
        groups_layout.addWidget(bar)
        self.mark_rule_button = self._tool_button(self.tr("Mark all but the keepers"))
        self.mark_by_rule_button = self._tool_button(self.tr("Mark by rule…"))
        self.unmark_button = self._tool_button(self.tr("Unmark all"))
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
        self.trash_marked_button = self._tool_button(self.tr("Move marked to trash…"))
        self.move_marked_button = self._tool_button(self.tr("Move marked to folder…"))
        self.copy_marked_button = self._tool_button(self.tr("Copy paths"))
        marks_bar = self._bar(self.tr("Marks"))
        # what acts first, so that a narrow window hides the keeper rule (also in Preferences) behind »
        for b in (
            self.mark_rule_button,
            self.mark_by_rule_button,
            self.unmark_button,
            self.trash_marked_button,
            self.move_marked_button,
            self.copy_marked_button,
        ):
            marks_bar.addWidget(b)
        self.marked_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.marked_label.setMinimumWidth(60)
        marks_bar.addWidget(self.marked_label)
        marks_bar.addSeparator()  # "36.7 MB" and "Keep:" ran together
        marks_bar.addWidget(keeper_label)
        marks_bar.addWidget(self.keeper_rule)
        groups_layout.addWidget(marks_bar)
        groups_layout.addWidget(self.split, 1)
        self.marks_bar = marks_bar
        self.filter_edit.textChanged.connect(lambda text: self.group_model.set_filter(text=text))
        self.filter_edit.textChanged.connect(self.excerpt_model.set_filter)
        self.excerpt_model.modelReset.connect(self._excerpts_listed)
        self.excerpt_tree.selectionModel().currentChanged.connect(
            lambda current, _previous: self.excerpt_selected.emit(self.excerpt_model.pair(current))
        )
        for changed in (self.filter_edit.textChanged, self.kind_filter.currentIndexChanged):
            changed.connect(lambda *_: self.tree.scrollToTop())  # what the filter shows, from its start
        kinds = self.kind_filter
        kinds.currentIndexChanged.connect(lambda _i: self.group_model.set_filter(kind=kinds.currentData()))
        self.group_view.activated.connect(lambda doc: self.select_document(doc.id))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """End in the groups tree goes to the last group listed: every group is fetched first (the model
        hands the tree a thousand at a time)."""
        if watched is self.tree and event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_End:  # type: ignore[attr-defined]
            self.group_model.group_index(self.group_model.listed_count - 1)
        return super().eventFilter(watched, event)

    def shown_group_ids(self) -> frozenset[int] | None:
        """The ids of the groups the filter shows, or None when it shows them all."""
        return self.group_model.listed_group_ids()

    def show_grouping(self, view: View | None, reference_folders: tuple[str, ...]) -> None:
        """Show a new grouping; what was selected stays selected if it can (``restore_selection``)."""
        anchor = self.selection_anchor()
        result = view.result if view is not None else None
        self.group_model.set_result(
            result,
            view.keepers if view is not None else {},
            reference_folders,
            view.chosen if view is not None else frozenset(),
            view.topics if view is not None else None,
            view.listing if view is not None else None,
        )
        if result is not None:
            self.size_columns_once()
        self.restore_selection(anchor)
        if not self.tree.currentIndex().isValid() and not self.excerpts_shown:
            self.group_view.clear()
            self.detail.setCurrentWidget(self.diff)
            self.show_no_pair(result)

    # -- excerpts ---------------------------------------------------------------------------
    @property
    def excerpts_shown(self) -> bool:
        """Whether the page lists excerpts by the document they are inside, not groups of duplicates."""
        return self.lists.currentWidget() is self.excerpt_tree

    def show_excerpts(self, table: PairTable | None, docs: Mapping[int, Document], *, busy: str = "") -> None:
        """List the excerpts of ``table`` by the document they are inside (``busy``: what is said while the
        table is still looked for). The duplicates' decisions and marks are hidden: none applies here."""
        if not self.excerpts_shown:
            self.lists.setCurrentWidget(self.excerpt_tree)
            self._show_decisions(False)
            self.detail.setCurrentWidget(self.diff)
        self.excerpt_model.set_table(table, docs)
        if busy:
            self.diff.clear()
            self.diff.show_problem(busy)

    def show_duplicates(self) -> bool:
        """The groups of duplicates again, with their decisions and marks; whether they were not shown."""
        if not self.excerpts_shown:
            return False
        self.lists.setCurrentWidget(self.tree)
        self._show_decisions(True)
        self.excerpt_model.set_table(None, {})
        return True

    def _show_decisions(self, shown: bool) -> None:
        """The duplicates' own controls: their filter, decisions, trash and marks."""
        for widget in (self.kind_filter, self.keep_button, self.not_dup_button, self.trash_button):
            self.bar.set_wanted(widget, shown)
        self.marks_bar.setVisible(shown)

    def _excerpts_listed(self) -> None:
        """A new list of excerpts: its first holders opened, the first excerpt selected (or none said)."""
        model, tree = self.excerpt_model, self.excerpt_tree
        for row in range(min(model.rowCount(), 50)):
            tree.expand(model.index(row, 0))
        if model.rowCount():
            tree.setCurrentIndex(model.index(0, 0, model.index(0, 0)))
        else:
            self.excerpt_selected.emit(None)
            if model.table is not None:
                self.diff.clear()
                self.diff.show_problem(
                    self.tr("No document is inside another at this setting.")
                    if not model.groups
                    else self.tr("No document that holds excerpts has this in its path, nor its excerpts.")
                )

    # -- the selection ------------------------------------------------------------------------
    def current(self) -> tuple[GroupSummary | None, Document | None]:
        """The selected row's group, and its document (for a group's own row, the member selected in the
        whole group's table, if one is). While excerpts are shown: no group, and the row's document."""
        if self.excerpts_shown:
            return None, self.excerpt_model.document(self.excerpt_tree.currentIndex())
        index = self.tree.currentIndex()
        if not index.isValid():
            return None, None
        document = self.group_model.document(index)
        if document is None and self.detail.currentWidget() is self.group_view:
            document = self.group_view.current_document()  # a member picked in the whole group's table
        return self.group_model.summary(index), document

    def listed_index(self, doc_id: int) -> QModelIndex:
        """The document's row in the list as shown (invalid if it is in no group or filtered out)."""
        return self.group_model.index_of(doc_id)

    def select_document(self, doc_id: int) -> None:
        index = self.listed_index(doc_id)
        if index.isValid():
            self.tree.setCurrentIndex(index)

    def forget_hidden_group(self) -> None:
        """The whole-group view lets go of a group the filter no longer lists (it said "About: …" of it)."""
        group = self.group_view.model.group
        if self.detail.currentWidget() is self.group_view and group is not None and not self.lists_group(group.id):
            self.group_view.clear()
            self.detail.setCurrentWidget(self.diff)

    def lists_group(self, group_id: int) -> bool:
        """The group passes the filters now."""
        return self.group_model.lists(group_id)

    def selected_rows(self) -> tuple[list[Document], list[Group]]:
        """The selected rows: members' documents, and groups whose own row is selected."""
        documents: list[Document] = []
        groups: list[Group] = []
        for index in self.tree.selectionModel().selectedRows(0):
            doc = self.group_model.document(index)
            if doc is not None:
                documents.append(doc)
            else:
                groups.append(self.group_model.summary(index).group)
        return documents, groups

    def selection_anchor(self) -> SelectionAnchor | None:
        """What is selected, remembered by document, so a new grouping can select it again or, when a
        decision took it out (Not a duplicate), its nearest neighbour: review goes on where it was."""
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        group_index = (index.parent() if index.parent().isValid() else index).siblingAtColumn(0)  # its members' parent
        model = self.group_model
        members = [model.document(model.index(row, 0, group_index)) for row in range(model.rowCount(group_index))]
        ids = [doc.id for doc in members if doc is not None]
        _summary, selected = self.current()
        if selected is None or selected.id not in ids:
            return SelectionAnchor(tuple(ids), True, group_index.row())
        at = ids.index(selected.id)
        return SelectionAnchor((selected.id, *ids[at + 1 :], *reversed(ids[:at])), False, group_index.row())

    def restore_selection(self, anchor: SelectionAnchor | None) -> None:
        """Select the anchor's first document still listed (its group's row, if a group was selected);
        if none is, the group now at the anchor's place in the list (the one after it, if it went; the
        last one, if it was the last); with no anchor, the first group unless a row is selected."""
        rows = self.group_model.listed_count
        if anchor is None:
            if rows and not self.tree.currentIndex().isValid():
                self.tree.setCurrentIndex(self.group_model.index(0, 0))
            return
        for doc_id in anchor.documents:
            index = self.listed_index(doc_id)
            if index.isValid():
                self.tree.setCurrentIndex(index.parent() if anchor.group_row else index)
                return
        if rows:
            self.tree.setCurrentIndex(self.group_model.group_index(min(anchor.row, rows - 1)))

    def remember(self, state: AppState) -> None:
        """Put the page's choices into ``state`` (the settings)."""
        state.keeper_rule, state.hidden_columns = self.keeper_rule.currentData(), self.hidden_columns()
        state.ignore_layout, state.wrap_lines = self.diff.ignore_layout.isChecked(), self.diff.wrap_lines.isChecked()
        state.splitter = self.split.saveState()
        state.views["groups_header"] = self.tree.header().saveState()  # widths, order, sort

    def restore(self, state: AppState) -> None:
        if state.hidden_columns is not None:
            self.set_hidden_columns(state.hidden_columns)
        if state.splitter is not None:
            self.split.restoreState(state.splitter)
        header = state.views.get("groups_header")
        if header is not None and self.tree.header().restoreState(header):
            self._columns_sized = True  # the person's widths, not fitted again
            self._apply_columns()
        self.diff.ignore_layout.setChecked(state.ignore_layout)
        self.diff.wrap_lines.setChecked(state.wrap_lines)

    def show_whole_group(self, group: Group, review: ReviewController) -> None:
        """A group's own row: every member against its keeper, below the tree."""
        keeper = review.keeper(group)
        topic = review.view.topics.get(group.id, ()) if review.view is not None else ()
        self.group_view.show_group(group, keeper, review.docs, review.marks.ids, review.reference_folders, topic)
        self.detail.setCurrentWidget(self.group_view)

    def show_no_pair(self, result: MatchResult | None) -> None:
        """The pair view has no pair to show: say why when there is nothing left to review."""
        self.diff.clear()
        if result is not None and not result.groups:
            documents = sum(d.status is Status.OK for d in result.documents)
            self.diff.show_problem(
                self.tr(
                    "No duplicates among the %Ln document(s) compared, at these settings. Lower \u201cHow similar "
                    "must documents be?\u201d to look for looser matches.",
                    "",
                    documents,
                )
                if result.thresholds.method is not Method.SIMHASH
                else self.tr(
                    "No duplicates among the %Ln document(s) compared, at these settings. Raise \u201cHow much may "
                    "fingerprints differ?\u201d to look for looser matches.",
                    "",
                    documents,
                )
            )

    def size_columns_once(self) -> None:
        """The number columns fit what the first grouping shows (later ones keep the person's widths)."""
        if self._columns_sized or not self.group_model.rowCount():
            return
        self._columns_sized = True
        self.tree.expand(self.group_model.index(0, 0))  # members' numbers are what the columns hold
        for col in range(SIMILARITY_COLUMN, self.group_model.columnCount()):
            if not self.tree.isColumnHidden(col):
                self._fit_column(col)
        shown = [c for c in range(1, self.group_model.columnCount()) if not self.tree.isColumnHidden(c)]
        # the last column is stretched to the edge: what it needs, not what it was given, leaves the rest
        last = (
            max(self.tree.sizeHintForColumn(shown[-1]), self.tree.header().sectionSizeHint(shown[-1])) if shown else 0
        )
        others = sum(self.tree.columnWidth(c) for c in shown[:-1]) + last
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

    def _bar(self, name: str) -> OverflowBar:
        """A row of controls that fits any width: what does not fit is in its » menu."""
        return OverflowBar(name, self)

    def _tool_button(self, text: str) -> QPushButton:
        """A button of the bars; the action it does gives it its tooltip and state (actions.py)."""
        return QPushButton(text, self)
