"""Candidate pairs and their exact verification, the job's stages 3 and 4 (``job.py``): one text per
normalised text, numbered in text-hash order; the candidates the desktop's forests are built from
(MinHash bands of the forest's layout kept by its estimate bar, SimHash pairs within K); each measured
exactly in the task of its component of candidates and kept by the desktop's rules.

Up to ON_DRIVER_TEXTS texts, the driver numbers and pairs them with the desktop's own searches and hands
each verification task its pairs; past it, both run through shuffles on keys (``keys.py``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.fingerprint import minhash
from ..core.fingerprint.scheme import Scheme
from ..core.fingerprint.simhash import hamming, to_unsigned
from ..core.match.candidates import band_candidates, hamming_candidates
from ..core.match.forest import forest_layout
from ..core.match.unionfind import UnionFind
from ..core.models import SIMHASH_MIN_JACCARD, Method, Similarity, Thresholds
from . import keys
from .components import connected_components
from .records import Compared, compared_digest, similarity, unpacked

if TYPE_CHECKING:
    from pyspark import RDD


def _bucket_pairs(
    members: RDD, parts: int, pairs_of: Callable[..., Iterator[tuple[int, int, Any]]], *extra: Any
) -> RDD:
    """((a, b), value) of the members ((key, (id, payload))) sharing a key, large buckets in block pairs
    (``keys.block_tasks``): no task holds more than two blocks of ``keys.SPLIT`` members."""
    split = keys.SPLIT  # read here: the executors get the driver's value
    big = dict(
        members.map(lambda m: (m[0], 1))
        .reduceByKey(lambda a, b: a + b, parts)
        .filter(lambda kc: kc[1] > split)
        .collect()
    )
    big_b = members.context.broadcast(big)

    def tasks(m: tuple[int, tuple[int, Any]]) -> Iterator[tuple[tuple[int, int, int], tuple[int, Any]]]:
        for task in keys.block_tasks(m[0], big_b.value.get(m[0], 0), m[1][0], split):
            yield task, m[1]

    def pairs(item: tuple[tuple[int, int, int], Iterable[tuple[int, Any]]]) -> Iterator[tuple[tuple[int, int], Any]]:
        task, found = item
        listed = list(found)
        if len(listed) < 2:
            return
        for a, b, value in pairs_of(task, listed, keys.blocks_of(big_b.value.get(task[0], 0), split), *extra):
            yield (a, b), value

    return members.flatMap(tasks).groupByKey(parts).flatMap(pairs)


def candidates(texts: RDD, thresholds: Thresholds, count: int, scheme: Scheme, parts: int) -> RDD:
    """((a, b), (found by SimHash, found by MinHash)) of text ids a < b: the pairs the desktop's forests
    are built from (SimHash within K; MinHash passing the estimate bar of the forest's layout)."""
    found: list[RDD] = []
    if thresholds.method in (Method.SIMHASH, Method.BOTH):
        tables = keys.simhash_tables(thresholds.hamming, max(1, count))
        k = thresholds.hamming
        near = _bucket_pairs(
            texts.flatMap(lambda t: [(key, (t[0], t[1].simhash)) for key in keys.simhash_keys(t[1].simhash, tables)]),
            parts,
            keys.simhash_pairs,
            k,
        )
        found.append(near.map(lambda p: (p[0], (True, False))))
    if thresholds.method in (Method.MINHASH, Method.BOTH):
        bands, rows, floor = keys.band_layout(thresholds.jaccard, scheme.num_perm)
        banded = _bucket_pairs(
            texts.flatMap(
                lambda t: [(key, (t[0], t[1].signature)) for key in keys.band_keys(t[1].signature, bands, rows)]
            ),
            parts,
            keys.band_pairs,
            floor,
        )
        found.append(banded.map(lambda p: (p[0], (False, True))))
    if not found:
        return texts.context.emptyRDD()
    both = found[0] if len(found) == 1 else found[0].union(found[1])
    return both.reduceByKey(lambda x, y: (x[0] or y[0], x[1] or y[1]), parts)


ON_DRIVER_TEXTS = 250_000
"""Texts numbered and paired on the driver, by the desktop's own searches, rather than through shuffles: each
sends its hashes, SimHash and signature there (about 600 bytes; 150 MB at this bound, its candidates as much
again). Measured at 20,000 texts: 1.9 s, where the shuffles took 16.4 s."""


@dataclass(frozen=True, slots=True, eq=False)
class DriverCandidates:
    """``candidates`` held on the driver, as arrays: text ids a < b, found by SimHash, by MinHash."""

    a: np.ndarray
    b: np.ndarray
    by_bits: np.ndarray
    by_bands: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    def touching(self, chosen: np.ndarray) -> DriverCandidates:
        """The candidates with an end among the texts ``chosen`` (a mask by text id)."""
        kept = chosen[self.a] | chosen[self.b]
        return DriverCandidates(self.a[kept], self.b[kept], self.by_bits[kept], self.by_bands[kept])


def numbered_on_driver(
    compared: RDD, thresholds: Thresholds
) -> tuple[RDD, DriverCandidates, dict[bytes, int], list[bytes]]:
    """``number_texts`` and ``candidates`` for a collection of at most ON_DRIVER_TEXTS texts: the texts
    (id, Compared) numbered alike, the same candidates, each text's id by its hash, and each one's
    ``compared_digest`` by id."""
    rows = compared.map(lambda c: (c[1].text_hash, c[0], c[1].simhash, c[1].signature, compared_digest(c[1]))).collect()
    first: dict[bytes, tuple[bytes, int, bytes, bytes]] = {}  # each text's content of the lowest raw hash
    for text_hash, raw, simhash, signature, digest in rows:
        if text_hash not in first or raw < first[text_hash][0]:
            first[text_hash] = (raw, simhash, signature, digest)
    del rows
    numbers = {h: tid for tid, h in enumerate(sorted(first))}  # in text-hash order, as number_texts numbers them
    chosen = [first[h] for h in numbers]
    del first
    n = len(chosen)
    digests = [digest for _r, _s, _g, digest in chosen]
    id_of = compared.context.broadcast({raw: tid for tid, (raw, *_rest) in enumerate(chosen)})
    texts = compared.flatMap(lambda c: [(id_of.value[c[0]], c[1])] if c[0] in id_of.value else [])
    codes, of_simhash = [np.empty(0, np.int64)], [np.empty(0, bool)]  # pairs a < b (a * n + b), SimHash finds?
    everyone = np.arange(n, dtype=np.int64)
    if n > 1 and thresholds.method in (Method.SIMHASH, Method.BOTH):
        simhashes = np.array([to_unsigned(s) for _r, s, _g, _d in chosen], dtype=np.uint64)
        i, j, _ = hamming_candidates(simhashes, everyone, thresholds.hamming)
        codes.append(np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j))
        of_simhash.append(np.ones(len(i), dtype=bool))
    if n > 1 and thresholds.method in (Method.MINHASH, Method.BOTH):
        signatures = np.array([np.frombuffer(g, dtype="<u4") for _r, _s, g, _d in chosen], dtype=np.uint32)
        i, j, _ = band_candidates(signatures, everyone, forest_layout(thresholds.jaccard))
        del signatures
        codes.append(np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j))
        of_simhash.append(np.zeros(len(i), dtype=bool))
    code, bits = np.concatenate(codes), np.concatenate(of_simhash)
    order = np.argsort(code, kind="stable")
    code, bits = code[order], bits[order]
    first_of = np.flatnonzero(np.r_[True, code[1:] != code[:-1]]) if len(code) else np.empty(0, np.int64)
    # a pair both searches found is one, flagged by both
    by_bits = np.logical_or.reduceat(bits, first_of) if len(code) else bits
    by_bands = np.logical_or.reduceat(~bits, first_of) if len(code) else bits
    unique = code[first_of]
    return texts, DriverCandidates(unique // max(n, 1), unique % max(n, 1), by_bits, by_bands), numbers, digests


def number_texts(compared: RDD, parts: int) -> RDD:
    """(id, Compared): one content per normalised text (the desktop compares distinct texts; equal ones are
    exact copies), numbered in text-hash order, so that a partition computed again (an executor lost)
    numbers alike."""
    by_text: RDD = (
        compared.map(lambda c: (c[1].text_hash, c[1]))
        .reduceByKey(lambda x, y: x if x.raw_hash <= y.raw_hash else y, parts)
        .sortByKey(numPartitions=parts)
    )
    return by_text.values().zipWithIndex().map(lambda ci: (ci[1], ci[0]))


VERDICTS = 1
"""The version of the rules a pair is judged by (``_judged``, ``records.similarity``): a rerun keeps an earlier
result's verdicts only where they are the same. Raise it with any change to what they decide or give."""

Edge = tuple[int, int, Similarity, bool, bool, bytes, bytes, float]
"""A verified pair: (a, b, similarity, by SimHash, by MinHash, text hash of a, of b, exact Jaccard)."""


def _judged(
    compared: dict[int, Compared], pairs: Iterable[tuple[int, int, bool, bool]], k: int, t: float
) -> Iterator[Edge]:
    """The ``pairs`` (a, b, found by SimHash, by MinHash) of one task's texts that pass the desktop's checks."""
    arrays = functools.cache(unpacked)  # a text in several pairs is unpacked once
    for a, b, by_bits, by_bands in pairs:
        ca, cb = compared[a], compared[b]
        # J is at most the smaller set's size over the larger's: a pair that cannot reach the bar it needs is
        # not measured (a third of the candidates on the benchmark's corpus)
        small, large = sorted((ca.shingle_count, cb.shingle_count))
        near = by_bits and int(hamming(ca.simhash, cb.simhash)) <= k
        if small < (t - 1e-9) * large and not (near and small >= (SIMHASH_MIN_JACCARD - 1e-9) * large):
            continue
        shared = minhash.exact_overlap(arrays(ca)[0], arrays(cb)[0])
        union = ca.shingle_count + cb.shingle_count - shared
        jaccard = shared / union if union else 1.0
        simhash_edge = near and jaccard >= SIMHASH_MIN_JACCARD - 1e-9
        minhash_edge = by_bands and jaccard >= t - 1e-9
        if simhash_edge or minhash_edge:  # the rest of the numbers, only for the pairs kept
            sim, _ = similarity(ca, cb, arrays, shared)
            yield a, b, sim, simhash_edge, minhash_edge, ca.text_hash, cb.text_hash, jaccard


VERIFY_TASK = 4000
"""Texts whose shingle sets one verification task holds at most (~50 MB): a larger component of
candidates is cut into blocks, and each pair of blocks is a task."""


def verified(found: RDD, count: int, texts: RDD, thresholds: Thresholds, parts: int) -> RDD:
    """(a, b, similarity, by SimHash, by MinHash, text hash of a, of b, exact Jaccard) of the candidates
    that pass the desktop's checks, of the ``count`` candidates in ``found``.

    Every candidate lies inside one connected component of the candidate pairs, so the texts are sent,
    each once, to their component's task, and its pairs are measured there: shipping both shingle sets
    with every pair instead cost 19 GB of shuffle at 100,000 documents (73 candidates a text). A
    component larger than VERIFY_TASK is cut into blocks (``keys.block_tasks``), its texts sent to each
    task of their block."""
    k, t, size = thresholds.hamming, thresholds.jaccard, VERIFY_TASK  # read here: the executors get these
    labels = connected_components(found.keys(), count=count, partitions=parts)
    big = found.context.broadcast(
        dict(
            labels.map(lambda tl: (tl[1], 1))
            .reduceByKey(lambda a, b: a + b, parts)
            .filter(lambda lc: lc[1] > size)
            .collect()
        )
    )

    def text_tasks(
        item: tuple[int, tuple[int, Compared]],
    ) -> Iterator[tuple[tuple[int, int, int], tuple[int, Compared]]]:
        tid, (label, compared) = item
        for task in keys.block_tasks(label, big.value.get(label, 0), tid, size):
            yield task, (tid, compared)

    def pair_task(
        item: tuple[int, tuple[tuple[int, tuple[bool, bool]], int]],
    ) -> tuple[tuple[int, int, int], tuple[int, int, tuple[bool, bool]]]:
        a, ((b, flags), label) = item
        blocks = keys.blocks_of(big.value.get(label, 0), size)
        return (label, min(a % blocks, b % blocks), max(a % blocks, b % blocks)), (a, b, flags)

    def judged(
        item: tuple[
            tuple[int, int, int], tuple[Iterable[tuple[int, Compared]], Iterable[tuple[int, int, tuple[bool, bool]]]]
        ],
    ) -> Iterator[Edge]:
        _task, (members, pairs) = item
        return _judged(dict(members), ((a, b, x, y) for a, b, (x, y) in pairs), k, t)

    sets = texts.join(labels, parts).map(lambda x: (x[0], (x[1][1], x[1][0]))).flatMap(text_tasks)
    pairs = found.map(lambda p: (p[0][0], (p[0][1], p[1]))).join(labels, parts).map(pair_task)
    return sets.cogroup(pairs, parts).flatMap(judged)


def verified_on_driver(found: DriverCandidates, count: int, texts: RDD, thresholds: Thresholds, parts: int) -> RDD:
    """``verified`` for candidates the driver holds: their components and tasks found there, each task's
    pairs sent to it as arrays, so that only the texts are shuffled (once)."""
    k, t, size = thresholds.hamming, thresholds.jaccard, VERIFY_TASK
    joined = UnionFind(count)
    for a, b in zip(found.a.tolist(), found.b.tolist(), strict=True):
        joined.union(a, b)
    label = joined.labels()
    in_pairs = np.zeros(count, dtype=bool)
    in_pairs[found.a] = in_pairs[found.b] = True
    sizes = np.bincount(label[in_pairs], minlength=count)  # texts of each component (by its label)
    big = {int(x): int(sizes[x]) for x in np.flatnonzero(sizes > size).tolist()}
    # each pair's task: its component's, or past ``size`` texts the pair of blocks its two ends fall in
    lab = label[found.a]
    blocks = np.where(sizes[lab] > size, -(-sizes[lab] // size), 1)  # keys.blocks_of, for every pair
    x, y = found.a % blocks, found.b % blocks
    x, y = np.minimum(x, y), np.maximum(x, y)
    spread = int(blocks.max(initial=1))
    task = (lab * spread + x) * spread + y
    order = np.argsort(task, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(task[order]) != 0])
    work = [
        (
            (int(lab[at[0]]), int(x[at[0]]), int(y[at[0]])),
            (found.a[at], found.b[at], found.by_bits[at], found.by_bands[at]),
        )
        for at in np.split(order, starts[1:])
        if len(at)
    ]
    label_of = texts.context.broadcast(np.where(in_pairs, label, -1))
    big_b = texts.context.broadcast(big)

    def text_tasks(item: tuple[int, Compared]) -> Iterator[tuple[tuple[int, int, int], tuple[int, Compared]]]:
        tid, _compared = item
        lab = int(label_of.value[tid])
        if lab >= 0:
            for task in keys.block_tasks(lab, big_b.value.get(lab, 0), tid, size):
                yield task, item

    def judged(
        item: tuple[tuple[int, int, int], tuple[Iterable[tuple[int, Compared]], Iterable[tuple[np.ndarray, ...]]]],
    ) -> Iterator[Edge]:
        _task, (texts_of_task, arrays) = item
        compared = dict(texts_of_task)
        for a, b, x, y in arrays:
            yield from _judged(compared, zip(a.tolist(), b.tolist(), x.tolist(), y.tolist(), strict=True), k, t)

    sets = texts.flatMap(text_tasks)
    return sets.cogroup(texts.context.parallelize(work, max(1, min(len(work), parts))), parts).flatMap(judged)
