"""Reports of a grouping: JSON (the versioned contract), CSV, and self-contained HTML.

All paths are absolute; a name that is not valid UTF-8 shows its odd bytes as \\xNN. CSV cells that a
spreadsheet would read as a formula are neutralised.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import os
import stat
import tempfile
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ... import __version__
from ..errors import UsageError
from ..i18n import split_details, translate
from ..jobs import NEVER_CANCELLED, CancelToken
from ..match.matcher import MatchResult
from ..models import (
    Document,
    Excerpt,
    Group,
    Pair,
    PassageSearch,
    SentBetweenProcesses,
    SharedPassages,
    Similarity,
    Thresholds,
    display_path,
)
from ..read.extract import kind_of
from ..store.store import Store
from ..store.stored_text import DocumentText, TextLoader
from ..workers.parallel import IN_THIS_PROCESS, Workers, reader, shingle_cache
from .pairs import PairRows, excerpts_by_holder
from .passages import LineVocabulary, PassageSpan, PassageText, PlacedPassages, UnitPlaces

FORMAT_NAME = "neardup-report"
FORMAT_VERSION = 1
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class ReportContext:
    """What the report says about how it was made, beside the result itself."""

    roots: tuple[str, ...] = ()
    scan: Mapping[str, Any] = field(default_factory=dict)
    scheme: Mapping[str, Any] = field(default_factory=dict)
    boilerplate: Mapping[str, Any] = field(default_factory=dict)  # Matcher.boilerplate.summary()
    topics: Mapping[int, Sequence[str]] = field(default_factory=dict)  # group id -> what it is about (topics.py)
    generated: float = field(default_factory=time.time)
    containment: float | None = None  # excerpts were looked for at this setting (Session.excerpts)
    excerpts: Sequence[Excerpt] = ()
    passages: PassageSearch | None = None  # shared passages were looked for so (Session.shared_passages)
    shared_passages: Sequence[PlacedPassages] = ()


def _similarity(sim: Similarity) -> dict[str, Any]:
    return {
        "hamming": sim.hamming,
        "jaccard_estimate": sim.jaccard_estimate,
        "jaccard": sim.jaccard,
        "containment": sim.containment,
    }


def _document(doc: Document, report_id: int) -> dict[str, Any]:
    message, details = split_details(doc.message)  # what to do; what the library or the system said
    return {
        "id": report_id,
        "path": display_path(doc.path),
        "size": doc.size,
        "type": doc.kind,
        "chars": doc.chars,
        "status": str(doc.status),
        "message": message,
        "details": details,
        "modified_ns": doc.mtime_ns,
    }


Passages = Callable[[Document, Document], list[str]]
"""The longest passages two documents share (see ``PairPassages``)."""


def report_ids(result: MatchResult) -> tuple[list[Document], dict[int, int]]:
    """The documents in path order and the report's own ids: documents numbered in that order, so that
    two runs over the same files (whose database ids follow the order the workers finished in) give the
    same report."""
    by_path = sorted(result.documents, key=lambda d: d.path)
    return by_path, {d.id: n for n, d in enumerate(by_path, start=1)}


def _report_dict(
    result: MatchResult,
    context: ReportContext,
    by_path: list[Document],
    rid: Mapping[int, int],
    pairs: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """The JSON report as a plain dict (format "neardup-report", version 1), in the report's ids
    (report_ids), with its ``pairs`` (None: not yet, see json_members); its documents and groups are
    ``_Records``, made as they are taken."""
    t = result.thresholds
    docs = result.documents_by_id
    report: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "generator": f"neardup {__version__}",
        "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(context.generated)),
        "settings": {
            "method": str(t.method),
            "hamming": t.hamming,
            "jaccard": t.jaccard,
            "roots": [display_path(r) for r in context.roots],
            "scheme": dict(context.scheme),
            "boilerplate": dict(context.boilerplate),
        },
        "summary": {
            "documents": len(result.documents),
            "compared": sum(1 for d in result.documents if d.status == "ok"),
            "problems": len(result.problems),
            "groups": len(result.groups),
            "exact_groups": sum(1 for g in result.groups if g.exact),
            "documents_in_groups": len(result.grouped),
            "redundant_documents": len(result.redundant),
            "pairs": len(result.pairs),
            "scan": dict(context.scan),
        },
        # made as they are written (json_report): a million documents' records are never whole in memory
        "documents": _Records(lambda: (_document(d, rid[d.id]) for d in by_path)),
        "pairs": pairs,
        "groups": _Records(lambda: (_group(g, result.thresholds, context, rid, docs) for g in result.groups)),
    }
    if context.containment is not None:  # asked for: the members above stay as they are
        report["settings"]["containment"] = context.containment
        report["summary"]["excerpts"] = len(context.excerpts)
        listed = sorted(context.excerpts, key=lambda e: (rid[e.inner], rid[e.outer]))
        report["excerpts"] = [_excerpt(e, rid) for e in listed]
        report["excerpt_groups"] = [
            {"outer": rid[g.outer], "inner": [rid[listed[k].inner] for k in g.rows]}
            for g in excerpts_by_holder(listed, lambda doc: rid[doc])
        ]
    if context.passages is not None:
        report["settings"]["passage_words"] = context.passages.words
        report["settings"]["passage_common"] = context.passages.common
        report["summary"]["passages"] = len(context.shared_passages)
        report["passages"] = sorted((_shared(p, rid) for p in context.shared_passages), key=lambda r: (r["a"], r["b"]))
    return report


@dataclass(frozen=True, slots=True)
class _Records:
    """A list member of the JSON report made only as it is written, a record at a time."""

    make: Callable[[], Iterator[dict[str, Any]]]


def _group(
    g: Group, thresholds: Thresholds, context: ReportContext, rid: Mapping[int, int], docs: Mapping[int, Document]
) -> dict[str, Any]:
    """A group's record in the JSON report."""
    return {
        "id": g.id,
        "representative": rid[g.representative],
        "topic": list(context.topics.get(g.id, ())),
        "exact": g.exact,
        "chained": g.chained(thresholds),
        "members": [
            {
                "id": rid[m.document_id],
                "path": display_path(docs[m.document_id].path),
                **_similarity(m.similarity),
                "containment_in_representative": m.similarity.containment_ab,
                "representative_in_member": m.similarity.containment_ba,
            }
            for m in g.members
        ],
    }


def _shared(placed: PlacedPassages, rid: Mapping[int, int]) -> dict[str, Any]:
    """A pair's shared passages in report ids, the lower id first (the passages' places turned with it)."""
    a, b, spans = placed.found.a, placed.found.b, placed.spans
    starts = [(p.start_a, p.start_b) for p in placed.found.passages]
    if rid[a] > rid[b]:
        a, b = b, a
        spans = tuple((y, x) for x, y in spans)
        starts = [(y, x) for x, y in starts]
    records = []
    for (word_a, word_b), p, (in_a, in_b) in zip(starts, placed.found.passages, spans, strict=True):
        records.append(
            {
                "words": p.words,
                "a_word": word_a,
                "b_word": word_b,
                "a_start": in_a.start if in_a else None,
                "a_end": in_a.end if in_a else None,
                "b_start": in_b.start if in_b else None,
                "b_end": in_b.end if in_b else None,
                "text": shown.text if (shown := in_a or in_b) is not None else None,
            }
        )
    records.sort(key=lambda r: (r["a_word"], r["b_word"]))
    return {"a": rid[a], "b": rid[b], "longest_words": placed.found.longest, "passages": records}


def _excerpt(excerpt: Excerpt, rid: Mapping[int, int]) -> dict[str, Any]:
    return {
        "inner": rid[excerpt.inner],
        "outer": rid[excerpt.outer],
        "containment": excerpt.containment,
        "jaccard": excerpt.jaccard,
        "shared_shingles": excerpt.shared,
        "inner_shingles": excerpt.inner_shingles,
    }


def keeper_pairs(result: MatchResult) -> set[tuple[int, int]]:
    """The pairs a group shows, its keeper (representative) with each member (smaller id first): the pairs
    whose shared passages a report gives (the others of every verified pair are listed with their numbers)."""
    return {
        (min(g.representative, m.document_id), max(g.representative, m.document_id))
        for g in result.groups
        for m in g.members
        if m.document_id != g.representative
    }


def shown_pairs(result: MatchResult) -> list[Pair]:
    """The pairs of ``result`` that its groups show (keeper_pairs), in the order of its pairs."""
    shown = keeper_pairs(result)
    if isinstance(result.pairs, PairRows):  # a table's pairs: looked up, not all made
        return result.pairs.among(shown)
    return [pair for pair in result.pairs if (pair.a, pair.b) in shown]


def _pair(p: Pair, rid: Mapping[int, int], docs: Mapping[int, Document], passages: Passages | None) -> dict[str, Any]:
    """One pair in report ids, the lower id first (its containments turned with it)."""
    a, b, sim = p.a, p.b, p.similarity
    if rid[a] > rid[b]:
        a, b = b, a
        sim = Similarity(sim.hamming, sim.jaccard_estimate, sim.jaccard, sim.containment_ba, sim.containment_ab)
    return {
        "a": rid[a],
        "b": rid[b],
        **_similarity(sim),
        "containment_a_in_b": sim.containment_ab,
        "containment_b_in_a": sim.containment_ba,
        "matched_by": p.matched_by,
        **({"shared_passages": passages(docs[a], docs[b])} if passages is not None and p.matched_by != "exact" else {}),
    }


PASSAGES_VERSION = "3"
"""Which method found the passages kept in a database: change it when PassageText.shared_passages would find
other passages, and what was kept is forgotten."""


_PAIRS_PER_TASK = 64


@dataclass(frozen=True, slots=True)
class PassageTask(SentBetweenProcesses):
    """Pairs of documents whose shared passages a worker finds, reading their texts itself."""

    pairs: tuple[tuple[Document, Document], ...]
    hashes: Mapping[int, bytes]  # content id -> the bytes' hash the scan saw (a changed file is not read)
    database: str = ""  # where the text OCR read of scans is kept (TextLoader)


def find_passages(task: PassageTask) -> dict[tuple[int, int], list[str]]:
    """Worker side: the shared passages of each pair whose two texts can be read now."""
    shingle_cache().clear()  # a worker kept from the grouping (Session.workers_kept) needs its sets no more
    cut = CutTexts(TextLoader(dict(task.hashes), cache_size=1, database=task.database))
    found = {}
    for a, b in task.pairs:
        passages = passages_of(cut, a, b)
        if passages is not None and a.content_id is not None and b.content_id is not None:
            found[(a.content_id, b.content_id)] = passages
    return found


_DOCUMENTS_PER_TASK = 32


@dataclass(frozen=True, slots=True)
class PlaceTask(SentBetweenProcesses):
    """Documents whose shared passages (start, words) a worker places in their texts, reading them itself."""

    asked: tuple[tuple[Document, tuple[tuple[int, int], ...]], ...]
    hashes: Mapping[int, bytes]  # content id -> the bytes' hash the scan saw (a changed file is not read)
    database: str  # the database: the shingles each text was fingerprinted with, the text OCR read
    shingle_size: int


def place_in_texts(task: PlaceTask) -> list[list[PassageSpan | None]]:
    """Worker side: each document's passages placed in its text as read now (None where they cannot be)."""
    shingle_cache().clear()  # a worker kept from the grouping needs its sets no more
    load = TextLoader(dict(task.hashes), cache_size=1, database=task.database)
    contents = reader(task.database).contents
    out: list[list[PassageSpan | None]] = []
    for doc, wanted in task.asked:
        raw = load(doc).text
        if raw is None or doc.content_id is None:
            out.append([None] * len(wanted))
            continue
        places = UnitPlaces(raw, contents.sequence(doc.content_id), task.shingle_size)
        out.append([places.span(start, words) for start, words in wanted])
    return out


def place_passages(
    found: Sequence[SharedPassages],
    docs: Mapping[int, Document],
    content_hashes: Mapping[int, bytes],
    database: str,
    shingle_size: int,
    *,
    only: Collection[int] | None = None,
    workers: Workers = IN_THIS_PROCESS,
    cancel: CancelToken = NEVER_CANCELLED,
) -> list[PlacedPassages]:
    """Each pair's passages placed in both texts (of the pairs ``only`` names, by index, when given), spread
    over ``workers``: each reads a few documents' texts and places every passage of each at once."""
    asked: dict[int, list[tuple[int, int, int, int, int]]] = {}  # document -> (pair, passage, side, start, words)
    for k, pair in enumerate(found):
        if only is not None and k not in only:
            continue
        for m, p in enumerate(pair.passages):
            asked.setdefault(pair.a, []).append((k, m, 0, p.start_a, p.words))
            asked.setdefault(pair.b, []).append((k, m, 1, p.start_b, p.words))
    spans: list[list[list[PassageSpan | None]]] = [[[None, None] for _ in pair.passages] for pair in found]
    documents = sorted(asked, key=lambda d: docs[d].path)
    tasks, chunks = [], {}
    for begin in range(0, len(documents), _DOCUMENTS_PER_TASK):
        chunk = documents[begin : begin + _DOCUMENTS_PER_TASK]
        contents = {c for d in chunk if (c := docs[d].content_id) is not None}
        task = PlaceTask(
            tuple((docs[d], tuple((start, words) for *_, start, words in asked[d])) for d in chunk),
            {c: content_hashes[c] for c in contents if c in content_hashes},
            database,
            shingle_size,
        )
        tasks.append(task)
        chunks[id(task)] = chunk
    for task, placed in workers.map(place_in_texts, tasks, cancel=cancel):
        for doc_id, doc_spans in zip(chunks[id(task)], placed, strict=True):
            for (k, m, side, _start, _words), span in zip(asked[doc_id], doc_spans, strict=True):
                spans[k][m][side] = span
    return [PlacedPassages(pair, tuple((a, b) for a, b in placed)) for pair, placed in zip(found, spans, strict=True)]


class CutTexts:
    """Documents' texts cut for finding passages, each text read and cut once for all its pairs (None:
    the text cannot be read now)."""

    def __init__(self, load: Callable[[Document], DocumentText]) -> None:
        self._load = load
        self._vocabulary = LineVocabulary()
        self._cut: dict[int, PassageText | None] = {}

    def __call__(self, doc: Document) -> PassageText | None:
        if doc.id not in self._cut:
            text = self._load(doc).text
            self._cut[doc.id] = None if text is None else PassageText(text, self._vocabulary)
        return self._cut[doc.id]


def passages_of(cut: CutTexts, a: Document, b: Document) -> list[str] | None:
    """The passages two documents share, or None when either text cannot be read now."""
    text_a, text_b = cut(a), cut(b)
    if text_a is None or text_b is None:
        return None
    return text_a.shared_passages(text_b)


class PairPassages:
    """Each near pair's shared passages: those kept (in the database) for its two contents, or else its
    texts read and compared now, remembered in ``found`` for the caller to keep. A report of an unchanged
    collection then reads no text at all (measured: issue #15, the JSON report dominated rescans)."""

    def __init__(self, load_text: Callable[[Document], DocumentText], kept: Mapping[tuple[int, int], list[str]]):
        self._load_text = load_text
        self._kept = kept
        self.found: dict[tuple[int, int], list[str]] = {}
        self._saved = 0  # the first found that unsaved() has given

    def find_all(
        self,
        result: MatchResult,
        content_hashes: Mapping[int, bytes],
        database: str = "",
        *,
        workers: Workers = IN_THIS_PROCESS,
        cancel: CancelToken = NEVER_CANCELLED,
    ) -> None:
        """Find at once, spread over ``workers``, the passages of every near pair a group of ``result``
        shows not kept yet (each worker reads the texts it compares; the pairs of one document go together)."""
        docs = result.documents_by_id
        todo: dict[tuple[int, int], tuple[Document, Document]] = {}
        for pair in shown_pairs(result):
            a, b = docs[pair.a], docs[pair.b]
            if a.path > b.path:  # in the order the report names them (its ids follow the paths)
                a, b = b, a
            if pair.matched_by == "exact" or a.content_id is None or b.content_id is None:
                continue
            key = (a.content_id, b.content_id)
            if key not in self._kept and key not in self.found:
                todo.setdefault(key, (a, b))
        pairs = sorted(todo.values(), key=lambda ab: (ab[0].path, ab[1].path))
        tasks = []
        for start in range(0, len(pairs), _PAIRS_PER_TASK):
            chunk = tuple(pairs[start : start + _PAIRS_PER_TASK])
            used = {d.content_id for ab in chunk for d in ab if d.content_id is not None}
            tasks.append(
                PassageTask(chunk, {cid: content_hashes[cid] for cid in used if cid in content_hashes}, database)
            )
        for _task, found in workers.map(find_passages, tasks, cancel=cancel):
            self.found.update(found)

    def unsaved(self) -> dict[tuple[int, int], list[str]]:
        """The passages found since this was last asked (to be kept in the database)."""
        new = dict(itertools.islice(self.found.items(), self._saved, None))
        self._saved = len(self.found)
        return new

    def __call__(self, a: Document, b: Document) -> list[str]:
        key = (a.content_id, b.content_id) if a.content_id is not None and b.content_id is not None else None
        if key is not None:
            for known in (self._kept, self.found):
                if key in known:
                    return known[key]
        passages = passages_of(CutTexts(self._load_text), a, b)
        if passages is None:
            return []  # not kept: the file may be readable again next time
        if key is not None:
            self.found[key] = passages
        return passages


def to_json(result: MatchResult, context: ReportContext, passages: Passages | None = None) -> str:
    """The JSON report with one record (a document, a pair, a group) a line: as easy to read and to
    diff as an indented one, and written by json's C encoder (``indent`` makes json use its pure-Python
    encoder, some ten times slower: most of the parent's CPU for a large report)."""
    return "".join(json_chunks(result, context, passages))


def json_chunks(
    result: MatchResult,
    context: ReportContext,
    passages: Passages | None = None,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Iterator[str]:
    """The JSON report (to_json) in pieces, to be written as they come: its documents' records, one for
    every document in the collection, are encoded only as they are written."""
    members = json_members(result, context)
    return json_report(members, PairRecords(result, members.report_ids, passages), cancel)


@dataclass(frozen=True, slots=True)
class JsonMembers:
    """The JSON report's members but its pairs, encoded in order ("pairs" holds its place), with the
    report ids its pairs will use (see json_members)."""

    encoded: Mapping[str, str | _Records]  # "pairs" holds its place; the longest lists are made as written
    report_ids: Mapping[int, int]


def json_members(
    result: MatchResult, context: ReportContext, ids: tuple[list[Document], dict[int, int]] | None = None
) -> JsonMembers:
    """Every member of the JSON report but its pairs, encoded: all that needs no shared passages, so
    that it can be written while workers find them (json_report). ``ids``: report_ids(result),
    if the caller has them already."""
    by_path, rid = ids if ids is not None else report_ids(result)
    report = _report_dict(result, context, by_path, rid, None)
    encoded = {key: value if isinstance(value, _Records) else _member(key, value) for key, value in report.items()}
    return JsonMembers(encoded, rid)


def json_report(members: JsonMembers, pairs: PairRecords, cancel: CancelToken = NEVER_CANCELLED) -> Iterator[str]:
    """The JSON report (to_json) in pieces from ``json_members`` and its ``pairs``; the documents',
    pairs' and groups' records encoded as the pieces are taken, a slice at a time, so that a report of
    a million documents is never whole in memory; ``cancel`` is looked at between the pieces."""

    def pieces() -> Iterator[str]:
        yield "{\n"
        for n, (key, text) in enumerate(members.encoded.items()):
            if n:
                yield ",\n"
            if key == "pairs":
                records = pairs.member()
            elif isinstance(text, _Records):
                records = _encoded_pieces(key, map(_encode, text.make()))
            else:
                yield text
                continue
            for piece in records:
                cancel.raise_if_cancelled()
                yield piece
        yield "\n}\n"

    return pieces()


class PairRecords:
    """The JSON report's "pairs" member, by report ids, encoded as it is written (a few thousand records
    at a time, the Pairs made as they are encoded): the pairs a group shows with their shared passages
    (``passages``: found beforehand by PairPassages.find_all, or else now), the others with their
    numbers. ``before`` is called first: a search for the passages still running is waited for."""

    def __init__(
        self,
        result: MatchResult,
        report_ids: Mapping[int, int],
        passages: Passages | None,
        before: Callable[[], object] = lambda: None,
    ) -> None:
        self._pairs = result.pairs
        self._rid = report_ids
        self._docs = result.documents_by_id
        self._passages = passages
        self._shown = keeper_pairs(result)
        self._before = before

    def member(self) -> Iterator[str]:
        """The "pairs" member in pieces, joined as they are taken."""
        self._before()
        return _encoded_pieces("pairs", (_encode(self._record(k)) for k in self._in_report_order().tolist()))

    def _in_report_order(self) -> np.ndarray:
        """The places of the pairs by (lower report id, higher report id)."""
        pairs = self._pairs
        if isinstance(pairs, PairRows):
            a, b = pairs.table.a, pairs.table.b
        else:
            a = np.fromiter((p.a for p in pairs), dtype=np.int64, count=len(pairs))
            b = np.fromiter((p.b for p in pairs), dtype=np.int64, count=len(pairs))
        ids = np.fromiter(self._rid.keys(), dtype=np.int64, count=len(self._rid))
        rids = np.fromiter(self._rid.values(), dtype=np.int64, count=len(self._rid))
        by_id = np.argsort(ids)
        ids, rids = ids[by_id], rids[by_id]
        ra, rb = rids[np.searchsorted(ids, a)], rids[np.searchsorted(ids, b)]
        return np.lexsort((np.maximum(ra, rb), np.minimum(ra, rb)))

    def _record(self, k: int) -> dict[str, Any]:
        pair = self._pairs[k]
        return _pair(pair, self._rid, self._docs, self._passages if (pair.a, pair.b) in self._shown else None)


_encode = json.JSONEncoder(ensure_ascii=False).encode


def _member(key: str, value: Any) -> str:
    """One member of the JSON report: a list one record a line, anything else on its line."""
    if isinstance(value, list) and value:
        return "".join(_encoded_pieces(key, map(_encode, value)))
    return f"  {_encode(key)}: {_encode(value)}"


_RECORDS_A_PIECE = 2_000


def _encoded_pieces(key: str, records: Iterator[str]) -> Iterator[str]:
    """A list member of the JSON report, one record a line, in pieces of a few thousand records, the
    records (encoded) taken as they come."""
    first = next(records, None)
    if first is None:
        yield f"  {_encode(key)}: []"
        return
    yield f"  {_encode(key)}: [\n    {first}"
    while piece := list(itertools.islice(records, _RECORDS_A_PIECE)):
        yield ",\n    " + ",\n    ".join(piece)
    yield "\n  ]"


CSV_COLUMNS = (
    "group",
    "representative",
    "path",
    "size",
    "type",
    "hamming",
    "jaccard_estimate",
    "jaccard",
    "containment",
    "exact_group",
    "topic",
)


def neutralise_cell(value: Any) -> Any:
    """A cell a spreadsheet could evaluate (starts with = + - @ tab CR) gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_csv(result: MatchResult, topics: Mapping[int, Sequence[str]] | None = None) -> str:
    """One row per document per group, representative first, with the group's topic (its keywords, one a
    space); UTF-8 with BOM for spreadsheets."""
    topics = topics if topics is not None else {}
    docs = result.documents_by_id
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for g in result.groups:
        for m in g.members:
            doc = docs[m.document_id]
            s = m.similarity
            writer.writerow(
                [
                    neutralise_cell(v)
                    for v in (
                        g.id,
                        "yes" if m.document_id == g.representative else "no",
                        display_path(doc.path),
                        doc.size,
                        doc.kind,
                        s.hamming,
                        s.jaccard_estimate,
                        s.jaccard,
                        s.containment,
                        "yes" if g.exact else "no",
                        " ".join(topics.get(g.id, ())),
                    )
                ]
            )
    return "\ufeff" + buffer.getvalue()


def check_report_file(out: Path) -> None:
    """Refuse a report path that is not a file a report may replace: a folder, a link (which would be
    replaced, not written through), a device, a pipe or a socket (as root, replacing /dev/null breaks the
    machine). A new file, or a regular file to replace, passes."""
    try:
        mode = os.lstat(out).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(
            translate("Errors", "The report cannot go to {path}: {reason}").format(
                path=display_path(str(out)), reason=exc.strerror or exc
            )
        ) from None
    if stat.S_ISDIR(mode):
        raise UsageError(
            translate("Errors", "The report cannot go to {path}: it is a folder; name a file, e.g. {example}").format(
                path=display_path(str(out)), example=display_path(str(out / "report.json"))
            )
        )
    if stat.S_ISLNK(mode):
        raise UsageError(
            translate(
                "Errors",
                "The report cannot go to {path}: it is a symbolic link; name the file it points to, or a new file",
            ).format(path=display_path(str(out)))
        )
    if not stat.S_ISREG(mode):
        raise UsageError(
            translate(
                "Errors", "The report cannot go to {path}: it is a device, a pipe or a socket, not a file; name a file"
            ).format(path=display_path(str(out)))
        )


_UMASK = os.umask(0o022)  # read once, at import (setting it is process-wide: no thread may race it later)
os.umask(_UMASK)


def write_report_file(out: Path, text: str | Iterable[str]) -> Path:
    """Write a report (its text, or its pieces as they come) atomically: into a new file of our own beside
    ``out`` (made exclusively, so never through a link or onto anything that was there), then renamed over
    ``out`` if ``out`` is still a new or regular file (check_report_file). A half-written report is never
    left behind."""
    check_report_file(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=out.parent)
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                for piece in (text,) if isinstance(text, str) else text:
                    fh.write(piece)
        except OSError as exc:  # a full disk: the message names the report, not our work file
            raise OSError(exc.errno, exc.strerror, str(out)) from exc
        os.chmod(tmp, 0o666 & ~_UMASK)  # as any file the person makes, not mkstemp's owner-only
        check_report_file(out)  # the path may have changed while the report was written
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if not isinstance(text, str) and hasattr(text, "close"):
            text.close()  # a generator's own clean-up (a search it started) runs now, in this thread
        raise
    return out


def check_report_target(
    out: Path | None, db_path: Path, store: Store | None = None, scan_roots: Sequence[str] = ()
) -> None:
    """Refuse, before any work, a report path that names a folder, the database (or its journal files),
    a document the database knows (when ``store`` is given), or a file of a type neardup reads inside a
    folder being scanned (it is, or would become, one of the documents): a report never replaces them."""
    if out is None:
        return
    check_report_file(out)
    target = out.resolve()
    database = Path(db_path).resolve()
    if target in {database, *(database.with_name(database.name + s) for s in ("-wal", "-shm", "-journal"))}:
        raise UsageError(
            translate(
                "Errors", "The report cannot go to {path}: it is the database itself; choose another file"
            ).format(path=out)
        )
    if kind_of(str(target)) is not None and any(target.is_relative_to(Path(r).resolve()) for r in scan_roots):
        raise UsageError(
            translate(
                "Errors",
                "The report cannot go to {path}: it is inside a folder being scanned and "
                "would be compared as one of the documents; choose a file elsewhere "
                "(or a .json report)",
            ).format(path=out)
        )
    if store is not None and store.files.document_by_path(str(target)) is not None:
        raise UsageError(
            translate(
                "Errors",
                "The report cannot go to {path}: it is one of the documents being compared; choose another file",
            ).format(path=out)
        )
