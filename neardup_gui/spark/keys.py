"""Bucket keys for the candidate search, and the pairs inside a bucket: pure functions, run inside
Spark's executors, tested without Spark.

SimHash: two 64-bit fingerprints within Hamming distance k agree on at least ``B - k`` of any B
blocks of their bits (pigeonhole), so keying every choice of ``B - k`` blocks finds every such pair;
B is chosen for the collection's size (Manku et al.'s tables, generalised). MinHash: the band keys of
the layout the desktop's forest uses (``minhash.band_keys``), kept when the estimate passes the same
bar (``index.estimate_pairs``). A bucket larger than ``SPLIT`` is cut into blocks and each pair of
blocks becomes its own task, so no task holds a skewed bucket's square alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

import numpy as np

from ..core.fingerprint import minhash
from ..core.fingerprint.simhash import hamming
from ..core.match import index
from ..core.match.forest import candidate_floor, forest_layout
from ..core.models import HAMMING_MAX

SPLIT = 2000
"""Members of a bucket above which its pairs are spread over tasks of block pairs."""


def band_layout(jaccard: float, num_perm: int = minhash.NUM_PERM) -> tuple[int, int, float]:
    """(bands, rows, estimate bar) of the desktop's MinHash forest at threshold ``jaccard``: the layout
    designed a forest's reach below it, and the estimate a candidate must reach to be measured."""
    layout = forest_layout(jaccard)
    bands, rows = minhash.optimal_bands(layout, num_perm)
    return bands, rows, candidate_floor(jaccard, num_perm)


@lru_cache(maxsize=64)
def simhash_tables(k: int, documents: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The tables of the SimHash search for distance ``k`` over about ``documents`` fingerprints: each
    a tuple of (shift, width) bit blocks, ``B - k`` of the 64 bits' B blocks, every such choice once.
    B is the one, from k + 1 up, with the least expected work (keys emitted plus pairs compared)."""
    if not 0 <= k <= HAMMING_MAX:
        raise ValueError(f"k must be between 0 and {HAMMING_MAX}, not {k}")
    if documents < 1:
        raise ValueError(f"documents must be positive, not {documents}")
    best: tuple[float, int] | None = None
    for blocks in range(k + 1, min(64, k + 8) + 1):
        keep = blocks - k
        tables = math.comb(blocks, keep)
        if tables > 5000:
            break
        bits = 64 * keep / blocks
        work = documents * tables * (1.0 + documents / 2.0 ** min(bits, 62))
        if best is None or work < best[0]:
            best = (work, blocks)
    assert best is not None
    blocks = best[1]
    widths = [64 // blocks + (1 if b < 64 % blocks else 0) for b in range(blocks)]
    shifts = [sum(widths[:b]) for b in range(blocks)]
    return tuple(tuple((shifts[b], widths[b]) for b in chosen) for chosen in combinations(range(blocks), blocks - k))


def simhash_keys(fingerprint: int, tables: Sequence[Sequence[tuple[int, int]]]) -> list[int]:
    """One key per table: the table's number and the fingerprint's bits in its blocks (unsigned 64-bit
    fingerprint; keys are Python ints)."""
    keys = []
    for number, table in enumerate(tables):
        value = 0
        for shift, width in table:
            value = (value << width) | ((fingerprint >> shift) & ((1 << width) - 1))
        keys.append((number << 64) | value)
    return keys


def band_keys(signature: bytes, bands: int, rows: int) -> list[int]:
    """One key per band (its number and ``minhash.band_keys``'s 64-bit value) of a signature's bytes."""
    values = minhash.band_keys(np.frombuffer(signature, dtype="<u4"), bands, rows)[0].tolist()
    return [(band << 64) | value for band, value in enumerate(values)]


def blocks_of(size: int, split: int = SPLIT) -> int:
    """How many blocks a bucket of ``size`` members is cut into (1: not cut)."""
    return 1 if size <= split else -(-size // split)


def block_tasks(key: int, size: int, member: int, split: int = SPLIT) -> list[tuple[int, int, int]]:
    """The tasks (key, block, block) of a bucket of ``size`` members that one member (an id) belongs
    to: one task for a bucket up to ``split``; past it, members fall into blocks by id and every pair of
    blocks is a task, so the bucket's pairs are spread and each is made once."""
    blocks = blocks_of(size, split)
    if blocks == 1:
        return [(key, 0, 0)]
    own = member % blocks
    return [(key, min(own, other), max(own, other)) for other in range(blocks)]


def _pairs_of_task(task: tuple[int, int, int], ids: np.ndarray, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions (p, q) in ``ids`` of the task's pairs: inside its block, or across its two blocks."""
    _key, first, second = task
    if blocks <= 1 or first == second:
        p, q = np.triu_indices(len(ids), 1)
        return p, q
    side = ids % blocks
    left, right = np.flatnonzero(side == first), np.flatnonzero(side == second)
    return np.repeat(left, len(right)), np.tile(right, len(left))


def simhash_pairs(
    task: tuple[int, int, int], members: Sequence[tuple[int, int]], blocks: int, k: int
) -> Iterator[tuple[int, int, int]]:
    """(a, b, distance), a < b, of a SimHash task's members (id, fingerprint) within distance ``k``; the
    task's bucket is cut into ``blocks``."""
    ids = np.array([m[0] for m in members], dtype=np.int64)
    fps = np.array([m[1] for m in members], dtype=np.uint64)
    p, q = _pairs_of_task(task, ids, blocks)
    if not len(p):
        return
    d = hamming(fps[p], fps[q])
    near = d <= k
    a, b = ids[p[near]], ids[q[near]]
    yield from zip(np.minimum(a, b).tolist(), np.maximum(a, b).tolist(), d[near].tolist(), strict=True)


def band_pairs(
    task: tuple[int, int, int], members: Sequence[tuple[int, bytes]], blocks: int, floor: float
) -> Iterator[tuple[int, int, float]]:
    """(a, b, estimate), a < b, of a MinHash task's members (id, signature bytes) whose estimate passes
    the desktop's bar (``index.estimate_pairs``: the same probe and the same ``floor``); the task's
    bucket is cut into ``blocks``."""
    ids = np.array([m[0] for m in members], dtype=np.int64)
    sigs = np.array([np.frombuffer(m[1], dtype="<u4") for m in members], dtype=np.uint32)
    p, q = _pairs_of_task(task, ids, blocks)
    if not len(p):
        return
    i, j, est = index.estimate_pairs(sigs, p, q, floor)
    a, b = ids[i], ids[j]
    yield from zip(np.minimum(a, b).tolist(), np.maximum(a, b).tolist(), est.tolist(), strict=True)
