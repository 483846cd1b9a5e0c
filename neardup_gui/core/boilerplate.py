"""Boilerplate: passages that recur across a large share of the collection (licence headers,
letterheads, page footers, e-mail disclaimers) and would make unrelated documents look alike.

A shingle is *frequent* when at least ``min_share`` of the collection's contents (and at least
``min_documents``) contain it; contents shingled by characters (short texts) take no part, since their
common trigrams are spelling, not passages. A document is compared by its *core*: its shingles without the
frequent ones. MinHash works on the core's own signature, so estimates, LSH and exact Jaccard agree
on what is compared. A document that is nothing but frequent shingles (a licence file, say) is
compared whole; identical texts are grouped by their text hash in any case.

What frequency cannot tell apart, and so what the option to turn this off is for: a family of
near-copies that is itself a large share of the collection (300 copies of one form among 1,000
files) looks exactly like a footer on 300 unrelated pages, and its members are then compared by what
they do not share. Below the share, families are untouched.

Frequent shingles are found in passes of bounded memory: a fixed sample proposes candidates (a shingle
in 10 % of the collection is in about 200 of 2,000 sampled documents; the cut-off is 60 % of that,
more than 6 standard deviations down), one pass over every content counts the candidates exactly,
and one more computes the cores.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import minhash
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .models import SentBetweenProcesses
from .parallel import IN_THIS_PROCESS, Workers
from .text import sorted_unique

MIN_SHARE = 0.10
MIN_DOCUMENTS = 10
SAMPLE_DOCUMENTS = 2000
_SAMPLE_SLACK = 0.6
_BATCH = 500
_SAMPLE_BATCH = 100

ShingleLoader = Callable[[Sequence[int]], dict[int, np.ndarray]]


@dataclass(frozen=True, slots=True)
class Core(SentBetweenProcesses):
    """A document compared without its boilerplate: the core's size and MinHash signature."""

    shingle_count: int
    minhash: bytes


class CoreTable(Mapping[int, Core]):
    """Cores as arrays (content ids ascending, shingle counts, signatures one row each): what a
    matcher reads back from the database. At 100,000 documents a dict of Core objects took 70 MB and
    a second to build in the parent; these take the 51 MB of the signatures, read in 0.1 s."""

    __slots__ = ("counts", "ids", "signatures")

    def __init__(self, ids: np.ndarray, counts: np.ndarray, signatures: np.ndarray) -> None:
        if not (len(ids) == len(counts) == len(signatures)) or (len(ids) > 1 and not (np.diff(ids) > 0).all()):
            raise ValueError("a core table needs ascending distinct ids, one count and one signature each")
        self.ids, self.counts, self.signatures = ids, counts, signatures

    @classmethod
    def of(cls, cores: Mapping[int, Core]) -> CoreTable:
        """The same cores as a table."""
        ids = np.array(sorted(cores), dtype=np.int64)
        counts = np.array([cores[c].shingle_count for c in ids.tolist()], dtype=np.int64)
        signatures = np.array([np.frombuffer(cores[c].minhash, dtype="<u4") for c in ids.tolist()], dtype=np.uint32)
        return cls(ids, counts, signatures.reshape(len(ids), -1) if len(ids) else np.empty((0, 0), np.uint32))

    def _row(self, content_id: object) -> int:
        if not isinstance(content_id, int | np.integer) or not len(self.ids):
            return -1
        row = int(np.searchsorted(self.ids, content_id))
        return row if row < len(self.ids) and self.ids[row] == content_id else -1

    def __getitem__(self, content_id: int) -> Core:
        row = self._row(content_id)
        if row < 0:
            raise KeyError(content_id)
        return Core(int(self.counts[row]), self.signatures[row].astype("<u4").tobytes())

    def __contains__(self, content_id: object) -> bool:
        return self._row(content_id) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids.tolist())

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class Boilerplate:
    """The outcome of one analysis of the whole collection."""

    digest: str  # of the scheme and the contents analysed: a different collection makes it stale
    min_share: float
    min_documents: int
    shingles: np.ndarray  # sorted uint32: the frequent shingles
    cores: Mapping[int, Core]  # content id -> core, for the documents that have boilerplate

    @property
    def documents_affected(self) -> int:
        return len(self.cores)


def collection_digest(scheme_json: str, content_ids: np.ndarray) -> str:
    """Identifies a collection state: the fingerprint scheme and the set of comparable contents."""
    h = hashlib.blake2b(scheme_json.encode(), digest_size=16)
    h.update(np.ascontiguousarray(content_ids, dtype="<i8").tobytes())
    return h.hexdigest()


def frequent_in(shingles: np.ndarray, frequent: np.ndarray) -> np.ndarray:
    """Mask of the sorted ``shingles`` that are among the sorted ``frequent`` ones."""
    if len(frequent) == 0 or len(shingles) == 0:
        return np.zeros(len(shingles), dtype=bool)
    return _lookup(frequent, shingles)[1]


def stripped(shingles: dict[int, np.ndarray], frequent: np.ndarray, with_core: Container[int]
             ) -> dict[int, np.ndarray]:
    """The shingle sets documents are compared by: without the ``frequent`` shingles for the contents
    that have a core (boilerplate), whole for the others."""
    return {cid: s[~frequent_in(s, frequent)] if cid in with_core else s for cid, s in shingles.items()}


def _lookup(sorted_values: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(position in ``sorted_values`` of each key, whether the key is there); values not empty."""
    at = np.minimum(np.searchsorted(sorted_values, keys), len(sorted_values) - 1)
    return at, sorted_values[at] == keys


def core_of(shingles: np.ndarray, frequent: np.ndarray) -> np.ndarray | None:
    """The shingles a document is compared by, or None when it is compared whole (it has no
    boilerplate, or nothing but)."""
    mask = frequent_in(shingles, frequent)
    hits = int(np.count_nonzero(mask))
    if hits == 0 or hits == len(shingles):
        return None
    return shingles[~mask]


def analyse(
    content_ids: np.ndarray,
    load: ShingleLoader,
    digest: str,
    *,
    min_share: float = MIN_SHARE,
    min_documents: int = MIN_DOCUMENTS,
    num_perm: int = minhash.NUM_PERM,
    seed: int = 1,
    workers: Workers = IN_THIS_PROCESS,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Boilerplate:
    """Find the collection's frequent shingles and the core of every document that has boilerplate.

    ``load(ids)`` returns {content id: sorted uint32 shingles}; contents are read in batches, so
    memory holds one batch and the candidates, never the collection. Each pass is spread over
    ``workers`` by batch (``load`` must then be picklable, e.g. ``parallel.ShinglesOf``): the parent
    only merges counts.
    """
    if not 0.0 < min_share <= 1.0:
        raise ValueError(f"min_share must be in (0, 1], not {min_share}")
    if min_documents < 2:
        raise ValueError(f"min_documents must be at least 2, not {min_documents}")
    ids = np.asarray(content_ids, dtype=np.int64)
    n = len(ids)
    needed = max(min_documents, math.ceil(min_share * n))
    empty = Boilerplate(digest, min_share, min_documents, np.empty(0, np.uint32), {})
    if n < needed:
        return empty
    if n <= SAMPLE_DOCUMENTS:
        sample = ids
    else:
        sample = np.sort(np.random.default_rng(0).choice(ids, SAMPLE_DOCUMENTS, replace=False))
    sample_needed = needed if len(sample) == n else max(2, math.floor(_SAMPLE_SLACK * needed * len(sample) / n))
    total = len(sample) + 2 * n
    done = 0

    def passed(pass_name: Callable[[_Batch], Any], batches: list[_Batch]) -> Iterator[Any]:
        nonlocal done
        with workers.kept():
            for batch, result in workers.map(pass_name, batches, cancel=cancel):
                done += len(batch.ids)
                progress(ProgressEvent("boilerplate", done, total))
                yield result

    # candidates: a shingle in ``sample_needed`` of the sample is in at least ``sample_needed / batches`` of
    # some batch's contents (pigeonhole), so each batch is reduced on its own and memory holds one batch
    sample_batches = _split(sample, _SAMPLE_BATCH)
    per_batch = max(1, sample_needed // max(1, len(sample_batches)))
    found = list(passed(_common_in_batch, [_Batch(load, b, np.empty(0, np.uint32), per_batch) for b in sample_batches]))
    candidates = sorted_unique(np.concatenate(found)) if found else np.empty(0, np.uint32)
    counts = np.zeros(len(candidates), dtype=np.int64)
    if len(candidates):
        for counted in passed(_count_in_batch, [_Batch(load, b, candidates) for b in _split(ids, _BATCH)]):
            counts += counted
    frequent = candidates[counts >= needed]
    cores: dict[int, Core] = {}
    if len(frequent):
        for found_cores in passed(_cores_in_batch, [_Batch(load, b, frequent, num_perm=num_perm, seed=seed)
                                                    for b in _split(ids, _BATCH)]):
            cores.update(found_cores)
    progress(ProgressEvent("boilerplate", total, total))
    return Boilerplate(digest, min_share, min_documents, frequent, dict(sorted(cores.items())))


@dataclass(frozen=True, slots=True)
class _Batch:
    """One batch of contents for one pass, with what the pass needs (sent to a worker)."""

    load: ShingleLoader
    ids: np.ndarray
    shingles: np.ndarray  # the candidates counted, or the frequent shingles cores leave out
    at_least: int = 0  # in how many of the batch's contents a candidate must be
    num_perm: int = minhash.NUM_PERM
    seed: int = 1

    def sets(self) -> dict[int, np.ndarray]:
        return self.load(self.ids.tolist())


def _common_in_batch(batch: _Batch) -> np.ndarray:
    """The shingles in at least ``at_least`` of the batch's contents."""
    sets = batch.sets()
    if not sets:
        return np.empty(0, np.uint32)
    values, counts = _value_counts(np.concatenate(list(sets.values())))
    return values[counts >= batch.at_least]


def _count_in_batch(batch: _Batch) -> np.ndarray:
    """How many of the batch's contents hold each candidate."""
    counts = np.zeros(len(batch.shingles), dtype=np.int64)
    for shingles in batch.sets().values():
        at, found = _lookup(batch.shingles, shingles)
        counts[at[found]] += 1
    return counts


def _cores_in_batch(batch: _Batch) -> dict[int, Core]:
    """The cores of the batch's contents that have boilerplate."""
    cores = {}
    for cid, shingles in batch.sets().items():
        core = core_of(shingles, batch.shingles)
        if core is not None:
            cores[cid] = Core(len(core), minhash.signature(core, batch.num_perm, batch.seed).astype("<u4").tobytes())
    return cores


def _split(ids: np.ndarray, size: int) -> list[np.ndarray]:
    return [ids[start : start + size] for start in range(0, len(ids), size)]


def _value_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values = np.sort(values)
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    return values[starts], np.diff(np.append(starts, len(values)))
