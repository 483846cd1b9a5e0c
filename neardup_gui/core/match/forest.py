"""Maximum spanning forests of verified edges, so that every threshold is a cut of one forest.

A forest is built once per method (and per way of treating boilerplate) for a threshold a little
below the one asked for; moving a slider then costs a comparison per forest edge, not a new search.
The MinHash forest measures an edge exactly only when its estimated bound comes up and its ends are
still apart (most edges never are).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import overload

import numpy as np

from ..fingerprint import minhash
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..models import JACCARD_MIN
from .unionfind import UnionFind


@overload
def estimate_margin(threshold: float, num_perm: int = ...) -> float: ...
@overload
def estimate_margin(threshold: np.ndarray, num_perm: int = ...) -> np.ndarray: ...
def estimate_margin(threshold: float | np.ndarray, num_perm: int = minhash.NUM_PERM) -> float | np.ndarray:
    """How far a MinHash estimate may stray from the true Jaccard ``threshold``: 3 sigma + 0.01, so a
    pair at the threshold is estimated below it by more than this once in ~1,500 (LSH itself may
    miss up to 1 in 200 there); pairs estimated within it are measured exactly."""
    return 3.0 * np.sqrt(np.multiply(threshold, 1.0 - np.asarray(threshold)) / num_perm) + 0.01


LAYOUT_STEP = 0.05
"""LSH layouts are built for thresholds on this grid: dragging the slider down reuses one layout."""


FOREST_REACH = 0.1
"""A MinHash forest is built for this much below the threshold asked for, so that moving the slider
down from there is a cut too: at 100,000 documents, 20 s instead of 16 s for the first grouping, and
then every T from 0.7 to 1 in under a second instead of 10 s for each step below 0.75."""


def layout_threshold(t: float) -> float:
    """The LSH design threshold that serves ``t``: the grid value at or below it."""
    return round(max(LAYOUT_STEP, math.floor(round(t / LAYOUT_STEP, 6)) * LAYOUT_STEP), 6)


def forest_layout(t: float) -> float:
    """The LSH design threshold of the MinHash forest that serves ``t`` (a forest's reach below it, on
    the grid): the candidates every grouping at ``t`` is made of."""
    return layout_threshold(max(JACCARD_MIN, t - FOREST_REACH))


def candidate_floor(t: float, num_perm: int = minhash.NUM_PERM) -> float:
    """The MinHash estimate a pair must reach to be measured for a grouping at ``t``: the bar of the forest's
    candidates (its layout less the margin), so that every pair a grouping could join is measured."""
    layout = forest_layout(t)
    return layout - float(estimate_margin(layout, num_perm))


@dataclass(frozen=True, slots=True)
class Forest:
    """A maximum spanning forest of one method's verified edges, strongest first.

    Cutting it at a threshold (keeping the edges at least that strong) gives exactly the connected
    components of all verified edges at that threshold, for every threshold up to ``limit``: moving a
    slider then costs a comparison per forest edge, not a new search.
    """

    limit: float
    a: np.ndarray
    b: np.ndarray
    weight: np.ndarray  # Jaccard (MinHash) or -Hamming distance (SimHash): larger is stronger


_BATCH = 4096
"""Candidate edges looked at a time, at first: the batch grows while most edges are joined already."""
_POOL_BATCH = 32_768
"""The least a batch measured by ``measure_many`` holds: fewer rounds (each costs an O(n) look at the
components here), the workers' tasks larger."""


_FILTER_JOINED = 1024
"""Edges taken at once from which those already joined are dropped first (an O(n) look at the components)."""


class _Waiting:
    """Measured edges waiting for their turn, strongest first, ties by their place in the bound order
    (the order in which edges measured one at a time would join: the forest is the same either way).
    An edge's turn is set by its weight, or by its bound where it measured above it (a bound is
    statistical: one at a time, such an edge joins as soon as it is measured). Edges measured one at a
    time wait in a heap; a batch's in sorted runs of arrays (24 bytes an edge, not a tuple), merged like
    a binary counter: each edge is copied O(log n) times, not once for every batch after it (at 100,000
    documents, merging each batch into one run had cost the parent 1.3 s)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, float]] = []  # (-turn, place, weight)
        self._runs: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (-turn ascending, place, weight)

    def push(self, weight: float, bound: float, place: int) -> None:
        heapq.heappush(self._heap, (-min(weight, bound), place, weight))

    def add(self, weight: np.ndarray, bound: np.ndarray, place: np.ndarray) -> None:
        """A batch's edges, ``place`` ascending and beyond every place added before (so a run's edges
        go after an older run's whose turn is as early: ties stay in place order)."""
        weight = np.asarray(weight, dtype=np.float64)
        key = -np.minimum(weight, bound)
        order = np.argsort(key, kind="stable")
        run = (key[order], np.asarray(place)[order], weight[order])
        while self._runs and len(self._runs[-1][0]) < 2 * len(run[0]):  # runs at least halve, bottom to top
            older = self._runs.pop()
            at = np.searchsorted(older[0], run[0], side="right")
            run = (np.insert(older[0], at, run[0]), np.insert(older[1], at, run[1]), np.insert(older[2], at, run[2]))
        self._runs.append(run)

    def _taken_down_to(self, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(keys, places, weights) of the runs' edges whose turn comes at ``level`` or before, in turn
        (ties in place order), taken out of the runs."""
        taken = []
        kept = []
        for key, place, weight in self._runs:
            cut = int(np.searchsorted(key, -level, side="right"))
            if cut:
                taken.append((key[:cut], place[:cut], weight[:cut]))
            if cut == len(key):
                continue
            whole = key.base.size if key.base is not None else key.size  # the arrays the run's views hold
            key, place, weight = key[cut:], place[cut:], weight[cut:]
            if 2 * len(key) < whole:  # most of them taken: the rest copied, so that they are let go of
                key, place, weight = key.copy(), place.copy(), weight.copy()
            kept.append((key, place, weight))
        self._runs = kept
        if not taken:
            return np.empty(0), np.empty(0, dtype=np.int64), np.empty(0)
        if len(taken) == 1:
            return taken[0]
        key, place, weight = (np.concatenate(parts) for parts in zip(*taken, strict=True))
        order = np.lexsort((place, key))
        return key[order], place[order], weight[order]

    def take_run_down_to(self, level: float) -> tuple[np.ndarray, np.ndarray] | None:
        """``pop_down_to`` as arrays (weights, places) when only batches' edges wait (no edge handled
        one by one); None when edges measured one at a time wait too."""
        if self._heap:
            return None
        _key, place, weight = self._taken_down_to(level)
        return weight, place

    def pop_down_to(self, level: float) -> Iterator[tuple[float, int]]:
        """(weight, place) of every edge whose turn comes at ``level`` or before, in turn."""
        heap = self._heap
        keys, places, weights = self._taken_down_to(level)
        for key, place, weight in zip(keys.tolist(), places.tolist(), weights.tolist(), strict=True):
            while heap and heap[0][:2] < (key, place):
                _turn, at, first = heapq.heappop(heap)
                yield first, at
            yield weight, place
        while heap and -heap[0][0] >= level:
            _turn, at, first = heapq.heappop(heap)
            yield first, at


def spanning_forest(
    n: int,
    i: np.ndarray,
    j: np.ndarray,
    bound: np.ndarray,
    floor: float,
    *,
    exact: Callable[[int, int], float] | None = None,
    measure_many: Callable[[np.ndarray, np.ndarray], np.ndarray | None] | None = None,
    skip: Callable[[int, int], bool] | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximum spanning forest (Kruskal) of the edges (i, j) whose weight is at least ``floor``.

    ``bound`` is each edge's weight, or with ``exact`` an upper bound on it: an edge is then measured
    only when its bound comes up and its ends are still apart; an edge whose ends are already joined
    cannot enter the forest (every edge joining them so far is at least as strong as its bound), so
    most edges are never measured. ``measure_many(a, b)``, when given, may measure at once (in worker
    processes) the edges of a batch whose ends are apart when the batch starts, returning their
    weights (or None: measured one by one as needed); a few of them, whose ends are joined within
    the batch, are then measured for nothing, and the batch's edges are handled as arrays, not one by
    one. Either way the forest is the same: edges join strongest first, ties in the bound order.
    ``skip`` drops edges the user ruled out. Returns the forest's (a, b, weight) in the order
    joined, strongest first.
    """
    if len(bound) > 1 and not (bound[:-1] >= bound[1:]).all():  # a caller short of memory sorts them itself
        order = np.argsort(-bound, kind="stable")
        i, j, bound = i[order], j[order], bound[order]
        del order
    uf = UnionFind(n)
    find = uf.find
    waiting = _Waiting()
    out_a: list[int] = []
    out_b: list[int] = []
    out_w: list[float] = []

    def join_down_to(level: float) -> None:
        run = waiting.take_run_down_to(level)
        if run is None:
            for weight, place in waiting.pop_down_to(level):
                a, b = int(i[place]), int(j[place])
                if uf.union(a, b):
                    out_a.append(a)
                    out_b.append(b)
                    out_w.append(weight)
            return
        weights, places = run
        ends_a, ends_b = i[places], j[places]
        if len(places) >= _FILTER_JOINED:
            # those whose ends were joined since they were measured cannot join now: at 20,000
            # documents, four in five of a batch's edges, and a Python loop less for each
            labels = uf.labels()
            apart = labels[ends_a] != labels[ends_b]
            ends_a, ends_b, weights = ends_a[apart], ends_b[apart], weights[apart]
        for a, b, weight in zip(ends_a.tolist(), ends_b.tolist(), weights.tolist(), strict=True):
            if uf.union(a, b):
                out_a.append(a)
                out_b.append(b)
                out_w.append(weight)

    pos, size = 0, _BATCH
    least = _POOL_BATCH if measure_many is not None and exact is not None else _BATCH
    while pos < len(i):
        cancel.raise_if_cancelled()
        progress(ProgressEvent("match", pos, len(i)))
        labels = uf.labels()
        size = max(size, least)
        first = pos
        ci, cj, cb = i[pos : pos + size], j[pos : pos + size], bound[pos : pos + size]
        pos += size
        apart = labels[ci] != labels[cj]
        # grow the batch while most of it is already joined: those edges cost nothing
        size = min(size * 2, 1 << 20) if apart.mean() < 0.25 else max(_BATCH, size // 2)
        places = np.flatnonzero(apart) + first
        ci, cj, cb = ci[apart], cj[apart], cb[apart]
        weights = measure_many(ci, cj) if measure_many is not None and exact is not None else None
        if weights is not None:
            # an edge measured below the floor never enters; the others wait for their turn, which
            # comes once every edge not measured yet is bound to be weaker
            strong = weights >= floor
            if skip is not None:
                strong &= np.fromiter(
                    (not skip(a, b) for a, b in zip(ci.tolist(), cj.tolist(), strict=True)), dtype=bool, count=len(ci)
                )
            waiting.add(weights[strong], cb[strong], places[strong])
            join_down_to(float(bound[pos]) if pos < len(i) else floor)
            continue
        for a, b, level, place in zip(ci.tolist(), cj.tolist(), cb.tolist(), places.tolist(), strict=True):
            if exact is None:
                if level >= floor and find(a) != find(b) and not (skip and skip(a, b)) and uf.union(a, b):
                    out_a.append(a)
                    out_b.append(b)
                    out_w.append(level)
                continue
            join_down_to(level)
            if find(a) == find(b) or (skip and skip(a, b)):
                continue
            weight = exact(a, b)
            if weight >= floor:
                waiting.push(weight, level, place)
    join_down_to(floor)
    return np.array(out_a, dtype=np.int64), np.array(out_b, dtype=np.int64), np.array(out_w, dtype=np.float64)
