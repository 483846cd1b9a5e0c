"""Groups a person can act on: every two documents of a group are duplicates at the setting.

The matcher's groups are connected components of verified pairs, which may join documents through others
(each draft close to the one before, the last far from the first: a chain), or hold two documents alike to
a third but not to each other. Such a component is shown as the groups of documents that are all
duplicates of one another (cliques of its duplicate pairs), found greedily so that as many pairs of
duplicates as can be share a group: no document with a duplicate is left out, and a document may be listed
under several groups (LISTINGS at most). What is kept is a small set every group holds one of
(groups_of_duplicates); a document kept by one group is never one to remove in another
(review.kept_anywhere). A component too large to measure
every pair of is split into groups around keepers instead, along the verified pairs that joined it: every
member a duplicate of its keeper, not always of every other member.
Toolkit-free; the session applies it to every grouping.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..jobs import NEVER_CANCELLED, CancelToken
from ..models import (
    SIMHASH_MIN_JACCARD,
    Group,
    Member,
    Method,
    Pair,
    Similarity,
    Thresholds,
    matched_by,
    within_thresholds,
)
from ..workers.parallel import IN_THIS_PROCESS, Workers
from .matcher import Matcher, MatchResult

ALL_PAIRS_LIMIT = 300
"""A component up to this size is split knowing every pair of its members that are duplicates (their
signatures compared, 44,850 pairs at most, the few that may be duplicates measured exactly); a larger one
(a web of partly alike texts more than a family) is split along the pairs that joined it, measuring
nothing (tree_stars): measuring every pair of a component of 10,000 took a threshold move at 100,000
documents from 0.4 s to 75 s."""


_NO_IDS = np.empty(0, dtype=np.int64)


@dataclass(frozen=True, slots=True, eq=False)
class ComponentPairs:
    """The pairs of duplicates at the setting inside one component: every two of ``members`` (``whole``),
    else those listed (``a``, ``b``: document ids, a < b). ``complete`` is False for a component too large
    to measure every pair of: its pairs listed are those known (the pairs that joined it, each member with
    its keeper), not all."""

    members: tuple[int, ...]
    whole: bool
    a: np.ndarray = field(default_factory=lambda: _NO_IDS)
    b: np.ndarray = field(default_factory=lambda: _NO_IDS)
    complete: bool = True

    def __len__(self) -> int:
        n = len(self.members)
        return n * (n - 1) // 2 if self.whole else len(self.a)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.whole:
            return self.a, self.b
        ids = np.array(sorted(self.members), dtype=np.int64)
        first, second = _pairs_of(len(ids))
        return ids[first], ids[second]


@functools.lru_cache(maxsize=64)
def _pairs_of(size: int) -> tuple[np.ndarray, np.ndarray]:
    """np.triu_indices(size, 1), made once a size (tens of thousands of small components list their pairs)."""
    first, second = np.triu_indices(size, 1)
    first.flags.writeable = second.flags.writeable = False
    return first, second


@dataclass(frozen=True, slots=True)
class DuplicatePairs:
    """Every verified pair of duplicates at the setting, component by component: what the Pairs view
    lists, the reports' pairs and every count of pairs (one definition). Counted without listing them."""

    components: tuple[ComponentPairs, ...] = ()

    def __len__(self) -> int:
        return sum(len(c) for c in self.components)

    @property
    def incomplete(self) -> int:
        """Components whose pairs are not all known (too large to measure every pair of)."""
        return sum(1 for c in self.components if not c.complete)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Every pair as document ids (a < b), component by component."""
        parts = [c.arrays() for c in self.components]
        if not parts:
            return _NO_IDS, _NO_IDS
        return np.concatenate([a for a, _ in parts]), np.concatenate([b for _, b in parts])

    def among(self, documents: Collection[int]) -> DuplicatePairs:
        """The pairs both of whose documents are in ``documents`` (the groups a filter shows)."""
        inside = np.fromiter(documents, dtype=np.int64, count=len(documents))
        out = []
        for c in self.components:
            a, b = c.arrays()
            keep = np.isin(a, inside) & np.isin(b, inside)
            if keep.all():
                out.append(c)
            elif keep.any():
                out.append(ComponentPairs(c.members, False, a[keep], b[keep], c.complete))
        return DuplicatePairs(tuple(out))


@dataclass(frozen=True, slots=True)
class Split:
    """A grouping in which every member is a duplicate of its group's keeper, those keepers, and every
    pair of duplicates of its components."""

    result: MatchResult
    keepers: dict[int, int]  # group id -> the document to keep
    duplicates: DuplicatePairs = DuplicatePairs()


def split_chains(
    result: MatchResult,
    keepers: dict[int, int],
    matcher: Matcher,
    keeper_of: Callable[[Sequence[int]], int],
    fixed: Callable[[int], bool],
    *,
    cache: SplitCache | None = None,
    workers: Workers = IN_THIS_PROCESS,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Split:
    """Each group whose members are not all duplicates of one another at the thresholds (a chain, mild
    or not, two documents alike to a third only, a member ruled "not a duplicate" of another) split into
    groups that are (see the module). ``keepers`` are the groups' keepers by the session's rules,
    ``keeper_of`` is that rule among documents of equal claim, ``fixed`` says which documents a person
    fixed. Groups are numbered again, largest first; a split group's pairs are its keeper with each member.
    The webs' clique covers are found by ``workers``."""
    t = result.thresholds
    docs = result.documents_by_id
    in_groups = {m.document_id for g in result.groups for m in g.members}  # (not every document: a million)
    content = {d: c for d in in_groups if (c := docs[d].content_id) is not None}
    path_of = {d: docs[d].path for d in in_groups}
    groups: list[tuple[Group, int]] = []  # (group, its keeper)
    built: list[Built] = []  # the split components' groups, in the components' order
    todo: list[tuple[int, tuple, ComponentPairs, list[Part]]] = []  # (its place in built, cache key, its parts)
    known: list[ComponentPairs] = []
    split_members: set[int] = set()
    joined: dict[int, set[int]] | None = None  # the pairs that joined the components, by document
    seen: list[tuple[Group, int, tuple, bool]] = []  # (a component, its keeper, its cache key, found before)
    measure: list[tuple[Group, list[int], int]] = []  # the components up to the limit found now, at once
    for g in result.groups:
        keeper = keepers.get(g.id, g.representative)
        members = tuple(sorted(m.document_id for m in g.members))
        key = (
            matcher.boilerplate.ignored,
            t.method,
            t.jaccard,
            t.hamming,
            members,
            keeper,
            tuple(d for d in members if fixed(d)),
        )
        found_before = cache is not None and key in cache
        seen.append((g, keeper, key, found_before))
        if not found_before and len(members) <= ALL_PAIRS_LIMIT:
            # by path: what is found must not depend on the order the files were stored in (a resumed scan's)
            measure.append((g, sorted(members, key=path_of.__getitem__), keeper))
    cliques = iter(_cliques_of(measure, matcher, content, t, keeper_of, fixed, workers, cancel))
    for g, keeper, key, found_before in seen:
        if found_before:
            assert cache is not None
            found, pairs = cache[key]
            known.append(pairs)
            if found is None:
                groups.append((g, keeper))
            else:
                split_members.update(m.document_id for m in g.members)
                built.append(found)
            continue
        parts: list[Part] | None
        if len(g.members) <= ALL_PAIRS_LIMIT:
            ids, parts, pairs = next(cliques)
        else:
            ids = sorted((m.document_id for m in g.members), key=path_of.__getitem__)
            if joined is None:
                joined = defaultdict(set)
                for p in result.pairs:
                    joined[p.a].add(p.b)
                    joined[p.b].add(p.a)
            apart = _needs_split(g, keeper, matcher, content, t)
            parts = tree_stars(ids, keeper, joined, fixed) if apart else None
            pairs = _known_pairs(g, keeper, joined, with_keeper=not apart)
        known.append(pairs)
        if parts is None:  # every two members are duplicates (or, past the limit, every member of its keeper)
            if cache is not None:
                cache[key] = (None, pairs)
            groups.append((g, keeper))
            continue
        split_members.update(ids)
        todo.append((len(built), key, pairs, parts))
        built.append(())
    duplicates = DuplicatePairs(tuple(known))
    if not split_members:
        return Split(result, keepers, duplicates)

    text = dict(zip(split_members, matcher.text_ids([content[d] for d in split_members]).tolist(), strict=True))

    def same_text(a: int, b: int) -> bool:  # Matcher.same_text, its lookups made at once
        return content[a] == content[b] or text[a] == text[b] >= 0

    # every member against its keeper, all at once (containment_ab: the member inside the keeper, as the
    # matcher measures its groups)
    sims = iter(
        matcher.similarity_pairs(
            [content[d] for _n, _key, _pairs, parts in todo for _k, part_ids in parts for d in part_ids],
            [content[k] for _n, _key, _pairs, parts in todo for k, part_ids in parts for _d in part_ids],
        )
    )
    for n, key, component_pairs, parts in todo:
        made = []
        for part_keeper, part_ids in parts:
            part = part_group(part_keeper, [Member(d, next(sims)) for d in part_ids], same_text, path_of)
            made.append((part, part_keeper, tuple(keeper_pair(part_keeper, m, t, same_text) for m in part.members[1:])))
        built[n] = tuple(made)
        if cache is not None:
            cache[key] = (built[n], component_pairs)
    new_pairs: list[Pair] = []
    for component in built:
        for part, part_keeper, part_pairs in component:
            groups.append((part, part_keeper))
            new_pairs.extend(part_pairs)
    joins = [p for p in result.pairs if p.a not in split_members] + new_pairs
    joins.sort(key=lambda p: (p.a, p.b))
    order = sorted(range(len(groups)), key=lambda k: -len(groups[k][0].members))  # stable: ties keep their order
    numbered = [dataclasses.replace(groups[k][0], id=n) for n, k in enumerate(order, start=1)]
    new_keepers = {n: groups[k][1] for n, k in enumerate(order, start=1)}
    return Split(dataclasses.replace(result, groups=tuple(numbered), pairs=tuple(joins)), new_keepers, duplicates)


def _needs_split(group: Group, keeper: int, matcher: Matcher, content: dict[int, int], t: Thresholds) -> bool:
    """Whether a member is not a duplicate of the keeper (members are measured against it, see
    session.rebased_on_keepers), or was ruled "not a duplicate" of it: a ruling holds even between two
    files of the same text (a printout set apart from its text file), as it does in smaller components."""
    return any(
        m.document_id != keeper
        and (
            matcher.ruled_apart(content[keeper], content[m.document_id])
            or (
                not matcher.same_text(content[keeper], content[m.document_id])
                and not within_thresholds(m.similarity, t)
            )
        )
        for m in group.members
    )


Part = tuple[int, list[int]]
"""(a keeper, its group's members with it first)."""

Built = tuple[tuple[Group, int, tuple[Pair, ...]], ...]
"""A component's groups, each with its keeper and its pairs (the keeper with each member)."""

SplitCache = dict[tuple, tuple[Built | None, ComponentPairs]]
"""(how compared, the thresholds, a component's members, its keeper, those a person fixed) -> its groups
(None: as it is) and its pairs of duplicates, for one matcher and one set of rulings: moving the slider back
finds them again."""


def _known_pairs(group: Group, keeper: int, joined: dict[int, set[int]], *, with_keeper: bool) -> ComponentPairs:
    """The pairs of duplicates known in a component too large to measure every pair of: those that joined
    it and, when every member is a duplicate of the keeper (``with_keeper``), the keeper with each."""
    ids = [m.document_id for m in group.members]
    codes = {(min(d, e), max(d, e)) for d in ids for e in joined.get(d, ())}
    if with_keeper:
        codes.update((min(d, keeper), max(d, keeper)) for d in ids if d != keeper)
    ordered = sorted(codes)
    return ComponentPairs(
        tuple(ids),
        False,
        np.array([a for a, _ in ordered], dtype=np.int64),
        np.array([b for _, b in ordered], dtype=np.int64),
        complete=False,
    )


_ROUNDING = 2e-4  # the numbers compared are rounded to 4 places


def _cliques_of(
    components: Sequence[tuple[Group, list[int], int]],
    matcher: Matcher,
    content: dict[int, int],
    t: Thresholds,
    keeper_of: Callable[[Sequence[int]], int],
    fixed: Callable[[int], bool],
    workers: Workers,
    cancel: CancelToken,
) -> list[tuple[list[int], list[Part] | None, ComponentPairs]]:
    """For each component (its group, its members in the order ties are broken in, its members measured
    against the keeper given), those members, the groups whose every two members are duplicates (None when
    the component is one already), and its pairs of duplicates. All components at once: a threshold move
    meets thousands of small ones.

    Jaccard distance (1 - J) and Hamming distance are metrics, so the members' distances to the keeper
    bound theirs to each other: when the two farthest add up to no more than the setting allows, every two
    are duplicates (a family of close copies: nothing to measure), and a pair whose distances differ by
    more than it allows is not; the rest are measured (Matcher.duplicates_among)."""
    out: list[tuple[list[int], list[Part] | None, ComponentPairs]] = [
        (ids, None, ComponentPairs(tuple(ids), True)) for _g, ids, _k in components
    ]
    by_jaccard = t.method is not Method.SIMHASH
    by_bits = t.method is not Method.MINHASH
    rest = []  # (its place, ruled apart inside)
    for n, (group, ids, _keeper) in enumerate(components):
        if len(ids) > 2:
            ruled = matcher.any_ruled_among(content[d] for d in ids)
            if ruled or not group.exact:
                rest.append((n, ruled))
    if not rest:
        return out
    # each member's distances to its keeper, component after component
    sizes = np.array([len(components[n][1]) for n, _ in rest], dtype=np.int64)
    ends = np.cumsum(sizes)
    sim = {m.document_id: m.similarity for n, _ in rest for m in components[n][0].members}
    ids_all = [d for n, _ in rest for d in components[n][1]]
    far = np.fromiter((1.0 - sim[d].jaccard for d in ids_all), dtype=np.float64, count=len(ids_all))
    bits = np.fromiter((sim[d].hamming for d in ids_all), dtype=np.int64, count=len(ids_all))
    place = np.repeat(np.arange(len(rest)), sizes)

    def two_largest(values: np.ndarray) -> np.ndarray:
        ranked = values[np.lexsort((values, place))]
        return ranked[ends - 1] + ranked[ends - 2]

    close = np.zeros(len(rest), dtype=bool)
    if by_jaccard:
        close |= two_largest(far) <= 1.0 - t.jaccard - _ROUNDING
    if by_bits:
        close |= (two_largest(bits) <= t.hamming) & (two_largest(far) <= 1.0 - SIMHASH_MIN_JACCARD - _ROUNDING)
    # the pairs that may be duplicates, of every component not known to be one
    measured, firsts, seconds, counts = [], [], [], []  # (its place, where its members start in ids_all), ...
    for r, (n, ruled) in enumerate(rest):
        if close[r] and not ruled:
            continue
        start = int(ends[r] - sizes[r])
        f, b = far[start : ends[r]], bits[start : ends[r]]
        first, second = np.triu_indices(int(sizes[r]), 1)
        maybe = np.zeros(len(first), dtype=bool)
        if by_jaccard:
            maybe |= np.abs(f[first] - f[second]) <= 1.0 - t.jaccard + _ROUNDING
        if by_bits:
            maybe |= np.abs(b[first] - b[second]) <= t.hamming
        measured.append((n, start))
        firsts.append(first[maybe] + start)
        seconds.append(second[maybe] + start)
        counts.append(len(first))
    if not measured:
        return out
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    of = np.fromiter((content[d] for d in ids_all), dtype=np.int64, count=len(ids_all))
    at = matcher.duplicates_among(of[first], of[second], t, cancel=cancel)
    bounds = np.cumsum([0, *(len(f) for f in firsts)])
    cut = np.searchsorted(at, bounds)
    doc = np.array(ids_all, dtype=np.int64)
    webs = []  # (its place, where its members start in ids_all, its pairs of duplicates there)
    for k, (n, start) in enumerate(measured):
        found = at[cut[k] : cut[k + 1]]
        if len(found) < counts[k]:  # not every two members are duplicates
            webs.append((n, start, first[found], second[found]))
    covers = clique_covers([(len(components[n][1]), a - start, b - start) for n, start, a, b in webs], workers, cancel)
    for (n, _start, a, b), cover in zip(webs, covers, strict=True):
        _group, ids, keeper = components[n]
        da, db = doc[a], doc[b]
        pairs = ComponentPairs(tuple(ids), False, np.minimum(da, db), np.maximum(da, db))
        cliques = [[ids[k] for k in clique] for clique in cover]
        out[n] = (ids, groups_of_cover(ids, cliques, keeper, fixed, keeper_of), pairs)
    return out


def groups_of_duplicates(
    ids: Sequence[int],
    near: dict[int, set[int]],
    keeper: int,
    fixed: Callable[[int], bool],
    keeper_of: Callable[[Sequence[int]], int],
) -> list[tuple[int, list[int]]]:
    """(keeper, members with the keeper first) of groups in which every two of ``ids`` (in the order ties
    are broken in) are ``near``, until every near pair shares a group (clique_cover).

    What is kept is a small set that every group holds one of: ``keeper`` (the component's, a person's
    choice if there is one) and the documents a person fixed, then, while a group holds none, the document
    in the most such groups (the best of them by ``keeper_of``), so that a chain keeps every other draft,
    not all but one. A group keeps ``keeper`` if it holds it, else the best of the fixed documents it holds,
    else the best of the kept ones."""
    return groups_of_cover(ids, clique_cover(list(ids), near), keeper, fixed, keeper_of)


def groups_of_cover(
    ids: Sequence[int],
    cliques: list[list[int]],
    keeper: int,
    fixed: Callable[[int], bool],
    keeper_of: Callable[[Sequence[int]], int],
) -> list[tuple[int, list[int]]]:
    """groups_of_duplicates of the groups ``cliques`` (clique_cover's, found here or by a worker)."""
    kept = {keeper, *(d for d in ids if fixed(d))}
    unkept = [c for c in cliques if kept.isdisjoint(c)]
    while unkept:
        count = Counter(d for c in unkept for d in c)
        most = max(count.values())
        chosen = keeper_of([d for d in ids if count[d] == most])
        kept.add(chosen)
        unkept = [c for c in unkept if chosen not in c]
    out = []
    for clique in cliques:
        claims = [d for d in clique if fixed(d)] or [d for d in clique if d in kept]
        chosen = keeper if keeper in clique else keeper_of(claims)
        out.append((chosen, [chosen, *(d for d in clique if d != chosen)]))
    return out


LISTINGS = 6
"""Groups a document may be listed under: its own, and more where its duplicates are not duplicates of one
another. Measured (tests/bench/group_quality.py, 551 licences and Debian copyright files, the densest web at
T 0.5): of the pairs of duplicates, 97.5 % share a group with 6 (0.95 with 5, 0.90 with 3), for 13 % more
listings than 3; the 100,000-document benchmark lists a grouped document 2.25 times on average at T 0.8
(1.65 with 3)."""


def clique_cover(ids: list[int], near: dict[int, set[int]]) -> list[list[int]]:
    """Groups in which every two of ``ids`` (in the order ties are broken in) are ``near``, chosen greedily so
    that as many near pairs as can be share a group while no document is listed under more than LISTINGS:
    each group starts from a document never listed yet if there is one (no document with a duplicate is left
    out), else the one with the most near pairs sharing no group yet, and grows by the document that brings
    the most such pairs (then the one with the most neighbours still able to join), as long as it brings one.
    So a family is one group, a chain of drafts keeps every pair of neighbours together, and a dense web of
    partly alike texts does not list each text many times."""
    rank = {d: n for n, d in enumerate(ids)}
    last, bits = len(ids), len(ids).bit_length() + 1  # room for a count of documents, and for a rank
    listed = dict.fromkeys(ids, 0)
    together: dict[int, set[int]] = {d: {d} for d in ids}
    apart = {d: len(near[d]) for d in ids}  # near pairs of d that share no group yet
    stuck: set[int] = set()  # documents whose pairs left apart are all with documents listed LISTINGS times
    cliques: list[list[int]] = []
    while True:
        seeds = [d for d in ids if apart[d] and listed[d] < LISTINGS and d not in stuck]
        if not seeds:
            break
        first = min(seeds, key=lambda d: (listed[d] > 0, -apart[d], rank[d]))
        lone = not listed[first]  # it gets a group, with a neighbour listed LISTINGS times if need be
        candidates = {d for d in near[first] if lone or listed[d] < LISTINGS}
        clique = [first]
        # (the pairs each would bring, its neighbours still able to join, the earlier) as one number: max() by
        # a dict lookup, not a tuple made for each candidate at each step
        score = {
            d: ((0 if d in together[first] else 1) << (2 * bits))
            + (len(near[d] & candidates) << bits)
            + (last - rank[d])
            for d in candidates
        }
        while candidates:
            best = max(candidates, key=score.__getitem__)
            if score[best] >> (2 * bits) == 0:
                break
            clique.append(best)
            left = {d for d in near[best] & candidates if listed[d] < LISTINGS}
            gone = candidates - left - {best}
            candidates = left
            for d in candidates:
                if d not in together[best]:
                    score[d] += 1 << (2 * bits)
                if gone:
                    score[d] -= len(near[d] & gone) << bits
        if len(clique) == 1:
            stuck.add(first)
            continue
        members = set(clique)
        for d in clique:
            listed[d] += 1
            apart[d] -= len(members - together[d])
            together[d] |= members
        cliques.append(clique)
    # a group another one holds whole (a pair placed first, then joined by a third) is not shown twice
    as_sets = [set(c) for c in cliques]
    kept = [
        c
        for n, c in enumerate(cliques)
        if not any(
            m != n and as_sets[n] <= other and (len(other) > len(c) or m < n)
            for m, other in enumerate(as_sets)
            if c[0] in other
        )
    ]
    return [sorted(c, key=rank.__getitem__) for c in kept]


_COVER_PAIRS = 20_000
"""Near pairs a task of clique_covers holds at least (a task's own cost is about a millisecond): a web of 300
members has up to 44,850, and covering one took 40 ms at a million documents."""
_COVER_BYTES = 48_000
"""The most a task of clique_covers sends (its webs' bits): tasks stay well under the pipe's 200 KB (pool.py),
and so do their answers, whatever few pairs a web of 300 members has."""
_POOL_COVER_PAIRS = 200_000
"""Near pairs worth starting the workers for (0.2–0.4 s here; about 1.5 µs a pair to cover)."""


def clique_covers(
    webs: Sequence[tuple[int, np.ndarray, np.ndarray]], workers: Workers, cancel: CancelToken = NEVER_CANCELLED
) -> list[list[list[int]]]:
    """clique_cover of each web (its size, its near pairs as places a < b among its members in the order ties
    are broken in), as those places: by ``workers`` in tasks of a few webs (a threshold move at a million
    documents met 250 webs of 100 to 300 members, 9 s of covering in one process), here when one task
    holds them all. A task sends each web as a bit a pair of its members (5.6 KB at 300), not its pairs."""
    tasks: list[tuple[tuple[int, bytes], ...]] = []
    batch: list[tuple[int, bytes]] = []
    held = sent = 0
    for size, a, b in webs:
        bits = np.zeros(size * (size - 1) // 2, dtype=bool)
        bits[a * size - a * (a + 1) // 2 + (b - a - 1)] = True  # (a, b)'s place in np.triu_indices(size, 1)
        packed = np.packbits(bits).tobytes()
        if batch and sent + len(packed) > _COVER_BYTES:
            tasks.append(tuple(batch))
            batch, held, sent = [], 0, 0
        batch.append((size, packed))
        held, sent = held + len(a), sent + len(packed)
        if held >= _COVER_PAIRS:
            tasks.append(tuple(batch))
            batch, held, sent = [], 0, 0
    if batch:
        tasks.append(tuple(batch))
    if sum(len(a) for _size, a, _b in webs) < _POOL_COVER_PAIRS and not workers.warm:
        workers = IN_THIS_PROCESS  # less than starting the workers costs
    start_of = {id(task): k for k, task in enumerate(tasks)}
    starts = np.cumsum([0, *(len(task) for task in tasks)])
    covers: list[list[list[int]]] = [[] for _ in webs]
    for task, found in workers.map(cover_webs, tasks, cancel=cancel):
        at = int(starts[start_of[id(task)]])
        covers[at : at + len(found)] = found
    return covers


def cover_webs(webs: tuple[tuple[int, bytes], ...]) -> list[list[list[int]]]:
    """A task of clique_covers (a worker's, or here): each web's clique_cover, as places among its members."""
    out = []
    for size, packed in webs:
        first, second = _pairs_of(size)
        near_bits = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), count=len(first)).astype(bool)
        near: dict[int, set[int]] = {k: set() for k in range(size)}
        for a, b in zip(first[near_bits].tolist(), second[near_bits].tolist(), strict=True):
            near[a].add(b)
            near[b].add(a)
        out.append(clique_cover(list(range(size)), near))
    return out


def tree_stars(ids: list[int], keeper: int, joined: dict[int, set[int]], fixed: Callable[[int], bool]) -> list[Part]:
    """For components too large to measure every pair: groups around keepers along the pairs that joined
    the component (``joined``: each is a verified duplicate pair), nothing measured: the keeper with the
    documents joined to it, then, in turn, a document a person fixed, else the one joined to the most, with
    those joined to it not yet placed; one whose every neighbour went elsewhere keeps a group with one of
    them (listed twice). A document a person fixed is never a member to remove."""
    rank = {d: n for n, d in enumerate(ids)}  # the order ties are broken in
    order = sorted(ids, key=lambda d: (d != keeper, not fixed(d), -len(joined[d]), rank[d]))
    remaining = set(ids)
    parts: list[Part] = []
    for k in order:
        if k not in remaining:
            continue
        remaining.discard(k)
        members = [k, *sorted((d for d in joined[k] & remaining if not fixed(d)), key=rank.__getitem__)]
        remaining.difference_update(members)
        if len(members) == 1:
            neighbour = min(joined[k] - {k}, key=rank.__getitem__, default=None)
            if neighbour is None:
                continue
            members.append(neighbour)
        parts.append((k, members))
    return parts


def part_group(
    keeper: int, members: list[Member], same_text: Callable[[int, int], bool], path_of: Mapping[int, str]
) -> Group:
    """One part of a split component as a group: the keeper first, then its duplicates, most alike first
    (``members``: with their numbers against the keeper; ``same_text``: whether two documents have the same
    normalised text)."""
    ranked = [members[0], *sorted(members[1:], key=lambda m: (-m.similarity.jaccard, path_of[m.document_id]))]
    exact = all(same_text(keeper, m.document_id) or m.similarity.same_text for m in ranked)
    return Group(0, keeper, tuple(ranked), exact)


def keeper_pair(keeper: int, member: Member, t: Thresholds, same_text: Callable[[int, int], bool]) -> Pair:
    """The pair of a part's keeper and a member, the smaller document id first (``member.similarity`` is the
    member's numbers against the keeper)."""
    s, other = member.similarity, member.document_id
    # every member of a part is a duplicate of its keeper: matched_by is None only for the same text
    how = "exact" if same_text(keeper, other) else matched_by(s, t) or "minhash"
    if other < keeper:
        return Pair(other, keeper, s, how)
    return Pair(
        keeper, other, Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba, s.containment_ab), how
    )
