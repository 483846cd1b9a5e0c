"""The block index returns exactly the brute-force answer, for every K the command accepts."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprint.simhash import hamming
from neardup_gui.core.match.index import block_probes, bucket_codes, hamming_pairs
from neardup_gui.core.models import HAMMING_MAX


def bucket_pairs(sigs: np.ndarray, buckets: list[np.ndarray], min_estimate: float, **kwargs) -> tuple:
    """``bucket_codes`` as rows (i, j) and estimates."""
    codes, est = bucket_codes(sigs, buckets, min_estimate, **kwargs)
    return codes // len(sigs), codes % len(sigs), est


def brute_force(fps: np.ndarray, k: int) -> set[tuple[int, int]]:
    i, j = np.triu_indices(len(fps), 1)
    d = hamming(fps[i], fps[j])
    return set(zip(i[d <= k].tolist(), j[d <= k].tolist(), strict=True))


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
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == brute_force(fps, k)
    assert (d <= k).all()


@pytest.mark.parametrize("k", range(HAMMING_MAX + 1))
def test_every_k_on_a_dense_cluster(k):
    fps = planted(k, 800, max_flip=HAMMING_MAX + 4)
    i, j, _ = hamming_pairs(fps, k)
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == brute_force(fps, k)


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
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == brute_force(fps, k)
    assert (d == hamming(fps[i], fps[j])).all()


def _components(n: int, i: np.ndarray, j: np.ndarray) -> list[int]:
    from neardup_gui.core.match.unionfind import UnionFind

    uf = UnionFind(n)
    for a, b in zip(i.tolist(), j.tolist(), strict=True):
        uf.union(a, b)
    return uf.labels().tolist()


def _meeting_notes() -> tuple[np.ndarray, list[np.ndarray]]:
    """(MinHash signatures, shingle sets) of 600 one-line notes that differ in a word or two."""
    import random

    from neardup_gui.core.fingerprint import minhash
    from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes

    rng = random.Random(7)
    words = [
        "the",
        "meeting",
        "about",
        "the",
        "budget",
        "moves",
        "to",
        "thursday",
        "at",
        "ten",
        "in",
        "the",
        "small",
        "room",
        "upstairs",
    ]
    fillers = ["amber", "quartz", "lantern", "meadow", "copper", "harbor", "velvet", "orbit", "cinder", "willow"]
    notes = set()
    while len(notes) < 600:
        note = list(words)
        for _ in range(rng.randint(1, 3)):
            note[rng.randrange(len(note))] = rng.choice(fillers)
        notes.add(" ".join(note))
    scheme = Scheme.current()
    fps = [fingerprint_bytes("text", note.encode(), scheme) for note in sorted(notes)]
    sigs = np.array([np.frombuffer(fp.minhash, dtype="<u4") for fp in fps])
    return sigs, [minhash.unpack_shingles(fp.shingles) for fp in fps]


@pytest.mark.parametrize("floor", [0.2, 0.45, 0.6, 0.9])
@pytest.mark.parametrize(("block_cells", "task_pairs"), [(1 << 20, 8_000_000), (7, 500)])
def test_pairs_in_dense_buckets_are_those_estimated_pair_by_pair(monkeypatch, floor, block_cells, task_pairs):
    """Compared as blocks of a bucket's signatures, the buckets' pairs kept are exactly those
    ``estimate_pairs`` keeps of every distinct pair in them, first look included (below a floor of
    0.25 there is none), with the same estimates: overlapping and repeated buckets, blocks of a few
    pairs, large buckets cut into parts."""
    from neardup_gui.core.match import index

    sigs, _shingles = _meeting_notes()
    rng = np.random.default_rng(int(floor * 100))
    noise = rng.integers(0, 40, size=sigs.shape, dtype=np.uint32)  # estimates spread over every level
    sigs = np.where(rng.random(sigs.shape) < rng.random((len(sigs), 1)), noise, sigs).astype(np.uint32)
    sigs[500:540] = np.where(rng.random((40, sigs.shape[1])) < 0.1, noise[500:540], sigs[:40])  # near-copies
    sigs[540:560] = sigs[40:60]  # ... and copies the first look drops: unlike at the first positions alone
    sigs[540:560, : index._PROBE] = noise[540:560, : index._PROBE] + 100
    buckets = [np.sort(rng.choice(len(sigs), size=size, replace=False)) for size in (33, 40, 120, 300, 599)]
    buckets += [buckets[1].copy(), np.union1d(buckets[0], buckets[2])]
    monkeypatch.setattr(index, "_BLOCK_CELLS", block_cells)
    monkeypatch.setattr(index, "_BUCKET_TASK_PAIRS", task_pairs)
    got = bucket_pairs(sigs, buckets, floor, budget=10**9)
    codes = np.unique(
        np.concatenate([(b[:, None] * len(sigs) + b[None, :])[np.triu_indices(len(b), 1)] for b in buckets])
    )
    i, j, est = index.estimate_pairs(sigs, codes // len(sigs), codes % len(sigs), floor)
    assert 0 < len(i) < len(codes)
    assert got[0].tolist() == i.tolist() and got[1].tolist() == j.tolist()
    assert got[2].dtype == est.dtype and got[2].tolist() == est.tolist()


def test_a_huge_dense_bucket_is_held_within_the_budget_and_joins_the_same_documents():
    """600 one-line notes that differ in a word or two share LSH buckets: every pair of them is a
    candidate (~180,000). With a budget of 20,000 pairs only spanning forests by estimate are kept: by
    estimate they join exactly the documents all the pairs join, at every level, and after the exact
    Jaccard check the groups are the same too at the thresholds these notes sit across."""
    from neardup_gui.core.fingerprint import minhash
    from neardup_gui.core.match.forest import estimate_margin, spanning_forest
    from neardup_gui.core.match.index import SPARE_FORESTS

    sigs, shingles = _meeting_notes()
    n, everyone, floor = len(sigs), [np.arange(len(sigs))], 0.35
    full = bucket_pairs(sigs, everyone, floor, budget=10**9)
    small = bucket_pairs(sigs, everyone, floor, budget=20_000)
    assert len(full[0]) > 100_000 and len(small[0]) <= SPARE_FORESTS * (n - 1)
    assert np.all(small[2] >= floor)
    for level in (floor, 0.5, 0.6, 0.7, 0.8, 0.9):
        assert _components(n, full[0][full[2] >= level], full[1][full[2] >= level]) == _components(
            n, small[0][small[2] >= level], small[1][small[2] >= level]
        ), level

    def exact(a: int, b: int) -> float:
        shared = minhash.exact_overlap(shingles[a], shingles[b])
        return shared / (len(shingles[a]) + len(shingles[b]) - shared)

    def groups(pairs, t: float) -> list[int]:
        i, j, est = pairs
        bound = np.minimum(1.0, est + estimate_margin(np.clip(est, floor, 1.0)))
        a, b, _ = spanning_forest(n, i, j, bound, t - 1e-9, exact=exact)
        return _components(n, np.asarray(a), np.asarray(b))

    for t in (0.5, 0.6, 0.7):
        assert groups(full, t) == groups(small, t), t


def _pool_runs(monkeypatch) -> list[tuple[str, int]]:
    """Record, as the worker pools run them, each run's task function and its number of tasks."""
    from neardup_gui.core.workers.pool import WorkerPool

    runs: list[tuple[str, int]] = []
    real_run = WorkerPool.run

    def counted(self, fn, tasks, **kwargs):
        tasks = list(tasks)
        runs.append((fn.__name__, len(tasks)))
        return real_run(self, fn, tasks, **kwargs)

    monkeypatch.setattr(WorkerPool, "run", counted)
    return runs


@pytest.mark.e2e
def test_pairs_in_dense_buckets_found_by_workers_equal_those_found_here(monkeypatch):
    """Tasks of a few thousand pairs each, in two worker processes: the same pairs and estimates, within
    the budget and past it (where what is kept must not depend on which task finished first)."""
    from neardup_gui.core.match import index
    from neardup_gui.core.workers.parallel import Workers

    sigs, _shingles = _meeting_notes()
    everyone = [np.arange(len(sigs))]
    monkeypatch.setattr(index, "_BUCKET_TASK_PAIRS", 5_000)
    full = bucket_pairs(sigs, everyone, 0.35, budget=10**9)
    small = bucket_pairs(sigs, everyone, 0.35, budget=20_000)
    assert len(full[0]) > 100_000 and len(small[0]) <= 20_000
    monkeypatch.setattr(index, "_POOL_BUCKET_PAIRS", 0)
    runs = _pool_runs(monkeypatch)
    workers = Workers(2)
    for budget, here in ((10**9, full), (20_000, small)):
        spread = bucket_pairs(sigs, everyone, 0.35, budget=budget, workers=workers)
        for got, expected in zip(spread, here, strict=True):
            assert got.tolist() == expected.tolist()
    assert runs and all(name == "bucket_pairs_task" and count >= 20 for name, count in runs), runs


@pytest.mark.e2e
def test_band_candidates_estimated_by_workers_equal_those_estimated_here(monkeypatch):
    """The band search's candidates (no dense buckets: 600 notes, buckets of at most 1,000) estimated by
    two workers in batches of 4,000: the same pairs, in the same order, with the same estimates."""
    from neardup_gui.core.match import index
    from neardup_gui.core.workers.parallel import Workers

    sigs, _shingles = _meeting_notes()
    here = index.band_pairs(sigs, 16, 8, min_estimate=0.35, dense=1_000)
    assert len(here[0]) > 20_000 and not here[3]
    monkeypatch.setattr(index, "_POOL_ESTIMATES", 0)
    monkeypatch.setattr(index, "_COLD_POOL_ESTIMATES", 0)
    monkeypatch.setattr(index, "_PAIR_BATCH", 4_000)
    runs = _pool_runs(monkeypatch)
    spread = index.band_pairs(sigs, 16, 8, min_estimate=0.35, dense=1_000, workers=Workers(2))
    assert runs and all(name == "estimate_task" and count >= 5 for name, count in runs), runs
    for got, expected in zip(spread[:3], here[:3], strict=True):
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.e2e
def test_the_band_search_maps_one_copy_of_the_signatures_beside_the_database(monkeypatch, tmp_path):
    """Both searches of the band candidates in the pool (estimates, dense buckets) map the signatures
    from one file written once in a folder beside the database, gone afterwards; the candidates are
    those found here."""
    from neardup_gui.core.match import index
    from neardup_gui.core.match.candidates import band_candidates
    from neardup_gui.core.workers.parallel import Workers
    from neardup_gui.core.workers.pool import WorkerPool

    sigs, _shingles = _meeting_notes()
    rows = np.arange(len(sigs))
    here = band_candidates(sigs, rows, 0.5)
    for name in ("_POOL_ESTIMATES", "_COLD_POOL_ESTIMATES", "_POOL_BUCKET_PAIRS"):
        monkeypatch.setattr(index, name, 0)
    monkeypatch.setattr(index, "_PAIR_BATCH", 4_000)
    monkeypatch.setattr(index, "_BUCKET_TASK_PAIRS", 5_000)
    seen: dict[str, set[tuple[str, int, int]]] = {}  # task function -> (signatures' file, inode, mtime)
    estimates: list[str] = []  # the candidates' files the estimates mapped
    real_run = WorkerPool.run

    def recorded(self, fn, tasks, **kwargs):
        tasks = list(tasks)
        for t in tasks:
            written = os.stat(t.sigs)
            seen.setdefault(fn.__name__, set()).add((t.sigs, written.st_ino, written.st_mtime_ns))
        if fn.__name__ == "estimate_task":
            estimates.extend(t.codes for t in tasks)
        else:  # what the estimates alone needed is gone once they are done
            assert estimates and not any(os.path.exists(f) for f in estimates)
        return real_run(self, fn, tasks, **kwargs)

    monkeypatch.setattr(WorkerPool, "run", recorded)
    beside = tmp_path / "database folder"
    beside.mkdir()
    spread = band_candidates(sigs, rows, 0.5, workers=Workers(2), beside=str(beside))
    assert set(seen) == {"estimate_task", "bucket_pairs_task"}, seen
    [(one, _inode, _mtime)] = set.union(*seen.values())  # one file, written once
    assert Path(one).parent.parent == beside
    assert list(beside.iterdir()) == []
    for got, expected in zip(spread, here, strict=True):
        assert got.tolist() == expected.tolist()


@pytest.mark.e2e
def test_the_mapped_files_of_a_killed_app_are_removed_by_the_next_search(tmp_path):
    """A process killed during a search leaves its folder; the next search beside the same database
    removes it (its lock died with the process) and leaves nothing of its own."""
    from neardup_gui.core.workers.parallel import MappedFiles

    child = (
        "import os, sys, numpy as np\n"
        "from neardup_gui.core.workers.parallel import MappedFiles\n"
        "print(MappedFiles(sys.argv[1]).write('sigs', np.zeros(1000, np.uint32)))\n"
        "sys.stdout.flush(); os._exit(9)\n"
    )
    done = subprocess.run([sys.executable, "-c", child, str(tmp_path)], capture_output=True, text=True, check=False)
    left = Path(done.stdout.strip())
    assert done.returncode == 9 and left.exists() and left.parent.parent == tmp_path, done
    with MappedFiles(str(tmp_path)) as files:
        mine = Path(files.write("sigs", np.ones(10, np.uint32), once=True))
        assert files.write("sigs", np.zeros(10, np.uint32), once=True) == str(mine)
        assert np.load(mine).tolist() == [1] * 10  # written once: the second array was not written
        assert not left.parent.exists()
        with MappedFiles(str(tmp_path)) as other:  # a search running beside: its folder is not swept
            theirs = Path(other.write("sigs", np.zeros(10, np.uint32)))
            assert mine.exists() and theirs.parent != mine.parent
        assert mine.exists() and not theirs.exists()
    assert list(tmp_path.iterdir()) == []


def test_mapped_files_go_to_the_temporary_folder_when_the_folder_beside_fails(tmp_path):
    """A folder beside the database that goes away (or a full disk there) does not fail the search: the
    files go to the system's temporary folder, and nothing is left anywhere."""
    import shutil
    import tempfile

    from neardup_gui.core.workers.parallel import MappedFiles

    with MappedFiles(str(tmp_path)) as files:
        first = Path(files.write("sigs", np.ones(10, np.uint32), once=True))
        assert first.parent.parent == tmp_path
        shutil.rmtree(first.parent)
        second = Path(files.write("codes", np.arange(5)))
        assert second.parent.parent == Path(tempfile.gettempdir()) and np.load(second).tolist() == [0, 1, 2, 3, 4]
        again = Path(files.write("sigs", np.ones(10, np.uint32), once=True))
        assert again.parent == second.parent and again.exists()  # written again where it now lives
    assert not second.parent.exists() and list(tmp_path.iterdir()) == []


def test_an_allocated_file_holds_its_parts_then_room_for_the_tasks_and_moves_when_the_folder_fails(tmp_path):
    """A file made a part at a time (the excerpt search's shingles, never whole in memory), the rest for the
    tasks to fill; too many values refused; where the folder beside goes away, made again (its parts asked
    for anew) in the temporary folder."""
    import shutil

    from neardup_gui.core.workers.parallel import MappedFiles

    def parts():
        yield np.arange(3, dtype=np.uint32)
        yield np.array([7, 8], dtype=np.uint32)

    with MappedFiles(str(tmp_path)) as files:
        path = files.allocate("values", np.uint32, 6, parts)
        filled = np.load(path, mmap_mode="r+")
        filled[5] = 9
        filled.flush()
        del filled
        assert np.load(path).tolist() == [0, 1, 2, 7, 8, 9]
        assert np.load(files.allocate("room", np.int32, 4)).tolist() == [0, 0, 0, 0]
        with pytest.raises(ValueError, match="more than 4"):
            files.allocate("short", np.uint32, 4, parts)
        shutil.rmtree(Path(path).parent)
        moved = files.allocate("values", np.uint32, 5, parts)
        assert Path(moved).parent.parent != tmp_path and np.load(moved).tolist() == [0, 1, 2, 7, 8]
    assert not Path(moved).exists() and list(tmp_path.iterdir()) == []


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    pairs=st.integers(0, 3000),
    n=st.sampled_from([2, 50, 100_000, 1 << 30]),
    width=st.sampled_from([128, 64, 100]),
)
def test_candidates_each_once_sorted_with_their_estimates(seed, pairs, n, width):
    """_unique_codes packs each estimate's k below its code to sort in place (and, past the packing's
    range, sorts as before): every code once, ascending, with the estimate it came with."""
    from neardup_gui.core.match.index import _unique_codes

    rng = np.random.default_rng(seed)
    i = rng.integers(0, n - 1, size=pairs)
    j = rng.integers(i + 1, n)
    codes = i * n + j
    k_of = {}
    ks = np.array([k_of.setdefault(c, int(rng.integers(0, width + 1))) for c in codes.tolist()], dtype=np.int64)
    est = (ks / width).astype(np.float32)  # as estimate_pairs makes them
    out_codes, out_est = _unique_codes(codes.copy(), est.copy(), width, n)
    assert out_codes.tolist() == sorted(k_of)
    assert out_est.dtype == np.float32
    assert out_est.tolist() == [np.float32(k_of[c] / width) for c in out_codes.tolist()]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 400), forests=st.integers(1, 9))
def test_spare_forests_are_kruskal_forests_one_after_the_other(seed, n, forests):
    """Past the budget, the pairs kept are ``forests`` maximum spanning forests by estimate, each made by
    Kruskal (strongest first, ties in the order of the codes) of what the ones before it left, each
    forest's pairs in the order of the codes: as a plain union-find over every pair says."""
    from neardup_gui.core.jobs import NEVER_CANCELLED
    from neardup_gui.core.match.index import _forest_by_estimate
    from neardup_gui.core.match.unionfind import UnionFind

    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    codes = np.unique(np.minimum(a, b)[a != b].astype(np.int64) * n + np.maximum(a, b)[a != b])
    est = (rng.integers(40, 129, len(codes)) / 128).astype(np.float32)
    expected: list[int] = []
    left = list(range(len(codes)))
    for _ in range(forests):
        uf, chosen = UnionFind(n), []
        for k in sorted(left, key=lambda k: (-est[k], k)):
            if uf.union(int(codes[k] // n), int(codes[k] % n)):
                chosen.append(k)
        expected += sorted(chosen)
        left = [k for k in left if k not in set(chosen)]
    got_codes, got_est = _forest_by_estimate(n, codes, est, NEVER_CANCELLED, forests)
    assert got_codes.tolist() == codes[expected].tolist() and got_est.tolist() == est[expected].tolist()
