"""Acting on a person's files from the window: the one confirmation before files move (Cancel is the
default), what to say when nothing may move, opening and revealing a file, and the outcome in words.

The plans and the moves themselves are the review controller's (no Qt); this module is only the dialogs
around them, so every action on files asks and answers the same way."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ..core.i18n import translate
from ..core.models import Document, Group
from ..core.review.rules import BatchPlan, GroupSummary, human_size
from .controller import Report, ReviewController
from .settings import FileDialogs

SHOWN_IN_A_LISTING = 25
"""Files a confirmation names before "… and N more"."""


def listing(documents: Sequence[Document], shown: int = SHOWN_IN_A_LISTING) -> str:
    """The files a confirmation names: the first ``shown``, then how many more."""
    lines = "\n".join(f"• {d.display_path}  ({human_size(d.size)})" for d in documents[:shown])
    if len(documents) <= shown:
        return lines
    more = translate("FileActions", "… and {count} more")
    return lines + "\n" + more.format(count=f"{len(documents) - shown:,}")


def plan_details(plan: BatchPlan) -> str:
    """The files a batch would move, and how many ticked files stay where they are."""
    # the count is a plain name in every translate() here: lupdate skips a call whose count is an expression
    protected = plan.protected
    kept = (
        "\n\n"
        + translate(
            "FileActions", "%n ticked file(s) stay: a group's keeper or in a reference folder.", None, protected
        )
        if protected
        else ""
    )
    return listing([d for _keeper, files in plan.batches for d in files]) + kept


class FileActions:
    """The dialogs around moving, trashing, opening and revealing files, parented to the window;
    ``status`` shows a status-bar line for so many milliseconds; ``selected`` gives the selected row's
    group and document; files move only while ``may_move`` (a grouping shown, no scan running)."""

    def __init__(
        self,
        parent: QWidget,
        review: ReviewController,
        dialogs: FileDialogs,
        status: Callable[[str, int], None],
        selected: Callable[[], tuple[GroupSummary | None, Document | None]],
        may_move: Callable[[], bool],
    ) -> None:
        self.parent = parent
        self.review = review
        self.dialogs = dialogs
        self.status = status
        self._selected = selected
        self._may_move = may_move

    # -- the trash and moves ----------------------------------------------------------------
    def trash_others(self) -> None:
        """The selected row's group: every member but its keeper to the trash, once confirmed."""
        summary, _doc = self._selected()
        if summary is not None and self._may_move():
            self.trash_group(summary.group)

    def trash_group(self, group: Group) -> None:
        """Every member of ``group`` but its keeper (and reference-folder files) to the trash, once confirmed."""
        plan = self.review.group_trash_plan(group)
        if not plan.documents:
            QMessageBox.information(
                self.parent,
                translate("FileActions", "Nothing to move"),
                translate(
                    "FileActions",
                    "No other member of this group goes: each is in a reference folder, is kept by another group, "
                    "or holds the whole keeper and more (make it the keeper to keep it instead).",
                ),
            )
            return
        keeper = self.review.keeper(group)
        staying = [
            (
                translate("FileActions", "Kept because in reference folders or kept by another group: {count}"),
                plan.protected,
            ),
            (translate("FileActions", "Kept because each holds the whole keeper and more: {count}"), plan.fuller),
        ]
        protected = "".join("\n\n" + words.format(count=len(files)) for words, files in staying if files)
        count = len(plan.documents)
        question = translate(
            "FileActions", "Move %n file(s), {size} in all, to the trash?\n\nKeeping: {keeper}", None, count
        ).format(size=human_size(plan.total_size), keeper=keeper.display_path)
        if self.confirm(question, listing(plan.documents) + protected, "confirm-trash"):
            self.review.trash([(keeper, plan.documents)])

    def trash_marked(self) -> None:
        """Every ticked file to the trash, all groups at once, after one confirmation."""
        if not self._may_move() or not self.review.marks.ids:
            return
        plan = self._marked_plan_or_say_why()
        if plan is None:
            return
        files = plan.files
        question = translate(
            "FileActions",
            "Move %n marked file(s) from {groups}, {size} in all, to the trash?\n\nEach group keeps its keeper.",
            None,
            files,
        ).format(groups=self._groups(plan), size=human_size(plan.total_size))
        if self.confirm(question, plan_details(plan), "confirm-trash-marked"):
            self.review.trash(plan.batches)

    def move_marked(self, destination: str | None = None) -> None:
        """Every ticked file into a folder (asked for when not given), keeping its folders below it, after
        one confirmation; Edit ▸ Undo puts the whole move back."""
        if not self._may_move() or not self.review.marks.ids:
            return
        plan = self._marked_plan_or_say_why()
        if plan is None:
            return
        if not destination:
            destination = self.dialogs.folder(
                self.parent, "move_into", translate("FileActions", "Move marked files into")
            )
            if not destination:
                return
        problem = self.review.move_problem(destination)
        if problem:
            QMessageBox.warning(self.parent, translate("FileActions", "Choose another folder"), problem)
            return
        source, target = self.review.move_example(plan, destination)
        files = plan.files
        question = translate(
            "FileActions",
            "Move %n marked file(s) from {groups}, {size} in all, into {destination}?\n\nEach keeps its folders "
            "below it: {source} goes to {target}. Each group keeps its keeper.",
            None,
            files,
        ).format(
            groups=self._groups(plan),
            size=human_size(plan.total_size),
            destination=destination,
            source=source,
            target=target,
        )
        details = plan_details(plan) + "\n\n" + translate("FileActions", "Edit ▸ Undo puts them back.")
        if self.confirm(
            question,
            details,
            "confirm-move-marked",
            action=translate("FileActions", "Move"),
            restore=False,
        ):
            self.review.move(plan.batches, destination)

    @staticmethod
    def _groups(plan: BatchPlan) -> str:
        """How many groups a batch comes from, as the confirmations say it ("3 groups")."""
        groups = len(plan.batches)
        return translate("FileActions", "%n group(s)", None, groups)

    def _marked_plan_or_say_why(self) -> BatchPlan | None:
        plan = self.review.marked_plan()
        if not plan.files:
            QMessageBox.information(
                self.parent,
                translate("FileActions", "Nothing to move"),
                translate(
                    "FileActions", "Every ticked file is a group's keeper or in a reference folder: those never move."
                ),
            )
            return None
        return plan

    def confirm(
        self, question: str, details: str, name: str, *, action: str | None = None, restore: bool = True
    ) -> bool:
        """The one confirmation before files move; Cancel is the default. ``action`` is the button that
        moves them (Move to Trash when not given); ``name`` is the dialog's object name (the tests find it
        by that)."""
        if restore:
            title = translate("FileActions", "Move to trash?")
            details += "\n\n" + translate("FileActions", "You can restore them from the system trash.")
        else:
            title = translate("FileActions", "Move files?")
        box = QMessageBox(QMessageBox.Icon.Question, title, question, parent=self.parent)
        box.setInformativeText(details)
        move = box.addButton(
            action or translate("FileActions", "Move to Trash"), QMessageBox.ButtonRole.DestructiveRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setObjectName(name)
        box.exec()
        return box.clickedButton() is move

    def tell(self, report: Report) -> bool:
        """Say what an action on files did: a status line, and a warning when something did not go as
        planned. Returns whether any file moved."""
        if report.nothing_done:
            QMessageBox.warning(self.parent, report.headline, report.problems)
            return False
        if report.problems:
            QMessageBox.warning(
                self.parent,
                translate("FileActions", "Some files were not moved"),
                report.headline + "\n\n" + report.problems,
            )
        self.status(report.headline, 10000)
        return True

    # -- the files themselves -----------------------------------------------------------------
    def copy_marked_paths(self) -> None:
        QApplication.clipboard().setText(self.review.marked_paths())
        paths = len(self.review.marks)
        self.status(translate("FileActions", "Copied %n path(s).", None, paths), 5000)

    def open_selected(self) -> None:
        """Open the selected document in the program the desktop uses for it."""
        _summary, doc = self._selected()
        if doc is not None and self._exists(doc) and not QDesktopServices.openUrl(QUrl.fromLocalFile(doc.path)):
            self._not_opened(
                doc,
                translate("FileActions", "The file was not opened"),
                translate(
                    "FileActions",
                    "{path}\n\ncould not be opened: no program on this computer is set up to open this kind of "
                    "file. Show in Folder opens the folder that holds it, or copy its path to open it another way.",
                ),
            )

    def reveal_selected(self) -> None:
        """Open the folder that holds the selected document."""
        _summary, doc = self._selected()
        if (
            doc is not None
            and self._exists(doc)
            and not QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(doc.path)))
        ):
            self._not_opened(
                doc,
                translate("FileActions", "The folder was not shown"),
                translate(
                    "FileActions",
                    "The folder that holds\n\n{path}\n\ncould not be shown: no program on this computer is set up "
                    "to show folders. Copy the file's path to find it another way.",
                ),
            )

    def _not_opened(self, doc: Document, title: str, text: str) -> None:
        """The desktop has no program for it (QDesktopServices said no): say so, and offer the path."""
        box = QMessageBox(QMessageBox.Icon.Information, title, text.format(path=doc.display_path), parent=self.parent)
        copy = box.addButton(translate("FileActions", "Copy Path"), QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Close)
        box.setObjectName("not-opened")
        box.exec()
        if box.clickedButton() is copy:
            QApplication.clipboard().setText(doc.display_path)
            paths = 1
            self.status(translate("FileActions", "Copied %n path(s).", None, paths), 5000)

    def _exists(self, doc: Document) -> bool:
        if os.path.exists(doc.path):
            return True
        QMessageBox.information(
            self.parent,
            translate("FileActions", "File not found"),
            translate(
                "FileActions",
                "{path}\n\nis no longer there (moved or deleted since the scan). Scan again to update the groups.",
            ).format(path=doc.display_path),
        )
        return False
