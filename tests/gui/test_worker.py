"""The Qt adapter for core jobs: results reach the GUI thread, and never a window that is gone."""

from __future__ import annotations

import threading

import shiboken6
from PySide6.QtWidgets import QWidget

from neardup_gui.core.jobs import JobCancelled, ProgressEvent
from neardup_gui.gui.worker import Job, JobRunner


def _blocked_until(released: threading.Event, *, outcome: str, progress, cancel):
    """A job that waits for the test, then fails, returns or notices it was cancelled."""
    while not released.wait(0.01):
        if cancel.cancelled:
            raise JobCancelled()
    if outcome == "fail":
        raise ValueError("the session is closed")
    return outcome


def test_a_result_is_handed_back_on_the_gui_thread(qtbot):
    owner = QWidget()
    runner = JobRunner(owner, serial=True)
    released = threading.Event()
    seen: list[tuple[str, bool]] = []
    job = Job(_blocked_until, released, outcome="done")
    on_gui_thread = threading.current_thread
    job.signals.returned.connect(lambda result: seen.append((result, on_gui_thread() is threading.main_thread())))
    runner.start(job)
    assert runner.busy
    released.set()
    qtbot.waitUntil(lambda: not runner.busy, timeout=5_000)
    assert seen == [("done", True)]
    assert job.signals.parent() is None  # the runner keeps nothing of a finished job
    owner.deleteLater()


def test_what_a_job_delivers_after_its_window_is_gone_is_dropped(qtbot):
    """CI once failed when a grouping job's error reached a deleted main window (a message box parented to
    it): the window was closed while the job's signals were still queued."""
    owner = QWidget()
    runner = JobRunner(owner, serial=True)
    pool = runner.pool
    released = threading.Event()
    errors: list[str] = []
    finished: list[bool] = []
    job = Job(_blocked_until, released, outcome="fail")
    job.signals.errored.connect(errors.append)
    job.signals.finished.connect(lambda: finished.append(True))
    runner.start(job)
    released.set()
    pool.waitForDone(5_000)  # the job has emitted; its signals wait in the GUI thread's queue
    shiboken6.delete(owner)  # the window is destroyed before the queue is read
    qtbot.wait(50)
    assert errors == [] and finished == []

    # the same job with its window alive delivers its error: the test above could fail
    owner = QWidget()
    runner = JobRunner(owner, serial=True)
    released = threading.Event()
    job = Job(_blocked_until, released, outcome="fail")
    job.signals.errored.connect(errors.append)
    runner.start(job)
    released.set()
    qtbot.waitUntil(lambda: not runner.busy, timeout=5_000)
    assert errors == ["ValueError: the session is closed\n\n" + errors[0].split("\n\n", 1)[1]]
    owner.deleteLater()


def test_a_runner_shut_down_cancels_its_jobs_and_starts_no_more(qtbot):
    owner = QWidget()
    runner = JobRunner(owner, serial=True)
    never = threading.Event()
    outcomes: list[str] = []
    running = Job(_blocked_until, never, outcome="done")
    running.signals.cancelled.connect(lambda: outcomes.append("cancelled"))
    running.signals.returned.connect(lambda _r: outcomes.append("returned"))
    runner.start(running)
    assert runner.shutdown(5_000)
    qtbot.waitUntil(lambda: outcomes == ["cancelled"], timeout=5_000)

    late = Job(_blocked_until, threading.Event(), outcome="done")
    late.signals.started.connect(lambda: outcomes.append("late started"))
    runner.start(late)  # a handler that runs after the window closed asks in vain
    qtbot.wait(100)
    assert outcomes == ["cancelled"] and not runner.busy
    owner.deleteLater()


def _phases(*, progress, cancel):
    """Events faster than the throttle: many of one phase, then a new phase's start at once."""
    for done in range(200):
        progress(ProgressEvent("fingerprint", done, 400))
    progress(ProgressEvent("ocr", 0, 3))  # within the throttle's 50 ms of the last one
    progress(ProgressEvent("ocr", 1, 3))
    return "done"


def test_progress_is_thinned_but_every_phase_start_is_delivered(qtbot):
    owner = QWidget()
    runner = JobRunner(owner, serial=True)
    seen: list[tuple[str, int]] = []
    job = Job(_phases)
    job.signals.progress.connect(lambda e: seen.append((e.phase, e.done)))
    runner.start(job)
    qtbot.waitUntil(lambda: not runner.busy, timeout=5_000)
    assert len(seen) < 50  # thinned
    assert ("ocr", 0) in seen  # the start the pace of the phase is timed from
    owner.deleteLater()
