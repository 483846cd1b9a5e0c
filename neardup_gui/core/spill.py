"""A fingerprint's large parts go from the worker that made them to the database writer through a file, not
through the scan's parent (issue #15).

A content's shingle set, signature and edges are ~11 KB; 20,000 of them read from the workers' pipes and
written again to the writer process's pipe were half of the parent's CPU in a scan. A worker appends
them to a file of its own in the scan's spill folder and sends the parent a ``Spilled`` reference (a
few dozen bytes); the writer reads them back there (``restore``), from the page cache. The parent still
decides what is written and in which order, so a killed scan leaves the database as consistent as
before; the folder is removed when the scan ends.
"""

from __future__ import annotations

import dataclasses
import os
from typing import BinaryIO

from .models import Fingerprint

_open_for_writing: dict[str, BinaryIO] = {}  # this process's spill file, by folder (one folder a scan)
_open_for_reading: dict[str, BinaryIO] = {}


def spill(fingerprint: Fingerprint, folder: str) -> Fingerprint:
    """Worker side: ``fingerprint`` with its signature, shingles and edges appended to this process's file
    in ``folder``, and a reference to them in their place."""
    if fingerprint.shingles is None:
        return fingerprint
    out = _open_for_writing.get(folder)
    if out is None:
        for stale in _open_for_writing.values():  # a former scan's folder, gone by now
            stale.close()
        _open_for_writing.clear()
        out = _open_for_writing[folder] = open(os.path.join(folder, f"{os.getpid()}.bin"), "ab")  # noqa: SIM115
    parts = (fingerprint.minhash or b"", fingerprint.shingles, fingerprint.edges or b"")
    offset = out.tell()
    out.write(b"".join(parts))
    out.flush()  # the writer reads it from another process
    where = (str(out.name), offset, len(parts[0]), len(parts[1]), len(parts[2]))
    return dataclasses.replace(fingerprint, minhash=None, shingles=None, edges=None, spilled=where)


def restore(fingerprint: Fingerprint) -> Fingerprint:
    """Writer side: ``fingerprint`` whole again (as it is when it was not spilled)."""
    if fingerprint.spilled is None:
        return fingerprint
    path, offset, minhash_size, shingles_size, edges_size = fingerprint.spilled
    source = _open_for_reading.get(path)
    if source is None:
        if len(_open_for_reading) > 64:
            for old in _open_for_reading.values():
                old.close()
            _open_for_reading.clear()
        source = _open_for_reading[path] = open(path, "rb")  # noqa: SIM115
    source.seek(offset)
    data = source.read(minhash_size + shingles_size + edges_size)
    if len(data) != minhash_size + shingles_size + edges_size:
        raise OSError(f"{path}: a spilled fingerprint is cut short")
    return dataclasses.replace(
        fingerprint, minhash=data[:minhash_size] or None,
        shingles=data[minhash_size : minhash_size + shingles_size],
        edges=data[minhash_size + shingles_size :] or None, spilled=None)


def new_folder() -> str:
    """A spill folder for this scan (named after this process), after removing those of scans that were
    killed (their process is gone): a killed scan cannot remove its own."""
    import glob
    import shutil
    import tempfile

    for stale in glob.glob(os.path.join(tempfile.gettempdir(), "neardup-spill-*-*")):
        try:
            owner = int(os.path.basename(stale).split("-")[2])
            os.kill(owner, 0)
        except ProcessLookupError:
            shutil.rmtree(stale, ignore_errors=True)
        except (ValueError, IndexError, PermissionError):
            continue  # not ours, or another user's live scan
    return tempfile.mkdtemp(prefix=f"neardup-spill-{os.getpid()}-")


def forget(folder: str) -> None:
    """Close this process's files of ``folder`` (before it is removed)."""
    for cache in (_open_for_writing, _open_for_reading):
        for key in [k for k in cache if k == folder or k.startswith(folder + os.sep)]:
            cache.pop(key).close()
