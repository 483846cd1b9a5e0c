"""The near-duplicate job on Apache Spark: the desktop engine's answer for collections larger than one
machine.

Stages, each a distributed step over the same functions the desktop runs:

1. **Read**: a local folder is walked by the driver with the app's own rules (``discover``) and its
   files are read in the executors, each partition's files in a child process (``pool.run_in_batches``,
   small texts a batch at a time as a scan reads them: a reader that crashes, hangs or runs out of memory
   costs its file, as on the desktop); a URI
   (``hdfs://``, ``s3a://``…) is read with Spark's ``binaryFile`` source; a Parquet or JSON-lines table
   of (path, text) is fingerprinted as text. Fingerprints: ``fingerprint.fingerprint_bytes`` /
   ``fingerprint_text`` under ``Scheme.current()``, byte for byte the desktop's.
2. **Boilerplate** (``boilerplate.py``): the analysis of ``core.boilerplate`` as distributed counts: frequent
   shingles, the passages at each document's edges (``edge_run``), the family test of each popular passage on
   the driver (``is_boilerplate``, on the same order-free sample), and the cores (``core_of``); brought up to
   date from the ``--previous`` result's where it can.
3. **Candidates** and 4. **Verification** (``pairing.py``): one text per normalised text; the pairs the
   desktop's forests are built from (MinHash bands of its layout, kept by its estimate bar; SimHash
   pairs within K), found on the driver by the desktop's own searches up to ``ON_DRIVER_TEXTS`` texts
   and by keys past it; each measured exactly in its component's task (Jaccard of the shingle sets
   compared, cores where boilerplate is ignored), kept by the desktop's rules (J >= T for MinHash;
   within K and J >= SIMHASH_MIN_JACCARD for SimHash). A rerun measures only the candidates with a text the
   ``--previous`` result did not compare alike; the others keep its verdict.
5. **Components**: large-star / small-star rounds (``components.py``), checked.
6. **Result**: Parquet tables (documents, pairs, groups), the JSON report of the contract (built by
   ``core.report`` from the same records as the desktop's), and what ``neardup import-spark`` loads
   into a database the app reviews (``core.spark_result``).

Memory per document, by stage (about 15 KB of text, 3,000 shingles): reading holds one file and its
fingerprint (~12 KB: shingles 4 bytes each, a 512-byte signature, 2 KB of edges); the candidates take
about 600 bytes a text on the driver (up to ON_DRIVER_TEXTS) or, past it, one key and signature per
band (~20 x 0.5 KB) or key and fingerprint per SimHash table (16 bytes each) in shuffles; verification
sends each text's shingle set once to its component's task; the components hold 16 bytes an edge. The
driver also collects the frequent shingles, each popular passage's sample and the documents of the
JSON report.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.fingerprint import minhash
from ..core.fingerprint.ocr import awaits_ocr, fingerprint_scan, read_page, unavailable
from ..core.fingerprint.scheme import Scheme, fingerprint_bytes, fingerprint_text, raw_hash
from ..core.i18n import localize, translate
from ..core.jobs import Progress, ProgressEvent, no_progress
from ..core.match.boilerplate import Core, core_set
from ..core.models import (
    Extracted,
    FileEntry,
    Fingerprint,
    Status,
    display_path,
)
from ..core.read.discover import WalkProblem, discover, resolve_roots
from ..core.read.extract import KINDS, READ_WITHOUT_OCR, kind_of
from ..core.scan import (
    CHANGED_DURING_SCAN,
    ExtractTask,
    FileFailure,
    PagesRead,
    extract_batches,
    extract_task,
    hash_file,
    read_error_message,
    too_large_message,
    transient_failure,
)
from ..core.workers.pool import TaskFailed, WorkerPool, default_reader_memory, run_in_batches, run_isolated
from . import pairing
from .boilerplate import counted, find_boilerplate, shingles_edges
from .components import connected_components
from .out import ResultFolder, is_uri, warm_up
from .previous import Previous
from .previous import load as load_previous

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import SparkSession

from .records import Compared, FoundFile, JobOptions, JobSummary, Source, compared_digest

_FILES_PER_PARTITION = 2000
_TEXT_SOURCES = (".parquet", ".jsonl", ".json", ".ndjson")


# -- read ----------------------------------------------------------------------------------------
def is_table(source: str) -> bool:
    """Whether ``source`` names a table of (path, text) rather than a folder of documents."""
    return source.rstrip("/").lower().endswith(_TEXT_SOURCES)


def fingerprint_files(
    entries: Iterable[tuple[str, int, int, str]],
    scheme: Scheme,
    max_file_size: int,
    file_timeout: float,
    reader_memory: int | None,
    ocr: str = "",
) -> Iterator[FoundFile]:
    """Executor side: the files of one partition (path, size, mtime_ns, kind), hashed here and read in a
    child process, each distinct content once (as the first of its files by path, as a scan reads it); with
    ``ocr`` (Tesseract's languages), the scans among them read by OCR after."""
    by_hash: dict[bytes, list[tuple[str, int, int, str]]] = defaultdict(list)
    for entry in sorted(entries):
        path, size, _mtime_ns, kind = entry
        if size > max_file_size:
            yield FoundFile(*entry, Fingerprint(b"", kind, Status.TOO_LARGE, too_large_message(max_file_size)))
            continue
        try:
            digest = hash_file(path)
        except OSError as exc:
            yield FoundFile(*entry, Fingerprint(b"", kind, Status.UNREADABLE, read_error_message(exc)))
            continue
        by_hash[digest].append(entry)
    tasks = [ExtractTask(files[0][0], files[0][3], digest, scheme, files[0][1]) for digest, files in by_hash.items()]
    if not tasks:
        return
    scans: list[tuple[ExtractTask, int]] = []
    # small texts in batches, as a scan reads them (a message and a wake-up of this process a batch, 5 % of the
    # read's time), run again one by one where a batch failed
    with WorkerPool(1, memory_limit=reader_memory or default_reader_memory()) as pool:
        for task, outcome in run_in_batches(pool, extract_task, extract_batches(tasks), timeout=file_timeout):
            fp = _outcome(task, outcome, file_timeout)
            if ocr and awaits_ocr(fp, ocr):
                scans.append((task, max(1, fp.pages)))
                continue
            for entry in by_hash[task.expected_hash]:
                yield FoundFile(*entry, fp)
    for task, fp in _read_scans(scans, ocr, scheme, file_timeout, reader_memory):
        for entry in by_hash[task.expected_hash]:
            yield FoundFile(*entry, fp)


def _read_scans(
    scans: list[tuple[ExtractTask, int]], languages: str, scheme: Scheme, file_timeout: float, reader_memory: int | None
) -> Iterator[tuple[ExtractTask, Fingerprint]]:
    """Executor side: the scans' pages read by Tesseract, a page at a time in a child process (as the
    desktop's pool reads them), then each scan's text fingerprinted; on a node without Tesseract or these
    languages' data, each scan says what to install."""
    if not scans:
        return
    problem = unavailable(languages)
    if problem is not None:
        for task, _pages in scans:
            yield task, Fingerprint(b"", task.kind, Status.ERROR, problem)
        return
    read = PagesRead(languages, scheme, file_timeout)
    pages = read.to_read(scans)
    for page, outcome in run_isolated(
        read_page, pages, workers=1, timeout=file_timeout, memory_limit=reader_memory or default_reader_memory()
    ):
        read.add(page, outcome)
    for task, count in scans:
        if task.expected_hash in read.changed:
            yield task, Fingerprint(b"", task.kind, Status.ERROR, CHANGED_DURING_SCAN)
        else:
            yield task, fingerprint_scan(read.scan_text(task, count))


def _outcome(task: ExtractTask, outcome: Any, file_timeout: float) -> Fingerprint:
    if isinstance(outcome, TaskFailed):
        return transient_failure(task, outcome, file_timeout)
    if isinstance(outcome, FileFailure):
        return Fingerprint(b"", task.kind, outcome.status, outcome.message)
    assert isinstance(outcome, Fingerprint)
    return outcome


@dataclass(frozen=True, slots=True)
class _BytesTask:
    path: str
    kind: str
    data: bytes
    scheme: Scheme


def _fingerprint_data(task: _BytesTask) -> Fingerprint:
    return fingerprint_bytes(task.kind, task.data, task.scheme)


def fingerprint_blobs(
    rows: Iterable[tuple[str, int, int, bytes | None]],
    scheme: Scheme,
    max_file_size: int,
    file_timeout: float,
    reader_memory: int | None,
) -> Iterator[FoundFile]:
    """Executor side: files Spark read (path, size, mtime_ns, bytes), fingerprinted in a child process."""
    tasks: list[tuple[tuple[str, int, int, str], _BytesTask]] = []
    for path, size, mtime_ns, data in rows:
        kind = kind_of(path) or "text"
        if size > max_file_size or data is None:
            yield FoundFile(
                path, size, mtime_ns, kind, Fingerprint(b"", kind, Status.TOO_LARGE, too_large_message(max_file_size))
            )
            continue
        tasks.append(((path, size, mtime_ns, kind), _BytesTask(path, kind, bytes(data), scheme)))
    entry_of = {id(task): entry for entry, task in tasks}
    for task, outcome in run_isolated(
        _fingerprint_data,
        [t for _e, t in tasks],
        workers=1,
        timeout=file_timeout,
        memory_limit=reader_memory or default_reader_memory(),
    ):
        entry = entry_of[id(task)]
        if isinstance(outcome, TaskFailed):
            fake = ExtractTask(task.path, task.kind, raw_hash(task.data), scheme, len(task.data))
            yield FoundFile(*entry, _outcome(fake, outcome, file_timeout))
        else:
            yield FoundFile(*entry, outcome)


_NO_TEXT = "The table has no text for this path."
_NOT_TEXT = "The table's text for this path is not text but {type}."


def fingerprint_texts(rows: Iterable[tuple[str, Any]], scheme: Scheme, max_file_size: int) -> Iterator[FoundFile]:
    """Executor side: rows of a (path, text) table, fingerprinted as the text of a document (one past
    ``max_file_size`` bytes is a problem, as a file past it is)."""
    for path, text in rows:
        if text is None:
            yield FoundFile(path, 0, 0, "text", Fingerprint(b"", "text", Status.EMPTY, _NO_TEXT))
            continue
        if not isinstance(text, str):
            yield FoundFile(
                path, 0, 0, "text", Fingerprint(b"", "text", Status.ERROR, _NOT_TEXT.format(type=type(text).__name__))
            )
            continue
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > max_file_size:
            yield FoundFile(
                path, len(data), 0, "text", Fingerprint(b"", "text", Status.TOO_LARGE, too_large_message(max_file_size))
            )
            continue
        extracted = Extracted(Status.OK, text=text, encoding="utf-8")
        yield FoundFile(path, len(data), 0, "text", fingerprint_text(raw_hash(data), "text", extracted, scheme))


_CORRUPT = "_neardup_unreadable_line"


def resolve_source(source: str) -> Source:
    """The source's kind and root: a folder is resolved as the app resolves roots (``~``, links), and
    one that does not exist is refused."""
    if is_table(source):
        return Source("table", source if is_uri(source) else os.path.realpath(os.path.expanduser(source)))
    if is_uri(source):
        return Source("uri", source)
    return Source("folder", resolve_roots((source,))[0])


def read_documents(
    spark: SparkSession, options: JobOptions, scheme: Scheme, previous: Previous | None = None
) -> tuple[RDD, Source, int, int]:
    """Every document of the source as a FoundFile (problems included), in partitions, the source, how many
    files' fingerprints came from the ``previous`` result (a folder's files found there unchanged), and how
    many documents there are (the passes after the read are cut by it)."""
    sc = spark.sparkContext
    least = 2 * sc.defaultParallelism
    source = resolve_source(options.source)

    def partitions(count: int) -> int:
        return options.partitions or max(least, -(-count // _FILES_PER_PARTITION))

    if source.kind == "table":
        if source.root.rstrip("/").lower().endswith(".parquet"):
            # read row by row: the vectorised reader holds 4,096 rows of a column at once, 80 MB of 20 KB
            # texts, and ran a 1 GB JVM out of memory on 20,000 of them
            spark.conf.set("spark.sql.parquet.enableVectorizedReader", "false")
            frame = spark.read.parquet(source.root)
        else:  # a text longer than Jackson's 20 M characters would otherwise be a corrupt record, its row lost
            longest = min(2 * options.max_file_size + (1 << 20), 2**31 - 1)  # Spark reads it as a 32-bit int
            frame = (
                spark.read.option("maxStringLen", str(longest))
                .option("columnNameOfCorruptRecord", _CORRUPT)
                .json(source.root)
            )
        missing = {"path", "text"} - set(frame.columns)
        if missing:
            raise ValueError(
                f"{options.source}: a table needs the columns path and text; it has no {', '.join(sorted(missing))}"
            )
        if _CORRUPT in frame.columns:
            frame = frame.cache()  # Spark reads the corrupt-record column only from a cached frame
            unreadable = frame.filter(frame[_CORRUPT].isNotNull()).count()
            frame = frame.filter(frame[_CORRUPT].isNull())
        else:
            unreadable = 0
        # counted and made one row a path in the JVM: the texts go to Python once, to be fingerprinted
        from pyspark import StorageLevel
        from pyspark.sql import functions as sql

        path = sql.col("path")
        has_path = (path.isNotNull() & (path != "")) if dict(frame.dtypes)["path"] == "string" else sql.lit(False)
        counted = frame.agg(sql.count(sql.lit(1)), sql.count(sql.when(has_path, 1))).first()
        assert counted is not None  # an aggregate has its one row
        total, with_path = int(counted[0]), int(counted[1])
        # one row a path: the smallest text where a path repeats (a text before none), so that every run reads
        # the same one
        unique = (
            frame.filter(has_path)
            .groupBy("path")
            .agg(sql.min("text").alias("text"))
            .repartition(partitions(with_path))
            .persist(StorageLevel.DISK_ONLY)
        )
        count = unique.count()
        source = Source("table", source.root, total - with_path, with_path - count, unreadable)
        limit = options.max_file_size
        return (
            unique.rdd.map(tuple).mapPartitions(lambda part: fingerprint_texts(part, scheme, limit)),
            source,
            0,
            count,
        )
    limits = (options.max_file_size, options.file_timeout, options.reader_memory)
    if source.kind == "uri":
        if options.ocr:
            raise ValueError(
                translate(
                    "Errors",
                    "{path}: OCR reads the scans of a folder the executors reach; a URI's files are read without it",
                ).format(path=display_path(options.source))
            )
        # listed without their bytes (Spark reads "content" only where it is selected): files over the
        # limit are never read, and partitions hold about 128 MB of bytes at most
        listing = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(source.root)
        limit = options.max_file_size

        def listed(r: Any) -> tuple[str, int, int]:
            return r[0], int(r[2]), int(r[1].timestamp() * 1_000_000) * 1000

        meta = (
            listing.select("path", "modificationTime", "length")
            .rdd.map(listed)
            .filter(lambda r: kind_of(r[0]) in READ_WITHOUT_OCR)
            .cache()
        )
        count, held = meta.map(lambda r: (1, min(r[1], limit))).fold((0, 0), lambda x, y: (x[0] + y[0], x[1] + y[1]))
        too_large = meta.filter(lambda r: r[1] > limit).map(
            lambda r: FoundFile(
                r[0],
                r[1],
                r[2],
                kind_of(r[0]) or "text",
                Fingerprint(b"", kind_of(r[0]) or "text", Status.TOO_LARGE, too_large_message(limit)),
            )
        )
        blobs = (
            listing.filter(listing.length <= limit)
            .select("path", "modificationTime", "length", "content")
            .rdd.map(lambda r: (*listed(r), r[3]))
            .filter(lambda r: kind_of(r[0]) in READ_WITHOUT_OCR)
        )
        spread = max(partitions(count), held // (128 << 20) + 1)
        return (
            blobs.repartition(spread)
            .mapPartitions(lambda part: fingerprint_blobs(part, scheme, *limits))
            .union(too_large),
            source,
            0,
            count,
        )
    walked = list(
        discover(
            (source.root,),
            include=options.include,
            exclude=options.exclude,
            hidden=options.hidden,
            kinds=KINDS if options.ocr else READ_WITHOUT_OCR,  # images are read only by OCR
        )
    )
    entries = [(e.path, e.size, e.mtime_ns, e.kind) for e in walked if isinstance(e, FileEntry)]
    problems = [
        FoundFile(
            p.path,
            0,
            0,
            "folder" if os.path.isdir(p.path) else "file",
            Fingerprint(b"", "file", Status.UNREADABLE, p.message),
        )
        for p in walked
        if isinstance(p, WalkProblem)
    ]
    ocr = options.ocr
    unchanged = previous.unchanged(entries) if previous is not None else set()
    todo = [e for e in entries if e[:3] not in unchanged] if unchanged else entries
    found = sc.parallelize(todo, partitions(len(todo))).mapPartitions(
        lambda part: fingerprint_files(part, scheme, *limits, ocr)
    )
    if unchanged:
        assert previous is not None
        found = found.union(previous.reused(spark, unchanged))
    found_all = found.union(sc.parallelize(problems, 1)) if problems else found
    return found_all, source, len(unchanged), len(entries) + len(problems)


_FILES_PER_PASS = 5000
"""Documents a task of a pass after the read takes at most (the read's tasks take _FILES_PER_PARTITION, so
that its children's work is shared evenly): each task costs ~50 ms besides its work, and of 20 passes
or so at 20,000 documents, 10 tasks each took 5 s longer than 4."""


def pass_partitions(documents: int, cores: int) -> int:
    """The partitions of the passes after the read of ``documents`` (and of their shuffles), on a cluster of
    ``cores`` cores: as many as hold _FILES_PER_PASS documents each, at least two a core, a multiple of the
    cores."""
    wanted = max(2 * cores, -(-documents // _FILES_PER_PASS))
    return -(-wanted // cores) * cores


ON_DRIVER_COPIES = 250_000
"""Contents of several files whose first file the driver holds (a hash and a path each, ~200 bytes), so that
the copies are left out by a filter; past it they are left out through a shuffle of every fingerprint."""


def _merged(x: tuple[frozenset[str], int, str], y: tuple[frozenset[str], int, str]) -> tuple[frozenset[str], int, str]:
    return x[0] | y[0], x[1] + y[1], min(x[2], y[2])


def one_fingerprint_a_content(files: RDD, parts: int) -> tuple[RDD, dict[bytes, str] | None]:
    """The files with the fingerprint a scan gives their content: the same bytes are read once, as the
    first of their files by path, whatever the other names' kinds, so every file of a content has its
    status and text. Executors read each partition's copies apart; only bytes found under names of
    different kinds can disagree, and only those (rare) are looked for and set right, so the
    fingerprints are not shuffled. And the first path of each content of several files (None past
    ON_DRIVER_COPIES of them), found by the same pass."""
    hashed = files.filter(lambda f: bool(f.fingerprint.raw_hash))
    shared = (
        hashed.map(lambda f: (f.fingerprint.raw_hash, (frozenset((f.kind,)), 1, f.path)))
        .reduceByKey(_merged, parts)
        .filter(lambda hk: hk[1][1] > 1)
        .cache()
    )
    mixed = set(shared.filter(lambda hk: len(hk[1][0]) > 1).keys().collect())
    bound = ON_DRIVER_COPIES  # read here: a test sets it
    first: dict[bytes, str] | None = (
        dict(shared.map(lambda hk: (hk[0], hk[1][2])).collect()) if shared.count() <= bound else None
    )
    shared.unpersist()
    if not mixed:
        return files, first
    chosen = files.context.broadcast(
        dict(
            hashed.filter(lambda f: f.fingerprint.raw_hash in mixed)
            .map(lambda f: (f.fingerprint.raw_hash, (f.path, f.fingerprint)))
            .reduceByKey(lambda x, y: x if x[0] <= y[0] else y, parts)
            .mapValues(lambda pf: pf[1])
            .collect()
        )
    )
    return files.map(
        lambda f: (
            dataclasses.replace(f, fingerprint=chosen.value[f.fingerprint.raw_hash])
            if f.fingerprint.raw_hash in chosen.value
            else f
        )
    ), first


def one_file_a_content(ok: RDD, first: dict[bytes, str] | None, parts: int) -> RDD:
    """(raw hash, fingerprint) of each content of the files ``ok``: by its first file where the driver
    holds them (``first``, a filter), else through a shuffle."""
    if first is None:
        return ok.map(lambda f: (f.fingerprint.raw_hash, f.fingerprint)).reduceByKey(lambda a, _b: a, parts)
    first_b = ok.context.broadcast(first)
    return ok.filter(lambda f: first_b.value.get(f.fingerprint.raw_hash, f.path) == f.path).map(
        lambda f: (f.fingerprint.raw_hash, f.fingerprint)
    )


def _without_sequence(f: FoundFile) -> FoundFile:
    """The file without its sequence of shingles (for the app's passage search only: the job never reads it)."""
    return (
        f
        if f.fingerprint.sequence is None
        else dataclasses.replace(f, fingerprint=dataclasses.replace(f.fingerprint, sequence=None))
    )


def _compared(item: tuple[bytes, tuple[Fingerprint, Core | None]]) -> tuple[bytes, Compared]:
    digest, (fp, found) = item
    assert fp.text_hash is not None and fp.simhash is not None and fp.minhash is not None
    if found is None:
        return digest, Compared(digest, fp.text_hash, fp.simhash, fp.minhash, fp.shingle_count, fp.shingles or b"")
    shingles, edges = shingles_edges(fp)
    own = core_set(shingles, edges, found.head_cut, found.tail_cut)
    return digest, Compared(
        digest, fp.text_hash, fp.simhash, found.minhash, found.shingle_count, minhash.pack_shingles(own)
    )


# -- the run --------------------------------------------------------------------------------------
def run(spark: SparkSession, options: JobOptions, *, progress: Progress = no_progress) -> JobSummary:
    """Run the job over ``options.source`` and write its result to ``options.out``."""
    from pyspark import StorageLevel

    ResultFolder(spark, options.out).check()
    if options.ocr and (spark.sparkContext.master or "").startswith("local") and (problem := unavailable(options.ocr)):
        raise ValueError(localize("Problem", problem))  # the executors are this machine: said once, before reading
    scheme = Scheme.current()
    t = options.thresholds
    seconds: dict[str, float] = {}
    clock = time.monotonic()

    def stage(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        seconds[name] = round(now - clock, 2)
        clock = now
        progress(ProgressEvent(name, 1, 1))

    progress(ProgressEvent("read", 0, None))
    warmed = warm_up(spark)
    previous = load_previous(spark, options, scheme, resolve_source(options.source)) if options.previous else None
    read, source, reused, expected = read_documents(spark, options, scheme, previous)
    # Python's records are bytes to the JVM: kept on disk (the system's page cache holds them while memory
    # lasts) rather than in the JVM's heap, where a few copies of every fingerprint ran out of 1 GB at
    # 20,000 documents
    kept = StorageLevel.DISK_ONLY
    read = read.persist(kept)  # read once: the check of kinds and all after it use it
    parts = options.partitions or pass_partitions(expected, spark.sparkContext.defaultParallelism)
    # the review records' fingerprints, read back at the end
    whole, first_of_content = one_fingerprint_a_content(read, parts)  # the first pass: the read, in its partitions
    whole = whole.coalesce(parts)  # each pass after it, in fewer
    # the rest of the job never reads a text's sequence of shingles (the app's passage search does): as
    # large as its set, so not carried through every step
    files = whole.map(_without_sequence).persist(kept)
    documents = files.count()
    ok = files.filter(lambda f: f.fingerprint.status is Status.OK)
    contents = one_file_a_content(ok, first_of_content, parts)
    if first_of_content is None:  # shuffled: kept, not made again by each pass below
        contents = contents.persist(kept)
    content_count, word_count = counted(contents)
    stage("read")

    progress(ProgressEvent("boilerplate", 0, None))
    found, runs_found_again = find_boilerplate(
        contents, scheme, word_count, previous.boilerplate if previous is not None else None
    )
    use_cores = t.ignore_boilerplate and found.cores is not None
    cores = found.cores if use_cores and found.cores is not None else spark.sparkContext.emptyRDD()
    # a content's core where boilerplate is ignored and it has one: else its fingerprint alone, not shuffled
    with_cores = contents.leftOuterJoin(cores, parts) if use_cores else contents.mapValues(lambda fp: (fp, None))
    compared = with_cores.map(_compared).persist(kept)
    affected = cores.count() if use_cores else 0
    stage("boilerplate")

    progress(ProgressEvent("candidates", 0, None))
    # the earlier result's verdicts stand for the pairs of texts it compared alike: only candidates with a
    # text new or compared otherwise are measured
    on_driver = content_count <= pairing.ON_DRIVER_TEXTS
    text_numbers: dict[bytes, int] | None = None  # where the driver numbers the texts
    kept_edges: RDD | None = None
    if on_driver:
        numbered, held, text_numbers, digests = pairing.numbered_on_driver(compared, t)
        texts = numbered.persist(kept)
        text_count = len(text_numbers)
        candidate_count = len(held)
        listed = [(h, digests[tid]) for h, tid in text_numbers.items()]
        compared_texts: RDD | list[tuple[bytes, bytes]] = listed
        new_texts = previous.new_texts(t, dict(listed)) if previous is not None else None
        if new_texts is not None and previous is not None:
            new = np.zeros(text_count, dtype=bool)
            new[[text_numbers[h] for h in new_texts]] = True
            held = held.touching(new)
            kept_edges = previous.edges(text_numbers, new_texts)
    else:
        texts = pairing.number_texts(compared, parts).persist(kept)
        text_count = texts.count()
        compared_texts = texts.map(lambda tc: (tc[1].text_hash, compared_digest(tc[1])))
        all_pairs = pairing.candidates(texts, t, text_count, scheme, parts).persist(StorageLevel.MEMORY_AND_DISK)
        candidate_count = all_pairs.count()
        found_pairs = all_pairs
        new_ids = previous.new_text_ids(t, texts, parts) if previous is not None else None
        if new_ids is not None and previous is not None:
            new_b = spark.sparkContext.broadcast(new_ids)
            found_pairs = all_pairs.filter(lambda p: p[0][0] in new_b.value or p[0][1] in new_b.value)
            kept_edges = previous.edges_of(texts, new_ids, parts)
    stage("candidates")

    progress(ProgressEvent("verify", 0, None))
    if on_driver:
        measured = len(held)
        edges = pairing.verified_on_driver(held, text_count, texts, t, parts)
        del held
    else:
        measured = found_pairs.count() if found_pairs is not all_pairs else candidate_count
        edges = pairing.verified(found_pairs, measured, texts, t, parts)
    if kept_edges is not None:
        edges = edges.union(kept_edges)
    edges = edges.persist(StorageLevel.MEMORY_AND_DISK)
    pair_count = edges.count()
    if not on_driver:
        all_pairs.unpersist()
    stage("verify")

    progress(ProgressEvent("components", 0, None))
    labels = connected_components(edges.map(lambda e: (e[0], e[1])), count=pair_count, partitions=parts)
    stage("components")

    progress(ProgressEvent("write", 0, None))
    warmed()
    from .result import write_result

    summary = write_result(
        spark,
        options,
        source,
        scheme,
        files,
        whole,
        compared,
        texts,
        edges,
        labels,
        found,
        affected,
        seconds=seconds,
        counts=dict(
            documents=documents, contents=content_count, texts=text_count, candidates=candidate_count, pairs=pair_count
        ),
        previous=None
        if previous is None
        else {
            **previous.summary(reused, documents),
            # its boilerplate analysis brought up to date (the runs of so many contents found again), or made afresh
            "boilerplate": "afresh" if runs_found_again is None else "updated",
            "runs_found_again": runs_found_again,
            "candidates_measured": measured,  # the others kept the earlier verdict
        },
        text_numbers=text_numbers,
        compared_texts=compared_texts,
    )
    stage("write")
    return JobSummary(
        seconds=seconds,
        rows_left_out=source.rows_without_path + source.rows_unreadable,
        reused=reused,
        previous_problem=previous.problem if previous is not None else "",
        **summary,
    )
