"""Groups a person can act on: every two documents of a group are duplicates at the setting.

The matcher's groups are connected components of verified pairs, which may join documents through others
(each draft close to the one before, the last far from the first: a chain), or hold two documents alike to
a third but not to each other. Such a component is shown as the groups of documents that are all
duplicates of one another (cliques of its duplicate pairs), found greedily until every pair of duplicates
shares a group: no document with a duplicate is left out, and a document may be listed under several
groups. Each group keeps one document: one a person fixed (kept, or in a reference folder) if it holds
one, else one another group keeps already, else the best by the session's rule; a document kept by one
group is never one to remove in another (review.py protects it). A component too large to measure every
pair of is split into groups around keepers instead: each keeper with its duplicates among those left.
Toolkit-free; the session applies it to every grouping.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .jobs import NEVER_CANCELLED, CancelToken
from .match import Matcher, MatchResult
from .models import IDENTICAL, Group, Member, Pair, Similarity, Thresholds, matched_by, within_thresholds

ALL_PAIRS_LIMIT = 2000
"""A component up to this size is split knowing every pair of its members that are duplicates (their
signatures compared, about 2 million pairs at most, the few that may be duplicates measured exactly); a
larger one is split keeper by keeper, each measured against the documents left."""


@dataclass(frozen=True, slots=True)
class Split:
    """A grouping in which every member is a duplicate of its group's keeper, and those keepers."""

    result: MatchResult
    keepers: dict[int, int]  # group id -> the document to keep


Measured = dict[tuple[int, int], Similarity]
"""(a, b) -> the numbers of document a against document b, for the pairs that are duplicates."""


def split_chains(
    result: MatchResult,
    keepers: dict[int, int],
    matcher: Matcher,
    keeper_of: Callable[[Sequence[int]], int],
    fixed: Callable[[int], bool],
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Split:
    """Each group whose members are not all duplicates of one another at the thresholds (a chain, mild
    or not, two documents alike to a third only, a member ruled "not a duplicate" of another) split into
    groups that are (see the module). ``keepers`` are the groups' keepers by the session's rules,
    ``keeper_of`` is that rule among documents of equal claim, ``fixed`` says which documents a person
    fixed. Groups are numbered again, largest first; a split group's pairs are its keeper with each member."""
    t = result.thresholds
    content = {d.id: d.content_id for d in result.documents if d.content_id is not None}
    path_of = {d.id: d.path for d in result.documents}
    groups: list[tuple[Group, int]] = []  # (group, its keeper)
    new_pairs: list[Pair] = []
    split_members: set[int] = set()
    for g in result.groups:
        keeper = keepers.get(g.id, g.representative)
        # by path: what is found must not depend on the order the files were stored in (a resumed scan's)
        ids = sorted((m.document_id for m in g.members), key=path_of.__getitem__)
        if len(ids) <= ALL_PAIRS_LIMIT:
            parts = _cliques_of(ids, keeper, g.exact, matcher, content, t, keeper_of, fixed, cancel)
        elif _needs_split(g, keeper, matcher, content, t):
            edges = [(p.a, p.b) for p in result.pairs]
            parts = _parts_keeper_by_keeper(ids, keeper, edges, matcher, content, t, keeper_of, fixed, cancel)
        else:
            parts = None
        if parts is None:  # every two members are duplicates (or, past the limit, every member of its keeper)
            groups.append((g, keeper))
            continue
        split_members.update(ids)
        for part_keeper, members, measured in parts:
            part = _part(part_keeper, members, measured, matcher, content, path_of)
            groups.append((part, part_keeper))
            new_pairs.extend(_keeper_pair(part_keeper, m, t, matcher, content) for m in part.members[1:])
    if not split_members:
        return Split(result, keepers)
    pairs = [p for p in result.pairs if p.a not in split_members] + new_pairs
    pairs.sort(key=lambda p: (p.a, p.b))
    order = sorted(range(len(groups)), key=lambda k: -len(groups[k][0].members))  # stable: ties keep their order
    numbered = [dataclasses.replace(groups[k][0], id=n) for n, k in enumerate(order, start=1)]
    new_keepers = {n: groups[k][1] for n, k in enumerate(order, start=1)}
    return Split(dataclasses.replace(result, groups=tuple(numbered), pairs=tuple(pairs)), new_keepers)


def _needs_split(group: Group, keeper: int, matcher: Matcher, content: dict[int, int], t: Thresholds) -> bool:
    """Whether a member is not a duplicate of the keeper (members are measured against it, see
    session.rebased_on_keepers), or was ruled "not a duplicate" of it."""
    return any(m.document_id != keeper and not matcher.same_text(content[keeper], content[m.document_id])
               and (not within_thresholds(m.similarity, t)
                    or matcher.ruled_apart(content[keeper], content[m.document_id]))
               for m in group.members)


Part = tuple[int, list[int], Measured]
"""(a keeper, its group's members with it first, the numbers measured)."""


def _cliques_of(ids: list[int], keeper: int, exact: bool, matcher: Matcher, content: dict[int, int],
                t: Thresholds, keeper_of: Callable[[Sequence[int]], int], fixed: Callable[[int], bool],
                cancel: CancelToken) -> list[Part] | None:
    """The groups of a component whose every two members are duplicates, or None when the component is
    one already (two documents joined by a verified pair; copies of one text no one ruled apart)."""
    if len(ids) == 2:
        return None
    contents = sorted({content[d] for d in ids})
    if exact and not any(matcher.ruled_apart(a, b) for k, a in enumerate(contents) for b in contents[k + 1 :]):
        return None
    first, second = np.triu_indices(len(ids), 1)
    at, sims = matcher.duplicates_among([content[ids[a]] for a in first.tolist()],
                                        [content[ids[b]] for b in second.tolist()], t, cancel=cancel)
    if len(at) == len(first):
        return None
    measured: Measured = {}
    near: dict[int, set[int]] = {d: set() for d in ids}
    for a, b, s in zip(first[at].tolist(), second[at].tolist(), sims, strict=True):
        x, y = ids[a], ids[b]
        measured[(x, y)] = s
        near[x].add(y)
        near[y].add(x)
    return [(k, members, measured) for k, members in groups_of_duplicates(ids, near, keeper, fixed, keeper_of)]


def groups_of_duplicates(ids: Sequence[int], near: dict[int, set[int]], keeper: int, fixed: Callable[[int], bool],
                         keeper_of: Callable[[Sequence[int]], int]) -> list[tuple[int, list[int]]]:
    """(keeper, members with the keeper first) of groups in which every two of ``ids`` (in the order ties
    are broken in) are ``near``, until every near pair shares a group (clique_cover).

    What is kept is a small set that every group holds one of: ``keeper`` (the component's, a person's
    choice if there is one) and the documents a person fixed, then, while a group holds none, the document
    in the most such groups (the best of them by ``keeper_of``), so that a chain keeps every other draft,
    not all but one. A group keeps ``keeper`` if it holds it, else the best of the fixed documents it holds,
    else the best of the kept ones."""
    cliques = clique_cover(list(ids), near)
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


def clique_cover(ids: list[int], near: dict[int, set[int]]) -> list[list[int]]:
    """Groups in which every two of ``ids`` (in the order ties are broken in) are ``near``, until every near
    pair shares one: each grown
    from the document with the most pairs not yet shared, taking first the documents that share a pair
    not yet shared with it and then those with the most neighbours left, as far as it can go (so that a
    family of mutual duplicates is one group, not several)."""
    uncovered = {d: set(near[d]) for d in ids}
    rank = {d: n for n, d in enumerate(ids)}
    cliques: list[list[int]] = []
    while True:
        live = [d for d in ids if uncovered[d]]
        if not live:
            return cliques
        seed = max(live, key=lambda d: (len(uncovered[d]), -rank[d]))
        clique, candidates = [seed], set(near[seed])
        while candidates:
            inside = set(clique)
            best = max(candidates, key=lambda d: (len(uncovered[d] & inside), len(near[d] & candidates), -rank[d]))
            clique.append(best)
            candidates &= near[best]
        for d in clique:
            uncovered[d] -= set(clique)
        cliques.append(sorted(clique, key=rank.__getitem__))


def _parts_keeper_by_keeper(ids: list[int], keeper: int, edges: list[tuple[int, int]], matcher: Matcher,
                            content: dict[int, int], t: Thresholds, keeper_of: Callable[[Sequence[int]], int],
                            fixed: Callable[[int], bool], cancel: CancelToken) -> list[Part]:
    """For components too large to measure every pair: each keeper measured against the documents left
    (then, if none is its duplicate, against those placed), the next keeper the one a person fixed, else
    the one with the most of the component's joining pairs left (a stand-in for its duplicates)."""
    rank = {d: n for n, d in enumerate(ids)}  # the order ties are broken in
    inside = set(ids)
    degree = Counter(d for a, b in edges if a in inside and b in inside for d in (a, b))
    remaining = set(ids)
    parts: list[Part] = []
    measured: Measured = {}

    def duplicates_of(k: int, others: list[int]) -> list[int]:
        at, sims = matcher.duplicates_among([content[k]] * len(others), [content[d] for d in others], t,
                                            cancel=cancel)
        found = [others[n] for n in at.tolist()]
        measured.update(((k, d), s) for d, s in zip(found, sims, strict=True))
        return found

    while remaining:
        remaining.discard(keeper)
        members = duplicates_of(keeper, sorted(remaining, key=rank.__getitem__))
        remaining -= set(members)
        if not members:
            members = duplicates_of(keeper, sorted(inside - remaining - {keeper}, key=rank.__getitem__))
        if members:
            parts.append((keeper, [keeper, *members], measured))
        if not remaining:
            break
        chosen = [d for d in sorted(remaining, key=rank.__getitem__) if fixed(d)]
        if not chosen:
            most = max(degree[d] for d in remaining)
            chosen = sorted((d for d in remaining if degree[d] == most), key=rank.__getitem__)
        keeper = keeper_of(chosen)
    return parts


def _part(keeper: int, members: list[int], measured: Measured, matcher: Matcher, content: dict[int, int],
          path_of: dict[int, str]) -> Group:
    """The keeper first, then its duplicates, most alike first, each with its numbers against the keeper
    (containment_ab: the member inside the keeper, as the matcher measures its groups)."""
    def against_keeper(d: int) -> Similarity:
        if d == keeper:
            return IDENTICAL
        s = measured.get((d, keeper))
        if s is not None:
            return s
        s = measured[(keeper, d)]  # measured the other way round: containment swaps
        return Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba, s.containment_ab)

    ranked = [Member(d, against_keeper(d)) for d in members]
    ranked[1:] = sorted(ranked[1:], key=lambda m: (-m.similarity.jaccard, path_of[m.document_id]))
    exact = all(matcher.same_text(content[keeper], content[m.document_id]) or m.similarity.same_text for m in ranked)
    return Group(0, keeper, tuple(ranked), exact)


def _keeper_pair(keeper: int, member: Member, t: Thresholds, matcher: Matcher, content: dict[int, int]) -> Pair:
    """The pair of a part's keeper and a member, the smaller document id first (``member.similarity`` is the
    member's numbers against the keeper)."""
    s, other = member.similarity, member.document_id
    # every member of a part is a duplicate of its keeper: matched_by is None only for the same text
    how = "exact" if matcher.same_text(content[keeper], content[other]) else matched_by(s, t) or "minhash"
    if other < keeper:
        return Pair(other, keeper, s, how)
    return Pair(keeper, other, Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba,
                                          s.containment_ab), how)
