"""File ▸ Export Report: where the report goes (asked, and checked never to replace the database or a
document: a place refused is asked again), and the report of what is shown written in the background."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from ..core.errors import UsageError
from ..core.models import Find, Search
from ..core.session import Session
from .operation import Operations
from .settings import FileDialogs
from .worker import Job


def report_path(path: str, chosen_filter: str) -> tuple[str, str]:
    """The file a report goes to and its format: by the name's suffix, else by the filter chosen (whose
    suffix is then added)."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt in ("html", "csv", "json"):
        return path, fmt
    fmt = "csv" if "*.csv" in chosen_filter else "json" if "*.json" in chosen_filter else "html"
    return f"{path}.{fmt}", fmt


class ReportExport(QObject):
    def __init__(
        self,
        parent: QWidget,
        ops: Operations,
        session: Session,
        dialogs: FileDialogs,
        folders: Callable[[], tuple[str, ...]],
        shown_groups: Callable[[], frozenset[int] | None],
        say: Callable[[str, int], None],
        search: Callable[[], Search] = Search,
    ) -> None:
        super().__init__(parent)
        self._parent, self._ops, self._session, self._dialogs = parent, ops, session, dialogs
        self._folders, self._shown_groups, self._say, self._search = folders, shown_groups, say, search

    def ask(self, typed: str = "", typed_filter: str = "") -> None:
        """Ask where, then write it. A place refused is said, then asked again: ``typed`` is the path typed
        then, ``typed_filter`` the format chosen."""
        filters = self.tr("HTML report (*.html);;CSV spreadsheet (*.csv);;JSON data (*.json)")
        name = typed or f"neardup-report-{time.strftime('%Y%m%d')}.html"
        chosen_path, chosen = self._dialogs.save_file(
            self._parent, "export", self.tr("Export report"), name, filters, typed_filter
        )
        if not chosen_path:
            return
        path, _fmt = report_path(chosen_path, chosen)

        def allowed(_none: None) -> None:
            # the dialog asked about the name typed; a suffix added to it can name another, existing file
            if path != chosen_path and os.path.exists(path):
                answer = QMessageBox.question(
                    self._parent,
                    self.tr("Replace the file?"),
                    self.tr("{path}\n\nalready exists. Replace it with the report?").format(path=path),
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                    QMessageBox.StandardButton.Cancel,
                )
                if answer != QMessageBox.StandardButton.Yes:
                    return
            self.write(path, chosen)

        def refused(error: BaseException | None) -> None:
            if isinstance(error, UsageError):  # the place, not the report: the person chooses another
                self.ask(chosen_path, chosen)

        # never over the database or a document being compared, whatever is answered next
        self._ops(self._session.check_report_target, Path(path), self._folders()).success(allowed).failure(
            self.tr("The report was not saved"), then=refused
        ).run()

    def write(self, path: str, chosen_filter: str = "") -> Job:
        """Write the report of what is shown now (thresholds and decisions applied; the excerpts or the shared
        passages looked for, in HTML and JSON) in the background; a path that would replace the database or a
        document is refused, whatever was answered before."""
        path, fmt = report_path(path, chosen_filter)
        folders, session = self._folders(), self._session
        shown = self._shown_groups()  # a filter hides groups: the report holds what is shown
        search = self._search()
        listed = fmt != "csv"  # a CSV report is a table of groups
        containment = search.containment if listed and search.find is Find.EXCERPTS else None
        passages = search.passages if listed and search.find is Find.PASSAGES else None

        def work(*, progress: Any, cancel: Any) -> Path:
            session.check_report_target(Path(path), folders)
            return session.write_report(
                path, fmt, shown, containment=containment, passages=passages, progress=progress, cancel=cancel
            )

        def saved(p: Path) -> None:
            count = len(shown) if shown is not None else 0
            said = (
                self.tr("Report saved: {path}")
                if shown is None
                else self.tr("Report of the %n group(s) the filter shows saved: {path}", "", count)
            )
            self._say(said.format(path=p), 15000)

        self._say(self.tr("Writing the report…"), 0)
        return self._ops(work).success(saved).failure(self.tr("The report was not saved")).run()
