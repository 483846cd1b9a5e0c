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
    """A core job on Qt's thread pool. Progress is throttled to ~20 reports a second.

    The worker emits on a private emitter; each signal is relayed by ``signals``, which lives on the GUI
    thread and, once started, belongs to its runner. When the window (and so the runner) is destroyed, what
    the job had not yet delivered is dropped by Qt instead of reaching handlers of a deleted window (Qt's
    context-object connection, which PySide's ``connect`` does not offer for lambdas)."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = JobSignals()
        self._emitter = JobSignals()
        for name in ("started", "progress", "returned", "errored", "failed", "cancelled", "finished"):
            getattr(self._emitter, name).connect(getattr(self.signals, name))
        self.cancel_token = CancelToken()
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._last_progress = 0.0
        self._last_phase = ""

    def cancel(self) -> None:
        self.cancel_token.cancel()

    def _progress(self, event: ProgressEvent) -> None:
        now = time.monotonic()
        final = event.total is not None and event.done >= event.total
        # a phase's first event always goes through: the pace of the phase is timed from it (OCR's first page
        # came seconds after its start, which the throttle had dropped: "1,000 pages/s")
        if final or event.phase != self._last_phase or now - self._last_progress >= 0.05:
            self._last_progress, self._last_phase = now, event.phase
            self._emitter.progress.emit(event)

    def run(self) -> None:
        emit = self._emitter
        emit.started.emit()
        try:
            result = self._fn(*self._args, progress=self._progress, cancel=self.cancel_token, **self._kwargs)
        except JobCancelled:
            emit.cancelled.emit()
        except NeardupError as exc:
            emit.failed.emit(exc)
            emit.errored.emit(str(exc))
        except sqlite3.Error as exc:  # a full disk, a damaged or read-only database: a sentence, not a bug
            emit.failed.emit(exc)
            emit.errored.emit(database_error_message(exc))
        except Exception as exc:  # noqa: BLE001 - shown to the user, with the details for a bug report
            emit.failed.emit(exc)
            emit.errored.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=6)}")
        else:
            emit.returned.emit(result)
        finally:
            emit.finished.emit()


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
        self._closed = False

    def start(self, job: Job) -> Job:
        """Run ``job``; a runner that was shut down starts nothing (a handler running late asks in vain)."""
        if self._closed:
            return job
        self._running.add(job)
        job.signals.setParent(self)  # what the job delivers dies with the runner (and its window)
        job.signals.finished.connect(lambda: self._finished(job))
        self.pool.start(job)
        return job

    def _finished(self, job: Job) -> None:
        self._running.discard(job)
        job.signals.setParent(None)  # the job's own again: freed with it, not kept by the runner

    def cancel_all(self) -> None:
        for job in list(self._running):
            job.cancel()

    def wait(self, msecs: int = 10_000) -> bool:
        return self.pool.waitForDone(msecs)

    def shutdown(self, msecs: int = 15_000) -> bool:
        """Cancel every job, start no more, and wait for the running ones (the window is closing)."""
        self._closed = True
        self.cancel_all()
        return self.wait(msecs)

    @property
    def busy(self) -> bool:
        return bool(self._running)
