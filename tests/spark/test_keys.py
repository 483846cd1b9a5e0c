"""The candidate search's keys and bucket tasks (no Spark needed): the SimHash tables never miss a pair
within K, a large bucket's pairs are each made once however it is cut, short texts do not fall into
one giant bucket, and no Python ``hash()`` (salted per process) decides anything."""

from __future__ import annotations

import ast
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.fingerprint.simhash import hamming
from neardup_gui.core.models import HAMMING_MAX, Status
from neardup_gui.spark import keys
from tests.conftest import REPO, chinese_texts, english_texts


@pytest.mark.parametrize("k", range(HAMMING_MAX + 1))
@pytest.mark.parametrize("documents", [100, 1_000_000])
def test_two_fingerprints_within_k_always_share_a_simhash_key(k, documents):
    rng = random.Random(k * 7 + documents)
    tables = keys.simhash_tables(k, documents)
    assert all(sum(width for _shift, width in table) >= 64 - 64 * k // (k + 1) - 8 for table in tables)
    for _ in range(300):
        a = rng.getrandbits(64)
        flips = rng.sample(range(64), rng.randint(0, k))
        b = a
        for bit in flips:
            b ^= 1 << bit
        assert int(hamming(a, b)) <= k
        assert set(keys.simhash_keys(a, tables)) & set(keys.simhash_keys(b, tables)), (k, flips)


def test_the_simhash_search_finds_exactly_the_pairs_within_k():
    """Over random fingerprints with planted close neighbours: bucket pairs within K = brute force."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 2**63, size=150, dtype=np.int64).astype(np.uint64)
    noise = np.array(
        [sum(1 << int(b) for b in rng.choice(64, rng.integers(0, 6), replace=False)) for _ in base], dtype=np.uint64
    )
    fps = [int(v) for v in np.concatenate((base, base ^ noise))]
    k = 4
    tables = keys.simhash_tables(k, len(fps))
    buckets: dict[int, list[tuple[int, int]]] = {}
    for n, fp in enumerate(fps):
        for key in keys.simhash_keys(fp, tables):
            buckets.setdefault(key, []).append((n, fp))
    found = {
        (a, b)
        for key, members in buckets.items()
        if len(members) > 1
        for a, b, _d in keys.simhash_pairs((key, 0, 0), members, 1, k)
    }
    expected = {(a, b) for a, b in combinations(range(len(fps)), 2) if int(hamming(fps[a], fps[b])) <= k}
    assert len(expected) >= 100
    assert found == expected


@pytest.mark.parametrize("size,split", [(10, 4), (2_500, 1_000), (7, 7), (4_100, 2_000)])
def test_a_large_bucket_is_cut_into_tasks_that_make_each_pair_once(size, split):
    tasks: dict[tuple[int, int, int], list[int]] = {}
    for member in range(size):
        for task in keys.block_tasks(99, size, member, split):
            tasks.setdefault(task, []).append(member)
    blocks = keys.blocks_of(size, split)
    assert len(tasks) == blocks * (blocks + 1) // 2
    assert max(len(found) for found in tasks.values()) <= 2 * (split + 1)
    codes = []
    for task, found in tasks.items():
        ids = np.array(found, dtype=np.int64)
        p, q = keys._pairs_of_task(task, ids, blocks)
        codes.append(np.minimum(ids[p], ids[q]) * size + np.maximum(ids[p], ids[q]))
    made = np.concatenate(codes)
    assert len(made) == size * (size - 1) // 2
    assert len(np.unique(made)) == len(made)


def test_short_and_empty_documents_do_not_collapse_into_one_bucket():
    """Every distinct short line of the test texts (licences and Chinese statutes: titles, headings,
    sentences; shingled by characters) spreads over the band keys, and blank documents are not
    fingerprinted at all (status empty): no bucket holds a crowd."""
    scheme = Scheme.current()
    lines = sorted(
        {
            line.strip()
            for text in (*english_texts().values(), *chinese_texts().values())
            for line in text.splitlines()
            if 6 <= len(line.strip()) <= 40
        }
    )
    bands, rows, _floor = keys.band_layout(0.8)
    counts: Counter[int] = Counter()
    short = 0
    for line in lines:
        fp = fingerprint_bytes("text", line.encode(), scheme)
        if fp.status is Status.OK:
            short += fp.short_text
            counts.update(keys.band_keys(fp.minhash, bands, rows))
    assert short >= 300
    assert counts.most_common(1)[0][1] <= 0.02 * len(lines), counts.most_common(3)
    for blank in (b"", b"   \n\t", "。，！".encode()):
        fp = fingerprint_bytes("text", blank, scheme)
        assert fp.status is Status.EMPTY and fp.minhash is None


def test_no_python_hash_anywhere_in_the_engine():
    """Python's hash() of str and bytes is salted per process: executors would disagree. Nothing in the
    engine or the Spark job calls it."""
    calls = []
    for path in sorted((REPO / "neardup_gui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls += [
            f"{path.relative_to(REPO)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hash"
        ]
    assert not calls
    assert Path(REPO / "neardup_gui" / "spark" / "job.py").exists()
