"""Every "not a duplicate" and "keep this one" the person made, to review and take back (Edit ▸ Decisions…)."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.session import Decision
from .controller import ReviewController


def _names(paths: tuple[str, ...]) -> str:
    if not paths:
        return QCoreApplication.translate("DecisionsDialog", "(no file has this text any more)")
    name = os.path.basename(paths[0])
    if len(paths) == 1:
        return name
    return QCoreApplication.translate("DecisionsDialog", "{name} and {count} more").format(
        name=name, count=f"{len(paths) - 1:,}"
    )


class DecisionsDialog(QDialog):
    """A list of decisions, newest first; Take Back withdraws the selected ones and the groups follow."""

    def __init__(self, review: ReviewController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review = review
        self.decisions: list[Decision] = []
        self.setWindowTitle(self.tr("Decisions"))
        self.setObjectName("decisions")
        self.resize(820, 420)
        self.intro = QLabel(
            self.tr(
                "Documents you said are not duplicates of each other, and files you chose to keep. They hold in every "
                "grouping and report; take a decision back to let the documents be grouped again, or the rule choose "
                "what to keep."
            ),
            self,
        )
        self.intro.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Decided"), self.tr("This document"), self.tr("Decision")])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setColumnWidth(0, 140)
        self.tree.setColumnWidth(1, 320)
        buttons = QDialogButtonBox(self)
        self.take_back = buttons.addButton(self.tr("Take Back"), QDialogButtonBox.ButtonRole.ActionRole)
        self.take_back.setToolTip(self.tr("Take the selected decisions back"))
        self.take_back.setEnabled(False)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.accept)
        self.take_back.clicked.connect(self.withdraw_selected)
        self.tree.itemSelectionChanged.connect(lambda: self.take_back.setEnabled(bool(self.tree.selectedItems())))
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.reload()

    def reload(self) -> None:
        self.review.decisions(self.show_decisions)

    def show_decisions(self, decisions: list[Decision]) -> None:
        self.decisions = decisions
        self.tree.clear()
        for n, d in enumerate(decisions):
            said = (
                self.tr("kept in its groups (taken back, the rule chooses what to keep)")
                if d.what == "keep"
                else self.tr("is not a duplicate of {names}").format(names=_names(d.paths_b))
            )
            item = QTreeWidgetItem(
                [
                    time.strftime("%Y-%m-%d %H:%M", time.localtime(d.decided_at)),
                    _names(d.paths_a),
                    said,
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, n)
            item.setToolTip(1, "\n".join(d.paths_a))
            item.setToolTip(2, "\n".join(d.paths_b))
            self.tree.addTopLevelItem(item)
        if not decisions:
            self.intro.setText(
                self.tr(
                    "You have made no decisions yet. \u201cNot a duplicate\u201d and \u201cKeep "
                    "this one\u201d in the groups make them, and they are listed here."
                )
            )

    def withdraw_selected(self) -> None:
        chosen = [self.decisions[item.data(0, Qt.ItemDataRole.UserRole)] for item in self.tree.selectedItems()]
        if chosen:
            self.take_back.setEnabled(False)
            self.review.withdraw(chosen, returned=self.reload)
