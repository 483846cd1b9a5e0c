"""The main window: folders on the left; thresholds, groups, the pair view and problems on the right.

The window never touches the database: every action on the collection (scan, loading, re-grouping,
decisions, keepers, the trash, export) is a call on the session (core/session.py) run by one serial
runner, so no two interleave; a pair's diff, which reads only the files, runs beside them. Results
come back by signals and only then touch widgets.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QModelIndex, QProcess, QSettings, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..core import i18n
from ..core.errors import is_damaged_database, set_aside_damaged_database
from ..core.fingerprint import ocr
from ..core.i18n import QT_TRANSLATE_NOOP, localize
from ..core.jobs import PaceMeter, ProgressEvent
from ..core.match.matcher import MatchResult
from ..core.models import Document, Group, Method, ScanOptions, Similarity, Status, Thresholds
from ..core.scan import summary_text
from ..core.session import Session, Undoable, View
from ..core.store.stored_text import TextLoader
from . import settings as app_settings
from .controller import Pair, Report, ReviewController
from .decisions_dialog import DecisionsDialog
from .diff_view import DiffView
from .empty_page import EmptyPage
from .file_actions import FileActions
from .folders import FoldersPanel
from .groups_page import GroupsPage
from .help import ShortcutList, UserGuide
from .mark_dialog import MarkRuleDialog
from .pairs_page import PairsPage
from .preferences import Preferences, PreferencesDialog
from .problems_page import ProblemsPage
from .theme import apply_colour_scheme
from .thresholds import ThresholdsPanel
from .translation import chosen_language
from .worker import Job, JobRunner

PHASES = {
    "discover": QT_TRANSLATE_NOOP("MainWindow", "Finding files"),
    "read": QT_TRANSLATE_NOOP("MainWindow", "Reading"),
    "fingerprint": QT_TRANSLATE_NOOP("MainWindow", "Fingerprinting"),
    "ocr": QT_TRANSLATE_NOOP("MainWindow", "Reading scans (OCR)"),
    "index": QT_TRANSLATE_NOOP("MainWindow", "Indexing"),
    "boilerplate": QT_TRANSLATE_NOOP("MainWindow", "Finding boilerplate"),
    "match": QT_TRANSLATE_NOOP("MainWindow", "Grouping"),
    "report": QT_TRANSLATE_NOOP("MainWindow", "Writing report"),
}
"""The scan's phases as the status bar names them (English here, translated where shown)."""


RETRY_TIMEOUT = 600.0
"""Seconds a file may take when the person asks to try the failed files again (a scan allows 120)."""


def _report_path(path: str, chosen_filter: str) -> tuple[str, str]:
    """The file a report goes to and its format: by the name's suffix, else by the filter chosen (whose
    suffix is then added)."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt in ("html", "csv", "json"):
        return path, fmt
    fmt = "csv" if "*.csv" in chosen_filter else "json" if "*.json" in chosen_filter else "html"
    return f"{path}.{fmt}", fmt


@dataclasses.dataclass(frozen=True, slots=True)
class _SelectionAnchor:
    """The selection before a new grouping: see MainWindow._selection_anchor."""

    documents: tuple[int, ...]  # the selected document, the group's members after it (nearest first),
    #                              then those before it (nearest first); a group's row: all its members
    group_row: bool  # the group's own row was selected, not a member's
    row: int  # the group's place in the list as shown


class MainWindow(QMainWindow):
    def __init__(self, qsettings: QSettings, folders: list[str] | None = None, database: str | None = None) -> None:
        """``database``: another database than the remembered one, for this run only (`neardup-gui --db FILE`,
        e.g. a Spark result loaded by `neardup import-spark`): its folders are those of its last scan, and
        neither it nor its folders replace what the app remembers."""
        super().__init__()
        self.qsettings = qsettings
        self.state = app_settings.load(qsettings)
        self._remembered = (self.state.database, list(self.state.folders), list(self.state.reference_folders))
        self._own_database = database is not None
        if database is not None:
            self.state.database = os.path.abspath(database)
        self.runner = JobRunner(self)  # jobs that read files only (a pair's diff)
        self.session_jobs = JobRunner(self, serial=True)  # everything that touches the session, in order
        self.session = Session(
            self.state.database, reference_folders=self.state.reference_folders, keeper_rule=self.state.keeper_rule
        )
        self.review = ReviewController(self.session, self._run)  # the review's state and logic, no widgets
        self.files = FileActions(self, self.review, lambda text, ms: self.statusBar().showMessage(text, ms))
        self.view: View | None = None
        self.result: MatchResult | None = None
        self.scan_job: Job | None = None
        self._regroup_running = False
        self._regroup_pending = False
        self._preparing_message = ""  # the last "preparing groups" shown, cleared when they are ready
        self._shown_pair: tuple[int, int] | None = None  # (left, right) in the pair view
        self._loader: TextLoader | None = None
        self._pace = PaceMeter()  # rates and time left of the scan's phases
        self._restoring = True
        self.setWindowTitle(self.tr("neardup — duplicate documents") if not self._own_database else
                            self.tr("neardup — {database}").format(database=os.path.basename(self.state.database)))
        self.setAcceptDrops(True)
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):  # Qt >= 6.5
            hints.colorSchemeChanged.connect(lambda _scheme: self._system_colours_changed())
        self._build()
        self._build_menus()
        self._restore(folders or [])

    # -- construction ---------------------------------------------------------------------
    def _build(self) -> None:
        self.folders = FoldersPanel(self)
        self.scan_button = QPushButton(self.tr("Scan"), self)
        self.scan_button.setToolTip(self.tr("Scan the folders (F5). A rescan reads only files that changed."))
        self.scan_button.setDefault(True)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.folders, 1)
        left_layout.addWidget(self.scan_button)

        self.empty = EmptyPage(self)

        # results
        self.thresholds = ThresholdsPanel(self.state.thresholds, self)
        self.groups = GroupsPage(self.review.marks, self.state.keeper_rule, self)
        self.groups.show_method(self.state.thresholds.method)
        if self.state.hidden_columns is not None:
            self.groups.set_hidden_columns(self.state.hidden_columns)
        self.groups.columns_changed.connect(self._save_state)
        self.groups.diff.runner = self.runner
        self.groups.diff.options_changed.connect(self._save_state)
        self.groups.group_view.activated.connect(lambda doc: self._select_document(doc.id))
        self.groups.mark_rule_button.clicked.connect(self.review.mark_all_but_keepers)
        self.groups.mark_by_rule_button.clicked.connect(self.mark_by_rule)
        self.groups.unmark_button.clicked.connect(lambda: self.review.marks.set(()))
        self.groups.trash_marked_button.clicked.connect(self.trash_marked)
        self.groups.move_marked_button.clicked.connect(self.move_marked)
        self.groups.copy_marked_button.clicked.connect(self.files.copy_marked_paths)
        self.groups.keeper_rule.currentIndexChanged.connect(lambda _i: self._keeper_rule_changed())

        self.problems = ProblemsPage(self)
        self.problems.retry_button.clicked.connect(lambda: self.start_scan(retry_failed=True))

        self.pairs = PairsPage(self.review.marks, self)
        self.pairs.diff.runner = self.runner
        self.pairs.keep_left.connect(lambda: self._keep_of_pair(left=True))
        self.pairs.keep_right.connect(lambda: self._keep_of_pair(left=False))
        self.pairs.not_duplicate.connect(self.mark_not_duplicate)
        self.pairs.pair_selected.connect(self._pairs_row_selected)
        for one, other in ((self.groups.diff, self.pairs.diff), (self.pairs.diff, self.groups.diff)):
            one.options_changed.connect(lambda one=one, other=other: self._same_diff_options(one, other))
        self._pairs_of: View | None = None  # the grouping the Pairs tab shows the pairs of

        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.groups, self.tr("Groups"))
        self.tabs.addTab(self.pairs, self.tr("Pairs"))
        self.tabs.addTab(self.problems, self.tr("Problems"))
        self.tabs.currentChanged.connect(lambda _i: self._tab_changed())
        results = QWidget(self)
        results_layout = QVBoxLayout(results)
        results_layout.addWidget(self.thresholds)
        results_layout.addWidget(self.tabs, 1)

        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.empty)
        self.pages.addWidget(results)
        self.main_split = QSplitter(Qt.Orientation.Horizontal, self)
        self.main_split.addWidget(left)
        self.main_split.addWidget(self.pages)
        self.main_split.setStretchFactor(1, 4)
        self.main_split.setSizes([280, 1100])
        self.setCentralWidget(self.main_split)

        # status bar: scan progress
        self.progress = QProgressBar(self)
        self.progress.setMinimumWidth(260)
        self.progress.setTextVisible(True)
        self.progress_label = QLabel("", self)
        self.cancel_button = QToolButton(self)
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(
            self.tr("Stop the scan; what was read is kept and a rescan continues from there (Esc)")
        )
        self.statusBar().addPermanentWidget(self.progress_label, 1)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)
        self._show_progress(False)

        # wiring
        self.empty.add_button.clicked.connect(self.add_folder_dialog)
        self.empty.scan_button.clicked.connect(self.start_scan)
        self.scan_button.clicked.connect(self.start_scan)
        self.cancel_button.clicked.connect(self.cancel_scan)
        self.folders.changed.connect(self._folders_changed)
        self.thresholds.changed.connect(self._thresholds_changed)
        self.thresholds.method.currentIndexChanged.connect(lambda _i: self._compute_histogram())
        self.groups.filter_edit.textChanged.connect(self.groups.group_proxy.set_text)
        self.groups.kind_filter.currentIndexChanged.connect(
            lambda _i: self.groups.group_proxy.set_kind(self.groups.kind_filter.currentData())
        )
        for signal in (self.groups.filter_edit.textChanged, self.groups.kind_filter.currentIndexChanged):
            signal.connect(lambda *_: self.review.forget_pair_unless(self._pair_is_listed))
        self.review.view_changed.connect(self._view_shown)
        self.review.pair_changed.connect(self._pair_changed)
        self.review.message.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.review.undo_changed.connect(lambda _undoable: self._update_actions())
        self.review.acted.connect(self._acted)
        self.review.marks.changed.connect(self._marks_changed)
        self.groups.tree.selectionModel().currentChanged.connect(
            lambda current, _previous: self._selection_changed(current)
        )
        self.groups.tree.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        self.groups.tree.doubleClicked.connect(lambda _index: self.open_selected())
        self.groups.keep_button.clicked.connect(self.keep_selected)
        self.groups.not_dup_button.clicked.connect(self.mark_not_duplicate)
        self.groups.trash_button.clicked.connect(self.trash_others)
        self.groups.open_button.clicked.connect(self.open_selected)
        self.groups.reveal_button.clicked.connect(self.reveal_selected)

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        m = self.menuBar().addMenu(self.tr("&File"))
        self._action(
            m,
            self.tr("&Add Folder…"),
            self.add_folder_dialog,
            QKeySequence.StandardKey.Open,
            self.tr("Add a folder to scan"),
        )
        self.scan_action = self._action(
            m,
            self.tr("&Scan"),
            self.start_scan,
            QKeySequence.StandardKey.Refresh,
            self.tr("Scan the folders (incremental)"),
        )
        self.cancel_action = self._action(
            m, self.tr("&Cancel Scan"), self.cancel_scan, "Esc", self.tr("Stop the running scan")
        )
        m.addSeparator()
        self.export_action = self._action(
            m, self.tr("&Export Report…"), self.export_report, "Ctrl+E", self.tr("Save the groups as HTML, CSV or JSON")
        )
        m.addSeparator()
        self._action(m, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit, self.tr("Quit neardup"))
        e = self.menuBar().addMenu(self.tr("&Edit"))
        self.undo_action = self._action(
            e,
            self.tr("&Undo"),
            self.review.undo,
            QKeySequence.StandardKey.Undo,
            self.tr("Take back the last decision or move"),
        )
        self.decisions_action = self._action(
            e,
            self.tr("&Decisions…"),
            self.show_decisions,
            None,
            self.tr("Every \u201cnot a duplicate\u201d you made, to review and take back"),
        )
        e.addSeparator()
        self.keep_action = self._action(
            e, self.tr("&Keep This One"), self.keep_selected, "Ctrl+K", self.groups.keep_button.toolTip()
        )
        self.not_dup_action = self._action(
            e, self.tr("&Not a Duplicate"), self.mark_not_duplicate, "Ctrl+D", self.groups.not_dup_button.toolTip()
        )
        self.trash_action = self._action(
            e,
            self.tr("Move Others to &Trash…"),
            self.trash_others,
            QKeySequence.StandardKey.Delete,
            self.groups.trash_button.toolTip(),
        )
        e.addSeparator()
        e.addSeparator()
        self.open_action = self._action(
            e, self.tr("&Open Document"), self.open_selected, "Ctrl+Return", self.groups.open_button.toolTip()
        )
        self.reveal_action = self._action(
            e, self.tr("Show in &Folder"), self.reveal_selected, "Ctrl+Shift+R", self.groups.reveal_button.toolTip()
        )
        e.addSeparator()
        self._action(
            e,
            self.tr("&Find…"),
            lambda: self.groups.filter_edit.setFocus(),
            QKeySequence.StandardKey.Find,
            self.tr("Filter groups by path"),
        )
        e.addSeparator()
        preferences = self._action(e, self.tr("&Preferences…"), self.show_preferences, "Ctrl+,",
                                   self.tr("Language, appearance, which file to keep, how similar documents must be"))
        preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        k = self.menuBar().addMenu(self.tr("&Mark"))
        self.mark_rule_action = self._action(
            k,
            self.tr("Mark &All but the Keepers"),
            self.review.mark_all_but_keepers,
            "Ctrl+M",
            self.groups.mark_rule_button.toolTip(),
        )
        self.mark_by_rule_action = self._action(
            k, self.tr("Mark by &Rule…"), self.mark_by_rule, "Ctrl+Shift+K", self.groups.mark_by_rule_button.toolTip()
        )
        self.unmark_action = self._action(
            k,
            self.tr("&Unmark All"),
            lambda: self.review.marks.set(()),
            "Ctrl+Shift+M",
            self.groups.unmark_button.toolTip(),
        )
        self.mark_selected_action = self._action(
            k,
            self.tr("Mark &Selected"),
            lambda: self.review.marks.update(self._selected_for_marking(), True),
            "Ctrl+Space",
            self.tr(
                "Tick the selected rows (Shift or Ctrl+click to select many); a group's row ticks every member "
                "but its keeper and files in reference folders"
            ),
        )
        self.unmark_selected_action = self._action(
            k,
            self.tr("Unmar&k Selected"),
            lambda: self.review.marks.update(self._selected_for_marking(), False),
            "Ctrl+Shift+Space",
            self.tr("Untick the selected rows"),
        )
        k.addSeparator()
        self.trash_marked_action = self._action(
            k,
            self.tr("Move Marked to &Trash…"),
            self.trash_marked,
            "Shift+Del",
            self.groups.trash_marked_button.toolTip(),
        )
        self.move_marked_action = self._action(
            k,
            self.tr("Move Marked to &Folder…"),
            self.move_marked,
            "Ctrl+Shift+O",
            self.groups.move_marked_button.toolTip(),
        )
        self.copy_marked_action = self._action(
            k,
            self.tr("&Copy Marked Paths"),
            self.files.copy_marked_paths,
            "Ctrl+Shift+C",
            self.groups.copy_marked_button.toolTip(),
        )
        v = self.menuBar().addMenu(self.tr("&View"))
        self._action(v, self.tr("&Groups"), lambda: self.tabs.setCurrentWidget(self.groups), "Ctrl+1",
                     self.tr("Show the groups"))
        self._action(v, self.tr("P&airs"), lambda: self.tabs.setCurrentWidget(self.pairs), "Ctrl+2",
                     self.tr("Show every pair of duplicates, one by one"))
        self._action(
            v,
            self.tr("&Problems"),
            lambda: self.tabs.setCurrentWidget(self.problems),
            "Ctrl+3",
            self.tr("Show files that could not be compared"),
        )
        self._action(
            v, self.tr("Next &Difference"), lambda: self._diff().go(1), "F3", self.tr("Next difference in the pair")
        )
        self._action(
            v,
            self.tr("Previous D&ifference"),
            lambda: self._diff().go(-1),
            "Shift+F3",
            self.tr("Previous difference in the pair"),
        )
        h = self.menuBar().addMenu(self.tr("&Help"))
        self._action(h, self.tr("&User Guide"), self.show_guide, QKeySequence.StandardKey.HelpContents,
                     self.tr("How to find, compare and sort out duplicates, in a few pages"))
        self._action(h, self.tr("&Keyboard Shortcuts"), self.show_shortcuts, "Ctrl+/",
                     self.tr("Every key of the window"))
        h.addSeparator()
        self._action(h, self.tr("&About neardup"), self.about, None, self.tr("Versions and credits"))
        self._action(h, self.tr("About &Qt"), lambda: QMessageBox.aboutQt(self), None, self.tr("About Qt"))
        for action in (
            self.keep_action,
            self.not_dup_action,
            self.trash_action,
            self.mark_selected_action,
            self.unmark_selected_action,
            self.open_action,
            self.reveal_action,
        ):
            self.groups.tree.addAction(action)
        # the buttons show the shortcuts; the menu actions own them
        self.groups.diff.previous_button.setShortcut(QKeySequence())
        self.groups.diff.next_button.setShortcut(QKeySequence())
        self._update_actions()

    def _restore(self, extra_folders: list[str]) -> None:
        s = self.state
        if s.geometry is not None:
            self.restoreGeometry(s.geometry)
        else:
            self.resize(1400, 880)
        if s.splitter is not None:
            self.groups.split.restoreState(s.splitter)
        for folder in self.session.last_scan_roots() if self._own_database else s.folders:
            self.folders.add_folder(folder, folder in s.reference_folders)
        for folder in extra_folders:
            self.folders.add_folder(folder)
        self.folders.include.setText(s.include)
        self.folders.exclude.setText(s.exclude)
        self.folders.set_types(s.file_types)
        self.folders.set_ocr_choice(s.ocr, s.ocr_languages)
        self.groups.diff.ignore_layout.setChecked(s.ignore_layout)
        self.groups.diff.wrap_lines.setChecked(s.wrap_lines)
        self._restoring = False
        self._refresh_empty_state()
        if self.folders.folders():
            self._load_last_results()

    # -- state ----------------------------------------------------------------------------
    @property
    def db_path(self) -> str:
        return self.state.database

    def _save_state(self) -> None:
        if self._restoring:
            return
        s = self.state
        s.folders = self.folders.folders()
        s.reference_folders = self.folders.reference_folders()
        s.include = self.folders.include.text()
        s.exclude = self.folders.exclude.text()
        s.file_types = self.folders.types()
        s.ocr = self.folders.ocr.isChecked()
        s.ocr_languages = str(self.folders.ocr_languages.currentData())
        s.thresholds = self.thresholds.thresholds()
        s.keeper_rule = self.groups.keeper_rule.currentData()
        s.ignore_layout = self.groups.diff.ignore_layout.isChecked()
        s.wrap_lines = self.groups.diff.wrap_lines.isChecked()
        s.hidden_columns = self.groups.hidden_columns()
        s.geometry = self.saveGeometry()
        s.splitter = self.groups.split.saveState()
        if self._own_database:  # this run's database and folders are not the ones to remember
            s = dataclasses.replace(s, database=self._remembered[0], folders=self._remembered[1],
                                    reference_folders=self._remembered[2])
        app_settings.save(self.qsettings, s)

    def _folders_changed(self) -> None:
        self._refresh_empty_state()
        self._save_state()
        if self._restoring:
            return
        references = tuple(self.folders.reference_folders())
        if self.view is not None and set(self.view.roots) != set(self.folders.folders()):
            self.review.reference_folders = references
            self._load_last_results()  # a folder left (or came): the groups of the folders listed, now
        else:  # the same folders: keepers follow the reference folders at once
            self.review.set_keeper_rule(self.groups.keeper_rule.currentData(), references)

    def _refresh_empty_state(self) -> None:
        has_folders = bool(self.folders.folders())
        self.empty.show_state(has_folders=has_folders, scanning=self.scan_job is not None)
        self.scan_button.setEnabled(has_folders and self.scan_job is None)
        self.pages.setCurrentIndex(1 if self.result is not None else 0)

    def _update_actions(self) -> None:
        index = self.groups.tree.currentIndex()
        source = self.groups.group_proxy.mapToSource(index) if index.isValid() else index
        doc = self.groups.group_model.document(source) if source.isValid() else None
        has_group = source.isValid()
        idle = self.scan_job is None
        for w in (self.groups.keep_button, self.keep_action, self.groups.not_dup_button, self.not_dup_action):
            w.setEnabled(doc is not None and idle and self.view is not None)
        if self.tabs.currentWidget() is self.pairs:  # the Edit menu acts on the pair selected there
            self.keep_action.setEnabled(False)
            self.not_dup_action.setEnabled(self.pairs.current_pair() is not None and idle and self.view is not None)
        for w in (self.groups.trash_button, self.trash_action):
            w.setEnabled(has_group and idle)
        for w in (self.groups.open_button, self.open_action, self.groups.reveal_button, self.reveal_action):
            w.setEnabled(doc is not None)
        self.export_action.setEnabled(self.result is not None)
        undoable: Undoable | None = self.review.undoable
        self.undo_action.setEnabled(undoable is not None and idle)
        self.undo_action.setText(
            self.tr("&Undo Not a Duplicate")
            if undoable is not None and undoable.what == "not a duplicate"
            else self.tr("&Undo Keep")
            if undoable is not None and undoable.what == "keep"
            else self.tr("&Undo Move")
            if undoable is not None
            else self.tr("&Undo")
        )
        marked = len(self.review.marks)
        for w in (
            self.groups.trash_marked_button,
            self.trash_marked_action,
            self.groups.move_marked_button,
            self.move_marked_action,
        ):
            w.setEnabled(bool(marked) and idle and self.view is not None)
        for w in (
            self.groups.copy_marked_button,
            self.copy_marked_action,
            self.groups.unmark_button,
            self.unmark_action,
        ):
            w.setEnabled(bool(marked))
        for w in (self.mark_selected_action, self.unmark_selected_action):
            w.setEnabled(self.groups.tree.selectionModel().hasSelection())
        has_groups = self.result is not None and bool(self.result.groups)
        for w in (
            self.groups.mark_rule_button,
            self.mark_rule_action,
            self.groups.mark_by_rule_button,
            self.mark_by_rule_action,
        ):
            w.setEnabled(has_groups)
        self.decisions_action.setEnabled(self.view is not None and idle)
        self.cancel_action.setEnabled(self.scan_job is not None)
        self.scan_action.setEnabled(idle)
        self.problems.retry_button.setEnabled(idle and self.problems.model.rowCount() > 0)

    # -- folders --------------------------------------------------------------------------
    def add_folder_dialog(self) -> None:
        self.folders.choose_folder()

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if any(url.isLocalFile() and os.path.isdir(url.toLocalFile()) for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802
        added = [
            url.toLocalFile()
            for url in event.mimeData().urls()
            if url.isLocalFile() and os.path.isdir(url.toLocalFile()) and self.folders.add_folder(url.toLocalFile())
        ]
        if added:
            event.acceptProposedAction()
            self.statusBar().showMessage(
                self.tr("Added %n folder(s). Press Scan (F5) to look for duplicates.", "", len(added)), 6000
            )

    # -- scanning -------------------------------------------------------------------------
    def scan_options(self) -> ScanOptions:
        return ScanOptions(
            roots=tuple(self.folders.folders()),
            include=self.folders.patterns("include"),
            exclude=self.folders.patterns("exclude"),
            kinds=self.folders.kinds(),
            ocr=self.folders.ocr_choice(),
        )

    def start_scan(self, retry_failed: bool = False) -> None:
        """Scan the folders (incrementally); ``retry_failed`` reads again the files whose reader crashed,
        ran out of memory or of time."""
        if self.scan_job is not None or not self.folders.folders():
            return
        missing = [f for f in self.folders.folders() if not os.path.isdir(f)]
        if missing:
            QMessageBox.warning(
                self,
                self.tr("Folder not found"),
                self.tr(
                    "These folders are not there any more; remove them or reconnect the drive:\n\n{folders}"
                ).format(folders="\n".join(missing)),
            )
            return
        if not self.folders.kinds():
            QMessageBox.information(
                self, self.tr("Nothing to scan"), self.tr("Tick at least one file type.")
            )
            return
        languages = self.folders.ocr_choice()
        if languages and (problem := ocr.unavailable(languages)):
            QMessageBox.warning(self, self.tr("OCR is not installed"), localize("Problem", problem))
            return
        self._save_state()
        options = self.scan_options()
        if retry_failed:  # and with more time: a file that ran out of it would only run out again
            options = dataclasses.replace(options, retry_failed=True, file_timeout=RETRY_TIMEOUT)
        job = Job(self.session.scan, options, self.thresholds.thresholds())
        job.signals.progress.connect(self._scan_progress)
        job.signals.returned.connect(self._scan_done)
        job.signals.cancelled.connect(self._scan_cancelled)
        self._report_failures(job, self.tr("The scan failed"))
        job.signals.finished.connect(self._scan_finished)
        self.scan_job = job
        self._pace = PaceMeter()
        self._show_progress(True)
        self.progress_label.setText(self.tr("Starting…"))
        self._refresh_empty_state()
        self._update_actions()
        self.session_jobs.start(job)

    def cancel_scan(self) -> None:
        if self.scan_job is not None:
            self.scan_job.cancel()
            self.progress_label.setText(self.tr("Cancelling… keeping what was read"))

    def _scan_progress(self, event: ProgressEvent) -> None:
        pace = self._pace(event)
        phase = QCoreApplication.translate("MainWindow", PHASES[event.phase]) if event.phase in PHASES else event.phase
        if event.total:
            self.progress.setRange(0, event.total)
            self.progress.setValue(event.done)
            self.progress.setFormat(f"{event.done:,} / {event.total:,}")
        else:
            self.progress.setRange(0, 0)
            self.progress.setFormat(f"{event.done:,}")
        parts = [phase]
        if event.phase == "ocr" and event.done:
            parts.append(self.tr("{rate} pages/s").format(rate=f"{pace.rate:,.1f}"))
            if pace.left_text:
                parts.append(self.tr("about {time} left").format(time=pace.left_text))
        if event.phase in ("read", "fingerprint") and event.done:
            parts.append(self.tr("{rate} files/s").format(rate=f"{pace.rate:,.0f}"))
            if event.bytes_done:
                parts.append(f"{pace.bytes_rate / 1e6:.1f} MB/s")
            if pace.left_text:
                parts.append(self.tr("about {time} left").format(time=pace.left_text))
        text = " · ".join(parts)
        if event.current:
            text += " — " + self.fontMetrics().elidedText(
                os.path.basename(event.current), Qt.TextElideMode.ElideMiddle, 320
            )
        self.progress_label.setText(text)

    def _scan_done(self, view: View) -> None:
        self._set_view(view)
        if view.scan is not None:
            self.statusBar().showMessage(self.tr("Scanned {summary}.").format(summary=summary_text(view.scan)), 15000)

    def _scan_cancelled(self) -> None:
        self.statusBar().showMessage(
            self.tr("Scan cancelled. Everything read so far is kept: press Scan to go on from there."), 15000
        )
        self._load_last_results()

    def _scan_finished(self) -> None:
        self.scan_job = None
        self._show_progress(False)
        self._refresh_empty_state()
        self._update_actions()

    def _show_progress(self, visible: bool) -> None:
        for w in (self.progress, self.progress_label, self.cancel_button):
            w.setVisible(visible)

    def _report_failures(self, job: Job, title: str) -> None:
        """Show a job's failure; a damaged database gets the offer of a new one instead."""
        failures: list[BaseException] = []
        job.signals.failed.connect(failures.append)
        job.signals.errored.connect(
            lambda message: (
                self._offer_new_database(message)
                if failures and is_damaged_database(failures[-1])
                else self._job_failed(title, message)
            )
        )

    def _offer_new_database(self, message: str) -> None:
        """The database is damaged: keep it aside (never deleted) and start a new one, if the person agrees."""
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            self.tr("The database is damaged"),
            self.tr("neardup's database is damaged and cannot be read:\n{path}").format(path=self.db_path),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDetailedText(message)
        box.setInformativeText(
            self.tr(
                "Your documents are not affected: the database holds what neardup found in them, "
                "made again by the next scan, and your \u201cnot a duplicate\u201d decisions, which "
                "a new database starts without. The damaged one is kept beside it."
            )
        )
        start = box.addButton(self.tr("Start a New Database"), QMessageBox.ButtonRole.AcceptRole)
        box.setObjectName("damaged-database")
        box.exec()
        if box.clickedButton() is not start:
            return
        self.session_jobs.wait()
        self.session.close()
        self._set_view(None)
        kept = set_aside_damaged_database(self.db_path, time.strftime("%Y%m%d-%H%M%S"))
        self.result = None
        self._refresh_empty_state()
        self._update_actions()
        self.statusBar().showMessage(
            self.tr("The damaged database was kept as {path}. Press Scan to build a new one.").format(path=kept), 20000
        )

    def _job_failed(self, title: str, message: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, message.split("\n\n")[0], QMessageBox.StandardButton.Ok, self
        )
        if "\n\n" in message:
            box.setDetailedText(message)
        box.open()

    # -- results --------------------------------------------------------------------------
    def _run(self, fn, *args, returned=None, title: str = "", **kwargs) -> Job:
        """Run a call on the session through the serial runner; ``returned`` gets its result on this thread."""
        job = Job(fn, *args, **kwargs)
        if returned is not None:
            job.signals.returned.connect(returned)
        if title:
            self._report_failures(job, title)
        return self.session_jobs.start(job)

    def _load_last_results(self) -> None:
        """The groups of the folders listed, from the database (no scanning)."""
        if not os.path.exists(self.db_path) or not self.folders.folders():
            self._set_view(None)
            return
        self._run(
            self.session.open,
            tuple(self.folders.folders()),
            self.thresholds.thresholds(),
            reference_folders=tuple(self.folders.reference_folders()),
            returned=self._set_view,
            title=self.tr("The last results could not be opened"),
        )

    def _set_view(self, view: View | None) -> None:
        """A grouping of another collection (after a scan, a load, a trash): the histogram is measured again."""
        self.thresholds.show_histogram(None)
        self._show_view(view)
        if view is None:
            return
        self._compute_histogram()
        if view.boilerplate.get("note") and not self.statusBar().currentMessage():  # a cancelled scan's says more
            # the only note: common text was not analysed yet (an older database)
            self.statusBar().showMessage(
                self.tr("Common text has not been found in this collection yet: scan again to leave it out."), 15000
            )

    def _show_view(self, view: View | None) -> None:
        """Show a grouping; nothing shown before it stays if it no longer holds (the pair view included)."""
        self.review.show(view)

    def _view_shown(self, view: View | None) -> None:
        """The controller shows a new grouping: the widgets follow, the selection stays if it can."""
        self.view = view
        self.result = view.result if view is not None else None
        self._loader = view.text_loader() if view is not None else None
        anchor = self._selection_anchor()
        self.groups.group_model.set_result(
            self.result, view.keepers if view is not None else {}, tuple(self.folders.reference_folders()),
            view.chosen if view is not None else frozenset(),
        )
        problems = self.problems.set_documents(self.result.documents if self.result is not None else ())
        self.tabs.setTabText(
            self.tabs.indexOf(self.problems),
            self.tr("Problems ({count})").format(count=problems) if problems else self.tr("Problems")
        )
        pairs = len(view.duplicates) if view is not None else 0
        self.tabs.setTabText(self.tabs.indexOf(self.pairs),
                             self.tr("Pairs ({count})").format(count=f"{pairs:,}") if pairs else self.tr("Pairs"))
        self._load_pairs()
        if self.result is not None and view is not None:
            self.thresholds.show_counts(len(self.result.groups), len(self.result.grouped), pairs,
                                        self.result.thresholds)
            self.groups.size_columns_once()
        self._refresh_empty_state()
        if anchor is not None:
            self._restore_selection(anchor)
        elif self.groups.group_proxy.rowCount() and not self.groups.tree.currentIndex().isValid():
            self.groups.tree.setCurrentIndex(self.groups.group_proxy.index(0, 0))
        if not self.groups.tree.currentIndex().isValid():
            self.groups.group_view.clear()
            self.groups.detail.setCurrentWidget(self.groups.diff)
            self._show_placeholder()
        self._update_actions()

    def _pair_is_listed(self, pair: Pair) -> bool:
        """The pair's group passes the filters now."""
        for row in range(self.groups.group_proxy.rowCount()):
            summary = self.groups.group_model.summary(
                self.groups.group_proxy.mapToSource(self.groups.group_proxy.index(row, 0))
            )
            if summary.group.id == pair.group.id:
                return True
        return False

    def _thresholds_changed(self, thresholds: Thresholds) -> None:
        self.groups.show_method(thresholds.method)
        self._save_state()
        self._request_regroup()

    def _request_regroup(self) -> None:
        if self.view is None:
            return
        if self._regroup_running:
            self._regroup_pending = True
            return
        self._regroup_running = True
        self._regroup_pending = False
        job = Job(self.session.regroup, self.thresholds.thresholds())
        job.signals.progress.connect(self._regroup_progress)
        job.signals.returned.connect(self._show_view)
        job.signals.errored.connect(lambda message: self._job_failed(self.tr("Grouping failed"), message))
        job.signals.finished.connect(self._regroup_finished)
        self.session_jobs.start(job)

    def _regroup_progress(self, event: ProgressEvent) -> None:
        """A threshold below what the groups were prepared for needs a new search: say how far it is."""
        if event.total and event.total > 1000:
            self._preparing_message = self.tr("Preparing groups for this threshold… {percent} %").format(
                percent=100 * event.done // event.total
            )
            self.statusBar().showMessage(self._preparing_message, 3000)

    def _regroup_finished(self) -> None:
        self._regroup_running = False
        if self._preparing_message and self.statusBar().currentMessage() == self._preparing_message:
            self.statusBar().clearMessage()  # the groups are shown: the last "75 %" would stay up to 3 s
        self._preparing_message = ""
        if self._regroup_pending:
            self._request_regroup()
        else:
            self._compute_histogram()  # the same one again, unless boilerplate is now treated otherwise
            self._load_pairs()

    def _compute_histogram(self) -> None:
        if self.view is None:
            return
        method = self.thresholds.histogram_method()
        current = self.thresholds.histogram.histogram
        if (
            current is not None
            and current.method is method
            and (method is Method.SIMHASH or current.ignore_boilerplate == self.view.ignores_boilerplate)
        ):
            self.thresholds.show_histogram(current)
            return
        self._run(self.session.histogram, method, returned=self.thresholds.show_histogram)

    # -- selection and the pair view ------------------------------------------------------
    def _selected_document(self) -> Document | None:
        index = self.groups.tree.currentIndex()
        if not index.isValid():
            return None
        return self.groups.group_model.document(self.groups.group_proxy.mapToSource(index))

    def _listed_index(self, doc_id: int) -> QModelIndex:
        """The document's row in the list as shown (invalid if it is in no group or filtered out)."""
        return self.groups.group_proxy.mapFromSource(self.groups.group_model.index_of(doc_id))

    def _select_document(self, doc_id: int) -> None:
        index = self._listed_index(doc_id)
        if index.isValid():
            self.groups.tree.setCurrentIndex(index)

    def _selection_anchor(self) -> _SelectionAnchor | None:
        """What is selected, remembered by document, so a new grouping can select it again or, when a
        decision took it out (Not a duplicate), its nearest neighbour: review goes on where it was."""
        index = self.groups.tree.currentIndex()
        if not index.isValid():
            return None
        group_index = (index.parent() if index.parent().isValid() else index).siblingAtColumn(0)  # its members' parent
        proxy = self.groups.group_proxy
        members = [self.groups.group_model.document(proxy.mapToSource(proxy.index(row, 0, group_index)))
                   for row in range(proxy.rowCount(group_index))]
        ids = [doc.id for doc in members if doc is not None]
        selected = self._selected_document()
        if selected is None or selected.id not in ids:
            return _SelectionAnchor(tuple(ids), True, group_index.row())
        at = ids.index(selected.id)
        return _SelectionAnchor((selected.id, *ids[at + 1 :], *reversed(ids[:at])), False, group_index.row())

    def _restore_selection(self, anchor: _SelectionAnchor) -> None:
        """Select the anchor's first document still listed (its group's row, if a group was selected);
        if none is, the group now at the anchor's place in the list (the one after it, if it went; the
        last one, if it was the last)."""
        for doc_id in anchor.documents:
            index = self._listed_index(doc_id)
            if index.isValid():
                self.groups.tree.setCurrentIndex(index.parent() if anchor.group_row else index)
                return
        rows = self.groups.group_proxy.rowCount()
        if rows:
            self.groups.tree.setCurrentIndex(self.groups.group_proxy.index(min(anchor.row, rows - 1), 0))

    def _selection_changed(self, index) -> None:
        """A group's row shows the whole group; a member's row shows it against the group's keeper."""
        self._update_actions()
        if not index.isValid() or self.result is None:
            return
        source = self.groups.group_proxy.mapToSource(index)
        group = self.groups.group_model.summary(source).group
        document = self.groups.group_model.document(source)
        if document is None:
            self.review.forget_pair()
            self._show_group(group)
            self.groups.detail.setCurrentWidget(self.groups.group_view)
        else:
            self.groups.detail.setCurrentWidget(self.groups.diff)
            self.review.select(group, document)

    def _show_group(self, group: Group) -> None:
        self.groups.group_view.show_group(
            group, self.review.keeper(group), self.review.docs, self.review.marks.ids, self.review.reference_folders
        )

    def _pair_changed(self, pair: Pair | None) -> None:
        """Show the controller's pair: the same two files again only get their numbers updated."""
        if pair is None:
            self._shown_pair = None
            self._show_placeholder()  # a diff still being computed for the old pair is dropped
        elif self._shown_pair == (pair.left.id, pair.right.id):
            self.groups.diff.show_numbers(pair.similarity, without_boilerplate=self._without_boilerplate(pair))
        else:
            self._shown_pair = (pair.left.id, pair.right.id)
            self.compare(pair)
        self._update_actions()

    def _show_placeholder(self) -> None:
        """No pair to show: say why when there is nothing left to review."""
        self.groups.diff.clear()
        if self.result is not None and not self.result.groups:
            documents = sum(d.status is Status.OK for d in self.result.documents)
            self.groups.diff.show_problem(
                self.tr(
                    "No duplicates among the %n document(s) compared, at these settings. Lower \u201cHow similar "
                    "must documents be?\u201d to look for looser matches.", "", documents)
                if self.result.thresholds.method is not Method.SIMHASH else
                self.tr(
                    "No duplicates among the %n document(s) compared, at these settings. Raise \u201cHow much may "
                    "fingerprints differ?\u201d to look for looser matches.", "", documents)
            )

    def _without_boilerplate(self, pair: Pair) -> bool:
        cores = self.view.cores if self.view is not None else frozenset()
        return pair.left.content_id in cores or pair.right.content_id in cores

    def compare(self, pair: Pair) -> None:
        """Show a pair; the texts are read and compared in the background."""
        left, right = pair.left, pair.right
        self.groups.diff.show_pending(left, right, pair.similarity, without_boilerplate=self._without_boilerplate(pair))
        if self._loader is not None:
            self.groups.diff.compare_documents(left, right, self._loader)

    # -- decisions ------------------------------------------------------------------------
    def _current(self):
        index = self.groups.tree.currentIndex()
        if not index.isValid():
            return None, None
        source = self.groups.group_proxy.mapToSource(index)
        return self.groups.group_model.summary(source), self.groups.group_model.document(source)

    def keep_selected(self) -> None:
        """Keep the selected file in its group: remembered across re-groupings and restarts."""
        if self.tabs.currentWidget() is not self.groups:
            return
        _summary, doc = self._current()
        if doc is not None and self.view is not None:
            self.review.keep(doc)

    def mark_not_duplicate(self) -> None:
        """The selected document is not a duplicate of its group: it leaves the group at once (every pair
        with the group's other members is remembered), and Edit ▸ Undo takes it back. On the Pairs tab: the
        selected pair's two documents are not duplicates."""
        if self.tabs.currentWidget() is self.pairs:
            pair = self.pairs.current_pair()
            if pair is not None and self.view is not None and self.scan_job is None:
                self.review.set_pair_apart(pair[0], pair[1])
            return
        summary, doc = self._current()
        if doc is not None and self.view is not None:
            self.review.set_apart(doc, summary.group if summary is not None else None)

    # -- the Pairs tab ----------------------------------------------------------------------
    def _diff(self) -> DiffView:
        """The pair view of the tab shown."""
        return self.pairs.diff if self.tabs.currentWidget() is self.pairs else self.groups.diff

    @staticmethod
    def _same_diff_options(changed: DiffView, other: DiffView) -> None:
        """Both pair views show texts the same way: the options are one choice."""
        other.ignore_layout.setChecked(changed.ignore_layout.isChecked())
        other.wrap_lines.setChecked(changed.wrap_lines.isChecked())

    def _tab_changed(self) -> None:
        self._load_pairs()
        self._update_actions()

    def _load_pairs(self) -> None:
        """The pairs of the grouping shown, measured when the Pairs tab is first looked at after it changed
        (the pairs of another grouping are not kept meanwhile: they may be hundreds of thousands)."""
        if self.view is None or (self._pairs_of is not self.view and self.tabs.currentWidget() is not self.pairs):
            self._pairs_of = None
            self.pairs.show_table(None, {}, ())
        elif self.tabs.currentWidget() is self.pairs and self._pairs_of is not self.view and not self._regroup_running:
            # while the slider moves, the pairs wait for the grouping it stops at (_regroup_finished)
            self._pairs_of = self.view
            self.pairs.count_label.setText(self.tr("Measuring the pairs…"))
            self.review.pairs(lambda view, table: self.pairs.show_table(table, view.documents, view.result.groups,
                                                                        self.review.kept))

    def _pairs_row_selected(self, pair: tuple[Document, Document, Similarity] | None) -> None:
        self._update_actions()
        diff = self.pairs.diff
        if pair is None:
            diff.clear()
            return
        left, right, similarity = pair
        cores = self.view.cores if self.view is not None else frozenset()
        diff.show_pending(left, right, similarity,
                          without_boilerplate=left.content_id in cores or right.content_id in cores)
        if self._loader is not None:
            diff.compare_documents(left, right, self._loader)

    def _keep_of_pair(self, *, left: bool) -> None:
        pair = self.pairs.current_pair()
        if pair is not None and self.view is not None and self.scan_job is None:
            keep, other = (pair[0], pair[1]) if left else (pair[1], pair[0])
            self.review.keep_of_pair(keep, other)

    def show_decisions(self) -> None:
        """The decisions window: every "not a duplicate", to review and take back."""
        dialog = DecisionsDialog(self.review, self)
        dialog.exec()

    def _keeper_rule_changed(self) -> None:
        self._save_state()
        if not self._restoring:
            self.review.set_keeper_rule(self.groups.keeper_rule.currentData())

    def trash_others(self) -> None:
        summary, _doc = self._current()
        if summary is None or self.scan_job is not None or self.view is None:
            return
        self.files.trash_group(summary.group)

    # -- marks: many groups at once -------------------------------------------------------
    def _marks_changed(self, _changed: frozenset[int] = frozenset()) -> None:
        """The count and size of what is ticked, summed when the marks change (not on every selection)."""
        self.groups.marked_label.setText(self.review.marked_summary())
        if (
            self.groups.detail.currentWidget() is self.groups.group_view
            and self.groups.group_view.model.group is not None
        ):
            self.groups.group_view.model.set_marked(self.review.marks.ids)
        self._update_actions()

    def _selected_for_marking(self) -> set[int]:
        """The documents of the selected rows: a member's row is that file; a group's row is every member
        the trash would take (not the keeper, not a reference file)."""
        chosen: set[int] = set()
        for index in self.groups.tree.selectionModel().selectedRows(0):
            source = self.groups.group_proxy.mapToSource(index)
            doc = self.groups.group_model.document(source)
            if doc is not None:
                chosen.add(doc.id)
            else:
                chosen.update(
                    d.id for d in self.review.group_trash_plan(self.groups.group_model.summary(source).group).documents
                )
        return chosen

    def mark_by_rule(self) -> None:
        if self.result is not None:
            MarkRuleDialog(self.review, self).exec()

    def trash_marked(self) -> None:
        """Every ticked file to the trash, all groups at once, after one confirmation."""
        if self.result is None or self.scan_job is not None or not self.review.marks.ids:
            return
        self.files.trash_marked()

    def move_marked(self, destination: str | None = None) -> None:
        """Every ticked file into a folder, keeping its folders below it, after one confirmation; Edit ▸
        Undo puts the whole move back."""
        if self.result is None or self.scan_job is not None or not self.review.marks.ids:
            return
        self.files.move_marked(destination)

    def _acted(self, report: Report) -> None:
        """What an action on files did: a status line, and a warning when something did not go as planned."""
        if self.files.tell(report):  # files came or went: the collection is another one
            self.thresholds.show_histogram(None)
            self._compute_histogram()

    def open_selected(self) -> None:
        _summary, doc = self._current()
        if doc is not None:
            self.files.open(doc)

    def reveal_selected(self) -> None:
        _summary, doc = self._current()
        if doc is not None:
            self.files.reveal(doc)

    # -- export ---------------------------------------------------------------------------
    def export_report(self) -> None:
        if self.view is None:
            return
        filters = self.tr("HTML report (*.html);;CSV spreadsheet (*.csv);;JSON data (*.json)")
        suggested = str(Path.home() / f"neardup-report-{time.strftime('%Y%m%d')}.html")
        chosen_path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export report"), suggested, filters)
        if not chosen_path:
            return
        path, _fmt = _report_path(chosen_path, chosen)

        def allowed(_none: None) -> None:
            # the dialog asked about the name typed; a suffix added to it can name another, existing file
            if (
                path != chosen_path
                and os.path.exists(path)
                and QMessageBox.question(
                    self,
                    self.tr("Replace the file?"),
                    self.tr("{path}\n\nalready exists. Replace it with the report?").format(path=path),
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                    QMessageBox.StandardButton.Cancel,
                )
                != QMessageBox.StandardButton.Yes
            ):
                return
            self.export_to(path, chosen)

        # never over the database or a document being compared, whatever is answered next
        self._run(
            self.session.check_report_target,
            Path(path),
            tuple(self.folders.folders()),
            returned=allowed,
            title=self.tr("The report was not saved"),
        )

    def export_to(self, path: str, chosen_filter: str = "") -> Job:
        """Write the report of what is shown now (thresholds and decisions applied) in the background; a
        path that would replace the database or a document is refused, whatever was answered before."""
        path, fmt = _report_path(path, chosen_filter)
        folders = tuple(self.folders.folders())
        session = self.session
        shown = self.groups.shown_group_ids()  # a filter hides groups: the report holds what is shown

        def work(*, progress, cancel):
            session.check_report_target(Path(path), folders)
            return session.write_report(path, fmt, shown, progress=progress, cancel=cancel)

        def saved(p: Path) -> None:
            said = (self.tr("Report saved: {path}") if shown is None
                    else self.tr("Report of the %n group(s) the filter shows saved: {path}", "", len(shown)))
            self.statusBar().showMessage(said.format(path=p), 15000)

        self.statusBar().showMessage(self.tr("Writing the report…"))
        return self._run(work, returned=saved, title=self.tr("The report was not saved"))

    # -- misc -----------------------------------------------------------------------------
    def preferences(self) -> Preferences:
        """What Preferences shows: the window's settings now."""
        self._save_state()
        s = self.state
        return Preferences(s.language, s.theme, s.keeper_rule, s.ignore_layout, s.thresholds)

    def show_preferences(self) -> None:
        dialog = PreferencesDialog(self.preferences(), self)
        if dialog.exec() != PreferencesDialog.DialogCode.Accepted:
            return
        self.apply_preferences(dialog.preferences())

    def apply_preferences(self, chosen: Preferences) -> None:
        """Apply what was chosen in Preferences at once; a new language when the app starts again."""
        before = self.preferences()
        self.state.theme = chosen.theme
        if chosen.theme != before.theme:
            apply_colour_scheme(chosen.theme)
        self.groups.diff.ignore_layout.setChecked(chosen.ignore_layout)
        self.groups.keeper_rule.setCurrentIndex(self.groups.keeper_rule.findData(chosen.keeper_rule))
        if chosen.thresholds != before.thresholds:
            self.thresholds.set_thresholds(chosen.thresholds)
            self._thresholds_changed(chosen.thresholds)
            if chosen.thresholds.method is not before.thresholds.method:
                self._compute_histogram()
        self.state.language = chosen.language
        self._save_state()
        if chosen_language(chosen.language) != i18n.language():
            answer = QMessageBox.question(
                self, self.tr("Language"),
                self.tr("neardup speaks the new language when it starts again. Restart now? Your folders, "
                        "decisions and marks are kept."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer == QMessageBox.StandardButton.Yes:
                self.restart()

    def restart(self) -> None:
        """Close the window (its state saved, its jobs stopped) and start the app again."""
        if self.close():
            frozen = getattr(sys, "frozen", False)  # a bundled app is its own executable
            QProcess.startDetached(sys.executable, [*([] if frozen else ["-m", "neardup_gui"]), *sys.argv[1:]])

    def _system_colours_changed(self) -> None:
        if self.state.theme == "system":
            apply_colour_scheme("system")

    def show_guide(self) -> None:
        UserGuide(self).exec()

    def show_shortcuts(self) -> None:
        ShortcutList(self, self).exec()

    def about(self) -> None:
        import jieba
        import numpy
        import pypdf
        import PySide6
        from PySide6.QtCore import qVersion

        QMessageBox.about(
            self,
            self.tr("About neardup"),
            (
                f"<h3>neardup {__version__}</h3><p>"
                + self.tr(
                    "Finds exact and near-duplicate documents with SimHash (Charikar; Manku et al.) and MinHash "
                    "(Broder), verified exactly."
                )
                + "</p>"
                f"<p>Python {platform.python_version()} · Qt {qVersion()} · PySide6 {PySide6.__version__} · "
                f"numpy {numpy.__version__} · jieba {jieba.__version__} · pypdf {pypdf.__version__}</p><p>"
                + self.tr("Database: {path}").format(path=self.db_path)
                + "</p>"
            ),
        )

    def closeEvent(self, event) -> None:  # noqa: N802
        self.runner.cancel_all()
        for runner in (self.runner, self.session_jobs):
            runner.shutdown()
        self._save_state()
        self.session.close()
        super().closeEvent(event)
