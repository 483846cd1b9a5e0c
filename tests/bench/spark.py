"""The Spark job beside the desktop engine on the same tree (issue #18): documents a second, peak memory,
the same groups, and the cost projected per million documents.

    PYTHONPATH=. .venv/bin/python -m tests.bench.spark [--count 100000] [--master local[2]] [--reports json] [--rerun]

Both run as a user runs them, as commands: `neardup scan TREE --workers 2 --format json` into a new
database, and `neardup spark scan TREE --master local[2] --reports json` into a new folder: the same
report, beside what each keeps (the database; the job's Parquet tables, review records and fingerprints).
`--reports json,csv,html` times the job's default, which also renders the differences of the HTML report's
first groups, work the desktop's JSON report does not do. Memory is the peak resident size of the command
and every process under it (the JVM and Spark's Python workers included), sampled every 0.2 s, summed as
RSS (which counts a page shared by a fork server and its workers once in each) and as PSS (each shared page
divided among the processes that map it: the memory the job takes from the machine). Both work on a copy of
the kept tree made of hard links; `--rerun` then changes 1 % of its files (edited, removed, added) and runs
the desktop's rescan, the job with `--previous` and the job afresh, whose reports must be the same (issue
#44: a rerun costs at most 15 % of the first run). Results: bench-results/spark.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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


def linked_copy(tree: Path, into: Path) -> Path:
    """``tree`` again at ``into``, each file a hard link (no bytes copied): a tree the bench may change
    without touching the kept one, as long as a changed file is written anew, never in place."""
    for folder, _dirs, names in os.walk(tree):
        target = into / Path(folder).relative_to(tree)
        target.mkdir(parents=True, exist_ok=True)
        for name in names:
            if name != ".complete":
                os.link(Path(folder, name), target / name)
    return into


def change(tree: Path, share: float = 0.01, seed: int = 5) -> dict[str, int]:
    """Change ``share`` of the files of a linked copy as people change a collection: a third edited (a
    sentence added and a few words changed), a third removed, a third added (an edited copy of another
    file, under a new name). Every changed file is written anew, so the kept tree keeps its bytes."""
    from tests.conftest import plant_edits

    files = sorted(tree.rglob("*.txt"))
    rng = random.Random(seed)
    chosen = rng.sample(files, max(3, int(len(files) * share)))
    third = len(chosen) // 3
    for n, path in enumerate(chosen[:third]):
        text = plant_edits(path.read_text(encoding="utf-8"), 0.02, seed=n) + "\n\nEdited on a later day.\n"
        path.unlink()  # a new file: the link to the kept tree is broken, not written through
        path.write_text(text, encoding="utf-8")
    for path in chosen[third : 2 * third]:
        path.unlink()
    for n, path in enumerate(chosen[2 * third :]):
        source = rng.choice(files)
        text = plant_edits(source.read_text(encoding="utf-8"), 0.01, seed=1000 + n) if source.exists() else "new"
        (path.parent / f"added-{n:05d}.txt").write_text(text, encoding="utf-8")
    return {"edited": third, "removed": third, "added": len(chosen) - 2 * third}


def _reports_equal(a: Path, b: Path) -> bool:
    """Whether two results of the job hold the same JSON report (but for when it was made and the stages'
    seconds), and the same CSV where they have one (tests/spark/test_previous.py compares every table)."""
    left, right = (json.loads((r / "report.json").read_text(encoding="utf-8")) for r in (a, b))
    for r in (left, right):
        r.pop("generated")
        r["summary"]["scan"].pop("spark_seconds")
    csv = [r / "report.csv" for r in (a, b) if (r / "report.csv").exists()]
    return left == right and (not csv or (len(csv) == 2 and csv[0].read_bytes() == csv[1].read_bytes()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--reports", default="json", help="the job's reports (the desktop writes JSON)")
    parser.add_argument(
        "--rerun",
        action="store_true",
        help="then change 1 %% of the files and run each again: the desktop's rescan, the job with --previous, "
        "and the job afresh (its reports must be the same)",
    )
    args = parser.parse_args()
    tree, megabytes = tree_of(args.count)
    cores = int(args.master.split("[")[1].rstrip("]")) if args.master.startswith("local[") else os.cpu_count() or 1
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    with tempfile.TemporaryDirectory(prefix="neardup-spark-bench-") as tmp:
        work = linked_copy(tree, Path(tmp, "tree"))

        def desktop_scan(report: str) -> dict:
            cli = ["scan", str(work), "--db", f"{tmp}/d.db", "--workers", "2", "--format", "json"]
            return timed([sys.executable, "-m", "neardup_gui.cli", *cli, "--out", f"{tmp}/{report}", "--quiet"])

        def job(out: str, *more: str) -> dict:
            cli = ["spark", "scan", str(work), "--out", f"{tmp}/{out}", "--master", args.master]
            done = timed(
                [sys.executable, "-m", "neardup_gui.cli", *cli, "--reports", args.reports, *more, "--quiet"], env=env
            )
            said = json.loads(Path(tmp, out, "job.json").read_text(encoding="utf-8"))
            return {**done, "stages_s": said["seconds"], "counts": said["counts"]}

        log(f"desktop: neardup scan {args.count} files, 2 workers…")
        desktop = desktop_scan("desktop.json")
        log(f"  {desktop}")
        log(f"spark: neardup spark scan --master {args.master}…")
        spark = job("spark")
        log(f"  {spark}")
        same = groups_of(Path(tmp, "desktop.json")) == groups_of(Path(tmp, "spark", "report.json"))
        rerun = {}
        if args.rerun:
            changed = change(work)
            log(f"changed: {changed}; the desktop's rescan, the job with --previous, the job afresh…")
            again = desktop_scan("desktop2.json")
            previous = job("spark2", "--previous", f"{tmp}/spark")
            fresh = job("spark3")
            rerun = {
                "changed": changed,
                "desktop_rescan": {**again, "share_of_first": round(again["seconds"] / desktop["seconds"], 3)},
                "spark_with_previous": {**previous, "share_of_first": round(previous["seconds"] / spark["seconds"], 3)},
                "spark_afresh": fresh,
                "same_reports_as_afresh": _reports_equal(Path(tmp, "spark2"), Path(tmp, "spark3")),
            }
            log(f"  {rerun}")
    spark_rate = args.count / spark["seconds"]
    result = {
        "documents": args.count,
        "megabytes": round(megabytes),
        "master": args.master,
        "cores": cores,
        "spark_reports": args.reports,
        "desktop_2_workers": {**desktop, "documents_per_s": round(args.count / desktop["seconds"])},
        "spark": {**spark, "documents_per_s": round(spark_rate)},
        "spark_vs_desktop": round(desktop["seconds"] / spark["seconds"], 2),
        "same_groups": same,
        # what a million documents costs at this pace per core, if the job's stages scale with the cores
        # (the map stages do; the shuffles add network time a single machine does not show)
        "core_hours_per_million_documents": round(1e6 / spark_rate * cores / 3600, 2),
        **({"rerun_after_1_percent_changed": rerun} if rerun else {}),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "spark.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
