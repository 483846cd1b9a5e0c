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

The prefix is taken longer, m = p + e, to count (Bayardo et al.'s and PPJoin's count filter): a B that
holds C·|A| of A holds at least m - (|A| - ceil(C·|A|)) = e + 1 of A's first m, so a pair meeting in fewer
of them is dropped before it is measured. A few more postings are read; far fewer pairs are measured where
texts share rare passages without one being inside the other (quotations, copied paragraphs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..fingerprint import minhash
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress

_PAIRS_AT_ONCE = 1_000_000  # candidate pairs made at once: some 60 bytes each while they are made
_MEASURED_AT_ONCE = 20_000  # candidates measured at once (a batch for the matcher's workers)
_SORTED_AT_ONCE = 1 << 20  # shingles ordered rarest first at once (some 40 bytes each while sorting)
_LONGER = 0.25  # the prefix's length beyond p, as a share of p (count filter): measured on real collections


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


def prefix_length(sizes: np.ndarray, containment: float, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Each text's prefix (how many of its rarest shingles are looked up) and how many of them a text it is
    inside holds at least: p + e and e + 1, with p = |A| - ceil(C·|A|) + 1 and e = _LONGER·p, within |A|
    (0 and 1 for texts of fewer than ``min_size`` shingles: never looked up)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    shortest = sizes - required_shared(sizes, containment) + 1
    length = np.minimum(sizes, shortest + np.floor(shortest * _LONGER).astype(np.int64))
    length[sizes < min_size] = 0
    return length, np.maximum(length - shortest + 1, 1)


def prefix_entries(
    starts: np.ndarray, index: np.ndarray, held: np.ndarray, length: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(row, shingle) of each text's rarest ``length`` shingles (``prefix_length``). ``index`` numbers each
    of the texts' shingles (one run a text, from ``starts``) among the distinct ones, in their order;
    ``held`` says how many texts hold each distinct shingle. Sorted a block of texts at a time, so that
    what the sort needs stays small beside the shingles."""
    sizes = np.diff(starts)
    rarest_first = np.lexsort((np.arange(len(held)), held)).astype(np.int32)  # the distinct shingles, in order
    rank = np.empty(len(held), dtype=np.int64)
    rank[rarest_first] = np.arange(len(held))
    rows_out: list[np.ndarray] = []
    tokens_out: list[np.ndarray] = []
    first_row = 0
    while first_row < len(sizes):
        last_row = max(int(np.searchsorted(starts, starts[first_row] + _SORTED_AT_ONCE, "right")) - 1, first_row + 1)
        span = slice(int(starts[first_row]), int(starts[last_row]))
        # each row's shingles, rarest first, then by hash: one sort of (row, rank) keys (a third of a lexsort's time)
        rows = np.repeat(np.arange(last_row - first_row, dtype=np.int64), sizes[first_row:last_row])
        keys = np.sort((rows << 32) | rank[index[span]])
        # the first length[r] of each row r's, in that order
        counts = np.column_stack((length[first_row:last_row], sizes[first_row:last_row] - length[first_row:last_row]))
        taken = keys[np.repeat(np.tile([True, False], last_row - first_row), counts.ravel())]
        rows_out.append(((taken >> 32) + first_row).astype(np.int32))
        tokens_out.append(rarest_first[taken & 0xFFFFFFFF])
        first_row = last_row
    if not rows_out:
        return np.empty(0, np.int32), np.empty(0, np.int32)
    return np.concatenate(rows_out), np.concatenate(tokens_out)


def distinct_shingles(values: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each shingle's number among the distinct ones (in their order), how many texts hold each distinct
    one, and the postings: the rows holding each, in turn (one sort of the shingles gives all three, in
    32-bit arrays: the search's memory is a few times the shingles')."""
    sizes = np.diff(starts)
    if len(values) == 0:
        return np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.int32)
    by_value = np.argsort(values, kind="stable")  # texts in row order within each shingle's postings
    postings = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)[by_value]
    ordered = values[by_value]
    new = np.empty(len(values), dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    del ordered
    index = np.empty(len(values), dtype=np.int32)
    index[by_value] = np.cumsum(new, dtype=np.int32) - 1
    del by_value
    held = np.diff(np.flatnonzero(np.append(new, True))).astype(np.int32)
    return index, held, postings


Measure = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""|A∩B| of many pairs of rows at once (the matcher's: from its caches, or by its workers)."""


def find_excerpts(
    sets: Sequence[np.ndarray],
    containment: float,
    *,
    min_size: int = 30,
    measure: Measure | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> ExcerptArrays:
    """Every pair of ``sets`` (sorted arrays of distinct shingle hashes, one a text) where the smaller,
    of at least ``min_size`` shingles, has a share of at least ``containment`` of its shingles in the
    larger; the rows of a pair are indices into ``sets``. Candidates are measured by ``measure``, or
    here, a batch at a time."""
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
        part = slice(begin, begin + _MEASURED_AT_ONCE)
        if measure is not None:
            shared[part] = measure(inner[part], outer[part])
        else:
            shared[part] = [
                shared_count(values[starts[a] : starts[a + 1]], values[starts[b] : starts[b + 1]])
                for a, b in zip(inner[part].tolist(), outer[part].tolist(), strict=True)
            ]
    progress(ProgressEvent("excerpts", len(inner), len(inner)))
    kept = shared >= required_shared(sizes[inner], containment)
    inner, outer = inner[kept], outer[kept]
    return ExcerptArrays(inner, outer, shared[kept], sizes[inner], sizes[outer])


def shared_count(small: np.ndarray, large: np.ndarray) -> int:
    """|A∩B| of two sorted sets of distinct values, the first no larger: each of its values looked up in
    the other (|A| log |B|, an excerpt against its source) or the two merged (|A| + |B|, alike in size)."""
    if len(small) * max(int(len(large)).bit_length(), 1) < len(small) + len(large):
        at = np.searchsorted(large, small)
        return int(np.count_nonzero(large[np.minimum(at, len(large) - 1)] == small)) if len(large) else 0
    return minhash.exact_overlap(small, large)


def candidate_pairs(
    values: np.ndarray,
    starts: np.ndarray,
    containment: float,
    min_size: int,
    cancel: CancelToken = NEVER_CANCELLED,
) -> tuple[np.ndarray, np.ndarray]:
    """(inner, outer) rows, each pair once, of every pair that may be an excerpt: the outer, no smaller
    (rows in order where the sizes tie), holds as many of the inner's prefix as one it is inside does."""
    sizes = np.diff(starts)
    index, held, postings = distinct_shingles(values, starts)
    length, needed = prefix_length(sizes, containment, min_size)
    a, token = prefix_entries(starts, index, held, length)
    del index
    posting_start = np.concatenate(([0], np.cumsum(held, dtype=np.int64)))
    made = np.cumsum(held[token], dtype=np.int64)  # pairs made by the prefix entries up to each
    kept: list[np.ndarray] = []
    # (text, other) codes and how many of the text's prefix the other holds: a text's entries are in a row,
    # so all its pairs are counted by the end of the round its last entry is in; only the text a round cut
    # is carried to the next, and each pair is judged on one text's prefix (of two alike in size, either one
    # an excerpt must pass: a pair kept by one is measured)
    carried = (np.empty(0, np.int64), np.empty(0, np.int64))
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
        codes, counts = np.unique((x[keep].astype(np.int64) << 32) | b[keep], return_counts=True)
        if len(carried[0]):
            codes, counts = _summed(np.concatenate((carried[0], codes)), np.concatenate((carried[1], counts)))
        cut = (codes >> 32) == int(a[stop - 1]) if stop < len(a) and a[stop] == a[stop - 1] else None
        if cut is not None:
            carried = (codes[cut], counts[cut])
            codes, counts = codes[~cut], counts[~cut]
        else:
            carried = (np.empty(0, np.int64), np.empty(0, np.int64))
        kept.append(codes[counts >= needed[codes >> 32]])
        begin = stop
    codes = np.concatenate(kept) if kept else np.empty(0, np.int64)
    x, b = codes >> 32, codes & 0xFFFFFFFF
    tie = sizes[b] == sizes[x]
    inner, outer = np.where(tie, np.minimum(x, b), x), np.where(tie, np.maximum(x, b), b)
    codes = np.unique((inner << 32) | outer)
    return codes >> 32, codes & 0xFFFFFFFF


def _summed(codes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct code once, with the sum of its counts."""
    order = np.argsort(codes, kind="stable")
    codes, counts = codes[order], counts[order]
    first = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    return codes[first], np.add.reduceat(counts, first)
