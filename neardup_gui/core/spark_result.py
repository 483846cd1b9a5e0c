"""A Spark job's result (``neardup spark scan``) loaded into a database the app reviews as usual.

The job writes, beside its Parquet tables and JSON report, the fingerprints of every document in a
group and of every document with a problem, with the boilerplate analysis of the whole collection
(``review/``, JSON lines; ``job.json``). Loading them gives a database whose groups at the job's
thresholds are the job's groups, computed again here by the desktop's own matcher from the same
fingerprints; stricter thresholds regroup at once, as after a scan. Paths are mapped from where the
cluster saw them to where this machine opens them (a prefix mapping), so the pair view and the file
actions work on the files. Reading needs no Spark.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .boilerplate import Boilerplate, Core, collection_digest
from .errors import StaleFingerprints
from .fingerprint import Scheme
from .i18n import translate
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .models import Fingerprint, Status
from .simhash import to_unsigned
from .store import FileRecord, Store

RESULT_FORMAT = "neardup-spark-result"
RESULT_VERSIONS = (1,)
REVIEW_FOLDER = "review"
"""Where the job puts the records loaded here: JSON lines (gzip), one a document."""
_BATCH = 1000


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What was loaded: documents (of which problems), the job's thresholds and source, the roots the
    documents now sit under (after the mapping) and how many paths the mapping did not change."""

    documents: int
    problems: int
    thresholds: dict[str, Any]
    source: str
    roots: tuple[str, ...]
    unmapped: int


def parse_mapping(text: str) -> tuple[str, str]:
    """``FROM=TO`` (a prefix the cluster saw, the folder it is here) as a pair."""
    before, sep, after = text.partition("=")
    if not sep or not before or not after:
        raise ValueError(translate("Errors", "A path mapping is FROM=TO, e.g. hdfs://cluster/uploads=/mnt/uploads; "
                                             "not {text}").format(text=text))
    return before, after


def mapped(path: str, mapping: Sequence[tuple[str, str]]) -> str:
    """``path`` with the longest matching prefix of ``mapping`` replaced (``file:`` URIs become paths)."""
    for before, after in sorted(mapping, key=lambda m: -len(m[0])):
        if path == before or path.startswith(before.rstrip("/") + "/"):
            return after.rstrip("/") + path[len(before.rstrip("/")) :]
    if path.startswith("file:"):
        return "/" + path[len("file:") :].lstrip("/")
    return path


def read_job(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The job's description (``job.json``), checked to be a result this version reads."""
    path = Path(folder) / "job.json"
    try:
        job = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(translate("Errors", "{path} is not the result of neardup spark scan: it has no job.json "
                                             "(give the folder named by --out)").format(path=folder)) from None
    except (OSError, ValueError) as exc:
        raise ValueError(translate("Errors", "{path} cannot be read: {reason}").format(path=path, reason=exc)) from None
    if job.get("format") != RESULT_FORMAT or job.get("version") not in RESULT_VERSIONS:
        raise ValueError(translate("Errors", "{path} is not a result this version of neardup reads (format {format}, "
                                             "version {version})").format(path=path, format=job.get("format"),
                                                                          version=job.get("version")))
    return job


def review_records(folder: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The job's records of grouped documents and problems, decoded."""
    parts = sorted((Path(folder) / REVIEW_FOLDER).glob("part-*"))
    for part in parts:
        with (gzip.open(part, "rt", encoding="utf-8") if part.suffix == ".gz" else open(part, encoding="utf-8")) as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)


def _blob(value: str | None) -> bytes | None:
    return None if value is None else base64.b64decode(value)


def _fingerprint(record: dict[str, Any]) -> Fingerprint:
    return Fingerprint(
        raw_hash=_blob(record["raw_hash"]) or b"", kind=record["kind"], status=Status(record["status"]),
        message=record["message"], encoding=record["encoding"], pages=record["pages"], chars=record["chars"],
        text_hash=_blob(record["text_hash"]),
        simhash=to_unsigned(record["simhash"]) if record["simhash"] is not None else None,
        minhash=_blob(record["minhash"]), shingle_count=record["shingle_count"], shingles=_blob(record["shingles"]),
        short_text=record["short_text"], edges=_blob(record["edges"]), transient=record["transient"])


def import_result(store: Store, folder: str | os.PathLike[str], *, mapping: Sequence[tuple[str, str]] = (),
                  progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> ImportSummary:
    """Load a Spark result into ``store`` (a new database, or one holding nothing yet)."""
    job = read_job(folder)
    scheme = Scheme.from_json(json.dumps(job["scheme"]))
    if scheme != Scheme.current():
        raise StaleFingerprints(translate(
            "Errors", "{path} was made by another version of neardup or of the libraries that read documents "
                      "(the job's: {theirs}; this app's: {ours}); run the job with this version's package"
        ).format(path=folder, theirs=scheme.pypdf or scheme.version, ours=Scheme.current().pypdf))
    if store.documents():
        raise ValueError(translate("Errors", "{path} already holds documents; load a Spark result into a new "
                                             "database (--db FILE)").format(path=store.path))
    store.ensure_scheme(scheme)
    total = job["counts"]["documents_in_groups"] + job["counts"]["problems"]
    progress(ProgressEvent("import", 0, total))
    cores: dict[bytes, Core] = {}
    fingerprints: list[Fingerprint] = []
    files: list[FileRecord] = []
    done = problems = unmapped = 0
    roots: set[str] = set()
    written: set[bytes] = set()

    def flush() -> None:
        store.write_batch(fingerprints, files)
        fingerprints.clear()
        files.clear()

    for record in review_records(folder):
        cancel.raise_if_cancelled()
        path = mapped(record["path"], mapping)
        unmapped += path == record["path"]
        fp = _fingerprint(record)
        if fp.raw_hash and fp.raw_hash not in written:
            written.add(fp.raw_hash)
            fingerprints.append(fp)
        if record["core"] is not None:
            core = record["core"]
            cores[fp.raw_hash] = Core(core["shingle_count"], _blob(core["minhash"]) or b"", core["head_cut"],
                                      core["tail_cut"])
        if fp.status is Status.OK or fp.raw_hash:
            files.append(FileRecord(path, record["size"], record["mtime_ns"], record["kind"], content_hash=fp.raw_hash))
        else:
            files.append(FileRecord(path, record["size"], record["mtime_ns"], record["kind"], status=fp.status,
                                    message=fp.message))
        problems += fp.status is not Status.OK
        roots.add(os.path.dirname(path))
        done += 1
        if len(files) >= _BATCH:
            flush()
            progress(ProgressEvent("import", done, total))
    flush()
    analysis = job["boilerplate"]
    ids = store.content_ids_for(cores)
    store.save_boilerplate(Boilerplate(
        collection_digest(store.get_meta("scheme") or "", store.ok_content_ids()), analysis.get("min_share", 0.1),
        analysis.get("min_documents", 10), np.array(analysis.get("shingles", []), dtype=np.uint32),
        {ids[h]: core for h, core in cores.items() if h in ids}, passages=analysis.get("passages", 0),
        family_passages=analysis.get("family_passages", 0)))
    progress(ProgressEvent("import", total, total))
    return ImportSummary(done, problems, dict(job["thresholds"]), job["source"], _roots(job, mapping, roots), unmapped)


def _roots(job: dict[str, Any], mapping: Sequence[tuple[str, str]], folders: set[str]) -> tuple[str, ...]:
    """The folders the loaded documents are under, for the app to show: the job's folder (mapped), or,
    for a table of texts or a folder not mapped to this machine, the deepest folder holding them all."""
    root = mapped(job["source"], mapping)
    if job.get("source_kind", "folder") != "table" and os.path.isabs(root) and all(
            f == root or f.startswith(root.rstrip(os.sep) + os.sep) for f in folders):
        return (root,)
    absolute = [f for f in folders if os.path.isabs(f)]
    if absolute and len(absolute) == len(folders):
        return (os.path.commonpath(absolute),)
    return tuple(sorted(folders))
