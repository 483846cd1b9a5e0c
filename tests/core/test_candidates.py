"""Candidate pairs (match/candidates.py) against brute force over every pair, on small random signatures:
the SimHash search finds exactly the pairs within K bits; the LSH search finds exactly the pairs that share a
band and whose estimate comes within the margin of T, dense buckets (a text's many near-copies) included,
each pair once, as rows of the whole collection when only some rows take part."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprint import minhash
from neardup_gui.core.match.candidates import DENSE_BUCKET, band_candidates, hamming_candidates
from neardup_gui.core.match.forest import estimate_margin
from neardup_gui.core.match.index import _PROBE
from neardup_gui.core.models import HAMMING_MAX

WIDTH = minhash.NUM_PERM


def some_rows(rng: np.random.Generator, n: int, share: float) -> np.ndarray:
    """Ascending rows, about ``share`` of them (all when 1): the rows of distinct texts a search runs over."""
    return np.arange(n) if share >= 1 else np.flatnonzero(rng.random(n) < share)


# -- SimHash ------------------------------------------------------------------------------------------
def simhashes(rng: np.random.Generator, n: int) -> np.ndarray:
    """Families of fingerprints a few bits from their first, values repeated (equal texts) and loners."""
    bases = rng.integers(0, 2**64, size=max(1, n // 8), dtype=np.uint64)
    family = rng.integers(0, len(bases), n)
    out = bases[family].copy()
    for k in range(n):
        for _ in range(int(rng.integers(0, 9))):
            out[k] ^= np.uint64(1) << np.uint64(int(rng.integers(0, 64)))
    loners = rng.random(n) < 0.2
    out[loners] = rng.integers(0, 2**64, size=int(loners.sum()), dtype=np.uint64)
    repeated = rng.random(n) < 0.15
    out[repeated] = out[rng.integers(0, n, int(repeated.sum()))]
    return out


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 120),
    k=st.integers(0, HAMMING_MAX),
    share=st.sampled_from([1.0, 0.6]),
)
@settings(max_examples=150, deadline=None)
def test_hamming_candidates_are_every_pair_of_the_rows_within_k_bits(seed, n, k, share):
    rng = np.random.default_rng(seed)
    fps = simhashes(rng, n) if n else np.empty(0, dtype=np.uint64)
    distinct = some_rows(rng, n, share)
    i, j, d = hamming_candidates(fps, distinct, k)
    found = list(zip(i.tolist(), j.tolist(), d.tolist(), strict=True))
    assert len(found) == len(set(found)), "a pair found twice"
    expected = set()
    for a, b in combinations(distinct.tolist(), 2):
        bits = (int(fps[a]) ^ int(fps[b])).bit_count()
        if bits <= k:
            expected.add((a, b, bits))
    assert set(found) == expected


def test_hamming_candidates_refuse_a_k_past_the_index():
    fps = np.arange(4, dtype=np.uint64)
    with pytest.raises(ValueError):
        hamming_candidates(fps, np.arange(4), HAMMING_MAX + 1)


# -- MinHash LSH --------------------------------------------------------------------------------------
def signatures(rng: np.random.Generator, n: int, dense: bool) -> np.ndarray:
    """Random signatures in families: each member keeps a share of its family's positions (its Jaccard
    with the family's first, about), from near copies to strangers; with ``dense``, one family of more
    near-identical copies than a dense bucket holds."""
    sigs = rng.integers(0, 2**32, size=(n, WIDTH), dtype=np.uint32)
    start = 0
    if dense:
        size = min(n, DENSE_BUCKET + 12)
        base = sigs[0].copy()
        for k in range(size):
            keep = rng.random(WIDTH) >= rng.choice([0.0, 0.01, 0.04, 0.1, 0.3])
            sigs[k, keep] = base[keep]
        start = size
    while start < n:
        size = int(rng.integers(1, 7))
        base = sigs[start].copy()
        for k in range(start + 1, min(n, start + size)):
            keep = rng.random(WIDTH) < rng.uniform(0.3, 1.0)
            sigs[k, keep] = base[keep]
        start += size
    rng.shuffle(sigs)  # families scattered over the rows
    return sigs


def brute_force(sigs: np.ndarray, rows: np.ndarray, t: float) -> dict[tuple[int, int], tuple[float, bool, bool]]:
    """Every pair (a, b), a < b, of ``rows`` that shares a whole band of the layout for ``t``: (its estimate,
    whether that comes within the margin of ``t``, whether the first positions looked at pass)."""
    bands, per_band = minhash.optimal_bands(t, WIDTH)
    floor = t - estimate_margin(t)
    probe_bar = floor - 0.25
    out = {}
    for a, b in combinations(rows.tolist(), 2):
        equal = sigs[a] == sigs[b]
        if not equal[: bands * per_band].reshape(bands, per_band).all(axis=1).any():
            continue
        estimate = float(np.count_nonzero(equal)) / WIDTH
        head = float(np.count_nonzero(equal[:_PROBE])) / _PROBE
        out[(a, b)] = (estimate, estimate >= floor, probe_bar <= 0 or head >= probe_bar)
    return out


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 160),
    t=st.sampled_from([0.5, 0.7, 0.8, 0.95, 1.0]),
    dense=st.booleans(),
    share=st.sampled_from([1.0, 0.7]),
)
@settings(max_examples=120, deadline=None)
def test_band_candidates_are_the_pairs_sharing_a_band_within_the_margin_of_t(seed, n, t, dense, share):
    rng = np.random.default_rng(seed)
    sigs = signatures(rng, n, dense) if n else np.empty((0, WIDTH), dtype=np.uint32)
    distinct = some_rows(rng, n, share)
    i, j, est = band_candidates(sigs, distinct, t)
    assert i.dtype == j.dtype == np.int32 and est.dtype == np.float32
    found = list(zip(i.tolist(), j.tolist(), strict=True))
    assert found == sorted(set(found)), "each pair once, in order"
    assert all(a < b for a, b in found)
    banded = brute_force(sigs, distinct, t)
    for (a, b), e in zip(found, est.tolist(), strict=True):
        assert (a, b) in banded, f"{a}, {b} share no band"
        estimate, reaches, _ = banded[(a, b)]
        assert reaches and e == estimate, (a, b, e, estimate)  # k/128 exactly, within the margin of t
    # every pair that shares a band and comes within the margin is found, but for the pairs dropped at a
    # first look at 32 positions (where they agree on more than 0.25 below the bar too, never)
    assert {p for p, (_e, reaches, looked) in banded.items() if reaches and looked} <= set(found)


def test_a_dense_bucket_is_paired_whole_whatever_bands_find_it():
    """More near-identical copies than a dense bucket holds, found by every band: every pair of them, once,
    as for a family of a few."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 2**32, size=WIDTH, dtype=np.uint32)
    copies = np.tile(base, (DENSE_BUCKET * 3, 1))
    copies[5, 100] ^= 1  # one position apart: still in most buckets
    strangers = rng.integers(0, 2**32, size=(20, WIDTH), dtype=np.uint32)
    sigs = np.vstack([strangers[:10], copies, strangers[10:]])
    i, j, est = band_candidates(sigs, np.arange(len(sigs)), 0.8)
    rows = range(10, 10 + len(copies))
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == list(combinations(rows, 2))
    assert sorted(set(est.tolist())) == [(WIDTH - 1) / WIDTH, 1.0]


@pytest.mark.parametrize("t", [0.0, -0.1, 1.01])
def test_band_candidates_refuse_a_threshold_outside_0_to_1(t):
    with pytest.raises(ValueError):
        band_candidates(np.zeros((3, WIDTH), dtype=np.uint32), np.arange(3), t)
