"""Every call on the session from the window, in one shape (Anki's ``CollectionOp``):

    window.op(session.regroup, thresholds).success(show).failure(title).progress(report).run()

An operation runs on the window's serial runner (so no two touch the collection at once), hands its
result, its progress and its cancellation back on the GUI thread, and shows a failure under its title;
a damaged database is handed to ``damaged`` instead (it offers a new one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from ..core.errors import is_damaged_database
from ..core.jobs import ProgressEvent
from .worker import Job, JobRunner


class Operation:
    """One session call to run: say what to do with its outcomes, then ``run()``."""

    def __init__(self, operations: Operations, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self._operations = operations
        self.job = Job(fn, *args, **kwargs)
        self._title = ""
        self._then: Callable[[BaseException | None], None] | None = None
        self._handled: list[tuple[type[BaseException], Callable[[Any], object]]] = []

    def success(self, handler: Callable[[Any], None] | None) -> Operation:
        if handler is not None:
            self.job.signals.returned.connect(handler)
        return self

    def failure(self, title: str, then: Callable[[BaseException | None], None] | None = None) -> Operation:
        """Show a failure under ``title`` (an operation without one fails silently: a histogram, say);
        ``then`` is given the failure's exception once the person has read it (closed the message)."""
        self._title, self._then = title, then
        return self

    def unless(self, kind: type[BaseException], handler: Callable[[Any], object]) -> Operation:
        """A failure of ``kind`` goes to ``handler`` (which offers a way on), instead of being shown."""
        self._handled.append((kind, handler))
        return self

    def progress(self, handler: Callable[[ProgressEvent], None]) -> Operation:
        self.job.signals.progress.connect(handler)
        return self

    def cancelled(self, handler: Callable[[], None]) -> Operation:
        self.job.signals.cancelled.connect(handler)
        return self

    def finished(self, handler: Callable[[], None]) -> Operation:
        """Called last, whatever the outcome."""
        self.job.signals.finished.connect(handler)
        return self

    def run(self) -> Job:
        if self._title or self._handled:
            title, then, handled = self._title, self._then, self._handled
            failures: list[BaseException] = []

            def errored(message: str) -> None:
                error = failures[-1] if failures else None
                handler = next((h for kind, h in handled if isinstance(error, kind)), None)
                if handler is not None:
                    handler(error)
                elif title:
                    self._operations.failed(title, message, error, then)

            self.job.signals.failed.connect(failures.append)
            self.job.signals.errored.connect(errored)
        return self._operations.runner.start(self.job)


class Operations:
    """Makes the window's operations and shows their failures."""

    def __init__(self, parent: QWidget, runner: JobRunner, damaged: Callable[[str], None]) -> None:
        self.parent = parent
        self.runner = runner
        self._damaged = damaged

    def __call__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Operation:
        return Operation(self, fn, *args, **kwargs)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        returned: Callable[[Any], None] | None = None,
        title: str = "",
        **kwargs: Any,
    ) -> Job:
        """The controller's ``Run``: one operation, its result to ``returned``, a failure shown under ``title``."""
        return self(fn, *args, **kwargs).success(returned).failure(title).run()

    def failed(
        self,
        title: str,
        message: str,
        error: BaseException | None,
        then: Callable[[BaseException | None], None] | None = None,
    ) -> None:
        """Show a failure (``then`` once it is closed), or offer a new database for a damaged one."""
        if error is not None and is_damaged_database(error):
            self._damaged(message)
            return
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, message.split("\n\n")[0], QMessageBox.StandardButton.Ok, self.parent
        )
        if "\n\n" in message:
            box.setDetailedText(message)
        if then is not None:  # after the box has gone: a dialog ``then`` opens is not run inside its closing
            box.finished.connect(lambda _result: QTimer.singleShot(0, self.parent, lambda: then(error)))
        box.open()
