"""Every verified pair of duplicates at the setting with its numbers: the Pairs view's rows and the reports'
pairs. Which pairs they are is found with the groups (chains.DuplicatePairs, counted without measuring);
their numbers are measured here, when a person or a report asks for them. The pairs of the other searches
(excerpts, shared passages) are tables of the same shape. Toolkit-free."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from ..fingerprint.text import sorted_unique
from ..jobs import NEVER_CANCELLED, CancelToken
from ..match.chains import DuplicatePairs
from ..match.matcher import Matcher, SimilarityArrays
from ..models import SIMHASH_MIN_JACCARD, Document, Excerpt, Method, Pair, Thresholds
from .passage_pairs import PassagePairs

EXACT, MINHASH, SIMHASH, BOTH = "exact", "minhash", "simhash", "both"
EXCERPT, PASSAGES = "excerpt", "passages"  # how a pair of the other searches was found


@dataclass(frozen=True, slots=True, eq=False)
class PairTable:
    """Pairs of documents (``a``, ``b``: document ids, a < b) with their numbers and how they were matched
    (``how``: "exact", "minhash", "simhash" or "both", as Pair.matched_by; "excerpt" or "passages" for the
    pairs of those searches). ``incomplete``: components too large to measure every pair of, whose pairs
    listed are those known (see chains.ComponentPairs). ``passages``: a table of pairs that share passages
    holds each row's, in the row's order; a table of excerpts, ``inner``: each row's document inside the other."""

    a: np.ndarray
    b: np.ndarray
    similarity: SimilarityArrays
    how: np.ndarray
    a_first: np.ndarray  # each row: whether a's path sorts before b's (the Pairs view shows that one on the left)
    incomplete: int = 0
    passages: PassagePairs = field(default_factory=PassagePairs.empty)
    inner: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.a)

    def documents(self) -> np.ndarray:
        """The documents of the pairs, each once, sorted."""
        return sorted_unique(np.concatenate((self.a, self.b)))

    def pair(self, k: int) -> Pair:
        return Pair(int(self.a[k]), int(self.b[k]), self.similarity.at(k), str(self.how[k]))

    def pairs(self) -> list[Pair]:
        return [self.pair(k) for k in range(len(self))]

    def row_of(self, a: int, b: int) -> int | None:
        """The row of the pair of documents ``a`` and ``b`` (either order), or None."""
        lo, hi = min(a, b), max(a, b)
        at = np.flatnonzero((self.a == lo) & (self.b == hi))
        return int(at[0]) if len(at) else None


class PairRows(Sequence[Pair]):
    """A pair table's rows as Pairs, each made when it is looked at: a report goes through a million
    pairs without holding a million Pair records (over 200 bytes each)."""

    def __init__(self, table: PairTable) -> None:
        self.table = table

    def __len__(self) -> int:
        return len(self.table)

    @overload
    def __getitem__(self, index: int) -> Pair: ...
    @overload
    def __getitem__(self, index: slice) -> list[Pair]: ...
    def __getitem__(self, index: int | slice) -> Pair | list[Pair]:
        if isinstance(index, slice):
            return [self.table.pair(k) for k in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.table.pair(index % len(self))

    def among(self, keys: Collection[tuple[int, int]]) -> list[Pair]:
        """The pairs whose (a, b) is one of ``keys`` (a < b), in the table's order."""
        if not keys or not len(self):
            return []
        wanted = np.array(sorted(keys), dtype=np.int64).reshape(-1, 2)
        base = int(max(self.table.b.max(), wanted.max())) + 1  # codes a * base + b, past every id
        codes = self.table.a.astype(np.int64) * base + self.table.b
        return [self.table.pair(k) for k in np.flatnonzero(np.isin(codes, wanted[:, 0] * base + wanted[:, 1])).tolist()]


@dataclass(frozen=True, slots=True)
class ExcerptGroup:
    """A document and the documents inside it: ``rows`` of an excerpt table, each one of ``outer``'s excerpts,
    the most of it inside first."""

    outer: int
    rows: tuple[int, ...]


def excerpt_groups(table: PairTable, documents: Mapping[int, Document]) -> tuple[ExcerptGroup, ...]:
    """The excerpts of ``table`` (an excerpt table) by the document they are inside (``by_holder``), holders
    alike in count by path."""
    return by_holder(outer_of(table), inner_share(table), lambda doc: documents[doc].path)


def by_holder(outer: np.ndarray, share: np.ndarray, order: Callable[[int], Any]) -> tuple[ExcerptGroup, ...]:
    """Excerpts (``outer``: each one's holder; ``share``: how much of it is inside) by the document they are
    inside: every document that holds another, with all it holds (as rows of the arrays), the most inside
    first (then in the arrays' order); the one holding the most first, then by ``order`` of the holder. A
    document inside two others is under each; one that holds excerpts and is inside another is a group's
    and an excerpt of the other."""
    rows: dict[int, list[int]] = {}
    for k in np.lexsort((np.arange(len(outer)), -np.asarray(share), outer)).tolist():
        rows.setdefault(int(outer[k]), []).append(k)
    ordered = sorted(rows.items(), key=lambda item: (-len(item[1]), order(item[0])))
    return tuple(ExcerptGroup(doc, tuple(held)) for doc, held in ordered)


def excerpts_by_holder(excerpts: Sequence[Excerpt], order: Callable[[int], Any]) -> tuple[ExcerptGroup, ...]:
    """``excerpts`` by the document they are inside (``by_holder``; rows: places in ``excerpts``)."""
    outer = np.array([e.outer for e in excerpts], dtype=np.int64)
    return by_holder(outer, np.array([e.containment for e in excerpts], dtype=np.float64), order)


def outer_of(table: PairTable) -> np.ndarray:
    """Each row's document that holds the other (an excerpt table)."""
    if table.inner is None:
        raise ValueError("a table of excerpts (excerpt_table) is needed")
    return np.where(table.a == table.inner, table.b, table.a)


def holders(table: PairTable) -> int:
    """How many documents hold the excerpts of an excerpt table."""
    return len(sorted_unique(outer_of(table)))


def inner_share(table: PairTable) -> np.ndarray:
    """How much of each row's inner document is inside the other (an excerpt table)."""
    if table.inner is None:
        raise ValueError("a table of excerpts (excerpt_table) is needed")
    s = table.similarity
    return np.where(table.a == table.inner, s.containment_ab, s.containment_ba)


def how_matched(s: SimilarityArrays, t: Thresholds) -> np.ndarray:
    """models.matched_by for every pair at once, "exact" where the texts are the same (Similarity.same_text)."""
    by_jaccard = (s.jaccard >= t.jaccard - 1e-9) if t.method is not Method.SIMHASH else np.zeros(len(s), bool)
    by_bits = (
        (s.hamming <= t.hamming) & (s.jaccard >= SIMHASH_MIN_JACCARD - 1e-9)
        if t.method is not Method.MINHASH
        else np.zeros(len(s), bool)
    )
    how = np.where(by_jaccard & by_bits, BOTH, np.where(by_bits, SIMHASH, MINHASH)).astype(object)
    how[(s.jaccard >= 1.0) & (s.hamming == 0)] = EXACT
    return how


def pair_table(
    duplicates: DuplicatePairs,
    documents: Mapping[int, Document],
    matcher: Matcher,
    thresholds: Thresholds,
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> PairTable:
    """The numbers of every pair in ``duplicates`` (each document's content against the other's, as the
    matcher measures them), in the order of their first document's path, then the second's."""
    a, b = duplicates.arrays()
    a, b, _order, a_first, sims = _by_path_measured(a, b, documents, matcher, cancel)
    return PairTable(a, b, sims, how_matched(sims, thresholds), a_first, duplicates.incomplete)


def excerpt_table(
    excerpts: Sequence[Excerpt],
    documents: Mapping[int, Document],
    matcher: Matcher,
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> PairTable:
    """The pairs of documents of which one is inside the other, with their numbers, by path."""
    inner = np.array([e.inner for e in excerpts], dtype=np.int64)
    outer = np.array([e.outer for e in excerpts], dtype=np.int64)
    lo, hi = np.minimum(inner, outer), np.maximum(inner, outer)
    a, b, order, a_first, sims = _by_path_measured(lo, hi, documents, matcher, cancel)
    return PairTable(a, b, sims, np.full(len(a), EXCERPT, dtype=object), a_first, inner=inner[order])


def passage_table(
    found: PassagePairs,
    documents: Mapping[int, Document],
    matcher: Matcher,
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> PairTable:
    """The pairs of documents that share passages, with their numbers and their passages, by path."""
    lo, hi = np.minimum(found.a, found.b), np.maximum(found.a, found.b)
    a, b, order, a_first, sims = _by_path_measured(lo, hi, documents, matcher, cancel)
    return PairTable(a, b, sims, np.full(len(a), PASSAGES, dtype=object), a_first, passages=found.taken(order))


def _by_path_measured(
    a: np.ndarray, b: np.ndarray, documents: Mapping[int, Document], matcher: Matcher, cancel: CancelToken
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, SimilarityArrays]:
    """Pairs in the order of their first document's path, then the second's, that order, whether each
    pair's ``a`` is the first by path, and the pairs' numbers (each document's content against the
    other's). Only the pairs' documents are ranked by path and looked up, each once (not the whole
    collection's: a million paths sorted at a million)."""
    ids = sorted_unique(np.concatenate((a, b)))
    at_a, at_b = np.searchsorted(ids, a), np.searchsorted(ids, b)
    paths = [documents[d].path for d in ids.tolist()]
    rank = np.empty(len(ids), dtype=np.int64)
    rank[sorted(range(len(ids)), key=paths.__getitem__)] = np.arange(len(ids))
    ra, rb = rank[at_a], rank[at_b]
    order = np.lexsort((np.maximum(ra, rb), np.minimum(ra, rb)))
    contents = np.array([documents[d].content_id for d in ids.tolist()], dtype=np.int64)
    at_a, at_b = at_a[order], at_b[order]
    sims = matcher.similarity_arrays(contents[at_a], contents[at_b], cancel=cancel)
    return a[order], b[order], order, rank[at_a] < rank[at_b], sims
