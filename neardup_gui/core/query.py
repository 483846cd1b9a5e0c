"""Stored near-duplicates of one file (``neardup query``): the file read and fingerprinted as a scan reads
it (in a worker process, within the reader limits), then looked up through the database's persisted
indexes; no grouping, no all-pairs work."""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .errors import ExtractionError
from .fingerprint import minhash
from .fingerprint.scheme import Scheme
from .fingerprint.simhash import hamming
from .i18n import localize, shown_details, split_details, translate
from .match import index
from .match.forest import estimate_margin
from .match.matcher import ensure_current, similarity_of
from .models import IDENTICAL, Document, Method, Similarity, Status, Thresholds, matched_by
from .read.extract import kind_of
from .read.regular_files import hash_file
from .review.words import status_label
from .scan import ExtractTask, FileFailure, extract_task
from .store.query_index import BAND_THRESHOLD
from .store.store import Store
from .workers.pool import TaskFailed, default_reader_memory, run_isolated


@dataclass(frozen=True, slots=True)
class QueryHit:
    document: Document
    similarity: Similarity
    matched_by: str


def query(
    store: Store,
    path: str,
    thresholds: Thresholds,
    *,
    max_file_size: int = 256 << 20,
    file_timeout: float = 120.0,
    reader_memory: int | None = None,
) -> list[QueryHit]:
    """Stored near-duplicates of one file, through the persisted indexes (no all-pairs work).

    The file need not be in the database: if it is not (or changed), it is read and fingerprinted now,
    as a scan reads a file: a regular file only, within ``max_file_size``, in a worker process that is
    stopped after ``file_timeout`` seconds or past ``reader_memory`` bytes (a PDF bomb or a crash in a
    reader costs the query, not the caller).
    """
    ensure_current(store)
    scheme = Scheme.current()
    size = os.stat(path).st_size
    if size > max_file_size:
        raise ValueError(
            translate("Errors", "{path}: larger than the {limit} MiB limit; not compared.").format(
                path=path, limit=max_file_size >> 20
            )
        )
    digest = hash_file(path)
    known = store.contents.ids_for([digest])
    own_cid = known.get(digest)
    stored = store.contents.fingerprint(own_cid) if own_cid is not None else None
    if own_cid is not None and stored is not None:
        simhash_value, signature, text_hash, shingle_count = stored
        own_shingles = store.contents.shingles([own_cid])[own_cid]
    else:
        task = ExtractTask(path, kind_of(path) or "text", digest, scheme, size)
        [(_task, fp)] = list(
            run_isolated(
                extract_task,
                [task],
                workers=1,
                timeout=file_timeout,
                memory_limit=reader_memory or default_reader_memory(),
            )
        )
        if isinstance(fp, TaskFailed):
            failed = (
                translate("Errors", "{path}: not compared: {reason}. To allow the reader more: --max-memory MIB.")
                if fp.out_of_memory
                else translate("Errors", "{path}: not compared: {reason}.")
            )
            reason, details = split_details(fp.reason)
            said = failed.format(path=path, reason=localize("Problem", reason))
            raise ExtractionError(str(Status.ERROR), f"{said}\n{shown_details(details)}" if details else said)
        if isinstance(fp, FileFailure) or fp.status is not Status.OK:
            said = f"{path}: {status_label(fp.status)}: {localize('Problem', fp.message)}"
            raise ExtractionError(str(fp.status), said)
        simhash_value = fp.simhash
        signature = np.frombuffer(fp.minhash, dtype="<u4").astype(np.uint32)
        text_hash = fp.text_hash
        own_shingles = minhash.unpack_shingles(fp.shingles)
    candidates: dict[int, int] = {}
    if thresholds.method in (Method.SIMHASH, Method.BOTH):
        for cid, value in store.query_index.simhash_neighbours(simhash_value, index.block_probes(thresholds.hamming)):
            candidates[cid] = value
    if thresholds.method in (Method.MINHASH, Method.BOTH):
        if thresholds.jaccard >= BAND_THRESHOLD:
            bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
            ids = store.query_index.band_neighbours(minhash.band_keys(signature, bands, rows)[0].tolist())
        else:
            arrays = store.contents.fingerprint_arrays()
            est = minhash.estimate(arrays.minhash, signature[None, :])
            ids = set(arrays.content_ids[est >= thresholds.jaccard - estimate_margin(thresholds.jaccard)].tolist())
        for cid in ids:
            candidates.setdefault(cid, -1)
    if own_cid is not None:
        candidates.pop(own_cid, None)
    sets = store.contents.shingles(candidates)
    hits: list[QueryHit] = []
    docs_by_content: dict[int, list[Document]] = defaultdict(list)
    for doc in store.files.documents_with_content([*candidates, *([own_cid] if own_cid is not None else [])]):
        if doc.content_id is not None:  # always, for a document found by its content
            docs_by_content[doc.content_id].append(doc)
    own_count = len(own_shingles)
    for cid in candidates:
        stored_fp = store.contents.fingerprint(cid)
        if stored_fp is None or cid not in sets:
            continue
        other_sim, other_sig, other_text, other_count = stored_fp
        shared = minhash.exact_overlap(own_shingles, sets[cid])
        sim = similarity_of(
            shared,
            own_count,
            other_count,
            int(hamming(simhash_value, other_sim)),
            float(minhash.estimate(signature, other_sig)),
        )
        if other_text == text_hash:
            how = "exact"
        else:
            found = matched_by(sim, thresholds)
            if found is None:
                continue
            how = found
        for doc in docs_by_content.get(cid, []):
            hits.append(QueryHit(doc, sim, how))
    if own_cid is not None:
        real = os.path.realpath(path)
        for doc in docs_by_content.get(own_cid, []):
            if doc.path != real:
                hits.append(QueryHit(doc, IDENTICAL, "exact"))
    hits.sort(key=lambda h: (-h.similarity.jaccard, h.similarity.hamming, h.document.path))
    return hits
