"""A process pool in which a task that crashes or hangs its worker costs that task only.

pypdf (and jieba, for a scheme that segments) hold the GIL, so threads do not scale; processes do. Unlike
concurrent.futures.ProcessPoolExecutor, this pool kills a worker whose task runs past a time
limit, replaces a worker that dies, and reports both as failures of that one task. Workers are
forked from a clean server process that preloaded them (or spawned where there is none), never
forked from the caller, so a GUI process with threads can use it safely.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import select
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from ..i18n import QT_TRANSLATE_NOOP, with_details
from ..jobs import NEVER_CANCELLED, CancelToken

T = TypeVar("T")
IN_FLIGHT = 2  # tasks queued per worker, so a worker never idles waiting for the next one
# Hence tasks must be small (paths, ids, ranges: well under the pipe's 200 KB): a worker sending a large
# result while the parent sends it a large next task would block both. Bulk input goes as files.

# Why a task failed: part of a file's stored message (scan.py), in English, translated where shown
# (i18n.localize); the error, the exit code or the signal as its details (i18n.with_details).
_TIMED_OUT = QT_TRANSLATE_NOOP("Problem", "reading it took longer than {seconds} s, so it was stopped")
_OUT_OF_MEMORY = QT_TRANSLATE_NOOP("Problem", "reading it needs more than the {size} of memory a reader may use")
_OUT_OF_THE_MEMORY = QT_TRANSLATE_NOOP("Problem", "reading it needs more than the memory a reader may use")
_READER_FAILED = QT_TRANSLATE_NOOP("Problem", "the reader failed on it")
_CRASHED = QT_TRANSLATE_NOOP("Problem", "the reader crashed on it")


@dataclass(frozen=True, slots=True)
class TaskFailed:
    """The worker running a task died or ran past the time limit."""

    reason: str  # a stored message, maybe with details (i18n.with_details): put in another one with i18n.fill
    timed_out: bool = False
    out_of_memory: bool = False


def default_reader_memory() -> int:
    """How much memory (bytes) one worker may use by default: a quarter of this machine's memory,
    between 1 and 8 GiB. Enough for any text within the default size limit (a 256 MB one-line text
    needs about 2 GB); a pathological file fails alone instead of pushing the desktop into swap."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        physical = 16 << 30
    return max(1 << 30, min(8 << 30, physical // 4))


def memory_size(size: int) -> str:
    """A memory size in words: "1.5 GB", "300 MB"."""
    return f"{size / (1 << 30):.1f} GB" if size >= 1 << 30 else f"{max(1, size >> 20)} MB"


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MEMORY_CHECK_SECONDS = 0.05


def _statm(pid: int | str) -> tuple[int, int]:
    """(address space, resident memory) of a process in bytes, from Linux's /proc; OSError elsewhere."""
    with open(f"/proc/{pid}/statm", "rb") as statm:
        size, resident = statm.read().split()[:2]
    return int(size) * _PAGE, int(resident) * _PAGE


def _cap_address_space(limit: int) -> None:
    """A backstop to the parent's watch of a worker's resident memory: an allocation so large and sudden
    that the watch could not see it grow (twice the limit, plus room for what a numpy allocation
    reserves and does not touch) raises MemoryError instead of waking the kernel's out-of-memory
    killer. Linux only, where RLIMIT_AS is enforced."""
    try:
        import resource

        mapped = _statm("self")[0] + 2 * limit + (256 << 20)
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = mapped if hard == resource.RLIM_INFINITY else min(hard, mapped)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, OSError, ValueError):
        pass


def _worker_main(conn: Connection, memory_limit: int | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    if memory_limit:
        _cap_address_space(memory_limit)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, task = message
        try:
            result = ("ok", fn(task))
        except MemoryError:
            result = ("memory", "")
        except BaseException as exc:  # noqa: BLE001 - a task's failure is data, the worker lives on
            result = ("raised", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(result)
        except (EOFError, OSError):
            return


class _Worker(Generic[T]):
    def __init__(self, ctx: Any, memory_limit: int | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, memory_limit), daemon=True)
        self.process.start()
        child.close()
        self.tasks: deque[T] = deque()
        self.head_started = time.monotonic()
        self.idle_memory = self.resident()  # forked from the preloaded server: its pages count as ours

    def resident(self) -> int:
        try:
            return _statm(self.process.pid)[1]
        except (OSError, ValueError):
            return 0  # not Linux, or already gone: nothing to watch

    def send(self, fn: Callable[[T], Any], task: T) -> None:
        if not self.tasks:
            self.head_started = time.monotonic()
        self.tasks.append(task)
        # OSError: the worker died on an earlier task after we last looked. Keep this one queued: the
        # loop sees the death, blames the task that was running and hands this one to another.
        with contextlib.suppress(OSError):
            self.conn.send((fn, task))

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError, EOFError):
            self.conn.send(None)
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()


class _Readiness:
    """Which workers have a result or have died. One poll object lives as long as the pool, since
    multiprocessing's wait() builds and fills a selector on every call (a quarter of the parent's
    CPU at 500 results/s); wait() remains where poll() cannot watch pipes (Windows)."""

    def __init__(self) -> None:
        self._poll = select.poll() if hasattr(select, "poll") and sys.platform != "win32" else None
        self._objects: dict[int, Connection | int] = {}

    def add(self, worker: _Worker[Any]) -> None:
        if self._poll is not None:
            for fd, obj in ((worker.conn.fileno(), worker.conn), (worker.process.sentinel, worker.process.sentinel)):
                self._poll.register(fd, select.POLLIN)
                self._objects[fd] = obj

    def remove(self, worker: _Worker[Any]) -> None:
        if self._poll is not None:
            for fd in (worker.conn.fileno(), worker.process.sentinel):
                self._poll.unregister(fd)
                del self._objects[fd]

    def ready(self, workers: list[_Worker[Any]], timeout: float) -> set[object]:
        """The pipes with a result (or end of file) and the sentinels of workers that died (for ``in``)."""
        if self._poll is None:
            return set(wait([w.conn for w in workers] + [w.process.sentinel for w in workers], timeout=timeout))
        return {self._objects[fd] for fd, _event in self._poll.poll(timeout * 1000)}


def _context():
    """Workers fork from a clean, single-threaded server that preloaded and warmed what they need
    (Linux); elsewhere they are spawned. Never a plain fork of this process, which may have threads."""
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["neardup_gui.core.workers.preload"])
        return ctx
    return mp.get_context("spawn")


def warm_up() -> None:
    """Start the worker fork server now, so that its warming overlaps other work (no wait)."""
    try:
        if _context().get_start_method() == "forkserver":
            from multiprocessing import forkserver

            forkserver.ensure_running()
    except (OSError, ImportError):
        pass  # only an early start: run_isolated starts the workers (and says why it cannot) when needed


_NO_OUTCOME = object()
"""A worker's head task has not ended yet (a task's result may be None)."""


class WorkerPool:
    """Worker processes that live across several runs of tasks (``run``), so that what a worker
    loaded for one batch (a database connection, shingle sets) serves the next; started as needed,
    stopped by ``close`` (or leaving the ``with`` block). One caller at a time."""

    def __init__(self, workers: int, *, memory_limit: int | None = None) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if memory_limit is not None and memory_limit <= 0:
            raise ValueError(f"memory_limit must be positive, not {memory_limit}")
        self.workers = workers
        self.memory_limit = memory_limit
        self._ctx = _context()
        self._pool: list[_Worker[Any]] = []
        self._readiness = _Readiness()

    @property
    def started(self) -> bool:
        """Whether any worker process is running (a run costs no start-up then)."""
        return bool(self._pool)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, *, kill: bool = False) -> None:
        """Stop the workers (at once with ``kill``, else after their current task)."""
        for worker in list(self._pool):
            self._retire(worker, kill=kill)

    def _start(self) -> _Worker[Any]:
        worker: _Worker[Any] = _Worker(self._ctx, self.memory_limit)
        self._pool.append(worker)
        self._readiness.add(worker)
        return worker

    def _retire(self, worker: _Worker[Any], *, kill: bool = True) -> None:
        self._readiness.remove(worker)
        self._pool.remove(worker)
        if kill:
            worker.kill()
        else:
            worker.stop()

    def run(
        self,
        fn: Callable[[T], Any],
        tasks: Iterable[T],
        *,
        timeout: float,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> Iterator[tuple[T, Any | TaskFailed]]:
        """Yield (task, fn(task)) as tasks finish, in any order; see ``run_isolated``. Workers stay
        for the next run; a run left before its end stops the workers still busy with it, and
        cancelling kills them all and raises JobCancelled."""
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, not {timeout}")
        memory_limit = self.memory_limit
        pending: deque[T] = deque(tasks)
        pool = self._pool
        finished = False
        while len(pool) < min(self.workers, len(pending)):
            self._start()
        memory_checked = time.monotonic()
        try:
            for worker in pool:
                _fill(worker, fn, pending)
            while any(w.tasks for w in pool):
                cancel.raise_if_cancelled()
                wait_at_most = _MEMORY_CHECK_SECONDS if memory_limit else 0.1
                ready = self._readiness.ready([w for w in pool if w.tasks], timeout=wait_at_most)
                now = time.monotonic()
                check_memory = memory_limit is not None and now - memory_checked >= _MEMORY_CHECK_SECONDS
                if check_memory:
                    memory_checked = now
                for worker in list(pool):
                    if not worker.tasks:
                        if worker.conn in ready or worker.process.sentinel in ready:
                            self._retire(worker)  # an idle worker died: nothing was lost, nothing is left for it
                        continue
                    outcome: Any = _NO_OUTCOME
                    lost_worker = True
                    if worker.conn in ready:  # read before the sentinel: a result precedes the death after it
                        try:
                            kind, value = worker.conn.recv()
                            outcome = _outcome(kind, value, memory_limit)
                            lost_worker = False
                        except (EOFError, OSError):
                            outcome = TaskFailed(_died(worker))
                    elif worker.process.sentinel in ready:
                        outcome = TaskFailed(_died(worker))
                    elif now - worker.head_started > timeout:
                        outcome = TaskFailed(_TIMED_OUT.format(seconds=f"{timeout:g}"), timed_out=True)
                    elif memory_limit and check_memory and worker.resident() - worker.idle_memory > memory_limit:
                        outcome = _outcome("memory", None, memory_limit)
                    if outcome is _NO_OUTCOME:
                        continue
                    task = worker.tasks.popleft()
                    worker.head_started = time.monotonic()
                    if lost_worker:
                        pending.extendleft(reversed(worker.tasks))  # the others did not run: try them again
                        worker.tasks.clear()
                        self._retire(worker)
                        worker = self._start()
                    yield task, outcome
                    _fill(worker, fn, pending)
                for worker in pool:
                    _fill(worker, fn, pending)
            finished = True
        finally:
            if cancel.cancelled:
                self.close(kill=True)
            elif not finished:  # left early: a busy worker's late answers must not reach the next run
                for worker in [w for w in pool if w.tasks]:
                    self._retire(worker)


def run_in_batches(
    pool: WorkerPool,
    fn: Callable[[T], Any],
    batches: Iterable[tuple[T, ...]],
    *,
    timeout: float,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Iterator[tuple[T, Any | TaskFailed]]:
    """Yield (task, fn(task)) for every task of ``batches``, a batch a worker task (one message and
    one wake-up of this process for the lot), batches in any order, a batch's tasks in order.

    A batch whose worker failed (crashed, ran past ``timeout`` for the whole batch, out of memory, or
    ``fn`` raised) is run again task by task, so that a failure costs its own task only, as in
    ``run_isolated``; the others lose the time of a second run.
    """
    left: list[tuple[T, ...]] = list(batches)
    while left:
        alone: list[tuple[T, ...]] = []
        for (_fn, batch), outcome in pool.run(_each, [(fn, batch) for batch in left], timeout=timeout, cancel=cancel):
            if isinstance(outcome, TaskFailed):
                if len(batch) > 1:
                    alone.extend((task,) for task in batch)
                    continue
                outcome = [outcome]
            yield from zip(batch, outcome, strict=True)
        left = alone


def _each(job: tuple[Callable[[T], Any], tuple[T, ...]]) -> list[Any]:
    """Worker side of run_in_batches: fn of each task of a batch."""
    fn, batch = job
    return [fn(task) for task in batch]


def run_isolated(
    fn: Callable[[T], Any],
    tasks: Iterable[T],
    *,
    workers: int,
    timeout: float,
    memory_limit: int | None = None,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Iterator[tuple[T, Any | TaskFailed]]:
    """Yield (task, fn(task)) as tasks finish, in any order, using ``workers`` processes.

    ``fn`` must be a picklable top-level function. A task whose worker dies yields
    TaskFailed("crashed..."); one running longer than ``timeout`` seconds yields TaskFailed("took
    longer..."); an exception inside ``fn`` yields TaskFailed with its message, and running out of the
    ``memory_limit`` bytes of memory each worker may use beyond what it holds idle (watched every
    50 ms on Linux; the worker is stopped) yields TaskFailed(out_of_memory).
    Cancelling kills the workers and raises JobCancelled within a fraction of a second.
    """
    with WorkerPool(workers, memory_limit=memory_limit) as pool:
        yield from pool.run(fn, tasks, timeout=timeout, cancel=cancel)


def _outcome(kind: str, value: Any, memory_limit: int | None) -> Any | TaskFailed:
    if kind == "ok":
        return value
    if kind == "memory":
        reason = _OUT_OF_MEMORY.format(size=memory_size(memory_limit)) if memory_limit else _OUT_OF_THE_MEMORY
        return TaskFailed(reason, out_of_memory=True)
    return TaskFailed(with_details(_READER_FAILED, value))


def _fill(worker: _Worker[T], fn: Callable[[T], Any], pending: deque[T]) -> None:
    while pending and len(worker.tasks) < IN_FLIGHT:
        worker.send(fn, pending.popleft())


def _died(worker: _Worker[Any]) -> str:
    worker.process.join(timeout=1)
    code = worker.process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return with_details(_CRASHED, name)
    return with_details(_CRASHED, f"exit code {code}")
