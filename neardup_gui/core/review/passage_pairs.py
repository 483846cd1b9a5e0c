"""The pairs of documents that share passages, held as arrays: at 100,000 documents a search finds some
700,000 pairs and 900,000 passages, which as records cost the parent some 300 MB and 4 s to make. A pair's
record (models.SharedPassages) is made when it is asked for: the Pairs view's rows, a report's pairs, the
pair view. Toolkit-free."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from ..match.passage_search import RunArrays
from ..models import Document, Passage, SharedPassages


@dataclass(frozen=True, slots=True, eq=False)
class PassagePairs(Sequence[SharedPassages]):
    """Pairs of documents (``a``, ``b``: document ids, ``a`` first by path) and their passages: pair ``k``'s
    are the rows ``first[k]`` to ``first[k + 1]`` of ``start_a``, ``start_b`` and ``words``, in the order
    they come in ``a``. A sequence of SharedPassages, each made when asked for."""

    a: np.ndarray
    b: np.ndarray
    first: np.ndarray
    start_a: np.ndarray
    start_b: np.ndarray
    words: np.ndarray

    def __post_init__(self) -> None:
        if len(self.a) != len(self.b) or len(self.first) != len(self.a) + 1:
            raise ValueError("a pair's documents and where its passages start must come one for each pair")
        if not len(self.start_a) == len(self.start_b) == len(self.words) == int(self.first[-1]):
            raise ValueError("every passage needs its two starts and its length")

    @staticmethod
    def empty() -> PassagePairs:
        none = np.empty(0, dtype=np.int64)
        return PassagePairs(none, none, np.zeros(1, dtype=np.int64), none, none, none)

    def __len__(self) -> int:
        return len(self.a)

    @overload
    def __getitem__(self, k: int) -> SharedPassages: ...

    @overload
    def __getitem__(self, k: slice) -> PassagePairs: ...

    def __getitem__(self, k: int | slice) -> SharedPassages | PassagePairs:
        if isinstance(k, slice):
            return self.taken(np.arange(len(self))[k])
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        k %= len(self)
        lo, hi = int(self.first[k]), int(self.first[k + 1])
        passages = tuple(
            Passage(sa, sb, n)
            for sa, sb, n in zip(
                self.start_a[lo:hi].tolist(), self.start_b[lo:hi].tolist(), self.words[lo:hi].tolist(), strict=True
            )
        )
        return SharedPassages(int(self.a[k]), int(self.b[k]), passages)

    def __iter__(self) -> Iterator[SharedPassages]:
        return (self[k] for k in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PassagePairs):
            return all(
                np.array_equal(x, y)
                for x, y in zip(
                    (self.a, self.b, self.first, self.start_a, self.start_b, self.words),
                    (other.a, other.b, other.first, other.start_a, other.start_b, other.words),
                    strict=True,
                )
            )
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(x == y for x, y in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # arrays: compared by value, not hashed

    @property
    def counts(self) -> np.ndarray:
        """How many passages each pair shares."""
        return np.diff(self.first)

    @property
    def longest(self) -> np.ndarray:
        """Each pair's longest passage, in words (Han: characters)."""
        if not len(self):
            return np.empty(0, dtype=np.int64)
        return np.maximum.reduceat(self.words, self.first[:-1])

    def taken(self, rows: np.ndarray) -> PassagePairs:
        """The pairs at ``rows``, in that order, with their passages."""
        rows = np.asarray(rows, dtype=np.int64)
        counts = self.counts[rows]
        first = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        # each passage's row: the pair's first row here, moved by its place among the pair's passages
        at = np.repeat(self.first[rows] - first[:-1], counts) + np.arange(int(first[-1]), dtype=np.int64)
        return PassagePairs(self.a[rows], self.b[rows], first, self.start_a[at], self.start_b[at], self.words[at])


def passage_pairs(runs: RunArrays, first: Mapping[int, Document]) -> PassagePairs:
    """The passages ``runs`` found between contents (keys: content ids, lengths in words) as pairs of the
    documents ``first`` gives for each content (its first in path order): each pair's first document the
    first by path; the pairs by their first document's path, then by the other's; each pair's passages by
    where they start in its first document, then in the other."""
    if not len(runs):
        return PassagePairs.empty()
    by_path = sorted(first.values(), key=lambda d: d.path)
    contents = np.array([d.content_id for d in by_path], dtype=np.int64)
    ids = np.array([d.id for d in by_path], dtype=np.int64)
    order = np.argsort(contents, kind="stable")
    contents, rank = contents[order], order  # a content's rank: its document's place in path order

    def ranked(keys: np.ndarray) -> np.ndarray:
        at = np.searchsorted(contents, keys)
        if np.any(at >= len(contents)) or np.any(contents[np.minimum(at, len(contents) - 1)] != keys):
            raise KeyError("a passage's content has no document in this view")
        return rank[at]

    ra, rb = ranked(runs.a), ranked(runs.b)
    swap = rb < ra
    ra, rb = np.where(swap, rb, ra), np.where(swap, ra, rb)
    sa, sb = np.where(swap, runs.start_b, runs.start_a), np.where(swap, runs.start_a, runs.start_b)
    order = np.lexsort((sb, sa, rb, ra))
    ra, rb, sa, sb, words = ra[order], rb[order], sa[order], sb[order], runs.length[order]
    starts = np.flatnonzero(np.concatenate(([True], (ra[1:] != ra[:-1]) | (rb[1:] != rb[:-1]))))
    bounds = np.append(starts, len(ra)).astype(np.int64)
    return PassagePairs(
        ids[ra[starts]],
        ids[rb[starts]],
        bounds,
        sa.astype(np.int64),
        sb.astype(np.int64),
        words.astype(np.int64),
    )
