"""From candidates to answers: verify pairs, measure them exactly, and group them.

Every pair shown carries the numbers that explain it: Hamming distance of the SimHashes, the MinHash
estimate, the exact Jaccard of the shingle sets and containment both ways. Exact duplicates (same bytes
or same normalised text) are always grouped. Groups are connected components (union-find) of the
verified pairs; each member shows its similarity to the group's representative, so a chain A~B~C,
where A and C are not alike, is visible as such.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import overload

import numpy as np

from ..errors import StaleFingerprints
from ..fingerprint import minhash
from ..fingerprint.boilerplate import Boilerplate, Core, CoreTable, collection_digest
from ..fingerprint.scheme import Scheme
from ..fingerprint.simhash import hamming
from ..fingerprint.text import sorted_unique
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..models import (
    IDENTICAL,
    PLACES,
    SIMHASH_MIN_JACCARD,
    Document,
    Documents,
    Group,
    Member,
    Method,
    Pair,
    PassageSearch,
    Similarity,
    Status,
    Thresholds,
    documents_by_id,
    matched_by,
    shown_ratio,
)
from ..store.contents import FingerprintArrays
from ..store.id_maps import RowsById
from ..store.store import Store
from ..workers import parallel
from ..workers.memory import release_freed_memory
from . import index
from .candidates import band_candidates, hamming_candidates
from .excerpts import ExcerptArrays, find_excerpts
from .forest import Forest, candidate_floor, estimate_margin, forest_layout, spanning_forest
from .known_overlaps import KnownOverlaps, pair_codes
from .passage_search import Placed, RunArrays, find_shared_passages, shingles_per_passage
from .unionfind import UnionFind

NOT_DUPLICATE = "not_duplicate"


def similarity_of(shared: int, size_a: int, size_b: int, distance: int, estimate: float) -> Similarity:
    """The numbers shown for two different contents, from their shingles in common, their set sizes
    (what is compared: cores where boilerplate is ignored), the Hamming distance of their SimHashes and
    the MinHash estimate: the ratios rounded down (shown_ratio), the estimate to the nearest, to 4 places;
    the Spark job shows the same (spark/records.py)."""
    union = size_a + size_b - shared
    return Similarity(
        hamming=distance,
        jaccard_estimate=round(estimate, PLACES),
        jaccard=shown_ratio(shared, union) if union else 1.0,
        containment_ab=shown_ratio(shared, size_a) if size_a else 0.0,
        containment_ba=shown_ratio(shared, size_b) if size_b else 0.0,
    )


@dataclass(frozen=True, slots=True, eq=False)
class SimilarityArrays:
    """The numbers of many pairs at once, each array as Similarity holds one pair's (rounded alike)."""

    hamming: np.ndarray
    jaccard_estimate: np.ndarray
    jaccard: np.ndarray
    containment_ab: np.ndarray
    containment_ba: np.ndarray

    def __len__(self) -> int:
        return len(self.jaccard)

    @property
    def containment(self) -> np.ndarray:
        return np.maximum(self.containment_ab, self.containment_ba)

    def at(self, k: int) -> Similarity:
        return Similarity(
            int(self.hamming[k]),
            float(self.jaccard_estimate[k]),
            float(self.jaccard[k]),
            float(self.containment_ab[k]),
            float(self.containment_ba[k]),
        )


def _shown(part: np.ndarray, whole: np.ndarray, empty: float) -> np.ndarray:
    """shown_ratio of many pairs (``empty`` where ``whole`` is 0)."""
    part, whole = np.asarray(part, dtype=np.int64), np.asarray(whole, dtype=np.int64)
    scale = 10**PLACES
    return np.where(whole > 0, (part * scale) // np.maximum(whole, 1) / scale, empty)


def _rounded(values: np.ndarray) -> np.ndarray:
    """Rounded to PLACES as similarity_of rounds the estimate: Python's round, which numpy's equals but
    within a hair of a half (numpy scales first, and may round a tie the other way), so those few are
    rounded by Python's."""
    values = np.asarray(values, dtype=np.float64)
    out = np.round(values, PLACES)
    scaled = values * 10**PLACES
    tie = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)
    out[tie] = [round(v, PLACES) for v in values[tie].tolist()]
    return out


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Groups of duplicates among ``documents`` at ``thresholds``."""

    thresholds: Thresholds
    documents: tuple[Document, ...]
    pairs: Sequence[Pair]  # a report's are made as they are looked at (PairRows)
    groups: tuple[Group, ...]

    @property
    def problems(self) -> tuple[Document, ...]:
        return tuple(d for d in self.documents if d.status is not Status.OK)

    @property
    def grouped(self) -> set[int]:
        """The documents in groups, each once (a document may be listed under several)."""
        return {m.document_id for g in self.groups for m in g.members}

    @property
    def documents_by_id(self) -> Mapping[int, Document]:
        """The documents by id (made once for the collection, shared by every result of one matcher)."""
        return documents_by_id(self.documents)

    @property
    def redundant(self) -> set[int]:
        """The documents in groups that no group keeps (its representative), each once."""
        return self.grouped - {g.representative for g in self.groups}


def ensure_current(store: Store, expected: Scheme | None = None) -> None:
    """Refuse fingerprints made under another scheme than ``expected`` (today's by default): they
    would be compared as if they were today's."""
    stored = store.scheme()
    if stored is not None and stored != (expected or Scheme.current()):
        raise StaleFingerprints(
            translate(
                "Errors",
                "{path} was fingerprinted by another version of neardup (or of the libraries that read "
                "documents); scan the folders again to renew its fingerprints (`neardup scan FOLDER`, or Scan "
                "in the app).",
            ).format(path=store.path)
        )


@dataclass(frozen=True, slots=True)
class BoilerplateUse:
    """How a matcher treats boilerplate: documents that have some are compared by their core (see
    boilerplate.py), everywhere MinHash and Jaccard are concerned. SimHash compares whole texts."""

    ignored: bool  # the user's choice
    available: bool  # an analysis of exactly this collection exists
    found: Boilerplate | None = None

    @staticmethod
    def analysis_of(store: Store, content_ids: np.ndarray) -> Boilerplate | None:
        """The database's boilerplate analysis if it was made for exactly these contents (read only then)."""
        if store.boilerplate.digest() != collection_digest(store.get_meta("scheme") or "", content_ids):
            return None
        return store.boilerplate.load()

    @property
    def cores(self) -> Mapping[int, Core]:
        return self.found.cores if self.found is not None else {}

    def summary(self) -> dict:
        """For reports: whether boilerplate was ignored, and how much of it there was."""
        out: dict = {"ignored": self.ignored and self.available}
        if self.ignored and not self.available:
            # the JSON report's words (English); shown translated: i18n.localize("Boilerplate", note)
            out["note"] = QT_TRANSLATE_NOOP(
                "Boilerplate", "not analysed for this collection yet: scan again to ignore it"
            )
        if self.found is not None:
            out.update(
                min_share=self.found.min_share,
                frequent_shingles=int(len(self.found.shingles)),
                passages=self.found.passages,
                family_passages=self.found.family_passages,
                documents_affected=self.found.documents_affected,
            )
        return out

    def applied(self, arrays: FingerprintArrays, *, in_place: bool = False) -> FingerprintArrays:
        """The arrays with every document that has boilerplate described by its core: a copy, or (``in_place``)
        the same arrays changed."""
        cores = self.cores
        if not cores:
            return arrays
        table = cores if isinstance(cores, CoreTable) else CoreTable.of(cores)
        ids = arrays.content_ids
        order = np.argsort(ids, kind="stable")
        rows = order[np.minimum(np.searchsorted(ids, table.ids, sorter=order), len(ids) - 1)] if len(ids) else order
        present = ids[rows] == table.ids if len(ids) else np.zeros(len(table.ids), dtype=bool)
        if in_place:
            sigs, counts = arrays.minhash, arrays.shingle_count
        else:
            sigs, counts = arrays.minhash.copy(), arrays.shingle_count.copy()
        sigs[rows[present]] = table.signatures[present]
        counts[rows[present]] = table.counts[present]
        return FingerprintArrays(arrays.content_ids, arrays.simhash, sigs, arrays.text_hash, counts)

    def compared(self, store: Store, content_ids: Iterable[int]) -> dict[int, np.ndarray]:
        """The shingle sets documents are compared by (cores where they have boilerplate)."""
        found = self.found
        return store.contents.shingles(content_ids, cores=found.digest if found is not None and found.cores else None)


class _ComparedSets(Sequence[np.ndarray]):
    """The sets contents are compared by (Boilerplate.compared), read from the database when asked for: a slice
    of them at once, so that a search going through them in order never holds them all."""

    def __init__(self, boilerplate: BoilerplateUse, store: Store, content_ids: list[int]) -> None:
        self._boilerplate, self._store, self._ids = boilerplate, store, content_ids

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> np.ndarray: ...

    @overload
    def __getitem__(self, index: slice) -> list[np.ndarray]: ...

    def __getitem__(self, index: int | slice) -> np.ndarray | list[np.ndarray]:
        ids = self._ids[index] if isinstance(index, slice) else [self._ids[index]]
        read = self._boilerplate.compared(self._store, ids)
        return [read[c] for c in ids] if isinstance(index, slice) else read[ids[0]]


EXCERPT_MIN_SHINGLES = 30
"""The fewest shingles an excerpt has: fewer are a line or two, found inside many documents by chance."""

_SHINGLE_BUDGET = 256 << 20
"""Bytes of shingle sets kept in memory for exact Jaccard; past it the cache starts again."""

POOL_PAIRS = 2000
"""Fewer pairs than this to measure are measured here, unless the workers are running already:
starting worker processes would cost more."""
_WARM_POOL_PAIRS = 200
"""... and fewer than this even then, outside a forest's batches: a round trip would cost more (a group's
split asks for a few)."""
_PAIRS_PER_TASK = 2000
_UNSAVED_LIMIT = 2_000_000  # overlaps held for keep_measured() (12 bytes each, a few times over) before it runs
_PAIRS_PER_ESTIMATE = 20_000  # signatures compared at once (20,000 pairs of 128 values: 20 MB gathered)


@dataclass(frozen=True, slots=True)
class OverlapTask:
    """Pairs of contents (a < b) whose exact overlaps a worker measures, reading the shingle sets
    from the database itself; compared by their cores under the analysis ``boilerplate`` names."""

    db_path: str
    state: str  # the collection's state: what a worker's cached sets must have been read under
    pairs: np.ndarray  # (n, 2) content ids
    boilerplate: str | None  # digest of the boilerplate analysis, or None for whole texts


@dataclass(frozen=True, slots=True)
class SequencesOf:
    """Reads contents' shingles in text order from a database, without their boilerplate when
    ``boilerplate`` names the analysis that cut it: a loader for passage_search that can be sent to a
    worker. A content without a sequence (shingled by characters) is searched as empty."""

    db_path: str
    boilerplate: str | None
    state: str = ""  # the collection's state: what a worker kept of its texts was read under it

    def __call__(self, content_ids: Sequence[int]) -> list[Placed]:
        parallel.shingle_cache().clear()  # a worker kept from the grouping needs its sets no more
        found = parallel.reader(self.db_path).contents.sequences(content_ids, cores=self.boilerplate)
        return [Placed(*found[c]) if c in found else Placed(_NO_SHINGLES) for c in content_ids]


_NO_SHINGLES = np.empty(0, dtype=np.uint32)


def _fields(record: ExcerptArrays | RunArrays) -> dict[str, np.ndarray]:
    """A search's arrays by name, as they are kept (store.searches)."""
    return {name: getattr(record, name) for name in record.__slots__}


def measure_overlaps(task: OverlapTask) -> np.ndarray:
    """|A∩B| of each pair of a task (worker side)."""
    state = f"{task.state}:{task.boilerplate}"
    sets = parallel.shingle_cache().sets(task.db_path, state, sorted_unique(task.pairs).tolist(), task.boilerplate)
    return np.fromiter(
        (minhash.exact_overlap(sets[a], sets[b]) for a, b in task.pairs.tolist()), dtype=np.int64, count=len(task.pairs)
    )


@dataclass(slots=True)
class ModeState:
    """What a matcher measures and caches for one way of treating boilerplate (whole texts, or cores):
    switching ways keeps the other's state for a switch back."""

    boilerplate: BoilerplateUse
    arrays: FingerprintArrays
    overlaps: KnownOverlaps  # exact |A∩B| of content pairs
    saved: np.ndarray  # the pair codes (known_overlaps.pair_codes) of those read from or saved to the database, sorted
    shingles: dict[int, np.ndarray] = field(default_factory=dict)  # shingle sets read for exact measures
    shingle_bytes: int = 0
    similarities: dict[tuple[int, int], Similarity] = field(default_factory=dict)  # by row pair
    pair_cache: dict[tuple[int, int, str], Pair] = field(default_factory=dict)
    group_cache: dict[bytes, tuple[Document, tuple[Member, ...], bool]] = field(default_factory=dict)
    minhash_forest: Forest | None = None
    simhash_forest: Forest | None = None  # its candidates verified by this way's Jaccard
    # the overlaps measured for later (Matcher.keep_measured): pair codes, sorted and distinct, and their overlaps
    unsaved: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # (pair codes, overlaps) held
    unsaved_count: int = 0  # pairs in unsaved, a pair held twice counted twice


class Matcher:
    """Groups a database's documents at any thresholds; keeps fingerprints, spanning forests and exact
    overlaps in memory between calls, so moving a threshold re-groups fast (and never re-fingerprints).

    Groups are the connected components of the verified pairs: exact copies, pairs within the Hamming
    distance, pairs whose exact Jaccard reaches the threshold. Each method's candidates are reduced
    once to a maximum spanning forest (MinHash edges measured exactly only where the forest needs
    them); every threshold the forest serves is then a cut of it. The pairs reported are the forest
    edges that join each group.
    """

    def __init__(
        self,
        store: Store,
        *,
        roots: Iterable[str] | None = None,
        scheme: Scheme | None = None,
        ignore_boilerplate: bool = True,
        workers: parallel.Workers = parallel.IN_THIS_PROCESS,
    ) -> None:
        self.store = store
        self._workers = workers
        ensure_current(store, scheme)
        prefixes = tuple(r.rstrip(os.sep) for r in roots) if roots else None
        docs = store.files.documents()
        if prefixes is not None:
            under, exact = tuple(p + os.sep for p in prefixes), set(prefixes)  # one call a path: a million
            docs = [d for d in docs if d.path.startswith(under) or d.path in exact]
        self.documents = Documents(docs)
        self._doc_by_id = self.documents.by_id()
        wanted = np.fromiter(
            (d.content_id for d in docs if d.status is Status.OK and d.content_id is not None), dtype=np.int64
        )
        arrays = store.contents.fingerprint_arrays()
        self._analysis = BoilerplateUse.analysis_of(store, arrays.content_ids)
        keep = np.isin(arrays.content_ids, wanted)
        if not keep.all():  # contents outside the roots left out (a copy: 512 bytes a row, made only then)
            arrays = FingerprintArrays(
                arrays.content_ids[keep],
                arrays.simhash[keep],
                arrays.minhash[keep],
                [h for h, k in zip(arrays.text_hash, keep, strict=True) if k],
                arrays.shingle_count[keep],
            )
        self._whole: FingerprintArrays | None = arrays  # None while lent to a way of comparing (_compared_arrays)
        self._lent: tuple[FingerprintArrays, np.ndarray, np.ndarray, np.ndarray] | None = None
        del wanted, keep
        self._row_of = RowsById(arrays.content_ids)
        # rows ranked by their first path: which row of a text stands for it, and which files of a content
        # pair up, do not follow the order contents were stored in, so reports are reproducible
        documents = self.documents
        by_path = [
            place
            for place in sorted(range(len(documents)), key=lambda k: documents[k].path)
            if documents[place].status is Status.OK and documents[place].content_id is not None
        ]
        places = np.array(by_path, dtype=np.int64)
        rows = self._row_of.find(np.fromiter((documents[p].content_id for p in by_path), np.int64, len(by_path)))
        places, rows = places[rows >= 0], rows[rows >= 0]
        self._files_of_row = _FilesOfRows(documents, rows, places, len(arrays))
        ranked, first = np.unique(rows, return_index=True)  # each row, and where its first path comes
        path_rank = np.full(len(arrays), len(arrays), dtype=np.int64)
        path_rank[ranked[np.argsort(first)]] = np.arange(len(ranked))
        self._has_copies = self._files_of_row.counts > 1
        # files whose bytes are the same but have no text to compare (a scan without OCR, an encrypted or
        # damaged file, an image) group as exact copies all the same: the same bytes are the same document
        same_bytes: dict[int, list[Document]] = defaultdict(list)
        for doc in sorted(self.documents, key=lambda d: d.path):
            if doc.status is not Status.OK and doc.content_id is not None and doc.size > 0:
                same_bytes[doc.content_id].append(doc)
        self._byte_copies = [copies for copies in same_bytes.values() if len(copies) > 1]
        self._copy_pairs = tuple(
            Pair(copies[0].id, other.id, IDENTICAL, "exact")
            for copies in (*self._files_of_row.with_copies(), *self._byte_copies)
            for other in copies[1:]
        )
        text_ids: dict[bytes, int] = {}
        self._text_id = np.fromiter(
            (text_ids.setdefault(h, len(text_ids)) for h in arrays.text_hash), dtype=np.int64, count=len(arrays)
        )
        # one row per distinct normalised text (its first by path): identical texts are joined to it by
        # exact edges, and would otherwise flood every LSH bucket and Hamming table with all their pairs
        by_text = np.lexsort((path_rank, self._text_id))
        sorted_text = self._text_id[by_text]
        self._exact_edges = index.pairs_to_first(by_text, sorted_text)
        self._distinct = np.sort(
            by_text[np.concatenate(([True], sorted_text[1:] != sorted_text[:-1]))] if len(by_text) else by_text
        )
        self._hashes = store.contents.hash_map(arrays.content_ids)
        self._exact_allowed: tuple[object, tuple[np.ndarray, np.ndarray]] | None = None  # (for which rulings, edges)
        self._contents_state = collection_digest(store.get_meta("scheme") or "", arrays.content_ids)
        self._modes: dict[bool, ModeState] = {}  # the other way of treating boilerplate, kept for a switch back
        self._mode = self._new_mode(ignore_boilerplate)
        self._rejected: set[tuple[bytes, bytes]] = set()
        self.refresh_verdicts()

    def set_ignore_boilerplate(self, ignore: bool) -> None:
        """Compare documents by their cores (True) or whole. Each way keeps its own measurements,
        forest and caches (not its shingle sets), so switching back costs almost nothing."""
        if ignore == self.boilerplate.ignored:
            return
        self.keep_measured()  # each way keeps its overlaps under its own name (cores or whole texts)
        leaving = self._mode
        leaving.shingles, leaving.shingle_bytes = {}, 0  # read again if needed: one memory budget, not two
        self._modes[leaving.boilerplate.ignored] = leaving
        self._mode = self._modes.pop(ignore) if ignore in self._modes else self._new_mode(ignore)

    def _new_mode(self, ignore: bool) -> ModeState:
        use = BoilerplateUse(ignore, self._analysis is not None, self._analysis if ignore else None)
        a, b, shared = self.store.overlaps.arrays(cores=use.found is not None)
        known = KnownOverlaps()
        known.add(a, b, shared)
        return ModeState(use, self._compared_arrays(use), known, np.sort(pair_codes(a, b)))

    def _compared_arrays(self, use: BoilerplateUse) -> FingerprintArrays:
        """The arrays ``use`` compares. The first way of comparing by cores changes the whole texts' arrays in
        place, keeping only the rows it changed (a second copy of every signature was half a GB at a million
        documents); the whole texts' are made again from it if another way asks for them."""
        whole = self._whole
        if whole is None:  # lent: made again from the arrays changed in place
            assert self._lent is not None
            (patched, rows, signatures, counts), self._lent = self._lent, None
            minhash, shingle_count = patched.minhash.copy(), patched.shingle_count.copy()
            minhash[rows], shingle_count[rows] = signatures, counts
            whole = self._whole = FingerprintArrays(
                patched.content_ids, patched.simhash, minhash, patched.text_hash, shingle_count
            )
        if not use.cores or any(mode.arrays is whole for mode in self._modes.values()):
            return use.applied(whole)
        rows = self._row_of.find(np.fromiter(use.cores, dtype=np.int64, count=len(use.cores)))
        rows = rows[rows >= 0]
        self._lent = (whole, rows, whole.minhash[rows], whole.shingle_count[rows])
        self._whole = None
        return use.applied(whole, in_place=True)

    @property
    def boilerplate(self) -> BoilerplateUse:
        """How boilerplate is treated in the comparisons made now."""
        return self._mode.boilerplate

    @property
    def arrays(self) -> FingerprintArrays:
        """The fingerprints compared now (with or without boilerplate)."""
        return self._mode.arrays

    def excerpts(
        self,
        containment: float,
        *,
        min_size: int = EXCERPT_MIN_SHINGLES,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> ExcerptArrays:
        """Every pair of contents where ``containment`` of the smaller one's shingles (its core's, where
        boilerplate is ignored) are in the larger, measured exactly (excerpts.py) by the workers that find
        them, on the same sets as the groups' pairs; rows are content ids. Kept in the database: asked again
        of the same collection, read back; the excerpts' overlaps are kept as the groups' pairs' are.
        The compared sets are read a part at a time into the files the workers search (excerpts.candidate_pairs);
        the parent holds what is known of each text, and the pairs."""
        name = f"excerpts:{containment!r}:{min_size}:{self._compared_by}"
        kept = self.store.searches.load(name, self._contents_state)
        if kept is not None:
            return ExcerptArrays(**kept)
        ids = self.arrays.content_ids
        with self._workers.kept():  # the same workers find the candidates and measure them
            found = find_excerpts(
                _ComparedSets(self.boilerplate, self.store, ids.tolist()),  # rows: the arrays' own
                containment,
                min_size=min_size,
                sizes=self.arrays.shingle_count,
                workers=self._workers,
                beside=str(Path(self.store.path).resolve().parent),
                progress=progress,
                cancel=cancel,
            )
        # of the candidates measured, only the excerpts' overlaps are kept (the pair view asks for them): most
        # are not, and saving them all cost the parent 15 s at 100,000 documents
        self._hold(pair_codes(*self._content_pairs(found.inner, found.outer)), found.shared)
        found = replace(found, inner=ids[found.inner], outer=ids[found.outer])
        self.store.searches.save(name, self._contents_state, _fields(found))
        return found

    def shared_passages(
        self, search: PassageSearch, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> RunArrays:
        """Every run of at least ``search.words`` units (words; Han: characters) that two contents both hold
        word for word, less common wording, outside their boilerplate where it is ignored
        (passage_search.py), found by the workers, each reading the texts it winnows or measures; keys are
        content ids, starts and lengths in units (a shingle starts where its first unit does). The parent
        holds what winnowing keeps of each text (some 4 / words of its shingles) and the candidate pairs.
        Kept in the database: asked again of the same collection, read back."""
        name = f"passages:{search.words}:{search.common}:{self._compared_by}"
        kept = self.store.searches.load(name, self._contents_state)
        if kept is not None:
            return RunArrays(**kept)
        scheme = self.store.scheme() or Scheme.current()
        found = self.boilerplate.found
        cores = found.digest if found is not None and found.cores else None
        load = SequencesOf(str(self.store.path), cores, self._contents_state)
        runs = find_shared_passages(
            load,
            self.arrays.content_ids,
            shingles_per_passage(search.words, scheme.shingle_size),
            max_texts=search.common,
            run=lambda fn, tasks: self._workers.map(fn, tasks, cancel=cancel),
            beside=str(Path(self.store.path).resolve().parent),
            progress=progress,
            cancel=cancel,
        )
        runs = replace(runs, length=runs.length + scheme.shingle_size - 1)
        self.store.searches.save(name, self._contents_state, _fields(runs))
        return runs

    @property
    def _compared_by(self) -> str:
        """What texts are compared by now: whole, or their cores under one boilerplate analysis."""
        found = self.boilerplate.found
        return f"cores {found.digest}" if found is not None and found.cores else "whole"

    def refresh_verdicts(self) -> None:
        """Re-read the user's "not a duplicate" decisions (after the app records one). A forest that
        uses a pair now ruled out, or that was built while a decision now withdrawn stood, is rebuilt."""
        before, now = self._rejected, self.store.verdicts.pairs(NOT_DUPLICATE)
        if now == before:
            return  # the same set object stays: what was worked out for it stays valid
        self._rejected = now
        withdrawn = not self._rejected >= before

        def outdated(forest: Forest | None) -> bool:
            return forest is not None and (
                withdrawn
                or any(self._is_rejected(a, b) for a, b in zip(forest.a.tolist(), forest.b.tolist(), strict=True))
            )

        for mode in (self._mode, *self._modes.values()):  # both ways of treating boilerplate
            if outdated(mode.minhash_forest):
                mode.minhash_forest = None
            if outdated(mode.simhash_forest):
                mode.simhash_forest = None

    @property
    def rulings(self) -> object:
        """The "not a duplicate" decisions in force: another object whenever they change."""
        return self._rejected

    # -- exact overlaps ---------------------------------------------------------------------
    def _content_pairs(self, rows_a: np.ndarray, rows_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The content ids of row pairs, the smaller first (how overlaps are kept)."""
        ids = self.arrays.content_ids
        ca, cb = ids[rows_a], ids[rows_b]
        return np.minimum(ca, cb), np.maximum(ca, cb)

    def _rows(self, contents: np.ndarray) -> np.ndarray:
        """The rows of content ids (each must have one), looked up all at once."""
        try:
            return self._row_of.rows(contents)
        except KeyError:
            raise KeyError("a content without a fingerprint") from None

    def _overlap_rows(
        self, rows_a: np.ndarray, rows_b: np.ndarray, cancel: CancelToken = NEVER_CANCELLED, *, later: bool = False
    ) -> np.ndarray:
        """|A∩B| for row pairs (SimHash candidates, the pairs that join groups, members against their
        representative): from memory, the database's cache, or measured now; all kept in the database, now,
        or when ``later`` by keep_measured(), which the session calls when this matcher's measures are
        needed next (a scan, a new matcher, closing): a threshold move waits for no write (measured: 1.3 s
        of a first move to T 0.7 at 100,000 documents)."""
        lo, hi, shared = self._measured(rows_a, rows_b, cancel)
        if later:
            self._hold(pair_codes(lo, hi), shared)
        else:
            self._keep_overlaps(pair_codes(lo, hi), shared)
        return shared

    def _measured(
        self, rows_a: np.ndarray, rows_b: np.ndarray, cancel: CancelToken
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lo, hi, |A∩B|) of row pairs as content pairs (lo < hi): from memory, the database's cache, or
        measured now (by the workers, where there are many), kept in memory only."""
        lo, hi = self._content_pairs(rows_a, rows_b)
        shared, known = self._mode.overlaps.lookup(lo, hi)
        if not known.all():
            unknown, todo = _to_measure(lo, hi, known)
            new_lo, new_hi = todo >> 32, todo & 0xFFFFFFFF
            warm = self._workers.warm and len(todo) >= _WARM_POOL_PAIRS
            if self._workers.pooled and (len(todo) >= POOL_PAIRS or warm):
                measured = self._measure_in_pool(new_lo, new_hi, cancel)
            else:
                self._measure_here(new_lo, new_hi, cancel)
                measured, _ = self._mode.overlaps.lookup(new_lo, new_hi)
            shared[~known] = measured[np.searchsorted(todo, unknown)]
        return lo, hi, shared

    def keep_measured(self) -> None:
        """Keep in the database, in one transaction, the overlaps measured for later (see _overlap_rows)."""
        self._compact_held()
        mode = self._mode
        held, mode.unsaved, mode.unsaved_count = mode.unsaved, [], 0
        if held:
            self._keep_overlaps(*held[0])

    def _hold(self, codes: np.ndarray, shared: np.ndarray) -> None:
        """Hold overlaps for keep_measured(), none the database holds; a threshold moved back and forth looks
        the same pairs up again, so what is held is made distinct when it has grown past _UNSAVED_LIMIT, and
        saved if it is still past it."""
        mode = self._mode
        if len(mode.saved) and len(codes):
            at = np.minimum(np.searchsorted(mode.saved, codes), len(mode.saved) - 1)
            new = mode.saved[at] != codes
            codes, shared = codes[new], shared[new]
        if len(codes):
            mode.unsaved.append((codes, shared))
            mode.unsaved_count += len(codes)
            if mode.unsaved_count > _UNSAVED_LIMIT:
                self._compact_held()
                if mode.unsaved_count > _UNSAVED_LIMIT:
                    self.keep_measured()

    def _compact_held(self) -> None:
        """What is held for keep_measured(), each pair once, in one piece."""
        mode = self._mode
        if len(mode.unsaved) > 1:
            codes, first = np.unique(np.concatenate([c for c, _ in mode.unsaved]), return_index=True)
            mode.unsaved = [(codes, np.concatenate([s for _, s in mode.unsaved])[first])]
            mode.unsaved_count = len(codes)

    def _keep_overlaps(self, codes: np.ndarray, shared: np.ndarray) -> None:
        """Save the overlaps of the pairs ``codes`` that the database does not hold yet: those measured
        now, and those the forest measured in memory only (it keeps only its own edges), so that the
        next matcher over the same contents (an unchanged rescan's) does not measure them again."""
        mode = self._mode
        at = np.minimum(np.searchsorted(mode.saved, codes), max(len(mode.saved) - 1, 0))
        new = mode.saved[at] != codes if len(mode.saved) else np.ones(len(codes), dtype=bool)
        if not new.any():
            return
        codes, first = np.unique(codes[new], return_index=True)
        found = self.boilerplate.found
        self.store.overlaps.save(
            dict(
                zip(
                    zip((codes >> 32).tolist(), (codes & 0xFFFFFFFF).tolist(), strict=True),
                    shared[new][first].tolist(),
                    strict=True,
                )
            ),
            cores_of=found.digest if found is not None else None,
        )
        mode.saved = np.insert(mode.saved, np.searchsorted(mode.saved, codes), codes)  # one copy, no sort

    def _overlap(self, a: int, b: int) -> int:
        """|A∩B| of two contents (a < b), remembered for this matcher's lifetime."""
        shared = self._mode.overlaps.get(a, b)
        if shared is None:
            sets = self._mode.shingles
            if a not in sets or b not in sets:  # hot path: most are in memory already
                self._load_shingles((a, b))
                sets = self._mode.shingles
            shared = minhash.exact_overlap(sets[a], sets[b])
            self._mode.overlaps.set(a, b, shared)
        return shared

    def _measure_here(self, lo: np.ndarray, hi: np.ndarray, cancel: CancelToken = NEVER_CANCELLED) -> None:
        """The overlaps of content pairs (lo < hi), measured in this process, into memory."""
        for start in range(0, len(lo), _PAIRS_PER_TASK):
            cancel.raise_if_cancelled()
            part = slice(start, start + _PAIRS_PER_TASK)
            self._load_shingles({*lo[part].tolist(), *hi[part].tolist()})
            sets = self._mode.shingles
            shared = np.fromiter(
                (
                    minhash.exact_overlap(sets[a], sets[b])
                    for a, b in zip(lo[part].tolist(), hi[part].tolist(), strict=True)
                ),
                dtype=np.int64,
                count=len(lo[part]),
            )
            self._mode.overlaps.add(lo[part], hi[part], shared)

    def _load_shingles(self, content_ids: set[int] | tuple[int, ...]) -> None:
        """Make the shingle sets of ``content_ids`` available, within a memory budget."""
        need = [c for c in content_ids if c not in self._mode.shingles]
        if not need:
            return
        if self._mode.shingle_bytes > _SHINGLE_BUDGET:
            self._mode.shingles = {c: s for c, s in self._mode.shingles.items() if c in content_ids}
            self._mode.shingle_bytes = sum(s.nbytes for s in self._mode.shingles.values())
        loaded = self.boilerplate.compared(self.store, need)
        self._mode.shingles.update(loaded)
        self._mode.shingle_bytes += sum(s.nbytes for s in loaded.values())

    def _measure_many(self, rows_a: np.ndarray, rows_b: np.ndarray, cancel: CancelToken) -> np.ndarray | None:
        """Exact Jaccard of a forest's batch of row pairs, the overlaps not known yet measured at once
        by the worker pool; None with one worker (the forest then measures them one by one, as it
        needs them) or for a few pairs before the pool has started (not worth starting it for)."""
        if not self._workers.pooled:
            return None
        lo, hi = self._content_pairs(rows_a, rows_b)
        shared, known = self._mode.overlaps.lookup(lo, hi)
        if not known.all():
            unknown, todo = _to_measure(lo, hi, known)
            if len(todo) < POOL_PAIRS and not self._workers.warm:
                return None
            measured = self._measure_in_pool(todo >> 32, todo & 0xFFFFFFFF, cancel)
            shared[~known] = measured[np.searchsorted(todo, unknown)]
        union = self.arrays.shingle_count[rows_a] + self.arrays.shingle_count[rows_b] - shared
        return np.divide(shared, union, out=np.ones(len(shared)), where=union > 0)

    def _measure_in_pool(self, lo: np.ndarray, hi: np.ndarray, cancel: CancelToken) -> np.ndarray:
        """The overlaps of distinct content pairs (lo < hi, ascending), measured by the workers in tasks
        of neighbouring pairs (a worker keeps the sets it read), at least one per worker; remembered
        all at once (one merge into the known overlaps, not one a task; on cancelling, those measured)."""
        found = self.boilerplate.found
        per_task = max(1, min(_PAIRS_PER_TASK, -(-len(lo) // self._workers.count)))
        pairs = np.column_stack((lo, hi))
        tasks = [
            OverlapTask(
                str(self.store.path),
                self._contents_state,
                pairs[k : k + per_task],
                found.digest if found is not None else None,
            )
            for k in range(0, len(pairs), per_task)
        ]
        offset_of = {id(task): k * per_task for k, task in enumerate(tasks)}
        shared = np.zeros(len(pairs), dtype=np.int64)
        measured = np.zeros(len(pairs), dtype=bool)
        try:
            for task, overlaps in self._workers.map(measure_overlaps, tasks, min_tasks=1, cancel=cancel):
                at = offset_of[id(task)]
                shared[at : at + len(task.pairs)] = overlaps
                measured[at : at + len(task.pairs)] = True
        finally:
            done = measured if not measured.all() else slice(None)
            self._mode.overlaps.add(lo[done], hi[done], shared[done])
        return shared

    def _jaccard_pair(self, row_a: int, row_b: int) -> float:
        """Exact Jaccard of two rows' shingle sets (one at a time: for the forest, which asks rarely)."""
        ids = self.arrays.content_ids
        ca, cb = int(ids[row_a]), int(ids[row_b])
        # kept in memory only: most are pairs that fail, and the forest is what is worth keeping
        shared = self._overlap(*((ca, cb) if ca < cb else (cb, ca)))
        union = int(self.arrays.shingle_count[row_a]) + int(self.arrays.shingle_count[row_b]) - shared
        return shared / union if union else 1.0

    def _jaccard_rows(
        self, rows_a: np.ndarray, rows_b: np.ndarray, cancel: CancelToken = NEVER_CANCELLED
    ) -> np.ndarray:
        """Exact Jaccard similarity of the shingle sets of row pairs."""
        shared = self._overlap_rows(rows_a, rows_b, cancel)
        union = self.arrays.shingle_count[rows_a] + self.arrays.shingle_count[rows_b] - shared
        return np.divide(shared, union, out=np.ones(len(shared)), where=union > 0)

    def _similarity_rows(self, rows_a: np.ndarray, rows_b: np.ndarray) -> list[Similarity]:
        cache = self._mode.similarities
        keys = list(zip(rows_a.tolist(), rows_b.tolist(), strict=True))
        todo = [n for n, key in enumerate(keys) if key not in cache]
        if todo:
            ta, tb = rows_a[todo], rows_b[todo]
            a = self.arrays
            shared = self._overlap_rows(ta, tb, later=True)
            dist = hamming(a.simhash[ta], a.simhash[tb])
            est = np.asarray(minhash.estimate(a.minhash[ta], a.minhash[tb]))
            size_a, size_b = a.shingle_count[ta].tolist(), a.shingle_count[tb].tolist()
            for n, key in enumerate(keys[k] for k in todo):
                cache[key] = (
                    IDENTICAL
                    if key[0] == key[1]
                    else similarity_of(int(shared[n]), size_a[n], size_b[n], int(dist[n]), float(est[n]))
                )
        return [cache[key] for key in keys]

    def similarity(self, content_a: int, content_b: int) -> Similarity:
        """Every number that explains how alike two contents are."""
        return self.similarity_pairs([content_a], [content_b])[0]

    def similarity_pairs(self, contents_a: Sequence[int], contents_b: Sequence[int]) -> list[Similarity]:
        """The numbers of many pairs of contents at once (each group against its keeper, say)."""
        row_of = self._row_of
        compared = [k for k, (a, b) in enumerate(zip(contents_a, contents_b, strict=True)) if a != b]
        if len(compared) == len(contents_a):
            rows_a = row_of.rows(np.fromiter(contents_a, dtype=np.int64, count=len(contents_a)))
            rows_b = row_of.rows(np.fromiter(contents_b, dtype=np.int64, count=len(contents_b)))
            return self._similarity_rows(rows_a, rows_b)
        # the same content (the same bytes) needs no fingerprint: byte copies without text have none
        out = [IDENTICAL] * len(contents_a)
        if compared:
            sims = self.similarity_pairs([contents_a[k] for k in compared], [contents_b[k] for k in compared])
            for k, s in zip(compared, sims, strict=True):
                out[k] = s
        return out

    def similarity_arrays(
        self, contents_a: np.ndarray, contents_b: np.ndarray, *, cancel: CancelToken = NEVER_CANCELLED
    ) -> SimilarityArrays:
        """similarity_pairs for many pairs (every pair of duplicates at a setting), as arrays; the same
        content (a byte copy, with or without text) is identical. What is measured is kept for later."""
        ca, cb = np.asarray(contents_a, dtype=np.int64), np.asarray(contents_b, dtype=np.int64)
        n = len(ca)
        bits = np.zeros(n, dtype=np.int64)
        est, jaccard, in_b, in_a = np.ones(n), np.ones(n), np.ones(n), np.ones(n)
        differ = np.flatnonzero(ca != cb)
        if len(differ):
            a = self.arrays
            ra, rb = self._rows(ca[differ]), self._rows(cb[differ])
            other = self._text_id[ra] != self._text_id[rb]  # the same text: identical, nothing to measure
            differ, ra, rb = differ[other], ra[other], rb[other]
        if len(differ):
            shared = self._overlap_rows(ra, rb, cancel, later=True)
            size_a, size_b = a.shingle_count[ra], a.shingle_count[rb]
            union = size_a + size_b - shared
            jaccard[differ] = _shown(shared, union, 1.0)
            in_b[differ] = _shown(shared, size_a, 0.0)
            in_a[differ] = _shown(shared, size_b, 0.0)
            bits[differ] = hamming(a.simhash[ra], a.simhash[rb])
            for start in range(0, len(differ), _PAIRS_PER_ESTIMATE):
                cancel.raise_if_cancelled()
                part = slice(start, start + _PAIRS_PER_ESTIMATE)
                est[differ[part]] = _rounded(
                    np.asarray(minhash.estimate(a.minhash[ra[part]], a.minhash[rb[part]]), dtype=np.float64)
                )
        return SimilarityArrays(bits, est, jaccard, in_b, in_a)

    def duplicates_among(
        self,
        contents_a: Sequence[int] | np.ndarray,
        contents_b: Sequence[int] | np.ndarray,
        thresholds: Thresholds,
        *,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> np.ndarray:
        """The positions k of the pairs (contents_a[k], contents_b[k]) that are duplicates at ``thresholds``
        directly, verified exactly (or the same text) and not ruled apart, as matched_by judges the numbers
        shown (rounded down as similarity_of rounds them, so as the exact ratios judge). The signatures rule
        out most pairs first, as the forest's candidates do (a MinHash estimate below candidate_floor, a SimHash
        distance above K), and so do their sizes (J is at most the smaller's over the larger's); only the rest
        are measured exactly, all at once."""
        rows_a = self._rows(np.asarray(contents_a, dtype=np.int64))
        rows_b = self._rows(np.asarray(contents_b, dtype=np.int64))
        t, arrays = thresholds, self.arrays
        maybe = np.zeros(len(rows_a), dtype=bool)
        for start in range(0, len(rows_a), _PAIRS_PER_ESTIMATE):
            cancel.raise_if_cancelled()
            part = slice(start, start + _PAIRS_PER_ESTIMATE)
            ra, rb = rows_a[part], rows_b[part]
            near = self._text_id[ra] == self._text_id[rb]
            # J is at most the smaller set's size over the larger's: a pair that cannot reach a bar is not measured
            size_a, size_b = arrays.shingle_count[ra], arrays.shingle_count[rb]
            small, large = np.minimum(size_a, size_b), np.maximum(size_a, size_b)
            if t.method is not Method.SIMHASH:
                est = np.asarray(minhash.estimate(arrays.minhash[ra], arrays.minhash[rb]))
                near |= (est >= candidate_floor(t.jaccard) - 1e-9) & (small >= (t.jaccard - 1e-9) * large)
            if t.method is not Method.MINHASH:
                near |= (hamming(arrays.simhash[ra], arrays.simhash[rb]) <= t.hamming) & (
                    small >= (SIMHASH_MIN_JACCARD - 1e-9) * large
                )
            maybe[part] = near
        at = np.flatnonzero(maybe)
        ra, rb = rows_a[at], rows_b[at]
        same = self._text_id[ra] == self._text_id[rb]
        differ = ~same & (ra != rb)
        jaccard = np.ones(len(at))
        if differ.any():
            shared = self._overlap_rows(ra[differ], rb[differ], cancel, later=True)
            union = arrays.shingle_count[ra[differ]] + arrays.shingle_count[rb[differ]] - shared
            jaccard[differ] = _shown(shared, union, 1.0)
        found = same.copy()
        if t.method is not Method.SIMHASH:
            found |= jaccard >= t.jaccard - 1e-9
        if t.method is not Method.MINHASH:
            found |= (hamming(arrays.simhash[ra], arrays.simhash[rb]) <= t.hamming) & (
                jaccard >= SIMHASH_MIN_JACCARD - 1e-9
            )
        if self._rejected:
            found &= np.fromiter(
                (not self._is_rejected(x, y) for x, y in zip(ra.tolist(), rb.tolist(), strict=True)),
                dtype=bool,
                count=len(at),
            )
        return at[found]

    # -- candidates -------------------------------------------------------------------------
    def _hamming_candidates(self, k: int, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Row pairs within ``k`` bits, with their distances, whose exact Jaccard (of what is compared:
        cores where boilerplate is ignored) reaches SIMHASH_MIN_JACCARD."""
        i, j, d = hamming_candidates(self.arrays.simhash, self._distinct, k, cancel=cancel)
        with self._workers.kept():
            related = self._jaccard_rows(i, j, cancel) >= SIMHASH_MIN_JACCARD - 1e-9
        return i[related], j[related], d[related]

    def _band_candidates(self, t: float, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return band_candidates(
            self.arrays.minhash,
            self._distinct,
            t,
            cancel=cancel,
            workers=self._workers,
            beside=str(Path(self.store.path).resolve().parent),
        )

    # -- forests ------------------------------------------------------------------------------
    def simhash_forest(self, k: int, *, cancel: CancelToken = NEVER_CANCELLED) -> Forest:
        """The SimHash forest serving Hamming distances up to at least ``k``, over verified candidates
        (see _hamming_candidates): one for each way of treating boilerplate."""
        forest = self._mode.simhash_forest
        if forest is None or forest.limit < k:
            # not "simhash": forests kept before candidates were verified
            name = "simhash-verified-cores" if self.boilerplate.found is not None else "simhash-verified"
            kept = self._kept_forest(name)
            if kept is not None and kept.limit >= k:
                forest = kept
            else:
                i, j, d = self._hamming_candidates(k, cancel)
                a, b, w = spanning_forest(
                    len(self.arrays),
                    i,
                    j,
                    -d.astype(np.float64),
                    -k,
                    skip=self._is_rejected if self._rejected else None,
                    cancel=cancel,
                )
                forest = self._keep_forest(name, Forest(k, a, b, w))
            self._mode.simhash_forest = forest
        return forest

    def minhash_forest(
        self, t: float, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> Forest:
        """The MinHash forest serving Jaccard thresholds down to at least ``t``: edges measured
        exactly, each taken up when its estimate plus the margin comes within reach."""
        forest = self._mode.minhash_forest
        if forest is None or forest.limit > t:
            name = "minhash-cores" if self.boilerplate.found is not None else "minhash"
            kept = self._kept_forest(name)
            if kept is not None and kept.limit <= t:
                forest = kept
            else:
                layout = forest_layout(t)
                with self._workers.kept():  # the same workers find the candidates and measure them
                    i, j, est = self._band_candidates(layout, cancel)
                    bound = np.minimum(1.0, est + estimate_margin(np.clip(est, layout, 1.0)))  # float32, as est
                    del est
                    # sorted here, so that millions of candidates are not held twice by the forest
                    order = np.argsort(-bound, kind="stable")
                    i, j, bound = i[order], j[order], bound[order]
                    del order
                    release_freed_memory()  # the search's sorting and gathering, for the forest's arrays
                    a, b, w = spanning_forest(
                        len(self.arrays),
                        i,
                        j,
                        bound,
                        layout - 1e-9,
                        exact=self._jaccard_pair,
                        measure_many=lambda ra, rb: self._measure_many(ra, rb, cancel),
                        skip=self._is_rejected if self._rejected else None,
                        progress=progress,
                        cancel=cancel,
                    )
                del i, j, bound
                release_freed_memory()
                forest = self._keep_forest(name, Forest(layout, a, b, w))
            self._mode.minhash_forest = forest
        return forest

    def _forest_state(self, name: str) -> str:
        """What a kept forest must have been built from: these contents under this scheme, these
        "not a duplicate" decisions and, for cores, this boilerplate analysis."""
        h = hashlib.blake2b(self._contents_state.encode(), digest_size=16)
        for a, b in sorted(self._rejected):
            h.update(a + b)
        if name.endswith("-cores") and self.boilerplate.found is not None:
            h.update(self.boilerplate.found.digest.encode())
        return h.hexdigest()

    def _kept_forest(self, name: str) -> Forest | None:
        """The forest an earlier matcher of this very state kept in the database (a restart, a rescan
        of an unchanged tree), or None."""
        kept = self.store.forests.load(name, self._forest_state(name))
        if kept is None:
            return None
        limit, a, b, weight = kept
        ids = self.arrays.content_ids
        return Forest(limit, np.searchsorted(ids, a), np.searchsorted(ids, b), weight)

    def _keep_forest(self, name: str, forest: Forest) -> Forest:
        ids = self.arrays.content_ids
        self.store.forests.save(
            name, self._forest_state(name), forest.limit, ids[forest.a], ids[forest.b], forest.weight
        )
        return forest

    # -- matching ---------------------------------------------------------------------------
    def verified_pairs(
        self, thresholds: Thresholds, *, cancel: CancelToken = NEVER_CANCELLED
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every pair of rows the engine judges duplicates (content ids via ``arrays.content_ids``),
        not only the edges that join groups: what precision and recall are measured on."""
        self.set_ignore_boilerplate(thresholds.ignore_boilerplate)
        n = len(self.arrays)
        found_i: list[np.ndarray] = []
        found_j: list[np.ndarray] = []
        order = np.argsort(self._text_id, kind="stable")
        for a, b in index.pairs_in_runs(order, self._text_id[order]):
            found_i.append(a)
            found_j.append(b)
        if thresholds.method in (Method.SIMHASH, Method.BOTH):
            i, j, _ = self._hamming_candidates(thresholds.hamming, cancel)
            found_i.append(i)
            found_j.append(j)
        if thresholds.method in (Method.MINHASH, Method.BOTH):
            # the candidates of the forest match() groups by (its layout, a reach below T), so that
            # these pairs' components are match()'s groups
            i, j, _ = self._band_candidates(forest_layout(thresholds.jaccard), cancel)
            ok = self._jaccard_rows(i, j) >= thresholds.jaccard - 1e-9
            found_i.append(i[ok])
            found_j.append(j[ok])
        if not found_i:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        a, b = np.concatenate(found_i).astype(np.int64), np.concatenate(found_j).astype(np.int64)
        rows_of_text: dict[int, list[int]] = defaultdict(list)
        for row, tid in enumerate(self._text_id.tolist()):
            rows_of_text[tid].append(row)
        if any(len(r) > 1 for r in rows_of_text.values()):
            text_a, text_b = self._text_id[a].tolist(), self._text_id[b].tolist()
            wide = [
                (x, y)
                for ta, tb in zip(text_a, text_b, strict=True)
                for x in rows_of_text[ta]
                for y in rows_of_text[tb]
                if x != y
            ]
            if wide:
                a = np.array([x for x, _ in wide], dtype=np.int64)
                b = np.array([y for _, y in wide], dtype=np.int64)
        codes = sorted_unique(np.minimum(a, b) * n + np.maximum(a, b))
        i, j = codes // n, codes % n
        keep = np.array([not self._is_rejected(x, y) for x, y in zip(i.tolist(), j.tolist(), strict=True)], dtype=bool)
        return i[keep] if len(keep) else i, j[keep] if len(keep) else j

    def match(
        self, thresholds: Thresholds, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> MatchResult:
        """Groups of exact and near-duplicate documents at ``thresholds``."""
        self.set_ignore_boilerplate(thresholds.ignore_boilerplate)
        progress(ProgressEvent("match", 0, 3))
        edges: list[tuple[np.ndarray, np.ndarray, str]] = [(*self._exact_edges_allowed(), "exact")]
        if thresholds.method in (Method.SIMHASH, Method.BOTH):
            forest = self.simhash_forest(thresholds.hamming, cancel=cancel)
            cut = forest.weight >= -thresholds.hamming
            edges.append((forest.a[cut], forest.b[cut], "simhash"))
        if thresholds.method in (Method.MINHASH, Method.BOTH):
            forest = self.minhash_forest(thresholds.jaccard, progress=progress, cancel=cancel)
            cut = forest.weight >= thresholds.jaccard - 1e-9
            edges.append((forest.a[cut], forest.b[cut], "minhash"))
        progress(ProgressEvent("match", 1, 3))
        cancel.raise_if_cancelled()

        uf = UnionFind(len(self.arrays))
        joins: list[tuple[int, int, str]] = []
        for i, j, how in edges:
            for a, b in zip(i.tolist(), j.tolist(), strict=True):
                if uf.union(a, b):
                    joins.append((a, b, how))
        rows_a = np.array([a for a, _, _ in joins], dtype=np.int64)
        rows_b = np.array([b for _, b, _ in joins], dtype=np.int64)
        sims = self._similarity_rows(rows_a, rows_b)
        result = self._assemble(uf.labels(), joins, sims, thresholds)
        progress(ProgressEvent("match", 3, 3))
        return result

    @property
    def content_hashes(self) -> Mapping[int, bytes]:
        """Each compared content's raw hash (to read its text again), read once per matcher."""
        return self._hashes

    def _exact_edges_allowed(self) -> tuple[np.ndarray, np.ndarray]:
        """Edges between rows of the same normalised text, without the pairs a person ruled out (a PDF
        printout set apart from its text file): a class that lost an edge to its first row is joined
        again through every other pair of its rows that is allowed. Worked out once per set of rulings
        (refresh_verdicts replaces the set when it changes), not on every threshold move."""
        exact_a, exact_b = self._exact_edges
        if not self._rejected or not len(exact_a):
            return exact_a, exact_b
        if self._exact_allowed is None or self._exact_allowed[0] is not self._rejected:
            self._exact_allowed = (self._rejected, self._exact_edges_without_rulings())
        return self._exact_allowed[1]

    def _exact_edges_without_rulings(self) -> tuple[np.ndarray, np.ndarray]:
        exact_a, exact_b = self._exact_edges
        ruled_out = np.array(
            [self._is_rejected(a, b) for a, b in zip(exact_a.tolist(), exact_b.tolist(), strict=True)], dtype=bool
        )
        if not ruled_out.any():
            return exact_a, exact_b
        extra_a: list[int] = []
        extra_b: list[int] = []
        for first in sorted_unique(exact_a[ruled_out]).tolist():
            rows = [first, *exact_b[exact_a == first].tolist()]
            for i, x in enumerate(rows):
                for y in rows[i + 1 :]:
                    if not self._is_rejected(x, y):
                        extra_a.append(x)
                        extra_b.append(y)
        keep = ~ruled_out
        return (
            np.concatenate((exact_a[keep], np.array(extra_a, dtype=exact_a.dtype))),
            np.concatenate((exact_b[keep], np.array(extra_b, dtype=exact_b.dtype))),
        )

    def ruled_apart(self, content_a: int, content_b: int) -> bool:
        """Whether a person ruled these two contents "not a duplicate"."""
        row_a, row_b = self._row_of.get(content_a), self._row_of.get(content_b)
        return row_a is not None and row_b is not None and self._is_rejected(row_a, row_b)

    def any_ruled_among(self, contents: Iterable[int]) -> bool:
        """Whether a person ruled any two of these contents "not a duplicate"."""
        if not self._rejected:
            return False
        hashes = {self._hashes.get(c) for c in contents}
        return any(a in hashes and b in hashes for a, b in self._rejected)

    def same_text(self, content_a: int, content_b: int) -> bool:
        """Whether two contents have the same normalised text (exact duplicates): the same bytes always do."""
        if content_a == content_b:
            return True
        row_a, row_b = self._row_of.get(content_a), self._row_of.get(content_b)
        return row_a is not None and row_b is not None and bool(self._text_id[row_a] == self._text_id[row_b])

    def text_ids(self, contents: Sequence[int]) -> np.ndarray:
        """Each content's normalised text as a number (same_text: two contents whose numbers are equal), -1 for
        one not compared."""
        rows = self._row_of.find(np.asarray(contents, dtype=np.int64))
        return np.where(rows >= 0, self._text_id[np.maximum(rows, 0)] if len(self._text_id) else -1, -1)

    def _is_rejected(self, row_a: int, row_b: int) -> bool:
        if not self._rejected:
            return False
        ids = self.arrays.content_ids
        ha, hb = self._hashes.get(int(ids[row_a])), self._hashes.get(int(ids[row_b]))
        return ha is not None and hb is not None and tuple(sorted((ha, hb))) in self._rejected

    def _assemble(
        self, labels: np.ndarray, joins: list[tuple[int, int, str]], sims: list[Similarity], thresholds: Thresholds
    ) -> MatchResult:
        pairs = list(self._copy_pairs)
        pairs.extend(self._pair(a, b, how, sim, thresholds) for (a, b, how), sim in zip(joins, sims, strict=True))
        # only rows in a component of several rows, or holding several files, make groups
        sizes = np.bincount(labels, minlength=len(labels))
        rows = np.flatnonzero((sizes[labels] > 1) | self._has_copies)
        rows = rows[np.argsort(labels[rows], kind="stable")]
        cuts = np.flatnonzero(np.diff(labels[rows])) + 1
        pairs.sort(key=lambda p: (p.a, p.b))
        groups = self._groups(np.split(rows, cuts) if len(rows) else [])
        return MatchResult(thresholds, self.documents, tuple(pairs), tuple(groups))

    def _pair(self, a: int, b: int, how: str, sim: Similarity, thresholds: Thresholds) -> Pair:
        how = self._matched_by(how, sim, thresholds)
        key = (a, b, how)
        pair = self._mode.pair_cache.get(key)
        if pair is None:
            fa, fb = self._files_of_row[a][0].id, self._files_of_row[b][0].id
            if fa > fb:
                fa, fb = fb, fa
                sim = Similarity(sim.hamming, sim.jaccard_estimate, sim.jaccard, sim.containment_ba, sim.containment_ab)
            pair = self._mode.pair_cache[key] = Pair(fa, fb, sim, how)
        return pair

    @staticmethod
    def _matched_by(how: str, sim: Similarity, t: Thresholds) -> str:
        if how == "exact":
            return "exact"
        return matched_by(sim, t) or how  # the forest's own method when rounding put a pair on the line

    def _groups(self, components: list[np.ndarray]) -> list[Group]:
        """Groups of the components' files, largest first. A component met at an earlier threshold is
        taken from memory: moving a threshold changes few of them."""
        cache = self._mode.group_cache
        if len(cache) > 200_000:
            cache.clear()
        keys = [rows.tobytes() for rows in components]
        todo = [(key, rows) for key, rows in zip(keys, components, strict=True) if key not in cache]
        files = self._files_of_row
        reps = [
            max((d for row in rows.tolist() for d in files[row]), key=lambda d: (d.chars, -d.mtime_ns, d.path))
            for _, rows in todo
        ]
        member_rows, rep_rows = [], []
        for rep, (_, rows) in zip(reps, todo, strict=True):
            rep_row = self._row_of[rep.content_id]
            for row in rows.tolist():
                member_rows.extend([row] * len(files[row]))
                rep_rows.extend([rep_row] * len(files[row]))
        sims = iter(self._similarity_rows(np.array(member_rows, dtype=np.int64), np.array(rep_rows, dtype=np.int64)))
        text_ids = self._text_id
        for rep, (key, rows) in zip(reps, todo, strict=True):
            docs = [d for row in rows.tolist() for d in files[row]]
            members = [Member(d.id, next(sims)) for d in docs]  # containment_ab: member inside representative
            members.sort(
                key=lambda m: (m.document_id != rep.id, -m.similarity.jaccard, self._doc_by_id[m.document_id].path)
            )
            # exact: every member the same text, by its normalised text or by all that is compared of it
            exact = bool((text_ids[rows] == text_ids[self._row_of[rep.content_id]]).all()) or all(
                m.similarity.same_text for m in members
            )
            cache[key] = (rep, tuple(members), exact)
        built = [cache[key] for key in keys]
        built += [(copies[0], tuple(Member(d.id, IDENTICAL) for d in copies), True) for copies in self._byte_copies]
        built.sort(key=lambda g: (-len(g[1]), g[0].path))
        return [Group(number, rep.id, members, exact) for number, (rep, members, exact) in enumerate(built, start=1)]

    def document(self, doc_id: int) -> Document:
        return self._doc_by_id[doc_id]


class _FilesOfRows:
    """The files holding each row's content, in path order: the files' places in ``documents`` row after
    row, and where each row's start (16 bytes a file; lists of lists took 95)."""

    def __init__(self, documents: Sequence[Document], rows: np.ndarray, places: np.ndarray, row_count: int) -> None:
        """``rows`` and ``places``: each file's row and place, the files in path order."""
        self._documents = documents
        self._places = places[np.argsort(rows, kind="stable")]  # path order kept within a row
        self.counts = np.bincount(rows, minlength=row_count)
        self._starts = np.concatenate(([0], np.cumsum(self.counts)))

    def __getitem__(self, row: int) -> list[Document]:
        places = self._places[self._starts[row] : self._starts[row + 1]].tolist()
        return [self._documents[place] for place in places]

    def with_copies(self) -> Iterator[list[Document]]:
        """The files of each row held by more than one, row after row."""
        for row in np.flatnonzero(self.counts > 1).tolist():
            yield self[row]


def _to_measure(lo: np.ndarray, hi: np.ndarray, known: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (lo, hi) not ``known``: their codes in the callers' order, and each once, ascending
    (what is measured: in order of lo then hi, neighbouring pairs share contents). The overlaps
    measured for the second fill the first by np.searchsorted."""
    unknown = pair_codes(lo[~known], hi[~known])
    return unknown, sorted_unique(unknown)


def match(
    store: Store,
    thresholds: Thresholds,
    *,
    roots: Iterable[str] | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> MatchResult:
    """One-shot grouping of the database (limited to files under ``roots`` when given)."""
    return Matcher(store, roots=roots).match(thresholds, progress=progress, cancel=cancel)
