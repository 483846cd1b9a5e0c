"""A person's judgements on pairs of contents (``verdicts``), kept by the contents' byte hashes, so that
they outlive moves, renames and new scans."""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterable

from .repository import Repository


class Verdicts(Repository):
    """Judgements on pairs of contents, each pair stored once (its hashes in order)."""

    def set(self, hash_a: bytes, hash_b: bytes, verdict: str | None) -> None:
        """Remember (or forget, with None) the user's judgement on a pair of contents."""
        self.set_many([(hash_a, hash_b)], verdict)

    def set_many(self, pairs: Iterable[tuple[bytes, bytes]], verdict: str | None) -> None:
        """One judgement on several pairs of contents, all or nothing."""
        now = time.time()
        with self._store.transaction():
            for hash_a, hash_b in pairs:
                a, b = sorted((hash_a, hash_b))
                if verdict is None:
                    self._db.execute("DELETE FROM verdicts WHERE hash_a = ? AND hash_b = ?", (a, b))
                else:
                    self._db.execute(
                        "INSERT OR REPLACE INTO verdicts (hash_a, hash_b, verdict, decided_at) VALUES (?, ?, ?, ?)",
                        (a, b, verdict, now),
                    )

    def pairs(self, verdict: str) -> builtins.set[tuple[bytes, bytes]]:  # set: the type, not the method above
        """(hash_a, hash_b) of every pair so judged."""
        return set(self._db.execute("SELECT hash_a, hash_b FROM verdicts WHERE verdict = ?", (verdict,)).fetchall())

    def listed(self, verdict: str) -> list[tuple[bytes, bytes, float]]:
        """(hash_a, hash_b, decided_at) of every such judgement, newest first."""
        return self._db.execute(
            "SELECT hash_a, hash_b, decided_at FROM verdicts WHERE verdict = ? "
            "ORDER BY decided_at DESC, hash_a, hash_b",
            (verdict,),
        ).fetchall()
