"""The app on a large database (issue #45, point 3): a real MainWindow (offscreen, driven by pytest-qt) opens
the database of a first scan of the scale benchmark's documents and is used as a person would: the last
results shown, the groups tree scrolled, filtered, a member selected (its pair shown), the Pairs tab, the
histogram, a threshold moved.

    python -m tests.bench.app_scale [--docs 100000] [--database FILE]

For each step it prints the time until its answer is on screen and the longest the window stopped answering
meanwhile (a timer ticking every 5 ms on the GUI thread measures it: the aim is 200 ms for each), and the
peak memory of the app's process. Without ``--database`` the database is made once by a scan of the scale
benchmark's tree (tests.bench.scale) and kept beside it. Writes bench-results/app_scale-<docs>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.bench.scale import CACHE, RESULTS, tree_of

_CONFIG = "NEARDUP_APP_BENCH"  # the database and where to write the figures, for the test below
_TICK_MS = 5


def database_of(count: int) -> Path:
    """The database of a first scan of the scale tree of ``count`` documents (made once, kept)."""
    db = CACHE / f"app-scale-{count}.db"
    if not db.exists():
        import subprocess

        tree = tree_of(count)
        work = db.with_suffix(".part")
        work.unlink(missing_ok=True)
        print(f"  scanning {count:,} documents for the app's database (kept at {db})…", flush=True)
        subprocess.run(
            [sys.executable, "-m", "neardup_gui.cli", "scan", str(tree), "--db", str(work), "--quiet"]
            + ["--no-memory-check", "--format", "csv", "--out", str(work.with_suffix(".csv"))],
            check=True,
        )
        work.with_suffix(".csv").unlink()
        os.replace(work, db)
    return db


class _Watch:
    """The longest the GUI thread left a 5 ms timer waiting, and the process's peak memory (sampled every
    20 ms from a thread), since the last ``reset``."""

    def __init__(self) -> None:
        import psutil
        from PySide6.QtCore import QTimer

        self._process = psutil.Process()
        self.peak_rss = 0
        self.step_peak = 0
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        self._last = time.perf_counter()
        self.longest = 0.0
        self._timer = QTimer()
        self._timer.setInterval(_TICK_MS)
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            rss = self._process.memory_info().rss
            self.peak_rss, self.step_peak = max(self.peak_rss, rss), max(self.step_peak, rss)

    def tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last - _TICK_MS / 1000)
        self._last = now

    def reset(self) -> None:
        self._last = time.perf_counter()
        self.longest = 0.0
        self.step_peak = self._process.memory_info().rss

    def stop(self) -> None:
        self._timer.stop()
        self._stop.set()


@pytest.mark.e2e
def test_the_app_at_scale(qtbot, tmp_path: Path) -> None:
    """Each step once, in the order a person takes them; the figures are written, not asserted (a benchmark)."""
    from PySide6.QtCore import QSettings

    from neardup_gui.gui.app import create_app
    from neardup_gui.gui.main_window import MainWindow

    config = json.loads(os.environ[_CONFIG])
    create_app([], language="en")
    settings = QSettings(str(tmp_path / "neardup.ini"), QSettings.Format.IniFormat)
    watch = _Watch()
    steps: dict[str, dict] = {}

    def step(name: str, act, done, timeout_s: float = 900) -> None:
        qtbot.wait(300)  # what the last step left (a repaint, a histogram) settles first
        watch.reset()
        start = time.perf_counter()
        act()
        qtbot.waitUntil(done, timeout=int(timeout_s * 1000))
        seconds = time.perf_counter() - start
        watch.tick()  # a step that blocked and was done at once: its wait is a freeze too
        steps[name] = {
            "seconds": round(seconds, 3),
            "longest_freeze_ms": round(watch.longest * 1000, 1),
            "peak_rss_mb": round(watch.step_peak / 1e6),
        }
        print(
            f"  {name}: {seconds:.3f} s, the window stopped answering for at most "
            f"{watch.longest * 1000:.0f} ms, {watch.step_peak / 1e6:,.0f} MB",
            flush=True,
        )

    window: list[MainWindow] = []

    def open_window() -> None:
        w = MainWindow(settings, database=config["database"])
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        window.append(w)

    step(
        "open (the last results shown)",
        open_window,
        lambda: bool(window) and window[0].view is not None and window[0].groups.group_model.rowCount() > 0,
    )
    w = window[0]
    groups = w.groups
    step("histogram", lambda: None, lambda: w.thresholds.histogram.histogram is not None)
    bar = groups.tree.verticalScrollBar()

    def scroll() -> None:
        for value in (bar.maximum(), bar.maximum() // 2, bar.maximum() // 3, 0):
            bar.setValue(value)
            groups.tree.viewport().repaint()
        for _ in range(20):
            bar.triggerAction(bar.SliderAction.SliderPageStepAdd)
            groups.tree.viewport().repaint()

    step("scroll the groups (4 jumps and 20 pages)", scroll, lambda: True)
    rows = groups.group_model.listed_count
    step(
        "filter by a path",
        lambda: groups.filter_edit.setText("doc00012"),
        lambda: 0 < groups.group_model.listed_count < rows,
    )
    step(
        "filter by a topic, the next key",  # what a filter looks in is made by now (the first key made the rest)
        lambda: groups.filter_edit.setText("licen"),
        lambda: 0 < groups.group_model.listed_count < rows,
    )
    step("clear the filter", lambda: groups.filter_edit.setText(""), lambda: groups.group_model.listed_count == rows)

    def select_member() -> None:
        parent = groups.group_model.index(0, 0)
        groups.tree.expand(parent)
        groups.tree.setCurrentIndex(groups.group_model.index(1, 0, parent))

    step(
        "select a member (its pair shown)", select_member, lambda: groups.diff._shown is not None and not w.runner.busy
    )
    step(
        "the Pairs tab (every pair measured and listed)",
        lambda: w.tabs.setCurrentWidget(w.pairs),
        lambda: w.pairs.model.table is not None,
    )
    step("back to the groups", lambda: w.tabs.setCurrentWidget(groups), lambda: True)
    shown = w.view
    slider = w.thresholds.similarity_slider
    step(
        "move the similarity threshold",
        lambda: slider.setValue(slider.value() + 5),
        lambda: w.view is not shown and not w.regrouping.running and not w.session_jobs.busy,
    )
    watch.stop()
    summary = {
        "database": config["source"],
        "documents": len(w.view.result.documents) if w.view is not None else 0,
        "groups": rows,
        "steps": steps,
        "peak_rss_mb": round(watch.peak_rss / 1e6),
    }
    Path(config["out"]).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    w.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--database", type=Path, help="a scanned database to open (else the scale tree's, made once)")
    args = parser.parse_args()
    db = args.database.resolve() if args.database else database_of(args.docs)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"app_scale-{args.docs}.json"
    with tempfile.TemporaryDirectory(prefix="neardup-app-bench-") as home:
        # the app's settings, trash and caches in a folder of this run's; a copy of the database (the app
        # writes to it: decisions, measured overlaps) so that each run starts from the same
        for name, folder in (("DATA", "data"), ("CONFIG", "config"), ("CACHE", "cache")):
            os.environ[f"XDG_{name}_HOME"] = f"{home}/{folder}"
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        work = Path(home) / "neardup.db"
        print(f"  copying {db} …", flush=True)
        shutil.copy(db, work)
        if hasattr(os, "sync"):
            os.sync()  # the copy written out first: not while the app reads it (7 GB at a million documents)
        os.environ[_CONFIG] = json.dumps({"database": str(work), "source": str(db), "out": str(out)})
        code = pytest.main([__file__, "-q", "-s", "-o", "addopts=", "-p", "no:cacheprovider", f"--basetemp={home}/t"])
    if code != 0:
        raise SystemExit(code)
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
