"""Disjoint sets over 0..n-1: the groups' components and the spanning forests are built on it."""

from __future__ import annotations

import numpy as np


class UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[max(ra, rb)] = min(ra, rb)
        return True

    def labels(self) -> np.ndarray:
        """Each element's root, by vectorised pointer jumping (and the tree flattened on the way)."""
        p = np.asarray(self.parent, dtype=np.int64)
        while True:
            q = p[p]
            if np.array_equal(q, p):
                break
            p = q
        self.parent = p.tolist()
        return p
