"""Opening a file the scan found, only if it is still a regular file: between finding a path and reading it,
it may have been replaced by a link (which must not lead out of the folders chosen), a pipe (whose open
would block the reader) or a device (endless bytes). Used by every reader of a scanned file's bytes."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from typing import BinaryIO

from ..jobs import NEVER_CANCELLED, CancelToken, JobCancelled

# POSIX: never through a link, never waiting on a pipe (Windows has neither flag, nor FIFOs at a path)
_NO_FOLLOW_NO_WAIT = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotARegularFile(OSError):
    """The path was replaced by a folder, a link, a pipe or a device after it was found."""


def open_regular_file(path: str) -> BinaryIO:
    """Open a file for reading only if it is a regular file: a path swapped for a link, a pipe (whose
    open would block) or a device (endless bytes) raises NotARegularFile instead."""
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW_NO_WAIT)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotARegularFile(errno.ELOOP, "replaced by a symbolic link", path) from exc
        raise
    fh = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        fh.close()
        raise NotARegularFile(errno.EINVAL, "not a regular file", path)
    return fh


_HASH_CHUNK = 1 << 20


def hash_file(path: str, cancel: CancelToken = NEVER_CANCELLED) -> bytes:
    """blake2b-128 of a regular file's bytes, read in chunks (memory stays flat for huge files)."""
    digest = hashlib.blake2b(digest_size=16)
    with open_regular_file(path) as fh:
        while chunk := fh.read(_HASH_CHUNK):
            digest.update(chunk)
            if cancel.cancelled:
                raise JobCancelled()
    return digest.digest()
