"""Read-only maps from ids to rows or to bytes, held in numpy arrays and looked up by binary search.

A dict of a million int keys costs some 110 bytes an entry (the keys, the values and the table); these
cost 16 (rows) and 24 plus the bytes' own length (bytes), which is what lets the matcher of a million
documents stay within a desktop's memory (issue #45).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import numpy as np


class _SortedIds:
    """The ids, sorted, and where each one was given (its row): what both maps search."""

    __slots__ = ("_order", "_sorted")

    def __init__(self, ids: np.ndarray) -> None:
        ids = np.asarray(ids, dtype=np.int64)
        if ids.ndim != 1:
            raise ValueError(f"ids must be one-dimensional, not of shape {ids.shape}")
        self._order = np.argsort(ids, kind="stable")
        self._sorted = ids[self._order]
        if len(ids) > 1 and not (self._sorted[1:] != self._sorted[:-1]).all():
            raise ValueError("ids must be distinct")

    def _find(self, key: object) -> int | None:
        """The row of ``key``, None when it is not one of the ids."""
        if not isinstance(key, int | np.integer) or isinstance(key, bool):
            return None
        at = int(np.searchsorted(self._sorted, key))
        if at == len(self._sorted) or self._sorted[at] != key:
            return None
        return int(self._order[at])

    def _find_all(self, keys: np.ndarray) -> np.ndarray:
        """The rows of ``keys``; KeyError naming the first that is not one of the ids."""
        keys = np.asarray(keys, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._sorted, keys), max(len(self._sorted) - 1, 0))
        found = self._sorted[at] == keys if len(self._sorted) else np.zeros(len(keys), dtype=bool)
        if not found.all():
            raise KeyError(int(keys[np.flatnonzero(~found)[0]]))
        return self._order[at]

    def __len__(self) -> int:
        return len(self._sorted)

    def __iter__(self) -> Iterator[int]:
        return iter(self._sorted.tolist())


class RowsById(_SortedIds, Mapping[int, int]):
    """id → the row it was given at (its place in ``ids``)."""

    __slots__ = ()

    def __getitem__(self, key: object) -> int:
        row = self._find(key)
        if row is None:
            raise KeyError(key)
        return row

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not None

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """The rows of many ids at once (KeyError if one is not here)."""
        return self._find_all(keys)

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The rows of many ids at once, -1 for those that are not here."""
        keys = np.asarray(keys, dtype=np.int64)
        if not len(self._sorted):
            return np.full(len(keys), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._sorted, keys), len(self._sorted) - 1)
        return np.where(self._sorted[at] == keys, self._order[at], -1)


class BytesById(_SortedIds, Mapping[int, bytes]):
    """id → bytes (hashes, say), all of them in one buffer."""

    __slots__ = ("_buffer", "_ends")

    def __init__(self, ids: np.ndarray, values: Iterable[bytes]) -> None:
        super().__init__(ids)
        values = list(values)
        if len(values) != len(self._sorted):
            raise ValueError(f"{len(values)} values for {len(self._sorted)} ids")
        self._buffer = b"".join(values)
        self._ends = np.cumsum([len(v) for v in values], dtype=np.int64)

    @classmethod
    def of(cls, pairs: Iterable[tuple[int, bytes]]) -> BytesById:
        """The map of (id, bytes) pairs, an id once."""
        ids: list[int] = []
        values: list[bytes] = []
        for key, value in pairs:
            ids.append(key)
            values.append(value)
        return cls(np.array(ids, dtype=np.int64), values)

    def __getitem__(self, key: object) -> bytes:
        row = self._find(key)
        if row is None:
            raise KeyError(key)
        start = int(self._ends[row - 1]) if row else 0
        return self._buffer[start : int(self._ends[row])]

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not None
