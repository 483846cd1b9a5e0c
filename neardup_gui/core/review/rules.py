"""What a person reviewing groups needs, without any toolkit: summaries, keepers, the trash plan.

Reference folders hold originals: their files are never proposed for removal, and a group's keeper
is taken from them when it has one. Removal always means the system trash (send2trash), and only
after the front end has shown the plan and the person confirmed it.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import errno
import fnmatch
import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..fingerprint import minhash
from ..i18n import translate
from ..match import index
from ..match.matcher import Matcher, MatchResult
from ..models import Document, Group, Member, Method, Thresholds, display_path, within_thresholds
from ..read.regular_files import hash_file
from ..store.store import Store
from .moves import MoveError, finish_interrupted_move, move_file, plain_cause, remove_empty_folders
from .words import human_size as human_size
from .words import inside


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


@dataclass(frozen=True, slots=True)
class Listing:
    """A grouping as the front ends list it, made where the session works (at a million documents, two
    seconds the window would not answer): a summary a group (in the grouping's order), and where each
    grouped document is listed."""

    summaries: tuple[GroupSummary, ...] = ()
    places: Mapping[int, list[tuple[int, int]]] = field(default_factory=dict)
    """document -> (its group's place in the grouping, its place among the group's members), each group listing it"""

    @classmethod
    def of(cls, result: MatchResult) -> Listing:
        places: dict[int, list[tuple[int, int]]] = {}
        for place, group in enumerate(result.groups):
            for k, m in enumerate(group.members):
                places.setdefault(m.document_id, []).append((place, k))
        return cls(tuple(summarise(result)), places)


def summarise(result: MatchResult) -> list[GroupSummary]:
    docs = result.documents_by_id
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


EXPORT_RANK = {"html": 1, "epub": 1, "email": 1, "pdf": 2}
"""How likely a kind of file is an export of another (a web page, an e-book, an e-mail, a PDF) rather than the
document a person edits (text, office documents, sheets and slides: 0): the original keeps the editable one."""


class KeeperRule(enum.Enum):
    """How a group's keeper is chosen when the person has not chosen one (after reference folders)."""

    ORIGINAL = "original"  # the most identical twins; an editable document over an export (EXPORT_RANK); the oldest
    OLDEST = "oldest"
    NEWEST = "newest"
    LARGEST = "largest"
    SHORTEST_PATH = "shortest-path"


def default_keeper(
    group: Group,
    docs: Mapping[int, Document],
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
        best = min(
            candidates, key=lambda d: (-copies[d.content_id], EXPORT_RANK.get(d.kind, 0), d.mtime_ns, *tie_break(d))
        )
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
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
    rule: KeeperRule = KeeperRule.ORIGINAL,
    kept: Mapping[str, float] | None = None,
    cache: dict[tuple[int, ...], int] | None = None,
) -> dict[int, int]:
    """Every group's keeper (group id -> document id); see default_keeper. ``cache`` (members -> keeper) serves
    the groups met before, for the same documents, reference folders, rule and kept files: a threshold move
    changes few groups (choosing every keeper again took a second at a million documents)."""
    if cache is None:
        return {g.id: default_keeper(g, docs, reference_folders, rule, kept) for g in groups}
    out = {}
    for g in groups:
        members = tuple(m.document_id for m in g.members)
        keeper = cache.get(members)
        if keeper is None:
            keeper = cache[members] = default_keeper(g, docs, reference_folders, rule, kept)
        out[g.id] = keeper
    return out


def holds_keeper(member: Member) -> bool:
    """Whether a member holds the whole of its keeper and more (a longer version, or the report a chapter was
    copied out of): removing it would lose the text only it has, so no rule ticks it and the group's trash
    leaves it; the person makes it the keeper instead, or ticks it by hand."""
    return inside(member.similarity) == "b"


@dataclass(frozen=True, slots=True)
class TrashPlan:
    """Files that would go to the trash, and why others would not."""

    documents: tuple[Document, ...]
    total_size: int
    protected: tuple[Document, ...]  # in reference folders, or kept by another group: never trashed
    fuller: tuple[Document, ...] = ()  # each holds the keeper and more (holds_keeper): left unless ticked by hand


def trash_plan(
    group: Group,
    keeper: int,
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
    kept: Collection[int] = (),
) -> TrashPlan:
    """Every member but the keeper, except files in reference folders, files other groups keep (``kept``,
    see kept_anywhere) and members that hold the keeper and more (holds_keeper)."""
    chosen: list[Document] = []
    protected: list[Document] = []
    fuller: list[Document] = []
    for m in group.members:
        if m.document_id == keeper:
            continue
        doc = docs[m.document_id]
        if m.document_id in kept or in_folders(doc.path, reference_folders):
            protected.append(doc)
        else:
            (fuller if holds_keeper(m) else chosen).append(doc)
    return TrashPlan(tuple(chosen), sum(d.size for d in chosen), tuple(protected), tuple(fuller))


def kept_anywhere(groups: Iterable[Group], keepers: Mapping[int, int], chosen: Collection[int] = ()) -> set[int]:
    """The documents some group keeps, and those a person chose to keep (``chosen``: two kept files may be
    duplicates of each other, and one group keeps one of them): a document may be listed under several
    groups, and one that is kept is never one to remove anywhere."""
    return {keepers.get(g.id, g.representative) for g in groups} | set(chosen)


def all_but_keepers(
    groups: Sequence[Group],
    keepers: Mapping[int, int],
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
    thresholds: Thresholds,
    chosen: Collection[int] = (),
) -> set[int]:
    """The mark rule people reach for first: every member that is a duplicate of its group's keeper at
    ``thresholds``, but never a file that is kept (kept_anywhere), a file in a reference folder, or one that
    holds its keeper and more (holds_keeper)."""
    kept = kept_anywhere(groups, keepers, chosen)
    return {
        m.document_id
        for g in groups
        for m in g.members
        if m.document_id not in kept
        and within_thresholds(m.similarity, thresholds)
        and not holds_keeper(m)
        and not in_folders(docs[m.document_id].path, reference_folders)
    }


@dataclass(frozen=True, slots=True)
class MarkCriteria:
    """A mark rule: the members that meet every condition given (an empty condition is no condition)."""

    folder: str = ""  # in this folder or below it
    pattern: str = ""  # the path matches this glob (``*draft*``, ``*.pdf``); case does not matter
    modified_before: float | None = None  # seconds since the epoch
    modified_after: float | None = None
    min_size: int | None = None  # bytes
    max_size: int | None = None

    def __post_init__(self) -> None:
        for name in ("min_size", "max_size"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be at least 0, not {value}")

    def matches(self, doc: Document) -> bool:
        if self.folder and not in_folders(doc.path, [self.folder]):
            return False
        if self.pattern:
            pattern = self.pattern if any(c in self.pattern for c in "*?[") else f"*{self.pattern}*"
            if not fnmatch.fnmatchcase(doc.path.casefold(), pattern.casefold()):
                return False
        modified = doc.mtime_ns / 1e9
        if self.modified_before is not None and modified >= self.modified_before:
            return False
        if self.modified_after is not None and modified < self.modified_after:
            return False
        if self.min_size is not None and doc.size < self.min_size:
            return False
        return self.max_size is None or doc.size <= self.max_size


@dataclass(frozen=True, slots=True)
class MarkSelection:
    """The members a rule marks, and how many that met it were left alone (kept by a group, in a reference
    folder)."""

    documents: frozenset[int]
    keepers_left: int
    references_left: int
    fuller_left: int = 0  # hold their keeper and more (holds_keeper)


def members_matching(
    criteria: MarkCriteria,
    groups: Sequence[Group],
    keepers: Mapping[int, int],
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
    thresholds: Thresholds,
    chosen: Collection[int] = (),
) -> MarkSelection:
    """The grouped documents that meet ``criteria`` and are duplicates of their group's keeper at
    ``thresholds``, except files that are kept (kept_anywhere), files in reference folders and members that
    hold their keeper and more (holds_keeper): a rule never marks what the trash would refuse or leave, so a
    marked group always keeps a file and loses no text only one member has."""
    kept = kept_anywhere(groups, keepers, chosen)
    picked: set[int] = set()
    keepers_left: set[int] = set()
    references_left: set[int] = set()
    fuller_left: set[int] = set()
    for g in groups:
        for m in g.members:
            doc = docs[m.document_id]
            if not criteria.matches(doc):
                continue
            if m.document_id in kept:
                keepers_left.add(m.document_id)
            elif in_folders(doc.path, reference_folders):
                references_left.add(m.document_id)
            elif not within_thresholds(m.similarity, thresholds):
                continue
            elif holds_keeper(m):
                fuller_left.add(m.document_id)
            else:
                picked.add(m.document_id)
    fuller_left -= picked  # listed under another group where it holds nothing more
    return MarkSelection(frozenset(picked), len(keepers_left), len(references_left), len(fuller_left))


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Marked files to move, group by group with the file each group keeps (which never moves)."""

    batches: tuple[tuple[Document, tuple[Document, ...]], ...]  # (keeper, files to move)
    total_size: int
    protected: int  # marked but in a reference folder, or kept by a group: left where they are

    @property
    def files(self) -> int:
        return sum(len(files) for _keeper, files in self.batches)


def batch_plan(
    groups: Sequence[Group],
    keepers: Mapping[int, int],
    marked: set[int],
    docs: Mapping[int, Document],
    reference_folders: Sequence[str],
    chosen: Collection[int] = (),
) -> BatchPlan:
    """What moving the marked files would do: a file that is kept (kept_anywhere) or a reference-folder file
    is never moved, even when marked, so every group keeps at least its keeper; a file listed under several
    groups moves once, with the first of them."""
    kept = kept_anywhere(groups, keepers, chosen)
    batches, total = [], 0
    protected: set[int] = set()
    placed: set[int] = set()
    for g in groups:
        keeper = keepers.get(g.id, g.representative)
        moving = []
        for m in g.members:
            if m.document_id not in marked or m.document_id in placed:
                continue
            doc = docs[m.document_id]
            if m.document_id in kept or in_folders(doc.path, reference_folders):
                protected.add(m.document_id)
                continue
            moving.append(doc)
            placed.add(m.document_id)
        if moving:
            batches.append((docs[keeper], tuple(moving)))
            total += sum(d.size for d in moving)
    return BatchPlan(tuple(batches), total, len(protected))


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What became of files sent to the trash or moved into a folder (and of a move taken back)."""

    done: tuple[str, ...]  # moved (to the trash, or to ``moved_to``)
    missing: tuple[str, ...]  # vanished since the scan: nothing to do, reported
    failed: tuple[tuple[str, str], ...]  # (path, reason)
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why): no longer the file that was compared
    keeper_problem: str = ""  # why nothing was moved: the file to keep is gone or changed
    moved_to: tuple[str, ...] = ()  # for a move into a folder: where each of ``done`` went
    folders_made: tuple[str, ...] = ()  # for a move into a folder: the folders it made for them


def changed_since_scan(doc: Document, raw_hash: bytes | None) -> str:
    """Why ``doc`` on disk is no longer the file that was compared (empty when it still is). Same size
    and modification time count as unchanged; otherwise its bytes are hashed again and compared."""
    try:
        st = os.lstat(doc.path)
    except FileNotFoundError:
        return translate("Review", "it is no longer there")
    except OSError as exc:
        return translate("Review", "it cannot be checked ({reason})").format(reason=exc.strerror or exc)
    if not stat.S_ISREG(st.st_mode):
        return translate("Review", "it is no longer a regular file (now a folder, a link or a device)")
    if st.st_size == doc.size and st.st_mtime_ns == doc.mtime_ns:
        return ""
    if st.st_size != doc.size or raw_hash is None:
        return translate("Review", "it was changed after the scan")
    try:
        same = hash_file(doc.path) == raw_hash
    except OSError as exc:
        return translate("Review", "it cannot be checked ({reason})").format(reason=exc.strerror or exc)
    return "" if same else translate("Review", "it was changed after the scan")


def merge_outcomes(outcomes: Sequence[FileOutcome]) -> FileOutcome:
    """One outcome for several groups moved at once."""
    return FileOutcome(
        tuple(p for o in outcomes for p in o.done),
        tuple(p for o in outcomes for p in o.missing),
        tuple(f for o in outcomes for f in o.failed),
        tuple(s for o in outcomes for s in o.skipped),
        "; ".join(o.keeper_problem for o in outcomes if o.keeper_problem),
        tuple(p for o in outcomes for p in o.moved_to),
        tuple(f for o in outcomes for f in o.folders_made),
    )


def _act_on_files(
    store: Store,
    documents: Sequence[Document],
    keeper: Document | None,
    act: Callable[[Document], str],
) -> FileOutcome:
    """Check the disk, then ``act`` on each file (it returns where the file went, or raises OSError).
    Nothing happens unless the keeper is still there as it was compared; a member that vanished is
    reported as missing, one that was changed or replaced by a folder or a link since the scan is
    skipped with the reason."""
    from send2trash.exceptions import TrashPermissionError

    involved = [*documents, keeper] if keeper is not None else list(documents)
    hashes = store.contents.hashes([d.content_id for d in involved if d.content_id is not None])
    if keeper is not None:
        problem = changed_since_scan(keeper, hashes.get(keeper.content_id) if keeper.content_id else None)
        if problem:
            return FileOutcome((), (), (), (), f"{keeper.display_path}: {problem}")
    done, went, missing, failed, skipped = [], [], [], [], []
    for doc in documents:
        if not os.path.lexists(doc.path):
            missing.append(doc.path)
            continue
        problem = changed_since_scan(doc, hashes.get(doc.content_id) if doc.content_id else None)
        if problem:
            skipped.append((doc.path, problem))
            continue
        try:
            went.append(act(doc))
            done.append(doc.path)
        except (OSError, TrashPermissionError) as exc:
            failed.append((doc.path, failure_reason(exc)))
    return FileOutcome(tuple(done), tuple(missing), tuple(failed), tuple(skipped), "", tuple(went))


def failure_reason(exc: BaseException) -> str:
    """Why a file was not moved, in plain words (its path is shown beside it): never a number, nor a path
    or a bytes value from a library's message."""
    from send2trash.exceptions import TrashPermissionError

    if isinstance(exc, TrashPermissionError):
        return translate("Review", "the trash of that drive ({folder}) may not be written to").format(
            folder=display_path(os.fsdecode(exc.filename)) if exc.filename else "?"
        )
    if isinstance(exc, (MoveError, FileExistsError)) and exc.strerror:  # worded already
        return exc.strerror
    if isinstance(exc, OSError) and exc.errno:
        return plain_cause(exc)
    return _BYTES.sub(lambda m: display_path(os.fsdecode(ast.literal_eval(m.group()))), str(exc) or type(exc).__name__)


_BYTES = re.compile(r"b'(?:[^'\\]|\\.)*'" "|" r'b"(?:[^"\\]|\\.)*"')  # a bytes value's repr in a message


def move_to_trash(store: Store, documents: Sequence[Document], keeper: Document | None = None) -> FileOutcome:
    """Send files to the system trash (never unlink) and forget them in the database; see _act_on_files
    for what is checked first."""
    from send2trash import send2trash

    def trash(doc: Document) -> str:
        send2trash(doc.path)
        return ""

    outcome = _act_on_files(store, documents, keeper, trash)
    store.files.remove(outcome.done + outcome.missing)
    return dataclasses.replace(outcome, moved_to=())


def destination_of(path: str, roots: Sequence[str], destination: str) -> str:
    """Where a file moved into ``destination`` goes, keeping its place: ``<root>/a/b.txt`` becomes
    ``<destination>/<root's name>/a/b.txt`` (the root's name keeps two scanned folders apart)."""
    root = max((r for r in roots if in_folders(path, [r])), key=len, default=os.path.dirname(path))
    root = root.rstrip(os.sep) or os.sep
    relative = os.path.relpath(path, root)
    return os.path.join(destination, os.path.basename(root) or "root", relative)


def move_target_problem(destination: str, roots: Sequence[str]) -> str:
    """Why files cannot be moved into ``destination`` (empty when they can): it must be outside the
    scanned folders, or the moved files would be compared again (or land where they are). Links are
    followed: a link into a scanned folder is that folder."""
    if not destination or not os.path.isabs(destination):
        return translate("Review", "Choose a folder to move the files into.")
    landing = [destination, *(os.path.join(destination, os.path.basename(r.rstrip(os.sep))) for r in roots)]
    real_roots = [os.path.realpath(r) for r in roots]
    if any(in_folders(place, roots) or in_folders(os.path.realpath(place), real_roots) for place in landing):
        return translate(
            "Review",
            "{folder} is inside a scanned folder (or would put the files back into one); choose a folder "
            "outside the scanned folders.",
        ).format(folder=destination)
    return ""


def move_into_folder(
    store: Store, documents: Sequence[Document], destination: str, roots: Sequence[str], keeper: Document | None = None
) -> FileOutcome:
    """Move files into ``destination`` keeping their relative paths (see destination_of), each all or
    nothing (moves.move_file); the database follows each file as soon as it has moved, so a batch cut short
    leaves it exact, the moved files leave the groups, and an undo brings them back without reading them
    again. A file a batch cut short had already moved is found at its destination and counted as moved."""
    real_roots = [os.path.realpath(r) for r in roots]
    made: list[str] = []

    def move(doc: Document) -> str:
        target = destination_of(doc.path, roots, destination)
        if in_folders(os.path.realpath(os.path.dirname(target)), real_roots):  # a link below the destination
            raise MoveError(
                errno.EPERM,
                translate(
                    "Review", "the folder it would go into, {folder}, leads into a scanned folder through a link"
                ).format(folder=os.path.dirname(target)),
            )
        made.extend(move_file(doc.path, target))
        store.files.rename([(doc.path, target)])
        return target

    arrived = _moved_before(store, documents, destination, roots)
    outcome = _act_on_files(store, [d for d in documents if d.path not in arrived], keeper, move)
    store.files.remove(outcome.missing)
    return dataclasses.replace(
        outcome,
        done=(*arrived, *outcome.done),
        moved_to=(*arrived.values(), *outcome.moved_to),
        folders_made=tuple(made),
    )


def _moved_before(
    store: Store, documents: Sequence[Document], destination: str, roots: Sequence[str]
) -> dict[str, str]:
    """The files no longer where they were but at their destination as they were compared (a move cut
    short after the file moved, before the database followed it): path -> destination, now recorded."""
    hashes = store.contents.hashes([d.content_id for d in documents if d.content_id is not None])
    arrived: dict[str, str] = {}
    for doc in documents:
        if os.path.lexists(doc.path):
            continue
        target = destination_of(doc.path, roots, destination)
        try:
            finish_interrupted_move(doc.path, target)  # our temporary name, still linked to the copy, goes
        except OSError:
            continue
        raw_hash = hashes.get(doc.content_id) if doc.content_id is not None else None
        if os.path.lexists(target) and not changed_since_scan(dataclasses.replace(doc, path=target), raw_hash):
            arrived[doc.path] = target
    store.files.rename(arrived.items())
    return arrived


def move_back(store: Store, moves: Sequence[tuple[str, str]], folders_made: Sequence[str] = ()) -> FileOutcome:
    """Undo a move into a folder: each file (original path, where it went) goes back where it was,
    unless it is no longer where it went or its old place is taken; then the folders the move made
    (``folders_made``) go too, those that are empty."""
    back, missing, failed, skipped = [], [], [], []
    for original, moved in moves:
        if not os.path.lexists(moved):
            missing.append(moved)
            continue
        try:
            move_file(moved, original)
        except FileExistsError:
            skipped.append((moved, translate("Review", "a file is already at {path}").format(path=original)))
            continue
        except OSError as exc:
            failed.append((moved, failure_reason(exc)))
            continue
        store.files.rename([(moved, original)])  # at once, as move_into_folder does
        back.append((moved, original))
    remove_empty_folders(folders_made)
    return FileOutcome(
        tuple(m for m, _o in back), tuple(missing), tuple(failed), tuple(skipped), "", tuple(o for _m, o in back)
    )


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
