"""Freed heap memory goes back to the system after a big step (glibc), and elsewhere nothing breaks."""

import platform

import numpy as np
import psutil

from neardup_gui.core.memory import release_freed_memory


def test_memory_freed_by_numpy_is_given_back():
    me = psutil.Process()
    # many arrays of 1 MB: under glibc's adaptive mmap threshold once a larger one was freed, so they
    # come from the heap and stay resident after they are freed
    np.ones(16 << 20, dtype=np.uint8)
    held = [np.ones(1 << 20, dtype=np.uint8) for _ in range(300)]
    keep = held[-1]  # the top of the heap stays in use: only a trim gives the rest back
    del held
    before = me.memory_info().rss
    released = release_freed_memory()
    after = me.memory_info().rss
    assert keep.sum() == 1 << 20
    if platform.libc_ver()[0] == "glibc":
        assert released
        assert after < before - (100 << 20), (before, after)
    else:
        assert after <= before + (10 << 20)
