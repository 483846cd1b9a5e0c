"""The scan's writer process: the same database as writing in the scan's own process, failures said
as the database errors they are, nothing half-written when either side stops."""

import multiprocessing as mp
import os
import sqlite3
import time
from pathlib import Path

import pytest

from neardup_gui.core import scan as scan_module
from neardup_gui.core.errors import DatabaseError
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.models import ScanOptions, Status
from neardup_gui.core.read.extract import kind_of
from neardup_gui.core.scan import scan
from neardup_gui.core.store import spill
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.store import Store
from neardup_gui.core.store.writer import WriterProcess
from tests.conftest import chinese_texts, english_texts, plant_edits, write_pdf


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    texts = {**english_texts(), **chinese_texts()}
    for n in range(60):
        name, content = list(texts.items())[n % len(texts)]
        (root / f"{name}-{n:02d}.txt").write_text(plant_edits(content, 0.01 * (n % 4), seed=n), encoding="utf-8")
    (root / "copy.txt").write_text(plant_edits(english_texts()["BSD"], 0.0, seed=0), encoding="utf-8")
    (root / "empty.txt").write_bytes(b"")
    (root / "binary.txt").write_bytes(bytes(range(256)) * 40)
    write_pdf(root / "bsd.pdf", english_texts()["BSD"])
    return root


def _database(path) -> tuple[list, list]:
    """Every file's row and every content's fingerprints, by path and bytes (not by row ids)."""
    con = sqlite3.connect(path)
    files = con.execute(
        "SELECT f.path, f.size, f.kind, f.status, f.message, c.raw_hash FROM files f "
        "LEFT JOIN contents c ON c.id = f.content_id ORDER BY f.path"
    ).fetchall()
    contents = con.execute(
        "SELECT raw_hash, kind, status, message, chars, text_hash, simhash, minhash, "
        "shingle_count, shingles, short_text FROM contents ORDER BY raw_hash"
    ).fetchall()
    con.close()
    return files, contents


@pytest.mark.e2e
def test_a_scan_written_by_the_writer_process_equals_one_written_here(tree, tmp_path, monkeypatch):
    started = []
    real_init = WriterProcess.__init__

    def counted(self, db_path):
        started.append(db_path)
        real_init(self, db_path)

    monkeypatch.setattr(WriterProcess, "__init__", counted)
    monkeypatch.setattr(scan_module, "_WRITER_PROCESS_CONTENTS", 10**9)
    with Store(tmp_path / "here.db") as store:
        here = scan(store, ScanOptions(roots=(str(tree),), workers=2))
    assert not started
    monkeypatch.setattr(scan_module, "_WRITER_PROCESS_CONTENTS", 1)
    monkeypatch.setattr(scan_module, "_BATCH_ITEMS", 7)  # many batches, so their order matters
    with Store(tmp_path / "there.db") as store:
        there = scan(store, ScanOptions(roots=(str(tree),), workers=2))
    assert len(started) == 1
    assert (here.extracted, here.problems) == (there.extracted, there.problems)
    assert here.extracted >= 50 and here.problems == 2
    assert _database(tmp_path / "here.db") == _database(tmp_path / "there.db")
    assert not [p for p in mp.active_children() if p.name == "neardup-writer"], "the writer stops with the scan"


@pytest.mark.e2e
def test_a_cancelled_scan_keeps_everything_handed_to_the_writer(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(scan_module, "_WRITER_PROCESS_CONTENTS", 1)
    monkeypatch.setattr(scan_module, "_BATCH_ITEMS", 5)
    cancel = CancelToken()
    done = []

    def progress(event):
        if event.phase == "fingerprint" and event.done:
            done.append(event.done)
            if event.done >= 20:
                cancel.cancel()

    with Store(tmp_path / "cancelled.db") as store:
        with pytest.raises(JobCancelled):
            scan(store, ScanOptions(roots=(str(tree),), workers=1), progress=progress, cancel=cancel)
        # written before scan() returned: every fingerprint the scan was told of is in the database
        assert store._db.execute("SELECT count(*) FROM contents").fetchone()[0] >= max(done) >= 20
        resumed = scan(store, ScanOptions(roots=(str(tree),), workers=1))
    assert resumed.unchanged >= 20
    with Store(tmp_path / "whole.db") as store:
        scan(store, ScanOptions(roots=(str(tree),), workers=1))
    assert _database(tmp_path / "cancelled.db")[1] == _database(tmp_path / "whole.db")[1]


@pytest.mark.e2e
def test_a_write_that_fails_in_the_writer_is_raised_as_that_database_error(tree, tmp_path, monkeypatch):
    """A real SQLite failure (a trigger refusing one file's row) stops the scan with the error SQLite
    gave, as a write in the scan's own process would; what was written before it is kept."""
    monkeypatch.setattr(scan_module, "_WRITER_PROCESS_CONTENTS", 1)
    monkeypatch.setattr(scan_module, "_BATCH_ITEMS", 5)
    db = tmp_path / "refusing.db"
    with Store(db) as store:
        store._db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON files WHEN CAST(NEW.path AS TEXT) LIKE '%/empty.txt' "
            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
        with pytest.raises(sqlite3.IntegrityError, match="refused by the test") as raised:
            scan(store, ScanOptions(roots=(str(tree),), workers=1))
        assert raised.value.sqlite_errorname.startswith("SQLITE_CONSTRAINT")
        assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store._db.execute("SELECT count(*) FROM files").fetchone()[0] > 0


@pytest.mark.e2e
def test_a_writer_that_died_is_said_plainly(tmp_path):
    with Store(tmp_path / "w.db"):
        pass
    with WriterProcess(tmp_path / "w.db") as writer:
        writer.write([], [FileRecord(str(tmp_path / "a.txt"), 1, 1, "text", status=Status.ERROR, message="x")])
        writer.wait()
        [child] = [p for p in mp.active_children() if p.name == "neardup-writer"]
        child.kill()
        child.join(timeout=10)
        deadline = time.monotonic() + 10
        with pytest.raises(DatabaseError, match="stopped unexpectedly"):
            while time.monotonic() < deadline:
                writer.write([], [FileRecord(str(tmp_path / "b.txt"), 1, 1, "text", status=Status.ERROR)])
                writer.wait()
    with Store(tmp_path / "w.db") as store:
        assert [d.path for d in store.files.documents()] == [str(tmp_path / "a.txt")]


@pytest.mark.e2e
def test_ctrl_c_while_the_writer_starts_does_not_kill_it(tmp_path):
    """A Ctrl-C reaches the writer too (one process group): ignored from its very start, since the
    parent handles it (cancels the scan, which then writes everything it was handed)."""
    import os
    import signal

    with Store(tmp_path / "w.db"):
        pass
    with WriterProcess(tmp_path / "w.db") as writer:
        [child] = [p for p in mp.active_children() if p.name == "neardup-writer"]
        for _ in range(10):  # during the ~0.3 s it takes to start Python and import the store
            os.kill(child.pid, signal.SIGINT)
            time.sleep(0.03)
        writer.write([], [FileRecord(str(tmp_path / "a.txt"), 1, 1, "text", status=Status.ERROR, message="x")])
        writer.wait()
        assert child.is_alive()
    with Store(tmp_path / "w.db") as store:
        assert [d.path for d in store.files.documents()] == [str(tmp_path / "a.txt")]


@pytest.mark.e2e
def test_what_workers_put_aside_is_written_byte_for_byte_and_the_spill_folder_goes(tree, tmp_path, monkeypatch):
    """The workers hand the writer each fingerprint's large parts through a spill file beside the database,
    not through the parent: what the database holds is what fingerprinting the file here gives (by the
    writer process and here), parts did go through the file, and the folder goes with the scan; a folder
    left by a killed scan (its lock free) is removed, one a running scan holds is not."""
    import fcntl

    killed = Path(spill.new_folder(str(tmp_path)))  # then its scan dies: its lock is let go
    os.close(spill._locks.pop(str(killed)))
    (killed / "4242.bin").write_bytes(b"parts")
    running = tmp_path / f"{spill.PREFIX}running"
    running.mkdir()
    held = os.open(running / "lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    restored: list[bool] = []
    real_restore = spill.restore

    def counted(fp):
        restored.append(fp.spilled is not None)
        return real_restore(fp)

    monkeypatch.setattr(spill, "restore", counted)
    scheme = Scheme.current()
    for process_from in (10**9, 1):  # written here, then by the writer process
        monkeypatch.setattr(scan_module, "_WRITER_PROCESS_CONTENTS", process_from)
        db = tmp_path / f"n{process_from}.db"
        with Store(db) as store:
            scan(store, ScanOptions(roots=(str(tree),), workers=2))
        con = sqlite3.connect(db)
        stored = {
            raw: (minhash, shingles, edges)
            for raw, minhash, shingles, edges in con.execute(
                "SELECT raw_hash, minhash, shingles, edges FROM contents WHERE status = 'ok'"
            )
        }
        con.close()
        checked = 0
        for path in sorted(tree.iterdir()):
            fp = fingerprint_bytes(kind_of(str(path)) or "", path.read_bytes(), scheme)
            if fp.status is Status.OK:
                assert stored[fp.raw_hash] == (fp.minhash, fp.shingles, fp.edges), path.name
                checked += 1
        assert checked >= 55
    assert sum(restored) >= 55, "the parts went through the spill file"
    assert sorted(p.name for p in tmp_path.glob(f"{spill.PREFIX}*")) == [running.name]
    assert not killed.exists()
    os.close(held)


def test_a_spill_that_cannot_be_written_or_read_back_costs_nothing_or_that_content_only(tmp_path):
    fp = fingerprint_bytes("text", english_texts()["BSD"].encode(), Scheme.current())
    gone = tmp_path / "gone"
    assert spill.spill(fp, str(gone)) == fp  # no folder to write to: sent whole, by the pipes
    folder = spill.new_folder(str(tmp_path))
    put = spill.spill(fp, folder)
    assert put.spilled is not None and put.shingles is None and spill.restore(put) == fp
    spill.forget(folder)
    failed = spill.restore(put)  # the file is gone: that content alone is a failure to try again
    assert failed.status is Status.ERROR and failed.transient == 0.0 and "read back" in failed.message
    assert not Path(folder).exists()


@pytest.mark.e2e
def test_only_our_own_work_folders_are_swept_and_only_of_our_own_files(tree, tmp_path):
    """A folder that only looks like a killed scan's (its name, a lock file) is never touched; one of ours
    that a person put a file into loses only what neardup made, and stays with that file."""
    look_alike = tmp_path / f"{spill.PREFIX}2024"
    look_alike.mkdir()
    (look_alike / "lock").write_bytes(b"x")
    (look_alike / "photo.txt").write_bytes(b"y")
    ours = Path(spill.new_folder(str(tmp_path)))
    os.close(spill._locks.pop(str(ours)))  # its scan was killed
    (ours / "77.bin").write_bytes(b"parts")
    (ours / "notes.txt").write_bytes(b"a person's")
    outside = tmp_path / "victim.txt"
    outside.write_bytes(b"keep me")
    (ours / "sigs.npy").symlink_to(outside)  # a link where an array was: removed, never followed
    piped = tmp_path / f"{spill.PREFIX}piped"  # a pipe where our marker would be: never waited on
    piped.mkdir()
    os.mkfifo(piped / "made-by-neardup")
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(tree),), workers=2))
    assert sorted(p.name for p in look_alike.iterdir()) == ["lock", "photo.txt"]
    assert (look_alike / "photo.txt").read_bytes() == b"y"
    assert sorted(p.name for p in ours.iterdir()) == ["notes.txt"]
    assert outside.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.glob(f"{spill.PREFIX}*")) == sorted([look_alike.name, ours.name, piped.name])
