"""Searches' results kept between runs (``searches``): the excerpts and shared passages of a collection,
found once for each setting, so that asking again of an unchanged collection costs a read."""

from __future__ import annotations

import io

import numpy as np

from .repository import Repository

_KEPT = 16
"""Results kept, the most recently found: one a setting tried."""


class Searches(Repository):
    """Named results (arrays), each valid for the state of the collection it was found in."""

    def save(self, name: str, state: str, arrays: dict[str, np.ndarray]) -> None:
        """Keep a search's result; those of another state of the collection, and the oldest past _KEPT, go."""
        if self._store.read_only:  # a cache: a database on a read-only disk goes without
            return
        packed = io.BytesIO()
        np.savez(packed, *arrays.values(), names=np.array(list(arrays)))
        with self._store.transaction():
            self._db.execute("DELETE FROM searches WHERE state != ?", (state,))
            self._db.execute(
                "INSERT OR REPLACE INTO searches (name, state, result) VALUES (?, ?, ?)",
                (name, state, packed.getvalue()),
            )
            self._db.execute(
                "DELETE FROM searches WHERE rowid NOT IN (SELECT rowid FROM searches ORDER BY rowid DESC LIMIT ?)",
                (_KEPT,),
            )

    def load(self, name: str, state: str) -> dict[str, np.ndarray] | None:
        """The result kept under ``name`` if it was found in ``state``; None if not, or if it cannot be read."""
        row = self._db.execute("SELECT result FROM searches WHERE name = ? AND state = ?", (name, state)).fetchone()
        if row is None:
            return None
        try:
            with np.load(io.BytesIO(row[0]), allow_pickle=False) as saved:
                return {str(name): saved[f"arr_{n}"] for n, name in enumerate(saved["names"])}
        except (OSError, ValueError, EOFError, KeyError):  # damaged: found again, and kept again
            return None
