"""The Spark job beside the desktop engine on the same tree (issue #18): documents a second, peak memory,
the same groups, and the cost projected per million documents.

    PYTHONPATH=. .venv/bin/python -m tests.bench.spark [--count 100000] [--master local[2]]

Both run as a user runs them, as commands: `neardup scan TREE --workers 2 --format json` into a new
database, and `neardup spark scan TREE --master local[2]` into a new folder (its JSON report and Parquet
tables). Memory is the peak resident size of the command and every process under it (the JVM and
Spark's Python workers included), sampled every 0.2 s, summed as RSS (which counts a page shared by a fork
server and its workers once in each) and as PSS (each shared page divided among the processes that map it:
the memory the job takes from the machine). Results: bench-results/spark.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.bench.run import log, tree_of

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"


def _memory(parent: object) -> tuple[int, int]:
    """The resident size of a process and all under it, summed two ways: RSS, and PSS without the processes
    that are still an image of their parent.

    RSS counts a page in every process that maps it, so a fork server's workers and the JVM's child count
    their parent's pages again. PSS shares each page among the processes that map it. A child the JVM
    forks (or vforks) to start a program shows the JVM's whole memory until it execs, and under vfork it
    shares the JVM's address space, so PSS counts it twice too: such a child (named as its parent) is left
    out of the PSS sum."""
    import psutil

    assert isinstance(parent, psutil.Process)
    rss = pss = 0
    for process in [parent, *parent.children(recursive=True)]:
        try:
            info = process.memory_full_info()
            rss += info.rss
            if process is parent or process.name() != "java" or process.parent().name() != "java":
                pss += info.pss
        except psutil.Error:
            pass
    return rss, pss


def timed(cmd: list[str], env: dict[str, str] | None = None) -> dict:
    """Run a command; its seconds and the peak memory of it and its children (MB), as RSS and as PSS."""
    import psutil

    peak_rss = peak_pss = 0
    done = threading.Event()
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def sample() -> None:
        nonlocal peak_rss, peak_pss
        try:
            parent = psutil.Process(proc.pid)
        except psutil.Error:
            return
        while not done.is_set():
            rss, pss = _memory(parent)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _out, err = proc.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:4]} failed ({proc.returncode}): {err[-2000:]}")
    return {
        "seconds": round(seconds, 1),
        "peak_rss_mb_all_processes": round(peak_rss / 1e6),
        "peak_pss_mb_all_processes": round(peak_pss / 1e6),
    }


def groups_of(report: Path) -> set[frozenset[str]]:
    found = json.loads(report.read_text(encoding="utf-8"))
    return {frozenset(m["path"] for m in g["members"]) for g in found["groups"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    tree, megabytes = tree_of(args.count)
    cores = int(args.master.split("[")[1].rstrip("]")) if args.master.startswith("local[") else os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="neardup-spark-bench-") as tmp:
        log(f"desktop: neardup scan {args.count} files, 2 workers…")
        desktop = timed(
            [
                sys.executable,
                "-m",
                "neardup_gui.cli",
                "scan",
                str(tree),
                "--db",
                f"{tmp}/d.db",
                "--workers",
                "2",
                "--format",
                "json",
                "--out",
                f"{tmp}/desktop.json",
                "--quiet",
            ]
        )
        log(f"  {desktop}")
        log(f"spark: neardup spark scan --master {args.master}…")
        env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
        spark = timed(
            [
                sys.executable,
                "-m",
                "neardup_gui.cli",
                "spark",
                "scan",
                str(tree),
                "--out",
                f"{tmp}/spark",
                "--master",
                args.master,
                "--quiet",
            ],
            env=env,
        )
        log(f"  {spark}")
        job = json.loads(Path(tmp, "spark", "job.json").read_text(encoding="utf-8"))
        same = groups_of(Path(tmp, "desktop.json")) == groups_of(Path(tmp, "spark", "report.json"))
    spark_rate = args.count / spark["seconds"]
    result = {
        "documents": args.count,
        "megabytes": round(megabytes),
        "master": args.master,
        "cores": cores,
        "desktop_2_workers": {**desktop, "documents_per_s": round(args.count / desktop["seconds"])},
        "spark": {**spark, "documents_per_s": round(spark_rate), "stages_s": job["seconds"], "counts": job["counts"]},
        "spark_vs_desktop": round(desktop["seconds"] / spark["seconds"], 2),
        "same_groups": same,
        # what a million documents costs at this pace per core, if the job's stages scale with the cores
        # (the map stages do; the shuffles add network time a single machine does not show)
        "core_hours_per_million_documents": round(1e6 / spark_rate * cores / 3600, 2),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "spark.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
