"""What a hostile file name, an unlucky target or a damaged disk does to the command line: nothing the program
writes lands on a device, a pipe or through a link; no name drives the terminal; a damaged row says so and
a rescan repairs it; a database on a read-only disk can still be read. Every target here is made inside the
test's own folder (a device node is made there when running as root, as CI does)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from neardup_gui.core.errors import UsageError
from neardup_gui.core.models import Method, Thresholds
from neardup_gui.core.session import Session
from tests.conftest import english_texts, plant_edits, run_cli

pytestmark = pytest.mark.e2e  # runs the command line in a process of its own


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "uploads"
    root.mkdir()
    texts = english_texts()
    for n, name in enumerate(("BSD", "MPL-2.0")):
        (root / f"{name}.txt").write_text(texts[name])
        (root / f"{name}-copy.txt").write_text(plant_edits(texts[name], 0.02, seed=n))
    return root


def _special_targets(folder: Path) -> Iterator[tuple[str, Path, Path]]:
    """(what it is, the path, a file it must leave alone): a pipe, a socket, a link to a file, and (as root)
    a device node like /dev/null's, all made in ``folder``."""
    victim = folder / "victim.txt"
    victim.write_text("not a report")
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    yield "pipe", fifo, victim
    link = folder / "link.json"
    link.symlink_to(victim)
    yield "link", link, victim
    sock_path = folder / "sock"
    with contextlib.closing(socket.socket(socket.AF_UNIX)) as sock:
        sock.bind(str(sock_path))
        yield "socket", sock_path, victim
    device = folder / "null"
    with contextlib.suppress(OSError):  # a device node needs root (and a container that allows it)
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    if device.exists():
        yield "device", device, victim


def _same_kind(path: Path, kind: str) -> bool:
    mode = os.lstat(path).st_mode
    return {"pipe": stat.S_ISFIFO, "link": stat.S_ISLNK, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}[kind](mode)


def test_a_report_never_goes_to_a_device_a_pipe_a_socket_or_through_a_link(corpus, tmp_path):
    targets = tmp_path / "targets"
    targets.mkdir()
    db = tmp_path / "n.db"
    assert run_cli("scan", str(corpus), "--db", str(db), "--quiet").returncode == 0
    for kind, target, victim in _special_targets(targets):
        for command in (["scan", str(corpus), "--db", str(tmp_path / "new.db")], ["groups", "--db", str(db)]):
            proc = run_cli(*command, "--format", "csv", "--out", str(target), timeout=60)
            assert proc.returncode == 2, (kind, command[0], proc.stderr)
            assert len(proc.stderr.strip().splitlines()) == 1 and str(target) in proc.stderr, proc.stderr
            assert _same_kind(target, kind), (kind, command[0])
            assert victim.read_text() == "not a report"
            assert not (tmp_path / "new.db").exists(), "refused before any work"
        assert not [p.name for p in targets.iterdir() if p.name.endswith(".part")]
    # what the app's Export Report… calls: refused too, before the report is made
    with Session(db) as session:
        session.open((), Thresholds(Method.MINHASH, 3, 0.8))
        (tmp_path / "gui").mkdir()
        for kind, target, _victim in _special_targets(tmp_path / "gui"):
            with pytest.raises(UsageError):
                session.write_report(target, "json")
            assert _same_kind(target, kind)


def test_a_report_replaces_a_regular_file_whole_and_leaves_no_work_file(corpus, tmp_path):
    out = tmp_path / "report.json"
    out.write_text("an old report")
    proc = run_cli("scan", str(corpus), "--db", str(tmp_path / "n.db"), "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "neardup-report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.db", "report.json", "uploads"]


def test_a_database_path_that_is_not_a_file_is_refused(corpus, tmp_path):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    proc = run_cli("scan", str(corpus), "--db", str(fifo), timeout=60)
    assert proc.returncode == 1 and "not a file" in proc.stderr, proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.db", "uploads"], "no journal beside it"


NAMES = ("\x1b]0;PWNED\x07title.txt", "new\nline.txt", "bell\x07\x9b31m.txt")


def test_no_file_name_can_drive_the_terminal(tmp_path):
    root = tmp_path / "names"
    root.mkdir()
    text = english_texts()["BSD"]
    for n, name in enumerate(NAMES):
        (root / name).write_text(plant_edits(text, 0.01, seed=n))
    db = str(tmp_path / "n.db")
    outputs = []
    scan = run_cli("scan", str(root), "--db", db, "--format", "csv")
    assert scan.returncode == 0, scan.stderr
    outputs += [scan.stdout, scan.stderr]
    query = run_cli("query", str(root / NAMES[2]), "--db", db)
    assert query.returncode == 0, query.stderr
    outputs += [query.stdout, query.stderr]
    missing = run_cli("query", str(root / "gone\x1b[2J.txt"), "--db", db)
    assert missing.returncode == 2
    outputs.append(missing.stderr)
    for output in outputs:
        assert not any(c in output for c in "\x1b\x07\x9b"), output
    assert len(query.stdout.strip().splitlines()) == 2, "one line a match: no name splits a line"
    assert "\\x1b]0;PWNED\\x07title.txt" in query.stdout and "new\\x0aline.txt" in query.stdout
    assert "\\x1b[2J" in missing.stderr


def test_the_scan_progress_line_shows_names_escaped(tmp_path):
    import pty

    root = tmp_path / "names"
    root.mkdir()
    for n in range(300):  # enough files for the progress line to name some
        (root / f"\x1b]0;PWNED\x07{n}.txt").write_text(f"document {n} " + "words " * 50)
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [*_cli(), "scan", str(root), "--db", str(tmp_path / "n.db"), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=secondary,
        stdin=subprocess.DEVNULL,
    )
    os.close(secondary)
    seen = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(primary, 65536):
            seen += chunk
    assert proc.wait(timeout=120) == 0
    os.close(primary)
    assert b"PWNED" in seen, "the progress line named a file"
    assert b"\x1b]" not in seen and b"\x07" not in seen


def _cli() -> list[str]:
    import sys

    return [sys.executable, "-m", "neardup_gui.cli"]


def test_a_damaged_row_says_the_database_is_damaged_and_a_rescan_repairs_it(corpus, tmp_path):
    db = tmp_path / "n.db"
    first = run_cli("scan", str(corpus), "--db", str(db), "--format", "csv")
    assert first.returncode == 0, first.stderr
    with contextlib.closing(sqlite3.connect(db)) as con, con:
        con.execute("UPDATE contents SET minhash = substr(minhash, 1, 10) WHERE id = (SELECT min(id) FROM contents)")
    for command in (["groups"], ["query", str(corpus / "BSD.txt")]):
        proc = run_cli(*command, "--db", str(db))
        assert proc.returncode == 1, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and "damaged" in proc.stderr, proc.stderr
        assert "broadcast" not in proc.stderr
    again = run_cli("scan", str(corpus), "--db", str(db), "--format", "csv")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert run_cli("groups", "--db", str(db), "--format", "csv").stdout == first.stdout


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[Path]:
    """``folder`` as a read-only disk shows it: a read-only bind mount as root (root may write anywhere
    else), a folder without write permission otherwise."""
    if os.geteuid() == 0:
        view = folder.with_name(folder.name + "-ro")
        view.mkdir()
        subprocess.run(["mount", "--bind", str(folder), str(view)], check=True)
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True)
            yield view
        finally:
            subprocess.run(["umount", str(view)], check=True)
            view.rmdir()
    else:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)


def test_a_database_on_a_read_only_disk_can_still_be_read(corpus, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    db = store / "n.db"
    first = run_cli("scan", str(corpus), "--db", str(db), "--format", "csv", "--jaccard", "0.5")
    assert first.returncode == 0, first.stderr
    copy = tmp_path / "copy.db"  # the same database where it can be written: what a query answers there
    copy.write_bytes(db.read_bytes())
    writable = {
        m: run_cli("query", str(corpus / "BSD.txt"), "--db", str(copy), "--method", m)
        for m in ("simhash", "minhash", "both")
    }
    with _read_only(store) as view:
        ro = view / "n.db"
        groups = run_cli("groups", "--db", str(ro), "--format", "csv", "--jaccard", "0.5")
        assert groups.returncode == 0, groups.stderr
        assert groups.stdout == first.stdout
        lower = run_cli("groups", "--db", str(ro), "--format", "json", "--jaccard", "0.3")  # a forest not kept
        assert lower.returncode == 0, lower.stderr
        for method, answer in writable.items():
            proc = run_cli("query", str(corpus / "BSD.txt"), "--db", str(ro), "--method", method)
            assert proc.returncode == 0, proc.stderr
            assert proc.stdout == answer.stdout and "BSD-copy.txt" in proc.stdout
        assert sorted(p.name for p in view.iterdir()) == ["n.db"], "nothing written beside it"
    # changes still in the database's -wal file (a writer stopped, or writing now): said, not ignored
    with contextlib.closing(sqlite3.connect(db)) as writer:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', 'pending')")
        writer.commit()
        with _read_only(store) as view:
            proc = run_cli("groups", "--db", str(view / "n.db"), "--format", "csv")
            assert proc.returncode == 1 and "-wal" in proc.stderr, proc.stderr


def test_query_says_what_a_path_is_when_it_is_not_a_file(corpus, tmp_path):
    db = str(tmp_path / "n.db")
    assert run_cli("scan", str(corpus), "--db", db, "--quiet").returncode == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, said in ((corpus, "is a folder"), (fifo, "not a file"), (tmp_path / "gone.txt", "No such file")):
        proc = run_cli("query", str(path), "--db", db, timeout=60)
        assert proc.returncode == 2 and said in proc.stderr, proc.stderr


def test_the_spark_result_never_goes_through_a_link(corpus, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "result"
    link.symlink_to(elsewhere)
    proc = run_cli("spark", "scan", str(corpus), "--out", str(link), timeout=120)
    assert proc.returncode == 2 and "symbolic link" in proc.stderr, proc.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_report_on_a_full_disk_names_the_report_and_leaves_nothing(tmp_path):
    """Writes past RLIMIT_FSIZE fail as on a full disk (EFBIG): the error names the report, not a work file,
    and neither the report nor a work file is left."""
    import resource
    import sys

    out = tmp_path / "report.html"
    code = (
        "import sys; from pathlib import Path; from neardup_gui.core.review.report import write_report_file\n"
        "try:\n    write_report_file(Path(sys.argv[1]), 'x' * 200_000)\n"
        "except OSError as exc:\n    print(exc.filename)\n"
    )

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    proc = subprocess.run(
        [sys.executable, "-c", code, str(out)], capture_output=True, text=True, preexec_fn=limit, timeout=60
    )
    assert proc.stdout.strip() == str(out), proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_database_inside_a_scanned_folder_is_not_a_document(corpus):
    db = corpus / "notes.txt"
    proc = run_cli("scan", str(corpus), "--db", str(db), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    names = {Path(d["path"]).name for d in json.loads(proc.stdout)["documents"]}
    assert names == {"BSD.txt", "BSD-copy.txt", "MPL-2.0.txt", "MPL-2.0-copy.txt"}
