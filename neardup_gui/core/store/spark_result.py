"""A Spark job's result (``neardup spark scan``) loaded into a database the app reviews as usual.

The job writes, beside its Parquet tables and JSON report, the fingerprints of every document in a
group and of every document with a problem, with the boilerplate analysis of the whole collection
(``review/``, JSON lines; ``job.json``). Loading them gives a database whose groups at the job's
thresholds are the job's groups, computed again here by the desktop's own matcher from the same
fingerprints; stricter thresholds regroup at once, as after a scan. Paths are mapped from where the
cluster saw them to where this machine opens them (a prefix mapping), so the pair view and the file
actions work on the files. Reading needs no Spark.

A result folder comes from elsewhere: every record is checked before it is stored, and every path must
land inside a mapped folder (spark_records); the whole load is one transaction, so a refused record, a
cancel or a killed process leaves nothing of it, and the same import can simply be run again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import StaleFingerprints, UsageError
from ..fingerprint.boilerplate import Boilerplate, Core, collection_digest
from ..fingerprint.scheme import Scheme
from ..i18n import translate
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..models import Fingerprint, Status, display_path
from .files import FileRecord
from .spark_records import (
    JobDescription,
    Place,
    checked_mapping,
    damaged,
    describe,
    mapping_problem,
    parse_record,
    placed,
    placed_or_none,
    review_lines,
)
from .store import Store

RESULT_FORMAT = "neardup-spark-result"
RESULT_VERSIONS = (1,)
REVIEW_FOLDER = "review"
"""Where the job puts the records loaded here: JSON lines (gzip), one a document."""
_BATCH = 1000


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What was loaded: documents (of which problems), the job's thresholds and source, and the roots the
    documents now sit under (after the mapping: every path is under a FROM)."""

    documents: int
    problems: int
    thresholds: dict[str, Any]
    source: str
    roots: tuple[str, ...]


def parse_mapping(text: str) -> tuple[str, str]:
    """``FROM=TO`` (a prefix the cluster saw, the folder it is here: absolute) as a pair."""
    before, sep, after = text.partition("=")
    if not sep or not before or not after:
        raise ValueError(
            translate(
                "Errors", "A path mapping is FROM=TO, e.g. hdfs://cluster/uploads=/mnt/uploads; not {text}"
            ).format(text=text)
        )
    problem = mapping_problem(before, after)
    if problem:
        raise ValueError(problem)
    return before, after


def read_job(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The job's description (``job.json``), checked to be a result this version reads."""
    path = Path(folder) / "job.json"
    if path.exists() and not path.is_file():  # a device or a pipe: reading it might never end
        raise ValueError(
            translate("Errors", "{path} cannot be read: {reason}").format(
                path=display_path(str(path)), reason=translate("Errors", "not a regular file")
            )
        )
    try:
        job = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            translate(
                "Errors",
                "{path} is not the result of neardup spark scan: it has no job.json (give the folder named by --out)",
            ).format(path=folder)
        ) from None
    except (OSError, ValueError, RecursionError) as exc:
        raise ValueError(translate("Errors", "{path} cannot be read: {reason}").format(path=path, reason=exc)) from None
    if not isinstance(job, dict) or job.get("format") != RESULT_FORMAT or job.get("version") not in RESULT_VERSIONS:
        found = job if isinstance(job, dict) else {}
        raise ValueError(
            translate(
                "Errors", "{path} is not a result this version of neardup reads (format {format}, version {version})"
            ).format(path=path, format=found.get("format"), version=found.get("version"))
        )
    return job


@dataclass(frozen=True, slots=True)
class ResultSource:
    """What a Spark result was made from, as its job.json says: the folder, URI or table the job read
    (``kind``: "folder", "uri" or "table"), and how many documents it holds (those in groups and problems)."""

    source: str
    kind: str
    documents: int


def result_source(folder: str | os.PathLike[str]) -> ResultSource:
    """What the result at ``folder`` was made from (ValueError, DamagedResult or StaleFingerprints: why it
    is no result this version loads, in words)."""
    job = describe(read_job(folder), Place(str(Path(folder) / "job.json")))
    return ResultSource(job.source, job.source_kind, job.records)


def review_parts(folder: str | os.PathLike[str]) -> list[Path]:
    """The files of the job's records, in order."""
    return sorted((Path(folder) / REVIEW_FOLDER).glob("part-*"))


def import_result(
    store: Store,
    folder: str | os.PathLike[str],
    *,
    mapping: Sequence[tuple[str, str]] = (),
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> ImportSummary:
    """Load a Spark result into ``store`` (a new database, or one holding nothing yet), in one transaction:
    a record that fails its checks (spark_records: DamagedResult, naming it), a cancel, an error or a killed
    process leaves nothing of it."""
    job = describe(read_job(folder), Place(str(Path(folder) / "job.json")))
    targets = checked_mapping(mapping) if mapping else _the_jobs_folder(job)
    if job.scheme != Scheme.current():
        raise StaleFingerprints(
            translate(
                "Errors",
                "{path} was made by another version of neardup or of the libraries that read documents "
                "(the job's: {theirs}; this app's: {ours}); run the job with this version's package",
            ).format(path=folder, theirs=job.scheme.pypdf or job.scheme.version, ours=Scheme.current().pypdf)
        )
    with store.transaction():
        if store.files.documents():
            raise ValueError(
                translate(
                    "Errors", "{path} already holds documents; load a Spark result into a new database (--db FILE)"
                ).format(path=store.path)
            )
        store.ensure_scheme(Scheme.current())  # the job's, checked equal above (its JSON may be spelled otherwise)
        loaded = _load_records(store, folder, job, targets, progress, cancel)
        ids = store.contents.ids_for(loaded.cores)
        store.boilerplate.save(
            Boilerplate(
                collection_digest(store.get_meta("scheme") or "", store.contents.ok_ids()),
                job.min_share,
                job.min_documents,
                np.array(job.shingles, dtype=np.uint32),
                {ids[h]: core for h, core in loaded.cores.items() if h in ids},
                passages=job.passages,
                family_passages=job.family_passages,
            )
        )
    progress(ProgressEvent("import", job.records, job.records))
    return ImportSummary(
        loaded.documents, loaded.problems, dict(job.thresholds), job.source, _roots(job, targets, loaded.folders)
    )


def _the_jobs_folder(job: JobDescription) -> tuple[tuple[str, str], ...]:
    """Without --map, every path must be under the folder the job read, as it is here: a result cannot name
    a file elsewhere. A job that read a URI or a table has no such folder here: --map says where its files are."""
    source = job.source
    if job.source_kind == "folder" and os.path.isabs(source) and os.path.normpath(source) == source:
        return ((source, source),)
    raise UsageError(
        translate(
            "Errors",
            "This result was made from {source}; say where its files are on this "
            "machine with --map FROM=TO (FROM as the job saw them, e.g. --map "
            "{source}=/mnt/uploads)",
        ).format(source=display_path(source))
    )


@dataclass(frozen=True, slots=True)
class _Loaded:
    documents: int
    problems: int
    folders: frozenset[str]
    cores: dict[bytes, Core]


def _load_records(
    store: Store,
    folder: str | os.PathLike[str],
    job: JobDescription,
    mapping: Sequence[tuple[str, str]],
    progress: Progress,
    cancel: CancelToken,
) -> _Loaded:
    """Check and write every record (in batches, inside the caller's transaction); the count must be the
    job's, so that a part file lost or cut between two records is found too."""
    progress(ProgressEvent("import", 0, job.records))
    cores: dict[bytes, Core] = {}
    fingerprints: list[Fingerprint] = []
    files: list[FileRecord] = []
    done = problems = 0
    folders: set[str] = set()
    paths: set[str] = set()
    written: set[bytes] = set()
    for place, value in review_lines(review_parts(folder)):
        cancel.raise_if_cancelled()
        record = parse_record(value, place, job.scheme.num_perm)
        path = placed(record, mapping)
        if path in paths:  # two records of one file: the second would silently replace the first
            raise damaged(
                translate(
                    "Errors", "{record}: the field path ({path}) names the same file as an earlier record"
                ).format(record=place, path=display_path(path))
            )
        paths.add(path)
        fp = record.fingerprint
        if fp.raw_hash and fp.raw_hash not in written:
            written.add(fp.raw_hash)
            fingerprints.append(fp)
        if record.core is not None and fp.raw_hash:
            cores[fp.raw_hash] = record.core
        if fp.status is Status.OK or fp.raw_hash:
            files.append(FileRecord(path, record.size, record.mtime_ns, record.kind, content_hash=fp.raw_hash))
        else:
            files.append(
                FileRecord(path, record.size, record.mtime_ns, record.kind, status=fp.status, message=fp.message)
            )
        problems += fp.status is not Status.OK
        folders.add(os.path.dirname(path))
        done += 1
        if len(files) >= _BATCH:
            _flush(store, fingerprints, files)
            progress(ProgressEvent("import", done, job.records))
    _flush(store, fingerprints, files)
    if done != job.records:
        raise damaged(
            translate(
                "Errors",
                "{path} holds {found} records, but job.json counts {expected}: the result is incomplete or was changed",
            ).format(path=display_path(str(Path(folder) / REVIEW_FOLDER)), found=done, expected=job.records)
        )
    return _Loaded(done, problems, frozenset(folders), cores)


def _flush(store: Store, fingerprints: list[Fingerprint], files: list[FileRecord]) -> None:
    store.write_batch(fingerprints, files)
    fingerprints.clear()
    files.clear()


def _roots(job: JobDescription, mapping: Sequence[tuple[str, str]], folders: frozenset[str]) -> tuple[str, ...]:
    """The folders the loaded documents are under, for the app to show: the job's folder (mapped), or,
    for a table of texts or a folder not mapped to this machine, the deepest folder holding them all."""
    root = placed_or_none(job.source, mapping)
    if (
        job.source_kind != "table"
        and root is not None
        and all(f == root or f.startswith(root.rstrip(os.sep) + os.sep) for f in folders)
    ):
        return (root,)
    absolute = [f for f in folders if os.path.isabs(f)]
    if absolute and len(absolute) == len(folders):
        return (os.path.commonpath(absolute),)
    return tuple(sorted(folders))
