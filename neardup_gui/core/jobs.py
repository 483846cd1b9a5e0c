"""Plumbing for long jobs: a progress sink, a cancel token, and the JobCancelled outcome.

A long job is a plain function ``fn(..., *, progress=..., cancel=...)``. It reports every phase as
done/total through ``progress`` and checks ``cancel`` often; cancelling raises :class:`JobCancelled`,
which callers treat as a normal outcome, not as an error.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class JobCancelled(Exception):
    """The job stopped because it was asked to; everything done so far is kept."""


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """One report from a running job.

    ``total`` is None while it is not yet known (e.g. while folders are still being walked).
    ``bytes_done`` lets a front end derive MB/s; ``current`` names the item being worked on.
    """

    phase: str
    done: int
    total: int | None
    current: str = ""
    bytes_done: int = 0


class Progress(Protocol):
    def __call__(self, event: ProgressEvent) -> None: ...


def no_progress(event: ProgressEvent) -> None:
    """A progress sink that ignores every report."""


class CancelToken:
    """A thread-safe flag a front end sets and a job polls. One made ``within`` another is cancelled
    with it too: a step's own, which its caller can stop without stopping the whole job."""

    def __init__(self, *, within: CancelToken | None = None) -> None:
        self._event = threading.Event()
        self._within = within

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or (self._within is not None and self._within.cancelled)

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise JobCancelled()


NEVER_CANCELLED = CancelToken()


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a phase goes: items and bytes a second since it began, and the seconds left (None
    while the total is unknown or nothing is done yet)."""

    rate: float
    bytes_rate: float
    seconds_left: float | None

    @property
    def left_text(self) -> str:
        """The time left as m:ss (empty when unknown)."""
        if self.seconds_left is None:
            return ""
        return f"{int(self.seconds_left // 60)}:{int(self.seconds_left % 60):02d}"


class PaceMeter:
    """The pace of each phase of a job, from its progress events: what the command line's progress line
    and the app's status bar both show."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._started: dict[str, float] = {}

    def __call__(self, event: ProgressEvent) -> Pace:
        now = self._clock()
        elapsed = max(now - self._started.setdefault(event.phase, now), 1e-3)
        rate = event.done / elapsed
        left = None
        if event.total and 0 < event.done < event.total and rate > 0:
            left = (event.total - event.done) / rate
        return Pace(rate, event.bytes_done / elapsed, left)
