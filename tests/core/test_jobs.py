"""The pace both front ends show: rates per phase and the time left."""

from __future__ import annotations

from neardup_gui.core.jobs import PaceMeter, ProgressEvent
from neardup_gui.core.scan import ScanSummary, summary_text


def test_each_phase_is_timed_from_its_own_start():
    now = [100.0]
    meter = PaceMeter(clock=lambda: now[0])
    assert meter(ProgressEvent("read", 0, 200)).seconds_left is None  # nothing done yet
    now[0] = 110.0
    pace = meter(ProgressEvent("read", 50, 200, bytes_done=5_000_000))
    assert pace.rate == 5.0 and pace.bytes_rate == 500_000.0
    assert pace.seconds_left == 30.0 and pace.left_text == "0:30"
    pace = meter(ProgressEvent("match", 10, None))  # a new phase starts its own clock; no total, no ETA
    assert pace.seconds_left is None and pace.left_text == ""
    now[0] = 112.0
    assert meter(ProgressEvent("match", 10, 20)).rate == 5.0
    now[0] = 110.0 + 3 * 3600
    assert meter(ProgressEvent("read", 100, 10_000)).left_text == "17836:30"  # 9,900 left at 100 in 10,810 s


def test_the_scan_summary_names_every_count_and_a_vanished_folder():
    summary = ScanSummary(
        roots=("/a",),
        files_found=1234,
        extracted=1000,
        reused=10,
        unchanged=200,
        removed=4,
        problems=20,
        seconds=3.25,
        vanished_roots=("/gone",),
    )
    text = summary_text(summary)
    assert text.startswith("1,234 files in 3.2 s: 1,000 read, 10 reused, 200 unchanged, 4 gone, 20 with problems")
    assert text.endswith("; /gone no longer exists: its documents left the results")
