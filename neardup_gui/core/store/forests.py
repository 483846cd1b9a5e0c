"""Matchers' spanning forests kept between runs (``forests``), so that a matcher of the same state need
not build its own again."""

from __future__ import annotations

import numpy as np

from .repository import Repository


class Forests(Repository):
    """Spanning forests by name, each valid for the state it was built in."""

    def save(self, name: str, state: str, limit: float, a: np.ndarray, b: np.ndarray, weight: np.ndarray) -> None:
        """Keep a matcher's spanning forest (edges as content ids) for the next matcher of the same state."""
        if self._store.read_only:  # a cache: a database on a read-only disk goes without
            return
        with self._store.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO forests (name, state, limit_value, a, b, weight) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    name,
                    state,
                    float(limit),
                    np.asarray(a, "<i8").tobytes(),
                    np.asarray(b, "<i8").tobytes(),
                    np.asarray(weight, "<f8").tobytes(),
                ),
            )

    def load(self, name: str, state: str) -> tuple[float, np.ndarray, np.ndarray, np.ndarray] | None:
        """(limit, a, b, weight) of the forest kept under ``name`` if it was built in ``state``."""
        row = self._db.execute(
            "SELECT limit_value, a, b, weight FROM forests WHERE name = ? AND state = ?", (name, state)
        ).fetchone()
        if row is None:
            return None
        return (
            row[0],
            np.frombuffer(row[1], "<i8").astype(np.int64),
            np.frombuffer(row[2], "<i8").astype(np.int64),
            np.frombuffer(row[3], "<f8").astype(np.float64),
        )
