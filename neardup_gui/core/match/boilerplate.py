"""Boilerplate: passages that open or close a large share of the collection's documents (letterheads,
licence notices, e-mail disclaimers) and would make unrelated documents look alike.

A boilerplate passage is found from where and how it occurs, not from frequency alone:
1. A shingle is *frequent* when at least ``min_share`` of the collection's contents (and at least
   ``min_documents``) contain it. Contents shingled by characters (short texts) take no part: their
   common trigrams are spelling, not passages.
2. A *passage* is a run of at least MIN_RUN frequent shingles at the very start or the very end of a
   document (its edges: the shingles kept in order at each end, fingerprint.pack_order). A frequent
   phrase in the middle of a text, or a short one at its edge, is never a passage: formulaic statutes and
   contracts keep their wording.
3. Documents whose passage opens (or closes) the same way share it. It is boilerplate only where those
   documents have text of their own that is unrelated (the median estimated Jaccard of what they keep is
   below FAMILY_SIMILARITY) and not small beside the passage (at least FAMILY_SHARE of it). Otherwise the
   documents are a *family* (licence variants, versions of one form: the shared text is what they are),
   however large, and are compared whole.
4. A document with a boilerplate passage is compared by its *core*: its shingles without those of the
   passage and without the ``shingle_size - 1`` shingles that straddle the passage and its own text
   (stored as how many edge positions are cut at each end). MinHash works on the core's own signature,
   so estimates, LSH and exact Jaccard agree on what is compared. A document left with fewer than
   MIN_OWN shingles of its own is compared whole; identical texts are grouped by their text hash anyway.

Frequent shingles are found in passes of bounded memory: a fixed sample proposes candidates (a shingle
in 10 % of the collection is in about 200 of 2,000 sampled documents; the cut-off is 60 % of that,
more than 6 standard deviations down), one pass over every content counts the candidates exactly, one
finds the passages at every document's edges, and one computes the cores.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..fingerprint import minhash
from ..fingerprint.boilerplate import Boilerplate as Boilerplate
from ..fingerprint.boilerplate import Core as Core
from ..fingerprint.boilerplate import CoreTable as CoreTable
from ..fingerprint.boilerplate import Shingled as Shingled
from ..fingerprint.boilerplate import ShingleLoader as ShingleLoader
from ..fingerprint.boilerplate import _is_in
from ..fingerprint.boilerplate import collection_digest as collection_digest
from ..fingerprint.boilerplate import core_set as core_set
from ..fingerprint.text import sorted_unique
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..models import SentBetweenProcesses
from ..workers.parallel import IN_THIS_PROCESS, Workers

MIN_SHARE = 0.10
MIN_DOCUMENTS = 10
MIN_RUN = 8
"""Frequent shingles in a row that make a passage (about eight words, or Chinese characters): shorter
runs are phrases of the language or of the trade, which say what a text is about."""
MIN_OWN = 30
"""Shingles a document must keep of its own to be compared by its core."""
FAMILY_SIMILARITY = 0.2
"""Median estimated Jaccard, between documents that share a passage, of the text they keep: at or above
it, their own texts are related, so they are a family and the passage is part of what they share."""
FAMILY_SHARE = 0.2
"""Text of its own, as a share of the passage, below which a document is mostly that passage (a licence
with its copyright line): documents that share such a passage are a family."""
SAMPLE_DOCUMENTS = 2000
_SAMPLE_SLACK = 0.6
_BATCH = 500
_SAMPLE_BATCH = 100
PAIRS_SAMPLED = 48
"""Documents of one passage whose own texts are compared pairwise (those of the lowest ``sample_ranks``)."""


def analyse(
    content_ids: np.ndarray,
    load: ShingleLoader,
    digest: str,
    *,
    min_share: float = MIN_SHARE,
    min_documents: int = MIN_DOCUMENTS,
    shingle_size: int = 3,
    edge_window: int = 400,
    num_perm: int = minhash.NUM_PERM,
    seed: int = 1,
    workers: Workers = IN_THIS_PROCESS,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Boilerplate:
    """Find the collection's boilerplate passages and the core of every document that has one.

    ``load(ids)`` returns {content id: (sorted uint32 shingles, edges)}; contents are read in batches,
    so memory holds one batch and the per-document summaries, never the collection. Each pass is spread
    over ``workers`` by batch (``load`` must then be picklable, e.g. ``parallel.ShinglesOf``): the parent
    only merges counts and decides which passages are boilerplate.
    """
    if not 0.0 < min_share <= 1.0:
        raise ValueError(f"min_share must be in (0, 1], not {min_share}")
    if min_documents < 2:
        raise ValueError(f"min_documents must be at least 2, not {min_documents}")
    if shingle_size < 1 or edge_window < MIN_RUN:
        raise ValueError(
            f"shingle_size must be at least 1 (not {shingle_size}) and edge_window at least "
            f"{MIN_RUN} (not {edge_window})"
        )
    ids = np.asarray(content_ids, dtype=np.int64)
    n = len(ids)
    needed = max(min_documents, math.ceil(min_share * n))
    empty = Boilerplate(digest, min_share, min_documents, np.empty(0, np.uint32), {})
    if n < needed:
        return empty
    with workers.kept():  # one pool for the four passes (a pool a pass cost its start-up four times)
        return _analyse(
            ids,
            load,
            digest,
            needed,
            min_share,
            min_documents,
            shingle_size,
            edge_window,
            num_perm,
            seed,
            workers,
            progress,
            cancel,
        )


def _analyse(
    ids: np.ndarray,
    load: ShingleLoader,
    digest: str,
    needed: int,
    min_share: float,
    min_documents: int,
    shingle_size: int,
    edge_window: int,
    num_perm: int,
    seed: int,
    workers: Workers,
    progress: Progress,
    cancel: CancelToken,
) -> Boilerplate:
    n = len(ids)
    if n <= SAMPLE_DOCUMENTS:
        sample = ids
    else:
        sample = np.sort(np.random.default_rng(0).choice(ids, SAMPLE_DOCUMENTS, replace=False))
    sample_needed = needed if len(sample) == n else max(2, math.floor(_SAMPLE_SLACK * needed * len(sample) / n))
    total = len(sample) + 3 * n
    done = 0

    def passed(pass_name: Callable[[_Batch], Any], batches: list[_Batch]) -> Iterator[Any]:
        nonlocal done
        for batch, result in workers.map(pass_name, batches, cancel=cancel):
            done += len(batch.ids)
            progress(ProgressEvent("boilerplate", done, total))
            yield result

    def batches(of: np.ndarray, shingles: np.ndarray, **more: Any) -> list[_Batch]:
        return [_Batch(load, b, shingles, **more) for b in _split(of, _BATCH)]

    # candidates: a shingle in ``sample_needed`` of the sample is in at least ``sample_needed / batches`` of
    # some batch's contents (pigeonhole), so each batch is reduced on its own and memory holds one batch
    sample_batches = _split(sample, _SAMPLE_BATCH)
    per_batch = max(1, sample_needed // max(1, len(sample_batches)))
    found = list(passed(_common_in_batch, [_Batch(load, b, np.empty(0, np.uint32), per_batch) for b in sample_batches]))
    candidates = sorted_unique(np.concatenate(found)) if found else np.empty(0, np.uint32)
    counts = np.zeros(len(candidates), dtype=np.int64)
    if len(candidates):
        for counted in passed(_count_in_batch, batches(ids, candidates)):
            counts += counted
    frequent = candidates[counts >= needed]
    if not len(frequent):
        progress(ProgressEvent("boilerplate", total, total))
        return Boilerplate(digest, min_share, min_documents, frequent, {})
    runs = _EdgeRuns.merged(
        list(
            passed(
                _runs_in_batch,
                batches(
                    ids, frequent, shingle_size=shingle_size, edge_window=edge_window, num_perm=num_perm, seed=seed
                ),
            )
        )
    )
    boilerplate_keys, families = runs.boilerplate_passages(needed)
    head_cuts, tail_cuts = runs.cuts(boilerplate_keys)
    with_passage = np.flatnonzero((head_cuts > 0) | (tail_cuts > 0))
    cores: dict[int, Core] = {}
    cut_batches = [
        _Batch(
            load,
            runs.ids[rows],
            frequent,
            num_perm=num_perm,
            seed=seed,
            cuts={int(runs.ids[r]): (int(head_cuts[r]), int(tail_cuts[r])) for r in rows.tolist()},
        )
        for rows in _split(with_passage, _BATCH)
    ]
    for found_cores in passed(_cores_in_batch, cut_batches):
        cores.update(found_cores)
    progress(ProgressEvent("boilerplate", total, total))
    return Boilerplate(
        digest,
        min_share,
        min_documents,
        frequent,
        dict(sorted(cores.items())),
        passages=len(boilerplate_keys),
        family_passages=families,
    )


@dataclass(frozen=True, slots=True)
class _Batch:
    """One batch of contents for one pass, with what the pass needs (sent to a worker)."""

    load: ShingleLoader
    ids: np.ndarray
    shingles: np.ndarray  # the candidates counted, or the frequent shingles
    at_least: int = 0  # in how many of the batch's contents a candidate must be
    shingle_size: int = 3
    edge_window: int = 400
    num_perm: int = minhash.NUM_PERM
    seed: int = 1
    cuts: Mapping[int, tuple[int, int]] | None = None  # the cores' edge cuts, by content

    def sets(self) -> dict[int, Shingled]:
        return self.load(self.ids.tolist())


def _common_in_batch(batch: _Batch) -> np.ndarray:
    """The shingles in at least ``at_least`` of the batch's contents."""
    sets = batch.sets()
    if not sets:
        return np.empty(0, np.uint32)
    values, counts = _value_counts(np.concatenate([s for s, _e in sets.values()]))
    return values[counts >= batch.at_least]


def _count_in_batch(batch: _Batch) -> np.ndarray:
    """How many of the batch's contents hold each candidate."""
    counts = np.zeros(len(batch.shingles), dtype=np.int64)
    for shingles, _edges in batch.sets().values():
        at = np.minimum(np.searchsorted(batch.shingles, shingles), len(batch.shingles) - 1)
        counts[at[batch.shingles[at] == shingles]] += 1
    return counts


@dataclass(frozen=True, slots=True)
class _EdgeRuns(SentBetweenProcesses):
    """The passages at the edges of some documents, one row each (documents without one left out): which
    passage (a key per side, 0 for none), how many edge positions it and its straddling shingles take
    (``*_cut``), and the document's own text without both: its size and MinHash signature."""

    ids: np.ndarray
    head_key: np.ndarray  # uint64
    tail_key: np.ndarray
    head_cut: np.ndarray  # int64
    tail_cut: np.ndarray
    own_count: np.ndarray
    own_minhash: np.ndarray  # (rows, num_perm) uint32

    @classmethod
    def merged(cls, parts: list[_EdgeRuns]) -> _EdgeRuns:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in cls.__slots__))

    def boilerplate_passages(self, needed: int) -> tuple[set[int], int]:
        """(the keys of the passages that are boilerplate, how many passages are a family's text), among the
        passages that open or close at least ``needed`` documents."""
        rows_of: dict[int, list[int]] = defaultdict(list)
        for side_keys in (self.head_key, self.tail_key):
            for row in np.flatnonzero(side_keys).tolist():
                rows_of[int(side_keys[row])].append(row)
        ranks = sample_ranks(self.own_minhash)
        boilerplate, families = set(), 0
        for key, rows in rows_of.items():
            if len(rows) < needed:
                continue
            rows_a = np.array(rows)
            cut = np.where(self.head_key[rows_a] == key, self.head_cut[rows_a], self.tail_cut[rows_a])
            sampled = rows_a[np.argsort(ranks[rows_a], kind="stable")[:PAIRS_SAMPLED]]
            if is_boilerplate(self.own_count[rows_a] / np.maximum(cut, 1), self.own_minhash[sampled]):
                boilerplate.add(key)
            else:
                families += 1
        return boilerplate, families

    def cuts(self, keys: set[int]) -> tuple[np.ndarray, np.ndarray]:
        """Each row's head and tail cuts, counting only the passages in ``keys``."""
        chosen = np.fromiter(keys, dtype=np.uint64, count=len(keys))
        head = np.where(np.isin(self.head_key, chosen) & (self.head_key != 0), self.head_cut, 0)
        tail = np.where(np.isin(self.tail_key, chosen) & (self.tail_key != 0), self.tail_cut, 0)
        return head, tail


def sample_ranks(own_minhash: np.ndarray) -> np.ndarray:
    """A rank for each row of own-text signatures, from the signature alone: the documents of a passage
    sampled for the family test are those of the lowest ranks, the same whatever order the documents
    come in (a scan's database ids, a Spark job's partitions). Rows of equal rank have equal signatures,
    so which of them is taken does not change the test."""
    rows = np.ascontiguousarray(own_minhash, dtype="<u4")
    return np.fromiter(
        (int.from_bytes(hashlib.blake2b(row.tobytes(), digest_size=8).digest(), "little") for row in rows),
        dtype=np.uint64,
        count=len(rows),
    )


def is_boilerplate(own_shares: np.ndarray, sampled_signatures: np.ndarray) -> bool:
    """Whether a passage shared by many documents is boilerplate, from each document's own text as a
    share of the passage (``own_shares``) and the own-text signatures of at most PAIRS_SAMPLED of them:
    it is when their own texts are unrelated (median estimated Jaccard of the sampled pairs below
    FAMILY_SIMILARITY) and not small beside it (median share at least FAMILY_SHARE); else the
    documents are a family and the passage is part of what they share."""
    i, j = np.triu_indices(len(sampled_signatures), 1)
    related = float(np.median(minhash.estimate(sampled_signatures[i], sampled_signatures[j])))
    return related < FAMILY_SIMILARITY and float(np.median(own_shares)) >= FAMILY_SHARE


def _passage_key(side: bytes, ids: np.ndarray) -> int:
    return int.from_bytes(hashlib.blake2b(side + ids.astype("<u4").tobytes(), digest_size=8).digest(), "little") | 1


def edge_runs(is_frequent: np.ndarray, window: int, max_gap: int) -> tuple[int, int]:
    """How many of the first and of the last ``window`` edge positions (``is_frequent``: whether each is a frequent
    shingle) a passage takes from the very start and the very end: frequent shingles in a row, across gaps of at
    most ``max_gap`` other shingles (the shingle size: where two passages meet, the shingles that straddle them are
    rare, and one word changed in a passage changes that many). The windows of a short text overlap: it is all one
    sequence."""
    head, tail = is_frequent[:window], is_frequent[max(0, len(is_frequent) - window) :]
    return _run_length(head, max_gap), _run_length(tail[::-1], max_gap)


def _run_length(is_frequent: np.ndarray, max_gap: int) -> int:
    """The length of the prefix of frequent positions, bridging gaps of at most ``max_gap`` positions."""
    if not len(is_frequent) or not is_frequent[0]:
        return 0
    others = np.flatnonzero(~is_frequent)
    if not len(others):
        return len(is_frequent)
    breaks = np.flatnonzero(np.diff(others) > 1)
    starts = np.concatenate((others[:1], others[breaks + 1]))
    ends = np.concatenate((others[breaks], others[-1:])) + 1
    too_long = (ends - starts > max_gap) | (ends == len(is_frequent))
    return int(starts[np.argmax(too_long)]) if too_long.any() else len(is_frequent)


@dataclass(frozen=True, slots=True)
class EdgeRun(SentBetweenProcesses):
    """The passages at one document's edges (a key per side, 0 for none), how many edge positions each
    takes with its straddling shingles (``*_cut``), and the document's own text without both: its
    size and MinHash signature. A row of _EdgeRuns."""

    head_key: int
    tail_key: int
    head_cut: int
    tail_cut: int
    own_count: int
    own_minhash: np.ndarray  # uint32, num_perm values


def edge_run(
    shingles: np.ndarray,
    edges: np.ndarray | None,
    frequent: np.ndarray,
    *,
    shingle_size: int = 3,
    edge_window: int = 400,
    num_perm: int = minhash.NUM_PERM,
    seed: int = 1,
) -> EdgeRun | None:
    """The passages of ``frequent`` shingles at one document's edges, or None when it has none (or is
    nothing but frequent shingles, and so is compared whole). Keyed by the passage's own frequent
    shingles, so that a date or a name in it does not split it."""
    if edges is None or len(edges) == 0:
        return None
    is_frequent = _is_in(edges, frequent)
    head_run, tail_run = edge_runs(is_frequent, edge_window, shingle_size)
    if head_run >= len(edges):
        return None
    head = edges[:head_run][is_frequent[:head_run]]
    tail = edges[len(edges) - tail_run :][is_frequent[len(edges) - tail_run :]]
    head_key = _passage_key(b"h", head[:MIN_RUN]) if len(head) >= MIN_RUN else 0
    tail_key = _passage_key(b"t", tail[len(tail) - MIN_RUN :]) if len(tail) >= MIN_RUN else 0
    if not (head_key or tail_key):
        return None
    # the shingles that straddle the passage and the text after (before) it go too; not across the join
    # of the head and tail windows of a long text, whose positions are not next to each other there
    straddle = shingle_size - 1
    limit = edge_window if len(edges) >= 2 * edge_window else len(edges)
    head_cut = min(head_run + straddle, limit) if head_key else 0
    tail_cut = min(tail_run + straddle, limit) if tail_key else 0
    own = core_set(shingles, edges, head_cut, tail_cut)
    return EdgeRun(head_key, tail_key, head_cut, tail_cut, len(own), minhash.signature(own, num_perm, seed))


def _runs_in_batch(batch: _Batch) -> _EdgeRuns:
    """The passages at the edges of the batch's contents, and what each keeps of its own without them."""
    ids: list[int] = []
    runs: list[EdgeRun] = []
    for cid, (shingles, edges) in batch.sets().items():
        run = edge_run(
            shingles,
            edges,
            batch.shingles,
            shingle_size=batch.shingle_size,
            edge_window=batch.edge_window,
            num_perm=batch.num_perm,
            seed=batch.seed,
        )
        if run is not None:
            ids.append(cid)
            runs.append(run)
    return _EdgeRuns(
        np.array(ids, dtype=np.int64),
        np.array([r.head_key for r in runs], dtype=np.uint64),
        np.array([r.tail_key for r in runs], dtype=np.uint64),
        np.array([r.head_cut for r in runs], dtype=np.int64),
        np.array([r.tail_cut for r in runs], dtype=np.int64),
        np.array([r.own_count for r in runs], dtype=np.int64),
        np.array([r.own_minhash for r in runs], dtype=np.uint32).reshape(len(runs), batch.num_perm),
    )


def core_of(
    shingles: np.ndarray,
    edges: np.ndarray | None,
    head_cut: int,
    tail_cut: int,
    *,
    num_perm: int = minhash.NUM_PERM,
    seed: int = 1,
) -> Core | None:
    """A document's core once its boilerplate passages are cut, or None when it keeps fewer than
    MIN_OWN shingles of its own (compared whole) or loses nothing."""
    core = core_set(shingles, edges, head_cut, tail_cut)
    if len(core) >= MIN_OWN and len(core) < len(shingles):
        return Core(len(core), minhash.signature(core, num_perm, seed).astype("<u4").tobytes(), head_cut, tail_cut)
    return None


def _cores_in_batch(batch: _Batch) -> dict[int, Core]:
    """The cores of the batch's contents (those with a boilerplate passage) that keep enough of their own."""
    assert batch.cuts is not None
    cores = {}
    for cid, (shingles, edges) in batch.sets().items():
        core = core_of(shingles, edges, *batch.cuts[cid], num_perm=batch.num_perm, seed=batch.seed)
        if core is not None:
            cores[cid] = core
    return cores


def _split(ids: np.ndarray, size: int) -> list[np.ndarray]:
    return [ids[start : start + size] for start in range(0, len(ids), size)]


def _value_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values = np.sort(values)
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    return values[starts], np.diff(np.append(starts, len(values)))
