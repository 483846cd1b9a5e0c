"""What a rerun takes from an earlier result (``--previous DIR``): the fingerprints the earlier job kept of
every document it read, reused for each file found again unchanged (same path, size and modification time)
instead of reading it again; a failure that may not happen again (a time limit, a crash) is read again. And
what its later stages found of the texts found again, so that only what changed is worked out anew:

- ``rerun/verified`` and ``rerun/texts``: the verified pairs, by their texts' hashes, and what was compared of
  each text (a hash of its compared set: its core where boilerplate is cut). Whether two texts are duplicates
  depends on what is compared of them and the thresholds alone, so under the same thresholds a pair of texts
  compared as before keeps its verdict; only the candidates with a text new or cut otherwise are measured.
- ``rerun/counts`` and ``rerun/words``: the boilerplate analysis's document counts of the shingles near its bar
  (every shingle not listed is in fewer than ``below`` of the contents), and the contents they are of (raw and
  text hash), brought up to date from the contents gone and added.
- ``rerun/runs`` and ``rerun/cores``: each content's passages at its edges (which depend on its text and the
  frequent shingles alone) and its core (on those and the passages found to be boilerplate).

A result keeps them as Parquet (the path as bytes: a name that is not UTF-8 stays as it is). They are reused
only where the earlier job read as this one does (the same fingerprint scheme, OCR languages and size
limit); otherwise every file is read again and the job says why.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.fingerprint.boilerplate import Core
from ..core.fingerprint.scheme import Scheme
from ..core.fingerprint.simhash import to_signed, to_unsigned
from ..core.i18n import QT_TRANSLATE_NOOP, translate
from ..core.models import Fingerprint, Similarity, Status, Thresholds, display_path
from ..core.store.spark_result import RESULT_FORMAT, RESULT_VERSIONS
from .out import ResultFolder
from .pairing import VERDICTS, Edge
from .records import (
    BoilerplateCounts,
    BoilerplateFound,
    FoundFile,
    JobOptions,
    Run,
    Source,
    compared_digest,
    thresholds_json,
)

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import DataFrame, SparkSession

FINGERPRINTS = "fingerprints"
SCHEMA = (
    "path binary, size long, mtime_ns long, kind string, raw_hash binary, read_as string, status string, "
    "message string, encoding string, pages long, chars long, text_hash binary, simhash long, minhash binary, "
    "shingle_count long, shingles binary, short_text boolean, edges binary, sequence binary, keywords string"
)
_KEYS = ("path", "size", "mtime_ns")
ROW_GROUP = 16 << 20
"""Bytes of the fingerprints table's row groups, each held whole in the JVM's heap while it is written."""
RERUN = "rerun"
VERIFIED = f"{RERUN}/verified"
VERIFIED_SCHEMA = (
    "text_a binary, text_b binary, hamming int, jaccard_estimate double, jaccard double, containment_ab double, "
    "containment_ba double, by_simhash boolean, by_minhash boolean, exact_jaccard double"
)
COUNTS = f"{RERUN}/counts"
COUNTS_SCHEMA = "shingle long, contents long"
RUNS = f"{RERUN}/runs"
RUNS_SCHEMA = "raw_hash binary, head_key long, tail_key long, head_cut long, tail_cut long, own_count long, own binary"
TEXTS = f"{RERUN}/texts"
TEXTS_SCHEMA = "text_hash binary, compared binary"
WORDS = f"{RERUN}/words"
WORDS_SCHEMA = "raw_hash binary, text_hash binary"
CORES = f"{RERUN}/cores"
CORES_SCHEMA = "raw_hash binary, shingle_count long, minhash binary, head_cut long, tail_cut long"

READ_OTHERWISE = QT_TRANSLATE_NOOP(
    "Spark", "{path}: made with other reading settings ({what}); every file is read again"
)
ONLY_FOLDERS = QT_TRANSLATE_NOOP(
    "Spark", "{path}: only a folder's files are reused; a table's rows and a URI's files are read again"
)
NO_FINGERPRINTS = QT_TRANSLATE_NOOP(
    "Spark", "{path}: this result keeps no fingerprints (made by an older neardup); every file is read again"
)


def kept(f: FoundFile) -> bool:
    """Whether a file's fingerprint is kept for a rerun: what its bytes are, not a failure that may not
    happen again (a time limit, a reader that crashed or ran out of memory), which a rerun reads again."""
    return f.fingerprint.transient is None and bool(f.fingerprint.raw_hash)


def to_row(f: FoundFile) -> tuple[Any, ...]:
    """A file and its fingerprint as a row of ``SCHEMA``."""
    fp = f.fingerprint
    return (
        os.fsencode(f.path),
        f.size,
        f.mtime_ns,
        f.kind,
        fp.raw_hash,
        fp.kind,
        str(fp.status),
        fp.message,
        fp.encoding,
        fp.pages,
        fp.chars,
        fp.text_hash,
        None if fp.simhash is None else to_signed(fp.simhash),
        fp.minhash,
        fp.shingle_count,
        fp.shingles,
        fp.short_text,
        fp.edges,
        fp.sequence,
        fp.keywords,
    )


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


def from_row(row: Any) -> FoundFile:
    """The file and fingerprint of a row of ``SCHEMA`` (as ``to_row`` wrote it)."""
    fp = Fingerprint(
        bytes(row.raw_hash),
        row.read_as,
        Status(row.status),
        row.message,
        row.encoding,
        row.pages,
        row.chars,
        _bytes(row.text_hash),
        None if row.simhash is None else to_unsigned(row.simhash),
        _bytes(row.minhash),
        row.shingle_count,
        _bytes(row.shingles),
        row.short_text,
        _bytes(row.edges),
        _bytes(row.sequence),
        row.keywords,
    )
    return FoundFile(os.fsdecode(bytes(row.path)), row.size, row.mtime_ns, row.kind, fp)


def write(spark: SparkSession, files: RDD, place: str) -> None:
    """The fingerprints of ``files`` a rerun may reuse, as a Parquet table at ``place``, in row groups of
    ROW_GROUP bytes: the writer holds one in the JVM's heap, and a task writes 90 MB at 5,000 documents."""
    frame = spark.createDataFrame(files.filter(kept).map(to_row), SCHEMA)
    frame.write.option("parquet.block.size", ROW_GROUP).parquet(place)


def _edge_row(e: Edge) -> tuple[Any, ...]:
    sim = e[2]
    return (
        e[5],
        e[6],
        sim.hamming,
        sim.jaccard_estimate,
        sim.jaccard,
        sim.containment_ab,
        sim.containment_ba,
        *e[3:5],
        e[7],
    )


def _run_row(r: tuple[bytes, Run]) -> tuple[Any, ...]:
    raw, (head_key, tail_key, *rest) = r
    return raw, to_signed(head_key), to_signed(tail_key), *rest


def _run_of(row: Any) -> tuple[bytes, Run]:
    own = bytes(row.own)
    return bytes(row.raw_hash), (
        to_unsigned(row.head_key),
        to_unsigned(row.tail_key),
        row.head_cut,
        row.tail_cut,
        row.own_count,
        own,
    )


def write_rerun(
    spark: SparkSession,
    out: ResultFolder,
    edges: RDD,
    texts: RDD | list[tuple[bytes, bytes]],
    boilerplate: BoilerplateFound,
) -> None:
    """What a rerun reuses of the later stages (the module's ``rerun/`` tables), under ``out``: the verified
    pairs ``edges``, each text's ``compared_digest`` (``texts``: (text hash, digest)), the boilerplate analysis."""
    spark.createDataFrame(edges.map(_edge_row), VERIFIED_SCHEMA).write.parquet(out.child(VERIFIED))
    spark.createDataFrame(texts, TEXTS_SCHEMA).write.parquet(out.child(TEXTS))
    counted = boilerplate.counts
    if counted is None:
        return
    spark.createDataFrame(
        list(zip(counted.shingles.tolist(), counted.counts.tolist(), strict=True)), COUNTS_SCHEMA
    ).write.parquet(out.child(COUNTS))
    if boilerplate.counted is not None:
        spark.createDataFrame(boilerplate.counted, WORDS_SCHEMA).write.parquet(out.child(WORDS))
    runs = boilerplate.runs if boilerplate.runs is not None else spark.sparkContext.emptyRDD()
    spark.createDataFrame(runs.map(_run_row), RUNS_SCHEMA).write.parquet(out.child(RUNS))
    cores = boilerplate.cores if boilerplate.cores is not None else spark.sparkContext.emptyRDD()
    spark.createDataFrame(
        cores.map(lambda rc: (rc[0], rc[1].shingle_count, rc[1].minhash, rc[1].head_cut, rc[1].tail_cut)),
        CORES_SCHEMA,
    ).write.parquet(out.child(CORES))


def rerun_json(boilerplate: BoilerplateFound) -> dict[str, Any]:
    """What job.json says of the ``rerun/`` tables: which texts the shingle counts are of, and the bound below
    which a shingle is not listed."""
    counted = boilerplate.counts
    return {
        "verified": VERIFIED,
        "verdicts": VERDICTS,
        "boilerplate": None
        if counted is None
        else {"words": counted.words, "below": counted.below, "keys": sorted(boilerplate.keys)},
    }


@dataclass(frozen=True, slots=True)
class KeptBoilerplate:
    """An earlier result's boilerplate analysis, as a rerun brings it up to date: the word contents it was
    of (raw hash, text hash), the counts, the frequent shingles, the passages found to be boilerplate, and
    the tables of runs and cores."""

    contents: frozenset[tuple[bytes, bytes]]
    counts: BoilerplateCounts
    frequent: np.ndarray
    keys: frozenset[int]
    runs: DataFrame
    cores: DataFrame
    table: DataFrame  # the earlier result's fingerprints

    def words_of(self, contents: frozenset[tuple[bytes, bytes]]) -> RDD:
        """(raw hash, packed shingle set) of the earlier result's ``contents`` (raw and text hash), each once: only
        those columns are read (a third of the time of every column, at 20,000 documents)."""
        spark = self.table.sparkSession
        chosen = spark.createDataFrame(sorted(contents), "raw_hash binary, text_hash binary")
        rows = self.table.select("raw_hash", "text_hash", "shingles").join(
            broadcast(chosen), ["raw_hash", "text_hash"], "left_semi"
        )
        return rows.rdd.map(lambda r: (bytes(r.raw_hash), bytes(r.shingles or b""))).reduceByKey(lambda a, _b: a)

    def runs_of(self, gone: frozenset[bytes]) -> RDD:
        """(raw hash, Run) of the contents not ``gone``."""
        return self.runs.rdd.map(_run_of).filter(lambda r: r[0] not in gone)

    def cores_of(self, raws: set[bytes]) -> list[tuple[bytes, Core]]:
        """(raw hash, Core) of the contents ``raws`` that had one."""
        if not raws:
            return []
        spark = self.cores.sparkSession
        chosen = spark.createDataFrame([(r,) for r in sorted(raws)], "raw_hash binary")
        return [
            (bytes(r.raw_hash), Core(r.shingle_count, bytes(r.minhash), r.head_cut, r.tail_cut))
            for r in self.cores.join(broadcast(chosen), "raw_hash", "left_semi").collect()
        ]


@dataclass(frozen=True, slots=True)
class Previous:
    """An earlier result's fingerprints, and whether this run may reuse them (``problem`` says why not)."""

    folder: str
    table: DataFrame | None
    problem: str = ""
    job: dict[str, Any] | None = None  # its job.json
    verified: DataFrame | None = None  # its verified pairs by text (None: a result made before they were kept)
    boilerplate: KeptBoilerplate | None = None

    def summary(self, reused: int, documents: int) -> dict[str, Any]:
        """What the job took from this result, for its job.json."""
        return {"folder": self.folder, "reused": reused, "read_again": documents - reused, "problem": self.problem}

    def unchanged(self, entries: Iterable[tuple[str, int, int, str]]) -> set[tuple[str, int, int]]:
        """The (path, size, mtime_ns) of ``entries`` whose fingerprints are kept here. A file whose bytes were
        read as another file's, of another kind (the first by path of that content), is read again: that
        file may be gone, and the job then reads the bytes as this file's own kind."""
        if self.table is None:
            return set()
        wanted = {(path, size, mtime_ns) for path, size, mtime_ns, _kind in entries}
        own = self.table.filter(self.table.read_as == self.table.kind)
        keys = own.select(*_KEYS).collect()  # no fingerprint leaves the executors
        return {key for key in ((os.fsdecode(bytes(r.path)), r.size, r.mtime_ns) for r in keys) if key in wanted}

    def reused(self, spark: SparkSession, keys: set[tuple[str, int, int]]) -> RDD:
        """The kept files of these ``keys`` (path, size, mtime_ns), as FoundFile, in the table's partitions (moving
        them to others cost a shuffle of every fingerprint)."""
        assert self.table is not None
        chosen = spark.createDataFrame(
            [(os.fsencode(p), s, m) for p, s, m in sorted(keys)], "path binary, size long, mtime_ns long"
        )
        # the keys sent to each task (a few MB): else both sides are shuffled, every fingerprint with them (2 to 4 s
        # more at 20,000 documents)
        return self.table.join(broadcast(chosen), list(_KEYS), "left_semi").rdd.map(from_row)

    def compared(self, t: Thresholds) -> DataFrame | None:
        """Each text's ``compared_digest`` in the earlier job, where it judged pairs as this one does (the same
        thresholds and rules, ``VERDICTS``): then a pair of texts compared alike keeps its verdict. None where
        none does."""
        if (
            self.verified is None
            or self.job is None
            or self.job.get("thresholds") != thresholds_json(t)
            or (self.job.get("rerun") or {}).get("verdicts") != VERDICTS
        ):
            return None
        return self.verified.sparkSession.read.schema(TEXTS_SCHEMA).parquet(
            ResultFolder(self.verified.sparkSession, self.folder).child(TEXTS)
        )

    def new_texts(self, t: Thresholds, digests: dict[bytes, bytes]) -> set[bytes] | None:
        """The texts of ``digests`` (text hash: ``compared_digest``) the earlier job did not compare alike, where
        its verdicts hold (``compared``)."""
        table = self.compared(t)
        if table is None:
            return None
        before = {bytes(r.text_hash): bytes(r.compared) for r in table.collect()}
        return {text for text, digest in digests.items() if before.get(text) != digest}

    def new_text_ids(self, t: Thresholds, texts: RDD, parts: int) -> set[int] | None:
        """``new_texts`` where the executors number the texts (``texts``: (id, Compared)): their ids."""
        table = self.compared(t)
        if table is None:
            return None
        before = table.rdd.map(lambda r: (bytes(r.text_hash), bytes(r.compared)))
        return set(
            texts.map(lambda tc: (tc[1].text_hash, (tc[0], compared_digest(tc[1]))))
            .leftOuterJoin(before, parts)
            .filter(lambda x: x[1][1] != x[1][0][1])
            .map(lambda x: x[1][0][0])
            .collect()
        )

    def edges_of(self, texts: RDD, new: set[int], parts: int) -> RDD:
        """``edges`` where the executors number the texts (``texts``: (id, Compared); ``new``: ids)."""
        assert self.verified is not None
        new_b = texts.context.broadcast(new)
        ids = texts.filter(lambda tc: tc[0] not in new_b.value).map(lambda tc: (tc[1].text_hash, tc[0]))
        rows = self.verified.rdd.map(lambda r: (bytes(r.text_a), r))
        return (
            rows.join(ids, parts)
            .map(lambda x: (bytes(x[1][0].text_b), (x[1][1], x[1][0])))
            .join(ids, parts)
            .map(lambda x: _edge_of(x[1][0][1], x[1][0][0], x[1][1]))
        )

    def edges(self, ids: dict[bytes, int], new: set[bytes]) -> RDD:
        """The earlier job's verified pairs of texts both in ``ids`` (each text's id in this run) and neither
        ``new`` (compared otherwise: ``new_texts``), made in the executors (collected, 322,000 of them took 13 s
        of the driver's at 100,000 documents)."""
        assert self.verified is not None
        sc = self.verified.sparkSession.sparkContext
        ids_b, new_b = sc.broadcast(ids), sc.broadcast(new)

        def kept(r: Any) -> list[Edge]:
            text_a, text_b = bytes(r.text_a), bytes(r.text_b)
            a, b = ids_b.value.get(text_a), ids_b.value.get(text_b)
            if a is None or b is None or text_a in new_b.value or text_b in new_b.value:
                return []
            return [_edge_of(r, a, b)]

        return self.verified.rdd.flatMap(kept)


def _edge_of(r: Any, a: int, b: int) -> Edge:
    """A verified pair of the earlier result (a row of ``rerun/verified``), its texts numbered ``a`` and ``b``."""
    assert a < b  # the texts are numbered in text-hash order, in every run
    sim = Similarity(r.hamming, r.jaccard_estimate, r.jaccard, r.containment_ab, r.containment_ba)
    return a, b, sim, r.by_simhash, r.by_minhash, bytes(r.text_a), bytes(r.text_b), r.exact_jaccard


def broadcast(frame: DataFrame) -> DataFrame:
    """``frame`` (keys from the driver) sent whole to the tasks that join it with a table."""
    from pyspark.sql import functions

    return functions.broadcast(frame)


def _kept_boilerplate(
    spark: SparkSession, folder: ResultFolder, job: dict[str, Any], table: DataFrame
) -> KeptBoilerplate | None:
    """The earlier result's boilerplate analysis, where it kept one."""
    said = (job.get("rerun") or {}).get("boilerplate")
    if not said:
        return None
    # collected as they are, and sorted here: a sort or a distinct in Spark is a shuffle more
    counts = spark.read.schema(COUNTS_SCHEMA).parquet(folder.child(COUNTS)).collect()
    shingles = np.array([r.shingle for r in counts], dtype=np.uint32)
    order = np.argsort(shingles)
    words = spark.read.schema(WORDS_SCHEMA).parquet(folder.child(WORDS)).collect()
    return KeptBoilerplate(
        frozenset((bytes(r.raw_hash), bytes(r.text_hash)) for r in words),
        BoilerplateCounts(
            said["words"], said["below"], shingles[order], np.array([r.contents for r in counts], dtype=np.int64)[order]
        ),
        np.array(job["boilerplate"]["shingles"], dtype=np.uint32),
        frozenset(said["keys"]),
        spark.read.schema(RUNS_SCHEMA).parquet(folder.child(RUNS)),
        spark.read.schema(CORES_SCHEMA).parquet(folder.child(CORES)),
        table,
    )


def _differences(job: dict[str, Any], options: JobOptions, scheme: Scheme) -> list[str]:
    """The reading settings of an earlier job (its job.json) that are not this one's, named."""
    differ = []
    if job.get("scheme") != json.loads(scheme.to_json()):
        differ.append(translate("Spark", "the fingerprints of another version"))
    earlier = job.get("options", {})
    if earlier.get("ocr", "") != options.ocr:
        differ.append(translate("Spark", "OCR"))
    if earlier.get("max_file_size") != options.max_file_size:
        differ.append(translate("Spark", "the size limit"))
    return differ


def load(spark: SparkSession, options: JobOptions, scheme: Scheme, source: Source) -> Previous:
    """The earlier result ``options.previous``, for a job over ``source``: ValueError where it is no result at
    all."""
    folder = options.previous
    try:
        job = json.loads(ResultFolder(spark, folder).read_text("job.json"))
    except (OSError, ValueError) as exc:
        raise ValueError(
            translate("Errors", "{path}: not a result of neardup spark scan (no readable job.json: {reason})").format(
                path=display_path(folder), reason=exc
            )
        ) from None
    if not isinstance(job, dict) or job.get("format") != RESULT_FORMAT or job.get("version") not in RESULT_VERSIONS:
        raise ValueError(
            translate("Errors", "{path}: not a result of neardup spark scan").format(path=display_path(folder))
        )
    differ = _differences(job, options, scheme)
    if differ:
        said = translate("Spark", READ_OTHERWISE).format(path=display_path(folder), what=", ".join(differ))
        return Previous(folder, None, said)
    if not job.get("fingerprints"):
        return Previous(folder, None, translate("Spark", NO_FINGERPRINTS).format(path=display_path(folder)))
    if source.kind != "folder":
        return Previous(folder, None, translate("Spark", ONLY_FOLDERS).format(path=display_path(folder)))
    place = ResultFolder(spark, folder)
    table = spark.read.schema(SCHEMA).parquet(place.child(FINGERPRINTS))
    if not job.get("rerun"):  # made before the later stages' findings were kept: the fingerprints alone
        return Previous(folder, table, job=job)
    return Previous(
        folder,
        table,
        job=job,
        verified=spark.read.schema(VERIFIED_SCHEMA).parquet(place.child(VERIFIED)),
        boilerplate=_kept_boilerplate(spark, place, job, table),
    )
