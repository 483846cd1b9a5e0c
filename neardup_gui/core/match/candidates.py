"""Candidate pairs of distinct texts, before any exact measure: Hamming neighbours of the SimHashes
(exact within k: Manku's block index) and LSH band collisions of the MinHash signatures (kept when
their estimate comes within the margin of the threshold; always verified afterwards)."""

from __future__ import annotations

import numpy as np

from ..fingerprint import minhash
from ..fingerprint.text import merged_runs
from ..jobs import NEVER_CANCELLED, CancelToken
from ..workers.parallel import IN_THIS_PROCESS, MappedFiles, Workers
from . import index
from .forest import estimate_margin

_ROWS_AT_ONCE = 1 << 20

DENSE_BUCKET = 32
"""An LSH bucket with more rows than this is collected once, whatever bands find it, and expanded alone."""


def hamming_candidates(
    simhash: np.ndarray, distinct: np.ndarray, k: int, *, cancel: CancelToken = NEVER_CANCELLED
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of the ``distinct`` rows within Hamming distance ``k`` (exact: no verification
    needed), as rows of ``simhash`` with their distance."""
    i, j, d = index.hamming_pairs(simhash[distinct], k, cancel=cancel)
    return distinct[i], distinct[j], d


def band_candidates(
    signatures: np.ndarray,
    distinct: np.ndarray,
    t: float,
    *,
    cancel: CancelToken = NEVER_CANCELLED,
    workers: Workers = IN_THIS_PROCESS,
    beside: str | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LSH candidates among the ``distinct`` rows (ascending, each once) for the band layout designed
    at ``t``, with their MinHash estimate, kept when the estimate comes within the margin of ``t``. Rows
    of dense buckets (one text's many near-copies) are paired once, not once per band. Rows come as
    int32 and estimates as float32 (k/128 exactly): millions of candidates are held through a forest's
    whole build. The files the workers map (the signatures, written once for both searches) go to a
    folder ``beside`` the database (see MappedFiles)."""
    if not 0.0 < t <= 1.0:
        raise ValueError(f"t must be in (0, 1], not {t}")
    bands, rows = minhash.optimal_bands(t, signatures.shape[1])
    floor = t - estimate_margin(t)
    # the rows left out are skipped, not copied out (a copy of every signature: half a GB at a million)
    among = None if len(distinct) == len(signatures) else distinct
    with MappedFiles(beside) as files:
        i, j, est, buckets = index.band_pairs(
            signatures,
            bands,
            rows,
            dense=DENSE_BUCKET,
            min_estimate=floor,
            cancel=cancel,
            workers=workers,
            files=files,
            among=among,
        )
        n = len(signatures)
        codes = i * n + j  # sorted
        del i, j
        if buckets:
            in_buckets, bucket_est = index.bucket_codes(
                signatures, buckets, floor, cancel=cancel, workers=workers, files=files
            )
            codes, est = merged_runs(in_buckets, bucket_est, codes, est)
    # millions of candidates: rows made a slice at a time, held as int32
    narrow = np.int32 if n < 1 << 31 else np.int64
    out_i, out_j = np.empty(len(codes), dtype=narrow), np.empty(len(codes), dtype=narrow)
    for start in range(0, len(codes), _ROWS_AT_ONCE):
        part = codes[start : start + _ROWS_AT_ONCE]
        out_i[start : start + len(part)] = part // n
        out_j[start : start + len(part)] = part % n
    return out_i, out_j, est.astype(np.float32, copy=False)
