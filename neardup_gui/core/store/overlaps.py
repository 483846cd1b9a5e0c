"""Exact comparisons kept between runs: |A∩B| of pairs of contents, of whole texts (``overlaps``) and of
their cores (``core_overlaps``), and the shared passages the JSON report shows (``passages``)."""

from __future__ import annotations

import json

import numpy as np

from .repository import Repository


class Overlaps(Repository):
    """Caches of what comparing pairs of contents found (a database on a read-only disk goes without)."""

    def all(self, *, cores: bool = False) -> dict[tuple[int, int], int]:
        """Every |A∩B| computed so far, keyed by (a, b) content ids with a < b: of whole texts, or of
        the documents' cores under the current boilerplate analysis."""
        a, b, shared = self.arrays(cores=cores)
        return dict(zip(zip(a.tolist(), b.tolist(), strict=True), shared.tolist(), strict=True))

    def arrays(self, *, cores: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``all()`` as arrays (a, b, shared), read straight into them: a million documents' forests
        measure millions of pairs, which as a dict of tuples took some 200 bytes each."""
        table = "core_overlaps" if cores else "overlaps"
        rows = np.fromiter(
            self._db.execute(f"SELECT a, b, shared FROM {table}"),
            dtype=np.dtype([("a", "i8"), ("b", "i8"), ("s", "i8")]),
        )
        return rows["a"].copy(), rows["b"].copy(), rows["s"].copy()

    def save(self, overlaps: dict[tuple[int, int], int], *, cores_of: str | None = None) -> None:
        """Remember overlaps of whole texts, or (``cores_of`` = the digest of the boilerplate analysis
        they were measured under) of cores: dropped if another analysis has replaced that one since."""
        if self._store.read_only:
            return
        if overlaps:
            table = "core_overlaps" if cores_of is not None else "overlaps"
            with self._store.transaction():
                if cores_of is not None and self._store.boilerplate.digest() != cores_of:
                    return
                self._db.executemany(
                    f"INSERT OR REPLACE INTO {table} (a, b, shared) VALUES (?, ?, ?)",
                    [(a, b, shared) for (a, b), shared in overlaps.items()],
                )

    def passages(self, version: str) -> dict[tuple[int, int], list[str]]:
        """The shared passages kept for pairs of contents, (a, b) -> passages, if they were found by
        ``version`` of the method (what another version found is forgotten)."""
        if self._store.get_meta("passages_version") != version:
            return {}
        return {(a, b): json.loads(found) for a, b, found in self._db.execute("SELECT a, b, passages FROM passages")}

    def save_passages(self, found: dict[tuple[int, int], list[str]], version: str) -> None:
        """Remember shared passages of pairs of contents, found by ``version`` of the method."""
        if self._store.read_only:
            return
        with self._store.transaction():
            if self._store.get_meta("passages_version") != version:
                self._db.execute("DELETE FROM passages")
                self._store.set_meta("passages_version", version)
            self._db.executemany(
                "INSERT OR REPLACE INTO passages (a, b, passages) VALUES (?, ?, ?)",
                [(a, b, json.dumps(p, ensure_ascii=False)) for (a, b), p in found.items()],
            )
