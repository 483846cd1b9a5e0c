import csv
import io
import json
import os
import pty
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import DATA, english_texts, plant_edits, run_cli, write_footed_letters, write_slow_docx

pytestmark = pytest.mark.e2e  # runs the command line in a process of its own

STATUSES = {"ok", "empty", "encrypted", "unreadable", "too_large", "unsupported", "error"}


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    root = tmp_path / "uploads"
    root.mkdir()
    texts = english_texts()
    (root / "bsd.txt").write_text(texts["BSD"])
    (root / "bsd-copy.txt").write_text(plant_edits(texts["BSD"], 0.01, seed=3))
    (root / "mpl.txt").write_text(texts["MPL-2.0"])
    (root / "=HYPERLINK(1).txt").write_text(texts["MPL-2.0"])
    (root / "empty.txt").write_text("")
    return root


def path_from_display(shown: str) -> str:
    """The exact path (as the file system has it) that ``display_path`` showed as ``shown``."""

    def raw(m: re.Match[bytes]) -> bytes:
        code = m.group(1)
        if code == b"\\":
            return b"\\"
        if code.startswith(b"u"):
            return chr(int(code[1:], 16)).encode("utf-8")
        return bytes([int(code[1:], 16)])

    return os.fsdecode(re.sub(rb"\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})", raw, shown.encode("utf-8", "surrogateescape")))


def test_scan_writes_the_json_contract(small_tree, tmp_path):
    out = tmp_path / "report.json"
    proc = run_cli("scan", str(small_tree), "--db", str(tmp_path / "n.db"), "--format", "json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["format"] == "neardup-report" and report["version"] == 1
    assert set(report["settings"]) >= {"method", "hamming", "jaccard", "roots"}
    assert report["settings"]["roots"] == [str(small_tree.resolve())]
    for doc in report["documents"]:
        assert set(doc) >= {"id", "path", "size", "type", "chars", "status", "message"}
        assert os.path.isabs(doc["path"]) and doc["status"] in STATUSES
    for pair in report["pairs"]:
        assert set(pair) >= {"a", "b", "hamming", "jaccard_estimate", "jaccard", "containment", "matched_by"}
    groups = [{Path(m["path"]).name for m in g["members"]} for g in report["groups"]]
    assert sorted(map(sorted, groups)) == [["=HYPERLINK(1).txt", "mpl.txt"], ["bsd-copy.txt", "bsd.txt"]]
    for g in report["groups"]:
        assert set(g) >= {"id", "members", "representative"}
        assert g["members"][0]["id"] == g["representative"]
    assert "2 groups" in proc.stderr


def test_boilerplate_is_ignored_unless_asked_to_keep_it(tmp_path):
    root = tmp_path / "letters"
    root.mkdir()
    write_footed_letters(root)
    db = str(tmp_path / "n.db")
    proc = run_cli("scan", str(root), "--db", db, "--jaccard", "0.5", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    ignored = json.loads(proc.stdout)
    kept = json.loads(run_cli("groups", "--db", db, "--jaccard", "0.5", "--boilerplate", "keep").stdout)

    def groups(report):
        return [{Path(m["path"]).name for m in g["members"]} for g in report["groups"]]

    assert groups(ignored) == [{"letter00.txt", "letter00~copy.txt"}]
    assert max(len(g) for g in groups(kept)) >= 25
    assert ignored["settings"]["boilerplate"]["ignored"] is True
    assert ignored["settings"]["boilerplate"]["documents_affected"] == 31
    assert kept["settings"]["boilerplate"] == {"ignored": False}
    assert run_cli("groups", "--db", db, "--boilerplate", "maybe").returncode == 2
    html = run_cli("groups", "--db", db, "--jaccard", "0.5", "--format", "html").stdout
    assert "left out of Jaccard: 1 passage at the start or end" in html and "found in 31 of them" in html


def test_scan_of_the_test_corpora_gives_every_file_a_status(tmp_path):
    proc = run_cli("scan", str(DATA), "--db", str(tmp_path / "n.db"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    on_disk = {str(p.resolve()) for p in DATA.rglob("*") if p.is_file() and p.suffix in (".pdf", ".txt", ".md")}
    assert {d["path"] for d in report["documents"]} == on_disk
    assert all(d["status"] in STATUSES for d in report["documents"])
    assert all(d["message"] for d in report["documents"] if d["status"] != "ok")


def test_csv_has_one_row_per_member_and_neutralises_formulas(small_tree, tmp_path):
    proc = run_cli("scan", str(small_tree), "--db", str(tmp_path / "n.db"), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert len(rows) == 4
    paths = [r["path"] for r in rows]
    assert not any(p.startswith(("=", "+", "-", "@")) for p in paths)
    assert all(p.startswith(("/", "'")) for p in paths)
    assert sum(r["representative"] == "yes" for r in rows) == 2


def test_groups_regroups_without_rescanning(small_tree, tmp_path):
    db = tmp_path / "n.db"
    assert run_cli("scan", str(small_tree), "--db", str(db), "--out", str(tmp_path / "r.json")).returncode == 0
    before = sqlite3.connect(db).execute("SELECT count(*), max(id) FROM contents").fetchone()
    strict = run_cli("groups", "--db", str(db), "--method", "simhash", "--hamming", "0")
    loose = run_cli("groups", "--db", str(db), "--method", "minhash", "--jaccard", "0.5")
    assert strict.returncode == loose.returncode == 0
    assert len(json.loads(strict.stdout)["groups"]) < len(json.loads(loose.stdout)["groups"])
    assert sqlite3.connect(db).execute("SELECT count(*), max(id) FROM contents").fetchone() == before


def test_query_lists_stored_near_duplicates(small_tree, tmp_path):
    db = tmp_path / "n.db"
    assert run_cli("scan", str(small_tree), "--db", str(db), "--out", str(tmp_path / "r.json")).returncode == 0
    probe = tmp_path / "probe.txt"
    probe.write_text(plant_edits(english_texts()["BSD"], 0.01, seed=11))
    proc = run_cli("query", str(probe), "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    assert "bsd.txt" in proc.stdout and "bsd-copy.txt" in proc.stdout and "mpl.txt" not in proc.stdout
    as_json = json.loads(run_cli("query", str(probe), "--db", str(db), "--format", "json").stdout)
    assert {Path(m["path"]).name for m in as_json["matches"]} == {"bsd.txt", "bsd-copy.txt"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["scan", "/definitely/not/here"], "No such folder"),
        (["scan", ".", "--hamming", "99"], "--hamming"),
        (["scan", ".", "--jaccard", "0"], "--jaccard"),
        (["groups", "--jaccard", "0.2"], "must be between 0.3 and 1"),
        (["scan", ".", "--method", "cosine"], "--method"),
        (["groups", "--db", "/definitely/not/here.db"], "No database"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_usage_exits_2_with_one_clear_line(args, message, tmp_path):
    proc = run_cli(*args, cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_failure_exits_1_with_one_line(tmp_path, small_tree):
    foreign = tmp_path / "other.db"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    proc = run_cli("scan", str(small_tree), "--db", str(foreign))
    assert proc.returncode == 1
    assert "another program" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_scan_short_of_memory_says_so_and_reads_nothing_unless_told_to_go_on(small_tree, tmp_path):
    """With a budget of 10 MiB the 5 files do not fit: the scan says in one line what it would need, what
    there is and the ways on (in Chinese too), reads nothing, and exits 1; with --no-memory-check it scans."""
    db = tmp_path / "db.sqlite"
    proc = run_cli("scan", str(small_tree), "--db", str(db), "--workers", "2", "--memory-budget", "10")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert "A scan of 5 files may need about" in line and "more than the 10 MB it may use" in line
    assert "Even with one worker" in line
    assert "--no-memory-check" in line and "neardup spark scan" in line and "--workers 1" not in line
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM files").fetchone()[0] == 0
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    chinese = run_cli(
        "scan", str(small_tree), "--db", str(db), "--memory-budget", "10", env=env | {"LANG": "zh_CN.UTF-8"}
    )
    assert chinese.returncode == 1 and "内存" in chinese.stderr and "--no-memory-check" in chinese.stderr
    from neardup_gui.core.forecast import projected_need

    room_for_one = str((projected_need(5, 1) + projected_need(5, 2)) // 2 >> 20)
    proc = run_cli("scan", str(small_tree), "--db", str(db), "--workers", "2", "--memory-budget", room_for_one)
    assert proc.returncode == 1 and "With 1 worker it would need about" in proc.stderr and "--workers 1)" in proc.stderr
    proc = run_cli("scan", str(small_tree), "--db", str(db), "--memory-budget", "10", "--no-memory-check")
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["documents"] == 5


def test_progress_only_on_a_terminal(small_tree, tmp_path):
    quiet = run_cli("scan", str(small_tree), "--db", str(tmp_path / "a.db"), "--out", str(tmp_path / "a.json"))
    assert "\r" not in quiet.stderr and "fingerprint" not in quiet.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neardup_gui.cli",
            "scan",
            str(small_tree),
            "--db",
            str(tmp_path / "b.db"),
            "--out",
            str(tmp_path / "b.json"),
        ],
        stderr=follower,
        stdout=subprocess.DEVNULL,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "fingerprint" in shown and "\r" in shown and "%" in shown


def _report_signature(report: dict) -> list:
    docs = {d["id"]: d["path"] for d in report["documents"]}
    return sorted(
        sorted((docs[m["id"]], m["hamming"], m["jaccard"]) for m in g["members"]) for g in report["groups"]
    ), sorted((d["path"], d["status"]) for d in report["documents"])


def test_a_scan_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path):
    root = tmp_path / "many"
    root.mkdir()
    texts = english_texts()
    # enough files for several of the scan's 200-file write batches: the first lands well before the
    # last even on a fast machine (with 240, one batch of 200 and the rest could land within one poll)
    files = 1000
    for n in range(files):
        base = list(texts.values())[n % len(texts)]
        (root / f"doc{n:04d}.txt").write_text(plant_edits(base, 0.01 * (n % 5), seed=n))
    killed_db = tmp_path / "killed.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neardup_gui.cli",
            "scan",
            str(root),
            "--db",
            str(killed_db),
            "--workers",
            "1",
            "--out",
            str(tmp_path / "never.json"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            con = sqlite3.connect(killed_db, timeout=1)
            stored = con.execute("SELECT count(*) FROM files").fetchone()[0]
            con.close()
        except sqlite3.Error:
            stored = 0
        if stored >= 20:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 20 <= stored < files, f"the kill must land mid-scan ({stored} of {files} files stored)"
    con = sqlite3.connect(killed_db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()

    options = ("--format", "json", "--hamming", "5", "--method", "both")
    resumed = run_cli("scan", str(root), "--db", str(killed_db), *options)
    fresh = run_cli("scan", str(root), "--db", str(tmp_path / "fresh.db"), *options)
    assert resumed.returncode == fresh.returncode == 0, resumed.stderr + fresh.stderr
    unchanged = int(re.search(r"(\d+) unchanged", resumed.stderr).group(1))
    assert unchanged >= 20, resumed.stderr  # the work done before the kill was kept
    assert _report_signature(json.loads(resumed.stdout)) == _report_signature(json.loads(fresh.stdout))


def test_json_pairs_name_their_longest_shared_passages(small_tree, tmp_path):
    proc = run_cli("scan", str(small_tree), "--db", str(tmp_path / "n.db"), "--format", "json")
    report = json.loads(proc.stdout)
    near = [p for p in report["pairs"] if p["matched_by"] != "exact"]
    assert near, "the BSD pair is a near duplicate"
    for pair in near:
        assert pair["shared_passages"] and len(pair["shared_passages"][0]) >= 30
        shared = " ".join(pair["shared_passages"])
        assert "Redistribution" in shared or "copyright" in shared.lower()


def test_shared_passages_are_kept_and_a_changed_file_is_compared_again(small_tree, tmp_path):
    """A report of an unchanged collection reads no text: the passages found once are kept in the
    database for the two contents (here the files are even gone, and the report still names them);
    a file whose bytes changed is read and compared again."""
    db = str(tmp_path / "kept.db")
    first = json.loads(run_cli("scan", str(small_tree), "--db", db, "--format", "json").stdout)
    near = {(p["a"], p["b"]): p["shared_passages"] for p in first["pairs"] if p["matched_by"] != "exact"}
    assert near and all(near.values())
    aside = tmp_path / "aside"
    shutil.move(str(small_tree), aside)  # no text can be read now
    again = json.loads(run_cli("groups", "--db", db, "--format", "json").stdout)
    assert {(p["a"], p["b"]): p["shared_passages"] for p in again["pairs"] if (p["a"], p["b"]) in near} == near

    shutil.move(str(aside), small_tree)
    paths = {d["id"]: Path(d["path"]) for d in first["documents"]}
    (a, b), passages = next(iter(near.items()))
    text = paths[b].read_text(encoding="utf-8")
    words = [w for w in passages[0].split() if len(w) >= 6 and text.count(w) == 1]
    paths[b].write_text(text.replace(words[len(words) // 2], "zebra-marker-word"), encoding="utf-8")
    third = json.loads(run_cli("scan", str(small_tree), "--db", db, "--format", "json").stdout)
    pair = next(p for p in third["pairs"] if {paths[p["a"]], paths[p["b"]]} == {paths[a], paths[b]})
    assert pair["shared_passages"] != passages  # read and compared again, not the kept ones


def test_groups_on_a_database_of_another_scheme_says_to_scan_again(small_tree, tmp_path):
    db = tmp_path / "n.db"
    assert run_cli("scan", str(small_tree), "--db", str(db), "--out", str(tmp_path / "r.json")).returncode == 0
    con = sqlite3.connect(db)
    scheme = json.loads(con.execute("SELECT value FROM meta WHERE key = 'scheme'").fetchone()[0])
    scheme["shingle_size"] = 4  # as an older neardup would have written it
    con.execute("UPDATE meta SET value = ? WHERE key = 'scheme'", (json.dumps(scheme),))
    con.commit()
    con.close()
    for args in (["groups"], ["query", str(small_tree / "bsd.txt")]):
        proc = run_cli(*args, "--db", str(db))
        assert proc.returncode == 1 and "scan the folders again" in proc.stderr and "Traceback" not in proc.stderr
    assert run_cli("scan", str(small_tree), "--db", str(db), "--out", str(tmp_path / "r2.json")).returncode == 0
    assert run_cli("groups", "--db", str(db)).returncode == 0


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-5", "soon"])
def test_a_timeout_that_is_not_a_positive_number_is_refused(small_tree, tmp_path, seconds):
    proc = run_cli("scan", str(small_tree), "--db", str(tmp_path / "n.db"), "--timeout", seconds)
    assert proc.returncode == 2 and "--timeout" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "n.db").exists()


def test_a_report_never_replaces_the_database_a_folder_or_a_document(small_tree, tmp_path):
    db = tmp_path / "n.db"
    assert run_cli("scan", str(small_tree), "--db", str(db), "--format", "csv").returncode == 0
    saved = db.read_bytes()
    for command in (["scan", str(small_tree)], ["groups"]):
        proc = run_cli(*command, "--db", str(db), "--out", str(db))
        assert proc.returncode == 2 and "the database itself" in proc.stderr, proc.stderr
    assert db.read_bytes() == saved
    folder = tmp_path / "reports"
    folder.mkdir()
    proc = run_cli("groups", "--db", str(db), "--out", str(folder))
    assert proc.returncode == 2 and "is a folder" in proc.stderr
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob("*.part"))
    document = small_tree / "bsd.txt"
    text = document.read_text()
    for command in (["scan", str(small_tree)], ["groups"]):
        proc = run_cli(*command, "--db", str(db), "--format", "csv", "--out", str(document))
        assert proc.returncode == 2 and "one of the documents" in proc.stderr, proc.stderr
    assert document.read_text() == text
    # a new text file inside a folder being scanned would be read as a document by this very scan
    notes = small_tree / "notes.txt"
    notes.write_text("my own notes, not a report")
    proc = run_cli("scan", str(small_tree), "--db", str(db), "--out", str(notes))
    assert proc.returncode == 2 and notes.read_text() == "my own notes, not a report"
    # nor may a report that does not exist yet go where the next scan would take it for a document
    for command in (["scan", str(small_tree)], ["groups"], ["groups", "--root", str(small_tree)]):
        proc = run_cli(*command, "--db", str(db), "--format", "csv", "--out", str(small_tree / "dupes.csv"))
        assert proc.returncode == 2 and "inside a folder being scanned" in proc.stderr, (command, proc.stderr)
    assert not (small_tree / "dupes.csv").exists()
    # an ordinary report file is written as before, and written again
    report = tmp_path / "report.csv"
    for _ in range(2):
        assert run_cli("groups", "--db", str(db), "--format", "csv", "--out", str(report)).returncode == 0
    assert "bsd-copy.txt" in report.read_text(encoding="utf-8")


def test_a_damaged_text_is_compared_and_the_report_says_what_was_replaced(tmp_path):
    root = tmp_path / "damaged"
    root.mkdir()
    text = english_texts()["MPL-2.0"].encode()
    (root / "mpl.txt").write_bytes(text)
    (root / "mpl-with-a-zero-byte.txt").write_bytes(text[:3000] + b"\x00" + text[3000:])
    proc = run_cli("scan", str(root), "--db", str(tmp_path / "n.db"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    damaged = next(d for d in report["documents"] if d["path"].endswith("zero-byte.txt"))
    assert damaged["status"] == "ok" and "1 damaged byte" in damaged["message"]
    assert len(report["groups"]) == 1 and len(report["groups"][0]["members"]) == 2


def _cli_limited(*args: str, file_size_limit: int) -> subprocess.CompletedProcess[str]:
    """The CLI with no file allowed to grow past ``file_size_limit`` bytes: writes fail as on a full disk."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run(
        [sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, preexec_fn=limit, timeout=300
    )


def test_a_full_disk_is_one_line_and_the_next_run_completes(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    for n, name in enumerate(english_texts()):
        (root / f"{n}.txt").write_text(english_texts()[name])
    db = tmp_path / "n.db"
    proc = _cli_limited("scan", str(root), "--db", str(db), "--workers", "1", file_size_limit=120_000)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.count("\n") == 1 and "the disk may be full" in proc.stderr and "Traceback" not in proc.stderr
    again = run_cli("scan", str(root), "--db", str(db), "--format", "json")
    assert again.returncode == 0, again.stderr
    assert len(json.loads(again.stdout)["documents"]) == len(english_texts())


def test_a_damaged_database_is_one_line(small_tree, tmp_path):
    db = tmp_path / "n.db"
    assert run_cli("scan", str(small_tree), "--db", str(db)).returncode == 0
    size = db.stat().st_size
    with open(db, "r+b") as fh:  # every page but the first overwritten, as a failing disk leaves them
        fh.seek(4096)
        fh.write(bytes(range(256)) * ((size - 4096) // 256))
    proc = run_cli("groups", "--db", str(db), "--format", "csv")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "is damaged" in proc.stderr and "Traceback" not in proc.stderr


def test_two_scans_of_the_same_files_give_the_same_report(small_tree, tmp_path):
    """Database ids follow the order files were stored in; the report's ids and pair directions must not."""
    first = run_cli("scan", str(small_tree), "--db", str(tmp_path / "one.db"), "--format", "json")
    decoy = small_tree / "0-decoy.txt"  # stored first in the second database, then gone: every id shifts
    decoy.write_text(english_texts()["Apache-2.0"])
    assert run_cli("scan", str(small_tree), "--db", str(tmp_path / "two.db")).returncode == 0
    decoy.unlink()
    second = run_cli("scan", str(small_tree), "--db", str(tmp_path / "two.db"), "--format", "json")
    assert first.returncode == 0 and second.returncode == 0
    one, two = json.loads(first.stdout), json.loads(second.stdout)
    for key in ("documents", "pairs", "groups"):
        assert one[key] == two[key], key
    assert [d["id"] for d in one["documents"]] == list(range(1, len(one["documents"]) + 1))
    assert all(p["a"] < p["b"] for p in one["pairs"]) and one["pairs"]


def test_a_scanned_folder_that_was_removed_leaves_the_results(small_tree, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "bsd-again.txt").write_text(english_texts()["BSD"])
    db = str(tmp_path / "n.db")
    assert run_cli("scan", str(small_tree), str(other), "--db", db).returncode == 0
    shutil.rmtree(other)
    proc = run_cli("scan", str(small_tree), str(other), "--db", db, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert f"{other} no longer exists: its documents left the results" in proc.stderr
    report = json.loads(proc.stdout)
    assert not any("bsd-again" in d["path"] for d in report["documents"])
    assert report["summary"]["scan"]["vanished_roots"] == [str(other)]
    groups = json.loads(run_cli("groups", "--db", db, "--format", "json").stdout)
    assert not any("bsd-again" in d["path"] for d in groups["documents"])
    typo = run_cli("scan", str(small_tree), str(tmp_path / "nowhere"), "--db", db)
    assert typo.returncode == 2 and "No such folder or file" in typo.stderr


def test_query_reads_a_new_file_as_a_scan_does_with_its_limits(small_tree, tmp_path):
    db = str(tmp_path / "n.db")
    assert run_cli("scan", str(small_tree), "--db", db).returncode == 0
    big = tmp_path / "big.txt"
    big.write_text(english_texts()["GPL-2"] * 200)  # ~3.6 MB
    proc = run_cli("query", str(big), "--db", db, "--max-size", "1")
    assert proc.returncode == 2 and "larger than the 1 MiB limit" in proc.stderr and "Traceback" not in proc.stderr
    slow = write_slow_docx(tmp_path / "slow.docx")  # ~5 s to read
    started = time.monotonic()
    proc = run_cli("query", str(slow), "--db", db, "--timeout", "1")
    assert proc.returncode == 1 and "took longer than 1 s" in proc.stderr, proc.stderr
    assert time.monotonic() - started < 30
    edited = tmp_path / "edited.txt"
    edited.write_text(plant_edits(english_texts()["BSD"], 0.01, seed=4))
    found = run_cli("query", str(edited), "--db", db)
    assert found.returncode == 0 and "bsd.txt" in found.stdout


def test_a_name_that_is_not_utf8_never_looks_like_another_file(tmp_path):
    """b"caf\\xe9.txt" (Latin-1 bytes) and a file literally named "caf\\\\xe9.txt": the same bytes inside, two
    files, two different paths in the report, each leading back to its own file."""

    root = tmp_path / "names"
    root.mkdir()
    latin1 = os.path.join(os.fsencode(root), b"caf\xe9.txt")
    literal = root / "caf\\xe9.txt"
    for path in (latin1, literal):
        with open(path, "wb") as fh:
            fh.write(english_texts()["BSD"].encode())
    proc = run_cli("scan", str(root), "--db", str(tmp_path / "n.db"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    members = [m["path"] for m in json.loads(proc.stdout)["groups"][0]["members"]]
    assert len(members) == 2 and len(set(members)) == 2, members
    assert sorted(os.fsencode(path_from_display(p)) for p in members) == sorted([latin1, os.fsencode(literal)])


def test_the_same_text_in_several_files_gives_the_same_pairs_whatever_was_stored_first(tmp_path):
    """Three files whose texts are equal after normalisation (white space differs): which of them the
    report pairs must not depend on the order they reached the database."""
    text = english_texts()["BSD"]
    root = tmp_path / "same"
    root.mkdir()
    (root / "c.txt").write_text(text)
    later = tmp_path / "n2.db"
    assert run_cli("scan", str(root), "--db", str(later)).returncode == 0  # c.txt stored first here
    (root / "a.txt").write_text(text.replace(" ", "  ", 5))
    (root / "b.txt").write_text(text.replace("\n", "\n\n", 3))
    reports = [
        json.loads(run_cli("scan", str(root), "--db", str(db), "--format", "json").stdout)
        for db in (tmp_path / "n1.db", later)
    ]
    assert reports[0]["pairs"] == reports[1]["pairs"] and len(reports[0]["pairs"]) == 3  # every two of the three
    assert reports[0]["groups"] == reports[1]["groups"]


def test_import_spark_refuses_a_crafted_result_in_one_line_and_loads_it_once_mended(tmp_path):
    """The real command on a result whose record leads out of the mapped folder, then on a record of the
    wrong shape: exit 1, one line naming the file, the line and the field, no traceback, nothing stored;
    mended, the same database takes the result."""
    from tests.core.test_import_spark import PART, documents_in, records, write_result

    db = tmp_path / "review.db"
    for n, (field, value, said) in enumerate(
        [
            ("path", "/c1/uploads/../../victim/secret.txt", "leads outside /m"),
            ("minhash", [1, 2, 3], "base64 of 512 bytes"),
        ]
    ):
        lines = records()
        lines[1][field] = value
        done = run_cli(
            "import-spark", str(write_result(tmp_path / f"bad{n}", lines)), "--db", str(db), "--map", "/c1/uploads=/m"
        )
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert f"{PART}, line 2: the field {field}" in done.stderr and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and documents_in(db) == 0
    done = run_cli(
        "import-spark", str(write_result(tmp_path / "good", records())), "--db", str(db), "--map", "/c1/uploads=/m"
    )
    assert done.returncode == 0, done.stderr
    assert documents_in(db) == 3
