"""Mark by rule: tick (or untick) every grouped file in a folder, matching a name pattern, modified
before or after a date, or in a size range. A keeper or a reference file is never ticked by a rule."""

from __future__ import annotations

import os

from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core.review.rules import MarkCriteria, MarkSelection
from ..core.review.words import listed
from .controller import ReviewController
from .settings import FileDialogs

KB = 1024


class MarkRuleDialog(QDialog):
    """Conditions that all must hold; Mark adds the files that meet them, Unmark takes them off."""

    def __init__(self, review: ReviewController, dialogs: FileDialogs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review, self._dialogs = review, dialogs
        self.setWindowTitle(self.tr("Mark by rule"))
        self.setObjectName("mark-rule")
        self.folder = QLineEdit(self)
        self.folder.setPlaceholderText(self.tr("any folder"))
        self.folder.setToolTip(self.tr("Only files in this folder or its subfolders"))
        browse = QPushButton(self.tr("Choose…"), self)
        browse.clicked.connect(self._choose_folder)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        self.pattern = QLineEdit(self)
        self.pattern.setPlaceholderText(self.tr("e.g.  copy   or   *.pdf   or   */old/*"))
        self.pattern.setToolTip(self.tr("A word the path contains, or a pattern with * and ?; case does not matter"))
        self.before_on = QCheckBox(self.tr("Modified before"), self)
        self.before = QDateEdit(QDate.currentDate(), self)
        self.after_on = QCheckBox(self.tr("Modified on or after"), self)
        self.after = QDateEdit(QDate.currentDate().addYears(-1), self)
        for edit in (self.before, self.after):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
        self.min_on = QCheckBox(self.tr("At least (KB)"), self)
        self.min_size = QSpinBox(self)
        self.max_on = QCheckBox(self.tr("At most (KB)"), self)
        self.max_size = QSpinBox(self)
        for spin in (self.min_size, self.max_size):
            spin.setRange(0, 100_000_000)
            spin.setGroupSeparatorShown(True)
        self.min_size.setValue(100)
        self.max_size.setValue(100)
        form = QFormLayout()
        form.addRow(self.tr("In folder:"), folder_row)
        form.addRow(self.tr("Path contains:"), self.pattern)
        form.addRow(self.before_on, self.before)
        form.addRow(self.after_on, self.after)
        form.addRow(self.min_on, self.min_size)
        form.addRow(self.max_on, self.max_size)
        self.result_label = QLabel(
            self.tr(
                "Files that meet every condition given are ticked. A group's keeper and files in reference "
                "folders are never ticked."
            ),
            self,
        )
        self.result_label.setWordWrap(True)
        buttons = QDialogButtonBox(self)
        self.mark_button = buttons.addButton(self.tr("Mark"), QDialogButtonBox.ButtonRole.ApplyRole)
        self.unmark_button = buttons.addButton(self.tr("Unmark"), QDialogButtonBox.ButtonRole.ApplyRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.mark_button.setDefault(True)
        self.mark_button.clicked.connect(lambda: self.apply(mark=True))
        self.unmark_button.clicked.connect(lambda: self.apply(mark=False))
        close.clicked.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.result_label)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)
        self.pattern.setFocus()  # the condition people reach for first

    def _choose_folder(self) -> None:
        chosen = self._dialogs.folder(self, "mark_folder", self.tr("Mark files in folder"), self.folder.text().strip())
        if chosen:
            self.folder.setText(chosen)

    def criteria(self) -> MarkCriteria:
        def epoch(date: QDate) -> float:
            return QDateTime(date, QTime(0, 0)).toSecsSinceEpoch()

        return MarkCriteria(
            folder=self.folder.text().strip(),
            pattern=self.pattern.text().strip(),
            modified_before=epoch(self.before.date()) if self.before_on.isChecked() else None,
            modified_after=epoch(self.after.date()) if self.after_on.isChecked() else None,
            min_size=self.min_size.value() * KB if self.min_on.isChecked() else None,
            max_size=self.max_size.value() * KB if self.max_on.isChecked() else None,
        )

    def apply(self, *, mark: bool) -> MarkSelection | None:
        folder = self.folder.text().strip()
        if folder and not os.path.isdir(folder):
            self.result_label.setText(
                self.tr("There is no folder {folder}. Choose one, or leave the field empty.").format(folder=folder)
            )
            return None
        selection = self.review.mark_matching(self.criteria(), mark=mark)
        count = len(selection.documents)
        counts = (selection.keepers_left, selection.references_left, selection.fuller_left)
        left = [
            words
            for words, n in zip(
                (
                    self.tr("%n keeper(s)", "", selection.keepers_left),
                    self.tr("%n file(s) in reference folders", "", selection.references_left),
                    self.tr("%n file(s) that hold their keeper and more", "", selection.fuller_left),
                ),
                counts,
                strict=True,
            )
            if n
        ]
        if not mark:
            done = self.tr("Unticked %n file(s).", "", count)
        elif left:
            done = self.tr("Ticked %n file(s). Met the rule but never ticked: {left}.", "", count).format(
                left=listed(left)
            )
        else:
            done = self.tr("Ticked %n file(s).", "", count)
        summary = self.review.marked_summary()
        now = self.tr("Now {summary}.").format(summary=summary) if summary else self.tr("Now nothing marked.")
        self.result_label.setText(self.tr("{result} {now}").format(result=done, now=now))
        return selection
