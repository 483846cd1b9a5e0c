"""The spanning forest is the same whether its edges are measured one at a time (one worker) or a batch
at once (the worker pool), and every cut of it joins what all the edges at that strength join."""

import numpy as np
import pytest

from neardup_gui.core.match.forest import spanning_forest
from neardup_gui.core.match.unionfind import UnionFind


def _edges(seed: int, n: int, m: int, above: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Random edges in families (dense clusters, as near-copies make), weights on a coarse grid so that
    ties are everywhere, and bounds above the weights, many of them clipped at 1 as estimates are;
    except a share ``above`` of them, measured above their bound (a bound is 3 sigma: it happens)."""
    rng = np.random.default_rng(seed)
    family = rng.integers(0, n // 8, n)
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    same = family[i] == family[j]
    keep = i != j
    i, j, same = np.minimum(i, j)[keep], np.maximum(i, j)[keep], same[keep]
    codes, first = np.unique(i * n + j, return_index=True)
    i, j, same = codes // n, codes % n, same[first]
    weight = np.where(same, rng.integers(14, 21, len(i)), rng.integers(0, 15, len(i))) / 20
    bound = np.minimum(1.0, weight + rng.integers(0, 4, len(i)) / 20)
    beyond = rng.random(len(i)) < above
    weight[beyond] = np.minimum(1.0, bound[beyond] + 0.2)
    return i, j, weight, bound


def _components(n: int, a: np.ndarray, b: np.ndarray) -> list[int]:
    uf = UnionFind(n)
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        uf.union(x, y)
    return uf.labels().tolist()


@pytest.mark.parametrize("above", [0.0, 0.01])
def test_batches_measured_at_once_give_the_forest_of_edges_measured_one_at_a_time(above):
    n = 3_000
    i, j, weight, bound = _edges(5, n, 120_000, above)
    exact_weight = {(a, b): w for a, b, w in zip(i.tolist(), j.tolist(), weight.tolist(), strict=True)}
    asked_one_by_one: list[int] = []
    asked_in_batches: list[int] = []

    def exact(a: int, b: int) -> float:
        asked_one_by_one.append(1)
        return exact_weight[a, b]

    def measure_many(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        asked_in_batches.append(len(a))
        return np.array([exact_weight[x, y] for x, y in zip(a.tolist(), b.tolist(), strict=True)])

    ruled_out = {(int(i[k]), int(j[k])) for k in range(0, len(i), 37)}

    def skip(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in ruled_out

    for with_skip in (None, skip):
        one = spanning_forest(n, i, j, bound, 0.5, exact=exact, skip=with_skip)
        batched = spanning_forest(n, i, j, bound, 0.5, exact=exact, measure_many=measure_many, skip=with_skip)
        assert len(one[0]) > 1_000
        for got, expected in zip(batched, one, strict=True):
            assert got.tolist() == expected.tolist()
        allowed = np.array([with_skip is None or not skip(a, b) for a, b in zip(i.tolist(), j.tolist(), strict=True)])
        if above:  # the forest is no longer exact, but the same for one worker and many
            continue
        for t in (0.5, 0.65, 0.8, 0.95, 1.0):
            cut = one[2] >= t
            strong = (weight >= t) & allowed
            assert _components(n, one[0][cut], one[1][cut]) == _components(n, i[strong], j[strong]), t
    assert len(asked_in_batches) >= 2 and sum(asked_in_batches) > 0
    assert len(asked_one_by_one) < sum(asked_in_batches)  # one at a time measures only what it must


def test_a_forest_without_exact_measures_is_cut_by_its_weights():
    n = 500
    i, j, weight, _ = _edges(9, n, 6_000)
    a, b, w = spanning_forest(n, i, j, weight, 0.3)
    assert list(w) == sorted(w, reverse=True)
    for t in (0.3, 0.6, 0.9):
        assert _components(n, a[w >= t], b[w >= t]) == _components(n, i[weight >= t], j[weight >= t])


def test_waiting_edges_come_out_strongest_first_ties_in_place_order_across_batches():
    """Batches' edges wait in several sorted runs (merged like a binary counter): taken down to any
    level, they come out as one sorted list would give them, ties (weights on a grid of 1/128, as
    MinHash estimates are) in place order, with edges measured one at a time interleaved."""
    from neardup_gui.core.match.forest import _Waiting

    rng = np.random.default_rng(11)
    waiting, reference, place = _Waiting(), [], 0
    levels = iter(np.linspace(1.0, 0.0, 60).tolist())
    for batch in range(60):
        count = int(rng.integers(0, 400))
        weight = rng.integers(0, 129, count) / 128
        bound = np.minimum(1.0, weight + rng.integers(0, 3, count) / 128)
        places = np.arange(place, place + count)
        place += count
        waiting.add(weight, bound, places)
        reference += [
            (-min(w, b), p, w) for w, b, p in zip(weight.tolist(), bound.tolist(), places.tolist(), strict=True)
        ]
        if batch % 7 == 3:  # one measured one at a time
            waiting.push(0.5, 0.5, place)
            reference.append((-0.5, place, 0.5))
            place += 1
        level = next(levels)
        due = sorted(r for r in reference if -r[0] >= level)
        reference = [r for r in reference if -r[0] < level]
        run = waiting.take_run_down_to(level)
        got = (
            list(zip(run[0].tolist(), run[1].tolist(), strict=True))
            if run is not None
            else list(waiting.pop_down_to(level))
        )
        assert got == [(w, p) for _, p, w in due], batch
        # bounded: a few runs (each at most half the one below it when made), none holding more than
        # twice what still waits in it
        sizes = [len(key) for key, _, _ in waiting._runs]
        assert len(sizes) <= 16, sizes
        held = [key.base.size if key.base is not None else key.size for key, _, _ in waiting._runs]
        assert all(h <= 2 * size for h, size in zip(held, sizes, strict=True)), (held, sizes)
