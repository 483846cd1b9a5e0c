"""A fingerprint's large parts go from the worker that made them to the database writer through a file, not
through the scan's parent (issue #15).

A content's shingle set, signature and edges are ~11 KB; 20,000 of them read from the workers' pipes and
written again to the writer process's pipe were half of the parent's CPU in a scan. A worker appends
them to a file of its own in the scan's spill folder and sends the parent a ``Spilled`` reference (a
few dozen bytes); the writer reads them back there (``restore``), from the page cache. The parent still
decides what is written and in which order, so a killed scan leaves the database as consistent as
before. The folder lies beside the database (not in a temporary folder that may be memory), holds a lock
while its scan runs, and is removed when the scan ends, or by a later scan once its lock is free (the
scan was killed). Only folders holding our marker are swept, and only of the files we make there (by name,
never through a link); a folder that holds anything else is left. Spilling is an optimisation: where it fails
(a full disk), the parts go by the pipes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import stat
import tempfile
from typing import BinaryIO

from ..i18n import QT_TRANSLATE_NOOP, with_details
from ..models import Fingerprint, Status

try:
    import fcntl
except ImportError:  # not POSIX: folders of killed scans are left for the person to remove
    fcntl = None  # type: ignore[assignment]

PREFIX = "neardup-spill-"
_LOCK = "lock"
_MARKER = "made-by-neardup"
_MARKER_TEXT = b"A folder neardup made for a scan's work files; removed when the scan ends.\n"
# what neardup makes in such a folder: the lock, the marker, the workers' spill files, the mapped arrays
_OURS = re.compile(rf"{_LOCK}|{_MARKER}|\d+\.bin|[\w-]+\.npy(\.part)?")

_NOT_READ_BACK = QT_TRANSLATE_NOOP(
    "Problem",
    "Not compared: its fingerprint could not be read back. To try it again: Try Again in the "
    "app's Problems tab, or neardup scan --retry-failed.",
)

_open_for_writing: dict[str, BinaryIO] = {}  # this process's spill file, by folder (one folder a scan)
_open_for_reading: dict[str, BinaryIO] = {}
_locks: dict[str, int] = {}  # the folders of this process's running scans -> their lock's descriptor


def new_folder(beside: str) -> str:
    """A spill folder for a scan, in the folder ``beside`` (the database's), locked until ``forget``;
    first removes the folders there whose lock is free (their scan was killed). "" when none can be made:
    the scan then sends fingerprints whole."""
    if fcntl is not None:
        try:
            with os.scandir(beside) as entries:
                stale = [e.path for e in entries if e.name.startswith(PREFIX) and e.is_dir(follow_symlinks=False)]
        except OSError:
            stale = []
        for folder in stale:
            if _marked(folder) and _lock(folder, create=False) is not None:
                remove_own(folder)
    try:
        folder = tempfile.mkdtemp(prefix=PREFIX, dir=beside)
    except OSError:
        return ""
    try:
        with open(os.path.join(folder, _MARKER), "xb") as marker:
            marker.write(_MARKER_TEXT)
    except OSError:
        remove_own(folder)
        return ""
    if fcntl is not None and _lock(folder, create=True, keep=True) is None:
        remove_own(folder)
        return ""
    return folder


def _marked(folder: str) -> bool:
    """Whether ``folder`` holds the marker new_folder writes (a regular file, not a link, saying so)."""
    try:  # never through a link, never waiting on a pipe put there
        fd = os.open(
            os.path.join(folder, _MARKER), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return False
    with os.fdopen(fd, "rb") as marker:
        return stat.S_ISREG(os.fstat(fd).st_mode) and marker.read(len(_MARKER_TEXT) + 1) == _MARKER_TEXT


def remove_own(folder: str) -> None:
    """Remove the files neardup makes in a work folder (known by name; a link is removed, never followed),
    then the folder if nothing else is left in it: what a person or another program put there stays."""
    try:
        with os.scandir(folder) as entries:
            ours = [e.path for e in entries if _OURS.fullmatch(e.name) and not e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for path in ours:
        with contextlib.suppress(OSError):
            os.unlink(path)
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def _lock(folder: str, *, create: bool, keep: bool = False) -> int | None:
    """Take ``folder``'s lock without waiting: its descriptor (kept while ``keep``, else closed at once),
    or None when another scan holds it (or it cannot be taken)."""
    assert fcntl is not None
    try:
        fd = os.open(os.path.join(folder, _LOCK), os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.fstat(fd).st_nlink == 0:  # another process swept the folder between our open and our lock
            raise FileNotFoundError(folder)
    except OSError:
        os.close(fd)
        return None
    if keep:
        _locks[folder] = fd
    else:
        os.close(fd)
    return fd


def spill(fingerprint: Fingerprint, folder: str) -> Fingerprint:
    """Worker side: ``fingerprint`` with its signature, shingles, edges and sequence appended to this process's file
    in ``folder``, and a reference to them in their place; whole as it was when that cannot be written."""
    if fingerprint.shingles is None:
        return fingerprint
    try:
        out = _open_for_writing.get(folder)
        if out is None:
            for stale in _open_for_writing.values():  # a former scan's folder, gone by now
                stale.close()
            _open_for_writing.clear()
            out = _open_for_writing[folder] = open(os.path.join(folder, f"{os.getpid()}.bin"), "ab")  # noqa: SIM115
        fp = fingerprint
        parts = tuple(part or b"" for part in (fp.minhash, fp.shingles, fp.edges, fp.sequence))
        offset = out.tell()
        out.write(b"".join(parts))
        out.flush()  # the writer reads it from another process
    except OSError:  # a full disk, a removed folder: the parts go by the pipes, as before spilling
        failed = _open_for_writing.pop(folder, None)
        if failed is not None:
            with contextlib.suppress(OSError):
                failed.close()
        return fingerprint
    where = (str(out.name), offset, len(parts[0]), len(parts[1]), len(parts[2]), len(parts[3]))
    return dataclasses.replace(fingerprint, minhash=None, shingles=None, edges=None, sequence=None, spilled=where)


def restore(fingerprint: Fingerprint) -> Fingerprint:
    """Writer side: ``fingerprint`` whole again (as it was before ``spill``); if its parts cannot be read
    back, a failure to be tried again, for that content alone."""
    if fingerprint.spilled is None:
        return fingerprint
    path, offset, minhash_size, shingles_size, edges_size, sequence_size = fingerprint.spilled
    total = minhash_size + shingles_size + edges_size + sequence_size
    try:
        source = _open_for_reading.get(path)
        if source is None:
            if len(_open_for_reading) > 64:
                for old in _open_for_reading.values():
                    old.close()
                _open_for_reading.clear()
            source = _open_for_reading[path] = open(path, "rb")  # noqa: SIM115
        source.seek(offset)
        data = source.read(total)
        if len(data) != total:
            raise OSError("cut short")
    except OSError as exc:
        return Fingerprint(
            fingerprint.raw_hash,
            fingerprint.kind,
            Status.ERROR,
            with_details(_NOT_READ_BACK, exc),
            transient=0.0,
        )
    return dataclasses.replace(
        fingerprint,
        minhash=data[:minhash_size] or None,
        shingles=data[minhash_size : minhash_size + shingles_size],
        edges=data[minhash_size + shingles_size : total - sequence_size] or None,
        sequence=data[total - sequence_size :] or None,
        spilled=None,
    )


def forget(folder: str) -> None:
    """The scan is over: close this process's files of ``folder``, release its lock and remove it."""
    for cache in (_open_for_writing, _open_for_reading):
        for key in [k for k in cache if k == folder or k.startswith(folder + os.sep)]:
            cache.pop(key).close()
    fd = _locks.pop(folder, None)
    if fd is not None:
        os.close(fd)
    remove_own(folder)
