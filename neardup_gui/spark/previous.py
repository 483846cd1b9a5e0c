"""What a rerun takes from an earlier result (``--previous DIR``): the fingerprints the earlier job kept of
every document it read, reused for each file found again unchanged (same path, size and modification time)
instead of reading it again; a failure that may not happen again (a time limit, a crash) is read again.

A result keeps them in ``fingerprints/`` (Parquet, the path as bytes: a name that is not UTF-8 stays as it
is). They are reused only where the earlier job read as this one does (the same fingerprint scheme, OCR
languages and size limit); otherwise every file is read again and the job says why.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.fingerprint.scheme import Scheme
from ..core.fingerprint.simhash import to_signed, to_unsigned
from ..core.i18n import QT_TRANSLATE_NOOP, translate
from ..core.models import Fingerprint, Status, display_path
from ..core.store.spark_result import RESULT_FORMAT, RESULT_VERSIONS
from .out import ResultFolder
from .records import FoundFile, JobOptions, Source

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
    """The fingerprints of ``files`` a rerun may reuse, as a Parquet table at ``place``."""
    spark.createDataFrame(files.filter(kept).map(to_row), SCHEMA).write.parquet(place)


@dataclass(frozen=True, slots=True)
class Previous:
    """An earlier result's fingerprints, and whether this run may reuse them (``problem`` says why not)."""

    folder: str
    table: DataFrame | None
    problem: str = ""

    def summary(self, reused: int, documents: int) -> dict[str, Any]:
        """What the job took from this result, for its job.json."""
        return {"folder": self.folder, "reused": reused, "read_again": documents - reused, "problem": self.problem}

    def unchanged(self, entries: Iterable[tuple[str, int, int, str]]) -> set[tuple[str, int, int]]:
        """The (path, size, mtime_ns) of ``entries`` whose fingerprints are kept here."""
        if self.table is None:
            return set()
        wanted = {(path, size, mtime_ns) for path, size, mtime_ns, _kind in entries}
        keys = self.table.select(*_KEYS).collect()  # no fingerprint leaves the executors
        return {key for key in ((os.fsdecode(bytes(r.path)), r.size, r.mtime_ns) for r in keys) if key in wanted}

    def reused(self, spark: SparkSession, keys: set[tuple[str, int, int]]) -> RDD:
        """The kept files of these ``keys`` (path, size, mtime_ns), as FoundFile, in the table's partitions (moving
        them to others cost a shuffle of every fingerprint)."""
        assert self.table is not None
        chosen = spark.createDataFrame(
            [(os.fsencode(p), s, m) for p, s, m in sorted(keys)], "path binary, size long, mtime_ns long"
        )
        return self.table.join(chosen, list(_KEYS), "left_semi").rdd.map(from_row)


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
    return Previous(folder, spark.read.schema(SCHEMA).parquet(ResultFolder(spark, folder).child(FINGERPRINTS)))
