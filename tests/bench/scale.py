"""A first scan at 100,000 / 300,000 / 1,000,000 documents (issue #45):
`python -m tests.bench.scale [--sizes 100000,300000,1000000] [--workers 2]`.

The documents are about 4 KB each, 10 % near-copies of earlier ones and 10 % Chinese, made from the same
real text as the other benchmarks. Each document is made from its own number, so a tree of a million is
written without holding the collection in memory, and a tree of 300,000 is the first 300,000 of it.

For each size it prints the first scan's time, the peak memory of all processes (RSS, and PSS, which
shares a fork server's pages among its workers instead of counting them in each) and of the parent, the
CPU the parent spent against all processes, and from that share the time projected on 16 cores. The
trees are kept under the system's temporary folder (about 4.6 GB at a million); each scan's database is
made in a temporary folder and removed after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing import get_context
from pathlib import Path

from tests.bench import corpus
from tests.conftest import plant_edits

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"
CACHE = Path(tempfile.gettempdir()) / "neardup-bench"
SIZE = 4_000  # characters a document
NEAR_SHARE = 0.1
CHINESE_SHARE = 0.1
FILES_PER_FOLDER = 1_000
SEED = 45


def original(n: int) -> str:
    """Document ``n`` as first written: paragraphs (or sentences) drawn by its own number."""
    rng = random.Random(SEED * 10_000_019 + n)
    chinese = rng.random() < CHINESE_SHARE
    source, glue = (corpus.chinese_sentences(), "") if chinese else (corpus.english_paragraphs(), "\n\n")
    parts: list[str] = []
    length = 0
    while length < SIZE:
        part = rng.choice(source)
        parts.append(part)
        length += len(part) + len(glue)
    return glue.join(parts)[:SIZE]  # some licence paragraphs run to pages


def document(n: int) -> str:
    """Document ``n``: a near-copy of an earlier document (edited at 0.5–10 %) or an original."""
    rng = random.Random(SEED * 7_000_003 + n)
    if n > 0 and rng.random() < NEAR_SHARE:
        return plant_edits(document(rng.randrange(n)), rng.choice((0.005, 0.01, 0.03, 0.1)), seed=n)
    return original(n)


def _write_folder(job: tuple[Path, int, int]) -> int:
    root, start, stop = job
    folder = root / f"batch{start // FILES_PER_FOLDER:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for n in range(start, stop):
        data = document(n).encode("utf-8")
        (folder / f"doc{n:07d}.txt").write_bytes(data)
        total += len(data)
    return total


def tree_of(count: int) -> Path:
    """The tree of ``count`` documents, written once (by all cores) and kept."""
    tree = CACHE / f"scale-{count}"
    marker = tree / ".complete"
    if marker.exists():
        return tree
    jobs = [(tree, s, min(s + FILES_PER_FOLDER, count)) for s in range(0, count, FILES_PER_FOLDER)]
    print(f"  writing {count:,} documents to {tree}…", flush=True)
    corpus.english_paragraphs(), corpus.chinese_sentences()  # read once, before the fork
    with get_context("fork").Pool(os.cpu_count()) as pool:
        written = sum(pool.imap_unordered(_write_folder, jobs, chunksize=4))
    marker.write_text(str(written))
    return tree


def _cpu(process: object) -> float:
    times = process.cpu_times()  # type: ignore[attr-defined]
    return float(times.user + times.system)


def timed_scan(tree: Path, db: Path, workers: int, report: Path, timeline: Path | None = None) -> dict:
    """`neardup scan` of ``tree`` writing a JSON report: its time, peak memory (all processes as RSS and
    as PSS, the parent as RSS) and CPU seconds (the parent's and all processes'); with ``timeline``, the
    memory of the parent and of all processes every second (seconds, MB, MB), to see which phase peaks."""
    import psutil

    cmd = [sys.executable, "-m", "neardup_gui.cli", "scan", str(tree), "--db", str(db)]
    cmd += ["--workers", str(workers), "--format", "json", "--out", str(report), "--quiet", "--no-memory-check"]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    peak = dict(rss=0, pss=0, parent=0)
    cpu_seen: dict[int, float] = {}  # the last CPU seconds seen of each process
    parent_cpu = 0.0
    done = threading.Event()
    lines: list[str] = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env)

    def sample() -> None:
        nonlocal parent_cpu
        parent = psutil.Process(proc.pid)
        ticks = 0
        while not done.is_set():
            try:
                own = parent.memory_full_info() if ticks % 5 == 0 else parent.memory_info()
                rss = pss = own.rss
                if hasattr(own, "pss"):
                    pss = own.pss
                parent_cpu = _cpu(parent)
                for child in parent.children(recursive=True):
                    try:
                        info = child.memory_full_info() if ticks % 5 == 0 else child.memory_info()
                        rss += info.rss
                        pss += getattr(info, "pss", 0)
                        cpu_seen[child.pid] = _cpu(child)
                    except psutil.Error:
                        pass
                peak["rss"] = max(peak["rss"], rss)
                peak["parent"] = max(peak["parent"], own.rss)
                if ticks % 5 == 0:  # PSS costs a read of every mapping: once a second
                    peak["pss"] = max(peak["pss"], pss)
                    lines.append(f"{time.perf_counter() - started:.0f} {own.rss / 1e6:.0f} {rss / 1e6:.0f}")
            except psutil.Error:
                pass
            ticks += 1
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    code = proc.wait()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if timeline is not None:
        timeline.write_text("seconds parent_mb all_mb\n" + "\n".join(lines) + "\n", encoding="utf-8")
    if code != 0:
        raise RuntimeError(f"scan failed with exit code {code}")
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    total_cpu = max(reaped, parent_cpu + sum(cpu_seen.values()))
    parent_share = parent_cpu / total_cpu if total_cpu else 0.0
    # Amdahl: the parent's work stays serial; the rest divides among 16 workers
    projected_16 = parent_cpu + (total_cpu - parent_cpu) / 16
    return {
        "seconds": round(seconds, 1),
        "peak_rss_mb_all_processes": round(peak["rss"] / 1e6),
        "peak_pss_mb_all_processes": round(peak["pss"] / 1e6),
        "peak_rss_mb_parent": round(peak["parent"] / 1e6),
        "cpu_seconds_parent": round(parent_cpu, 1),
        "cpu_seconds_all": round(total_cpu, 1),
        "parent_share_of_cpu": round(parent_share, 3),
        "projected_seconds_16_cores": round(projected_16, 1),
    }


def groups_of(report: Path) -> list[list[str]]:
    """A JSON report's groups as sorted lists of paths, sorted: what "the same groups" compares."""
    found = json.loads(report.read_text(encoding="utf-8"))
    return sorted(sorted(m["path"] for m in g["members"]) for g in found["groups"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000,1000000")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep-report", type=Path, help="copy the smallest size's JSON report here")
    parser.add_argument("--timeline", type=Path, help="a folder for each size's memory timeline")
    parser.add_argument(
        "--keep-database",
        type=Path,
        help="move the largest size's database here (for the app's and queries' benchmarks)",
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: dict[int, dict] = {}
    for count in sizes:
        tree = tree_of(count)
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            report = Path(tmp) / "report.json"
            print(f"  scanning {count:,}…", flush=True)
            timeline = args.timeline / f"timeline-{count}.txt" if args.timeline else None
            rows[count] = timed_scan(tree, Path(tmp) / "scale.db", args.workers, report, timeline)
            rows[count]["groups"] = len(json.loads(report.read_text(encoding="utf-8"))["groups"])
            if args.keep_report and count == min(sizes):
                args.keep_report.write_bytes(report.read_bytes())
            if args.keep_database and count == max(sizes):
                os.replace(Path(tmp) / "scale.db", args.keep_database)
        print(f"  {count:,}: {json.dumps(rows[count])}", flush=True)
    previous = None
    print()
    print(
        "| documents | first scan | × previous | peak, all (RSS / PSS) | peak of the parent "
        "| parent's CPU share | 16 cores (projected) |"
    )
    print("|---|---|---|---|---|---|---|")
    for count in sizes:
        r = rows[count]
        growth = f"{r['seconds'] / rows[previous]['seconds']:.2f}" if previous else "—"
        print(
            f"| {count:,} | {r['seconds']} s | {growth} | {r['peak_rss_mb_all_processes']:,} / "
            f"{r['peak_pss_mb_all_processes']:,} MB | {r['peak_rss_mb_parent']:,} MB | "
            f"{r['parent_share_of_cpu']:.1%} | {r['projected_seconds_16_cores']} s |"
        )
        previous = count
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "scale.json"
    out.write_text(json.dumps({"workers": args.workers, "sizes": rows}, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
