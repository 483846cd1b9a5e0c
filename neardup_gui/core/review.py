"""What a person reviewing groups needs, without any toolkit: summaries, keepers, the trash plan.

Reference folders hold originals: their files are never proposed for removal, and a group's keeper
is taken from them when it has one. Removal always means the system trash (send2trash), and only
after the front end has shown the plan and the person confirmed it.
"""

from __future__ import annotations

import enum
import os
import stat
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import index, minhash
from .match import NOT_DUPLICATE, Matcher, MatchResult
from .models import Document, Group, Method
from .scan import hash_file
from .store import Store


@dataclass(frozen=True, slots=True)
class GroupSummary:
    """One line of the groups view."""

    group: Group
    representative: Document
    members: int
    best_jaccard: float
    worst_jaccard: float
    worst_hamming: int
    total_size: int


def summarise(result: MatchResult) -> list[GroupSummary]:
    docs = {d.id: d for d in result.documents}
    out = []
    for g in result.groups:
        others = [m.similarity for m in g.members if m.document_id != g.representative] or [g.members[0].similarity]
        out.append(
            GroupSummary(
                group=g,
                representative=docs[g.representative],
                members=len(g.members),
                best_jaccard=max(s.jaccard for s in others),
                worst_jaccard=min(s.jaccard for s in others),
                worst_hamming=max(s.hamming for s in others),
                total_size=sum(docs[m.document_id].size for m in g.members),
            )
        )
    return out


def in_folders(path: str, folders: Iterable[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


class KeeperRule(enum.Enum):
    """How a group's keeper is chosen when the person has not chosen one (after reference folders)."""

    ORIGINAL = "original"  # the copy with the most identical twins; a text file over a PDF; then the oldest
    OLDEST = "oldest"
    NEWEST = "newest"
    LARGEST = "largest"
    SHORTEST_PATH = "shortest-path"


def default_keeper(
    group: Group,
    docs: dict[int, Document],
    reference_folders: Sequence[str],
    rule: KeeperRule = KeeperRule.ORIGINAL,
    kept: Mapping[str, float] | None = None,
) -> int:
    """The member to keep: the one the person chose last (``kept``: path -> when), else one in a reference
    folder, else the best by ``rule``. Ties fall to the shorter, then the smaller path, so the keeper depends
    on the group's members only: it never moves unless the group changes."""
    members = [docs[m.document_id] for m in group.members]
    chosen = [d for d in members if kept and d.path in kept]
    if chosen:
        return max(chosen, key=lambda d: (kept[d.path], d.path)).id  # type: ignore[index]
    candidates = [d for d in members if in_folders(d.path, reference_folders)] or members
    copies: Counter[int | None] = Counter(d.content_id for d in members if d.content_id is not None)

    def tie_break(d: Document) -> tuple[int, str]:
        return (len(d.path), d.path)

    if rule is KeeperRule.ORIGINAL:
        best = min(candidates, key=lambda d: (-copies[d.content_id], d.kind == "pdf", d.mtime_ns, *tie_break(d)))
    elif rule is KeeperRule.OLDEST:
        best = min(candidates, key=lambda d: (d.mtime_ns, *tie_break(d)))
    elif rule is KeeperRule.NEWEST:
        best = min(candidates, key=lambda d: (-d.mtime_ns, *tie_break(d)))
    elif rule is KeeperRule.LARGEST:
        best = min(candidates, key=lambda d: (-d.size, *tie_break(d)))
    else:
        best = min(candidates, key=tie_break)
    return best.id


def choose_keepers(
    groups: Iterable[Group],
    docs: dict[int, Document],
    reference_folders: Sequence[str],
    rule: KeeperRule = KeeperRule.ORIGINAL,
    kept: Mapping[str, float] | None = None,
) -> dict[int, int]:
    """Every group's keeper (group id -> document id); see default_keeper."""
    return {g.id: default_keeper(g, docs, reference_folders, rule, kept) for g in groups}


@dataclass(frozen=True, slots=True)
class TrashPlan:
    """Files that would go to the trash, and why others would not."""

    documents: tuple[Document, ...]
    total_size: int
    protected: tuple[Document, ...]  # in reference folders: never trashed


def trash_plan(group: Group, keeper: int, docs: dict[int, Document], reference_folders: Sequence[str]) -> TrashPlan:
    """Every member but the keeper, except files in reference folders."""
    chosen: list[Document] = []
    protected: list[Document] = []
    for m in group.members:
        if m.document_id == keeper:
            continue
        doc = docs[m.document_id]
        (protected if in_folders(doc.path, reference_folders) else chosen).append(doc)
    return TrashPlan(tuple(chosen), sum(d.size for d in chosen), tuple(protected))


def all_but_keepers(
    groups: Iterable[Group], keepers: Mapping[int, int], docs: Mapping[int, Document], reference_folders: Sequence[str]
) -> set[int]:
    """The mark rule people reach for first: every member but each group's keeper, and never a file in a
    reference folder."""
    return {
        m.document_id
        for g in groups
        for m in g.members
        if m.document_id != keepers.get(g.id) and not in_folders(docs[m.document_id].path, reference_folders)
    }


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Marked files to move, group by group with the file each group keeps (which never moves)."""

    batches: tuple[tuple[Document, tuple[Document, ...]], ...]  # (keeper, files to move)
    total_size: int
    protected: int  # marked but in a reference folder, or the keeper itself: left where they are

    @property
    def files(self) -> int:
        return sum(len(files) for _keeper, files in self.batches)


def batch_plan(
    groups: Iterable[Group],
    keepers: Mapping[int, int],
    marked: set[int],
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
) -> BatchPlan:
    """What moving the marked files would do: a keeper or a reference-folder file is never moved, even
    when marked, so every group keeps at least its keeper."""
    batches, total, protected = [], 0, 0
    for g in groups:
        keeper = keepers.get(g.id)
        chosen = []
        for m in g.members:
            if m.document_id not in marked:
                continue
            doc = docs[m.document_id]
            if m.document_id == keeper or in_folders(doc.path, reference_folders):
                protected += 1
            else:
                chosen.append(doc)
        if chosen and keeper is not None:
            batches.append((docs[keeper], tuple(chosen)))
            total += sum(d.size for d in chosen)
    return BatchPlan(tuple(batches), total, protected)


@dataclass(frozen=True, slots=True)
class TrashOutcome:
    trashed: tuple[str, ...]
    missing: tuple[str, ...]  # vanished since the scan: nothing to do, reported
    failed: tuple[tuple[str, str], ...]  # (path, reason)
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why): no longer the file that was compared
    keeper_problem: str = ""  # why nothing was moved: the file to keep is gone or changed


def changed_since_scan(doc: Document, raw_hash: bytes | None) -> str:
    """Why ``doc`` on disk is no longer the file that was compared (empty when it still is). Same size
    and modification time count as unchanged; otherwise its bytes are hashed again and compared."""
    try:
        st = os.lstat(doc.path)
    except FileNotFoundError:
        return "it is no longer there"
    except OSError as exc:
        return f"it cannot be checked ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return "it is no longer a regular file (now a folder, a link or a device)"
    if st.st_size == doc.size and st.st_mtime_ns == doc.mtime_ns:
        return ""
    if st.st_size != doc.size or raw_hash is None:
        return "it was changed after the scan"
    try:
        same = hash_file(doc.path) == raw_hash
    except OSError as exc:
        return f"it cannot be checked ({exc.strerror or exc})"
    return "" if same else "it was changed after the scan"


def merge_outcomes(outcomes: Sequence[TrashOutcome]) -> TrashOutcome:
    """One outcome for several groups moved at once."""
    return TrashOutcome(
        tuple(p for o in outcomes for p in o.trashed),
        tuple(p for o in outcomes for p in o.missing),
        tuple(f for o in outcomes for f in o.failed),
        tuple(s for o in outcomes for s in o.skipped),
        "; ".join(o.keeper_problem for o in outcomes if o.keeper_problem),
    )


def move_to_trash(store: Store, documents: Sequence[Document], keeper: Document | None = None) -> TrashOutcome:
    """Send files to the system trash (never unlink) and forget them in the database. The disk is looked
    at again first: nothing moves unless the keeper is still there as it was compared, and a member
    that was changed, or replaced by a folder or a link, since the scan is skipped with the reason."""
    from send2trash import send2trash
    from send2trash.exceptions import TrashPermissionError

    involved = [*documents, keeper] if keeper is not None else list(documents)
    hashes = store.content_hashes([d.content_id for d in involved if d.content_id is not None])
    if keeper is not None:
        problem = changed_since_scan(keeper, hashes.get(keeper.content_id) if keeper.content_id else None)
        if problem:
            return TrashOutcome((), (), (), (), f"{keeper.display_path}: {problem}")
    trashed, missing, failed, skipped = [], [], [], []
    for doc in documents:
        if not os.path.lexists(doc.path):
            missing.append(doc.path)
            continue
        problem = changed_since_scan(doc, hashes.get(doc.content_id) if doc.content_id else None)
        if problem:
            skipped.append((doc.path, problem))
            continue
        try:
            send2trash(doc.path)
            trashed.append(doc.path)
        except (OSError, TrashPermissionError) as exc:
            failed.append((doc.path, str(exc) or type(exc).__name__))
    store.remove_files(trashed + missing)
    return TrashOutcome(tuple(trashed), tuple(missing), tuple(failed), tuple(skipped))


def mark_not_duplicate(store: Store, matcher: Matcher, a: Document, b: Document) -> None:
    """Remember that two documents are not duplicates; they stay apart in later groupings and scans."""
    if a.content_id is None or b.content_id is None:
        raise ValueError("only documents that were compared can be ruled not duplicates")
    hashes = store.content_hashes([a.content_id, b.content_id])
    store.set_verdict(hashes[a.content_id], hashes[b.content_id], NOT_DUPLICATE)
    matcher.refresh_verdicts()


@dataclass(frozen=True, slots=True)
class Histogram:
    """Counts of candidate pairs per similarity bin, to show where a natural cut lies."""

    method: Method
    edges: tuple[float, ...]
    counts: tuple[int, ...]
    ignore_boilerplate: bool = False  # how the documents were compared (MinHash estimates differ)


HISTOGRAM_SAMPLE = 3_000


def similarity_histogram(matcher: Matcher, method: Method) -> Histogram:
    """Hamming distances 0..12 of close pairs, or estimated Jaccard (0.3..1) of LSH candidates, over at
    most 3,000 documents (a fixed sample of larger collections; dense LSH buckets met through their first
    row): the shape is what the person reads, and the loose searches it needs would otherwise cost more
    than every grouping together (measured: 581 s for 20,000 documents before sampling)."""
    arrays, ignored = matcher.arrays, matcher.boilerplate.ignored
    rows = np.arange(len(arrays))
    if len(rows) > HISTOGRAM_SAMPLE:
        rows = np.sort(np.random.default_rng(0).choice(rows, HISTOGRAM_SAMPLE, replace=False))
    if method is Method.SIMHASH:
        _, _, dist = index.hamming_pairs(arrays.simhash[rows], 12)
        counts = np.bincount(dist.astype(np.int64), minlength=13)[:13]
        return Histogram(method, tuple(float(k) for k in range(14)), tuple(int(c) for c in counts))
    bands, band_rows = minhash.optimal_bands(0.4)
    _, _, est, _ = index.band_pairs(arrays.minhash[rows], bands, band_rows, min_estimate=0.3, dense=32)
    counts, edges = np.histogram(est, bins=14, range=(0.3, 1.0))
    return Histogram(method, tuple(float(e) for e in edges), tuple(int(c) for c in counts), ignored)
