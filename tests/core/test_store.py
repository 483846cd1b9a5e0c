import sqlite3

import pytest

from neardup_gui.core.errors import DatabaseError
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.models import Status
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.schema import SCHEMA_VERSION
from neardup_gui.core.store.store import Store


def test_new_database_has_schema_version_wal_and_our_application_id(db_path):
    with Store(db_path) as store:
        assert store.schema_version == SCHEMA_VERSION
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA application_id").fetchone()[0] != 0
    con.close()


def test_another_programs_sqlite_file_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE mine (x)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="another program"):
        Store(path)
    # byte for byte: not even the journal mode (header bytes 18-19) may change, nor a -wal appear
    assert path.read_bytes() == before
    assert not (tmp_path / "other.db-wal").exists()
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [("mine",)]


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("this is not a database at all " * 100)
    with pytest.raises(DatabaseError):
        Store(path)


def test_newer_schema_is_refused(db_path):
    Store(db_path).close()
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="newer"):
        Store(db_path)


def _stored_content(store: Store, path: str, text: str):
    fp = fingerprint_bytes("text", text.encode(), Scheme.current())
    store.write_batch([fp], [FileRecord(path, len(text), 1, "text", content_hash=fp.raw_hash)])
    return fp


def test_a_different_scheme_drops_fingerprints_a_same_one_keeps_them(db_path):
    with Store(db_path) as store:
        assert store.ensure_scheme(Scheme.current()) is False
        _stored_content(store, "/x/a.txt", "some words to fingerprint here")
        assert store.ensure_scheme(Scheme.current()) is False
        assert len(store.contents.fingerprint_arrays()) == 1
        changed = Scheme(shingle_size=5, jieba=Scheme.current().jieba, pypdf=Scheme.current().pypdf)
        assert store.ensure_scheme(changed) is True
        assert len(store.contents.fingerprint_arrays()) == 0
        assert store.files.known()["/x/a.txt"].content_id is None  # will be read again


def test_paths_that_are_not_utf8_round_trip(db_path):
    odd = "/data/caf\udce9 \u6587\u4ef6.txt"  # a Latin-1 byte in a name, as os.fsdecode gives it
    with Store(db_path) as store:
        store.write_batch([], [FileRecord(odd, 1, 1, "text", status=Status.UNREADABLE, message="x")])
        assert odd in store.files.known()
        doc = store.files.document_by_path(odd)
        assert doc.display_path == "/data/caf\\xe9 文件.txt"


def test_removing_the_last_file_of_a_content_removes_its_fingerprints(db_path):
    with Store(db_path) as store:
        store.ensure_scheme(Scheme.current())
        _stored_content(store, "/x/a.txt", "shared words in two places")
        fp = fingerprint_bytes("text", b"shared words in two places", Scheme.current())
        store.write_batch([], [FileRecord("/y/copy.txt", 1, 1, "text", content_hash=fp.raw_hash)])
        store.files.remove(["/x/a.txt"])
        assert len(store.contents.fingerprint_arrays()) == 1
        store.files.remove(["/y/copy.txt"])
        assert len(store.contents.fingerprint_arrays()) == 0


@pytest.mark.e2e
def test_a_database_of_the_first_schema_is_migrated_and_scanned_again(tmp_path):
    """A version 1 database (as the first release wrote it, with a file under an older scheme) opens
    at the current version: new columns and tables are there, and the next scan fingerprints again."""
    from neardup_gui.core.match.matcher import Matcher
    from neardup_gui.core.models import ScanOptions, Thresholds
    from neardup_gui.core.scan import scan
    from neardup_gui.core.store.schema import APPLICATION_ID, MIGRATIONS, split_sql

    path = tmp_path / "v1.db"
    con = sqlite3.connect(path)
    for statement in split_sql(MIGRATIONS[0]):
        con.execute(statement)
    con.execute("INSERT INTO meta (key, value) VALUES ('scheme', '{\"version\": 1}')")
    con.execute("INSERT INTO contents (raw_hash, kind, status) VALUES (x'00', 'text', 'ok')")
    con.execute(
        "INSERT INTO contents (raw_hash, kind, status, message) VALUES "
        "(x'01', 'pdf', 'error', 'Not compared: reading it took longer than 5 s, so it was stopped.')"
    )
    con.execute("PRAGMA user_version = 1")
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.commit()
    con.close()
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text("Near-duplicate documents are found after the upgrade, as before it. " * 5)
    (root / "b.txt").write_text("Near-duplicate documents are found after the upgrade, as before it. " * 5 + "Yes.")
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 3
        tables = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"boilerplate_shingles", "forests", "core_overlaps"} <= tables
        # a reader that ran out of time under an older version is marked to be tried again
        assert list(store.contents.transient_failures().values()) == [0.0]
        summary = scan(store, ScanOptions(roots=(str(root),), workers=1))
        assert summary.fingerprints_reset and summary.extracted == 2
        groups = Matcher(store).match(Thresholds()).groups
        assert len(groups) == 1 and len(groups[0].members) == 2


@pytest.mark.e2e
def test_a_database_of_schema_6_keeps_its_cores_and_answers_simhash_queries_from_the_new_block_table(tmp_path):
    """Schema 6 kept the SimHash blocks in indexed columns of ``contents`` (and marked its band index
    complete) and each document's core there too; after the migration the cores are in their own table
    and the block table is empty, so the first query fills it for the contents already there and finds
    them."""
    from neardup_gui.core.fingerprint.simhash import to_signed
    from neardup_gui.core.models import Method, Thresholds
    from neardup_gui.core.query import query
    from neardup_gui.core.store.query_index import blocks_of
    from neardup_gui.core.store.schema import APPLICATION_ID, MIGRATIONS, split_sql

    root = tmp_path / "docs"
    root.mkdir()
    text = "Stored before the upgrade, this document is still found by its fingerprint afterwards. " * 8
    stored = root / "stored.txt"
    stored.write_text(text, encoding="utf-8")
    probe = tmp_path / "probe.txt"
    probe.write_text(text + "One more sentence.", encoding="utf-8")
    fp = fingerprint_bytes("text", stored.read_bytes(), Scheme.current())
    assert fp.simhash is not None

    path = tmp_path / "v6.db"
    con = sqlite3.connect(path)
    for migration in MIGRATIONS[:6]:
        for statement in split_sql(migration):
            con.execute(statement)
    con.execute(
        "INSERT INTO meta (key, value) VALUES ('scheme', ?), ('bands_complete', '1')", (Scheme.current().to_json(),)
    )
    con.execute(
        "INSERT INTO contents (id, raw_hash, kind, status, chars, text_hash, simhash, b0, b1, b2, b3, "
        "minhash, shingle_count, shingles, core_count, core_minhash) "
        "VALUES (1, ?, 'text', 'ok', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 7, x'0102')",
        (
            fp.raw_hash,
            fp.chars,
            fp.text_hash,
            to_signed(fp.simhash),
            *blocks_of(fp.simhash),
            fp.minhash,
            fp.shingle_count,
            fp.shingles,
        ),
    )
    stat = stored.stat()
    con.execute(
        "INSERT INTO files (path, size, mtime_ns, kind, content_id, scanned_at) VALUES (?, ?, ?, 'text', 1, 0)",
        (bytes(stored), stat.st_size, stat.st_mtime_ns),
    )
    con.execute("PRAGMA user_version = 6")
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.commit()
    con.close()

    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 12
        assert store._db.execute("SELECT sequence FROM contents").fetchall() == [(None,)]  # schema 11's column
        assert store._db.execute("SELECT count(*) FROM searches").fetchone() == (0,)  # schema 12's table
        indexes = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert not indexes & {"contents_b0", "contents_b1", "contents_b2", "contents_b3", "contents_text_hash"}
        assert store._db.execute("SELECT count(*) FROM ocr_pages").fetchone() == (0,)  # schema 9's table
        assert store._db.execute("SELECT * FROM cores").fetchall() == [(1, 7, b"\x01\x02", 0, 0)]  # no cuts
        hits = query(store, str(probe), Thresholds(Method.SIMHASH, 6, 0.8))
        assert [h.document.path for h in hits] == [str(stored)]
        assert store._db.execute("SELECT count(*) FROM simhash_blocks WHERE content_id = 1").fetchone()[0] == 4
