"""Spreading a collection-wide step over the worker pool: finding boilerplate, measuring a forest's
candidate pairs, a report's shared passages, hashing the files a scan reads.

The parent only schedules and merges; each worker reads what its share needs from the database
itself (a read-only connection beside the writer, see ``Store.reader``), so what crosses the pipes is
ids and small answers, not texts or shingle sets. With one worker, or a job too small to be worth
starting processes for, the same task functions run in this process: one code path, two places.
A task whose worker fails (it ran out of memory, say) is done again here, so a step never loses part
of its answer to a worker.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ..jobs import NEVER_CANCELLED, CancelToken
from ..store import spill
from .pool import TaskFailed, WorkerPool

if TYPE_CHECKING:
    from ..store.store import Store

T = TypeVar("T")
R = TypeVar("R")

_TASK_SECONDS = 3600.0  # an analysis task is never a hostile file: a generous limit only against a hang


def default_workers() -> int:
    """All of this machine's cores: the parent schedules, so it needs none of its own."""
    return os.cpu_count() or 1


class Workers:
    """How many processes a collection-wide step may use, and the pool they run in.

    ``map`` runs tasks in the pool when there are several workers and at least ``min_tasks`` tasks,
    else here. Inside ``kept()`` one pool serves every ``map``, so workers keep what they loaded
    (connections, shingle sets) from one batch to the next; outside, each ``map`` has its own.
    """

    def __init__(self, count: int | None = None) -> None:
        count = default_workers() if count is None else count
        if count < 1:
            raise ValueError(f"workers must be at least 1, not {count}")
        self.count = count
        self._pool: WorkerPool | None = None

    @property
    def pooled(self) -> bool:
        """Whether work goes to worker processes at all (more than one worker)."""
        return self.count > 1

    @property
    def keeping(self) -> bool:
        """Whether a ``kept()`` block is open: its pool serves every ``map`` until the block ends."""
        return self._pool is not None

    @property
    def warm(self) -> bool:
        """Whether a kept pool's workers are running: a small batch costs them no start-up then."""
        return self._pool is not None and self._pool.started

    @contextlib.contextmanager
    def kept(self) -> Iterator[Workers]:
        """One pool for every ``map`` inside the block (started at the first that needs it)."""
        if self._pool is not None:  # nested: the outer block owns the pool
            yield self
            return
        self._pool = WorkerPool(self.count)
        try:
            yield self
        finally:
            pool, self._pool = self._pool, None
            pool.close()

    def map(
        self, fn: Callable[[T], R], tasks: Iterable[T], *, min_tasks: int = 2, cancel: CancelToken = NEVER_CANCELLED
    ) -> Iterator[tuple[T, R]]:
        """Yield (task, fn(task)) for every task, in any order. ``fn`` is a top-level function and
        tasks are small and picklable when they may go to workers (see pool.IN_FLIGHT)."""
        todo = list(tasks)
        if not self.pooled or len(todo) < min_tasks:
            try:
                for task in todo:
                    cancel.raise_if_cancelled()
                    yield task, fn(task)
            finally:
                _forget_here()
            return
        own = self._pool is None
        pool = WorkerPool(self.count) if own else self._pool
        assert pool is not None
        try:
            for task, outcome in pool.run(fn, todo, timeout=_TASK_SECONDS, cancel=cancel):
                if isinstance(outcome, TaskFailed):
                    try:
                        outcome = fn(task)
                    finally:
                        _forget_here()
                yield task, outcome
        finally:
            if own:
                pool.close()


IN_THIS_PROCESS = Workers(1)
"""Every step here, one task after another: what tests and small jobs use."""


class MappedFiles:
    """Arrays the workers map instead of receiving them (a task stays a few numbers, see pool.IN_FLIGHT),
    written as .npy files to one folder, made at the first write. With ``beside`` (the database's
    folder) the folder lies there, locked while in use and removed at ``close``, or by the next scan
    if the app was killed (spill.new_folder): not in the system's temporary folder, which may be
    memory and would keep a killed app's files. Where folders cannot be locked (no fcntl), or the
    folder beside cannot be written, the system's temporary folder serves. A file written ``once``
    serves every later step of the same search (the signatures: 51 MB at 100,000 documents)."""

    def __init__(self, beside: str | None = None) -> None:
        self._beside = beside if spill.fcntl is not None else None
        self._folder = ""
        self._spill = False
        self._once: set[str] = set()

    @staticmethod
    def using(files: MappedFiles | None) -> contextlib.AbstractContextManager[MappedFiles]:
        """``files``, or when None a MappedFiles of the block's own in the temporary folder."""
        return contextlib.nullcontext(files) if files is not None else MappedFiles()

    def write(self, name: str, array: np.ndarray, *, once: bool = False) -> str:
        """Where ``array`` is now, as ``name``.npy (written already, if ``once`` and it was: the
        caller gives a name one array)."""
        if once and name in self._once:
            return os.path.join(self._folder, f"{name}.npy")
        path = self._made(name, lambda path: self.save(path, array))
        if once:
            self._once.add(name)
        return path

    def path(self, name: str) -> str:
        """Where a task writes ``name``.npy itself (with ``save``; the folder's files are removed with it)."""
        return os.path.join(self._folder or self._make_folder(), f"{name}.npy")

    def allocate(
        self, name: str, dtype: np.dtype | type, length: int, parts: Callable[[], Iterable[np.ndarray]] = tuple
    ) -> str:
        """Where a new ``name``.npy of ``length`` values of ``dtype`` is: what ``parts()`` gives written one
        after the other (never all in memory at once), the rest for tasks to fill a part each (mapped with
        ``mmap_mode="r+"``)."""
        kind = np.dtype(dtype)
        header = {"descr": np.lib.format.dtype_to_descr(kind), "fortran_order": False, "shape": (length,)}

        def make(path: str) -> None:
            with open(path, "wb") as out:  # the rest a sparse file: nothing written, nothing held in memory
                np.lib.format.write_array_header_1_0(out, header)
                end = out.tell() + length * kind.itemsize
                for part in parts():
                    out.write(np.ascontiguousarray(part, dtype=kind).tobytes())
                if out.tell() > end:
                    raise ValueError(f"{name}: more than {length} values written")
                out.truncate(end)

        return self._made(name, make)

    def _made(self, name: str, make: Callable[[str], None]) -> str:
        """Where ``make`` made ``name``.npy: in the folder, or where it cannot be made beside the database (a
        full disk, a folder gone), in the temporary folder, where every file is then written again."""
        path = os.path.join(self._folder or self._make_folder(), f"{name}.npy")
        try:
            make(path)
        except OSError:
            if not self._spill:
                raise
            self.close()
            self._beside = None
            return self._made(name, make)
        return path

    def discard(self, path: str) -> None:
        """Remove a file written here that no later step maps."""
        with contextlib.suppress(OSError):
            os.remove(path)

    def close(self) -> None:
        """Remove the folder and its files."""
        folder, spilled = self._folder, self._spill
        self._folder, self._spill, self._once = "", False, set()
        if not folder:
            return
        if spilled:
            spill.forget(folder)
        else:
            spill.remove_own(folder)

    def _make_folder(self) -> str:
        self._folder = spill.new_folder(self._beside) if self._beside else ""
        self._spill = bool(self._folder)
        if not self._folder:
            self._folder = tempfile.mkdtemp(prefix="neardup-mapped-")
        return self._folder

    @staticmethod
    def save(path: str, array: np.ndarray) -> None:
        """``array`` as the .npy ``path``, whole or not at all (a task writing its own file uses it too)."""
        with open(path + ".part", "wb") as out:
            np.save(out, array)
        os.replace(path + ".part", path)  # a new file: a worker still mapping the old one keeps it whole

    def __enter__(self) -> MappedFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- what a worker keeps between tasks -------------------------------------------------------------
_readers: dict[tuple[int, int, str], Store] = {}


def reader(db_path: str) -> Store:
    """This process's (and thread's) read-only connection to a database, opened once: a worker serves
    many tasks."""
    key = (os.getpid(), threading.get_ident(), db_path)
    store = _readers.get(key)
    if store is None:
        from ..store.store import Store  # the store's records import this module's users

        store = _readers[key] = Store.reader(db_path)
    return store


def _forget_here() -> None:
    """Close what tasks run in this process opened and drop what they kept: a reader left open here
    would keep the database's write-ahead log from being folded in when the session closes."""
    for key in [k for k in _readers if k[:2] == (os.getpid(), threading.get_ident())]:
        _readers.pop(key).close()
    _cache.clear()


@dataclass(frozen=True, slots=True)
class ShinglesOf:
    """Reads contents' shingle sets with their edges from a database (Store.contents.shingles_and_edges): a
    loader that can be sent to a worker."""

    db_path: str

    def __call__(self, content_ids: Iterable[int]) -> dict[int, tuple[np.ndarray, np.ndarray | None]]:
        return reader(self.db_path).contents.shingles_and_edges(content_ids)


class ShingleCache:
    """Shingle sets a worker read for earlier tasks of the same job, within a memory budget (least
    recently used go first). Keyed by a job's ``state``: sets compared by their cores under one
    boilerplate analysis are not those of another."""

    def __init__(self, budget: int = 192 << 20) -> None:
        self._budget = budget
        self.clear()

    def clear(self) -> None:
        self._state: tuple[str, str] | None = None
        self._sets: OrderedDict[int, np.ndarray] = OrderedDict()
        self._bytes = 0

    def _enter(self, db_path: str, state: str) -> None:
        if self._state != (db_path, state):
            self.clear()
            self._state = (db_path, state)

    def sets(self, db_path: str, state: str, content_ids: Iterable[int], cores: str | None) -> dict[int, np.ndarray]:
        """The shingle sets of ``content_ids`` (their cores under the boilerplate analysis ``cores``, see
        Store.contents.shingles), read from the database where not kept."""
        self._enter(db_path, state)
        wanted = list(dict.fromkeys(content_ids))
        out: dict[int, np.ndarray] = {}
        missing = []
        for cid in wanted:
            found = self._sets.get(cid)
            if found is None:
                missing.append(cid)
            else:
                self._sets.move_to_end(cid)
                out[cid] = found
        if missing:
            loaded = reader(db_path).contents.shingles(missing, cores=cores)
            out.update(loaded)
            for cid, values in loaded.items():
                self._sets[cid] = values
                self._bytes += values.nbytes
            while self._bytes > self._budget and len(self._sets) > len(out):
                _cid, dropped = self._sets.popitem(last=False)
                self._bytes -= dropped.nbytes
        return out


_cache = ShingleCache()


def shingle_cache() -> ShingleCache:
    """This process's cache of shingle sets (a worker's: forked empty from the fork server)."""
    return _cache
