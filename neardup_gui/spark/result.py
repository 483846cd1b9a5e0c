"""The Spark job's result: groups with their keepers, the pairs of duplicates, Parquet tables, the JSON
report of the contract, the CSV and HTML reports, and the records ``neardup import-spark`` loads.

The groups are those ``neardup scan`` reports: the components of the verified pairs, each kept by the app's
default rule (``keeper``), and each component of up to ALL_PAIRS_LIMIT documents that is not all mutual
duplicates shown as groups that are (``_mutual``, on the driver or in the component's own task:
core/match/chains.py's groups_of_duplicates over its verified pairs), numbered as the desktop numbers them;
each member carries its numbers against its group's keeper. The pairs are every pair of duplicates of those
components; a larger component keeps the copies of one content, the contents of one text, and a maximum
spanning forest of its verified pairs (SimHash edges nearest first, then MinHash edges most similar first),
each text stood for by its first path; where a member of it is not a duplicate of its keeper, it is split as
the desktop splits it, into groups around keepers along those pairs (chains.tree_stars), each member
measured against its part's keeper.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import i18n
from ..core.fingerprint.scheme import Scheme
from ..core.fingerprint.simhash import to_signed
from ..core.match.chains import ALL_PAIRS_LIMIT, groups_of_duplicates, keeper_pair, part_group, tree_stars
from ..core.match.matcher import MatchResult
from ..core.match.unionfind import UnionFind
from ..core.models import (
    IDENTICAL,
    Document,
    Group,
    Member,
    Pair,
    Similarity,
    Status,
    Thresholds,
    display_path,
    matched_by,
    within_thresholds,
)
from ..core.review import report
from ..core.review.html_report import DiffsMap, DiffsTask, GroupDiffs, render_diffs_task, to_html
from ..core.review.rules import default_keeper
from ..core.review.topics import SAMPLE, Topics
from ..core.store.spark_result import REVIEW_FOLDER
from ..core.store.stored_text import TextLoader
from . import previous as kept_fingerprints
from .out import ResultFolder, in_background
from .previous import FINGERPRINTS
from .records import BoilerplateFound, FoundFile, JobOptions, Source, job_json, similarity, unpacked

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import SparkSession


@dataclass(frozen=True, slots=True)
class GroupedFile:
    """What the driver keeps of a document in a group (not its fingerprint)."""

    path: str
    size: int
    mtime_ns: int
    kind: str
    chars: int
    raw_hash: bytes
    text_hash: bytes
    keywords: str  # what its text is about: its group is named by them (core/review/topics.py)

    @classmethod
    def of(cls, f: FoundFile) -> GroupedFile:
        return cls(
            f.path,
            f.size,
            f.mtime_ns,
            f.kind,
            f.fingerprint.chars,
            f.fingerprint.raw_hash,
            f.fingerprint.text_hash or b"",
            f.fingerprint.keywords,
        )


def keeper(found: Sequence[GroupedFile]) -> GroupedFile:
    """The file a group keeps by the app's default rule (``review.default_keeper``, the original: most
    copies, an editable document over an export, the oldest): the report's representative, as in
    ``neardup scan``'s report, whose groups are measured from their keepers."""
    contents: dict[bytes, int] = {}
    docs = {
        n: Document(
            n,
            f.path,
            f.size,
            f.mtime_ns,
            f.kind,
            Status.OK,
            "",
            f.chars,
            contents.setdefault(f.raw_hash, len(contents)),
        )
        for n, f in enumerate(found)
    }
    group = Group(0, 0, tuple(Member(n, IDENTICAL) for n in docs), False)
    return found[default_keeper(group, docs, ())]


def _keeper_of(found: Sequence[GroupedFile]) -> Callable[[Sequence[int]], int]:
    """``keeper`` among some of ``found`` (by their places in it), for chains.groups_of_duplicates."""

    def of(places: Sequence[int]) -> int:
        chosen = keeper([found[k] for k in places])
        return next(k for k in places if found[k] is chosen)

    return of


Mutual = tuple[
    tuple[tuple[str, tuple[tuple[str, Similarity], ...], bool], ...] | None,
    tuple[tuple[str, str, Similarity, str], ...],
]
"""A component as the desktop shows it: its groups of mutual duplicates (keeper's path, (member's path, its
numbers against the keeper) keeper first, exact), None when it is one already; and its pairs of duplicates
(path a, path b, the numbers of a against b, how matched)."""


def _mutual(
    item: tuple[int, tuple[Iterable[GroupedFile], Iterable[tuple[Any, ...]] | None]], t: Thresholds
) -> tuple[int, Mutual]:
    """One component's groups of mutual duplicates and its pairs, as the desktop finds them (core/match/chains.py:
    every two members of a group are duplicates, by its verified pairs; what is kept is chosen with them)."""
    label, (files, edges) = item
    found = sorted(files, key=lambda f: f.path)  # the desktop's order: by path
    between: dict[tuple[bytes, bytes], Similarity] = {}  # (text a, text b): a's numbers against b
    for e in edges or ():
        between[(e[5], e[6])] = e[2]
        between[(e[6], e[5])] = _swapped(e[2])

    def sim(a: GroupedFile, b: GroupedFile) -> Similarity:
        return IDENTICAL if a.text_hash == b.text_hash else between[(a.text_hash, b.text_hash)]

    def how(s: Similarity, a: GroupedFile, b: GroupedFile) -> str:
        return "exact" if a.text_hash == b.text_hash or s.same_text else matched_by(s, t) or "minhash"

    n = len(found)
    near = {
        i: {
            j
            for j in range(n)
            if j != i
            and (found[i].text_hash == found[j].text_hash or (found[i].text_hash, found[j].text_hash) in between)
        }
        for i in range(n)
    }
    pairs = tuple(
        (found[i].path, found[j].path, sim(found[i], found[j]), how(sim(found[i], found[j]), found[i], found[j]))
        for i in range(n)
        for j in sorted(near[i])
        if j > i
    )
    if all(len(near[i]) == n - 1 for i in range(n)):
        return label, (None, pairs)
    chosen = keeper(found)
    parts = groups_of_duplicates(
        list(range(n)), near, next(k for k in range(n) if found[k] is chosen), lambda _k: False, _keeper_of(found)
    )
    groups = []
    for kept, members in parts:
        k = found[kept]
        numbers = [(found[m].path, sim(found[m], k)) for m in members]
        ranked = (numbers[0], *sorted(numbers[1:], key=lambda pm: (-pm[1].jaccard, pm[0])))
        exact = all(found[m].text_hash == k.text_hash or sim(found[m], k).same_text for m in members)
        groups.append((k.path, ranked, exact))
    return label, (tuple(groups), pairs)


ON_DRIVER_MEASURED = 20_000_000
"""Characters of the contents asked for (members and their keepers) whose compared sets the driver takes, to
measure them itself (4 bytes a shingle: about 0.7 bytes a character of English, 4 of Chinese); past it they
are joined with the pairs asked (two shuffles: a second at 20,000 documents)."""


def _similarities(
    asked: Sequence[tuple[bytes, bytes, Any]], compared: RDD, parts: int, chars: int
) -> dict[Any, Similarity]:
    """The numbers of each (content a, content b, key) ``asked``: a's against b, by key; measured on the
    driver where the contents (``chars`` characters) are within ON_DRIVER_MEASURED, else through joins.
    Only the contents asked leave their partitions (a broadcast set picks them), not every fingerprint."""
    if not asked:
        return {}
    sc = compared.context
    needed = sc.broadcast({c for a, b, _key in asked for c in (a, b)})
    by_content = compared.filter(lambda c: c[0] in needed.value)
    if chars <= ON_DRIVER_MEASURED:
        sets = dict(by_content.collect())
        needed.unpersist()
        arrays = functools.cache(unpacked)  # a keeper asked for by several members is unpacked once
        return {key: similarity(sets[a], sets[b], arrays)[0] for a, b, key in asked}
    found = dict(
        sc.parallelize([(a, (key, b)) for a, b, key in asked], parts)
        .join(by_content, parts)
        .map(lambda x: (x[1][0][1], (x[1][0][0], x[1][1])))
        .join(by_content, parts)
        .map(lambda x: (x[1][0][0], similarity(x[1][0][1], x[1][1])[0]))
        .collect()
    )
    needed.unpersist()
    return found


def _member_similarities(
    group_files: Sequence[tuple[Any, list[GroupedFile]]],
    kept_of: Mapping[Any, GroupedFile],
    mutual: Mapping[Any, Mutual],
    compared: RDD,
    parts: int,
) -> dict[str, Similarity]:
    """Each grouped file's numbers against its component's keeper, by path: a copy's or the same text's are
    IDENTICAL (what is compared of them is the same, and never empty), a duplicate's those of the pair
    verified (``mutual``: every member of a component shown whole is one); only the others (members of a
    component too large to pair whole, or not a duplicate of its keeper) are measured from the contents
    compared, which took a pass over every compared set (2 s at 20,000 documents)."""
    found: dict[str, Similarity] = {}
    asked: list[tuple[bytes, bytes, str]] = []
    chars: dict[bytes, int] = {}  # of each content asked for
    for key, members in group_files:
        kept = kept_of[key]
        pairs = {(a, b): sim for a, b, sim, _how in mutual[key][1]} if key in mutual else {}
        for f in members:
            if f.raw_hash == kept.raw_hash or f.text_hash == kept.text_hash:
                found[f.path] = IDENTICAL
            elif (f.path, kept.path) in pairs:
                found[f.path] = pairs[(f.path, kept.path)]
            elif (kept.path, f.path) in pairs:
                found[f.path] = _swapped(pairs[(kept.path, f.path)])
            else:
                asked.append((f.raw_hash, kept.raw_hash, f.path))
                chars[f.raw_hash], chars[kept.raw_hash] = f.chars, kept.chars
    return found | _similarities(asked, compared, parts, sum(chars.values()))


def _forest(
    item: tuple[int, Iterable[tuple[Any, ...]]], first_path: Mapping[bytes, str]
) -> Iterator[tuple[int, bytes, bytes, Similarity, str]]:
    """The edges of one component's maximum spanning forest (its label, text hashes, similarity, method), as
    the desktop unions them: SimHash edges nearest first, then MinHash edges most similar first; edges as
    near or as similar by their texts' first paths (``first_path``), the order the desktop mostly meets
    them in (its rows follow the order its contents were read)."""
    label, found = item
    edges = list(found)

    def by_paths(e: tuple[Any, ...]) -> tuple[str, str]:
        a, b = first_path[e[5]], first_path[e[6]]
        return (a, b) if a <= b else (b, a)

    simhash_edges = sorted((e for e in edges if e[3]), key=lambda e: (e[2].hamming, by_paths(e)))
    minhash_edges = sorted((e for e in edges if e[4]), key=lambda e: (-e[7], by_paths(e)))  # exact Jaccard
    ids: dict[bytes, int] = {}
    for e in edges:
        ids.setdefault(e[5], len(ids))
        ids.setdefault(e[6], len(ids))
    uf = UnionFind(len(ids))
    for how, ordered in (("simhash", simhash_edges), ("minhash", minhash_edges)):
        for e in ordered:
            if uf.union(ids[e[5]], ids[e[6]]):
                yield label, e[5], e[6], e[2], how


def _first_paths(group_files: Iterable[tuple[Any, list[GroupedFile]]], large: frozenset[Any]) -> dict[bytes, str]:
    """The first path of each text of the components ``large``."""
    first: dict[bytes, str] = {}
    for key, found in group_files:
        if key in large:
            for f in found:
                if f.text_hash not in first or f.path < first[f.text_hash]:
                    first[f.text_hash] = f.path
    return first


Shown = tuple[Document, tuple[Member, ...], bool]
"""A group as the report lists it: the document kept, the members with their numbers against it (it first),
whether they are all the same text."""


def _large_components(
    built: Sequence[tuple[str, Document, tuple[Member, ...], bool, Any]],
    large_pairs: dict[Any, list[Pair]],
    group_files: Sequence[tuple[Any, list[GroupedFile]]],
    doc_of: dict[str, Document],
    compared: RDD,
    t: Thresholds,
    parts: int,
) -> tuple[dict[Any, list[Shown]], list[Pair]]:
    """The components too large to measure every pair of (the pairs that joined each in ``large_pairs``) as
    the desktop shows them (core/match/chains.py's split_chains): one that holds a member not a duplicate of
    the keeper split into groups around keepers along those pairs, each member measured against its part's
    keeper; and, of the others, the pairs of the keeper and each member the report lists besides those that
    joined it (chains._known_pairs)."""
    text_of = {doc_of[f.path].id: f.text_hash for _key, found in group_files for f in found}
    content_of = {doc_of[f.path].id: f.raw_hash for _key, found in group_files for f in found}
    chars_of = {doc_of[f.path].id: f.chars for _key, found in group_files for f in found}
    path_of = {doc.id: doc.path for doc in doc_of.values() if doc.id in text_of}

    def same_text(a: int, b: int) -> bool:
        return text_of[a] == text_of[b]

    stars: dict[Any, list[tuple[int, list[int]]]] = {}
    with_keeper: list[Pair] = []
    for _first, kept, listed, _same, key in built:
        if key not in large_pairs:
            continue
        if all(
            m.document_id == kept.id or same_text(kept.id, m.document_id) or within_thresholds(m.similarity, t)
            for m in listed
        ):
            known = {(p.a, p.b) for p in large_pairs[key]}
            with_keeper.extend(
                pair
                for m in listed
                if m.document_id != kept.id and ((pair := keeper_pair(kept.id, m, t, same_text)).a, pair.b) not in known
            )
            continue
        joined: dict[int, set[int]] = defaultdict(set)
        for p in large_pairs[key]:
            joined[p.a].add(p.b)
            joined[p.b].add(p.a)
        ids = sorted((m.document_id for m in listed), key=path_of.__getitem__)
        stars[key] = tree_stars(ids, kept.id, joined, lambda _d: False)
    asked = [(d, k) for found in stars.values() for k, ids in found for d in ids]
    chars = {content_of[i]: chars_of[i] for pair in asked for i in pair}  # of each content asked for
    sims = _similarities(
        [(content_of[d], content_of[k], (d, k)) for d, k in asked], compared, parts, sum(chars.values())
    )
    split: dict[Any, list[Shown]] = {}
    for key, found in stars.items():
        split[key] = []
        for k, ids in found:
            group = part_group(k, [Member(d, sims[(d, k)]) for d in ids], same_text, path_of)
            split[key].append((doc_of[path_of[k]], group.members, group.exact))
    return split, with_keeper


def _swapped(sim: Similarity) -> Similarity:
    return Similarity(sim.hamming, sim.jaccard_estimate, sim.jaccard, sim.containment_ba, sim.containment_ab)


def _record(f: FoundFile, core: Any | None) -> str:
    """One document of the review records, as JSON (binary fields in base64)."""
    fp = f.fingerprint

    def b64(value: bytes | None) -> str | None:
        return None if value is None else base64.b64encode(value).decode("ascii")

    return json.dumps(
        {
            "path": f.path,
            "size": f.size,
            "mtime_ns": f.mtime_ns,
            "kind": f.kind,
            "status": str(fp.status),
            "message": fp.message,
            "encoding": fp.encoding,
            "pages": fp.pages,
            "chars": fp.chars,
            "raw_hash": b64(fp.raw_hash) if fp.raw_hash else None,
            "text_hash": b64(fp.text_hash),
            "simhash": to_signed(fp.simhash) if fp.simhash is not None else None,
            "minhash": b64(fp.minhash),
            "shingle_count": fp.shingle_count,
            "shingles": b64(fp.shingles),
            "short_text": fp.short_text,
            "edges": b64(fp.edges),
            "sequence": b64(fp.sequence),
            "keywords": fp.keywords,
            "transient": fp.transient,
            "core": None
            if core is None
            else {
                "shingle_count": core.shingle_count,
                "minhash": b64(core.minhash),
                "head_cut": core.head_cut,
                "tail_cut": core.tail_cut,
            },
        }
    )  # ASCII: a path's bytes that are not UTF-8 (surrogates) travel as escapes


ON_DRIVER_CORES = 50_000
"""Grouped contents whose cores (~700 bytes each) the driver sends to the tasks writing the review records;
past it the records and the cores are joined (a shuffle of both: a second at 20,000 documents)."""

FileRow = tuple[str, int, int, str, str, str, int, bytes, bytes | None]
"""What the report and the documents table list of every file: path, size, mtime_ns, kind, status,
message, chars, raw hash, text hash."""


def _row(f: FoundFile) -> FileRow:
    fp = f.fingerprint
    return f.path, f.size, f.mtime_ns, f.kind, str(fp.status), fp.message, fp.chars, fp.raw_hash, fp.text_hash


@dataclass(frozen=True, slots=True)
class _Components:
    """What the report is built from: the components of more than one file (key, their files), the groups
    and pairs of each small one (``_mutual``), the forest edges of the large ones (``_forest``) and their
    keys, every file's row, and the contents' keywords the groups are named against (Topics' sample)."""

    files: list[tuple[Any, list[GroupedFile]]]
    mutual: dict[Any, Mutual]
    forest: list[tuple[int, bytes, bytes, Similarity, str]]
    large: frozenset[Any]
    rows: list[FileRow]
    sample: list[tuple[Any, str]]


def _components_on_driver(
    files: RDD, edges: RDD, labels: RDD, text_numbers: dict[bytes, int], t: Thresholds
) -> _Components:
    """``_Components`` where the driver holds the texts' numbers: the files' rows, the labels and the
    verified pairs fetched once each (thousands of pairs for tens of thousands of files), and the
    components put together here. The joins, groupings and collects of ``_components_in_executors`` took
    5.8 s of Spark jobs on the benchmark's 20,000 documents."""
    fetched = files.map(lambda f: (_row(f), GroupedFile.of(f) if f.fingerprint.status is Status.OK else None)).collect()
    label_of: dict[int, int] = dict(labels.collect())
    edges_of: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for e in edges.collect():
        edges_of[label_of[e[0]]].append(e)
    # each document's component: its text's label, or its text alone
    members: dict[int, list[GroupedFile]] = defaultdict(list)
    keywords: dict[bytes, str] = {}
    for _listed, grouped in fetched:
        if grouped is not None:
            text = text_numbers[grouped.text_hash]
            members[label_of.get(text, text)].append(grouped)
            keywords.setdefault(grouped.raw_hash, grouped.keywords)
    group_files = [(key, found) for key, found in members.items() if len(found) > 1]
    large = frozenset(key for key, found in group_files if len(found) > ALL_PAIRS_LIMIT)
    mutual = dict(_mutual((key, (found, edges_of.get(key))), t) for key, found in group_files if key not in large)
    first_path = _first_paths(group_files, large)
    forest = [edge for key in large for edge in _forest((key, edges_of[key]), first_path)]
    return _Components(
        group_files,
        mutual,
        forest,
        large,
        [row for row, _grouped in fetched],
        sorted(keywords.items())[:SAMPLE],
    )


def _components_in_executors(files: RDD, texts: RDD, edges: RDD, labels: RDD, t: Thresholds, parts: int) -> _Components:
    """``_Components`` through joins on the executors, for a collection whose texts the driver did not number."""
    text_ids = texts.map(lambda tc: (tc[1].text_hash, tc[0]))
    ok = files.filter(lambda f: f.fingerprint.status is Status.OK)
    # each document's component: its text's label, or its text alone; what the groups need of a file, not
    # its fingerprint, goes through the joins
    by_text = ok.map(lambda f: (f.fingerprint.text_hash, GroupedFile.of(f))).join(text_ids, parts)
    keyed = (
        by_text.map(lambda x: (x[1][1], x[1][0]))
        .leftOuterJoin(labels, parts)
        .map(lambda x: (x[1][1] if x[1][1] is not None else x[0], x[1][0]))
    )
    grouped = keyed.groupByKey(parts).mapValues(list).filter(lambda kv: len(kv[1]) > 1).cache()
    group_files = grouped.collect()
    # a component small enough is shown as the desktop shows it, as groups of mutual duplicates with every
    # pair of duplicates (from its verified pairs, in its task); a larger one by its forest (_large_components)
    large = frozenset(key for key, found in group_files if len(found) > ALL_PAIRS_LIMIT)
    large_b = files.context.broadcast(large)
    edges_of = edges.map(lambda e: (e[0], e)).join(labels, parts).map(lambda x: (x[1][1], x[1][0]))
    mutual: dict[Any, Mutual] = dict(
        grouped.filter(lambda kv: kv[0] not in large_b.value)
        .leftOuterJoin(edges_of.groupByKey(parts), parts)
        .map(lambda item: _mutual(item, t))
        .collect()
    )
    first_path_b = files.context.broadcast(_first_paths(group_files, large))
    forest = (
        edges_of.filter(lambda le: le[0] in large_b.value)
        .groupByKey(parts)
        .flatMap(lambda item: _forest(item, first_path_b.value))
        .collect()
    )
    first_path_b.unpersist()
    grouped.unpersist()
    large_b.unpersist()
    # the contents' keywords, the first SAMPLE by their bytes' hash (Store.contents.keywords_sample)
    sample = (
        ok.map(lambda f: (f.fingerprint.raw_hash, f.fingerprint.keywords))
        .reduceByKey(lambda a, _b: a, parts)
        .takeOrdered(SAMPLE, key=lambda kv: kv[0])
    )
    return _Components(group_files, mutual, forest, large, files.map(_row).collect(), sample)


def _diffs_in_executors(sc: Any, loader: TextLoader | None, parts: int) -> DiffsMap | None:
    """The HTML report's differences rendered in the executors, each reading its group's files where the job
    read them (a folder the nodes share)."""
    if loader is None:
        return None

    def in_executors(todo: Sequence[GroupDiffs]) -> Iterator[tuple[GroupDiffs, tuple[str, ...]]]:
        if not todo:
            return iter(())
        tasks = [DiffsTask(d, loader.texts_of((d.keeper, *d.members)), i18n.language()) for d in todo]
        rendered = sc.parallelize(tasks, min(len(tasks), 4 * parts)).map(render_diffs_task).collect()
        return zip(todo, rendered, strict=True)

    return in_executors


def _save_gzipped(sc: Any, lines: RDD, folder: str) -> None:
    """``lines`` as gzipped text files, compressed at gzip's fastest level: the JVM's default level took
    3.9 of its CPU seconds for the review records of 20,000 documents, a third of that at the fastest, for
    files a fifth larger. The setting is the session's, so it is put back after."""
    conf = sc._jsc.hadoopConfiguration()
    before = conf.get("zlib.compress.level")
    conf.set("zlib.compress.level", "BEST_SPEED")
    try:
        lines.saveAsTextFile(folder, compressionCodecClass="org.apache.hadoop.io.compress.GzipCodec")
    finally:
        if before is None:
            conf.unset("zlib.compress.level")
        else:
            conf.set("zlib.compress.level", before)


def write_result(
    spark: SparkSession,
    options: JobOptions,
    source: Source,
    scheme: Scheme,
    files: RDD,
    whole_files: RDD,
    compared: RDD,
    texts: RDD,
    edges: RDD,
    labels: RDD,
    boilerplate: BoilerplateFound,
    affected: int,
    *,
    seconds: dict[str, float],
    counts: dict[str, int],
    previous: dict[str, Any] | None = None,
    text_numbers: dict[bytes, int] | None = None,
    compared_texts: RDD | list[tuple[bytes, bytes]],
) -> dict[str, int]:
    """Groups, pairs, Parquet tables, the JSON report and the review records, under ``options.out``: from
    the ``files`` read, and of those grouped, their fingerprints ``whole_files`` (with what the rest of the
    job leaves out). ``text_numbers`` (each text's id, by its hash) where the driver numbered the texts: the
    components are then put together on the driver. ``compared_texts``: each text's hash and ``compared_digest``,
    kept for a rerun."""
    started = time.monotonic()
    sc = spark.sparkContext
    t = options.thresholds
    parts = max(2 * sc.defaultParallelism, 1)
    out = ResultFolder(spark, options.out)

    components = (
        _components_on_driver(files, edges, labels, text_numbers, t)
        if text_numbers is not None
        else _components_in_executors(files, texts, edges, labels, t, parts)
    )
    group_files, mutual, forest, large = components.files, components.mutual, components.forest, components.large
    kept_of = {key: keeper(members) for key, members in group_files}
    member_sims = _member_similarities(group_files, kept_of, mutual, compared, parts)

    # the report's documents: every file, numbered by path (as the desktop's report numbers them)
    all_files = sorted(components.rows, key=lambda row: row[:8])
    content_number: dict[bytes, int] = {}  # each content numbered, as the desktop's documents carry theirs
    documents = tuple(
        Document(
            n,
            path,
            size,
            mtime_ns,
            kind,
            Status(status),
            message,
            chars,
            content_number.setdefault(raw, len(content_number) + 1) if raw else None,
        )
        for n, (path, size, mtime_ns, kind, status, message, chars, raw, _text) in enumerate(all_files, start=1)
    )
    doc_of = {d.path: d for d in documents}

    built: list[tuple[str, Document, tuple[Member, ...], bool, Any]] = []
    first_path_of_text: dict[bytes, str] = {}
    pairs: list[Pair] = []
    large_pairs: dict[Any, list[Pair]] = defaultdict(list)  # a larger component's pairs, until it is known whole
    for key, found in group_files:
        rep = kept_of[key]
        listed_pairs = large_pairs[key] if key in large else pairs
        members = [Member(doc_of[f.path].id, member_sims[f.path]) for f in found]
        members.sort(
            key=lambda m: (
                m.document_id != doc_of[rep.path].id,
                -m.similarity.jaccard,
                documents[m.document_id - 1].path,
            )
        )
        # exact: every member the same text, by its normalised text or by all that is compared (as the desktop)
        exact = all(f.text_hash == rep.text_hash for f in found) or all(m.similarity.same_text for m in members)
        # numbered as the matcher numbers groups: by size, then the path of its longest (then oldest) text
        first = max(found, key=lambda f: (f.chars, -f.mtime_ns, f.path)).path
        built.append((first, doc_of[rep.path], tuple(members), exact, key))
        files_of_content: dict[bytes, list[str]] = defaultdict(list)
        contents_of_text: dict[bytes, set[bytes]] = defaultdict(set)
        for f in found:
            files_of_content[f.raw_hash].append(f.path)
            contents_of_text[f.text_hash].add(f.raw_hash)
        first_path = {content: min(paths) for content, paths in files_of_content.items()}
        if key in mutual:  # every pair of duplicates
            for path_a, path_b, sim, how in mutual[key][1]:
                a, b = doc_of[path_a].id, doc_of[path_b].id
                pairs.append(Pair(a, b, sim, how) if a < b else Pair(b, a, _swapped(sim), how))
        for text_hash, contents in contents_of_text.items():  # contents of one text, to its first
            firsts = sorted(first_path[c] for c in contents)
            first_path_of_text[text_hash] = firsts[0]
            if key not in mutual:
                listed_pairs.extend(Pair(doc_of[firsts[0]].id, doc_of[p].id, IDENTICAL, "exact") for p in firsts[1:])
        if key not in mutual:
            for paths in files_of_content.values():  # copies of one content
                ordered = sorted(paths)
                listed_pairs.extend(Pair(doc_of[ordered[0]].id, doc_of[p].id, IDENTICAL, "exact") for p in ordered[1:])
    for label, text_a, text_b, sim, how in forest:
        a, b = doc_of[first_path_of_text[text_a]].id, doc_of[first_path_of_text[text_b]].id
        if a > b:
            a, b, sim = b, a, _swapped(sim)
        large_pairs[label].append(Pair(a, b, sim, matched_by(sim, t) or how))
    split_large, with_keeper = _large_components(built, large_pairs, group_files, doc_of, compared, t, parts)
    pairs.extend(p for found_pairs in large_pairs.values() for p in found_pairs)
    pairs.extend(with_keeper)
    pairs.sort(key=lambda p: (p.a, p.b))
    # numbered as the desktop numbers them: the components by size, then by the path of their longest text;
    # those shown whole first, then the groups of mutual duplicates of the others; by size (ties keep that order)
    built.sort(key=lambda g: (-len(g[2]), g[0]))
    whole: list[Shown] = []
    split: list[Shown] = []
    for _first, kept, listed, same, key in built:
        if key in split_large:
            split.extend(split_large[key])
            continue
        found_groups = mutual[key][0] if key in mutual else None
        if found_groups is None:
            whole.append((kept, listed, same))
            continue
        for keeper_path, ranked, part_exact in found_groups:
            split.append((doc_of[keeper_path], tuple(Member(doc_of[path].id, sim) for path, sim in ranked), part_exact))
    shown = sorted(whole + split, key=lambda g: -len(g[1]))
    groups = tuple(Group(n, kept.id, listed, same) for n, (kept, listed, same) in enumerate(shown, start=1))
    group_of_path: dict[str, int] = {}  # a document listed under several groups: the first
    for g in groups:
        for m in g.members:
            group_of_path.setdefault(documents[m.document_id - 1].path, g.id)

    boilerplate_summary = boilerplate.summary(t.ignore_boilerplate, affected)
    result = MatchResult(t, documents, tuple(pairs), groups)
    # each group named as the desktop names it: its members' keywords, their rarity in the same sample of
    # contents (the first SAMPLE by their bytes' hash: Store.contents.keywords_sample)
    keywords_of = {doc_of[f.path].id: f.keywords for _key, found in group_files for f in found}
    topics = Topics(lambda ids: [(i, keywords_of.get(i)) for i in ids], components.sample)
    named_by_own = {d: dataclasses.replace(documents[d - 1], content_id=d) for d in keywords_of}
    topics.read(named_by_own)
    context = report.ReportContext(
        roots=(source.root,),
        scan={"spark_seconds": dict(seconds)},
        scheme=json.loads(scheme.to_json()),
        boilerplate=boilerplate_summary,
        topics=dict(topics.of(groups, named_by_own)),
    )
    out.make()

    def write_tables() -> None:
        # Parquet tables; the documents' from the rows the driver holds (a pass over every fingerprint less)
        group_b = sc.broadcast(group_of_path)
        spark.createDataFrame(
            [
                (
                    display_path(path),
                    size,
                    mtime_ns,
                    kind,
                    status,
                    message,
                    chars,
                    raw.hex() or None,
                    (text or b"").hex() or None,
                    group_of_path.get(path),
                )
                for path, size, mtime_ns, kind, status, message, chars, raw, text in all_files
            ],
            "path string, size long, modified_ns long, type string, status string, message string, chars long, "
            "content string, text string, `group` long",
        ).write.parquet(out.child("documents"))
        spark.createDataFrame(
            [
                (
                    g.id,
                    display_path(documents[m.document_id - 1].path),
                    m.document_id == g.representative,
                    g.exact,
                    m.similarity.hamming,
                    m.similarity.jaccard_estimate,
                    m.similarity.jaccard,
                    m.similarity.containment_ab,
                    m.similarity.containment_ba,
                )
                for g in groups
                for m in g.members
            ],
            "`group` long, path string, representative boolean, exact boolean, hamming int, jaccard_estimate double, "
            "jaccard double, containment_in_representative double, representative_in_member double",
        ).write.parquet(out.child("groups"))
        text_path_b = sc.broadcast(first_path_of_text)

        def pair_row(e: tuple[Any, ...]) -> tuple[Any, ...]:
            sim: Similarity = e[2]
            path_a, path_b = text_path_b.value[e[5]], text_path_b.value[e[6]]
            if path_a > path_b:
                path_a, path_b, sim = path_b, path_a, _swapped(sim)
            how = "both" if e[3] and e[4] else "simhash" if e[3] else "minhash"
            return (
                display_path(path_a),
                display_path(path_b),
                sim.hamming,
                sim.jaccard_estimate,
                sim.jaccard,
                sim.containment_ab,
                sim.containment_ba,
                how,
                group_b.value[path_a],
            )

        spark.createDataFrame(
            edges.map(pair_row),
            "a string, b string, hamming int, jaccard_estimate double, jaccard double, containment_ab double, "
            "containment_ba double, matched_by string, `group` long",
        ).write.parquet(out.child("pairs"))

        # what import-spark loads: the grouped documents and the problems, with their fingerprints and cores
        # the cores go whether or not this run ignored boilerplate: the app may switch either way
        cores = boilerplate.cores if boilerplate.cores is not None else sc.emptyRDD()
        wanted = whole_files.filter(lambda f: f.path in group_b.value or f.fingerprint.status is not Status.OK)
        grouped_raws = {f.raw_hash for _key, found in group_files for f in found}  # a problem has no core
        if len(grouped_raws) <= ON_DRIVER_CORES:  # their cores sent to the executors, not the records shuffled
            raws_b = sc.broadcast(grouped_raws)
            core_b = sc.broadcast(
                dict(cores.filter(lambda rc: rc[0] in raws_b.value).collect()) if grouped_raws else {}
            )
            _save_gzipped(
                sc, wanted.map(lambda f: _record(f, core_b.value.get(f.fingerprint.raw_hash))), out.child(REVIEW_FOLDER)
            )
            raws_b.unpersist()
            core_b.unpersist()
        else:
            records = (
                wanted.map(lambda f: (f.fingerprint.raw_hash, f))
                .leftOuterJoin(cores, parts)
                .map(lambda x: _record(x[1][0], x[1][1]))
            )
            _save_gzipped(sc, records, out.child(REVIEW_FOLDER))
        kept_fingerprints.write(spark, whole_files, out.child(FINGERPRINTS))  # what a rerun reuses (--previous)

    # the tables and the review records are written while the reports are made: each leaves cores idle that
    # the other fills (the driver writes the reports and lays the page out, the JVM plans each table)
    tables_written = in_background(write_tables)
    try:
        if "json" in options.reports:
            out.write_text("report.json", report.to_json(result, context))
        if "csv" in options.reports:
            out.write_text("report.csv", report.to_csv(result, context.topics), newline="")
        if "html" in options.reports:
            # the HTML report shows each member's differences from its keeper where the driver can read the
            # files (a folder it walked, shared with the nodes); the numbers only for a URI or a table
            grouped = {content_number[f.raw_hash]: f.raw_hash for _key, found in group_files for f in found}
            loader = TextLoader(grouped, cache_size=512) if source.kind == "folder" else None
            diffs = _diffs_in_executors(sc, loader, parts)
            out.write_text("report.html", to_html(result, context, loader, map_diffs=diffs))
        # and the later stages' findings a rerun reuses, small tables, beside the large ones
        kept_fingerprints.write_rerun(spark, out, edges, compared_texts, boilerplate)
    finally:
        tables_written()

    problems = sum(1 for d in documents if d.status is not Status.OK)
    in_groups = len(group_of_path)
    extra = {
        "counts": {
            **counts,
            "problems": problems,
            "groups": len(groups),
            "documents_in_groups": in_groups,
            "pairs_shown": len(pairs),
        },
        "boilerplate": {
            "min_share": boilerplate.min_share,
            "min_documents": boilerplate.min_documents,
            "passages": boilerplate.passages,
            "family_passages": boilerplate.family_passages,
            "shingles": boilerplate.shingles.tolist(),
        },
        "seconds": {**seconds, "write": round(time.monotonic() - started, 2)},  # the result, but for this file
        "fingerprints": FINGERPRINTS,
        "rerun": kept_fingerprints.rerun_json(boilerplate),
        **({"previous": previous} if previous is not None else {}),
    }
    out.write_text("job.json", job_json(options, source, scheme, extra) + "\n")
    return {
        "documents": counts["documents"],
        "contents": counts["contents"],
        "texts": counts["texts"],
        "problems": problems,
        "candidates": counts["candidates"],
        "pairs": counts["pairs"],
        "groups": len(groups),
        "documents_in_groups": in_groups,
    }
