"""The database's schema: its tables, made and upgraded step by step (one migration a schema version,
each in its own transaction), and the mark that tells our databases from other SQLite files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import DatabaseError
from ..i18n import translate

APPLICATION_ID = 0x4E445550  # "NDUP": tells our databases from other SQLite files

MIGRATIONS: tuple[str, ...] = (
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
    # 10: what each text's opening is about (fingerprint/keywords.py), to name the groups; contents stored
    # before have none, and their groups are named by a file until they are read again
    """
    ALTER TABLE contents ADD COLUMN keywords TEXT;
    """,
    # 11: every shingle of a text in order (fingerprint scheme 5), for the passages two texts share; the
    # scheme's change has every content read again, so none is left without it
    """
    ALTER TABLE contents ADD COLUMN sequence BLOB;
    """,
    # 12: the excerpts and shared passages found, kept for the state of the collection they were found in
    # and their setting (store/searches.py)
    """
    CREATE TABLE searches (name TEXT PRIMARY KEY, state TEXT NOT NULL, result BLOB NOT NULL);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def version(db: sqlite3.Connection) -> int:
    """The schema version the database at ``db`` is at."""
    return db.execute("PRAGMA user_version").fetchone()[0]


def refuse_foreign(db: sqlite3.Connection, path: Path) -> None:
    """Another program's SQLite file (another application id, or tables without ours) is refused
    with nothing written to it; so is a file that is not SQLite at all (sqlite3 raises)."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and has_tables):
        raise DatabaseError(
            translate("Errors", "{path} is an SQLite database of another program; choose another file.").format(
                path=path
            )
        )


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database at ``db`` (just opened, so in no transaction) up to SCHEMA_VERSION, each step
    all or nothing; one written by a newer neardup is refused."""
    current = version(db)
    if current > SCHEMA_VERSION:
        raise DatabaseError(
            translate(
                "Errors", "{path} was written by a newer neardup (schema {version}); update neardup to open it."
            ).format(path=path, version=current)
        )
    for target in range(current + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in split_sql(MIGRATIONS[target - 1]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {target}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            if db.in_transaction:  # SQLite may have ended it itself (a full disk): its error is the one
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def split_sql(script: str) -> list[str]:
    """A migration's statements, one by one."""
    return [s.strip() for s in script.split(";") if s.strip()]
