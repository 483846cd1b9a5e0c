"""Benchmarks: `python -m tests.bench.run [--quick] [--only fingerprint,index,regroup,scan,passages,memory,phases]`.

Prints its figures and writes bench-results/bench.json. Every figure is reported beside a peer measured
in the same run where one exists (datasketch, rensa, the simhash package, the code before), since
absolute times on shared machines drift.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from neardup_gui.core.fingerprint import keywords
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes, fingerprint_text, raw_hash, text_simhash
from neardup_gui.core.fingerprint.simhash import hamming
from neardup_gui.core.fingerprint.text import normalise
from neardup_gui.core.match.index import block_probes, hamming_pairs
from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import Extracted, Fingerprint, Method, Status, Thresholds
from neardup_gui.core.review.compare import compare
from neardup_gui.core.review.passages import LineVocabulary, PassageText, shared_passages, shared_passages_between
from neardup_gui.core.scan import ExtractTask, extract_task, refresh_boilerplate
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.schema import SCHEMA_VERSION
from neardup_gui.core.store.store import Store
from neardup_gui.core.workers.pool import run_isolated
from tests.bench import corpus, peers
from tests.conftest import plant_edits

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "bench-results"
CACHE = Path(tempfile.gettempdir()) / "neardup-bench"


def log(message: str) -> None:
    print(message, flush=True)


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


# -- fingerprinting -----------------------------------------------------------------------------
def bench_fingerprint(quick: bool) -> dict:
    docs = corpus.documents(600 if quick else 3000, seed=7)
    megabytes = sum(len(d.encode()) for d in docs) / 1e6
    scheme = Scheme.current()
    for d in docs[:50]:  # warm up: class table, jieba's dictionary
        fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme)
    t = time.perf_counter()
    for d in docs:
        fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme)
    ours = rate(len(docs), time.perf_counter() - t)
    # the part of it that finds what each text is about (a group's topic), mixed and all-Chinese texts
    keywords_share = {}
    for language, texts in (("mixed", docs), ("chinese", corpus.documents(300, chinese_share=1.0, seed=9))):
        t = time.perf_counter()
        for d in texts:
            keywords.keywords(d)
        found = time.perf_counter() - t
        t = time.perf_counter()
        for d in texts:
            fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme)
        keywords_share[language] = round(found / (time.perf_counter() - t), 3)

    peers.datasketch_minhash(docs[0])
    t = time.perf_counter()
    for d in docs:
        peers.datasketch_minhash(d)
    datasketch = rate(len(docs), time.perf_counter() - t)

    subset = docs[: max(100, len(docs) // 10)]
    klass = peers.simhash_class()
    t = time.perf_counter()
    for d in subset:
        klass(d)
    simhash_pkg = rate(len(subset), time.perf_counter() - t)

    scaling = {}
    with tempfile.TemporaryDirectory() as tmp:
        tasks = []
        for n, d in enumerate(docs):
            path = Path(tmp) / f"{n}.txt"
            data = d.encode()
            path.write_bytes(data)
            tasks.append(ExtractTask(str(path), "text", raw_hash(data), scheme, len(data)))
        os.sync()  # the files' write-back would otherwise run beside the timed reads
        list(run_isolated(extract_task, tasks[:4], workers=2, timeout=120))  # the fork server warms once, not per run
        for workers in (1, 2):
            started = time.perf_counter()
            first = None
            for _task, _result in run_isolated(extract_task, tasks, workers=workers, timeout=120):
                if first is None:
                    first = time.perf_counter()
            ended = time.perf_counter()
            scaling[workers] = {
                "docs_per_s": rate(len(tasks), ended - started),
                "docs_per_s_after_startup": rate(len(tasks) - 1, ended - first),
                "startup_s": first - started,
            }
    english = corpus.documents(1000 if quick else 2000, chinese_share=0.0, seed=8)
    t = time.perf_counter()
    for d in english:
        fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme)
    ours_en = rate(len(english), time.perf_counter() - t)
    t = time.perf_counter()
    for d in english:
        peers.datasketch_minhash(d)
    datasketch_en = rate(len(english), time.perf_counter() - t)
    minhash_only = {"english": _minhash_only(english, scheme), "mixed": _minhash_only(docs, scheme)}
    per_character = _chinese_per_character(200 if quick else 400, scheme)
    t = time.perf_counter()
    for d in english[:200]:
        klass(d)
    simhash_en = rate(200, time.perf_counter() - t)
    return {
        "english_only": {
            "documents": len(english),
            "ours_docs_per_s": round(ours_en),
            "datasketch_docs_per_s": round(datasketch_en),
            "simhash_package_docs_per_s": round(simhash_en),
            "vs_datasketch": round(ours_en / datasketch_en, 2),
            "vs_simhash_package": round(ours_en / simhash_en, 2),
        },
        "documents": len(docs),
        "megabytes": round(megabytes, 1),
        "ours_docs_per_s_one_process": round(ours),
        "keywords_share_of_fingerprint": keywords_share,
        "datasketch_docs_per_s": round(datasketch),
        "simhash_package_docs_per_s": round(simhash_pkg),
        "vs_datasketch": round(ours / datasketch, 2),
        "vs_simhash_package": round(ours / simhash_pkg, 2),
        "pool": {w: {k: round(v, 2) for k, v in s.items()} for w, s in scaling.items()},
        "pool_scaling_2_vs_1": round(scaling[2]["docs_per_s"] / scaling[1]["docs_per_s"], 2),
        "pool_scaling_2_vs_1_after_startup": round(
            scaling[2]["docs_per_s_after_startup"] / scaling[1]["docs_per_s_after_startup"], 2
        ),
        "minhash_only_per_core": minhash_only,
        "chinese_per_character": per_character,
        "note": "ours computes SimHash + MinHash + shingle set + text hash; datasketch and rensa only MinHash; "
        "the simhash package only SimHash",
    }


def _chinese_per_character(count: int, scheme: Scheme) -> dict:
    """The whole fingerprint's characters per second in one process, all-Chinese documents against
    all-English ones of the same size (issue #15: Chinese within 1.5x of English per character)."""
    speeds, byte_speeds = {}, {}
    for language, share in (("chinese", 1.0), ("english", 0.0)):
        docs = corpus.documents(count, chinese_share=share, near_share=0.0, seed=8)
        fingerprint_text(b"", "text", Extracted(Status.OK, text=docs[0]), scheme)
        started = time.perf_counter()
        for d in docs:
            fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme)
        elapsed = time.perf_counter() - started
        speeds[language] = sum(map(len, docs)) / elapsed
        byte_speeds[language] = sum(len(d.encode("utf-8")) for d in docs) / elapsed
    # per byte of a UTF-8 file as well: a Han character is three bytes and says about as much as three
    # to four English letters, so per character is the harshest way to compare the two languages
    return {
        "documents": count,
        "chinese_chars_per_s": round(speeds["chinese"]),
        "english_chars_per_s": round(speeds["english"]),
        "english_vs_chinese": round(speeds["english"] / speeds["chinese"], 2),
        "chinese_utf8_mb_per_s": round(byte_speeds["chinese"] / 1e6, 1),
        "english_utf8_mb_per_s": round(byte_speeds["english"] / 1e6, 1),
        "english_vs_chinese_per_byte": round(byte_speeds["english"] / byte_speeds["chinese"], 2),
    }


def _minhash_only(docs: list[str], scheme: Scheme) -> dict:
    """Documents per second in one process, MinHash signatures only: ours (normalise, unit shingles,
    128 permutations) beside rensa's RMinHash and datasketch, and our whole fingerprint, on ``docs``."""
    from neardup_gui.core.fingerprint.minhash import signature
    from neardup_gui.core.fingerprint.scheme import text_shingles

    def timed(fn) -> float:
        fn(docs[0])
        started = time.perf_counter()
        for d in docs:
            fn(d)
        return rate(len(docs), time.perf_counter() - started)

    ours = timed(lambda d: signature(text_shingles(normalise(d), scheme)))
    whole = timed(lambda d: fingerprint_text(b"", "text", Extracted(Status.OK, text=d), scheme))
    rensa = timed(peers.rensa_minhash)
    datasketch = timed(peers.datasketch_minhash)
    return {
        "documents": len(docs),
        "ours_minhash_docs_per_s": round(ours),
        "ours_whole_fingerprint_docs_per_s": round(whole),
        "rensa_docs_per_s": round(rensa),
        "datasketch_docs_per_s": round(datasketch),
        "minhash_vs_rensa": round(ours / rensa, 2),
        "whole_vs_rensa": round(whole / rensa, 2),
        "minhash_vs_datasketch": round(ours / datasketch, 2),
    }


# -- index --------------------------------------------------------------------------------------
def real_fingerprints(count: int) -> np.ndarray:
    cached = CACHE / f"fingerprints-{count}.npy"
    if cached.exists():
        return np.load(cached)
    log(f"  fingerprinting {count} real lines (cached for later runs)…")
    scheme = Scheme.current()
    fps = np.fromiter(
        (text_simhash(normalise(line), scheme) for line in corpus.short_lines(count)), dtype=np.uint64, count=count
    )
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(cached, fps)
    return fps


def bench_index(quick: bool) -> dict:
    count = 100_000 if quick else 1_000_000
    fps = real_fingerprints(count)
    out: dict = {"fingerprints": count, "all_pairs": {}}
    for k in (0, 1, 2, 3):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            i, _j, _d = hamming_pairs(fps, k)
            times.append(time.perf_counter() - t)
        out["all_pairs"][k] = {"seconds": round(min(times), 3), "pairs": int(len(i))}

    rng = np.random.default_rng(5)
    picks = rng.choice(count, size=1000, replace=False)
    flips = rng.integers(0, 64, size=1000).astype(np.uint64)
    queries = [int(fps[p] ^ (np.uint64(1) << f)) for p, f in zip(picks, flips, strict=True)]

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "index.db"
        t = time.perf_counter()
        with Store(db) as store:
            batch = []
            for n, value in enumerate(fps.tolist()):
                batch.append(Fingerprint(n.to_bytes(8, "little"), "text", Status.OK, simhash=value, text_hash=b""))
                if len(batch) == 20_000:
                    store.write_batch(batch, [])
                    batch = []
            store.write_batch(batch, [])
            store.query_index.complete()  # what the first query does after a scan
            build = time.perf_counter() - t
            probes = block_probes(3)
            times, found = [], 0
            for q in queries:
                t = time.perf_counter()
                hits = [cid for cid, v in store.query_index.simhash_neighbours(q, probes) if int(hamming(q, v)) <= 3]
                times.append(time.perf_counter() - t)
                found += len(hits)
        out["sqlite_query"] = {
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p95_ms": round(float(np.percentile(times, 95)) * 1000, 3),
            "hits": found,
            "store_build_s": round(build, 1),
        }

    from simhash import SimhashIndex

    klass = peers.simhash_class()
    t = time.perf_counter()
    index = SimhashIndex([(str(n), klass(int(v))) for n, v in enumerate(fps.tolist())], k=3)
    build = time.perf_counter() - t
    times, found = [], 0
    for q in queries:
        probe = klass(q)
        t = time.perf_counter()
        found += len(index.get_near_dups(probe))
        times.append(time.perf_counter() - t)
    out["simhash_index_query"] = {
        "median_ms": round(statistics.median(times) * 1000, 3),
        "p95_ms": round(float(np.percentile(times, 95)) * 1000, 3),
        "hits": found,
        "build_s": round(build, 1),
    }
    return out


# -- regrouping ---------------------------------------------------------------------------------
def _regroup_db(count: int) -> Path:
    """A database of ``count`` real-text documents (cached between runs: building it takes minutes)."""
    import hashlib

    # a new scheme or schema (what a content keeps) makes another database
    kept = f"{Scheme.current().to_json()} {SCHEMA_VERSION}"
    tag = hashlib.blake2b(kept.encode(), digest_size=4).hexdigest()
    db = CACHE / f"regroup-{count}-{tag}.db"
    marker = CACHE / f"regroup-{count}-{tag}.complete"
    if marker.exists() and db.exists():
        return db
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"regroup-{count}*"):
        stale.unlink()
    docs = corpus.documents(count, size=1500, chinese_share=0.05, near_share=0.1, seed=11)
    scheme = Scheme.current()
    with Store(db) as store:
        store.ensure_scheme(scheme)
        fps, files = [], []
        for n, d in enumerate(docs):
            fp = fingerprint_bytes("text", d.encode(), scheme)
            fps.append(fp)
            files.append(FileRecord(f"/bench/doc{n:06d}.txt", len(d), n, "text", content_hash=fp.raw_hash))
            if len(fps) == 5000:
                store.write_batch(fps, files)
                fps, files = [], []
        store.write_batch(fps, files)
    marker.write_text("ok")
    return db


def bench_regroup(quick: bool) -> dict:
    count = 20_000 if quick else 100_000
    db = _regroup_db(count)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "regroup.db"
        shutil.copy(db, work)  # each run starts with no cached overlaps
        with Store(work) as store:
            t = time.perf_counter()
            refresh_boilerplate(store, Scheme.current())  # what the end of a scan does
            analysis = time.perf_counter() - t
            t = time.perf_counter()
            matcher = Matcher(store)
            load = time.perf_counter() - t
            timings = {}
            for label, th in [
                ("minhash T=0.8 (first: forest for T >= 0.7 built)", Thresholds(Method.MINHASH, 3, 0.8)),
                ("minhash T=0.8 (again)", Thresholds(Method.MINHASH, 3, 0.8)),
                ("minhash T=0.9", Thresholds(Method.MINHASH, 3, 0.9)),
                ("minhash T=0.85", Thresholds(Method.MINHASH, 3, 0.85)),
                ("minhash T=0.83", Thresholds(Method.MINHASH, 3, 0.83)),
                ("minhash T=0.95", Thresholds(Method.MINHASH, 3, 0.95)),
                ("minhash T=0.7", Thresholds(Method.MINHASH, 3, 0.7)),
                ("minhash T=0.75", Thresholds(Method.MINHASH, 3, 0.75)),
                ("minhash T=0.72", Thresholds(Method.MINHASH, 3, 0.72)),
                ("minhash T=0.65 (below the forest: forest for T >= 0.55 built)", Thresholds(Method.MINHASH, 3, 0.65)),
                ("minhash T=0.6", Thresholds(Method.MINHASH, 3, 0.6)),
                ("minhash T=0.8 (after 0.65)", Thresholds(Method.MINHASH, 3, 0.8)),
                ("simhash K=3 (first: forest for K <= 3 built)", Thresholds(Method.SIMHASH, 3, 0.8)),
                ("simhash K=2", Thresholds(Method.SIMHASH, 2, 0.8)),
                ("simhash K=6 (above the forest: forest for K <= 6 built)", Thresholds(Method.SIMHASH, 6, 0.8)),
                ("simhash K=4", Thresholds(Method.SIMHASH, 4, 0.8)),
                ("simhash K=1", Thresholds(Method.SIMHASH, 1, 0.8)),
                ("both K=3 T=0.8", Thresholds(Method.BOTH, 3, 0.8)),
                (
                    "minhash T=0.8, boilerplate kept (its own forest built)",
                    Thresholds(Method.MINHASH, 3, 0.8, ignore_boilerplate=False),
                ),
                ("minhash T=0.85, boilerplate kept", Thresholds(Method.MINHASH, 3, 0.85, ignore_boilerplate=False)),
                ("minhash T=0.8, boilerplate ignored again", Thresholds(Method.MINHASH, 3, 0.8)),
            ]:
                t = time.perf_counter()
                result = matcher.match(th)
                timings[label] = {"seconds": round(time.perf_counter() - t, 3), "groups": len(result.groups)}
            t = time.perf_counter()
            result = Matcher(store).match(Thresholds(Method.MINHASH, 3, 0.8))
            timings["a new matcher (a restart): load + T=0.8 from the kept forest"] = {
                "seconds": round(time.perf_counter() - t, 3),
                "groups": len(result.groups),
            }
    return {
        "documents": count,
        "boilerplate_analysis_s": round(analysis, 2),
        "boilerplate": matcher.boilerplate.summary(),
        "load_s": round(load, 2),
        "regroup": timings,
    }


# -- scanning -----------------------------------------------------------------------------------
def _timed_scan(tree: Path, db: Path, workers: int, report: str = "csv") -> dict:
    """``neardup scan`` of ``tree`` writing a ``report`` (to /dev/null): its wall time and the peak
    resident memory of all its processes and of the parent."""
    import psutil

    cmd = [
        sys.executable,
        "-m",
        "neardup_gui.cli",
        "scan",
        str(tree),
        "--db",
        str(db),
        "--workers",
        str(workers),
        "--format",
        report,
        "--out",
        os.devnull,
        "--quiet",
    ]
    peak = parent_peak = 0
    done = threading.Event()
    started = time.perf_counter()
    # as installed: pip writes the modules' bytecode, which a shell with PYTHONDONTWRITEBYTECODE set
    # would have every run compile again (0.06 s, a twentieth of an unchanged rescan)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen(cmd, env=env)

    def sample() -> None:
        nonlocal peak, parent_peak
        parent = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                own = parent.memory_info().rss
                total = own + sum(c.memory_info().rss for c in parent.children(recursive=True))
                peak, parent_peak = max(peak, total), max(parent_peak, own)
            except psutil.Error:
                pass
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    code = proc.wait()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if code != 0:
        raise RuntimeError(f"scan failed with exit code {code}")
    return {
        "seconds": round(seconds, 2),
        "peak_rss_mb_all_processes": round(peak / 1e6),
        "peak_rss_mb_parent": round(parent_peak / 1e6),
    }


def tree_of(count: int) -> tuple[Path, float]:
    """The benchmark's tree of ``count`` documents (written once, kept in the cache) and its size in MB."""
    tree = CACHE / f"tree-{count}"
    marker = tree / ".complete"
    if not marker.exists():
        shutil.rmtree(tree, ignore_errors=True)
        log(f"  writing {count} files…")
        written = corpus.write_tree(tree, corpus.documents(count, seed=3))
        marker.write_text(str(written))
    return tree, int(marker.read_text()) / 1e6


def bench_memory(quick: bool) -> dict:
    """Peak resident memory of a first scan with 2 workers (all processes, and the parent alone) at
    20,000 and 100,000 documents of ~15 KB (issue #15: at most 1.5 GB and 600 MB at 100,000)."""
    out = {}
    for count in (2000,) if quick else (20_000, 100_000):
        tree, size_mb = tree_of(count)
        with tempfile.TemporaryDirectory() as tmp:
            out[count] = {"megabytes": round(size_mb), **_timed_scan(tree, Path(tmp) / "m.db", 2)}
    return out


def bench_scan(quick: bool) -> dict:
    """`neardup scan --format json` of a first tree with 1 and 2 workers, then the unchanged tree again
    (issue #15: an unchanged rescan that writes the JSON report costs at most 5 % of the first scan)."""
    count = 2000 if quick else 20_000
    tree, size_mb = tree_of(count)
    with tempfile.TemporaryDirectory() as tmp:
        one = _timed_scan(tree, Path(tmp) / "w1.db", 1, "json")
        two = _timed_scan(tree, Path(tmp) / "w2.db", 2, "json")
        again = _timed_scan(tree, Path(tmp) / "w2.db", 2, "json")
    return {
        "files": count,
        "megabytes": round(size_mb),
        "report": "json",
        "first_scan_1_worker": one,
        "first_scan_2_workers": two,
        "scaling_2_vs_1": round(one["seconds"] / two["seconds"], 2),
        "rescan_unchanged": again,
        "rescan_share_of_first": round(again["seconds"] / two["seconds"], 3),
    }


def bench_phases(quick: bool) -> dict:
    """Where a first scan's CPU goes, phase by phase, 1 worker against 2 (tests/bench/phases.py)."""
    from tests.bench import phases

    return phases.run(2000 if quick else 20_000, write=not quick)  # a smoke run keeps the full run's table


# -- the JSON report's shared passages -------------------------------------------------------------
def bench_passages(quick: bool) -> dict:
    """Shared passages per pair: as the JSON report finds them now (each text cut once, runs of lines
    found with numpy) against the line diff of the whole texts it made when issue #15 was filed
    (``compare`` + ``shared_passages``, still the pair view's). Each document is in a few pairs, as in
    a report, where a text is cut once for all of them."""
    docs = corpus.documents(40 if quick else 150, chinese_share=0.1, near_share=0.0, seed=11)
    pairs = [(d, plant_edits(d, rate_, seed=k)) for k, d in enumerate(docs) for rate_ in (0.005, 0.03)]
    before_pairs = pairs[: max(20, len(pairs) // 6)]
    t = time.perf_counter()
    for left, right in before_pairs:
        shared_passages(compare(left, right))
    before = rate(len(before_pairs), time.perf_counter() - t)
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        vocabulary, cut = LineVocabulary(), {}
        for left, right in pairs:
            for text in (left, right):
                if id(text) not in cut:
                    cut[id(text)] = PassageText(text, vocabulary)
            cut[id(left)].shared_passages(cut[id(right)])
        best = min(best, time.perf_counter() - t)
    after = rate(len(pairs), best)
    t = time.perf_counter()
    for left, right in pairs:
        shared_passages_between(left, right)
    alone = rate(len(pairs), time.perf_counter() - t)
    chars = sum(len(a) + len(b) for a, b in pairs) / len(pairs) / 2
    return {
        "pairs": len(pairs),
        "characters_per_text": round(chars),
        "before_pairs_per_s": round(before, 1),
        "after_pairs_per_s": round(after, 1),
        "after_each_text_cut_per_pair_pairs_per_s": round(alone, 1),
        "speedup": round(after / before, 1),
    }


BENCHES = {
    "fingerprint": bench_fingerprint,
    "index": bench_index,
    "regroup": bench_regroup,
    "scan": bench_scan,
    "passages": bench_passages,
    "memory": bench_memory,
    "phases": bench_phases,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    parser.add_argument("--only", default=",".join(BENCHES), help="comma-separated: " + ", ".join(BENCHES))
    args = parser.parse_args()
    results = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__},
        "date": time.strftime("%Y-%m-%d"),
        "quick": args.quick,
    }
    for name in args.only.split(","):
        log(f"[{name}]")
        t = time.perf_counter()
        results[name] = BENCHES[name](args.quick)
        log(json.dumps(results[name], indent=2))
        log(f"  ({time.perf_counter() - t:.0f} s)")
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / ("bench-quick.json" if args.quick else "bench.json")
    previous = json.loads(out.read_text()) if out.exists() else {}
    out.write_text(json.dumps({**previous, **results}, indent=2))  # a partial run updates its own entries
    log(f"written {out}")


if __name__ == "__main__":
    main()
