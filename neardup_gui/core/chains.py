"""Splitting chained groups: a group joins documents through others (each draft close to the one before,
the last far from the first); split, every member of a group is a duplicate of its keeper by the thresholds
directly. Toolkit-free; the session applies it to a grouping when the person asks (Thresholds.split_chains).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .jobs import NEVER_CANCELLED, CancelToken
from .match import Matcher, MatchResult
from .models import IDENTICAL, Group, Member, Pair, Similarity, Thresholds, matched_by, within_thresholds

SPLIT_LIMIT = 300
"""Members of the largest group split: every pair of its members is measured (44,850 at most); a larger
one stays as it is, and the split says how many it left so (Split.too_large)."""


@dataclass(frozen=True, slots=True)
class Split:
    """A grouping with its chains split, the keepers of its groups, and what the split could not place."""

    result: MatchResult
    keepers: dict[int, int]  # group id -> the document to keep
    left_alone: tuple[int, ...]  # documents that are duplicates only of other parts' members, not of keepers
    too_large: int  # groups left whole that needed splitting: more than SPLIT_LIMIT members


def split_chains(
    result: MatchResult,
    keepers: dict[int, int],
    matcher: Matcher,
    keeper_of: Callable[[Sequence[int]], int],
    fixed: Callable[[int], bool],
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Split:
    """Each group with a member that is not a duplicate of its keeper by the thresholds directly (a chain,
    mild or not, or a member ruled "not a duplicate" of the keeper) split into parts: the keeper with every
    member that is its duplicate and not ruled apart from it, then, among the others, around the document a
    person fixed (kept, or in a reference folder: ``fixed``) or else the one with the most duplicates left
    (ties: ``keeper_of``, the session's rule), and so on. A document left with no duplicate among the others
    is in no group (``left_alone``). Groups are numbered again, largest first; a part's pairs are its keeper
    with each member."""
    t = result.thresholds
    content = {d.id: d.content_id for d in result.documents if d.content_id is not None}
    path_of = {d.id: d.path for d in result.documents}
    groups: list[tuple[Group, int]] = []  # (group, its keeper)
    new_pairs: list[Pair] = []
    split_members: set[int] = set()
    left_alone: list[int] = []
    too_large = 0
    for g in result.groups:
        keeper = keepers.get(g.id, g.representative)
        if not _needs_split(g, keeper, matcher, content, t):
            groups.append((g, keeper))
            continue
        if len(g.members) > SPLIT_LIMIT:
            too_large += 1
            groups.append((g, keeper))
            continue
        parts, alone = _parts(g, keeper, matcher, content, path_of, t, keeper_of, fixed, cancel)
        left_alone += alone
        split_members.update(m.document_id for m in g.members)
        for part in parts:
            groups.append((part, part.representative))
            new_pairs.extend(_keeper_pair(part.representative, m, t, matcher, content) for m in part.members[1:])
    if not split_members and not too_large:
        return Split(result, keepers, (), 0)
    pairs = [p for p in result.pairs if p.a not in split_members] + new_pairs
    pairs.sort(key=lambda p: (p.a, p.b))
    order = sorted(range(len(groups)), key=lambda k: -len(groups[k][0].members))  # stable: ties keep their order
    numbered = [dataclasses.replace(groups[k][0], id=n) for n, k in enumerate(order, start=1)]
    new_keepers = {n: groups[k][1] for n, k in enumerate(order, start=1)}
    return Split(dataclasses.replace(result, groups=tuple(numbered), pairs=tuple(pairs)), new_keepers,
                 tuple(sorted(left_alone)), too_large)


def _needs_split(group: Group, keeper: int, matcher: Matcher, content: dict[int, int], t: Thresholds) -> bool:
    """Whether a member is not a duplicate of the keeper (members are measured against it, see
    session.rebased_on_keepers), or was ruled "not a duplicate" of it."""
    return any(m.document_id != keeper and (not within_thresholds(m.similarity, t) or matcher.ruled_apart(
        content[keeper], content[m.document_id])) for m in group.members)


_PAIRS_PER_CALL = 2000  # pairs measured between two checks of the cancel token


def _parts(group: Group, keeper: int, matcher: Matcher, content: dict[int, int], path_of: dict[int, str],
           t: Thresholds, keeper_of: Callable[[Sequence[int]], int], fixed: Callable[[int], bool],
           cancel: CancelToken) -> tuple[list[Group], list[int]]:
    ids = [m.document_id for m in group.members]
    first, second = np.triu_indices(len(ids), 1)
    measured: dict[tuple[int, int], Similarity] = {}  # (a, b) -> the numbers of a against b
    near: dict[int, set[int]] = {d: set() for d in ids}
    for start in range(0, len(first), _PAIRS_PER_CALL):
        cancel.raise_if_cancelled()
        chunk_a = first[start : start + _PAIRS_PER_CALL].tolist()
        chunk_b = second[start : start + _PAIRS_PER_CALL].tolist()
        sims = matcher.similarity_pairs([content[ids[a]] for a in chunk_a], [content[ids[b]] for b in chunk_b])
        for a, b, s in zip(chunk_a, chunk_b, sims, strict=True):
            x, y = ids[a], ids[b]
            measured[(x, y)] = s
            if within_thresholds(s, t) and not matcher.ruled_apart(content[x], content[y]):
                near[x].add(y)
                near[y].add(x)
    remaining = set(ids)
    parts: list[Group] = []
    alone: list[int] = []
    while True:
        members = [keeper, *sorted(near[keeper] & remaining)]
        remaining -= set(members)
        if len(members) > 1:
            parts.append(_part(keeper, members, measured, matcher, content, path_of))
        else:
            alone.append(keeper)  # a keeper whose duplicates all went to other parts
        candidates = sorted(d for d in remaining if near[d] & remaining)
        if not candidates:
            return parts, alone + sorted(remaining)
        chosen = [d for d in candidates if fixed(d)]
        if not chosen:
            most = max(len(near[d] & remaining) for d in candidates)
            chosen = [d for d in candidates if len(near[d] & remaining) == most]
        keeper = keeper_of(chosen)


def _part(keeper: int, members: list[int], measured: dict[tuple[int, int], Similarity], matcher: Matcher,
          content: dict[int, int], path_of: dict[int, str]) -> Group:
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
    exact = all(matcher.same_text(content[keeper], content[d]) for d in members)
    return Group(0, keeper, tuple(ranked), exact)


def _keeper_pair(keeper: int, member: Member, t: Thresholds, matcher: Matcher, content: dict[int, int]) -> Pair:
    """The pair of a part's keeper and a member, the smaller document id first (``member.similarity`` is the
    member's numbers against the keeper)."""
    s, other = member.similarity, member.document_id
    # every member of a part is within the thresholds of its keeper: matched_by is never None here
    how = "exact" if matcher.same_text(content[keeper], content[other]) else matched_by(s, t) or "minhash"
    if other < keeper:
        return Pair(other, keeper, s, how)
    return Pair(keeper, other, Similarity(s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ba,
                                          s.containment_ab), how)
