"""The application layer: one session over one database, the one door the command line and the app use.

A session holds the store, the matcher of the folders in view and the grouping shown, and does
everything a person does to a collection: scan and group, re-group at other thresholds, decide that a
pair is not a duplicate (and take it back), choose what to keep, move files to the trash, export a
report, ask about one file. Each action returns a ``View``: the grouping as it is now, with its keepers,
so that a front end never shows one made before the action.

A session is not safe for two threads at once: the app runs every call through one serial runner
(gui/worker.py), the command line calls it from its only thread. No call ever needs Qt.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Collection, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import i18n
from .errors import DatabaseError, UsageError
from .fingerprint.scheme import Scheme
from .forecast import MemoryShort
from .i18n import translate
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .match.chains import DuplicatePairs, SplitCache, split_chains
from .match.matcher import NOT_DUPLICATE, Matcher, MatchResult
from .models import (
    IDENTICAL,
    Document,
    Excerpt,
    Find,
    Group,
    Member,
    Method,
    PassageSearch,
    ScanOptions,
    Search,
    Status,
    Thresholds,
    display_path,
)
from .query import QueryHit, query
from .review.html_report import (
    MAX_EXCERPTS_SHOWN,
    DiffsMap,
    DiffsTask,
    GroupDiffs,
    render_diffs_task,
    to_html,
)
from .review.pairs import PairRows, PairTable, excerpt_table, pair_table, passage_table
from .review.passage_pairs import PassagePairs, passage_pairs
from .review.passages import PlacedPassages
from .review.report import (
    PASSAGES_VERSION,
    PairPassages,
    PairRecords,
    ReportContext,
    check_report_file,
    check_report_target,
    json_chunks,
    json_members,
    json_report,
    place_passages,
    report_ids,
    to_csv,
    write_report_file,
)
from .review.rules import (
    FileOutcome,
    Histogram,
    KeeperRule,
    Listing,
    choose_keepers,
    default_keeper,
    in_folders,
    merge_outcomes,
    move_back,
    move_into_folder,
    move_target_problem,
    move_to_trash,
    similarity_histogram,
)
from .review.topics import SAMPLE, GroupTopics, Topics
from .scan import ScanSummary, scan
from .store.spark_result import ImportSummary, ResultSource, import_result, result_source
from .store.store import Store
from .store.stored_text import TextLoader
from .workers.parallel import Workers

REPORT_FORMATS = ("html", "json", "csv")
_VIEWS_KEPT = 10
"""Groupings a session keeps for the same matcher, rulings, kept files and rules, by thresholds: a slider
moved back and forth shows them again at once."""
_SCAN_OPTIONS_KEPT = ("include", "exclude", "kinds", "ocr")
"""The options the window shows that decide which files a scan reads and how: recorded with the last scan
(the folders apart), to say which ones wait for the next (gui/controller.rescan_reasons)."""


@dataclass(frozen=True, slots=True)
class View:
    """What the front ends show: the grouping of the folders in view, now, and what to keep in each group."""

    result: MatchResult
    keepers: dict[int, int]  # group id -> the document to keep
    roots: tuple[str, ...]
    boilerplate: dict = field(default_factory=dict)  # Matcher.boilerplate.summary()
    ignores_boilerplate: bool = True  # the choice the grouping was made under
    cores: frozenset[int] = frozenset()  # contents compared without their boilerplate
    content_hashes: Mapping[int, bytes] = field(default_factory=dict)  # to read the texts again (TextLoader)
    database: str = ""  # the database's path: TextLoader reads the text OCR read of scans from there
    scan: ScanSummary | None = None  # when this view follows a scan
    boilerplate_available: bool = True  # an analysis of exactly these contents exists: without one, none is left out
    scanned_with: ScanOptions | None = None  # what the database's last scan read (Session.last_scan_options)
    duplicates: DuplicatePairs = DuplicatePairs()  # every verified pair at the setting (the Pairs view's)
    chosen: frozenset[int] = frozenset()  # the documents a person chose to keep (Keep this one)
    topics: GroupTopics = field(default_factory=GroupTopics.none)  # group id -> what it is about (topics.py)
    listing: Listing = field(default_factory=Listing)  # the groups as the app lists them (the session makes it)

    @property
    def documents(self) -> Mapping[int, Document]:
        return self.result.documents_by_id

    def text_loader(self, cache_size: int = 64) -> TextLoader:
        return TextLoader(self.content_hashes, cache_size=cache_size, database=self.database)


RebaseCache = dict[tuple[bool, int, tuple[int, ...]], tuple[Member, ...]]
"""(boilerplate ignored, keeper, members) -> the members measured from the keeper, for one matcher."""


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """Python's cycle collector off while a matcher or a grouping is made, and what they made set apart after
    (gc.freeze). They make up to millions of records that live on, and each full collection walks every
    object tracked, holding the GIL: a fifth of a threshold move at 100,000 documents, and at a million
    0.75 s a collection in which the app's window could not answer. Set apart, they are walked no more;
    retiring the matcher puts them back (_retire_matcher). What is set apart is freed as ever when no longer
    referred to; only a cycle made meanwhile waits for that."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()


def rebased_on_keepers(
    result: MatchResult,
    keepers: dict[int, int],
    docs: Mapping[int, Document],
    matcher: Matcher,
    cache: RebaseCache | None = None,
) -> MatchResult:
    """Each group measured from the file it keeps: the keeper becomes the group's representative and
    every member carries its numbers against it (keeper first, then the most alike), so the groups, the
    whole-group view, the pair view and the reports all read from the file a person keeps. A group met
    before with the same keeper (a threshold moved and back) is taken from ``cache``."""
    cache = {} if cache is None else cache
    ignored = matcher.boilerplate.ignored
    todo: list[tuple[Group, tuple[bool, int, tuple[int, ...]]]] = []
    for g in result.groups:
        keeper = keepers.get(g.id, g.representative)
        if keeper != g.representative:
            key = (ignored, keeper, tuple(m.document_id for m in g.members))
            if key not in cache:
                todo.append((g, key))
    content = {d: c for g, _key in todo for m in g.members if (c := docs[d := m.document_id].content_id) is not None}
    # (member, keeper), as the matcher measures its groups: containment_ab is the member inside the keeper
    pairs = [(content[m.document_id], content[key[1]]) for g, key in todo for m in g.members]
    sims = iter(matcher.similarity_pairs([a for a, _ in pairs], [b for _, b in pairs]))
    for g, key in todo:
        keeper = key[1]
        members = [Member(m.document_id, next(sims)) for m in g.members]
        members.sort(key=lambda m: (m.document_id != keeper, -m.similarity.jaccard, docs[m.document_id].path))
        cache[key] = tuple(members)
    groups = []
    for g in result.groups:
        keeper = keepers.get(g.id, g.representative)
        if keeper == g.representative:
            groups.append(g)
        else:
            groups.append(
                Group(g.id, keeper, cache[(ignored, keeper, tuple(m.document_id for m in g.members))], g.exact)
            )
    return dataclasses.replace(result, groups=tuple(groups))


def _only_groups(view: View, groups: Collection[int]) -> View:
    """``view`` with the groups ``groups`` only, and the pairs between their documents."""
    kept = tuple(g for g in view.result.groups if g.id in groups)
    inside = {m.document_id for g in kept for m in g.members}
    result = dataclasses.replace(view.result, groups=kept)
    duplicates = view.duplicates.among(inside)
    return dataclasses.replace(view, result=result, duplicates=duplicates, listing=Listing.of(result))


@dataclass(frozen=True, slots=True)
class Undoable:
    """The last action of this session that can be taken back: a "not a duplicate" (its pairs of
    content hashes), a move into a folder (each file's original path and where it went) or a "keep this
    one" (the file, and when it had been chosen before, if it had)."""

    what: str  # "not a duplicate" | "move" | "keep"
    pairs: tuple[tuple[bytes, bytes], ...] = ()
    moves: tuple[tuple[str, str], ...] = ()
    folders_made: tuple[str, ...] = ()  # by the move: removed again, when empty, by its undo
    kept: tuple[tuple[str, float | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision a person made: a "not a duplicate" (one document, its text: every copy of it, set apart
    from others, with the files it concerns today; one action in the app is one decision, however many
    pairs of texts it ruled on), or a "keep this one" (``paths_a``: the file kept; no pairs)."""

    pairs: tuple[tuple[bytes, bytes], ...]  # the content hashes ruled apart
    decided_at: float
    paths_a: tuple[str, ...]  # the document set apart (all copies of its text), or the file kept
    paths_b: tuple[str, ...]  # the documents it is not a duplicate of
    what: str = "not a duplicate"  # or "keep"


def decisions_from_verdicts(
    verdicts: Sequence[tuple[bytes, bytes, float]], paths: dict[bytes, list[str]]
) -> list[Decision]:
    """Pairs ruled at one moment that share one text are one decision ("this one is not a duplicate of
    those"), as the person made it; anything else is a decision of its own. Order is kept (newest first)."""
    moments: dict[float, list[tuple[bytes, bytes]]] = {}
    for a, b, at in verdicts:
        moments.setdefault(at, []).append((a, b))
    out = []
    for at, pairs in moments.items():
        shared = set(pairs[0]).intersection(*map(set, pairs[1:])) if len(pairs) > 1 else set()
        if shared:
            own = min(shared)
            others = [b if a == own else a for a, b in pairs]
            out.append(
                Decision(
                    tuple(pairs), at, tuple(paths.get(own, ())), tuple(p for h in others for p in paths.get(h, ()))
                )
            )
        else:
            out.extend(Decision(((a, b),), at, tuple(paths.get(a, ())), tuple(paths.get(b, ()))) for a, b in pairs)
    return out


class Session:
    """One database and the folders in view. Open it, act through it, close it."""

    def __init__(
        self,
        db_path: str | os.PathLike[str],
        *,
        reference_folders: Sequence[str] = (),
        keeper_rule: KeeperRule = KeeperRule.ORIGINAL,
        workers: int | None = None,
    ) -> None:
        """``workers``: the processes grouping and reports may use (all cores by default); a scan sets
        it to its options' count for what follows."""
        self.db_path = Path(db_path)
        self.workers = Workers(workers)
        self.reference_folders = tuple(reference_folders)
        self.keeper_rule = keeper_rule
        self._store: Store | None = None
        self._matcher: Matcher | None = None
        self._roots: tuple[str, ...] = ()
        self._thresholds = Thresholds()
        self._view: View | None = None
        self._undo: Undoable | None = None  # the last action that can be taken back
        self._rebased: RebaseCache = {}
        self._keepers: tuple[object, dict[tuple[int, ...], int]] = (None, {})  # (how chosen, members -> keeper)
        self._topics: Topics | None = None  # names the groups of the matcher's collection
        self._split: SplitCache = {}  # a component's groups, for this matcher and these rulings
        self._split_rulings: object = None
        self._views: OrderedDict[tuple, View] = OrderedDict()  # the last groupings made, for these rulings
        self._pair_tables: tuple[View, dict[Search, PairTable]] | None = None  # the view's pairs, measured
        self._scanned_with: ScanOptions | None = None  # read when the collection is

    # -- the database ----------------------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.db_path, check_same_thread=False)
        return self._store

    @property
    def view(self) -> View | None:
        """The last grouping returned (None before the first)."""
        return self._view

    def close(self) -> None:
        try:
            self._retire_matcher()
        except (sqlite3.Error, DatabaseError):  # only measures kept for speed: closing never fails on them
            self._matcher = None
        self._view = None
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def last_scan_roots(self) -> tuple[str, ...]:
        """The folders of the last scan of this database: what `groups` and `query` answer for by default."""
        raw = self.store.get_meta("last_scan_roots")
        return tuple(raw.split("\0")) if raw else ()

    def last_scan_options(self) -> ScanOptions | None:
        """What the last scan of this database read: its folders, patterns, kinds of file and OCR's languages,
        the other options as by default (None when not recorded: a database of an older neardup, a Spark
        result)."""
        raw = self.store.get_meta("last_scan_options")
        if not raw:
            return None
        try:
            kept = json.loads(raw)
            return ScanOptions(
                roots=self.last_scan_roots(),
                include=tuple(str(p) for p in kept["include"]),
                exclude=tuple(str(p) for p in kept["exclude"]),
                kinds=frozenset(str(k) for k in kept["kinds"]),
                ocr=str(kept["ocr"]),
            )
        except (ValueError, KeyError, TypeError):  # not ours to trust: as if not recorded
            return None

    # -- scanning and grouping -------------------------------------------------------------
    def scan(
        self,
        options: ScanOptions,
        thresholds: Thresholds,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> View:
        """Scan the folders (incrementally), then group them at ``thresholds``."""
        self._retire_matcher()
        wanted = Workers(options.workers)
        if wanted.count != self.workers.count:
            if self.workers.keeping:
                raise ValueError(
                    f"inside workers_kept() a scan uses the {self.workers.count} workers kept, not {wanted.count}"
                )
            self.workers = wanted
        with self.workers.kept():  # the boilerplate analysis's workers group too: one start, and their reads
            try:
                summary = scan(self.store, options, workers=self.workers, progress=progress, cancel=cancel)
            except MemoryShort:
                self._view = None  # its matcher is retired: open() shows the last results again
                raise
            self.store.set_meta("last_scan_roots", "\0".join(summary.roots))
            kept = {name: getattr(options, name) for name in _SCAN_OPTIONS_KEPT}
            self.store.set_meta("last_scan_options", json.dumps(kept | {"kinds": sorted(options.kinds)}))
            view = self._open(summary.roots, thresholds, progress, cancel, summary)
            self.matcher.keep_measured()  # a long job already: the next one (a rescan) measures none of it again
            return view

    def workers_kept(self, count: int | None = None) -> contextlib.AbstractContextManager[Workers]:
        """One pool of ``count`` worker processes (the session's count by default) for every step inside
        the block (a scan, then its report): its workers start once, not once a step (each start costs
        about 0.1 s, which a report of a second on 16 cores would wait for)."""
        if count is not None and count != self.workers.count and not self.workers.keeping:
            self.workers = Workers(count)
        return self.workers.kept()

    def import_spark(
        self,
        folder: str | os.PathLike[str],
        mapping: Sequence[tuple[str, str]] = (),
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> ImportSummary:
        """Load a Spark job's result (``neardup spark scan --out FOLDER``) into this session's database, a
        new one: its grouped documents and problems with their fingerprints, paths mapped by ``mapping``
        (FROM, TO) prefixes. The job's folder becomes the last scan's, so that opening the database shows it."""
        self._retire_matcher()
        with self.store.transaction():  # the roots with the documents: a failed or killed import leaves neither
            summary = import_result(self.store, folder, mapping=mapping, progress=progress, cancel=cancel)
            self.store.set_meta("last_scan_roots", "\0".join(summary.roots))
        return summary

    @staticmethod
    def spark_result_source(folder: str | os.PathLike[str]) -> ResultSource:
        """What the Spark result at ``folder`` was made from (ValueError: why it is none this version loads)."""
        return result_source(folder)

    @staticmethod
    def import_spark_into(
        database: str | os.PathLike[str],
        folder: str | os.PathLike[str],
        mapping: Sequence[tuple[str, str]] = (),
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> ImportSummary:
        """``import_spark`` into the new database ``database`` (made now: a file there already is refused,
        so that nothing of another collection is mixed in or replaced)."""
        if os.path.lexists(database):
            raise UsageError(
                translate("Errors", "{path} exists; a Spark result is loaded into a new database").format(
                    path=display_path(str(database))
                )
            )
        with Session(database, workers=1) as session:
            return session.import_spark(folder, mapping, progress=progress, cancel=cancel)

    def open(
        self,
        roots: Sequence[str],
        thresholds: Thresholds,
        *,
        reference_folders: Sequence[str] | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> View | None:
        """The grouping of the documents under ``roots`` (all the last scan's folders when empty), from
        what the database holds, without scanning; None when it holds nothing there. ``reference_folders``
        replaces the session's when given (the folders listed changed, and with them the references)."""
        if reference_folders is not None:
            self.reference_folders = tuple(reference_folders)
        if not self.db_path.exists():
            return None
        roots = tuple(roots) or self.last_scan_roots()
        view = self._open(roots, thresholds, progress, cancel, None)
        return view if view.result.documents else None

    def _open(
        self,
        roots: Sequence[str],
        thresholds: Thresholds,
        progress: Progress,
        cancel: CancelToken,
        summary: ScanSummary | None,
    ) -> View:
        self._roots = tuple(roots)
        self._rebased, self._keepers = {}, (None, {})  # measures and keepers of the matcher below
        self._split, self._views = {}, OrderedDict()
        store = self.store
        self._topics = Topics(store.contents.keywords, store.contents.keywords_sample(SAMPLE))
        progress(ProgressEvent("match", 0, None))  # grouping starts with reading the documents (0.2 s a 20,000)
        self._retire_matcher()
        self._scanned_with = self.last_scan_options()
        with _collection_paused():  # a record a document: a million of them at a million
            self._matcher = Matcher(
                self.store,
                roots=self._roots or None,
                ignore_boilerplate=thresholds.ignore_boilerplate,
                workers=self.workers,
            )
        return self._group(thresholds, progress, cancel, summary)

    def regroup(
        self, thresholds: Thresholds, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> View:
        """Group again at new thresholds (never re-fingerprints); decisions are read again."""
        return self._group(thresholds, progress, cancel)

    def _group(
        self,
        thresholds: Thresholds,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
        summary: ScanSummary | None = None,
    ) -> View:
        matcher = self.matcher
        matcher.refresh_verdicts()
        if matcher.rulings is not self._split_rulings:  # other rulings: other groups
            self._split, self._views, self._split_rulings = {}, OrderedDict(), matcher.rulings
        self._thresholds = thresholds
        kept = self.store.kept.paths()
        key = (thresholds, frozenset(kept.items()), self.keeper_rule, tuple(self.reference_folders))
        if summary is None and key in self._views:  # the slider moved back: nothing changed since
            matcher.set_ignore_boilerplate(thresholds.ignore_boilerplate)  # what the pairs and the pair view use
            self._views.move_to_end(key)
            self._view = self._views[key]
            return self._view
        with _collection_paused(), self.workers.kept():  # one pool for the grouping's steps, started if one needs it
            self._view = self._grouped(matcher, thresholds, kept, summary, progress, cancel)
        self._views[key] = self._view
        if len(self._views) > _VIEWS_KEPT:
            self._views.popitem(last=False)
        return self._view

    def _grouped(
        self,
        matcher: Matcher,
        thresholds: Thresholds,
        kept: dict[str, float],
        summary: ScanSummary | None,
        progress: Progress,
        cancel: CancelToken,
    ) -> View:
        result = matcher.match(thresholds, progress=progress, cancel=cancel)
        docs = result.documents_by_id
        chooses = (self.keeper_rule, tuple(self.reference_folders), frozenset(kept.items()))
        if self._keepers[0] != chooses:
            self._keepers = (chooses, {})
        keepers = choose_keepers(result.groups, docs, self.reference_folders, self.keeper_rule, kept, self._keepers[1])
        result = rebased_on_keepers(result, keepers, docs, matcher, self._rebased)

        def keeper_of(ids: Sequence[int]) -> int:
            group = Group(0, ids[0], tuple(Member(d, IDENTICAL) for d in ids), False)
            return default_keeper(group, docs, self.reference_folders, self.keeper_rule, kept)

        # a person's choice: kept, or in a reference folder (found once: asked of every member of every group)
        chosen = frozenset(d for d, doc in docs.items() if doc.path in kept) if kept else frozenset()
        fixed = (
            chosen | {d for d, doc in docs.items() if in_folders(doc.path, self.reference_folders)}
            if self.reference_folders
            else chosen
        ).__contains__

        # every member a duplicate of what its group keeps (chains.py)
        split = split_chains(
            result, keepers, matcher, keeper_of, fixed, cache=self._split, workers=self.workers, cancel=cancel
        )
        result, keepers = split.result, split.keepers
        topics = GroupTopics.none()
        if self._topics is not None:
            self._topics.read(c for d in result.grouped if (c := docs[d].content_id) is not None)
            topics = self._topics.of(result.groups, docs)
        self._pair_tables = None
        return View(
            result=result,
            keepers=keepers,
            roots=self._roots,
            boilerplate=matcher.boilerplate.summary(),
            ignores_boilerplate=matcher.boilerplate.ignored,
            cores=frozenset(matcher.boilerplate.cores),
            content_hashes=matcher.content_hashes,  # read once per matcher, not on every threshold move
            database=str(self.db_path),
            scan=summary if summary is not None else (self._view.scan if self._view is not None else None),
            boilerplate_available=matcher.boilerplate.available,
            scanned_with=self._scanned_with,
            duplicates=split.duplicates,
            chosen=chosen,
            topics=topics,
            listing=Listing.of(result),
        )

    def _retire_matcher(self) -> None:
        """No matcher until the next is made; what this one measured and kept for later is saved first,
        for the next (Matcher.keep_measured)."""
        if self._matcher is not None:
            self._matcher.keep_measured()
        self._matcher = None
        gc.unfreeze()  # what the matcher's groupings made (_collection_paused), collectable again

    @property
    def matcher(self) -> Matcher:
        if self._matcher is None:
            raise RuntimeError("open() or scan() the session first")
        return self._matcher

    def excerpts(
        self, containment: float, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> tuple[Excerpt, ...]:
        """The documents of the current view inside another at ``containment`` (at least that share of
        the smaller one's shingles are in the larger), whatever their Jaccard: each pair of contents
        once, by the first document of each in path order (its copies are in its group)."""
        first = self._first_documents()
        found = self.matcher.excerpts(containment, progress=progress, cancel=cancel)
        out = []
        for a, b, shared, size_a, size_b in zip(
            found.inner.tolist(),
            found.outer.tolist(),
            found.shared.tolist(),
            found.inner_size.tolist(),
            found.outer_size.tolist(),
            strict=True,
        ):
            inner, outer = first[a], first[b]
            if size_a == size_b and outer.path < inner.path:  # of two alike in size, the first by path is inside
                inner, outer = outer, inner
            out.append(Excerpt(inner.id, outer.id, shared, size_a, size_b))
        return tuple(out)

    def shared_passages(
        self,
        search: PassageSearch,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> PassagePairs:
        """The pairs of documents of the current view that hold a passage of ``search.words`` words or more
        (Han: characters) word for word, with every such passage but common wording: each pair of contents
        once, by the first document of each in path order (its copies are in its group); the pairs by their
        first document's path, then by the other's. Held as arrays (passage_pairs.py)."""
        found = self.matcher.shared_passages(search, progress=progress, cancel=cancel)
        return passage_pairs(found, self._first_documents())

    def _placed(self, found: PassagePairs, view: View, fmt: str, cancel: CancelToken) -> list[PlacedPassages]:
        """Shared passages placed in their documents' texts, read now by the workers: every pair's for JSON,
        the pairs an HTML report shows for HTML."""
        docs = view.result.documents_by_id
        only = None
        if fmt == "html":  # the pairs come by path: in the order passages_shown_first gives, by their longest
            shown = np.argsort(-found.longest, kind="stable")
            only = set(shown[:MAX_EXCERPTS_SHOWN].tolist())
        scheme = self.store.scheme() or Scheme.current()
        return place_passages(
            found,
            docs,
            view.content_hashes,
            view.database,
            scheme.shingle_size,
            only=only,
            workers=self.workers,
            cancel=cancel,
        )

    def _first_documents(self) -> dict[int, Document]:
        """Each compared content's first document in path order, in the current view."""
        view = self._view
        if view is None:
            raise RuntimeError("open() or scan() the session first")
        first: dict[int, Document] = {}
        for doc in sorted(view.result.documents, key=lambda d: d.path):
            if doc.status is Status.OK and doc.content_id is not None:
                first.setdefault(doc.content_id, doc)
        return first

    def histogram(
        self, method: Method, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> Histogram:
        """How candidate pairs spread over similarity, to show where a natural cut lies."""
        return similarity_histogram(self.matcher, method)

    def pairs(
        self,
        view: View | None = None,
        search: Search | None = None,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> PairTable:
        """Every pair of ``view``'s documents (the current one's by default) that ``search`` finds, with its
        numbers: the verified duplicates of its grouping, or the documents inside another, or those that share
        passages, at the search's setting (another search than duplicates needs the current view). Measured
        once a view and a search."""
        view = view if view is not None else self._view
        if view is None:
            raise RuntimeError("open() or scan() the session first")
        key = search.asked if search is not None else Search()  # the other kinds' settings do not matter
        tables = self._pair_tables[1] if self._pair_tables is not None and self._pair_tables[0] is view else {}
        if key in tables:
            return tables[key]
        if key.find is not Find.DUPLICATES and view is not self._view:
            raise RuntimeError("excerpts and shared passages are looked for in the current view")
        documents = view.documents
        if key.find is Find.EXCERPTS:
            excerpts = self.excerpts(key.containment, progress=progress, cancel=cancel)
            table = excerpt_table(excerpts, documents, self.matcher, cancel=cancel)
        elif key.find is Find.PASSAGES:
            found = self.shared_passages(key.passages, progress=progress, cancel=cancel)
            table = passage_table(found, documents, self.matcher, cancel=cancel)
        else:
            table = pair_table(view.duplicates, documents, self.matcher, view.result.thresholds, cancel=cancel)
        if view is self._view:
            self._pair_tables = (view, {**tables, key: table})
        return table

    # -- decisions -------------------------------------------------------------------------
    def mark_not_duplicate(
        self,
        document: Document,
        others: Sequence[Document],
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> View:
        """``document`` is not a duplicate of any of ``others`` (the rest of its group, or one other): every
        such pair is remembered, so it leaves the group at once, however the group was joined, and stays
        apart after a restart and in reports; undo_last() takes the whole decision back."""
        ids = [d.content_id for d in (document, *others) if d.content_id is not None]
        hashes = self.store.contents.hashes(ids)
        own = hashes.get(document.content_id) if document.content_id is not None else None
        theirs = {hashes[d.content_id] for d in others if d.content_id in hashes} - {own}
        pairs = sorted((min(own, h), max(own, h)) for h in theirs) if own is not None else []
        if pairs:  # none when every other member is the same text: nothing to rule on, and Undo stays
            self.store.verdicts.set_many(pairs, NOT_DUPLICATE)
            self._undo = Undoable("not a duplicate", pairs=tuple(pairs))
        return self._group(self._thresholds, progress, cancel)

    @property
    def undoable(self) -> Undoable | None:
        """What undo_last() would take back (None when nothing can be)."""
        return self._undo

    def undo_last(
        self, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> tuple[FileOutcome | None, View]:
        """Take back the last "not a duplicate" (all its pairs) or move into a folder (every file that
        can go back) made in this session; the outcome tells what became of the files of a move."""
        undo, self._undo = self._undo, None
        if undo is None:
            raise RuntimeError("nothing to undo")
        if undo.what == "move":
            outcome = move_back(self.store, undo.moves, undo.folders_made)
            return outcome, self._reopen()
        for path, before in undo.kept:  # the keeper chosen before, or none: the rule chooses again
            self.store.kept.set(path, before is not None, before)
        self.store.verdicts.set_many(undo.pairs, None)
        return None, self._group(self._thresholds, progress, cancel)

    def withdraw_decisions(
        self,
        decisions: Sequence[Decision],
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> View:
        """Take back decisions (from decisions()): the pairs of a "not a duplicate" may be grouped again, a
        file kept is kept by the rule's choice again."""
        self.store.verdicts.set_many([pair for d in decisions for pair in d.pairs], None)
        for d in decisions:
            if d.what == "keep":
                for path in d.paths_a:
                    self.store.kept.set(path, False)
        return self._group(self._thresholds, progress, cancel)

    def decisions(self, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED) -> list[Decision]:
        """Every "not a duplicate" and "keep this one" in the database, newest first, with the files each
        concerns today."""
        apart = decisions_from_verdicts(
            self.store.verdicts.listed(NOT_DUPLICATE), self.store.files.paths_by_content_hash()
        )
        kept = [Decision((), at, (path,), (), "keep") for path, at in self.store.kept.paths().items()]
        return sorted(apart + kept, key=lambda d: -d.decided_at)

    def keep(
        self, document: Document, *, progress: Progress = no_progress, cancel: CancelToken = NEVER_CANCELLED
    ) -> View:
        """Keep this file in whatever group it is in, across re-groupings and restarts; undo_last() or
        withdraw_decisions() take it back."""
        before = self.store.kept.paths().get(document.path)
        self.store.kept.set(document.path, True)
        self._undo = Undoable("keep", kept=((document.path, before),))
        return self._group(self._thresholds, progress, cancel)

    def set_keeper_rule(
        self,
        rule: KeeperRule,
        reference_folders: Sequence[str] | None = None,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> View | None:
        """Choose keepers by another rule (and reference folders); the components do not change, the groups
        of mutual duplicates shown of them may (chains.py: what is kept is chosen with them)."""
        self.keeper_rule = rule
        self._split = {}  # groups found with the old rule's keepers
        if reference_folders is not None:
            self.reference_folders = tuple(reference_folders)
        return self._group(self._thresholds) if self._matcher is not None else None

    # -- acting on files -------------------------------------------------------------------
    def trash(
        self,
        documents: Sequence[Document],
        keeper: Document | None = None,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> tuple[FileOutcome, View | None]:
        """Move files to the system trash (after the front end's confirmation), then group what is left."""
        return self.trash_batches([(keeper, documents)], progress=progress, cancel=cancel)

    def trash_batches(
        self,
        batches: Sequence[tuple[Document | None, Sequence[Document]]],
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> tuple[FileOutcome, View | None]:
        """Move marked files of many groups to the trash at once (one confirmation in the front end): each
        group is checked against the disk on its own (a group whose keeper changed moves nothing), then
        what is left is grouped once."""
        outcomes = []
        for done, (keeper, files) in enumerate(batches):
            progress(ProgressEvent("trash", done, len(batches)))
            outcomes.append(move_to_trash(self.store, files, keeper=keeper))
        progress(ProgressEvent("trash", len(batches), len(batches)))
        outcome = merge_outcomes(outcomes)
        if not outcome.done and not outcome.missing:
            return outcome, self._view
        return outcome, self._reopen()

    def move_batches(
        self,
        batches: Sequence[tuple[Document | None, Sequence[Document]]],
        destination: str,
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> tuple[FileOutcome, View | None]:
        """Move marked files of many groups into ``destination``, keeping their relative paths (after one
        confirmation in the front end), checked against the disk group by group as for the trash; the
        whole move is one undo_last()."""
        roots = self._roots or self.last_scan_roots()
        problem = move_target_problem(destination, roots)
        if problem:
            raise ValueError(problem)
        outcomes = []
        for done, (keeper, files) in enumerate(batches):
            progress(ProgressEvent("move", done, len(batches)))
            outcomes.append(move_into_folder(self.store, files, destination, roots, keeper=keeper))
        progress(ProgressEvent("move", len(batches), len(batches)))
        outcome = merge_outcomes(outcomes)
        if outcome.done:
            moves = tuple(zip(outcome.done, outcome.moved_to, strict=True))
            self._undo = Undoable("move", moves=moves, folders_made=outcome.folders_made)
        if not outcome.done and not outcome.missing:
            return outcome, self._view
        return outcome, self._reopen()

    def _reopen(self) -> View:
        """Files came or went under the app's own hand: read the collection again and group it."""
        self._retire_matcher()
        return self._open(self._roots, self._thresholds, no_progress, NEVER_CANCELLED, None)

    # -- reports and questions -------------------------------------------------------------
    def check_report_target(
        self,
        out: Path | None,
        scan_roots: Sequence[str] = (),
        *,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> None:
        """Refuse a report path that would replace the database, a document or a future document."""
        check_report_target(out, self.db_path, self.store if self.db_path.exists() else None, scan_roots)

    def report(
        self,
        fmt: str,
        groups: Collection[int] | None = None,
        *,
        containment: float | None = None,
        passages: PassageSearch | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> str:
        """The report of the current view (thresholds and decisions applied) as text; of the groups
        ``groups`` only (their ids: those a filter shows) when given, every document listed all the same;
        with the documents inside others at ``containment`` when given, and the pairs that share ``passages``
        when given (JSON and HTML)."""
        pieces = self._report_pieces(
            fmt, groups, containment=containment, passages=passages, progress=progress, cancel=cancel
        )
        return pieces if isinstance(pieces, str) else "".join(pieces)

    def _report_pieces(
        self,
        fmt: str,
        groups: Collection[int] | None = None,
        *,
        containment: float | None = None,
        passages: PassageSearch | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> str | Iterator[str]:
        """report()'s text, or its pieces as they are to be written (a JSON report's documents are encoded
        as they are taken)."""
        if fmt not in REPORT_FORMATS:
            raise ValueError(f"unknown report format {fmt!r}; one of {', '.join(REPORT_FORMATS)}")
        if (containment is not None or passages is not None) and fmt == "csv":
            raise ValueError("a CSV report lists groups: excerpts and passages are in the JSON and HTML reports")
        view = self._view
        if view is None:
            raise RuntimeError("open() or scan() the session first")
        if groups is not None:
            view = _only_groups(view, groups)
        if fmt == "csv":
            return to_csv(view.result, view.topics)
        # the report's pairs are every verified pair (the Pairs view's), not only those groups are made of
        view = dataclasses.replace(
            view, result=dataclasses.replace(view.result, pairs=PairRows(self.pairs(view, cancel=cancel)))
        )
        scheme = self.store.scheme()
        context = ReportContext(
            roots=view.roots,
            scan=asdict(view.scan) if view.scan else {},
            scheme=asdict(scheme) if scheme else {},
            boilerplate=view.boilerplate,
            topics=view.topics,
            containment=containment,
            excerpts=() if containment is None else self.excerpts(containment, progress=progress, cancel=cancel),
        )
        loader = view.text_loader(cache_size=512)
        if passages is not None:
            found = self.shared_passages(passages, progress=progress, cancel=cancel)
            placed = self._placed(found, view, fmt, cancel)
            context = dataclasses.replace(context, passages=passages, shared_passages=placed)
        if fmt == "json":
            near_passages = PairPassages(loader, self.store.overlaps.passages(PASSAGES_VERSION))
            return self._json_pieces(view, context, near_passages, cancel)
        return to_html(
            view.result,
            context,
            loader,
            map_diffs=self._diffs_in_pool(loader, cancel),
            progress=progress,
            cancel=cancel,
        )

    def _json_pieces(
        self, view: View, context: ReportContext, near_passages: PairPassages, cancel: CancelToken
    ) -> Iterator[str]:
        """The JSON report's pieces, its pairs' shared passages found first (those found are kept in the
        database as soon as the search ends, and those found while encoding at the end: the next report
        reads no text). In the pool the workers search while the documents' records are written (in a
        thread of this process, which only waits for them), and the pairs' are written once they are
        done; the search stops, and is waited for, when the writing stops, whatever stops it."""
        if not self.workers.pooled:
            near_passages.find_all(view.result, view.content_hashes, view.database, cancel=cancel)
            self._keep_passages(near_passages)
            yield from json_chunks(view.result, context, near_passages, cancel)
            self._keep_passages(near_passages)
            return
        ids = report_ids(view.result)
        members = json_members(view.result, context, ids)
        search = CancelToken(within=cancel)
        with ThreadPoolExecutor(1, thread_name_prefix="json-passages") as background:
            finding = background.submit(
                near_passages.find_all,
                view.result,
                view.content_hashes,
                view.database,
                workers=self.workers,
                cancel=search,
            )

            def found() -> None:
                finding.result()
                self._keep_passages(near_passages)  # here: this thread's connection

            try:
                yield from json_report(members, PairRecords(view.result, ids[1], near_passages, before=found), cancel)
            finally:
                search.cancel()
        self._keep_passages(near_passages)

    def _keep_passages(self, near_passages: PairPassages) -> None:
        """Keep in the database the shared passages found for a report since last kept."""
        if found := near_passages.unsaved():
            self.store.overlaps.save_passages(found, PASSAGES_VERSION)

    def _diffs_in_pool(self, loader: TextLoader, cancel: CancelToken) -> DiffsMap | None:
        """The HTML report's differences rendered by the workers, each reading its group's texts (None: here)."""
        if not self.workers.pooled:
            return None

        def in_pool(todo: Sequence[GroupDiffs]) -> Iterator[tuple[GroupDiffs, tuple[str, ...]]]:
            tasks = [DiffsTask(d, loader.texts_of((d.keeper, *d.members)), i18n.language()) for d in todo]
            for task, rendered in self.workers.map(render_diffs_task, tasks, cancel=cancel):
                yield task.diffs, rendered

        return in_pool

    def write_report(
        self,
        path: str | os.PathLike[str],
        fmt: str,
        groups: Collection[int] | None = None,
        *,
        containment: float | None = None,
        passages: PassageSearch | None = None,
        progress: Progress = no_progress,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> Path:
        """Write the report (of ``groups`` only, when given; with excerpts at ``containment`` and shared
        ``passages``, when given) to a new or regular file, atomically (a
        half-written one is never left behind; see report.write_report_file)."""
        out = Path(path)
        check_report_file(out)  # before the work: a device, a pipe or a link is never written
        pieces = self._report_pieces(
            fmt, groups, containment=containment, passages=passages, progress=progress, cancel=cancel
        )
        return write_report_file(out, pieces)

    def query(
        self,
        path: str,
        thresholds: Thresholds,
        *,
        max_file_size: int = 256 << 20,
        file_timeout: float = 120.0,
        reader_memory: int | None = None,
        roots: Sequence[str] = (),
    ) -> list[QueryHit]:
        """Stored near-duplicates of one file under ``roots`` (default: the last scan's folders)."""
        hits = query(
            self.store,
            path,
            thresholds,
            max_file_size=max_file_size,
            file_timeout=file_timeout,
            reader_memory=reader_memory,
        )
        prefixes = tuple(r.rstrip(os.sep) for r in (tuple(roots) or self.last_scan_roots()))
        if not prefixes:
            return hits
        return [
            h for h in hits if any(h.document.path == p or h.document.path.startswith(p + os.sep) for p in prefixes)
        ]
