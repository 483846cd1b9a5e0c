"""A scan that would need more memory than the computer has free asks first (issue #45): the window says
so in words before anything is read, and offers the ways on."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtWidgets import QMessageBox

from neardup_gui.core import forecast
from tests.gui.conftest import answer_dialog, press


def _files_known(db_path: str) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT count(*) FROM files").fetchone()[0]


@pytest.mark.e2e
def test_a_scan_short_of_memory_reads_nothing_until_the_person_says_scan_anyway(window, uploads, qtbot, monkeypatch):
    """With 50 MB free, not even one worker fits: the box says how much the 8 files would need, and
    offers no fewer workers. Cancel reads nothing; Scan anyway scans them."""
    monkeypatch.setattr(forecast, "free_memory", lambda: 50 << 20)
    w = window(folders=[str(uploads)])
    seen = answer_dialog(qtbot, QMessageBox, press("Cancel"))
    w.start_scan()
    qtbot.waitUntil(lambda: bool(seen) and w.scan_job is None, timeout=60_000)
    assert "A scan of 8 files may need about" in seen[0] and "50 MB free" in seen[0]
    assert "Nothing was read" in seen[0] and "Even with one worker" in seen[0]
    assert w.result is None and _files_known(w.db_path) == 0

    seen = answer_dialog(qtbot, QMessageBox, press("Scan anyway"))
    w.start_scan()
    qtbot.waitUntil(lambda: bool(seen) and w.result is not None and w.scan_job is None, timeout=120_000)
    assert w.result.groups and _files_known(w.db_path) == 8


@pytest.mark.e2e
def test_a_scan_short_of_memory_for_two_workers_is_offered_one(window, uploads, qtbot, monkeypatch):
    """With room for one worker but not two, the box offers to scan with one, and that scan runs."""
    between = (forecast.projected_need(8, 1) + forecast.projected_need(8, 2)) // 2
    monkeypatch.setattr(forecast, "free_memory", lambda: between)
    w = window(folders=[str(uploads)])
    started = []
    real_scan = w.session.scan
    monkeypatch.setattr(
        w.session, "scan", lambda options, *a, **k: started.append(options) or real_scan(options, *a, **k)
    )
    seen = answer_dialog(qtbot, QMessageBox, press("Scan with 1 worker"))
    w.start_scan(workers=2)
    qtbot.waitUntil(lambda: bool(seen) and w.result is not None and w.scan_job is None, timeout=120_000)
    assert "With 1 worker it would need about" in seen[0]
    assert [o.workers for o in started] == [2, 1] and w.result.groups
