"""The one module that speaks SQL: schema, migrations, WAL, batched writes, indexed look-ups.

Layout: ``contents`` holds one row per distinct byte content (keyed by its hash) with its
fingerprints; ``files`` maps paths to contents, so the same bytes in two places, or a moved file, are
extracted once. The indexes only ``neardup query`` reads, the SimHash block index (``simhash_blocks``:
the four 16-bit blocks of each fingerprint, with the fingerprint, a covering key) and the MinHash band
index (``bands``), are written by the first query after a scan, in one sorted batch, not by the scan.
Paths are stored as the file system's bytes, so names that are not valid UTF-8 survive.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DatabaseError, StaleFingerprints, database_error_message
from ..fingerprint import minhash
from ..fingerprint.boilerplate import Boilerplate, CoreTable, Shingled, core_set
from ..fingerprint.scheme import Scheme, unpack_edges
from ..fingerprint.simhash import to_signed, to_unsigned
from ..i18n import translate
from ..models import Document, Fingerprint, SentBetweenProcesses, Status, display_path
from . import spill

APPLICATION_ID = 0x4E445550  # "NDUP": tells our databases from other SQLite files
BLOCKS = 4
BLOCK_BITS = 16
BAND_THRESHOLD = 0.7
"""The persisted band index is laid out for this Jaccard threshold and above; lower ones use memory."""
BAND_KEY_MASK = 0xFFFFFFFF
_QUERY_INDEX_COMPLETE = "query_index_complete"  # meta key: "1" when every content has its blocks and bands

_MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE contents (
        id INTEGER PRIMARY KEY,
        raw_hash BLOB NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL DEFAULT '',
        encoding TEXT NOT NULL DEFAULT '',
        pages INTEGER NOT NULL DEFAULT 0,
        chars INTEGER NOT NULL DEFAULT 0,
        text_hash BLOB,
        simhash INTEGER,
        b0 INTEGER, b1 INTEGER, b2 INTEGER, b3 INTEGER,
        minhash BLOB,
        shingle_count INTEGER NOT NULL DEFAULT 0,
        shingles BLOB
    );
    CREATE INDEX contents_b0 ON contents (b0, simhash);
    CREATE INDEX contents_b1 ON contents (b1, simhash);
    CREATE INDEX contents_b2 ON contents (b2, simhash);
    CREATE INDEX contents_b3 ON contents (b3, simhash);
    CREATE INDEX contents_text_hash ON contents (text_hash);
    CREATE TABLE bands (
        band INTEGER NOT NULL,
        key INTEGER NOT NULL,
        content_id INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        PRIMARY KEY (band, key, content_id)
    ) WITHOUT ROWID;
    CREATE INDEX bands_content ON bands (content_id);
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path BLOB NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        kind TEXT NOT NULL,
        content_id INTEGER REFERENCES contents (id),
        status TEXT,
        message TEXT NOT NULL DEFAULT '',
        scanned_at REAL NOT NULL
    );
    CREATE INDEX files_content ON files (content_id);
    CREATE TABLE overlaps (
        a INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        shared INTEGER NOT NULL,
        PRIMARY KEY (a, b)
    ) WITHOUT ROWID;
    CREATE INDEX overlaps_b ON overlaps (b);
    CREATE TABLE verdicts (
        hash_a BLOB NOT NULL,
        hash_b BLOB NOT NULL,
        verdict TEXT NOT NULL,
        decided_at REAL NOT NULL,
        PRIMARY KEY (hash_a, hash_b)
    ) WITHOUT ROWID;
    """,
    # version 2: boilerplate (frequent shingles of the collection, and the core of each document
    # that has some); see boilerplate.py
    """
    CREATE TABLE boilerplate_shingles (shingle INTEGER PRIMARY KEY) WITHOUT ROWID;
    ALTER TABLE contents ADD COLUMN core_count INTEGER;
    ALTER TABLE contents ADD COLUMN core_minhash BLOB;
    ALTER TABLE contents ADD COLUMN short_text INTEGER NOT NULL DEFAULT 0;
    """,
    # version 3: spanning forests kept between runs (see Matcher._kept_forest), and the overlaps of
    # documents' cores (boilerplate left out) beside those of whole texts
    """
    CREATE TABLE forests (
        name TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        limit_value REAL NOT NULL,
        a BLOB NOT NULL,
        b BLOB NOT NULL,
        weight BLOB NOT NULL
    );
    CREATE TABLE core_overlaps (
        a INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        shared INTEGER NOT NULL,
        PRIMARY KEY (a, b)
    ) WITHOUT ROWID;
    CREATE INDEX core_overlaps_b ON core_overlaps (b);
    """,
    # 4: failures that may not happen again (a time limit, a crash, memory) are marked, to be retried
    """
    ALTER TABLE contents ADD COLUMN transient REAL;
    UPDATE contents SET transient = 0 WHERE status = 'error' AND message LIKE 'Not compared:%';
    """,
    # 5: files a person chose to keep ("Keep this one"): their group's keeper whatever the rule
    """
    CREATE TABLE kept (path BLOB PRIMARY KEY, chosen_at REAL NOT NULL) WITHOUT ROWID;
    """,
    # 6: the JSON report's shared passages of a pair of contents (a's text first), kept so that a report
    # of an unchanged collection does not read and compare every pair's texts again
    """
    CREATE TABLE passages (
        a INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        passages TEXT NOT NULL,
        PRIMARY KEY (a, b)
    ) WITHOUT ROWID;
    CREATE INDEX passages_b ON passages (b);
    """,
    # 7: what is not a content's own fingerprint leaves ``contents`` (whose columns b0-b3, core_count and
    # core_minhash stay, unused, since dropping them rewrites the table):
    # - the SimHash block index: four indexed columns cost a scan four random index writes per content,
    #   half its database time; its table is written by the first query, as the bands are;
    # - the boilerplate analysis's cores: updating them in ``contents`` rewrote each row with its shingle
    #   set (~9 KB), twice per analysis.
    # Nothing reads text_hash through an index.
    """
    DROP INDEX contents_b0;
    DROP INDEX contents_b1;
    DROP INDEX contents_b2;
    DROP INDEX contents_b3;
    DROP INDEX contents_text_hash;
    CREATE TABLE simhash_blocks (
        block INTEGER NOT NULL,
        value INTEGER NOT NULL,
        content_id INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
        simhash INTEGER NOT NULL,
        PRIMARY KEY (block, value, content_id)
    ) WITHOUT ROWID;
    CREATE INDEX simhash_blocks_content ON simhash_blocks (content_id);
    DELETE FROM meta WHERE key = 'bands_complete';
    CREATE TABLE cores (
        content_id INTEGER PRIMARY KEY REFERENCES contents (id) ON DELETE CASCADE,
        shingle_count INTEGER NOT NULL,
        minhash BLOB NOT NULL
    );
    INSERT INTO cores (content_id, shingle_count, minhash)
        SELECT id, core_count, core_minhash FROM contents WHERE core_count IS NOT NULL;
    """,
    # 8: boilerplate is a passage at a text's start or end (see boilerplate.py): each content keeps the
    # shingles at its two ends in order, and a core says how many of those positions its passages take
    """
    ALTER TABLE contents ADD COLUMN edges BLOB;
    ALTER TABLE cores ADD COLUMN head_cut INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE cores ADD COLUMN tail_cut INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: what OCR read of each page of a scan (ocr.py), by the bytes' hash and the languages: it is kept
    # when fingerprints are dropped for a new scheme (hours of OCR are not thrown away), and a killed scan
    # goes on from the next page
    """
    CREATE TABLE ocr_pages (
        raw_hash BLOB NOT NULL,
        languages TEXT NOT NULL,
        page INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (raw_hash, languages, page)
    ) WITHOUT ROWID;
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)


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


@dataclass(frozen=True, slots=True)
class FingerprintArrays:
    """Every comparable content's fingerprints as arrays, row i describing ``content_ids[i]``."""

    content_ids: np.ndarray  # int64
    simhash: np.ndarray  # uint64
    minhash: np.ndarray  # (n, num_perm) uint32
    text_hash: list[bytes]
    shingle_count: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.content_ids)


def default_db_path() -> Path:
    """Where the database lives unless the user says otherwise (platformdirs' user data dir)."""
    from platformdirs import user_data_path

    return user_data_path("neardup", appauthor=False) / "neardup.db"


def blocks_of(fingerprint: int) -> list[int]:
    """The four 16-bit blocks of an unsigned 64-bit fingerprint, low block first."""
    mask = (1 << BLOCK_BITS) - 1
    return [(fingerprint >> (BLOCK_BITS * i)) & mask for i in range(BLOCKS)]


def _fs(path: str) -> bytes:
    return os.fsencode(path)


def _unfs(raw: bytes) -> str:
    return raw.decode(_FS_ENCODING, _FS_ERRORS)  # os.fsdecode, without its checks (100,000 paths a grouping)


_FS_ENCODING, _FS_ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
_STATUS_OF = {str(status): status for status in Status}


class _Signatures:
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
        raise DatabaseError(translate("Errors", "The database {path} is not a file (a folder, a device, a pipe or a "
                                                "socket); choose a database file, e.g. {example}.").format(
            path=display_path(str(path)), example=display_path(str(path / "neardup.db")
                                                               if stat.S_ISDIR(mode) else "neardup.db")))


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
                    raise DatabaseError(translate(
                        "Errors", "The database {path} is on a read-only disk or folder and holds changes not yet "
                                  "written into it (its -wal file: neardup was stopped while writing, or is writing "
                                  "it now); open it once where it can be written, or copy it there with its -wal "
                                  "file.").format(path=display_path(str(self.path))))
                connection = self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?immutable=1", uri=True,
                                                         isolation_level=None, check_same_thread=check_same_thread)
                self._refuse_foreign_database()
                if self.schema_version != SCHEMA_VERSION:
                    raise DatabaseError(translate(
                        "Errors", "The database {path} is on a read-only disk or folder and was written by another "
                                  "version of neardup; copy it somewhere writable to open it.").format(
                        path=display_path(str(self.path))))
                return
            connection = self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None,
                                                     check_same_thread=check_same_thread)
            self._refuse_foreign_database()  # before anything writes: WAL mode alone rewrites the header
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
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
            store._db = sqlite3.connect(f"{store.path.resolve().as_uri()}?{mode}", uri=True, timeout=30.0,
                                        isolation_level=None)
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(database_error_message(exc, store.path)) from exc
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema -----------------------------------------------------------------------------
    def _refuse_foreign_database(self) -> None:
        """Another program's SQLite file (another application id, or tables without ours) is refused
        with nothing written to it; so is a file that is not SQLite at all (sqlite3 raises)."""
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        has_tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and has_tables):
            raise DatabaseError(translate("Errors", "{path} is an SQLite database of another program; choose another "
                                                    "file.").format(path=self.path))

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DatabaseError(
                translate("Errors", "{path} was written by a newer neardup (schema {version}); update neardup to "
                                    "open it.").format(path=self.path, version=version)
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self.transaction():
                for statement in _split_sql(_MIGRATIONS[target - 1]):
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {target}")
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

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
    def _snapshot(self) -> Iterator[None]:
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
                self._db.execute("DELETE FROM bands")
                self._db.execute("DELETE FROM simhash_blocks")
                self._db.execute("DELETE FROM cores")
                self._db.execute("DELETE FROM contents")
            self.set_meta("scheme", scheme.to_json())
        return dropped

    def scheme(self) -> Scheme | None:
        raw = self.get_meta("scheme")
        return Scheme.from_json(raw) if raw else None

    # -- files ------------------------------------------------------------------------------
    def known_files(self) -> dict[str, KnownFile]:
        rows = self._db.execute("SELECT path, id, size, mtime_ns, content_id, status FROM files")
        return {_unfs(r[0]): KnownFile(r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def transient_failures(self) -> dict[int, float]:
        """Contents whose reading failed in a way that may not happen again: content id -> the time
        limit it ran out of (seconds), or 0 for a crash or lack of memory."""
        return dict(self._db.execute("SELECT id, transient FROM contents WHERE transient IS NOT NULL"))

    def contents_awaiting_ocr(self, encoding: str) -> set[int]:
        """Scans whose text OCR has not read in the languages asked (``encoding``, ocr.tag of them): PDFs
        and images without text, and those OCR read in other languages; read again by a scan that reads
        scans (the pages read before in each language are kept, so going back costs no OCR)."""
        return {cid for (cid,) in self._db.execute(
            "SELECT id FROM contents WHERE kind IN ('pdf', 'image') AND COALESCE(encoding, '') != ? AND "
            "(status = 'empty' OR encoding LIKE 'ocr %')", (encoding,))}

    def ocr_pages(self, raw_hash: bytes, languages: str) -> dict[int, str]:
        """The pages of a scan OCR read in ``languages`` so far: page index -> text."""
        return dict(self._db.execute("SELECT page, text FROM ocr_pages WHERE raw_hash = ? AND languages = ?",
                                     (raw_hash, languages)))

    def save_ocr_pages(self, pages: Sequence[tuple[bytes, str, int, str]]) -> None:
        """Keep what OCR read: (bytes' hash, languages, page index, text), in one transaction."""
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO ocr_pages (raw_hash, languages, page, text) "
                                 "VALUES (?, ?, ?, ?)", pages)

    def content_ids_for(self, hashes: Iterable[bytes]) -> dict[bytes, int]:
        """The content ids already stored for these byte hashes (missing ones are left out)."""
        found: dict[bytes, int] = {}
        batch = list(hashes)
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for raw, cid in self._db.execute(f"SELECT raw_hash, id FROM contents WHERE raw_hash IN ({marks})", chunk):
                found[raw] = cid
        return found

    def write_batch(self, fingerprints: Sequence[Fingerprint], files: Sequence[FileRecord]) -> None:
        """Store new contents and file rows in one transaction (files may name contents of this batch)."""
        if not fingerprints and not files:
            return
        now = time.time()
        fingerprints = [spill.restore(fp) for fp in fingerprints]  # read back what workers put aside
        with self.transaction():
            existing = self.content_ids_for(fp.raw_hash for fp in fingerprints)
            for fp in fingerprints:
                self._insert_content(fp, replaces=fp.raw_hash in existing)
            if fingerprints:
                self.set_meta(_QUERY_INDEX_COMPLETE, "0")
            hashes = {f.content_hash for f in files if f.content_hash is not None}
            ids = self.content_ids_for(hashes)
            self._db.executemany(
                """INSERT INTO files (path, size, mtime_ns, kind, content_id, status, message, scanned_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                     kind = excluded.kind, content_id = excluded.content_id, status = excluded.status,
                     message = excluded.message, scanned_at = excluded.scanned_at""",
                [
                    (
                        _fs(f.path), f.size, f.mtime_ns, f.kind,
                        ids.get(f.content_hash) if f.content_hash is not None else None,
                        None if f.content_hash is not None else str(f.status or Status.ERROR),
                        f.message, now,
                    )
                    for f in files
                ],
            )

    def _insert_content(self, fp: Fingerprint, replaces: bool) -> None:
        signed = to_signed(fp.simhash) if fp.simhash is not None else None
        cid = self._db.execute(
            """INSERT INTO contents (raw_hash, kind, status, message, encoding, pages, chars, text_hash,
                 simhash, minhash, shingle_count, shingles, short_text, transient, edges)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (raw_hash) DO UPDATE SET kind = excluded.kind, status = excluded.status,
                 message = excluded.message, encoding = excluded.encoding, pages = excluded.pages,
                 chars = excluded.chars, text_hash = excluded.text_hash, simhash = excluded.simhash,
                 minhash = excluded.minhash, shingle_count = excluded.shingle_count, shingles = excluded.shingles,
                 short_text = excluded.short_text, transient = excluded.transient, edges = excluded.edges
               RETURNING id""",
            (
                fp.raw_hash, fp.kind, str(fp.status), fp.message, fp.encoding, fp.pages, fp.chars, fp.text_hash,
                signed, fp.minhash, fp.shingle_count, fp.shingles, int(fp.short_text), fp.transient, fp.edges,
            ),
        ).fetchone()[0]
        if replaces:  # the same bytes fingerprinted again: what was derived from the old row goes
            self._db.execute("DELETE FROM bands WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM simhash_blocks WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM cores WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM overlaps WHERE a = ? OR b = ?", (cid, cid))
            self._db.execute("DELETE FROM core_overlaps WHERE a = ? OR b = ?", (cid, cid))
            self._db.execute("DELETE FROM passages WHERE a = ? OR b = ?", (cid, cid))

    def remove_files(self, paths: Iterable[str]) -> int:
        """Forget files (gone from disk); contents nobody refers to any more go too."""
        batch = [(_fs(p),) for p in paths]
        if not batch:
            return 0
        with self.transaction():
            self._db.executemany("DELETE FROM files WHERE path = ?", batch)
            self._db.execute(
                "DELETE FROM contents WHERE id NOT IN (SELECT content_id FROM files WHERE content_id IS NOT NULL)"
            )
        return len(batch)

    def rename_files(self, moves: Iterable[tuple[str, str]]) -> int:
        """Files moved on disk by the app (old path, new path): they keep their fingerprints, so a move
        can be undone without reading them again. A file already known at the new path is replaced."""
        batch = [(_fs(new), _fs(old)) for old, new in moves]
        if not batch:
            return 0
        with self.transaction():
            self._db.executemany("DELETE FROM files WHERE path = ?", [(new,) for new, _old in batch])
            self._db.executemany("UPDATE files SET path = ? WHERE path = ?", batch)
        return len(batch)

    # -- reading ----------------------------------------------------------------------------
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
        row = self._db.execute(self._DOC_SQL + " WHERE f.path = ?", (_fs(path),)).fetchone()
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
        return Document(r[0], _unfs(r[1]), r[2], r[3], r[4], _STATUS_OF[r[5]], r[6], r[7], r[8],
                        "" if r[9] == r[4] else r[9])

    def fingerprint_arrays(self) -> FingerprintArrays:
        """All comparable contents, loaded for in-memory matching (64 + 512 bytes each), read row by
        row into arrays made to size."""
        with self._snapshot():  # the count and the rows from one state of the database
            (n,) = self._db.execute("SELECT COUNT(*) FROM contents WHERE status = 'ok'").fetchone()
            ids = np.empty(n, dtype=np.int64)
            sims = np.empty(n, dtype=np.uint64)
            sigs = _Signatures(n)
            counts = np.empty(n, dtype=np.int64)
            text_hashes: list[bytes] = []
            rows = self._db.execute(
                "SELECT id, simhash, minhash, text_hash, shingle_count FROM contents WHERE status = 'ok' ORDER BY id")
            try:
                for row, (cid, simhash_value, signature, text_hash, count) in enumerate(rows):
                    ids[row], sims[row], counts[row] = cid, to_unsigned(simhash_value), count
                    sigs.put(row, signature)
                    text_hashes.append(text_hash)
            except (ValueError, TypeError, OverflowError, IndexError):  # a row damaged (or written by another program)
                raise self._damaged() from None
        return FingerprintArrays(ids, sims, sigs.matrix(), text_hashes, counts)

    def _damaged(self) -> DatabaseError:
        """What to say of fingerprints that cannot be read, and what to do."""
        count = max(len(self.damaged_contents()), 1)  # a name: lupdate drops a count that is an expression
        return DatabaseError(translate(
            "Errors", "The database {path} is damaged: the fingerprints of %n file(s) cannot be read. Scan the same "
                      "folders again (neardup scan FOLDER, or Scan in the app): those files are read again, and "
                      "nothing else is lost.", None, count).format(
            path=display_path(str(self.path))))

    _DAMAGED = f"""
        status = 'ok' AND (typeof(minhash) != 'blob' OR length(minhash) != {4 * minhash.NUM_PERM}
        OR typeof(simhash) != 'integer' OR typeof(shingle_count) != 'integer' OR shingle_count < 0
        OR typeof(text_hash) != 'blob' OR (typeof(shingles) = 'blob' AND length(shingles) % 4 != 0)
        OR (typeof(edges) = 'blob' AND length(edges) % 2 != 0))"""

    def damaged_contents(self) -> list[int]:
        """Contents whose fingerprint cannot be read (a damaged row)."""
        return [r[0] for r in self._db.execute(f"SELECT id FROM contents WHERE {self._DAMAGED}")]

    def forget_damaged(self) -> int:
        """Forget the contents whose fingerprint cannot be read, and the files that had them, so that the
        scan reads those files again (the person's decisions are kept: by path and by text hash). Returns
        how many contents were forgotten."""
        damaged = self.damaged_contents()
        if damaged:
            with self.transaction():
                marks = ",".join("?" * len(damaged))
                self._db.execute(f"DELETE FROM files WHERE content_id IN ({marks})", damaged)
                self._db.execute(f"DELETE FROM contents WHERE id IN ({marks})", damaged)
        return len(damaged)

    def ok_content_ids(self, *, word_shingled_only: bool = False) -> np.ndarray:
        """Ids of every comparable content (or of those shingled by words, not characters), ascending."""
        only = " AND short_text = 0" if word_shingled_only else ""
        rows = self._db.execute(f"SELECT id FROM contents WHERE status = 'ok'{only} ORDER BY id").fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def save_boilerplate(self, found: Boilerplate) -> None:
        """Replace the recorded boilerplate analysis with ``found``, in one transaction."""
        if self.read_only:  # a cache: a database on a read-only disk goes without
            return
        info = {"digest": found.digest, "min_share": found.min_share, "min_documents": found.min_documents,
                "passages": found.passages, "family_passages": found.family_passages}
        with self.transaction():
            self._db.execute("DELETE FROM boilerplate_shingles")
            self._db.execute("DELETE FROM core_overlaps")
            self._db.executemany("INSERT INTO boilerplate_shingles (shingle) VALUES (?)",
                                 ((v,) for v in found.shingles.tolist()))
            self._db.execute("DELETE FROM cores")
            self._db.executemany(
                "INSERT INTO cores (content_id, shingle_count, minhash, head_cut, tail_cut) VALUES (?, ?, ?, ?, ?)",
                ((cid, c.shingle_count, c.minhash, c.head_cut, c.tail_cut) for cid, c in sorted(found.cores.items())))
            self.set_meta("boilerplate", json.dumps(info, sort_keys=True))

    def boilerplate_digest(self) -> str | None:
        """The digest of the collection the last boilerplate analysis was made for, if any."""
        raw = self.get_meta("boilerplate")
        return json.loads(raw)["digest"] if raw is not None else None

    def boilerplate(self) -> Boilerplate | None:
        """The last boilerplate analysis, or None if there was none (check its digest before use)."""
        raw = self.get_meta("boilerplate")
        if raw is None:
            return None
        info = json.loads(raw)
        with self._snapshot():
            rows = self._db.execute("SELECT shingle FROM boilerplate_shingles ORDER BY shingle").fetchall()
            shingles = np.fromiter((r[0] for r in rows), dtype=np.uint32, count=len(rows))
            (n,) = self._db.execute("SELECT COUNT(*) FROM cores").fetchone()
            ids, counts, signatures = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), _Signatures(n)
            cuts = np.empty((n, 2), dtype=np.int64)
            cores = self._db.execute(
                "SELECT content_id, shingle_count, minhash, head_cut, tail_cut FROM cores ORDER BY content_id")
            for row, (cid, count, blob, head_cut, tail_cut) in enumerate(cores):
                ids[row], counts[row], cuts[row] = cid, count, (head_cut, tail_cut)
                signatures.put(row, blob)
        return Boilerplate(info["digest"], info["min_share"], info["min_documents"], shingles,
                           CoreTable(ids, counts, signatures.matrix(), cuts), passages=info.get("passages", 0),
                           family_passages=info.get("family_passages", 0))


    def content_fingerprint(self, content_id: int) -> tuple[int, np.ndarray, bytes, int] | None:
        row = self._db.execute(
            "SELECT simhash, minhash, text_hash, shingle_count FROM contents WHERE id = ? AND status = 'ok'",
            (content_id,),
        ).fetchone()
        if row is None:
            return None
        try:
            signature = np.frombuffer(row[1], dtype="<u4").astype(np.uint32)
            if len(signature) != minhash.NUM_PERM or not isinstance(row[3], int):
                raise ValueError(content_id)
            return to_unsigned(row[0]), signature, row[2], row[3]
        except (ValueError, TypeError):
            raise self._damaged() from None

    def shingles(self, content_ids: Iterable[int], *, cores: str | None = None) -> dict[int, np.ndarray]:
        """Contents' shingle sets: whole, or (``cores`` = the digest of the boilerplate analysis) what
        each is compared by under that analysis, its core where it has one (StaleFingerprints if that
        analysis is no longer the database's)."""
        if cores is None:
            return {cid: shingles for cid, (shingles, _edges) in self._shingled(content_ids, edges=False).items()}
        with self._snapshot():
            if self.boilerplate_digest() != cores:
                raise StaleFingerprints("the boilerplate analysis changed while documents were compared")
            sets = self._shingled(content_ids, edges=True)
            cuts = self._core_cuts(sets)
        return {cid: core_set(shingles, edges, *cuts.get(cid, (0, 0)))
                for cid, (shingles, edges) in sets.items()}

    def shingles_and_edges(self, content_ids: Iterable[int]) -> dict[int, Shingled]:
        """Contents' shingle sets with their edges (the shingles at each end in order; None for texts
        shingled by characters): what the boilerplate analysis reads."""
        return self._shingled(content_ids, edges=True)

    def _shingled(self, content_ids: Iterable[int], *, edges: bool) -> dict[int, Shingled]:
        out: dict[int, Shingled] = {}
        batch = list(set(content_ids))
        columns = "id, shingles, edges" if edges else "id, shingles, NULL"
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for cid, blob, edge_blob in self._db.execute(
                    f"SELECT {columns} FROM contents WHERE id IN ({marks})", chunk):
                if blob is not None:
                    shingles = minhash.unpack_shingles(blob)
                    out[cid] = shingles, unpack_edges(edge_blob, shingles) if edge_blob is not None else None
        return out

    def _core_cuts(self, content_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        out = {}
        batch = list(content_ids)
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for cid, head_cut, tail_cut in self._db.execute(
                    f"SELECT content_id, head_cut, tail_cut FROM cores WHERE content_id IN ({marks})", chunk):
                out[cid] = head_cut, tail_cut
        return out

    def all_overlaps(self, *, cores: bool = False) -> dict[tuple[int, int], int]:
        """Every |A∩B| computed so far, keyed by (a, b) content ids with a < b: of whole texts, or of
        the documents' cores under the current boilerplate analysis."""
        table = "core_overlaps" if cores else "overlaps"
        return {(a, b): shared for a, b, shared in self._db.execute(f"SELECT a, b, shared FROM {table}")}

    def save_overlaps(self, overlaps: dict[tuple[int, int], int], *, cores_of: str | None = None) -> None:
        """Remember overlaps of whole texts, or (``cores_of`` = the digest of the boilerplate analysis
        they were measured under) of cores: dropped if another analysis has replaced that one since."""
        if self.read_only:  # a cache: a database on a read-only disk goes without
            return
        if overlaps:
            table = "core_overlaps" if cores_of is not None else "overlaps"
            with self.transaction():
                if cores_of is not None and self.boilerplate_digest() != cores_of:
                    return
                self._db.executemany(
                    f"INSERT OR REPLACE INTO {table} (a, b, shared) VALUES (?, ?, ?)",
                    [(a, b, shared) for (a, b), shared in overlaps.items()],
                )

    def kept_passages(self, version: str) -> dict[tuple[int, int], list[str]]:
        """The shared passages kept for pairs of contents, (a, b) -> passages, if they were found by
        ``version`` of the method (what another version found is forgotten)."""
        if self.get_meta("passages_version") != version:
            return {}
        return {(a, b): json.loads(found) for a, b, found in self._db.execute("SELECT a, b, passages FROM passages")}

    def keep_passages(self, found: dict[tuple[int, int], list[str]], version: str) -> None:
        """Remember shared passages of pairs of contents, found by ``version`` of the method."""
        if self.read_only:  # a cache: a database on a read-only disk goes without
            return
        with self.transaction():
            if self.get_meta("passages_version") != version:
                self._db.execute("DELETE FROM passages")
                self.set_meta("passages_version", version)
            self._db.executemany("INSERT OR REPLACE INTO passages (a, b, passages) VALUES (?, ?, ?)",
                                 [(a, b, json.dumps(p, ensure_ascii=False)) for (a, b), p in found.items()])

    def save_forest(
        self, name: str, state: str, limit: float, a: np.ndarray, b: np.ndarray, weight: np.ndarray
    ) -> None:
        """Keep a matcher's spanning forest (edges as content ids) for the next matcher of the same state."""
        if self.read_only:  # a cache: a database on a read-only disk goes without
            return
        with self.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO forests (name, state, limit_value, a, b, weight) VALUES (?, ?, ?, ?, ?, ?)",
                (name, state, float(limit), np.asarray(a, "<i8").tobytes(), np.asarray(b, "<i8").tobytes(),
                 np.asarray(weight, "<f8").tobytes()),
            )

    def forest(self, name: str, state: str) -> tuple[float, np.ndarray, np.ndarray, np.ndarray] | None:
        """(limit, a, b, weight) of the forest kept under ``name`` if it was built in ``state``."""
        row = self._db.execute("SELECT limit_value, a, b, weight FROM forests WHERE name = ? AND state = ?",
                               (name, state)).fetchone()
        if row is None:
            return None
        return (row[0], np.frombuffer(row[1], "<i8").astype(np.int64), np.frombuffer(row[2], "<i8").astype(np.int64),
                np.frombuffer(row[3], "<f8").astype(np.float64))

    def simhash_neighbours(self, fingerprint: int, probes: Sequence[int]) -> list[tuple[int, int]]:
        """(content id, fingerprint) of every stored content sharing a block value with the probes.

        ``probes`` are XOR masks applied to each 16-bit block (0 alone means exact block match).
        """
        if not self._query_index_ready():  # read every fingerprint instead
            arrays = self.fingerprint_arrays()
            near = np.zeros(len(arrays), dtype=bool)
            for i, value in enumerate(blocks_of(fingerprint)):
                blocks = (arrays.simhash >> np.uint64(BLOCK_BITS * i)) & np.uint64((1 << BLOCK_BITS) - 1)
                near |= np.isin(blocks, np.array(sorted({value ^ p for p in probes}), dtype=np.uint64))
            return list(zip(arrays.content_ids[near].tolist(), arrays.simhash[near].tolist(), strict=True))
        found: dict[int, int] = {}
        for i, value in enumerate(blocks_of(fingerprint)):
            candidates = sorted({value ^ p for p in probes})
            marks = ",".join("?" * len(candidates))
            for cid, sim in self._db.execute(
                f"SELECT content_id, simhash FROM simhash_blocks WHERE block = ? AND value IN ({marks})",
                (i, *candidates),
            ):
                found[cid] = to_unsigned(sim)
        return list(found.items())

    def band_neighbours(self, keys: Sequence[int]) -> set[int]:
        """Content ids sharing at least one persisted band key with ``keys`` (one key per band)."""
        if not self._query_index_ready():  # read every fingerprint instead
            arrays = self.fingerprint_arrays()
            bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
            every = minhash.band_keys(arrays.minhash, bands, rows) & np.uint64(BAND_KEY_MASK)
            wanted = np.array([int(k) & BAND_KEY_MASK for k in keys], dtype=np.uint64)
            return set(arrays.content_ids[(every == wanted[None, :]).any(axis=1)].tolist())
        found: set[int] = set()
        for band, key in enumerate(keys):
            for (cid,) in self._db.execute(
                "SELECT content_id FROM bands WHERE band = ? AND key = ?", (band, int(key) & BAND_KEY_MASK)
            ):
                found.add(cid)
        return found

    def _query_index_ready(self) -> bool:
        """Whether the query's index holds every content, made so now if need be; never on a read-only disk,
        where a query reads every fingerprint instead (as fast below some hundred thousand documents)."""
        if self.get_meta(_QUERY_INDEX_COMPLETE) == "1":
            return True
        if self.read_only:
            return False
        self.complete_query_index()
        return True

    def complete_query_index(self) -> None:
        """Add the SimHash blocks and LSH band keys of the contents that have none yet, each in one
        batch sorted by key. A scan leaves them to the first query: they serve ``query`` alone (grouping
        works on the fingerprints in memory), and written one content at a time as a scan writes, the
        block columns' indexes cost it half its database time and the bands 60 %. A flag the scan
        clears spares each later query the search for contents without them."""
        if self.get_meta(_QUERY_INDEX_COMPLETE) == "1":
            return
        if self.damaged_contents():
            raise self._damaged()
        with self.transaction():  # looked for inside it: a scan's writer may add contents meanwhile
            if self.get_meta(_QUERY_INDEX_COMPLETE) == "1":
                return
            no_bands = self._db.execute(
                "SELECT id, minhash FROM contents WHERE minhash IS NOT NULL "
                "AND id NOT IN (SELECT content_id FROM bands)"
            ).fetchall()
            no_blocks = self._db.execute(
                "SELECT id, simhash FROM contents WHERE simhash IS NOT NULL "
                "AND id NOT IN (SELECT content_id FROM simhash_blocks)"
            ).fetchall()
            if no_bands:
                self._db.executemany("INSERT OR IGNORE INTO bands (band, key, content_id) VALUES (?, ?, ?)",
                                     _band_rows(no_bands))
            if no_blocks:
                self._db.executemany(
                    "INSERT OR IGNORE INTO simhash_blocks (block, value, content_id, simhash) VALUES (?, ?, ?, ?)",
                    _block_rows(no_blocks))
            self.set_meta(_QUERY_INDEX_COMPLETE, "1")

    @staticmethod
    def scan_text(path: str | os.PathLike[str], raw_hash: bytes) -> str | None:
        """The text OCR read of the scan with these bytes, as its fingerprint holds it (its pages, in the
        languages its content's encoding names), from the database at ``path``, read-only (any thread or
        process); None when it has none."""
        from ..read.pdf import PAGE_SEPARATOR

        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        try:
            with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
                rows = db.execute(
                    """SELECT c.pages, o.page, o.text FROM ocr_pages o JOIN contents c ON c.raw_hash = o.raw_hash
                       AND c.encoding = 'ocr ' || o.languages WHERE o.raw_hash = ? ORDER BY o.page""",
                    (raw_hash,)).fetchall()
        except sqlite3.Error:
            return None
        if not rows:
            return None
        pages = dict((page, text) for _, page, text in rows)  # a page OCR could not read is empty, as compared
        return PAGE_SEPARATOR.join(pages.get(n, "") for n in range(max(rows[0][0] or 0, len(pages))))

    def content_hashes(self, content_ids: Iterable[int]) -> dict[int, bytes]:
        out: dict[int, bytes] = {}
        batch = list(set(content_ids))
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            out.update(self._db.execute(f"SELECT id, raw_hash FROM contents WHERE id IN ({marks})", chunk).fetchall())
        return out

    # -- decisions --------------------------------------------------------------------------
    def set_verdict(self, hash_a: bytes, hash_b: bytes, verdict: str | None) -> None:
        """Remember (or forget, with None) the user's judgement on a pair of contents."""
        self.set_verdicts([(hash_a, hash_b)], verdict)

    def set_verdicts(self, pairs: Iterable[tuple[bytes, bytes]], verdict: str | None) -> None:
        """One judgement on several pairs of contents, all or nothing."""
        now = time.time()
        with self.transaction():
            for hash_a, hash_b in pairs:
                a, b = sorted((hash_a, hash_b))
                if verdict is None:
                    self._db.execute("DELETE FROM verdicts WHERE hash_a = ? AND hash_b = ?", (a, b))
                else:
                    self._db.execute(
                        "INSERT OR REPLACE INTO verdicts (hash_a, hash_b, verdict, decided_at) VALUES (?, ?, ?, ?)",
                        (a, b, verdict, now),
                    )

    def verdicts(self, verdict: str) -> set[tuple[bytes, bytes]]:
        return set(self._db.execute("SELECT hash_a, hash_b FROM verdicts WHERE verdict = ?", (verdict,)).fetchall())

    def verdict_list(self, verdict: str) -> list[tuple[bytes, bytes, float]]:
        """(hash_a, hash_b, decided_at) of every such judgement, newest first."""
        return self._db.execute("SELECT hash_a, hash_b, decided_at FROM verdicts WHERE verdict = ? "
                                "ORDER BY decided_at DESC, hash_a, hash_b", (verdict,)).fetchall()

    def paths_by_content_hash(self) -> dict[bytes, list[str]]:
        """The files of each content, by its raw hash (for decisions, which are kept by content)."""
        out: dict[bytes, list[str]] = {}
        for raw_hash, path in self._db.execute(
                "SELECT c.raw_hash, f.path FROM files f JOIN contents c ON c.id = f.content_id ORDER BY f.path"):
            out.setdefault(raw_hash, []).append(_unfs(path))
        return out

    def set_kept(self, path: str, kept: bool, at: float | None = None) -> None:
        """Remember (or forget) that a person chose to keep this file, now or ``at`` (a choice put back)."""
        with self.transaction():
            if kept:
                self._db.execute("INSERT OR REPLACE INTO kept (path, chosen_at) VALUES (?, ?)",
                                 (_fs(path), time.time() if at is None else at))
            else:
                self._db.execute("DELETE FROM kept WHERE path = ?", (_fs(path),))

    def kept_paths(self) -> dict[str, float]:
        """Files a person chose to keep, with when."""
        return {_unfs(path): at for path, at in self._db.execute("SELECT path, chosen_at FROM kept")}


def _band_rows(contents: list[tuple[int, bytes]]) -> Iterator[tuple[int, int, int]]:
    """(band, key, content id) of (content id, MinHash signature) pairs, in the table's key order."""
    bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
    ids = np.array([cid for cid, _ in contents], dtype=np.int64)
    signatures = np.frombuffer(b"".join(sig for _, sig in contents), dtype="<u4").reshape(len(contents), -1)
    keys = (minhash.band_keys(signatures, bands, rows) & np.uint64(BAND_KEY_MASK)).astype(np.int64).ravel()
    band = np.broadcast_to(np.arange(bands, dtype=np.int64), (len(contents), bands)).ravel()
    owner = np.repeat(ids, bands)
    order = np.lexsort((owner, keys, band))
    return zip(band[order].tolist(), keys[order].tolist(), owner[order].tolist(), strict=True)


def _block_rows(contents: list[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
    """(block, value, content id, signed fingerprint) of (content id, signed SimHash) pairs, in the
    table's key order."""
    ids = np.array([cid for cid, _ in contents], dtype=np.int64)
    signed = np.array([sim for _, sim in contents], dtype=np.int64)
    shifts = np.arange(BLOCKS, dtype=np.uint64) * np.uint64(BLOCK_BITS)
    values = ((signed.view(np.uint64)[:, None] >> shifts) & np.uint64((1 << BLOCK_BITS) - 1)).astype(np.int64)
    block = np.broadcast_to(np.arange(BLOCKS, dtype=np.int64), values.shape).ravel()
    owner = np.repeat(ids, BLOCKS)
    fingerprint = np.repeat(signed, BLOCKS)
    values = values.ravel()
    order = np.lexsort((owner, values, block))
    return zip(block[order].tolist(), values[order].tolist(), owner[order].tolist(), fingerprint[order].tolist(),
               strict=True)


def _split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
