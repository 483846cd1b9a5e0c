"""Excerpt search at scale: `python -m tests.bench.excerpts [--sizes 2000,10000] [--containment 0.7]`.

Documents of ~15 KB from the benchmark corpus (10 % near-copies, 10 % Chinese), and 5 % more that are
excerpts of them: 1-50 % of one, 0-5 % of its words edited, alone or after a passage of another. Each
tool runs in a child process of its own on the same shingle sets (saved once), and reports its time and
the most its resident memory grew during the search (sampled every 0.2 s):
- neardup: core/match/excerpts.find_excerpts, every pair verified exactly;
- datasketch's MinHashLSHEnsemble (Zhu et al., 2016) on MinHash signatures of the same sets (made here,
  vectorised, and not timed; handed over as `scheme="legacy"` values, which its index only compares), 32
  partitions as its documentation shows, every candidate verified the same way; its recall is measured
  against neardup's pairs (exact: tests/core/test_excerpts.py checks them against every pair measured).
Writes bench-results/excerpts.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue as queue_module
import random
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

from neardup_gui.core.fingerprint import minhash
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_text
from neardup_gui.core.match.excerpts import find_excerpts, required_shared
from neardup_gui.core.models import Extracted, Status
from tests.bench import corpus
from tests.bench.passages import _Peaks
from tests.conftest import plant_edits

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"


def texts(count: int, seed: int = 1) -> list[str]:
    docs = corpus.documents(count, size=15_000, seed=seed)
    rng = random.Random(seed)
    for n in range(count // 20):
        source = rng.choice(docs[:count])
        length = max(int(len(source) * rng.choice([0.01, 0.02, 0.05, 0.1, 0.2, 0.5])), 200)
        start = rng.randrange(0, len(source) - length)
        excerpt = plant_edits(source[start : start + length], rng.choice([0.0, 0.01, 0.02, 0.05]), seed=n)
        if rng.random() < 0.5:
            other = rng.choice(docs[:count])
            excerpt = other[:400] + "\n\n" + excerpt
        docs.append(excerpt)
    return docs


def _shingled(text: str) -> np.ndarray:
    fingerprint = fingerprint_text(b"", "txt", Extracted(Status.OK, text), Scheme())
    return minhash.unpack_shingles(fingerprint.shingles) if fingerprint.shingles else np.empty(0, np.uint32)


def save_sets(path: Path, sets: list[np.ndarray]) -> None:
    sizes = np.array([len(s) for s in sets], dtype=np.int64)
    np.savez(path, sizes=sizes, values=np.concatenate(sets))


def _load(path: Path) -> list[np.ndarray]:
    saved = np.load(path)
    return np.split(saved["values"], np.cumsum(saved["sizes"])[:-1])


def _neardup(path: Path, containment: float, out: multiprocessing.Queue) -> None:
    sets = _load(path)
    before = psutil.Process().memory_info().rss
    with _Peaks() as peaks:
        start = time.perf_counter()
        found = find_excerpts(sets, containment)
        seconds = time.perf_counter() - start
    pairs = sorted(zip(found.inner.tolist(), found.outer.tolist(), strict=True))
    out.put({"seconds": round(seconds, 2), "peak_mb": round((peaks.parent - before) / 1e6, 1), "pairs": pairs})


def datasketch_search(path: Path, containment: float, out: multiprocessing.Queue) -> None:
    from datasketch import LeanMinHash, MinHashLSHEnsemble

    sets = _load(path)
    signatures = [minhash.signature(s, 128, 1).astype(np.uint64) for s in sets]
    before = psutil.Process().memory_info().rss
    peaks = _Peaks().__enter__()
    start = time.perf_counter()
    entries = [
        (n, LeanMinHash(seed=1, hashvalues=sig, scheme="legacy"), len(sets[n])) for n, sig in enumerate(signatures)
    ]
    index = MinHashLSHEnsemble(threshold=containment, num_perm=128, num_part=32)
    index.index([e for e in entries if e[2] > 0])
    found = set()
    for n, sig, size in entries:
        if size < 30:
            continue
        for m in index.query(sig, size):
            if m == n or (len(sets[m]), m) < (size, n):
                continue  # the query is the smaller: each pair from its inner side
            shared = len(np.intersect1d(sets[n], sets[m], assume_unique=True))
            if shared >= required_shared(np.array([size]), containment)[0]:
                found.add((n, m))
    seconds = time.perf_counter() - start
    peaks.__exit__()
    out.put({"seconds": round(seconds, 2), "peak_mb": round((peaks.parent - before) / 1e6, 1), "pairs": sorted(found)})


def in_child(target, path: Path, containment: float) -> dict:
    """``target`` run in a new process: its result, or RuntimeError if it ended without one."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue = context.Queue()
    child = context.Process(target=target, args=(path, containment, queue))
    child.start()
    while True:
        try:
            result = queue.get(timeout=1)
            break
        except queue_module.Empty:
            if not child.is_alive():
                raise RuntimeError(f"{target.__name__} ended with {child.exitcode} and no result") from None
    child.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="2000,10000")
    parser.add_argument("--containment", type=float, default=0.7)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in (int(s) for s in args.sizes.split(",")):
            docs = texts(count)
            start = time.perf_counter()
            sets = [_shingled(t) for t in docs]
            shingling = time.perf_counter() - start
            path = Path(tmp) / f"sets{count}.npz"
            save_sets(path, sets)
            ours = in_child(_neardup, path, args.containment)
            peer = in_child(datasketch_search, path, args.containment)
            exact = set(map(tuple, ours["pairs"]))
            theirs = set(map(tuple, peer["pairs"]))
            row = {
                "documents": len(docs),
                "shingles_millions": round(sum(map(len, sets)) / 1e6, 1),
                "shingling_s": round(shingling, 1),
                "containment": args.containment,
                "excerpt_pairs": len(exact),
                "neardup_s": ours["seconds"],
                "neardup_peak_mb": ours["peak_mb"],
                "datasketch_s": peer["seconds"],
                "datasketch_peak_mb": peer["peak_mb"],
                "datasketch_recall": round(len(exact & theirs) / len(exact), 4) if exact else 1.0,
                "datasketch_outside_exact": len(theirs - exact),
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "excerpts.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
