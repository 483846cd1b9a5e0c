"""What the store's repositories share: the Store's connection (so they write in its transactions), and how
paths and MinHash signatures sit in columns."""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import TYPE_CHECKING

import numpy as np

from ..fingerprint import minhash

if TYPE_CHECKING:
    from .store import Store


class Repository:
    """One table family's SQL, run on its Store's connection."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def _db(self) -> sqlite3.Connection:
        return self._store._db


def fs(path: str) -> bytes:
    """A path as stored: the file system's bytes, so names that are not valid UTF-8 survive."""
    return os.fsencode(path)


def unfs(raw: bytes) -> str:
    return raw.decode(_FS_ENCODING, _FS_ERRORS)  # os.fsdecode, without its checks (100,000 paths a grouping)


_FS_ENCODING, _FS_ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()


class Signatures:
    """A matrix of ``count`` MinHash signatures filled row by row from the database's little-endian
    blobs: no list of the rows and no joined copy of them, which at 100,000 held three times the
    51 MB the signatures take."""

    def __init__(self, count: int) -> None:
        self._matrix = np.empty((count, minhash.NUM_PERM), dtype=np.uint32)
        self._bytes = self._matrix.view(np.uint8).reshape(count, 4 * minhash.NUM_PERM)

    def put(self, row: int, blob: bytes) -> None:
        self._bytes[row] = np.frombuffer(blob, dtype=np.uint8)

    def matrix(self) -> np.ndarray:
        """The signatures as native uint32."""
        return self._matrix if sys.byteorder == "little" else self._matrix.byteswap()
