"""Grouping many short documents at a low threshold, with its peak memory:
`python -m tests.bench.short_grouping [--count 100000] [--jaccard 0.5]`.

Short texts are shingled by characters, so thousands of one-line notes share LSH buckets and every pair
inside a bucket is a candidate: the case that once held every such pair at once (14.6 GB, then
MemoryError, at 100,000 one-line files). The documents are real distinct lines of source code and
documentation (tests/bench/corpus.short_lines). The database is built from their fingerprints; the
grouping then runs in a fresh process, so its peak resident memory is its own.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.store import Store
from tests.bench.corpus import short_lines

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"

_GROUP = """
import json, resource, sys, time
from neardup_gui.core.match import Matcher
from neardup_gui.core.models import Thresholds
from neardup_gui.core.store.store import Store
started = time.perf_counter()
with Store(sys.argv[1]) as store:
    result = Matcher(store).match(Thresholds(jaccard=float(sys.argv[2])))
print(json.dumps({"seconds": time.perf_counter() - started, "groups": len(result.groups),
                  "grouped": sum(len(g.members) for g in result.groups),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def build(db: Path, count: int) -> float:
    """A database of ``count`` distinct short lines; returns the seconds it took."""
    started = time.perf_counter()
    scheme = Scheme.current()
    with Store(db) as store:
        store.ensure_scheme(scheme)
        lines = short_lines(count)
        for start in range(0, count, 5_000):
            fps, files = [], []
            for n, line in enumerate(lines[start : start + 5_000], start=start):
                fp = fingerprint_bytes("text", line.encode(), scheme)
                fps.append(fp)
                files.append(FileRecord(f"/notes/{n:06d}.txt", len(line), 0, "text", content_hash=fp.raw_hash))
            store.write_batch(fps, files)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--jaccard", type=float, default=0.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "short.db"
        built = build(db, args.count)
        proc = subprocess.run(
            [sys.executable, "-c", _GROUP, str(db), str(args.jaccard)], capture_output=True, text=True, check=True
        )
        measured = json.loads(proc.stdout)
    result = {
        "documents": args.count,
        "jaccard": args.jaccard,
        "build_seconds": round(built, 1),
        **{k: round(v, 1) if isinstance(v, float) else v for k, v in measured.items()},
    }
    print(json.dumps(result, indent=1))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "short-grouping.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
