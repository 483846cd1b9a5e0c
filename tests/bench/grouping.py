"""The first grouping of a large scanned collection: `python -m tests.bench.grouping [--files N] [--db FILE]`.

Scans the benchmark's tree of N documents once (kept in the cache; or takes the scanned database
``--db``), then groups a copy of it with its kept forests dropped, as the first grouping after a scan
does: LSH candidates, the MinHash forest with its exact overlaps, the groups. Reports the wall time,
the CPU seconds of the parent and of all processes, and the peak resident memory of the parent and of
all processes (sampled every 0.2 s), with the number of candidates and groups. Issue #15: the parent
only schedules (its share of the CPU), and memory stays bounded at 100,000 documents.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from neardup_gui.core.fingerprint.scheme import SCHEME_VERSION
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.session import Session
from tests.bench.run import CACHE, RESULTS, log, tree_of


def _scanned(files: int, workers: int) -> Path:
    """The cached database of the benchmark tree of ``files`` documents, scanned once."""
    return scanned_once(CACHE / f"grouping-{files}-scheme{SCHEME_VERSION}.db", lambda: tree_of(files)[0], workers)


def scanned_once(db: Path, tree: Callable[[], Path], workers: int) -> Path:
    """``db``, the folder ``tree()`` gives scanned once and kept in the cache (named for the fingerprint
    scheme: a database of another is read again)."""
    if not db.exists():
        root = tree()
        log(f"  scanning {root} once (kept in {db})…")
        partial = db.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        with Session(partial, workers=workers) as session:
            session.scan(ScanOptions(roots=(str(root),), workers=workers), Thresholds())
        partial.rename(db)
    return db


def _cpu(process: psutil.Process) -> tuple[float, float]:
    """(the process's CPU seconds, those of it and all its children, live or reaped)."""
    own = process.cpu_times()
    total = own.user + own.system + own.children_user + own.children_system
    for child in process.children(recursive=True):
        try:
            t = child.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            pass
    return own.user + own.system, total


def measure(source: Path, jaccard: float, workers: int) -> dict:
    """Group a copy of ``source`` (its forests dropped) at ``jaccard``; what it cost."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "g.db"
        shutil.copy(source, db)
        with sqlite3.connect(db) as connection:
            connection.execute("DELETE FROM forests")
        me = psutil.Process()
        peak = {"parent": 0, "all": 0}
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                try:
                    own = me.memory_info().rss
                    total = own + sum(c.memory_info().rss for c in me.children(recursive=True))
                except psutil.Error:
                    continue
                peak["parent"], peak["all"] = max(peak["parent"], own), max(peak["all"], total)
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        with Session(db, workers=workers) as session:
            parent0, all0 = _cpu(me)
            started = time.perf_counter()
            view = session.open([], Thresholds(jaccard=jaccard))
            wall = time.perf_counter() - started
            parent1, all1 = _cpu(me)  # before the session closes its workers
            documents, groups = len(view.result.documents), len(view.result.groups)
        done.set()
        sampler.join()
    parent_cpu, all_cpu = parent1 - parent0, all1 - all0
    return {
        "documents": documents,
        "jaccard": jaccard,
        "workers": workers,
        "groups": groups,
        "seconds": round(wall, 1),
        "parent_cpu_s": round(parent_cpu, 1),
        "all_cpu_s": round(all_cpu, 1),
        "parent_share": round(parent_cpu / all_cpu, 3) if all_cpu else None,
        "peak_rss_mb_parent": round(peak["parent"] / 1e6),
        "peak_rss_mb_all_processes": round(peak["all"] / 1e6),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="a scanned database to group (instead of the benchmark tree)")
    parser.add_argument("--jaccard", type=float, default=0.8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    source = args.db or _scanned(args.files, args.workers)
    result = measure(source, args.jaccard, args.workers)
    print(json.dumps(result, indent=2))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "grouping.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
