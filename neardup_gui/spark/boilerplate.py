"""The job's boilerplate stage: the analysis of ``core.boilerplate.analyse`` as distributed counts, and brought up
to date from an earlier result's where a rerun can.

1. **Frequent shingles**: those in at least MIN_SHARE of the contents shingled by words. Candidates come from
   each partition by pigeonhole and are counted exactly; every shingle in at least half the bar is counted
   (``BoilerplateCounts``), so that a rerun updates the counts from the contents gone and added alone, for as
   long as the shingles it does not list cannot reach the bar.
2. **Runs**: the passages at each content's edges (``edge_run``), which depend on its text and on which of its
   shingles are frequent alone: a rerun finds them for the contents added and for those holding a shingle
   that became frequent or ceased to be (a few near the bar, each time), and keeps the others'.
3. **Boilerplate passages**: the family test of each passage at least MIN_SHARE of the contents begin or end
   with (``is_boilerplate``, on the same order-free sample), on the driver.
4. **Cores** (``core_of``): a content keeps its earlier core where its cut is the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from ..core.fingerprint import minhash
from ..core.fingerprint.scheme import Scheme, unpack_order
from ..core.match.boilerplate import (
    MIN_DOCUMENTS,
    MIN_SHARE,
    PAIRS_SAMPLED,
    Core,
    core_of,
    edge_run,
    is_boilerplate,
    sample_ranks,
)
from ..core.models import Fingerprint
from .previous import KeptBoilerplate
from .records import BoilerplateCounts, BoilerplateFound, Run

if TYPE_CHECKING:
    from pyspark import RDD

ON_DRIVER_CUTS = 250_000
"""Contents to cut whose cuts the driver sends to the executors (~100 bytes each), so that the contents are
filtered, not shuffled, to make their cores; past it they are joined."""


def shingles_edges(fp: Fingerprint) -> tuple[np.ndarray, np.ndarray | None]:
    """A fingerprint's shingle set and its edges' shingles in order."""
    shingles = minhash.unpack_shingles(fp.shingles or b"")
    return shingles, unpack_order(fp.edges, shingles) if fp.edges is not None else None


def _common(part: Iterable[tuple[bytes, Fingerprint]], at_least: int) -> Iterator[int]:
    sets = [minhash.unpack_shingles(fp.shingles or b"") for _h, fp in part]
    if not sets:
        return
    values, counts = np.unique(np.concatenate(sets), return_counts=True)
    yield from values[counts >= at_least].tolist()


def _count(sets: Iterable[bytes], candidates: np.ndarray) -> Iterator[np.ndarray]:
    counts = np.zeros(len(candidates), dtype=np.int64)
    for packed in sets:
        shingles = minhash.unpack_shingles(packed)
        at = np.minimum(np.searchsorted(candidates, shingles), len(candidates) - 1)
        counts[at[candidates[at] == shingles]] += 1
    yield counts


def _counted_in(sets: RDD, shingles: np.ndarray) -> np.ndarray:
    """How many of the packed shingle sets ``sets`` hold each of ``shingles`` (sorted)."""
    if not len(shingles):
        return np.zeros(0, dtype=np.int64)
    shared = sets.context.broadcast(shingles)
    try:
        return np.asarray(
            sets.mapPartitions(lambda part: _count(part, shared.value)).fold(
                np.zeros(len(shingles), dtype=np.int64), np.add
            )
        )
    finally:
        shared.unpersist()


def _counted_contents(words: RDD) -> RDD:
    """(raw hash, text hash) of the contents ``words``: what the counts are of."""
    return words.map(lambda item: (item[0], item[1].text_hash))


def _sets(contents: RDD) -> RDD:
    return contents.map(lambda item: item[1].shingles or b"")


def counted(contents: RDD) -> tuple[int, int]:
    """How many contents there are, and how many of them are shingled by words (what boilerplate is
    looked for in): one pass for both."""
    return contents.map(lambda item: (1, 0 if item[1].short_text else 1)).fold(
        (0, 0), lambda x, y: (x[0] + y[0], x[1] + y[1])
    )


def needed_of(n: int) -> int:
    """The contents a shingle (or a passage) is in, at least, to be frequent among ``n``."""
    return max(MIN_DOCUMENTS, math.ceil(MIN_SHARE * n))


def count_shingles(words: RDD, n: int) -> BoilerplateCounts:
    """Every shingle in at least half the bar of the ``n`` contents ``words``, counted exactly."""
    needed = needed_of(n)
    if n < needed:  # nothing is frequent; and no shingle is in more than n
        return BoilerplateCounts(n, n + 1, np.empty(0, np.uint32), np.empty(0, np.int64))
    below = max(1, needed // 2)
    # a shingle in ``below`` contents is in at least below / P of some partition's (pigeonhole)
    at_least = max(1, -(-below // words.getNumPartitions()))
    proposed = np.array(
        sorted(set(words.mapPartitions(lambda part: _common(part, at_least)).collect())), dtype=np.uint32
    )
    counts = _counted_in(_sets(words), proposed)
    listed = counts >= below
    return BoilerplateCounts(n, below, proposed[listed], counts[listed])


def updated_counts(
    kept: KeptBoilerplate, words: RDD, n: int
) -> tuple[BoilerplateCounts, frozenset[tuple[bytes, bytes]], frozenset[tuple[bytes, bytes]]] | None:
    """``kept``'s counts brought up to date for the ``n`` contents ``words``, from the contents added and gone
    (by raw and text hash); and those two sets. None where a shingle the earlier counts do not list could now
    be frequent (the counts are then made afresh)."""
    now = frozenset(_counted_contents(words).collect())
    added, gone = now - kept.contents, kept.contents - now
    below = min(kept.counts.below + len(added), n + 1)  # each added content adds one at most
    if below > needed_of(n):
        return None
    # the gone contents' sets, from the earlier fingerprints: one not kept there (a scan read by OCR with a page
    # that failed for a time, kept only to be read again) cannot be taken off
    gone_sets = kept.words_of(gone).cache()
    if gone_sets.count() != len(gone):
        gone_sets.unpersist()
        return None
    added_b = words.context.broadcast(added)
    fresh = words.filter(lambda item: (item[0], item[1].text_hash) in added_b.value)
    listed = kept.counts.shingles
    counts = kept.counts.counts - _counted_in(gone_sets.values(), listed) + _counted_in(_sets(fresh), listed)
    added_b.unpersist()
    gone_sets.unpersist()
    listed = counts >= below
    return BoilerplateCounts(n, below, kept.counts.shingles[listed], counts[listed]), added, gone


def _run_of(item: tuple[bytes, Fingerprint], frequent: np.ndarray, scheme: Scheme) -> list[tuple[bytes, Run]]:
    shingles, edges = shingles_edges(item[1])
    run = edge_run(
        shingles,
        edges,
        frequent,
        shingle_size=scheme.shingle_size,
        edge_window=scheme.edge_window,
        num_perm=scheme.num_perm,
        seed=scheme.seed,
    )
    if run is None:
        return []
    return [
        (
            item[0],
            (
                run.head_key,
                run.tail_key,
                run.head_cut,
                run.tail_cut,
                run.own_count,
                run.own_minhash.astype("<u4").tobytes(),
            ),
        )
    ]


def _cut(run: Run, keys: frozenset[int] | set[int]) -> tuple[int, int]:
    """The edge positions a content with ``run`` loses where the passages ``keys`` are boilerplate."""
    head_key, tail_key, head_cut, tail_cut = run[:4]
    return head_cut if head_key in keys else 0, tail_cut if tail_key in keys else 0


def _chosen(runs: RDD, needed: int) -> tuple[set[int], int]:
    """The passages found to be boilerplate among those at least ``needed`` contents begin or end with, and
    how many of those are families instead."""
    sc = runs.context
    popular = set(
        runs.flatMap(lambda r: [k for k in r[1][:2] if k])
        .map(lambda k: (k, 1))
        .reduceByKey(lambda a, b: a + b)
        .filter(lambda kc: kc[1] >= needed)
        .keys()
        .collect()
    )
    if not popular:
        return set(), 0
    popular_b = sc.broadcast(popular)

    def samples(r: tuple[bytes, Run]) -> Iterator[tuple[int, tuple[list[float], list[tuple[int, bytes]]]]]:
        head_key, tail_key, head_cut, tail_cut, own_count, own = r[1]
        rank = int(sample_ranks(np.frombuffer(own, dtype="<u4")[None, :])[0])
        for key, cut in ((head_key, head_cut), (tail_key, tail_cut)):
            if key in popular_b.value:
                yield key, ([own_count / max(cut, 1)], [(rank, own)])

    def merge(
        a: tuple[list[float], list[tuple[int, bytes]]], b: tuple[list[float], list[tuple[int, bytes]]]
    ) -> tuple[list[float], list[tuple[int, bytes]]]:
        return a[0] + b[0], sorted(a[1] + b[1], key=lambda rs: rs[0])[:PAIRS_SAMPLED]

    chosen, families = set(), 0
    for key, (shares, sampled) in runs.flatMap(samples).reduceByKey(merge).collect():
        signatures = np.array([np.frombuffer(s, dtype="<u4") for _r, s in sampled], dtype=np.uint32)
        if is_boilerplate(np.array(shares), signatures):
            chosen.add(key)
        else:
            families += 1
    popular_b.unpersist()
    return chosen, families


def _cores_made(words: RDD, cuts: RDD, scheme: Scheme) -> RDD:
    """(raw hash, Core) of the contents ``cuts`` (raw hash, (head cut, tail cut)) that keep one: the contents
    filtered by the cuts the driver sends, or past ON_DRIVER_CUTS of them joined."""

    def core(item: tuple[bytes, tuple[Fingerprint, tuple[int, int]]]) -> tuple[bytes, Core | None]:
        fp, (head_cut, tail_cut) = item[1]
        shingles, edges = shingles_edges(fp)
        return item[0], core_of(shingles, edges, head_cut, tail_cut, num_perm=scheme.num_perm, seed=scheme.seed)

    if cuts.count() > ON_DRIVER_CUTS:
        return words.join(cuts).map(core).filter(lambda c: c[1] is not None)
    cut_b = words.context.broadcast(dict(cuts.collect()))
    return (
        words.filter(lambda item: item[0] in cut_b.value)
        .map(lambda item: core((item[0], (item[1], cut_b.value[item[0]]))))
        .filter(lambda c: c[1] is not None)
    )


def _holds_any(fp: Fingerprint, shingles: np.ndarray) -> bool:
    """Whether the content holds any of ``shingles`` (a few, sorted): searched for in its sorted set."""
    own = minhash.unpack_shingles(fp.shingles or b"")
    if not len(own) or not len(shingles):
        return False
    at = np.minimum(np.searchsorted(own, shingles), len(own) - 1)
    return bool((own[at] == shingles).any())


def find_boilerplate(
    contents: RDD, scheme: Scheme, n: int, kept: KeptBoilerplate | None = None
) -> tuple[BoilerplateFound, int | None]:
    """The analysis of ``core.boilerplate.analyse`` over the ``n`` contents shingled by words, distributed;
    from ``kept`` (an earlier result's) what it can; and how many contents' runs were found again where it
    was brought up to date (None: made afresh)."""
    words = contents.filter(lambda item: not item[1].short_text)
    sc = contents.context
    needed = needed_of(n)
    update = updated_counts(kept, words, n) if kept is not None else None
    if update is not None:
        counts, added, gone = update
    else:
        counts, added, gone = count_shingles(words, n), frozenset(), frozenset()
    frequent = counts.shingles[counts.counts >= needed]
    counted_contents = _counted_contents(words)
    found = BoilerplateFound(MIN_SHARE, MIN_DOCUMENTS, frequent, 0, 0, None, counts=counts, counted=counted_contents)
    run_again: int | None = None
    frequent_b = sc.broadcast(frequent)
    fresh_b = None
    if update is not None:
        assert kept is not None
        # a content's runs depend on which of its edges' shingles are frequent: found again for the contents
        # added and those holding a shingle that is frequent now and was not, or the other way round
        moved_b = sc.broadcast(np.setxor1d(frequent, kept.frequent))
        added_b = sc.broadcast(frozenset(raw for raw, _text in added))
        again = (
            words.filter(lambda item: item[0] in added_b.value or _holds_any(item[1], moved_b.value))
            .map(lambda item: (item[0], _run_of(item, frequent_b.value, scheme)))
            .cache()
        )
        fresh = frozenset(again.keys().collect())
        run_again = len(fresh)
        fresh_b = sc.broadcast(fresh)
        runs = kept.runs_of(frozenset(raw for raw, _text in gone) | fresh).union(
            again.flatMap(lambda found_run: found_run[1])
        )
    elif len(frequent):
        runs = words.flatMap(lambda item: _run_of(item, frequent_b.value, scheme))
    else:
        return found, run_again
    runs = runs.cache()
    chosen, families = _chosen(runs, needed)
    found = BoilerplateFound(
        MIN_SHARE, MIN_DOCUMENTS, frequent, 0, families, None, counts=counts, counted=counted_contents, runs=runs
    )
    if not chosen:
        return found, run_again
    keys_b = sc.broadcast(chosen)
    cut = runs.map(lambda r: (r[0], _cut(r[1], keys_b.value))).filter(lambda c: c[1] != (0, 0))
    earlier: list[tuple[bytes, Core]] = []
    if fresh_b is not None:  # a content whose run was kept, and whose cut is the same, keeps its core (or none)
        assert kept is not None
        before_b = sc.broadcast(kept.keys)
        same = set(
            runs.filter(
                lambda r: (
                    r[0] not in fresh_b.value
                    and _cut(r[1], keys_b.value) != (0, 0)
                    and _cut(r[1], keys_b.value) == _cut(r[1], before_b.value)
                )
            )
            .keys()
            .collect()
        )
        earlier = kept.cores_of(same)
        same_b = sc.broadcast(same)
        cut = cut.filter(lambda c: c[0] not in same_b.value)
    made = _cores_made(words, cut, scheme)
    cores = (made.union(sc.parallelize(earlier, 1)) if earlier else made).cache()
    cores.count()  # computed while the runs are held
    return (
        BoilerplateFound(
            MIN_SHARE,
            MIN_DOCUMENTS,
            frequent,
            len(chosen),
            families,
            cores,
            keys=tuple(sorted(chosen)),
            counts=counts,
            counted=counted_contents,
            runs=runs,
        ),
        run_again,
    )
