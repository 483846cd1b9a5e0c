"""The ``files`` table: paths mapped to contents (the same bytes in two places, or a moved file, are read
once), and the documents a review shows, each file with its content's status."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models import Document, SentBetweenProcesses, Status
from ..read.extract import message_for
from .repository import Repository, fs, unfs

_STATUS_OF = {str(status): status for status in Status}


@dataclass(frozen=True, slots=True)
class KnownFile:
    id: int
    size: int
    mtime_ns: int
    content_id: int | None
    status: str | None


@dataclass(frozen=True, slots=True)
class FileRecord(SentBetweenProcesses):
    """A file's row to write: linked to a content, or carrying its own failure status."""

    path: str
    size: int
    mtime_ns: int
    kind: str
    content_hash: bytes | None = None
    status: Status | None = None
    message: str = ""


class Files(Repository):
    """Files by path, and the documents they are."""

    def known(self) -> dict[str, KnownFile]:
        rows = self._db.execute("SELECT path, id, size, mtime_ns, content_id, status FROM files")
        return {unfs(r[0]): KnownFile(r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def write(self, files: Sequence[FileRecord], scanned_at: float) -> None:
        """Insert or update file rows, linked to contents already stored (in this transaction, if need be):
        the files' half of ``Store.write_batch``."""
        hashes = {f.content_hash for f in files if f.content_hash is not None}
        ids = self._store.contents.ids_for(hashes)
        self._db.executemany(
            """INSERT INTO files (path, size, mtime_ns, kind, content_id, status, message, scanned_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                 kind = excluded.kind, content_id = excluded.content_id, status = excluded.status,
                 message = excluded.message, scanned_at = excluded.scanned_at""",
            [
                (
                    fs(f.path),
                    f.size,
                    f.mtime_ns,
                    f.kind,
                    ids.get(f.content_hash) if f.content_hash is not None else None,
                    None if f.content_hash is not None else str(f.status or Status.ERROR),
                    f.message,
                    scanned_at,
                )
                for f in files
            ],
        )

    def remove(self, paths: Iterable[str]) -> int:
        """Forget files (gone from disk); contents nobody refers to any more go too."""
        batch = [(fs(p),) for p in paths]
        if not batch:
            return 0
        with self._store.transaction():
            self._db.executemany("DELETE FROM files WHERE path = ?", batch)
            self._db.execute(
                "DELETE FROM contents WHERE id NOT IN (SELECT content_id FROM files WHERE content_id IS NOT NULL)"
            )
        return len(batch)

    def rename(self, moves: Iterable[tuple[str, str]]) -> int:
        """Files moved on disk by the app (old path, new path): they keep their fingerprints, so a move
        can be undone without reading them again. A file already known at the new path is replaced."""
        batch = [(fs(new), fs(old)) for old, new in moves]
        if not batch:
            return 0
        with self._store.transaction():
            self._db.executemany("DELETE FROM files WHERE path = ?", [(new,) for new, _old in batch])
            self._db.executemany("UPDATE files SET path = ? WHERE path = ?", batch)
        return len(batch)

    _DOC_SQL = """SELECT f.id, f.path, f.size, f.mtime_ns, f.kind, COALESCE(f.status, c.status, 'error'),
                         CASE WHEN f.status IS NOT NULL THEN f.message ELSE COALESCE(c.message, f.message) END,
                         COALESCE(c.chars, 0), f.content_id, COALESCE(c.kind, '')
                  FROM files f LEFT JOIN contents c ON c.id = f.content_id"""

    def documents(self) -> list[Document]:
        rows = self._db.execute(self._DOC_SQL + " ORDER BY f.path")
        return [self._doc(r) for r in rows]

    def problem_documents(self) -> list[Document]:
        """The documents that could not be compared (any status but ok), by path."""
        rows = self._db.execute(self._DOC_SQL + " WHERE COALESCE(f.status, c.status, 'error') != 'ok' ORDER BY f.path")
        return [self._doc(r) for r in rows]

    def document(self, file_id: int) -> Document | None:
        row = self._db.execute(self._DOC_SQL + " WHERE f.id = ?", (file_id,)).fetchone()
        return self._doc(row) if row else None

    def document_by_path(self, path: str) -> Document | None:
        row = self._db.execute(self._DOC_SQL + " WHERE f.path = ?", (fs(path),)).fetchone()
        return self._doc(row) if row else None

    def documents_with_content(self, content_ids: Iterable[int]) -> list[Document]:
        """The files holding any of these contents."""
        out: list[Document] = []
        batch = list(set(content_ids))
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(self._DOC_SQL + f" WHERE f.content_id IN ({marks})", chunk)
            out.extend(self._doc(r) for r in rows)
        return out

    @staticmethod
    def _doc(r: tuple) -> Document:
        read_as = "" if r[9] == r[4] else r[9]
        message = message_for(r[4], read_as, r[6])  # a note on the name is each copy's own
        # one string for each kind, not one for each document (52 bytes a document)
        kind = sys.intern(r[4])
        return Document(r[0], unfs(r[1]), r[2], r[3], kind, _STATUS_OF[r[5]], message, r[7], r[8], read_as)

    def paths_by_content_hash(self) -> dict[bytes, list[str]]:
        """The files of each content, by its raw hash (for decisions, which are kept by content)."""
        out: dict[bytes, list[str]] = {}
        for raw_hash, path in self._db.execute(
            "SELECT c.raw_hash, f.path FROM files f JOIN contents c ON c.id = f.content_id ORDER BY f.path"
        ):
            out.setdefault(raw_hash, []).append(unfs(path))
        return out
