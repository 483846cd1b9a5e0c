"""Files a person chose to keep ("Keep this one", table ``kept``): their group's keeper whatever the rule."""

from __future__ import annotations

import time

from .repository import Repository, fs, unfs


class Kept(Repository):
    """Kept files by path, with when they were chosen."""

    def set(self, path: str, kept: bool, at: float | None = None) -> None:
        """Remember (or forget) that a person chose to keep this file, now or ``at`` (a choice put back)."""
        with self._store.transaction():
            if kept:
                self._db.execute(
                    "INSERT OR REPLACE INTO kept (path, chosen_at) VALUES (?, ?)",
                    (fs(path), time.time() if at is None else at),
                )
            else:
                self._db.execute("DELETE FROM kept WHERE path = ?", (fs(path),))

    def paths(self) -> dict[str, float]:
        """Files a person chose to keep, with when."""
        return {unfs(path): at for path, at in self._db.execute("SELECT path, chosen_at FROM kept")}
