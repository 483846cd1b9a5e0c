import numpy as np
import pytest

from neardup_gui.core.fingerprint import minhash


def _sets_with_jaccard(rng: np.random.Generator, j: float, size: int = 2000):
    shared = int(round(2 * size * j / (1 + j)))
    pool = rng.choice(2**32 - 1, size=3 * size, replace=False).astype(np.uint32)
    a = np.sort(pool[:size])
    b = np.sort(np.concatenate([pool[:shared], pool[size : 2 * size - shared]]))
    exact = shared / (2 * size - shared)
    return a, b, exact


@pytest.mark.parametrize("target", [0.1, 0.5, 0.8, 0.95])
def test_estimate_is_unbiased_within_four_sigma(target):
    rng = np.random.default_rng(7)
    errors = []
    for seed in range(20):
        a, b, exact = _sets_with_jaccard(rng, target)
        est = minhash.estimate(minhash.signature(a, seed=seed), minhash.signature(b, seed=seed))
        errors.append(est - exact)
    sigma = np.sqrt(target * (1 - target) / minhash.NUM_PERM)
    assert abs(np.mean(errors)) < 4 * sigma / np.sqrt(len(errors))
    assert np.max(np.abs(errors)) < 4 * sigma + 0.01


def test_signature_is_deterministic_and_empty_set_matches_nothing():
    s = np.arange(100, dtype=np.uint32)
    assert np.array_equal(minhash.signature(s), minhash.signature(s.copy()))
    empty = minhash.signature(np.empty(0, dtype=np.uint32))
    assert (empty == 0xFFFFFFFF).all()
    assert minhash.estimate(empty, minhash.signature(s)) == 0.0


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95])
def test_band_layout_misses_at_most_half_a_percent_at_the_threshold(threshold):
    bands, rows = minhash.optimal_bands(threshold)
    assert bands * rows <= minhash.NUM_PERM
    assert minhash.lsh_probability(threshold, bands, rows) >= 0.995
    # and it is selective: far below the threshold few pairs become candidates
    assert minhash.lsh_probability(threshold / 4, bands, rows) < 0.3


def test_band_keys_agree_exactly_where_band_rows_agree():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**32, size=128, dtype=np.uint32)
    b = a.copy()
    b[5] ^= 1  # differs in band 0 of (16 bands x 8 rows) only
    keys = minhash.band_keys(np.stack([a, b]), 16, 8)
    assert keys.shape == (2, 16)
    assert keys[0, 0] != keys[1, 0]
    assert (keys[0, 1:] == keys[1, 1:]).all()


def test_shingle_packing_round_trips():
    s = np.unique(np.random.default_rng(3).integers(0, 2**32, size=5000, dtype=np.uint32))
    assert np.array_equal(minhash.unpack_shingles(minhash.pack_shingles(s)), s)
    assert minhash.unpack_shingles(minhash.pack_shingles(np.empty(0, np.uint32))).size == 0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        minhash.optimal_bands(0.0)
    with pytest.raises(ValueError):
        minhash.band_keys(np.zeros((1, 10), np.uint32), 4, 4)
    with pytest.raises(ValueError):
        minhash.signature(np.arange(3, dtype=np.uint32), num_perm=0)
