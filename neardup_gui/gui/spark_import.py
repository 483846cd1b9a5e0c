"""File ▸ Import Spark Result: a result of `neardup spark scan` loaded into a new database, with where its
files are on this computer asked for in a dialog (the path mapping of `neardup import-spark --map`), then
opened in a window of its own. ``ImportPlan`` and ``plan_problem`` are the dialog's logic, without widgets."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.i18n import translate
from ..core.session import ResultSource, Session
from .settings import FileDialogs


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What the person chose: the job's result folder, the folder its files were under as the job saw them
    (``seen``) and where that folder is here (``here``), and the new database to load it into."""

    result: str
    seen: str
    here: str
    database: str

    @property
    def mapping(self) -> tuple[tuple[str, str], ...]:
        return ((self.seen, self.here),)


def describe_result(result: str) -> tuple[ResultSource | None, str]:
    """What the result folder ``result`` was made from, or None and why it cannot be loaded, in words."""
    if not result.strip():
        return None, translate("SparkImport", "Choose the folder the Spark job wrote its result to (its --out).")
    if not os.path.isdir(result):
        return None, translate("SparkImport", "{path} is not a folder.").format(path=result)
    try:
        return Session.spark_result_source(result), ""
    except ValueError as exc:  # DamagedResult and StaleFingerprints are ValueErrors too
        return None, str(exc)


def plan_problem(plan: ImportPlan, source: ResultSource | None) -> str:
    """Why ``plan`` cannot be imported yet, in words ("" when it can)."""
    if source is None:
        return describe_result(plan.result)[1]
    if not plan.seen.strip():
        return translate("SparkImport", "Say which folder the job read the files from, as the cluster named it.")
    if not os.path.isabs(plan.here) or not os.path.isdir(plan.here):
        return translate("SparkImport", "Choose the folder where these files are on this computer.")
    if not plan.database.strip() or not os.path.isabs(plan.database):
        return translate("SparkImport", "Choose a file for the new database.")
    if os.path.lexists(plan.database):
        return translate(
            "SparkImport", "{path} exists: choose a new file (a result is loaded into a new database)."
        ).format(path=plan.database)
    return ""  # a folder the database is in that is not there yet is made (as the app's own is)


def new_database(beside: str, result: str) -> str:
    """A database file not there yet, in the folder ``beside``, named after the result folder."""
    name = os.path.basename(os.path.normpath(result)) or "spark"
    path, n = os.path.join(beside, f"spark-{name}.db"), 1
    while os.path.lexists(path):
        n += 1
        path = os.path.join(beside, f"spark-{name}-{n}.db")
    return path


def seen_prefix(source: ResultSource) -> str:
    """The prefix of the paths the result names, as the cluster saw them: the folder or URI the job read (a
    table's paths are its own: the person says)."""
    return source.source if source.kind != "table" else ""


def local_folder(source: ResultSource) -> str:
    """Where the job's files are here, as far as can be told: the folder it read, if this computer has it."""
    return source.source if source.kind == "folder" and os.path.isdir(source.source) else ""


class SparkImportDialog(QDialog):
    """The result folder, where its files are here, and the new database; Import only when they will do."""

    def __init__(self, dialogs: FileDialogs, beside: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import Spark Result"))
        self._dialogs, self._beside = dialogs, beside
        self._source: ResultSource | None = None
        intro = QLabel(
            self.tr(
                "Load the result of a neardup job on a Spark cluster (neardup spark scan --out FOLDER), to review "
                "its groups here. Its files must be reachable from this computer."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.result_edit = QLineEdit(self)
        self.made_from = QLabel(self)
        self.made_from.setWordWrap(True)
        self.seen_edit = QLineEdit(self)
        self.seen_edit.setToolTip(self.tr("The folder the job read, as the cluster named it"))
        self.here_edit = QLineEdit(self)
        self.here_edit.setToolTip(self.tr("The same folder as this computer reaches it"))
        self.database_edit = QLineEdit(self)
        self.form = form = QFormLayout()
        form.addRow(self.tr("Spark result:"), self._with_button(self.result_edit, self._choose_result))
        form.addRow("", self.made_from)
        form.addRow(self.tr("Files as the job saw them:"), self.seen_edit)
        form.addRow(self.tr("Are on this computer in:"), self._with_button(self.here_edit, self._choose_here))
        form.addRow(self.tr("New database:"), self._with_button(self.database_edit, self._choose_database))
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.result_edit.editingFinished.connect(lambda: self.set_result(self.result_edit.text()))
        for edit in (self.seen_edit, self.here_edit, self.database_edit):
            edit.textChanged.connect(self._check)
        self.form.setRowVisible(self.made_from, False)
        self.resize(640, self.sizeHint().height())
        self._check()

    def _with_button(self, edit: QLineEdit, choose: Callable[[], None]) -> QWidget:
        row = QWidget(self)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(edit, 1)
        button = QPushButton(self.tr("Browse…"), row)
        button.clicked.connect(choose)
        layout.addWidget(button)
        return row

    def set_result(self, result: str) -> None:
        """Read the result folder chosen: what it was made from, and the fields it suggests."""
        self.result_edit.setText(result)
        self._source, why = describe_result(result)
        self.form.setRowVisible(self.made_from, self._source is not None)  # no empty line before a result
        if self._source is None:
            self.made_from.setText("")
        else:
            self.made_from.setText(
                self.tr("Made from {source}: %n document(s).", "", self._source.documents).format(
                    source=self._source.source
                )
            )
            self.seen_edit.setText(seen_prefix(self._source))
            self.here_edit.setText(local_folder(self._source) or self.here_edit.text())
            if not self.database_edit.text():
                self.database_edit.setText(new_database(self._beside, result))
        self._check()

    def plan(self) -> ImportPlan:
        return ImportPlan(
            self.result_edit.text().strip(),
            self.seen_edit.text().strip(),
            os.path.normpath(self.here_edit.text().strip()) if self.here_edit.text().strip() else "",
            self.database_edit.text().strip(),
        )

    def _check(self) -> None:
        why = plan_problem(self.plan(), self._source)
        self.problem.setText(why)
        self.import_button.setEnabled(not why)

    def _choose_result(self) -> None:
        chosen = self._dialogs.folder(self, "spark-result", self.tr("Spark result"), self.result_edit.text())
        if chosen:
            self.set_result(chosen)

    def _choose_here(self) -> None:
        chosen = self._dialogs.folder(
            self, "spark-files", self.tr("Where the files are on this computer"), self.here_edit.text()
        )
        if chosen:
            self.here_edit.setText(chosen)

    def _choose_database(self) -> None:
        name = os.path.basename(self.database_edit.text()) or "spark.db"
        path, _chosen = self._dialogs.save_file(
            self, "spark-database", self.tr("New database"), name, self.tr("neardup database (*.db)")
        )
        if path:
            self.database_edit.setText(path)
