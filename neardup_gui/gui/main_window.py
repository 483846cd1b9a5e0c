"""The main window: folders on the left; thresholds, groups, the pair view and problems on the right.

Wiring only. The window never touches the database: every action on the collection (scan, loading,
re-grouping, decisions, keepers, the trash, export) is an operation on the session (``operation.py``)
run by one serial runner, so no two interleave; a pair's diff, which reads only the files, runs beside
them. The review's logic is the controller's (``controller.py``), the actions are a table
(``actions.py``), the selection is the groups page's.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QByteArray, QProcess, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core import i18n
from ..core.errors import set_aside_damaged_database
from ..core.forecast import MemoryShort
from ..core.jobs import ProgressEvent
from ..core.match.matcher import MatchResult
from ..core.models import Document, Find, Search, Similarity, Thresholds
from ..core.review.pairs import PairTable, holders
from ..core.review.rules import GroupSummary, Listing
from ..core.review.words import percent
from ..core.scan import summary_text
from ..core.session import ImportSummary, Session, View
from ..core.store.stored_text import TextLoader
from . import settings as app_settings
from .actions import WindowState, build_actions, undo_text, update_enabled
from .controller import Pair, Report, ReviewController, rescan_reasons
from .damaged import offer_new_database
from .diff_view import DiffView
from .empty_page import EmptyPage
from .export import ReportExport
from .file_actions import FileActions
from .folders import FolderDrops, FoldersPanel
from .groups_page import GroupsPage
from .operation import Operations
from .pairs_page import PairsPage
from .passage_view import PassageView
from .preferences import Preferences, PreferencesDialog
from .problems_page import ProblemsPage
from .regrouping import Regrouping
from .rescan_note import RescanNote
from .scan_status import ScanStatus
from .spark_import import ImportPlan, SparkImportDialog
from .theme import apply_colour_scheme
from .thresholds import ThresholdsPanel
from .translation import chosen_language
from .worker import Job, JobRunner

RETRY_TIMEOUT = 600.0
"""Seconds a file may take when the person asks to try the failed files again (a scan allows 120)."""


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
        self.op = Operations(self, self.session_jobs, self._offer_new_database)
        self.session = Session(
            self.state.database, reference_folders=self.state.reference_folders, keeper_rule=self.state.keeper_rule
        )
        self.review = ReviewController(self.session, self.op.run)  # the review's state and logic, no widgets
        self.dialogs = app_settings.FileDialogs(self.state)
        self.files = FileActions(
            self,
            self.review,
            self.dialogs,
            self.say,
            self.selected,
            lambda: self.view is not None and self.scan_job is None,
        )
        self.view: View | None = None
        self.result: MatchResult | None = None
        self.scan_job: Job | None = None
        self._loader: TextLoader | None = None
        self._pairs_of: tuple[View, Search] | None = None  # the grouping and the search the Pairs tab shows
        self._pairs_job: Job | None = None  # the last one asked for: cancelled when another is
        self._restoring = True
        self._windows: list[MainWindow] = []  # opened from this one (a Spark result): kept while they are open
        self.setWindowTitle(
            self.tr("neardup — duplicate documents")
            if not self._own_database
            else self.tr("neardup — {database}").format(database=os.path.basename(self.state.database))
        )
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):  # Qt >= 6.5: the desktop turned dark or light
            hints.colorSchemeChanged.connect(lambda _s: apply_colour_scheme() if self.state.theme == "system" else None)
        self._build()
        self._actions = build_actions(self)
        self._connect()
        self._restore(folders or [])

    # -- construction ---------------------------------------------------------------------
    def _build(self) -> None:
        self.folders = FoldersPanel(self.dialogs, self)
        self.setAcceptDrops(True)  # folders dropped onto the window join the list
        self.installEventFilter(FolderDrops(self.folders, self.say))
        self.scan_button = QPushButton(self.tr("Scan"), self)
        self.scan_button.setDefault(True)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.folders, 1)
        left_layout.addWidget(self.scan_button)
        self.empty = EmptyPage(self)
        self.thresholds = ThresholdsPanel(self.state.thresholds, self.state.search, self)
        self.rescan_note = RescanNote(self)  # under the thresholds: what waits for a scan, and Scan Again
        self.groups = GroupsPage(self.review.marks, self.state.keeper_rule, self)
        self.groups.show_method(self.state.thresholds.method)
        self.problems = ProblemsPage(self)
        self.pairs = PairsPage(self.review.marks, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.groups, self.tr("Groups"))
        self.tabs.addTab(self.pairs, self.tr("Pairs"))
        self.tabs.addTab(self.problems, self.tr("Problems"))
        results = QWidget(self)
        results_layout = QVBoxLayout(results)
        results_layout.addWidget(self.thresholds)
        results_layout.addWidget(self.rescan_note)
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
        self.scan_status = ScanStatus(self.statusBar())
        self.regrouping = Regrouping(
            self.op,
            self.session,
            self.thresholds.thresholds,
            self.review.show,
            self._regroup_settled,
            self.statusBar(),
            lambda: self.view is not None,
        )
        self.export = ReportExport(
            self,
            self.op,
            self.session,
            self.dialogs,
            lambda: tuple(self.folders.folders()),
            self.groups.shown_group_ids,
            self.say,
            self.thresholds.search,
        )

    def _connect(self) -> None:
        groups, pairs, review = self.groups, self.pairs, self.review
        groups.columns_changed.connect(self._save_state)
        for diff in (groups.diff, pairs.diff, pairs.passages):
            diff.runner = self.runner
        groups.diff.options_changed.connect(self._save_state)
        DiffView.share_options(groups.diff, pairs.diff)
        groups.keeper_rule.currentIndexChanged.connect(lambda _i: self._keeper_rule_changed())
        for signal in (groups.filter_edit.textChanged, groups.kind_filter.currentIndexChanged):
            signal.connect(lambda *_: review.forget_pair_unless(lambda pair: groups.lists_group(pair.group.id)))
            signal.connect(lambda *_: groups.forget_hidden_group())
        groups.tree.selectionModel().currentChanged.connect(lambda current, _previous: self._selection_changed())
        groups.tree.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        groups.group_view.table.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        groups.tree.doubleClicked.connect(lambda _index: self.files.open_selected())
        pairs.pair_selected.connect(self._pairs_row_selected)
        groups.excerpt_selected.connect(self._excerpt_selected)
        self.problems.table.selectionModel().currentChanged.connect(lambda *_: self._update_actions())
        self.problems.table.doubleClicked.connect(lambda _index: self.files.open_selected())
        self.problems.retry_button.clicked.connect(lambda: self.start_scan(retry_failed=True))
        self.tabs.currentChanged.connect(lambda _i: self._tab_changed())
        self.empty.add_button.clicked.connect(self.folders.choose_folder)
        self.folders.changed.connect(self._folders_changed)
        self.thresholds.changed.connect(self._thresholds_changed)
        self.thresholds.search_changed.connect(self._search_changed)
        self.thresholds.method.currentIndexChanged.connect(lambda _i: self._compute_histogram())
        review.view_changed.connect(self._view_shown)
        review.pair_changed.connect(self._pair_changed)
        review.message.connect(lambda text: self.say(text, 10000))
        review.undo_changed.connect(lambda _undoable: self._update_actions())
        review.acted.connect(self._acted)
        review.marks.changed.connect(self._marks_changed)

    def _tab(self) -> str:
        """The tab shown: "groups", "pairs", "problems", or "excerpts" (the Groups tab listing excerpts)."""
        shown = self.tabs.currentWidget()
        if shown is self.groups:
            return "excerpts" if self.groups.excerpts_shown else "groups"
        return "pairs" if shown is self.pairs else "problems"

    def selected(self) -> tuple[GroupSummary | None, Document | None]:
        """What the tab shown has selected for Edit's actions: a group's row and its document on the Groups
        tab, a file on the Problems tab, nothing on the Pairs tab (its own buttons act on its pair)."""
        tab = self._tab()
        if tab in ("groups", "excerpts"):
            return self.groups.current()
        return None, self.problems.current_document() if tab == "problems" else None

    def action(self, name: str) -> QAction:
        """The action ``name`` of actions.ACTIONS."""
        return self._actions[name]

    def say(self, text: str, msecs: int = 0) -> None:
        """A line in the status bar, for ``msecs`` (0: until the next)."""
        self.statusBar().showMessage(text, msecs)

    def _restore(self, extra_folders: list[str]) -> None:
        s = self.state
        if s.geometry is None or not self.restoreGeometry(s.geometry):
            # a first start: a roomy window, but never larger than the screen it opens on, centred there
            screen = self.screen().availableGeometry()
            self.resize(QSize(1400, 880).boundedTo(screen.size() - QSize(40, 60)).expandedTo(QSize(640, 480)))
            self.move(screen.center() - self.frameGeometry().center() + self.pos())
        self.folders.restore(s, self.session.last_scan_roots() if self._own_database else s.folders)
        for folder in extra_folders:  # named on the command line: scanned, not reference folders
            self.folders.add_folder(folder)
        self.groups.restore(s)
        for key, restore in self._views().items():
            if key in s.views:
                restore[1](s.views[key])
        self.pairs.show_find(s.search.find, sort=False)  # its columns, after the header's remembered state
        self.pairs.place_passage_columns()
        self._restoring = False
        self._refresh_empty_state()
        if self.folders.folders():
            self._load_last_results()

    # -- state ----------------------------------------------------------------------------
    def _views(self) -> dict[str, tuple[Callable[[], QByteArray], Callable[[QByteArray], object]]]:
        """The splitters and headers remembered as they were left (the Groups tab's are its own)."""
        header = self.pairs.table.horizontalHeader()
        return {
            "main_split": (self.main_split.saveState, self.main_split.restoreState),
            "pairs_split": (self.pairs.split.saveState, self.pairs.split.restoreState),
            "pairs_header": (header.saveState, header.restoreState),
        }

    @property
    def db_path(self) -> str:
        return self.state.database

    def _save_state(self) -> None:
        if self._restoring:
            return
        s = self.state
        self.folders.remember(s)
        self.groups.remember(s)
        s.views.update({key: save() for key, (save, _restore) in self._views().items()})
        s.thresholds, s.search, s.geometry = self.thresholds.thresholds(), self.thresholds.search(), self.saveGeometry()
        if self._own_database:  # this run's database and folders are not the ones to remember
            database, folder_list, references = self._remembered
            s = dataclasses.replace(s, database=database, folders=folder_list, reference_folders=references)
        app_settings.save(self.qsettings, s)

    def _folders_changed(self) -> None:
        self._refresh_empty_state()
        self._save_state()
        if self._restoring:
            return
        self._show_rescan_reasons()  # patterns, file types, OCR: they wait for a scan
        references = tuple(self.folders.reference_folders())
        if self.view is not None and set(self.view.roots) != set(self.folders.folders()):
            self.review.reference_folders = references
            self._load_last_results()  # a folder left (or came): the groups of the folders listed, now
        else:  # the same folders: keepers follow the reference folders at once
            self.review.set_keeper_rule(self.groups.keeper_rule.currentData(), references)

    def _show_rescan_reasons(self) -> None:
        """Say under the thresholds what is chosen but waits for a scan (nothing while one runs: it applies them)."""
        waiting = (
            rescan_reasons(self.view, self.thresholds.thresholds(), self.folders.scan_options())
            if self.scan_job is None
            else ()
        )
        self.rescan_note.show_reasons(waiting)

    def _refresh_empty_state(self) -> None:
        self.empty.show_state(has_folders=bool(self.folders.folders()), scanning=self.scan_job is not None)
        self.pages.setCurrentIndex(1 if self.result is not None else 0)
        self._update_actions()

    def _update_actions(self) -> None:
        """Each action (and so its buttons) enabled when it can act."""
        if not hasattr(self, "_actions"):
            return  # still being built
        summary, doc = self.selected()
        idle, tab, undoable = self.scan_job is None, self._tab(), self.review.undoable
        update_enabled(
            self._actions,
            WindowState(
                idle=idle,
                ready=idle and self.view is not None,
                has_folders=bool(self.folders.folders()),
                has_result=self.result is not None,
                has_groups=self.result is not None and bool(self.result.groups),
                tab=tab,
                document=doc is not None,
                group=summary is not None,
                rows_selected=tab == "groups" and self.groups.tree.selectionModel().hasSelection(),
                # Keep left, Keep right, Not a duplicate: for a pair of duplicates only (an excerpt is no copy)
                pair=tab == "pairs" and self.pairs.listed is Find.DUPLICATES and self.pairs.current_pair() is not None,
                marked=bool(self.review.marks),
                undoable=undoable is not None,
            ),
        )
        self._actions["undo"].setText(undo_text(undoable.what if undoable is not None else ""))
        self.problems.retry_button.setEnabled(idle and self.problems.model.rowCount() > 0)

    # -- scanning -------------------------------------------------------------------------
    def start_scan(self, retry_failed: bool = False, *, workers: int | None = None, check_memory: bool = True) -> None:
        """Scan the folders (incrementally); ``retry_failed`` reads again the files whose reader crashed,
        ran out of memory or of time. A scan that would need more memory than is free does not start
        (``check_memory``): the person is asked (``_memory_short``)."""
        if self.scan_job is not None or not self.folders.folders():
            return
        if problem := self.folders.scan_problem():
            QMessageBox.warning(self, *problem)
            return
        self._save_state()
        options = dataclasses.replace(self.folders.scan_options(), check_memory=check_memory)
        if workers is not None:
            options = dataclasses.replace(options, workers=workers)
        if retry_failed:  # and with more time: a file that ran out of it would only run out again
            options = dataclasses.replace(options, retry_failed=True, file_timeout=RETRY_TIMEOUT)
        self.scan_job = (
            self.op(self.session.scan, options, self.thresholds.thresholds())
            .progress(self.scan_status.show_progress)
            .success(self._scan_done)
            .cancelled(self._scan_cancelled)
            .failure(self.tr("The scan failed"))
            .unless(MemoryShort, lambda short: self._memory_short(short, retry_failed))
            .finished(self._scan_finished)
            .run()
        )
        self.scan_status.set_running(True)
        self._refresh_empty_state()
        self._show_rescan_reasons()

    def _memory_short(self, short: MemoryShort, retry_failed: bool) -> QMessageBox:
        """The scan did not start: it would need more memory than this computer has free. Say so, and offer
        the ways on: fewer workers when that fits, the scan anyway, or nothing."""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Not enough memory for this scan"), str(short), parent=self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setInformativeText(
            self.tr(
                "Nothing was read. Closing other programs frees memory. A collection too large for this "
                "computer can be scanned by the Spark job, on several computers (see the guide)."
            )
        )
        fewer = short.forecast.fewer_workers()
        with_fewer = (
            box.addButton(self.tr("Scan with %n worker(s)", "", fewer.workers), QMessageBox.ButtonRole.AcceptRole)
            if fewer is not None
            else None
        )
        anyway = box.addButton(self.tr("Scan anyway"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))

        def answered(clicked: object) -> None:
            if fewer is not None and clicked is with_fewer:
                self.start_scan(retry_failed, workers=fewer.workers)
            elif clicked is anyway:
                self.start_scan(retry_failed, workers=short.forecast.workers, check_memory=False)
            else:  # the scan had let go of the results shown: they come back
                self._load_last_results()

        def finished(_result: int) -> None:
            clicked = box.clickedButton()  # asked now: the box deletes itself once closed
            QTimer.singleShot(0, self, lambda: answered(clicked))  # after the box has gone

        box.finished.connect(finished)
        box.open()
        return box

    def cancel_scan(self) -> None:
        if self.scan_job is not None:
            self.scan_job.cancel()
            self.scan_status.cancelling()

    def _scan_done(self, view: View) -> None:
        self._set_view(view)
        if view.scan is not None:
            self.say(self.tr("Scanned {summary}.").format(summary=summary_text(view.scan)), 15000)

    def _scan_cancelled(self) -> None:
        self.say(self.tr("Scan cancelled. Everything read so far is kept: press Scan to go on from there."), 15000)
        self._load_last_results()

    def _scan_finished(self) -> None:
        self.scan_job = None
        self.scan_status.set_running(False)
        self._refresh_empty_state()
        self._show_rescan_reasons()

    # -- a Spark result ---------------------------------------------------------------------
    def import_spark(self) -> SparkImportDialog:
        """Ask for a Spark job's result and where its files are here, load it into a new database in the
        background, and open that in a window of its own (as `neardup-gui --db FILE` does)."""
        dialog = SparkImportDialog(self.dialogs, os.path.dirname(os.path.abspath(self.db_path)), self)
        dialog.accepted.connect(lambda: self._import_spark(dialog.plan()))
        dialog.open()
        return dialog

    def _import_spark(self, plan: ImportPlan) -> Job:
        def progress(event: ProgressEvent) -> None:
            if event.total:
                self.say(
                    self.tr("Importing the Spark result… {done} of {total}").format(done=event.done, total=event.total)
                )

        def opened(summary: ImportSummary) -> None:
            window = MainWindow(self.qsettings, database=plan.database)
            self._windows.append(window)
            window.show()
            self.say(
                self.tr(
                    "%n document(s) of the Spark result loaded into {path}, opened in a new window.",
                    "",
                    summary.documents,
                ).format(path=plan.database),
                20000,
            )

        self.say(self.tr("Importing the Spark result…"))
        return (
            self.op(Session.import_spark_into, plan.database, plan.result, plan.mapping)
            .progress(progress)
            .success(opened)
            .failure(self.tr("The Spark result was not imported"))
            .run()
        )

    def _offer_new_database(self, message: str) -> None:
        """The database is damaged: keep it aside (never deleted) and start a new one, if the person agrees."""
        if not offer_new_database(self, self.db_path, message):
            return
        self.session_jobs.wait()
        self.session.close()
        self._set_view(None)
        kept = set_aside_damaged_database(self.db_path, time.strftime("%Y%m%d-%H%M%S"))
        self.result = None
        self._refresh_empty_state()
        self.say(
            self.tr("The damaged database was kept as {path}. Press Scan to build a new one.").format(path=kept), 20000
        )

    # -- results --------------------------------------------------------------------------
    def _load_last_results(self) -> None:
        """The groups of the folders listed, from the database (no scanning)."""
        if not os.path.exists(self.db_path) or not self.folders.folders():
            self._set_view(None)
            return
        self.op(
            self.session.open,
            tuple(self.folders.folders()),
            self.thresholds.thresholds(),
            reference_folders=tuple(self.folders.reference_folders()),
        ).success(self._set_view).failure(self.tr("The last results could not be opened")).run()

    def _set_view(self, view: View | None) -> None:
        """A grouping of another collection (after a scan, a load, a trash): the histogram is measured again."""
        self.thresholds.show_histogram(None)
        self.review.show(view)
        if view is None:
            return
        self._compute_histogram()

    def _view_shown(self, view: View | None) -> None:
        """The controller shows a new grouping: the widgets follow, the selection stays if it can."""
        self.view = view
        self.result = view.result if view is not None else None
        self._loader = view.text_loader() if view is not None else None
        problems = self.problems.set_documents(self.result.documents if self.result is not None else ())
        pairs = len(view.duplicates) if view is not None else 0
        self._count_on_tab(self.problems, problems)
        # the other searches' pairs are counted once found
        self._count_on_tab(self.pairs, pairs if self.thresholds.search().find is Find.DUPLICATES else 0)
        self._load_pairs()
        if self.result is not None and view is not None:
            self.thresholds.show_counts(
                len(self.result.groups), len(self.result.grouped), pairs, self.result.thresholds
            )
        self._refresh_empty_state()
        self.groups.show_grouping(view, tuple(self.folders.reference_folders()))
        self._update_actions()  # a list left empty selects nothing, and says nothing
        self._show_rescan_reasons()

    def _count_on_tab(self, page: QWidget, count: int) -> None:
        name = self.tr("Pairs") if page is self.pairs else self.tr("Problems")
        self.tabs.setTabText(
            self.tabs.indexOf(page),
            self.tr("{name} ({count})").format(name=name, count=f"{count:,}") if count else name,
        )

    def _thresholds_changed(self, thresholds: Thresholds) -> None:
        self.groups.show_method(thresholds.method)
        self._show_rescan_reasons()  # common text ticked that these files were not analysed for: said now
        self._save_state()
        self.regrouping.request()

    def _regroup_settled(self) -> None:
        self._compute_histogram()  # the same one again, unless boilerplate is now treated otherwise
        self._load_pairs()

    def _compute_histogram(self) -> None:
        if self.view is None:
            return
        method = self.thresholds.histogram_needed(self.view.ignores_boilerplate)
        if method is not None:
            self.op(self.session.histogram, method).success(self.thresholds.show_histogram).run()

    # -- selection and the pair view ------------------------------------------------------
    def _selection_changed(self) -> None:
        """A group's row shows the whole group; a member's row shows it against the group's keeper."""
        self._update_actions()
        summary, document = self.groups.current()
        if summary is None or self.result is None:
            return
        if document is None:
            self.review.forget_pair()
            self.groups.show_whole_group(summary.group, self.review)
        else:
            self.groups.detail.setCurrentWidget(self.groups.diff)
            self.review.select(summary.group, document)

    def _pair_changed(self, pair: Pair | None) -> None:
        """Show the controller's pair (a diff still being computed for the one before is dropped)."""
        if self.groups.excerpts_shown:
            pass  # the pair view is an excerpt's (_excerpt_selected)
        elif pair is None:
            self.groups.show_no_pair(self.result)
        else:
            self.groups.diff.show_pair(pair.left, pair.right, pair.similarity, self._loader, self._cores())
        self._update_actions()

    def _cores(self) -> frozenset[int]:
        return self.view.cores if self.view is not None else frozenset()

    def shown_diff(self) -> DiffView | PassageView:
        """The pair view of the tab shown (what F3 steps through)."""
        if self.tabs.currentWidget() is self.pairs:
            return self.pairs.passages if self.pairs.listed is Find.PASSAGES else self.pairs.diff
        return self.groups.diff

    # -- decisions ------------------------------------------------------------------------
    def keep_selected(self) -> None:
        """Keep the selected file in its group: remembered across re-groupings and restarts."""
        _summary, doc = self.groups.current()
        if self._tab() == "groups" and doc is not None and self.view is not None:
            self.review.keep(doc)

    def mark_not_duplicate(self) -> None:
        """The selected document is not a duplicate of its group: it leaves the group at once (every pair
        with the group's other members is remembered), and Edit ▸ Undo takes it back. On the Pairs tab: the
        selected pair's two documents are not duplicates."""
        if self.view is None:
            return
        if self.tabs.currentWidget() is self.pairs:
            pair = self.pairs.current_pair()
            if pair is not None and self.scan_job is None and self.pairs.listed is Find.DUPLICATES:
                self.review.mark_pair_not_duplicate(pair[0], pair[1])
            return
        summary, doc = self.selected()
        if summary is not None and doc is not None:  # a member's row of the Groups tab
            self.review.mark_not_duplicate(doc, summary.group)

    def keep_of_pair(self, *, left: bool) -> None:
        pair = self.pairs.current_pair()
        duplicates = self.pairs.listed is Find.DUPLICATES  # an excerpt is never ticked as if it were a copy
        if pair is not None and self.view is not None and self.scan_job is None and duplicates:
            keep, other = (pair[0], pair[1]) if left else (pair[1], pair[0])
            self.review.keep_of_pair(keep, other)

    def _keeper_rule_changed(self) -> None:
        self._save_state()
        if not self._restoring:
            self.review.set_keeper_rule(self.groups.keeper_rule.currentData())

    # -- the Pairs tab ----------------------------------------------------------------------
    def _tab_changed(self) -> None:
        if self.tabs.currentWidget() is self.groups and self.thresholds.search().find is Find.PASSAGES:
            # the groups are of duplicates, or of excerpts: the settings above say which, and are theirs to move
            self.thresholds.look_for.setCurrentIndex(self.thresholds.look_for.findData(Find.DUPLICATES))
        self._load_pairs()
        self._update_actions()

    def _search_changed(self, search: Search) -> None:
        """Another search, or another setting of one: excerpts are listed in the Pairs tab, and by the document
        they are inside in the Groups tab; shared passages in the Pairs tab."""
        self._save_state()
        shown = self.tabs.currentWidget()
        if (search.find is Find.PASSAGES and shown is not self.pairs) or (
            search.find is Find.EXCERPTS and shown is self.problems
        ):
            self.tabs.setCurrentWidget(self.pairs)  # loads its pairs
            return
        self._load_pairs()
        self._update_actions()

    def _load_pairs(self) -> None:
        """The pairs of the grouping shown that the search finds, measured (or looked for) when the Pairs tab,
        or for excerpts the Groups tab, is first looked at after either changed (the pairs of another grouping
        are not kept meanwhile: they may be hundreds of thousands)."""
        search = self.thresholds.search().asked  # the other kinds' settings do not change what is found
        excerpt_groups = self.tabs.currentWidget() is self.groups and search.find is Find.EXCERPTS
        wanted = self.tabs.currentWidget() is self.pairs or excerpt_groups
        current = self._pairs_of if self._pairs_of is not None and self._pairs_of[0] is self.view else None
        if not excerpt_groups and self.groups.show_duplicates():
            self.review.forget_pair()  # the selected group's row or member shown again, or why there is none
            self.groups.show_no_pair(self.result)
            self._selection_changed()
        if self.view is None or (not wanted and (current is None or current[1] != search)):
            # looked for again when the tab is next shown; a search still running for the old gives way
            if self._pairs_job is not None:
                self._pairs_job.cancel()
            self._pairs_of = None
            self.pairs.show_table(None, {}, Listing(), find=self.pairs.listed)
            if excerpt_groups:
                self.groups.show_excerpts(None, {})
        elif excerpt_groups and current is not None and current[1] == search and not self.groups.excerpts_shown:
            table = self.pairs.model.table  # found for the Pairs tab, or still being looked for
            if table is not None and self.pairs.listed is Find.EXCERPTS:
                self.groups.show_excerpts(table, self.view.documents)
            else:
                self.groups.show_excerpts(None, {}, busy=self.tr("Looking for excerpts…"))
        elif wanted and (current is None or current[1] != search) and not self.regrouping.running:
            # while the slider moves, the pairs wait for the grouping it stops at (_regroup_settled)
            asked = self._pairs_of = (self.view, search)
            busy = {
                Find.DUPLICATES: self.tr("Measuring the pairs…"),
                Find.EXCERPTS: self.tr("Looking for excerpts…"),
                Find.PASSAGES: self.tr("Looking for shared passages…"),
            }
            self.pairs.count_label.setText(busy[search.find])
            self._count_on_tab(self.pairs, 0)
            if excerpt_groups:
                self.groups.show_excerpts(None, {}, busy=busy[search.find])

            def found(view: View, table: PairTable) -> None:
                if self._pairs_of is asked:  # not a search given up for another (it may end before its cancel)
                    self.pairs.show_table(table, view.documents, view.listing, self.review.kept, search.find)
                    self._count_on_tab(self.pairs, len(table))
                    if search.find is not Find.DUPLICATES:
                        holding = holders(table) if search.find is Find.EXCERPTS else 0
                        self.thresholds.show_found(search, len(table), holding)
                    if self.groups.excerpts_shown and search.find is Find.EXCERPTS:
                        self.groups.show_excerpts(table, view.documents)

            def ended() -> None:  # failed (and said) or cancelled: looked for again when next asked
                if self._pairs_of is asked:
                    self._pairs_of = None
                    self.pairs.count_label.setText("")
                    if self.groups.excerpts_shown:
                        self.groups.show_excerpts(None, {})

            def progress(event: ProgressEvent) -> None:
                if self.pairs.count_label.text().startswith(busy[search.find]) and event.total:
                    done = percent(min(event.done / event.total, 1.0))
                    self.pairs.count_label.setText(f"{busy[search.find]} {done}")

            if self._pairs_job is not None:
                self._pairs_job.cancel()  # a search no longer asked for (passages may take a while) gives way
            self._pairs_job = self.review.pairs(found, search)
            if self._pairs_job is not None:
                self._pairs_job.signals.progress.connect(progress)
                self._pairs_job.signals.errored.connect(lambda _message: ended())
                self._pairs_job.signals.cancelled.connect(ended)

    def _excerpt_selected(self, pair: tuple[Document, Document, Similarity] | None) -> None:
        """An excerpt's row of the Groups tab (or its holder's): where it sits in the document that holds it."""
        self._update_actions()
        if pair is None:
            self.groups.diff.clear()
        else:
            self.groups.diff.show_pair(*pair, self._loader, self._cores(), at_shared=True)

    def _pairs_row_selected(self, pair: tuple[Document, Document, Similarity] | None) -> None:
        self._update_actions()
        found = self.pairs.current_passages()
        if pair is None:
            self.pairs.diff.clear()
            self.pairs.passages.clear()
        elif found is not None and self.view is not None:
            self.pairs.passages.show_pair(pair[0], pair[1], found, self._loader, self.view.database)
        else:
            self.pairs.diff.show_pair(*pair, self._loader, self._cores(), at_shared=self.pairs.listed is Find.EXCERPTS)

    # -- marks, and what was done to files ----------------------------------------------------
    def _marks_changed(self, _changed: frozenset[int] = frozenset()) -> None:
        """The count and size of what is ticked, summed when the marks change (not on every selection)."""
        self.groups.marked_label.setText(self.review.marked_summary())
        view = self.groups.group_view
        if self.groups.detail.currentWidget() is view and view.model.group is not None:
            view.model.set_marked(self.review.marks.ids)
        self._update_actions()

    def _acted(self, report: Report) -> None:
        """What an action on files did: a status line, and a warning when something did not go as planned."""
        if self.files.tell(report):  # files came or went: the collection is another one
            self.thresholds.show_histogram(None)
            self._compute_histogram()

    # -- preferences, help, closing ---------------------------------------------------------
    def preferences(self) -> Preferences:
        """What Preferences shows: the window's settings now."""
        self._save_state()
        s = self.state
        return Preferences(s.language, s.theme, s.keeper_rule, s.ignore_layout, s.thresholds)

    def show_preferences(self) -> None:
        dialog = PreferencesDialog(self.preferences(), self)
        if dialog.exec() == PreferencesDialog.DialogCode.Accepted:
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
        if (
            chosen_language(chosen.language) != i18n.language()
            and QMessageBox.question(
                self,
                self.tr("Language"),
                self.tr(
                    "neardup speaks the new language when it starts again. Restart now? Your folders, "
                    "decisions and marks are kept."
                ),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            == QMessageBox.StandardButton.Yes
        ):
            self.restart()

    def restart(self) -> None:
        """Close the window (its state saved, its jobs stopped) and start the app again."""
        if self.close():
            frozen = getattr(sys, "frozen", False)  # a bundled app is its own executable
            QProcess.startDetached(sys.executable, [*([] if frozen else ["-m", "neardup_gui"]), *sys.argv[1:]])

    def closeEvent(self, event) -> None:  # noqa: N802
        self.runner.cancel_all()
        for runner in (self.runner, self.session_jobs):
            runner.shutdown()
        self._save_state()
        self.session.close()
        super().closeEvent(event)
