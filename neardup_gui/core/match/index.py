"""Candidate pairs: the Hamming block index (Manku et al.) and the MinHash band index (LSH).

All-pairs search runs in memory over the stored fingerprints. For a Hamming threshold k the 64 bits
are cut into m >= k+1 blocks; two fingerprints within k differ in at most k blocks, so they agree
exactly on some m-k of them (pigeonhole). One sorted table per choice of m-k blocks finds every such
pair; m is chosen per (n, k) by a cost model. Each candidate is verified by XOR + popcount, so the
result is exactly the brute-force answer, for every k.

One-document queries use the persisted index (store/query_index.py): four 16-bit blocks; within k, some block
differs in at most k//4 bits, so probing each block with every mask of that many bits is exact too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from ..fingerprint import minhash
from ..fingerprint.simhash import BITS, hamming
from ..fingerprint.text import sorted_unique
from ..jobs import NEVER_CANCELLED, CancelToken
from ..models import HAMMING_MAX
from ..store.query_index import BLOCK_BITS, BLOCKS
from ..workers.parallel import IN_THIS_PROCESS, MappedFiles, Workers
from .unionfind import UnionFind

_PAIR_BATCH = 1_000_000  # candidate pairs expanded at a time
_ESTIMATE_CHUNK = 65_536  # pairs whose signatures are gathered at a time (2 x 32 MB at 128 permutations)
_HELD_CODES = 4_000_000  # candidate codes gathered before duplicates are first dropped
CANDIDATE_BUDGET = 16_000_000
"""The most candidate pairs grouping holds at once (~130 MB of codes, and as much of estimates), whatever
the data: past it, candidates are kept only when their MinHash estimate reaches the bar, and past it
again only SPARE_FORESTS edge-disjoint maximum spanning forests by estimate: the first joins the same
documents as all the pairs at every estimate; the others give the exact check other routes (measured on
600 one-line notes: the same groups at T 0.5-0.7, 111 instead of 110 at 0.8). Together with the batches
above, one grouping's candidate search stays under about 1 GB."""


SPARE_FORESTS = 8
"""How many edge-disjoint spanning forests by estimate are kept past the budget (see _forest_by_estimate)."""


class _Candidates:
    """Candidate pairs gathered in pieces as codes min*n + max. While few, duplicates are dropped as
    they pile up and every distinct pair is estimated once at the end; past CANDIDATE_BUDGET, each
    piece is estimated as it comes and only pairs reaching ``min_estimate`` are kept, and past it again
    only spanning forests by estimate (``_forest_by_estimate``)."""

    def __init__(
        self,
        sigs: np.ndarray,
        min_estimate: float,
        cancel: CancelToken,
        budget: int = CANDIDATE_BUDGET,
        workers: Workers = IN_THIS_PROCESS,
        files: MappedFiles | None = None,
    ) -> None:
        self.sigs, self.n, self.floor, self.cancel, self.budget = sigs, len(sigs), min_estimate, cancel, budget
        self.workers, self.files = workers, files
        self.codes: list[np.ndarray] = []
        self.estimates: list[np.ndarray] | None = None  # set once pieces are estimated as they come
        self.held = 0
        self.limit = min(_HELD_CODES, budget)
        self._head: np.ndarray | None = None

    @property
    def head(self) -> np.ndarray:
        """probe_head of the signatures, made when first estimated (128 MB at a million documents)."""
        if self._head is None:
            self._head = probe_head(self.sigs)
        return self._head

    def add(self, a: np.ndarray, b: np.ndarray) -> None:
        if len(a) == 0:
            return
        if self.estimates is not None:
            a, b, est = estimate_pairs(self.sigs, a, b, self.floor, self.cancel, self.head)
            self.estimates.append(est)
        self.codes.append(np.minimum(a, b) * self.n + np.maximum(a, b))
        self.held += len(a)
        if self.held > self.limit:
            self._compact()

    def add_estimated(self, a: np.ndarray, b: np.ndarray, est: np.ndarray) -> None:
        """Pairs estimated already, all reaching the bar."""
        if len(a) == 0:
            return
        if self.estimates is None:  # from now on, pairs are kept with their estimates
            self.estimates = []
            if self.codes:
                codes, est = self._estimated(self._distinct_codes())
                self.codes, self.estimates = [codes], [est]
        self.codes.append(np.minimum(a, b).astype(np.int64) * self.n + np.maximum(a, b))
        self.estimates.append(est)
        self.held += len(a)
        if self.held > self.limit:
            self._compact()

    def _distinct_codes(self) -> np.ndarray:
        """The codes gathered so far, each once, sorted (the pieces let go of first: they are the bulk)."""
        gathered = np.concatenate(self.codes)
        self.codes = []
        gathered.sort()
        return gathered[np.concatenate(([True], gathered[1:] != gathered[:-1]))] if len(gathered) else gathered

    def _estimated(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(codes, estimates) of the pairs of ``codes`` whose estimate reaches the bar, a batch at a time
        (pairs are made from codes only for the batch); by the workers when there are many."""
        if self.workers.pooled and len(codes) >= (_POOL_ESTIMATES if self.workers.keeping else _COLD_POOL_ESTIMATES):
            return self._estimated_in_pool(codes)
        kept_codes, kept_est = [codes[:0]], [np.empty(0, dtype=np.float32)]
        for start in range(0, len(codes), _PAIR_BATCH):
            part = codes[start : start + _PAIR_BATCH]
            i, j, est = estimate_pairs(self.sigs, part // self.n, part % self.n, self.floor, self.cancel, self.head)
            kept_codes.append(i * self.n + j)
            kept_est.append(est)
        return np.concatenate(kept_codes), np.concatenate(kept_est)

    def _estimated_in_pool(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_estimated`` by the workers, at least one batch each, the answers put back in the batches'
        order (the same as here). The signatures and the candidates go once, as .npy files every worker
        maps: a task is a few numbers (a large one could fill its pipe while a worker fills the other)."""
        per_task = min(_PAIR_BATCH, -(-len(codes) // self.workers.count))
        with MappedFiles.using(self.files) as files:
            sigs = files.write("sigs", np.ascontiguousarray(self.sigs, dtype=np.uint32), once=True)
            head = files.write("head", self.head, once=True)
            codes_file = files.write("codes", codes)
            tasks = [
                EstimateTask(sigs, head, codes_file, k, min(k + per_task, len(codes)), self.floor)
                for k in range(0, len(codes), per_task)
            ]
            try:
                answers = {
                    task.first: kept for task, kept in self.workers.map(estimate_task, tasks, cancel=self.cancel)
                }
            finally:
                files.discard(codes_file)
        kept = [answers[task.first] for task in tasks]
        return (
            np.concatenate([codes[:0], *(c for c, _ in kept)]),
            np.concatenate([np.empty(0, dtype=np.float32), *(e for _, e in kept)]),
        )

    def _compact(self) -> None:
        if self.estimates is None:
            codes = self._distinct_codes()
            if len(codes) <= self.budget // 2:
                self.codes, self.held = [codes], len(codes)
                self.limit = min(self.budget, max(self.limit, 2 * len(codes)))
                return
            codes, est = self._estimated(codes)
            self.codes, self.estimates = [codes], [est]
        codes, est = self._unique()
        if len(codes) > self.budget // 2:
            codes, est = _forest_by_estimate(self.n, codes, est, self.cancel)
        self.codes, self.estimates, self.held, self.limit = [codes], [est], len(codes), self.budget

    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(i, j, estimate), i < j, each pair once, of the candidates whose estimate reaches the bar."""
        codes, est = self.codes_and_estimates()
        return codes // self.n, codes % self.n, est

    def codes_and_estimates(self) -> tuple[np.ndarray, np.ndarray]:
        """The candidates as sorted codes i * n + j, each once, with their estimates (handed over:
        the gathered pieces are let go of)."""
        if not self.codes:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
        if self.estimates is None:
            return self._estimated(self._distinct_codes())
        return self._unique()

    def _unique(self) -> tuple[np.ndarray, np.ndarray]:
        """The estimated pieces as one sorted run, each pair once (the pieces let go of as they are read)."""
        assert self.estimates is not None
        codes, est = np.concatenate(self.codes), np.concatenate(self.estimates)
        self.codes, self.estimates = [], []
        return _unique_codes(codes, est, self.sigs.shape[1], self.n)


def _unique_codes(codes: np.ndarray, est: np.ndarray, width: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted codes, each once, with their estimates (k / width: a pair found twice has the same one).
    ``codes`` is overwritten.

    Each estimate's k is packed below its code and the packed keys sorted in place: a grouping's tens
    of millions of candidates then need 8 bytes each while sorted instead of the 32 of an argsort and
    two gathers (the parent's peak at 100,000 documents). Past about 267 million rows the keys would not
    fit 64 bits, and the codes are sorted as before."""
    base = width + 1
    if not len(codes) or (n * n - 1) * base + width >= 1 << 63:  # packed keys must fit int64: n up to ~267 million
        order = np.argsort(codes, kind="stable")
        codes, est = codes[order], est[order]
        first = np.concatenate(([True], codes[1:] != codes[:-1])) if len(codes) else np.zeros(0, dtype=bool)
        return codes[first], est[first]
    keys = codes if codes.flags.writeable else codes.copy()
    for start in range(0, len(keys), _PAIR_BATCH):  # in slices: no temporary of the whole
        part = slice(start, start + _PAIR_BATCH)
        keys[part] *= base
        keys[part] += np.rint(est[part] * width).astype(np.int64)
    del codes, est
    keys.sort()
    first = np.empty(len(keys), dtype=bool)
    first[0] = True
    for start in range(0, len(keys) - 1, _PAIR_BATCH):
        stop = min(start + _PAIR_BATCH, len(keys) - 1)
        np.not_equal(keys[start + 1 : stop + 1] // base, keys[start:stop] // base, out=first[start + 1 : stop + 1])
    keys = keys[first]
    del first
    out_est = np.empty(len(keys), dtype=np.float32)
    for start in range(0, len(keys), _PAIR_BATCH):
        part = slice(start, start + _PAIR_BATCH)
        out_est[part] = (keys[part] % base) / width  # float64 k / width, then float32: as estimate_pairs
        keys[part] //= base
    return keys, out_est


def _forest_by_estimate(
    n: int, codes: np.ndarray, est: np.ndarray, cancel: CancelToken, forests: int = SPARE_FORESTS
) -> tuple[np.ndarray, np.ndarray]:
    """The union of ``forests`` edge-disjoint maximum spanning forests of the pairs, weighted by estimate
    (Kruskal, again on what the last one left): at most forests x (n - 1) pairs, each forest's in the
    order of ``codes``, one forest after the other. One forest joins the same documents at every
    estimate; the others are other routes for when a forest pair fails the exact Jaccard check or is
    ruled out by a person.

    The pairs are ordered once (what each forest looks at is what the last left, in the same order): at a
    million documents, tens of millions of pairs in dense buckets are held to the budget several times
    over."""
    order = np.argsort(-est, kind="stable")
    narrow = np.int32 if n < 1 << 31 else np.int64  # tens of millions of pairs: 4 bytes an end
    i, j = (codes[order] // n).astype(narrow), (codes[order] % n).astype(narrow)
    left = np.ones(len(order), dtype=bool)  # by place in ``order``: in no forest yet
    kept: list[np.ndarray] = []
    for _ in range(forests):
        places = np.flatnonzero(left)
        if len(places) == 0:
            break
        chosen = places[_one_forest(n, i[places], j[places], cancel)]
        left[chosen] = False
        kept.append(np.sort(order[chosen]))  # the forest's pairs in the order of ``codes``
    taken = np.concatenate(kept) if kept else np.empty(0, dtype=np.int64)
    return codes[taken], est[taken]


def _one_forest(rows: int, i: np.ndarray, j: np.ndarray, cancel: CancelToken) -> np.ndarray:
    """Which of the pairs (i, j) of ``rows`` rows, strongest first, make a maximum spanning forest (a mask):
    each joins two components still apart when it comes (Kruskal). The components are looked at as
    arrays once for every half of ``rows`` pairs (O(rows) a look), so that a pair joined already by then
    costs no Python; the others are tried one by one, which decides."""
    uf = UnionFind(rows)
    chosen = np.zeros(len(i), dtype=bool)
    size = max(4096, rows // 2)
    for start in range(0, len(i), size):
        cancel.raise_if_cancelled()
        labels = uf.labels()
        a, b = i[start : start + size], j[start : start + size]
        apart = np.flatnonzero(labels[a] != labels[b])
        union = uf.union
        for k, x, y in zip(apart.tolist(), a[apart].tolist(), b[apart].tolist(), strict=True):
            if union(x, y):
                chosen[start + k] = True
    return chosen


_PROBE = 32  # signature positions looked at first, to drop most pairs that cannot reach the bar


def probe_head(sigs: np.ndarray) -> np.ndarray:
    """The first signature positions, contiguous: what estimate_pairs looks at first."""
    return np.ascontiguousarray(sigs[:, :_PROBE])


def _empty_pairs() -> tuple[np.ndarray, np.ndarray]:
    return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)


def pairs_in_runs(
    order: np.ndarray, sorted_keys: np.ndarray, batch: int = _PAIR_BATCH
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """All pairs (order[p], order[q]), p < q, whose sorted keys are equal, in batches of about ``batch``."""
    n = len(sorted_keys)
    if n < 2:
        return
    boundary = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1
    starts = np.concatenate(([0], boundary))
    lengths = np.diff(np.concatenate((starts, [n])))
    keep = lengths >= 2
    starts, lengths = starts[keep], lengths[keep]
    if len(starts) == 0:
        return
    pair_counts = lengths * (lengths - 1) // 2
    batch_ends = np.arange(batch, int(pair_counts.sum()) + batch, batch)
    cut_at = np.searchsorted(np.cumsum(pair_counts), batch_ends, side="right")
    first = 0
    for last in sorted_unique(np.append(cut_at, len(starts))):
        last = max(int(last), first + 1)
        if first >= len(starts):
            break
        yield _expand(order, starts[first:last], lengths[first:last])
        first = last


def pairs_to_first(order: np.ndarray, sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first row of each run of equal keys, every other row of that run): enough to connect each run."""
    n = len(sorted_keys)
    if n < 2:
        return _empty_pairs()
    starts = np.concatenate(([0], np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1))
    run_of = np.repeat(np.arange(len(starts)), np.diff(np.concatenate((starts, [n]))))
    later = np.ones(n, dtype=bool)
    later[starts] = False
    return order[starts[run_of[later]]], order[later]


def _expand(order: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = int(lengths.sum())
    run_offsets = np.cumsum(lengths) - lengths
    pos = np.repeat(starts, lengths) + (np.arange(total) - np.repeat(run_offsets, lengths))
    after = np.repeat(starts + lengths, lengths) - pos - 1
    left = np.repeat(pos, after)
    count_offsets = np.cumsum(after) - after
    right = left + 1 + (np.arange(int(after.sum())) - np.repeat(count_offsets, after))
    return order[left], order[right]


def _block_bounds(m: int) -> list[tuple[int, int]]:
    """(start bit, width) of m nearly equal blocks covering 64 bits."""
    base, extra = divmod(BITS, m)
    bounds, start = [], 0
    for i in range(m):
        width = base + (1 if i < extra else 0)
        bounds.append((start, width))
        start += width
    return bounds


def _plan(n: int, k: int) -> int:
    """Number of blocks m for all-pairs search at distance k over n fingerprints (cheapest by model).

    C(m, k) tables, each a sort of n keys of 64(m-k)/m bits, plus the candidates sharing a key
    (n^2/2 / 2^bits for random fingerprints), each verified by XOR + popcount.
    """
    if k == 0:
        return 1
    best_m, best_cost = k + 1, float("inf")
    for m in range(k + 1, min(BITS, k + 9) + 1):
        key_bits = BITS * (m - k) / m
        cost = comb(m, k) * (n + 5.0 * n * n / 2 / 2.0**key_bits)
        if cost < best_cost:
            best_m, best_cost = m, cost
    return best_m


def _sorted_by_key(key: np.ndarray, key_bits: int, rows: np.ndarray, row_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(row order, sorted keys). Key and row packed in one uint64 sort when they fit: several
    times faster than argsort."""
    if key_bits + row_bits <= BITS:
        packed = np.sort((key << np.uint64(row_bits)) | rows)
        return (packed & np.uint64((1 << row_bits) - 1)).astype(np.int64), packed >> np.uint64(row_bits)
    order = np.argsort(key, kind="stable")
    return order, key[order]


def hamming_pairs(
    fingerprints: np.ndarray, k: int, *, cancel: CancelToken = NEVER_CANCELLED
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i, j), i < j, of rows with Hamming distance <= k, and that distance. Exact.

    Real collections repeat fingerprints (texts equal up to punctuation or order), so the search runs
    over the distinct values and each pair found is expanded to every row holding those values.
    """
    if not 0 <= k <= HAMMING_MAX:
        raise ValueError(f"k must be between 0 and {HAMMING_MAX}, not {k}")
    fps = np.ascontiguousarray(fingerprints, dtype=np.uint64)
    n = len(fps)
    if n < 2:
        i, j = _empty_pairs()
        return i, j, np.empty(0, dtype=np.uint8)
    values, inverse, counts = np.unique(fps, return_inverse=True, return_counts=True)
    ui, uj, _ = _distinct_pairs(values, k, cancel) if len(values) > 1 else (*_empty_pairs(), None)
    rows_by_value = np.argsort(inverse, kind="stable")
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    # pairs between rows of two close values: every combination
    left = _members(ui, uj, counts, starts, rows_by_value)
    # pairs among rows sharing one value: distance 0
    repeated = np.flatnonzero(counts > 1)
    same_i, same_j = [], []
    for a, b in pairs_in_runs(rows_by_value, inverse[rows_by_value]) if len(repeated) else ():
        same_i.append(a)
        same_j.append(b)
    all_i = np.concatenate([left[0], *same_i]) if same_i else left[0]
    all_j = np.concatenate([left[1], *same_j]) if same_j else left[1]
    lo, hi = np.minimum(all_i, all_j), np.maximum(all_i, all_j)
    order = np.lexsort((hi, lo))
    lo, hi = lo[order], hi[order]
    return lo, hi, hamming(fps[lo], fps[hi]).astype(np.uint8)


def _members(ui: np.ndarray, uj: np.ndarray, counts: np.ndarray, starts: np.ndarray, rows_by_value: np.ndarray):
    """All (row of value ui, row of value uj) combinations, for each pair of distinct values."""
    if len(ui) == 0:
        return _empty_pairs()
    ci, cj = counts[ui], counts[uj]
    if (ci == 1).all() and (cj == 1).all():
        return rows_by_value[starts[ui]], rows_by_value[starts[uj]]
    sizes = ci * cj
    pair = np.repeat(np.arange(len(ui)), sizes)
    within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    a = rows_by_value[starts[ui][pair] + within // cj[pair]]
    b = rows_by_value[starts[uj][pair] + within % cj[pair]]
    return a, b


def _distinct_pairs(fps: np.ndarray, k: int, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """hamming_pairs over distinct fingerprints: the pigeonhole tables."""
    n = len(fps)
    m = _plan(n, k)
    bounds = _block_bounds(m)
    blocks = [(fps >> np.uint64(start)) & np.uint64((1 << width) - 1) for start, width in bounds]
    rows = np.arange(n, dtype=np.uint64)
    row_bits = max(1, (n - 1).bit_length())
    found_i: list[np.ndarray] = []
    found_j: list[np.ndarray] = []
    for chosen in combinations(range(m), m - k):
        cancel.raise_if_cancelled()
        key = blocks[chosen[0]].copy()
        key_bits = bounds[chosen[0]][1]
        for block in chosen[1:]:
            key <<= np.uint64(bounds[block][1])
            key |= blocks[block]
            key_bits += bounds[block][1]
        order, sorted_keys = _sorted_by_key(key, key_bits, rows, row_bits)
        for a, b in pairs_in_runs(order, sorted_keys):
            close = hamming(fps[a], fps[b]) <= k
            found_i.append(a[close])
            found_j.append(b[close])
    return _unique_pairs(found_i, found_j, n, fps)


def _unique_pairs(
    found_i: list[np.ndarray], found_j: list[np.ndarray], n: int, fps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not found_i:
        i, j = _empty_pairs()
        return i, j, np.empty(0, dtype=np.uint8)
    a = np.concatenate(found_i)
    b = np.concatenate(found_j)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    codes = sorted_unique(lo.astype(np.int64) * n + hi)
    i, j = codes // n, codes % n
    return i, j, hamming(fps[i], fps[j]).astype(np.uint8)


def block_probes(k: int) -> list[int]:
    """XOR masks to probe each persisted 16-bit block with, so a lookup at distance k is exact."""
    if not 0 <= k <= HAMMING_MAX:
        raise ValueError(f"k must be between 0 and {HAMMING_MAX}, not {k}")
    radius = k // BLOCKS
    masks = [0]
    for r in range(1, radius + 1):
        for bits in combinations(range(BLOCK_BITS), r):
            masks.append(sum(1 << b for b in bits))
    return masks


def band_pairs(
    signatures: np.ndarray,
    bands: int,
    rows: int,
    *,
    min_estimate: float = 0.0,
    dense: int | None = None,
    cancel: CancelToken = NEVER_CANCELLED,
    budget: int = CANDIDATE_BUDGET,
    workers: Workers = IN_THIS_PROCESS,
    files: MappedFiles | None = None,
    among: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """LSH candidates (i, j), i < j, sharing a band, kept when their estimated Jaccard >= min_estimate;
    only among the rows ``among`` (ascending, each once) when given, else among all.

    Returns (i, j, estimate, dense buckets). With ``dense`` set, a bucket of more rows than that
    yields only its first row paired with each other row, and is returned whole (sorted rows) so the
    caller can compare its members further where that still matters; a family of m near-identical
    documents then costs m candidates instead of m^2/2. Candidates still need exact verification.
    A pair met in several bands is estimated once; a first look at 32 signature positions drops most
    pairs that cannot reach ``min_estimate``. Within the budget, many candidates are estimated by
    ``workers``, which map the signatures from ``files`` (else from a temporary folder of their own).
    """
    sigs = np.ascontiguousarray(signatures, dtype=np.uint32)
    among = None if among is None else np.asarray(among, dtype=np.int64)  # codes min * n + max: never int32
    if (len(sigs) if among is None else len(among)) < 2:
        i, j = _empty_pairs()
        return i, j, np.empty(0), []
    if bands * rows > sigs.shape[1]:
        raise ValueError(f"{bands} bands x {rows} rows exceed the signature length {sigs.shape[1]}")
    found = _Candidates(sigs, min_estimate, cancel, budget, workers, files)
    buckets: dict[bytes, np.ndarray] = {}
    for band in range(bands):
        cancel.raise_if_cancelled()
        # a band's keys at a time: all bands' at once took 1.1 KB a row (a GB at a million documents)
        columns = sigs[:, band * rows : (band + 1) * rows]
        column = minhash.band_keys(columns if among is None else columns[among], 1, rows)[:, 0]
        order = np.argsort(column)
        sorted_keys = column[order]
        if among is not None:
            order = among[order]  # rows of the signatures, not places among them: no copy of the rows
        if dense is not None:
            order, sorted_keys, star_i, star_j = _split_dense(order, sorted_keys, dense, buckets)
            found.add(star_i, star_j)
        for a, b in pairs_in_runs(order, sorted_keys):
            found.add(a, b)
    i, j, est = found.pairs()
    return i, j, est, list(buckets.values())


_POOL_ESTIMATES = 200_000
"""Fewer candidate pairs than this are estimated here (about 30 ms of work): not worth a round trip."""
_COLD_POOL_ESTIMATES = 4_000_000
"""... and fewer than this when the workers would start for this alone (about 0.5 s on 2 cores), not for
the steps after it too (inside ``Workers.kept()``: the forest measures its pairs with them next)."""


@dataclass(frozen=True, slots=True)
class EstimateTask:
    """Candidate pairs [first, last) of the file ``codes`` (codes i * n + j) to estimate against
    ``min_estimate``; the signatures and their first columns (``probe_head``) are the files ``sigs``
    and ``head`` (.npy files every worker maps, see MappedFiles)."""

    sigs: str
    head: str
    codes: str
    first: int
    last: int
    min_estimate: float


def estimate_task(task: EstimateTask) -> tuple[np.ndarray, np.ndarray]:
    """(codes, estimates) of the task's pairs whose estimate reaches the bar (worker side)."""
    sigs = np.load(task.sigs, mmap_mode="r")
    head = np.load(task.head, mmap_mode="r")
    codes = np.load(task.codes, mmap_mode="r")[task.first : task.last]
    n = len(sigs)
    i, j, est = estimate_pairs(sigs, codes // n, codes % n, task.min_estimate, head=head)
    return i * n + j, est


def _split_dense(order: np.ndarray, sorted_keys: np.ndarray, dense: int, buckets: dict[bytes, np.ndarray]):
    """Take the runs longer than ``dense`` out of (order, sorted_keys): star edges for each, and the
    bucket's rows recorded (once, whatever band found it)."""
    n = len(sorted_keys)
    starts = np.concatenate(([0], np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1))
    lengths = np.diff(np.concatenate((starts, [n])))
    big = np.flatnonzero(lengths > dense)
    if len(big) == 0:
        empty = np.empty(0, dtype=np.int64)
        return order, sorted_keys, empty, empty
    keep = np.ones(n, dtype=bool)
    star_i, star_j = [], []
    for run in big.tolist():
        members = np.sort(order[starts[run] : starts[run] + lengths[run]])
        keep[starts[run] : starts[run] + lengths[run]] = False
        buckets.setdefault(members.tobytes(), members)
        star_i.append(np.full(len(members) - 1, members[0]))
        star_j.append(members[1:])
    return order[keep], sorted_keys[keep], np.concatenate(star_i), np.concatenate(star_j)


_BUCKET_TASK_PAIRS = 8_000_000
"""Pairs inside dense buckets a task compares, about (a few tenths of a second): the same tasks whatever the
number of workers (what is kept past the budget depends on the pieces), small enough to spread over 16."""
_POOL_BUCKET_PAIRS = 16_000_000
"""Fewer pairs than this inside dense buckets are compared here: starting workers would cost more."""
_BLOCK_CELLS = 1 << 20
"""Pairs of one bucket compared at once (a count of equal positions each: a MB)."""


def bucket_codes(
    sigs: np.ndarray,
    buckets: list[np.ndarray],
    min_estimate: float,
    cancel: CancelToken = NEVER_CANCELLED,
    budget: int = CANDIDATE_BUDGET,
    workers: Workers = IN_THIS_PROCESS,
    files: MappedFiles | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j), i < j, inside the dense buckets (sorted rows) whose MinHash estimate reaches
    ``min_estimate``, each once (buckets of different bands overlap), as sorted codes i * len(sigs) + j,
    with its estimate: the pairs ``estimate_pairs`` keeps of all the buckets' pairs.

    A bucket's pairs are compared as blocks of its own signatures, not pair by pair: in a collection
    of licence texts, a bucket holds thousands of documents sharing a passage, and fewer than one of
    their pairs in a hundred reaches the bar (at 100,000 documents, 273,000 of 36 million), so no
    pair is made before its first positions are counted equal enough. Parts of buckets go to tasks,
    in the worker pool when there are many; memory stays within CANDIDATE_BUDGET however large the
    buckets are (past it, spanning forests by estimate are kept). Workers map the signatures and the
    buckets from ``files`` (else from a temporary folder of their own)."""
    found = _Candidates(sigs, min_estimate, cancel, budget)
    parts, pairs = _bucket_parts([len(bucket) for bucket in buckets])
    total = int(pairs.sum())
    if total == 0:
        return found.codes_and_estimates()
    count = -(-total // _BUCKET_TASK_PAIRS)
    cuts = sorted_unique(np.searchsorted(np.cumsum(pairs), np.arange(1, count) * total / count, side="right"))
    bounds = list(itertools.pairwise([0, *cuts[(cuts > 0) & (cuts < len(parts))].tolist(), len(parts)]))
    members = np.concatenate(buckets).astype(np.int64)
    offsets = np.cumsum([0, *map(len, buckets)]).astype(np.int64)
    if not workers.pooled or total < _POOL_BUCKET_PAIRS:  # here, from memory: nothing written
        for first, last in bounds:
            cancel.raise_if_cancelled()
            found.add_estimated(*_pairs_in_parts(sigs, members, offsets, parts[first:last], min_estimate))
        return found.codes_and_estimates()
    with MappedFiles.using(files) as mapped:
        where = (
            mapped.write("sigs", np.ascontiguousarray(sigs, dtype=np.uint32), once=True),
            mapped.write("members", members),
            mapped.write("offsets", offsets),
            mapped.write("parts", parts),
        )
        tasks = [BucketTask(*where, first, last, min_estimate) for first, last in bounds]
        # taken in the order of the tasks, whatever order they finish in: past the budget, what is kept
        # must not depend on the workers' timing (nor on their number: the tasks are the same here)
        finished: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        taken = 0
        try:
            for task, found_pairs in workers.map(bucket_pairs_task, tasks, cancel=cancel):
                finished[task.first] = found_pairs
                while taken < len(tasks) and tasks[taken].first in finished:
                    found.add_estimated(*finished.pop(tasks[taken].first))
                    taken += 1
        finally:
            for name in where[1:]:
                mapped.discard(name)
    return found.codes_and_estimates()


def _bucket_parts(lengths: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(parts, their pairs): rows (bucket, first, last) of parts of the buckets, in order, a part
    being the pairs of its rows [first, last) with every later row of its bucket, at most about
    _BUCKET_TASK_PAIRS of them (a large bucket is cut, so that tasks stay even)."""
    parts: list[tuple[int, int, int]] = []
    for k, m in enumerate(lengths):
        first = 0
        while first < m - 1:
            # rows [first, last) pair with (m - 1 - row) rows each: the last row reaching the size
            later = np.cumsum(np.arange(m - 1 - first, 0, -1))
            last = first + max(1, int(np.searchsorted(later, _BUCKET_TASK_PAIRS, side="right")))
            parts.append((k, first, min(last, m - 1)))
            first = last
    table = np.array(parts, dtype=np.int64).reshape(-1, 3)
    sizes = np.asarray(lengths, dtype=np.int64)[table[:, 0]]
    rows, after = table[:, 2] - table[:, 1], 2 * sizes - table[:, 1] - table[:, 2] - 1
    return table, rows * after // 2


@dataclass(frozen=True, slots=True)
class BucketTask:
    """The pairs of the bucket parts [first, last) (see _bucket_parts). The signatures, the buckets and
    the parts are .npy files every worker maps (see MappedFiles; written once, not sent each time)."""

    sigs: str
    members: str
    offsets: str
    parts: str
    first: int
    last: int
    min_estimate: float


def bucket_pairs_task(task: BucketTask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, estimate) of the task's pairs (worker side), from the search's files mapped for this
    task alone (a worker holds nothing of a search between tasks: mapping is cheap)."""
    sigs = np.load(task.sigs, mmap_mode="r")
    members = np.load(task.members, mmap_mode="r")
    offsets = np.load(task.offsets)
    parts = np.load(task.parts, mmap_mode="r")[task.first : task.last]
    return _pairs_in_parts(sigs, members, offsets, parts, task.min_estimate)


def _least_count(width: int, bar: float) -> int:
    """The fewest equal positions of ``width`` whose share, computed as ``estimate_pairs`` computes it,
    reaches ``bar`` (width + 1 when none does)."""
    return int(np.count_nonzero(np.arange(width + 1) / width < bar))  # the shares rise with the count


def _pairs_in_parts(
    sigs: np.ndarray, members: np.ndarray, offsets: np.ndarray, parts: np.ndarray, min_estimate: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, estimate), each pair once, of the pairs of bucket ``parts`` whose estimate reaches the
    bar: exactly those ``estimate_pairs`` keeps, with the same first look at the first positions.

    A block of a bucket's rows is compared with every later row a position at a time, counting the
    equal ones (a byte a pair, sequential reads of the bucket's own signatures, about 0.3 ns a pair
    and position); only the pairs that reach both bars are made. Counting every position of every
    pair costs less than gathering the signatures of those passing the first look: in a bucket of
    licence texts, a third of the pairs do."""
    n, width = sigs.shape
    probe_bar = min_estimate - 0.25  # the first look of estimate_pairs: its positions, its bar
    looked = min(_PROBE, width) if probe_bar > 0 else 0
    need_looked = _least_count(looked, probe_bar) if looked else 0
    need = _least_count(width, min_estimate)
    count_type = np.uint8 if width < 256 else np.uint16
    codes, estimates = [np.empty(0, dtype=np.int64)], [np.empty(0, dtype=np.float32)]
    for k, first, last in np.asarray(parts).tolist():
        # the part's rows and those after them (rows of the bucket from ``first`` on, counted from there)
        bucket = np.asarray(members[offsets[k] + first : offsets[k + 1]], dtype=np.int64)
        columns = np.ascontiguousarray(np.asarray(sigs[bucket]).T)  # their signatures, a row a position
        m = len(bucket)
        step = max(1, _BLOCK_CELLS // m)
        for top in range(0, last - first, step):
            bottom = min(top + step, last - first)
            # rows [top, bottom) against every row after ``top``; those at or before a row are dropped below
            counts = np.zeros((bottom - top, m - top - 1), dtype=count_type)
            for column in columns[:looked]:
                counts += column[top:bottom, None] == column[None, top + 1 :]
            passed = counts >= need_looked
            if not passed.any():
                continue
            for column in columns[looked:]:
                counts += column[top:bottom, None] == column[None, top + 1 :]
            passed &= counts >= need
            r, q = np.nonzero(passed)
            later = q >= r
            r, q = r[later], q[later]
            est = counts[r, q] / width
            codes.append(bucket[top + r] * n + bucket[top + 1 + q])
            estimates.append(est.astype(np.float32))  # k / width exactly, as estimate_pairs
    found, est = np.concatenate(codes), np.concatenate(estimates)
    found, first_of = np.unique(found, return_index=True)  # buckets of different bands hold the same pairs
    return found // n, found % n, est[first_of]


def estimate_pairs(
    sigs: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    min_estimate: float,
    cancel: CancelToken = NEVER_CANCELLED,
    head: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs whose MinHash estimate reaches ``min_estimate``, with that estimate. ``head`` is
    ``probe_head(sigs)`` when the caller estimates many pieces of the same signatures."""
    kept_i, kept_j, kept_est = [np.empty(0, np.int64)], [np.empty(0, np.int64)], [np.empty(0, np.float32)]
    probe = min(_PROBE, sigs.shape[1])
    # a pair whose true estimate reaches the bar rarely shows < bar - 0.25 on 32 positions (~3 sigma)
    probe_bar = min_estimate - 0.25
    if head is None:
        head = probe_head(sigs) if probe_bar > 0 and len(i) > 100_000 else sigs[:, :probe]
    for start in range(0, len(i), _ESTIMATE_CHUNK):
        cancel.raise_if_cancelled()
        ci, cj = i[start : start + _ESTIMATE_CHUNK], j[start : start + _ESTIMATE_CHUNK]
        if probe_bar > 0:
            rough = np.count_nonzero(head[ci] == head[cj], axis=1) / probe
            ci, cj = ci[rough >= probe_bar], cj[rough >= probe_bar]
        est = np.count_nonzero(sigs[ci] == sigs[cj], axis=1) / sigs.shape[1]
        keep = est >= min_estimate
        kept_i.append(ci[keep])
        kept_j.append(cj[keep])
        kept_est.append(est[keep].astype(np.float32))  # k / num_perm exactly; millions of them are kept
    return np.concatenate(kept_i), np.concatenate(kept_j), np.concatenate(kept_est)
