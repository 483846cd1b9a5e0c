"""The memory a scan will need, against what there is: which scans are refused, and what is offered."""

from __future__ import annotations

import pytest

from neardup_gui.core.forecast import MemoryShort, forecast, projected_need
from tests.conftest import speaking


def test_the_need_grows_with_documents_and_workers_and_meets_what_the_benchmark_measured():
    # the scale benchmark's peaks of all processes, 2 workers: 700 / 1,457 / 3,772 MB (RSS)
    for documents, measured in ((100_000, 700e6), (300_000, 1_457e6), (1_000_000, 3_772e6)):
        assert measured <= projected_need(documents, 2) <= 1.5 * measured
    assert projected_need(10, 1) < projected_need(10, 2) < projected_need(10_000, 2)


def test_fewer_workers_are_offered_only_when_they_fit():
    between = (projected_need(50_000, 3) + projected_need(50_000, 4)) // 2
    short = forecast(50_000, 8, between)
    fewer = short.fewer_workers()
    assert short.short and fewer is not None and fewer.workers == 3 and not fewer.short
    assert forecast(50_000, 8, 1 << 20).fewer_workers() is None  # not even one fits
    assert forecast(50_000, 1, 1 << 20).fewer_workers() is None  # one already
    assert not forecast(50_000, 8, 1 << 40).short
    with pytest.raises(ValueError):
        forecast(10, 0)


def test_the_warning_says_what_it_needs_what_there_is_and_what_fewer_workers_would_need():
    between = (projected_need(1_000_000, 1) + projected_need(1_000_000, 2)) // 2
    said = str(MemoryShort(forecast(1_000_000, 2, between)))
    assert said.startswith("A scan of 1,000,000 files may need about 4.2 GB of memory, more than the 4.0 GB")
    assert said.endswith("With 1 worker it would need about 3.8 GB and take longer.")
    with speaking("zh_CN"):
        said = str(MemoryShort(forecast(1_000_000, 2, 1 << 30)))
    assert "1,000,000" in said and "内存" in said and "。即使只用一个工作进程" in said  # no space after 。
