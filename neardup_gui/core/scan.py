"""The scan: discover -> skip unchanged -> read (hash) -> fingerprint in a pool -> store -> boilerplate.

Incremental: a file whose size and mtime_ns are unchanged is not opened again; a file whose bytes
are already known (a copy, a moved file) is linked to them without extraction; the same bytes in two
places are extracted once. Resumable: results are written in small atomic batches, so a killed
scan leaves a consistent database and the next scan does only what is left. Deleted files leave
the database once a walk of their root completed. Only this job writes fingerprints.
"""

from __future__ import annotations

import errno
import os
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from .errors import read_failure
from .fingerprint.ocr import PageTask, PageText, ScanText, awaits_ocr, fingerprint_scan, read_page, tag, unavailable
from .fingerprint.scheme import Scheme, fingerprint_bytes
from .forecast import MemoryShort, forecast
from .i18n import QT_TRANSLATE_NOOP, fill, localize, translate
from .jobs import NEVER_CANCELLED, CancelToken, JobCancelled, Progress, ProgressEvent, no_progress
from .match.boilerplate import analyse, collection_digest
from .models import FileEntry, Fingerprint, ScanOptions, SentBetweenProcesses, Status
from .read.discover import WalkProblem, discover, split_roots
from .read.extract import READ_WITHOUT_OCR
from .read.regular_files import NotARegularFile, hash_file, open_regular_file
from .store import spill
from .store.files import FileRecord, KnownFile
from .store.store import Store
from .store.writer import WriterProcess
from .workers.parallel import IN_THIS_PROCESS, ShinglesOf, Workers
from .workers.pool import TaskFailed, WorkerPool, default_reader_memory, run_in_batches, warm_up

_BATCH_ITEMS = 200
_BATCH_SECONDS = 1.0
_WRITER_PROCESS_CONTENTS = 200  # new contents from which a writer process writes them (~0.3 s to start)
_HASH_BATCH = 64  # files a worker hashes per task
_HASH_BATCH_BYTES = 64 << 20
# small texts a worker fingerprints per task: one pipe message, one pickle of the scheme and one wake-up
# of the parent for them all instead of one each (the parent's per-file cost); PDFs go one by one, as
# a hanging reader makes its whole task be tried again file by file
_EXTRACT_BATCH = 32
_EXTRACT_BATCH_BYTES = 512 << 10


@dataclass(frozen=True, slots=True)
class ScanSummary:
    """What a scan did; ``cancelled`` scans keep everything they finished."""

    roots: tuple[str, ...]
    files_found: int
    unchanged: int
    reused: int
    extracted: int
    removed: int
    problems: int
    seconds: float
    cancelled: bool = False
    fingerprints_reset: bool = False
    vanished_roots: tuple[str, ...] = ()  # scanned before, gone now: their documents left the database
    copies: int = 0  # files of the same bytes as a file read in this scan: read once, with it


def summary_text(summary: ScanSummary) -> str:
    """A scan's outcome in one sentence (the command line's last line, the app's status bar)."""
    files = summary.files_found
    text = translate(
        "Scan",
        "%Ln file(s) in {seconds} s: {read} read, {reused} reused, {unchanged} unchanged, {gone} gone, "
        "{problems} with problems",
        None,
        files,
    ).format(
        seconds=f"{summary.seconds:.1f}",
        read=f"{summary.extracted:,}",
        reused=f"{summary.reused:,}",
        unchanged=f"{summary.unchanged:,}",
        gone=f"{summary.removed:,}",
        problems=f"{summary.problems:,}",
    )
    copies = summary.copies  # what makes the counts add up to the files found
    if copies:
        said = translate("Scan", "{summary}; %Ln file(s) the same bytes as one read, read with it", None, copies)
        text = said.format(summary=text)
    if summary.fingerprints_reset:
        text = translate(
            "Scan", "{summary}; every file was read again: this version of neardup compares documents differently"
        ).format(summary=text)
    for root in summary.vanished_roots:
        text = translate("Scan", "{summary}; {folder} no longer exists: its documents left the results").format(
            summary=text, folder=root
        )
    return text


@dataclass(frozen=True, slots=True)
class ExtractTask(SentBetweenProcesses):
    """What a worker needs to fingerprint one content: where to read it and what bytes to expect."""

    path: str
    kind: str
    expected_hash: bytes
    scheme: Scheme
    size: int  # as hashed: no more is read (a file that grew since changed, and is not read on and on)
    spill_folder: str = ""  # where the worker puts the fingerprint's large parts for the writer (spill.py)


@dataclass(frozen=True, slots=True)
class FileFailure(SentBetweenProcesses):
    status: Status
    message: str


# What becomes of a file, stored in English in the database and translated where shown (i18n.localize)
CHANGED_DURING_SCAN = QT_TRANSLATE_NOOP(
    "Problem", "The file changed while it was being scanned; scan again to include it."
)
_TOO_LARGE_TO_COMPARE = QT_TRANSLATE_NOOP(
    "Problem", "Too large to compare: {reason}. To allow a reader more: neardup scan --max-memory MIB --retry-failed."
)
# the remedy is part of each template: a reason may itself hold ". " (a reader's error)
_NOT_COMPARED_TIMED_OUT = QT_TRANSLATE_NOOP(
    "Problem",
    "Not compared: {reason}. It is read again by a scan with a longer time limit: Try Again in the "
    "app's Problems tab, or neardup scan --timeout.",
)
_NOT_COMPARED_CRASHED = QT_TRANSLATE_NOOP(
    "Problem",
    "Not compared: {reason}. To try it again: Try Again in the app's Problems tab, or neardup scan --retry-failed.",
)
_REPLACED = QT_TRANSLATE_NOOP(
    "Problem", "The file was replaced by a folder, a link, a pipe or a device during the scan; scan again."
)
_DELETED = QT_TRANSLATE_NOOP("Problem", "The file was deleted during the scan.")
_A_FOLDER = QT_TRANSLATE_NOOP("Problem", "This is a folder, not a file.")
_LINK_LOOP = QT_TRANSLATE_NOOP("Problem", "A symbolic link that points to itself.")
_LARGER_THAN_LIMIT = QT_TRANSLATE_NOOP("Problem", "Larger than the {limit} MiB limit; not compared.")


def too_large_message(max_file_size: int) -> str:
    """The stored message of a file over the size limit (English; shown translated, i18n.localize)."""
    return _LARGER_THAN_LIMIT.format(limit=max_file_size // (1 << 20))


def extract_task(task: ExtractTask) -> Fingerprint | FileFailure:
    """Worker side: read, check the bytes are those hashed earlier, extract and fingerprint."""
    try:
        with open_regular_file(task.path) as fh:
            data = fh.read(task.size + 1)
    except OSError as exc:
        return FileFailure(Status.UNREADABLE, read_error_message(exc))
    if len(data) != task.size:  # checked first: a file that grew is not fingerprinted for nothing
        return FileFailure(Status.ERROR, CHANGED_DURING_SCAN)
    fp = fingerprint_bytes(task.kind, data, task.scheme)
    if fp.raw_hash != task.expected_hash:
        return FileFailure(Status.ERROR, CHANGED_DURING_SCAN)
    return spill.spill(fp, task.spill_folder) if task.spill_folder else fp


def extract_batches(tasks: list[ExtractTask]) -> list[tuple[ExtractTask, ...]]:
    """Texts in batches of at most _EXTRACT_BATCH contents and _EXTRACT_BATCH_BYTES; anything else,
    and a larger text, alone, first (the slowest tasks start first, so none is left running alone)."""
    small = [t for t in tasks if t.kind == "text" and t.size <= _EXTRACT_BATCH_BYTES]
    alone = [(t,) for t in tasks if not (t.kind == "text" and t.size <= _EXTRACT_BATCH_BYTES)]
    return alone + _in_batches(small, _EXTRACT_BATCH, _EXTRACT_BATCH_BYTES)


class _Sized(Protocol):
    @property
    def size(self) -> int: ...


SizedT = TypeVar("SizedT", bound=_Sized)


def _in_batches(items: list[SizedT], most: int, most_bytes: int) -> list[tuple[SizedT, ...]]:
    """``items`` in order, in batches of at most ``most`` items and ``most_bytes`` (a larger item alone)."""
    batches: list[tuple[SizedT, ...]] = []
    batch: list[SizedT] = []
    size = 0
    for item in items:
        if batch and (len(batch) >= most or size + item.size > most_bytes):
            batches.append(tuple(batch))
            batch, size = [], 0
        batch.append(item)
        size += item.size
    if batch:
        batches.append(tuple(batch))
    return batches


def transient_failure(task: ExtractTask, failed: TaskFailed, file_timeout: float) -> Fingerprint:
    """The record of a reader that ran out of time, crashed or ran out of memory on these bytes, with
    what to do about it: not what the bytes are, so it is marked to be tried again."""
    if failed.out_of_memory:
        return Fingerprint(
            task.expected_hash,
            task.kind,
            Status.ERROR,
            fill(_TOO_LARGE_TO_COMPARE, reason=failed.reason),
            transient=0.0,
        )
    template = _NOT_COMPARED_TIMED_OUT if failed.timed_out else _NOT_COMPARED_CRASHED
    return Fingerprint(
        task.expected_hash,
        task.kind,
        Status.ERROR,
        fill(template, reason=failed.reason),
        transient=file_timeout if failed.timed_out else 0.0,
    )


def read_error_message(exc: OSError) -> str:
    """Why a file could not be read, as stored (in English; see i18n.localize)."""
    if isinstance(exc, NotARegularFile):
        return _REPLACED
    if isinstance(exc, FileNotFoundError):
        return _DELETED
    if isinstance(exc, IsADirectoryError):
        return _A_FOLDER
    if exc.errno == errno.ELOOP:
        return _LINK_LOOP
    return read_failure(exc)


def hash_files(entries: tuple[FileEntry, ...]) -> list[bytes | str]:
    """Worker side: each file's hash (see ``hash_file``), or why it could not be read (stored English)."""
    out: list[bytes | str] = []
    for entry in entries:
        try:
            out.append(hash_file(entry.path))
        except OSError as exc:
            out.append(read_error_message(exc))
    return out


def _hash_batches(entries: list[FileEntry]) -> list[tuple[FileEntry, ...]]:
    """Files in batches of at most 64 files and 64 MiB: a batch hashes in a fraction of a second, so a
    scan hashing in this process (one worker) still stops within a second when cancelled."""
    return _in_batches(entries, _HASH_BATCH, _HASH_BATCH_BYTES)


@dataclass
class _Writer:
    """Collects results and commits them in small transactions: here, or, once ``hand_over`` was
    called, through a writer process (the single writer either way)."""

    store: Store
    fingerprints: list[Fingerprint] = field(default_factory=list)
    files: list[FileRecord] = field(default_factory=list)
    last_flush: float = field(default_factory=time.monotonic)
    process: WriterProcess | None = None

    def add(self, files: list[FileRecord], fingerprint: Fingerprint | None = None) -> None:
        if fingerprint is not None:
            self.fingerprints.append(fingerprint)
        self.files.extend(files)
        if len(self.files) >= _BATCH_ITEMS or time.monotonic() - self.last_flush > _BATCH_SECONDS:
            self._write()

    def hand_over(self) -> None:
        """Write from now on through a writer process (what was collected so far is written first)."""
        self._write()
        self.process = WriterProcess(self.store.path)

    def flush(self) -> None:
        """Write what was collected and return once all of it is written."""
        self._write()
        if self.process is not None:
            self.process.wait()

    def close(self) -> None:
        """Stop the writer process, if any (after ``flush``, nothing is lost)."""
        if self.process is not None:
            self.process.close()
            self.process = None

    def _write(self) -> None:
        if self.process is not None:
            self.process.write(self.fingerprints, self.files)
        else:
            self.store.write_batch(self.fingerprints, self.files)
        self.fingerprints, self.files = [], []
        self.last_flush = time.monotonic()


def _database_files(path: str | os.PathLike[str]) -> frozenset[str]:
    """The database's file and its journals, as a walk may name them (through links or not)."""
    names = {os.path.abspath(path), os.path.realpath(path)}
    return frozenset(name + suffix for name in names for suffix in ("", "-wal", "-shm", "-journal"))


def scan(
    store: Store,
    options: ScanOptions,
    *,
    workers: Workers | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> ScanSummary:
    """Bring the database up to date with the files under ``options.roots``.

    ``workers``: the processes the boilerplate analysis uses (``options.workers`` of them by default);
    the caller's, so that a pool it keeps serves the grouping after it too.
    Cancelling raises JobCancelled after saving every finished file; the next scan resumes there.
    """
    started = time.monotonic()
    warm_up()  # the workers' fork server warms up while the folders are walked and hashed
    roots, missing = split_roots(options.roots)
    vanished: tuple[str, ...] = ()
    if missing:  # a folder scanned before and gone now leaves the results; one never scanned is a typo
        stored = store.files.known()
        vanished = tuple(root for root in missing if any(_under(path, (root,)) for path in stored))
        typos = [root for root in missing if root not in vanished]
        if typos:
            raise ValueError(translate("Errors", "No such folder or file: {path}").format(path=typos[0]))
    languages = options.ocr
    if languages and (problem := unavailable(languages)):
        raise ValueError(localize("Problem", problem))
    scheme = Scheme.current()
    reset = store.ensure_scheme(scheme)
    store.contents.forget_damaged()  # a damaged row's files are read again, as new
    known = store.files.known()

    # discover
    entries: list[FileEntry] = []
    walk_problems: list[WalkProblem] = []
    database = _database_files(store.path)
    for item in discover(
        roots,
        include=options.include,
        exclude=options.exclude,
        hidden=options.hidden,
        kinds=options.kinds if languages else options.kinds & READ_WITHOUT_OCR,
        progress=progress,
        cancel=cancel,
    ):
        if isinstance(item, WalkProblem):
            walk_problems.append(item)
        elif item.path not in database:  # a database named notes.txt in a scanned folder is no document
            entries.append(item)
    if options.check_memory:  # before anything is read or written: a scan that would run out never starts
        ahead = forecast(len(entries), options.workers, options.memory_budget)
        if ahead.short:
            raise MemoryShort(ahead)

    writer = _Writer(store)
    spill_folder = ""
    writer.add(
        [
            FileRecord(
                p.path, 0, 0, "folder" if os.path.isdir(p.path) else "file", status=Status.UNREADABLE, message=p.message
            )
            for p in walk_problems
        ]
    )
    # failures that may not happen again are read again: with a longer time limit, or when asked to
    retry = {
        cid
        for cid, limit in store.contents.transient_failures().items()
        if options.retry_failed or (limit > 0 and options.file_timeout > limit)
    }
    if languages:  # and scans read before without OCR (or in other languages)
        retry |= store.ocr.awaiting(tag(languages))
    todo = [e for e in entries if not _unchanged(known.get(e.path), e) or known[e.path].content_id in retry]
    unchanged = len(entries) - len(todo)

    try:
        # read: hash what changed, reuse what is already known
        by_hash: dict[bytes, list[FileEntry]] = defaultdict(list)
        done_bytes = done = 0
        progress(ProgressEvent("read", 0, len(todo)))
        for entry in todo:
            if entry.size > options.max_file_size:
                done += 1
                writer.add(
                    [
                        FileRecord(
                            entry.path,
                            entry.size,
                            entry.mtime_ns,
                            entry.kind,
                            status=Status.TOO_LARGE,
                            message=too_large_message(options.max_file_size),
                        )
                    ]
                )
        batches = _hash_batches([e for e in todo if e.size <= options.max_file_size])
        for batch, digests in Workers(options.workers).map(hash_files, batches, cancel=cancel):
            for entry, digest in zip(batch, digests, strict=True):
                if isinstance(digest, bytes):
                    done_bytes += entry.size
                    by_hash[digest].append(entry)
                else:
                    writer.add(
                        [
                            FileRecord(
                                entry.path,
                                entry.size,
                                entry.mtime_ns,
                                entry.kind,
                                status=Status.UNREADABLE,
                                message=digest,
                            )
                        ]
                    )
            done += len(batch)
            progress(ProgressEvent("read", done, len(todo), current=batch[-1].path, bytes_done=done_bytes))
        progress(ProgressEvent("read", len(todo), len(todo), bytes_done=done_bytes))
        for files in by_hash.values():  # the same bytes are read as their first file by path (the workers
            files.sort(key=lambda f: f.path)  # hash in any order): its kind, whatever the others' names
        stored_contents = {digest: cid for digest, cid in store.contents.ids_for(by_hash).items() if cid not in retry}
        reused = 0
        for digest in stored_contents:
            files = by_hash.pop(digest)
            reused += len(files)
            writer.add([FileRecord(f.path, f.size, f.mtime_ns, f.kind, content_hash=digest) for f in files])

        # fingerprint: each distinct new content once, small texts several to a task
        spill_folder = spill.new_folder(str(Path(store.path).resolve().parent))
        tasks = [
            ExtractTask(files[0].path, files[0].kind, digest, scheme, files[0].size, spill_folder)
            for digest, files in by_hash.items()
        ]
        if len(tasks) >= _WRITER_PROCESS_CONTENTS:
            writer.hand_over()
        total = len(tasks)
        progress(ProgressEvent("fingerprint", 0, total))
        extracted = fp_bytes = copies = 0
        scans: list[tuple[ExtractTask, int]] = []  # (a scan's content, its pages) for OCR to read
        with WorkerPool(max(1, options.workers), memory_limit=options.reader_memory or default_reader_memory()) as pool:
            results = run_in_batches(
                pool, extract_task, extract_batches(tasks), timeout=options.file_timeout, cancel=cancel
            )
            for done, (task, outcome) in enumerate(results, start=1):
                files = by_hash[task.expected_hash]
                fp_bytes += files[0].size
                progress(ProgressEvent("fingerprint", done, total, current=task.path, bytes_done=fp_bytes))
                copies += len(files) - 1
                if isinstance(outcome, Fingerprint):
                    extracted += 1
                    writer.add(
                        [
                            FileRecord(f.path, f.size, f.mtime_ns, f.kind, content_hash=task.expected_hash)
                            for f in files
                        ],
                        outcome,
                    )
                    if languages and awaits_ocr(outcome, languages):
                        scans.append((task, max(1, outcome.pages)))
                elif isinstance(outcome, TaskFailed):
                    # the bytes broke or hung the reader: remembered, so a rescan skips them, as a failure
                    # that is tried again with a longer time limit or when asked (memory may be free then)
                    writer.add(
                        [
                            FileRecord(f.path, f.size, f.mtime_ns, f.kind, content_hash=task.expected_hash)
                            for f in files
                        ],
                        transient_failure(task, outcome, options.file_timeout),
                    )
                else:
                    writer.add(
                        [
                            FileRecord(
                                f.path, f.size, f.mtime_ns, f.kind, status=outcome.status, message=outcome.message
                            )
                            for f in files
                        ]
                    )
            if scans:
                writer.flush()  # the scans' rows are written: OCR's results update them, from here
                _read_scans(
                    store,
                    pool,
                    scans,
                    by_hash,
                    languages,
                    scheme,
                    options.file_timeout,
                    progress=progress,
                    cancel=cancel,
                )
        progress(ProgressEvent("save", 0, None))  # the last results written (a writer process may lag behind)
        writer.flush()
    except JobCancelled:
        writer.flush()
        raise
    finally:
        writer.close()
        if spill_folder:  # written: what the workers put aside is not needed any more
            spill.forget(spill_folder)

    # index: forget files that are gone from the roots walked
    progress(ProgressEvent("index", 0, 1))
    seen = {e.path for e in entries} | {p.path for p in walk_problems}
    gone = [path for path in known if path not in seen and _under(path, roots + vanished)]
    removed = store.files.remove(gone)
    progress(ProgressEvent("index", 1, 1))
    found = len(entries)
    # what the read held for every file goes before the analysis (half a GB at a million files)
    del entries, todo, batches, by_hash, tasks, known, seen, gone
    refresh_boilerplate(store, scheme, workers=workers or Workers(options.workers), progress=progress, cancel=cancel)
    problems = sum(1 for d in store.files.problem_documents() if _under(d.path, roots))
    return ScanSummary(
        roots,
        found,
        unchanged,
        reused,
        extracted,
        removed,
        problems,
        time.monotonic() - started,
        fingerprints_reset=reset,
        vanished_roots=vanished,
        copies=copies,
    )


@dataclass
class PagesRead:
    """What OCR made of scans' pages as their outcomes come in (from a page task, ``read_page``): each
    page's text, the pages it could not read (and the time limit one ran out of: it may be read again), the
    scans that changed meanwhile. The desktop's scan and the Spark job's executors read scans alike."""

    languages: str
    scheme: Scheme
    timeout: float  # seconds a page's worker may take
    texts: dict[bytes, dict[int, str]] = field(default_factory=lambda: defaultdict(dict))
    failed: dict[bytes, list[tuple[int, str]]] = field(default_factory=lambda: defaultdict(list))
    transient: dict[bytes, float] = field(default_factory=dict)  # a page ran out of time (its limit) or crashed
    changed: set[bytes] = field(default_factory=set)

    def to_read(self, scans: Sequence[tuple[ExtractTask, int]]) -> list[PageTask]:
        """The pages of ``scans`` (each with its number of pages) not read yet."""
        limit = max(1.0, 0.9 * self.timeout)  # Tesseract stops first, so the page is named, not only the worker
        return [
            PageTask(task.path, task.kind, task.expected_hash, task.size, page, self.languages, limit)
            for task, pages in scans
            for page in range(pages)
            if page not in self.texts[task.expected_hash]
        ]

    def add(self, page: PageTask, outcome: object) -> str | None:
        """Take in one page's outcome; its text, when OCR read it."""
        digest = page.expected_hash
        if isinstance(outcome, TaskFailed):
            self.failed[digest].append((page.page + 1, outcome.reason))
            self.transient[digest] = max(self.transient.get(digest, 0.0), self.timeout if outcome.timed_out else 0.0)
        elif isinstance(outcome, PageText) and outcome.changed:
            self.changed.add(digest)
        elif isinstance(outcome, PageText) and outcome.failed:
            self.failed[digest].append((page.page + 1, outcome.failed))
            if outcome.timed_out:
                self.transient[digest] = max(self.transient.get(digest, 0.0), self.timeout)
        elif isinstance(outcome, PageText):
            self.texts[digest][page.page] = outcome.text
            return outcome.text
        return None

    def scan_text(self, task: ExtractTask, pages: int) -> ScanText:
        """A scan's pages as read, to be fingerprinted (``fingerprint_scan``)."""
        digest = task.expected_hash
        return ScanText(
            digest,
            task.kind,
            tuple(self.texts[digest].get(n, "") for n in range(pages)),
            tuple(sorted(self.failed[digest])),
            self.languages,
            self.scheme,
            self.transient.get(digest),
        )


def _read_scans(
    store: Store,
    pool: WorkerPool,
    scans: list[tuple[ExtractTask, int]],
    by_hash: dict[bytes, list[FileEntry]],
    languages: str,
    scheme: Scheme,
    timeout: float,
    *,
    progress: Progress,
    cancel: CancelToken,
) -> None:
    """The OCR phase: every page of each scan not read before is read by Tesseract in the pool (a page a
    task; progress in pages), each page's text kept as it comes (at least every second), so a cancelled
    or killed scan goes on from there; then each scan's text is fingerprinted in the pool and written.
    A page OCR cannot read is named in the scan's message; one that ran out of time or crashed its worker
    marks the scan to be read again (with a longer limit, or when asked: its other pages are kept); a scan
    that changed meanwhile says so (the next scan reads it)."""
    read = PagesRead(languages, scheme, timeout)
    for task, _ in scans:
        read.texts[task.expected_hash] = store.ocr.pages(task.expected_hash, languages)
    todo = read.to_read(scans)
    unsaved: list[tuple[bytes, str, int, str]] = []
    saved_at = time.monotonic()
    progress(ProgressEvent("ocr", 0, len(todo)))
    try:
        results = run_in_batches(pool, read_page, [(page,) for page in todo], timeout=timeout, cancel=cancel)
        for done, (page, outcome) in enumerate(results, start=1):
            if (page_text := read.add(page, outcome)) is not None:
                unsaved.append((page.expected_hash, languages, page.page, page_text))
            if unsaved and time.monotonic() - saved_at > _BATCH_SECONDS:
                store.ocr.save(unsaved)
                unsaved, saved_at = [], time.monotonic()
            progress(ProgressEvent("ocr", done, len(todo), current=page.path))
    finally:
        if unsaved:
            store.ocr.save(unsaved)
    for digest in read.changed:
        store.write_batch(
            [],
            [
                FileRecord(f.path, f.size, f.mtime_ns, f.kind, status=Status.ERROR, message=CHANGED_DURING_SCAN)
                for f in by_hash[digest]
            ],
        )
    texts = [read.scan_text(task, pages) for task, pages in scans if task.expected_hash not in read.changed]
    for text, fingerprint in run_in_batches(
        pool, fingerprint_scan, [(t,) for t in texts], timeout=timeout, cancel=cancel
    ):
        if isinstance(fingerprint, Fingerprint):
            store.write_batch(
                [fingerprint],
                [
                    FileRecord(f.path, f.size, f.mtime_ns, f.kind, content_hash=text.expected_hash)
                    for f in by_hash[text.expected_hash]
                ],
            )


def refresh_boilerplate(
    store: Store,
    scheme: Scheme,
    *,
    workers: Workers = IN_THIS_PROCESS,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> None:
    """Find the collection's boilerplate again if its contents changed since it was last found
    (phase "boilerplate"). A scan killed here leaves the old analysis, marked stale by its digest."""
    progress(ProgressEvent("boilerplate", 0, None))  # the phase starts here, before its first pass's batch ends
    ids = store.contents.ok_ids()
    digest = collection_digest(scheme.to_json(), ids)
    if store.boilerplate.digest() == digest:
        progress(ProgressEvent("boilerplate", 1, 1))
        return
    # short texts are shingled by characters: their common trigrams are spelling, not passages
    load = ShinglesOf(str(store.path)) if workers.pooled else store.contents.shingles_and_edges
    store.boilerplate.save(
        analyse(
            store.contents.ok_ids(word_shingled_only=True),
            load,
            digest,
            shingle_size=scheme.shingle_size,
            edge_window=scheme.edge_window,
            num_perm=scheme.num_perm,
            seed=scheme.seed,
            workers=workers,
            progress=progress,
            cancel=cancel,
        )
    )


def _unchanged(known: KnownFile | None, entry: FileEntry) -> bool:
    if known is None or known.size != entry.size or known.mtime_ns != entry.mtime_ns:
        return False
    return known.content_id is not None or known.status == Status.TOO_LARGE


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)
