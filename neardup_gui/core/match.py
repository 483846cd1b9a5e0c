"""From candidates to answers: verify pairs, measure them exactly, and group them.

Every pair shown carries the numbers that explain it: Hamming distance of the SimHashes, the MinHash
estimate, the exact Jaccard of the shingle sets and containment both ways. Exact duplicates (same bytes
or same normalised text) are always grouped. Groups are connected components (union-find) of the
verified pairs; each member shows its similarity to the group's representative, so a chain A~B~C,
where A and C are not alike, is visible as such.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from . import index, minhash
from .fingerprint import Scheme, fingerprint_bytes, raw_hash
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .models import Document, Group, Member, Method, Pair, Similarity, Status, Thresholds
from .simhash import hamming
from .store import BAND_THRESHOLD, FingerprintArrays, Store

NOT_DUPLICATE = "not_duplicate"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Groups of duplicates among ``documents`` at ``thresholds``."""

    thresholds: Thresholds
    documents: tuple[Document, ...]
    pairs: tuple[Pair, ...]
    groups: tuple[Group, ...]

    @property
    def problems(self) -> tuple[Document, ...]:
        return tuple(d for d in self.documents if d.status is not Status.OK)


def estimate_margin(threshold: float, num_perm: int = minhash.NUM_PERM) -> float:
    """How far below the threshold a MinHash estimate may fall and still be checked exactly (~4 sigma)."""
    return 4.0 * math.sqrt(threshold * (1.0 - threshold) / num_perm) + 0.02


class UnionFind:
    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


class Matcher:
    """Groups a database's documents at any thresholds; keeps fingerprints in memory between calls,
    so moving a threshold re-groups without reading them again (and never re-fingerprints)."""

    def __init__(self, store: Store, *, roots: Iterable[str] | None = None) -> None:
        self.store = store
        prefixes = tuple(r.rstrip(os.sep) for r in roots) if roots else None
        docs = store.documents()
        if prefixes is not None:
            docs = [d for d in docs if any(d.path == p or d.path.startswith(p + os.sep) for p in prefixes)]
        self.documents = tuple(docs)
        self._doc_by_id = {d.id: d for d in docs}
        wanted = {d.content_id for d in docs if d.status is Status.OK and d.content_id is not None}
        arrays = store.fingerprint_arrays()
        keep = np.isin(arrays.content_ids, np.fromiter(wanted, dtype=np.int64, count=len(wanted)))
        self.arrays = FingerprintArrays(
            arrays.content_ids[keep], arrays.simhash[keep], arrays.minhash[keep],
            [h for h, k in zip(arrays.text_hash, keep) if k], arrays.shingle_count[keep],
        )
        self._row_of = {int(cid): row for row, cid in enumerate(self.arrays.content_ids.tolist())}
        self._overlaps: dict[tuple[int, int], int] = {}
        self._hashes = store.content_hashes(self._row_of) if self._row_of else {}
        self.refresh_verdicts()

    def refresh_verdicts(self) -> None:
        """Re-read the user's "not a duplicate" decisions (after the app records one)."""
        self._rejected = self.store.verdicts(NOT_DUPLICATE)

    # -- similarity -------------------------------------------------------------------------
    def overlaps(self, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """|A∩B| of content pairs (a < b): from memory, then the database's cache, else computed."""
        missing = [p for p in pairs if p not in self._overlaps]
        if missing:
            cached = self.store.cached_overlaps(missing)
            self._overlaps.update(cached)
            todo = [p for p in missing if p not in cached]
            if todo:
                sets = self.store.shingles({c for p in todo for c in p})
                computed = {
                    (a, b): minhash.exact_overlap(sets[a], sets[b]) for a, b in todo if a in sets and b in sets
                }
                self._overlaps.update(computed)
                self.store.save_overlaps(computed)
        return {p: self._overlaps[p] for p in pairs if p in self._overlaps}

    def similarity(self, content_a: int, content_b: int) -> Similarity:
        """Every number that explains how alike two contents are."""
        if content_a == content_b:
            return Similarity(0, 1.0, 1.0, 1.0, 1.0)
        return self.similarities([(content_a, content_b)])[(min(content_a, content_b), max(content_a, content_b))]

    def similarities(self, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], Similarity]:
        norm = sorted({(min(a, b), max(a, b)) for a, b in pairs if a != b})
        if not norm:
            return {}
        shared = self.overlaps(norm)
        rows_a = np.array([self._row_of[a] for a, _ in norm])
        rows_b = np.array([self._row_of[b] for _, b in norm])
        dist = hamming(self.arrays.simhash[rows_a], self.arrays.simhash[rows_b])
        est = minhash.estimate(self.arrays.minhash[rows_a], self.arrays.minhash[rows_b])
        size_a = self.arrays.shingle_count[rows_a]
        size_b = self.arrays.shingle_count[rows_b]
        out: dict[tuple[int, int], Similarity] = {}
        for n, pair in enumerate(norm):
            both = shared.get(pair, 0)
            sa, sb = int(size_a[n]), int(size_b[n])
            union = sa + sb - both
            out[pair] = Similarity(
                hamming=int(dist[n]),
                jaccard_estimate=round(float(est[n]), 4),
                jaccard=round(both / union, 4) if union else 1.0,
                containment_ab=round(both / sa, 4) if sa else 0.0,
                containment_ba=round(both / sb, 4) if sb else 0.0,
            )
        return out

    # -- matching ---------------------------------------------------------------------------
    def content_pairs(
        self, thresholds: Thresholds, *, cancel: CancelToken = NEVER_CANCELLED
    ) -> dict[tuple[int, int], tuple[Similarity, str]]:
        """Verified near-duplicate content pairs (a < b) with their similarity and what matched them."""
        arrays = self.arrays
        ids = arrays.content_ids
        candidates: set[tuple[int, int]] = set()
        exact: set[tuple[int, int]] = set()
        by_text: dict[bytes, list[int]] = defaultdict(list)
        for cid, text_hash in zip(ids.tolist(), arrays.text_hash):
            by_text[text_hash].append(cid)
        for members in by_text.values():
            exact.update((min(members[0], m), max(members[0], m)) for m in members[1:])
        if thresholds.method in (Method.SIMHASH, Method.BOTH):
            i, j, _ = index.hamming_pairs(arrays.simhash, thresholds.hamming, cancel=cancel)
            candidates.update(zip(ids[i].tolist(), ids[j].tolist()))
        if thresholds.method in (Method.MINHASH, Method.BOTH):
            bands, rows = minhash.optimal_bands(thresholds.jaccard, arrays.minhash.shape[1] if len(arrays) else minhash.NUM_PERM)
            i, j, _ = index.band_pairs(
                arrays.minhash, bands, rows,
                min_estimate=thresholds.jaccard - estimate_margin(thresholds.jaccard), cancel=cancel,
            )
            candidates.update(zip(ids[i].tolist(), ids[j].tolist()))
        cancel.raise_if_cancelled()
        sims = self.similarities(sorted(candidates | exact))
        verified: dict[tuple[int, int], tuple[Similarity, str]] = {}
        for pair, sim in sims.items():
            if self._is_rejected(pair):
                continue
            if pair in exact:
                verified[pair] = (sim, "exact")
                continue
            by_simhash = thresholds.method in (Method.SIMHASH, Method.BOTH) and sim.hamming <= thresholds.hamming
            by_minhash = thresholds.method in (Method.MINHASH, Method.BOTH) and sim.jaccard >= thresholds.jaccard
            if by_simhash and by_minhash:
                verified[pair] = (sim, "both")
            elif by_simhash or by_minhash:
                verified[pair] = (sim, "simhash" if by_simhash else "minhash")
        return verified

    def _is_rejected(self, pair: tuple[int, int]) -> bool:
        if not self._rejected:
            return False
        ha, hb = self._hashes.get(pair[0]), self._hashes.get(pair[1])
        return ha is not None and hb is not None and tuple(sorted((ha, hb))) in self._rejected

    def match(
        self, thresholds: Thresholds, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> MatchResult:
        """Groups of exact and near-duplicate documents at ``thresholds``."""
        progress(ProgressEvent("match", 0, 3))
        content_pairs = self.content_pairs(thresholds, cancel=cancel)
        progress(ProgressEvent("match", 1, 3))
        files_of: dict[int, list[Document]] = defaultdict(list)
        for doc in self.documents:
            if doc.status is Status.OK and doc.content_id in self._row_of:
                files_of[doc.content_id].append(doc)
        uf = UnionFind()
        pairs: list[Pair] = []
        identical = Similarity(0, 1.0, 1.0, 1.0, 1.0)
        for copies in files_of.values():
            for other in copies[1:]:
                uf.union(copies[0].id, other.id)
                pairs.append(Pair(copies[0].id, other.id, identical, "exact"))
        for (ca, cb), (sim, how) in content_pairs.items():
            if ca in files_of and cb in files_of:
                a, b = files_of[ca][0].id, files_of[cb][0].id
                uf.union(a, b)
                pairs.append(Pair(a, b, sim, how))
        components: dict[int, list[Document]] = defaultdict(list)
        for copies in files_of.values():
            for doc in copies:
                components[uf.find(doc.id)].append(doc)
        groups_docs = [docs for docs in components.values() if len(docs) > 1]
        progress(ProgressEvent("match", 2, 3))
        cancel.raise_if_cancelled()
        groups = self._groups(groups_docs)
        progress(ProgressEvent("match", 3, 3))
        pairs.sort(key=lambda p: (p.a, p.b))
        return MatchResult(thresholds, self.documents, tuple(pairs), tuple(groups))

    def _groups(self, groups_docs: list[list[Document]]) -> list[Group]:
        reps = [max(docs, key=lambda d: (d.chars, -d.mtime_ns, d.path)) for docs in groups_docs]
        needed = [
            (rep.content_id, d.content_id)
            for rep, docs in zip(reps, groups_docs)
            for d in docs
            if d.content_id != rep.content_id
        ]
        sims = self.similarities(needed)
        order = sorted(range(len(groups_docs)), key=lambda g: (-len(groups_docs[g]), reps[g].path))
        groups: list[Group] = []
        for number, g in enumerate(order, start=1):
            rep = reps[g]
            members = []
            for d in groups_docs[g]:
                if d.content_id == rep.content_id:
                    sim = Similarity(0, 1.0, 1.0, 1.0, 1.0)
                else:
                    s = sims[(min(rep.content_id, d.content_id), max(rep.content_id, d.content_id))]
                    # containment_ab is "member inside representative"
                    ab, ba = (s.containment_ab, s.containment_ba) if d.content_id < rep.content_id else (s.containment_ba, s.containment_ab)
                    sim = Similarity(s.hamming, s.jaccard_estimate, s.jaccard, ab, ba)
                members.append(Member(d.id, sim))
            members.sort(key=lambda m: (m.document_id != rep.id, -m.similarity.jaccard, self._doc_by_id[m.document_id].path))
            rep_text = self.arrays.text_hash[self._row_of[rep.content_id]]
            exact = all(self.arrays.text_hash[self._row_of[self._doc_by_id[m.document_id].content_id]] == rep_text for m in members)
            groups.append(Group(number, rep.id, tuple(members), exact))
        return groups

    def document(self, doc_id: int) -> Document:
        return self._doc_by_id[doc_id]


def match(store: Store, thresholds: Thresholds, *, roots: Iterable[str] | None = None,
          progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> MatchResult:
    """One-shot grouping of the database (limited to files under ``roots`` when given)."""
    return Matcher(store, roots=roots).match(thresholds, progress=progress, cancel=cancel)


@dataclass(frozen=True, slots=True)
class QueryHit:
    document: Document
    similarity: Similarity
    matched_by: str


def query(store: Store, path: str, thresholds: Thresholds) -> list[QueryHit]:
    """Stored near-duplicates of one file, through the persisted indexes (no all-pairs work).

    The file need not be in the database: if it is not (or changed), it is fingerprinted now.
    """
    scheme = store.scheme() or Scheme.current()
    with open(path, "rb") as fh:
        data = fh.read()
    digest = raw_hash(data)
    known = store.content_ids_for([digest])
    own_cid = known.get(digest)
    stored = store.content_fingerprint(own_cid) if own_cid is not None else None
    if stored is not None:
        simhash_value, signature, text_hash, shingle_count = stored
        own_shingles = store.shingles([own_cid])[own_cid]
    else:
        from .extract import kind_of

        kind = kind_of(path) or "text"
        fp = fingerprint_bytes(kind, data, scheme)
        if fp.status is not Status.OK:
            raise ValueError(f"{path}: {fp.status}: {fp.message}")
        simhash_value = fp.simhash
        signature = np.frombuffer(fp.minhash, dtype="<u4").astype(np.uint32)
        text_hash = fp.text_hash
        own_shingles = minhash.unpack_shingles(fp.shingles)
    candidates: dict[int, int] = {}
    if thresholds.method in (Method.SIMHASH, Method.BOTH):
        for cid, value in store.simhash_neighbours(simhash_value, index.block_probes(thresholds.hamming)):
            candidates[cid] = value
    if thresholds.method in (Method.MINHASH, Method.BOTH):
        if thresholds.jaccard >= BAND_THRESHOLD:
            bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
            ids = store.band_neighbours(minhash.band_keys(signature, bands, rows)[0].tolist())
        else:
            arrays = store.fingerprint_arrays()
            est = minhash.estimate(arrays.minhash, signature[None, :])
            ids = set(arrays.content_ids[est >= thresholds.jaccard - estimate_margin(thresholds.jaccard)].tolist())
        for cid in ids:
            candidates.setdefault(cid, -1)
    candidates.pop(own_cid, None) if own_cid is not None else None
    sets = store.shingles(candidates)
    hits: list[QueryHit] = []
    docs_by_content: dict[int, list[Document]] = defaultdict(list)
    for doc in store.documents():
        if doc.content_id is not None:
            docs_by_content[doc.content_id].append(doc)
    own_count = len(own_shingles)
    for cid in candidates:
        stored_fp = store.content_fingerprint(cid)
        if stored_fp is None or cid not in sets:
            continue
        other_sim, other_sig, other_text, other_count = stored_fp
        shared = minhash.exact_overlap(own_shingles, sets[cid])
        union = own_count + other_count - shared
        sim = Similarity(
            int(hamming(simhash_value, other_sim)),
            round(float(minhash.estimate(signature, other_sig)), 4),
            round(shared / union, 4) if union else 1.0,
            round(shared / own_count, 4) if own_count else 0.0,
            round(shared / other_count, 4) if other_count else 0.0,
        )
        if other_text == text_hash:
            how = "exact"
        else:
            by_s = thresholds.method in (Method.SIMHASH, Method.BOTH) and sim.hamming <= thresholds.hamming
            by_m = thresholds.method in (Method.MINHASH, Method.BOTH) and sim.jaccard >= thresholds.jaccard
            if not (by_s or by_m):
                continue
            how = "both" if by_s and by_m else "simhash" if by_s else "minhash"
        for doc in docs_by_content.get(cid, []):
            hits.append(QueryHit(doc, sim, how))
    if own_cid is not None:
        real = os.path.realpath(path)
        for doc in docs_by_content.get(own_cid, []):
            if doc.path != real:
                hits.append(QueryHit(doc, Similarity(0, 1.0, 1.0, 1.0, 1.0), "exact"))
    hits.sort(key=lambda h: (-h.similarity.jaccard, h.similarity.hamming, h.document.path))
    return hits
