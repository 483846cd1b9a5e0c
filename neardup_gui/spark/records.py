"""The records the Spark job's stages and its result writer share (job.py runs the stages, result.py writes
what they found): the job's options and summary, a file as an executor read it, a content as it is
compared, the source read, the boilerplate found, the numbers of a pair, and the result's description."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.fingerprint import minhash
from ..core.fingerprint.scheme import Scheme
from ..core.fingerprint.simhash import hamming
from ..core.match.matcher import similarity_of
from ..core.models import IDENTICAL, Fingerprint, Similarity, Thresholds
from ..core.store.spark_result import RESULT_FORMAT, RESULT_VERSIONS

if TYPE_CHECKING:
    from pyspark import RDD


REPORTS = ("json", "csv", "html")
"""The reports a result may hold, each ``report.<name>``: by default all of them."""


@dataclass(frozen=True, slots=True)
class JobOptions:
    """What the Spark job reads and how it judges duplicates (the desktop's defaults)."""

    source: str  # a folder, a URI Spark reads (hdfs://, s3a://, file://), or a .parquet / .jsonl table
    out: str  # a folder that does not exist yet (or is empty)
    thresholds: Thresholds = Thresholds()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    hidden: bool = False
    max_file_size: int = 256 * 1024 * 1024
    file_timeout: float = 120.0
    reader_memory: int | None = None
    partitions: int | None = None  # None: the read's one per 2,000 documents, then job.pass_partitions
    ocr: str = ""  # Tesseract's languages ("chi_sim+eng") to read scans with; "" leaves them unread
    previous: str = ""  # an earlier result whose fingerprints of unchanged files are reused (previous.py)
    reports: tuple[str, ...] = REPORTS  # which of report.json, report.csv and report.html to write

    def __post_init__(self) -> None:
        if not self.reports or not set(self.reports) <= set(REPORTS):
            raise ValueError(f"reports must name some of {', '.join(REPORTS)}, not {self.reports!r}")


@dataclass(frozen=True, slots=True)
class JobSummary:
    """What a run found, and how long each stage took (seconds)."""

    documents: int
    contents: int
    texts: int
    problems: int
    candidates: int
    pairs: int
    groups: int
    documents_in_groups: int
    seconds: dict[str, float] = field(default_factory=dict)
    rows_left_out: int = 0  # a table's rows that are no document: without a path, or not JSON (job.json)
    reused: int = 0  # files whose fingerprints came from the previous result, not read again
    previous_problem: str = ""  # why the previous result's fingerprints were not used, where they were not


@dataclass(frozen=True, slots=True)
class FoundFile:
    """One document as read by an executor: where it is and its fingerprint (or why it has none)."""

    path: str
    size: int
    mtime_ns: int
    kind: str
    fingerprint: Fingerprint


@dataclass(frozen=True, slots=True)
class Compared:
    """A content as the candidates and the verification see it: its whole text's SimHash and text hash,
    and the signature, size and shingle set compared (its core where it has boilerplate and it is
    ignored)."""

    raw_hash: bytes
    text_hash: bytes
    simhash: int
    signature: bytes
    shingle_count: int
    shingles: bytes


@dataclass(frozen=True, slots=True)
class Source:
    """What the job reads, as resolved on the driver: a walked folder (``root``: its real path), a URI
    Spark lists itself, or a table; and what was left out of a table (rows without a path, repeated paths)."""

    kind: str  # "folder", "uri" or "table"
    root: str
    rows_without_path: int = 0
    repeated_paths: int = 0
    rows_unreadable: int = 0  # lines of a JSON table that are not JSON objects (Spark's corrupt records)


Run = tuple[int, int, int, int, int, bytes]
"""A content's passages at its edges (``core.boilerplate.EdgeRun``): head key, tail key, head cut, tail cut, its
own text's size and signature (little-endian uint32)."""


@dataclass(frozen=True, slots=True, eq=False)
class BoilerplateCounts:
    """How many of ``words`` contents (those shingled by words) hold each shingle of ``shingles`` (sorted), for
    every shingle in at least ``below`` of them: any other is in fewer. A rerun brings it up to date from the
    contents gone and added alone while the shingles it does not list stay below the bar."""

    words: int
    below: int
    shingles: np.ndarray  # uint32
    counts: np.ndarray  # int64


@dataclass(frozen=True, slots=True)
class BoilerplateFound:
    """The collection's boilerplate, as ``core.boilerplate.Boilerplate`` holds it (cores by raw hash)."""

    min_share: float
    min_documents: int
    shingles: np.ndarray
    passages: int
    family_passages: int
    cores: RDD | None  # (raw_hash, Core)
    keys: tuple[int, ...] = ()  # the boilerplate passages' keys (EdgeRun.head_key / tail_key), in order
    counts: BoilerplateCounts | None = None  # what a rerun brings up to date (rerun/counts)
    counted: RDD | None = None  # (raw hash, text hash) of the contents the counts are of (rerun/words)
    runs: RDD | None = None  # (raw_hash, Run) of each content with passages at its edges

    def summary(self, ignored: bool, affected: int) -> dict[str, Any]:
        """For the report, as the desktop's (``match.BoilerplateUse.summary``): the analysis only where
        it was used."""
        if not ignored:
            return {"ignored": False}
        return {
            "ignored": True,
            "min_share": self.min_share,
            "frequent_shingles": int(len(self.shingles)),
            "passages": self.passages,
            "family_passages": self.family_passages,
            "documents_affected": affected,
        }


def compared_digest(c: Compared) -> bytes:
    """What is compared of a content, as a hash: a text whose digest is the same as in an earlier run is
    judged the same against any other (``previous.Previous.edges``)."""
    return hashlib.blake2b(c.shingles, digest_size=16).digest()


def unpacked(c: Compared) -> tuple[np.ndarray, np.ndarray]:
    """A content's shingle set and signature as arrays (a task that measures it against several unpacks it once)."""
    return minhash.unpack_shingles(c.shingles), np.frombuffer(c.signature, "<u4")


def similarity(
    a: Compared,
    b: Compared,
    arrays: Callable[[Compared], tuple[np.ndarray, np.ndarray]] = unpacked,
    shared: int | None = None,
) -> tuple[Similarity, float]:
    """The desktop's numbers for two contents (``match.similarity_of``), and the exact Jaccard before
    rounding (what thresholds are compared with); ``arrays`` gives each one's ``unpacked`` arrays, and
    ``shared`` their shingles in common where they are measured already."""
    if a.raw_hash == b.raw_hash:
        return IDENTICAL, 1.0
    (set_a, signature_a), (set_b, signature_b) = arrays(a), arrays(b)
    if shared is None:
        shared = minhash.exact_overlap(set_a, set_b)
    union = a.shingle_count + b.shingle_count - shared
    estimate = float(minhash.estimate(signature_a, signature_b))
    return (
        similarity_of(shared, a.shingle_count, b.shingle_count, int(hamming(a.simhash, b.simhash)), estimate),
        shared / union if union else 1.0,
    )


def thresholds_json(t: Thresholds) -> dict[str, Any]:
    """The thresholds as a result's job.json gives them."""
    return {
        "method": str(t.method),
        "hamming": t.hamming,
        "jaccard": t.jaccard,
        "ignore_boilerplate": t.ignore_boilerplate,
    }


def job_json(options: JobOptions, source: Source, scheme: Scheme, extra: dict[str, Any]) -> str:
    """The result's description: what ran, under which scheme and thresholds (ASCII: a path's bytes that
    are not UTF-8 travel as escapes)."""
    return json.dumps(
        {
            "format": RESULT_FORMAT,
            "version": RESULT_VERSIONS[-1],
            "source": source.root,
            "source_kind": source.kind,
            "table_rows_without_path": source.rows_without_path,
            "table_repeated_paths": source.repeated_paths,
            "table_rows_unreadable": source.rows_unreadable,
            "scheme": json.loads(scheme.to_json()),
            "thresholds": thresholds_json(options.thresholds),
            "options": {k: v for k, v in asdict(options).items() if k not in ("source", "out", "thresholds")},
            **extra,
        },
        indent=2,
    )
