"""The one adapter between core jobs and Qt: run ``fn(..., progress=, cancel=)`` on a pool thread and
hand everything back to the GUI thread by queued signals. No widget is touched from the worker."""

from __future__ import annotations

import sqlite3
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ..core.errors import NeardupError, database_error_message
from ..core.jobs import CancelToken, JobCancelled, ProgressEvent


class JobSignals(QObject):
    started = Signal()
    progress = Signal(object)  # ProgressEvent
    returned = Signal(object)  # the job's result
    errored = Signal(str)  # a message fit for the user
    failed = Signal(object)  # the exception itself, for whoever can do more than show it (before errored)
    cancelled = Signal()
    finished = Signal()  # always last


class Job(QRunnable):
    """A core job on Qt's thread pool. Progress is throttled to ~20 reports a second."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = JobSignals()
        self.cancel_token = CancelToken()
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._last_progress = 0.0

    def cancel(self) -> None:
        self.cancel_token.cancel()

    def _progress(self, event: ProgressEvent) -> None:
        now = time.monotonic()
        final = event.total is not None and event.done >= event.total
        if final or now - self._last_progress >= 0.05:
            self._last_progress = now
            self.signals.progress.emit(event)

    def run(self) -> None:
        self.signals.started.emit()
        try:
            result = self._fn(*self._args, progress=self._progress, cancel=self.cancel_token, **self._kwargs)
        except JobCancelled:
            self.signals.cancelled.emit()
        except NeardupError as exc:
            self.signals.failed.emit(exc)
            self.signals.errored.emit(str(exc))
        except sqlite3.Error as exc:  # a full disk, a damaged or read-only database: a sentence, not a bug
            self.signals.failed.emit(exc)
            self.signals.errored.emit(database_error_message(exc))
        except Exception as exc:  # noqa: BLE001 - shown to the user, with the details for a bug report
            self.signals.failed.emit(exc)
            self.signals.errored.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=6)}")
        else:
            self.signals.returned.emit(result)
        finally:
            self.signals.finished.emit()


class JobRunner(QObject):
    """Starts jobs and keeps them alive until they finish. A ``serial`` runner has a thread of its own and
    runs its jobs one after the other, in the order they were started: the one door to the session (its
    store and matcher), so that no two jobs on a collection ever interleave (Anki's collection tasks)."""

    def __init__(self, parent: QObject | None = None, *, serial: bool = False) -> None:
        super().__init__(parent)
        if serial:
            self.pool = QThreadPool(self)
            self.pool.setMaxThreadCount(1)
            self.pool.setExpiryTimeout(-1)  # one thread for the window's life: SQLite sees one thread
        else:
            self.pool = QThreadPool.globalInstance()
        self._running: set[Job] = set()

    def start(self, job: Job) -> Job:
        self._running.add(job)
        job.signals.finished.connect(lambda: self._running.discard(job))
        self.pool.start(job)
        return job

    def cancel_all(self) -> None:
        for job in list(self._running):
            job.cancel()

    def wait(self, msecs: int = 10_000) -> bool:
        return self.pool.waitForDone(msecs)

    @property
    def busy(self) -> bool:
        return bool(self._running)
