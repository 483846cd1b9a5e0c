"""The database: opening it (creating or migrating it, refusing other programs' files, WAL, a read-only disk),
its transactions, its settings (meta, the fingerprint scheme) and the scan's batched writes. Each table family's
SQL is in a repository of its own, reached as an attribute, e.g. ``store.files.documents()``,
``store.verdicts.set(...)``; they write through this connection, in its transactions.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..errors import DatabaseError, database_error_message
from ..fingerprint.scheme import Scheme
from ..i18n import translate
from ..models import Fingerprint, display_path
from . import schema, spill
from .boilerplate import StoredBoilerplate
from .contents import Contents
from .files import FileRecord, Files
from .forests import Forests
from .kept import Kept
from .ocr_pages import OcrPages
from .overlaps import Overlaps
from .query_index import QueryIndex
from .searches import Searches
from .verdicts import Verdicts


def default_db_path() -> Path:
    """Where the database lives unless the user says otherwise (platformdirs' user data dir)."""
    from platformdirs import user_data_path

    return user_data_path("neardup", appauthor=False) / "neardup.db"


def _writable_folder(folder: Path) -> bool:
    """Whether files can be made in ``folder``: not on a read-only mount, and allowed to this user."""
    try:
        if getattr(os, "ST_RDONLY", 0) and os.statvfs(folder).f_flag & os.ST_RDONLY:
            return False
    except OSError:
        return True  # SQLite finds out, and says so
    return os.access(folder, os.W_OK)


def _refuse_special_file(path: Path) -> None:
    """A database path must be a file (or nothing yet): SQLite would otherwise write its journal beside a
    device (as root, into /dev) or block on a pipe."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # nothing there yet (or unreadable: SQLite says so)
    if not stat.S_ISREG(mode):
        raise DatabaseError(
            translate(
                "Errors",
                "The database {path} is not a file (a folder, a device, a pipe or a "
                "socket); choose a database file, e.g. {example}.",
            ).format(
                path=display_path(str(path)),
                example=display_path(str(path / "neardup.db") if stat.S_ISDIR(mode) else "neardup.db"),
            )
        )


class Store:
    """A neardup database. One instance per thread; only the scan writes fingerprints."""

    def __init__(self, path: str | os.PathLike[str], *, check_same_thread: bool = True) -> None:
        """Open (creating or migrating) a database. ``check_same_thread=False`` lets a connection made
        on one thread serve jobs on another; the caller then runs those jobs one at a time."""
        self.path = Path(path)
        _refuse_special_file(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection: sqlite3.Connection | None = None
        # a database on a read-only disk or in a folder we may not write can still be read: SQLite could not
        # make the files WAL needs beside it, so it is opened as unchanging, and nothing is written to it
        self.read_only = self.path.is_file() and not _writable_folder(self.path.parent)
        try:
            if self.read_only:
                wal = self.path.with_name(self.path.name + "-wal")
                if wal.exists() and wal.stat().st_size > 0:  # unchanging, SQLite would not read what it holds
                    raise DatabaseError(
                        translate(
                            "Errors",
                            "The database {path} is on a read-only disk or folder and holds changes not yet "
                            "written into it (its -wal file: neardup was stopped while writing, or is writing "
                            "it now); open it once where it can be written, or copy it there with its -wal "
                            "file.",
                        ).format(path=display_path(str(self.path)))
                    )
                connection = self._db = sqlite3.connect(
                    f"{self.path.resolve().as_uri()}?immutable=1",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=check_same_thread,
                )
                schema.refuse_foreign(self._db, self.path)
                if self.schema_version != schema.SCHEMA_VERSION:
                    raise DatabaseError(
                        translate(
                            "Errors",
                            "The database {path} is on a read-only disk or folder and was written by another "
                            "version of neardup; copy it somewhere writable to open it.",
                        ).format(path=display_path(str(self.path)))
                    )
                return
            connection = self._db = sqlite3.connect(
                self.path, timeout=30.0, isolation_level=None, check_same_thread=check_same_thread
            )
            schema.refuse_foreign(self._db, self.path)  # before anything writes: WAL mode alone rewrites the header
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            schema.migrate(self._db, self.path)
        except (sqlite3.DatabaseError, DatabaseError) as exc:
            if connection is not None:
                connection.close()
            if isinstance(exc, DatabaseError):
                raise
            raise DatabaseError(database_error_message(exc, self.path)) from exc

    @classmethod
    def reader(cls, path: str | os.PathLike[str]) -> Store:
        """A read-only connection to a database another connection has opened (and migrated): what a
        worker process reads its share of a job from, beside the writer (WAL lets readers run along)."""
        store = cls.__new__(cls)
        store.path = Path(path)
        store.read_only = True
        # on a read-only disk the files WAL needs cannot be made: the database is read as unchanging there
        mode = "mode=ro" if _writable_folder(store.path.parent) else "immutable=1"
        try:
            store._db = sqlite3.connect(
                f"{store.path.resolve().as_uri()}?{mode}", uri=True, timeout=30.0, isolation_level=None
            )
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(database_error_message(exc, store.path)) from exc
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Each table family's repository, made on each use: held here, it would hold the store in turn, and a
    # store dropped unclosed would wait for the garbage collector to close its connection.
    @property
    def files(self) -> Files:
        """Files by path, and the documents they are."""
        return Files(self)

    @property
    def contents(self) -> Contents:
        """Contents and their fingerprints."""
        return Contents(self)

    @property
    def query_index(self) -> QueryIndex:
        """The indexes ``neardup query`` reads."""
        return QueryIndex(self)

    @property
    def boilerplate(self) -> StoredBoilerplate:
        """The kept boilerplate analysis."""
        return StoredBoilerplate(self)

    @property
    def overlaps(self) -> Overlaps:
        """Exact overlaps and shared passages kept between runs."""
        return Overlaps(self)

    @property
    def forests(self) -> Forests:
        """Matchers' spanning forests kept between runs."""
        return Forests(self)

    @property
    def searches(self) -> Searches:
        """Excerpts and shared passages found, kept between runs."""
        return Searches(self)

    @property
    def ocr(self) -> OcrPages:
        """What OCR read of scans' pages."""
        return OcrPages(self)

    @property
    def verdicts(self) -> Verdicts:
        """A person's judgements on pairs of contents."""
        return Verdicts(self)

    @property
    def kept(self) -> Kept:
        """Files a person chose to keep."""
        return Kept(self)

    @property
    def schema_version(self) -> int:
        return schema.version(self._db)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing: a killed process leaves either the whole batch or none of it. Inside another
        transaction it is a savepoint of that one, which alone commits: a job that must be whole (an
        import) wraps the batches it writes in one transaction."""
        if self._db.in_transaction:
            yield from self._savepoint()
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:  # SQLite may have ended it itself (a full disk): its error is the one
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _savepoint(self) -> Iterator[None]:
        """A batch inside the open transaction: undone alone if it fails, kept only if that one commits."""
        self._db.execute("SAVEPOINT batch")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:  # SQLite may have ended the whole transaction itself (a full disk)
                self._db.execute("ROLLBACK TO batch")
                self._db.execute("RELEASE batch")
            raise
        self._db.execute("RELEASE batch")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that must see one state of the database (a read transaction; inside a write
        transaction, that one)."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def ensure_scheme(self, scheme: Scheme) -> bool:
        """Record ``scheme``; if the database holds another, drop every fingerprint. True if dropped."""
        stored = self.get_meta("scheme")
        if stored == scheme.to_json():
            return False
        with self.transaction():
            dropped = stored is not None
            if dropped:
                self._db.execute("UPDATE files SET content_id = NULL, status = NULL, mtime_ns = -1")
                self._db.execute("DELETE FROM overlaps")
                self._db.execute("DELETE FROM core_overlaps")
                self._db.execute("DELETE FROM passages")
                self._db.execute("DELETE FROM forests")
                self._db.execute("DELETE FROM searches")
                self._db.execute("DELETE FROM bands")
                self._db.execute("DELETE FROM simhash_blocks")
                self._db.execute("DELETE FROM cores")
                self._db.execute("DELETE FROM contents")
            self.set_meta("scheme", scheme.to_json())
        return dropped

    def scheme(self) -> Scheme | None:
        raw = self.get_meta("scheme")
        return Scheme.from_json(raw) if raw else None

    def write_batch(self, fingerprints: Sequence[Fingerprint], files: Sequence[FileRecord]) -> None:
        """Store new contents and file rows in one transaction (files may name contents of this batch)."""
        if not fingerprints and not files:
            return
        now = time.time()
        fingerprints = [spill.restore(fp) for fp in fingerprints]  # read back what workers put aside
        with self.transaction():
            existing = self.contents.ids_for(fp.raw_hash for fp in fingerprints)
            for fp in fingerprints:
                self.contents.insert(fp, replaces=fp.raw_hash in existing)
            if fingerprints:
                self.query_index.invalidate()
            self.files.write(files, now)
