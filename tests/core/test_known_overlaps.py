"""KnownOverlaps answers exactly as the dict of pairs it replaces, however pairs come in."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.match.known_overlaps import KnownOverlaps


def _random_pairs(rng: np.random.Generator, n: int, ids: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = rng.integers(0, ids, n), rng.integers(0, ids, n)
    keep = a != b
    return np.minimum(a, b)[keep], np.maximum(a, b)[keep]


def test_batches_and_single_pairs_answer_as_a_dict():
    rng = np.random.default_rng(7)
    truth: dict[tuple[int, int], int] = {}
    known = KnownOverlaps()
    for step in range(60):
        if step % 3 == 2:  # single pairs, as the forest's own checks add them
            for lo, hi in zip(*_random_pairs(rng, 50, 5_000), strict=True):
                value = int(lo * 7 + hi) % 1000  # a pair's overlap is always the same, however often measured
                known.set(int(lo), int(hi), value)
                truth[int(lo), int(hi)] = value
        else:  # a batch from the workers, of growing and shrinking sizes, with repeats inside it
            lo, hi = _random_pairs(rng, int(rng.integers(1, 3_000)), 5_000)
            lo, hi = np.concatenate((lo, lo[:10])), np.concatenate((hi, hi[:10]))
            values = (lo * 7 + hi) % 1000
            known.add(lo, hi, values)
            truth.update(zip(zip(lo.tolist(), hi.tolist(), strict=True), values.tolist(), strict=True))
        some = list(truth)[:: max(1, len(truth) // 300)]
        values, found = known.lookup(np.array([k[0] for k in some]), np.array([k[1] for k in some]))
        assert found.all() and values.tolist() == [truth[k] for k in some]
    asked_lo, asked_hi = _random_pairs(rng, 20_000, 5_000)
    asked_lo = np.concatenate((asked_lo, [k[0] for k in list(truth)[:500]]))
    asked_hi = np.concatenate((asked_hi, [k[1] for k in list(truth)[:500]]))
    values, found = known.lookup(asked_lo, asked_hi)
    expected = [truth.get(k) for k in zip(asked_lo.tolist(), asked_hi.tolist(), strict=True)]
    assert found.tolist() == [e is not None for e in expected]
    assert values[found].tolist() == [e for e in expected if e is not None]
    assert found.sum() >= 500
    for (lo, hi), value in list(truth.items())[::97]:
        assert known.get(lo, hi) == value
    assert known.get(4_999, 5_000) is None


def test_built_from_the_database_cache_and_runs_stay_few():
    rng = np.random.default_rng(3)
    lo, hi = _random_pairs(rng, 1_000, 100_000)
    known = KnownOverlaps(dict(zip(zip(lo.tolist(), hi.tolist(), strict=True), range(len(lo)), strict=True)))
    for _ in range(200):
        more_lo, more_hi = _random_pairs(rng, 2_000, 100_000)
        known.add(more_lo, more_hi, np.ones(len(more_lo), dtype=np.int64))
    # merged like a binary counter: a run per power of two, not one per batch
    assert len(known._runs) <= 10
    values, found = known.lookup(lo, hi)
    assert found.all()
    assert values.tolist() == [known.get(a, b) for a, b in zip(lo.tolist(), hi.tolist(), strict=True)]


def test_ids_out_of_range_are_refused():
    known = KnownOverlaps()
    with pytest.raises(ValueError, match="content ids"):
        known.add(np.array([1]), np.array([1 << 31]), np.array([3]))
    with pytest.raises(ValueError, match="content ids"):
        known.set(-1, 2, 3)
    values, found = known.lookup(np.array([], dtype=np.int64), np.array([], dtype=np.int64))
    assert len(values) == len(found) == 0


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.integers(0, 200), st.integers(0, 9), max_size=60),
    st.dictionaries(st.integers(0, 200), st.integers(10, 19), max_size=60),
)
def test_merged_runs_is_a_sorted_union_with_the_second_runs_values(first, second):
    """text.merged_runs, which holds every known overlap and every LSH candidate: one sorted run, each
    code once, the second run's value where both hold a code."""
    from neardup_gui.core.fingerprint.text import merged_runs

    def run(d: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
        keys = sorted(d)
        return np.array(keys, dtype=np.int64), np.array([d[k] for k in keys], dtype=np.int32)

    codes, values = merged_runs(*run(first), *run(second))
    expected = {**first, **second}
    assert codes.tolist() == sorted(expected)
    assert values.tolist() == [expected[c] for c in sorted(expected)]
