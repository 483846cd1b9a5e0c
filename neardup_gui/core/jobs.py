"""Plumbing for long jobs: a progress sink, a cancel token, and the JobCancelled outcome.

A long job is a plain function ``fn(..., *, progress=..., cancel=...)``. It reports every phase as
done/total through ``progress`` and checks ``cancel`` often; cancelling raises :class:`JobCancelled`,
which callers treat as a normal outcome, not as an error.
"""

from __future__ import annotations

import threading
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
    """A thread-safe flag a front end sets and a job polls."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise JobCancelled()


NEVER_CANCELLED = CancelToken()
