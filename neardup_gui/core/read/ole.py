"""The streams of an OLE compound file (the container of Word 97–2003 .doc, Excel .xls, PowerPoint .ppt, WPS
Office's files and an encrypted .docx), read through olefile (BSD-2-Clause) without trusting them.

A compound file is a small file system of 512-byte sectors chained by a table. A hostile one chains its
sectors in a loop, points outside the file, or declares a stream of gigabytes: olefile is asked to refuse
every defect it can see (DEFECT_INCORRECT), and a stream is refused before it is read when it claims more
bytes than the whole file holds, so reading one costs at most the file's size.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Status
from .containers import Unreadable, damaged

MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The first bytes of every compound file."""

_NOT_COMPOUND = QT_TRANSLATE_NOOP(
    "Problem", "Damaged document: it is not a complete Office file (a download or copy cut short?)."
)
_MISSING_STREAM = QT_TRANSLATE_NOOP("Problem", "Damaged document: its part {part} is missing.")
_LOOPS = QT_TRANSLATE_NOOP(
    "Problem", "Damaged document: the sectors of its part {part} run in a circle or point outside the file."
)
_CLAIMS_TOO_MUCH = QT_TRANSLATE_NOOP(
    "Problem", "Damaged document: its part {part} claims {size} MB, more than the whole file holds."
)

# What olefile can raise on a malformed container: its own OleFileError is an OSError; the rest escape from
# its parsing of sizes and indexes.
_OLE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    ValueError,
    IndexError,
    KeyError,
    TypeError,
    struct.error,
    RecursionError,
)


class Compound:
    """One compound file's streams, each read whole and at most once, none larger than the file."""

    def __init__(self, data: bytes) -> None:
        import olefile

        if not data.startswith(MAGIC) or len(data) < olefile.MINIMAL_OLEFILE_SIZE:
            raise Unreadable(Status.ERROR, _NOT_COMPOUND)
        self._size = len(data)
        try:
            self._ole = olefile.OleFileIO(data, raise_defects=olefile.DEFECT_INCORRECT)
            self._streams = {"/".join(path).lower(): "/".join(path) for path in self._ole.listdir()}
        except _OLE_ERRORS as exc:
            raise damaged(exc) from exc

    def has(self, name: str) -> bool:
        """Whether the file holds a stream of that path ("WordDocument", "Storage/Stream"; any case)."""
        return name.lower() in self._streams

    def read(self, name: str) -> bytes:
        """One stream's bytes; Unreadable when it is missing, claims more than the file holds, or its
        sectors are broken."""
        path = self._streams.get(name.lower())
        if path is None:
            raise Unreadable(Status.ERROR, _MISSING_STREAM.format(part=name))
        try:
            size = self._ole.get_size(path)
            if size > self._size:
                raise Unreadable(Status.ERROR, _CLAIMS_TOO_MUCH.format(part=name, size=max(1, size >> 20)))
            data = bytes(self._ole.openstream(path).read())
            if not self._chain_is_sound(path, size):
                raise Unreadable(Status.ERROR, _LOOPS.format(part=name))
        except _OLE_ERRORS as exc:
            raise damaged(exc) from exc
        return data

    def _chain_is_sound(self, path: str, size: int) -> bool:
        """Whether the stream's sectors are all distinct and inside the file. olefile reads a looping chain
        as often as the stream's size asks (bounded, but its text repeated or garbled): a loop is damage."""
        ole = self._ole
        entry = ole.direntries[ole._find(path)]  # olefile's own lookup of a path (the tests pin its behaviour)
        if size >= ole.minisectorcutoff:
            return _distinct(ole.fat, entry.isectStart, size, ole.sectorsize)
        # a small stream's sectors are in the mini stream, itself a chain of the root entry's sectors
        return _distinct(ole.minifat, entry.isectStart, size, ole.minisectorsize) and _distinct(
            ole.fat, ole.root.isectStart, ole.root.size, ole.sectorsize
        )


def _distinct(table: Sequence[int], sector: int, size: int, sector_size: int) -> bool:
    """Whether the chain of ``size`` bytes from ``sector`` in a sector table runs through distinct sectors
    inside it."""
    seen: set[int] = set()
    for _ in range(-(-size // sector_size)):
        if sector in seen or not 0 <= sector < len(table):
            return False
        seen.add(sector)
        sector = int(table[sector])
    return True


def stream_names(data: bytes) -> frozenset[str]:
    """The lower-case paths of the streams of a compound file; empty when it is none or is damaged (a format
    sniffer's question, asked before any stream is read)."""
    try:
        return frozenset(Compound(data)._streams)
    except Unreadable:  # damaged: the reader of its format says how
        return frozenset()
