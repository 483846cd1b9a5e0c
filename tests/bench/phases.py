"""Where a first scan's CPU goes, phase by phase: `python -m tests.bench.phases [--files N]`.

On 2 cores the serial parts of a scan hide; this measures them the way a 2-core machine cannot fake.
For each phase the scan reports (discover, read, fingerprint, index, boilerplate, match) and for the
JSON report written after it, it gives the wall time, the CPU seconds of the parent process and of
all processes (the parent and its worker processes, live or finished), and the parent's share; once
with 1 worker and once with 2, and the speed-up of each phase. By Amdahl, a parent share of p caps
the speed-up on 16 cores at 1 / (p + (1 - p) / 16): 5 % gives 9.1x, 25 % 3.4x (issue #15's goals:
parent share <= 5 %, every phase >= 1.8x with 2 workers). Writes bench-results/phases.json too.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from neardup_gui.core.jobs import ProgressEvent
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.session import Session
from tests.bench.run import RESULTS, log, tree_of


@dataclass
class Phase:
    wall: float = 0.0
    parent_cpu: float = 0.0
    all_cpu: float = 0.0


@dataclass
class PhaseMeter:
    """A progress callback that books wall and CPU time to the phase running (CPU read at each change
    of phase: the parent's own, and its children's, live ones and those already reaped)."""

    phases: dict[str, Phase] = field(default_factory=dict)
    current: str = "open the database"

    def __post_init__(self) -> None:
        self._me = psutil.Process()
        self._mark = self._sample()

    def _sample(self) -> tuple[float, float, float]:
        own = self._me.cpu_times()
        children = own.children_user + own.children_system  # finished worker processes
        for child in self._me.children(recursive=True):  # workers, and what a fork server reaped of them
            try:
                t = child.cpu_times()
                children += t.user + t.system + t.children_user + t.children_system
            except psutil.Error:
                pass
        return time.perf_counter(), own.user + own.system, own.user + own.system + children

    def switch(self, phase: str) -> None:
        """Book what happened since the last change to the phase that ran, and start ``phase``."""
        now = self._sample()
        booked = self.phases.setdefault(self.current, Phase())
        booked.wall += now[0] - self._mark[0]
        booked.parent_cpu += now[1] - self._mark[1]
        booked.all_cpu += now[2] - self._mark[2]
        self._mark, self.current = now, phase

    def __call__(self, event: ProgressEvent) -> None:
        if event.phase != self.current:
            self.switch(event.phase)


def measure(tree: Path, workers: int) -> dict[str, Phase]:
    """A first scan of ``tree`` with ``workers`` worker processes, then its JSON report, phase by phase."""
    with tempfile.TemporaryDirectory() as tmp, Session(Path(tmp) / "phases.db", workers=workers) as session:
        meter = PhaseMeter()
        with session.workers_kept(workers):  # as `neardup scan --format json` does
            session.scan(ScanOptions(roots=(str(tree),), workers=workers), Thresholds(), progress=meter)
            meter.switch("report (JSON)")
            session.report("json")
        meter.switch("end")
    return meter.phases


def table(one: dict[str, Phase], two: dict[str, Phase]) -> list[dict]:
    rows = []
    for name in [*one, *(n for n in two if n not in one)]:
        a, b = one.get(name, Phase()), two.get(name, Phase())
        rows.append(
            {
                "phase": name,
                "wall_1_worker_s": round(a.wall, 2),
                "wall_2_workers_s": round(b.wall, 2),
                "speedup_2_vs_1": round(a.wall / b.wall, 2) if b.wall > 0.01 else None,
                "parent_cpu_s": round(b.parent_cpu, 2),
                "all_cpu_s": round(b.all_cpu, 2),
                "parent_share": round(b.parent_cpu / b.all_cpu, 3) if b.all_cpu > 0.01 else None,
            }
        )
    total_parent = sum(p.parent_cpu for p in two.values())
    total_all = sum(p.all_cpu for p in two.values())
    share = total_parent / total_all if total_all else 0.0
    rows.append(
        {
            "phase": "whole scan + report",
            "wall_1_worker_s": round(sum(p.wall for p in one.values()), 2),
            "wall_2_workers_s": round(sum(p.wall for p in two.values()), 2),
            "speedup_2_vs_1": round(
                sum(p.wall for p in one.values()) / max(sum(p.wall for p in two.values()), 1e-9), 2
            ),
            "parent_cpu_s": round(total_parent, 2),
            "all_cpu_s": round(total_all, 2),
            "parent_share": round(share, 3),
            "amdahl_16_cores": round(1 / (share + (1 - share) / 16), 1),
        }
    )
    return rows


def run(files: int, *, write: bool = True) -> dict:
    """Measure a first scan of the benchmark's tree of ``files`` documents with 1 and 2 workers, print
    the table and (``write``) write bench-results/phases.json; returns the figures."""
    tree, size_mb = tree_of(files)
    log(f"first scan of {files} files ({size_mb:.0f} MB), 1 worker…")
    one = measure(tree, 1)
    log("… and 2 workers")
    two = measure(tree, 2)
    rows = table(one, two)
    header = f"{'phase':<22}{'1 worker':>10}{'2 workers':>11}{'2 vs 1':>8}{'parent CPU':>12}{'all CPU':>9}{'parent':>8}"
    print(header)
    for r in rows:
        speedup = f"{r['speedup_2_vs_1']:.2f}x" if r["speedup_2_vs_1"] else "-"
        share = f"{r['parent_share'] * 100:.0f} %" if r["parent_share"] is not None else "-"
        print(
            f"{r['phase']:<22}{r['wall_1_worker_s']:>9.2f}s{r['wall_2_workers_s']:>10.2f}s{speedup:>8}"
            f"{r['parent_cpu_s']:>11.2f}s{r['all_cpu_s']:>8.2f}s{share:>8}"
        )
    print(f"16 cores by Amdahl at this parent share: {rows[-1]['amdahl_16_cores']}x")
    result = {"files": files, "megabytes": round(size_mb), "phases": rows}
    if write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "phases.json").write_text(json.dumps(result, indent=1))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=20_000, help="documents in the tree (default 20,000)")
    run(parser.parse_args().files)


if __name__ == "__main__":
    main()
