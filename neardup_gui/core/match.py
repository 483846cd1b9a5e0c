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
from .errors import StaleFingerprints
from .fingerprint import Scheme, fingerprint_bytes, raw_hash
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .models import IDENTICAL, Document, Group, Member, Method, Pair, Similarity, Status, Thresholds
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


def ensure_current(store: Store) -> None:
    """Refuse fingerprints made under another scheme: they would be compared as if they were today's."""
    stored = store.scheme()
    if stored is not None and stored != Scheme.current():
        raise StaleFingerprints(
            f"{store.path} was fingerprinted by another version of neardup (or of jieba/pypdf); "
            "scan the folders again to renew its fingerprints (`neardup scan FOLDER`, or Scan in the app)."
        )


def estimate_margin(threshold: float, num_perm: int = minhash.NUM_PERM) -> float:
    """How far below the threshold a MinHash estimate may fall and still be checked exactly (~4 sigma)."""
    return 4.0 * math.sqrt(threshold * (1.0 - threshold) / num_perm) + 0.02


class UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[max(ra, rb)] = min(ra, rb)
        return True

    def labels(self) -> np.ndarray:
        """Each element's root, by vectorised pointer jumping (and the tree flattened on the way)."""
        p = np.asarray(self.parent, dtype=np.int64)
        while True:
            q = p[p]
            if np.array_equal(q, p):
                break
            p = q
        self.parent = p.tolist()
        return p


_EDGE_CHUNK = 4096
DENSE_BUCKET = 32
"""An LSH bucket with more rows than this is met through its first row, then settled where needed."""


class Matcher:
    """Groups a database's documents at any thresholds; keeps fingerprints, candidate pairs and exact
    overlaps in memory between calls, so moving a threshold re-groups fast (and never re-fingerprints).

    Groups are the connected components of the verified pairs. An edge whose two ends are already
    connected cannot change a group, so only edges that would join two components are verified
    exactly (Kruskal, strongest first): the groups are the same as verifying every candidate, at a
    fraction of the cost. The pairs reported are the verified edges that join each group.
    """

    def __init__(self, store: Store, *, roots: Iterable[str] | None = None) -> None:
        self.store = store
        ensure_current(store)
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
        text_ids: dict[bytes, int] = {}
        self._text_id = np.fromiter((text_ids.setdefault(h, len(text_ids)) for h in self.arrays.text_hash),
                                    dtype=np.int64, count=len(self.arrays))
        # one row per distinct normalised text: identical texts are joined by exact edges, and would
        # otherwise flood every LSH bucket and Hamming table with all their pairs
        _, self._distinct = np.unique(self._text_id, return_index=True)
        self._distinct.sort()
        self._overlaps = store.all_overlaps()
        self._shingles: dict[int, np.ndarray] = {}
        self._hashes = store.content_hashes(self._row_of) if self._row_of else {}
        self._band_cache: tuple | None = None  # (design T, i, j, est, dense buckets)
        self._hamming_cache: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None  # (K, i, j, d)
        self.refresh_verdicts()

    def refresh_verdicts(self) -> None:
        """Re-read the user's "not a duplicate" decisions (after the app records one)."""
        self._rejected = self.store.verdicts(NOT_DUPLICATE)

    # -- exact overlaps ---------------------------------------------------------------------
    def _overlap_rows(self, rows_a: np.ndarray, rows_b: np.ndarray) -> np.ndarray:
        """|A∩B| for row pairs: from memory, the database's cache, or computed (and saved)."""
        ids = self.arrays.content_ids
        ca, cb = ids[rows_a], ids[rows_b]
        lo, hi = np.minimum(ca, cb).tolist(), np.maximum(ca, cb).tolist()
        out = np.empty(len(lo), dtype=np.int64)
        missing = []
        for n, key in enumerate(zip(lo, hi)):
            value = self._overlaps.get(key)
            if value is None:
                missing.append(n)
            else:
                out[n] = value
        if missing:
            need = {c for n in missing for c in (lo[n], hi[n]) if c not in self._shingles}
            if need:
                self._shingles.update(self.store.shingles(need))
            computed = {}
            for n in missing:
                key = (lo[n], hi[n])
                value = minhash.exact_overlap(self._shingles[key[0]], self._shingles[key[1]])
                computed[key] = out[n] = value
            self._overlaps.update(computed)
            self.store.save_overlaps(computed)
            if len(self._shingles) > 50_000:
                self._shingles.clear()
        return out

    def _similarity_rows(self, rows_a: np.ndarray, rows_b: np.ndarray) -> list[Similarity]:
        a = self.arrays
        shared = self._overlap_rows(rows_a, rows_b)
        dist = hamming(a.simhash[rows_a], a.simhash[rows_b])
        est = minhash.estimate(a.minhash[rows_a], a.minhash[rows_b]) if len(rows_a) else np.empty(0)
        size_a, size_b = a.shingle_count[rows_a], a.shingle_count[rows_b]
        union = size_a + size_b - shared
        out = []
        for n in range(len(rows_a)):
            same = rows_a[n] == rows_b[n]
            out.append(Similarity(
                hamming=int(dist[n]),
                jaccard_estimate=1.0 if same else round(float(est[n]), 4),
                jaccard=1.0 if same or not union[n] else round(float(shared[n] / union[n]), 4),
                containment_ab=1.0 if same else round(float(shared[n] / size_a[n]), 4) if size_a[n] else 0.0,
                containment_ba=1.0 if same else round(float(shared[n] / size_b[n]), 4) if size_b[n] else 0.0,
            ))
        return out

    def similarity(self, content_a: int, content_b: int) -> Similarity:
        """Every number that explains how alike two contents are."""
        rows = np.array([self._row_of[content_a]]), np.array([self._row_of[content_b]])
        return self._similarity_rows(*rows)[0]

    # -- candidates -------------------------------------------------------------------------
    def _hamming_edges(self, k: int, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cached = self._hamming_cache
        if cached is None or cached[0] < k:
            rows = self._distinct
            i, j, d = index.hamming_pairs(self.arrays.simhash[rows], k, cancel=cancel)
            self._hamming_cache = cached = (k, rows[i], rows[j], d)
        _, i, j, d = cached
        keep = d <= k
        return i[keep], j[keep], d[keep]

    def _band_edges(self, t: float, cancel: CancelToken, dense: int | None = DENSE_BUCKET):
        """LSH candidates for T (and the dense buckets they summarise). A layout designed for a lower
        T also serves a higher one (it misses even fewer pairs there), so candidates are reused while
        T does not go below their design."""
        cached = self._band_cache
        if cached is None or cached[0] > t or (dense is None and cached[4]):
            bands, rows = minhash.optimal_bands(t, self.arrays.minhash.shape[1])
            distinct = self._distinct
            i, j, est, buckets = index.band_pairs(self.arrays.minhash[distinct], bands, rows, dense=dense,
                                                  min_estimate=t - estimate_margin(t), cancel=cancel)
            self._band_cache = cached = (t, distinct[i], distinct[j], est, [distinct[b] for b in buckets])
        _, i, j, est, buckets = cached
        keep = est >= t - estimate_margin(t)
        return i[keep], j[keep], est[keep], buckets

    def _exact_edges(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(self._text_id, kind="stable")
        return index.pairs_to_first(order, self._text_id[order])

    # -- matching ---------------------------------------------------------------------------
    def verified_pairs(self, thresholds: Thresholds, *, cancel: CancelToken = NEVER_CANCELLED) -> tuple[np.ndarray, np.ndarray]:
        """Every pair of rows the engine judges duplicates (content ids via ``arrays.content_ids``),
        not only the edges that join groups: what precision and recall are measured on."""
        n = len(self.arrays)
        found_i, found_j = [], []
        order = np.argsort(self._text_id, kind="stable")
        for a, b in index.pairs_in_runs(order, self._text_id[order]):
            found_i.append(a)
            found_j.append(b)
        if thresholds.method in (Method.SIMHASH, Method.BOTH):
            i, j, _ = self._hamming_edges(thresholds.hamming, cancel)
            found_i.append(i)
            found_j.append(j)
        if thresholds.method in (Method.MINHASH, Method.BOTH):
            i, j, _, _ = self._band_edges(thresholds.jaccard, cancel, dense=None)
            shared = self._overlap_rows(i, j)
            sizes = self.arrays.shingle_count[i] + self.arrays.shingle_count[j]
            ok = shared >= thresholds.jaccard * (sizes - shared) - 1e-9
            found_i.append(i[ok])
            found_j.append(j[ok])
        if not found_i:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        a, b = np.concatenate(found_i), np.concatenate(found_j)
        rows_of_text: dict[int, list[int]] = defaultdict(list)
        for row, tid in enumerate(self._text_id.tolist()):
            rows_of_text[tid].append(row)
        if any(len(r) > 1 for r in rows_of_text.values()):
            text_a, text_b = self._text_id[a].tolist(), self._text_id[b].tolist()
            wide = [(x, y) for ta, tb in zip(text_a, text_b) for x in rows_of_text[ta] for y in rows_of_text[tb] if x != y]
            if wide:
                a = np.array([x for x, _ in wide], dtype=np.int64)
                b = np.array([y for _, y in wide], dtype=np.int64)
        codes = np.unique(np.minimum(a, b) * n + np.maximum(a, b))
        i, j = codes // n, codes % n
        keep = np.array([not self._is_rejected(x, y) for x, y in zip(i.tolist(), j.tolist())], dtype=bool)
        return i[keep] if len(keep) else i, j[keep] if len(keep) else j

    def match(
        self, thresholds: Thresholds, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> MatchResult:
        """Groups of exact and near-duplicate documents at ``thresholds``."""
        n = len(self.arrays)
        progress(ProgressEvent("match", 0, 3))
        uf = UnionFind(n)
        joins: list[tuple[int, int, str]] = []
        use_simhash = thresholds.method in (Method.SIMHASH, Method.BOTH)
        use_minhash = thresholds.method in (Method.MINHASH, Method.BOTH)

        ei, ej = self._exact_edges()
        self._join(uf, joins, ei, ej, "exact", None)
        if use_simhash:
            hi, hj, hd = self._hamming_edges(thresholds.hamming, cancel)
            order = np.argsort(hd, kind="stable")
            self._join(uf, joins, hi[order], hj[order], "simhash", None)
        if use_minhash:
            mi, mj, est, buckets = self._band_edges(thresholds.jaccard, cancel)
            order = np.argsort(-est, kind="stable")
            self._join(uf, joins, mi[order], mj[order], "minhash", thresholds, cancel)
            self._settle_buckets(uf, joins, buckets, thresholds, cancel)
        progress(ProgressEvent("match", 1, 3))
        cancel.raise_if_cancelled()

        rows_a = np.array([a for a, _, _ in joins], dtype=np.int64)
        rows_b = np.array([b for _, b, _ in joins], dtype=np.int64)
        sims = self._similarity_rows(rows_a, rows_b)
        labels = uf.labels()
        result = self._assemble(labels, joins, sims, thresholds)
        progress(ProgressEvent("match", 3, 3))
        return result

    def _join(self, uf: UnionFind, joins: list, i: np.ndarray, j: np.ndarray, how: str,
              thresholds: Thresholds | None, cancel: CancelToken = NEVER_CANCELLED) -> None:
        """Union the edges (strongest first) that join two components; MinHash edges only once their
        exact Jaccard is at least the threshold."""
        pending_i, pending_j = i, j
        # unverified edges cost one union each: take them in large chunks; MinHash edges cost an
        # exact check each, so take few at a time and drop the ones made redundant in between
        size = _EDGE_CHUNK if thresholds is not None else max(_EDGE_CHUNK, len(pending_i) // 8)
        while len(pending_i):
            cancel.raise_if_cancelled()
            if len(pending_i) > size:
                labels = uf.labels()
                apart = labels[pending_i] != labels[pending_j]
                pending_i, pending_j = pending_i[apart], pending_j[apart]
            chunk_i, chunk_j = pending_i[:size], pending_j[:size]
            pending_i, pending_j = pending_i[size:], pending_j[size:]
            if len(chunk_i) == 0:
                break
            if thresholds is not None:
                apart = np.fromiter((uf.find(a) != uf.find(b) for a, b in zip(chunk_i.tolist(), chunk_j.tolist())),
                                    dtype=bool, count=len(chunk_i))
                chunk_i, chunk_j = chunk_i[apart], chunk_j[apart]
                shared = self._overlap_rows(chunk_i, chunk_j)
                sizes = self.arrays.shingle_count[chunk_i] + self.arrays.shingle_count[chunk_j]
                ok = shared >= thresholds.jaccard * (sizes - shared) - 1e-9
                chunk_i, chunk_j = chunk_i[ok], chunk_j[ok]
            for a, b in zip(chunk_i.tolist(), chunk_j.tolist()):
                if self._is_rejected(a, b):
                    continue
                if uf.union(a, b):
                    joins.append((a, b, how))

    def _settle_buckets(self, uf: UnionFind, joins: list, buckets: list[np.ndarray], thresholds: Thresholds,
                        cancel: CancelToken) -> None:
        """A dense bucket was met only through its first row. Wherever its members still lie in
        different components, compare them pairwise (strongest first) until none is left unexamined:
        the groups then equal those of verifying every pair in the bucket."""
        sigs = self.arrays.minhash
        floor = thresholds.jaccard - estimate_margin(thresholds.jaccard)
        all_labels = uf.labels() if buckets else None
        for members in buckets:
            cancel.raise_if_cancelled()
            labels = all_labels[members]
            if (labels == labels[0]).all():
                continue
            order = np.argsort(labels, kind="stable")
            i, j = index.pairs_in_runs_across(members[order], labels[order])
            i, j, est = index.estimate_pairs(sigs, i, j, floor, cancel)
            strongest = np.argsort(-est, kind="stable")
            before = len(joins)
            self._join(uf, joins, i[strongest], j[strongest], "minhash", thresholds, cancel)
            if len(joins) > before:
                all_labels = uf.labels()

    def _is_rejected(self, row_a: int, row_b: int) -> bool:
        if not self._rejected:
            return False
        ids = self.arrays.content_ids
        ha, hb = self._hashes.get(int(ids[row_a])), self._hashes.get(int(ids[row_b]))
        return ha is not None and hb is not None and tuple(sorted((ha, hb))) in self._rejected

    def _assemble(self, labels: np.ndarray, joins: list, sims: list[Similarity], thresholds: Thresholds) -> MatchResult:
        ids = self.arrays.content_ids.tolist()
        files_of: dict[int, list[Document]] = defaultdict(list)
        for doc in self.documents:
            if doc.status is Status.OK and doc.content_id in self._row_of:
                files_of[doc.content_id].append(doc)
        pairs: list[Pair] = []
        for copies in files_of.values():
            pairs.extend(Pair(copies[0].id, other.id, IDENTICAL, "exact") for other in copies[1:])
        for (a, b, how), sim in zip(joins, sims):
            how = self._matched_by(how, sim, thresholds)
            fa, fb = files_of[ids[a]][0].id, files_of[ids[b]][0].id
            first, second = (fa, fb) if fa < fb else (fb, fa)
            if fa > fb:
                sim = Similarity(sim.hamming, sim.jaccard_estimate, sim.jaccard, sim.containment_ba, sim.containment_ab)
            pairs.append(Pair(first, second, sim, how))
        members_by_label: dict[int, list[int]] = defaultdict(list)
        for row, label in enumerate(labels.tolist()):
            members_by_label[label].append(row)
        groups_docs = []
        for rows in members_by_label.values():
            docs = [d for row in rows for d in files_of[ids[row]]]
            if len(docs) > 1:
                groups_docs.append(docs)
        pairs.sort(key=lambda p: (p.a, p.b))
        return MatchResult(thresholds, self.documents, tuple(pairs), tuple(self._groups(groups_docs)))

    @staticmethod
    def _matched_by(how: str, sim: Similarity, t: Thresholds) -> str:
        if how == "exact":
            return "exact"
        by_simhash = t.method in (Method.SIMHASH, Method.BOTH) and sim.hamming <= t.hamming
        by_minhash = t.method in (Method.MINHASH, Method.BOTH) and sim.jaccard >= t.jaccard
        return "both" if by_simhash and by_minhash else "simhash" if by_simhash else "minhash"

    def _groups(self, groups_docs: list[list[Document]]) -> list[Group]:
        reps = [max(docs, key=lambda d: (d.chars, -d.mtime_ns, d.path)) for docs in groups_docs]
        member_rows, rep_rows = [], []
        for rep, docs in zip(reps, groups_docs):
            for d in docs:
                member_rows.append(self._row_of[d.content_id])
                rep_rows.append(self._row_of[rep.content_id])
        sims = iter(self._similarity_rows(np.array(member_rows, dtype=np.int64), np.array(rep_rows, dtype=np.int64)))
        text_ids = self._text_id
        built = []
        for rep, docs in zip(reps, groups_docs):
            rep_row = self._row_of[rep.content_id]
            members = [Member(d.id, next(sims)) for d in docs]  # containment_ab: member inside representative
            members.sort(key=lambda m: (m.document_id != rep.id, -m.similarity.jaccard, self._doc_by_id[m.document_id].path))
            exact = all(text_ids[self._row_of[d.content_id]] == text_ids[rep_row] for d in docs)
            built.append((rep, members, exact))
        built.sort(key=lambda g: (-len(g[1]), g[0].path))
        return [Group(number, rep.id, tuple(members), exact) for number, (rep, members, exact) in enumerate(built, start=1)]

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
    ensure_current(store)
    scheme = Scheme.current()
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
    if own_cid is not None:
        candidates.pop(own_cid, None)
    sets = store.shingles(candidates)
    hits: list[QueryHit] = []
    docs_by_content: dict[int, list[Document]] = defaultdict(list)
    for doc in store.documents_with_content([*candidates, *([own_cid] if own_cid is not None else [])]):
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
                hits.append(QueryHit(doc, IDENTICAL, "exact"))
    hits.sort(key=lambda h: (-h.similarity.jaccard, h.similarity.hamming, h.document.path))
    return hits
