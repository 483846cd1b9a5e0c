"""Splitting chains (match/chains.py, split_chains) keeps its promise: in every group a person sees, every
member is a duplicate of the group's keeper and carries its numbers against it, and in a component small
enough to measure every pair of, every two members are duplicates, no document with a duplicate is left
out, and the pairs of duplicates listed are exactly those (brute force over every pair).

First over random components of documents made of sets (exact Jaccard and Hamming distance: metrics, as the
bounds that spare measuring rely on), with rulings "not a duplicate", byte copies and a person's choices; then
over real texts (a chain of drafts) through the real matcher, in this process."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.match import chains
from neardup_gui.core.match.chains import split_chains
from neardup_gui.core.match.matcher import Matcher, MatchResult, similarity_of
from neardup_gui.core.models import (
    IDENTICAL,
    Document,
    Group,
    Member,
    Method,
    Pair,
    Similarity,
    Status,
    Thresholds,
    matched_by,
    within_thresholds,
)
from neardup_gui.core.store.store import FileRecord, Store
from neardup_gui.core.workers.parallel import IN_THIS_PROCESS
from tests.conftest import english_texts, plant_edits


class SetMatcher:
    """What split_chains asks of a matcher, for contents that are sets of numbers with a SimHash each:
    their numbers rounded as the real matcher rounds them, and the pairs a person ruled apart."""

    def __init__(
        self, sets: dict[int, frozenset[int]], simhashes: dict[int, int], ruled: Iterable[tuple[int, int]] = ()
    ) -> None:
        self.sets, self.simhashes = sets, simhashes
        self.ruled = {frozenset(p) for p in ruled}
        self.boilerplate = SimpleNamespace(ignored=True)

    def similarity(self, a: int, b: int) -> Similarity:
        if a == b:
            return IDENTICAL
        shared = len(self.sets[a] & self.sets[b])
        union = len(self.sets[a]) + len(self.sets[b]) - shared
        return similarity_of(
            shared,
            len(self.sets[a]),
            len(self.sets[b]),
            (self.simhashes[a] ^ self.simhashes[b]).bit_count(),
            shared / union,
        )

    def similarity_pairs(self, contents_a: Sequence[int], contents_b: Sequence[int]) -> list[Similarity]:
        return [self.similarity(a, b) for a, b in zip(contents_a, contents_b, strict=True)]

    def same_text(self, a: int, b: int) -> bool:
        return a == b or self.sets[a] == self.sets[b]

    def text_ids(self, contents: Sequence[int]) -> np.ndarray:
        numbers: dict[frozenset[int], int] = {}
        return np.array([numbers.setdefault(self.sets[c], len(numbers)) for c in contents], dtype=np.int64)

    def ruled_apart(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.ruled

    def any_ruled_among(self, contents: Iterable[int]) -> bool:
        held = set(contents)
        return any(pair <= held for pair in self.ruled)

    def duplicates(self, a: int, b: int, t: Thresholds) -> bool:
        """The definition: the same text or within the thresholds, and not ruled apart."""
        return (self.same_text(a, b) or within_thresholds(self.similarity(a, b), t)) and not self.ruled_apart(a, b)

    def duplicates_among(self, contents_a, contents_b, t: Thresholds, *, cancel=None) -> np.ndarray:
        return np.flatnonzero([self.duplicates(int(a), int(b), t) for a, b in zip(contents_a, contents_b, strict=True)])


THRESHOLDS = (
    [Thresholds(Method.MINHASH, 8, t) for t in (0.5, 0.6, 0.7, 0.8, 0.9)]
    + [Thresholds(Method.SIMHASH, k, 0.8) for k in (2, 4, 8)]
    + [Thresholds(Method.BOTH, 4, 0.7)]
)


def collection(seed: int, t: Thresholds, *, rule_identical: bool = True):
    """(matcher, match result, keepers, fixed documents): documents that drift along a few walks (each a
    window of a run of numbers that moves on by a random step, a few stray numbers, its SimHash a few bits
    from the one before), byte copies, rulings "not a duplicate" (between two files of the same text too,
    as a PDF printout set apart from its text file, unless not ``rule_identical``), and a person's choices;
    grouped as the matcher groups them, into the connected components of their pairs of duplicates, each
    member measured against the keeper (a document a person fixed where the component holds one)."""
    rng = random.Random(seed)
    n = rng.randint(2, 36)
    sets: dict[int, frozenset[int]] = {}
    simhashes: dict[int, int] = {}
    content_of: dict[int, int] = {}
    start, simhash = 0, rng.getrandbits(64)
    for doc in range(1, n + 1):
        if doc > 1 and rng.random() < 0.12:  # a byte copy of an earlier document: the same content
            content_of[doc] = content_of[rng.randint(1, doc - 1)]
            continue
        if rng.random() < 0.15:  # another walk, far from this one
            start, simhash = start + 100_000, rng.getrandbits(64)
        step = rng.choice([0, 1, 2, 3, 5, 8, 13])
        start += step
        for _ in range(step // 2 + rng.randint(0, 1)):
            simhash ^= 1 << rng.randrange(64)
        stray = {rng.randrange(10**9) for _ in range(rng.choice([0, 0, 0, 1, 2, 4]))}  # none: the same text again
        content = 1000 + doc
        sets[content] = frozenset(range(start, start + 60)) | stray
        simhashes[content] = simhash
        content_of[doc] = content
    contents = sorted(sets)
    ruled = [tuple(rng.sample(contents, 2)) for _ in range(rng.randint(0, 3))] if len(contents) > 1 else []
    if not rule_identical:
        ruled = [(a, b) for a, b in ruled if sets[a] != sets[b]]
    matcher = SetMatcher(sets, simhashes, ruled)
    fixed = {d for d in content_of if rng.random() < 0.08}

    near: dict[int, set[int]] = {d: set() for d in content_of}
    for a, b in combinations(content_of, 2):
        if matcher.duplicates(content_of[a], content_of[b], t):
            near[a].add(b)
            near[b].add(a)
    components, pairs, seen = [], [], set()
    for root in content_of:
        if root in seen or not near[root]:
            continue
        component, frontier = [root], [root]
        seen.add(root)
        while frontier:  # breadth first: the tree's edges are the pairs that joined the component
            following = []
            for a in frontier:
                for b in sorted(near[a] - seen):
                    seen.add(b)
                    following.append(b)
                    component.append(b)
                    s = matcher.similarity(content_of[b], content_of[a])
                    how = "exact" if matcher.same_text(content_of[a], content_of[b]) else matched_by(s, t)
                    assert how is not None
                    pairs.append(Pair(min(a, b), max(a, b), s, how))
            frontier = following
        components.append(component)
    groups, keepers = [], {}
    for number, component in enumerate(sorted(components, key=len, reverse=True), start=1):  # largest first
        keeper = min(fixed & set(component)) if fixed & set(component) else rng.choice(component)
        members = [Member(keeper, IDENTICAL)] + [
            Member(d, matcher.similarity(content_of[d], content_of[keeper])) for d in component if d != keeper
        ]
        exact = all(matcher.same_text(content_of[d], content_of[keeper]) for d in component)
        groups.append(Group(number, keeper, tuple(members), exact))
        keepers[number] = keeper
    documents = tuple(
        Document(d, f"/d/{d:03d}.txt", 10, 0, "text", Status.OK, "", 10, c) for d, c in content_of.items()
    )
    pairs.sort(key=lambda p: (p.a, p.b))
    return matcher, MatchResult(t, documents, tuple(pairs), tuple(groups)), keepers, fixed


def assert_the_guarantee(
    matcher, result: MatchResult, keepers: dict[int, int], split: chains.Split, limit: int
) -> None:
    """What split_chains promises, checked against the definition of a pair of duplicates (``matcher``)."""
    t = result.thresholds
    content = {d.id: d.content_id for d in result.documents}

    def duplicates(a: int, b: int) -> bool:
        if hasattr(matcher, "duplicates"):
            return matcher.duplicates(content[a], content[b], t)
        return (
            matcher.same_text(content[a], content[b])
            or within_thresholds(matcher.similarity(content[a], content[b]), t)
        ) and not matcher.ruled_apart(content[a], content[b])

    groups = split.result.groups
    assert [g.id for g in groups] == list(range(1, len(groups) + 1))
    assert [len(g.members) for g in groups] == sorted((len(g.members) for g in groups), reverse=True)
    where: dict[int, list[Group]] = {}
    for g in groups:
        keeper = split.keepers[g.id]
        ids = [m.document_id for m in g.members]
        assert g.representative == keeper == ids[0] and len(ids) == len(set(ids)) >= 2
        for m in g.members[1:]:
            assert duplicates(m.document_id, keeper), f"{m.document_id} is no duplicate of its keeper {keeper}"
            assert m.similarity == matcher.similarity(content[m.document_id], content[keeper]), (
                "a member's numbers are not against its keeper"
            )
        for d in ids:
            where.setdefault(d, []).append(g)
    for pair in split.result.pairs:
        assert pair.a < pair.b and duplicates(pair.a, pair.b), pair
    assert len(split.duplicates.components) == len(result.groups)
    for g, listed in zip(result.groups, split.duplicates.components, strict=True):
        members = sorted(m.document_id for m in g.members)
        assert sorted(listed.members) == members
        every = {(a, b) for a, b in combinations(members, 2) if duplicates(a, b)}
        a, b = listed.arrays()
        pairs = list(zip(a.tolist(), b.tolist(), strict=True))
        assert len(pairs) == len(set(pairs)) == len(listed)
        if len(members) <= limit:
            assert listed.complete and set(pairs) == every, "the pairs of duplicates listed are not all of them"
            for d in members:  # every document has a duplicate in its component: it is in a group
                assert d in where, f"{d} is in no group"
                for h in where[d]:
                    assert set(m.document_id for m in h.members) <= set(members)
                    for x, y in combinations([m.document_id for m in h.members], 2):
                        assert duplicates(x, y), f"{x} and {y} share a group and are not duplicates"
            keeper = keepers[g.id]
            assert all(split.keepers[h.id] == keeper for h in where[keeper]), "the keeper given is passed over"
        else:
            assert set(pairs) <= every, "a pair listed that is no pair of duplicates"
            assert all(d in where for d in members), "a document of a large component is in no group"


@given(seed=st.integers(0, 2**32 - 1), t=st.sampled_from(THRESHOLDS), limit=st.sampled_from([None, 4]))
@settings(max_examples=250, deadline=None)
def test_every_member_is_a_duplicate_of_its_keeper_and_small_components_are_groups_of_mutual_duplicates(seed, t, limit):
    """``limit``: components larger than this (ALL_PAIRS_LIMIT, or 4 to meet the other way often) are split
    around keepers along the pairs that joined them, measuring nothing."""
    matcher, result, keepers, fixed = collection(seed, t, rule_identical=limit is None)
    limit = chains.ALL_PAIRS_LIMIT if limit is None else limit
    with mock.patch.object(chains, "ALL_PAIRS_LIMIT", limit):
        split = split_chains(result, keepers, matcher, min, fixed.__contains__)
    assert_the_guarantee(matcher, result, keepers, split, limit)


@given(seed=st.integers(0, 2**32 - 1), t=st.sampled_from(THRESHOLDS))
@settings(max_examples=80, deadline=None)
def test_a_split_found_again_from_the_cache_is_the_one_found_first(seed, t):
    """Moving the slider back finds each component's groups in the cache: the same groups, keepers and
    pairs as when they were found, whatever else was split in between."""
    matcher, result, keepers, fixed = collection(seed, t)
    cache: chains.SplitCache = {}
    first = split_chains(result, keepers, matcher, min, fixed.__contains__, cache=cache)
    other = collection(seed + 1, t)
    split_chains(other[1], other[2], other[0], min, other[3].__contains__, cache=cache)  # another matcher meanwhile
    again = split_chains(result, keepers, matcher, min, fixed.__contains__, cache=cache)
    assert again.result == first.result and again.keepers == first.keepers
    for x, y in zip(first.duplicates.components, again.duplicates.components, strict=True):
        assert [a.tolist() for a in x.arrays()] == [a.tolist() for a in y.arrays()]


def test_a_chain_of_sets_becomes_groups_of_neighbours():
    """Windows of a run of numbers, each 10 further than the one before (J = 50/70 with the next, 40/80 with
    the one after): at T 0.7 one component, every two neighbours in a group and nothing else together."""
    sets = {c: frozenset(range(10 * c, 10 * c + 60)) for c in range(1, 9)}
    matcher = SetMatcher(sets, dict.fromkeys(sets, 0))
    t = Thresholds(Method.MINHASH, 8, 0.7)
    documents = tuple(Document(c, f"/d/{c}.txt", 10, 0, "text", Status.OK, "", 10, c) for c in sets)
    members = (Member(1, IDENTICAL),) + tuple(Member(c, matcher.similarity(c, 1)) for c in range(2, 9))
    pairs = tuple(Pair(c, c + 1, matcher.similarity(c + 1, c), "minhash") for c in range(1, 8))
    result = MatchResult(t, documents, pairs, (Group(1, 1, members, False),))
    split = split_chains(result, {1: 1}, matcher, min, lambda d: False)
    assert sorted(sorted(m.document_id for m in g.members) for g in split.result.groups) == [
        [c, c + 1] for c in range(1, 8)
    ]
    assert_the_guarantee(matcher, result, {1: 1}, split, chains.ALL_PAIRS_LIMIT)


def test_a_ruling_inside_identical_texts_parts_those_two_and_keeps_the_others_with_each():
    """Four files of one text (four contents: the same words, other bytes), two of them ruled "not a
    duplicate": they never share a group, and each stays with the other two."""
    sets = {c: frozenset(range(60)) for c in range(1, 5)}
    matcher = SetMatcher(sets, dict.fromkeys(sets, 0), ruled=[(1, 2)])
    t = Thresholds()
    documents = tuple(Document(c, f"/d/{c}.txt", 10, 0, "text", Status.OK, "", 10, c) for c in sets)
    members = (Member(1, IDENTICAL),) + tuple(Member(c, IDENTICAL) for c in range(2, 5))
    pairs = (Pair(1, 3, IDENTICAL, "exact"), Pair(2, 3, IDENTICAL, "exact"), Pair(3, 4, IDENTICAL, "exact"))
    result = MatchResult(t, documents, pairs, (Group(1, 1, members, True),))
    split = split_chains(result, {1: 1}, matcher, min, lambda d: False)
    assert sorted(sorted(m.document_id for m in g.members) for g in split.result.groups) == [[1, 3, 4], [2, 3, 4]]
    assert_the_guarantee(matcher, result, {1: 1}, split, chains.ALL_PAIRS_LIMIT)


def test_a_large_component_parts_a_keeper_from_a_file_of_its_text_ruled_apart_from_it(monkeypatch):
    """Past ALL_PAIRS_LIMIT (4 here) a component is split around keepers only when _needs_split says a member
    is no duplicate of the keeper; a member of the keeper's text (a PDF printout of it, say) that a person
    ruled "not a duplicate" of it counts, so the two are parted, as _cliques_of parts them up to the limit.
    (This found a bug: the ruling was ignored when the texts were the same.)"""
    monkeypatch.setattr(chains, "ALL_PAIRS_LIMIT", 4)
    sets = {
        1: frozenset(range(60)),
        2: frozenset(range(60)),
        3: frozenset(range(2, 62)),
        4: frozenset(range(4, 64)),
        5: frozenset(range(6, 66)),
    }
    matcher = SetMatcher(sets, dict.fromkeys(sets, 0), ruled=[(1, 2)])
    t = Thresholds(Method.MINHASH, 8, 0.8)
    documents = tuple(Document(c, f"/d/{c}.txt", 10, 0, "text", Status.OK, "", 10, c) for c in sets)
    members = (Member(1, IDENTICAL),) + tuple(Member(c, matcher.similarity(c, 1)) for c in range(2, 6))
    pairs = tuple(Pair(a, b, matcher.similarity(b, a), "minhash") for a, b in ((1, 3), (2, 3), (3, 4), (4, 5)))
    result = MatchResult(t, documents, pairs, (Group(1, 1, members, False),))
    split = split_chains(result, {1: 1}, matcher, min, lambda d: False)
    assert_the_guarantee(matcher, result, {1: 1}, split, 4)


# -- the real matcher -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def drafts(tmp_path_factory) -> Path:
    """A database (written here: no scan) of ten drafts of a licence, each 3 % of its words from the one
    before, a close pair of another, an exact copy, and an unrelated text."""
    texts = english_texts()
    revisions = [texts["GPL-2"]]
    for n in range(9):
        revisions.append(plant_edits(revisions[-1], 0.03, seed=n))
    docs = [
        *revisions,
        texts["MPL-2.0"],
        plant_edits(texts["MPL-2.0"], 0.01, seed=1),
        texts["MPL-2.0"],
        texts["Apache-2.0"],
    ]
    scheme = Scheme.current()
    db = tmp_path_factory.mktemp("chains") / "drafts.db"
    with Store(db) as store:
        store.ensure_scheme(scheme)
        fps = [fingerprint_bytes("text", d.encode(), scheme) for d in docs]
        store.write_batch(
            fps,
            [
                FileRecord(f"/d/{n:02d}.txt", len(d), n, "text", content_hash=fp.raw_hash)
                for n, (d, fp) in enumerate(zip(docs, fps, strict=True))
            ],
        )
    return db


@pytest.mark.parametrize(
    "thresholds",
    [Thresholds(Method.MINHASH, 8, t) for t in (0.6, 0.7, 0.8, 0.9)]
    + [Thresholds(Method.SIMHASH, 6, 0.8), Thresholds(Method.BOTH, 4, 0.8)],
)
def test_a_chain_of_real_drafts_is_split_into_groups_of_mutual_duplicates(drafts, thresholds):
    with Store(drafts) as store:
        matcher = Matcher(store)
        result = matcher.match(thresholds)
        keepers = {g.id: g.representative for g in result.groups}
        split = split_chains(result, keepers, matcher, min, lambda d: False)
        assert_the_guarantee(matcher, result, keepers, split, chains.ALL_PAIRS_LIMIT)
        if thresholds == Thresholds(Method.MINHASH, 8, 0.7):
            names = {d.id: Path(d.path).stem for d in result.documents}
            joined = max(({names[m.document_id] for m in g.members} for g in result.groups), key=len)
            assert {f"{n:02d}" for n in range(10)} <= joined, "the drafts must form one chain at 0.7"
            assert len(split.result.groups) > len(result.groups), "a chain this long is split"


def _web(size: int, density: float, seed: int) -> tuple[np.ndarray, np.ndarray, dict[int, set[int]]]:
    """A random web of ``size`` members: its near pairs as places a < b, and as clique_cover takes them."""
    rng = np.random.default_rng(seed)
    first, second = np.triu_indices(size, 1)
    keep = rng.random(len(first)) < density
    a, b = first[keep], second[keep]
    near: dict[int, set[int]] = {k: set() for k in range(size)}
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        near[x].add(y)
        near[y].add(x)
    return a, b, near


@given(st.lists(st.tuples(st.integers(2, 40), st.floats(0.05, 1.0), st.integers(0, 2**32)), min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_webs_sent_to_workers_as_bits_are_covered_as_their_pairs_are(specs):
    """clique_covers sends each web as a bit a pair of its members, several webs a task: the covers come
    back in the webs' order, each what clique_cover makes of the pairs themselves."""
    webs = [(size, *_web(size, density, seed)) for size, density, seed in specs]
    with mock.patch.object(chains, "_COVER_PAIRS", 50):  # several tasks
        found = chains.clique_covers([(size, a, b) for size, a, b, _near in webs], IN_THIS_PROCESS)
    assert found == [chains.clique_cover(list(range(size)), near) for size, _a, _b, near in webs]


def test_a_task_of_covers_stays_small_however_few_pairs_its_webs_have():
    """Thirty chains of 300 members (299 pairs each, 5.6 KB of bits each): tasks are cut by what they send,
    not only by their pairs, so none comes near the pipe's 200 KB (pool.py); the covers are the chains' links."""
    first = np.arange(299)
    webs = [(300, first, first + 1) for _ in range(30)]
    sent: list[int] = []
    real = chains.cover_webs

    def recorded(task):
        sent.append(sum(len(packed) for _size, packed in task))
        return real(task)

    with mock.patch.object(chains, "cover_webs", recorded):
        found = chains.clique_covers(webs, IN_THIS_PROCESS)
    assert len(sent) > 1 and max(sent) <= chains._COVER_BYTES
    assert found == [[[k, k + 1] for k in range(299)]] * 30


@pytest.mark.e2e
def test_the_covers_of_large_webs_are_found_by_two_workers_as_here(monkeypatch):
    """Webs of 150 to 300 members (a threshold move at a million documents meets hundreds) covered by two
    workers, several webs a task: the same covers, in the same order, as one process finds."""
    from neardup_gui.core.workers.parallel import Workers
    from tests.core.test_index import _pool_runs

    sizes = [150, 300, 220, 180, 260, 300, 170, 240]
    webs = [(size, *_web(size, 0.4, seed)[:2]) for seed, size in enumerate(sizes)]
    here = chains.clique_covers(webs, IN_THIS_PROCESS)
    monkeypatch.setattr(chains, "_POOL_COVER_PAIRS", 0)  # (87,000 pairs: covered here otherwise)
    runs = _pool_runs(monkeypatch)
    assert chains.clique_covers(webs, Workers(2)) == here
    assert runs == [("cover_webs", runs[0][1])] and 2 < runs[0][1] < len(webs), runs
    assert all(len(cover) > 5 for cover in here)  # webs, not families
