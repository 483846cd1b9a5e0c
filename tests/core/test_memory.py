"""Freed heap memory goes back to the system after a big step (glibc), and elsewhere nothing breaks."""

import os
import platform

import numpy as np

from neardup_gui.core.workers.memory import release_freed_memory


def _resident() -> int:
    """This process's resident memory in bytes (Linux's /proc, as the worker pool reads it)."""
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_memory_freed_by_numpy_is_given_back():
    # many arrays of 1 MB: under glibc's adaptive mmap threshold once a larger one was freed, so they
    # come from the heap and stay resident after they are freed
    np.ones(16 << 20, dtype=np.uint8)
    held = [np.ones(1 << 20, dtype=np.uint8) for _ in range(300)]
    keep = held[-1]  # the top of the heap stays in use: only a trim gives the rest back
    del held
    before = _resident()
    released = release_freed_memory()
    after = _resident()
    assert keep.sum() == 1 << 20
    if platform.libc_ver()[0] == "glibc":
        assert released
        assert after < before - (100 << 20), (before, after)
    else:
        assert after <= before + (10 << 20)
