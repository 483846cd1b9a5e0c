"""The block index returns exactly the brute-force answer, for every K the command accepts."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.index import block_probes, hamming_pairs
from neardup_gui.core.models import HAMMING_MAX
from neardup_gui.core.simhash import hamming


def brute_force(fps: np.ndarray, k: int) -> set[tuple[int, int]]:
    i, j = np.triu_indices(len(fps), 1)
    d = hamming(fps[i], fps[j])
    return set(zip(i[d <= k].tolist(), j[d <= k].tolist()))


def planted(seed: int, n: int, max_flip: int) -> np.ndarray:
    """Random fingerprints, half of them copies of another with 0..max_flip random bits flipped."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64, size=n, dtype=np.uint64)
    for idx in range(n // 2, n):
        src = fps[rng.integers(0, n // 2)]
        bits = rng.choice(64, size=rng.integers(0, max_flip + 1), replace=False)
        mask = np.uint64(0)
        for b in bits:
            mask |= np.uint64(1) << np.uint64(b)
        fps[idx] = src ^ mask
    return fps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 300), k=st.integers(0, HAMMING_MAX))
def test_all_pairs_equals_brute_force(seed, n, k):
    fps = planted(seed, n, max_flip=HAMMING_MAX + 2)
    i, j, d = hamming_pairs(fps, k)
    assert set(zip(i.tolist(), j.tolist())) == brute_force(fps, k)
    assert (d <= k).all()


@pytest.mark.parametrize("k", range(HAMMING_MAX + 1))
def test_every_k_on_a_dense_cluster(k):
    fps = planted(k, 800, max_flip=HAMMING_MAX + 4)
    i, j, _ = hamming_pairs(fps, k)
    assert set(zip(i.tolist(), j.tolist())) == brute_force(fps, k)


def test_probes_cover_every_block_within_k_over_four():
    assert block_probes(3) == [0]
    assert len(block_probes(4)) == 17
    assert len(block_probes(8)) == 1 + 16 + 120
    with pytest.raises(ValueError):
        block_probes(HAMMING_MAX + 1)
    with pytest.raises(ValueError):
        hamming_pairs(np.zeros(3, np.uint64), -1)


@pytest.mark.parametrize("k", [0, 1, 3, 7])
def test_repeated_fingerprints_expand_to_every_pair_of_rows(k):
    """Real collections repeat fingerprints; each repeat must pair with everything its value pairs with."""
    rng = np.random.default_rng(k)
    distinct = planted(k + 100, 60, max_flip=k + 2)
    fps = distinct[rng.integers(0, len(distinct), size=700)]
    i, j, d = hamming_pairs(fps, k)
    assert set(zip(i.tolist(), j.tolist())) == brute_force(fps, k)
    assert (d == hamming(fps[i], fps[j])).all()
