"""Disjoint sets (match/unionfind.py), against connected components found the naive way (a search from each
element) on random graphs: the same partition, each set named by its smallest element, ``union`` saying
whether it joined two sets, and ``labels`` flattening the trees without changing what ``find`` answers."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.match.unionfind import UnionFind


def components(n: int, edges: list[tuple[int, int]]) -> list[int]:
    """Each element's component, named by its smallest element: a breadth-first search from each."""
    near: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    label = [-1] * n
    for start in range(n):  # ascending: the first element reached of a component is its smallest
        if label[start] != -1:
            continue
        label[start] = start
        frontier = [start]
        while frontier:
            following = []
            for x in frontier:
                for y in near[x]:
                    if label[y] == -1:
                        label[y] = start
                        following.append(y)
            frontier = following
    return label


@st.composite
def graphs(draw) -> tuple[int, list[tuple[int, int]]]:
    """A graph on 0..n-1: random edges (self-loops and repeated edges too), in random order."""
    n = draw(st.integers(0, 60))
    if n == 0:
        return 0, []
    node = st.integers(0, n - 1)
    return n, draw(st.lists(st.tuples(node, node), max_size=3 * n))


@given(graphs())
@settings(max_examples=300, deadline=None)
def test_labels_are_the_connected_components_named_by_their_smallest_element(graph):
    n, edges = graph
    uf = UnionFind(n)
    joined = [uf.union(a, b) for a, b in edges]
    expected = components(n, edges)
    labels = uf.labels()
    assert labels.dtype == np.int64 and labels.shape == (n,)
    assert labels.tolist() == expected
    assert [uf.find(x) for x in range(n)] == expected
    # a union joins two sets or says it did not: n elements end in n - (unions that joined) sets
    assert len(set(expected)) == n - sum(joined)


@given(graphs())
@settings(max_examples=200, deadline=None)
def test_union_says_whether_the_two_were_apart_before(graph):
    n, edges = graph
    uf = UnionFind(n)
    done: list[tuple[int, int]] = []
    for a, b in edges:
        apart = components(n, done)[a] != components(n, done)[b]
        assert uf.union(a, b) is apart, (a, b)
        assert uf.find(a) == uf.find(b)
        done.append((a, b))


@given(graphs(), graphs())
@settings(max_examples=200, deadline=None)
def test_labels_flattens_the_trees_and_unions_after_it_still_count(first, second):
    """``labels`` writes every element's root into the parent table (and so leaves a list, as it was): finding
    costs one step after it, and later unions join sets as if it had never been called."""
    n, edges = first
    extra = [(a, b) for a, b in second[1] if a < n and b < n]
    uf = UnionFind(n)
    for a, b in edges:
        uf.union(a, b)
    labels = uf.labels()
    assert isinstance(uf.parent, list) and uf.parent == labels.tolist()
    assert all(uf.parent[root] == root for root in uf.parent), "a label that is not a root"
    assert uf.labels().tolist() == labels.tolist()  # again: nothing changes
    for a, b in extra:
        uf.union(a, b)
    assert uf.labels().tolist() == components(n, edges + extra)


def test_find_compresses_the_path_it_walked():
    """A chain built so that each root hangs under the next smaller one: one find puts every element it
    passed directly under the root."""
    n = 50
    uf = UnionFind(n)
    for x in range(n - 1, 0, -1):
        uf.union(x, x - 1)  # parent[x] = x - 1: a path of n elements
    assert uf.parent[n - 1] == n - 2
    assert uf.find(n - 1) == 0
    assert uf.parent == [0] * n


def test_a_large_random_forest_of_families():
    """10,000 elements, 30,000 edges mostly inside families (as near-copies make) and some across."""
    rng = random.Random(7)
    n = 10_000
    family = [rng.randrange(n // 20) for _ in range(n)]
    members: dict[int, list[int]] = {}
    for x, f in enumerate(family):
        members.setdefault(f, []).append(x)
    edges = []
    for _ in range(30_000):
        a = rng.randrange(n)
        b = rng.choice(members[family[a]]) if rng.random() < 0.97 else rng.randrange(n)
        edges.append((a, b))
    uf = UnionFind(n)
    for a, b in edges:
        uf.union(a, b)
    assert uf.labels().tolist() == components(n, edges)


def test_no_elements_and_one():
    assert UnionFind(0).labels().tolist() == []
    one = UnionFind(1)
    assert one.union(0, 0) is False and one.find(0) == 0 and one.labels().tolist() == [0]
