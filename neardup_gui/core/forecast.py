"""How much memory a scan will need, said before it reads anything (issue #45).

A scan's memory grows with its documents: the parent holds their records, their signatures and the
candidates of the grouping, each worker its share of a step and the signatures it maps. The model below
is fitted to the scale benchmark (tests/bench/scale.py: documents of ~4 KB, a tenth near-copies, at
100,000, 300,000 and 1,000,000) with a margin, and compared with what the machine has free (psutil's
"available": memory the system can give without swapping). When the scan would need more, it does not
start: the person is told in words, with the ways on (fewer workers, the Spark job, or anyway).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import psutil

from .errors import NeardupError
from .i18n import sentences, translate
from .workers.pool import memory_size

# fitted to the scale benchmark's peaks (2026-11-29, 2 workers): all processes 700 / 1,457 / 3,772 MB (RSS)
# at 100,000 / 300,000 / 1,000,000 documents, the parent 291 / 788 / 2,552 MB
_PARENT_BASE = 110 << 20  # Python, numpy, jieba's dictionary
_PARENT_PER_DOCUMENT = 2_500  # bytes: records, signatures, the grouping's candidates and pairs
_SHARED_PER_DOCUMENT = 512  # the signatures' file the workers map: once, whatever their number
_WORKER_BASE = 60 << 20
_WORKER_PER_DOCUMENT = 250  # a worker's share of a step
_MARGIN = 1.2


@dataclass(frozen=True, slots=True)
class MemoryForecast:
    """The memory a scan of ``documents`` files with ``workers`` processes would need at its peak (bytes,
    all processes), against ``budget``: what the machine has free, or what the person allowed."""

    documents: int
    workers: int
    need: int
    budget: int
    budget_given: bool = False  # the person's limit, not the memory free

    @property
    def short(self) -> bool:
        """Whether the scan would need more than the budget."""
        return self.need > self.budget

    def with_workers(self, workers: int) -> MemoryForecast:
        return dataclasses.replace(self, workers=workers, need=projected_need(self.documents, workers))

    def fewer_workers(self) -> MemoryForecast | None:
        """The same scan with the most workers that fit the budget (None: none does, or it has one)."""
        fitting = (self.with_workers(count) for count in range(self.workers - 1, 0, -1))
        return next((fewer for fewer in fitting if not fewer.short), None)


def projected_need(documents: int, workers: int) -> int:
    """The peak memory (bytes, all processes) of a first scan of ``documents`` files with ``workers``."""
    parent = _PARENT_BASE + (_PARENT_PER_DOCUMENT + _SHARED_PER_DOCUMENT) * documents
    worker = _WORKER_BASE + _WORKER_PER_DOCUMENT * documents
    return int(_MARGIN * (parent + max(1, workers) * worker))


def free_memory() -> int:
    """The memory this machine can give now without swapping, in bytes."""
    return int(psutil.virtual_memory().available)


def forecast(documents: int, workers: int, budget: int | None = None) -> MemoryForecast:
    """The forecast of a scan of ``documents`` files with ``workers``, against ``budget`` bytes (None: the
    memory free now)."""
    if documents < 0 or workers < 1:
        raise ValueError(f"documents must be at least 0 and workers at least 1, not {documents} and {workers}")
    need = projected_need(documents, workers)
    return MemoryForecast(documents, workers, need, free_memory() if budget is None else budget, budget is not None)


class MemoryShort(NeardupError):
    """A scan did not start: it would need more memory than the budget. ``forecast`` says how much, and
    what fewer workers would need."""

    def __init__(self, forecast: MemoryForecast) -> None:
        super().__init__(short_message(forecast))
        self.forecast = forecast


def short_message(forecast: MemoryForecast) -> str:
    """The warning in words: what the scan would need, what there is, and what fewer workers would need."""
    if forecast.budget_given:
        said = translate(
            "Forecast",
            "A scan of {documents} files may need about {need} of memory, more than the {budget} it may use.",
        )
    else:
        said = translate(
            "Forecast",
            "A scan of {documents} files may need about {need} of memory, and this computer has {budget} free: "
            "it could slow to a crawl, or the scan stop before it ends.",
        )
    said = said.format(
        documents=f"{forecast.documents:,}", need=memory_size(forecast.need), budget=memory_size(forecast.budget)
    )
    fewer = forecast.fewer_workers()
    if fewer is not None:
        workers = fewer.workers  # a name: lupdate drops a count that is an expression
        more = translate("Forecast", "With %n worker(s) it would need about {need} and take longer.", None, workers)
        return sentences(said, more.format(need=memory_size(fewer.need)))
    if forecast.workers > 1:
        least = translate("Forecast", "Even with one worker it would need about {need}.")
        return sentences(said, least.format(need=memory_size(forecast.with_workers(1).need)))
    return said
