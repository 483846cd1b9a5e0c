"""The guarantee groups give, over random graphs of duplicates: every two members of a group are duplicates,
every pair of duplicates shares a group, a file some group keeps is never marked or moved, a person's choice
keeps its group, and no batch of moves takes the last copy of what a group keeps."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.match.chains import groups_of_duplicates
from neardup_gui.core.models import IDENTICAL, Document, Group, Member, Similarity, Status, Thresholds
from neardup_gui.core.review.rules import MarkCriteria, all_but_keepers, batch_plan, kept_anywhere, members_matching

T = Thresholds(jaccard=0.8)
NEAR = Similarity(3, 0.9, 0.9, 0.95, 0.95)


@st.composite
def components(draw):
    """(documents, near pairs, the component's keeper, fixed documents, reference documents): a connected
    graph (a random spanning tree, then any other edges: chains, stars, cliques and all between)."""
    n = draw(st.integers(2, 11))
    ids = list(range(1, n + 1))
    edges = {(draw(st.sampled_from(ids[:k])), ids[k]) for k in range(1, n)}
    edges |= {p for p in draw(st.sets(st.sampled_from(list(combinations(ids, 2))), max_size=n * 2))}
    fixed = draw(st.sets(st.sampled_from(ids), max_size=2))
    keeper = min(fixed) if fixed else draw(st.sampled_from(ids))
    return ids, edges, keeper, fixed


def near_of(ids, edges):
    near = {d: set() for d in ids}
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    return near


@given(components())
@settings(max_examples=300, deadline=None)
def test_groups_are_mutual_duplicates_cover_every_pair_and_keep_a_persons_choice(component):
    ids, edges, keeper, fixed = component
    n = len(ids)
    near = near_of(ids, edges)
    groups = groups_of_duplicates(ids, near, keeper, fixed.__contains__, min)
    covered = set()
    sets = [set(members) for _k, members in groups]
    assert not any(a < b for a in sets for b in sets), "a group another one holds whole"
    for chosen, members in groups:
        assert members[0] == chosen and len(members) == len(set(members)) >= 2
        for a, b in combinations(members, 2):
            assert b in near[a], "two members of a group that are not duplicates"
            covered.add((min(a, b), max(a, b)))
        if keeper in members:
            assert chosen == keeper
        elif fixed & set(members):
            assert chosen in fixed, "a file a person fixed is passed over"
    grouped_with = {d: {x for a, b in covered for x in (a, b) if d in (a, b)} - {d} for d in ids}
    assert all(grouped_with[d] & near[d] for d in ids), "a document with a duplicate shares a group with none"
    # a chain or a clique: every pair of duplicates shares a group
    degrees = sorted(len(near[d]) for d in ids)
    if len(edges) == n * (n - 1) // 2 or (max(degrees) <= 2 and len(edges) == n - 1):
        assert covered == {(min(a, b), max(a, b)) for a, b in edges}, "a pair of duplicates in no group"


@given(components(), st.data())
@settings(max_examples=300, deadline=None)
def test_marks_and_moves_never_touch_a_kept_file_and_keep_a_copy_of_every_group(component, data):
    ids, edges, keeper, fixed = component
    near = near_of(ids, edges)
    found = groups_of_duplicates(ids, near, keeper, fixed.__contains__, min)
    groups = [
        Group(n, chosen, tuple(Member(d, IDENTICAL if d == chosen else NEAR) for d in members), False)
        for n, (chosen, members) in enumerate(found, start=1)
    ]
    keepers = {g.id: g.representative for g in groups}
    docs = {
        d: Document(d, f"/{'ref' if d in fixed else 'up'}/{d}.txt", 10, 0, "text", Status.OK, "", 10, d) for d in ids
    }
    chosen = data.draw(st.sets(st.sampled_from(ids), max_size=3))  # kept by a person: one group keeps one of two
    kept = kept_anywhere(groups, keepers, chosen)
    marked = all_but_keepers(groups, keepers, docs, ("/ref",), T, chosen)
    assert not marked & kept and not marked & fixed and not marked & chosen
    assert marked == {m.document_id for g in groups for m in g.members} - kept - fixed
    rule = members_matching(MarkCriteria(pattern="*.txt"), groups, keepers, docs, ("/ref",), T, chosen)
    assert rule.documents == marked
    by_hand = data.draw(st.sets(st.sampled_from(ids)))  # a person may tick anything, kept files included
    plan = batch_plan(groups, keepers, by_hand, docs, ("/ref",), chosen)
    moved = [d.id for _keeper, files in plan.batches for d in files]
    assert len(moved) == len(set(moved)), "a file moved twice"
    assert not set(moved) & kept and not set(moved) & fixed and not set(moved) & chosen
    for keeper_doc, files in plan.batches:
        assert all(f.id in near[keeper_doc.id] for f in files), "a file moved that is not a duplicate of the keeper"
    for g in groups:
        assert keepers[g.id] not in moved, "a group lost the file it keeps"


@given(components())
@settings(max_examples=300, deadline=None)
def test_a_component_too_large_to_measure_is_split_along_the_pairs_that_joined_it(component):
    """Every member is joined to its keeper by a verified pair, every document is in a group, and a file a
    person fixed is never a member to remove."""
    from neardup_gui.core.match.chains import tree_stars

    ids, edges, keeper, fixed = component
    joined = near_of(ids, edges)
    parts = tree_stars(ids, keeper, joined, fixed.__contains__)
    assert parts[0][0] == keeper
    for chosen, members in parts:
        assert members[0] == chosen and len(members) == len(set(members)) >= 2
        assert all(m in joined[chosen] for m in members[1:])
        assert not fixed & set(members[1:]) or all(any(f == k for k, _m in parts) for f in fixed & set(members[1:])), (
            "a fixed file to remove"
        )
    assert {d for _k, members in parts for d in members} == set(ids)


@given(components(), st.sets(st.integers(1, 11), max_size=6))
@settings(max_examples=200, deadline=None)
def test_the_pairs_of_a_component_too_large_to_measure_are_those_known(component, shown):
    """A component too large to measure every pair of lists its verified pairs: those that joined it and,
    when every member is a duplicate of its keeper, the keeper with each; each once, the smaller id first;
    it says it is incomplete, and a filter keeps the pairs between the documents it shows."""
    from neardup_gui.core.match.chains import DuplicatePairs, _known_pairs

    ids, edges, keeper, _fixed = component
    joined = near_of(ids, edges)
    group = Group(1, keeper, tuple(Member(d, NEAR) for d in ids), False)
    for with_keeper in (False, True):
        pairs = _known_pairs(group, keeper, joined, with_keeper=with_keeper)
        listed = list(zip(pairs.a.tolist(), pairs.b.tolist(), strict=True))
        expected = {(min(a, b), max(a, b)) for a, b in edges}
        if with_keeper:
            expected |= {(min(d, keeper), max(d, keeper)) for d in ids if d != keeper}
        assert sorted(listed) == listed and set(listed) == expected and len(pairs) == len(expected)
        assert not pairs.complete
        duplicates = DuplicatePairs((pairs,))
        assert duplicates.incomplete == 1 and len(duplicates) == len(expected)
        a, b = duplicates.among(shown).arrays()
        assert set(zip(a.tolist(), b.tolist(), strict=True)) == {p for p in expected if set(p) <= shown}
