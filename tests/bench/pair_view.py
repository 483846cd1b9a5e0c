"""What opening a pair costs: a 1 MB document against its near-copy (English, and Chinese with few line
breaks), compared (core.review.compare.compare) and laid out for a pane (Layout), beside the stdlib peer
(difflib: lines, then characters inside each changed pair of lines) on the same texts in the same run.
With ``--gui`` also the time until the pair view (a real DiffView, offscreen) has painted its first screen
(a large pair is first compared from its first difference on), and until the whole comparison is shown.

    python -m tests.bench.pair_view [--mb 1] [--gui]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from difflib import SequenceMatcher

from neardup_gui.core.review.compare import compare, describe
from neardup_gui.core.review.layout import Layout
from tests.conftest import chinese_texts, english_texts, plant_edits


def _megabyte(parts: list[str], size: int) -> str:
    out, total, k = [], 0, 0
    while total < size:
        part = plant_edits(parts[k % len(parts)], 0.02, seed=k)  # no two repeats alike
        out.append(part)
        total += len(part.encode())
        k += 1
    return "\n".join(out)


def _difflib_peer(left: str, right: str) -> int:
    """The plain stdlib way: lines aligned, then characters inside each changed pair of lines. Lines
    longer than 2,000 characters are left whole (difflib is quadratic there and would not finish)."""
    a, b = left.splitlines(), right.splitlines()
    marked = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b).get_opcodes():
        if tag == "replace":
            for x, y in zip(a[i1:i2], b[j1:j2], strict=False):
                if len(x) + len(y) <= 4_000:
                    marked += len(SequenceMatcher(None, x, y).get_opcodes())
    return marked


def _time(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _gui_first_screen(left: str, right: str) -> tuple[float, float]:
    """Seconds from asking a real pair view (offscreen Qt) for a pair until its first screen is painted
    (texts handed over, compared in the pool, laid out, scrolled to the first difference, painted), and
    until the whole comparison is shown."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from neardup_gui.core.models import Document, Similarity, Status
    from neardup_gui.core.store.stored_text import DocumentText
    from neardup_gui.gui.app import create_app
    from neardup_gui.gui.diff_view import DiffView
    from neardup_gui.gui.worker import JobRunner

    app = create_app([])  # as the app starts: its GIL switch interval too
    view = DiffView()
    view.runner = JobRunner(view)
    view.resize(1200, 800)
    view.show()
    app.processEvents()
    docs = [Document(n, f"/bench/{n}.txt", 1, 0, "txt", Status.OK, "", 1, n) for n in (1, 2)]
    texts = {1: left, 2: right}
    started = time.perf_counter()
    view.show_pending(docs[0], docs[1], Similarity(0, 1.0, 1.0, 1.0, 1.0))
    view.compare_documents(docs[0], docs[1], lambda doc: DocumentText(texts[doc.id]))
    while view.comparison is None:
        app.processEvents()
        time.sleep(0.001)
    view.table.viewport().repaint()
    first = time.perf_counter() - started
    while view.comparison is None or not view.comparison.complete:
        app.processEvents()
        time.sleep(0.001)
    view.table.viewport().repaint()
    whole = time.perf_counter() - started
    view.runner.shutdown()  # a relayout for the final width may still run
    view.close()
    return first, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--edits", type=float, default=0.005, help="share of words (Han: characters) edited")
    parser.add_argument("--gui", action="store_true")
    args = parser.parse_args()
    size = int(args.mb * 1_000_000)
    cases = {
        "English": _megabyte(list(english_texts().values()), size),
        "Chinese": _megabyte(["".join(t.split()) for t in chinese_texts().values()], size),  # no line breaks
    }
    for name, left in cases.items():
        right = plant_edits(left, args.edits, seed=99)
        lines = left.count("\n") + 1
        comparison = compare(left, right)
        t_compare = _time(lambda left=left, right=right: compare(left, right))
        t_layout = _time(lambda comparison=comparison: Layout(comparison, 100))
        t_peer = _time(lambda left=left, right=right: _difflib_peer(left, right), repeat=3)
        rows = len(Layout(comparison, 100))
        print(
            f"{name}: {len(left.encode()) / 1e6:.2f} MB, {lines:,} lines → {rows:,} rows at 100 columns; "
            f"{describe(comparison)}\n"
            f"  compare {t_compare * 1e3:.0f} ms + lay out {t_layout * 1e3:.0f} ms "
            f"= {(t_compare + t_layout) * 1e3:.0f} ms;  peer difflib (lines, then characters) {t_peer * 1e3:.0f} ms"
        )
        if args.gui:
            runs = [_gui_first_screen(left, right) for _ in range(5)]
            first = statistics.median(r[0] for r in runs)
            whole = statistics.median(r[1] for r in runs)
            print(f"  pair view: first screen painted {first * 1e3:.0f} ms; the whole pair shown {whole * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
