"""Excerpts: every pair of texts where at least a share C of the smaller one's shingles are in the larger
one, whatever their Jaccard (a 2-page excerpt of a 100-page report has a Jaccard near 0.02, and is never
an LSH candidate), each verified exactly.

Candidates come from prefix filtering (Chaudhuri, Ganti and Kaushik, ICDE 2006; Bayardo, Ma and Srikant,
WWW 2007), which misses nothing: order every shingle by how many texts hold it (rarest first, then by its
hash), and take each text A's first p = |A| - ceil(C·|A|) + 1 shingles in that order. A text B holding
none of them shares at most |A| - p = ceil(C·|A|) - 1 shingles with A, fewer than C·|A|: so every B
that holds enough of A holds one of A's first p, and meets A in the postings of a rare shingle. The
pairs found so are then measured exactly, |A∩B| / |A|: recall 1.0 by construction, precision 1.0 by
the measurement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress

_PAIRS_AT_ONCE = 4_000_000  # candidate pairs made at once: 8 bytes each, a few times over
_MEASURED_AT_ONCE = 2_000  # candidates measured between two looks at the cancel token


@dataclass(frozen=True, slots=True, eq=False)
class ExcerptArrays:
    """Pairs of rows (``inner``, ``outer``) where |inner| <= |outer| (rows in order where their sizes tie)
    and ``shared`` = |inner ∩ outer| >= C·|inner|; with the sizes of both sets."""

    inner: np.ndarray
    outer: np.ndarray
    shared: np.ndarray
    inner_size: np.ndarray
    outer_size: np.ndarray

    def __len__(self) -> int:
        return len(self.inner)

    @property
    def containment(self) -> np.ndarray:
        """|inner ∩ outer| / |inner|, each pair's share of the smaller text found in the larger."""
        return self.shared / self.inner_size


def required_shared(sizes: np.ndarray, containment: float) -> np.ndarray:
    """The fewest shingles a text of each size shares with a text it is inside, at ``containment``:
    ceil(C·size), counted without a rounding error turning 0.7 × 10 into 8."""
    return np.ceil(np.asarray(sizes, dtype=np.float64) * containment - 1e-9).astype(np.int64)


def prefix_entries(
    starts: np.ndarray, index: np.ndarray, held: np.ndarray, containment: float, min_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """The shingles each text must share one of with any text it is inside: (row, shingle) of each text's
    rarest |A| - ceil(C·|A|) + 1, for texts of ``min_size`` shingles or more. ``index`` numbers each of
    the texts' shingles (one run a text, from ``starts``) among the distinct ones, in their order;
    ``held`` says how many texts hold each distinct shingle."""
    sizes = np.diff(starts)
    rows = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((index, held[index], rows))  # each row's shingles, rarest first, then by hash
    rank = np.arange(len(index)) - np.repeat(starts[:-1], sizes)
    length = sizes - required_shared(sizes, containment) + 1
    length[sizes < min_size] = 0
    first = order[rank < length[rows]]
    return rows[first], index[first]


def find_excerpts(
    sets: Sequence[np.ndarray],
    containment: float,
    *,
    min_size: int = 30,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> ExcerptArrays:
    """Every pair of ``sets`` (sorted arrays of distinct shingle hashes, one a text) where the smaller,
    of at least ``min_size`` shingles, has a share of at least ``containment`` of its shingles in the
    larger; the rows of a pair are indices into ``sets``."""
    if not 0.0 < containment <= 1.0:
        raise ValueError(f"containment must be in (0, 1], not {containment}")
    if min_size < 1:
        raise ValueError(f"min_size must be at least 1, not {min_size}")
    sizes = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    starts = np.concatenate(([0], np.cumsum(sizes)))
    values = np.concatenate([np.asarray(s, dtype=np.uint32) for s in sets]) if sets else np.empty(0, np.uint32)
    progress(ProgressEvent("excerpts", 0, None))
    inner, outer = candidate_pairs(values, starts, containment, min_size, cancel)
    shared = np.empty(len(inner), dtype=np.int64)
    for begin in range(0, len(inner), _MEASURED_AT_ONCE):
        cancel.raise_if_cancelled()
        progress(ProgressEvent("excerpts", begin, len(inner)))
        end = begin + _MEASURED_AT_ONCE
        pairs = zip(inner[begin:end].tolist(), outer[begin:end].tolist(), strict=True)
        shared[begin:end] = [_shared(values, starts, a, b) for a, b in pairs]
    progress(ProgressEvent("excerpts", len(inner), len(inner)))
    kept = shared >= required_shared(sizes[inner], containment)
    inner, outer = inner[kept], outer[kept]
    return ExcerptArrays(inner, outer, shared[kept], sizes[inner], sizes[outer])


def candidate_pairs(
    values: np.ndarray,
    starts: np.ndarray,
    containment: float,
    min_size: int,
    cancel: CancelToken = NEVER_CANCELLED,
) -> tuple[np.ndarray, np.ndarray]:
    """(inner, outer) rows, each pair once, of every pair that may be an excerpt: the inner's prefix
    meets the outer, which is no smaller (rows in order where the sizes tie)."""
    sizes = np.diff(starts)
    rows = np.repeat(np.arange(len(sizes)), sizes)
    _distinct, index, held = np.unique(values, return_inverse=True, return_counts=True)
    a, token = prefix_entries(starts, index, held, containment, min_size)
    postings = rows[np.argsort(index, kind="stable")]  # the texts holding each distinct shingle, in turn
    posting_start = np.concatenate(([0], np.cumsum(held)))
    made = np.cumsum(held[token])  # pairs made by the prefix entries up to each
    found: list[np.ndarray] = []
    begin = 0
    while begin < len(a):
        cancel.raise_if_cancelled()
        done = int(made[begin - 1]) if begin else 0
        stop = max(int(np.searchsorted(made, done + _PAIRS_AT_ONCE, "right")), begin + 1)
        lengths = held[token[begin:stop]]
        within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        b = postings[np.repeat(posting_start[token[begin:stop]], lengths) + within]
        x = np.repeat(a[begin:stop], lengths)
        keep = (b != x) & (sizes[b] >= sizes[x])
        b, x = b[keep], x[keep]
        tie = sizes[b] == sizes[x]
        inner, outer = np.where(tie, np.minimum(x, b), x), np.where(tie, np.maximum(x, b), b)
        found.append(np.unique((inner.astype(np.int64) << 32) | outer))
        begin = stop
    codes = np.unique(np.concatenate(found)) if found else np.empty(0, np.int64)
    return codes >> 32, codes & 0xFFFFFFFF


def _shared(values: np.ndarray, starts: np.ndarray, a: int, b: int) -> int:
    return len(np.intersect1d(values[starts[a] : starts[a + 1]], values[starts[b] : starts[b + 1]], assume_unique=True))
