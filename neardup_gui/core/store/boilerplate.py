"""The kept boilerplate analysis: the collection's frequent shingles (``boilerplate_shingles``), each
document's core (``cores``), and what the analysis was made for (meta ``boilerplate``)."""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np

from ..fingerprint.boilerplate import Boilerplate, CoreTable
from .repository import Repository, Signatures


class StoredBoilerplate(Repository):
    """The last boilerplate analysis, replaced whole."""

    def save(self, found: Boilerplate) -> None:
        """Replace the recorded boilerplate analysis with ``found``, in one transaction."""
        if self._store.read_only:  # a cache: a database on a read-only disk goes without
            return
        info = {
            "digest": found.digest,
            "min_share": found.min_share,
            "min_documents": found.min_documents,
            "passages": found.passages,
            "family_passages": found.family_passages,
        }
        with self._store.transaction():
            self._db.execute("DELETE FROM boilerplate_shingles")
            self._db.execute("DELETE FROM core_overlaps")
            self._db.executemany(
                "INSERT INTO boilerplate_shingles (shingle) VALUES (?)", ((v,) for v in found.shingles.tolist())
            )
            self._db.execute("DELETE FROM cores")
            self._db.executemany(
                "INSERT INTO cores (content_id, shingle_count, minhash, head_cut, tail_cut) VALUES (?, ?, ?, ?, ?)",
                ((cid, c.shingle_count, c.minhash, c.head_cut, c.tail_cut) for cid, c in sorted(found.cores.items())),
            )
            self._store.set_meta("boilerplate", json.dumps(info, sort_keys=True))

    def digest(self) -> str | None:
        """The digest of the collection the last boilerplate analysis was made for, if any."""
        raw = self._store.get_meta("boilerplate")
        return json.loads(raw)["digest"] if raw is not None else None

    def load(self) -> Boilerplate | None:
        """The last boilerplate analysis, or None if there was none (check its digest before use)."""
        raw = self._store.get_meta("boilerplate")
        if raw is None:
            return None
        info = json.loads(raw)
        with self._store.snapshot():
            rows = self._db.execute("SELECT shingle FROM boilerplate_shingles ORDER BY shingle").fetchall()
            shingles = np.fromiter((r[0] for r in rows), dtype=np.uint32, count=len(rows))
            (n,) = self._db.execute("SELECT COUNT(*) FROM cores").fetchone()
            ids, counts, signatures = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), Signatures(n)
            cuts = np.empty((n, 2), dtype=np.int64)
            cores = self._db.execute(
                "SELECT content_id, shingle_count, minhash, head_cut, tail_cut FROM cores ORDER BY content_id"
            )
            for row, (cid, count, blob, head_cut, tail_cut) in enumerate(cores):
                ids[row], counts[row], cuts[row] = cid, count, (head_cut, tail_cut)
                signatures.put(row, blob)
        return Boilerplate(
            info["digest"],
            info["min_share"],
            info["min_documents"],
            shingles,
            CoreTable(ids, counts, signatures.matrix(), cuts),
            passages=info.get("passages", 0),
            family_passages=info.get("family_passages", 0),
        )

    def cuts(self, content_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """(head cut, tail cut) of the cores of these contents, where they have one."""
        out: dict[int, tuple[int, int]] = {}
        batch = list(content_ids)
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for cid, head_cut, tail_cut in self._db.execute(
                f"SELECT content_id, head_cut, tail_cut FROM cores WHERE content_id IN ({marks})", chunk
            ):
                out[cid] = head_cut, tail_cut
        return out
